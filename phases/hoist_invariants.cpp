//===- phases/hoist_invariants.cpp - OriHoistInvariants (phases 35, 66, 79, 88): LICM -===//
///
/// \file
/// One implementation, four rows of the phase table (seed 004, "Phases 35, 66, 79, 88 --
/// OriHoistInvariants (LICM)"): 35 Early (pass id 0, after GeneralOptimize's partial CSE),
/// 66 Late (1, after predication), 79 Late2 (2, after late expansion), 88 Late3 (3, after
/// the GMMA fixup). Each run moves loop-invariant, side-effect-free instructions into the
/// loop's dedicated preheader (phases/loop_simplification.h; made here where phase 18 did
/// not), innermost loops first, so that an instruction can climb one loop level per loop.
///
/// Which instructions move. Ori is not SSA, so "invariant" is stated on the whole function:
/// an instruction I in a block of loop L (a block whose innermost loop is L) moves when
///   1. it is unguarded (seed: nothing guarded unless the guard is invariant too; we keep it
///      simple) and has no side effect: no store, barrier, branch, terminator, call, no
///      memory load other than a constant-bank LDC (constant banks are read-only while a
///      kernel runs), no warp-synchronous operation (SHFL, VOTE, MATCH, ELECT, REDUX, B2R,
///      mma.sync: their result depends on which threads are active, which differs between
///      the preheader and later iterations), no R2UR (its source is uniform over the
///      threads active where it stands, maybe not over those of the preheader), no P2R /
///      R2P (they read / write predicates the operand list does not name), no special
///      register that changes between reads (clocks, timers; thread and CTA ids are fine),
///      not flagged volatile;
///   2. every register it reads (sources, memory bases, constant-bank indices) has no
///      definition left inside L (defined outside, or by an instruction already hoisted);
///      physical registers (ABI, stack pointer) are never touched;
///   3. every register it defines has exactly one definition in the whole function (this
///      instruction), and is not live into L's header. Together these make the move exact:
///      no path from the header reaches a read of the register without passing the old
///      definition site, and every path from the preheader to that site stays inside L,
///      where the sources are not redefined, so every read sees the value it saw before. A
///      register read before its definition on the first iteration, or carried around the
///      back edge, or defined again elsewhere, is live into the header or has two
///      definitions, and stays;
///   4. an LDC with a register index moves only from the header (executed every time the
///      loop is entered, so the load is not made speculative); an index-free LDC and the
///      ALU operations cannot fault and may move from any block of the loop.
/// Hoisted instructions keep their order (sources before users) at the end of the
/// preheader, before its `BRA header` if it has one, and get the `hoisted` flag.
///
/// Loops skipped entirely (seed: "Contains barrier instruction -> Skip loop entirely"): a loop
/// holding a barrier or fence (OF_BAR). Functions of two blocks or fewer are skipped (seed:
/// the guard sub_7DDB50 "block count > 2").
///
/// Budget (seed "Stage 1: Budget Computation", simplified to a count of moved instructions
/// per loop and pass): an innermost loop gets HoistLoopInvBudget (22 for the Early pass, 100
/// for the others, as the seed's cbo_budget), a loop containing other loops gets HoistBudget
/// (10; 0 = unlimited); Late3 (pass id 3) multiplies it by 100 ("generous once decided to
/// hoist"). An instruction that an earlier loop (or pass) already hoisted and that would now
/// climb another level is a nested hoist: it counts against budget / HoistConservativeScale
/// (seed: the inner-loop divisor, 10), and DisableNestedHoist forbids it.
/// Register pressure (seed: "Every hoisted instruction extends its live range from the
/// preheader through the entire loop"; HoistCBORRegPressureLimitApplyRate, 80%): a hoist
/// that defines R registers is not done when the loop's largest R pressure (32-bit units
/// live at one point, counted over its blocks) plus the units already hoisted out of it
/// would pass HoistRRegPressureLimitApplyRate percent of the function's R registers
/// (its limit, else the target's most, less the 3 -v counts beyond the values), nor past the
/// function's occupancy step (the most registers that keep as many warps resident as the
/// function's largest R pressure before the hoist; knob HoistPastOccupancyStep lifts it).
/// Without the first, Late3's budget of 10,000 took Rodinia myocyte's solver_2 from 213 to
/// 660 units; without the second, the Late passes took ggml im2col's 3-D kernel from 70 to
/// 162 units (ptxas: 44 registers) by hoisting its 29 64-bit parameters' arithmetic.
/// Not done: the seed's profitability score (latency classes weighed against body and header
/// sizes), the per-block HoistLate policy and the HoistCBO* / HoistTex* special paths; these
/// knobs are not registered (no reader).
//===----------------------------------------------------------------------------------===//
#include "ori/analysis/liveness.h"
#include "ori/cfg.h"
#include "phases/loop_simplification.h"
#include "phases/phase_manager.h"
#include "regalloc/occupancy.h"

#include "llvm/ADT/BitVector.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <vector>

namespace ptxmini {
namespace {

using ori::Instr;
using ori::Opcode;
using ori::Operand;
using ori::OperandKind;
using ori::SpecialReg;

/// Whether the instruction, by its opcode and operands alone, may be computed once in the
/// preheader instead of in the loop (rule 1 of the file comment).
bool movableKind(const Instr &in) {
  // Takes a value the compiler knows to be the same in every active thread; in the
  // preheader more threads may be active than where it stood (GUESS: kept in place).
  if (in.op == Opcode::R2UR)
    return false;
  // Warp votes, shuffles, mma.sync (their result depends on the active threads), loads other
  // than LDC, effects: Instr::isPureValue.
  return in.isPureValue();
}

struct HoistCtx {
  ori::Function &f;
  PhaseContext &pc;
  unsigned passId;
  std::vector<uint32_t> defCount; ///< per flat virtual register, over the whole function
  /// Liveness of the function as it stands: computed when a loop first needs it and dropped
  /// when a loop moves code (a loop that moves nothing leaves it valid for the next one;
  /// Rodinia myocyte spent a fifth of its compile recomputing it loop after loop).
  std::optional<ori::Liveness> lv;
};

uint32_t flat(const ori::Function &f, const Operand &v) { return f.flatRegIndex(v.cls, v.reg); }

/// The virtual registers `in` reads: uses (with memory bases, descriptors and constant-bank
/// indices) and the guard.
llvm::SmallVector<Operand, 8> readsOf(const Instr &in) {
  llvm::SmallVector<Operand, 8> r;
  for (const Operand &u : in.uses())
    for (const Operand &v : u.vregs())
      r.push_back(v);
  if (in.guard.kind == OperandKind::VReg)
    r.push_back(in.guard);
  for (const Operand &d : in.defs())
    if (d.kind == OperandKind::Mem)
      for (const Operand &v : d.vregs())
        r.push_back(v);
  return r;
}

bool hasBarrier(const ori::Function &f, const ori::Loop &l) {
  for (uint32_t b : l.blocks)
    for (const Instr &in : f.blocks[b].instrs)
      if (in.info().has(ori::OF_BAR))
        return true;
  return false;
}

/// Where hoisted code goes in the preheader: before a final `BRA header`, else at the end.
size_t insertionPoint(const ori::Block &pre) {
  if (!pre.instrs.empty() && pre.instrs.back().op == Opcode::BRA)
    return pre.instrs.size() - 1;
  return pre.instrs.size();
}

struct Budget {
  double main;   ///< instructions that move for the first time
  double nested; ///< instructions climbing a further loop level
  bool unlimited;
};

Budget budgetFor(const HoistCtx &c, uint32_t li) {
  const Knobs &k = c.pc.knobs;
  bool innermost = true;
  for (const ori::Loop &o : c.f.loops)
    if (o.parent == static_cast<int32_t>(li))
      innermost = false;
  Budget b{0, 0, false};
  if (innermost) {
    b.main = k.isSet(KnobId::HoistLoopInvBudget) ? k.getDouble(KnobId::HoistLoopInvBudget)
                                                 : (c.passId == 0 ? 22.0 : 100.0);
  } else {
    b.main = k.getDouble(KnobId::HoistBudget);
    b.unlimited = b.main == 0;
  }
  if (c.passId == 3)
    b.main *= 100;
  int64_t scale = k.getInt(KnobId::HoistConservativeScale);
  b.nested = scale > 0 ? std::floor(b.main / static_cast<double>(scale)) : b.main;
  if (k.getBool(KnobId::DisableNestedHoist))
    b.nested = 0;
  return b;
}

/// Hoists what it may out of loop `li` (whose dedicated preheader is `pre`); returns the
/// number of instructions moved.
/// The most units of class `cls` (R: 32-bit units) live at one point in `blocks` (a
/// backward walk of each block from its live-out set; a guarded definition kills nothing).
uint32_t blocksPressure(const ori::Function &f, const std::vector<uint32_t> &blocks,
                        const ori::Liveness &lv, ori::RegClass cls = ori::RegClass::R) {
  std::vector<uint8_t> width(f.numFlatRegs(), 0);
  for (uint32_t n = 0; n < f.numRegs(cls); ++n)
    width[f.flatRegIndex(cls, n)] = f.regInfo(cls, n).width;
  uint32_t most = 0;
  for (uint32_t b : blocks) {
    llvm::BitVector live = lv.liveOut[b];
    uint32_t units = 0;
    for (unsigned x : live.set_bits())
      units += width[x];
    most = std::max(most, units);
    const auto &instrs = f.blocks[b].instrs;
    for (auto it = instrs.rbegin(); it != instrs.rend(); ++it) {
      if (!it->isGuarded())
        for (const Operand &d : it->defs())
          if (d.kind == OperandKind::VReg && d.sub == ori::kWholeReg && live.test(flat(f, d)))
            live.reset(flat(f, d)), units -= width[flat(f, d)];
      for (const Operand &v : readsOf(*it))
        if (v.kind == OperandKind::VReg && !live.test(flat(f, v)))
          live.set(flat(f, v)), units += width[flat(f, v)];
      most = std::max(most, units);
    }
  }
  return most;
}

unsigned hoistLoop(HoistCtx &c, uint32_t li, uint32_t pre) {
  ori::Function &f = c.f;
  const ori::Loop &l = f.loops[li];
  const Budget budget = budgetFor(c, li);
  if (!budget.unlimited && budget.main < 1)
    return 0;

  if (!c.lv)
    c.lv = ori::computeLiveness(f);
  const ori::Liveness &lv = *c.lv;
  // Room for values live across the loop (see the file comment, "Register pressure").
  int64_t rate = c.pc.knobs.getInt(KnobId::HoistRRegPressureLimitApplyRate);
  uint32_t regs = f.maxRegs ? std::min(f.maxRegs, c.pc.target->maxRegisterCount())
                            : c.pc.target->maxRegisterCount();
  int64_t cap = (int64_t(regs > 3 ? regs - 3 : 0) * rate) / 100;
  if (rate > 0 && !c.pc.knobs.getBool(KnobId::HoistPastOccupancyStep)) {
    // Nor past the function's occupancy step: the most registers that keep as many warps
    // resident as its pressure before this hoist does (regalloc/occupancy.h).
    std::vector<uint32_t> all(f.blocks.size());
    for (uint32_t b = 0; b < all.size(); ++b)
      all[b] = b;
    uint32_t fn = blocksPressure(f, all, lv);
    cap = std::min<int64_t>(cap, int64_t(occupancyCeiling(*c.pc.target, fn + 3)) - 3);
  }
  int64_t pressureRoom =
      rate > 0 ? cap - int64_t(blocksPressure(f, l.blocks, lv)) : INT64_MAX;
  // Predicates too: past the P file, the allocator keeps predicates in R registers (SEL
  // and ISETP around every access, regalloc/spill.cpp), which costs more than the hoist
  // saves (ggml im2col: 146 such SELs, 30 registers).
  int64_t predRoom = int64_t(c.pc.target->registers().numPreds) -
                     int64_t(blocksPressure(f, l.blocks, lv, ori::RegClass::P));
  const llvm::BitVector &liveIntoHeader = lv.liveIn[l.header];
  llvm::BitVector definedInLoop(f.numFlatRegs());
  for (uint32_t b : l.blocks)
    for (const Instr &in : f.blocks[b].instrs)
      for (const Operand &d : in.defs())
        if (d.kind == OperandKind::VReg)
          definedInLoop.set(flat(f, d));

  // The loop's own blocks (not those of loops inside it), in reverse post-order, so that a
  // definition is seen before the instructions it feeds.
  std::vector<uint32_t> own;
  for (uint32_t b : l.blocks)
    if (f.blocks[b].loop == static_cast<int32_t>(li))
      own.push_back(b);
  std::sort(own.begin(), own.end(),
            [&](uint32_t a, uint32_t b) { return f.blocks[a].rpoIndex < f.blocks[b].rpoIndex; });

  auto canMove = [&](const Instr &in, uint32_t b) {
    if (in.isGuarded())
      return false;
    if (!movableKind(in))
      return false;
    if (in.op == Opcode::LDC && b != l.header)
      for (const Operand &u : in.uses())
        if (u.hasCbankIndex())
          return false;
    for (const Operand &v : readsOf(in))
      if (v.kind == OperandKind::VReg && definedInLoop.test(flat(f, v)))
        return false;
    for (const Operand &d : in.defs()) {
      if (d.kind != OperandKind::VReg)
        continue;
      uint32_t i = flat(f, d);
      if (c.defCount[i] != 1 || liveIntoHeader.test(i))
        return false;
    }
    return true;
  };

  unsigned moved = 0, movedNested = 0;
  for (bool changed = true; changed;) {
    changed = false;
    for (uint32_t b : own) {
      std::vector<Instr> &instrs = f.blocks[b].instrs;
      for (size_t k = 0; k < instrs.size();) {
        Instr &in = instrs[k];
        const bool nested = in.hasFlag(ori::IF_Hoisted_bit);
        bool room;
        if (nested && c.pc.knobs.getBool(KnobId::DisableNestedHoist))
          room = false;
        else if (budget.unlimited)
          room = true;
        else
          room = nested ? movedNested + 1 <= budget.nested : moved + 1 <= budget.main;
        int64_t rUnits = 0;
        for (const Operand &d : in.defs())
          if (d.kind == OperandKind::VReg && d.cls == ori::RegClass::R)
            rUnits += d.sub == ori::kWholeReg ? d.width : 1;
        int64_t pUnits = 0;
        for (const Operand &d : in.defs())
          if (d.kind == OperandKind::VReg && d.cls == ori::RegClass::P)
            ++pUnits;
        if (!room || rUnits > pressureRoom || pUnits > predRoom || !canMove(in, b)) {
          ++k;
          continue;
        }
        pressureRoom -= rUnits;
        predRoom -= pUnits;
        Instr m = std::move(in);
        instrs.erase(instrs.begin() + static_cast<std::ptrdiff_t>(k));
        for (const Operand &d : m.defs())
          if (d.kind == OperandKind::VReg)
            definedInLoop.reset(flat(f, d));
        m.flags |= ori::instrFlagMask(ori::IF_Hoisted_bit);
        ori::Block &pb = f.blocks[pre];
        pb.instrs.insert(pb.instrs.begin() + static_cast<std::ptrdiff_t>(insertionPoint(pb)),
                         std::move(m));
        (nested ? movedNested : moved) += 1;
        changed = true;
      }
    }
  }
  return moved + movedNested;
}

void hoistInvariants(ori::Function &f, PhaseContext &pc, unsigned passId) {
  if (!f.cfgAnalyzed || f.blocks.size() <= 2 || f.loops.empty())
    return;
  // Preheaders first (the CFG changes; afterwards it stays fixed while code moves).
  bool inserted = false;
  for (size_t round = 0, limit = f.loops.size() + 1; round < limit; ++round) {
    bool any = false;
    for (const ori::Loop &l : f.loops) {
      if (hasBarrier(f, l) || findDedicatedPreheader(f, l) || preheaderRefusal(f, l))
        continue;
      if (insertPreheader(f, l)) {
        any = true;
        break;
      }
    }
    if (!any)
      break;
    inserted = true;
    runAnalyzeControlFlow(f, pc);
  }

  HoistCtx c{f, pc, passId, {}, std::nullopt};
  c.defCount.assign(f.numFlatRegs(), 0);
  for (const ori::Block &blk : f.blocks)
    for (const Instr &in : blk.instrs)
      for (const Operand &d : in.defs())
        if (d.kind == OperandKind::VReg)
          ++c.defCount[flat(f, d)];

  unsigned moved = 0;
  // Function::loops lists a loop after the loops containing it: walking it backwards visits
  // inner loops first, so an instruction hoisted into an inner preheader (a block of the
  // outer loop) can climb again.
  for (size_t li = f.loops.size(); li-- > 0;) {
    const ori::Loop &l = f.loops[li];
    if (hasBarrier(f, l))
      continue;
    std::optional<uint32_t> pre = findDedicatedPreheader(f, l);
    if (!pre)
      continue;
    if (unsigned n = hoistLoop(c, static_cast<uint32_t>(li), *pre)) {
      moved += n;
      c.lv.reset();
    }
  }
  if (moved || inserted)
    f.recomputeRegTable();
}

} // namespace

void runOriHoistInvariantsEarly(ori::Function &f, PhaseContext &pc) { hoistInvariants(f, pc, 0); }
void runOriHoistInvariantsLate(ori::Function &f, PhaseContext &pc) { hoistInvariants(f, pc, 1); }
void runOriHoistInvariantsLate2(ori::Function &f, PhaseContext &pc) { hoistInvariants(f, pc, 2); }
void runOriHoistInvariantsLate3(ori::Function &f, PhaseContext &pc) { hoistInvariants(f, pc, 3); }

} // namespace ptxmini
