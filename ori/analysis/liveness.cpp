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

#include "llvm/ADT/SmallVector.h"

#include <algorithm>
#include <ostream>

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
  // One forward scan per block: a read is upward exposed unless every component it reads
  // was already written, unguarded, earlier in the block; a register whose components are
  // all written unguarded in the block (by one whole-register definition or by several
  // component definitions, e.g. the two halves of a 64-bit add) is killed there.
  auto widthOf = [&](const Operand &o) -> unsigned {
    return std::max<unsigned>(1, f.regInfo(o.cls, o.reg).width);
  };
  std::vector<uint8_t> written(nr, 0); // per flat register: components written so far
  std::vector<int64_t> touched;
  for (size_t b = 0; b < nb; ++b) {
    llvm::BitVector &ue = lv.upwardExposed[b], &kill = lv.killed[b];
    for (int64_t r : touched)
      written[static_cast<size_t>(r)] = 0;
    touched.clear();
    auto read = [&](const Operand &v) {
      int64_t r = index(v);
      if (r < 0)
        return;
      unsigned w = widthOf(v);
      uint8_t all = static_cast<uint8_t>((1u << w) - 1);
      uint8_t need = v.sub == kWholeReg ? all : static_cast<uint8_t>(1u << v.sub);
      if ((written[static_cast<size_t>(r)] & need) != need)
        ue.set(r);
    };
    for (const Instr &in : f.blocks[b].instrs) {
      for (const Operand &u : in.uses())
        for (const Operand &v : u.vregs())
          read(v);
      read(in.guard);
      if (in.isGuarded())
        continue;
      for (const Operand &d : in.defs()) {
        int64_t r = index(d);
        if (r < 0)
          continue;
        unsigned w = widthOf(d);
        uint8_t all = static_cast<uint8_t>((1u << w) - 1);
        uint8_t &m = written[static_cast<size_t>(r)];
        if (!m)
          touched.push_back(r);
        m |= d.sub == kWholeReg ? all : static_cast<uint8_t>(1u << d.sub);
        if (m == all)
          kill.set(r);
      }
    }
  }
  // Predecessors from the successor lists (the only edges this function trusts).
  std::vector<llvm::SmallVector<uint32_t, 2>> preds(nb);
  for (size_t b = 0; b < nb; ++b)
    for (uint32_t s : f.blocks[b].succs)
      preds[s].push_back(static_cast<uint32_t>(b));
  // Sweeps in reverse layout order visit only blocks marked dirty (a successor's live-in
  // changed since they were last computed), until none is: the same least fixpoint as full
  // round-robin sweeps, without recomputing the blocks a loop nest's later sweeps leave
  // alone. One scratch set is reused instead of two allocations per block and pass (issue 23).
  llvm::BitVector in(nr);
  std::vector<uint8_t> dirty(nb, 1);
  bool any = nb > 0;
  while (any) {
    any = false;
    for (size_t b = nb; b-- > 0;) {
      if (!dirty[b])
        continue;
      dirty[b] = 0;
      llvm::BitVector &out = lv.liveOut[b];
      out.reset();
      for (uint32_t s : f.blocks[b].succs)
        out |= lv.liveIn[s];
      in = out;
      in.reset(lv.killed[b]);
      in |= lv.upwardExposed[b];
      if (in != lv.liveIn[b]) {
        std::swap(lv.liveIn[b], in);
        for (uint32_t p : preds[b]) {
          dirty[p] = 1;
          any = true;
        }
      }
    }
  }
  // A register is live only where a definition of it may have happened: forward "maybe
  // defined" sets (any definition, guarded or partial, on some path from the entry, block 0)
  // cut the backward solution. Without the cut, a temporary written under a guard (which
  // does not kill) would look live from the function entry down to its use; the value a read
  // sees where no definition reaches is undefined anyway, so no register needs to hold it.
  std::vector<llvm::BitVector> defs(nb, llvm::BitVector(nr));
  for (size_t b = 0; b < nb; ++b)
    for (const Instr &in : f.blocks[b].instrs)
      for (const Operand &d : in.defs())
        if (int64_t r = index(d); r >= 0)
          defs[b].set(static_cast<unsigned>(r));
  const MaybeDefined md = maybeDefined(f, defs);
  for (size_t b = 0; b < nb; ++b) {
    lv.liveIn[b] &= md.in[b];
    lv.liveOut[b] &= md.out[b];
  }
  return lv;
}

MaybeDefined maybeDefined(const Function &f, const std::vector<llvm::BitVector> &defs) {
  const size_t nb = f.blocks.size();
  const unsigned n = nb ? defs[0].size() : 0;
  MaybeDefined md{std::vector<llvm::BitVector>(nb, llvm::BitVector(n)),
                  std::vector<llvm::BitVector>(nb, llvm::BitVector(n))};
  std::vector<uint8_t> dirty(nb, 1);
  bool any = nb > 0;
  llvm::BitVector out(n), in(n);
  while (any) {
    any = false;
    for (size_t b = 0; b < nb; ++b) {
      if (!dirty[b])
        continue;
      dirty[b] = 0;
      out = md.in[b];
      out |= defs[b];
      if (out == md.out[b] && !md.out[b].none())
        continue;
      md.out[b] = out;
      for (uint32_t s : f.blocks[b].succs) {
        in = md.in[s];
        in |= out;
        if (in != md.in[s]) {
          std::swap(md.in[s], in);
          dirty[s] = 1;
          any = true;
        }
      }
    }
  }
  return md;
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
