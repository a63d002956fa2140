//===- targets/perf_model.h - what the performance model may ask about an SM ------------===//
///
/// \file
/// The per-SM facts of the emulator's performance model (tests/exec/emu/perf_model.h, the
/// "Performance model" section of tests/exec/README.md) as data, reached through Target:
///   - PerfCost: per SASS opcode, the execution pipe it issues to, how many cycles one warp
///     instruction occupies that pipe in one SM sub-partition, and for variable-latency
///     instructions the cycles from issue until its write scoreboard (result landed) and its
///     read scoreboard (register sources read) are released. Rows: targets/<sm>/perf_model.def.
///   - PerfFacts: the SM's resident limits (warps, CTAs, shared memory, the register
///     allocation unit) that decide how many CTAs of a launch run at once, and the CTA
///     barrier's release latency. The sub-partition count and register file size are
///     RegisterFiles' (targets/target.h), not repeated here.
/// Fixed latencies are not here: the model trusts the control codes' stall counts for them
/// (that is what the compiler under test computed from latencies.def).
/// Nothing here knows an SM number; targets/target.cpp picks the tables.
//===----------------------------------------------------------------------------------===//
#pragma once

#include "ori/ori.h"

#include <cstdint>
#include <span>
#include <string_view>

namespace ptxmini {

/// Execution pipes of one SM sub-partition; each accepts one warp instruction at a time and is
/// busy for that instruction's issue cycles.
enum class PerfPipe : uint8_t { Fma, Alu, Fp64, Xu, Lsu, Const, Tensor, Uniform, Branch };
inline constexpr unsigned kNumPerfPipes = 9;
std::string_view perfPipeName(PerfPipe p);

/// What one warp instruction costs.
struct PerfCost {
  PerfPipe pipe = PerfPipe::Branch;
  uint8_t issue = 1;        ///< cycles the pipe is busy (1 = a new instruction every cycle)
  uint16_t writeLatency = 0;///< issue -> write scoreboard released (variable-latency results)
  uint16_t readLatency = 0; ///< issue -> read scoreboard released (sources read)
};

/// PERF_CLASS rows: the default cost of a latency class.
struct PerfClassRow {
  ori::LatClass cls;
  PerfCost cost;
};

/// PERF_OP rows: an opcode (with a modifier, "" = any) whose cost differs from its class's.
struct PerfOpRow {
  std::string_view mnemonic, modifier;
  PerfCost cost;
};

/// Resident limits and fixed costs of one SM.
struct PerfFacts {
  unsigned maxWarpsPerSm = 64;
  unsigned maxCtasPerSm = 32;
  unsigned sharedPerSm = 0;        ///< bytes of shared memory CTAs may allocate on one SM
  unsigned sharedGranule = 128;    ///< shared memory allocation unit per CTA
  unsigned regGranulePerThread = 8;///< per-thread register counts are allocated in multiples
  unsigned barrierLatency = 0;     ///< last arrival at a CTA barrier -> waiters may issue
  unsigned ctaLaunchLatency = 0;   ///< a CTA slot frees -> the next CTA's warps may issue
};

struct PerfTables {
  std::span<const PerfClassRow> classes;
  std::span<const PerfOpRow> ops;
  PerfFacts facts;
};

/// The sm_90 tables (targets/sm_90/perf_tables.cpp).
const PerfTables &sm90PerfTables();

} // namespace ptxmini
