//===- ori/analysis/postdominators.h - post-dominator tree ------------------------------===//
///
/// \file
/// Immediate post-dominators: the dominators of the reverse CFG rooted at a virtual exit that
/// every block without successors flows into (Cooper, Harvey and Kennedy's iterative
/// algorithm, as in dominators.h, on the reversed edges). A caller may leave blocks out
/// (`ignored`): edges into them are dropped, so a block whose successors are all ignored
/// becomes a sink of the virtual exit. The reconvergence phase leaves out the blocks that
/// only end threads (EXIT, BPT): a path that ends there never needs to rejoin.
/// Blocks that cannot reach the virtual exit (infinite loops) and ignored blocks have no
/// post-dominator; neither has a block whose immediate post-dominator is the virtual exit.
//===----------------------------------------------------------------------------------===//
#pragma once

#include "ori/ori.h"

#include <vector>

namespace ptxmini::ori {

class PostDomTree {
public:
  /// `ignored` (empty, or one flag per block): blocks taken out of the graph.
  explicit PostDomTree(const Function &f, const std::vector<bool> &ignored = {});

  /// Immediate post-dominator; kNoBlock when it is the virtual exit or there is none.
  int32_t ipdom(uint32_t b) const { return ipdom_[b]; }
  /// a post-dominates b (reflexive); false for blocks without post-dominator information.
  bool postDominates(uint32_t a, uint32_t b) const;
  /// b reaches the virtual exit (and is not ignored).
  bool hasInfo(uint32_t b) const { return pos_[b] >= 0; }

private:
  std::vector<int32_t> ipdom_;
  std::vector<int32_t> pos_; ///< position in the reverse graph's RPO (the virtual exit is 0)
};

} // namespace ptxmini::ori
