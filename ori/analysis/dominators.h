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
