/* emulator.h - a functional (not timing) SASS emulator for sm_90 kernels on the CPU.
 *
 * Model: a grid of CTAs run one after another; a CTA's warps advance together, each warp a
 * round-robin slice at a time, so that BAR.SYNC, shared memory and atomics see all warps.
 * Inside a warp every thread has its own PC; the warp runs the group of ready threads with the
 * lowest PC (min-PC-first), which reconverges forward branches by itself. Convergence
 * barriers make the remaining cases exact: BSSY Bx records the executing threads' mask,
 * BSYNC Bx waits until every non-exited thread of that mask waits at the same BSYNC, BREAK Bx
 * removes the breaking threads from the mask; WARPSYNC waits for its mask the same way;
 * BAR.SYNC / BAR.RED wait at one of 16 named barriers until its thread count (or every
 * non-exited thread of the CTA) has arrived; BAR.ARV arrives without waiting. Uniform registers (UR/UP) are one
 * copy per warp. Memory: global (a sparse map of allocations with guard gaps, bounds checked),
 * shared (per CTA), local (per thread), constant banks. Anything out of bounds, unparsable or
 * not modelled throws Trap with the PC and the instruction text. Semantics live in a table of
 * opcodes (opcodes.def): handler + the modifiers it understands; an unknown modifier traps. */
#pragma once

#include "tests/exec/emu/kernel_image.h"
#include "tests/exec/emu/sass_inst.h"
#include "tests/exec/emu/texture.h"

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace ptxmini::exec {

struct Trap : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Global memory: allocations at increasing addresses with unmapped gaps between them.
class GlobalMemory {
 public:
  uint64_t allocate(uint64_t size);
  // Pointer to [addr, addr+n) inside one allocation, or nullptr if not mapped.
  uint8_t* map(uint64_t addr, uint64_t n);
  std::vector<uint8_t>& bytes(uint64_t base) { return segs_.at(base); }

 private:
  std::map<uint64_t, std::vector<uint8_t>> segs_;
  uint64_t next_ = 0x7f1200000000ull;  // GUESS: any canonical-looking address works; gaps trap
};

struct Dim3 {
  uint32_t x = 1, y = 1, z = 1;
};

struct LaunchConfig {
  Dim3 grid, block;
  uint32_t dynamic_shared = 0;
  std::vector<uint8_t> params;        // the parameter block, laid out per KernelImage::params
  uint32_t stack_size = 1024;         // per-thread local bytes beyond the frame
  uint64_t max_warp_steps = 200000000;// guard against non-terminating kernels
  std::map<uint32_t, TexObject> textures;  // texture/surface objects by handle (texture.h)
  bool perf = false;                  // record a PerfTrace for the performance model
};

// What the performance model (perf_model.h) needs from a run with LaunchConfig::perf: each
// warp's issued instructions in issue order (code slot = pc / 16; an issue whose guard is
// false for every lane counts, as it does in ExecStats) and its CTA barrier arrivals, each
// tagged with the barrier completion ("event") that counted it, so that the timing model
// releases waiters when the same set of arrivals has happened in its own time.
struct PerfTrace {
  struct Arrival {
    uint32_t pos = 0;     // index in `slots` of the BAR that arrived
    uint32_t event = 0;   // which completion of which barrier of which CTA
    bool waits = false;   // BAR.SYNC / BAR.RED wait for the completion; BAR.ARV does not
  };
  struct WarpTrace {
    uint32_t cta = 0;     // CTA index in launch order (x fastest)
    uint32_t warp = 0;    // warp index inside the CTA
    std::vector<uint32_t> slots;
    std::vector<Arrival> arrivals;
  };
  std::vector<WarpTrace> warps;  // CTA by CTA, warps by index
  uint32_t num_ctas = 0;
  uint32_t warps_per_cta = 0;
  uint32_t num_events = 0;
};

struct ExecStats {
  uint64_t warp_insts = 0;    // instructions issued per warp (one per group of lanes)
  uint64_t thread_insts = 0;  // sum over issues of the number of lanes whose guard was true
  std::map<std::string, uint64_t> per_opcode;  // warp-level issues by opcode
};

struct Thread {
  uint32_t pc = 0;
  enum State : uint8_t { Ready, Exited, AtBar, AtBsync, AtWarpSync } state = Ready;
  uint32_t wait_mask = 0;  // AtWarpSync: threads to wait for
  int wait_bar = 0;        // AtBsync: the convergence barrier register; AtBar: the CTA barrier
  uint32_t bar_result = 0; // B2R.RESULT: the last BAR.RED's count (POPC)
  bool bar_pred = false;   // B2R.RESULT ..., Pd: the last BAR.RED's AND / OR
  uint8_t bar_op = 0;      // AtBar: 0 SYNC, 1 RED.POPC, 2 RED.AND, 3 RED.OR
  std::array<uint32_t, 256> R{};
  uint8_t P = 0x80;        // bit i = Pi, bit 7 = PT
  std::array<uint32_t, 16> B{};
  std::vector<uint8_t> local;
  uint32_t tid[3] = {0, 0, 0};
};

struct Warp {
  std::array<Thread, 32> t;
  uint32_t exists = 0;     // lanes that are real threads
  std::array<uint32_t, 64> UR{};
  uint8_t UP = 0x80;
  uint32_t id = 0;
};

// One of the 16 named CTA barriers (BAR.SYNC / BAR.ARV / BAR.RED id[, count]): threads
// arrive one by one; the barrier completes when `arrived` reaches the count (or, without a
// count, every thread of the CTA that has not exited), releases its waiters and resets.
struct NamedBarrier {
  uint32_t arrived = 0;
  uint32_t expected = 0;   // 0: every non-exited thread of the CTA
  uint32_t popc = 0;       // BAR.RED: threads whose predicate was true
  uint32_t reds = 0;       // BAR.RED: threads that contributed
};

struct Cta {
  std::vector<std::unique_ptr<Warp>> warps;
  std::array<NamedBarrier, 16> bars{};
  std::vector<uint8_t> shared;
  uint32_t ctaid[3] = {0, 0, 0};
  uint32_t linear = 0;                   // launch order (PerfTrace::WarpTrace::cta)
  std::array<uint32_t, 16> bar_gen{};    // completions of each named barrier so far
  std::map<uint32_t, int64_t> mbar_tx;   // mbarrier transaction counts by address (ops_mbarrier.cpp)
};

class Emulator;

// What a handler sees: one instruction, issued for `mask` lanes of warp `w` (guard already
// applied). Handlers read operands through these helpers and set next_pc for control flow.
struct Exec {
  Emulator& emu;
  Cta& cta;
  Warp& w;
  const SassInst& in;
  uint32_t mask;
  std::array<uint32_t, 32> next_pc{};

  [[noreturn]] void trap(const std::string& why) const;
  template <class F> void each(F f) const {
    for (int l = 0; l < 32; ++l) if (mask >> l & 1) f(l);
  }
  const Operand& op(size_t i) const;
  size_t nops() const { return in.ops.size(); }
  // Integer views (no sign/abs applied except '~' and integer '-' where noted).
  uint32_t u32(int lane, const Operand& o) const;       // raw bits, applies '~'
  uint32_t i32(int lane, const Operand& o) const;       // u32 then integer '-' (two's complement)
  uint64_t u64(int lane, const Operand& o) const;       // register pair / 64-bit cbank / imm
  float f32(int lane, const Operand& o) const;          // applies |x| and '-'
  double f64(int lane, const Operand& o) const;         // applies |x| and '-'
  bool pred(int lane, const Operand& o) const;          // applies '!'
  void set(int lane, const Operand& d, uint32_t v);
  void set64(int lane, const Operand& d, uint64_t v);
  void setn(int lane, const Operand& d, int nregs, const uint32_t* v);
  void setp(int lane, const Operand& d, bool v);
  uint32_t reg(int lane, int r) const { return r == kRZ ? 0 : w.t[lane].R[r]; }
  uint32_t ureg(int r) const { return r == kURZ ? 0 : w.UR[r]; }
  uint32_t sreg(int lane, const Operand& o) const;
  uint32_t cbank32(int lane, const Operand& o, uint32_t extra = 0) const;
  // Memory. space: 'g' global, 's' shared, 'l' local, 'f' generic (flat).
  uint64_t address(int lane, const Operand& m, bool wide) const;
  uint8_t* mem(int lane, char space, uint64_t addr, uint32_t n);
  // The window a generic address lies in: 'g', 's' or 'l'.
  char flat_space(uint64_t addr) const;
};

class Emulator {
 public:
  Emulator(const KernelImage& k, GlobalMemory& g);
  // Runs the whole grid; throws Trap on any fault.
  void launch(const LaunchConfig& cfg);
  const ExecStats& stats() const { return stats_; }
  // The last launch's trace (empty unless LaunchConfig::perf) and the parsed code it indexes.
  const PerfTrace& perf_trace() const { return trace_perf_; }
  const std::vector<SassInst>& code() const { return code_; }
  // Constant bank 0 as built for the last launch (exposed for tests).
  const std::vector<uint8_t>& bank0() const { return bank0_; }

  // For handlers.
  GlobalMemory& global() { return g_; }
  const std::vector<uint8_t>* bank(int b) const;
  const KernelImage& image() const { return k_; }
  const LaunchConfig& config() const { return cfg_; }
  uint64_t clock() const { return stats_.warp_insts; }
  uint32_t shared_window_hi() const { return 0x00007e00u; }  // GUESS: SR_SWINHI value (any unused hi word)
  uint32_t local_window_hi() const { return 0x00007d00u; }   // GUESS: value; published at c[0x0][0x24]

 private:
  void build_bank0();
  void run_cta(Cta& cta);
  bool step_warp(Cta& cta, Warp& w);  // false when no thread of the warp can run
  bool release_waits(Warp& w);
  bool release_barriers(Cta& cta);  // completes the named barriers whose count is reached

  const KernelImage& k_;
  GlobalMemory& g_;
  LaunchConfig cfg_;
  ExecStats stats_;
  std::vector<uint8_t> bank0_;
  std::map<int, std::vector<uint8_t>> banks_;  // banks 1..: the image's, with module addresses
  std::vector<SassInst> code_;        // by pc/16
  std::vector<int> handler_;          // index into the opcode table, -1 = slot has no instruction
  std::vector<std::string> parse_err_;
  bool trace_ = false;     // PTXMINI_EMU_TRACE=1: print every issued instruction to stderr
  PerfTrace trace_perf_;   // see perf_trace()
  std::map<std::array<uint32_t, 3>, uint32_t> bar_events_;  // (cta, barrier, generation) -> event
};

}  // namespace ptxmini::exec
