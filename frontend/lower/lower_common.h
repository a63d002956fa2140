//===- frontend/lower/lower_common.h - small helpers the per-family files share ---------===//
#pragma once

#include "frontend/lower/lower_context.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <array>
#include <span>

namespace ptxmini::frontend::lower {

/// Destination and sources of a plain `op.type d, a, b[, c]`; false after reporting.
bool plainOperands(LowerCtx &ctx, const ptx::Instruction &in, unsigned numSrcs, ori::Operand &d,
                   std::array<ori::Operand, 3> &s);

/// `-x`: an immediate's value negated (as a 32-bit integer), a register's OM_NEG toggled.
ori::Operand negate(const ori::Operand &o);

/// A PTX comparison word and the SASS comparison modifier it selects.
struct CmpRow {
  std::string_view ptx;
  ori::Modifier sass;
};
/// The row of `rows` naming the comparison word among `in`'s modifiers, or nullptr.
const CmpRow *findCmp(const ptx::Instruction &in, std::span<const CmpRow> rows);
/// `setp.cmp.type p, a, b`: the predicate and the two sources; false after reporting.
bool setpOperands(LowerCtx &ctx, const ptx::Instruction &in, ori::Operand &p, ori::Operand &a,
                  ori::Operand &b);

/// Emits a uniform-datapath instruction once for each thread of the warp that reaches it, in
/// a loop that serves one thread at a time (ELECT, then `fetch` moves the elected thread's
/// operands into uniform registers through the R2UR function it is given, then `issue`
/// emits the instruction; BRA.U.ANY back while threads remain), as ptxas does for
/// cp.async.bulk. The current block follows the loop. lower_bulk_copy.cpp.
/// prefetch.tensormap [a] (lower_tensor_copy.cpp): UTMACCTL.PF of each thread's address.
bool lowerPrefetchTensormap(LowerCtx &ctx, const ptx::Instruction &in);
using R2urFn = llvm::function_ref<void(const ori::Operand &, const ori::Operand &)>;
void perThreadUniformLoop(LowerCtx &ctx, llvm::function_ref<void(const R2urFn &)> fetch,
                          llvm::function_ref<void()> issue);

} // namespace ptxmini::frontend::lower
