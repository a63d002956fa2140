//===- ori/analysis/accumulator_liveness.h - where wgmma accumulators hold values -------===//
///
/// \file
/// The R registers a warpgroup MMA (HGMMA/IGMMA/QGMMA) writes are the function's
/// accumulators; they are physical registers from the lowering on (frontend/lower/
/// lower_wgmma.cpp). This analysis gives, per accumulator register, the program points where
/// it holds a value that something still needs, so that two accumulator tuples that are never
/// live together can share registers (the lowering's placement) and other values can use an
/// accumulator register outside its live range (the allocator's busy ranges), instead of
/// reserving every accumulator for the whole function.
///
/// Backward data-flow over the blocks per register (liveIn = upwardExposed | (liveOut -
/// killed), a guarded write kills nothing), cut to where a write may have happened, as
/// regalloc/live_intervals.cpp does for virtual registers, with two wgmma rules:
///   - WARPGROUP.ARRIVE neither reads nor writes accumulators (its implicit operands only keep
///     phases from moving accumulator accesses across it);
///   - an MMA keeps writing its accumulator asynchronously until a `WARPGROUP.DEPBAR.LE gsb0,
///     0x0` retires its group, so every WARPGROUP.DEPBAR reads the accumulator registers that
///     may be in flight there (written by an MMA with no `DEPBAR.LE 0` since, on some path: a
///     forward data-flow, union at joins), and no other accumulator register.
/// Program points are the allocator's (regalloc/regalloc_internal.h): instruction i of the
/// layout order reads at 2i and writes at 2i+1.
//===----------------------------------------------------------------------------------===//
#pragma once

#include "ori/ori.h"

#include "llvm/ADT/BitVector.h"

#include <utility>
#include <vector>

namespace ptxmini::ori {

struct AccumulatorLiveness {
  using Ranges = std::vector<std::pair<uint32_t, uint32_t>>;
  /// The lowest accumulator register; the two vectors below are indexed by R number - base.
  uint32_t base = 0;
  /// The accumulator registers.
  llvm::BitVector regs;
  /// Sorted, disjoint [start, end] point ranges where each register is live (a write nobody
  /// reads occupies its point only). Empty for other registers.
  std::vector<Ranges> ranges;

  bool isAccumulator(uint32_t r) const {
    return r >= base && r - base < regs.size() && regs.test(r - base);
  }
  const Ranges &rangesOf(uint32_t r) const {
    static const Ranges kNone;
    return isAccumulator(r) ? ranges[r - base] : kNone;
  }
};

/// Whether `in` is a warpgroup MMA.
bool isWarpgroupMma(const Instr &in);

/// The liveness of the function's accumulators; R numbers may exceed the register file (the
/// lowering's provisional numbers).
AccumulatorLiveness computeAccumulatorLiveness(const Function &f);

} // namespace ptxmini::ori
