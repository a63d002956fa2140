//===- regalloc/allocate_registers.cpp - AllocateRegisters: virtual to physical --------===//
///
/// \file
/// Linear-scan register allocation over live ranges with holes (Traub, Holloway and Smith,
/// "Quality and Speed in Linear-scan Register Allocation", PLDI 1998, and Wimmer and
/// Mössenböck, "Optimized Interval Splitting in a Linear Scan Register Allocator", VEE 2005,
/// without their splitting), with fixed intervals for pre-coloured registers and spilling by
/// whole intervals, iterated until everything fits (the spill-everywhere scheme of
/// Chaitin's allocator applied to linear scan):
///   0. copies of values that never change are merged with their source
///      (regalloc/coalesce.cpp);
///   1. intervals (regalloc/live_intervals.cpp): per virtual register and 32-bit component,
///      the sorted segments of program points (reads at 2i, writes at 2i+1) where it is
///      live, from block liveness, so a value dead across a region leaves its register free
///      there; busy ranges of the physical registers the calling convention names before
///      allocation (argument and result copies, the return address) and of each call's
///      clobber set; spill weights (uses and definitions weighted 10^loop depth, per live
///      length) and copy hints;
///   2. per register class, intervals in order of start (ties by number, so the result is
///      deterministic). Each physical register holds the segments of the intervals given to
///      it (a register union, as LLVM's allocators keep); a group (aligned to the interval's
///      width: pairs even, quads a multiple of four, octets of eight) is free when no segment of it and no
///      busy range meets the interval's segments, so a value can live in another's hole.
///      Choice: the copy hint first; then, among free groups below the registers the class
///      needs anyway (the most units live at one point, or the highest register used so
///      far), the one whose last value ended longest ago, so the post-RA scheduler is not
///      held back by a write-after-read dependence on the value that just left it
///      (RegAllocSpread; off: the lowest free group); else the lowest free group. A class
///      is scanned lowest-first, then spread; spreading is kept only when it spills nothing
///      and uses no register above the lowest-first scan's highest (it can fragment the
///      aligned groups that pairs and quads need);
///      With a soft target (R only; knob RegAllocRematSlack, default 2): the registers
///      the values that cannot be recomputed need at their most (maxLive over intervals
///      that are not rematerializable, R1 skipped) plus the slack. Every choice above is
///      made below it (only when the target's count keeps more warps resident than the
///      count all values live at once would: regalloc/occupancy.h); when nothing there is free, a rematerializable interval (one
///      constant definition: a parameter's LDC, a MOV of an immediate, a stable S2R) is
///      spilled itself, or the lightest set of rematerializable occupants of a group
///      below the target is evicted, before a register above the target is taken. Spill
///      code recomputes them before each use (step 4), which is what ptxas does with its
///      parameter loads (LDC/ULDC next to their uses) instead of keeping them live from
///      the entry; it turns the hoisted constants of the late LICM passes back into
///      short ranges;
///   3. when none is free: among the usable groups, the one whose overlapping occupants
///      weigh least; if they weigh less than the interval, they are evicted and spilled,
///      else the interval itself is spilled (a value live across a call that clobbers
///      every register spills here);
///   4. spill victims get spill code or are rematerialized (regalloc/spill.cpp), which
///      leaves only short temporaries behind; back to 1 (at most kMaxRounds times);
///   5. under ValidateIR the assignment is checked (regalloc/validate_ra.cpp), then every
///      operand is rewritten and the frame is finalized (regalloc/frame.cpp).
/// The budget: R registers up to the function's limit (Function::maxRegs from -maxrregcount,
/// .maxnreg and launch bounds, or the RegAllocLimit knob that tests use to force spills; in a
/// kernel with setmaxnreg the largest count it moves to, each region held to its own count),
/// never R1 (the stack pointer, targets/calling_convention.h); UR4-UR62, P0-P6, UP0-UP6,
/// B0-B15.
//===----------------------------------------------------------------------------------===//
#include "phases/phase_manager.h"

#include "regalloc/occupancy.h"
#include "regalloc/regalloc_internal.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <map>
#include <tuple>
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

/// What each physical register of a class holds: the segments of the intervals assigned to
/// it, disjoint, by start (LLVM's LiveIntervalUnion in small). Since they are disjoint,
/// their ends are sorted too, so the segments meeting [s, e] are found by walking back
/// from the last one starting at or before e.
class RegisterUnion {
public:
  struct Seg {
    uint32_t end;
    const Interval *owner;
  };
  explicit RegisterUnion(uint32_t numRegs) : regs_(numRegs) {}
  /// Calls fn(owner) for every segment of r meeting [s, e] (an owner may come twice);
  /// stops early when fn returns false. Returns false when it stopped early.
  template <typename Fn> bool forEachOverlap(uint32_t r, uint32_t s, uint32_t e, Fn fn) const {
    const auto &m = regs_[r];
    auto it = m.upper_bound(e);
    while (it != m.begin()) {
      --it;
      if (it->second.end < s)
        break;
      if (!fn(it->second.owner))
        return false;
    }
    return true;
  }
  bool overlaps(uint32_t r, const llvm::SmallVectorImpl<ra::Range> &segs) const {
    if (regs_[r].empty())
      return false;
    for (const ra::Range &x : segs)
      if (!forEachOverlap(r, x.start, x.end, [](const Interval *) { return false; }))
        return true;
    return false;
  }
  void add(uint32_t r, const llvm::SmallVectorImpl<ra::Range> &segs, const Interval *owner) {
    for (const ra::Range &x : segs)
      regs_[r].emplace(x.start, Seg{x.end, owner});
  }
  void remove(uint32_t r, const llvm::SmallVectorImpl<ra::Range> &segs) {
    for (const ra::Range &x : segs)
      regs_[r].erase(x.start);
  }
  /// The end of the last segment of r ending before p (0 when none): when r was last freed.
  uint32_t freedBefore(uint32_t r, uint32_t p) const {
    const auto &m = regs_[r];
    auto it = m.lower_bound(p);
    if (it == m.begin())
      return 0;
    return std::prev(it)->second.end;
  }
  bool used(uint32_t r) const { return !regs_[r].empty(); }

private:
  std::vector<std::map<uint32_t, Seg>> regs_;
};

/// Step 2-3 for one class.
void scanClass(RegClass c, const ra::LiveInfo &li, const ra::RegisterBudget &budget,
               bool spread, uint32_t soft, ScanResult &res) {
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
  RegisterUnion occ(top + 4);
  // The registers the class needs at least: the most units live at one point, as the
  // budget's first registers (a lower bound: alignment of pairs and quads can need more).
  // Register choice spreads values over these and over what the scan has used so far.
  uint32_t bound = 0;
  if (spread) {
    std::vector<std::pair<uint32_t, int32_t>> events;
    for (const Interval *iv : order)
      for (uint32_t k = 0; k < iv->width; ++k)
        for (const ra::Range &x : iv->segs[k]) {
          events.push_back({x.start, 1});
          events.push_back({x.end + 1, -1});
        }
    llvm::sort(events);
    int32_t live = 0, maxLive = 0;
    for (auto [p, d] : events)
      maxLive = std::max(maxLive, live += d);
    size_t n = std::min<size_t>(static_cast<size_t>(maxLive), regs.size());
    bound = n ? regs[n - 1] + 1 : 0;
  }
  auto place = [&](const Interval *iv, uint32_t r) {
    assign[iv->num] = static_cast<int32_t>(r);
    for (uint32_t k = 0; k < iv->width; ++k)
      occ.add(r + k, iv->segs[k], iv);
  };
  auto unplace = [&](const Interval *iv) {
    uint32_t r = static_cast<uint32_t>(assign[iv->num]);
    for (uint32_t k = 0; k < iv->width; ++k)
      occ.remove(r + k, iv->segs[k]);
    assign[iv->num] = -1;
  };
  // Aligned groups of the budget free of busy ranges over each component's segments.
  auto usableFor = [&](const Interval *iv, uint32_t r) {
    uint32_t w = iv->width;
    if (r % w || r + w > top)
      return false;
    for (uint32_t k = 0; k < w; ++k) {
      if (!budget.allows(c, r + k))
        return false;
      for (const ra::Range &x : iv->segs[k])
        if (ra::fixedOverlaps(li, c, r + k, x.start, x.end))
          return false;
    }
    return true;
  };
  auto freeFor = [&](const Interval *iv, uint32_t r) {
    for (uint32_t k = 0; k < iv->width; ++k)
      if (occ.overlaps(r + k, iv->segs[k]))
        return false;
    return true;
  };
  for (const Interval *cur : order) {
    uint32_t w = cur->width;
    auto usable = [&](uint32_t r) { return usableFor(cur, r); };
    auto isFree = [&](uint32_t r) { return freeFor(cur, r); };
    int32_t chosen = -1;
    auto tryReg = [&](int32_t r) {
      if (chosen < 0 && r >= 0 && usable(static_cast<uint32_t>(r)) &&
          isFree(static_cast<uint32_t>(r)))
        chosen = r;
    };
    // Below the soft target first (every register when there is none).
    auto belowSoft = [&](int32_t r) { return r >= 0 && static_cast<uint32_t>(r) + w <= soft; };
    if (belowSoft(cur->hint))
      tryReg(cur->hint);
    if (cur->hintVReg >= 0 && static_cast<size_t>(cur->hintVReg) < assign.size() &&
        belowSoft(assign[cur->hintVReg]))
      tryReg(assign[cur->hintVReg]);
    if (chosen < 0 && spread) {
      // Below the registers the class needs anyway, the free group freed longest ago, so
      // the value does not land in the register the previous one just left (a WAR
      // dependence the post-RA scheduler could not move across).
      uint32_t bestFreed = UINT32_MAX;
      for (uint32_t r : regs) {
        if (r + w > bound || !belowSoft(static_cast<int32_t>(r)))
          break;
        if (!usable(r) || !isFree(r))
          continue;
        uint32_t freed = 0;
        for (uint32_t k = 0; k < w; ++k)
          if (!cur->compEmpty(k))
            freed = std::max(freed, occ.freedBefore(r + k, cur->segs[k].front().start));
        if (freed < bestFreed) {
          bestFreed = freed;
          chosen = static_cast<int32_t>(r);
        }
      }
    }
    for (uint32_t r : regs) {
      if (chosen >= 0 || !belowSoft(static_cast<int32_t>(r)))
        break;
      tryReg(static_cast<int32_t>(r));
    }
    // The lightest set of occupants to evict from one usable group of `w` registers (in
    // `regs` order; below the soft target only, and rematerializable occupants only, when
    // rematOnly): its summed weight, the group (-1: none), the occupants.
    auto cheapestEviction = [&](bool rematOnly) {
      double best = -1;
      int32_t bestReg = -1;
      llvm::SmallVector<const Interval *, 8> bestSet;
      for (uint32_t r : regs) {
        if (rematOnly && !belowSoft(static_cast<int32_t>(r)))
          break;
        if (!usable(r))
          continue;
        double cost = 0;
        bool ok = true;
        llvm::SmallVector<const Interval *, 8> seen;
        for (uint32_t k = 0; k < w && ok; ++k)
          for (const ra::Range &x : cur->segs[k]) {
            ok = occ.forEachOverlap(r + k, x.start, x.end, [&](const Interval *o) {
              if (llvm::is_contained(seen, o))
                return true;
              seen.push_back(o);
              cost += o->weight;
              return (!rematOnly || o->remat) && !o->unspillable && (bestReg < 0 || cost < best);
            });
            if (!ok)
              break;
          }
        if (ok && (bestReg < 0 || cost < best)) {
          best = cost;
          bestReg = static_cast<int32_t>(r);
          bestSet = seen;
        }
      }
      return std::tuple{best, bestReg, bestSet};
    };
    if (chosen < 0 && soft != UINT32_MAX && !cur->unspillable) {
      // Above the soft target only when no rematerializable value can make room below it:
      // the lightest set of rematerializable occupants of a group below the target, or the
      // interval itself when it is rematerializable and weighs less.
      auto [best, bestReg, bestSet] = cheapestEviction(/*rematOnly=*/true);
      if (cur->remat && (bestReg < 0 || cur->weight <= best)) {
        res.victims.push_back({c, cur->num});
        continue;
      }
      if (bestReg >= 0) {
        for (const Interval *o : bestSet) {
          unplace(o);
          res.victims.push_back({c, o->num});
        }
        chosen = bestReg;
      }
    }
    for (uint32_t r : regs) {
      if (chosen >= 0)
        break;
      tryReg(static_cast<int32_t>(r));
    }
    if (chosen < 0) {
      // Evict the lightest occupants of a usable group, or spill the interval itself.
      auto [best, bestReg, bestSet] = cheapestEviction(/*rematOnly=*/false);
      if (bestReg >= 0 && (cur->unspillable || best < cur->weight)) {
        for (const Interval *o : bestSet) {
          unplace(o);
          res.victims.push_back({c, o->num});
        }
        chosen = bestReg;
      } else if (!cur->unspillable) {
        res.victims.push_back({c, cur->num});
        continue;
      } else {
        // A spill temporary that finds every group held by other temporaries (those of
        // one instruction, taken in start order, can block the only aligned group a wider
        // one needs): move them to other free groups, evict the rest.
        for (uint32_t r : regs) {
          if (!usable(r))
            continue;
          llvm::SmallVector<const Interval *, 8> occupants;
          for (uint32_t k = 0; k < w; ++k)
            for (const ra::Range &x : cur->segs[k])
              occ.forEachOverlap(r + k, x.start, x.end, [&](const Interval *o) {
                if (!llvm::is_contained(occupants, o))
                  occupants.push_back(o);
                return true;
              });
          llvm::SmallVector<std::pair<const Interval *, uint32_t>, 4> moved;
          bool ok = true;
          for (const Interval *o : occupants) {
            if (!o->unspillable)
              continue;
            uint32_t old = static_cast<uint32_t>(assign[o->num]);
            unplace(o);
            int32_t alt = -1;
            for (uint32_t q : regs)
              if ((q + o->width <= r || q >= r + w) && usableFor(o, q) && freeFor(o, q)) {
                alt = static_cast<int32_t>(q);
                break;
              }
            if (alt < 0) {
              place(o, old);
              ok = false;
              break;
            }
            place(o, static_cast<uint32_t>(alt));
            moved.push_back({o, old});
          }
          if (!ok) {
            for (auto it = moved.rbegin(); it != moved.rend(); ++it) {
              unplace(it->first);
              place(it->first, it->second);
            }
            continue;
          }
          for (const Interval *o : occupants)
            if (!o->unspillable) {
              unplace(o);
              res.victims.push_back({c, o->num});
            }
          chosen = static_cast<int32_t>(r);
          break;
        }
      }
      if (chosen < 0) {
        res.error = "no " + std::string(ori::pregPrefix(c)) + " register is left for " +
                    std::string(ori::vregPrefix(c)) + std::to_string(cur->num) + " (" +
                    std::to_string(32 * w) + "-bit, " +
                    (w > 4 ? "an operand tuple" : "a spill temporary") + ", live over instructions " +
                    std::to_string(cur->start / 2) + "-" + std::to_string(cur->end / 2) + ")";
        return;
      }
    }
    place(cur, static_cast<uint32_t>(chosen));
    bound = std::max(bound, static_cast<uint32_t>(chosen) + w);
  }
}

/// The most 32-bit units of class c live at one point (rematerializable values counted
/// only when withRemat).
uint32_t maxLiveUnits(const ra::LiveInfo &li, RegClass c, bool withRemat) {
  std::vector<std::pair<uint32_t, int32_t>> events;
  for (const Interval &iv : li.intervals) {
    if (iv.cls != c || iv.empty() || (iv.remat && !withRemat))
      continue;
    for (uint32_t k = 0; k < iv.width; ++k)
      for (const ra::Range &x : iv.segs[k]) {
        events.push_back({x.start, 1});
        events.push_back({x.end + 1, -1});
      }
  }
  llvm::sort(events);
  int32_t live = 0, most = 0;
  for (auto [p, d] : events)
    most = std::max(most, live += d);
  return static_cast<uint32_t>(most);
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
  int64_t forced = pc.knobs.getInt(KnobId::RegAllocLimit);
  if (forced > 0)
    limit = limit ? std::min<uint32_t>(limit, static_cast<uint32_t>(forced))
                  : static_cast<uint32_t>(forced);
  // setmaxnreg: the kernel starts with `limit` registers and its USETMAXREG instructions
  // move it to other counts; the budget is the largest, each region's own count is held by
  // busy ranges (live_intervals.cpp). A forced limit (tests) holds everywhere.
  uint32_t pool = forced > 0 || !limit ? 0 : ra::setmaxnregPool(f);
  uint32_t entryCount = pool ? limit : 0;
  ra::RegisterBudget budget = ra::makeBudget(t, std::max(limit, pool));
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
                   ", beyond the register limit of " + std::to_string(std::max(limit, pool)) +
                   " registers");
              return;
            }
  bool spread = pc.knobs.getBool(KnobId::RegAllocSpread);
  hoistStackPointerLoad(f, t);
  ra::coalesceCopies(f);
  std::vector<std::pair<RegClass, uint32_t>> spillTemps;
  ScanResult res;
  int64_t rematSlack = pc.knobs.getInt(KnobId::RegAllocRematSlack);
  uint32_t soft = UINT32_MAX;
  for (unsigned round = 0;; ++round) {
    ra::LiveInfo li = ra::computeLiveInfo(f, t, spillTemps, entryCount);
    if (round == 0 && rematSlack >= 0) {
      // The soft target: the R registers the values that cannot be recomputed need at
      // their most (R1 skipped), plus the slack; above it only when no rematerializable
      // value can make room.
      // Only where it can gain a step of occupancy: the count all values would need at
      // once (-v counts the highest register + 3, R1 skipped) and the target's count
      // keep different numbers of warps resident.
      uint32_t need = maxLiveUnits(li, RegClass::R, /*withRemat=*/false);
      uint32_t all = maxLiveUnits(li, RegClass::R, /*withRemat=*/true);
      uint64_t s = uint64_t(need) + 1 + static_cast<uint64_t>(rematSlack);
      const auto &regs = budget.allocatable[size_t(RegClass::R)];
      if (!regs.empty() && s <= regs.back() &&
          occupancyCeiling(t, static_cast<uint32_t>(s) + 2) < occupancyCeiling(t, all + 3))
        soft = static_cast<uint32_t>(s);
    }
    res = ScanResult{};
    res.assignment.resize(ori::kNumRegClasses);
    for (unsigned c = 0; c < ori::kNumRegClasses; ++c)
      res.assignment[c].assign(f.numRegs(static_cast<RegClass>(c)), -1);
    for (unsigned c = 0; c < ori::kNumRegClasses && res.error.empty(); ++c) {
      uint32_t cs = c == size_t(RegClass::R) ? soft : UINT32_MAX;
      scanClass(static_cast<RegClass>(c), li, budget, /*spread=*/false, cs, res);
      if (!spread || !res.error.empty() || !res.victims.empty())
        continue;
      // Spreading can fragment the aligned groups pairs and quads need: it is kept only
      // when it fits without spilling in no more registers than the lowest-first choice.
      ScanResult alt;
      alt.assignment.resize(ori::kNumRegClasses);
      alt.assignment[c].assign(res.assignment[c].size(), -1);
      scanClass(static_cast<RegClass>(c), li, budget, /*spread=*/true, cs, alt);
      auto highest = [](const std::vector<int32_t> &a, const ra::LiveInfo &l, RegClass k) {
        int32_t h = -1;
        for (const Interval &iv : l.intervals)
          if (iv.cls == k && !iv.empty() && a[iv.num] >= 0)
            h = std::max(h, a[iv.num] + iv.width - 1);
        return h;
      };
      if (alt.error.empty() && alt.victims.empty() &&
          highest(alt.assignment[c], li, static_cast<RegClass>(c)) <=
              highest(res.assignment[c], li, static_cast<RegClass>(c)))
        res.assignment[c] = std::move(alt.assignment[c]);
    }
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
