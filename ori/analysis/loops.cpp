//===- ori/analysis/loops.cpp - back-edges and natural loops ----------------------------===//
///
/// \file
/// See loops.h. Loop bodies are found by the classic backward walk from each latch over
/// predecessors, stopping at the header and ignoring unreachable predecessors. Since natural
/// loops with distinct headers are either disjoint or nested, the parent of a loop is the
/// smallest loop containing its header, and depth is the parent's depth plus one.
//===----------------------------------------------------------------------------------===//
#include "ori/analysis/loops.h"

#include "ori/analysis/rpo.h"

#include "llvm/ADT/BitVector.h"

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

  std::vector<llvm::BitVector> members;
  for (auto &[hpos, latches] : latchesByHeaderPos) {
    Loop l;
    l.header = rpo[hpos];
    std::sort(latches.begin(), latches.end());
    latches.erase(std::unique(latches.begin(), latches.end()), latches.end());
    l.latches.assign(latches.begin(), latches.end());
    llvm::BitVector in(n);
    in.set(l.header);
    std::vector<uint32_t> work;
    for (uint32_t latch : latches)
      if (!in.test(latch)) {
        in.set(latch);
        work.push_back(latch);
      }
    while (!work.empty()) {
      uint32_t b = work.back();
      work.pop_back();
      for (uint32_t p : f.blocks[b].preds)
        if (pos[p] >= 0 && !in.test(p)) {
          in.set(p);
          work.push_back(p);
        }
    }
    for (unsigned b : in.set_bits())
      l.blocks.push_back(b);
    members.push_back(std::move(in));
    lf.loops.push_back(std::move(l));
  }

  // Nesting: loops are in header-RPO order, so any loop containing loop i comes before it.
  for (size_t i = 0; i < lf.loops.size(); ++i) {
    Loop &l = lf.loops[i];
    for (size_t j = 0; j < i; ++j)
      if (members[j].test(l.header) &&
          (l.parent < 0 || lf.loops[j].blocks.size() < lf.loops[l.parent].blocks.size()))
        l.parent = static_cast<int32_t>(j);
    l.depth = l.parent < 0 ? 1 : lf.loops[l.parent].depth + 1;
    for (uint32_t b : l.blocks)
      if (lf.innermost[b] < 0 || lf.loops[lf.innermost[b]].depth < l.depth)
        lf.innermost[b] = static_cast<int32_t>(i);
  }
  for (size_t b = 0; b < n; ++b)
    lf.depth[b] = lf.innermost[b] < 0 ? 0 : lf.loops[lf.innermost[b]].depth;
  return lf;
}

} // namespace ptxmini::ori
