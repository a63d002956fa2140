//===- phases/hot_cold_in_loop.cpp - OptimizeHotColdInLoop (phase 108) ------------------===//
///
/// \file
/// Seed 004, related passes: "108 OptimizeHotColdInLoop -- Post-RA hot/cold partitioning
/// within loop bodies" ("separates hot/cold paths within loops (post-RA)"). The seed gives
/// neither algorithm nor knobs; without profile data (PerformPGO is not implemented) this
/// phase takes as cold what a loop iteration can only leave by: a block that ends the thread
/// (its last instruction an unguarded EXIT, RET or BPT, no successor) lying in the layout
/// range of a loop (after its header, before its last block) while not part of it. Such a
/// block -- the `if (error) { store; return; }` of a loop -- splits the hot path: every
/// iteration that stays in the loop branches over it. Moving it after the function's last
/// block makes the loop's blocks contiguous and turns the branch over the cold block into a
/// branch to it that the hot path does not take.
///
/// Per loop, innermost first (Function::loops lists outer loops first; visited in reverse),
/// each block C with header < C < the loop's last block, C not in the loop, is moved when:
///   - C has no successor (ends in an unconditional EXIT / RET / BPT) and all its
///     predecessors are in the loop;
///   - C holds no warp-synchronous or reconvergence instruction (BSSY, BSYNC, WARPSYNC, bar,
///     vote, shuffle: opcodes.def OF_WARP) and no BSSY names it as its join;
///   - the block before C either does not fall into C (it ends in an unconditional branch
///     or terminator), or ends in `@g BRA C+1` -- a conditional branch over C -- which
///     becomes `@!g BRA C` (the guard inverted, a physical predicate after allocation), so
///     the block falls into C+1 as before the branch did; C+1 must not end the thread
///     itself (it could be moved too). Else C stays ("falls in from a block that does not
///     branch over it").
/// Moved blocks keep their order, after the last block (which ends in an unconditional
/// terminator: checked, else nothing moves). Register allocation is done, and moving a block
/// changes neither a register nor a path any thread takes, so the phase is exact; label
/// operands are renumbered.
///
/// DUMPIR prints one line per candidate and `# [cold blocks moved=N] [kept=M]`.
//===----------------------------------------------------------------------------------===//
#include "ori/cfg.h"
#include "phases/phase_manager.h"

#include <algorithm>
#include <sstream>
#include <vector>

namespace ptxmini {
namespace {

using ori::Instr;
using ori::Opcode;
using ori::Operand;
using ori::OperandKind;

bool endsThread(const ori::Block &blk) {
  if (blk.instrs.empty() || !blk.succs.empty())
    return false;
  const Instr &last = blk.instrs.back();
  return (last.op == Opcode::EXIT || last.op == Opcode::RET || last.op == Opcode::BPT) &&
         last.isUnconditionalTerminator();
}

/// Blocks a BSSY names as its reconvergence point.
std::vector<bool> joinBlocks(const ori::Function &f) {
  std::vector<bool> j(f.blocks.size(), false);
  for (const ori::Block &blk : f.blocks)
    for (const Instr &in : blk.instrs)
      if (in.op == Opcode::BSSY)
        for (const Operand &o : in.uses())
          if (o.kind == OperandKind::Block && o.reg < j.size())
            j[o.reg] = true;
  return j;
}

/// Why C may not move (nullptr: it may). `flip` is set when the block before C branches
/// over it and its guard must be inverted.
const char *refusal(const ori::Function &f, const ori::Loop &l, uint32_t c,
                    const std::vector<bool> &joins, bool &flip) {
  flip = false;
  const ori::Block &blk = f.blocks[c];
  for (uint32_t p : blk.preds)
    if (!std::binary_search(l.blocks.begin(), l.blocks.end(), p))
      return "entered from outside the loop";
  if (joins[c])
    return "join of a reconvergence region";
  for (const Instr &in : blk.instrs)
    if (in.info().has(ori::OF_WARP))
      return "warp-synchronous or reconvergence code";
  const ori::Block &prev = f.blocks[c - 1];
  if (prev.instrs.empty())
    return "falls in from a block that does not branch over it";
  const Instr &last = prev.instrs.back();
  if (last.isUnconditionalTerminator())
    return nullptr;
  if (last.isPlainBranch() && last.isGuarded() && last.guard.isReg() && !last.guard.isFixed() &&
      last.uses()[0].reg == c + 1) {
    // C + 1, where the branch went, must stay where it is (not a cold block moved too).
    if (endsThread(f.blocks[c + 1]))
      return "falls in from a block that does not branch over it";
    flip = true;
    return nullptr;
  }
  return "falls in from a block that does not branch over it";
}

} // namespace

void runOptimizeHotColdInLoop(ori::Function &f, PhaseContext &pc) {
  // The loop facts are refreshed where AnalyzeControlFlow ran (allocation may have edited
  // blocks); a pipeline without it gets no loops and no change.
  if (!f.cfgAnalyzed) {
    pc.dumpNotes += "# hot/cold: no CFG facts (AnalyzeControlFlow did not run)\n";
    return;
  }
  runAnalyzeControlFlow(f, pc);
  std::ostringstream notes;
  unsigned moved = 0, kept = 0;
  std::vector<bool> cold(f.blocks.size(), false);
  if (!f.blocks.empty() && f.blocks.back().instrs.size() &&
      f.blocks.back().instrs.back().isUnconditionalTerminator()) {
    const std::vector<bool> joins = joinBlocks(f);
    for (size_t li = f.loops.size(); li-- > 0;) {
      const ori::Loop &l = f.loops[li];
      const uint32_t h = l.header, end = l.blocks.back();
      for (uint32_t c = h + 1; c < end; ++c) {
        if (cold[c] || std::binary_search(l.blocks.begin(), l.blocks.end(), c) ||
            !endsThread(f.blocks[c]))
          continue;
        bool flip = false;
        if (const char *why = refusal(f, l, c, joins, flip)) {
          notes << "# hot/cold: " << f.blocks[c].name << " in loop " << f.blocks[h].name
                << " kept: " << why << "\n";
          ++kept;
          continue;
        }
        if (flip) {
          Instr &br = f.blocks[c - 1].instrs.back();
          br.guard.mods ^= ori::OM_NOT;
          br.uses()[0].reg = c;
        }
        cold[c] = true;
        notes << "# hot/cold: " << f.blocks[c].name << " moved out of loop "
              << f.blocks[h].name << " (" << f.blocks[c].instrs.size() << " instructions)\n";
        ++moved;
      }
    }
  }
  if (moved) {
    // New layout: the hot blocks in order, then the cold ones in order.
    std::vector<uint32_t> order;
    for (uint32_t b = 0; b < f.blocks.size(); ++b)
      if (!cold[b])
        order.push_back(b);
    for (uint32_t b = 0; b < f.blocks.size(); ++b)
      if (cold[b])
        order.push_back(b);
    ori::reorderBlocks(f, order);
    runAnalyzeControlFlow(f, pc);
  }
  notes << "# [cold blocks moved=" << moved << "] [kept=" << kept << "]\n";
  pc.dumpNotes += notes.str();
}

} // namespace ptxmini
