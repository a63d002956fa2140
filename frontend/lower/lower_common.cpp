//===- frontend/lower/lower_common.cpp - helpers shared by the per-family files ---------===//
#include "frontend/lower/lower_common.h"

namespace ptxmini::frontend::lower {

bool plainOperands(LowerCtx &ctx, const ptx::Instruction &in, unsigned numSrcs, ori::Operand &d,
                   std::array<ori::Operand, 3> &s) {
  if (in.operands.size() != numSrcs + 1 || !in.operands[0].is<ptx::RegOperand>())
    return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
  d = ctx.reg(in, in.operands[0].as<ptx::RegOperand>().name);
  if (d.kind == ori::OperandKind::None)
    return false;
  for (unsigned i = 0; i < numSrcs; ++i) {
    s[i] = ctx.source(in, in.operands[i + 1]);
    if (s[i].kind == ori::OperandKind::None)
      return false;
  }
  return true;
}

ori::Operand negate(const ori::Operand &o) {
  ori::Operand n = o;
  if (n.kind == ori::OperandKind::Imm)
    n.imm = static_cast<int32_t>(-static_cast<uint32_t>(n.imm));
  else
    n.mods ^= ori::OM_NEG;
  return n;
}

const CmpRow *findCmp(const ptx::Instruction &in, std::span<const CmpRow> rows) {
  for (const ptx::Modifier &m : in.modifiers)
    if (m.kind == ptx::Modifier::Kind::Other)
      for (const CmpRow &r : rows)
        if (r.ptx == m.text)
          return &r;
  return nullptr;
}

bool setpOperands(LowerCtx &ctx, const ptx::Instruction &in, ori::Operand &p, ori::Operand &a,
                  ori::Operand &b) {
  if (in.operands.size() != 3 || !in.operands[0].is<ptx::RegOperand>())
    return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
  p = ctx.reg(in, in.operands[0].as<ptx::RegOperand>().name);
  a = ctx.source(in, in.operands[1]);
  b = ctx.source(in, in.operands[2]);
  return p.kind != ori::OperandKind::None && a.kind != ori::OperandKind::None &&
         b.kind != ori::OperandKind::None;
}

} // namespace ptxmini::frontend::lower
