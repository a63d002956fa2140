//===- phases/branch_opt.cpp - OriBranchOpt (phase 15): branch simplification -----------===//
///
/// \file
/// Seed 004 places branch simplification after GeneralOptimizeEarly (13) and before dead
/// code elimination (16), "may change loop shape". Rewrites, repeated until none applies:
///   1. a branch under a constant guard: @PT BRA -> BRA, @!PT BRA -> deleted;
///   2. branch chains: a branch to a block that holds only an unguarded `BRA U` goes to U
///      (followed to the end of the chain; a cycle of such blocks is left alone);
///   3. a branch (guarded or not) to the block that control reaches anyway by falling
///      through (the next block in layout order, empty blocks skipped) is deleted;
///   4. a conditional branch over an unconditional one: `@P BRA T` ending block b, the next
///      block n holding only `BRA U` and entered only from b, T the block after n
///      -> `@!P BRA U` in b, n emptied (it then falls through to T);
///   5. in a kernel, outside loops, a branch to a block that holds only `EXIT` becomes that
///      EXIT under the branch's guard (ptxas's `@P0 EXIT`): the threads leave at once
///      instead of jumping to the exit;
///   6. blocks unreachable from the entry are removed (labels renumbered).
/// Reconvergence (BSSY/BSYNC) is inserted later (phase 96) on the CFG this phase leaves, so
/// nothing here has to keep it valid. Afterwards the CFG facts are recomputed
/// (AnalyzeControlFlow).
//===----------------------------------------------------------------------------------===//
#include "ori/analysis/rpo.h"
#include "ori/cfg.h"
#include "phases/phase_manager.h"

#include <vector>

namespace ptxmini {
namespace {

using ori::Instr;
using ori::Opcode;
using ori::Operand;
using ori::OperandKind;

/// The block a branch goes to.
uint32_t target(const Instr &in) { return in.uses()[0].reg; }

/// The block holds exactly one instruction, an unguarded plain branch.
std::optional<uint32_t> onlyBranch(const ori::Block &b) {
  if (b.instrs.size() == 1 && b.instrs[0].isPlainBranch() && !b.instrs[0].isGuarded() &&
      b.instrs[0].guard.kind == OperandKind::None)
    return target(b.instrs[0]);
  return std::nullopt;
}
bool onlyExit(const ori::Block &b) {
  return b.instrs.size() == 1 && b.instrs[0].op == Opcode::EXIT && b.instrs[0].mods.empty() &&
         b.instrs[0].ops.empty() && b.instrs[0].guard.kind == OperandKind::None;
}

/// The block control reaches by falling off the end of block b (empty blocks skipped), or
/// -1 at the end of the function.
int64_t fallThroughTarget(const ori::Function &f, uint32_t b) {
  for (uint32_t n = b + 1; n < f.blocks.size(); ++n)
    if (!f.blocks[n].instrs.empty())
      return n;
  return -1;
}

std::optional<bool> constGuard(const Instr &in) {
  const Operand &g = in.guard;
  if (g.kind == OperandKind::PReg && g.isFixed())
    return !(g.mods & ori::OM_NOT);
  return std::nullopt;
}

bool simplifyOnce(ori::Function &f, PhaseContext &) {
  bool changed = false;
  ori::buildCFG(f);
  for (uint32_t b = 0; b < f.blocks.size(); ++b) {
    ori::Block &blk = f.blocks[b];
    if (blk.instrs.empty())
      continue;
    Instr &last = blk.instrs.back();
    if (!last.isPlainBranch())
      continue;
    // 1. constant guards
    if (auto g = constGuard(last)) {
      if (*g) {
        last.guard = Operand{};
      } else {
        blk.instrs.pop_back();
        changed = true;
        continue;
      }
      changed = true;
    }
    // 2. chains
    {
      uint32_t t = target(last);
      std::vector<bool> seen(f.blocks.size(), false);
      while (auto u = onlyBranch(f.blocks[t])) {
        if (seen[t] || *u == t)
          break;
        seen[t] = true;
        t = *u;
      }
      if (t != target(last)) {
        last.uses()[0] = Operand::block(t);
        changed = true;
      }
    }
    // 3. branch to where control falls anyway
    if (fallThroughTarget(f, b) == static_cast<int64_t>(target(last))) {
      blk.instrs.pop_back();
      changed = true;
      continue;
    }
    // 4. conditional branch over an unconditional one
    if (last.guard.kind == OperandKind::VReg && b + 1 < f.blocks.size()) {
      ori::Block &n = f.blocks[b + 1];
      auto u = onlyBranch(n);
      if (u && n.preds.size() == 1 && n.preds[0] == b &&
          fallThroughTarget(f, b + 1) == static_cast<int64_t>(target(last))) {
        last.guard.mods ^= ori::OM_NOT;
        last.uses()[0] = Operand::block(*u);
        n.instrs.clear();
        changed = true;
        continue;
      }
    }
  }
  return changed;
}

/// 5. branches to a lone EXIT (kernels, outside loops).
bool branchesToExit(ori::Function &f) {
  if (!f.isKernel || !f.cfgAnalyzed)
    return false;
  bool changed = false;
  for (uint32_t b = 0; b < f.blocks.size(); ++b) {
    ori::Block &blk = f.blocks[b];
    if (blk.instrs.empty() || blk.loopDepth != 0)
      continue;
    Instr &last = blk.instrs.back();
    if (!last.isPlainBranch() || !onlyExit(f.blocks[target(last)]))
      continue;
    Instr e(Opcode::EXIT);
    e.guard = last.guard;
    e.srcLine = last.srcLine;
    last = e;
    changed = true;
  }
  return changed;
}

/// 6. removes blocks unreachable from the entry, renumbering label operands.
bool removeUnreachable(ori::Function &f) {
  ori::buildCFG(f);
  std::vector<uint32_t> rpo = ori::computeRPO(f);
  std::vector<bool> reach(f.blocks.size(), false);
  for (uint32_t b : rpo)
    reach[b] = true;
  // Keep any block named by a label operand of a reachable instruction (defensive: such a
  // block is reachable through that instruction's own edge, or is a return point).
  for (uint32_t b : rpo)
    for (const Instr &in : f.blocks[b].instrs)
      for (const Operand &o : in.ops)
        if (o.kind == OperandKind::Block && o.reg < reach.size())
          reach[o.reg] = true;
  return ori::compactBlocks(f, reach);
}

} // namespace

void runOriBranchOpt(ori::Function &f, PhaseContext &pc) {
  // The CFG facts are recomputed at the end only where they were computed before (a
  // pipeline with AnalyzeControlFlow disabled keeps none).
  const bool analyzed = f.cfgAnalyzed;
  bool any = false;
  for (unsigned round = 0; round < 8; ++round) {
    bool changed = simplifyOnce(f, pc);
    changed |= removeUnreachable(f);
    any |= changed;
    if (!changed)
      break;
  }
  runAnalyzeControlFlow(f, pc);
  if (branchesToExit(f)) {
    removeUnreachable(f);
    any = true;
  }
  if (any && analyzed)
    runAnalyzeControlFlow(f, pc);
  if (!analyzed) {
    ori::buildCFG(f);
    f.cfgAnalyzed = false;
  }
  f.recomputeRegTable();
}

} // namespace ptxmini
