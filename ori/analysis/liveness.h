//===- ori/analysis/liveness.h - per-block live virtual registers -----------------------===//
///
/// \file
/// Backward data-flow over virtual registers (all classes, numbered densely with
/// Function::flatRegIndex):  liveOut(b) = U liveIn(s) over successors s;
/// liveIn(b) = upwardExposed(b) U (liveOut(b) - killed(b)).
/// Ori is not SSA, so only definitions that certainly overwrite the whole register kill it:
/// a guarded definition or one writing a single component leaves the old value live.
/// Reads are use operands, memory-address bases and guards. Physical registers are not
/// tracked (they appear after allocation, which has its own bookkeeping).
//===----------------------------------------------------------------------------------===//
#pragma once

#include "ori/ori.h"

#include "llvm/ADT/BitVector.h"

#include <vector>

namespace ptxmini::ori {

struct Liveness {
  std::vector<llvm::BitVector> liveIn, liveOut;
  std::vector<llvm::BitVector> upwardExposed, killed;
};

Liveness computeLiveness(const Function &f);

} // namespace ptxmini::ori
