/* perf_model.cpp - the timing replay described in perf_model.h.
 *
 * Event-driven rather than cycle by cycle: every warp keeps the earliest cycle its next
 * instruction could issue as far as the warp itself is concerned (`own`: stall, scoreboards,
 * barrier); a sub-partition's next issue is the minimum over its warps of max(own, the pipe's
 * free cycle, the sub-partition's next free cycle), ties broken greedy-then-oldest; the
 * sub-partition with the earliest next issue goes first (ties: the lower index). Sub-partitions
 * only interact through CTA barriers and CTA residency, both of which only move times later,
 * so issuing in global time order is exact for this model. */
#include "tests/exec/emu/perf_model.h"

#include "targets/target.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string_view>

namespace ptxmini::exec {
namespace {

constexpr uint64_t kNever = std::numeric_limits<uint64_t>::max();
constexpr int kNumSb = 6;
// The warpgroup MMA group scoreboard (`gsb0`): an MMA carrying it (the last of a
// wgmma.commit_group) adds a pending release at issue + its write latency (perf_model.def:
// HGMMA/IGMMA/QGMMA, a GUESS), and WARPGROUP.DEPBAR.LE gsb0, k waits until at most k remain,
// as DEPBAR.LE SBn, k does for a control-code scoreboard. The MMAs of a group are not timed
// separately: the group completes one latency after its last MMA issued.
constexpr int kGsb = kNumSb;

struct SlotInfo {
  InstCtrl ctrl;
  PerfCost cost;
  int depbar_sb = -1;     // DEPBAR.LE SBn, k: n (kGsb: WARPGROUP.DEPBAR.LE gsb0, k)
  uint32_t depbar_k = 0;
  bool sets_gsb = false;  // a warpgroup MMA carrying gsb0
};

struct WarpState {
  const PerfTrace::WarpTrace* tr = nullptr;
  size_t pos = 0;          // next trace entry
  size_t arr = 0;          // next arrival record
  uint64_t ready = 0;      // previous issue + stall (or the CTA's start)
  std::array<std::vector<uint64_t>, kNumSb + 1> sb;  // pending releases (kGsb last)
  int64_t bar_event = -1;  // waiting for this barrier completion
  uint64_t own = 0;        // cached earliest issue as far as the warp is concerned
  uint64_t own_bar = 0;    // the same counting only the stall and the barrier (for WaitCycles)
  uint64_t prev = 0;       // previous issue (or the CTA's start)
  uint32_t sp = 0, slot = 0, cta = 0;
  uint64_t age = 0;        // launch order (oldest first)
  bool resident = false, done = false;
};

struct Event {
  uint32_t expected = 0, arrived = 0;
  uint64_t last = 0;
  uint64_t release = kNever;
};

}  // namespace

PerfResult model_performance(const KernelImage& k, const std::vector<SassInst>& code, const PerfTrace& trace,
                             const LaunchConfig& cfg, const Target& target) {
  PerfResult res;
  const PerfFacts& facts = target.perfFacts();
  const RegisterFiles& rf = target.registers();
  const unsigned nsp = rf.subPartitions;
  const uint64_t setDelay = target.issue().scoreboardSetDelay;
  if (k.ctrl.size() != k.insts.size()) {
    res.error = "the kernel image carries no control codes";
    return res;
  }
  // ---- per-slot costs -------------------------------------------------------------------
  std::vector<SlotInfo> info(code.size());
  for (size_t i = 0; i < code.size() && i < k.insts.size(); ++i) {
    if (k.insts[i].empty()) continue;
    const SassInst& in = code[i];
    std::vector<std::string_view> mods(in.mods.begin(), in.mods.end());
    info[i].ctrl = k.ctrl[i];
    info[i].cost = target.perfCost(in.opcode, mods);
    if (in.opcode == "DEPBAR" && in.has("LE") && in.ops.size() == 2 && in.ops[0].kind == OpndKind::Word &&
        in.ops[0].sreg_name.size() == 3 && in.ops[0].sreg_name.rfind("SB", 0) == 0 && in.ops[1].kind == OpndKind::Imm) {
      info[i].depbar_sb = in.ops[0].sreg_name[2] - '0';
      info[i].depbar_k = static_cast<uint32_t>(in.ops[1].imm);
    }
    auto is_gsb = [](const Operand& o) { return o.kind == OpndKind::Word && o.sreg_name == "gsb0"; };
    if (in.opcode == "WARPGROUP" && in.has("DEPBAR") && in.ops.size() == 2 && is_gsb(in.ops[0]) &&
        in.ops[1].kind == OpndKind::Imm) {
      info[i].depbar_sb = kGsb;
      info[i].depbar_k = static_cast<uint32_t>(in.ops[1].imm);
    }
    info[i].sets_gsb = in.opcode.size() == 5 && in.opcode.compare(1, 4, "GMMA") == 0 && !in.ops.empty() &&
                       is_gsb(in.ops.back());
  }
  // ---- residency -------------------------------------------------------------------------
  const uint32_t wpc = trace.warps_per_cta;
  const uint32_t nctas = trace.num_ctas;
  res.ctas = nctas;
  res.regs = k.num_regs ? k.num_regs : facts.regGranulePerThread;
  const uint64_t regsPerWarp =
      uint64_t{(res.regs + facts.regGranulePerThread - 1) / facts.regGranulePerThread * facts.regGranulePerThread} * 32;
  uint64_t shared = ((std::max<uint64_t>(k.shared_size, 0x400) + 15) & ~uint64_t{15}) + cfg.dynamic_shared;
  shared = (shared + facts.sharedGranule - 1) / facts.sharedGranule * facts.sharedGranule;
  if (trace.warps.size() != uint64_t{wpc} * nctas) {
    res.error = "the trace does not hold every warp of the launch";
    return res;
  }
  std::vector<bool> slotUsed(facts.maxWarpsPerSm, false);
  std::vector<uint32_t> spWarps(nsp, 0);
  uint32_t residentCtas = 0;
  uint64_t sharedUsed = 0;
  // The slots a CTA would take (the lowest free ones), or empty when it does not fit now.
  auto placement = [&]() {
    std::vector<uint32_t> slots;
    if (residentCtas >= facts.maxCtasPerSm || sharedUsed + shared > facts.sharedPerSm) return slots;
    std::vector<uint32_t> per(spWarps);
    for (uint32_t s = 0; s < slotUsed.size() && slots.size() < wpc; ++s)
      if (!slotUsed[s]) {
        slots.push_back(s);
        ++per[s % nsp];
      }
    if (slots.size() < wpc) return std::vector<uint32_t>{};
    for (unsigned p = 0; p < nsp; ++p)
      if (per[p] * regsPerWarp > rf.regsPerSubPartition) return std::vector<uint32_t>{};
    return slots;
  };
  if (nctas == 0 || wpc == 0) {
    res.error = "empty launch";
    return res;
  }
  if (placement().empty()) {
    res.error = "one CTA does not fit on an SM (" + std::to_string(wpc) + " warps, " + std::to_string(res.regs) +
                " registers per thread, " + std::to_string(shared) + " bytes of shared memory)";
    return res;
  }
  // ---- barrier events --------------------------------------------------------------------
  std::vector<Event> events(trace.num_events);
  for (const auto& w : trace.warps)
    for (const auto& a : w.arrivals) {
      if (a.event >= events.size()) {
        res.error = "barrier event out of range in the trace";
        return res;
      }
      ++events[a.event].expected;
    }
  // ---- state -----------------------------------------------------------------------------
  std::vector<WarpState> ws(trace.warps.size());
  for (size_t i = 0; i < ws.size(); ++i) {
    ws[i].tr = &trace.warps[i];
    ws[i].age = i;
    ws[i].cta = trace.warps[i].cta;
    for (uint32_t s : trace.warps[i].slots)
      if (s >= info.size() || k.insts[s].empty()) {
        res.error = "trace slot outside the code";
        return res;
      }
  }
  std::vector<std::vector<size_t>> spList(nsp);        // resident warps per sub-partition
  std::vector<uint64_t> spNext(nsp, 0);                 // next free issue cycle
  std::vector<std::array<uint64_t, kNumPerfPipes>> pipeFree(nsp);
  for (auto& p : pipeFree) p.fill(0);
  std::vector<int64_t> last(nsp, -1);   // the warp that issued last on each sub-partition
  std::vector<bool> lastYield(nsp, false);
  std::vector<uint32_t> ctaLeft(nctas, wpc);            // warps not done yet
  std::vector<std::vector<uint32_t>> ctaSlots(nctas);
  std::vector<uint64_t> ctaEnd(nctas, 0);
  uint32_t nextCta = 0;
  res.issued.assign(nsp, 0);
  res.warp_finish.assign(ws.size(), 0);

  auto computeOwn = [&](WarpState& w) {
    if (w.done || !w.resident) {
      w.own = kNever;
      return;
    }
    uint64_t t = w.ready;
    if (w.bar_event >= 0) t = std::max(t, events[static_cast<size_t>(w.bar_event)].release);
    if (t == kNever) {
      w.own = kNever;
      return;
    }
    w.own_bar = t;
    const SlotInfo& si = info[w.tr->slots[w.pos]];
    for (int b = 0; b < kNumSb; ++b)
      if (si.ctrl.wait_mask >> b & 1)
        for (uint64_t r : w.sb[b]) t = std::max(t, r);
    if (si.depbar_sb >= 0 && si.depbar_sb <= kGsb) {
      std::vector<uint64_t> p = w.sb[si.depbar_sb];
      if (p.size() > si.depbar_k) {
        std::sort(p.begin(), p.end());
        t = std::max(t, p[p.size() - si.depbar_k - 1]);
      }
    }
    w.own = t;
  };
  auto launchCtas = [&](uint64_t when) {
    while (nextCta < nctas) {
      std::vector<uint32_t> slots = placement();
      if (slots.empty()) break;
      uint32_t c = nextCta++;
      ++residentCtas;
      sharedUsed += shared;
      ctaSlots[c] = slots;
      for (uint32_t i = 0; i < wpc; ++i) {
        WarpState& w = ws[static_cast<size_t>(c) * wpc + i];
        w.slot = slots[i];
        w.sp = slots[i] % nsp;
        slotUsed[w.slot] = true;
        ++spWarps[w.sp];
        w.resident = true;
        w.ready = when;
        w.prev = when;
        if (w.tr->slots.empty()) {
          w.done = true;
          --ctaLeft[c];
        }
        spList[w.sp].push_back(static_cast<size_t>(c) * wpc + i);
        computeOwn(w);
      }
    }
  };
  launchCtas(0);
  res.resident_ctas = residentCtas;
  const char* env = std::getenv("PTXMINI_PERF_TRACE");
  const bool show = env && *env && *env != '0';

  for (;;) {
    // Each sub-partition's best candidate.
    uint64_t bestT = kNever;
    int bestSp = -1;
    size_t bestW = 0;
    for (unsigned p = 0; p < nsp; ++p) {
      uint64_t pt = kNever;
      size_t pw = 0;
      int prank = 0;
      for (size_t wi : spList[p]) {
        const WarpState& w = ws[wi];
        if (w.own == kNever) continue;
        const SlotInfo& si = info[w.tr->slots[w.pos]];
        uint64_t t = std::max({w.own, spNext[p], pipeFree[p][static_cast<size_t>(si.cost.pipe)]});
        // Greedy-then-oldest: the warp that issued last first, unless it yielded, in which
        // case it goes after every other warp; the others by age.
        int rank = last[p] != static_cast<int64_t>(wi) ? 1 : lastYield[p] ? 2 : 0;
        if (t < pt || (t == pt && (rank < prank || (rank == prank && w.age < ws[pw].age)))) {
          pt = t;
          pw = wi;
          prank = rank;
        }
      }
      if (pt < bestT) {
        bestT = pt;
        bestSp = static_cast<int>(p);
        bestW = pw;
      }
    }
    if (bestSp < 0) break;
    // Issue.
    const unsigned p = static_cast<unsigned>(bestSp);
    WarpState& w = ws[bestW];
    const uint64_t t = bestT;
    const SlotInfo& si = info[w.tr->slots[w.pos]];
    ++res.issued[p];
    ++res.warp_insts;
    // Where the warp's time since its previous issue went (see WaitCycles).
    const uint64_t pipeT = std::max(w.own, pipeFree[p][static_cast<size_t>(si.cost.pipe)]);
    res.wait.stall += w.ready - w.prev;
    res.wait.barrier += w.own_bar - w.ready;
    res.wait.scoreboard += w.own - w.own_bar;
    res.wait.pipe += pipeT - w.own;
    res.wait.dispatch += t - pipeT;
    w.prev = t;
    if (show)
      std::fprintf(stderr, "perf %8llu sp%u cta%u w%u %04x %s\n", static_cast<unsigned long long>(t), p, w.cta,
                   w.tr->warp, w.tr->slots[w.pos] * 16, k.insts[w.tr->slots[w.pos]].c_str());
    spNext[p] = t + 1;
    pipeFree[p][static_cast<size_t>(si.cost.pipe)] = t + std::max<uint64_t>(si.cost.issue, 1);
    last[p] = static_cast<int64_t>(bestW);
    lastYield[p] = si.ctrl.yield;
    w.bar_event = -1;
    for (int b = 0; b <= kGsb; ++b) {
      if (b < kNumSb && si.ctrl.wait_mask >> b & 1) w.sb[b].clear();
      auto& v = w.sb[b];
      v.erase(std::remove_if(v.begin(), v.end(), [&](uint64_t r) { return r <= t; }), v.end());
    }
    if (si.ctrl.write_sb < kNumSb) w.sb[si.ctrl.write_sb].push_back(t + std::max<uint64_t>(si.cost.writeLatency, setDelay));
    if (si.ctrl.read_sb < kNumSb) w.sb[si.ctrl.read_sb].push_back(t + std::max<uint64_t>(si.cost.readLatency, setDelay));
    if (si.sets_gsb) w.sb[kGsb].push_back(t + std::max<uint64_t>(si.cost.writeLatency, setDelay));
    w.ready = t + std::max<uint64_t>(si.ctrl.stall, 1);
    // Barrier arrivals of this issue.
    while (w.arr < w.tr->arrivals.size() && w.tr->arrivals[w.arr].pos == w.pos) {
      const PerfTrace::Arrival& a = w.tr->arrivals[w.arr++];
      Event& e = events[a.event];
      ++e.arrived;
      e.last = std::max(e.last, t);
      if (a.waits) w.bar_event = a.event;
      if (e.arrived == e.expected) {
        e.release = e.last + facts.barrierLatency;
        for (size_t wi = static_cast<size_t>(w.cta) * wpc; wi < static_cast<size_t>(w.cta + 1) * wpc; ++wi)
          if (ws[wi].bar_event == static_cast<int64_t>(a.event) && &ws[wi] != &w) computeOwn(ws[wi]);
      }
    }
    ++w.pos;
    if (w.pos == w.tr->slots.size()) {
      w.done = true;
      res.cycles = std::max(res.cycles, t + 1);
      res.warp_finish[bestW] = t + 1;
      uint32_t c = w.cta;
      ctaEnd[c] = std::max(ctaEnd[c], t + 1);
      w.own = kNever;
      auto& lst = spList[w.sp];
      lst.erase(std::find(lst.begin(), lst.end(), bestW));
      if (last[w.sp] == static_cast<int64_t>(bestW)) last[w.sp] = -1;
      if (--ctaLeft[c] == 0) {
        for (uint32_t s : ctaSlots[c]) {
          slotUsed[s] = false;
          --spWarps[s % nsp];
        }
        --residentCtas;
        sharedUsed -= shared;
        launchCtas(ctaEnd[c] + facts.ctaLaunchLatency);
      }
    } else {
      computeOwn(w);
    }
  }
  for (const WarpState& w : ws)
    if (!w.done) {
      res.error = "the timing replay stopped with warps left (a barrier that never completes?)";
      return res;
    }
  res.ok = true;
  return res;
}

}  // namespace ptxmini::exec
