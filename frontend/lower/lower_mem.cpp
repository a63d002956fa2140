//===- frontend/lower/lower_mem.cpp - moves, parameters, special registers, memory -----===//
///
/// \file
/// Instruction selection for data movement, as ptxas selects it for sm_90 (forms read off
/// ptxas 13.0.88 output with nvdisasm 13.2):
///   ld.param (kernel)     LDC[.64] d, c[0x0][paramBase + offset]
///   mov d, %sreg          special registers: lower_sreg.cpp (the target's table)
///   mov d, a              MOV d, a (64-bit: one MOV per half)
///   cvta.to.global        a copy: on sm_90 a global address is its generic address (GUESS:
///                         ptxas emits no instruction for it in every kernel we compared)
///   ld/st.global          LDG.E[.64] d, desc[UR][a.64+off] / STG.E[.64] desc[UR][a.64+off], v
///                         with the descriptor loaded once from c[0x0][globalDescOffset]
//===----------------------------------------------------------------------------------===//
#include "frontend/lower/lower_context.h"

#include <array>

namespace ptxmini::frontend::lower {
namespace {

using ori::Modifier;
using ori::Opcode;
using ori::Operand;
using ori::RegClass;

bool lowerLd(LowerCtx &ctx, const ptx::Instruction &in) {
  ptx::ScalarType t = in.type();
  unsigned bits = ptx::typeBits(t);
  if (in.vectorWidth() != 1 || (bits != 32 && bits != 64))
    return ctx.unsupported(in);
  if (in.operands.size() != 2 || !in.operands[0].is<ptx::RegOperand>() ||
      !in.operands[1].is<ptx::AddressOperand>())
    return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
  Operand d = ctx.reg(in, in.operands[0].as<ptx::RegOperand>().name);
  if (d.kind == ori::OperandKind::None)
    return false;
  const auto &addr = in.operands[1].as<ptx::AddressOperand>();
  switch (in.space()) {
  case ptx::StateSpace::Param: {
    if (!ctx.onlyModifiers(in, {}))
      return false;
    auto p = ctx.params.find(addr.base);
    if (addr.baseKind != ptx::AddressOperand::BaseKind::Symbol || p == ctx.params.end())
      return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
    uint32_t off = ctx.target.constBank().paramBase + p->second.offset +
                   static_cast<uint32_t>(addr.offset);
    if (bits == 64)
      ctx.emit(Opcode::LDC, {Modifier::Size64}, {d}, {Operand::cbank(0, off)});
    else
      ctx.emit(Opcode::LDC, {}, {d}, {Operand::cbank(0, off)});
    return true;
  }
  case ptx::StateSpace::Global: {
    if (!ctx.onlyModifiers(in, {}))
      return false;
    if (addr.baseKind != ptx::AddressOperand::BaseKind::Register)
      return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
    Operand base = ctx.reg(in, addr.base);
    if (base.kind == ori::OperandKind::None)
      return false;
    if (base.width != 2)
      return ctx.unsupported(in, "A 32-bit address in '" + in.fullOpcode() + "'");
    Operand m = Operand::mem(base, static_cast<int32_t>(addr.offset), ctx.globalDescriptor());
    if (bits == 64)
      ctx.emit(Opcode::LDG, {Modifier::E, Modifier::Size64}, {d}, {m});
    else
      ctx.emit(Opcode::LDG, {Modifier::E}, {d}, {m});
    return true;
  }
  default:
    return ctx.unsupported(in);
  }
}

bool lowerSt(LowerCtx &ctx, const ptx::Instruction &in) {
  ptx::ScalarType t = in.type();
  unsigned bits = ptx::typeBits(t);
  if (in.space() != ptx::StateSpace::Global || in.vectorWidth() != 1 ||
      (bits != 32 && bits != 64))
    return ctx.unsupported(in);
  if (!ctx.onlyModifiers(in, {}))
    return false;
  if (in.operands.size() != 2 || !in.operands[0].is<ptx::AddressOperand>() ||
      !in.operands[1].is<ptx::RegOperand>())
    return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
  const auto &addr = in.operands[0].as<ptx::AddressOperand>();
  if (addr.baseKind != ptx::AddressOperand::BaseKind::Register)
    return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
  Operand base = ctx.reg(in, addr.base);
  Operand v = ctx.reg(in, in.operands[1].as<ptx::RegOperand>().name);
  if (base.kind == ori::OperandKind::None || v.kind == ori::OperandKind::None)
    return false;
  if (base.width != 2)
    return ctx.unsupported(in, "A 32-bit address in '" + in.fullOpcode() + "'");
  Operand m = Operand::mem(base, static_cast<int32_t>(addr.offset), ctx.globalDescriptor());
  if (bits == 64)
    ctx.emit(Opcode::STG, {Modifier::E, Modifier::Size64}, {}, {m, v});
  else
    ctx.emit(Opcode::STG, {Modifier::E}, {}, {m, v});
  return true;
}

bool lowerMov(LowerCtx &ctx, const ptx::Instruction &in) {
  if (!ctx.onlyModifiers(in, {}))
    return false;
  if (in.operands.size() != 2 || !in.operands[0].is<ptx::RegOperand>())
    return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
  // Special registers (%tid, %ntid, %laneid, %clock64, ...): one table, lower_sreg.cpp.
  if (in.operands[1].is<ptx::RegOperand>() &&
      !isDeclaredRegister(ctx, in.operands[1].as<ptx::RegOperand>().name)) {
    Operand d = ctx.reg(in, in.operands[0].as<ptx::RegOperand>().name);
    return d.kind != ori::OperandKind::None &&
           lowerSpecialRegister(ctx, in, d, in.operands[1].as<ptx::RegOperand>().name);
  }
  unsigned bits = ptx::typeBits(in.type());
  if (bits != 32 && bits != 64)
    return ctx.unsupported(in);
  Operand d = ctx.reg(in, in.operands[0].as<ptx::RegOperand>().name);
  if (d.kind == ori::OperandKind::None)
    return false;
  Operand s = ctx.source(in, in.operands[1]);
  if (s.kind == ori::OperandKind::None)
    return false;
  if (d.width == 2) {
    if (s.kind != ori::OperandKind::VReg || s.width != 2)
      return ctx.unsupported(in, "A 64-bit immediate in '" + in.fullOpcode() + "'");
    ctx.emit(Opcode::MOV, {}, {component(d, 0)}, {component(s, 0)});
    ctx.emit(Opcode::MOV, {}, {component(d, 1)}, {component(s, 1)});
    return true;
  }
  ctx.emit(Opcode::MOV, {}, {d}, {s});
  return true;
}

bool lowerCvta(LowerCtx &ctx, const ptx::Instruction &in) {
  // Only the generic-to-global direction on 64-bit addresses: a copy (see the file comment).
  if (!in.has("to") || in.space() != ptx::StateSpace::Global ||
      ptx::typeBits(in.type()) != 64 || !ctx.onlyModifiers(in, {"to"}))
    return ctx.unsupported(in);
  if (in.operands.size() != 2 || !in.operands[0].is<ptx::RegOperand>() ||
      !in.operands[1].is<ptx::RegOperand>())
    return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
  Operand d = ctx.reg(in, in.operands[0].as<ptx::RegOperand>().name);
  Operand s = ctx.reg(in, in.operands[1].as<ptx::RegOperand>().name);
  if (d.kind == ori::OperandKind::None || s.kind == ori::OperandKind::None)
    return false;
  ctx.emit(Opcode::MOV, {}, {component(d, 0)}, {component(s, 0)});
  ctx.emit(Opcode::MOV, {}, {component(d, 1)}, {component(s, 1)});
  return true;
}

constexpr std::array kRows = {
    HandlerRow{"ld", TypeClass::Any, lowerLd},
    HandlerRow{"st", TypeClass::Any, lowerSt},
    HandlerRow{"mov", TypeClass::Any, lowerMov},
    HandlerRow{"cvta", TypeClass::Any, lowerCvta},
};

} // namespace

std::span<const HandlerRow> memoryHandlers() { return kRows; }

} // namespace ptxmini::frontend::lower
