//===- phases/predication.cpp - OriPredication (phase 63): if-conversion ------------------===//
///
/// \file
/// Seed 004 places predication at 63, after GeneralOptimizeLate (58) and loop fusion (59),
/// "if-conversion" of short branches, and runs LICM again right after it (66) because a
/// predicated instruction under a loop-invariant guard may itself be invariant. The seeds
/// give neither its rules nor its knobs; what follows is the classic if-conversion
/// (Allen, Kennedy, Porterfield and Warren, "Conversion of control dependence to data
/// dependence", POPL 1983) on the two shapes ptxas visibly converts (HW: ptxas 13.0.88 -O3
/// on sm_90 turns `if (x > n) x = x * 3 + 7;` into `@P0 IMAD R9, R9, R0, 0x7` and an if/else
/// of ALU work into one unguarded arm plus one `@!P0` arm, but keeps the branch around an
/// arm that loads from global memory).
///
/// Shapes (layout order; H ends with a plain conditional `@[!]P BRA`, P a P-class register):
///   triangle  H: ... @P BRA X    T = H+1, entered only from H, leaving only to X (it falls
///             T: ...              through to X or ends with an unguarded `BRA X`)
///             X: ...              -> H: ...; T's body under @!P; T's `BRA X` if any
///   diamond   H: ... @P BRA E    T = H+1 and E = T+1, each entered only from H, T ending
///             T: ...; BRA X       with an unguarded `BRA X`, E leaving only to X
///             E: ...              -> H: ...; T's body under @!P; E's body under @P;
///             X: ...                 E's `BRA X` if any
/// The branch disappears, the arms' instructions move to the end of H (T and E become empty
/// and are removed), and when X is H's next block and has no other predecessor it is merged
/// into H too, so the blocks the scheduler sees grow and InsertReconvergence (96) finds no
/// divergent branch to bracket with BSSY/BSYNC.
///
/// An arm is converted only when every instruction in it may run under a guard:
///   - not already guarded (combining two guards would need a PLOP3; not done);
///   - no branch or terminator other than the final `BRA X`, no call, no barrier or fence,
///     no warp-synchronous operation (OF_WARP: shuffles, votes, reconvergence, mma.sync):
///     their effect depends on which threads arrive together, which predication changes;
///   - nothing on the uniform datapath (a uniform instruction takes a UP guard, not a P);
///   - no memory load other than LDC, and no atomic. A guarded load does not execute, so it
///     could not fault; the rule is a profitability GUESS following ptxas (above), which
///     keeps a long-latency load behind its branch. Stores (and RED) are fine: under the
///     guard they happen exactly when the branch would have run them;
///   - no other side effect, no R2P / P2R (predicates the operand list does not name), no
///     physical register (ABI registers are not tracked by liveness);
///   - it does not write P (the guard must keep its value over both arms).
/// The two arms together hold at most OriPredicationBudget instructions (GUESS: the seeds
/// name no knob; 4 by default: 8 made ggml argsort.ptx spill 4,160 bytes where 4 spills none).
///
/// Speculation (ptxas's unguarded arm): an instruction of an arm runs unguarded when it is
/// pure (no effect, no load but an index-free LDC, no unstable special register) and every
/// register it writes is dead where the other path needs it: not live into X, and for T's
/// instructions not live into E; a register live into X that E overwrites whole (after T in
/// the merged block) counts as dead for T. Its writes are then temporaries of the arm, and an
/// unguarded write lets the allocator end the old value's live range there.
/// Repeated until nothing converts (at most 4 rounds), so an inner if converted first does
/// not make its outer one convertible (its body is now guarded). Liveness is computed once
/// per round, not after each conversion (ggml argsort: 1,286 conversions, a quarter of the
/// compile in liveness): a conversion changes only H (T and E become empty and unreachable),
/// later candidates of the round read liveIn of blocks after their own header, and the
/// program's meaning is unchanged, so the round-start sets still over-approximate what is
/// truly live. A recomputation would only add registers that guarded definitions fail to
/// kill (the non-SSA imprecision), never remove one, so speculating against the round-start
/// sets is safe; the next round starts from fresh sets.
/// DUMPIR prints one line per candidate: converted, or kept with the reason.
//===----------------------------------------------------------------------------------===//
#include "ori/analysis/liveness.h"
#include "ori/cfg.h"
#include "phases/phase_manager.h"

#include "llvm/ADT/BitVector.h"

#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace ptxmini {
namespace {

using ori::Instr;
using ori::Opcode;
using ori::Operand;
using ori::OperandKind;

bool isUnguardedBraTo(const Instr &in, uint32_t x) {
  return in.isPlainBranch() && in.guard.kind == OperandKind::None && in.uses()[0].reg == x;
}

/// Why `in` may not run under a guard; nullptr when it may.
const char *guardRefusal(const Instr &in, const Operand &p) {
  const ori::OpcodeInfo &info = in.info();
  if (in.guard.kind != OperandKind::None)
    return "already guarded";
  if (info.has(ori::OF_BR) || info.has(ori::OF_TERM))
    return "branch or exit";
  if (in.op == Opcode::CALL || in.op == Opcode::LEPC)
    return "call";
  if (info.has(ori::OF_BAR))
    return "barrier";
  if (info.has(ori::OF_WARP))
    return "warp-synchronous";
  if (info.has(ori::OF_UNI))
    return "uniform datapath";
  if (info.has(ori::OF_LD) && in.op != Opcode::LDC)
    return "load";
  if (info.has(ori::OF_SIDE) && !info.has(ori::OF_ST))
    return "side effect";
  if (in.op == Opcode::R2P || in.op == Opcode::P2R)
    return "implicit predicates";
  for (const Operand &o : in.ops) {
    if (o.kind == OperandKind::PReg && !o.isFixed())
      return "physical register";
    for (const Operand &v : o.vregs())
      if (v.kind == OperandKind::PReg && !v.isFixed())
        return "physical register";
  }
  if (in.writesVReg(p.cls, p.reg))
    return "writes the guard";
  return nullptr;
}

/// Whether `in` may run where it was not going to (no effect, cannot fault, same value).
bool speculatable(const Instr &in) {
  const ori::OpcodeInfo &info = in.info();
  if (in.hasEffects() || info.has(ori::OF_WARP) || info.has(ori::OF_UNI))
    return false;
  if (info.has(ori::OF_LD)) {
    if (in.op != Opcode::LDC)
      return false;
    for (const Operand &u : in.uses())
      if (u.hasCbankIndex())
        return false;
  }
  for (const Operand &o : in.ops)
    if (o.kind == OperandKind::SReg &&
        !ori::specialRegIsStable(static_cast<ori::SpecialReg>(o.reg)))
      return false;
  if (in.numDefs == 0)
    return false;
  for (const Operand &d : in.defs())
    if (d.kind != OperandKind::VReg)
      return false;
  return true;
}

/// An arm: blocks first..last in layout order, each after the first entered only by falling
/// out of the one before it (empty blocks the lowering leaves between a branch and its
/// target are part of the arm).
struct Arm {
  uint32_t first = 0, last = 0;
};

struct Candidate {
  uint32_t h = 0;
  Arm t;                ///< the fall-through arm
  std::optional<Arm> e; ///< diamond: the taken arm
  uint32_t x = 0;       ///< the join
};

struct PredCtx {
  ori::Function &f;
  int64_t budget;
  std::ostringstream notes;
  bool noteKept = true; ///< first round only (later rounds would repeat the lines)
};

bool endsWithControl(const ori::Block &b) {
  return !b.instrs.empty() &&
         (b.instrs.back().info().has(ori::OF_BR) || b.instrs.back().info().has(ori::OF_TERM));
}

/// The arm starting at block s.
Arm armFrom(const ori::Function &f, uint32_t s) {
  uint32_t b = s;
  while (!endsWithControl(f.blocks[b]) && b + 1 < f.blocks.size() &&
         f.blocks[b + 1].preds.size() == 1 && f.blocks[b + 1].preds[0] == b)
    ++b;
  return Arm{s, b};
}

/// Whether control leaves block b only for block x (an unguarded `BRA x`, or falling
/// through to x = b + 1).
bool leavesOnlyTo(const ori::Function &f, uint32_t b, uint32_t x) {
  const ori::Block &blk = f.blocks[b];
  if (!blk.instrs.empty() && blk.instrs.back().info().has(ori::OF_BR))
    return isUnguardedBraTo(blk.instrs.back(), x);
  if (!blk.instrs.empty() && blk.instrs.back().info().has(ori::OF_TERM))
    return false;
  return b + 1 == x;
}

/// The arm's instructions, its final branch excluded.
std::vector<const Instr *> armBody(const ori::Function &f, const Arm &a) {
  std::vector<const Instr *> v;
  for (uint32_t b = a.first; b <= a.last; ++b)
    for (const Instr &in : f.blocks[b].instrs)
      v.push_back(&in);
  if (!v.empty() && v.back()->isPlainBranch())
    v.pop_back();
  return v;
}

/// Matches a triangle or diamond at H; on a near miss writes the reason.
std::optional<Candidate> match(const ori::Function &f, uint32_t h, std::string &why) {
  const ori::Block &hb = f.blocks[h];
  if (hb.instrs.empty())
    return std::nullopt;
  const Instr &br = hb.instrs.back();
  if (!br.isPlainBranch() || !br.isGuarded() || br.guard.kind != OperandKind::VReg)
    return std::nullopt;
  if (br.guard.cls != ori::RegClass::P) {
    why = "uniform predicate";
    return std::nullopt;
  }
  const uint32_t taken = br.uses()[0].reg;
  const uint32_t t = h + 1;
  if (t >= f.blocks.size() || taken <= t)
    return std::nullopt; // a loop's back edge, or a branch to the next block
  const ori::Block &tb = f.blocks[t];
  if (tb.preds.size() != 1 || tb.preds[0] != h) {
    why = "fall-through arm has other predecessors";
    return std::nullopt;
  }
  const Arm ta = armFrom(f, t);
  if (taken > ta.last && leavesOnlyTo(f, ta.last, taken))
    return Candidate{h, ta, std::nullopt, taken};
  // Diamond: T ends with BRA X, the taken arm E follows it.
  const ori::Block &tl = f.blocks[ta.last];
  if (taken != ta.last + 1 || tl.instrs.empty() || !tl.instrs.back().isPlainBranch() ||
      tl.instrs.back().guard.kind != OperandKind::None) {
    why = "not a triangle or diamond";
    return std::nullopt;
  }
  const uint32_t x = tl.instrs.back().uses()[0].reg;
  const ori::Block &eb = f.blocks[taken];
  if (eb.preds.size() != 1 || eb.preds[0] != h) {
    why = "taken arm has other predecessors";
    return std::nullopt;
  }
  const Arm ea = armFrom(f, taken);
  if ((x >= h && x <= ea.last) || !leavesOnlyTo(f, ea.last, x)) {
    why = "arms do not join";
    return std::nullopt;
  }
  return Candidate{h, ta, ea, x};
}

/// Moves the arm's body (its final plain BRA excluded) to the end of `into`, guarded by `g`
/// unless speculation allows it to run unguarded; returns the final BRA if there was one.
std::optional<Instr> moveArm(ori::Function &f, const Arm &a, uint32_t into, const Operand &g,
                             const llvm::BitVector &mustNotClobber) {
  std::vector<Instr> body;
  for (uint32_t b = a.first; b <= a.last; ++b) {
    for (Instr &in : f.blocks[b].instrs)
      body.push_back(std::move(in));
    f.blocks[b].instrs.clear();
  }
  std::optional<Instr> last;
  if (!body.empty() && body.back().isPlainBranch()) {
    last = std::move(body.back());
    body.pop_back();
  }
  for (Instr &in : body) {
    bool spec = speculatable(in);
    for (const Operand &d : in.defs())
      if (d.kind == OperandKind::VReg && mustNotClobber.test(f.flatRegIndex(d.cls, d.reg)))
        spec = false;
    if (!spec)
      in.guard = g;
    f.blocks[into].instrs.push_back(std::move(in));
  }
  return last;
}

/// Tries to convert at H. Returns true when the code changed.
bool convertAt(PredCtx &c, uint32_t h, std::optional<ori::Liveness> &lvCache) {
  ori::Function &f = c.f;
  std::string why;
  std::optional<Candidate> cand = match(f, h, why);
  const std::string &hname = f.blocks[h].name;
  if (!cand) {
    if (!why.empty() && c.noteKept)
      c.notes << "# OriPredication: kept " << hname << ": " << why << "\n";
    return false;
  }
  const Operand p = f.blocks[h].instrs.back().guard;
  auto keep = [&](const std::string &reason) {
    if (c.noteKept)
      c.notes << "# OriPredication: kept " << hname << ": " << reason << "\n";
    return false;
  };
  std::vector<const Instr *> tBody = armBody(f, cand->t), eBody;
  if (cand->e)
    eBody = armBody(f, *cand->e);
  size_t n = tBody.size() + eBody.size();
  if (n == 0)
    return keep("empty arm");
  if (static_cast<int64_t>(n) > c.budget)
    return keep("over budget (" + std::to_string(n) + " > " + std::to_string(c.budget) + ")");
  for (const auto *body : {&tBody, &eBody})
    for (const Instr *in : *body)
      if (const char *r = guardRefusal(*in, p))
        return keep(r);

  if (!lvCache)
    lvCache = ori::computeLiveness(f);
  const ori::Liveness &lv = *lvCache;
  // The branch is taken when P holds: T runs under !P, E under P.
  Operand notP = p;
  notP.mods ^= ori::OM_NOT;
  llvm::BitVector clobberT = lv.liveIn[cand->x];
  if (cand->e) {
    // A register E writes whole and unguarded is overwritten on E's path after T's
    // unguarded write, so T may clobber it even when it is live at X (ptxas's unguarded arm).
    for (const Instr *in : eBody)
      for (const Operand &d : in->defs())
        if (d.kind == OperandKind::VReg && d.sub == ori::kWholeReg)
          clobberT.reset(f.flatRegIndex(d.cls, d.reg));
    clobberT |= lv.liveIn[cand->e->first];
  }
  const llvm::BitVector &clobberE = lv.liveIn[cand->x];

  std::string tname = f.blocks[cand->t.first].name;
  std::string ename = cand->e ? f.blocks[cand->e->first].name : std::string();
  f.blocks[h].instrs.pop_back(); // the conditional branch
  std::optional<Instr> tail = moveArm(f, cand->t, h, notP, clobberT);
  if (cand->e)
    tail = moveArm(f, *cand->e, h, p, clobberE);
  if (tail)
    f.blocks[h].instrs.push_back(std::move(*tail));
  c.notes << "# OriPredication: " << (cand->e ? "diamond " : "triangle ") << hname << " <- "
          << tname << (cand->e ? "," + ename : std::string()) << " ("
          << n << " instructions)\n";
  return true;
}

/// Appends block b + 1 to b while b ends without a branch or terminator and b + 1 is
/// entered only by falling out of b (no label names it); then removes the empty,
/// unlabelled blocks left behind (ori::removeEmptyUnlabelledBlocks).
void mergeAndCompact(ori::Function &f, const std::vector<bool> &touched) {
  // Moving instructions between blocks changes no label operand's target.
  const std::vector<bool> labelled = ori::labelledBlocks(f);
  auto isLabelled = [&](const ori::Function &, uint32_t b) { return bool(labelled[b]); };
  for (uint32_t b = 0; b + 1 < f.blocks.size(); ++b) {
    if (!touched[b])
      continue;
    for (;;) {
      ori::Block &blk = f.blocks[b];
      if (!blk.instrs.empty() && (blk.instrs.back().info().has(ori::OF_BR) ||
                                  blk.instrs.back().info().has(ori::OF_TERM)))
        break;
      uint32_t n = b + 1;
      while (n < f.blocks.size() && f.blocks[n].instrs.empty() && !isLabelled(f, n))
        ++n;
      if (n >= f.blocks.size() || isLabelled(f, n) || f.blocks[n].noUnroll)
        break;
      // Every block between b and n is empty and unlabelled, so n's predecessors are b or
      // those empty blocks (entered only from b).
      std::vector<Instr> moved = std::move(f.blocks[n].instrs);
      f.blocks[n].instrs.clear();
      for (Instr &in : moved)
        f.blocks[b].instrs.push_back(std::move(in));
    }
  }
  ori::removeEmptyUnlabelledBlocks(f);
}

} // namespace

void runOriPredication(ori::Function &f, PhaseContext &pc) {
  const bool analyzed = f.cfgAnalyzed;
  PredCtx c{f, pc.knobs.getInt(KnobId::OriPredicationBudget), {}, true};
  if (c.budget <= 0 || f.blocks.size() < 2)
    return;
  bool any = false;
  // A few rounds: an if whose inner if converted into unguarded (speculated) code may
  // become a triangle itself once the merged blocks are one.
  for (unsigned round = 0; round < 4; ++round) {
    ori::buildCFG(f);
    std::vector<bool> touched(f.blocks.size(), false);
    std::optional<ori::Liveness> lv;
    bool changed = false;
    for (uint32_t h = 0; h < f.blocks.size(); ++h) {
      // Liveness is computed when first needed, once per round (see the file comment).
      if (!convertAt(c, h, lv))
        continue;
      touched[h] = true;
      changed = true;
      ori::buildCFG(f);
    }
    c.noteKept = false;
    if (!changed)
      break;
    any = true;
    mergeAndCompact(f, touched);
  }
  pc.dumpNotes += c.notes.str();
  if (!any)
    return;
  ori::buildCFG(f);
  if (analyzed)
    runAnalyzeControlFlow(f, pc);
  f.recomputeRegTable();
}

} // namespace ptxmini
