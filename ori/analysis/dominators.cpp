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
  std::vector<int32_t> doms =
      iterateDominators(f.blocks.size(), rpo, pos_, [&](uint32_t b) -> const auto & {
        return f.blocks[b].preds;
      });
  for (uint32_t b : rpo)
    idom_[b] = b == rpo[0] ? kNoBlock : doms[b];
}

bool onIdomChain(const std::vector<int32_t> &idom, const std::vector<int32_t> &pos, uint32_t a, uint32_t b) {
  if (pos[a] < 0 || pos[b] < 0)
    return false;
  for (int32_t x = static_cast<int32_t>(b); x != kNoBlock; x = idom[x])
    if (x == static_cast<int32_t>(a))
      return true;
  return false;
}

bool DomTree::dominates(uint32_t a, uint32_t b) const { return onIdomChain(idom_, pos_, a, b); }

} // namespace ptxmini::ori
