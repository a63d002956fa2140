//===- ori/analysis/liveness.h - per-block live virtual registers -----------------------===//
///
/// \file
/// Backward data-flow over virtual registers (all classes, numbered densely with
/// Function::flatRegIndex):  liveOut(b) = U liveIn(s) over successors s;
/// liveIn(b) = upwardExposed(b) U (liveOut(b) - killed(b)).
/// Ori is not SSA, so only definitions that certainly overwrite the whole register kill it:
/// a guarded definition leaves the old value live; component definitions kill the register
/// once, together, they have written every component (the halves of a 64-bit result), and
/// until then a read of a component not yet written is upward exposed. The result is cut to
/// where some definition may reach (forward "maybe defined" sets): a read with no reaching
/// definition sees an undefined value, so nothing needs to stay live for it.
/// Reads are use operands, memory-address bases and guards. Physical registers are not
/// tracked (they appear after allocation, which has its own bookkeeping).
//===----------------------------------------------------------------------------------===//
#pragma once

#include "ori/ori.h"

#include "llvm/ADT/BitVector.h"

#include <iosfwd>
#include <vector>

namespace ptxmini::ori {

struct Liveness {
  std::vector<llvm::BitVector> liveIn, liveOut;
  std::vector<llvm::BitVector> upwardExposed, killed;
};

Liveness computeLiveness(const Function &f);

/// Forward "maybe defined" sets: in[b] / out[b] hold the bits of `defs` (each block's own
/// writes, any write, guarded or partial) that some path from the entry (block 0) writes
/// before block b starts / ends. The least fixpoint, by sweeps in layout order over the
/// blocks whose input changed. Liveness is cut to these sets (a value no write reaches is
/// undefined, so no register needs to hold it): computeLiveness, the allocator's unit
/// liveness and the wgmma accumulator liveness all use it.
struct MaybeDefined {
  std::vector<llvm::BitVector> in, out;
};
MaybeDefined maybeDefined(const Function &f, const std::vector<llvm::BitVector> &defs);

/// Text form for tests and `ori-opt -print-liveness`, as `;` comments (so the output stays
/// parseable): a header line, then per block `;   <label>: in: <regs|->  out: <regs|->`
/// with registers in class-then-number order.
void printLiveness(const Function &f, const Liveness &lv, std::ostream &os);

} // namespace ptxmini::ori
