//===- ori/analysis/dominators.cpp - dominator tree (Cooper-Harvey-Kennedy) -------------===//
///
/// \file
/// See dominators.h. During the iteration the entry is its own dominator (the algorithm's
/// sentinel); the public result reports kNoBlock for it. Dominance queries walk the idom
/// chain upward, which is O(depth of the tree) and plenty for the block counts we see.
//===----------------------------------------------------------------------------------===//
#include "ori/analysis/dominators.h"

#include "ori/analysis/rpo.h"

namespace ptxmini::ori {

DomTree::DomTree(const Function &f, const std::vector<uint32_t> &rpo)
    : idom_(f.blocks.size(), kNoBlock), pos_(rpoPositions(f, rpo)) {
  if (rpo.empty())
    return;
  std::vector<int32_t> doms(f.blocks.size(), -1);
  uint32_t entry = rpo[0];
  doms[entry] = static_cast<int32_t>(entry);
  auto intersect = [&](int32_t a, int32_t b) {
    while (a != b) {
      while (pos_[a] > pos_[b])
        a = doms[a];
      while (pos_[b] > pos_[a])
        b = doms[b];
    }
    return a;
  };
  bool changed = true;
  while (changed) {
    changed = false;
    for (size_t i = 1; i < rpo.size(); ++i) {
      uint32_t b = rpo[i];
      int32_t newIdom = -1;
      for (uint32_t p : f.blocks[b].preds) {
        if (pos_[p] < 0 || doms[p] < 0)
          continue; // unreachable, or not processed yet
        newIdom = newIdom < 0 ? static_cast<int32_t>(p) : intersect(static_cast<int32_t>(p), newIdom);
      }
      if (newIdom >= 0 && doms[b] != newIdom) {
        doms[b] = newIdom;
        changed = true;
      }
    }
  }
  for (uint32_t b : rpo)
    idom_[b] = b == entry ? kNoBlock : doms[b];
}

bool DomTree::dominates(uint32_t a, uint32_t b) const {
  if (pos_[a] < 0 || pos_[b] < 0)
    return false;
  int32_t x = static_cast<int32_t>(b);
  while (x != kNoBlock) {
    if (x == static_cast<int32_t>(a))
      return true;
    x = idom_[x];
  }
  return false;
}

} // namespace ptxmini::ori
