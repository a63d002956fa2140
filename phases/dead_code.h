//===- phases/dead_code.h - liveness-based dead instruction removal ---------------------===//
///
/// \file
/// The work of phase 16 OriPerformLiveDeadFirst, also called by the GeneralOptimize family
/// (phases 13, 29, 58, 65) after they rewrite instructions. See dead_code.cpp.
//===----------------------------------------------------------------------------------===//
#pragma once

#include "ori/ori.h"

namespace ptxmini {

/// Removes instructions none of whose results is ever read (liveness over virtual
/// registers), until nothing more dies. Never removes an instruction with side effects, a
/// store, a barrier, a branch or terminator, a volatile access, or one that writes a physical
/// register. Returns the number of instructions removed. Leaves the register table current.
unsigned removeDeadCode(ori::Function &f);

/// Whether `in` may be deleted when none of its results is read.
bool isRemovableWhenDead(const ori::Instr &in);

} // namespace ptxmini
