//===- phases/insert_reconvergence.cpp - InsertReconvergence: BSSY/BSYNC and WARPSYNC -----===//
///
/// \file
/// On sm_70+ the threads of a warp that took different sides of a branch run on independently
/// until something joins them: `BSSY Bn, target` records the threads present in convergence
/// barrier Bn, and `BSYNC Bn` waits until every one of them that has not exited arrives. ptxas
/// (HW: 13.0.88, sm_90, -O0 and -O3, read with nvdisasm 13.2) brackets each divergent
/// conditional branch this way: BSSY right before the branch (or before the loop it leaves),
/// the branch targets a block holding only `BSYNC Bn` in front of the join, and BSSY's target
/// is the instruction after that BSYNC. Branches on warp-uniform values get nothing; branches
/// where one side only exits get nothing; nested regions use distinct barriers; a region
/// containing an aligned CTA barrier or a full-mask warp synchronisation is left open (its
/// threads must all arrive anyway; a BSYNC in front would deadlock a diverged warp; HW: ptxas
/// leaves an if containing __syncthreads() open but brackets one containing a non-aligned
/// barrier.sync). Warp-synchronous instructions come from the lowering behind a
/// `WARPSYNC mask` marker; ptxas emits none in converged code and WARPSYNC.ALL / WARPSYNC
/// Rmask where the warp may be diverged.
///
/// The general idea of this phase is:
///   1. Exit-only blocks (first instruction an unguarded EXIT or BPT) are set aside; the
///      post-dominator tree of the rest (ori/analysis/postdominators.h) gives each block its
///      join point: a path into an exit-only block never needs to rejoin.
///   2. Divergence analysis, iterated to a fixpoint, on virtual registers (a register is
///      divergent when any of its definitions is): S2R/CS2R of per-thread special registers,
///      loads other than LDC, SHFL, MATCH and ELECT's predicate are divergent sources;
///      immediates, constants and uniform registers are not; an instruction with a divergent
///      source or guard defines divergent values; and (sync dependence) a register defined
///      inside the region of a divergent branch and live at its join is divergent (values
///      leaving a loop with a divergent exit included). A conditional branch is divergent when
///      its guard is; its region is every block reachable from it without passing its join.
///   3. Divergent branches are grouped by join block J (one barrier per join). The BSSY goes
///      at the end of D, the nearest common dominator of the group's blocks, hoisted out of
///      every loop that does not contain J. A group is dropped when J does not post-dominate
///      D, when the region has a second entry that bypasses D (unstructured flow), when one
///      side of its only branch exits, or when the region from D contains a
///      full-mask WARPSYNC marker (warp-synchronous code for the whole warp, or an aligned
///      CTA barrier: bar.sync, barrier.sync.aligned).
///   4. Each kept region gets a fresh barrier register %b (AllocateRegisters gives nested
///      regions, whose barriers are live at once, distinct B registers); `BSSY %b, J` goes in
///      front of D's terminator; a new block {BSYNC %b} is placed right before J; every
///      region block that branched to J branches to it, J's layout predecessor outside the
///      region (if it fell through) gets a block {BRA J}. The CFG is rebuilt.
///   5. Convergence, a forward must-analysis (greatest fixpoint): the entry is converged; a
///      divergent conditional branch unconverges both successors unless one is exit-only;
///      `BSYNC %b` restores the convergence the matching BSSY had; a full-mask WARPSYNC
///      converges. Each `WARPSYNC mask` marker is then deleted where the warp is converged,
///      becomes WARPSYNC.ALL where it is not and the mask is 0xffffffff, and stays otherwise.
///      A non-aligned CTA barrier where the warp may be diverged is kept as it is (BAR.SYNC
///      counts threads; see placeWarpSyncs).
/// Runs on virtual registers before LegalizeOperands and AllocateRegisters.
//===----------------------------------------------------------------------------------===//
#include "phases/phase_manager.h"

#include "ori/analysis/dominators.h"
#include "ori/analysis/liveness.h"
#include "ori/analysis/loops.h"
#include "ori/analysis/postdominators.h"
#include "ori/analysis/rpo.h"
#include "ori/cfg.h"

#include "llvm/ADT/BitVector.h"

#include <algorithm>
#include <map>
#include <set>
#include <vector>

namespace ptxmini {
namespace {

using ori::Instr;
using ori::Opcode;
using ori::Operand;
using ori::OperandKind;
using ori::RegClass;
using ori::SpecialReg;

/// Special registers whose value is the same for every thread of a warp.
/// HW/GUESS: CTA and warp identifiers are per warp by definition; the rest (thread ids, lane
/// masks, clocks) differ between threads or between reads.
constexpr SpecialReg kUniformSpecialRegs[] = {
    SpecialReg::CTAID_X, SpecialReg::CTAID_Y, SpecialReg::CTAID_Z, SpecialReg::VIRTID,
    SpecialReg::VIRTCFG, SpecialReg::VIRTUALSMID, SpecialReg::CGACTAID, SpecialReg::SMEMSZ,
};

constexpr uint32_t kFullMask = 0xffffffffu;

struct Ctx {
  ori::Function &f;
  uint32_t n = 0;               ///< blocks
  std::vector<bool> exitOnly;   ///< first instruction an unguarded EXIT / BPT
  llvm::BitVector divergent;    ///< per flat virtual register
};

bool isExitOnly(const ori::Block &b) {
  if (b.instrs.empty())
    return false;
  const Instr &first = b.instrs.front();
  return (first.op == Opcode::EXIT || first.op == Opcode::BPT) && !first.isGuarded();
}

bool isFullMaskMarker(const Instr &in) {
  return in.op == Opcode::WARPSYNC && in.uses().size() == 1 &&
         in.uses()[0].kind == OperandKind::Imm &&
         static_cast<uint32_t>(in.uses()[0].imm) == kFullMask;
}

/// A conditional branch ending block b: a BRA whose guard is a real predicate.
const Instr *conditionalBranch(const ori::Function &f, uint32_t b) {
  const ori::Block &blk = f.blocks[b];
  if (blk.instrs.empty() || blk.succs.size() < 2)
    return nullptr;
  const Instr &last = blk.instrs.back();
  if (last.op != Opcode::BRA || !last.isGuarded() || last.guard.isFixed())
    return nullptr;
  return &last;
}

bool isDivergentValue(const Ctx &c, const Operand &o) {
  for (const Operand &v : o.vregs()) {
    unsigned i = c.f.flatRegIndex(v.cls, v.reg);
    if (i < c.divergent.size() && c.divergent.test(i))
      return true;
  }
  return false;
}

/// Whether the definitions of `in` are divergent sources by themselves.
bool isDivergentSource(const Instr &in, const Operand &def) {
  if (def.cls == RegClass::UR || def.cls == RegClass::UP)
    return false; // one copy per warp
  switch (in.op) {
  case Opcode::S2R:
    return !(in.uses()[0].kind == OperandKind::SReg &&
             std::find(std::begin(kUniformSpecialRegs), std::end(kUniformSpecialRegs),
                       static_cast<SpecialReg>(in.uses()[0].reg)) != std::end(kUniformSpecialRegs));
  case Opcode::CS2R:
  case Opcode::SHFL:
  case Opcode::MATCH:
  case Opcode::ELECT:
    return true;
  case Opcode::VOTE:
  case Opcode::REDUX:
  case Opcode::B2R:
    return false; // the same result for every participating thread
  case Opcode::LDC:
    return false; // uniform when its operands are (checked by the caller)
  default:
    return in.info().has(ori::OF_LD);
  }
}

/// Blocks reachable from b's successors without passing `join` (kNoBlock: no stop).
std::vector<bool> regionOf(const ori::Function &f, const std::vector<uint32_t> &starts,
                           int32_t join) {
  std::vector<bool> in(f.blocks.size(), false);
  std::vector<uint32_t> work;
  for (uint32_t s : starts)
    if (static_cast<int32_t>(s) != join && !in[s]) {
      in[s] = true;
      work.push_back(s);
    }
  while (!work.empty()) {
    uint32_t b = work.back();
    work.pop_back();
    for (uint32_t s : f.blocks[b].succs)
      if (static_cast<int32_t>(s) != join && !in[s]) {
        in[s] = true;
        work.push_back(s);
      }
  }
  return in;
}

struct Branch {
  uint32_t block;
  int32_t join; ///< kNoBlock: none (a side only exits, or no common post-dominator)
};

/// Step 2: divergent registers and the divergent conditional branches.
std::vector<Branch> analyzeDivergence(Ctx &c, const ori::PostDomTree &pdt,
                                      const ori::Liveness &live) {
  ori::Function &f = c.f;
  c.divergent.clear();
  c.divergent.resize(f.numFlatRegs());
  std::vector<Branch> branches;
  for (bool changed = true; changed;) {
    changed = false;
    auto mark = [&](const Operand &v) {
      if (v.cls == RegClass::UR || v.cls == RegClass::UP || v.cls == RegClass::B)
        return; // one copy per warp
      unsigned i = f.flatRegIndex(v.cls, v.reg);
      if (!c.divergent.test(i)) {
        c.divergent.set(i);
        changed = true;
      }
    };
    for (const ori::Block &b : f.blocks)
      for (const Instr &in : b.instrs) {
        bool anyUse = isDivergentValue(c, in.guard);
        for (const Operand &u : in.uses())
          anyUse |= isDivergentValue(c, u);
        for (const Operand &d : in.defs())
          if (anyUse || isDivergentSource(in, d))
            for (const Operand &v : d.vregs())
              mark(v);
      }
    // Sync dependence: values defined in a divergent branch's region and live at its join.
    branches.clear();
    for (uint32_t b = 0; b < c.n; ++b) {
      const Instr *br = conditionalBranch(f, b);
      if (!br || !isDivergentValue(c, br->guard))
        continue;
      Branch x{b, pdt.ipdom(b)};
      std::vector<uint32_t> starts(f.blocks[b].succs.begin(), f.blocks[b].succs.end());
      std::vector<bool> region = regionOf(f, starts, x.join);
      for (uint32_t r = 0; r < c.n; ++r) {
        if (!region[r])
          continue;
        for (const Instr &in : f.blocks[r].instrs)
          for (const Operand &d : in.defs())
            for (const Operand &v : d.vregs())
              if (x.join == ori::kNoBlock ||
                  live.liveIn[x.join].test(f.flatRegIndex(v.cls, v.reg)))
                mark(v);
      }
      branches.push_back(x);
    }
  }
  return branches;
}

/// A region to bracket: BSSY at the end of `bssyBlock`, BSYNC in front of `join`.
struct Region {
  uint32_t join;
  uint32_t bssyBlock;
  std::vector<bool> blocks; ///< bssyBlock and every block reachable from it before `join`
  size_t size = 0;
  Operand barrier;
};

uint32_t nearestCommonDominator(const ori::DomTree &dt, uint32_t a, uint32_t b) {
  std::set<uint32_t> up;
  for (int32_t x = static_cast<int32_t>(a); x != ori::kNoBlock; x = dt.idom(x))
    up.insert(static_cast<uint32_t>(x));
  for (int32_t x = static_cast<int32_t>(b); x != ori::kNoBlock; x = dt.idom(x))
    if (up.count(static_cast<uint32_t>(x)))
      return static_cast<uint32_t>(x);
  return 0;
}

/// Step 3: one region per join block, or none where bracketing is unsafe or useless.
std::vector<Region> chooseRegions(Ctx &c, const std::vector<Branch> &branches,
                                  const ori::DomTree &dt, const ori::PostDomTree &pdt,
                                  const ori::LoopForest &lf) {
  ori::Function &f = c.f;
  std::map<uint32_t, std::vector<uint32_t>> byJoin;
  for (const Branch &x : branches) {
    if (x.join == ori::kNoBlock || x.join == 0 || !dt.isReachable(x.block))
      continue; // no join, the entry, or dead code
    unsigned live = 0; // successors that do not only exit
    for (uint32_t s : f.blocks[x.block].succs)
      live += !c.exitOnly[s];
    if (live >= 2)
      byJoin[static_cast<uint32_t>(x.join)].push_back(x.block);
  }
  std::vector<Region> regions;
  for (auto &[join, blocks] : byJoin) {
    uint32_t d = blocks[0];
    for (uint32_t b : blocks)
      d = nearestCommonDominator(dt, d, b);
    // Hoist out of loops that do not contain the join: the BSSY must run once per entry.
    bool ok = true;
    for (int32_t l = lf.innermost[d]; l >= 0 && ok;) {
      const ori::Loop &loop = lf.loops[l];
      if (std::binary_search(loop.blocks.begin(), loop.blocks.end(), join))
        break;
      int32_t up = dt.idom(loop.header);
      if (up == ori::kNoBlock) {
        ok = false;
        break;
      }
      d = static_cast<uint32_t>(up);
      l = lf.innermost[d];
    }
    if (!ok || d == join || !pdt.postDominates(join, d))
      continue;
    Region r{join, d, {}, 0, {}};
    std::vector<uint32_t> starts(f.blocks[d].succs.begin(), f.blocks[d].succs.end());
    r.blocks = regionOf(f, starts, static_cast<int32_t>(join));
    // D itself counts from the BSSY on (its terminator) unless the region loops back to it.
    bool wholeD = r.blocks[d];
    r.blocks[d] = true;
    bool blocked = false;
    for (uint32_t b = 0; b < c.n && !blocked; ++b) {
      if (!r.blocks[b])
        continue;
      ++r.size;
      // One entry: a block entered from outside without passing the BSSY would reach the
      // BSYNC with a stale barrier (unstructured flow; nvcc's code never does this).
      blocked |= b != d && dt.isReachable(b) && !dt.dominates(d, b);
      if (b == d && !wholeD)
        continue;
      for (const Instr &in : f.blocks[b].instrs)
        blocked |= isFullMaskMarker(in); // also in front of every aligned CTA barrier
    }
    if (!blocked)
      regions.push_back(std::move(r));
  }
  // Outer regions first, so a block opening several regions opens the outer one first.
  std::stable_sort(regions.begin(), regions.end(),
                   [](const Region &a, const Region &b) { return a.size > b.size; });
  return regions;
}

bool fallsThroughTo(const ori::Function &f, uint32_t p, uint32_t s) {
  if (p + 1 != s)
    return false;
  const ori::Block &b = f.blocks[p];
  return b.instrs.empty() || !b.instrs.back().isUnconditionalTerminator();
}

std::string uniqueName(std::set<std::string> &used, const std::string &base) {
  std::string name = base;
  for (unsigned k = 1; used.count(name); ++k)
    name = base + "_" + std::to_string(k);
  used.insert(name);
  return name;
}

/// Step 4: insert the instructions and blocks of every region.
void insertRegions(Ctx &c, std::vector<Region> &regions) {
  ori::Function &f = c.f;
  const uint32_t n = c.n;
  std::vector<int32_t> regionAtJoin(n, -1);
  for (size_t i = 0; i < regions.size(); ++i) {
    regions[i].barrier = f.newReg(RegClass::B);
    regionAtJoin[regions[i].join] = static_cast<int32_t>(i);
  }
  // BSSY %b, J in front of D's terminator (outer regions first).
  for (const Region &r : regions) {
    Instr bssy(Opcode::BSSY);
    bssy.addDef(r.barrier);
    bssy.addUse(Operand::block(r.join));
    auto &instrs = f.blocks[r.bssyBlock].instrs;
    auto pos = instrs.end();
    if (!instrs.empty() && (instrs.back().info().has(ori::OF_TERM) ||
                            instrs.back().info().has(ori::OF_BR)))
      pos = std::prev(instrs.end());
    instrs.insert(pos, bssy); // after the BSSYs of enclosing regions placed before

  }
  // New layout: [BRA J] [BSYNC %b] J for every join.
  std::vector<std::string> names;
  for (const ori::Block &b : f.blocks)
    names.push_back(b.name);
  std::set<std::string> used(names.begin(), names.end());
  std::vector<ori::Block> out;
  std::vector<uint32_t> newIndex(n), syncIndex(n, UINT32_MAX);
  for (uint32_t b = 0; b < n; ++b) {
    if (int32_t ri = regionAtJoin[b]; ri >= 0) {
      const Region &r = regions[ri];
      if (b > 0 && !r.blocks[b - 1] && fallsThroughTo(f, b - 1, b)) {
        ori::Block skip;
        skip.name = uniqueName(used, names[b - 1] + "_to_" + names[b]);
        Instr bra(Opcode::BRA);
        bra.addUse(Operand::block(b)); // remapped below like every label
        skip.instrs.push_back(bra);
        out.push_back(std::move(skip));
      }
      ori::Block sync;
      sync.name = uniqueName(used, names[b] + "_bsync");
      Instr bsync(Opcode::BSYNC);
      bsync.addUse(r.barrier);
      sync.instrs.push_back(bsync);
      syncIndex[b] = static_cast<uint32_t>(out.size());
      out.push_back(std::move(sync));
    }
    newIndex[b] = static_cast<uint32_t>(out.size());
    out.push_back(std::move(f.blocks[b]));
  }
  // Labels: every old index to its new place; region branches into J to J's BSYNC block.
  std::vector<int32_t> oldOf(out.size(), -1);
  for (uint32_t b = 0; b < n; ++b)
    oldOf[newIndex[b]] = static_cast<int32_t>(b);
  for (uint32_t nb = 0; nb < out.size(); ++nb) {
    for (Instr &in : out[nb].instrs) {
      for (Operand &o : in.ops) {
        if (o.kind != OperandKind::Block)
          continue;
        uint32_t target = o.reg;
        int32_t from = oldOf[nb];
        bool redirect = in.info().has(ori::OF_BR) && from >= 0 && regionAtJoin[target] >= 0 &&
                        regions[regionAtJoin[target]].blocks[from];
        o.reg = redirect ? syncIndex[target] : newIndex[target];
      }
    }
  }
  f.blocks = std::move(out);
}

/// Step 5: convergence at every program point; rewrite the WARPSYNC markers. A non-aligned
/// CTA barrier (a BAR without a marker in front) where the warp may be diverged is reported:
/// ptxas compiles it to a BRA.DIV test and a WARPSYNC.COLLECTIVE sequence not modelled here.
void placeWarpSyncs(Ctx &c) {
  ori::Function &f = c.f;
  const uint32_t n = static_cast<uint32_t>(f.blocks.size());
  std::vector<bool> exitOnly(n);
  for (uint32_t b = 0; b < n; ++b)
    exitOnly[b] = isExitOnly(f.blocks[b]);
  auto unconverges = [&](uint32_t p) {
    const Instr *br = conditionalBranch(f, p);
    if (!br || !isDivergentValue(c, br->guard))
      return false;
    for (uint32_t s : f.blocks[p].succs)
      if (exitOnly[s])
        return false;
    return true;
  };
  auto isConvergingSync = [](const Instr &in) {
    return isFullMaskMarker(in) || (in.op == Opcode::WARPSYNC && in.uses().empty());
  };
  std::vector<uint8_t> convOut(n, 1);
  std::map<uint32_t, bool> atBssy; // barrier vreg -> convergence at its BSSY
  std::vector<uint32_t> rpo = ori::computeRPO(f);
  auto blockEntry = [&](uint32_t b) {
    if (b == 0)
      return true;
    bool conv = true;
    for (uint32_t p : f.blocks[b].preds)
      conv = conv && convOut[p] && !unconverges(p);
    return conv;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (uint32_t b : rpo) {
      bool conv = blockEntry(b);
      for (const Instr &in : f.blocks[b].instrs) {
        if (in.op == Opcode::BSSY) {
          auto [it, fresh] = atBssy.try_emplace(in.defs()[0].reg, conv);
          if (!fresh && it->second && !conv) {
            it->second = false;
            changed = true;
          }
        } else if (in.op == Opcode::BSYNC) {
          auto it = atBssy.find(in.uses()[0].reg);
          conv = it == atBssy.end() ? true : it->second;
        } else if (isConvergingSync(in)) {
          conv = true;
        }
      }
      if (convOut[b] != conv) {
        convOut[b] = conv;
        changed = true;
      }
    }
  }
  for (uint32_t b = 0; b < n; ++b) {
    bool conv = blockEntry(b);
    std::vector<Instr> kept;
    kept.reserve(f.blocks[b].instrs.size());
    for (Instr &in : f.blocks[b].instrs) {
      if (in.op == Opcode::BSYNC) {
        auto it = atBssy.find(in.uses()[0].reg);
        conv = it == atBssy.end() ? true : it->second;
      } else if (in.op == Opcode::WARPSYNC && !in.uses().empty()) {
        if (conv)
          continue; // converged: nothing to wait for
        if (isFullMaskMarker(in)) {
          Instr all(Opcode::WARPSYNC);
          all.mods.push_back(ori::Modifier::ALL);
          all.guard = in.guard;
          kept.push_back(all);
          conv = true;
          continue;
        }
      } else if (isConvergingSync(in)) {
        conv = true;
      }
      // A non-aligned CTA barrier where the warp may be diverged stays as it is: BAR.SYNC
      // .DEFER_BLOCKING counts threads, not warps, so the diverged parts arrive separately.
      // HW: ptxas 13.0 emits the same BAR.SYNC.DEFER_BLOCKING for barrier.sync and
      // barrier.sync.aligned (tests/lit/codegen/ctrl_sync.ptx), and the PTX ISA allows the
      // non-aligned form in divergent code.
      kept.push_back(std::move(in));
    }
    f.blocks[b].instrs = std::move(kept);
  }
}

} // namespace

void runInsertReconvergence(ori::Function &f, PhaseContext &pc) {
  ori::buildCFG(f);
  f.recomputeRegTable();
  Ctx c{f, static_cast<uint32_t>(f.blocks.size()), {}, {}};
  c.exitOnly.resize(c.n);
  for (uint32_t b = 0; b < c.n; ++b)
    c.exitOnly[b] = isExitOnly(f.blocks[b]);
  // 1-2.
  std::vector<uint32_t> rpo = ori::computeRPO(f);
  ori::DomTree dt(f, rpo);
  ori::LoopForest lf = ori::computeLoops(f, rpo, dt);
  ori::PostDomTree pdt(f, c.exitOnly);
  ori::Liveness live = ori::computeLiveness(f);
  std::vector<Branch> branches = analyzeDivergence(c, pdt, live);
  // 3-4.
  std::vector<Region> regions = chooseRegions(c, branches, dt, pdt, lf);
  if (!regions.empty()) {
    insertRegions(c, regions);
    ori::buildCFG(f);
  }
  // 5.
  placeWarpSyncs(c);
  f.recomputeRegTable();
  // The blocks changed: refresh phase 3's facts where they were computed, else leave none.
  if (f.cfgAnalyzed)
    runAnalyzeControlFlow(f, pc);
}

} // namespace ptxmini
