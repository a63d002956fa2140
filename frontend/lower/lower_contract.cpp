//===- frontend/lower/lower_contract.cpp - mul + add contraction into fma ---------------===//
///
/// \file
/// PTX lets the code generator contract `mul` and `add`/`sub` without a rounding modifier into
/// one fused multiply-add, and ptxas does by default (`--fmad=true`). HW, ptxas 13.0.88 on
/// sm_90 (nvdisasm 13.2, tests/lit/codegen/float_contract.ptx):
///   mul.f32 d, a, b; add.f32 e, d, c          FFMA e, a, b, c
///   mul.f32 d, a, b; sub.f32 e, c, d          FFMA e, -a, b, c
///   a product used by two adds                both become FFMA (the multiply is repeated)
///   mul.rn or add.rn / sub.rn                 no contraction (FMUL + FADD)
///   sub e, p, q of two products               one of them (the other multiply stays)
/// The same for f64 (DMUL + DADD -> DFMA).
///
/// Algorithm (planContractions, over one function body before it is lowered): a candidate is
/// an unguarded `mul.f32`/`mul.f64` without rounding modifier and without .sat whose
/// destination d is named nowhere in the function except in its own definition and in the
/// instructions that follow it in the same statement list (no label in between); every one of
/// those must be an `add`/`sub` of the same type and .ftz without rounding modifier that reads
/// d exactly once, and neither mul source may be written between the mul and that use. Then
/// every use is lowered as fma (lowerContracted) and the mul is dropped; otherwise nothing
/// changes. This is narrower than ptxas (which also contracts when the product has other
/// uses, keeping the multiply for them); it never changes a value the PTX computes except by
/// the single rounding PTX allows.
//===----------------------------------------------------------------------------------===//
#include "frontend/lower/lower_context.h"

#include <llvm/ADT/StringMap.h>

namespace ptxmini::frontend::lower {
namespace {

using ptx::Instruction;
using ptx::Operand;

/// Every register name an operand mentions (addresses, vectors, lists, pairs included).
template <class F> void forEachRegName(const Operand &op, F &&f) {
  if (op.is<ptx::RegOperand>()) {
    f(op.as<ptx::RegOperand>().name);
  } else if (op.is<ptx::AddressOperand>()) {
    const auto &a = op.as<ptx::AddressOperand>();
    if (a.baseKind == ptx::AddressOperand::BaseKind::Register)
      f(a.base);
    for (const Operand &e : a.extra)
      forEachRegName(e, f);
  } else if (op.is<ptx::VectorOperand>()) {
    for (const Operand &e : op.as<ptx::VectorOperand>().elems)
      forEachRegName(e, f);
  } else if (op.is<ptx::ListOperand>()) {
    for (const Operand &e : op.as<ptx::ListOperand>().elems)
      forEachRegName(e, f);
  } else if (op.is<ptx::PairOperand>()) {
    f(op.as<ptx::PairOperand>().first);
    f(op.as<ptx::PairOperand>().second);
  }
}

void countNames(const ptx::Block &b, llvm::StringMap<unsigned> &count) {
  for (const ptx::Statement &st : b.statements) {
    if (st.is<ptx::Block>()) {
      countNames(st.as<ptx::Block>(), count);
    } else if (st.is<Instruction>()) {
      const Instruction &in = st.as<Instruction>();
      if (in.guard)
        ++count[in.guard->predicate];
      for (const Operand &op : in.operands)
        forEachRegName(op, [&](const std::string &n) { ++count[n]; });
    }
  }
}

bool hasRounding(const Instruction &in) {
  return in.has("rn") || in.has("rz") || in.has("rm") || in.has("rp");
}

bool isFloatMulAddType(ptx::ScalarType t) {
  return t == ptx::ScalarType::F32 || t == ptx::ScalarType::F64;
}

bool regNamed(const Operand &op, const std::string &name) {
  return op.is<ptx::RegOperand>() && op.as<ptx::RegOperand>().name == name;
}

/// Whether `in` may write register `name` (any mention in its first operand, or a call).
bool mayWrite(const Instruction &in, const std::string &name) {
  if (in.opcode == "call")
    return true;
  bool w = false;
  if (!in.operands.empty())
    forEachRegName(in.operands[0], [&](const std::string &n) { w |= n == name; });
  return w;
}

/// Whether `in` may write either register factor of `mul`.
bool writesFactor(const Instruction &in, const Instruction &mul) {
  for (size_t s = 1; s < 3; ++s)
    if (mul.operands[s].is<ptx::RegOperand>() &&
        mayWrite(in, mul.operands[s].as<ptx::RegOperand>().name))
      return true;
  return false;
}

void planBlock(const ptx::Block &b, const llvm::StringMap<unsigned> &count, ContractionPlan &plan) {
  const auto &sts = b.statements;
  for (size_t i = 0; i < sts.size(); ++i) {
    if (sts[i].is<ptx::Block>()) {
      planBlock(sts[i].as<ptx::Block>(), count, plan);
      continue;
    }
    if (!sts[i].is<Instruction>())
      continue;
    const Instruction &mul = sts[i].as<Instruction>();
    if (mul.opcode != "mul" || mul.guard || !isFloatMulAddType(mul.type()) || hasRounding(mul) ||
        mul.has("sat") || mul.operands.size() != 3 || !mul.operands[0].is<ptx::RegOperand>())
      continue;
    const std::string &d = mul.operands[0].as<ptx::RegOperand>().name;
    auto it = count.find(d);
    unsigned uses = it == count.end() ? 0 : it->second - 1;
    if (uses == 0)
      continue;
    std::vector<std::pair<const Instruction *, Contraction>> found;
    bool ok = true;
    for (size_t j = i + 1; j < sts.size() && ok && found.size() < uses; ++j) {
      if (!sts[j].is<Instruction>()) {
        ok = !sts[j].is<ptx::Label>() && !sts[j].is<ptx::Block>();
        continue;
      }
      const Instruction &u = sts[j].as<Instruction>();
      unsigned mentions = 0;
      if (u.guard && u.guard->predicate == d)
        ++mentions;
      for (const Operand &op : u.operands)
        forEachRegName(op, [&](const std::string &n) { mentions += n == d; });
      if (mentions == 0) {
        ok = !writesFactor(u, mul);
        continue;
      }
      bool isAdd = u.opcode == "add", isSub = u.opcode == "sub";
      // A use absorbs one product: `sub e, p, q` of two products keeps the second multiply.
      if (mentions != 1 || !(isAdd || isSub) || plan.uses.contains(&u) ||
          u.type() != mul.type() || hasRounding(u) ||
          u.has("ftz") != mul.has("ftz") || u.operands.size() != 3 ||
          regNamed(u.operands[0], d)) {
        ok = false;
        break;
      }
      Contraction c;
      c.mul = &mul;
      c.productFirst = regNamed(u.operands[1], d);
      c.negateProduct = isSub && !c.productFirst; // c - a*b
      c.negateAddend = isSub && c.productFirst;   // a*b - c
      found.push_back({&u, c});
      // A use that writes a mul source ends the window: later uses would see the new value.
      if (found.size() < uses && writesFactor(u, mul))
        ok = false;
    }
    if (!ok || found.size() != uses)
      continue;
    plan.droppedMuls.insert(&mul);
    for (auto &[u, c] : found)
      plan.uses[u] = c;
  }
}

} // namespace

ContractionPlan planContractions(const ptx::Block &body) {
  llvm::StringMap<unsigned> count;
  countNames(body, count);
  ContractionPlan plan;
  planBlock(body, count, plan);
  return plan;
}

bool lowerContracted(LowerCtx &ctx, const Instruction &use, const Contraction &c) {
  // fma.rn[.ftz][.sat].<t> e, a, b, x: the use's modifiers with rn in front.
  Instruction fma = use;
  fma.opcode = "fma";
  ptx::Modifier rn;
  rn.text = "rn";
  fma.modifiers.insert(fma.modifiers.begin(), rn);
  const Operand &addend = use.operands[c.productFirst ? 2 : 1];
  Operand a = c.mul->operands[1], b = c.mul->operands[2];
  // The negated factor must be a register (FFMA negates register operands only).
  if (c.negateProduct && !a.is<ptx::RegOperand>())
    std::swap(a, b);
  if ((c.negateProduct && !a.is<ptx::RegOperand>()) ||
      (c.negateAddend && !addend.is<ptx::RegOperand>()))
    return ctx.unsupported(use, "A contracted '" + use.fullOpcode() + "' with these operands");
  fma.operands = {use.operands[0], a, b, addend};
  auto &instrs = ctx.fn().blocks[ctx.curBlock].instrs;
  size_t before = instrs.size();
  if (!lowerFmaInstruction(ctx, fma))
    return false;
  // lowerFmaInstruction ends with the FFMA / DFMA; negate its factor or addend there.
  auto &after = ctx.fn().blocks[ctx.curBlock].instrs;
  if (after.size() <= before ||
      (after.back().op != ori::Opcode::FFMA && after.back().op != ori::Opcode::DFMA))
    return ctx.unsupported(use, "A contracted '" + use.fullOpcode() + "'");
  ori::Instr &last = after.back();
  if (c.negateProduct)
    last.uses()[0].mods ^= ori::OM_NEG;
  if (c.negateAddend)
    last.uses()[2].mods ^= ori::OM_NEG;
  return true;
}

} // namespace ptxmini::frontend::lower
