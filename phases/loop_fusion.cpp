//===- phases/loop_fusion.cpp - OriLoopFusion (phase 59) --------------------------------===//
///
/// \file
/// Seed 004 "Phase 59 -- OriLoopFusion": "fuses adjacent loops with compatible bounds and no
/// inter-loop data dependencies into a single loop", after GeneralOptimizeLate (58) and
/// before predication (63). Off by default as in ptxas: the master knob PerformLoopFusion
/// (INT, 0) "must be explicitly set to a nonzero value"; PerformLoopFusionBudget (FLOAT,
/// unset) bounds the fused body's instruction count (here 0 stands for the seed's "unset":
/// no limit).
///
/// Candidates, in layout order: two single-block loops A and B (the seed's criterion 3, the
/// single-basic-block form) where A falls out into a chain of blocks X (possibly empty) that
/// ends in B's only entry from outside (each block of X entered only from the one before
/// it, falling through into the next), both loops with the same parent loop. The seed's four criteria, as checked here (the first failing one is the
/// rejection printed):
///   1. "same trip count": both loops are counted the way OriLoopUnrolling (phase 22) reads
///      them: a bottom test `@[!]P BRA self` on `P = ISETP.<cmp>[.U32].AND x, y, PT` in the
///      block, one of x, y an induction variable i written once in the block by
///      `i = IADD3 i, imm, RZ` / `VIADD i, imm`, the other invariant (an immediate, RZ, a
///      constant-bank word, or a register neither loop nor X writes). The two controls
///      must be identical -- same step, compare, signedness, operand order, branch sense,
///      compare before or after the increment, the same bound -- and the two induction
///      variables must enter with the same value: each one's last definition before its
///      loop (walking back through single-predecessor blocks) is `MOV i, v` with the same
///      v (the same constant, or the same register written nowhere in between). Both loops
///      test at the bottom, so each runs at least once and both run the same T >= 1 times.
///      The two induction variables must be different registers.
///   2. "no violated inter-loop dependencies": the fused body runs A's instructions and then
///      B's, iteration by iteration, and X is moved in front of A (to the end of A's
///      preheader). Registers (each virtual register as a unit, guards count as reads):
///        - B reads no register A writes before B itself writes it in the same iteration
///          (B would see A's value of the same iteration instead of A's last one);
///        - A reads no register B writes before A writes it (A would see B's last value);
///        - A register both write is not live after B (its final value would be A's);
///        - X reads nothing A writes and writes nothing A reads or writes.
///      Memory: a store (or atomic) in one loop and any access to the same state space in
///      the other (generic accesses count as every space; LDC reads the read-only constant
///      banks) is a dependence this phase cannot rule out without address analysis, so it
///      refuses. Loads in both loops are fine.
///   3. "compatible loop structure": single-block loops only; the fused body (without the
///      branch dropped) at most PerformLoopFusionBudget instructions when that is set.
///   4. "no intervening barriers": no barrier, fence, warp-synchronous instruction, call or
///      other side effect but plain stores in either loop; X holds only pure value
///      computations (Instr::isPureValue), so nothing between the loops can be a barrier.
/// After a fusion the CFG facts are recomputed and the scan starts again, so a third loop
/// may fuse with the result.
///
/// Transformation: X's instructions go to the end of A's preheader (before its branch, if
/// any); A's block becomes A's body without its branch, then B's block with its branch
/// retargeted to A; X and B are left empty and removed when no label names them (labels
/// renumbered). A's compare is kept (its predicate may be read after the loop; dead code
/// elimination removes it when not). Exact: both loops run T times, so B's predicate after
/// iteration k of the fused loop is what it was after B's iteration k (B's compare is the
/// last write of it in the body), and by the rules of 2 every instruction reads the values
/// it read before.
///
/// DUMPIR after the phase prints one line per candidate pair and a statistics line:
///   `# loop fusion: <A> + <B>: fused`
///   `# loop fusion: <A> + <B>: not fused: <reason>`
///   `# [fused loops=N] [rejected pairs=M]`
//===----------------------------------------------------------------------------------===//
#include "ori/analysis/liveness.h"
#include "ori/cfg.h"
#include "phases/loop_simplification.h"
#include "phases/phase_manager.h"

#include <algorithm>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace ptxmini {
namespace {

using ori::Instr;
using ori::Modifier;
using ori::Opcode;
using ori::Operand;
using ori::OperandKind;
using ori::RegClass;

using RegKey = std::pair<RegClass, uint32_t>;



/// Virtual registers `in` reads (uses, memory bases and descriptors, indices, guard).
std::vector<RegKey> readsOf(const Instr &in) {
  std::vector<RegKey> r;
  for (const Operand &v : in.guard.vregs())
    r.push_back({v.cls, v.reg});
  for (const Operand &u : in.uses())
    for (const Operand &v : u.vregs())
      r.push_back({v.cls, v.reg});
  return r;
}
/// Per block: registers written, and registers read before the block itself writes them
/// (upward exposed; only an unguarded whole-register definition counts as writing first).
struct RegSets {
  std::set<RegKey> writes, exposed;
};
RegSets regSets(const std::vector<Instr> &ins) {
  RegSets s;
  std::set<RegKey> killed;
  for (const Instr &in : ins) {
    for (const RegKey &k : readsOf(in))
      if (!killed.count(k))
        s.exposed.insert(k);
    for (const Operand &d : in.defs())
      if (d.kind == OperandKind::VReg) {
        s.writes.insert({d.cls, d.reg});
        if (!in.isGuarded() && d.sub == ori::kWholeReg)
          killed.insert({d.cls, d.reg});
      }
  }
  return s;
}

/// The loop control of a single-block loop `b` (see the file comment, criterion 1).
struct Control {
  size_t cmpIdx = 0, incIdx = 0;
  uint32_t pred = 0, iv = 0, step = 0;
  llvm::SmallVector<Modifier, 3> cmpMods;
  bool ivFirst = true, continueWhenTrue = true;
  Operand bound;
  Operand init; ///< the induction variable's entry value (an immediate or a register)
  /// Where init's MOV was found and the blocks walked back through (for "not written in
  /// between" checks on a register init).
  uint32_t initBlock = 0;
  size_t initIdx = 0;
  std::vector<uint32_t> walked;
};

/// The last definition of R register `iv` walking back from the end of `from` through
/// single-predecessor blocks, skipping over the blocks of `skip` (a loop that does not
/// write it); fills c.init and where it was found.
bool findInit(const ori::Function &f, uint32_t from, uint32_t iv, uint32_t skip, Control &c) {
  uint32_t b = from;
  for (unsigned steps = 0; steps < 64; ++steps) {
    c.walked.push_back(b);
    const auto &ins = f.blocks[b].instrs;
    for (size_t k = ins.size(); k-- > 0;) {
      const Instr &in = ins[k];
      if (!in.writesVReg(RegClass::R, iv))
        continue;
      if (in.op != Opcode::MOV || in.isGuarded() || !in.mods.empty() || in.numDefs != 1 ||
          !isLoopPlainR(in.ops[0]) || in.uses().size() != 1)
        return false;
      const Operand &v = in.uses()[0];
      if (!loopConstOf(v) && !isLoopPlainR(v))
        return false;
      c.init = v;
      c.initBlock = b;
      c.initIdx = k;
      return true;
    }
    // Past the skipped loop: continue from its only outside predecessor.
    uint32_t next;
    if (b == skip) {
      std::vector<uint32_t> outside;
      for (uint32_t p : f.blocks[b].preds)
        if (p != b)
          outside.push_back(p);
      if (outside.size() != 1)
        return false;
      next = outside[0];
    } else {
      if (f.blocks[b].preds.size() != 1 || b == 0)
        return false;
      next = f.blocks[b].preds[0];
      if (next == b)
        return false;
    }
    b = next;
  }
  return false;
}

/// Reads the control of single-block loop `b`; nullptr when it has one, else the reason.
const char *readControl(const ori::Function &f, uint32_t b, Control &c) {
  const auto &ins = f.blocks[b].instrs;
  if (ins.empty() || !ins.back().isPlainBranch() || ins.back().uses()[0].reg != b)
    return "loop exit is not a conditional branch";
  const Instr &br = ins.back();
  const Operand &g = br.guard;
  if (g.kind != OperandKind::VReg || g.cls != RegClass::P)
    return "loop exit is not a conditional branch";
  c.continueWhenTrue = !(g.mods & ori::OM_NOT);
  c.pred = g.reg;
  std::optional<size_t> cmpIdx;
  unsigned pdefs = 0;
  for (size_t k = 0; k + 1 < ins.size(); ++k)
    if (ins[k].writesVReg(RegClass::P, g.reg))
      ++pdefs, cmpIdx = k;
  if (pdefs != 1)
    return "trip count analysis failed (branch predicate)";
  const Instr &cmp = ins[*cmpIdx];
  if (cmp.op != Opcode::ISETP || cmp.isGuarded() || cmp.numDefs != 2 || !cmp.ops[1].isFixed() ||
      cmp.uses().size() != 3 || !cmp.uses()[2].isFixed() || (cmp.uses()[2].mods & ori::OM_NOT) ||
      cmp.ops[0].reg != g.reg || cmp.ops[0].kind != OperandKind::VReg)
    return "trip count analysis failed (compare)";
  bool andOk = false;
  for (Modifier m : cmp.mods) {
    if (m == Modifier::AND)
      andOk = true;
    else if (m != Modifier::U32 && m != Modifier::LT && m != Modifier::LE &&
             m != Modifier::GT && m != Modifier::GE && m != Modifier::EQ && m != Modifier::NE)
      return "trip count analysis failed (compare)";
  }
  if (!andOk)
    return "trip count analysis failed (compare)";
  c.cmpMods = cmp.mods;
  c.cmpIdx = *cmpIdx;
  const Operand &x = cmp.uses()[0], &y = cmp.uses()[1];
  auto written = [&](const Operand &o) {
    for (const Operand &v : o.vregs())
      for (size_t k = 0; k + 1 < ins.size(); ++k)
        if (ins[k].writesVReg(v.cls, v.reg))
          return true;
    return false;
  };
  const bool xw = written(x), yw = written(y);
  if (xw == yw)
    return "trip count analysis failed (induction variable)";
  const Operand &ivOp = xw ? x : y;
  c.bound = xw ? y : x;
  c.ivFirst = xw;
  if (!isLoopPlainR(ivOp))
    return "trip count analysis failed (induction variable)";
  if (!loopConstOf(c.bound) && !isLoopPlainR(c.bound) &&
      !(c.bound.kind == OperandKind::CBank && !c.bound.hasCbankIndex() && c.bound.mods == 0))
    return "trip count analysis failed (bound)";
  c.iv = ivOp.reg;
  unsigned ivDefs = 0;
  for (size_t k = 0; k + 1 < ins.size(); ++k)
    if (ins[k].writesVReg(RegClass::R, c.iv))
      ++ivDefs, c.incIdx = k;
  if (ivDefs != 1)
    return "trip count analysis failed (induction variable)";
  const Instr &inc = ins[c.incIdx];
  if (inc.isGuarded() || !inc.mods.empty() || inc.numDefs != 1 || !isLoopPlainR(inc.ops[0]))
    return "trip count analysis failed (induction variable update)";
  unsigned self = 0;
  bool other = false;
  uint32_t sum = 0;
  if ((inc.op == Opcode::IADD3 && inc.uses().size() == 3) ||
      (inc.op == Opcode::VIADD && inc.uses().size() == 2)) {
    for (const Operand &u : inc.uses()) {
      if (isLoopPlainR(u) && u.reg == c.iv)
        ++self;
      else if (auto v = loopConstOf(u))
        sum += *v;
      else
        other = true;
    }
  } else {
    other = true;
  }
  if (self != 1 || other)
    return "trip count analysis failed (induction variable update)";
  c.step = sum;
  return nullptr;
}

/// Memory state spaces (OF_GMEM | OF_SMEM | OF_LMEM) an access may touch.
uint16_t spacesOf(const Instr &in) {
  uint16_t s = in.info().flags & (ori::OF_GMEM | ori::OF_SMEM | ori::OF_LMEM);
  return s ? s : uint16_t(ori::OF_GMEM | ori::OF_SMEM | ori::OF_LMEM);
}

struct MemUse {
  uint16_t loads = 0, stores = 0;
  bool barrier = false; ///< a barrier, fence, warp-synchronous op, call or other side effect
};
MemUse memUse(const std::vector<Instr> &ins) {
  MemUse m;
  for (size_t k = 0; k + 1 < ins.size(); ++k) {
    const Instr &in = ins[k];
    const auto &i = in.info();
    if (i.has(ori::OF_BAR) || i.has(ori::OF_WARP) || i.has(ori::OF_BR) || i.has(ori::OF_TERM) ||
        in.op == Opcode::CALL || in.hasFlag(ori::IF_Volatile_bit)) {
      m.barrier = true;
      continue;
    }
    if (i.has(ori::OF_ST))
      m.stores |= spacesOf(in);
    else if (i.has(ori::OF_LD) && in.op != Opcode::LDC)
      m.loads |= spacesOf(in);
    else if (i.has(ori::OF_SIDE))
      m.barrier = true;
  }
  return m;
}

struct FusionCtx {
  ori::Function &f;
  PhaseContext &pc;
  double budget;
  std::ostringstream notes;
  unsigned fused = 0, rejected = 0;
};

/// Whether register `r` is written in any of `blocks` (after instruction `from` in the first
/// block of the list when `fromBlock` matches).
bool writtenIn(const ori::Function &f, const std::vector<uint32_t> &blocks, RegKey r,
               uint32_t fromBlock, size_t from) {
  for (uint32_t b : blocks) {
    const auto &ins = f.blocks[b].instrs;
    for (size_t k = b == fromBlock ? from + 1 : 0; k < ins.size(); ++k)
      if (ins[k].writesVReg(r.first, r.second))
        return true;
  }
  return false;
}

/// Criterion 1 for loops a and b with X between them; nullptr when they match.
const char *sameTripCount(const ori::Function &f, uint32_t a, const std::vector<uint32_t> &xs,
                          uint32_t b, uint32_t preA, Control &ca, Control &cb) {
  std::vector<uint32_t> ax{a}, axb;
  ax.insert(ax.end(), xs.begin(), xs.end());
  axb = ax;
  axb.push_back(b);
  if (const char *why = readControl(f, a, ca))
    return why;
  if (const char *why = readControl(f, b, cb))
    return why;
  if (ca.iv == cb.iv)
    return "different trip counts (the loops share their induction variable)";
  if (ca.step != cb.step || ca.cmpMods != cb.cmpMods || ca.ivFirst != cb.ivFirst ||
      ca.continueWhenTrue != cb.continueWhenTrue ||
      (ca.incIdx < ca.cmpIdx) != (cb.incIdx < cb.cmpIdx) || !(ca.bound == cb.bound))
    return "different trip counts (loop controls differ)";
  if (isLoopPlainR(ca.bound)) {
    RegKey r{RegClass::R, ca.bound.reg};
    if (writtenIn(f, axb, r, ~0u, 0))
      return "different trip counts (the bound changes between the loops)";
  }
  if (!findInit(f, preA, ca.iv, ~0u, ca) || !findInit(f, b - 1, cb.iv, a, cb))
    return "different trip counts (induction variable entry value unknown)";
  auto ka = loopConstOf(ca.init), kb = loopConstOf(cb.init);
  if (ka || kb) {
    if (!ka || !kb || *ka != *kb)
      return "different trip counts (induction variables start differently)";
    return nullptr;
  }
  if (ca.init.reg != cb.init.reg)
    return "different trip counts (induction variables start differently)";
  // w must hold one value from the earlier of the two MOVs to the later: every block each
  // walk passed is checked after its own MOV (a union of conservative checks).
  RegKey w{RegClass::R, ca.init.reg};
  for (const Control *ct : {&ca, &cb})
    for (uint32_t blk : ct->walked)
      if (writtenIn(f, {blk}, w, ct->initBlock, ct->initIdx))
        return "different trip counts (the start value changes between the loops)";
  if (writtenIn(f, ax, w, ~0u, 0))
    return "different trip counts (the start value changes between the loops)";
  return nullptr;
}

std::string regName(RegKey r) {
  return std::string(ori::vregPrefix(r.first)) + std::to_string(r.second);
}

/// Criteria 2-4 for loops a, b with X between; nullptr when fusion is safe.
std::string dependenceRefusal(FusionCtx &c, uint32_t a, const std::vector<uint32_t> &xs,
                              uint32_t b, const ori::Liveness &lv, uint32_t exitB) {
  ori::Function &f = c.f;
  const auto &ia = f.blocks[a].instrs, &ib = f.blocks[b].instrs;
  std::vector<Instr> ix;
  for (uint32_t k : xs)
    ix.insert(ix.end(), f.blocks[k].instrs.begin(), f.blocks[k].instrs.end());
  MemUse ma = memUse(ia), mb = memUse(ib);
  if (ma.barrier || mb.barrier)
    return "barrier, fence, call or side effect in a loop";
  for (const Instr &in : ix)
    if (!in.isPureValue())
      return "code between the loops cannot move (not a pure value computation)";
  if (c.budget > 0 && double(ia.size() - 1 + ib.size()) > c.budget)
    return "fused body over PerformLoopFusionBudget";
  if ((ma.stores & (mb.loads | mb.stores)) || (mb.stores & (ma.loads | ma.stores)))
    return "memory dependence (a store in one loop, an access to the same space in the other)";
  // Registers (without the branches: A's branch moves to the end, B's is dropped).
  std::vector<Instr> bodyA(ia.begin(), ia.end() - 1), bodyB(ib.begin(), ib.end() - 1);
  RegSets ra = regSets(bodyA), rb = regSets(bodyB), rx = regSets(ix);
  for (const RegKey &r : rb.exposed)
    if (ra.writes.count(r))
      return "dependence: the second loop reads " + regName(r) + " the first loop writes";
  for (const RegKey &r : ra.exposed)
    if (rb.writes.count(r))
      return "dependence: the first loop reads " + regName(r) + " the second loop writes";
  for (const RegKey &r : rb.writes)
    if (ra.writes.count(r) && lv.liveIn[exitB].test(f.flatRegIndex(r.first, r.second)))
      return "dependence: both loops write " + regName(r) + ", live after them";
  for (const RegKey &r : rx.exposed)
    if (ra.writes.count(r))
      return "code between the loops cannot move (it reads " + regName(r) +
             " the first loop writes)";
  for (const RegKey &r : rx.writes)
    if (ra.writes.count(r) || ra.exposed.count(r))
      return "code between the loops cannot move (it writes " + regName(r) +
             " the first loop uses)";
  return {};
}

/// Tries the first fusable pair in layout order; true when one was fused.
bool fuseOnce(FusionCtx &c, std::set<std::pair<std::string, std::string>> &reported) {
  ori::Function &f = c.f;
  std::optional<ori::Liveness> lv;
  for (const ori::Loop &la : f.loops) {
    // X: the blocks after A up to the next loop header, a chain each entered only from the
    // one before it and falling into the next (empty blocks of labels included).
    const uint32_t a = la.header;
    uint32_t b = a + 1;
    bool chain = true;
    for (; b < f.blocks.size() && !f.blocks[b].isLoopHeader; ++b) {
      const ori::Block &bx = f.blocks[b];
      if (bx.loopDepth + 1 != f.blocks[a].loopDepth || bx.preds.size() != 1 ||
          bx.preds[0] != b - 1 || bx.succs.size() != 1 || bx.succs[0] != b + 1) {
        chain = false;
        break;
      }
    }
    if (!chain || b >= f.blocks.size() || f.blocks[b].loopDepth != f.blocks[a].loopDepth)
      continue;
    std::vector<uint32_t> xs;
    for (uint32_t k = a + 1; k < b; ++k)
      xs.push_back(k);
    const int32_t lbIdx = f.blocks[b].loop;
    if (lbIdx < 0)
      continue;
    const ori::Loop &lb = f.loops[lbIdx];
    if (lb.parent != la.parent)
      continue;
    const std::string na = f.blocks[a].name, nb = f.blocks[b].name;
    auto refuse = [&](const std::string &why) {
      if (reported.insert({na, nb}).second) {
        c.notes << "# loop fusion: " << na << " + " << nb << ": not fused: " << why << "\n";
        ++c.rejected;
      }
    };
    if (la.blocks.size() != 1 || lb.blocks.size() != 1 || lb.header != b) {
      refuse("irregular loop structure (not single-block loops)");
      continue;
    }
    std::optional<uint32_t> preA = findDedicatedPreheader(f, la);
    if (!preA) {
      refuse("the first loop has no dedicated preheader");
      continue;
    }
    // B's exit: the block it falls into.
    if (b + 1 >= f.blocks.size()) {
      refuse("irregular loop structure (no block after the second loop)");
      continue;
    }
    Control ca, cb;
    if (const char *why = sameTripCount(f, a, xs, b, *preA, ca, cb)) {
      refuse(why);
      continue;
    }
    if (!lv)
      lv = ori::computeLiveness(f);
    std::string why = dependenceRefusal(c, a, xs, b, *lv, b + 1);
    if (!why.empty()) {
      refuse(why);
      continue;
    }
    // Fuse: X to the end of A's preheader; A = bodyA + bodyB + B's branch, retargeted.
    std::vector<Instr> moved;
    for (uint32_t k : xs) {
      for (Instr &in : f.blocks[k].instrs)
        moved.push_back(std::move(in));
      f.blocks[k].instrs.clear();
    }
    auto &pi = f.blocks[*preA].instrs;
    auto at = pi.end();
    if (!pi.empty() && pi.back().info().has(ori::OF_BR))
      at = pi.end() - 1;
    pi.insert(at, moved.begin(), moved.end());
    auto &ia = f.blocks[a].instrs;
    ia.pop_back();
    auto &ib = f.blocks[b].instrs;
    ia.insert(ia.end(), ib.begin(), ib.end());
    ia.back().uses()[0].reg = a;
    ib.clear();
    c.notes << "# loop fusion: " << na << " + " << nb << ": fused\n";
    ++c.fused;
    ori::removeEmptyUnlabelledBlocks(f);
    return true;
  }
  return false;
}

} // namespace

void runOriLoopFusion(ori::Function &f, PhaseContext &pc) {
  FusionCtx c{f, pc, pc.knobs.getDouble(KnobId::PerformLoopFusionBudget), {}, 0, 0};
  if (pc.knobs.getInt(KnobId::PerformLoopFusion) == 0) {
    pc.dumpNotes += "# loop fusion off (PerformLoopFusion=0)\n";
    return;
  }
  if (!f.cfgAnalyzed) {
    pc.dumpNotes += "# loop fusion: no CFG facts (AnalyzeControlFlow did not run)\n";
    return;
  }
  std::set<std::pair<std::string, std::string>> reported;
  bool any = false;
  for (unsigned round = 0; round < 64 && fuseOnce(c, reported); ++round) {
    any = true;
    ori::buildCFG(f);
    runAnalyzeControlFlow(f, pc);
  }
  if (any)
    f.recomputeRegTable();
  c.notes << "# [fused loops=" << c.fused << "] [rejected pairs=" << c.rejected << "]\n";
  pc.dumpNotes += c.notes.str();
}

} // namespace ptxmini
