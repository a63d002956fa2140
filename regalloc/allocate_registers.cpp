//===- regalloc/allocate_registers.cpp - AllocateRegisters: virtual to physical --------===//
///
/// \file
/// Linear-scan register allocation (Poletto and Sarkar, "Linear Scan Register Allocation",
/// TOPLAS 1999) with fixed intervals for pre-coloured registers and spilling by whole
/// intervals, iterated until everything fits (the spill-everywhere scheme of Chaitin's
/// allocator applied to linear scan):
///   0. copies of values that never change are merged with their source
///      (regalloc/coalesce.cpp);
///   1. intervals (regalloc/live_intervals.cpp): one conservative interval per virtual
///      register over program points (reads at 2i, writes at 2i+1), busy ranges of the
///      physical registers the calling convention names before allocation (argument and
///      result copies, the return address) and of each call's clobber set, spill weights
///      and copy hints;
///   2. per register class, intervals in order of start (ties by number, so the result is
///      deterministic): expire the ones that ended, then give the interval a free register
///      of the budget, aligned to its width (pairs even, quads a multiple of four), free of
///      busy ranges over its whole length: its hint first, then the lowest;
///   3. when none is free: among the aligned register groups that are free of busy ranges,
///      the one whose occupants weigh least; if they weigh less than the interval, they are
///      evicted and spilled, else the interval itself is spilled (a value live across a call
///      that clobbers every register spills here);
///   4. spill victims get spill code or are rematerialized (regalloc/spill.cpp), which
///      leaves only short temporaries behind; back to 1 (at most kMaxRounds times);
///   5. under ValidateIR the assignment is checked (regalloc/validate_ra.cpp), then every
///      operand is rewritten and the frame is finalized (regalloc/frame.cpp).
/// The budget: R registers up to the function's limit (Function::maxRegs from -maxrregcount,
/// .maxnreg and launch bounds, or the RegAllocLimit knob that tests use to force spills),
/// never R1 (the stack pointer, targets/calling_convention.h); UR4-UR62, P0-P6, UP0-UP6,
/// B0-B15.
//===----------------------------------------------------------------------------------===//
#include "phases/phase_manager.h"

#include "regalloc/regalloc_internal.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <map>
#include <vector>

namespace ptxmini {
namespace {

using ori::Operand;
using ori::OperandKind;
using ori::RegClass;
using ra::Interval;

constexpr unsigned kMaxRounds = 16;

struct ScanResult {
  std::vector<std::vector<int32_t>> assignment; ///< [class][vreg] -> first register, -1
  std::vector<std::pair<RegClass, uint32_t>> victims;
  std::string error;
};

/// Step 2-3 for one class. Each physical register records the interval whose component
/// occupies it and the last point of that component's range; it is free for a component
/// that starts after that point.
void scanClass(RegClass c, const ra::LiveInfo &li, const ra::RegisterBudget &budget,
               ScanResult &res) {
  std::vector<const Interval *> order;
  for (const Interval &iv : li.intervals)
    if (iv.cls == c && !iv.empty())
      order.push_back(&iv);
  std::stable_sort(order.begin(), order.end(), [](const Interval *a, const Interval *b) {
    return a->start != b->start ? a->start < b->start : a->num < b->num;
  });
  auto &assign = res.assignment[size_t(c)];
  const std::vector<uint32_t> &regs = budget.allocatable[size_t(c)];
  uint32_t top = regs.empty() ? 0 : regs.back() + 1;
  std::vector<const Interval *> occupant(top + 4, nullptr);
  std::vector<uint32_t> busyUntil(top + 4, 0);
  auto occupiedFor = [&](uint32_t r, uint32_t from) -> const Interval * {
    const Interval *o = occupant[r];
    return o && busyUntil[r] >= from ? o : nullptr;
  };
  auto release = [&](const Interval *iv) {
    int32_t r = assign[iv->num];
    for (uint32_t k = 0; k < iv->width; ++k)
      if (occupant[static_cast<uint32_t>(r) + k] == iv)
        occupant[static_cast<uint32_t>(r) + k] = nullptr;
  };
  for (const Interval *cur : order) {
    uint32_t w = cur->width;
    // Aligned groups of the budget free of busy ranges over each component's range.
    auto usable = [&](uint32_t r) {
      if (r % w)
        return false;
      for (uint32_t k = 0; k < w; ++k) {
        if (!budget.allows(c, r + k))
          return false;
        if (!cur->compEmpty(k) &&
            ra::fixedOverlaps(li, c, r + k, cur->compStart[k], cur->compEnd[k]))
          return false;
      }
      return true;
    };
    auto isFree = [&](uint32_t r) {
      for (uint32_t k = 0; k < w; ++k)
        if (!cur->compEmpty(k) && occupiedFor(r + k, cur->compStart[k]))
          return false;
      return true;
    };
    int32_t chosen = -1;
    auto tryReg = [&](int32_t r) {
      if (chosen < 0 && r >= 0 && static_cast<uint32_t>(r) + w <= top && usable(r) && isFree(r))
        chosen = r;
    };
    tryReg(cur->hint);
    if (cur->hintVReg >= 0 && static_cast<size_t>(cur->hintVReg) < assign.size())
      tryReg(assign[cur->hintVReg]);
    for (uint32_t r : regs) {
      if (chosen >= 0)
        break;
      tryReg(static_cast<int32_t>(r));
    }
    if (chosen < 0) {
      // Evict the lightest occupants of a usable group, or spill the interval itself.
      double best = -1;
      int32_t bestReg = -1;
      for (uint32_t r : regs) {
        if (r + w > top || !usable(r))
          continue;
        double cost = 0;
        bool ok = true;
        llvm::SmallVector<const Interval *, 4> seen;
        for (uint32_t k = 0; k < w && ok; ++k) {
          const Interval *o = cur->compEmpty(k) ? nullptr : occupiedFor(r + k, cur->compStart[k]);
          if (!o || llvm::is_contained(seen, o))
            continue;
          seen.push_back(o);
          if (o->unspillable)
            ok = false;
          cost += o->weight;
        }
        if (ok && (bestReg < 0 || cost < best)) {
          best = cost;
          bestReg = static_cast<int32_t>(r);
        }
      }
      if (bestReg >= 0 && (cur->unspillable || best < cur->weight)) {
        for (uint32_t k = 0; k < w; ++k) {
          const Interval *o = cur->compEmpty(k)
                                  ? nullptr
                                  : occupiedFor(static_cast<uint32_t>(bestReg) + k,
                                                cur->compStart[k]);
          if (!o)
            continue;
          release(o);
          assign[o->num] = -1;
          res.victims.push_back({c, o->num});
        }
        chosen = bestReg;
      } else if (!cur->unspillable) {
        res.victims.push_back({c, cur->num});
        continue;
      } else {
        res.error = "no " + std::string(ori::pregPrefix(c)) + " register is left for " +
                    std::string(ori::vregPrefix(c)) + std::to_string(cur->num) + " (" +
                    std::to_string(32 * w) + "-bit, a spill temporary, live over instructions " +
                    std::to_string(cur->start / 2) + "-" + std::to_string(cur->end / 2) + ")";
        return;
      }
    }
    assign[cur->num] = chosen;
    for (uint32_t k = 0; k < w; ++k) {
      if (cur->compEmpty(k))
        continue;
      uint32_t r = static_cast<uint32_t>(chosen) + k;
      // A component that ends before the current occupant's range does not displace it.
      if (occupiedFor(r, 0) && busyUntil[r] > cur->compEnd[k])
        continue;
      occupant[r] = cur;
      busyUntil[r] = cur->compEnd[k];
    }
  }
}

void rewrite(const std::vector<std::vector<int32_t>> &assign, Operand &o) {
  auto physical = [&](Operand r) {
    const auto &a = assign[size_t(r.cls)];
    if (r.reg >= a.size() || a[r.reg] < 0)
      return r;
    r.kind = OperandKind::PReg;
    r.reg = static_cast<uint32_t>(a[r.reg]);
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
    Operand base = o.memBase(), desc = o.memDesc();
    if (base.kind == OperandKind::VReg)
      base = physical(base);
    if (desc.kind == OperandKind::VReg)
      desc = physical(desc);
    uint8_t keep = o.mods & static_cast<uint8_t>(~(ori::OM_MEMBASE_V | ori::OM_MEMBASE_P));
    o = Operand::mem(base, o.memOffset(), desc);
    o.mods |= keep;
  } else if (Operand x = o.cbankIndex(); x.kind == OperandKind::VReg) {
    o.setCbankIndex(physical(x));
  }
}

/// The kernel's stack-pointer load goes first, so spill code never runs before it.
void hoistStackPointerLoad(ori::Function &f, const Target &t) {
  if (!f.isKernel || f.blocks.empty())
    return;
  auto &entry = f.blocks[0].instrs;
  for (size_t i = 1; i < entry.size(); ++i)
    for (const Operand &d : entry[i].defs())
      if (d.kind == OperandKind::PReg && d.cls == RegClass::R &&
          d.reg == t.callingConvention().stackPointer) {
        ori::Instr ldc = entry[i];
        entry.erase(entry.begin() + static_cast<ptrdiff_t>(i));
        entry.insert(entry.begin(), ldc);
        return;
      }
}

} // namespace

void runAllocateRegisters(ori::Function &f, PhaseContext &pc) {
  const Target &t = *pc.target;
  uint32_t limit = f.maxRegs;
  if (int64_t forced = pc.knobs.getInt(KnobId::RegAllocLimit); forced > 0)
    limit = limit ? std::min<uint32_t>(limit, static_cast<uint32_t>(forced))
                  : static_cast<uint32_t>(forced);
  ra::RegisterBudget budget = ra::makeBudget(t, limit);
  auto fail = [&](const std::string &msg) {
    if (pc.diag)
      pc.diag->error("Function '" + f.name + "': register allocation failed: " + msg);
  };
  // Registers the code names before allocation must be inside the budget.
  for (const ori::Block &b : f.blocks)
    for (const ori::Instr &in : b.instrs)
      for (const Operand &o : in.ops)
        if (o.kind == OperandKind::PReg && !o.isFixed() && o.cls == RegClass::R &&
            o.reg != t.callingConvention().stackPointer)
          for (uint32_t k = 0; k < std::max<uint32_t>(1, o.width); ++k)
            if (!budget.allows(RegClass::R, o.reg + k)) {
              fail("the calling convention needs R" + std::to_string(o.reg + k) +
                   ", beyond the register limit of " + std::to_string(limit) + " registers");
              return;
            }
  hoistStackPointerLoad(f, t);
  ra::coalesceCopies(f);
  std::vector<std::pair<RegClass, uint32_t>> spillTemps;
  ScanResult res;
  for (unsigned round = 0;; ++round) {
    ra::LiveInfo li = ra::computeLiveInfo(f, t, spillTemps);
    res = ScanResult{};
    res.assignment.resize(ori::kNumRegClasses);
    for (unsigned c = 0; c < ori::kNumRegClasses; ++c)
      res.assignment[c].assign(f.numRegs(static_cast<RegClass>(c)), -1);
    for (unsigned c = 0; c < ori::kNumRegClasses && res.error.empty(); ++c)
      scanClass(static_cast<RegClass>(c), li, budget, res);
    if (!res.error.empty()) {
      fail(res.error);
      return;
    }
    if (res.victims.empty())
      break;
    if (round + 1 == kMaxRounds) {
      fail("still spilling after " + std::to_string(kMaxRounds) + " rounds");
      return;
    }
    std::sort(res.victims.begin(), res.victims.end());
    std::string err;
    if (!ra::insertSpillCode(f, t, res.victims, spillTemps, err)) {
      fail(err);
      return;
    }
  }
  if (pc.knobs.getBool(KnobId::ValidateIR))
    for (const std::string &p : ra::validateAllocation(f, t, res.assignment))
      if (pc.diag)
        pc.diag->error("Internal error: register allocation validation failed: " + p);
  for (ori::Block &b : f.blocks)
    for (ori::Instr &in : b.instrs) {
      for (Operand &o : in.ops)
        rewrite(res.assignment, o);
      rewrite(res.assignment, in.guard);
    }
  ra::finalizeFrame(f, t);
  f.recomputeRegTable();
}

} // namespace ptxmini
