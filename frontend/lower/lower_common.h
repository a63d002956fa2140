//===- frontend/lower/lower_common.h - small helpers the per-family files share ---------===//
#pragma once

#include "frontend/lower/lower_context.h"

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

} // namespace ptxmini::frontend::lower
