//===- scheduler/list_sched.cpp - ScheduleInstructionsPostRA: list scheduling in blocks -===//
///
/// \file
/// Reorders each block's instructions along its dependence graph (dep_graph.h) to hide
/// latency, after register allocation (so register pressure cannot change; the false
/// dependences allocation created are edges like any other). A cycle-by-cycle list
/// scheduler, one instruction per cycle:
///   - ready: every predecessor placed; available: the cycle each predecessor's latency
///     allows has come;
///   - among the available, the greatest height first (the seed's level 1: the critical path
///     to the end of the block), then the earlier original position (determinism, and the
///     input order where nothing says otherwise);
///   - when nothing is available the clock jumps to the earliest available cycle.
/// Memory order, side effects, fences and the final control transfer are edges, so they hold.
/// Control codes are computed afterwards (ComputeControlCodes) for the new order.
//===----------------------------------------------------------------------------------===//
#include "phases/phase_manager.h"
#include "scheduler/dep_graph.h"

#include <algorithm>

namespace ptxmini {

void runScheduleInstructionsPostRA(ori::Function &f, PhaseContext &ctx) {
  const Target &t = *ctx.target;
  for (ori::Block &b : f.blocks) {
    size_t n = b.instrs.size();
    if (n < 3)
      continue;
    std::vector<sched::InstrDeps> deps;
    for (const ori::Instr &in : b.instrs)
      deps.push_back(sched::instrDeps(in, t));
    sched::DepGraph g = sched::buildDepGraph(b, deps, t);
    std::vector<uint32_t> preds = g.numPreds;
    std::vector<uint64_t> avail(n, 0);
    std::vector<uint32_t> ready, order;
    for (uint32_t i = 0; i < n; ++i)
      if (!preds[i])
        ready.push_back(i);
    uint64_t clock = 0;
    while (!ready.empty()) {
      int best = -1;
      uint64_t soonest = UINT64_MAX;
      for (size_t k = 0; k < ready.size(); ++k) {
        uint32_t i = ready[k];
        soonest = std::min(soonest, avail[i]);
        if (avail[i] > clock)
          continue;
        if (best < 0) {
          best = static_cast<int>(k);
          continue;
        }
        uint32_t c = ready[static_cast<size_t>(best)];
        if (g.height[i] > g.height[c] || (g.height[i] == g.height[c] && i < c))
          best = static_cast<int>(k);
      }
      if (best < 0) {
        clock = soonest;
        continue;
      }
      uint32_t i = ready[static_cast<size_t>(best)];
      ready.erase(ready.begin() + best);
      order.push_back(i);
      for (const sched::DepEdge &e : g.succs[i]) {
        avail[e.to] = std::max(avail[e.to], clock + e.latency);
        if (--preds[e.to] == 0)
          ready.push_back(e.to);
      }
      ++clock;
    }
    if (order.size() != n)
      continue; // cannot happen (edges go forward); keep the input order if it did
    std::vector<ori::Instr> out;
    out.reserve(n);
    for (uint32_t i : order)
      out.push_back(std::move(b.instrs[i]));
    b.instrs = std::move(out);
  }
}

} // namespace ptxmini
