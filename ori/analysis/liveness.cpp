//===- ori/analysis/liveness.cpp - per-block live virtual registers ---------------------===//
///
/// \file
/// See liveness.h. Local sets come from one backward scan per block; the global solution
/// is the usual round-robin iteration (blocks in reverse layout order, which converges fast
/// for code laid out mostly forward) until no live-in set changes. Unreachable blocks are
/// included: their sets are well defined and never flow into reachable blocks' live-outs
/// unless they are predecessors of them, where they only receive facts.
//===----------------------------------------------------------------------------------===//
#include "ori/analysis/liveness.h"

#include <algorithm>
#include <ostream>
#include <vector>

namespace ptxmini::ori {

Liveness computeLiveness(const Function &f) {
  size_t nb = f.blocks.size();
  uint32_t nr = f.numFlatRegs();
  Liveness lv;
  lv.liveIn.assign(nb, llvm::BitVector(nr));
  lv.liveOut.assign(nb, llvm::BitVector(nr));
  lv.upwardExposed.assign(nb, llvm::BitVector(nr));
  lv.killed.assign(nb, llvm::BitVector(nr));

  auto index = [&](const Operand &o) -> int64_t {
    if (o.kind != OperandKind::VReg || o.reg >= f.numRegs(o.cls))
      return -1;
    return f.flatRegIndex(o.cls, o.reg);
  };
  // Components of a wide register written (unconditionally) since the next use in the block,
  // walking backward: once every component is written, the writes together kill it (a pair
  // built by `MOV r.lo; MOV r.hi` is not live before them).
  std::vector<uint8_t> pending(nr, 0);
  for (size_t b = 0; b < nb; ++b) {
    llvm::BitVector &ue = lv.upwardExposed[b], &kill = lv.killed[b];
    const auto &instrs = f.blocks[b].instrs;
    std::fill(pending.begin(), pending.end(), 0);
    for (auto it = instrs.rbegin(); it != instrs.rend(); ++it) {
      const Instr &in = *it;
      // Definitions first (walking backward): a full, unconditional def ends the range.
      for (const Operand &d : in.defs()) {
        int64_t r = index(d);
        if (r < 0 || d.kind != OperandKind::VReg || in.isGuarded())
          continue;
        unsigned width = std::max<unsigned>(1, d.width);
        if (d.sub != kWholeReg && d.sub < 8 && width > 1) {
          pending[r] |= static_cast<uint8_t>(1u << d.sub);
          if (pending[r] != (1u << width) - 1)
            continue;
        }
        pending[r] = 0;
        kill.set(r);
        ue.reset(r);
      }
      for (const Operand &u : in.uses())
        for (const Operand &v : u.vregs())
          if (int64_t r = index(v); r >= 0) {
            ue.set(r);
            pending[r] = 0;
          }
      if (int64_t r = index(in.guard); r >= 0)
        ue.set(r);
    }
  }
  bool changed = true;
  while (changed) {
    changed = false;
    for (size_t b = nb; b-- > 0;) {
      llvm::BitVector out(nr);
      for (uint32_t s : f.blocks[b].succs)
        out |= lv.liveIn[s];
      llvm::BitVector in = out;
      in.reset(lv.killed[b]);
      in |= lv.upwardExposed[b];
      lv.liveOut[b] = std::move(out);
      if (in != lv.liveIn[b]) {
        lv.liveIn[b] = std::move(in);
        changed = true;
      }
    }
  }
  return lv;
}

void printLiveness(const Function &f, const Liveness &lv, std::ostream &os) {
  // Flat index -> (class, number): classes are laid out one after the other.
  std::vector<std::pair<RegClass, uint32_t>> names;
  for (unsigned c = 0; c < kNumRegClasses; ++c)
    for (uint32_t n = 0; n < f.numRegs(static_cast<RegClass>(c)); ++n)
      names.push_back({static_cast<RegClass>(c), n});
  auto printSet = [&](const llvm::BitVector &bv) {
    if (bv.none()) {
      os << '-';
      return;
    }
    bool first = true;
    for (unsigned i : bv.set_bits()) {
      os << (first ? "" : ", ") << vregPrefix(names[i].first) << names[i].second;
      first = false;
    }
  };
  os << "; liveness @" << f.name << '\n';
  for (size_t b = 0; b < f.blocks.size(); ++b) {
    os << ";   " << f.blocks[b].name << ": in: ";
    printSet(lv.liveIn[b]);
    os << "  out: ";
    printSet(lv.liveOut[b]);
    os << '\n';
  }
}

} // namespace ptxmini::ori
