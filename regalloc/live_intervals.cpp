//===- regalloc/live_intervals.cpp - intervals, busy ranges, weights, hints ------------===//
///
/// \file
/// One interval per virtual register: per 32-bit component, the sorted disjoint segments of
/// program points where it is live (a write at 2i+1 to the last read at 2j that it reaches),
/// from per-block liveness of components computed here and a backward walk over each
/// block (computeSegments). A value live across a loop back-edge covers the whole loop; a
/// value live in one arm of a branch leaves a hole over the other arm; a value whose last
/// read comes before its next write leaves a hole between them.
///
/// Busy ranges of physical registers, from the calling convention
/// (targets/calling_convention.h), computed block by block:
///   - a physical register read at i is busy from its last write in the block (or from the
///     block's first point when it has none: parameters at entry, results after a call);
///   - a physical register written at i is busy until its last read in the block, and to
///     the block's end when the block ends with CALL or RET (their implicit reads) or when
///     nothing in the block reads it;
///   - a CALL at i makes every register of its callee's clobber set busy at 2i+1, so a value
///     live across the call cannot live in one (unknown callee: every register).
/// R1 (the stack pointer) and the fixed registers (RZ, PT, ...) are never tracked.
///
/// Spill weight: each read or write counts 10^(loop depth) (depth capped at 4), divided by
/// the interval's live length in instructions (holes do not count); spill temporaries are
/// unspillable. Hints: a copy `MOV v, Rk` or `MOV Rk, v` asks v for Rk; `MOV v, u` asks v
/// for u's register.
//===----------------------------------------------------------------------------------===//
#include "regalloc/regalloc_internal.h"

#include "ori/analysis/accumulator_liveness.h"
#include "ori/analysis/liveness.h"

#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <cmath>

namespace ptxmini::ra {

using ori::Instr;
using ori::Operand;
using ori::OperandKind;
using ori::RegClass;

bool RegisterBudget::allows(RegClass c, uint32_t r) const {
  const auto &v = allocatable[size_t(c)];
  return std::binary_search(v.begin(), v.end(), r);
}

RegisterBudget makeBudget(const Target &t, uint32_t maxRegCount) {
  RegisterBudget b;
  const RegisterFiles &rf = t.registers();
  const CallingConvention &cc = t.callingConvention();
  // ptxas -v counts the highest R register + 1 + 2 (encoder/emit_function.cpp), so a
  // count of N leaves R0..R(N-3).
  uint32_t count = maxRegCount ? std::min(maxRegCount, t.maxRegisterCount()) : t.maxRegisterCount();
  uint32_t lastR = std::min<uint32_t>(lastGprOfCount(count), rf.numGprs - 1);
  for (uint32_t r = 0; r <= lastR; ++r)
    if (r != cc.stackPointer)
      b.allocatable[size_t(RegClass::R)].push_back(r);
  // GUESS: UR0-UR3 are left out, as the original allocator did (ptxas's code mostly starts
  // its uniform values at UR4).
  for (uint32_t r = 4; r < rf.numUgprs; ++r)
    b.allocatable[size_t(RegClass::UR)].push_back(r);
  for (uint32_t r = 0; r < rf.numPreds; ++r) {
    b.allocatable[size_t(RegClass::P)].push_back(r);
    b.allocatable[size_t(RegClass::UP)].push_back(r);
  }
  // HW: sm_90 has 16 convergence-barrier registers B0-B15 (BSSY B<n> in ptxas's code).
  for (uint32_t r = 0; r < 16; ++r)
    b.allocatable[size_t(RegClass::B)].push_back(r);
  return b;
}

ori::PhysRegSet everyAllocatable(const Target &t) {
  RegisterBudget b = makeBudget(t, 0);
  ori::PhysRegSet s;
  for (unsigned c = 0; c < ori::kNumRegClasses; ++c)
    for (uint32_t r : b.allocatable[c])
      s.set(static_cast<RegClass>(c), r);
  // The calling convention's fixed registers are clobbered too (return address, results).
  for (uint32_t r = 0; r < t.registers().numGprs; ++r)
    if (r != t.callingConvention().stackPointer)
      s.set(RegClass::R, r);
  return s;
}

bool fixedOverlaps(const LiveInfo &li, RegClass c, uint32_t r, uint32_t s, uint32_t e) {
  const auto &per = li.fixed[size_t(c)];
  if (r >= per.size() || per[r].empty())
    return false;
  // Ranges sorted by start with a running maximum of their ends: the last range starting
  // at or before e decides.
  const auto &ranges = per[r];
  auto it = std::upper_bound(ranges.begin(), ranges.end(), e,
                             [](uint32_t v, const Range &x) { return v < x.start; });
  if (it == ranges.begin())
    return false;
  size_t j = static_cast<size_t>(it - ranges.begin()) - 1;
  return li.fixedMaxEnd[size_t(c)][r][j] >= s;
}

namespace {

void addFixed(LiveInfo &li, RegClass c, uint32_t r, uint32_t s, uint32_t e) {
  auto &per = li.fixed[size_t(c)];
  if (per.size() <= r)
    per.resize(r + 1);
  per[r].push_back({std::min(s, e), std::max(s, e)});
}

bool isTrackedPreg(const Operand &o, const Target &t) {
  return o.kind == OperandKind::PReg && !o.isFixed() &&
         !(o.cls == RegClass::R && o.reg == t.callingConvention().stackPointer);
}

/// Physical registers an operand names (a Mem operand's base included).
void pregsOf(const Operand &o, const Target &t, llvm::SmallVectorImpl<Operand> &out) {
  if (o.kind == OperandKind::PReg) {
    if (isTrackedPreg(o, t))
      out.push_back(o);
  } else if (o.kind == OperandKind::Mem && o.hasMemBase() && !o.memBaseIsVReg()) {
    Operand b = o.memBase();
    if (isTrackedPreg(b, t))
      out.push_back(b);
  }
  if (o.kind == OperandKind::Mem)
    if (Operand d = o.memDesc(); isTrackedPreg(d, t))
      out.push_back(d);
}

/// The registers a physical operand covers: a component, or the whole pair/quad.
std::pair<uint32_t, uint32_t> span(const Operand &o) {
  if (o.sub != ori::kWholeReg)
    return {o.reg + o.sub, 1};
  return {o.reg, std::max<uint32_t>(1, o.width)};
}

} // namespace

namespace {

/// Per-block liveness of 32-bit components (a pair is two units, a quad four), so that a
/// 64-bit value built by two component writes is not live before the first of them, as
/// vreg-granular liveness (ori/analysis/liveness.h) must assume. Same equations:
/// liveIn = upwardExposed | (liveOut - killed), a guarded write kills nothing.
/// A read of a whole register does not read the components that no instruction of the
/// function writes when some other component is written: the unused tail of an operand
/// tuple (a 5-register TMA tuple in an octet, a 3-register one in a quad) holds nothing, and
/// keeping it live back to the entry would hold its registers for the whole function.
struct UnitLiveness {
  std::vector<uint32_t> firstUnit; ///< by flat register index
  std::vector<uint32_t> unitToFlat;
  llvm::BitVector ignored; ///< units never written whose register has a written unit
  std::vector<llvm::BitVector> liveIn, liveOut;
  /// The units [first, end) a virtual register operand (or one component of it) names.
  std::pair<uint32_t, uint32_t> units(const ori::Function &f, const Operand &o) const {
    if (o.kind != OperandKind::VReg || o.reg >= f.numRegs(o.cls))
      return {0, 0};
    uint32_t k = f.flatRegIndex(o.cls, o.reg);
    uint32_t b = firstUnit[k], e = firstUnit[k + 1];
    if (o.sub != ori::kWholeReg)
      return b + o.sub < e ? std::pair{b + o.sub, b + o.sub + 1u} : std::pair{0u, 0u};
    return {b, e};
  }
  /// Whether a read of unit x keeps it live.
  bool readable(uint32_t x) const { return !ignored.test(x); }
};

/// Per block and instruction: whether its uniform-register results are written for the warp
/// although it is guarded, because its guard is the predicate an ELECT of the same block
/// produced last (the ELECT loop of the bulk and tensor copies, frontend/lower/
/// lower_bulk_copy.cpp: each trip elects one pending thread, and that thread's R2UR writes
/// the warp's uniform register). Such writes kill the old value like unguarded ones;
/// otherwise a tuple filled in the loop would stay live around every enclosing loop.
std::vector<std::vector<bool>> electGuardedWrites(const ori::Function &f) {
  std::vector<std::vector<bool>> out(f.blocks.size());
  std::vector<uint32_t> electDefs; // P vregs whose last definition so far is an ELECT
  for (size_t b = 0; b < f.blocks.size(); ++b) {
    const auto &instrs = f.blocks[b].instrs;
    out[b].assign(instrs.size(), false);
    electDefs.clear();
    for (size_t j = 0; j < instrs.size(); ++j) {
      const Instr &in = instrs[j];
      const Operand &g = in.guard;
      out[b][j] = g.kind == OperandKind::VReg && g.cls == RegClass::P &&
                  !(g.mods & ori::OM_NOT) && llvm::is_contained(electDefs, g.reg);
      for (unsigned k = 0; k < in.numDefs && k < in.ops.size(); ++k) {
        const Operand &d = in.ops[k];
        if (d.kind == OperandKind::VReg && d.cls == RegClass::P) {
          llvm::erase(electDefs, d.reg);
          if (in.op == ori::Opcode::ELECT && k == 0)
            electDefs.push_back(d.reg);
        }
      }
    }
  }
  return out;
}

/// Whether definition `d` of `in` replaces the old value (`certain`: electGuardedWrites).
bool kills(const Instr &in, const Operand &d, bool certain) {
  return !in.isGuarded() || (certain && d.cls == RegClass::UR);
}

UnitLiveness computeUnitLiveness(const ori::Function &f,
                                 const std::vector<std::vector<bool>> &certain) {
  UnitLiveness u;
  uint32_t nflat = f.numFlatRegs();
  u.firstUnit.assign(nflat + 1, 0);
  for (unsigned c = 0; c < ori::kNumRegClasses; ++c)
    for (uint32_t n = 0; n < f.numRegs(static_cast<RegClass>(c)); ++n) {
      uint32_t k = f.flatRegIndex(static_cast<RegClass>(c), n);
      uint32_t w = f.regInfo(static_cast<RegClass>(c), n).width;
      u.firstUnit[k + 1] = w;
    }
  for (uint32_t k = 0; k < nflat; ++k)
    u.firstUnit[k + 1] += u.firstUnit[k];
  uint32_t nu = u.firstUnit[nflat];
  u.unitToFlat.resize(nu);
  for (uint32_t k = 0; k < nflat; ++k)
    for (uint32_t x = u.firstUnit[k]; x < u.firstUnit[k + 1]; ++x)
      u.unitToFlat[x] = k;
  auto units = [&](const Operand &o) { return u.units(f, o); };
  llvm::BitVector written(nu);
  for (const ori::Block &blk : f.blocks)
    for (const Instr &in : blk.instrs)
      for (const Operand &d : in.defs()) {
        auto [x0, x1] = units(d);
        for (uint32_t x = x0; x < x1; ++x)
          written.set(x);
      }
  u.ignored.resize(nu);
  for (uint32_t k = 0; k < nflat; ++k) {
    bool any = false;
    for (uint32_t x = u.firstUnit[k]; x < u.firstUnit[k + 1]; ++x)
      any |= written.test(x);
    if (any)
      for (uint32_t x = u.firstUnit[k]; x < u.firstUnit[k + 1]; ++x)
        if (!written.test(x))
          u.ignored.set(x);
  }
  size_t nb = f.blocks.size();
  std::vector<llvm::BitVector> ue(nb, llvm::BitVector(nu)), kill(nb, llvm::BitVector(nu));
  for (size_t b = 0; b < nb; ++b) {
    const auto &instrs = f.blocks[b].instrs;
    for (size_t j = instrs.size(); j-- > 0;) {
      const Instr &in = instrs[j];
      for (const Operand &d : in.defs())
        if (kills(in, d, certain[b][j])) {
          auto [x0, x1] = units(d);
          for (uint32_t x = x0; x < x1; ++x)
            kill[b].set(x), ue[b].reset(x);
        }
      for (const Operand &op : in.uses())
        for (const Operand &v : op.vregs()) {
          auto [x0, x1] = units(v);
          for (uint32_t x = x0; x < x1; ++x)
            if (u.readable(x))
              ue[b].set(x);
        }
      auto [g0, g1] = units(in.guard);
      for (uint32_t x = g0; x < g1; ++x)
        ue[b].set(x);
    }
  }
  u.liveIn.assign(nb, llvm::BitVector(nu));
  u.liveOut.assign(nb, llvm::BitVector(nu));
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t b = nb; b-- > 0;) {
      llvm::BitVector out(nu);
      for (uint32_t s : f.blocks[b].succs)
        out |= u.liveIn[s];
      llvm::BitVector in = out;
      in.reset(kill[b]);
      in |= ue[b];
      u.liveOut[b] = std::move(out);
      if (in != u.liveIn[b]) {
        u.liveIn[b] = std::move(in);
        changed = true;
      }
    }
  }
  // Cut to where a write of the unit may have happened (forward "maybe defined" sets, any
  // write, guarded ones included), as ori/analysis/liveness.cpp cuts vreg liveness: a value
  // built by guarded writes (an operand tuple filled inside the ELECT loop of a TMA copy,
  // an if-converted temporary) is otherwise live from the entry down to its first read.
  std::vector<llvm::BitVector> defs(nb, llvm::BitVector(nu));
  for (size_t b = 0; b < nb; ++b)
    for (const Instr &in : f.blocks[b].instrs)
      for (const Operand &d : in.defs()) {
        auto [x0, x1] = units(d);
        for (uint32_t x = x0; x < x1; ++x)
          defs[b].set(x);
      }
  const ori::MaybeDefined md = ori::maybeDefined(f, defs);
  for (size_t b = 0; b < nb; ++b) {
    u.liveIn[b] &= md.in[b];
    u.liveOut[b] &= md.out[b];
  }
  return u;
}

/// Live segments of every unit, block by block, walking each block backwards from its
/// live-out set (the BuildIntervals step of Wimmer and Franz, "Linear Scan Register
/// Allocation on SSA Form", CGO 2010, per 32-bit unit and without SSA): a unit live out of
/// the block is live to the block's last point; a read makes it live back to the write
/// that reaches it, or to the block's first point; an unguarded write ends the segment (a
/// guarded one does not: the old value may survive it); a write of a unit nobody reads
/// occupies its register at the write point only.
void computeSegments(const ori::Function &f, const UnitLiveness &live,
                     const std::vector<std::vector<bool>> &certain,
                     const std::vector<int32_t> &flatToInterval, LiveInfo &li) {
  constexpr uint32_t kClosed = UINT32_MAX;
  uint32_t nu = live.firstUnit.empty() ? 0 : live.firstUnit.back();
  std::vector<uint32_t> openEnd(nu, kClosed);
  std::vector<uint32_t> open;
  auto addSeg = [&](uint32_t x, uint32_t s, uint32_t e) {
    uint32_t flat = live.unitToFlat[x];
    if (int32_t k = flatToInterval[flat]; k >= 0)
      li.intervals[static_cast<size_t>(k)].segs[x - live.firstUnit[flat]].push_back({s, e});
  };
  uint32_t i = 0; // instruction index of the block's first instruction
  for (uint32_t b = 0; b < f.blocks.size(); ++b) {
    const auto &instrs = f.blocks[b].instrs;
    if (instrs.empty())
      continue;
    uint32_t n = static_cast<uint32_t>(instrs.size());
    uint32_t first = 2 * i, last = 2 * (i + n - 1) + 1;
    if (b < live.liveOut.size())
      for (unsigned x : live.liveOut[b].set_bits()) {
        openEnd[x] = last;
        open.push_back(x);
      }
    auto use = [&](const Operand &v, uint32_t at) {
      auto [x0, x1] = live.units(f, v);
      for (uint32_t x = x0; x < x1; ++x)
        if (openEnd[x] == kClosed && live.readable(x)) {
          openEnd[x] = at;
          open.push_back(x);
        }
    };
    for (uint32_t j = n; j-- > 0;) {
      const Instr &in = instrs[j];
      uint32_t usePt = 2 * (i + j), defPt = usePt + 1;
      for (unsigned k = 0; k < in.numDefs && k < in.ops.size(); ++k) {
        const Operand &d = in.ops[k];
        if (d.kind != OperandKind::VReg)
          continue;
        auto [x0, x1] = live.units(f, d);
        for (uint32_t x = x0; x < x1; ++x) {
          if (openEnd[x] == kClosed) {
            addSeg(x, defPt, defPt);
          } else if (kills(in, d, certain[b][j])) {
            addSeg(x, defPt, openEnd[x]);
            openEnd[x] = kClosed;
          }
        }
      }
      for (unsigned k = 0; k < in.ops.size(); ++k) {
        const Operand &o = in.ops[k];
        if (k < in.numDefs && o.kind == OperandKind::VReg)
          continue;
        for (const Operand &v : o.vregs())
          use(v, usePt);
      }
      use(in.guard, usePt);
    }
    for (uint32_t x : open)
      if (openEnd[x] != kClosed) {
        addSeg(x, first, openEnd[x]);
        openEnd[x] = kClosed;
      }
    open.clear();
    i += n;
  }
  // Sorted, adjacent and overlapping segments merged (points are integers, so [a, p] and
  // [p + 1, b] are one segment); the hull and the size follow.
  for (Interval &iv : li.intervals)
    for (unsigned k = 0; k < iv.width; ++k) {
      auto &v = iv.segs[k];
      if (v.empty())
        continue;
      llvm::sort(v, [](const Range &a, const Range &b) {
        return a.start != b.start ? a.start < b.start : a.end < b.end;
      });
      size_t out = 0;
      for (size_t j = 1; j < v.size(); ++j) {
        if (v[j].start <= v[out].end + 1)
          v[out].end = std::max(v[out].end, v[j].end);
        else
          v[++out] = v[j];
      }
      v.resize(out + 1);
      iv.start = std::min(iv.start, v.front().start);
      iv.end = std::max(iv.end, v.back().end);
      for (const Range &r : v)
        iv.size += r.end - r.start + 1;
    }
}

} // namespace

uint32_t setmaxnregPool(const ori::Function &f) {
  uint32_t pool = 0;
  for (const ori::Block &blk : f.blocks)
    for (const Instr &in : blk.instrs)
      if (in.op == ori::Opcode::USETMAXREG)
        for (const Operand &u : in.uses())
          if (u.kind == OperandKind::Imm)
            pool = std::max(pool, static_cast<uint32_t>(u.imm));
  return pool;
}

namespace {

/// setmaxnreg regions: the register count in force at each instruction, from the entry's
/// count through USETMAXREG (DEALLOC n / TRY_ALLOC n: n after it), joined by the minimum
/// where paths meet (a forward data-flow over blocks), and the R registers above each
/// count made busy over the instructions it covers, so no value lives in a register a warp
/// does not own there (across a DEALLOC above the new count, or in the producer's region
/// above its count). GUESS: ptxas allocates each region to its own count the same way; a
/// TRY_ALLOC's retry loop counts as the new count after the instruction (only predicates
/// live there).
void addSetmaxnregRegions(const ori::Function &f, const Target &t, uint32_t entryCount,
                          LiveInfo &li) {
  constexpr uint32_t kUnknown = UINT32_MAX;
  size_t nb = f.blocks.size();
  std::vector<uint32_t> in(nb, kUnknown);
  if (nb)
    in[0] = entryCount;
  auto after = [](const Instr &i, uint32_t c) {
    if (i.op == ori::Opcode::USETMAXREG)
      for (const Operand &u : i.uses())
        if (u.kind == OperandKind::Imm)
          return static_cast<uint32_t>(u.imm);
    return c;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t b = 0; b < nb; ++b) {
      if (in[b] == kUnknown)
        continue;
      uint32_t c = in[b];
      for (const Instr &i : f.blocks[b].instrs)
        c = after(i, c);
      for (uint32_t s : f.blocks[b].succs)
        if (c < in[s]) {
          in[s] = c;
          changed = true;
        }
    }
  }
  uint32_t pool = std::max(entryCount, setmaxnregPool(f));
  uint32_t top = std::min<uint32_t>(lastGprOfCount(pool), t.registers().numGprs - 1);
  // Runs of instructions (layout order) under one count below the pool: [start, end] points.
  uint32_t i = 0, runStart = 0, runCount = kUnknown;
  auto flush = [&](uint32_t endPt) {
    if (runCount != kUnknown && runCount < pool)
      for (uint32_t r = lastGprOfCount(runCount) + 1; r <= top; ++r)
        if (r != t.callingConvention().stackPointer)
          addFixed(li, RegClass::R, r, runStart, endPt);
  };
  for (size_t b = 0; b < nb; ++b) {
    uint32_t c = in[b] == kUnknown ? entryCount : in[b];
    for (const Instr &ins : f.blocks[b].instrs) {
      if (c != runCount) {
        if (i)
          flush(2 * i - 1);
        runStart = 2 * i;
        runCount = c;
      }
      c = after(ins, c);
      // The instruction's own result point already runs under the new count.
      if (c != runCount) {
        flush(2 * i);
        runStart = 2 * i + 1;
        runCount = c;
      }
      ++i;
    }
  }
  if (i)
    flush(2 * i - 1);
}

} // namespace

LiveInfo computeLiveInfo(const ori::Function &f, const Target &t,
                         const std::vector<std::pair<RegClass, uint32_t>> &spillTemps,
                         uint32_t entryRegCount) {
  LiveInfo li;
  std::vector<std::vector<bool>> certain = electGuardedWrites(f);
  UnitLiveness live = computeUnitLiveness(f, certain);
  // Flat index <-> (class, number).
  std::vector<std::pair<RegClass, uint32_t>> flatToReg(f.numFlatRegs());
  std::vector<int32_t> flatToInterval(f.numFlatRegs(), -1);
  for (unsigned c = 0; c < ori::kNumRegClasses; ++c)
    for (uint32_t n = 0; n < f.numRegs(static_cast<RegClass>(c)); ++n) {
      uint32_t k = f.flatRegIndex(static_cast<RegClass>(c), n);
      flatToReg[k] = {static_cast<RegClass>(c), n};
      if (uint8_t w = f.regInfo(static_cast<RegClass>(c), n).width) {
        flatToInterval[k] = static_cast<int32_t>(li.intervals.size());
        Interval iv;
        iv.cls = static_cast<RegClass>(c);
        iv.num = n;
        iv.width = w;
        iv.segs.resize(w);
        // An octet is an operand tuple (3-5D tensor copies) written just before the one
        // instruction that reads it; spill code stores at most a quad.
        iv.unspillable = w > 4;
        li.intervals.push_back(iv);
      }
    }
  auto intervalOf = [&](const Operand &v) -> Interval * {
    if (v.kind != OperandKind::VReg || v.reg >= f.numRegs(v.cls))
      return nullptr;
    int32_t k = flatToInterval[f.flatRegIndex(v.cls, v.reg)];
    return k < 0 ? nullptr : &li.intervals[k];
  };
  ori::PhysRegSet all = everyAllocatable(t);
  uint32_t i = 0; // instruction index
  for (uint32_t b = 0; b < f.blocks.size(); ++b) {
    const ori::Block &blk = f.blocks[b];
    if (blk.instrs.empty())
      continue;
    uint32_t first = 2 * i, last = 2 * (i + static_cast<uint32_t>(blk.instrs.size()) - 1) + 1;
    double depthWeight = std::pow(10.0, std::min<uint32_t>(blk.loopDepth, 4));
    // Physical registers: last write in this block (point) and whether it was read since.
    struct Open {
      uint32_t def;
      bool read;
    };
    std::array<std::vector<std::optional<Open>>, ori::kNumRegClasses> open;
    for (auto &v : open)
      v.assign(256, std::nullopt);
    const Instr &lastIn = blk.instrs.back();
    bool endsWithCallOrRet = lastIn.op == ori::Opcode::CALL || lastIn.op == ori::Opcode::RET;
    for (const Instr &in : blk.instrs) {
      uint32_t usePt = 2 * i, defPt = 2 * i + 1;
      // Virtual registers.
      for (unsigned k = 0; k < in.ops.size(); ++k) {
        const Operand &o = in.ops[k];
        for (const Operand &v : o.vregs())
          if (Interval *iv = intervalOf(v))
            iv->weight += depthWeight;
      }
      if (Interval *iv = intervalOf(in.guard))
        iv->weight += depthWeight;
      // Physical registers: reads close a busy range, writes open one.
      llvm::SmallVector<Operand, 4> reads, writes;
      for (unsigned k = 0; k < in.ops.size(); ++k) {
        const Operand &o = in.ops[k];
        // A warpgroup fence's or wait's implicit accumulators order, they hold no value:
        // the accumulator ranges below cover them.
        if (in.op == ori::Opcode::WARPGROUP && (o.mods & ori::OM_IMPLICIT))
          continue;
        if (k < in.numDefs && o.kind == OperandKind::PReg)
          pregsOf(o, t, writes);
        else
          pregsOf(o, t, reads);
      }
      pregsOf(in.guard, t, reads);
      for (const Operand &r : reads) {
        auto [r0, n] = span(r);
        for (uint32_t x = r0; x < r0 + n && x < 256; ++x) {
          auto &o = open[size_t(r.cls)][x];
          addFixed(li, r.cls, x, o ? o->def : first, usePt);
          if (o)
            o->read = true;
        }
      }
      for (const Operand &w : writes) {
        auto [r0, n] = span(w);
        for (uint32_t x = r0; x < r0 + n && x < 256; ++x) {
          auto &o = open[size_t(w.cls)][x];
          if (o && !o->read)
            addFixed(li, w.cls, x, o->def, defPt); // an overwritten, unread value
          o = Open{defPt, false};
          addFixed(li, w.cls, x, defPt, defPt);
        }
      }
      // Call clobbers.
      if (in.op == ori::Opcode::CALL) {
        const ori::PhysRegSet *set = &all;
        for (const Operand &u : in.uses())
          if (u.kind == OperandKind::Func && u.reg < f.calleeClobbers.size() &&
              f.calleeClobbers[u.reg])
            set = &*f.calleeClobbers[u.reg];
        for (unsigned c = 0; c < ori::kNumRegClasses; ++c)
          for (uint32_t x = 0; x < 256; ++x)
            if (set->test(static_cast<RegClass>(c), x))
              addFixed(li, static_cast<RegClass>(c), x, defPt, defPt);
      }
      ++i;
    }
    for (unsigned c = 0; c < ori::kNumRegClasses; ++c)
      for (uint32_t x = 0; x < 256; ++x)
        if (auto &o = open[c][x]; o && (endsWithCallOrRet || !o->read))
          addFixed(li, static_cast<RegClass>(c), x, o->def, last);
  }
  li.numPoints = 2 * i;
  // wgmma accumulators (HGMMA/IGMMA/QGMMA definitions, implicit ones included) are
  // pre-coloured by the lowering and must not move or be shared inside a pipeline, whose
  // stages may span blocks and loop back-edges: they are busy wherever they are live, an
  // MMA's result until the wait that retires it (ori/analysis/accumulator_liveness.h).
  {
    ori::AccumulatorLiveness acc = ori::computeAccumulatorLiveness(f);
    for (unsigned k : acc.regs.set_bits())
      if (uint32_t r = acc.base + k; r < 256 && isTrackedPreg(Operand::preg(RegClass::R, r), t))
        for (auto [s, e] : acc.ranges[k])
          addFixed(li, RegClass::R, r, s, e);
  }
  if (entryRegCount)
    addSetmaxnregRegions(f, t, entryRegCount, li);
  computeSegments(f, live, certain, flatToInterval, li);
  for (unsigned c = 0; c < ori::kNumRegClasses; ++c) {
    li.fixedMaxEnd[c].resize(li.fixed[c].size());
    for (size_t r = 0; r < li.fixed[c].size(); ++r) {
      auto &ranges = li.fixed[c][r];
      std::sort(ranges.begin(), ranges.end(), [](const Range &a, const Range &b) {
        return a.start != b.start ? a.start < b.start : a.end < b.end;
      });
      uint32_t m = 0;
      for (const Range &x : ranges)
        li.fixedMaxEnd[c][r].push_back(m = std::max(m, x.end));
    }
  }
  // Weights per length; spill temporaries never spill.
  for (Interval &iv : li.intervals) {
    if (iv.empty())
      continue;
    iv.weight /= 1.0 + iv.size / 2.0;
  }
  for (auto [c, n] : spillTemps)
    if (Interval *iv = intervalOf(Operand::vreg(c, n)))
      iv->unspillable = true;
  // A value the spill code would recompute (a constant) costs a fraction of a reload: make
  // it the first candidate. GUESS: a quarter.
  std::vector<uint32_t> defs(li.intervals.size(), 0);
  std::vector<const Instr *> lastDef(li.intervals.size(), nullptr);
  for (const ori::Block &blk : f.blocks)
    for (const Instr &in : blk.instrs)
      for (const Operand &d : in.defs())
        if (d.kind == OperandKind::VReg)
          if (Interval *iv = intervalOf(d)) {
            size_t k = static_cast<size_t>(iv - li.intervals.data());
            ++defs[k];
            lastDef[k] = &in;
          }
  for (size_t k = 0; k < li.intervals.size(); ++k)
    if (defs[k] == 1 && rematerializable(*lastDef[k], t)) {
      li.intervals[k].weight *= 0.25;
      li.intervals[k].remat = true;
    }
  // Hints from copies; then along chains of copies between virtual registers, both ways
  // (`%a = MOV R4; %b = MOV %a; ...; R4 = MOV %z` all ask for R4).
  std::vector<std::pair<Interval *, Interval *>> copies;
  for (const ori::Block &blk : f.blocks)
    for (const Instr &in : blk.instrs) {
      if (in.op != ori::Opcode::MOV || in.numDefs != 1 || in.ops.size() != 2)
        continue;
      const Operand &d = in.ops[0], &s = in.ops[1];
      if (d.cls != s.cls || !d.isReg() || !s.isReg() || s.mods)
        continue;
      auto hintFromPreg = [&](const Operand &v, const Operand &p) {
        if (Interval *iv = intervalOf(v); iv && iv->hint < 0 && !p.isFixed()) {
          int32_t base = static_cast<int32_t>(p.reg) -
                         (v.sub != ori::kWholeReg ? static_cast<int32_t>(v.sub) : 0);
          if (base >= 0)
            iv->hint = base;
        }
      };
      if (d.kind == OperandKind::VReg && s.kind == OperandKind::PReg)
        hintFromPreg(d, s);
      else if (d.kind == OperandKind::PReg && s.kind == OperandKind::VReg)
        hintFromPreg(s, d);
      else if (d.kind == OperandKind::VReg && s.kind == OperandKind::VReg && d.sub == s.sub &&
               d.width == s.width)
        if (Interval *iv = intervalOf(d); iv && iv->hintVReg < 0) {
          iv->hintVReg = static_cast<int32_t>(s.reg);
          if (Interval *src = intervalOf(s))
            copies.push_back({iv, src});
        }
    }
  for (size_t round = 0; round < copies.size(); ++round) {
    bool changed = false;
    for (auto [d, s] : copies) {
      if (d->hint < 0 && s->hint >= 0)
        d->hint = s->hint, changed = true;
      if (s->hint < 0 && d->hint >= 0)
        s->hint = d->hint, changed = true;
    }
    if (!changed)
      break;
  }
  return li;
}

} // namespace ptxmini::ra
