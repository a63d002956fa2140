//===- ori/analysis/rpo.h - reverse post-order ------------------------------------------===//
///
/// \file
/// Depth-first search from the entry block over Block::succs (in list order); the reverse of
/// the finishing order. Unreachable blocks do not appear. In this order every edge u -> v
/// with position(v) <= position(u) is a retreating edge of the DFS (a self loop included),
/// and every other edge goes forward.
//===----------------------------------------------------------------------------------===//
#pragma once

#include "ori/ori.h"

#include <vector>

namespace ptxmini::ori {

std::vector<uint32_t> computeRPO(const Function &f);

/// position[b] = index of b in `rpo`, or -1 when b is not in it.
std::vector<int32_t> rpoPositions(const Function &f, const std::vector<uint32_t> &rpo);

} // namespace ptxmini::ori
