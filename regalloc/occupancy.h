//===- regalloc/occupancy.h - register counts and resident warps ------------------------===//
///
/// \file
/// The register count (as ptxas -v counts it) at which a function's occupancy steps: the
/// largest count that keeps as many warps resident per SM sub-partition as a given count
/// does (targets/ register file facts: words per sub-partition, allocation granule, most
/// warps). ScheduleInstructionsPreRA schedules under it and LICM hoists under it, so neither
/// makes a function lose resident warps.
//===----------------------------------------------------------------------------------===//
#pragma once

#include "targets/perf_model.h"
#include "targets/target.h"

#include <algorithm>
#include <cstdint>

namespace ptxmini {

/// The largest register count (as ptxas -v counts it) that keeps as many warps resident
/// per SM sub-partition as `count` does.
inline uint32_t occupancyCeiling(const Target &t, uint32_t count) {
  const RegisterFiles &rf = t.registers();
  uint32_t granule = std::max(1u, rf.regGranule);
  uint32_t maxWarps = std::max(1u, t.perfFacts().maxWarpsPerSm / std::max(1u, rf.subPartitions));
  uint32_t words = rf.regsPerSubPartition / 32; // registers per thread slot of one warp lane
  uint32_t rounded = std::max(granule, (count + granule - 1) / granule * granule);
  uint32_t warps = std::min(maxWarps, words / rounded);
  if (warps == 0)
    return t.maxRegisterCount();
  uint32_t ceiling = words / warps / granule * granule;
  return std::min(ceiling, t.maxRegisterCount());
}

} // namespace ptxmini
