//===- targets/target_model.h - Targets for SMs read but not (yet) generated -------------===//
///
/// \file
/// The hazard checker and other readers of ptxas's code need an SM's register files, bank
/// layout and latency model even where ptxas-mini does not generate code for it.
/// `Target::get` answers only for code-generating SMs; `modelTarget` also for those with
/// a model only (sm_80, sm_86, sm_89: see targets/target.cpp for which parts are GUESS).
//===----------------------------------------------------------------------------------===//
#pragma once

#include "targets/target.h"

namespace ptxmini {

/// Target::get(arch), else the model-only Target of the SM, else nullptr.
const Target *modelTarget(const ArchInfo &arch);

} // namespace ptxmini
