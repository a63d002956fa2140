//===- regalloc/regalloc.h - what the driver asks the register allocator --------------===//
///
/// \file
/// The phase itself (AllocateRegisters) is declared from the phase table; this header is
/// for the whole-program driver, which allocates callees before their callers.
//===----------------------------------------------------------------------------------===//
#pragma once

#include "ori/ori.h"
#include "targets/target.h"

namespace ptxmini::ra {

/// The registers a call to `f` (allocated) may change: everything `f` writes, what its own
/// calls may change, the return address pair (targets/calling_convention.h). R1 is kept.
ori::PhysRegSet clobbersOf(const ori::Function &f, const Target &t);

} // namespace ptxmini::ra
