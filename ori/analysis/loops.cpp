//===- ori/analysis/loops.cpp - back-edges and natural loops ----------------------------===//
///
/// \file
/// See loops.h. Loop bodies are found by the classic backward walk from each latch over
/// predecessors, stopping at the header and ignoring unreachable predecessors. Since natural
/// loops with distinct headers are either disjoint or nested, the parent of a loop is the
/// innermost earlier loop containing its header, and depth is the parent's depth plus one.
/// Time O(sum of loop sizes + edges), memory O(blocks).
//===----------------------------------------------------------------------------------===//
#include "ori/analysis/loops.h"

#include "ori/analysis/rpo.h"

#include <algorithm>
#include <map>

namespace ptxmini::ori {

LoopForest computeLoops(const Function &f, const std::vector<uint32_t> &rpo, const DomTree &dt) {
  LoopForest lf;
  size_t n = f.blocks.size();
  lf.depth.assign(n, 0);
  lf.innermost.assign(n, -1);
  std::vector<int32_t> pos = rpoPositions(f, rpo);

  // Classify retreating edges. Keyed by header so loops come out in header order.
  std::map<int32_t, std::vector<uint32_t>> latchesByHeaderPos;
  for (uint32_t u = 0; u < n; ++u) {
    if (pos[u] < 0)
      continue;
    for (uint32_t v : f.blocks[u].succs) {
      if (pos[v] < 0 || pos[v] > pos[u])
        continue;
      if (dt.dominates(v, u)) {
        lf.backEdges.push_back({u, v});
        latchesByHeaderPos[pos[v]].push_back(u);
      } else {
        lf.irreducibleEdges.push_back({u, v});
      }
    }
  }
  std::sort(lf.backEdges.begin(), lf.backEdges.end());
  std::sort(lf.irreducibleEdges.begin(), lf.irreducibleEdges.end());

  // Loop bodies. `stamp[b] == loop index + 1` marks membership of the loop being built, so
  // one scratch array serves every loop (no per-loop bit vector: memory stays O(blocks)).
  // Loops are visited in header-RPO order, so every loop containing loop i was built before
  // it, and the last one built that contains i's header is i's innermost enclosing loop
  // (containing loops form a chain whose headers appear in RPO from outer to inner).
  std::vector<uint32_t> stamp(n, 0);
  std::vector<int32_t> innermostSoFar(n, -1);
  for (auto &[hpos, latches] : latchesByHeaderPos) {
    uint32_t idx = static_cast<uint32_t>(lf.loops.size());
    uint32_t mark = idx + 1;
    Loop l;
    l.header = rpo[hpos];
    std::sort(latches.begin(), latches.end());
    latches.erase(std::unique(latches.begin(), latches.end()), latches.end());
    l.latches.assign(latches.begin(), latches.end());
    stamp[l.header] = mark;
    l.blocks.push_back(l.header);
    std::vector<uint32_t> work;
    for (uint32_t latch : latches)
      if (stamp[latch] != mark) {
        stamp[latch] = mark;
        l.blocks.push_back(latch);
        work.push_back(latch);
      }
    while (!work.empty()) {
      uint32_t b = work.back();
      work.pop_back();
      for (uint32_t p : f.blocks[b].preds)
        if (pos[p] >= 0 && stamp[p] != mark) {
          stamp[p] = mark;
          l.blocks.push_back(p);
          work.push_back(p);
        }
    }
    std::sort(l.blocks.begin(), l.blocks.end());
    l.parent = innermostSoFar[l.header];
    l.depth = l.parent < 0 ? 1 : lf.loops[l.parent].depth + 1;
    for (uint32_t b : l.blocks)
      innermostSoFar[b] = static_cast<int32_t>(idx);
    lf.loops.push_back(std::move(l));
  }
  lf.innermost = std::move(innermostSoFar);
  for (size_t b = 0; b < n; ++b)
    lf.depth[b] = lf.innermost[b] < 0 ? 0 : lf.loops[lf.innermost[b]].depth;
  return lf;
}

} // namespace ptxmini::ori
