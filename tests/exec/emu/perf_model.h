/* perf_model.h - modelled cycles of one emulated launch: the emulator as a performance model.
 *
 * The functional emulator records what each warp issued (PerfTrace, LaunchConfig::perf); this
 * replays those instruction streams on a timing model of one SM driven by the control codes
 * the cubin carries, so the same model judges any compiler's cubin (ptxas's or ptxas-mini's).
 * The model, in full (tests/exec/README.md "Performance model" says why and lists GUESSes):
 *
 *   Launch     the description's whole grid runs on ONE SM. CTAs are made resident in launch
 *              order as long as they fit the SM's limits (warps, CTAs, shared memory, and the
 *              registers of each sub-partition: PerfFacts and RegisterFiles in targets/); a
 *              CTA that finishes frees its resources and the next CTAs start then.
 *   Warps      a new CTA's warps take the lowest free warp slots; slot % 4 is the warp's
 *              sub-partition (scheduler).
 *   Issue      each sub-partition issues at most one instruction per cycle. A warp's next
 *              instruction may issue at the latest of: its previous issue + max(1, stall);
 *              the release of every scoreboard in its wait mask; for DEPBAR.LE SBn, k the time
 *              at most k operations remain pending on SBn; the release of the CTA barrier its
 *              last BAR.SYNC/BAR.RED arrived at; the cycle its pipe is free again (a pipe takes
 *              a new warp instruction every `issue` cycles, PerfCost).
 *   Scoreboards counting: an instruction with a write (read) scoreboard adds a pending
 *              release at issue + its PerfCost write (read) latency, at least the target's
 *              scoreboardSetDelay; a wait needs every pending release on the waited
 *              scoreboards to have passed.
 *   Barriers   a CTA barrier completion (matched by the functional run) releases its waiters
 *              barrierLatency cycles after the last of its arrivals issued.
 *   Choice     among the warps of a sub-partition that can issue at the earliest cycle, the
 *              warp that issued last keeps priority (greedy), then the oldest (launch order);
 *              when the last instruction had the yield (`Y`) form its warp goes after all
 *              the others instead (greedy-then-oldest, with yield as "let the others go").
 *   Divergence each issue of the functional run (one per group of lanes with the same pc,
 *              guard-false issues included) is one issue here; taken/not-taken branches cost
 *              their stall count only.
 *   Result     cycles = the latest finish (last issue + 1) over all warps = the max over
 *              sub-partitions of the time their last warp finishes.
 * Fixed latencies come only from the stall counts; the model never checks them (the hazard
 * checker does). Deterministic: no clocks, no hashing, ties broken by index.
 * PTXMINI_PERF_TRACE=1 prints every modelled issue (cycle, sub-partition, CTA, warp, pc,
 * instruction) to stderr. */
#pragma once

#include "tests/exec/emu/emulator.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace ptxmini {
class Target;
}

namespace ptxmini::exec {

// Where the warps' time went, summed over every issue of every warp: the cycles between a
// warp's previous issue (or its CTA's start) and this issue, split in this order into its
// stall count (max(1, stall)), waiting for a CTA barrier beyond that, waiting for scoreboards
// (and DEPBAR) beyond that, waiting for the pipe beyond that, and waiting for the
// sub-partition (other warps issued). The five add up to the sum over warps of (last issue -
// CTA start).
struct WaitCycles {
  uint64_t stall = 0, barrier = 0, scoreboard = 0, pipe = 0, dispatch = 0;
  uint64_t total() const { return stall + barrier + scoreboard + pipe + dispatch; }
};

struct PerfResult {
  bool ok = false;
  std::string error;               // why the model could not run (ok == false)
  uint64_t cycles = 0;             // modelled cycles of the launch on one SM
  uint64_t warp_insts = 0;         // issued warp instructions (equals ExecStats::warp_insts)
  uint32_t regs = 0;               // registers per thread used for residency
  uint32_t resident_ctas = 0;      // CTAs resident at once at the start of the launch
  uint32_t ctas = 0;               // CTAs of the launch
  std::vector<uint64_t> issued;    // issues per sub-partition
  std::vector<uint64_t> warp_finish;  // per trace warp: its last issue + 1
  WaitCycles wait;
};

// Replays `trace` (a run of `k` with cfg.perf) on the timing model of `target`. `code` is the
// emulator's parsed code (Emulator::code()), indexed like the trace's slots.
PerfResult model_performance(const KernelImage& k, const std::vector<SassInst>& code, const PerfTrace& trace,
                             const LaunchConfig& cfg, const Target& target);

}  // namespace ptxmini::exec
