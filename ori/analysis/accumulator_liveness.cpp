//===- ori/analysis/accumulator_liveness.cpp - where wgmma accumulators hold values ----===//
///
/// \file
/// See accumulator_liveness.h for the equations and the two wgmma rules.
//===----------------------------------------------------------------------------------===//
#include "ori/analysis/accumulator_liveness.h"
#include "ori/analysis/liveness.h"

#include <algorithm>
#include <map>

namespace ptxmini::ori {

bool isWarpgroupMma(const Instr &in) {
  return in.op == Opcode::HGMMA || in.op == Opcode::IGMMA || in.op == Opcode::QGMMA;
}

namespace {

bool isArrive(const Instr &in) {
  return in.op == Opcode::WARPGROUP && in.hasModifier(Modifier::ARRIVE);
}
bool isDepbar(const Instr &in) {
  return in.op == Opcode::WARPGROUP && in.hasModifier(Modifier::DEPBAR);
}
/// A `DEPBAR.LE gsb0, 0x0`: retires every group.
bool retiresAll(const Instr &in) {
  return isDepbar(in) && (in.uses().empty() || in.uses()[0].kind != OperandKind::Imm ||
                          in.uses()[0].imm == 0);
}

/// The R registers an R physical operand covers (a Mem operand's base included).
template <typename F> void forRegs(const Operand &o, F &&fn) {
  Operand r = o;
  if (o.kind == OperandKind::Mem)
    r = o.memBase();
  if (r.kind != OperandKind::PReg || r.cls != RegClass::R || r.isFixed())
    return;
  if (r.sub != kWholeReg) {
    fn(r.reg + r.sub);
    return;
  }
  for (uint32_t k = 0; k < std::max<uint32_t>(1, r.width); ++k)
    fn(r.reg + k);
}

} // namespace

AccumulatorLiveness computeAccumulatorLiveness(const Function &f) {
  AccumulatorLiveness out;
  // Registers are numbered from the lowest accumulator (`base`), densely to the highest.
  uint32_t lo = UINT32_MAX, hi = 0;
  for (const Block &blk : f.blocks)
    for (const Instr &in : blk.instrs)
      if (isWarpgroupMma(in))
        for (const Operand &d : in.defs())
          forRegs(d, [&](uint32_t r) { lo = std::min(lo, r), hi = std::max(hi, r); });
  if (lo > hi)
    return out;
  out.base = lo;
  uint32_t n = hi - lo + 1;
  out.regs.resize(n);
  out.ranges.resize(n);
  for (const Block &blk : f.blocks)
    for (const Instr &in : blk.instrs)
      if (isWarpgroupMma(in))
        for (const Operand &d : in.defs())
          forRegs(d, [&](uint32_t r) { out.regs.set(r - lo); });
  // From here on registers are relative to `lo`.
  auto rel = [&](auto &&fn) {
    return [&, fn](uint32_t r) {
      if (r >= lo && r - lo < n)
        fn(r - lo);
    };
  };
  auto acc = [&](uint32_t r) { return r < n && out.regs.test(r); };
  size_t nb = f.blocks.size();

  // In flight: forward, union at joins. What each DEPBAR reads is the set in flight there.
  std::vector<llvm::BitVector> flightIn(nb, llvm::BitVector(n));
  std::map<std::pair<size_t, size_t>, llvm::BitVector> depbarReads;
  auto walkFlight = [&](size_t b, llvm::BitVector s, bool record) {
    const auto &instrs = f.blocks[b].instrs;
    for (size_t j = 0; j < instrs.size(); ++j) {
      const Instr &in = instrs[j];
      if (isDepbar(in)) {
        if (record)
          depbarReads[{b, j}] = s;
        if (retiresAll(in))
          s.reset();
      } else if (isWarpgroupMma(in)) {
        for (const Operand &d : in.defs())
          forRegs(d, rel([&](uint32_t r) { s.set(r); }));
      }
    }
    return s;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t b = 0; b < nb; ++b) {
      llvm::BitVector s = walkFlight(b, flightIn[b], false);
      for (uint32_t succ : f.blocks[b].succs) {
        llvm::BitVector m = flightIn[succ];
        m |= s;
        if (m != flightIn[succ]) {
          flightIn[succ] = std::move(m);
          changed = true;
        }
      }
    }
  }
  for (size_t b = 0; b < nb; ++b)
    walkFlight(b, flightIn[b], true);

  // The reads and writes of one instruction under the two rules.
  auto access = [&](size_t b, size_t j, auto &&onUse, auto &&onDef) {
    const Instr &in = f.blocks[b].instrs[j];
    if (isArrive(in))
      return;
    if (isDepbar(in)) {
      for (unsigned r : depbarReads[{b, j}].set_bits())
        onUse(r);
      return;
    }
    for (unsigned k = 0; k < in.ops.size(); ++k) {
      const Operand &o = in.ops[k];
      if (k < in.numDefs && o.kind == OperandKind::PReg)
        forRegs(o, rel([&](uint32_t r) {
          if (acc(r))
            onDef(r, !in.isGuarded());
        }));
      else
        forRegs(o, rel([&](uint32_t r) {
          if (acc(r))
            onUse(r);
        }));
    }
  };

  // Backward liveness, cut to where a write may have happened.
  std::vector<llvm::BitVector> ue(nb, llvm::BitVector(n)), kill(nb, llvm::BitVector(n)),
      defs(nb, llvm::BitVector(n));
  for (size_t b = 0; b < nb; ++b)
    for (size_t j = f.blocks[b].instrs.size(); j-- > 0;) {
      // Uses first in a backward walk would be wrong: a def at j kills before j's uses.
      llvm::BitVector useJ(n);
      access(
          b, j, [&](uint32_t r) { useJ.set(r); },
          [&](uint32_t r, bool kills) {
            defs[b].set(r);
            if (kills)
              kill[b].set(r), ue[b].reset(r);
          });
      ue[b] |= useJ;
    }
  std::vector<llvm::BitVector> liveIn(nb, llvm::BitVector(n)), liveOut(nb, llvm::BitVector(n));
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t b = nb; b-- > 0;) {
      llvm::BitVector o(n);
      for (uint32_t s : f.blocks[b].succs)
        o |= liveIn[s];
      llvm::BitVector i = o;
      i.reset(kill[b]);
      i |= ue[b];
      liveOut[b] = std::move(o);
      if (i != liveIn[b]) {
        liveIn[b] = std::move(i);
        changed = true;
      }
    }
  }
  const MaybeDefined md = maybeDefined(f, defs);
  for (size_t b = 0; b < nb; ++b)
    liveOut[b] &= md.out[b];

  // Ranges, block by block, walking backwards from the live-out set.
  constexpr uint32_t kClosed = UINT32_MAX;
  std::vector<uint32_t> openEnd(n, kClosed);
  uint32_t i = 0;
  for (size_t b = 0; b < nb; ++b) {
    const auto &instrs = f.blocks[b].instrs;
    if (instrs.empty())
      continue;
    uint32_t cnt = static_cast<uint32_t>(instrs.size());
    uint32_t first = 2 * i, last = 2 * (i + cnt - 1) + 1;
    for (unsigned r : liveOut[b].set_bits())
      openEnd[r] = last;
    for (uint32_t j = cnt; j-- > 0;) {
      uint32_t usePt = 2 * (i + j), defPt = usePt + 1;
      llvm::SmallVector<uint32_t, 8> uses;
      access(
          b, j, [&](uint32_t r) { uses.push_back(r); },
          [&](uint32_t r, bool kills) {
            if (openEnd[r] == kClosed) {
              out.ranges[r].push_back({defPt, defPt});
            } else if (kills) {
              out.ranges[r].push_back({defPt, openEnd[r]});
              openEnd[r] = kClosed;
            }
          });
      for (uint32_t r : uses)
        if (openEnd[r] == kClosed)
          openEnd[r] = usePt;
    }
    for (uint32_t r = 0; r < n; ++r)
      if (openEnd[r] != kClosed) {
        // Live into the block: to its first point when a write may reach it.
        if (md.in[b].test(r))
          out.ranges[r].push_back({first, openEnd[r]});
        openEnd[r] = kClosed;
      }
    i += cnt;
  }
  for (auto &v : out.ranges) {
    if (v.empty())
      continue;
    std::sort(v.begin(), v.end());
    size_t o = 0;
    for (size_t j = 1; j < v.size(); ++j) {
      if (v[j].first <= v[o].second + 1)
        v[o].second = std::max(v[o].second, v[j].second);
      else
        v[++o] = v[j];
    }
    v.resize(o + 1);
  }
  return out;
}

} // namespace ptxmini::ori
