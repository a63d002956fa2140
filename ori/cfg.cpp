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
#include <vector>

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

std::vector<bool> labelledBlocks(const Function &f) {
  std::vector<bool> v(f.blocks.size(), false);
  for (const Block &blk : f.blocks)
    for (const Instr &in : blk.instrs)
      for (const Operand &o : in.ops)
        if (o.kind == OperandKind::Block && o.reg < v.size())
          v[o.reg] = true;
  return v;
}

void reorderBlocks(Function &f, const std::vector<uint32_t> &order) {
  std::vector<int64_t> remap(f.blocks.size(), -1);
  for (size_t k = 0; k < order.size(); ++k)
    remap[order[k]] = static_cast<int64_t>(k);
  std::vector<Block> blocks;
  blocks.reserve(order.size());
  for (uint32_t b : order)
    blocks.push_back(std::move(f.blocks[b]));
  for (Block &blk : blocks)
    for (Instr &in : blk.instrs)
      for (Operand &o : in.ops)
        if (o.kind == OperandKind::Block && o.reg < remap.size() && remap[o.reg] >= 0)
          o.reg = static_cast<uint32_t>(remap[o.reg]);
  f.blocks = std::move(blocks);
}

bool compactBlocks(Function &f, const std::vector<bool> &keep) {
  std::vector<uint32_t> order;
  order.reserve(f.blocks.size());
  for (uint32_t b = 0; b < f.blocks.size(); ++b)
    if (b == 0 || keep[b])
      order.push_back(b);
  if (order.size() == f.blocks.size())
    return false;
  reorderBlocks(f, order);
  return true;
}

bool removeEmptyUnlabelledBlocks(Function &f) {
  std::vector<bool> keep = labelledBlocks(f);
  for (uint32_t b = 0; b < f.blocks.size(); ++b)
    keep[b] = keep[b] || !f.blocks[b].instrs.empty();
  return compactBlocks(f, keep);
}

} // namespace ptxmini::ori
