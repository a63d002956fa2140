//===- ori/cfg.cpp - control-flow edges from terminators --------------------------------===//
///
/// \file
/// A block's successors come from its last instruction only; a branch or terminator in the
/// middle of a block is an error the validator reports (ori/validate.cpp), not an edge.
/// Predecessor lists are rebuilt from the successor lists so the two always agree.
//===----------------------------------------------------------------------------------===//
#include "ori/cfg.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>

namespace ptxmini::ori {

llvm::SmallVector<uint32_t, 2> computeSuccessors(const Function &f, uint32_t b) {
  llvm::SmallVector<uint32_t, 2> succs;
  auto add = [&](uint32_t s) {
    if (s < f.blocks.size() && !llvm::is_contained(succs, s))
      succs.push_back(s);
  };
  const Block &blk = f.blocks[b];
  bool fallsThrough = true;
  if (!blk.instrs.empty()) {
    const Instr &last = blk.instrs.back();
    if (last.info().has(OF_BR))
      for (const Operand &o : last.uses())
        if (o.kind == OperandKind::Block)
          add(o.reg);
    if (last.isUnconditionalTerminator())
      fallsThrough = false;
  }
  if (fallsThrough && b + 1 < f.blocks.size())
    add(b + 1);
  return succs;
}

void buildCFG(Function &f) {
  for (Block &blk : f.blocks)
    blk.preds.clear();
  for (uint32_t b = 0; b < f.blocks.size(); ++b)
    f.blocks[b].succs = computeSuccessors(f, b);
  // Visiting sources in index order leaves every preds list sorted.
  for (uint32_t b = 0; b < f.blocks.size(); ++b)
    for (uint32_t s : f.blocks[b].succs)
      f.blocks[s].preds.push_back(b);
}

} // namespace ptxmini::ori
