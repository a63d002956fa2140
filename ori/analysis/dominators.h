//===- ori/analysis/dominators.h - dominator tree ---------------------------------------===//
///
/// \file
/// Immediate dominators of the blocks reachable from the entry, computed with the iterative
/// algorithm of Cooper, Harvey and Kennedy ("A Simple, Fast Dominance Algorithm", 2001):
/// process blocks in reverse post-order, set idom(b) to the intersection of the already
/// processed predecessors' dominator chains (walked upward by RPO position), repeat until
/// nothing changes. Unreachable blocks have no dominator and dominate nothing.
//===----------------------------------------------------------------------------------===//
#pragma once

#include "ori/ori.h"

#include <vector>

namespace ptxmini::ori {

/// The Cooper-Harvey-Kennedy iteration on any graph (the dominator and post-dominator trees
/// both run it): `rpo` lists the nodes reachable from rpo[0] in reverse post-order, `pos` gives
/// each node's index in `rpo` (-1: unreachable), `preds(b)` a node's predecessors. Returns the
/// immediate dominator of every reachable node (rpo[0] is its own), -1 for the others.
template <typename Preds>
std::vector<int32_t> iterateDominators(size_t numNodes, const std::vector<uint32_t> &rpo,
                                       const std::vector<int32_t> &pos, Preds &&preds) {
  std::vector<int32_t> doms(numNodes, -1);
  if (rpo.empty())
    return doms;
  doms[rpo[0]] = static_cast<int32_t>(rpo[0]);
  auto intersect = [&](int32_t a, int32_t b) {
    while (a != b) {
      while (pos[a] > pos[b])
        a = doms[a];
      while (pos[b] > pos[a])
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
      for (uint32_t p : preds(b)) {
        if (pos[p] < 0 || doms[p] < 0)
          continue; // unreachable, or not processed yet
        newIdom = newIdom < 0 ? static_cast<int32_t>(p) : intersect(static_cast<int32_t>(p), newIdom);
      }
      if (newIdom >= 0 && doms[b] != newIdom) {
        doms[b] = newIdom;
        changed = true;
      }
    }
  }
  return doms;
}

/// `a` is on `b`'s chain of immediate dominators (reflexive); false when either has no
/// position (`pos` -1). `idom` ends the chain with kNoBlock.
bool onIdomChain(const std::vector<int32_t> &idom, const std::vector<int32_t> &pos, uint32_t a, uint32_t b);

class DomTree {
public:
  /// `rpo` must be computeRPO(f) for the current CFG.
  DomTree(const Function &f, const std::vector<uint32_t> &rpo);

  /// Immediate dominator; kNoBlock for the entry and for unreachable blocks.
  int32_t idom(uint32_t b) const { return idom_[b]; }
  bool isReachable(uint32_t b) const { return pos_[b] >= 0; }
  /// a dominates b (reflexive). False when either is unreachable.
  bool dominates(uint32_t a, uint32_t b) const;
  const std::vector<int32_t> &idoms() const { return idom_; }

private:
  std::vector<int32_t> idom_;
  std::vector<int32_t> pos_;
};

} // namespace ptxmini::ori
