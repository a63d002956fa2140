//===- scheduler/compute_control_codes.cpp - ComputeControlCodes: stalls and scoreboards -===//
///
/// \file
/// Gives every instruction of an allocated function its control code from the target's
/// latency model (targets/<sm>/latencies.def), correct along every path of the CFG:
///
///   1. Dependences on variable-latency results (OP_VLAT writers) and on operands read after
///      issue (OP_LATE readers' GPR sources) are found by a forward dataflow in which every such
///      producer has a scoreboard of its own: a later instruction that reads or overwrites a
///      pending result, or overwrites a pending late-read source, "waits" on it. Producers
///      nobody waits on get no scoreboard. CALL and RET wait on everything (the other side
///      may touch any register at once).
///   2. The six hardware scoreboards are given to those producers in layout order, a free one
///      (all its earlier producers' waiters passed) first, else shared: a scoreboard counts,
///      so sharing is correct and only makes a wait cover more. A shared scoreboard is
///      released when its slowest producer is done, so the one chosen is the one whose
///      producers finish closest to the new one (estimated as layout position + the
///      release latency of the target's performance table, targets/<sm>/perf_model.def:
///      one issue per position, a GUESS; the same table the emulator's model uses): a short
///      read release is not put behind a global load's result (the waiters of the read
///      would wait for the load, HW: ptxas gives them scoreboards of their own too), then
///      the one whose last waiter comes soonest, then the lowest number.
///   3. The wait masks are recomputed by the same dataflow with the real scoreboards: an
///      instruction waits on scoreboard k when something pending on k conflicts with it, and
///      the wait retires everything on k (a retired write also retires its producer's late
///      reads: the result comes back after the operands were read).
///   4. Stalls: a forward timing dataflow over fixed-latency results in flight (register,
///      class, age) and the cycles since each scoreboard was last set. Before each instruction
///      the gap grows until every operand's producer is rawLatency() old, every waited
///      scoreboard was set at least scoreboardSetDelay cycles earlier, and a slower writer of
///      the same register has landed. A block whose first instruction needs more cycles gets
///      them on its predecessors' last instructions (a fixpoint: stalls only grow). Gaps over
///      the field's maximum become NOPs.
///   5. Yield bits as ptxas sets them (targets/sm_90/latencies.def, MIN_STALL comments): the
///      `Y` form on fixed-latency ALU/FMA instructions that stall 3 or more cycles, on NOP and
///      DEPBAR, and wherever the stall is 12 or more (HW: nvdisasm 13.2 rejects a stall of 15
///      with the raw yield bit set).
/// Deterministic: everything iterates in layout order over sorted vectors. Reuse bits are left
/// clear (the operand cache is an optimisation; no rule proven here says when it is safe).
/// Runs after register allocation, on physical registers.
//===----------------------------------------------------------------------------------===//
#include "ori/cfg.h"
#include "phases/phase_manager.h"
#include "scheduler/instr_deps.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <algorithm>
#include <array>
#include <map>

namespace ptxmini {
namespace {

using sched::InstrDeps;

constexpr uint8_t kNoSb = ori::CtrlCode::kNoBarrier;
constexpr uint16_t kOldAge = 0x3FFF;

bool intersects(const llvm::SmallVectorImpl<uint16_t> &sortedA, llvm::ArrayRef<uint16_t> b) {
  for (uint16_t k : b)
    if (std::binary_search(sortedA.begin(), sortedA.end(), k))
      return true;
  return false;
}

// ---- pending scoreboard dependences (steps 1 and 3) ----------------------------------------

/// One producer's pending write (its result) or read (its late GPR sources).
struct Pend {
  uint32_t prod; ///< global instruction index
  bool write;
  uint8_t sb;    ///< step 1: unused; step 3: the real scoreboard
  llvm::SmallVector<uint16_t, 4> regs; ///< sorted
  auto key() const { return std::make_pair(prod, write); }
};

struct PendState {
  bool reached = false;
  std::vector<Pend> v; ///< sorted by key
  bool operator==(const PendState &o) const {
    if (reached != o.reached || v.size() != o.v.size())
      return false;
    for (size_t i = 0; i < v.size(); ++i)
      if (v[i].key() != o.v[i].key() || v[i].regs != o.v[i].regs || v[i].sb != o.v[i].sb)
        return false;
    return true;
  }
};

void joinPend(PendState &into, const PendState &from) {
  if (!from.reached)
    return;
  if (!into.reached) {
    into = from;
    return;
  }
  std::vector<Pend> out;
  size_t i = 0, j = 0;
  while (i < into.v.size() || j < from.v.size()) {
    if (j == from.v.size() || (i < into.v.size() && into.v[i].key() < from.v[j].key())) {
      out.push_back(into.v[i++]);
    } else if (i == into.v.size() || from.v[j].key() < into.v[i].key()) {
      out.push_back(from.v[j++]);
    } else {
      Pend m = into.v[i++];
      const Pend &o = from.v[j++];
      llvm::SmallVector<uint16_t, 4> u;
      std::set_union(m.regs.begin(), m.regs.end(), o.regs.begin(), o.regs.end(), std::back_inserter(u));
      m.regs = std::move(u);
      out.push_back(std::move(m));
    }
  }
  into.v = std::move(out);
}

// ---- fixed-latency timing (step 4) -----------------------------------------------------

struct Flight {
  uint16_t key;
  uint8_t cls;
  uint16_t age;
  auto id() const { return std::make_pair(key, cls); }
};

struct TimeState {
  bool reached = false;
  std::vector<Flight> fixed; ///< sorted by id
  /// Cycles since each scoreboard was last set (long ago at the function's entry).
  std::array<uint16_t, 8> sbAge = [] {
    std::array<uint16_t, 8> a;
    a.fill(kOldAge);
    return a;
  }();
  bool operator==(const TimeState &o) const {
    if (reached != o.reached || sbAge != o.sbAge || fixed.size() != o.fixed.size())
      return false;
    for (size_t i = 0; i < fixed.size(); ++i)
      if (fixed[i].id() != o.fixed[i].id() || fixed[i].age != o.fixed[i].age)
        return false;
    return true;
  }
};

void joinTime(TimeState &into, const TimeState &from) {
  if (!from.reached)
    return;
  if (!into.reached) {
    into = from;
    return;
  }
  for (size_t k = 0; k < into.sbAge.size(); ++k)
    into.sbAge[k] = std::min(into.sbAge[k], from.sbAge[k]);
  std::vector<Flight> out;
  size_t i = 0, j = 0;
  while (i < into.fixed.size() || j < from.fixed.size()) {
    if (j == from.fixed.size() || (i < into.fixed.size() && into.fixed[i].id() < from.fixed[j].id())) {
      out.push_back(into.fixed[i++]);
    } else if (i == into.fixed.size() || from.fixed[j].id() < into.fixed[i].id()) {
      out.push_back(from.fixed[j++]);
    } else {
      Flight m = into.fixed[i++];
      m.age = std::min(m.age, from.fixed[j++].age);
      out.push_back(m);
    }
  }
  into.fixed = std::move(out);
}

struct CcCtx {
  ori::Function &f;
  const Target &t;
  std::vector<std::vector<InstrDeps>> deps; ///< [block][instr]
  std::vector<uint32_t> first;              ///< global index of each block's first instruction
  uint32_t total = 0;

  // Step 1 results: which producers need a write / read scoreboard, and where they are waited.
  std::vector<bool> needW, needR;
  std::vector<uint32_t> lastWaitW, lastWaitR; ///< the latest waiter in layout order
  std::vector<bool> waitBackW, waitBackR;     ///< some waiter precedes the producer (a loop)
  // Step 2 results.
  std::vector<uint8_t> sbW, sbR;
  // Step 3 result.
  std::vector<uint8_t> waitMask;
  // Step 4 state: the gap after each instruction (its stall, possibly > maxStall).
  std::vector<unsigned> gap;

  CcCtx(ori::Function &fn, const Target &target) : f(fn), t(target) {}

  const ori::Instr &instr(uint32_t b, uint32_t i) const { return f.blocks[b].instrs[i]; }

  /// Runs `transfer` over blocks to a fixpoint of the block entry states.
  template <typename State, typename Join, typename Transfer>
  std::vector<State> fixpoint(Join join, Transfer transfer) {
    size_t nb = f.blocks.size();
    std::vector<State> in(nb), out(nb);
    if (nb == 0)
      return in;
    in[0].reached = true;
    std::vector<bool> queued(nb, true);
    std::vector<uint32_t> work;
    for (size_t b = nb; b-- > 0;)
      work.push_back(static_cast<uint32_t>(b));
    size_t steps = 0, maxSteps = 200 * nb + 1000;
    while (!work.empty() && steps++ < maxSteps) {
      // Lowest block index first: layout order converges fastest and is deterministic.
      auto it = std::min_element(work.begin(), work.end());
      uint32_t b = *it;
      work.erase(it);
      queued[b] = false;
      if (!in[b].reached)
        continue;
      State st = in[b];
      transfer(b, st);
      if (st == out[b])
        continue;
      out[b] = std::move(st);
      for (uint32_t s : f.blocks[b].succs) {
        State merged = in[s];
        join(merged, out[b]);
        if (!(merged == in[s])) {
          in[s] = std::move(merged);
          if (!queued[s]) {
            queued[s] = true;
            work.push_back(s);
          }
        }
      }
    }
    return in;
  }

  /// Steps 1 and 3: one instruction over the pending dependences. `real` selects the real
  /// scoreboards (step 3) over one per producer (step 1).
  void pendStep(PendState &st, uint32_t b, uint32_t i, bool real, bool record) {
    const InstrDeps &d = deps[b][i];
    uint32_t g = first[b] + i;
    bool all = d.has(OP_CALL) || (d.has(OP_TERM) && instr(b, i).info().name == "RET");
    llvm::SmallVector<uint16_t, 8> reads;
    for (const sched::RegRead &r : d.reads)
      reads.push_back(r.key);
    uint8_t mask = 0;
    std::vector<uint32_t> doneW;
    for (const Pend &e : st.v) {
      bool hit = all || (e.write && (intersects(e.regs, reads) || intersects(e.regs, d.defs))) ||
                 (!e.write && intersects(e.regs, d.defs));
      if (!hit || d.noWaits)
        continue;
      if (real) {
        mask |= static_cast<uint8_t>(1u << e.sb);
      } else if (record) {
        auto &need = e.write ? needW : needR;
        auto &last = e.write ? lastWaitW : lastWaitR;
        auto &back = e.write ? waitBackW : waitBackR;
        need[e.prod] = true;
        last[e.prod] = std::max(last[e.prod], g);
        if (g <= e.prod)
          back[e.prod] = true;
      }
      if (e.write)
        doneW.push_back(e.prod);
    }
    auto retiredRead = [&](const Pend &e) {
      return !e.write && std::find(doneW.begin(), doneW.end(), e.prod) != doneW.end();
    };
    if (real) {
      // A wait retires everything counted on the scoreboard.
      for (const Pend &e : st.v)
        if ((mask >> e.sb) & 1 && e.write)
          doneW.push_back(e.prod);
      std::erase_if(st.v, [&](const Pend &e) { return ((mask >> e.sb) & 1) || retiredRead(e); });
      if (record)
        waitMask[g] = mask;
    } else {
      std::erase_if(st.v, [&](const Pend &e) {
        bool hit = all || (e.write && (intersects(e.regs, reads) || intersects(e.regs, d.defs))) ||
                   (!e.write && intersects(e.regs, d.defs));
        return (hit && !d.noWaits) || retiredRead(e);
      });
    }
    auto add = [&](bool write, llvm::ArrayRef<uint16_t> regs) {
      Pend p{g, write, kNoSb, {}};
      p.regs.assign(regs.begin(), regs.end());
      std::sort(p.regs.begin(), p.regs.end());
      p.regs.erase(std::unique(p.regs.begin(), p.regs.end()), p.regs.end());
      if (real) {
        p.sb = write ? sbW[g] : sbR[g];
        if (p.sb == kNoSb)
          return;
      }
      auto pos = std::lower_bound(st.v.begin(), st.v.end(), p,
                                  [](const Pend &a, const Pend &b) { return a.key() < b.key(); });
      if (pos != st.v.end() && pos->key() == p.key())
        *pos = std::move(p);
      else
        st.v.insert(pos, std::move(p));
    };
    if (d.vlat && !d.defs.empty())
      add(true, d.defs);
    if (d.late && !d.lateSrcs.empty())
      add(false, d.lateSrcs);
  }

  void runPend(bool real) {
    auto in = fixpoint<PendState>(joinPend, [&](uint32_t b, PendState &st) {
      for (uint32_t i = 0; i < f.blocks[b].instrs.size(); ++i)
        pendStep(st, b, i, real, !real);
    });
    // The recording pass with the final entry states (unreached blocks start empty).
    for (uint32_t b = 0; b < f.blocks.size(); ++b) {
      PendState st = in[b];
      st.reached = true;
      for (uint32_t i = 0; i < f.blocks[b].instrs.size(); ++i)
        pendStep(st, b, i, real, true);
    }
  }

  /// Step 2: hardware scoreboards for the producers step 1 found waited on.
  void allocate() {
    unsigned n = t.issue().numScoreboards;
    std::vector<uint64_t> releaseAt(n, 0); // layout position after which the SB is free
    std::vector<bool> used(n, false);
    // HW: ptxas 13.0 gives LDGDEPBAR (cp.async.commit_group) write scoreboard 0, the one
    // DEPBAR.LE SB0, N (cp.async.wait_group) counts: a function with commit groups keeps
    // scoreboard 0 to them.
    unsigned firstSb = 0;
    for (const ori::Block &blk : f.blocks)
      for (const ori::Instr &in : blk.instrs)
        if (in.op == ori::Opcode::LDGDEPBAR || in.op == ori::Opcode::UTMACMDFLUSH)
          firstSb = 1;
    std::vector<uint64_t> doneAt(n, 0); // estimated completion of the SB's producers
    std::vector<uint32_t> pos(total, 0);
    std::vector<const ori::Instr *> at(total, nullptr);
    for (uint32_t b = 0; b < f.blocks.size(); ++b)
      for (uint32_t i = 0; i < f.blocks[b].instrs.size(); ++i)
        at[first[b] + i] = &f.blocks[b].instrs[i];
    for (uint32_t g = 0; g < total; ++g) {
      PerfCost cost;
      if (needW[g] || needR[g]) {
        llvm::SmallVector<std::string_view, 4> mods;
        for (ori::Modifier m : at[g]->mods)
          mods.push_back(ori::modifierSpelling(m));
        cost = t.perfCost(at[g]->info().name, mods);
      }
      for (int kind = 0; kind < 2; ++kind) {
        bool write = kind == 0;
        if (!(write ? needW[g] : needR[g]))
          continue;
        uint64_t until = (write ? waitBackW[g] : waitBackR[g]) ? UINT64_MAX
                                                                : (write ? lastWaitW[g] : lastWaitR[g]);
        uint64_t done = g + std::max<uint64_t>(1, write ? cost.writeLatency : cost.readLatency);
        int pick = -1;
        for (unsigned k = firstSb; k < n && pick < 0; ++k)
          if (!used[k] || releaseAt[k] <= g)
            pick = static_cast<int>(k);
        if (pick < 0) {
          auto harm = [&](unsigned k) {
            return doneAt[k] > done ? doneAt[k] - done : done - doneAt[k];
          };
          pick = static_cast<int>(firstSb);
          for (unsigned k = firstSb + 1; k < n; ++k) {
            unsigned p = static_cast<unsigned>(pick);
            if (harm(k) != harm(p) ? harm(k) < harm(p) : releaseAt[k] < releaseAt[p])
              pick = static_cast<int>(k);
          }
          releaseAt[static_cast<unsigned>(pick)] = std::max(releaseAt[static_cast<unsigned>(pick)], until);
          doneAt[static_cast<unsigned>(pick)] = std::max(doneAt[static_cast<unsigned>(pick)], done);
        } else {
          releaseAt[static_cast<unsigned>(pick)] = until;
          doneAt[static_cast<unsigned>(pick)] = done;
        }
        used[static_cast<unsigned>(pick)] = true;
        (write ? sbW : sbR)[g] = static_cast<uint8_t>(pick);
      }
    }
  }

  // ---- step 4 ------------------------------------------------------------------------------

  unsigned maxLat(uint8_t cls, uint16_t key) const {
    return t.maxRawLatency(static_cast<ori::LatClass>(cls), sched::regKeyFile(key));
  }

  /// Cycles the instruction must still wait in state `st`.
  unsigned needBefore(const TimeState &st, uint32_t b, uint32_t i) const {
    const InstrDeps &d = deps[b][i];
    uint32_t g = first[b] + i;
    unsigned need = 0;
    auto want = [&](unsigned lat, unsigned age) {
      if (lat > age)
        need = std::max(need, lat - age);
    };
    for (const sched::RegRead &r : d.reads)
      for (const Flight &fl : st.fixed)
        if (fl.key == r.key)
          want(t.rawLatency(static_cast<ori::LatClass>(fl.cls), d.cls, sched::regKeyFile(r.key), r.kind),
               fl.age);
    // A slower writer of the same register must land before this one's result does.
    if (!d.vlat)
      for (size_t n = 0; n < d.defs.size(); ++n)
        for (const Flight &fl : st.fixed)
          if (fl.key == d.defs[n] && fl.cls != d.defCls[n])
            want(t.wawDistance(static_cast<ori::LatClass>(fl.cls), static_cast<ori::LatClass>(d.defCls[n]),
                               sched::regKeyFile(fl.key)),
                 fl.age);
    for (unsigned k = 0; k < t.issue().numScoreboards; ++k)
      if ((waitMask[g] >> k) & 1)
        want(t.issue().scoreboardSetDelay, st.sbAge[k]);
    bool all = d.has(OP_CALL) || (d.has(OP_TERM) && instr(b, i).info().name == "RET");
    if (all)
      for (const Flight &fl : st.fixed)
        want(maxLat(fl.cls, fl.key), fl.age);
    return need;
  }

  void age(TimeState &st, unsigned dt) const {
    for (Flight &fl : st.fixed)
      fl.age = static_cast<uint16_t>(std::min<unsigned>(fl.age + dt, kOldAge));
    for (uint16_t &a : st.sbAge)
      a = static_cast<uint16_t>(std::min<unsigned>(a + dt, kOldAge));
    std::erase_if(st.fixed, [&](const Flight &fl) { return fl.age >= maxLat(fl.cls, fl.key); });
  }

  /// Issues instruction (b, i): its results start their flight, its scoreboards are set.
  void issue(TimeState &st, uint32_t b, uint32_t i) const {
    const InstrDeps &d = deps[b][i];
    uint32_t g = first[b] + i;
    if (d.has(OP_CALL)) {
      st.fixed.clear(); // the callee's time covers what was in flight
    }
    if (!d.guarded)
      std::erase_if(st.fixed, [&](const Flight &fl) {
        return std::find(d.defs.begin(), d.defs.end(), fl.key) != d.defs.end();
      });
    if (!d.vlat)
      for (size_t n = 0; n < d.defs.size(); ++n) {
        Flight fl{d.defs[n], d.defCls[n], 0};
        auto pos = std::lower_bound(st.fixed.begin(), st.fixed.end(), fl,
                                    [](const Flight &a, const Flight &b) { return a.id() < b.id(); });
        if (pos != st.fixed.end() && pos->id() == fl.id())
          pos->age = 0;
        else
          st.fixed.insert(pos, fl);
      }
    for (uint8_t sb : {sbW[g], sbR[g]})
      if (sb != kNoSb)
        st.sbAge[sb] = 0;
  }

  /// Step 4 transfer of one block; grows gaps inside it. Returns the cycles its first
  /// instruction still needs from its predecessors.
  unsigned timeBlock(uint32_t b, TimeState &st) {
    unsigned entryNeed = 0;
    for (uint32_t i = 0; i < f.blocks[b].instrs.size(); ++i) {
      uint32_t g = first[b] + i;
      if (unsigned need = needBefore(st, b, i)) {
        if (i > 0)
          gap[g - 1] += need;
        else
          entryNeed = need;
        age(st, need);
      }
      issue(st, b, i);
      age(st, gap[g]);
    }
    return entryNeed;
  }

  void computeStalls() {
    gap.assign(total, 1);
    for (uint32_t b = 0; b < f.blocks.size(); ++b)
      for (uint32_t i = 0; i < f.blocks[b].instrs.size(); ++i)
        gap[first[b] + i] = std::max(1u, t.minStall(instr(b, i).info().name));
    // Outer fixpoint: entry needs are paid by the predecessors' last gaps, which changes
    // their out-states; stalls only grow, so this ends.
    for (int round = 0; round < 64; ++round) {
      std::vector<unsigned> entryNeed(f.blocks.size(), 0);
      auto in = fixpoint<TimeState>(joinTime, [&](uint32_t b, TimeState &st) {
        entryNeed[b] = std::max(entryNeed[b], timeBlock(b, st));
      });
      bool changed = false;
      for (uint32_t b = 0; b < f.blocks.size(); ++b) {
        TimeState st = in[b];
        st.reached = true;
        unsigned need = timeBlock(b, st);
        if (!need)
          continue;
        // The need is paid by the last instruction of every predecessor that has one; an
        // empty predecessor (a block OriBranchOpt emptied) passes it on to its own
        // predecessors. (Skipping empty ones left a DADD read 6 cycles after its producer
        // across `@!P5 BRA` + an empty block: corpus pricingengine.ptx, hazard checker.)
        llvm::SmallVector<uint32_t, 8> work(f.blocks[b].preds.begin(), f.blocks[b].preds.end());
        llvm::SmallVector<uint32_t, 8> seen;
        while (!work.empty()) {
          uint32_t p = work.pop_back_val();
          if (llvm::is_contained(seen, p))
            continue;
          seen.push_back(p);
          if (f.blocks[p].instrs.empty()) {
            work.append(f.blocks[p].preds.begin(), f.blocks[p].preds.end());
            continue;
          }
          gap[first[p] + static_cast<uint32_t>(f.blocks[p].instrs.size()) - 1] += need;
          changed = true;
        }
      }
      if (!changed)
        break;
    }
  }

  bool yieldForm(uint32_t b, uint32_t i, unsigned stall) const {
    const ori::Instr &in = instr(b, i);
    const InstrDeps &d = deps[b][i];
    if (stall >= 12 || in.op == ori::Opcode::NOP || in.op == ori::Opcode::DEPBAR)
      return true;
    if (d.vlat || d.late || d.cls == ori::LatClass::Mma || d.cls == ori::LatClass::Gmma || d.cls == ori::LatClass::Branch ||
        d.cls == ori::LatClass::Ctrl)
      return false;
    return stall >= 3;
  }

  void materialize() {
    unsigned maxStall = t.issue().maxStall;
    for (uint32_t b = 0; b < f.blocks.size(); ++b) {
      std::vector<ori::Instr> out;
      ori::Block &blk = f.blocks[b];
      for (uint32_t i = 0; i < blk.instrs.size(); ++i) {
        uint32_t g = first[b] + i;
        ori::Instr in = blk.instrs[i];
        unsigned rest = gap[g];
        ori::CtrlCode cc;
        cc.valid = true;
        cc.stall = static_cast<uint8_t>(std::min(rest, maxStall));
        rest -= cc.stall;
        cc.waitMask = waitMask[g];
        cc.writeBarrier = sbW[g];
        cc.readBarrier = sbR[g];
        if (in.op == ori::Opcode::LDGDEPBAR)
          cc.writeBarrier = 0;
        // HW: ptxas 13.0 gives UTMACMDFLUSH (cp.async.bulk.commit_group) read scoreboard 0
        // (control bits 0x0001e2...: R0, no W), which cp.async.bulk.wait_group's
        // DEPBAR.LE SB0, N counts.
        if (in.op == ori::Opcode::UTMACMDFLUSH)
          cc.readBarrier = 0;
        cc.yield = yieldForm(b, i, cc.stall);
        in.ctrl = cc;
        out.push_back(std::move(in));
        while (rest > 0) {
          ori::Instr nop(ori::Opcode::NOP);
          ori::CtrlCode nc;
          nc.valid = true;
          nc.stall = static_cast<uint8_t>(std::min(rest, maxStall));
          nc.yield = true;
          rest -= nc.stall;
          nop.ctrl = nc;
          out.push_back(std::move(nop));
        }
      }
      blk.instrs = std::move(out);
    }
  }

  void run() {
    ori::buildCFG(f);
    first.resize(f.blocks.size());
    for (uint32_t b = 0; b < f.blocks.size(); ++b) {
      first[b] = total;
      std::vector<InstrDeps> row;
      for (const ori::Instr &in : f.blocks[b].instrs)
        row.push_back(sched::instrDeps(in, t));
      total += static_cast<uint32_t>(row.size());
      deps.push_back(std::move(row));
    }
    needW.assign(total, false);
    needR.assign(total, false);
    lastWaitW.assign(total, 0);
    lastWaitR.assign(total, 0);
    waitBackW.assign(total, false);
    waitBackR.assign(total, false);
    sbW.assign(total, kNoSb);
    sbR.assign(total, kNoSb);
    waitMask.assign(total, 0);
    runPend(false);
    allocate();
    runPend(true);
    computeStalls();
    materialize();
  }
};

} // namespace

void runComputeControlCodes(ori::Function &f, PhaseContext &ctx) {
  CcCtx c(f, *ctx.target);
  c.run();
}

} // namespace ptxmini
