//===- ori/analysis/rpo.cpp - reverse post-order ----------------------------------------===//
///
/// \file
/// Iterative DFS (an explicit stack of (block, next successor) pairs, so deep CFGs cannot
/// overflow the call stack); blocks are appended to the post-order when all their
/// successors are done, and the result is reversed.
//===----------------------------------------------------------------------------------===//
#include "ori/analysis/rpo.h"

#include <algorithm>

namespace ptxmini::ori {

std::vector<uint32_t> computeRPO(const Function &f) {
  std::vector<uint32_t> post;
  if (f.blocks.empty())
    return post;
  std::vector<bool> visited(f.blocks.size(), false);
  std::vector<std::pair<uint32_t, uint32_t>> stack;
  stack.push_back({0, 0});
  visited[0] = true;
  while (!stack.empty()) {
    auto &[b, next] = stack.back();
    const auto &succs = f.blocks[b].succs;
    if (next < succs.size()) {
      uint32_t s = succs[next++];
      if (s < f.blocks.size() && !visited[s]) {
        visited[s] = true;
        stack.push_back({s, 0});
      }
      continue;
    }
    post.push_back(b);
    stack.pop_back();
  }
  std::reverse(post.begin(), post.end());
  return post;
}

std::vector<int32_t> rpoPositions(const Function &f, const std::vector<uint32_t> &rpo) {
  std::vector<int32_t> pos(f.blocks.size(), -1);
  for (size_t i = 0; i < rpo.size(); ++i)
    pos[rpo[i]] = static_cast<int32_t>(i);
  return pos;
}

} // namespace ptxmini::ori
