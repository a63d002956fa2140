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
/// A call whose callee's set is unknown (recursion) counts as every register, unless
/// `skipUnknownCalls`: the driver then unites the sets of a recursive cycle's members,
/// which is the cycle's clobber set for callers outside it.
/// The registers a call through the CUDA ABI (an extern function: vprintf, __assertfail)
/// may change (targets/calling_convention.h): the driver gives it as such a callee's set.
ori::PhysRegSet abiCallClobbers(const Target &t);

ori::PhysRegSet clobbersOf(const ori::Function &f, const Target &t,
                           bool skipUnknownCalls = false);

} // namespace ptxmini::ra
