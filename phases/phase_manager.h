//===- phases/phase_manager.h - the numbered phase table and the manager that runs it ---===//
///
/// \file
/// The table (phases/phase_table.def) lists every ptxas phase we know of, implemented or not.
/// PhaseManager runs it per function, in table order, applying:
///   - the -O gate (a phase runs when optLevel >= its MinOpt),
///   - the DisablePhases knob (names or numbers),
///   - validation after each phase under the ValidateIR knob (always in debug builds),
///   - DUMPIR=<name|number|list|all>: after a named phase that ran, the function's Ori text
///     is printed to the dump stream under a header line naming the phase.
/// Unimplemented phases are skipped: they never pretend to run and are never dumped.
///
///     PhaseManager pm(knobs, optLevel, &std::cout, &diag);
///     if (!pm.ok() || !pm.run(function)) ...error already reported...
//===----------------------------------------------------------------------------------===//
#pragma once

#include "ori/ori.h"
#include "support/diag.h"
#include "support/knobs.h"
#include "targets/target.h"

#include <iosfwd>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace ptxmini {

/// What a phase may consult besides the function.
struct PhaseContext {
  const Knobs &knobs;
  unsigned optLevel;
  DiagEngine *diag;      ///< may be null in unit tests
  const Target *target;  ///< the SM being compiled for; never null (PhaseManager puts sm_90
                         ///< in when its caller names none)
  /// Lines a phase reports for DUMPIR (statistics, per-loop decisions): printed under the
  /// phase's dump header, before the function, when the phase is dumped.
  std::string dumpNotes = {};
};

using PhaseEntry = void (*)(ori::Function &, PhaseContext &);

struct PhaseInfo {
  unsigned number;
  std::string_view name;
  PhaseEntry entry; ///< nullptr when not implemented
  unsigned minOpt;
  std::string_view description;
  bool implemented() const { return entry != nullptr; }
};

// Entry points of the implemented phases, declared from the table.
#define PHASE_DECL_IMPL(Name) void run##Name(ori::Function &, PhaseContext &);
#define PHASE_DECL_TODO(Name)
#define PHASE(Num, Name, Status, MinOpt, Desc) PHASE_DECL_##Status(Name)
#include "phases/phase_table.def"
#undef PHASE
#undef PHASE_DECL_IMPL
#undef PHASE_DECL_TODO

/// Every phase in run order.
std::span<const PhaseInfo> allPhases();
/// By name (case-insensitive) or decimal number; nullptr when unknown.
const PhaseInfo *findPhase(std::string_view nameOrNumber);
/// The known phase name closest to `text` (for "did you mean" messages).
std::string_view closestPhaseName(std::string_view text);
/// `--list-phases`: number, name, implemented or not, minimum -O level, description.
void printPhaseList(std::ostream &os);

class PhaseManager {
public:
  /// `target` null means sm_90 (ori-opt and unit tests without an -arch).
  PhaseManager(const Knobs &knobs, unsigned optLevel, std::ostream *dumpStream = nullptr,
               DiagEngine *diag = nullptr, const Target *target = nullptr);

  /// False when DUMPIR or DisablePhases named an unknown phase (reported through diag).
  bool ok() const { return ok_; }

  /// Runs the whole table on `f` with all gates. False when validation failed (reported).
  bool run(ori::Function &f);
  bool run(ori::Program &p);

  /// Runs exactly `phases` (ori-opt -run-phase), in the given order: -O gates do not apply,
  /// DisablePhases does. Every entry must be implemented (the caller checks). Returns false
  /// on a validation failure.
  bool runPhases(ori::Function &f, std::span<const PhaseInfo *const> phases);

  /// Validates `f` and reports each problem through diag with `when` as context; false
  /// when invalid.
  bool validate(const ori::Function &f, std::string_view when);

  bool isDisabled(const PhaseInfo &p) const;
  bool isDumped(const PhaseInfo &p) const;
  /// Whether DUMPIR asks for any dump (the driver then compiles functions one at a time, so
  /// dumps come out in order).
  bool dumpsAnything() const;
  /// A manager with the same settings reporting through `diag`: one per thread of a parallel
  /// compilation, each with its own diagnostics buffer.
  PhaseManager withDiag(DiagEngine *diag) const {
    PhaseManager m(*this);
    m.diag_ = diag;
    m.ran_.clear();
    return m;
  }
  /// Names of the phases that ran on the last function, in order (for tests and -v).
  const std::vector<std::string_view> &ranPhases() const { return ran_; }

private:
  bool runOne(const PhaseInfo &p, ori::Function &f);
  bool parsePhaseList(KnobId knob, std::vector<bool> &out, bool &all);

  const Knobs &knobs_;
  unsigned optLevel_;
  std::ostream *dump_;
  DiagEngine *diag_;
  const Target *target_;
  bool ok_ = true;
  bool validateEach_ = false;
  bool dumpAll_ = false;
  std::vector<bool> dumpSet_;    // by table index
  std::vector<bool> disabledSet_;
  std::vector<std::string_view> ran_;
};

} // namespace ptxmini
