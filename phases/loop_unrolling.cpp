//===- phases/loop_unrolling.cpp - OriLoopUnrolling (phase 22) --------------------------===//
///
/// \file
/// Seed 004 "Phase 22 -- OriLoopUnrolling": full unrolling of loops with a known small trip
/// count, partial unrolling of larger ones and of loops whose count is only known at run
/// time. This implementation follows the seed's decision procedure (sub_1390B30) in the
/// order it gives, for the loop shapes ptxas-mini can prove exact, and rejects everything
/// else with the seed's reason code:
///
///   Loops are visited innermost first (deepest first, then layout order); after a loop is
///   transformed the CFG facts are recomputed and the next loop not visited yet is taken, so
///   an outer loop sees its inner loops already unrolled. Per loop:
///    A. structure: one latch whose last instruction is a conditional BRA to the header,
///       else code 13 (the exit is not a conditional branch);
///    B. suppression, code 11: the header carries PTX `.pragma "nounroll"` (Block::noUnroll),
///       or the per-block override string skips it ("-N-" / "-"); "+N+" / "+" force the loop
///       (below); a body holding a warp-synchronous instruction (convergence constraint,
///       opcodes.def OF_WARP) gets code 11 when its trip count is not a known constant;
///    C. shape: the loop's blocks must be one run in layout order, header first, latch last,
///       falling through to the block after it, with no CALL, no indirect branch and no other
///       loop left inside (a fully unrolled inner loop is gone by then), else code 17;
///       several blocks need UnrollMultiBlockLoops (code 17 without it); a loop that had
///       inner loops: code 7 with LoopUnrollNonInnermost=false;
///    D. induction variable: the branch's predicate has exactly one definition in the loop,
///       an unguarded `P, PT = ISETP.<cmp>[.U32].AND x, y, PT` in the latch whose only reader
///       in the loop is the branch; one of x, y is a 32-bit register i written exactly once
///       in the loop, in the latch, by an unguarded `i = IADD3 i, imm, RZ` (operands in any
///       order) or `VIADD i, i, imm`, else code 14; i not a 32-bit R register: code 15; x
///       and y the same register: 18. A 64-bit i (a register pair): the compare is the
///       pair `t = ISETP.<cmp>.U32.AND x[0], y[0], PT` + `P = ISETP.<cmp>[.U32].AND.EX
///       x[1], y[1], PT, t` (t read by nothing else), y a pair, a c[][] word pair or a
///       64-bit constant, i written exactly twice, by the carry pair `i[0], c = IADD3 i[0],
///       lo(k), RZ` + `i[1] = IADD3.X i[1], hi(k), RZ, c, !PT`, the compare not between
///       the two; everything below then works on 64-bit values;
///    E. trip count: known when the other compare operand is an immediate (or RZ) and i's
///       value on entry is an unguarded `MOV i, imm|RZ` found walking back from the header's
///       only outside predecessor through single-predecessor blocks. The count is found by
///       running the loop's control on 32-bit values (wrap-around and the signed or unsigned
///       compare exact): the first iteration whose compare leaves the loop; past 2^20
///       iterations: code 24. Otherwise the count is a run-time value (UnrollVariableBounds;
///       code 16 without it, or when the loop has an exit besides its latch and
///       LoopUnrollUnknownMultiBlock=false: GUESS for the knob's meaning, from ptxas 13.0
///       unrolling a run-time-count loop with an if inside but not one with a break):
///       the continue condition, normalized to `x REL n` (n loop-invariant), must move
///       towards its exit: REL < or <= with a positive step, > or >= with a negative one,
///       != with a step of +-1, else code 19 (stride sign inconsistent with the compare);
///    F. predicate pressure: more distinct predicate registers in the loop than
///       UnrollPregThreshold: code 24;
///    G. factor, with B = body instructions without the branch and K the instructions of B a
///       full unroll keeps (foldableCount):
///       - LoopUnrollFactor=F > 0 (knob) or a forced loop ('+'): F >= T (or forced, known T)
///         unrolls fully; F = 1: code 12; otherwise partial by F;
///       - known T: full when T*K <= UnrollFullInstLimit * kFullScale and B <=
///         UnrollFullInstLimit (kFullScale GUESS, below), or when K <= UnrollSmallLoopLimit
///         (LoopUnrollNumInstSmallLoop when set) and T <= UnrollFullInstLimit (a small loop
///         is fully unrolled whatever the budget); else partial by the largest f,
///         2 <= f < T, whose copies plus remainder copies fit the budget,
///         (f + T mod f) * max(K, 1) <= UnrollBudget, when B <= UnrollInstLimit (code 24
///         otherwise); none: code 12;
///       - run-time T: f = min(UnrollUnknownCount, UnrollBudget / B) when B <=
///         UnrollUnknownInstLimit (0: UnrollInstLimit), else code 24; f < 2: code 12.
///
/// Transformations (the loop's blocks h..latch are replaced by new blocks in their place):
///   - full by T: T copies of the body, each copy's latch falling through to the next copy;
///     the back branches are dropped and the compare kept only in the last copy (its
///     predicate has no other reader in the loop, so earlier copies' values are dead);
///   - partial by f with T known, T = q*f + r (q >= 1): r straight-line copies of the body
///     first (the seed's "DuplicateBody" per remainder iteration), then a loop of f copies
///     with the compare and branch only after the last. Exact because the original compare
///     leaves the loop only at iteration T, and T - r is a multiple of f;
///   - partial by f with T a run-time value (a main loop, then the original loop as the
///     remainder):
///         check:  P = "at least f more iterations": the compares of the next f-1
///                 iterations all continue; @!P BRA rem
///         main:   f copies, the compare and branch only after the last; there
///                 P = continue AND "at least f more"; @P BRA main
///         mid:    @exit BRA <the loop's exit>          (else fall into rem)
///         rem:    the original loop, unchanged (EpilogueLoopUnrollCount=e >= 2: e copies,
///                 each copy's compare kept and followed by a branch out of the loop)
///     "At least f more" for REL in < <= (> >= symmetric): with x1 = i + a*step the first
///     compare's value (a = 1 when the compare reads i after its update), the (f-1)-th
///     compare reads x1 + (f-2)*step, so the check is i REL n - D with D = (f-2+a)*step,
///     computed once before the loop together with "n - D does not wrap" (n >= MIN + D);
///     when both hold no compare value in between wraps, all are monotonic and all continue.
///     DisablePartialUnrollOverflowCheck drops the wrap test. For != with step +1 (-1) the
///     check is (n - x1) (resp. x1 - n) >= f-1 as unsigned: none of the next f-1 values is n.
///     The check only has to be sufficient: when it fails the original loop runs.
///   Chains of blocks that fall into each other with no other entry are merged, so a
///   single-block loop stays one block.
///   Copies get registers of their own (UnrollRenameCopies, ours): a register the loop
///   references that is not live into its header (nor, in a loop with a break, where the
///   loop exits) is a temporary of one iteration; every copy but the last (and every
///   straight-line remainder copy) renames it to a fresh register, so the copies share no
///   temporary and the schedulers may overlap them (ptxas's unrolled copies do not reuse
///   registers either). The last copy keeps the names, so what is read after the loop is
///   unchanged.
///
/// DUMPIR after the phase prints, before the function, one line per loop visited:
///   `# loop <header>: fully unrolled (trip count T, T copies of B instructions, ...)`
///   `# loop <header>: partially unrolled by f (trip count T, ... remainder r ...)`
///   `# loop <header>: partially unrolled by f (unknown trip count, ...)`
///   `# loop <header>: not unrolled: <code> - <reason>`
/// and the seed's statistics line `# [partially unrolled loops=N] [non-unrolled loops=M]`,
/// N and M counting the loops that are still loops after the phase (a fully unrolled loop is
/// gone, so it is in neither count). The reason texts are the seed's Reason column; the codes
/// printed are the seed's internal ones, not ptxas's hex message numbers.
///
/// Knobs of the seed's table with no effect here, and why: UnrollFlexableFullLimit,
/// UnrollExtraInstPerPercentSaving, UnrollTex3DPercentSavedThreshold,
/// LoopUnrollLargePartOfShaderPct, LoopUnrollNumExtraInstBase,
/// LoopUnrollSingleLoopSavedPctFactor, LoopUnrollExtraFoldableLdcWeight,
/// LoopUnrollFoldableAddrWeight, LoopUnrollNumInstTex: the seed gives their defaults but not
/// the formulas that read them (cycle-saving estimates, texture weights), and a formula made
/// up for them would be a guess no measurement here could check; UnrollProfiledColdInstsScale:
/// ptxas-mini has no profile data (PerformPGO is not implemented).
//===----------------------------------------------------------------------------------===//
#include "encoder/emit_function.h"
#include "ori/analysis/liveness.h"
#include "ori/cfg.h"
#include "phases/loop_simplification.h"
#include "phases/phase_manager.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace ptxmini {
namespace {

using ori::Instr;
using ori::Modifier;
using ori::Opcode;
using ori::Operand;
using ori::OperandKind;
using ori::RegClass;

/// The seed's rejection codes (sub_7F5D20's string table) and their reasons.
enum Reject : unsigned {
  kTexSavings = 7,
  kNoUnroll = 11,
  kFactorOne = 12,
  kExitNotCond = 13,
  kIvFailed = 14,
  kIvClass = 15,
  kTripCount = 16,
  kIrregular = 17,
  kDegenerate = 18,
  kStrideSign = 19,
  kBudget = 24,
};

std::string_view reasonText(unsigned code) {
  switch (code) {
  case kTexSavings: return "body too large relative to texture savings";
  case kNoUnroll: return "nounroll pragma, convergence constraint, or per-block knob";
  case kFactorOne: return "unroll factor reduced to 1";
  case kExitNotCond: return "loop exit is not a conditional branch";
  case kIvFailed: return "induction variable analysis failed";
  case kIvClass: return "induction variable is not an integer register";
  case kTripCount: return "trip count bound extraction failed";
  case kIrregular: return "irregular loop";
  case kDegenerate: return "induction variable initial value register equals its limit register";
  case kStrideSign: return "induction variable stride sign inconsistent with the loop test";
  case kBudget: return "budget exceeded";
  default: return "?";
  }
}

/// Full unrolling is allowed up to T*K <= kFullScale * UnrollFullInstLimit kept instructions.
/// GUESS, calibrated on ptxas 13.0 (tests/compare/loops/README.md): a body of 2 kept
/// instructions (load + add) is fully unrolled at 595 iterations and partially at 597, so
/// the total ptxas allows is 5.95x the seed's UnrollFullInstLimit (200). Not a complete
/// model: a body of 5 kept instructions is fully unrolled at 250 iterations (1,250) by ptxas.
/// Kept as a fraction, kFullScale = 119/20 = 5.95: 595 x 2 = 1,190 = 5.95 x 200.
constexpr int64_t kFullScaleNum = 119, kFullScaleDen = 20;

/// The phase's knobs, read once (seed: the context initializer sub_1389AF0).
struct Params {
  bool enable;
  int64_t factor;
  std::string overrideStr;
  int64_t budget, fullLimit, smallLoop, unknownCount, pregThreshold, unknownInstLimit,
      epilogueCount;
  double instLimit;
  bool multiBlock, nonInnermost, variableBounds, unknownMultiBlock, noOverflowCheck;
  bool renameCopies, foldIncrements;
};

Params readParams(const Knobs &k) {
  Params p;
  p.enable = k.getBool(KnobId::LoopUnroll);
  p.factor = k.getInt(KnobId::LoopUnrollFactor);
  p.overrideStr = k.getString(KnobId::LoopUnrollFactorOverride);
  p.budget = k.getInt(KnobId::UnrollBudget);
  p.fullLimit = k.getInt(KnobId::UnrollFullInstLimit);
  p.smallLoop = k.getInt(KnobId::UnrollSmallLoopLimit);
  if (int64_t n = k.getInt(KnobId::LoopUnrollNumInstSmallLoop); n > 0)
    p.smallLoop = n;
  p.unknownCount = k.getInt(KnobId::UnrollUnknownCount);
  p.pregThreshold = k.getInt(KnobId::UnrollPregThreshold);
  p.instLimit = k.getDouble(KnobId::UnrollInstLimit);
  p.unknownInstLimit = k.getInt(KnobId::UnrollUnknownInstLimit);
  p.epilogueCount = k.getInt(KnobId::EpilogueLoopUnrollCount);
  p.multiBlock = k.getBool(KnobId::UnrollMultiBlockLoops);
  p.nonInnermost = k.getBool(KnobId::LoopUnrollNonInnermost);
  p.variableBounds = k.getBool(KnobId::UnrollVariableBounds);
  p.unknownMultiBlock = k.getBool(KnobId::LoopUnrollUnknownMultiBlock);
  p.noOverflowCheck = k.getBool(KnobId::DisablePartialUnrollOverflowCheck);
  p.renameCopies = k.getBool(KnobId::UnrollRenameCopies);
  p.foldIncrements = k.getBool(KnobId::UnrollFoldCopyIncrements);
  return p;
}

bool isWarpSynchronous(Opcode op) { return ori::opcodeInfo(op).has(ori::OF_WARP); }

bool readsReg(const Instr &in, RegClass c, uint32_t r) {
  auto match = [&](const Operand &o) {
    for (const Operand &v : o.vregs())
      if (v.cls == c && v.reg == r)
        return true;
    return false;
  };
  if (match(in.guard))
    return true;
  for (const Operand &u : in.uses())
    if (match(u))
      return true;
  return false;
}


/// The loop's blocks h..l in layout order (header first, latch last).
struct Region {
  uint32_t h = 0, l = 0;
  uint32_t size() const { return l - h + 1; }
};

/// What the analysis of one loop found.
struct LoopShape {
  Region rg;
  size_t cmpIdx = 0, incIdx = 0; ///< in the latch
  /// A 64-bit induction variable (a register pair): the compare is the pair
  /// `t = ISETP.<cmp>.U32.AND lo, lo', PT` (at cmpLoIdx) + `P = ISETP.<cmp>[.U32].AND.EX hi,
  /// hi', PT, t` (at cmpIdx), the update `iv[0], c = IADD3 iv[0], lo(k), RZ` (at incIdx) +
  /// `iv[1] = IADD3.X iv[1], hi(k), RZ, c, !PT` (at incHiIdx).
  bool wide = false;
  size_t cmpLoIdx = 0, incHiIdx = 0;
  uint32_t iv = 0;
  uint64_t step = 0; ///< modulo 2^32 (2^64 when wide)
  bool ivFirst = true;         ///< the IV is the compare's first operand
  Modifier cmp = Modifier::LT;
  bool uns = false;
  bool continueWhenTrue = true; ///< `@P BRA` (true) or `@!P BRA` (false)
  Operand boundOp;              ///< the compare's other operand (loop-invariant)
  std::optional<uint64_t> bound, init;
  /// Registers the loop references that are not live into its header: every read in an
  /// iteration sees a definition of the same iteration (UnrollRenameCopies renames them in
  /// every copy but the last).
  std::vector<std::pair<RegClass, uint32_t>> locals;
  uint64_t mask() const { return wide ? ~0ull : 0xFFFFFFFFull; }
  /// The step as a signed value of the IV's width.
  int64_t signedStep() const { return wide ? int64_t(step) : int64_t(int32_t(uint32_t(step))); }
  /// The latch positions of the compare (both halves when wide), highest first.
  std::vector<size_t> compareIdx() const {
    return wide ? std::vector<size_t>{cmpIdx, cmpLoIdx} : std::vector<size_t>{cmpIdx};
  }
};

struct Outcome {
  bool ok = false;
  unsigned code = 0;
  std::string detail;
};
Outcome reject(unsigned code, std::string detail = {}) { return {false, code, std::move(detail)}; }

/// `a cmp b` on 32-bit (64-bit when wide) values, signed or unsigned.
bool compareVal(Modifier cmp, bool uns, bool wide, uint64_t a, uint64_t b) {
  if (!wide) { // extend the 32-bit values as the compare reads them
    a = uns ? uint64_t(uint32_t(a)) : uint64_t(int64_t(int32_t(uint32_t(a))));
    b = uns ? uint64_t(uint32_t(b)) : uint64_t(int64_t(int32_t(uint32_t(b))));
  }
  auto rel = [cmp](auto x, auto y) {
    switch (cmp) {
    case Modifier::LT: return x < y;
    case Modifier::LE: return x <= y;
    case Modifier::GT: return x > y;
    case Modifier::GE: return x >= y;
    case Modifier::EQ: return x == y;
    default: return x != y; // NE
    }
  };
  return uns ? rel(a, b) : rel(int64_t(a), int64_t(b));
}

Modifier swapCmp(Modifier m) {
  switch (m) {
  case Modifier::LT: return Modifier::GT;
  case Modifier::LE: return Modifier::GE;
  case Modifier::GT: return Modifier::LT;
  case Modifier::GE: return Modifier::LE;
  default: return m;
  }
}
Modifier negateCmp(Modifier m) {
  switch (m) {
  case Modifier::LT: return Modifier::GE;
  case Modifier::LE: return Modifier::GT;
  case Modifier::GT: return Modifier::LE;
  case Modifier::GE: return Modifier::LT;
  case Modifier::EQ: return Modifier::NE;
  default: return Modifier::EQ;
  }
}

/// The trip count: the loop's control run on 32-bit (64-bit) values; nullopt past `cap`
/// iterations.
std::optional<uint64_t> tripCount(const LoopShape &s, uint64_t cap) {
  uint64_t v = *s.init & s.mask();
  const bool cmpAfterInc = s.incIdx < s.cmpIdx;
  for (uint64_t trip = 1; trip <= cap; ++trip) {
    uint64_t after = (v + s.step) & s.mask();
    uint64_t x = cmpAfterInc ? after : v;
    bool p = s.ivFirst ? compareVal(s.cmp, s.uns, s.wide, x, *s.bound)
                       : compareVal(s.cmp, s.uns, s.wide, *s.bound, x);
    if (p != s.continueWhenTrue)
      return trip;
    v = after;
  }
  return std::nullopt;
}

/// i's value on entry to the loop whose header is `h`: the last definition before the
/// header on the unique path into it (for a pair, of each half: `MOV i[k], imm|RZ`).
std::optional<uint64_t> entryValue(const ori::Function &f, const Region &rg, uint32_t iv,
                                   bool wide) {
  std::vector<uint32_t> outside;
  for (uint32_t p : f.blocks[rg.h].preds)
    if (p < rg.h || p > rg.l)
      outside.push_back(p);
  if (outside.size() != 1)
    return std::nullopt;
  uint32_t b = outside[0];
  std::optional<uint32_t> half[2];
  for (unsigned steps = 0; steps < 64; ++steps) {
    const auto &ins = f.blocks[b].instrs;
    for (size_t k = ins.size(); k-- > 0;) {
      const Instr &in = ins[k];
      if (!in.writesVReg(RegClass::R, iv))
        continue;
      const Operand &d = in.defs()[0];
      const bool mov = in.op == Opcode::MOV && !in.isGuarded() && in.mods.empty() &&
                       in.numDefs == 1 && in.uses().size() == 1;
      if (!wide)
        return mov && isLoopPlainR(d) ? loopConstOf(in.uses()[0]) : std::nullopt;
      if (!mov || !isLoopPairHalf(d, d.sub) || half[d.sub])
        return std::nullopt;
      half[d.sub] = loopConstOf(in.uses()[0]);
      if (!half[d.sub])
        return std::nullopt;
      if (half[0] && half[1])
        return uint64_t(*half[1]) << 32 | *half[0];
    }
    if (f.blocks[b].preds.size() != 1 || b == 0)
      return std::nullopt;
    b = f.blocks[b].preds[0];
    if (b >= rg.h && b <= rg.l)
      return std::nullopt;
  }
  return std::nullopt;
}

/// Calls fn(block, index, instr) for every instruction of the loop but the back branch.
template <typename Fn> void forBody(const ori::Function &f, const Region &rg, Fn fn) {
  for (uint32_t b = rg.h; b <= rg.l; ++b) {
    const auto &ins = f.blocks[b].instrs;
    const size_t n = b == rg.l ? ins.size() - 1 : ins.size();
    for (size_t k = 0; k < n; ++k)
      fn(b, k, ins[k]);
  }
}

/// Steps D and E for a 64-bit induction variable (LoopShape::wide): i written exactly twice
/// in the loop, both in the latch, by the carry pair `i[0], c = IADD3 i[0], lo(k), RZ`
/// then `i[1] = IADD3.X i[1], hi(k), RZ, c, !PT` (sources in any order, the carry read by
/// nothing else in the loop); the compare's reads on one side of both.
Outcome analyzeWideIV(const ori::Function &f, LoopShape &s, const Operand &other,
                      std::optional<uint64_t> otherConst) {
  const Region &rg = s.rg;
  const auto &ins = f.blocks[rg.l].instrs;
  std::vector<std::pair<uint32_t, size_t>> defs;
  forBody(f, rg, [&](uint32_t b, size_t k, const Instr &in) {
    if (in.writesVReg(RegClass::R, s.iv))
      defs.push_back({b, k});
  });
  if (defs.size() != 2 || defs[0].first != rg.l || defs[1].first != rg.l)
    return reject(kIvFailed, "the 64-bit induction variable is not updated by one carry pair "
                             "in the loop's latch");
  const Instr &lo = ins[defs[0].second], &hi = ins[defs[1].second];
  auto plain = [](const Instr &in) { return !in.isGuarded() && in.op == Opcode::IADD3; };
  if (!plain(lo) || !plain(hi) || !lo.mods.empty() || lo.numDefs != 2 ||
      !isLoopPairHalf(lo.ops[0], 0) || lo.ops[0].reg != s.iv || lo.uses().size() != 3 ||
      hi.mods.size() != 1 || hi.mods[0] != Modifier::X || hi.numDefs != 1 ||
      !isLoopPairHalf(hi.ops[0], 1) || hi.ops[0].reg != s.iv || hi.uses().size() != 5)
    return reject(kIvFailed, "the 64-bit induction variable's update is not a carry pair");
  const Operand &carry = lo.ops[1];
  const Operand npt = [] {
    Operand p = Operand::fixed(RegClass::P);
    p.mods = ori::OM_NOT;
    return p;
  }();
  if (carry.kind != OperandKind::VReg || carry.cls != RegClass::P || carry.mods != 0 ||
      !(hi.uses()[3] == carry) || !(hi.uses()[4] == npt))
    return reject(kIvFailed, "the 64-bit induction variable's update is not a carry pair");
  unsigned carryReads = 0;
  forBody(f, rg, [&](uint32_t, size_t, const Instr &in) {
    carryReads += readsReg(in, RegClass::P, carry.reg);
  });
  if (carryReads != 1)
    return reject(kIvFailed, "the carry of the 64-bit update has another reader");
  auto sumHalf = [&](const Instr &in, unsigned half, unsigned n) -> std::optional<uint32_t> {
    unsigned self = 0;
    uint32_t sum = 0;
    for (unsigned k = 0; k < n; ++k) {
      const Operand &u = in.uses()[k];
      if (isLoopPairHalf(u, half) && u.reg == s.iv)
        ++self;
      else if (auto v = loopConstOf(u))
        sum += *v;
      else
        return std::nullopt;
    }
    if (self != 1)
      return std::nullopt;
    return sum;
  };
  const auto sl = sumHalf(lo, 0, 3), sh = sumHalf(hi, 1, 3);
  if (!sl || !sh)
    return reject(kIvFailed, "the 64-bit induction variable's update is not i = i + constant");
  s.step = uint64_t(*sh) << 32 | *sl;
  s.incIdx = defs[0].second;
  s.incHiIdx = defs[1].second;
  // The compare reads both halves before both updates, or after both.
  const size_t c0 = std::min(s.cmpLoIdx, s.cmpIdx), c1 = std::max(s.cmpLoIdx, s.cmpIdx);
  if (!(c1 < s.incIdx || c0 > s.incHiIdx))
    return reject(kIvFailed, "the 64-bit compare reads the induction variable mid-update");
  s.boundOp = other;
  s.bound = otherConst;
  s.init = entryValue(f, rg, s.iv, true);
  return {true, 0, {}};
}

/// Steps D and E: the induction variable and what is known of the trip count.
Outcome analyzeIV(const ori::Function &f, LoopShape &s) {
  const Region &rg = s.rg;
  const auto &ins = f.blocks[rg.l].instrs;
  const Instr &br = ins.back();
  const Operand &g = br.guard;
  if (g.kind != OperandKind::VReg || g.cls != RegClass::P)
    return reject(kIvFailed, "the branch is not guarded by a predicate register");
  s.continueWhenTrue = !(g.mods & ori::OM_NOT);
  // The one definition of the guard in the loop, in the latch.
  unsigned defs = 0;
  bool otherReader = false;
  std::optional<size_t> cmpIdx;
  forBody(f, rg, [&](uint32_t b, size_t k, const Instr &in) {
    if (in.writesVReg(RegClass::P, g.reg)) {
      ++defs;
      if (b == rg.l)
        cmpIdx = k;
    } else if (readsReg(in, RegClass::P, g.reg)) {
      otherReader = true;
    }
  });
  if (defs > 1)
    return reject(kIvFailed, "the branch predicate has more than one definition");
  if (otherReader)
    return reject(kIvFailed, "the branch predicate has another reader in the loop");
  if (!cmpIdx)
    return reject(kIvFailed, "the branch predicate is not defined in the loop's latch");
  const Instr &c = ins[*cmpIdx];
  s.wide = c.hasModifier(Modifier::EX);
  const size_t nUses = s.wide ? 4 : 3;
  if (c.op != Opcode::ISETP || c.isGuarded() || c.numDefs != 2 || !c.ops[1].isFixed() ||
      c.uses().size() != nUses || !c.uses()[2].isFixed() || (c.uses()[2].mods & ori::OM_NOT) ||
      c.ops[0].reg != g.reg)
    return reject(kIvFailed, "the branch predicate is not an unguarded ISETP ... PT");
  bool andOk = false;
  std::optional<Modifier> cmp;
  for (Modifier m : c.mods) {
    if (m == Modifier::U32)
      s.uns = true;
    else if (m == Modifier::AND)
      andOk = true;
    else if (m == Modifier::EX && s.wide)
      continue;
    else if (m == Modifier::LT || m == Modifier::LE || m == Modifier::GT ||
             m == Modifier::GE || m == Modifier::EQ || m == Modifier::NE)
      cmp = m;
    else
      return reject(kIvFailed, "unsupported ISETP modifier ." +
                                   std::string(ori::modifierSpelling(m)));
  }
  if (!andOk || !cmp)
    return reject(kIvFailed, "unsupported ISETP form");
  s.cmp = *cmp;
  s.cmpIdx = *cmpIdx;
  // 64-bit: the low halves' compare feeds the .EX one as its last operand; read back the
  // two 64-bit operands as whole pairs (or 64-bit constants).
  Operand x = c.uses()[0], y = c.uses()[1];
  std::optional<uint64_t> wideConst[2];
  if (s.wide) {
    const Operand &t = c.uses()[3];
    if (t.kind != OperandKind::VReg || t.cls != RegClass::P || t.mods != 0)
      return reject(kIvFailed, "64-bit compare: the low half's predicate is not a register");
    std::optional<size_t> lo;
    unsigned tDefs = 0, tReads = 0;
    forBody(f, rg, [&](uint32_t b, size_t k, const Instr &in) {
      if (in.writesVReg(RegClass::P, t.reg)) {
        ++tDefs;
        if (b == rg.l && k < *cmpIdx)
          lo = k;
      } else if (readsReg(in, RegClass::P, t.reg)) {
        ++tReads;
      }
    });
    if (tDefs != 1 || tReads != 1 || !lo)
      return reject(kIvFailed, "64-bit compare: the low half's compare is not one ISETP "
                               "in the latch read only by the high half's");
    const Instr &cl = ins[*lo];
    const std::vector<Modifier> want = {*cmp, Modifier::U32, Modifier::AND};
    if (cl.op != Opcode::ISETP || cl.isGuarded() || cl.numDefs != 2 || !cl.ops[1].isFixed() ||
        cl.uses().size() != 3 || !cl.uses()[2].isFixed() || (cl.uses()[2].mods & ori::OM_NOT) ||
        std::vector<Modifier>(cl.mods.begin(), cl.mods.end()) != want)
      return reject(kIvFailed, "64-bit compare: the low half's compare is not ISETP.<cmp>.U32.AND");
    s.cmpLoIdx = *lo;
    for (int k = 0; k < 2; ++k) {
      const Operand &l = cl.uses()[size_t(k)], &h = c.uses()[size_t(k)];
      Operand &whole = k == 0 ? x : y;
      if (isLoopPairHalf(l, 0) && isLoopPairHalf(h, 1) && l.reg == h.reg) {
        whole = l;
        whole.sub = ori::kWholeReg;
        whole.mods = 0;
      } else if (l.kind == OperandKind::CBank && h.kind == OperandKind::CBank && l.mods == 0 &&
                 h.mods == 0 && !l.hasCbankIndex() && !h.hasCbankIndex() && l.reg == h.reg &&
                 int64_t(h.cbankOffset()) == int64_t(l.cbankOffset()) + 4) {
        whole = l; // a 64-bit constant-bank word, named by its low half
      } else if (auto lv = loopConstOf(l), hv = loopConstOf(h); lv && hv) {
        wideConst[k] = uint64_t(*hv) << 32 | *lv;
        whole = Operand::intImm(int64_t(*wideConst[k]));
      } else {
        return reject(kIvFailed, "64-bit compare: the halves are not one pair or constant");
      }
    }
  }
  if (x.kind == OperandKind::VReg && y.kind == OperandKind::VReg && x.cls == y.cls &&
      x.reg == y.reg)
    return reject(kDegenerate);
  // Which operand is the induction variable: a register written in the loop.
  auto definedInLoop = [&](const Operand &o) {
    bool any = false;
    for (const Operand &v : o.vregs())
      forBody(f, rg, [&](uint32_t, size_t, const Instr &in) {
        any = any || in.writesVReg(v.cls, v.reg);
      });
    return any;
  };
  const bool xv = definedInLoop(x), yv = definedInLoop(y);
  if (xv == yv)
    return reject(kIvFailed, xv ? "both compare operands change in the loop"
                                : "no compare operand changes in the loop");
  const Operand &ivOp = xv ? x : y, &other = xv ? y : x;
  s.ivFirst = xv;
  if (ivOp.kind != OperandKind::VReg || ivOp.cls != RegClass::R)
    return reject(kIvClass);
  if (!s.wide && !isLoopPlainR(ivOp))
    return reject(kIvClass, "not a whole 32-bit register");
  s.iv = ivOp.reg;
  if (s.wide)
    return analyzeWideIV(f, s, other, wideConst[xv ? 1 : 0]);
  // Exactly one definition, in the latch, an add of a constant to itself.
  unsigned ivDefs = 0;
  std::optional<size_t> incIdx;
  forBody(f, rg, [&](uint32_t b, size_t k, const Instr &in) {
    if (in.writesVReg(RegClass::R, s.iv)) {
      ++ivDefs;
      if (b == rg.l)
        incIdx = k;
    }
  });
  if (ivDefs > 1)
    return reject(kIvFailed, "the induction variable has more than one definition");
  if (!incIdx)
    return reject(kIvFailed, "the induction variable is not updated in the loop's latch");
  const Instr &inc = ins[*incIdx];
  if (inc.isGuarded() || !inc.mods.empty() || inc.numDefs != 1 || !isLoopPlainR(inc.ops[0]))
    return reject(kIvFailed, "the induction variable's update is not a plain add");
  std::optional<uint32_t> step;
  unsigned self = 0;
  bool other3 = false;
  if (inc.op == Opcode::IADD3 && inc.uses().size() == 3) {
    uint32_t sum = 0;
    for (const Operand &u : inc.uses()) {
      if (isLoopPlainR(u) && u.reg == s.iv)
        ++self;
      else if (auto v = loopConstOf(u))
        sum += *v;
      else
        other3 = true;
    }
    step = sum;
  } else if (inc.op == Opcode::VIADD && inc.uses().size() == 2) {
    if (isLoopPlainR(inc.uses()[0]) && inc.uses()[0].reg == s.iv)
      ++self;
    else
      other3 = true;
    step = loopConstOf(inc.uses()[1]);
  }
  if (!step || self != 1 || other3)
    return reject(kIvFailed, "the induction variable's update is not i = i + constant");
  s.step = *step;
  s.incIdx = *incIdx;
  s.boundOp = other;
  s.bound = loopConstOf(other);
  s.init = entryValue(f, rg, s.iv, false);
  return {true, 0, {}};
}

/// Instructions of the loop that a full unroll makes foldable (seed: the full unroll
/// profitability evaluator counts "foldable constants, addresses", sub_1383620): the
/// induction variable's update and compare (constants in every copy); the definitions of
/// affine registers (below: address increments, the counters of inner loops unrolled
/// already: every copy's value is the entry value plus a constant); the 64-bit pair
/// `r[0], c = IADD3 r[0], imm, RZ` + `r[1] = IADD3.X r[1], RZ, RZ, c, !PT` written once per
/// iteration; and `IMAD.WIDE[.U32] a, r, imm, base` of such an r (an address that becomes
/// base plus a constant offset in every copy).
/// GUESS: which instructions ptxas counts as foldable; this choice is what made the
/// decisions agree with ptxas 13.0 on the loops of tests/lit/phases/loop-unroll*.
uint64_t foldableCount(const ori::Function &f, const LoopShape &s) {
  std::vector<const Instr *> ins;
  std::set<size_t> control; // the IV's update and compare (both halves when wide)
  forBody(f, s.rg, [&](uint32_t b, size_t k, const Instr &in) {
    if (b == s.rg.l && (k == s.cmpIdx || k == s.incIdx ||
                        (s.wide && (k == s.cmpLoIdx || k == s.incHiIdx))))
      control.insert(ins.size());
    ins.push_back(&in);
  });
  auto isAddImm = [&](const Instr &in, bool carry) {
    if (in.op != Opcode::IADD3 || in.isGuarded() || !in.mods.empty() ||
        in.numDefs != (carry ? 2u : 1u) || in.uses().size() != 3)
      return false;
    const Operand &d = in.ops[0];
    if (d.kind != OperandKind::VReg || d.cls != RegClass::R)
      return false;
    const auto u = in.uses();
    return u[0] == d && u[1].kind == OperandKind::Imm && u[2].isFixed();
  };
  auto isMovImm = [&](const Instr &in) {
    return in.op == Opcode::MOV && !in.isGuarded() && in.mods.empty() && in.numDefs == 1 &&
           in.uses().size() == 1 && in.ops[0].kind == OperandKind::VReg &&
           in.ops[0].cls == RegClass::R && in.ops[0].width == 1 && loopConstOf(in.uses()[0]);
  };
  // Affine registers: 32-bit registers whose every definition in the loop is
  // `r = IADD3 r, imm, RZ`, `r = MOV imm`, `r = MOV a` or `r = IMAD a, imm, c` with a and c
  // affine or not written in the loop. In every copy of a full unroll each of their values
  // is a loop-entry value plus a constant (address increments, the counters and addresses of
  // inner loops unrolled already). A fixed point: assume all candidates, drop those reading a
  // register that is not one, until nothing changes.
  std::map<uint32_t, bool> affine;
  std::set<uint32_t> written;
  for (const Instr *in : ins)
    for (const Operand &d : in->defs())
      if (d.kind == OperandKind::VReg && d.cls == RegClass::R)
        written.insert(d.reg);
  auto linearOf = [&](const Instr &in) -> std::vector<Operand> { // the registers it reads
    if (in.isGuarded() || !in.mods.empty() || in.numDefs != 1 || in.ops[0].kind != OperandKind::VReg ||
        in.ops[0].cls != RegClass::R || in.ops[0].width != 1)
      return {Operand::fixed(RegClass::P)}; // not a linear form
    if (isAddImm(in, false) || isMovImm(in))
      return {};
    if (in.op == Opcode::MOV && in.uses().size() == 1 && isLoopPlainR(in.uses()[0]))
      return {in.uses()[0]};
    if (in.op == Opcode::IMAD && in.uses().size() == 3 && isLoopPlainR(in.uses()[0]) &&
        in.uses()[1].kind == OperandKind::Imm && in.uses()[1].mods == 0) {
      const Operand &c = in.uses()[2];
      if (isLoopPlainR(c))
        return {in.uses()[0], c};
      if (loopConstOf(c) || (c.kind == OperandKind::CBank && !c.hasCbankIndex()))
        return {in.uses()[0]};
    }
    return {Operand::fixed(RegClass::P)};
  };
  for (const Instr *in : ins)
    for (const Operand &d : in->defs())
      if (d.kind == OperandKind::VReg && d.cls == RegClass::R) {
        auto it = affine.try_emplace(d.reg, true).first;
        std::vector<Operand> r = linearOf(*in);
        it->second = it->second && !(r.size() == 1 && r[0].isFixed());
      }
  for (bool again = true; again;) {
    again = false;
    for (const Instr *in : ins) {
      if (in->numDefs != 1 || in->ops[0].kind != OperandKind::VReg ||
          in->ops[0].cls != RegClass::R || !affine[in->ops[0].reg])
        continue;
      for (const Operand &u : linearOf(*in))
        if (u.kind == OperandKind::VReg && written.count(u.reg) && !affine[u.reg]) {
          affine[in->ops[0].reg] = false;
          again = true;
        }
    }
  }
  auto isAffine = [&](uint32_t r) {
    auto it = affine.find(r);
    return it != affine.end() && it->second;
  };
  auto writtenTwice = [&](const Operand &d) {
    unsigned n = 0;
    for (const Instr *in : ins)
      for (const Operand &o : in->defs())
        if (o.kind == OperandKind::VReg && o.cls == d.cls && o.reg == d.reg)
          ++n;
    return n == 2;
  };
  uint64_t n = control.size(); // the IV update and the compare
  for (size_t k = 0; k < ins.size(); ++k) {
    if (control.count(k))
      continue;
    const Instr &in = *ins[k];
    if (in.numDefs == 1 && in.ops[0].kind == OperandKind::VReg && in.ops[0].cls == RegClass::R &&
        isAffine(in.ops[0].reg)) {
      ++n;
    } else if (in.op == Opcode::IMAD && in.hasModifier(Modifier::WIDE) && !in.isGuarded() &&
               in.numDefs == 1 && in.uses().size() == 3 && in.uses()[1].kind == OperandKind::Imm &&
               isLoopPlainR(in.uses()[0]) && isAffine(in.uses()[0].reg)) {
      ++n; // base + (i + k*step) * imm: an address constant per copy
    } else if (isAddImm(in, true) && in.ops[0].sub == 0 && k + 1 < ins.size()) {
      const Instr &hi = *ins[k + 1];
      const Operand &c = in.ops[1];
      if (hi.op == Opcode::IADD3 && hi.mods.size() == 1 && hi.mods[0] == Modifier::X &&
          hi.numDefs == 1 && hi.uses().size() == 5 && hi.ops[0].kind == OperandKind::VReg &&
          hi.ops[0].reg == in.ops[0].reg && hi.ops[0].sub == 1 && hi.uses()[0] == hi.ops[0] &&
          hi.uses()[1].isFixed() && hi.uses()[2].isFixed() && hi.uses()[3] == c &&
          writtenTwice(in.ops[0])) {
        n += 2;
        ++k;
      }
    }
  }
  return n;
}

/// Override string: "-" / "+" for every loop, "-N-" / "+N+" for the loop headed by block N.
int overrideFor(const std::string &str, uint32_t block) {
  if (str.empty())
    return 0;
  if (str == "-" || str.find("-" + std::to_string(block) + "-") != std::string::npos)
    return -1;
  if (str == "+" || str.find("+" + std::to_string(block) + "+") != std::string::npos)
    return 1;
  return 0;
}

// ---- Building the replacement blocks ---------------------------------------------------

/// Label operands of the new blocks: kLocal + j names the j-th new block; anything below
/// kLocal is a block of the function outside the loop (its index before the replacement).
constexpr uint32_t kLocal = 1u << 30;

Instr makeInstr(Opcode op, const std::vector<Modifier> &mods,
                std::initializer_list<Operand> defs, std::initializer_list<Operand> uses) {
  Instr in(op);
  for (Modifier m : mods)
    in.mods.push_back(m);
  for (const Operand &d : defs)
    in.addDef(d);
  for (const Operand &u : uses)
    in.addUse(u);
  ori::spellImmediates(in);
  return in;
}

Instr branchTo(uint32_t local, const Operand &guard) {
  Instr bra(Opcode::BRA);
  bra.guard = guard;
  bra.addUse(Operand::block(kLocal + local));
  return bra;
}

struct Builder {
  const ori::Function &f;
  const LoopShape &s;
  std::set<std::string> taken; ///< block names in use (outside the loop, and new ones)
  std::vector<ori::Block> out;
  ori::Function *fresh = nullptr; ///< where new registers come from (renamed copies)

  Builder(const ori::Function &fn, const LoopShape &sh) : f(fn), s(sh) {
    for (uint32_t b = 0; b < f.blocks.size(); ++b)
      if (b < s.rg.h || b > s.rg.l)
        taken.insert(f.blocks[b].name);
  }
  std::string unique(const std::string &base) {
    std::string name = base;
    for (unsigned k = 1; taken.count(name); ++k)
      name = base + "." + std::to_string(k);
    taken.insert(name);
    return name;
  }
  uint32_t latchOf(uint32_t base) const { return base + s.rg.size() - 1; }
  /// Appends one copy of the loop's blocks (names suffixed, or the original names when
  /// `suffix` is empty); returns the local index of its header.
  /// With `rename` (and `fresh` set), the copy's references to the loop's local registers
  /// (LoopShape::locals) go to new registers of their own: the copies of an unrolled body
  /// then share no temporary, so the schedulers may overlap them. Exact for every copy but
  /// the one whose values leave the loop (the last): a local register's reads in a copy see
  /// only that copy's definitions.
  uint32_t copy(const std::string &suffix, bool rename = false) {
    const uint32_t base = static_cast<uint32_t>(out.size());
    std::map<std::pair<RegClass, uint32_t>, uint32_t> to;
    if (rename && fresh)
      for (const auto &r : s.locals)
        to[r] = fresh->newReg(r.first, std::max<uint8_t>(f.regInfo(r.first, r.second).width, 1)).reg;
    auto fix = [&](Operand &o) {
      auto look = [&](RegClass c, uint32_t n) -> std::optional<uint32_t> {
        auto it = to.find({c, n});
        return it == to.end() ? std::nullopt : std::optional<uint32_t>(it->second);
      };
      if (o.kind == OperandKind::VReg) {
        if (auto n = look(o.cls, o.reg))
          o.reg = *n;
      } else if (o.kind == OperandKind::Mem) {
        if (o.memBaseIsVReg())
          if (auto n = look(o.cls, o.reg))
            o.reg = *n;
        if (Operand d = o.memDesc(); d.kind == OperandKind::VReg)
          if (auto n = look(d.cls, d.reg)) {
            d.reg = *n;
            o.setMemDesc(d);
          }
      } else if (o.kind == OperandKind::CBank) {
        if (Operand x = o.cbankIndex(); x.kind == OperandKind::VReg)
          if (auto n = look(x.cls, x.reg)) {
            x.reg = *n;
            o.setCbankIndex(x);
          }
      }
    };
    for (uint32_t b = s.rg.h; b <= s.rg.l; ++b) {
      ori::Block nb;
      nb.name = unique(f.blocks[b].name + suffix);
      nb.noUnroll = f.blocks[b].noUnroll;
      nb.instrs = f.blocks[b].instrs;
      for (Instr &in : nb.instrs) {
        for (Operand &o : in.ops)
          if (o.kind == OperandKind::Block && o.reg >= s.rg.h && o.reg <= s.rg.l)
            o.reg = kLocal + base + (o.reg - s.rg.h);
        if (!to.empty()) {
          fix(in.guard);
          for (Operand &o : in.ops)
            fix(o);
        }
      }
      out.push_back(std::move(nb));
    }
    return base;
  }
  ori::Block &latch(uint32_t base) { return out[latchOf(base)]; }
  /// A copy whose iteration always continues: no compare, no back branch.
  void dropControl(uint32_t base) {
    auto &ins = latch(base).instrs;
    ins.pop_back();
    for (size_t k : s.compareIdx()) // highest first
      ins.erase(ins.begin() + static_cast<ptrdiff_t>(k));
  }
  void dropBranch(uint32_t base) { latch(base).instrs.pop_back(); }
  uint32_t newBlock(const std::string &name) {
    ori::Block nb;
    nb.name = unique(name);
    out.push_back(std::move(nb));
    return static_cast<uint32_t>(out.size() - 1);
  }
};

/// Merges each new block into the one before it when that one falls through to it and
/// nothing else enters it (never the first block, which the outside enters).
std::vector<ori::Block> mergeChains(std::vector<ori::Block> nb) {
  std::vector<bool> targeted(nb.size(), false);
  for (const ori::Block &b : nb)
    for (const Instr &in : b.instrs)
      for (const Operand &o : in.ops)
        if (o.kind == OperandKind::Block && o.reg >= kLocal)
          targeted[o.reg - kLocal] = true;
  std::vector<uint32_t> map(nb.size());
  std::vector<ori::Block> out;
  for (uint32_t j = 0; j < nb.size(); ++j) {
    bool merge = false;
    if (j > 0 && !targeted[j]) {
      const ori::Block &prev = out.back();
      merge = prev.instrs.empty() || (!prev.instrs.back().info().has(ori::OF_BR) &&
                                      !prev.instrs.back().info().has(ori::OF_TERM));
    }
    if (merge) {
      auto &dst = out.back().instrs;
      dst.insert(dst.end(), nb[j].instrs.begin(), nb[j].instrs.end());
    } else {
      out.push_back(std::move(nb[j]));
    }
    map[j] = static_cast<uint32_t>(out.size() - 1);
  }
  for (ori::Block &b : out)
    for (Instr &in : b.instrs)
      for (Operand &o : in.ops)
        if (o.kind == OperandKind::Block && o.reg >= kLocal)
          o.reg = kLocal + map[o.reg - kLocal];
  return out;
}

/// Replaces blocks h..l of `f` by `nb` (label operands as kLocal describes); branches from
/// outside into the loop (to its header) go to the first new block. Returns the new names.
std::vector<std::string> splice(ori::Function &f, const Region &rg, std::vector<ori::Block> nb) {
  nb = mergeChains(std::move(nb));
  const uint32_t k = rg.size(), n = static_cast<uint32_t>(nb.size());
  auto mapOut = [&](uint32_t b) { return b < rg.h ? b : b > rg.l ? b - k + n : rg.h; };
  auto fix = [&](ori::Block &blk) {
    for (Instr &in : blk.instrs)
      for (Operand &o : in.ops)
        if (o.kind == OperandKind::Block)
          o.reg = o.reg >= kLocal ? rg.h + (o.reg - kLocal) : mapOut(o.reg);
  };
  std::vector<std::string> names;
  std::vector<ori::Block> out;
  out.reserve(f.blocks.size() - k + n);
  for (uint32_t b = 0; b < rg.h; ++b)
    out.push_back(std::move(f.blocks[b]));
  for (ori::Block &b : nb) {
    names.push_back(b.name);
    out.push_back(std::move(b));
  }
  for (uint32_t b = rg.l + 1; b < f.blocks.size(); ++b)
    out.push_back(std::move(f.blocks[b]));
  for (ori::Block &b : out)
    fix(b);
  f.blocks = std::move(out);
  ori::buildCFG(f);
  return names;
}

std::vector<std::string> unrollFully(ori::Function &f, const LoopShape &s, uint64_t copies) {
  Builder bd(f, s);
  bd.fresh = &f;
  for (uint64_t c = 0; c < copies; ++c) {
    const uint32_t base = bd.copy(c == 0 ? "" : ".u" + std::to_string(c), c + 1 < copies);
    if (c + 1 < copies)
      bd.dropControl(base);
    else
      bd.dropBranch(base);
  }
  return splice(f, s.rg, std::move(bd.out));
}

std::vector<std::string> unrollKnown(ori::Function &f, const LoopShape &s, uint64_t factor,
                                     uint64_t remainder) {
  Builder bd(f, s);
  bd.fresh = &f;
  for (uint64_t r = 0; r < remainder; ++r)
    bd.dropControl(bd.copy(".peel" + std::to_string(r), true));
  uint32_t first = 0;
  for (uint64_t c = 0; c < factor; ++c) {
    const uint32_t base = bd.copy(c == 0 ? "" : ".u" + std::to_string(c), c + 1 < factor);
    if (c == 0)
      first = base;
    if (c + 1 < factor) {
      bd.dropControl(base);
    } else {
      Instr &br = bd.latch(base).instrs.back();
      br.uses()[0] = Operand::block(kLocal + first);
    }
  }
  return splice(f, s.rg, std::move(bd.out));
}

/// The run-time check "the next f-1 compares all continue" (file comment), as instructions
/// reading the induction variable's current value; `chain` is ANDed into the result.
struct RuntimeCheck {
  Modifier rel = Modifier::LT; ///< continue condition `x rel n`
  bool uns = false;
  int64_t step = 0;            ///< signed step
  uint64_t a = 0;              ///< 1: the compare reads i after its update
  uint64_t factor = 0;
  bool overflowCheck = true;
  bool wide = false;           ///< 64-bit induction variable: pairs, ISETP/IADD3 pairs
  Operand n;                   ///< the bound, in a register (set when building)
  Operand m;                   ///< n -+ D, when D > 0
  Operand pnu;                 ///< "n -+ D does not wrap"
  /// D in steps: the (f-1)-th compare reads x1 + (f-2)*step, x1 = i + a*step.
  uint64_t distance() const { return factor - 2 + a; }
};

/// Half k of a 64-bit operand: a pair's component, a constant-bank word pair's word (named
/// by its low half), or a 64-bit immediate's word (0: RZ).
Operand halfOf(const Operand &o, unsigned k) {
  if (o.kind == OperandKind::VReg) {
    Operand h = o;
    h.sub = static_cast<uint8_t>(k);
    return h;
  }
  if (o.kind == OperandKind::CBank)
    return Operand::cbank(o.reg, int64_t(o.cbankOffset()) + 4 * k);
  const uint32_t w = static_cast<uint32_t>(static_cast<uint64_t>(o.imm) >> (32 * k));
  return w ? Operand::intImm(int64_t(int32_t(w))) : Operand::fixed(RegClass::R);
}

/// `p = a REL b AND chain`: one ISETP, or for 64-bit values the pair ptxas and the lowering
/// use (ISETP.REL.U32.AND on the low words, ISETP.REL[.U32].AND.EX on the high words).
Operand emitCompare(ori::Function &f, std::vector<Instr> &ins, Modifier rel, bool uns,
                    bool wide, const Operand &a, const Operand &b, const Operand &chain) {
  const Operand p = f.newReg(RegClass::P);
  const Operand pt = Operand::fixed(RegClass::P);
  std::vector<Modifier> mods = {rel, Modifier::AND};
  if (uns)
    mods.insert(mods.begin() + 1, Modifier::U32);
  if (!wide) {
    ins.push_back(makeInstr(Opcode::ISETP, mods, {p, pt}, {a, b, chain}));
    return p;
  }
  const Operand t = f.newReg(RegClass::P);
  ins.push_back(makeInstr(Opcode::ISETP, {rel, Modifier::U32, Modifier::AND}, {t, pt},
                          {halfOf(a, 0), halfOf(b, 0), pt}));
  mods.push_back(Modifier::EX);
  ins.push_back(makeInstr(Opcode::ISETP, mods, {p, pt}, {halfOf(a, 1), halfOf(b, 1), chain, t}));
  return p;
}

/// d = a + b + k as a 64-bit carry pair (b a pair, maybe inverted; k a 64-bit constant).
void emitAdd64(ori::Function &f, std::vector<Instr> &ins, const Operand &d, const Operand &a,
               const Operand &b, uint64_t k) {
  const Operand c = f.newReg(RegClass::P);
  Operand npt = Operand::fixed(RegClass::P);
  npt.mods = ori::OM_NOT;
  const Operand kk = Operand::intImm(int64_t(k));
  // Sources a, b, k (a, k, RZ without b): the immediate where IADD3 takes one when it can;
  // LegalizeOperands moves it into a register where it cannot.
  auto srcs = [&](unsigned h) -> std::vector<Operand> {
    if (b.kind == OperandKind::None)
      return {halfOf(a, h), halfOf(kk, h), Operand::fixed(RegClass::R)};
    return {halfOf(a, h), halfOf(b, h), halfOf(kk, h)};
  };
  Instr lo(Opcode::IADD3);
  lo.addDef(halfOf(d, 0));
  lo.addDef(c);
  for (const Operand &o : srcs(0))
    lo.addUse(o);
  ori::spellImmediates(lo);
  ins.push_back(std::move(lo));
  Instr hi(Opcode::IADD3);
  hi.mods.push_back(Modifier::X);
  hi.addDef(halfOf(d, 1));
  for (const Operand &o : srcs(1))
    hi.addUse(o);
  hi.addUse(c);
  hi.addUse(npt);
  ori::spellImmediates(hi);
  ins.push_back(std::move(hi));
}

/// d = x - y on 64-bit pairs, as the lowering subtracts: `IADD3 d[0], c = x[0], -y[0], RZ`,
/// `IADD3.X d[1] = x[1], ~y[1], RZ, c, !PT`.
void emitSub64(ori::Function &f, std::vector<Instr> &ins, const Operand &d, const Operand &x,
               const Operand &y) {
  const Operand c = f.newReg(RegClass::P);
  Operand npt = Operand::fixed(RegClass::P);
  npt.mods = ori::OM_NOT;
  Operand yl = halfOf(y, 0), yh = halfOf(y, 1);
  yl.mods |= ori::OM_NEG;
  yh.mods |= ori::OM_INV;
  const Operand rz = Operand::fixed(RegClass::R);
  ins.push_back(makeInstr(Opcode::IADD3, {}, {halfOf(d, 0), c}, {halfOf(x, 0), yl, rz}));
  ins.push_back(makeInstr(Opcode::IADD3, {Modifier::X}, {halfOf(d, 1)},
                          {halfOf(x, 1), yh, rz, c, npt}));
}

/// Emits the check into `ins`; returns the predicate that holds when it passes.
Operand emitCheck(ori::Function &f, std::vector<Instr> &ins, const RuntimeCheck &rc,
                  uint32_t iv, const Operand &chain) {
  const Operand i = Operand::vreg(RegClass::R, iv, rc.wide ? 2 : 1);
  if (rc.wide) {
    if (rc.rel == Modifier::NE) {
      // "None of the next f-1 compares reads n": d >= f-1 (unsigned) for d = n - x1 (step
      // +1) or x1 - n (step -1), x1 = i + a*step. With h = n - i (the lowering's 64-bit
      // subtraction: only the induction variable is negated, the bound may become RZ):
      //   step +1: d = h - a; h >= f-1+a suffices (h = 0 with a = 1 means the count
      //            wrapped: refusing then just runs the remainder loop);
      //   step -1: d = -h - a; a = 1: d = ~h, d >= f-1 <=> h <= 2^64 - f;
      //            a = 0: d = -h, d >= f-1 <=> h != 0 and h <= 2^64 - (f-1).
      const Operand h = f.newReg(RegClass::R, 2);
      emitSub64(f, ins, h, rc.n, i);
      const int64_t fm1 = int64_t(rc.factor - 1);
      if (rc.step > 0)
        return emitCompare(f, ins, Modifier::GE, true, true, h,
                           Operand::intImm(fm1 + int64_t(rc.a)), chain);
      if (rc.a)
        return emitCompare(f, ins, Modifier::LE, true, true, h,
                           Operand::intImm(-int64_t(rc.factor)), chain);
      const Operand nz = emitCompare(f, ins, Modifier::NE, true, true, h, Operand::intImm(0), chain);
      return emitCompare(f, ins, Modifier::LE, true, true, h, Operand::intImm(-fm1), nz);
    }
    const bool hasD = rc.distance() > 0;
    return emitCompare(f, ins, rc.rel, rc.uns, true, i, hasD ? rc.m : rc.n, chain);
  }
  const Operand p = f.newReg(RegClass::P);
  const Operand pt = Operand::fixed(RegClass::P);
  if (rc.rel == Modifier::NE) {
    // d = n - x1 (step +1) or x1 - n (step -1), x1 = i + a*step; check d >= f-1 unsigned.
    const Operand d = f.newReg(RegClass::R);
    Operand ni = i, nn = rc.n;
    ni.mods |= ori::OM_NEG;
    nn.mods |= ori::OM_NEG;
    const Operand off = rc.a ? Operand::intImm(-int64_t(rc.a)) : Operand::fixed(RegClass::R);
    if (rc.step > 0)
      ins.push_back(makeInstr(Opcode::IADD3, {}, {d}, {rc.n, ni, off}));
    else
      ins.push_back(makeInstr(Opcode::IADD3, {}, {d}, {i, nn, off}));
    ins.push_back(makeInstr(Opcode::ISETP, {Modifier::GE, Modifier::U32, Modifier::AND},
                            {p, pt}, {d, Operand::intImm(int64_t(rc.factor - 1)), chain}));
    return p;
  }
  const bool hasD = rc.distance() > 0;
  std::vector<Modifier> mods = {rc.rel, Modifier::AND};
  if (rc.uns)
    mods.insert(mods.begin() + 1, Modifier::U32);
  ins.push_back(makeInstr(Opcode::ISETP, mods, {p, pt}, {i, hasD ? rc.m : rc.n, chain}));
  return p;
}

std::vector<std::string> unrollRuntime(ori::Function &f, const LoopShape &s, RuntimeCheck rc,
                                       int64_t epilogue) {
  Builder bd(f, s);
  const Operand pt = Operand::fixed(RegClass::P);
  const Instr origBr = f.blocks[s.rg.l].instrs.back();
  const uint32_t exitOld = s.rg.l + 1;
  // check: the bound in a register, n -+ D and its wrap test, then the first check.
  const uint32_t pre = bd.newBlock(f.blocks[s.rg.h].name + ".unroll");
  std::vector<Instr> &pi = bd.out[pre].instrs;
  if (rc.wide) {
    if (rc.n.kind != OperandKind::VReg) { // a 64-bit constant or c[][] pair: into a pair
      const Operand r = f.newReg(RegClass::R, 2);
      for (unsigned k = 0; k < 2; ++k) {
        Operand src = halfOf(rc.n, k);
        if (src.isFixed())
          src = Operand::intImm(0);
        pi.push_back(makeInstr(Opcode::MOV, {}, {halfOf(r, k)}, {src}));
      }
      rc.n = r;
    }
  } else if (isLoopPlainR(rc.n)) {
    // already a register
  } else {
    const Operand r = f.newReg(RegClass::R);
    Operand src = rc.n;
    if (src.isFixed())
      src = Operand::intImm(0);
    pi.push_back(makeInstr(Opcode::MOV, {}, {r}, {src}));
    rc.n = r;
  }
  Operand chain0 = pt;
  if (rc.rel != Modifier::NE && rc.distance() > 0) {
    const uint64_t d = rc.distance() * static_cast<uint64_t>(rc.step < 0 ? -rc.step : rc.step);
    const bool up = rc.rel == Modifier::LT || rc.rel == Modifier::LE;
    if (rc.wide) {
      rc.m = f.newReg(RegClass::R, 2);
      emitAdd64(f, pi, rc.m, rc.n, Operand{}, up ? uint64_t(0) - d : d);
      if (rc.overflowCheck) {
        // up: n >= MIN + d; down: n <= MAX - d (signed or unsigned, 64-bit).
        uint64_t lim;
        if (rc.uns)
          lim = up ? d : ~uint64_t(0) - d;
        else
          lim = up ? uint64_t(INT64_MIN) + d : uint64_t(INT64_MAX) - d;
        chain0 = emitCompare(f, pi, up ? Modifier::GE : Modifier::LE, rc.uns, true, rc.n,
                             Operand::intImm(int64_t(lim)), pt);
      }
    } else {
    rc.m = f.newReg(RegClass::R);
    pi.push_back(makeInstr(Opcode::IADD3, {}, {rc.m},
                           {rc.n, Operand::intImm(up ? -int64_t(d) : int64_t(d)),
                            Operand::fixed(RegClass::R)}));
    }
    if (rc.overflowCheck && !rc.wide) {
      // up: n >= MIN + d; down: n <= MAX - d (signed or unsigned).
      int64_t lim;
      if (rc.uns)
        lim = up ? int64_t(d) : int64_t(0xFFFFFFFFull - d);
      else
        lim = up ? int64_t(INT32_MIN) + int64_t(d) : int64_t(INT32_MAX) - int64_t(d);
      rc.pnu = f.newReg(RegClass::P);
      std::vector<Modifier> mods = {up ? Modifier::GE : Modifier::LE, Modifier::AND};
      if (rc.uns)
        mods.insert(mods.begin() + 1, Modifier::U32);
      pi.push_back(makeInstr(Opcode::ISETP, mods, {rc.pnu, pt},
                             {rc.n, Operand::intImm(lim), pt}));
      chain0 = rc.pnu;
    }
  }
  Operand p0 = emitCheck(f, pi, rc, s.iv, chain0);
  p0.mods |= ori::OM_NOT;
  // The branch to the remainder is patched once its index is known.
  pi.push_back(branchTo(0, p0));
  // main: f copies, the check ANDed with the last copy's continue condition.
  uint32_t first = 0;
  bd.fresh = &f;
  for (uint64_t c = 0; c < rc.factor; ++c) {
    const uint32_t base = bd.copy(".u" + std::to_string(c), c + 1 < rc.factor);
    if (c == 0)
      first = base;
    if (c + 1 < rc.factor) {
      bd.dropControl(base);
      continue;
    }
    auto &li = bd.latch(base).instrs;
    li.pop_back();
    Operand cont = origBr.guard;
    std::vector<Instr> chk;
    Operand p = emitCheck(f, chk, rc, s.iv, cont);
    li.insert(li.end(), chk.begin(), chk.end());
    li.push_back(branchTo(first, p));
  }
  // mid: leave when the last copy's compare said so, else run the remainder.
  const uint32_t mid = bd.newBlock(f.blocks[s.rg.h].name + ".unroll.exit");
  {
    Operand g = origBr.guard;
    g.mods ^= ori::OM_NOT;
    Instr bra(Opcode::BRA);
    bra.guard = g;
    bra.addUse(Operand::block(exitOld));
    bd.out[mid].instrs.push_back(std::move(bra));
  }
  // rem: the original loop, or e copies each leaving on its own compare.
  const int64_t e = std::max<int64_t>(epilogue, 1);
  uint32_t remFirst = 0;
  for (int64_t c = 0; c < e; ++c) {
    const uint32_t base = bd.copy(c == 0 ? "" : ".rem" + std::to_string(c));
    if (c == 0)
      remFirst = base;
    Instr &br = bd.latch(base).instrs.back();
    if (c + 1 < e) {
      Operand g = origBr.guard;
      g.mods ^= ori::OM_NOT;
      br.guard = g;
      br.uses()[0] = Operand::block(exitOld);
    } else {
      br.uses()[0] = Operand::block(kLocal + remFirst);
    }
  }
  bd.out[pre].instrs.back().uses()[0] = Operand::block(kLocal + remFirst);
  // The remainder loop runs fewer than f iterations after the main loop (or the short
  // trips the check sent to it): it is marked nounroll, so that neither a later unrolling
  // nor OriPipelining (OkToPipelineNoUnroll=0) spends code on it. Measured: pipelining
  // the remainders of pipeline_loops cost 10% of its modelled cycles (18839 vs 17055).
  bd.out[remFirst].noUnroll = true;
  return splice(f, s.rg, std::move(bd.out));
}

/// Local canonicalization: a loop whose blocks are a straight chain in layout order, h,
/// h+1, ..., latch, each falling through to the next with no branch or exit of its own and
/// each after h entered only from the one before (a header and a separate latch block, as
/// PTX `loop:` ... `latch:` labels make), has its instructions moved up into h. The later
/// blocks are left empty (they fall through, as before) and the loop becomes the single
/// block h. The program runs the same instructions in the same order. Returns whether
/// anything moved.
bool mergeStraightLoops(ori::Function &f) {
  bool any = false;
  for (const ori::Loop &l : f.loops) {
    const uint32_t h = l.header;
    if (l.blocks.size() < 2 || l.latches.size() != 1)
      continue;
    const uint32_t last = l.latches[0];
    if (last != h + l.blocks.size() - 1)
      continue;
    bool chain = true;
    for (uint32_t k = 0; k < l.blocks.size() && chain; ++k) {
      const uint32_t b = h + static_cast<uint32_t>(k);
      chain = l.blocks[k] == b;
      if (b != last)
        for (const Instr &in : f.blocks[b].instrs)
          chain = chain && !in.info().has(ori::OF_BR) && !in.info().has(ori::OF_TERM) &&
                  in.op != Opcode::CALL;
      if (b != h)
        chain = chain && f.blocks[b].preds.size() == 1 && f.blocks[b].preds[0] == b - 1;
    }
    if (!chain)
      continue;
    for (uint32_t b = h + 1; b <= last; ++b) {
      auto &src = f.blocks[b].instrs;
      f.blocks[h].instrs.insert(f.blocks[h].instrs.end(), src.begin(), src.end());
      src.clear();
    }
    any = true;
  }
  return any;
}

/// Whether the loop can be left other than by its latch's branch falling through: a branch
/// out of the loop from another block, or an EXIT/RET inside it.
bool hasSideExit(const ori::Function &f, const Region &rg) {
  for (uint32_t b = rg.h; b <= rg.l; ++b) {
    for (uint32_t t : f.blocks[b].succs)
      if ((t < rg.h || t > rg.l) && !(b == rg.l && t == rg.l + 1))
        return true;
    for (const Instr &in : f.blocks[b].instrs)
      if (in.info().has(ori::OF_TERM) && !in.info().has(ori::OF_BR))
        return true;
  }
  return false;
}

/// Step C: the loop's blocks as one run h..latch that can be copied as a unit.
Outcome regionOf(const ori::Function &f, const ori::Loop &loop, Region &rg) {
  rg.h = loop.header;
  rg.l = loop.latches[0];
  if (rg.l < rg.h || loop.blocks.size() != rg.size() || loop.blocks.front() != rg.h ||
      loop.blocks.back() != rg.l)
    return reject(kIrregular, "blocks not one run in layout order, header first, latch last");
  if (rg.l + 1 >= f.blocks.size())
    return reject(kIrregular, "the latch is the function's last block");
  for (uint32_t b = rg.h; b <= rg.l; ++b) {
    const auto &ins = f.blocks[b].instrs;
    for (size_t k = 0; k < ins.size(); ++k) {
      const Instr &in = ins[k];
      if (in.op == Opcode::CALL)
        return reject(kIrregular, "a CALL in the loop");
      if (in.info().has(ori::OF_BR) && in.op != Opcode::BRA)
        return reject(kIrregular, "an indirect branch in the loop");
      if (b == rg.l && k + 1 == ins.size())
        continue;
      if (rg.size() == 1 && (in.info().has(ori::OF_BR) || in.info().has(ori::OF_TERM)))
        return reject(kIrregular, "a branch or exit inside the body");
    }
  }
  // A label that is not a branch target (a return point) naming a block of the loop.
  for (const ori::Block &blk : f.blocks)
    for (const Instr &in : blk.instrs)
      if (!in.info().has(ori::OF_BR))
        for (const Operand &o : in.ops)
          if (o.kind == OperandKind::Block && o.reg >= rg.h && o.reg <= rg.l)
            return reject(kIrregular, "a block of the loop is named by a non-branch label");
  return {true, 0, {}};
}

} // namespace

// ---- One update per iteration for the copies' induction variables -----------------------

/// `r = IADD3 r, imm, RZ` (sources in any order), unguarded, r a whole R vreg of `width`:
/// the constant (32-bit for width 1, the low word of a pair for width 2).
std::optional<uint32_t> selfAddConst(const Instr &in, uint32_t r, uint8_t width, uint8_t sub) {
  if (in.op != Opcode::IADD3 || in.isGuarded() || !in.mods.empty() ||
      in.ops.size() != in.numDefs + 3u)
    return std::nullopt;
  const Operand &d = in.ops[0];
  if (d.kind != OperandKind::VReg || d.cls != RegClass::R || d.reg != r || d.sub != sub || d.mods)
    return std::nullopt;
  std::optional<uint32_t> imm;
  unsigned zeros = 0, self = 0;
  for (const Operand &u : in.uses()) {
    if (u.kind == OperandKind::Imm && !imm)
      imm = static_cast<uint32_t>(u.imm);
    else if (u.isFixed() && u.cls == RegClass::R && !u.mods)
      ++zeros;
    else if (u.kind == OperandKind::VReg && u.cls == RegClass::R && u.reg == r && u.sub == sub &&
             u.width == width && !u.mods)
      ++self;
    else
      return std::nullopt;
  }
  if (!imm || zeros != 1 || self != 1)
    return std::nullopt;
  return imm;
}

bool readsR(const Instr &in, uint32_t r) {
  for (const Operand &v : in.guard.vregs())
    if (v.cls == RegClass::R && v.reg == r)
      return true;
  for (const Operand &u : in.uses())
    for (const Operand &v : u.vregs())
      if (v.cls == RegClass::R && v.reg == r)
        return true;
  return false;
}

/// Every read of R vreg `from` in `in` (guard, sources, memory bases and descriptors,
/// constant-bank indices) renamed to `to`; definitions stay.
void renameReadsR(Instr &in, uint32_t from, uint32_t to) {
  auto fix = [&](Operand &o) {
    if (o.kind == OperandKind::VReg && o.cls == RegClass::R && o.reg == from) {
      o.reg = to;
    } else if (o.kind == OperandKind::Mem) {
      if (o.memBaseIsVReg() && o.cls == RegClass::R && o.reg == from)
        o.reg = to;
      if (Operand d = o.memDesc(); d.kind == OperandKind::VReg && d.cls == RegClass::R &&
                                   d.reg == from) {
        d.reg = to;
        o.setMemDesc(d);
      }
    } else if (o.kind == OperandKind::CBank) {
      if (Operand x = o.cbankIndex(); x.kind == OperandKind::VReg && x.cls == RegClass::R &&
                                      x.reg == from) {
        x.reg = to;
        o.setCbankIndex(x);
      }
    }
  };
  fix(in.guard);
  for (Operand &u : in.uses())
    fix(u);
}

/// `in` with every read of R vreg `r` being the whole-register base of a memory operand,
/// those offsets moved by `delta`; nullopt when some read is anything else, an offset
/// leaves 32 bits or the result does not encode.
std::optional<Instr> shiftMemBases(const Instr &in, uint32_t r, int64_t delta, unsigned sm) {
  Instr x = in;
  for (const Operand &v : x.guard.vregs())
    if (v.cls == RegClass::R && v.reg == r)
      return std::nullopt;
  for (unsigned k = x.numDefs; k < x.ops.size(); ++k) {
    Operand &o = x.ops[k];
    bool names = false;
    for (const Operand &v : o.vregs())
      names |= v.cls == RegClass::R && v.reg == r;
    if (!names)
      continue;
    if (o.kind != OperandKind::Mem || !o.memBaseIsVReg())
      return std::nullopt;
    const Operand b = o.memBase();
    const Operand d = o.memDesc();
    if (b.cls != RegClass::R || b.reg != r || b.sub != ori::kWholeReg ||
        (d.kind == OperandKind::VReg && d.cls == RegClass::R && d.reg == r))
      return std::nullopt;
    const int64_t off = int64_t(o.memOffset()) + delta;
    if (off < INT32_MIN || off > INT32_MAX)
      return std::nullopt;
    const uint8_t keep = o.mods & static_cast<uint8_t>(~(ori::OM_MEMBASE_V | ori::OM_MEMBASE_P));
    o = Operand::mem(b, static_cast<int32_t>(off), d);
    o.mods |= keep;
  }
  if (!enc::canEncode(x, sm))
    return std::nullopt;
  return x;
}

/// The copies of a partially unrolled single-block loop each advance the loop's additive
/// induction variables (`i += c`, or a 64-bit address's carry pair `a[0], p = IADD3 a[0],
/// lo, RZ` + `a[1] = IADD3.X a[1], hi, RZ, p, !PT`, p read by nothing else in the block
/// and dead at its end), so the copies
/// form a serial chain of updates and the loop control (the last copy's compare) depends on
/// all of them. Here every register of block `b` whose definitions are all such updates
/// (two or more, unguarded, nothing reading a pair between its two halves) is advanced once
/// per iteration, where the last update was, by the sum of the steps (exact modulo 2^32 or
/// 2^64); a read between two updates sees `i + s` (s the steps before it) through its memory
/// offsets when it reads i only as memory bases ([i + o] -> [i + o + s]: 64-bit bases with
/// any s, 32-bit ones with 0 <= s < 2^31, GUESS as in OriFoldAddressOffsets) and the result
/// encodes, else through a fresh register computed right before it (shared by the reads up
/// to the next update). ptxas's unrolled loops have this shape (HW: cuobjdump of ptxas 13.0,
/// tests/exec/kernels/pipeline_loops.ptx: one `VIADD R4, R4, 0x4` and loads at
/// [R8.64+0x200], +0x400, +0x600 per four-copy iteration). It also gives OriPipelining a
/// loop control that is a single definition. Returns the registers rewritten.
unsigned foldCopyIncrements(ori::Function &f, uint32_t b, unsigned sm) {
  constexpr uint32_t kNoTemp = ~0u;
  std::vector<Instr> &ins = f.blocks[b].instrs;
  // Readers of each predicate in the block; a carry must be read by its IADD3.X only and
  // not be live out of the block.
  std::map<uint32_t, unsigned> predReads;
  for (const Instr &in : ins) {
    for (const Operand &v : in.guard.vregs())
      if (v.cls == RegClass::P)
        ++predReads[v.reg];
    for (const Operand &u : in.uses())
      for (const Operand &v : u.vregs())
        if (v.cls == RegClass::P)
          ++predReads[v.reg];
  }
  const ori::Liveness live = ori::computeLiveness(f);
  auto liveOut = [&](uint32_t p) {
    return live.liveOut[b].test(f.flatRegIndex(RegClass::P, p));
  };
  std::map<uint32_t, std::vector<size_t>> defsOf; // R vreg -> defining instructions
  for (size_t i = 0; i < ins.size(); ++i)
    for (const Operand &d : ins[i].defs())
      if (d.kind == OperandKind::VReg && d.cls == RegClass::R)
        defsOf[d.reg].push_back(i);
  unsigned folded = 0;
  for (const auto &[r, defs] : defsOf) {
    const uint8_t width = f.regInfo(RegClass::R, r).width;
    // Updates: (first instruction, second instruction or same, 64-bit step).
    struct Upd {
      size_t lo, hi;
      uint64_t step;
    };
    std::vector<Upd> ups;
    bool ok = width == 1 || width == 2;
    if (width == 1) {
      for (size_t i : defs) {
        auto c = selfAddConst(ins[i], r, 1, ori::kWholeReg);
        if (!c || ins[i].numDefs != 1) {
          ok = false;
          break;
        }
        ups.push_back({i, i, *c});
      }
    } else if (width == 2) {
      if (defs.size() % 2)
        ok = false;
      for (size_t k = 0; ok && k < defs.size(); k += 2) {
        const Instr &lo = ins[defs[k]], &hi = ins[defs[k + 1]];
        auto c = selfAddConst(lo, r, 2, 0);
        if (!c || lo.numDefs != 2 || lo.ops[1].kind != OperandKind::VReg ||
            lo.ops[1].cls != RegClass::P || lo.ops[1].mods) {
          ok = false;
          break;
        }
        const uint32_t p = lo.ops[1].reg;
        auto isR = [&](const Operand &o, uint8_t sub) {
          return o.kind == OperandKind::VReg && o.cls == RegClass::R && o.reg == r &&
                 o.sub == sub && !o.mods;
        };
        if (hi.op != Opcode::IADD3 || hi.isGuarded() || hi.numDefs != 1 || hi.ops.size() != 6 ||
            hi.mods.size() != 1 || hi.mods[0] != Modifier::X || !isR(hi.ops[0], 1) ||
            !isR(hi.ops[1], 1) || !(hi.ops[3].isFixed() && hi.ops[3].cls == RegClass::R) ||
            !(hi.ops[5].isFixed() && hi.ops[5].cls == RegClass::P &&
              (hi.ops[5].mods & ori::OM_NOT)) ||
            hi.ops[4].kind != OperandKind::VReg || hi.ops[4].cls != RegClass::P ||
            hi.ops[4].reg != p || hi.ops[4].mods || predReads[p] != 1 || liveOut(p)) {
          ok = false;
          break;
        }
        uint32_t hw = 0;
        if (hi.ops[2].kind == OperandKind::Imm)
          hw = static_cast<uint32_t>(hi.ops[2].imm);
        else if (!(hi.ops[2].isFixed() && hi.ops[2].cls == RegClass::R && !hi.ops[2].mods)) {
          ok = false;
          break;
        }
        for (size_t i = defs[k] + 1; ok && i < defs[k + 1]; ++i)
          ok = !readsR(ins[i], r);
        ups.push_back({defs[k], defs[k + 1], (uint64_t(hw) << 32) | *c});
      }
    }
    if (!ok || ups.size() < 2)
      continue;
    // Rewrite in place, back to front so indices stay valid: first the reads, then the
    // updates (all but the last deleted, the last given the sum).
    uint64_t total = 0;
    for (const Upd &u : ups)
      total += u.step;
    if (width == 1)
      total &= 0xFFFFFFFFu;
    // Offsets seen by the reads: before update k's first instruction, the sum of steps < k.
    std::vector<Instr> out;
    out.reserve(ins.size() + ups.size());
    uint64_t off = 0;
    size_t next = 0; // the next update
    uint32_t temp = kNoTemp; // a register holding r + off since the last update
    const Operand rz = Operand::fixed(RegClass::R);
    const Operand npt = [] {
      Operand o = Operand::fixed(RegClass::P);
      o.mods |= ori::OM_NOT;
      return o;
    }();
    auto emitAdd = [&](const Operand &dst, uint64_t k) {
      if (width == 1) {
        out.push_back(makeInstr(Opcode::IADD3, {}, {dst},
                                {Operand::vreg(RegClass::R, r),
                                 Operand::intImm(int64_t(int32_t(uint32_t(k)))), rz}));
        return;
      }
      Operand dlo = dst, dhi = dst, slo = Operand::vreg(RegClass::R, r, 2),
              shi = Operand::vreg(RegClass::R, r, 2);
      dlo.sub = slo.sub = 0;
      dhi.sub = shi.sub = 1;
      const Operand c = f.newReg(RegClass::P);
      const uint32_t hw = uint32_t(k >> 32);
      out.push_back(makeInstr(Opcode::IADD3, {}, {dlo, c},
                              {slo, Operand::intImm(int64_t(int32_t(uint32_t(k)))), rz}));
      out.push_back(makeInstr(Opcode::IADD3, {Modifier::X}, {dhi},
                              {shi, hw ? Operand::intImm(int64_t(int32_t(hw))) : rz, rz, c, npt}));
    };
    for (size_t i = 0; i < ins.size(); ++i) {
      if (next < ups.size() && (i == ups[next].lo || i == ups[next].hi)) {
        const Upd &u = ups[next];
        if (i == u.hi) {
          off += u.step;
          if (width == 1)
            off &= 0xFFFFFFFFu;
          temp = kNoTemp;
          ++next;
          if (next == ups.size()) { // the last update: advance by the sum
            emitAdd(Operand::vreg(RegClass::R, r, width), total);
            off = 0;
          }
        }
        continue;
      }
      if (off == 0 || !readsR(ins[i], r)) {
        out.push_back(ins[i]);
        continue;
      }
      const int64_t delta = width == 2 ? int64_t(off) : int64_t(int32_t(uint32_t(off)));
      if (width == 2 || delta >= 0)
        if (auto x = shiftMemBases(ins[i], r, delta, sm)) {
          out.push_back(std::move(*x));
          continue;
        }
      if (temp == kNoTemp) {
        const Operand t = f.newReg(RegClass::R, width);
        emitAdd(t, off);
        temp = t.reg;
      }
      Instr x = ins[i];
      renameReadsR(x, r, temp);
      out.push_back(std::move(x));
    }
    ins = std::move(out);
    ++folded;
    // Later registers' instruction indices changed: recollect them.
    return folded + foldCopyIncrements(f, b, sm);
  }
  return folded;
}

void runOriLoopUnrolling(ori::Function &f, PhaseContext &pc) {
  const Params prm = readParams(pc.knobs);
  std::ostringstream notes;
  // Loops come from AnalyzeControlFlow; a pipeline that disabled it gets them computed here
  // and no CFG facts left behind (as OriBranchOpt does).
  const bool analyzed = f.cfgAnalyzed;
  if (!analyzed)
    runAnalyzeControlFlow(f, pc);
  if (prm.enable && mergeStraightLoops(f))
    runAnalyzeControlFlow(f, pc);
  // Facts of the loops as they came in, by header name (block indices move as loops are
  // replaced): the header's index (the override string names it) and whether it had inner
  // loops (LoopUnrollNonInnermost).
  std::map<std::string, uint32_t> origIndex;
  std::set<std::string> hadChild;
  for (const ori::Loop &l : f.loops) {
    origIndex[f.blocks[l.header].name] = l.header;
    if (l.parent >= 0)
      hadChild.insert(f.blocks[f.loops[l.parent].header].name);
  }
  unsigned partial = 0, rolled = 0;
  bool changed = false;
  std::set<std::string> visited;

  for (;;) {
    // Innermost first: deepest loops, then layout order of their headers.
    int32_t pick = -1;
    for (uint32_t li = 0; li < f.loops.size(); ++li) {
      const ori::Loop &l = f.loops[li];
      if (visited.count(f.blocks[l.header].name))
        continue;
      if (pick < 0 || l.depth > f.loops[pick].depth ||
          (l.depth == f.loops[pick].depth && l.header < f.loops[pick].header))
        pick = static_cast<int32_t>(li);
    }
    if (pick < 0)
      break;
    const uint32_t li = static_cast<uint32_t>(pick);
    const ori::Loop &loop = f.loops[li];
    const uint32_t h = loop.header;
    const std::string hname = f.blocks[h].name;
    visited.insert(hname);
    bool hasChild = false;
    for (const ori::Loop &l : f.loops)
      hasChild = hasChild || l.parent == pick;
    LoopShape s;
    uint64_t copies = 0, trip = 0, bodySize = 0, kept = 0, remainder = 0;
    bool full = false, runtime = false;
    RuntimeCheck rc;
    auto decide = [&]() -> Outcome {
      if (!prm.enable)
        return reject(kNoUnroll, "LoopUnroll=false");
      // A. structure.
      if (loop.latches.size() != 1)
        return reject(kIrregular, "more than one back edge");
      const ori::Block &latch = f.blocks[loop.latches[0]];
      if (latch.instrs.empty())
        return reject(kExitNotCond);
      const Instr &br = latch.instrs.back();
      if (br.op != Opcode::BRA || !br.isGuarded() || br.uses().size() != 1 ||
          br.uses()[0].kind != OperandKind::Block || br.uses()[0].reg != h || !br.mods.empty())
        return reject(kExitNotCond);
      // B. suppression.
      auto oi = origIndex.find(hname);
      const int ov = oi == origIndex.end() ? 0 : overrideFor(prm.overrideStr, oi->second);
      if (f.blocks[h].noUnroll)
        return reject(kNoUnroll, "nounroll pragma");
      if (ov < 0)
        return reject(kNoUnroll, "per-block override string");
      std::optional<Opcode> warpSync;
      for (uint32_t b : loop.blocks)
        for (const Instr &in : f.blocks[b].instrs)
          if (isWarpSynchronous(in.op) && !warpSync)
            warpSync = in.op;
      // A convergent loop is left alone unless every thread runs it the same, constant,
      // number of times (checked below): then the unrolled code runs exactly the same
      // instructions per thread. Observed: ptxas 13.0 fully unrolls a 4-trip loop holding
      // two bar.sync (m_bar, tests/compare/loops).
      auto convergent = [&](Outcome o) {
        if (!warpSync)
          return o;
        return reject(kNoUnroll, "warp-synchronous " +
                                     std::string(ori::opcodeInfo(*warpSync).name) +
                                     " in a loop without a constant trip count");
      };
      // C. shape.
      if (hadChild.count(hname) && !prm.nonInnermost && ov <= 0)
        return reject(kTexSavings, "not innermost (LoopUnrollNonInnermost=false)");
      if (hasChild)
        return reject(kIrregular, "an inner loop is still a loop");
      if (loop.blocks.size() > 1 && !prm.multiBlock)
        return reject(kIrregular, "body of several blocks (UnrollMultiBlockLoops=false)");
      if (Outcome o = regionOf(f, loop, s.rg); !o.ok)
        return o;
      // D, E.
      if (Outcome o = analyzeIV(f, s); !o.ok)
        return convergent(o);
      forBody(f, s.rg, [&](uint32_t, size_t, const Instr &) { ++bodySize; });
      // F. predicate pressure.
      std::set<uint32_t> preds;
      for (uint32_t b = s.rg.h; b <= s.rg.l; ++b)
        for (const Instr &in : f.blocks[b].instrs) {
          for (const Operand &o : in.ops)
            if (o.kind == OperandKind::VReg && ori::isPredicateClass(o.cls))
              preds.insert(o.reg * 2 + (o.cls == RegClass::UP));
          if (in.guard.kind == OperandKind::VReg)
            preds.insert(in.guard.reg * 2 + (in.guard.cls == RegClass::UP));
        }
      if (static_cast<int64_t>(preds.size()) > prm.pregThreshold)
        return reject(kBudget, std::to_string(preds.size()) +
                                   " predicate registers > UnrollPregThreshold");
      if (!s.bound || !s.init) {
        // A trip count known only at run time.
        if (warpSync)
          return convergent(reject(kTripCount));
        if (!prm.variableBounds)
          return reject(kTripCount, "the trip count is not a constant (UnrollVariableBounds=false)");
        if (hasSideExit(f, s.rg) && !prm.unknownMultiBlock)
          return reject(kTripCount, "the trip count is not a constant in a loop with an exit "
                                    "besides its latch (LoopUnrollUnknownMultiBlock=false)");
        Modifier rel = s.cmp;
        if (!s.ivFirst)
          rel = swapCmp(rel);
        if (!s.continueWhenTrue)
          rel = negateCmp(rel);
        const int64_t st = s.signedStep();
        const bool ok = ((rel == Modifier::LT || rel == Modifier::LE) && st > 0) ||
                        ((rel == Modifier::GT || rel == Modifier::GE) && st < 0) ||
                        (rel == Modifier::NE && (st == 1 || st == -1));
        if (!ok)
          return reject(kStrideSign, "continue while i " +
                                         std::string(ori::modifierSpelling(rel)) +
                                         " bound, step " + std::to_string(st));
        const int64_t limit =
            prm.unknownInstLimit > 0 ? prm.unknownInstLimit : static_cast<int64_t>(prm.instLimit);
        if (static_cast<int64_t>(bodySize) > limit)
          return reject(kBudget, "body of " + std::to_string(bodySize) +
                                     " instructions > the unknown-count limit " +
                                     std::to_string(limit));
        int64_t fct = std::min<int64_t>(prm.unknownCount, prm.budget / int64_t(bodySize));
        std::string why;
        if (prm.factor > 0 || ov > 0) {
          fct = prm.factor > 0 ? prm.factor : prm.unknownCount;
          why = prm.factor > 0 ? "LoopUnrollFactor=" + std::to_string(prm.factor)
                               : "forced by the override string";
        }
        if (fct < 2)
          return reject(kFactorOne, fct == 1 && prm.factor == 1 ? "LoopUnrollFactor=1"
                                                                : "unknown trip count");
        // The check's distance (f-2+a) * |step| must stay far from wrapping.
        if (static_cast<uint64_t>(fct) * static_cast<uint64_t>(st < 0 ? -st : st) >= (1u << 30))
          return reject(kBudget, "factor x step too large");
        rc.rel = rel;
        rc.uns = s.uns;
        rc.wide = s.wide;
        rc.step = st;
        rc.a = s.incIdx < s.cmpIdx ? 1 : 0;
        rc.factor = static_cast<uint64_t>(fct);
        rc.overflowCheck = !prm.noOverflowCheck;
        rc.n = s.boundOp;
        runtime = true;
        copies = rc.factor;
        return {true, 0, why};
      }
      std::optional<uint64_t> t = tripCount(s, uint64_t(1) << 20);
      if (!t)
        return reject(kBudget, "trip count above 2^20");
      trip = *t;
      // G. factor. A full unroll is costed by what stays after folding.
      kept = bodySize - std::min<uint64_t>(bodySize, foldableCount(f, s));
      const uint64_t total = trip * kept;
      if (ov > 0) {
        copies = trip, full = true;
        return {true, 0, "forced by the override string"};
      }
      auto partialBy = [&](uint64_t k) {
        copies = k;
        remainder = trip % k;
      };
      if (prm.factor > 0) {
        const uint64_t k = static_cast<uint64_t>(prm.factor);
        if (k == 1)
          return reject(kFactorOne, "LoopUnrollFactor=1");
        if (k >= trip) {
          copies = trip, full = true;
          return {true, 0, "LoopUnrollFactor=" + std::to_string(k)};
        }
        partialBy(k);
        return {true, 0, "LoopUnrollFactor=" + std::to_string(k)};
      }
      const int64_t fullLimit = std::max<int64_t>(prm.fullLimit, 0);
      const bool small = static_cast<int64_t>(kept) <= prm.smallLoop &&
                         trip <= static_cast<uint64_t>(fullLimit);
      if (small || (total * kFullScaleDen <= static_cast<uint64_t>(fullLimit * kFullScaleNum) &&
                    bodySize <= static_cast<uint64_t>(fullLimit))) {
        copies = trip, full = true;
        return {true, 0, {}};
      }
      if (static_cast<double>(bodySize) > prm.instLimit)
        return reject(kBudget, "body of " + std::to_string(bodySize) +
                                   " instructions > UnrollInstLimit");
      const uint64_t cost = std::max<uint64_t>(kept, 1);
      for (uint64_t fct = trip - 1; fct >= 2; --fct)
        if ((fct + trip % fct) * cost <= static_cast<uint64_t>(std::max<int64_t>(prm.budget, 0))) {
          partialBy(fct);
          return {true, 0, {}};
        }
      return reject(kFactorOne, "no factor >= 2 fits UnrollBudget");
    };
    Outcome o = decide();
    notes << "# loop " << hname << ": ";
    if (!o.ok) {
      ++rolled;
      notes << "not unrolled: " << o.code << " - " << reasonText(o.code);
      if (!o.detail.empty())
        notes << " (" << o.detail << ')';
      notes << '\n';
      continue;
    }
    if (prm.renameCopies) {
      // Registers referenced in the loop and not live into its header.
      // A loop that can be left from inside a copy (a break): its copies' values may leave
      // from any of them, so registers live where it exits are kept too.
      const ori::Liveness lv = ori::computeLiveness(f);
      std::vector<uint32_t> exits;
      if (hasSideExit(f, s.rg))
        for (uint32_t b = s.rg.h; b <= s.rg.l; ++b)
          for (uint32_t t : f.blocks[b].succs)
            if (t < s.rg.h || t > s.rg.l)
              exits.push_back(t);
      std::set<std::pair<RegClass, uint32_t>> seen;
      for (uint32_t b = s.rg.h; b <= s.rg.l; ++b)
        for (const Instr &in : f.blocks[b].instrs) {
          auto note = [&](const Operand &v) {
            if (v.kind != OperandKind::VReg || v.cls == RegClass::B)
              return;
            const uint32_t k = f.flatRegIndex(v.cls, v.reg);
            bool live = lv.liveIn[s.rg.h].test(k);
            for (uint32_t t : exits)
              live = live || lv.liveIn[t].test(k);
            if (!live)
              seen.insert({v.cls, v.reg});
          };
          for (const Operand &v : in.guard.vregs())
            note(v);
          for (const Operand &o : in.ops)
            for (const Operand &v : o.vregs())
              note(v);
        }
      s.locals.assign(seen.begin(), seen.end());
    }
    std::vector<std::string> names;
    if (full) {
      notes << "fully unrolled (trip count " << trip << ", " << copies << " copies of "
            << bodySize << " instructions, " << kept << " kept after folding";
      names = unrollFully(f, s, copies);
    } else if (runtime) {
      ++partial;
      notes << "partially unrolled by " << copies << " (unknown trip count, body of "
            << bodySize << " instructions, remainder loop";
      if (prm.epilogueCount >= 2)
        notes << " unrolled by " << prm.epilogueCount;
      names = unrollRuntime(f, s, rc, prm.epilogueCount);
    } else {
      ++partial;
      notes << "partially unrolled by " << copies << " (trip count " << trip << ", body of "
            << bodySize << " instructions";
      if (remainder)
        notes << ", remainder " << remainder << " copies before the loop";
      names = unrollKnown(f, s, copies, remainder);
    }
    visited.insert(names.begin(), names.end());
    runAnalyzeControlFlow(f, pc);
    unsigned ivsNote = 0;
    if (!full && prm.foldIncrements) {
      // The main loop (one block after mergeChains when the body was one block).
      const std::set<std::string> mine(names.begin(), names.end());
      unsigned ivs = 0;
      for (const ori::Loop &l : f.loops)
        if (l.blocks.size() == 1 && mine.count(f.blocks[l.header].name) &&
            !f.blocks[l.header].noUnroll)
          ivs += foldCopyIncrements(f, l.header, pc.target->arch().sm);
      ivsNote = ivs;
    }
    if (!o.detail.empty())
      notes << "; " << o.detail;
    notes << ")";
    if (ivsNote)
      notes << " [" << ivsNote << " induction variable" << (ivsNote == 1 ? "" : "s")
            << " advanced once per iteration]";
    notes << "\n";
    changed = true;
  }
  notes << "# [partially unrolled loops=" << partial << "] [non-unrolled loops=" << rolled
        << "]\n";
  pc.dumpNotes += notes.str();
  if (changed)
    f.recomputeRegTable();
  if (!analyzed) {
    ori::buildCFG(f);
    f.cfgAnalyzed = false;
  }
}

} // namespace ptxmini
