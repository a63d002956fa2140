//===- phases/hoist_common.cpp - SpeculativeHoistComInsts (phase 56) ----------------------===//
///
/// \file
/// Seed 004 lists phase 56 as "speculatively hoists common instructions above branches
/// (related to LICM)" and says nothing more; the algorithm here is the classic code hoisting
/// of "very busy" expressions (Muchnick, Advanced Compiler Design and Implementation, 13.5)
/// restricted to one branch at a time:
///   for each block H ending with a conditional `@[!]P BRA` whose two successors S1 (taken)
///   and S2 (fall-through) are distinct and entered only from H, and for each instruction I
///   of S1 (in order) with an identical instruction I' in S2 (same opcode, modifiers,
///   operands, no guard), I and I' are both removed and one copy goes to the end of H, in
///   front of its branch, when
///     1. I may move at all: no effect (store, barrier, branch, side effect, volatile), no
///        warp-synchronous operation (its result depends on which threads run it together,
///        which differs above a divergent branch), no load but an index-free LDC (nothing is
///        made speculative, since I runs on both paths, but a load could be reordered with
///        a store of the arm; GUESS kept simple), no R2P / P2R, no unstable special
///        register, no physical register, and it defines at least one virtual register;
///     2. in both arms, nothing before I (resp. I') writes a register I reads or writes, or
///        reads a register I writes (so I computes the same value at the top of the arm,
///        and the instructions it jumps over see what they saw);
///     3. I does not write P (the branch still reads it after I).
/// Then the two arms hold one instruction less each and H one more, so every path runs one
/// instruction less; that is the whole profit. It is "speculative" in ptxas's name only in
/// that the instruction now runs before the branch decides; it ran on both paths anyway.
/// Smaller arms also fit OriPredication's budget (63). Repeated until nothing moves, so a
/// chain of common instructions climbs together (and an if nested in one arm's successor
/// gives its common code to the block above it first).
//===----------------------------------------------------------------------------------===//
#include "ori/cfg.h"
#include "phases/phase_manager.h"

#include <sstream>
#include <vector>

namespace ptxmini {
namespace {

using ori::Instr;
using ori::Opcode;
using ori::Operand;
using ori::OperandKind;

bool movable(const Instr &in) {
  if (in.guard.kind != OperandKind::None || !in.isPureValue())
    return false;
  if (in.info().has(ori::OF_LD))
    for (const Operand &u : in.uses())
      if (u.hasCbankIndex())
        return false;
  return true;
}

bool sameInstr(const Instr &a, const Instr &b) {
  return a.op == b.op && a.numDefs == b.numDefs && a.mods == b.mods && a.ops == b.ops &&
         a.guard == b.guard && a.flags == b.flags;
}

/// Virtual registers an instruction reads (uses with their bases/indices, guard).
llvm::SmallVector<Operand, 8> readsOf(const Instr &in) {
  llvm::SmallVector<Operand, 8> r;
  for (const Operand &u : in.uses())
    for (const Operand &v : u.vregs())
      r.push_back(v);
  if (in.guard.kind == OperandKind::VReg)
    r.push_back(in.guard);
  return r;
}

bool same(const Operand &a, const Operand &b) { return a.cls == b.cls && a.reg == b.reg; }

/// Whether instruction k of `instrs` could be the first of its block (rule 2).
bool canReachTop(const std::vector<Instr> &instrs, size_t k) {
  const Instr &in = instrs[k];
  llvm::SmallVector<Operand, 8> reads = readsOf(in);
  for (size_t j = 0; j < k; ++j) {
    const Instr &e = instrs[j];
    for (const Operand &d : e.defs()) {
      if (d.kind != OperandKind::VReg)
        continue;
      for (const Operand &r : reads)
        if (same(d, r))
          return false;
      for (const Operand &w : in.defs())
        if (w.kind == OperandKind::VReg && same(d, w))
          return false;
    }
    for (const Operand &r : readsOf(e))
      for (const Operand &w : in.defs())
        if (w.kind == OperandKind::VReg && same(r, w))
          return false;
    // A later instruction of unknown reach (a call, P2R/R2P) ends the search.
    if (e.op == Opcode::CALL || e.op == Opcode::R2P || e.op == Opcode::P2R)
      return false;
  }
  return true;
}

/// Hoists what it can above the branch ending H; returns the number of instructions moved.
unsigned hoistAt(ori::Function &f, uint32_t h, std::ostringstream &notes) {
  ori::Block &hb = f.blocks[h];
  if (hb.instrs.empty())
    return 0;
  const Instr &br = hb.instrs.back();
  if (br.op != Opcode::BRA || !br.isGuarded() || br.guard.kind != OperandKind::VReg ||
      hb.succs.size() != 2)
    return 0;
  const Operand p = br.guard;
  const uint32_t s1 = hb.succs[0], s2 = hb.succs[1];
  if (s1 == s2 || s1 == h || s2 == h)
    return 0;
  if (f.blocks[s1].preds.size() != 1 || f.blocks[s2].preds.size() != 1)
    return 0;
  unsigned moved = 0;
  for (bool again = true; again;) {
    again = false;
    std::vector<Instr> &a = f.blocks[s1].instrs;
    std::vector<Instr> &b = f.blocks[s2].instrs;
    for (size_t i = 0; i < a.size() && !again; ++i) {
      if (!movable(a[i]) || a[i].writesVReg(p.cls, p.reg) || !canReachTop(a, i))
        continue;
      for (size_t j = 0; j < b.size(); ++j) {
        if (!sameInstr(a[i], b[j]) || !canReachTop(b, j))
          continue;
        Instr m = std::move(a[i]);
        a.erase(a.begin() + static_cast<std::ptrdiff_t>(i));
        b.erase(b.begin() + static_cast<std::ptrdiff_t>(j));
        std::vector<Instr> &hi = f.blocks[h].instrs;
        hi.insert(hi.end() - 1, std::move(m));
        ++moved;
        again = true;
        break;
      }
    }
  }
  if (moved)
    notes << "# SpeculativeHoistComInsts: " << moved << " instruction(s) from "
          << f.blocks[s1].name << " and " << f.blocks[s2].name << " into " << f.blocks[h].name
          << "\n";
  return moved;
}

} // namespace

void runSpeculativeHoistComInsts(ori::Function &f, PhaseContext &pc) {
  ori::buildCFG(f);
  std::ostringstream notes;
  unsigned moved = 0;
  // Blocks in reverse layout order: the common code of an inner branch reaches its own
  // block before the outer branch looks at that block.
  for (uint32_t h = static_cast<uint32_t>(f.blocks.size()); h-- > 0;)
    moved += hoistAt(f, h, notes);
  pc.dumpNotes += notes.str();
  if (moved)
    f.recomputeRegTable();
}

} // namespace ptxmini
