//===- phases/loop_simplification.cpp - OriLoopSimplification (phase 18) ----------------===//
///
/// \file
/// Seed 004, "Phase 18 -- OriLoopSimplification": canonicalizes loops for the loop phases
/// after it (strength reduction, unrolling, pipelining, LICM): "ensures each natural loop has
/// a single entry edge, inserts dedicated preheader blocks where needed". The master knob is
/// LoopMakeSingleEntry (seed: OCG knob 487; when off, preheader insertion is skipped).
///
/// Algorithm (on the CFG facts of AnalyzeControlFlow, phase 3):
///   repeat, outer loops first (Function::loops is in header RPO order):
///     take the first natural loop without a dedicated preheader (a block that is the
///     header's only predecessor from outside the loop, has the header as its only
///     successor, and can take code at its end) that may get one (preheaderRefusal), and
///     insert one:
///       - when the block that falls through into the header is outside the loop (or none
///         does), a new empty block goes right before the header in layout order: the
///         fall-through predecessor now falls into it, the other outside predecessors'
///         branches are retargeted to it, and it falls into the header;
///       - when the fall-through predecessor is a latch (the loop's bottom is laid out
///         above its header), the new block goes at the end of the function holding
///         `BRA header`, and the outside predecessors' branches go to it;
///     then the CFG facts are recomputed (block indices moved);
///   until every loop has one or is refused.
/// Loops are single-entry by construction here: a natural loop's header dominates its body
/// (ori/analysis/loops.h), and irreducible cycles form no loop, so there is nothing to
/// split for "single entry" beyond the preheader.
/// Left alone (seed 004: "in a convergent execution context ... certain edge-splitting
/// transformations are suppressed"): loops holding warp-synchronous instructions. Also
/// left alone: loops headed by the entry block, and headers that a non-branch label names
/// (a CALL's return point), whose incoming edges cannot all be redirected.
/// Not done (yet): back-edge canonicalization into one latch, loop inversion and peeling
/// (LoopInversion, LoopPeelInversion, ... of the seed's table are not registered: no reader).
//===----------------------------------------------------------------------------------===//
#include "phases/loop_simplification.h"

#include "ori/cfg.h"
#include "phases/phase_manager.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <set>
#include <string>

namespace ptxmini {

using ori::Instr;
using ori::Opcode;
using ori::Operand;
using ori::OperandKind;

bool isWarpSynchronous(const Instr &in) { return in.info().has(ori::OF_WARP); }

namespace {

bool inLoop(const ori::Loop &l, uint32_t b) {
  return std::binary_search(l.blocks.begin(), l.blocks.end(), b);
}

bool isPlainBraTo(const Instr &in, uint32_t target) {
  return in.isPlainBranch() && !in.isGuarded() && in.uses()[0].reg == target;
}

/// The block whose end falls through into block h (not an unconditional terminator), if any.
std::optional<uint32_t> fallThroughPred(const ori::Function &f, uint32_t h) {
  if (h == 0)
    return std::nullopt;
  const ori::Block &p = f.blocks[h - 1];
  if (!p.instrs.empty() && p.instrs.back().isUnconditionalTerminator())
    return std::nullopt;
  return h - 1;
}

/// Shifts every label operand naming a block at index >= at up by one.
void shiftLabels(ori::Function &f, uint32_t at) {
  for (ori::Block &blk : f.blocks)
    for (Instr &in : blk.instrs)
      for (Operand &o : in.ops)
        if (o.kind == OperandKind::Block && o.reg >= at)
          ++o.reg;
}

std::string uniqueName(const ori::Function &f, const std::string &base) {
  std::string name = base;
  for (unsigned k = 1; f.findBlock(name) != ori::kNoBlock; ++k)
    name = base + "." + std::to_string(k);
  return name;
}

/// Points the branch at the end of block p from `from` to `to`.
void retarget(ori::Block &p, uint32_t from, uint32_t to) {
  if (p.instrs.empty() || !p.instrs.back().info().has(ori::OF_BR))
    return;
  for (Operand &o : p.instrs.back().uses())
    if (o.kind == OperandKind::Block && o.reg == from)
      o.reg = to;
}

} // namespace

std::optional<uint32_t> findDedicatedPreheader(const ori::Function &f, const ori::Loop &l) {
  const ori::Block &hb = f.blocks[l.header];
  std::optional<uint32_t> pre;
  for (uint32_t p : hb.preds) {
    if (inLoop(l, p))
      continue;
    if (pre)
      return std::nullopt; // two outside predecessors
    pre = p;
  }
  if (!pre)
    return std::nullopt;
  const ori::Block &pb = f.blocks[*pre];
  if (pb.succs.size() != 1 || pb.succs[0] != l.header)
    return std::nullopt;
  if (!pb.instrs.empty()) {
    const Instr &last = pb.instrs.back();
    bool control = last.info().has(ori::OF_TERM) || last.info().has(ori::OF_BR) ||
                   last.op == Opcode::CALL;
    if (control && !isPlainBraTo(last, l.header))
      return std::nullopt;
  }
  return pre;
}

const char *preheaderRefusal(const ori::Function &f, const ori::Loop &l) {
  const uint32_t h = l.header;
  if (h == 0)
    return "entry";
  for (uint32_t b : l.blocks)
    for (const Instr &in : f.blocks[b].instrs)
      if (isWarpSynchronous(in))
        return "convergent";
  for (const ori::Block &blk : f.blocks)
    for (const Instr &in : blk.instrs)
      if (!in.info().has(ori::OF_BR))
        for (const Operand &o : in.ops)
          if (o.kind == OperandKind::Block && o.reg == h)
            return "label";
  std::optional<uint32_t> ft = fallThroughPred(f, h);
  if (ft && inLoop(l, *ft)) {
    const ori::Block &last = f.blocks.back();
    if (last.instrs.empty() || !last.instrs.back().isUnconditionalTerminator())
      return "layout";
  }
  return nullptr;
}

bool insertPreheader(ori::Function &f, const ori::Loop &l) {
  if (preheaderRefusal(f, l))
    return false;
  const uint32_t h = l.header;
  std::vector<uint32_t> outside;
  for (uint32_t p : f.blocks[h].preds)
    if (!inLoop(l, p))
      outside.push_back(p);
  std::optional<uint32_t> ft = fallThroughPred(f, h);
  ori::Block ph;
  ph.name = uniqueName(f, f.blocks[h].name + ".preheader");
  if (!ft || !inLoop(l, *ft)) {
    // Right before the header: the fall-through predecessor now falls into it.
    shiftLabels(f, h);
    f.blocks.insert(f.blocks.begin() + h, std::move(ph));
    for (uint32_t p : outside)
      retarget(f.blocks[p >= h ? p + 1 : p], h + 1, h);
  } else {
    // The header's fall-through predecessor is a latch: the preheader goes last and jumps.
    const uint32_t at = static_cast<uint32_t>(f.blocks.size());
    Instr bra(Opcode::BRA);
    bra.addUse(Operand::block(h));
    ph.instrs.push_back(std::move(bra));
    f.blocks.push_back(std::move(ph));
    for (uint32_t p : outside)
      retarget(f.blocks[p], h, at);
  }
  ori::buildCFG(f);
  return true;
}

void runOriLoopSimplification(ori::Function &f, PhaseContext &pc) {
  if (!f.cfgAnalyzed) // the loop facts come from AnalyzeControlFlow (seed: phase 3)
    return;
  if (!pc.knobs.getBool(KnobId::LoopMakeSingleEntry))
    return;
  std::set<std::string> refused; // header names: block indices move as blocks go in
  bool changed = false;
  // Each round inserts at most one block; a function with n loops needs at most n rounds.
  for (size_t round = 0, limit = f.loops.size() + 1; round < limit; ++round) {
    bool inserted = false;
    for (const ori::Loop &l : f.loops) {
      const std::string &hname = f.blocks[l.header].name;
      if (refused.count(hname) || findDedicatedPreheader(f, l))
        continue;
      if (!insertPreheader(f, l)) {
        refused.insert(hname);
        continue;
      }
      inserted = true;
      break;
    }
    if (!inserted)
      break;
    changed = true;
    runAnalyzeControlFlow(f, pc);
  }
  if (changed)
    f.recomputeRegTable();
}

} // namespace ptxmini
