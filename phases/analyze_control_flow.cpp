//===- phases/analyze_control_flow.cpp - phase 3 AnalyzeControlFlow ---------------------===//
///
/// \file
/// The prerequisite of every loop pass (seed 004: "identifies back-edges, computes
/// dominators, and annotates each basic block with a loop nesting depth"; the RPO array and
/// the back-edge map live in the code object). Algorithm:
///   1. rebuild preds/succs from the terminators (ori/cfg.h);
///   2. reverse post-order from the entry (ori/analysis/rpo.h);
///   3. immediate dominators, Cooper-Harvey-Kennedy (ori/analysis/dominators.h);
///   4. back-edges = retreating edges to a dominator; natural loops per header, nesting and
///      depth; retreating edges to non-dominators are recorded as irreducible
///      (ori/analysis/loops.h);
///   5. store it all in the Function (rpo, backEdges, irreducibleEdges, loops, cfgAnalyzed)
///      and its Blocks (rpoIndex, idom, loopDepth, loop, isLoopHeader).
/// It changes no instruction. It runs at every -O level; DisablePhases=AnalyzeControlFlow
/// leaves the function's analysis fields as they were.
//===----------------------------------------------------------------------------------===//
#include "ori/analysis/dominators.h"
#include "ori/analysis/loops.h"
#include "ori/analysis/rpo.h"
#include "ori/cfg.h"
#include "phases/phase_manager.h"

namespace ptxmini {

void runAnalyzeControlFlow(ori::Function &f, PhaseContext &) {
  ori::buildCFG(f);
  std::vector<uint32_t> rpo = ori::computeRPO(f);
  ori::DomTree dt(f, rpo);
  ori::LoopForest lf = ori::computeLoops(f, rpo, dt);
  std::vector<int32_t> pos = ori::rpoPositions(f, rpo);
  for (uint32_t b = 0; b < f.blocks.size(); ++b) {
    ori::Block &blk = f.blocks[b];
    blk.rpoIndex = pos[b];
    blk.idom = dt.idom(b);
    blk.loopDepth = lf.depth[b];
    blk.loop = lf.innermost[b];
    blk.isLoopHeader = false;
  }
  for (const ori::Loop &l : lf.loops)
    f.blocks[l.header].isLoopHeader = true;
  f.rpo = std::move(rpo);
  f.backEdges = std::move(lf.backEdges);
  f.irreducibleEdges = std::move(lf.irreducibleEdges);
  f.loops = std::move(lf.loops);
  f.cfgAnalyzed = true;
}

} // namespace ptxmini
