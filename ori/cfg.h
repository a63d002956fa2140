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

/// Per block: whether a label operand (OperandKind::Block) of some instruction names it.
std::vector<bool> labelledBlocks(const Function &f);

/// Lays the blocks out in `order` (block indices, each at most once; blocks not listed are
/// dropped) and renumbers every label operand. A label naming a dropped block is left as it
/// was: callers drop only blocks no kept instruction names. Edges are not rebuilt (buildCFG).
void reorderBlocks(Function &f, const std::vector<uint32_t> &order);

/// Drops the blocks without `keep` (block 0 is always kept), in layout order, through
/// reorderBlocks; false, changing nothing, when every block is kept.
bool compactBlocks(Function &f, const std::vector<bool> &keep);

/// Drops the empty blocks no label names (block 0 stays): what is left after instructions
/// moved out of a block that was only fallen into.
bool removeEmptyUnlabelledBlocks(Function &f);

} // namespace ptxmini::ori
