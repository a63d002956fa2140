//===- phases/dead_code.cpp - OriPerformLiveDeadFirst (phase 16): dead code elimination -===//
///
/// \file
/// Algorithm (classic liveness-based DCE on non-SSA code):
///   repeat
///     compute per-block live-out sets (ori/analysis/liveness: backward data flow over
///       virtual registers; guarded and component definitions do not kill);
///     walk each block backwards from its live-out set; an instruction whose every
///       definition is a virtual register not live after it (or a fixed sink RZ/PT/URZ/UPT),
///       and which is removable (isRemovableWhenDead: no side effect, store, barrier,
///       branch, volatile flag or physical-register definition), is deleted; otherwise its
///       unguarded whole definitions leave the live set and its reads (uses, memory bases
///       and descriptors, constant-bank indices, the guard) enter it;
///   until a round deletes nothing.
/// Seed 004 places the phase right after branch simplification (15) so that loop bodies
/// made dead by it disappear before loop analysis (18, 22).
//===----------------------------------------------------------------------------------===//
#include "phases/dead_code.h"

#include "ori/analysis/liveness.h"
#include "phases/phase_manager.h"

#include "llvm/ADT/BitVector.h"

namespace ptxmini {

using ori::Instr;
using ori::Operand;
using ori::OperandKind;

bool isRemovableWhenDead(const Instr &in) {
  if (in.hasEffects())
    return false;
  if (in.numDefs == 0) // writes nothing we can see (R2P writes predicates implicitly)
    return false;
  for (const Operand &d : in.defs())
    if (d.kind == OperandKind::PReg && !d.isFixed())
      return false; // ABI registers, the stack pointer: not tracked by liveness
  return true;
}

namespace {

void addReads(const ori::Function &f, const Instr &in, llvm::BitVector &live) {
  for (const Operand &u : in.uses())
    for (const Operand &v : u.vregs())
      live.set(f.flatRegIndex(v.cls, v.reg));
  if (in.guard.kind == OperandKind::VReg)
    live.set(f.flatRegIndex(in.guard.cls, in.guard.reg));
  // A definition's operand may carry a register too (a Mem def never occurs; be safe).
  for (const Operand &d : in.defs())
    if (d.kind == OperandKind::Mem)
      for (const Operand &v : d.vregs())
        live.set(f.flatRegIndex(v.cls, v.reg));
}

unsigned removeOnce(ori::Function &f) {
  f.recomputeRegTable();
  ori::Liveness lv = ori::computeLiveness(f);
  unsigned removed = 0;
  for (uint32_t b = 0; b < f.blocks.size(); ++b) {
    ori::Block &blk = f.blocks[b];
    llvm::BitVector live = lv.liveOut[b];
    std::vector<bool> keep(blk.instrs.size(), true);
    for (size_t k = blk.instrs.size(); k-- > 0;) {
      const Instr &in = blk.instrs[k];
      bool anyLive = false;
      for (const Operand &d : in.defs()) {
        if (d.kind == OperandKind::VReg) {
          if (live.test(f.flatRegIndex(d.cls, d.reg)))
            anyLive = true;
        } else if (!(d.kind == OperandKind::PReg && d.isFixed())) {
          anyLive = true;
        }
      }
      if (!anyLive && isRemovableWhenDead(in)) {
        keep[k] = false;
        ++removed;
        continue;
      }
      if (!in.isGuarded())
        for (const Operand &d : in.defs())
          if (d.kind == OperandKind::VReg && d.sub == ori::kWholeReg)
            live.reset(f.flatRegIndex(d.cls, d.reg));
      addReads(f, in, live);
    }
    if (removed) {
      std::vector<Instr> out;
      out.reserve(blk.instrs.size());
      for (size_t k = 0; k < blk.instrs.size(); ++k)
        if (keep[k])
          out.push_back(std::move(blk.instrs[k]));
      blk.instrs = std::move(out);
    }
  }
  return removed;
}

} // namespace

unsigned removeDeadCode(ori::Function &f) {
  unsigned total = 0;
  for (;;) {
    unsigned n = removeOnce(f);
    total += n;
    if (n == 0)
      break;
  }
  f.recomputeRegTable();
  return total;
}

void runOriPerformLiveDeadFirst(ori::Function &f, PhaseContext &) { removeDeadCode(f); }

} // namespace ptxmini
