//===- ori/analysis/postdominators.cpp - post-dominator tree ----------------------------===//
///
/// \file
/// See postdominators.h. Node n (one past the last block) is the virtual exit. The reverse
/// graph's RPO comes from an iterative DFS over predecessor lists starting at the virtual
/// exit, whose children are the sinks in block order, so the result is deterministic.
//===----------------------------------------------------------------------------------===//
#include "ori/analysis/postdominators.h"

#include "ori/analysis/dominators.h"

#include <utility>

namespace ptxmini::ori {

PostDomTree::PostDomTree(const Function &f, const std::vector<bool> &ignored) {
  const uint32_t n = static_cast<uint32_t>(f.blocks.size());
  auto isIgnored = [&](uint32_t b) { return !ignored.empty() && ignored[b]; };
  // Reverse-graph successors: preds (not ignored); the virtual exit's: the sinks.
  std::vector<std::vector<uint32_t>> rsucc(n + 1), rpred(n + 1);
  for (uint32_t b = 0; b < n; ++b) {
    if (isIgnored(b))
      continue;
    bool sink = true;
    for (uint32_t s : f.blocks[b].succs)
      if (!isIgnored(s)) {
        sink = false;
        rsucc[s].push_back(b);
        rpred[b].push_back(s);
      }
    if (sink) {
      rsucc[n].push_back(b);
      rpred[b].push_back(n);
    }
  }
  // Post-order of the reverse graph from the virtual exit.
  std::vector<uint32_t> order;
  std::vector<uint8_t> seen(n + 1, 0);
  std::vector<std::pair<uint32_t, size_t>> stack{{n, 0}};
  seen[n] = 1;
  while (!stack.empty()) {
    auto &[v, i] = stack.back();
    if (i < rsucc[v].size()) {
      uint32_t w = rsucc[v][i++];
      if (!seen[w]) {
        seen[w] = 1;
        stack.push_back({w, 0});
      }
      continue;
    }
    order.push_back(v);
    stack.pop_back();
  }
  std::vector<uint32_t> rpo(order.rbegin(), order.rend()); // rpo[0] == n
  std::vector<int32_t> pos(n + 1, -1);
  for (size_t i = 0; i < rpo.size(); ++i)
    pos[rpo[i]] = static_cast<int32_t>(i);
  std::vector<int32_t> doms =
      iterateDominators(n + 1, rpo, pos, [&](uint32_t b) -> const std::vector<uint32_t> & { return rpred[b]; });
  ipdom_.assign(n, kNoBlock);
  pos_.assign(n, -1);
  for (uint32_t b = 0; b < n; ++b) {
    pos_[b] = pos[b] > 0 ? pos[b] : -1;
    if (pos[b] > 0 && doms[b] >= 0 && doms[b] != static_cast<int32_t>(n))
      ipdom_[b] = doms[b];
  }
}

bool PostDomTree::postDominates(uint32_t a, uint32_t b) const { return onIdomChain(ipdom_, pos_, a, b); }

} // namespace ptxmini::ori
