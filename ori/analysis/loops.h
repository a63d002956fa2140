//===- ori/analysis/loops.h - back-edges and natural loops ------------------------------===//
///
/// \file
/// A retreating edge u -> v (v not after u in RPO) is a back-edge when v dominates u; its
/// natural loop is v plus every reachable block that reaches u without passing through v.
/// Back-edges sharing a header form one loop. Retreating edges whose target does not
/// dominate their source mark irreducible flow; they form no loop, so blocks of an
/// irreducible cycle only get the depth of the natural loops around them (the loop passes
/// rely on a single header dominating the body, which such cycles lack).
/// Loops are listed by their header's RPO position, so a loop comes after every loop that
/// contains it; a loop's parent is the smallest other loop containing its header.
//===----------------------------------------------------------------------------------===//
#pragma once

#include "ori/analysis/dominators.h"
#include "ori/ori.h"

#include <utility>
#include <vector>

namespace ptxmini::ori {

struct LoopForest {
  std::vector<std::pair<uint32_t, uint32_t>> backEdges;        ///< (latch, header), sorted
  std::vector<std::pair<uint32_t, uint32_t>> irreducibleEdges; ///< (source, target), sorted
  std::vector<Loop> loops;
  std::vector<uint32_t> depth;    ///< per block: number of loops containing it
  std::vector<int32_t> innermost; ///< per block: innermost loop index, or -1
};

LoopForest computeLoops(const Function &f, const std::vector<uint32_t> &rpo, const DomTree &dt);

} // namespace ptxmini::ori
