//===- phases/general_optimize.cpp - the GeneralOptimize family (phases 13, 29, 58, 65) --===//
///
/// \file
/// One implementation, four rows of the phase table (seed 004 names them: 13
/// GeneralOptimizeEarly "const fold + copy prop (feeds loop analysis)", 29 GeneralOptimize
/// "general optimization with partial CSE", 58 GeneralOptimizeLate, 65 GeneralOptimizeLate2
/// "after predication"). Each run repeats, up to three rounds or until nothing changes:
///
///  1. Combine (instruction selection ptxas does and the one-PTX-instruction-at-a-time
///     lowering cannot, block-local, on single-use intermediate results):
///       IMAD.WIDE a, b, RZ feeding a 64-bit add (IADD3 lo with a carry + IADD3.X hi)
///         -> IMAD.WIDE a, b, addend (one instruction instead of three; ptxas's address form);
///       IADD3 x, y, RZ feeding IADD3 t, z, RZ -> IADD3 x, y, z (immediates summed);
///       SHF.L.U32 x, k, RZ feeding IADD3 t, y, RZ -> LEA x, y, k;
///       ISETP/FSETP/DSETP.cmp.AND x, y, PT feeding PLOP3 (AND / OR with another predicate r)
///         -> the compare with .AND|.OR and r as its combining operand;
///       LOP3.LUT t, a, b, c feeding ISETP.NE[.U32].AND p, t, RZ, PT -> LOP3.LUT RZ, p, a, b, c
///         (LOP3's predicate result tests the result for nonzero).
///     The earlier instruction's sources must be unchanged at the later one (same block,
///     no definition of them in between); the result must encode (enc::canEncode).
///     Then address arithmetic goes into memory offsets (foldAddrOffsets): a 64-bit base
///     `a.64 + c` (IMAD.WIDE of constants, or the IADD3/IADD3.X pair adding an immediate)
///     becomes [a.64 + off + c]; `IMAD.WIDE x, k, (a + c)` read only as memory bases becomes
///     `IMAD.WIDE x, k, a` with +c in every access (reassociateWideAddend).
///  2. Propagation and folding: a forward "available values" data flow over 32-bit
///     register cells (a width-1 virtual register, or one component of a pair/quad). A fact
///     `cell == v` is made by an unguarded plain MOV (v: an integer or f32 immediate, a
///     constant-bank word c[b][o] without index, RZ/URZ, or another virtual register cell),
///     by LDC / LDC.64 without index (v: the constant-bank word(s); constant banks are
///     read-only while a kernel runs), and by a compare or SEL folded to a constant
///     (predicate cells: PT / !PT). A definition of a cell kills its fact and every fact that
///     names it as a copy. At a join the facts are intersected (optimistic start, iterated
///     in reverse post-order to the greatest fixed point, as for available expressions).
///     The rewrite then walks each block with its entry facts and replaces reads:
///       - by another register of the same class anywhere a register is read (copy
///         propagation; a whole pair/quad only when every component is the matching
///         component of one register of the same width);
///       - by RZ/URZ for a known zero, by PT/!PT for a known predicate;
///       - by an immediate or c[b][o] in an ALU source slot only when the instruction
///         still encodes (asked of the target's encoding tables), an integer immediate only
///         into integer opcodes and an f32 immediate only into f32 opcodes.
///     Then it folds: instructions guarded by a known-false predicate are deleted, by a
///     known-true one unguarded; IADD3 / IMAD / LOP3.LUT / SEL / SHF of constants become
///     MOV of the result; algebraic identities (x + 0, x * 1, x * 0 + c, LOP3 of one live
///     input that is the identity, SEL of equal sources or a known predicate) become MOVs;
///     integer compares of constants (ISETP without .EX and with a PT combination) are
///     recorded as predicate facts; MOV x, x disappears.
///     Integer results are exact 32-bit two's-complement arithmetic; floats are never
///     folded (only copied bit for bit), so IEEE rounding never enters.
///  3. Coalescing of copies the lowering leaves: `t = OP ...; x = MOV t` with t defined
///     once and read only by that MOV, in one block, x neither read nor written in between
///     -> `x = OP ...` (the linear-scan allocator does not coalesce these).
///  4. Partial CSE (phases 29, 58, 65 only): within a block, a pure instruction (no side
///     effect, store, barrier, or variable special register) whose sources and opcode
///     equal an earlier one's, with none of those sources nor the earlier result redefined
///     in between, becomes a MOV of the earlier result (then 2 and 3 clean it up); a pair or
///     quad result, or a predicate (no copy instruction), defined once is instead deleted and
///     its reads renamed (renameReg). A compare's second result PT does not count as one.
///     A weak global load (LDG without .STRONG) is a candidate too, its look-back ending at
///     anything that may write global memory or order accesses (stores but STS/STL, atomics,
///     barriers, fences, calls, .STRONG accesses, loads that may read shared memory: an
///     acquire may be one without a fence): the copies of a fully unrolled loop that only reads memory
///     then load each address once, as ptxas's code does. The look-back is 64 instructions,
///     1024 for variable-latency results (loads, MUFU, conversions: an unrolled body apart).
///  5. Dead code elimination (dead_code.cpp).
///  6. Tuple formation (phase 29 only, before the rounds): see formTuples.
//===----------------------------------------------------------------------------------===//
#include "encoder/emit_function.h"
#include "ori/analysis/rpo.h"
#include "ori/cfg.h"
#include "phases/dead_code.h"
#include "phases/phase_manager.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"

#include <algorithm>
#include <map>
#include <optional>
#include <vector>

namespace ptxmini {
namespace {

using ori::Instr;
using ori::Modifier;
using ori::Opcode;
using ori::Operand;
using ori::OperandKind;
using ori::OperandSlot;
using ori::RegClass;

// ---- Cells ------------------------------------------------------------------------------

/// One 32-bit component of a virtual register, packed: class, number, component.
using Cell = uint64_t;
Cell cellOf(RegClass c, uint32_t reg, unsigned comp) {
  return (uint64_t(static_cast<uint8_t>(c)) << 40) | (uint64_t(reg) << 8) | comp;
}

/// The cells a register operand reads or writes.
llvm::SmallVector<Cell, 4> cellsOf(const Operand &o) {
  llvm::SmallVector<Cell, 4> v;
  if (o.kind != OperandKind::VReg)
    return v;
  if (o.sub != ori::kWholeReg)
    v.push_back(cellOf(o.cls, o.reg, o.sub));
  else
    for (unsigned i = 0; i < o.width; ++i)
      v.push_back(cellOf(o.cls, o.reg, i));
  return v;
}


/// A single-cell read: a width-1 register, or one component of a wider one.
std::optional<Cell> singleCell(const Operand &o) {
  if (o.kind != OperandKind::VReg)
    return std::nullopt;
  if (o.sub != ori::kWholeReg)
    return cellOf(o.cls, o.reg, o.sub);
  if (o.width == 1)
    return cellOf(o.cls, o.reg, 0);
  return std::nullopt;
}

bool isZeroConst(const Operand &v) {
  return (v.kind == OperandKind::Imm || v.kind == OperandKind::FImm32) &&
         static_cast<uint32_t>(v.imm) == 0;
}
bool isRZ(const Operand &o) {
  return o.kind == OperandKind::PReg && o.isFixed() &&
         (o.cls == RegClass::R || o.cls == RegClass::UR);
}
using ValueMap = llvm::DenseMap<Cell, Operand>;

/// Integer value (bits) of an operand that is a known constant: an Imm, RZ/URZ, or (with
/// `facts`) a register cell whose available value is one; no modifiers.
std::optional<uint32_t> intConst(const Operand &o, const ValueMap *facts = nullptr) {
  if (o.mods & ~ori::OM_REUSE)
    return std::nullopt;
  if (o.kind == OperandKind::Imm)
    return static_cast<uint32_t>(o.imm);
  if (isRZ(o))
    return 0u;
  if (facts && o.kind == OperandKind::VReg) {
    if (std::optional<Cell> c = singleCell(o)) {
      auto it = facts->find(*c);
      if (it != facts->end()) {
        const Operand &v = it->second;
        if (v.kind == OperandKind::Imm || v.kind == OperandKind::FImm32)
          return static_cast<uint32_t>(v.imm);
        if (isRZ(v))
          return 0u;
      }
    }
  }
  return std::nullopt;
}
/// A known predicate: PT (true) / !PT (false).
std::optional<bool> predConst(const Operand &o) {
  if (o.kind == OperandKind::PReg && o.isFixed() &&
      (o.cls == RegClass::P || o.cls == RegClass::UP))
    return !(o.mods & ori::OM_NOT);
  return std::nullopt;
}
Operand predOperand(RegClass c, bool value) {
  Operand o = Operand::fixed(c == RegClass::UP ? RegClass::UP : RegClass::P);
  if (!value)
    o.mods |= ori::OM_NOT;
  return o;
}

/// The memory operand `m` with its base register replaced by `base` (offset, descriptor and
/// the operand's other modifier bits kept).
Operand withMemBase(const Operand &m, const Operand &base) {
  Operand n = Operand::mem(base, m.memOffset(), m.memDesc());
  n.mods |= m.mods & ~(ori::OM_MEMBASE_V | ori::OM_MEMBASE_P);
  return n;
}

// ---- Opcode classes used by the rewrites ------------------------------------------------

/// Opcodes whose `s` sources take integer immediates (the bits are the value).
bool takesIntImm(Opcode op) {
  switch (op) {
  case Opcode::IADD3: case Opcode::IMAD: case Opcode::LEA: case Opcode::LOP3:
  case Opcode::SHF: case Opcode::ISETP: case Opcode::IMNMX: case Opcode::VIMNMX:
  case Opcode::SEL: case Opcode::PRMT: case Opcode::MOV: case Opcode::SGXT:
  case Opcode::BMSK: case Opcode::VIADD: case Opcode::IABS:
    return true;
  default:
    return false;
  }
}
/// Opcodes whose `s` sources take f32 immediates.
bool takesF32Imm(Opcode op) {
  switch (op) {
  case Opcode::FADD: case Opcode::FMUL: case Opcode::FFMA: case Opcode::FSETP:
  case Opcode::FMNMX: case Opcode::FSEL: case Opcode::MOV:
    return true;
  default:
    return false;
  }
}
/// Instructions whose operands we leave alone (ABI and reconvergence bookkeeping).
bool untouchable(const Instr &in) {
  switch (in.op) {
  case Opcode::CALL: case Opcode::RET: case Opcode::LEPC: case Opcode::BSSY:
  case Opcode::BSYNC: case Opcode::WARPSYNC:
    return true;
  default:
    return false;
  }
}

struct GoCtx {
  ori::Function &f;
  unsigned sm;
  bool cse;
  bool cseLoads; ///< knob GeneralOptimizeCseLoads
  unsigned changes = 0;
};

// ---- 1. Combine -------------------------------------------------------------------------

/// Whether any register read by `uses` is written by instrs[from, to).
bool sourcesClobbered(const std::vector<Instr> &instrs, size_t from, size_t to,
                      llvm::ArrayRef<Operand> uses) {
  llvm::SmallVector<std::pair<RegClass, uint32_t>, 6> regs;
  for (const Operand &u : uses)
    for (const Operand &v : u.vregs())
      regs.push_back({v.cls, v.reg});
  if (regs.empty())
    return false;
  for (size_t k = from; k < to; ++k)
    for (const Operand &d : instrs[k].defs())
      if (d.kind == OperandKind::VReg)
        for (auto &[c, r] : regs)
          if (d.cls == c && d.reg == r)
            return true;
  return false;
}

bool isPlainIadd3(const Instr &in) {
  return in.op == Opcode::IADD3 && in.mods.empty() && in.numDefs == 1 && in.uses().size() == 3 &&
         !in.isGuarded() && in.ops[0].kind == OperandKind::VReg && in.ops[0].width == 1 &&
         in.ops[0].sub == ori::kWholeReg;
}

/// The earlier instruction of `ins[0, j)` that defines (cls, reg), or -1.
long findDef(const std::vector<Instr> &ins, size_t j, RegClass cls, uint32_t reg) {
  for (size_t d = j; d-- > 0;)
    for (const Operand &o : ins[d].defs())
      if (o.kind == OperandKind::VReg && o.cls == cls && o.reg == reg)
        return static_cast<long>(d);
  return -1;
}

/// A single-definition, single-use width-1 register read plainly (no modifiers).
bool singleUseTemp(const ori::Function &f, const Operand &t, RegClass cls) {
  if (t.kind != OperandKind::VReg || t.cls != cls || t.width != 1 || t.sub != ori::kWholeReg ||
      (t.mods & ~ori::OM_REUSE))
    return false;
  const ori::RegInfo &ti = f.regInfo(t.cls, t.reg);
  return ti.defCount == 1 && ti.useCount == 1;
}

/// `t = SHF.L.U32 x, k, RZ` feeding `d = IADD3 t, y, RZ` -> `d = LEA x, y, k` (x * 2^k + y in
/// one instruction, ptxas's form for scaled indices).
bool combineLea(GoCtx &ctx, std::vector<Instr> &ins, size_t j) {
  Instr &add = ins[j];
  if (!isPlainIadd3(add))
    return false;
  auto u = add.uses();
  for (unsigned k = 0; k < 3; ++k) {
    if (!singleUseTemp(ctx.f, u[k], RegClass::R))
      continue;
    unsigned other = 3, zeros = 0;
    for (unsigned m = 0; m < 3; ++m) {
      if (m == k)
        continue;
      if (isRZ(u[m]) && !(u[m].mods & ~ori::OM_REUSE))
        ++zeros;
      else
        other = m;
    }
    if (zeros != 1 || other == 3 || (u[other].mods & ~ori::OM_REUSE))
      continue;
    long d = findDef(ins, j, RegClass::R, u[k].reg);
    if (d < 0)
      continue;
    const Instr &sh = ins[static_cast<size_t>(d)];
    if (sh.op != Opcode::SHF || sh.isGuarded() || sh.numDefs != 1 || sh.uses().size() != 3 ||
        sh.mods.size() != 2 || sh.mods[0] != Modifier::L || sh.mods[1] != Modifier::U32 ||
        !(sh.ops[0] == u[k]) || sh.uses()[1].kind != OperandKind::Imm ||
        sh.uses()[1].imm < 0 || sh.uses()[1].imm > 31 || !isRZ(sh.uses()[2]) ||
        sh.uses()[0].kind != OperandKind::VReg || (sh.uses()[0].mods & ~ori::OM_REUSE))
      continue;
    if (sourcesClobbered(ins, static_cast<size_t>(d) + 1, j, sh.uses()))
      continue;
    Instr lea(Opcode::LEA);
    lea.addDef(add.ops[0]);
    lea.addUse(sh.uses()[0]);
    lea.addUse(u[other]);
    lea.addUse(Operand::intImm(sh.uses()[1].imm));
    lea.srcLine = add.srcLine;
    lea.flags = add.flags;
    ori::spellImmediates(lea);
    if (!enc::canEncode(lea, ctx.sm))
      continue;
    add = lea;
    ++ctx.changes;
    return true;
  }
  return false;
}

/// `q = ISETP.cmp.AND x, y, PT` feeding `d = PLOP3.LUT q, r, PT, AND|OR` -> `d = ISETP.cmp.AND|OR
/// x, y, r` (the compare's own combining operand; ptxas chains compares this way). FSETP and
/// DSETP have the same combining operand and are merged the same way.
bool combineIsetpPlop3(GoCtx &ctx, std::vector<Instr> &ins, size_t j) {
  Instr &pl = ins[j];
  if (pl.op != Opcode::PLOP3 || pl.isGuarded() || pl.mods.size() != 1 ||
      pl.mods[0] != Modifier::LUT || pl.numDefs != 2 || !pl.ops[1].isFixed() ||
      pl.ops[0].kind != OperandKind::VReg || pl.uses().size() != 5)
    return false;
  auto u = pl.uses();
  if (predConst(u[2]) != true || u[3].kind != OperandKind::Imm || u[4].kind != OperandKind::Imm ||
      u[4].imm != 0)
    return false;
  // The LUT over (a, b, c=PT): only a|b (0xfc, 0xfe, ... with c true: bits where c=1 decide)
  // and a&b. With c == PT only the odd indices (c = 1) matter: a|b -> 0xA8 on them, a&b -> 0x80.
  auto lut = static_cast<uint8_t>(u[3].imm);
  uint8_t live = lut & 0xAA;
  std::optional<Modifier> comb;
  if (live == (0xFC & 0xAA))
    comb = Modifier::OR;
  else if (live == (0xC0 & 0xAA))
    comb = Modifier::AND;
  if (!comb)
    return false;
  for (unsigned k = 0; k < 2; ++k) {
    const Operand &q = u[k];
    const Operand &r = u[1 - k];
    if (!singleUseTemp(ctx.f, q, RegClass::P))
      continue;
    if (r.kind != OperandKind::VReg && !(r.kind == OperandKind::PReg && r.isFixed()))
      continue;
    long d = findDef(ins, j, RegClass::P, q.reg);
    if (d < 0)
      continue;
    const Instr &cmp = ins[static_cast<size_t>(d)];
    bool isCompare = cmp.op == Opcode::ISETP || cmp.op == Opcode::FSETP || cmp.op == Opcode::DSETP;
    if (!isCompare || cmp.isGuarded() || cmp.numDefs != 2 || !cmp.ops[1].isFixed() ||
        !(cmp.ops[0] == q) || cmp.uses().size() != 3 || predConst(cmp.uses()[2]) != true ||
        !cmp.hasModifier(Modifier::AND) || cmp.hasModifier(Modifier::EX))
      continue;
    if (sourcesClobbered(ins, static_cast<size_t>(d) + 1, j, cmp.uses()))
      continue;
    Instr n = cmp;
    for (Modifier &m : n.mods)
      if (m == Modifier::AND)
        m = *comb;
    n.ops[0] = pl.ops[0];
    n.uses()[2] = r;
    n.srcLine = pl.srcLine;
    if (!enc::canEncode(n, ctx.sm))
      continue;
    pl = n;
    ++ctx.changes;
    return true;
  }
  return false;
}

/// `t = LOP3.LUT a, b, c, lut, !PT` feeding `p = ISETP.NE[.U32].AND t, RZ, PT` -> `RZ, p =
/// LOP3.LUT a, b, c, lut, !PT`: LOP3's predicate result is "the 32-bit result is not zero"
/// (ptxas tests bits this way: LOP3.LUT P0, RZ, R0, 0x80, RZ, 0xc0, !PT). Only NE: EQ
/// would need the negated predicate at every read.
bool combineLop3Isetp(GoCtx &ctx, std::vector<Instr> &ins, size_t j) {
  Instr &cmp = ins[j];
  if (cmp.op != Opcode::ISETP || cmp.isGuarded() || cmp.numDefs != 2 ||
      cmp.ops[0].kind != OperandKind::VReg || cmp.ops[0].cls != RegClass::P ||
      !cmp.ops[1].isFixed() || cmp.uses().size() != 3 || predConst(cmp.uses()[2]) != true)
    return false;
  bool ne = false, andOp = false;
  for (Modifier m : cmp.mods) {
    if (m == Modifier::NE)
      ne = true;
    else if (m == Modifier::AND)
      andOp = true;
    else if (m != Modifier::U32)
      return false; // .EX and anything else
  }
  auto u = cmp.uses();
  // t need not die here (Ori is not SSA: PTX code reuses one temporary for every bit
  // test): the LOP3 stays for t's other reads, and dead code removes it when there are none.
  const Operand &t = u[0];
  if (!ne || !andOp || !isRZ(u[1]) || (u[1].mods & ~ori::OM_REUSE) ||
      t.kind != OperandKind::VReg || t.cls != RegClass::R || t.width != 1 ||
      t.sub != ori::kWholeReg || (t.mods & ~ori::OM_REUSE))
    return false;
  long d = findDef(ins, j, RegClass::R, u[0].reg);
  if (d < 0)
    return false;
  const Instr &lop = ins[static_cast<size_t>(d)];
  if (lop.op != Opcode::LOP3 || lop.isGuarded() || lop.numDefs != 1 || lop.mods.size() != 1 ||
      lop.mods[0] != Modifier::LUT || !(lop.ops[0] == u[0]) || lop.uses().size() != 5 ||
      predConst(lop.uses()[4]) != false)
    return false;
  if (sourcesClobbered(ins, static_cast<size_t>(d) + 1, j, lop.uses()))
    return false;
  Instr n(Opcode::LOP3);
  n.mods = lop.mods;
  n.addDef(Operand::fixed(RegClass::R));
  n.addDef(cmp.ops[0]);
  for (const Operand &o : lop.uses())
    n.addUse(o);
  n.srcLine = cmp.srcLine;
  n.flags = cmp.flags;
  if (!enc::canEncode(n, ctx.sm))
    return false;
  cmp = n;
  ++ctx.changes;
  return true;
}

void combineBlock(GoCtx &ctx, std::vector<Instr> &ins) {
  ori::Function &f = ctx.f;
  // Single definition and use counts are current (recomputeRegTable before the call).
  for (size_t j = 0; j < ins.size(); ++j) {
    Instr &lo = ins[j];
    // ---- IMAD.WIDE + 64-bit add ----
    if (lo.op == Opcode::IADD3 && lo.mods.empty() && lo.numDefs == 2 && lo.uses().size() == 3 &&
        !lo.isGuarded() && lo.ops[1].kind == OperandKind::VReg && lo.ops[0].kind == OperandKind::VReg &&
        lo.ops[0].sub == 0 && lo.ops[0].width == 2 && j + 1 < ins.size()) {
      Instr &hi = ins[j + 1];
      const Operand &carry = lo.ops[1];
      bool hiOk = hi.op == Opcode::IADD3 && hi.mods.size() == 1 && hi.mods[0] == Modifier::X &&
                  hi.numDefs == 1 && hi.uses().size() == 5 && !hi.isGuarded() &&
                  hi.ops[0].kind == OperandKind::VReg && hi.ops[0].reg == lo.ops[0].reg &&
                  hi.ops[0].cls == RegClass::R && hi.ops[0].sub == 1 && hi.ops[0].width == 2 &&
                  hi.uses()[3] == carry && predConst(hi.uses()[4]) == false &&
                  f.regInfo(carry.cls, carry.reg).useCount == 1 &&
                  f.regInfo(carry.cls, carry.reg).defCount == 1;
      if (hiOk) {
        auto lu = lo.uses(), hu = hi.uses();
        // Which source of the pair is the wide product: (lu[k], hu[k]) components 0/1 of one
        // width-2 register; the other pair the addend, RZ third.
        for (unsigned k = 0; k < 2 && hiOk; ++k) {
          const Operand &p0 = lu[k], &p1 = hu[k];
          const Operand &a0 = lu[1 - k], &a1 = hu[1 - k];
          if (!(p0.kind == OperandKind::VReg && p1.kind == OperandKind::VReg && p0.reg == p1.reg &&
                p0.cls == RegClass::R && p0.width == 2 && p0.sub == 0 && p1.sub == 1 &&
                p0.mods == 0 && p1.mods == 0))
            continue;
          if (!(a0.kind == OperandKind::VReg && a1.kind == OperandKind::VReg && a0.reg == a1.reg &&
                a0.cls == RegClass::R && a0.width == 2 && a0.sub == 0 && a1.sub == 1 &&
                a0.mods == 0 && a1.mods == 0))
            continue;
          if (!isRZ(lu[2]) || !isRZ(hu[2]) || lu[2].mods || hu[2].mods)
            continue;
          const ori::RegInfo &pi = f.regInfo(RegClass::R, p0.reg);
          if (pi.defCount != 1)
            continue;
          // The product's definition: earlier in this block.
          long dl = findDef(ins, j, RegClass::R, p0.reg);
          if (dl < 0)
            continue;
          auto d = static_cast<size_t>(dl);
          const Instr &w = ins[d];
          if (w.op != Opcode::IMAD || !w.hasModifier(Modifier::WIDE) || w.isGuarded() ||
              w.numDefs != 1 || w.uses().size() != 3 || !isRZ(w.uses()[2]) ||
              w.ops[0].sub != ori::kWholeReg || w.ops[0].width != 2)
            continue;
          if (sourcesClobbered(ins, d + 1, j, w.uses().take_front(2)))
            continue;
          Instr nw = w;
          nw.ops[0] = lo.ops[0];
          nw.ops[0].sub = ori::kWholeReg;
          nw.uses()[2] = Operand::vreg(RegClass::R, a0.reg, 2);
          nw.srcLine = lo.srcLine;
          if (!enc::canEncode(nw, ctx.sm))
            continue;
          lo = nw;
          ins.erase(ins.begin() + static_cast<long>(j) + 1);
          ++ctx.changes;
          hiOk = false; // done with this pair
        }
      }
      continue;
    }
    if (combineLea(ctx, ins, j) || combineIsetpPlop3(ctx, ins, j) || combineLop3Isetp(ctx, ins, j))
      continue;
    // ---- IADD3 chains ----
    if (isPlainIadd3(lo)) {
      auto u = lo.uses();
      for (unsigned k = 0; k < 3; ++k) {
        const Operand &t = u[k];
        if (t.kind != OperandKind::VReg || t.width != 1 || t.mods != 0 || t.cls != RegClass::R)
          continue;
        const ori::RegInfo &ti = f.regInfo(t.cls, t.reg);
        if (ti.defCount != 1 || ti.useCount != 1)
          continue;
        long dl = findDef(ins, j, t.cls, t.reg);
        if (dl < 0 || !isPlainIadd3(ins[static_cast<size_t>(dl)]))
          continue;
        auto d = static_cast<size_t>(dl);
        const Instr &w = ins[d];
        // Other two sources of `lo` must include an RZ slot to host the third term.
        llvm::SmallVector<Operand, 4> terms;
        for (const Operand &o : w.uses())
          if (!isRZ(o))
            terms.push_back(o);
        for (unsigned m = 0; m < 3; ++m)
          if (m != k && !isRZ(u[m]))
            terms.push_back(u[m]);
        // Sum the immediates into one.
        uint32_t immSum = 0;
        unsigned nImm = 0;
        llvm::SmallVector<Operand, 4> regs;
        for (const Operand &o : terms) {
          if (o.kind == OperandKind::Imm && o.mods == 0) {
            immSum += static_cast<uint32_t>(o.imm);
            ++nImm;
          } else {
            regs.push_back(o);
          }
        }
        if (nImm)
          regs.push_back(Operand::intImm(immSum));
        if (regs.size() > 3)
          continue;
        if (sourcesClobbered(ins, d + 1, j, w.uses()))
          continue;
        Instr n = lo;
        n.ops.resize(1);
        for (const Operand &o : regs)
          n.addUse(o);
        while (n.uses().size() < 3)
          n.addUse(Operand::fixed(RegClass::R));
        ori::spellImmediates(n);
        if (!enc::canEncode(n, ctx.sm)) {
          // The form takes an immediate in the middle source only: move it there.
          auto nu = n.uses();
          for (unsigned m = 0; m < 3; ++m)
            if (nu[m].kind == OperandKind::Imm && m != 1)
              std::swap(nu[m], nu[1]);
          if (!enc::canEncode(n, ctx.sm))
            continue;
        }
        lo = n;
        ++ctx.changes;
        break; // the intermediate is now dead; DCE removes it
      }
    }
  }
}

/// The constant a width-1 R operand holds at ins[j]: an immediate, RZ, or a register whose
/// only definition is an unguarded `MOV imm` earlier in the block.
std::optional<uint32_t> blockConst(const ori::Function &f, const std::vector<Instr> &ins,
                                   size_t j, const Operand &o) {
  if (std::optional<uint32_t> v = intConst(o))
    return v;
  if (o.kind != OperandKind::VReg || o.cls != RegClass::R || o.width != 1 ||
      o.sub != ori::kWholeReg || o.mods || f.regInfo(o.cls, o.reg).defCount != 1)
    return std::nullopt;
  long d = findDef(ins, j, o.cls, o.reg);
  if (d < 0)
    return std::nullopt;
  const Instr &m = ins[static_cast<size_t>(d)];
  if (m.op != Opcode::MOV || m.isGuarded() || !m.mods.empty() || m.numDefs != 1 ||
      m.uses().size() != 1)
    return std::nullopt;
  return intConst(m.uses()[0]);
}

/// A 64-bit address register defined in the block as `other + delta` (delta a constant):
///   IMAD.WIDE[.U32] c, k, a.64  (c, k constants: the scaled index of a constant stride);
///   IADD3 lo, carry = a.64[0], imm, RZ ; IADD3.X hi = a.64[1], X, RZ, carry, !PT (X: RZ or a
///   constant; the lowering's 64-bit add of a constant).
/// Returns (a.64, delta, index of the earliest defining instruction).
struct AddrSum {
  Operand base;
  int64_t delta;
  size_t def;
};
std::optional<AddrSum> constAddrSum(const ori::Function &f, const std::vector<Instr> &ins,
                                    size_t j, const Operand &b) {
  auto whole64 = [](const Operand &o) {
    return o.kind == OperandKind::VReg && o.cls == RegClass::R && o.width == 2 &&
           o.sub == ori::kWholeReg && !(o.mods & ~ori::OM_REUSE);
  };
  auto half = [](const Operand &o, uint8_t k) {
    return o.kind == OperandKind::VReg && o.cls == RegClass::R && o.width == 2 && o.sub == k &&
           !(o.mods & ~ori::OM_REUSE);
  };
  long dl = findDef(ins, j, RegClass::R, b.reg);
  if (dl < 0)
    return std::nullopt;
  auto d = static_cast<size_t>(dl);
  const Instr &w = ins[d];
  const ori::RegInfo &bi = f.regInfo(RegClass::R, b.reg);
  if (w.isGuarded())
    return std::nullopt;
  if (w.op == Opcode::IMAD && w.hasModifier(Modifier::WIDE) && bi.defCount == 1 &&
      w.numDefs == 1 && whole64(w.ops[0]) && w.uses().size() == 3 && whole64(w.uses()[2])) {
    std::optional<uint32_t> c = blockConst(f, ins, d, w.uses()[0]);
    std::optional<uint32_t> k = blockConst(f, ins, d, w.uses()[1]);
    if (!c || !k)
      return std::nullopt;
    bool u32 = w.hasModifier(Modifier::U32);
    int64_t delta = u32 ? static_cast<int64_t>(uint64_t(*c) * uint64_t(*k))
                        : int64_t(static_cast<int32_t>(*c)) * int64_t(static_cast<int32_t>(*k));
    return AddrSum{w.uses()[2], delta, d};
  }
  // The pair add: hi is the nearest definition, lo the one before it.
  if (w.op == Opcode::IADD3 && w.hasModifier(Modifier::X) && w.mods.size() == 1 &&
      bi.defCount == 2 && w.numDefs == 1 && half(w.ops[0], 1) && w.uses().size() == 5 && d > 0) {
    const Instr &lo = ins[d - 1];
    auto hu = w.uses();
    if (lo.op != Opcode::IADD3 || !lo.mods.empty() || lo.isGuarded() || lo.numDefs != 2 ||
        !half(lo.ops[0], 0) || lo.ops[0].reg != b.reg || lo.uses().size() != 3 ||
        !(hu[3] == lo.ops[1]) || predConst(hu[4]) != false || !isRZ(hu[2]) ||
        f.regInfo(lo.ops[1].cls, lo.ops[1].reg).useCount != 1)
      return std::nullopt;
    auto lu = lo.uses();
    if (!half(lu[0], 0) || !half(hu[0], 1) || lu[0].reg != hu[0].reg || !isRZ(lu[2]))
      return std::nullopt;
    std::optional<uint32_t> l = intConst(lu[1]), h = intConst(hu[1]);
    if (!l || !h)
      return std::nullopt;
    Operand a = Operand::vreg(RegClass::R, lu[0].reg, 2);
    return AddrSum{a, static_cast<int64_t>((uint64_t(*h) << 32) | *l), d - 1};
  }
  return std::nullopt;
}

/// `b.64 = IMAD.WIDE x, k, s.64` whose addend s is `a.64 + c` (constAddrSum, s read only
/// here) and whose result b is read only as memory bases later in the block: the addend
/// becomes a and every access through b takes c in its offset (x * k + (a + c) + off ==
/// x * k + a + (off + c) at 64 bits). All or nothing: every read of b must take the new
/// offset (a 24-bit field), else nothing changes.
bool reads(const Instr &in, RegClass c, uint32_t r);
void reassociateWideAddend(GoCtx &ctx, std::vector<Instr> &ins) {
  ori::Function &f = ctx.f;
  for (size_t d = 0; d < ins.size(); ++d) {
    Instr &w = ins[d];
    if (w.op != Opcode::IMAD || !w.hasModifier(Modifier::WIDE) || w.isGuarded() ||
        w.numDefs != 1 || w.uses().size() != 3)
      continue;
    const Operand b = w.ops[0], add = w.uses()[2];
    if (b.kind != OperandKind::VReg || b.cls != RegClass::R || b.width != 2 ||
        b.sub != ori::kWholeReg || add.kind != OperandKind::VReg || add.cls != RegClass::R ||
        add.width != 2 || add.sub != ori::kWholeReg || (add.mods & ~ori::OM_REUSE))
      continue;
    const ori::RegInfo &bi = f.regInfo(RegClass::R, b.reg), &ai = f.regInfo(RegClass::R, add.reg);
    if (bi.defCount != 1 || ai.useCount != 1 || b.reg == add.reg)
      continue;
    std::optional<AddrSum> s = constAddrSum(f, ins, d, add);
    if (!s || s->delta == 0 || sourcesClobbered(ins, s->def + 1, d, {s->base}) ||
        sourcesClobbered(ins, s->def + 1, d, w.uses().take_front(2)))
      continue;
    // Every read of b: a memory base after d in this block that still encodes with +delta.
    std::vector<std::pair<size_t, unsigned>> sites;
    uint32_t seen = 0;
    bool ok = true;
    for (size_t j = d + 1; j < ins.size() && ok; ++j) {
      if (untouchable(ins[j]) && reads(ins[j], RegClass::R, b.reg))
        ok = false;
      auto u = ins[j].uses();
      for (unsigned i = 0; i < u.size() && ok; ++i) {
        for (const Operand &v : u[i].vregs())
          if (v.cls == RegClass::R && v.reg == b.reg)
            ++seen;
        if (u[i].kind != OperandKind::Mem || !u[i].memBaseIsVReg())
          continue;
        Operand mb = u[i].memBase();
        if (mb.cls != RegClass::R || mb.reg != b.reg)
          continue;
        if (mb.width != 2 || mb.sub != ori::kWholeReg) {
          ok = false;
          break;
        }
        int64_t off = int64_t(u[i].memOffset()) + s->delta;
        Instr t = ins[j];
        if (off < INT32_MIN || off > INT32_MAX)
          ok = false;
        else {
          t.uses()[i].setMemOffset(static_cast<int32_t>(off));
          ok = enc::canEncode(t, ctx.sm);
        }
        if (ok)
          sites.push_back({j, i});
      }
      if (ins[j].guard.kind == OperandKind::VReg && ins[j].guard.cls == RegClass::R &&
          ins[j].guard.reg == b.reg)
        ok = false;
    }
    if (!ok || sites.empty() || seen != bi.useCount || sites.size() != bi.useCount)
      continue;
    w.uses()[2] = s->base;
    for (auto [j, i] : sites) {
      Operand &m = ins[j].uses()[i];
      m.setMemOffset(static_cast<int32_t>(int64_t(m.memOffset()) + s->delta));
    }
    ++ctx.changes;
  }
}

/// Address arithmetic folded into memory offsets (ptxas's `[R.64+0x400]`): a memory operand
/// `[b.64 + off]` whose base is `a.64 + delta` (constAddrSum) becomes `[a.64 + off + delta]`
/// when a.64 is unchanged between b's definition and the access and the instruction still
/// encodes (the offset field's width is the encoding's); the add then dies when no other
/// read of b remains. 64-bit bases only: the address adds wrap at 2^64 either way, so
/// (a + delta) + off == a + (off + delta) exactly. Counts are stale afterwards: the caller
/// recomputes the register table.
void foldAddrOffsets(GoCtx &ctx, std::vector<Instr> &ins) {
  reassociateWideAddend(ctx, ins);
  for (size_t j = 0; j < ins.size(); ++j) {
    Instr &in = ins[j];
    if (untouchable(in))
      continue;
    auto uses = in.uses();
    for (unsigned i = 0; i < uses.size(); ++i) {
      Operand &m = uses[i];
      if (m.kind != OperandKind::Mem || !m.memBaseIsVReg())
        continue;
      Operand b = m.memBase();
      if (b.cls != RegClass::R || b.width != 2 || b.sub != ori::kWholeReg)
        continue;
      std::optional<AddrSum> s = constAddrSum(ctx.f, ins, j, b);
      if (!s)
        continue;
      int64_t off = int64_t(m.memOffset()) + s->delta;
      if (off < INT32_MIN || off > INT32_MAX)
        continue;
      if (sourcesClobbered(ins, s->def + 1, j, {s->base}))
        continue;
      Operand n = withMemBase(m, s->base);
      n.setMemOffset(static_cast<int32_t>(off));
      Instr t = in;
      t.uses()[i] = n;
      if (!enc::canEncode(t, ctx.sm))
        continue;
      m = n;
      ++ctx.changes;
    }
  }
}

// ---- 2. Propagation ---------------------------------------------------------------------

/// Facts: cell -> the operand it equals (an immediate, c[b][o], RZ/PT/!PT, or a cell).
using FactVec = std::vector<std::pair<Cell, Operand>>; // sorted by cell

struct Facts {
  llvm::DenseMap<Cell, Operand> val;
  llvm::DenseMap<Cell, llvm::SmallVector<Cell, 2>> copiesOf; // source cell -> dependents
  llvm::DenseSet<Cell> *killed = nullptr; // when set, records every cell kill() is given

  void kill(Cell c) {
    if (killed)
      killed->insert(c);
    val.erase(c);
    auto it = copiesOf.find(c);
    if (it == copiesOf.end())
      return;
    for (Cell d : it->second) {
      auto v = val.find(d);
      if (v != val.end() && v->second.kind == OperandKind::VReg) {
        std::optional<Cell> s = singleCell(v->second);
        if (s && *s == c)
          val.erase(v);
      }
    }
    copiesOf.erase(it);
  }
  void set(Cell c, const Operand &v) {
    kill(c);
    val[c] = v;
    if (std::optional<Cell> s = singleCell(v))
      copiesOf[*s].push_back(c);
  }
  void load(const FactVec &fv) {
    val.clear();
    copiesOf.clear();
    for (auto &[c, v] : fv) {
      val[c] = v;
      if (std::optional<Cell> s = singleCell(v))
        copiesOf[*s].push_back(c);
    }
  }
  FactVec save() const {
    FactVec fv(val.begin(), val.end());
    std::sort(fv.begin(), fv.end(), [](auto &a, auto &b) { return a.first < b.first; });
    return fv;
  }
};

FactVec intersect(const FactVec &a, const FactVec &b) {
  FactVec out;
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    if (a[i].first < b[j].first)
      ++i;
    else if (b[j].first < a[i].first)
      ++j;
    else {
      if (a[i].second == b[j].second)
        out.push_back(a[i]);
      ++i, ++j;
    }
  }
  return out;
}

/// A block's effect on the facts, for the analysis sweeps of propagate() (issue 23).
/// transfer() is gen/kill: kill(c) erases the fact about c and every fact that is a copy of
/// c, and set() makes a fact without reading any other, so a fact entering the block leaves
/// it unless the block kills its cell or (a register copy) the cell it copies, and what the
/// block adds is what it leaves when run from no facts at all. applySummary() therefore
/// returns exactly what loading the entry facts, transferring every instruction and saving
/// would, in one merge of sorted vectors instead of a hash-map load and a sort per block and
/// sweep (those were 53% of Rodinia myocyte's compile: ~1,000 blocks of ~25 instructions
/// carrying ~600 facts each).
struct BlockSummary {
  llvm::DenseSet<Cell> killed; // every cell kill() is given in the block
  FactVec gen;                 // the facts the block leaves from none, sorted by cell
};

/// The value a MOV/LDC source stands for as a fact, or None.
std::optional<Operand> factValue(const Operand &s) {
  if (s.mods & ~ori::OM_REUSE)
    return std::nullopt;
  switch (s.kind) {
  case OperandKind::Imm:
  case OperandKind::FImm32: {
    Operand v = s;
    v.mods = 0;
    return v;
  }
  case OperandKind::CBank:
    if (s.hasCbankIndex())
      return std::nullopt;
    return Operand::cbank(s.reg, s.cbankOffset());
  case OperandKind::VReg: {
    if (!singleCell(s))
      return std::nullopt;
    Operand v = s;
    v.mods = 0;
    return v;
  }
  case OperandKind::PReg:
    if (s.isFixed() && (s.cls == RegClass::R || s.cls == RegClass::UR))
      return Operand::fixed(s.cls);
    return std::nullopt;
  default:
    return std::nullopt;
  }
}

bool hasSizeModifier64(const Instr &in) {
  return in.mods.size() == 1 && in.mods[0] == Modifier::Size64;
}

/// The transfer function: kill what `in` defines, then add what it establishes.
void transfer(const Instr &in, Facts &fs) {
  for (const Operand &d : in.defs())
    for (Cell c : cellsOf(d))
      fs.kill(c);
  if (in.isGuarded() || in.numDefs == 0)
    return;
  const Operand &d = in.ops[0];
  if (d.kind != OperandKind::VReg)
    return;
  if (in.op == Opcode::MOV && in.mods.empty() && in.numDefs == 1 && in.uses().size() == 1) {
    std::optional<Cell> dc = singleCell(d);
    std::optional<Operand> v = factValue(in.uses()[0]);
    if (dc && v && !(v->kind == OperandKind::VReg && singleCell(*v) == dc))
      fs.set(*dc, *v);
    return;
  }
  if (in.op == Opcode::LDC && in.numDefs == 1 && in.uses().size() == 1 &&
      in.uses()[0].kind == OperandKind::CBank && !in.uses()[0].hasCbankIndex() &&
      in.uses()[0].mods == 0) {
    const Operand &c = in.uses()[0];
    if (in.mods.empty()) {
      if (std::optional<Cell> dc = singleCell(d))
        fs.set(*dc, Operand::cbank(c.reg, c.cbankOffset()));
    } else if (hasSizeModifier64(in) && d.width == 2 && d.sub == ori::kWholeReg) {
      fs.set(cellOf(d.cls, d.reg, 0), Operand::cbank(c.reg, c.cbankOffset()));
      fs.set(cellOf(d.cls, d.reg, 1), Operand::cbank(c.reg, c.cbankOffset() + 4));
    }
    return;
  }
  // A compare folded to a constant leaves its predicate as a fact (see foldInstr).
}

/// Replacement for a read `u` in use slot `slot` of `in`, or None.
std::optional<Operand> replacement(GoCtx &ctx, const Facts &fs, const Instr &in, unsigned pos,
                                   OperandSlot slot) {
  const Operand &u = in.uses()[pos];
  if (u.kind != OperandKind::VReg)
    return std::nullopt;
  uint8_t umods = u.mods & ~ori::OM_REUSE;
  // Whole pair/quad: every component a copy of the matching component of one register.
  if (u.sub == ori::kWholeReg && u.width > 1) {
    std::optional<uint32_t> reg;
    std::optional<RegClass> cls;
    for (unsigned i = 0; i < u.width; ++i) {
      auto it = fs.val.find(cellOf(u.cls, u.reg, i));
      if (it == fs.val.end() || it->second.kind != OperandKind::VReg)
        return std::nullopt;
      const Operand &v = it->second;
      if (v.width != u.width || v.sub != i || v.cls != u.cls || (reg && *reg != v.reg))
        return std::nullopt;
      reg = v.reg, cls = v.cls;
    }
    Operand r = Operand::vreg(*cls, *reg, u.width);
    r.mods = u.mods;
    return r;
  }
  std::optional<Cell> c = singleCell(u);
  if (!c)
    return std::nullopt;
  auto it = fs.val.find(*c);
  if (it == fs.val.end())
    return std::nullopt;
  const Operand &v = it->second;
  bool isPredSlot = slot == OperandSlot::Pred || slot == OperandSlot::PredSrc ||
                    slot == OperandSlot::UPred || slot == OperandSlot::UPredSrc;
  if (isPredSlot) {
    if (std::optional<bool> pc = predConst(v)) {
      bool val = *pc != bool(u.mods & ori::OM_NOT);
      return predOperand(u.cls, val);
    }
    if (v.kind == OperandKind::VReg && v.cls == u.cls) {
      Operand r = v;
      r.mods = u.mods;
      return r;
    }
    return std::nullopt;
  }
  bool regSlot = slot == OperandSlot::GPR || slot == OperandSlot::UGPR;
  bool aluSlot = slot == OperandSlot::AluSrc || slot == OperandSlot::UniSrc;
  // Register copy of the same class: valid in any register slot.
  if (v.kind == OperandKind::VReg) {
    if (v.cls == u.cls) {
      Operand r = v;
      r.mods = u.mods;
      return r;
    }
    // A UR copied into an R: only ALU source slots take a UR, where the form allows it.
    if (!(slot == OperandSlot::AluSrc && v.cls == RegClass::UR && u.cls == RegClass::R))
      return std::nullopt;
    Instr trial = in;
    Operand r = v;
    r.mods = u.mods;
    trial.uses()[pos] = r;
    if (!enc::canEncode(trial, ctx.sm))
      return std::nullopt;
    return r;
  }
  if (!regSlot && !aluSlot)
    return std::nullopt;
  // A known zero (integer or +0.0f bits) reads as RZ / URZ in any register slot.
  if (isZeroConst(v) || isRZ(v)) {
    if (u.cls != RegClass::R && u.cls != RegClass::UR)
      return std::nullopt;
    Operand r = Operand::fixed(u.cls);
    r.mods = u.mods;
    return r;
  }
  if (!aluSlot || umods != 0)
    return std::nullopt;
  if (v.kind == OperandKind::Imm && !takesIntImm(in.op))
    return std::nullopt;
  if (v.kind == OperandKind::FImm32 && !takesF32Imm(in.op))
    return std::nullopt;
  if (v.kind != OperandKind::Imm && v.kind != OperandKind::FImm32 && v.kind != OperandKind::CBank)
    return std::nullopt;
  // A MOV of a constant-bank word is an LDC again, and a pair of them is worse than the
  // LDC.64 they came from: copies of c[][] words stay register copies.
  if (v.kind == OperandKind::CBank && in.op == Opcode::MOV)
    return std::nullopt;
  Instr trial = in;
  trial.uses()[pos] = v;
  ori::spellImmediates(trial);
  if (!enc::canEncode(trial, ctx.sm))
    return std::nullopt;
  return trial.uses()[pos];
}

uint32_t lop3Eval(uint32_t a, uint32_t b, uint32_t c, uint8_t lut) {
  uint32_t r = 0;
  for (unsigned bit = 0; bit < 32; ++bit) {
    unsigned idx = (((a >> bit) & 1) << 2) | (((b >> bit) & 1) << 1) | ((c >> bit) & 1);
    r |= static_cast<uint32_t>((lut >> idx) & 1) << bit;
  }
  return r;
}

void makeMov(Instr &in, const Operand &src) {
  Operand d = in.ops[0];
  Operand g = in.guard;
  uint32_t line = in.srcLine;
  uint16_t flags = in.flags;
  in = Instr(Opcode::MOV);
  in.addDef(d);
  in.addUse(src);
  in.guard = g;
  in.srcLine = line;
  in.flags = flags;
  ori::spellImmediates(in);
}

/// A constant for integer folding: a known constant (see intConst), honouring a negation
/// (IADD3's `-x`).
std::optional<uint32_t> addTerm(const Operand &o, const ValueMap *facts) {
  Operand plain = o;
  plain.mods &= static_cast<uint8_t>(~(ori::OM_REUSE | ori::OM_NEG));
  if (plain.mods)
    return std::nullopt;
  std::optional<uint32_t> v = intConst(plain, facts);
  if (v && (o.mods & ori::OM_NEG))
    return 0u - *v;
  return v;
}
bool plainRegOrCell(const Operand &o) {
  return o.kind == OperandKind::VReg && (o.mods & ~ori::OM_REUSE) == 0 && singleCell(o);
}

/// Folds `in` (its sources already rewritten). Returns false when the instruction is to be
/// deleted. May record predicate facts in `fs` (applied after transfer by the caller).
std::optional<std::pair<Cell, bool>> foldInstr(Instr &in, bool &erase, const ValueMap *fv,
                                               unsigned sm) {
  erase = false;
  // Guards.
  if (std::optional<bool> g = in.guard.kind == OperandKind::None ? std::nullopt
                                                                 : predConst(in.guard)) {
    if (!*g) {
      erase = true;
      return std::nullopt;
    }
    in.guard = Operand{};
  }
  if (in.isGuarded() || in.numDefs == 0)
    return std::nullopt;
  const Operand &d = in.ops[0];
  bool dWord = d.kind == OperandKind::VReg && (d.width == 1 || d.sub != ori::kWholeReg) &&
               d.cls == RegClass::R;
  auto u = in.uses();
  switch (in.op) {
  case Opcode::MOV:
    if (in.mods.empty() && u.size() == 1 && u[0].kind == OperandKind::VReg &&
        d.kind == OperandKind::VReg && u[0].cls == d.cls && u[0].reg == d.reg &&
        u[0].sub == d.sub && u[0].width == d.width && (u[0].mods & ~ori::OM_REUSE) == 0)
      erase = true;
    return std::nullopt;
  case Opcode::IADD3: {
    if (!in.mods.empty() || in.numDefs != 1 || u.size() != 3 || !dWord)
      return std::nullopt;
    // Sum the known terms; what is left is at most three registers plus one immediate.
    uint32_t sum = 0;
    llvm::SmallVector<Operand, 3> regs;
    for (unsigned k = 0; k < 3; ++k) {
      if (std::optional<uint32_t> t = addTerm(u[k], fv))
        sum += *t;
      else
        regs.push_back(u[k]);
    }
    if (regs.empty()) {
      makeMov(in, Operand::intImm(sum));
      return std::nullopt;
    }
    if (regs.size() == 1 && sum == 0 && plainRegOrCell(regs[0]) && regs[0].cls == RegClass::R) {
      makeMov(in, regs[0]);
      return std::nullopt;
    }
    if (regs.size() == 3)
      return std::nullopt;
    // Rebuild as IADD3 r0, (imm | r1), (r1 | RZ) when that has fewer register reads.
    unsigned constRegs = 0;
    for (unsigned k = 0; k < 3; ++k)
      constRegs += u[k].kind == OperandKind::VReg && addTerm(u[k], fv).has_value();
    if (constRegs == 0)
      return std::nullopt;
    Instr n = in;
    n.ops.resize(1);
    n.addUse(regs[0]);
    n.addUse(sum ? Operand::intImm(sum) : Operand::fixed(RegClass::R));
    n.addUse(regs.size() > 1 ? regs[1] : Operand::fixed(RegClass::R));
    ori::spellImmediates(n);
    if (enc::canEncode(n, sm))
      in = n;
    return std::nullopt;
  }
  case Opcode::IMAD: {
    if (!in.mods.empty() || in.numDefs != 1 || u.size() != 3 || !dWord)
      return std::nullopt;
    auto a = intConst(u[0], fv), b = intConst(u[1], fv), c = intConst(u[2], fv);
    if (a && b && c) {
      makeMov(in, Operand::intImm(*a * *b + *c));
      return std::nullopt;
    }
    // x * 0 + c -> c ; x * 1 + 0 -> x
    if (((a && *a == 0) || (b && *b == 0)) && (c || plainRegOrCell(u[2]))) {
      makeMov(in, c ? Operand::intImm(*c) : u[2]);
      return std::nullopt;
    }
    if (c && *c == 0) {
      if (b && *b == 1 && plainRegOrCell(u[0]) && u[0].cls == RegClass::R) {
        makeMov(in, u[0]);
        return std::nullopt;
      }
      if (a && *a == 1 && plainRegOrCell(u[1]) && u[1].cls == RegClass::R) {
        makeMov(in, u[1]);
        return std::nullopt;
      }
    }
    return std::nullopt;
  }
  case Opcode::LOP3: {
    // LOP3.LUT d, a, b, c, lut, !PT (no predicate result)
    if (in.mods.size() != 1 || in.mods[0] != Modifier::LUT || in.numDefs != 1 || u.size() != 5 ||
        !dWord || u[3].kind != OperandKind::Imm || predConst(u[4]) != false)
      return std::nullopt;
    auto lut = static_cast<uint8_t>(u[3].imm);
    auto a = intConst(u[0], fv), b = intConst(u[1], fv), c = intConst(u[2], fv);
    if (a && b && c) {
      makeMov(in, Operand::intImm(lop3Eval(*a, *b, *c, lut)));
      return std::nullopt;
    }
    // One register input, the others constant: the LUT is bitwise, so probing the input
    // with all zeros and all ones decides it: a constant function becomes a MOV of the
    // constant, the identity a MOV of the input.
    std::optional<uint32_t> cs[3] = {a, b, c};
    for (unsigned k = 0; k < 3; ++k) {
      if (!plainRegOrCell(u[k]) || u[k].cls != RegClass::R)
        continue;
      bool others = true;
      for (unsigned m = 0; m < 3; ++m)
        if (m != k)
          others &= cs[m].has_value();
      if (!others)
        continue;
      uint32_t x0[3], x1[3];
      for (unsigned m = 0; m < 3; ++m)
        x0[m] = x1[m] = m == k ? 0u : *cs[m];
      x1[k] = 0xFFFFFFFFu;
      uint32_t r0 = lop3Eval(x0[0], x0[1], x0[2], lut);
      uint32_t r1 = lop3Eval(x1[0], x1[1], x1[2], lut);
      if (r0 == 0 && r1 == 0xFFFFFFFFu) {
        makeMov(in, u[k]);
        return std::nullopt;
      }
      if (r0 == r1) {
        makeMov(in, Operand::intImm(r0));
        return std::nullopt;
      }
    }
    return std::nullopt;
  }
  case Opcode::SEL: {
    if (!in.mods.empty() || in.numDefs != 1 || u.size() != 3 || !dWord)
      return std::nullopt;
    if (std::optional<bool> p = predConst(u[2])) {
      makeMov(in, *p ? u[0] : u[1]);
      return std::nullopt;
    }
    if (u[0] == u[1] && (u[0].mods & ~ori::OM_REUSE) == 0) {
      makeMov(in, u[0]);
      return std::nullopt;
    }
    return std::nullopt;
  }
  case Opcode::ISETP: {
    // ISETP.<cmp>[.U32].AND p, PT, a, b, PT with constant a, b (or a == b).
    if (in.numDefs != 2 || u.size() != 3 || in.ops[0].kind != OperandKind::VReg ||
        in.ops[0].cls != RegClass::P || !(in.ops[1].isFixed()) || predConst(u[2]) != true)
      return std::nullopt;
    bool uns = false, andOk = false;
    std::optional<Modifier> cmp;
    for (Modifier m : in.mods) {
      if (m == Modifier::U32)
        uns = true;
      else if (m == Modifier::AND)
        andOk = true;
      else if (m == Modifier::LT || m == Modifier::LE || m == Modifier::GT || m == Modifier::GE ||
               m == Modifier::EQ || m == Modifier::NE)
        cmp = m;
      else
        return std::nullopt;
    }
    if (!andOk || !cmp)
      return std::nullopt;
    auto a = intConst(u[0], fv), b = intConst(u[1], fv);
    std::optional<bool> r;
    if (a && b) {
      int64_t x = uns ? int64_t(*a) : int64_t(int32_t(*a));
      int64_t y = uns ? int64_t(*b) : int64_t(int32_t(*b));
      switch (*cmp) {
      case Modifier::LT: r = x < y; break;
      case Modifier::LE: r = x <= y; break;
      case Modifier::GT: r = x > y; break;
      case Modifier::GE: r = x >= y; break;
      case Modifier::EQ: r = x == y; break;
      case Modifier::NE: r = x != y; break;
      default: break;
      }
    } else if (plainRegOrCell(u[0]) && u[0] == u[1]) {
      r = *cmp == Modifier::LE || *cmp == Modifier::GE || *cmp == Modifier::EQ;
    }
    if (!r)
      return std::nullopt;
    return std::make_pair(cellOf(RegClass::P, in.ops[0].reg, 0), *r);
  }
  default:
    return std::nullopt;
  }
}

/// Rewrites one block with its entry facts.
void rewriteBlock(GoCtx &ctx, ori::Block &blk, Facts &fs) {
  const bool apply = true;
  std::vector<Instr> out;
  out.reserve(blk.instrs.size());
  for (Instr &orig : blk.instrs) {
    Instr in = orig;
    if (!untouchable(in)) {
      const ori::OpcodeInfo &info = in.info();
      auto uses = in.uses();
      for (unsigned i = 0; i < uses.size(); ++i) {
        OperandSlot slot = i < info.useSlots.size() && i < info.maxUses ? info.useSlots[i]
                                                                       : OperandSlot::Imm;
        // Operands past the signature (the chained predicate of ISETP.EX) are predicate
        // sources when they are predicate registers.
        if (i >= info.maxUses && uses[i].kind == OperandKind::VReg &&
            ori::isPredicateClass(uses[i].cls))
          slot = OperandSlot::PredSrc;
        if (uses[i].kind == OperandKind::Mem) {
          Operand base = uses[i].memBase();
          if (base.kind == OperandKind::VReg && base.sub == ori::kWholeReg) {
            Instr probe(Opcode::MOV);
            probe.addUse(base);
            if (auto r = replacement(ctx, fs, probe, 0, OperandSlot::GPR);
                r && r->kind == OperandKind::VReg && r->width == base.width) {
              uses[i] = withMemBase(uses[i], *r);
            }
          }
          continue;
        }
        if (auto r = replacement(ctx, fs, in, i, slot))
          uses[i] = *r;
      }
      // Guard.
      if (in.guard.kind == OperandKind::VReg) {
        if (auto c = singleCell(in.guard)) {
          auto it = fs.val.find(*c);
          if (it != fs.val.end()) {
            if (auto pc = predConst(it->second))
              in.guard = predOperand(in.guard.cls, *pc != bool(in.guard.mods & ori::OM_NOT));
            else if (it->second.kind == OperandKind::VReg && it->second.cls == in.guard.cls) {
              Operand g = it->second;
              g.mods = in.guard.mods;
              in.guard = g;
            }
          }
        }
      }
    }
    bool erase = false;
    std::optional<std::pair<Cell, bool>> predFact;
    if (!untouchable(in))
      predFact = foldInstr(in, erase, &fs.val, ctx.sm);
    if (erase) {
      // Deleting a MOV x, x or a never-executed instruction defines nothing.
      continue;
    }
    transfer(in, fs);
    if (predFact)
      fs.set(predFact->first, predOperand(RegClass::P, predFact->second));
    if (apply) {
      if (!(in.ops == orig.ops) || !(in.guard == orig.guard) || in.op != orig.op)
        ++ctx.changes;
      out.push_back(std::move(in));
    }
  }
  if (apply) {
    if (out.size() != blk.instrs.size())
      ctx.changes += static_cast<unsigned>(blk.instrs.size() - out.size());
    blk.instrs = std::move(out);
  }
}

BlockSummary summarize(const ori::Block &blk) {
  BlockSummary s;
  Facts fs;
  fs.killed = &s.killed;
  for (const Instr &in : blk.instrs)
    transfer(in, fs);
  fs.killed = nullptr;
  s.gen = fs.save();
  return s;
}

FactVec applySummary(const FactVec &in, const BlockSummary &s) {
  if (s.killed.empty() && s.gen.empty())
    return in;
  FactVec out;
  out.reserve(in.size() + s.gen.size());
  size_t j = 0;
  for (const auto &fact : in) {
    if (s.killed.count(fact.first))
      continue;
    if (fact.second.kind == OperandKind::VReg)
      if (std::optional<Cell> src = singleCell(fact.second); src && s.killed.count(*src))
        continue;
    // A surviving fact's cell is not killed, so no generated fact has the same cell.
    while (j < s.gen.size() && s.gen[j].first < fact.first)
      out.push_back(s.gen[j++]);
    out.push_back(fact);
  }
  out.insert(out.end(), s.gen.begin() + static_cast<long>(j), s.gen.end());
  return out;
}

void propagate(GoCtx &ctx) {
  ori::Function &f = ctx.f;
  ori::buildCFG(f);
  std::vector<uint32_t> rpo = ori::computeRPO(f);
  std::vector<std::optional<FactVec>> outF(f.blocks.size()); // nullopt = TOP (not yet seen)
  auto entryFacts = [&](uint32_t b) {
    FactVec in;
    bool first = true;
    if (b == 0)
      return in;
    for (uint32_t p : f.blocks[b].preds) {
      if (!outF[p])
        continue; // TOP
      in = first ? *outF[p] : intersect(in, *outF[p]);
      first = false;
    }
    return in;
  };
  // Analysis: iterate to the fixed point without changing the code, each block's transfer
  // applied as its summary (the same out facts as transferring the block, see BlockSummary).
  std::vector<BlockSummary> sums(f.blocks.size());
  for (uint32_t b : rpo)
    sums[b] = summarize(f.blocks[b]);
  for (unsigned iter = 0; iter < 50; ++iter) {
    bool changed = false;
    for (uint32_t b : rpo) {
      FactVec o = applySummary(entryFacts(b), sums[b]);
      if (!outF[b] || *outF[b] != o) {
        outF[b] = std::move(o);
        changed = true;
      }
    }
    if (!changed)
      break;
  }
  // Rewrite with the entry facts of the fixed point.
  std::vector<FactVec> entries(f.blocks.size());
  for (uint32_t b : rpo)
    entries[b] = entryFacts(b);
  for (uint32_t b : rpo) {
    Facts fs;
    fs.load(entries[b]);
    rewriteBlock(ctx, f.blocks[b], fs);
  }
}

// ---- 3. Coalescing ----------------------------------------------------------------------

bool reads(const Instr &in, RegClass c, uint32_t r) {
  for (const Operand &u : in.uses())
    for (const Operand &v : u.vregs())
      if (v.cls == c && v.reg == r)
        return true;
  if (in.guard.kind == OperandKind::VReg && in.guard.cls == c && in.guard.reg == r)
    return true;
  return false;
}

void coalesceBlock(GoCtx &ctx, std::vector<Instr> &ins) {
  ori::Function &f = ctx.f;
  for (size_t j = 0; j < ins.size(); ++j) {
    Instr &mv = ins[j];
    if (mv.op != Opcode::MOV || !mv.mods.empty() || mv.isGuarded() || mv.numDefs != 1)
      continue;
    const Operand x = mv.ops[0], t = mv.ops[1];
    if (x.kind != OperandKind::VReg || t.kind != OperandKind::VReg || t.mods != 0 ||
        t.cls != x.cls || t.width != 1 || t.sub != ori::kWholeReg)
      continue;
    if (!(x.width == 1 || x.sub != ori::kWholeReg) || x.reg == t.reg)
      continue;
    const ori::RegInfo &ti = f.regInfo(t.cls, t.reg);
    if (ti.defCount != 1 || ti.useCount != 1)
      continue;
    long dl = findDef(ins, j, t.cls, t.reg);
    if (dl < 0)
      continue;
    auto d = static_cast<size_t>(dl);
    Instr &w = ins[d];
    if (w.isGuarded() || untouchable(w) || w.ops[0].kind != OperandKind::VReg ||
        !(w.ops[0] == t))
      continue; // only the first definition slot, written whole
    bool clash = false;
    for (size_t k = d + 1; k < j && !clash; ++k)
      clash = reads(ins[k], x.cls, x.reg) || ins[k].writesVReg(x.cls, x.reg);
    // The defining instruction must not also write x through another result.
    for (unsigned k = 1; k < w.numDefs && !clash; ++k)
      clash = w.ops[k].kind == OperandKind::VReg && w.ops[k].cls == x.cls && w.ops[k].reg == x.reg;
    if (clash)
      continue;
    // Reading x in w itself is fine (sources are read before the result is written) for a
    // width-1 x; a component x of a pair read whole by w is left alone.
    if (x.sub != ori::kWholeReg && reads(w, x.cls, x.reg))
      continue;
    Operand nd = x;
    nd.mods = t.mods;
    w.ops[0] = nd;
    ins.erase(ins.begin() + static_cast<long>(j));
    --j;
    ++ctx.changes;
  }
}

// ---- 4. Partial CSE ---------------------------------------------------------------------

/// A weak global load (LDG without .STRONG: not ld.volatile, .relaxed or .acquire, which
/// the lowering spells LDG.E.STRONG.<scope>). Two of them at the same address with no
/// possible write to global memory in between read the same value: another thread's write
/// in between, without synchronization (a barrier, fence or atomic, all of which stop the
/// scan), is a data race, after which PTX's memory model lets the second load see either
/// value. Shared loads are not candidates: ld.volatile.shared is a plain LDS too.
bool isPlainGlobalLoad(const Instr &in) {
  if (in.op != Opcode::LDG || in.hasFlag(ori::IF_Volatile_bit))
    return false;
  for (Modifier m : in.mods)
    if (m == Modifier::STRONG)
      return false;
  return true;
}

/// Whether `e` may write global memory or order memory accesses (ends a load's CSE scan):
/// anything with an effect but a plain store to shared or local memory only, any .STRONG
/// access, and any load that may read shared memory (an ld.acquire.cta is LDG.E.STRONG.SM
/// with no fence after it, and on shared memory a plain LDS: a later weak load must see
/// what the release it synchronizes with published).
bool cseLoadBarrier(const Instr &e) {
  const ori::OpcodeInfo &info = e.info();
  if ((info.has(ori::OF_LD) || info.has(ori::OF_ST)) && e.hasModifier(Modifier::STRONG))
    return true;
  if (info.has(ori::OF_LD) && info.has(ori::OF_SMEM))
    return true;
  if (!e.hasEffects())
    return false;
  bool plainStore = info.has(ori::OF_ST) && !info.has(ori::OF_LD) && !info.has(ori::OF_BAR) &&
                    !e.hasFlag(ori::IF_Volatile_bit) &&
                    (info.has(ori::OF_SMEM) || info.has(ori::OF_LMEM));
  return !plainStore || info.has(ori::OF_GMEM);
}

bool cseCandidate(const Instr &in, bool loads) {
  const ori::OpcodeInfo &info = in.info();
  if (in.hasEffects())
    return false;
  if (in.isGuarded() || in.numDefs < 1 || in.ops[0].kind != OperandKind::VReg ||
      in.ops[0].sub != ori::kWholeReg)
    return false;
  // Further definitions only of a fixed register (a compare's second result PT).
  for (const Operand &d : in.defs().drop_front())
    if (!d.isFixed())
      return false;
  if (in.numDefs > 1 && in.ops[0].cls != RegClass::R && in.ops[0].cls != RegClass::P)
    return false;
  for (const Operand &o : in.ops)
    if (o.kind == OperandKind::PReg && !o.isFixed())
      return false; // physical registers (R1, ABI) are not tracked
  // Memory loads may see stores in between: constant-bank loads are pure, a plain global
  // load is a candidate whose scan stops at any possible write (cseLoadBarrier).
  if (info.has(ori::OF_LD) && in.op != Opcode::LDC && !(loads && isPlainGlobalLoad(in)))
    return false;
  if (info.has(ori::OF_WARP))
    return false; // warp-level results depend on the active threads
  for (const Operand &o : in.uses())
    if (o.kind == OperandKind::SReg && !ori::specialRegIsStable(static_cast<ori::SpecialReg>(o.reg)))
      return false; // clocks, timers, counters
  // Copies are propagation's to remove.
  return in.op != Opcode::MOV && in.op != Opcode::NOP;
}

/// Every read of `from` (a whole R or P register defined once, by the instruction about to
/// be deleted) becomes a read of `to` (same width, defined once, earlier in the same block,
/// so its one definition dominates every read of `from`); a predicate's reads include the
/// guards it controls (predicates have no copy instruction to leave behind). False,
/// changing nothing, where a read hides in a packed operand (a memory descriptor or
/// constant-bank index) or either register has another definition.
bool renameReg(ori::Function &f, const Operand &from, const Operand &to) {
  bool pred = from.cls == RegClass::P;
  if (from.kind != OperandKind::VReg || to.kind != OperandKind::VReg ||
      (from.cls != RegClass::R && !pred) || to.cls != from.cls || from.width != to.width ||
      from.reg == to.reg ||
      f.regInfo(from.cls, from.reg).defCount != 1 || f.regInfo(to.cls, to.reg).defCount != 1)
    return false;
  auto packed = [&](const Operand &o) {
    Operand h = o.kind == OperandKind::Mem     ? o.memDesc()
                : o.kind == OperandKind::CBank ? o.cbankIndex()
                                               : Operand{};
    return h.kind == OperandKind::VReg && h.cls == from.cls && h.reg == from.reg;
  };
  for (const ori::Block &b : f.blocks)
    for (const Instr &in : b.instrs) {
      if (untouchable(in) && reads(in, from.cls, from.reg))
        return false;
      for (const Operand &o : in.ops)
        if (packed(o))
          return false;
      if (!pred && in.guard.kind == OperandKind::VReg && in.guard.cls == from.cls &&
          in.guard.reg == from.reg)
        return false;
    }
  for (ori::Block &b : f.blocks)
    for (Instr &in : b.instrs) {
      if (in.guard.kind == OperandKind::VReg && in.guard.cls == from.cls && in.guard.reg == from.reg)
        in.guard.reg = to.reg;
      for (Operand &o : in.uses())
        if ((o.kind == OperandKind::VReg || (o.kind == OperandKind::Mem && o.memBaseIsVReg())) &&
            o.cls == from.cls && o.reg == from.reg)
          o.reg = to.reg;
    }
  return true;
}

void cseBlock(GoCtx &ctx, std::vector<Instr> &ins) {
  for (size_t j = 0; j < ins.size(); ++j) {
    Instr &in = ins[j];
    if (!cseCandidate(in, ctx.cseLoads))
      continue;
    const Operand r = in.ops[0];
    bool load = in.info().has(ori::OF_LD) && in.op != Opcode::LDC;
    // Variable-latency results (loads, MUFU, conversions) are worth a longer look back:
    // the copies of an unrolled loop body repeat them a body's length apart.
    size_t window = in.info().has(ori::OF_VLAT) ? 1024 : 64;
    for (size_t k = j; k-- > 0;) {
      const Instr &e = ins[k];
      if (load && cseLoadBarrier(e))
        break;
      // Stop at a redefinition of our sources or of the earlier result's register.
      if (e.op == in.op && e.mods == in.mods && e.numDefs == in.numDefs && !e.isGuarded() &&
          e.ops.size() == in.ops.size() && e.ops[0].kind == OperandKind::VReg &&
          e.ops[0].sub == ori::kWholeReg && e.ops[0].width == r.width && e.ops[0].cls == r.cls &&
          std::equal(e.ops.begin() + 1, e.ops.end(), in.ops.begin() + 1) &&
          !reads(e, e.ops[0].cls, e.ops[0].reg)) {
        bool ok = !sourcesClobbered(ins, k + 1, j, in.uses());
        for (size_t m = k + 1; m < j && ok; ++m)
          ok = !ins[m].writesVReg(e.ops[0].cls, e.ops[0].reg);
        if (ok && r.width == 1 && r.cls != RegClass::P) {
          Operand src = e.ops[0];
          makeMov(in, src);
          ++ctx.changes;
        } else if (ok && renameReg(ctx.f, r, e.ops[0])) {
          // A pair or quad has no one-instruction copy: its reads are renamed instead.
          ins.erase(ins.begin() + static_cast<long>(j));
          --j;
          ++ctx.changes;
        }
        break;
      }
      if (j - k > window)
        break; // bounded window
    }
  }
}

// ---- 6. Tuple formation ------------------------------------------------------------------

/// Register tuples (pairs, quads) that the lowering assembles component by component from
/// 32-bit values -- `X[i] = MOV s_i` for every component, as for the fragments of an
/// HMMA -- are given a home: when every s_i is a distinct width-1 register with exactly one
/// definition (unguarded, whole), each s_i is renamed to component i of one fresh register Q
/// of X's width. This is a pure renaming (each component of Q has exactly the one definition
/// s_i had), so it cannot change results; afterwards X's component copies all read the
/// matching components of Q, propagation replaces whole reads of X by Q, and the copies die.
/// A register already placed in a tuple, or one wanted at two positions, is left alone.
/// Only phase 29 (GeneralOptimize) forms tuples (the allocator then keeps Q in one aligned
/// tuple of registers, which can lengthen live ranges: once is enough).
unsigned formTuples(GoCtx &ctx) {
  ori::Function &f = ctx.f;
  f.recomputeRegTable();
  // Candidate groups: for a wide register X, the sources of its component MOVs.
  struct Group { uint32_t x; uint8_t width; llvm::SmallVector<int64_t, 4> src; };
  llvm::DenseMap<uint32_t, size_t> groupOf;
  std::vector<Group> groups;
  for (const ori::Block &b : f.blocks)
    for (const Instr &in : b.instrs) {
      if (in.op != Opcode::MOV || !in.mods.empty() || in.isGuarded() || in.numDefs != 1)
        continue;
      const Operand &d = in.ops[0], &s = in.ops[1];
      if (d.kind != OperandKind::VReg || d.cls != RegClass::R || d.width < 2 ||
          d.sub == ori::kWholeReg)
        continue;
      auto [it, fresh] = groupOf.try_emplace(d.reg, groups.size());
      if (fresh)
        groups.push_back({d.reg, d.width, llvm::SmallVector<int64_t, 4>(d.width, -1)});
      Group &g = groups[it->second];
      bool ok = s.kind == OperandKind::VReg && s.cls == RegClass::R && s.width == 1 &&
                s.sub == ori::kWholeReg && (s.mods & ~ori::OM_REUSE) == 0;
      // -2 marks a component that is not a plain single-register copy (or copied twice).
      g.src[d.sub] = !ok || g.src[d.sub] != -1 ? -2 : static_cast<int64_t>(s.reg);
    }
  llvm::DenseMap<uint32_t, std::pair<uint32_t, unsigned>> home; // s -> (Q, position)
  for (const Group &g : groups) {
    bool ok = true;
    for (unsigned i = 0; i < g.width && ok; ++i) {
      if (g.src[i] < 0) {
        ok = false;
        break;
      }
      auto si = static_cast<uint32_t>(g.src[i]);
      const ori::RegInfo &ri = f.regInfo(RegClass::R, si);
      ok = ri.width == 1 && ri.defCount == 1 && !home.count(si);
      for (unsigned k = 0; k < i && ok; ++k)
        ok = g.src[k] != g.src[i];
    }
    if (!ok)
      continue;
    Operand q = f.newReg(RegClass::R, g.width);
    for (unsigned i = 0; i < g.width; ++i)
      home[static_cast<uint32_t>(g.src[i])] = {q.reg, i};
  }
  if (home.empty())
    return 0;
  // The single definitions must be unguarded whole writes; otherwise drop that tuple.
  llvm::DenseMap<uint32_t, bool> badQ;
  for (const ori::Block &b : f.blocks)
    for (const Instr &in : b.instrs)
      for (const Operand &d : in.defs())
        if (d.kind == OperandKind::VReg && d.cls == RegClass::R)
          if (auto it = home.find(d.reg); it != home.end())
            if (in.isGuarded() || d.sub != ori::kWholeReg || untouchable(in))
              badQ[it->second.first] = true;
  unsigned renamed = 0;
  auto rename = [&](Operand &o) {
    if (o.kind != OperandKind::VReg || o.cls != RegClass::R || o.width != 1)
      return;
    auto it = home.find(o.reg);
    if (it == home.end() || badQ.count(it->second.first))
      return;
    uint8_t mods = o.mods;
    const ori::RegInfo &qi = f.regInfo(RegClass::R, it->second.first);
    o = Operand::vreg(RegClass::R, it->second.first, qi.width);
    o.sub = static_cast<uint8_t>(it->second.second);
    o.mods = mods;
    ++renamed;
  };
  for (ori::Block &b : f.blocks)
    for (Instr &in : b.instrs) {
      for (Operand &o : in.ops) {
        if (o.kind == OperandKind::Mem) {
          Operand base = o.memBase();
          if (base.kind == OperandKind::VReg && base.width == 1) {
            Operand nb = base;
            rename(nb);
            if (!(nb == base))
              o = withMemBase(o, nb);
          }
          continue;
        }
        rename(o);
      }
      rename(in.guard);
    }
  f.recomputeRegTable();
  return renamed;
}

void generalOptimize(ori::Function &f, PhaseContext &pc, bool cse, bool tuples = false) {
  GoCtx ctx{f, pc.target->arch().sm, cse, pc.knobs.getBool(KnobId::GeneralOptimizeCseLoads)};
  if (tuples)
    formTuples(ctx);
  for (unsigned round = 0; round < 3; ++round) {
    ctx.changes = 0;
    f.recomputeRegTable();
    for (ori::Block &b : f.blocks)
      combineBlock(ctx, b.instrs);
    for (ori::Block &b : f.blocks)
      foldAddrOffsets(ctx, b.instrs);
    f.recomputeRegTable();
    if (cse)
      for (ori::Block &b : f.blocks)
        cseBlock(ctx, b.instrs);
    propagate(ctx);
    ctx.changes += removeDeadCode(f);
    f.recomputeRegTable();
    for (ori::Block &b : f.blocks)
      coalesceBlock(ctx, b.instrs);
    f.recomputeRegTable();
    if (ctx.changes == 0)
      break;
  }
  ori::buildCFG(f);
  f.recomputeRegTable();
}

} // namespace

void runGeneralOptimizeEarly(ori::Function &f, PhaseContext &pc) { generalOptimize(f, pc, false); }
void runGeneralOptimize(ori::Function &f, PhaseContext &pc) { generalOptimize(f, pc, true, true); }
void runGeneralOptimizeLate(ori::Function &f, PhaseContext &pc) { generalOptimize(f, pc, true); }
void runGeneralOptimizeLate2(ori::Function &f, PhaseContext &pc) { generalOptimize(f, pc, true); }

} // namespace ptxmini
