//===- phases/loop_unrolling.cpp - OriLoopUnrolling (phase 22) --------------------------===//
///
/// \file
/// Seed 004 "Phase 22 -- OriLoopUnrolling": full unrolling of loops with a known small trip
/// count, partial unrolling of larger ones. This implementation follows the seed's decision
/// procedure (sub_1390B30) in the order it gives, for the loop shape ptxas-mini can prove
/// exact, and rejects everything else with the seed's reason code:
///
///   Loops are visited innermost first (deepest first, then layout order). Per loop:
///    A. structure: one latch whose last instruction is a conditional BRA to the header,
///       else code 13 (the exit is not a conditional branch);
///    B. suppression, code 11: the header carries PTX `.pragma "nounroll"` (Block::noUnroll),
///       or the per-block override string skips it ("-N-" / "-"); "+N+" / "+" force the loop
///       (below); a body holding a warp-synchronous instruction (convergence constraint:
///       BAR, WARPSYNC, BSSY/BSYNC, SHFL, VOTE, MATCH, ELECT, cluster barriers) gets code 11
///       when its trip count is not a known constant (steps D/E fail);
///    C. non-innermost loops with LoopUnrollNonInnermost=false: code 7; multi-block bodies
///       (ptxas-mini replicates single-block loops only; UnrollMultiBlockLoops=false says so
///       too) and bodies with a CALL: code 17 (irregular);
///    D. induction variable: the branch's predicate has exactly one definition in the loop,
///       an unguarded `P, PT = ISETP.<cmp>[.U32].AND x, y, PT` whose only reader in the loop
///       is the branch; one of x, y is a 32-bit register i written exactly once in the loop,
///       by an unguarded `i = IADD3 i, imm, RZ` (operands in any order) or `VIADD i, i, imm`,
///       else code 14; i not a 32-bit R register: code 15; x and y the same register: 18;
///    E. trip count: the other compare operand is an immediate (or RZ) and i's value on entry
///       is an unguarded `MOV i, imm|RZ` found walking back from the header's only outside
///       predecessor through single-predecessor blocks, else code 16 (unknown trip count:
///       ptxas-mini has no remainder loop for a runtime count yet). The count itself is
///       found by running the loop's control on 32-bit values (wrap-around and the signed or
///       unsigned compare exact): the first iteration whose compare leaves the loop. A loop
///       that does not leave within 2^20 iterations: code 24;
///    F. predicate pressure: more distinct predicate registers in the loop than
///       UnrollPregThreshold: code 24;
///    G. factor, with B = body instructions without the branch, T the trip count, and K the
///       instructions of B a full unroll keeps (B less the foldable ones, foldableCount):
///       - LoopUnrollFactor=K > 0 (knob) or a forced loop ('+'): K >= T (or forced) unrolls
///         fully; K = 1: code 12; otherwise K must divide T, else code 12;
///       - full unroll when T*K <= UnrollFullInstLimit and (T*K <= UnrollBudget or
///         K <= UnrollSmallLoopLimit) (GUESS: how the seed's three limits combine);
///       - else partial by the largest divisor f of T with 2 <= f <= min(UnrollUnknownCount,
///         UnrollBudget / B), when B <= UnrollInstLimit (GUESS: the seed gives the knobs, not
///         this formula); none: code 12 (no factor >= 2 fits).
///
/// Transformations (both inside the one block, so the CFG keeps its shape):
///   - full: the body is written T times, the branch dropped; the compare kept only in the
///     last copy (its predicate has no other reader in the loop, so earlier copies' values
///     are dead); the block now falls through to the exit;
///   - partial by f (f divides T): the body is written f times with the compare and branch
///     only after the last copy. Exact because the original compare leaves the loop only at
///     iteration T, a multiple of f, so the dropped compares would all have stayed.
///   No remainder (epilogue) loop is ever made, so EpilogueLoopUnrollCount has nothing to act
///   on yet.
///
/// DUMPIR after the phase prints, before the function, one line per loop visited:
///   `# loop <header>: fully unrolled (trip count T, T copies of B instructions)`
///   `# loop <header>: partially unrolled by f (trip count T, ...)`
///   `# loop <header>: not unrolled: <code> - <reason>`
/// and the seed's statistics line `# [partially unrolled loops=N] [non-unrolled loops=M]`,
/// N and M counting the loops that are still loops after the phase (a fully unrolled loop is
/// gone, so it is in neither count). The reason texts are the seed's Reason column; the seed
/// quotes the printed form of only one ("0x80000001 - Not unrolled: Irregular loop"), so the
/// codes printed here are the seed's internal ones, not ptxas's hex message numbers.
//===----------------------------------------------------------------------------------===//
#include "ori/cfg.h"
#include "phases/phase_manager.h"

#include <algorithm>
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
  case kBudget: return "budget exceeded";
  default: return "?";
  }
}

/// The phase's knobs, read once (seed: the context initializer sub_1389AF0).
struct Params {
  bool enable;
  int64_t factor;
  std::string overrideStr;
  int64_t budget, fullLimit, smallLoop, unknownCount, pregThreshold;
  double instLimit;
  bool multiBlock, nonInnermost;
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
  p.multiBlock = k.getBool(KnobId::UnrollMultiBlockLoops);
  p.nonInnermost = k.getBool(KnobId::LoopUnrollNonInnermost);
  return p;
}

/// Warp-synchronous instructions (opcodes.def OF_WARP): a loop holding one is convergent and
/// stays rolled (seed: "convergence constraint ... suppresses unrolling of warp-synchronous
/// loops").
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

bool isPlainReg(const Operand &o) {
  return o.kind == OperandKind::VReg && o.cls == RegClass::R && o.width == 1 &&
         o.sub == ori::kWholeReg && (o.mods & ~ori::OM_REUSE) == 0;
}
std::optional<uint32_t> constOf(const Operand &o) {
  if (o.kind == OperandKind::Imm && o.mods == 0)
    return static_cast<uint32_t>(o.imm);
  if (o.isFixed() && o.cls == RegClass::R && o.mods == 0)
    return 0u;
  return std::nullopt;
}

/// What the analysis of one loop found.
struct LoopShape {
  uint32_t block = 0;          ///< the loop's one block (header == latch)
  size_t cmpIdx = 0, incIdx = 0;
  uint32_t iv = 0;
  uint32_t step = 0;
  bool ivFirst = true;         ///< the IV is the compare's first operand
  Modifier cmp = Modifier::LT;
  bool uns = false;
  bool continueWhenTrue = true; ///< `@P BRA` (true) or `@!P BRA` (false)
  std::optional<uint32_t> bound, init;
};

struct Outcome {
  bool ok = false;
  unsigned code = 0;
  std::string detail;
};
Outcome reject(unsigned code, std::string detail = {}) { return {false, code, std::move(detail)}; }

bool compareU32(Modifier cmp, bool uns, uint32_t a, uint32_t b) {
  int64_t x = uns ? int64_t(a) : int64_t(int32_t(a));
  int64_t y = uns ? int64_t(b) : int64_t(int32_t(b));
  switch (cmp) {
  case Modifier::LT: return x < y;
  case Modifier::LE: return x <= y;
  case Modifier::GT: return x > y;
  case Modifier::GE: return x >= y;
  case Modifier::EQ: return x == y;
  default: return x != y; // NE
  }
}

/// The trip count: the loop's control run on 32-bit values; nullopt past `cap` iterations.
std::optional<uint64_t> tripCount(const LoopShape &s, uint64_t cap) {
  uint32_t v = *s.init;
  const bool cmpAfterInc = s.incIdx < s.cmpIdx;
  for (uint64_t trip = 1; trip <= cap; ++trip) {
    uint32_t after = v + s.step;
    uint32_t x = cmpAfterInc ? after : v;
    bool p = s.ivFirst ? compareU32(s.cmp, s.uns, x, *s.bound)
                       : compareU32(s.cmp, s.uns, *s.bound, x);
    if (p != s.continueWhenTrue)
      return trip;
    v = after;
  }
  return std::nullopt;
}

/// i's value on entry to the loop whose header is `h` (single-block loop): the last
/// definition before the header on the unique path into it.
std::optional<uint32_t> entryValue(const ori::Function &f, uint32_t h, uint32_t iv) {
  std::vector<uint32_t> outside;
  for (uint32_t p : f.blocks[h].preds)
    if (p != h)
      outside.push_back(p);
  if (outside.size() != 1)
    return std::nullopt;
  uint32_t b = outside[0];
  for (unsigned steps = 0; steps < 64; ++steps) {
    const auto &ins = f.blocks[b].instrs;
    for (size_t k = ins.size(); k-- > 0;) {
      const Instr &in = ins[k];
      if (!in.writesVReg(RegClass::R, iv))
        continue;
      const Operand &d = in.defs()[0];
      if (in.op == Opcode::MOV && !in.isGuarded() && in.mods.empty() && in.numDefs == 1 &&
          isPlainReg(d) && in.uses().size() == 1)
        return constOf(in.uses()[0]);
      return std::nullopt;
    }
    if (f.blocks[b].preds.size() != 1 || b == 0)
      return std::nullopt;
    b = f.blocks[b].preds[0];
    if (b == h)
      return std::nullopt;
  }
  return std::nullopt;
}

/// Steps D and E: the induction variable and what is known of the trip count.
Outcome analyzeIV(const ori::Function &f, uint32_t b, LoopShape &s) {
  const auto &ins = f.blocks[b].instrs;
  const Instr &br = ins.back();
  const Operand &g = br.guard;
  if (g.kind != OperandKind::VReg || g.cls != RegClass::P)
    return reject(kIvFailed, "the branch is not guarded by a predicate register");
  s.continueWhenTrue = !(g.mods & ori::OM_NOT);
  // The one definition of the guard in the loop.
  std::optional<size_t> cmpIdx;
  for (size_t k = 0; k + 1 < ins.size(); ++k) {
    if (ins[k].writesVReg(RegClass::P, g.reg)) {
      if (cmpIdx)
        return reject(kIvFailed, "the branch predicate has more than one definition");
      cmpIdx = k;
    } else if (readsReg(ins[k], RegClass::P, g.reg)) {
      return reject(kIvFailed, "the branch predicate has another reader in the loop");
    }
  }
  if (!cmpIdx)
    return reject(kIvFailed, "the branch predicate is not defined in the loop");
  const Instr &c = ins[*cmpIdx];
  if (c.op != Opcode::ISETP || c.isGuarded() || c.numDefs != 2 || !c.ops[1].isFixed() ||
      c.uses().size() != 3 || !c.uses()[2].isFixed() || (c.uses()[2].mods & ori::OM_NOT) ||
      c.ops[0].reg != g.reg)
    return reject(kIvFailed, "the branch predicate is not an unguarded ISETP ... PT");
  bool andOk = false;
  std::optional<Modifier> cmp;
  for (Modifier m : c.mods) {
    if (m == Modifier::U32)
      s.uns = true;
    else if (m == Modifier::AND)
      andOk = true;
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
  const Operand &x = c.uses()[0], &y = c.uses()[1];
  if (x.kind == OperandKind::VReg && y.kind == OperandKind::VReg && x.cls == y.cls &&
      x.reg == y.reg)
    return reject(kDegenerate);
  // Which operand is the induction variable: a register written in the loop.
  auto definedInLoop = [&](const Operand &o) {
    if (o.kind != OperandKind::VReg)
      return false;
    for (size_t k = 0; k + 1 < ins.size(); ++k)
      if (ins[k].writesVReg(o.cls, o.reg))
        return true;
    return false;
  };
  const bool xv = definedInLoop(x), yv = definedInLoop(y);
  if (xv == yv)
    return reject(kIvFailed, xv ? "both compare operands change in the loop"
                                : "no compare operand changes in the loop");
  const Operand &ivOp = xv ? x : y, &other = xv ? y : x;
  s.ivFirst = xv;
  if (ivOp.cls != RegClass::R)
    return reject(kIvClass);
  if (!isPlainReg(ivOp))
    return reject(kIvClass, "not a whole 32-bit register");
  s.iv = ivOp.reg;
  // Exactly one definition, an add of a constant to itself.
  std::optional<size_t> incIdx;
  for (size_t k = 0; k + 1 < ins.size(); ++k)
    if (ins[k].writesVReg(RegClass::R, s.iv)) {
      if (incIdx)
        return reject(kIvFailed, "the induction variable has more than one definition");
      incIdx = k;
    }
  const Instr &inc = ins[*incIdx];
  if (inc.isGuarded() || !inc.mods.empty() || inc.numDefs != 1 || !isPlainReg(inc.ops[0]))
    return reject(kIvFailed, "the induction variable's update is not a plain add");
  std::optional<uint32_t> step;
  unsigned self = 0;
  bool other3 = false;
  if (inc.op == Opcode::IADD3 && inc.uses().size() == 3) {
    uint32_t sum = 0;
    for (const Operand &u : inc.uses()) {
      if (isPlainReg(u) && u.reg == s.iv)
        ++self;
      else if (auto v = constOf(u))
        sum += *v;
      else
        other3 = true;
    }
    step = sum;
  } else if (inc.op == Opcode::VIADD && inc.uses().size() == 2) {
    if (isPlainReg(inc.uses()[0]) && inc.uses()[0].reg == s.iv)
      ++self;
    else
      other3 = true;
    step = constOf(inc.uses()[1]);
  }
  if (!step || self != 1 || other3)
    return reject(kIvFailed, "the induction variable's update is not i = i + constant");
  s.step = *step;
  s.incIdx = *incIdx;
  s.bound = constOf(other);
  s.init = entryValue(f, b, s.iv);
  return {true, 0, {}};
}

/// Instructions of the loop's block that a full unroll makes foldable (seed: the full
/// unroll profitability evaluator counts "foldable constants, addresses", sub_1383620): the
/// induction variable's update and compare (constants in every copy), and the updates of
/// other registers by a constant, `r = IADD3 r, imm, RZ` and the 64-bit pair
/// `r[0], c = IADD3 r[0], imm, RZ` + `r[1] = IADD3.X r[1], RZ, RZ, c, !PT`, written once per
/// iteration (address increments: every copy's address is the entry value plus a constant),
/// and `IMAD.WIDE[.U32] a, r, imm, base` of such an r (an address that becomes base plus a
/// constant offset in every copy).
/// GUESS: which instructions ptxas counts as foldable; this choice is what made the
/// decisions agree with ptxas 13.0 on the loops of tests/lit/phases/loop-unroll*.
uint64_t foldableCount(const ori::Block &b, const LoopShape &s) {
  const auto &ins = b.instrs;
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
  auto writtenOnce = [&](const Operand &d) {
    unsigned n = 0;
    for (size_t k = 0; k + 1 < ins.size(); ++k)
      for (const Operand &o : ins[k].defs())
        if (o.kind == OperandKind::VReg && o.cls == d.cls && o.reg == d.reg)
          ++n;
    return n;
  };
  // A register updated in the loop only by `r = IADD3 r, imm, RZ`.
  auto isInduction = [&](uint32_t r) {
    unsigned defs = 0;
    bool addImm = true;
    for (size_t k = 0; k + 1 < ins.size(); ++k)
      if (ins[k].writesVReg(RegClass::R, r)) {
        ++defs;
        addImm = addImm && isAddImm(ins[k], false);
      }
    return defs == 1 && addImm;
  };
  uint64_t n = 2; // the IV update and the compare
  for (size_t k = 0; k + 1 < ins.size(); ++k) {
    if (k == s.cmpIdx || k == s.incIdx)
      continue;
    const Instr &in = ins[k];
    if (isAddImm(in, false) && in.ops[0].width == 1 && writtenOnce(in.ops[0]) == 1) {
      ++n;
    } else if (in.op == Opcode::IMAD && in.hasModifier(Modifier::WIDE) && !in.isGuarded() &&
               in.numDefs == 1 && in.uses().size() == 3 && in.uses()[1].kind == OperandKind::Imm &&
               isPlainReg(in.uses()[0]) && isInduction(in.uses()[0].reg)) {
      ++n; // base + (i + k*step) * imm: an address constant per copy
    } else if (isAddImm(in, true) && in.ops[0].sub == 0 && k + 2 < ins.size()) {
      const Instr &hi = ins[k + 1];
      const Operand &c = in.ops[1];
      if (hi.op == Opcode::IADD3 && hi.mods.size() == 1 && hi.mods[0] == Modifier::X &&
          hi.numDefs == 1 && hi.uses().size() == 5 && hi.ops[0].kind == OperandKind::VReg &&
          hi.ops[0].reg == in.ops[0].reg && hi.ops[0].sub == 1 && hi.uses()[0] == hi.ops[0] &&
          hi.uses()[1].isFixed() && hi.uses()[2].isFixed() && hi.uses()[3] == c &&
          writtenOnce(in.ops[0]) == 2) {
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

/// Writes the loop's block with `copies` copies of its body; the compare stays only in the
/// last copy and the branch only when `keepBranch`.
void replicate(ori::Function &f, const LoopShape &s, uint64_t copies, bool keepBranch) {
  std::vector<Instr> &ins = f.blocks[s.block].instrs;
  const Instr br = ins.back();
  std::vector<Instr> body(ins.begin(), ins.end() - 1);
  std::vector<Instr> out;
  out.reserve(body.size() * copies + 1);
  for (uint64_t c = 0; c < copies; ++c)
    for (size_t k = 0; k < body.size(); ++k)
      if (k != s.cmpIdx || c + 1 == copies)
        out.push_back(body[k]);
  if (keepBranch)
    out.push_back(br);
  ins = std::move(out);
}

/// Local canonicalization (the task leaves preheaders and canonical shapes to phase 18, on
/// another branch): a loop whose blocks are a straight chain in layout order, h, h+1, ...,
/// latch, each falling through to the next with no branch or exit of its own and each after
/// h entered only from the one before (a header and a separate latch block, as PTX `loop:`
/// ... `latch:` labels make), has its instructions moved up into h. The later blocks are
/// left empty (they fall through, as before) and the loop becomes the single block h. The
/// program runs the same instructions in the same order. Returns whether anything moved.
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

} // namespace

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
  unsigned partial = 0, rolled = 0;
  bool changed = false;
  // Innermost first: deepest loops, then layout order of their headers.
  std::vector<uint32_t> order(f.loops.size());
  for (uint32_t i = 0; i < order.size(); ++i)
    order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    if (f.loops[a].depth != f.loops[b].depth)
      return f.loops[a].depth > f.loops[b].depth;
    return f.loops[a].header < f.loops[b].header;
  });
  std::vector<bool> hasChild(f.loops.size(), false);
  for (const ori::Loop &l : f.loops)
    if (l.parent >= 0)
      hasChild[l.parent] = true;

  for (uint32_t li : order) {
    const ori::Loop &loop = f.loops[li];
    const uint32_t h = loop.header;
    const ori::Block &hb = f.blocks[h];
    LoopShape s;
    s.block = h;
    uint64_t copies = 0, trip = 0, bodySize = 0, kept = 0;
    bool full = false;
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
      const int ov = overrideFor(prm.overrideStr, h);
      if (hb.noUnroll)
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
      // two bar.sync (m_bar, nvcc -Xcicc -O1; see the branch report).
      auto convergent = [&](Outcome o) {
        if (!warpSync)
          return o;
        return reject(kNoUnroll, "warp-synchronous " +
                                     std::string(ori::opcodeInfo(*warpSync).name) +
                                     " in a loop without a constant trip count");
      };
      // C. shape.
      if (hasChild[li] && !prm.nonInnermost && ov <= 0)
        return reject(kTexSavings, "not innermost (LoopUnrollNonInnermost=false)");
      if (loop.blocks.size() != 1)
        return reject(kIrregular, prm.multiBlock
                                      ? "body of " + std::to_string(loop.blocks.size()) +
                                            " blocks (ptxas-mini unrolls single-block loops)"
                                      : "body of several blocks (UnrollMultiBlockLoops=false)");
      for (size_t k = 0; k + 1 < hb.instrs.size(); ++k) {
        const Instr &in = hb.instrs[k];
        if (in.op == Opcode::CALL)
          return reject(kIrregular, "a CALL in the loop");
        if (in.info().has(ori::OF_BR) || in.info().has(ori::OF_TERM))
          return reject(kIrregular, "a branch or exit inside the body");
      }
      // D, E.
      if (Outcome o = analyzeIV(f, h, s); !o.ok)
        return convergent(o);
      if (!s.bound)
        return convergent(reject(kTripCount, "the bound is not a constant"));
      if (!s.init)
        return convergent(reject(kTripCount, "the initial value is not a known constant"));
      std::optional<uint64_t> t = tripCount(s, uint64_t(1) << 20);
      if (!t)
        return reject(kBudget, "trip count above 2^20");
      trip = *t;
      bodySize = hb.instrs.size() - 1;
      // F. predicate pressure.
      std::set<uint32_t> preds;
      for (const Instr &in : hb.instrs) {
        for (const Operand &o : in.ops)
          if (o.kind == OperandKind::VReg && ori::isPredicateClass(o.cls))
            preds.insert(o.reg * 2 + (o.cls == RegClass::UP));
        if (in.guard.kind == OperandKind::VReg)
          preds.insert(in.guard.reg * 2 + (in.guard.cls == RegClass::UP));
      }
      if (static_cast<int64_t>(preds.size()) > prm.pregThreshold)
        return reject(kBudget, std::to_string(preds.size()) +
                                   " predicate registers > UnrollPregThreshold");
      // G. factor. A full unroll is costed by what stays after folding.
      kept = bodySize - std::min<uint64_t>(bodySize, foldableCount(hb, s));
      const uint64_t total = trip * kept;
      if (ov > 0) {
        copies = trip, full = true;
        return {true, 0, "forced by the override string"};
      }
      if (prm.factor > 0) {
        const uint64_t k = static_cast<uint64_t>(prm.factor);
        if (k == 1)
          return reject(kFactorOne, "LoopUnrollFactor=1");
        if (k >= trip) {
          copies = trip, full = true;
          return {true, 0, "LoopUnrollFactor=" + std::to_string(k)};
        }
        if (trip % k != 0)
          return reject(kFactorOne, "LoopUnrollFactor=" + std::to_string(k) +
                                        " does not divide trip count " + std::to_string(trip) +
                                        " (no remainder loops yet)");
        copies = k;
        return {true, 0, "LoopUnrollFactor=" + std::to_string(k)};
      }
      if (total <= static_cast<uint64_t>(std::max<int64_t>(prm.fullLimit, 0)) &&
          (total <= static_cast<uint64_t>(std::max<int64_t>(prm.budget, 0)) ||
           static_cast<int64_t>(kept) <= prm.smallLoop)) {
        copies = trip, full = true;
        return {true, 0, {}};
      }
      if (static_cast<double>(bodySize) > prm.instLimit)
        return reject(kBudget, "body of " + std::to_string(bodySize) +
                                   " instructions > UnrollInstLimit");
      const int64_t maxF = std::min<int64_t>(prm.unknownCount,
                                             bodySize ? prm.budget / int64_t(bodySize) : 0);
      for (int64_t fct = maxF; fct >= 2; --fct)
        if (uint64_t(fct) < trip && trip % uint64_t(fct) == 0) {
          copies = static_cast<uint64_t>(fct);
          return {true, 0, {}};
        }
      return reject(kFactorOne, "no factor >= 2 dividing trip count " + std::to_string(trip) +
                                    " fits UnrollBudget");
    };
    Outcome o = decide();
    notes << "# loop " << hb.name << ": ";
    if (!o.ok) {
      ++rolled;
      notes << "not unrolled: " << o.code << " - " << reasonText(o.code);
      if (!o.detail.empty())
        notes << " (" << o.detail << ')';
      notes << '\n';
      continue;
    }
    if (full) {
      notes << "fully unrolled (trip count " << trip << ", " << copies << " copies of "
            << bodySize << " instructions, " << kept << " kept after folding";
    } else {
      ++partial;
      notes << "partially unrolled by " << copies << " (trip count " << trip << ", body of "
            << bodySize << " instructions";
    }
    if (!o.detail.empty())
      notes << "; " << o.detail;
    notes << ")\n";
    replicate(f, s, copies, !full);
    changed = true;
  }
  notes << "# [partially unrolled loops=" << partial << "] [non-unrolled loops=" << rolled
        << "]\n";
  pc.dumpNotes += notes.str();
  if (changed) {
    runAnalyzeControlFlow(f, pc);
    f.recomputeRegTable();
  }
  if (!analyzed) {
    ori::buildCFG(f);
    f.cfgAnalyzed = false;
  }
}

} // namespace ptxmini
