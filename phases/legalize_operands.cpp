//===- phases/legalize_operands.cpp - LegalizeOperands: make every instruction encodable -===//
///
/// \file
/// The lowering and the optimizing phases may put an immediate, a constant-bank reference or
/// a uniform register in any ALU source position; the SASS forms of sm_90 accept them only in
/// some positions and combinations (targets/sm_90/sm90_forms.def: `a` is a register, at most
/// one of `b`/`c` is an immediate or c[][], ...). This phase asks the target's encoding
/// tables, not a hand-kept list, whether each instruction has a form
/// (enc::canEncode, virtual registers standing in for physical ones), and repairs the ones
/// that do not:
///   1. an OF_COMM opcode whose first two sources are swapped becomes encodable: swap them;
///   2. otherwise, materialize the ALU sources that are not GPRs (opcodes.def slot `s`:
///      immediates, c[][] and UR operands) into fresh virtual registers, one at a time from
///      the first source to the last, asking again after each (a 64-bit float immediate
///      becomes a register pair, its halves moved separately);
///   3. otherwise, fold the immediate offset of a memory operand into a fresh base register
///      (IADD3 for a 32-bit base, IADD3 + IADD3.X with a carry for a 64-bit pair) when the
///      form's offset field is narrower than the lowering's (LDGSTS's global offset is 12
///      bits: I@32/12 in sm90_forms.def), one operand at a time, asking again after each;
///   4. an instruction no repair makes encodable is an internal error naming it.
/// The copies are MOVs placed right before the instruction, under the same guard. Runs on
/// virtual registers, before register allocation.
//===----------------------------------------------------------------------------------===//
#include "phases/phase_manager.h"

#include "encoder/emit_function.h"

#include <vector>

namespace ptxmini {
namespace {

using ori::Instr;
using ori::Operand;
using ori::OperandKind;
using ori::RegClass;

struct LegalizeCtx {
  ori::Function &f;
  unsigned sm;
};

/// Use positions whose opcodes.def slot is an ALU source (`s`).
std::vector<unsigned> aluSourcePositions(const Instr &in) {
  std::vector<unsigned> pos;
  const ori::OpcodeInfo &info = in.info();
  auto uses = in.uses();
  for (unsigned i = 0; i < uses.size() && i < info.useSlots.size(); ++i)
    if (info.useSlots[i] == ori::OperandSlot::AluSrc)
      pos.push_back(i);
  return pos;
}

bool needsRegister(const Operand &o) {
  switch (o.kind) {
  case OperandKind::Imm:
  case OperandKind::FImm32:
  case OperandKind::FImm64:
  case OperandKind::CBank:
    return true;
  case OperandKind::VReg:
  case OperandKind::PReg:
    return o.cls == RegClass::UR && !o.isFixed();
  default:
    return false;
  }
}

/// MOVs that put `o` into a fresh GPR (pair for a 64-bit float immediate); returns the
/// register operand that replaces it, with `o`'s negation/abs/inversion modifiers kept.
Operand materialize(LegalizeCtx &ctx, const Instr &user, const Operand &o,
                    std::vector<Instr> &copies) {
  uint8_t keep = o.mods & (ori::OM_NEG | ori::OM_ABS | ori::OM_INV);
  Operand src = o;
  src.mods &= static_cast<uint8_t>(~(ori::OM_NEG | ori::OM_ABS | ori::OM_INV));
  auto mov = [&](const Operand &d, const Operand &s) {
    Instr m(ori::Opcode::MOV);
    m.addDef(d);
    m.addUse(s);
    m.guard = user.guard;
    copies.push_back(m);
  };
  Operand r;
  if (src.kind == OperandKind::FImm64) {
    r = ctx.f.newReg(RegClass::R, 2);
    uint64_t bits = static_cast<uint64_t>(src.imm);
    Operand lo = r, hi = r;
    lo.sub = 0, hi.sub = 1;
    mov(lo, Operand::intImm(static_cast<uint32_t>(bits)));
    mov(hi, Operand::intImm(static_cast<uint32_t>(bits >> 32)));
  } else if (src.kind == OperandKind::FImm32) {
    r = ctx.f.newReg(RegClass::R, 1);
    mov(r, Operand::intImm(static_cast<uint32_t>(src.imm)));
  } else if (src.kind == OperandKind::Imm) {
    // MOV's immediate is an unsigned 32-bit field: an operand spelled signed for its user
    // (IADD3, IMAD, ISETP print `-0x1`) moves as its 32-bit pattern (0xffffffff).
    r = ctx.f.newReg(RegClass::R, 1);
    mov(r, Operand::intImm(static_cast<uint32_t>(src.imm)));
  } else {
    r = ctx.f.newReg(RegClass::R, src.kind == OperandKind::VReg || src.kind == OperandKind::PReg
                                      ? src.width
                                      : 1);
    if (r.width > 1) {
      for (uint8_t k = 0; k < r.width; ++k) {
        Operand d = r, s = src;
        d.sub = k, s.sub = k;
        mov(d, s);
      }
    } else if (src.kind == OperandKind::Imm) {
      // MOV's immediate is the register's 32 bits (it prints unsigned: MOV R12, 0xffffffff).
      mov(r, Operand::intImm(static_cast<uint32_t>(src.imm)));
    } else {
      mov(r, src);
    }
  }
  r.mods = keep;
  return r;
}

bool swapFirstTwo(LegalizeCtx &ctx, Instr &in) {
  if (!in.info().has(ori::OF_COMM))
    return false;
  std::vector<unsigned> alu = aluSourcePositions(in);
  if (alu.size() < 2 || alu[0] != 0 || alu[1] != 1)
    return false;
  Instr t = in;
  std::swap(t.uses()[0], t.uses()[1]);
  if (!enc::canEncode(t, ctx.sm))
    return false;
  in = t;
  return true;
}

/// Instructions computing `base + offset` into a fresh register (a pair for a 64-bit base),
/// appended to `copies` under `user`'s guard; returns the new base.
Operand addOffset(LegalizeCtx &ctx, const Instr &user, const Operand &base, int32_t offset,
                  std::vector<Instr> &copies) {
  auto emit = [&](ori::Opcode op, std::initializer_list<Operand> defs,
                  std::initializer_list<Operand> uses) -> Instr & {
    Instr &i = copies.emplace_back(op);
    for (const Operand &d : defs)
      i.addDef(d);
    for (const Operand &u : uses)
      i.addUse(u);
    i.guard = user.guard;
    return i;
  };
  Operand rz = Operand::fixed(RegClass::R), imm = Operand::intImm(offset);
  Operand r = ctx.f.newReg(RegClass::R, base.width);
  if (base.width == 1) {
    emit(ori::Opcode::IADD3, {r}, {base, imm, rz});
    return r;
  }
  auto half = [](Operand o, uint8_t k) { return o.sub = k, o; };
  Operand carry = ctx.f.newReg(RegClass::P, 1), notPT = Operand::fixed(RegClass::P);
  notPT.mods |= ori::OM_NOT;
  emit(ori::Opcode::IADD3, {half(r, 0), carry}, {half(base, 0), imm, rz});
  Instr &x = emit(ori::Opcode::IADD3, {half(r, 1)},
                  {half(base, 1), offset < 0 ? Operand::intImm(-1) : rz, rz, carry, notPT});
  x.mods.push_back(ori::Modifier::X);
  return r;
}

/// Step 3: folds the offset of the memory operand(s) that keep `in` from encoding: the one
/// operand whose offset alone is too wide when there is one, else every offset.
bool foldMemOffsets(LegalizeCtx &ctx, Instr &in, std::vector<Instr> &copies) {
  std::vector<unsigned> folded;
  auto uses = in.uses();
  for (unsigned pos = 0; pos < uses.size(); ++pos)
    if (uses[pos].kind == OperandKind::Mem && uses[pos].memBaseIsVReg() &&
        uses[pos].memOffset() != 0)
      folded.push_back(pos);
  for (unsigned pos : folded) {
    Instr t = in;
    t.uses()[pos].setMemOffset(0);
    if (enc::canEncode(t, ctx.sm)) {
      folded = {pos};
      break;
    }
  }
  for (unsigned pos : folded) {
    Operand &o = in.uses()[pos];
    o = Operand::mem(addOffset(ctx, in, o.memBase(), o.memOffset(), copies), 0, o.memDesc());
  }
  return !folded.empty() && enc::canEncode(in, ctx.sm);
}

/// Makes `in` encodable, appending the copies it needs to `out` before it. False when
/// nothing helps.
bool legalize(LegalizeCtx &ctx, Instr in, std::vector<Instr> &out, std::string &why) {
  if (enc::canEncode(in, ctx.sm, &why) || swapFirstTwo(ctx, in)) {
    out.push_back(in);
    return true;
  }
  std::vector<Instr> copies;
  for (unsigned pos : aluSourcePositions(in)) {
    Operand &o = in.uses()[pos];
    if (!needsRegister(o))
      continue;
    o = materialize(ctx, in, o, copies);
    if (enc::canEncode(in, ctx.sm) || swapFirstTwo(ctx, in)) {
      out.insert(out.end(), copies.begin(), copies.end());
      out.push_back(in);
      return true;
    }
  }
  if (foldMemOffsets(ctx, in, copies)) {
    out.insert(out.end(), copies.begin(), copies.end());
    out.push_back(in);
    return true;
  }
  // The copies themselves must encode (a MOV of a c[][] or UR is always expected to).
  return false;
}

} // namespace

void runLegalizeOperands(ori::Function &f, PhaseContext &pc) {
  LegalizeCtx ctx{f, pc.target->arch().sm};
  for (ori::Block &b : f.blocks) {
    std::vector<Instr> out;
    out.reserve(b.instrs.size());
    for (Instr &in : b.instrs) {
      std::string why;
      if (!legalize(ctx, in, out, why)) {
        if (pc.diag)
          pc.diag->error("Internal error: function '" + f.name + "' has an instruction " +
                         "no operand form of sm_" + std::to_string(ctx.sm) + " encodes: " + why);
        out.push_back(in);
      }
    }
    b.instrs = std::move(out);
  }
  f.recomputeRegTable();
}

} // namespace ptxmini
