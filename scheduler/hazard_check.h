//===- scheduler/hazard_check.h - are a function's control codes safe? ------------------===//
///
/// \file
/// The hazard checker: simulates issue along a function's code with the target's latency
/// model (targets/<sm>/latencies.def) and reports every dependence the control codes do not
/// cover:
///   raw-latency     a fixed-latency result read before its latency elapsed (stall cycles
///                   summed along every path from the producer, loops included);
///   raw-scoreboard  a variable-latency result read with its write scoreboard still pending;
///   waw-scoreboard  a register overwritten while a variable-latency write to it is pending;
///   war-scoreboard  a register overwritten while an instruction that reads it late (a store,
///                   a load's address) still holds its read scoreboard.
/// A wait on scoreboard k (the wait mask, or DEPBAR.LE SBk, n) retires what is pending on k
/// once the setter is `scoreboardSetDelay` cycles old. Blocks entered by a branch start from
/// the join of their predecessors' states (a forward dataflow to a fixpoint).
///
/// ptxas relies on two things the model does not prove: variable-latency results without a
/// write scoreboard (completed by in-order queues or a barrier) and late reads without a read
/// scoreboard. Reads and overwrites that depend on them are counted as `unverified`; with
/// `strict` (for ptxas-mini's own code, which never relies on them) they are violations.
//===----------------------------------------------------------------------------------===//
#pragma once

#include "encoder/bit_writer.h"
#include "targets/target.h"

#include <array>
#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

namespace ptxmini::sched {

struct HazardOptions {
  bool strict = false;
  /// When set, one line per dependence the checker saw (for tests/scheduler/
  /// derive_latencies.py): `RAW writerClass readerClass file kind cycles writer reader`,
  /// `SBWAIT kind cycles`, `OP mnemonic stall yield writeSb readSb`.
  std::ostream *depsOut = nullptr;
  unsigned maxReportsPerFunction = 20;
};

struct Violation {
  std::string kind;
  uint64_t pc = 0;
  std::string message;
  bool unverified = false; ///< counted as a violation only with `strict`
};

struct HazardStats {
  uint64_t functions = 0, instructions = 0, undecoded = 0, opaque = 0;
  uint64_t violations = 0, unverified = 0;
  uint64_t checkedReads = 0;      ///< register reads checked against a pending producer
  uint64_t sharedScoreboards = 0; ///< a scoreboard set while still pending (counting; legal)
  uint64_t blockVisits = 0;       ///< blocks stepped until the dataflow was stable
  std::array<uint64_t, 8> byKind{};
  void add(const HazardStats &o);
};

/// The names of the violation kinds, in HazardStats::byKind order.
const std::vector<std::string> &hazardKinds();

/// Checks one function's code (16-byte words in layout order, addresses from 0).
HazardStats checkFunctionHazards(const std::string &name, const std::vector<enc::Word128> &code,
                                 unsigned sm, const Target &target, const HazardOptions &opts,
                                 std::vector<Violation> &out);

/// `sass-mc -check-hazards`: every function of a cubin. Prints violations and a summary line;
/// returns the stats (and `ok` false when the cubin cannot be read).
HazardStats checkCubinHazards(const std::string &path, const HazardOptions &opts, std::ostream &os,
                              bool &ok);

} // namespace ptxmini::sched
