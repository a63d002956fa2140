//===- regalloc/allocate_registers.cpp - AllocateRegisters: virtual to physical --------===//
///
/// \file
/// Linear-scan register allocation (Poletto and Sarkar, "Linear Scan Register Allocation",
/// TOPLAS 1999) over conservative live intervals:
///   1. number the instructions in layout order;
///   2. each virtual register's interval is the hull of every position where it is defined,
///      used, or live across a block boundary (per-block liveness from ori/analysis: a value
///      live into or out of a block covers that block's whole range), so values live around
///      a loop back-edge cover the whole loop;
///   3. per register class, walk intervals by start position (ties by class-local number,
///      so the result is deterministic), expire intervals that ended, and give each the
///      lowest free register with the alignment its width needs (pairs even, quads a
///      multiple of four);
///   4. rewrite every operand (definitions, uses, guards, memory bases and descriptors).
/// Registers the ABI reserves are never handed out (Target::registers()). Running out of
/// registers is reported as an error: spilling is not implemented yet.
//===----------------------------------------------------------------------------------===//
#include "phases/phase_manager.h"

#include "ori/analysis/liveness.h"

#include <algorithm>
#include <map>
#include <vector>

namespace ptxmini {
namespace {

using ori::Operand;
using ori::OperandKind;
using ori::RegClass;

struct Interval {
  uint32_t start = UINT32_MAX, end = 0;
  void cover(uint32_t p) {
    start = std::min(start, p);
    end = std::max(end, p);
  }
  bool empty() const { return start == UINT32_MAX; }
};

/// Registers available per class. GUESS-free numbers come from the target; until the phase
/// context carries a Target, these are sm_90's (targets/target.cpp) and R0-R1 stay free of
/// allocation because R1 is the ABI stack pointer (ptxas loads it in every kernel).
struct ClassLimits {
  unsigned first, count;
};
ClassLimits limitsFor(RegClass c) {
  switch (c) {
  case RegClass::R:
    return {2, 253}; // R2..R254 (R0 kept free with R1 so pairs start aligned at R2)
  case RegClass::UR:
    return {4, 59}; // UR4..UR62; UR0-UR3 left to fixed uses, as ptxas's code does (GUESS)
  case RegClass::P:
    return {0, 7};
  case RegClass::UP:
    return {0, 7};
  case RegClass::B:
    return {0, 16};
  }
  return {0, 0};
}

struct AllocCtx {
  ori::Function &f;
  DiagEngine *diag;
  std::map<std::pair<RegClass, uint32_t>, uint32_t> assignment; ///< vreg -> first preg
};

void rewrite(AllocCtx &ctx, Operand &o) {
  auto physical = [&](Operand r) {
    auto it = ctx.assignment.find({r.cls, r.reg});
    if (it == ctx.assignment.end())
      return r;
    r.kind = OperandKind::PReg;
    r.reg = it->second;
    if (r.sub != ori::kWholeReg) { // one 32-bit component of a wide register
      r.reg += r.sub;
      r.sub = ori::kWholeReg;
      r.width = 1;
    }
    return r;
  };
  if (o.kind == OperandKind::VReg) {
    uint8_t mods = o.mods;
    o = physical(o);
    o.mods = mods;
  } else if (o.kind == OperandKind::Mem) {
    if (o.memBaseIsVReg()) {
      Operand b = physical(o.memBase());
      Operand desc = o.memDesc();
      int32_t off = o.memOffset();
      Operand m = Operand::mem(b, off);
      if (desc.kind == OperandKind::VReg)
        desc = physical(desc);
      if (desc.kind != OperandKind::None)
        m.setMemDesc(desc);
      o = m;
    } else if (Operand desc = o.memDesc(); desc.kind == OperandKind::VReg) {
      o.setMemDesc(physical(desc));
    }
  } else if (Operand x = o.cbankIndex(); x.kind == OperandKind::VReg) {
    o.setCbankIndex(physical(x));
  }
}

} // namespace

void runAllocateRegisters(ori::Function &f, PhaseContext &pc) {
  AllocCtx ctx{f, pc.diag, {}};
  // 1-2. Positions and intervals.
  ori::Liveness live = ori::computeLiveness(f);
  std::map<std::pair<RegClass, uint32_t>, Interval> intervals;
  std::vector<std::pair<RegClass, uint32_t>> flatToReg(f.numFlatRegs());
  for (unsigned c = 0; c < ori::kNumRegClasses; ++c)
    for (uint32_t n = 0; n < f.numRegs(static_cast<RegClass>(c)); ++n)
      if (f.regInfo(static_cast<RegClass>(c), n).width)
        flatToReg[f.flatRegIndex(static_cast<RegClass>(c), n)] = {static_cast<RegClass>(c), n};
  uint32_t pos = 0;
  for (uint32_t b = 0; b < f.blocks.size(); ++b) {
    uint32_t blockStart = pos;
    for (const ori::Instr &in : f.blocks[b].instrs) {
      auto note = [&](const Operand &o) {
        for (const Operand &v : o.vregs())
          intervals[{v.cls, v.reg}].cover(pos);
      };
      for (const Operand &o : in.ops)
        note(o);
      note(in.guard);
      ++pos;
    }
    uint32_t blockEnd = pos == blockStart ? pos : pos - 1;
    auto coverBlock = [&](const llvm::BitVector &set) {
      for (unsigned i : set.set_bits()) {
        auto &iv = intervals[flatToReg[i]];
        iv.cover(blockStart);
        iv.cover(blockEnd);
      }
    };
    if (b < live.liveIn.size()) {
      coverBlock(live.liveIn[b]);
      coverBlock(live.liveOut[b]);
    }
  }
  // 3. Linear scan per class.
  bool ok = true;
  for (unsigned ci = 0; ci < ori::kNumRegClasses && ok; ++ci) {
    RegClass c = static_cast<RegClass>(ci);
    std::vector<std::pair<uint32_t, Interval>> order;
    for (auto &[key, iv] : intervals)
      if (key.first == c && !iv.empty())
        order.push_back({key.second, iv});
    std::stable_sort(order.begin(), order.end(), [](const auto &a, const auto &b) {
      return a.second.start != b.second.start ? a.second.start < b.second.start
                                              : a.first < b.first;
    });
    ClassLimits lim = limitsFor(c);
    std::vector<uint32_t> busyUntil(lim.first + lim.count, 0);
    std::vector<bool> busy(lim.first + lim.count, false);
    for (auto &[n, iv] : order) {
      for (uint32_t r = lim.first; r < busy.size(); ++r)
        if (busy[r] && busyUntil[r] < iv.start)
          busy[r] = false;
      unsigned width = std::max<unsigned>(1, f.regInfo(c, n).width);
      bool placed = false;
      for (uint32_t r = lim.first; r + width <= busy.size() && !placed; ++r) {
        if (r % width)
          continue;
        bool free = true;
        for (unsigned k = 0; k < width; ++k)
          free &= !busy[r + k];
        if (!free)
          continue;
        for (unsigned k = 0; k < width; ++k) {
          busy[r + k] = true;
          busyUntil[r + k] = iv.end;
        }
        ctx.assignment[{c, n}] = r;
        placed = true;
      }
      if (!placed) {
        if (pc.diag)
          pc.diag->error("Function '" + f.name + "' needs more " +
                         std::string(ori::pregPrefix(c)) +
                         " registers than exist: spilling is not implemented yet");
        ok = false;
        break;
      }
    }
  }
  if (!ok)
    return;
  // 4. Rewrite.
  for (ori::Block &b : f.blocks)
    for (ori::Instr &in : b.instrs) {
      for (Operand &o : in.ops)
        rewrite(ctx, o);
      rewrite(ctx, in.guard);
    }
  f.recomputeRegTable();
}

} // namespace ptxmini
