//===- targets/sched_model.h - what the scheduler may ask about an SM's pipelines ------===//
///
/// \file
/// The per-SM scheduling facts as data, reached only through Target (targets/target.h):
///   - SassOpInfo: one row per SASS opcode (targets/<sm>/sass_ops.def): its latency class,
///     which printed operands it writes, how wide its registers are, and flags (variable
///     latency, late operand reads, control flow). The hazard checker reads SASS text through
///     it; ComputeControlCodes asks the same rows about Ori instructions (Ori opcodes are SASS
///     mnemonics).
///   - LatencyModel: the cycles a dependent instruction must wait (targets/<sm>/latencies.def).
/// Nothing here knows an SM number; targets/target.cpp picks the tables.
//===----------------------------------------------------------------------------------===//
#pragma once

#include "ori/ori.h"

#include <cstdint>
#include <span>
#include <string_view>

namespace ptxmini {

/// Flags of a SASS opcode (the Flags column of sass_ops.def).
enum SassOpFlag : uint16_t {
  OP_VLAT = 1u << 0,
  OP_LATE = 1u << 1,
  OP_BRANCH = 1u << 2,
  OP_INDIRECT = 1u << 3,
  OP_TERM = 1u << 4,
  OP_CALL = 1u << 5,
  OP_PCTRL = 1u << 6,
  OP_OPAQUE = 1u << 7,
  OP_DEPBAR = 1u << 8,
  /// A variable-latency writer whose predicate results do not wait on its scoreboard (their
  /// latency is not measured: the hazard checker calls a read of one under the pending
  /// scoreboard unverified; ptxas-mini's own code still waits). HW: ptxas 13.0.88 reads the P result
  /// of `ATOM.E.ADD.F64 P0, R32, ...` two instructions later while the ATOM's scoreboard is
  /// pending (tests/exec/kernels/atomics_generic, generic-address fall-back paths).
  OP_PFIX = 1u << 9,
};

/// How printed registers map to 32-bit registers (the Width column).
enum class WidthRule : uint8_t { Plain, Mem, F64, Wide, Hi, F2I, I2F, F2F, Frnd, Pair, Mma, Ldsm, U64 };

struct SassOpInfo {
  std::string_view mnemonic;
  ori::LatClass cls;
  std::string_view defs; ///< def pattern ("", "D", "DD", "DDD", "DP*", "P*D", "A-1")
  WidthRule width;
  uint16_t flags;
  bool has(SassOpFlag f) const { return (flags & f) != 0; }
};

/// Register counts of a tensor-core shape (MMA_SHAPE rows).
struct MmaShape {
  std::string_view mnemonic, shape, accum;
  uint8_t d, a, b, c;
};

/// A modifier that moves an opcode to another latency class and width rule (CLASS_BY_MOD
/// rows: IMAD.WIDE is not IMAD).
struct ClassByModifier {
  std::string_view mnemonic, modifier;
  ori::LatClass cls;
  WidthRule width;
};

/// The upper register of a pair some class writes lands as another class (PAIR_HIGH rows:
/// IMAD.WIDE's high word comes later than its low word).
struct PairHigh {
  ori::LatClass cls, high;
};

/// How a register is read: as an ordinary source, or as a guard (the guard predicate, and the
/// predicate sources of OP_PCTRL instructions, which are read when the guard is).
enum class ReadKind : uint8_t { Src, Guard };

/// One cell of the writer x reader latency table. `reader` kAnyClass is the row's default.
inline constexpr uint8_t kAnyClass = 0xFF;
struct RawLatency {
  ori::LatClass writer;
  uint8_t reader; ///< a LatClass, or kAnyClass
  ori::RegClass file;
  ReadKind kind;
  uint8_t cycles;
};

/// Facts about issue and scoreboards that are not per class pair.
struct IssueFacts {
  unsigned numScoreboards;     ///< wait-mask bits
  unsigned scoreboardSetDelay; ///< cycles after an instruction sets a scoreboard before a wait
                               ///< on it is guaranteed to see the new count
  unsigned maxStall;           ///< largest stall the control field holds
  unsigned lateReadWindow;     ///< the checker's strict bound on how late OP_LATE operands
                               ///< may be read when no read scoreboard covers them
};

/// The smallest stall ptxas ever gives an opcode (MIN_STALL rows): the scheduler never goes
/// below it.
struct MinStall {
  std::string_view mnemonic;
  uint8_t cycles;
};

struct SchedTables {
  std::span<const SassOpInfo> ops;
  std::span<const MinStall> minStalls;
  std::span<const MmaShape> mmaShapes;
  std::span<const ClassByModifier> classByModifier;
  std::span<const PairHigh> pairHigh;
  std::span<const RawLatency> raw;
  uint8_t fallbackLatency; ///< a class pair and file nothing in `raw` covers
  IssueFacts issue;
};

/// The sm_90 tables (targets/sm_90/sched_tables.cpp).
const SchedTables &sm90SchedTables();

} // namespace ptxmini
