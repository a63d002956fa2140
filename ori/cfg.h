//===- ori/cfg.h - control-flow edges from terminators ----------------------------------===//
///
/// \file
/// buildCFG recomputes every block's successors and predecessors from its instructions:
/// the label operands of a block's final branch (in operand order), then the fall-through to
/// the next block in layout order unless the final instruction is an unconditional
/// terminator. Duplicate edges are kept once. Phases that edit control flow call it again.
//===----------------------------------------------------------------------------------===//
#pragma once

#include "ori/ori.h"

namespace ptxmini::ori {

/// The successors block `b` should have according to its instructions (no side effects).
llvm::SmallVector<uint32_t, 2> computeSuccessors(const Function &f, uint32_t b);

/// Recomputes Block::succs and Block::preds for every block (preds sorted by block index).
void buildCFG(Function &f);

} // namespace ptxmini::ori
