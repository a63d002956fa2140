//===- scheduler/reg_keys.h - one dense number per tracked register ------------------===//
///
/// \file
/// The scheduler and the hazard checker track R0-R254 at 0, UR0-UR62 at 256, P0-P6 at 320
/// and UP0-UP6 at 328 (RZ, URZ, PT and UPT are never tracked; convergence barriers are not).
//===----------------------------------------------------------------------------------===//
#pragma once

#include "ori/ori.h"

#include <cstdint>
#include <string>

namespace ptxmini::sched {

inline constexpr unsigned kNumRegKeys = 336;

inline constexpr unsigned regKeyBase(ori::RegClass f) {
  return f == ori::RegClass::R ? 0 : f == ori::RegClass::UR ? 256 : f == ori::RegClass::P ? 320 : 328;
}
/// Registers of the file the keys cover (RZ/URZ/PT/UPT excluded).
inline constexpr unsigned regKeyLimit(ori::RegClass f) {
  return f == ori::RegClass::R ? 255 : f == ori::RegClass::UR ? 63 : 7;
}
inline ori::RegClass regKeyFile(unsigned key) {
  return key < 256 ? ori::RegClass::R : key < 320 ? ori::RegClass::UR : key < 328 ? ori::RegClass::P : ori::RegClass::UP;
}
inline std::string regKeyName(unsigned key) {
  ori::RegClass f = regKeyFile(key);
  return std::string(ori::pregPrefix(f)) + std::to_string(key - regKeyBase(f));
}

} // namespace ptxmini::sched
