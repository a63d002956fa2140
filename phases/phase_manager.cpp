//===- phases/phase_manager.cpp - runs the phase table per function ---------------------===//
///
/// \file
/// The table is materialized from phase_table.def into a constexpr array; lookups are
/// linear (a few dozen rows). Knob lists (DUMPIR, DisablePhases) are resolved to table
/// indices once, in the constructor, so a typo is reported before any work is done.
//===----------------------------------------------------------------------------------===//
#include "phases/phase_manager.h"

#include "ori/print.h"
#include "ori/validate.h"

#include "llvm/ADT/StringRef.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <ostream>

namespace ptxmini {

namespace {

#define PHASE_ENTRY_IMPL(Name) &run##Name
#define PHASE_ENTRY_TODO(Name) nullptr
#define PHASE(Num, Name, Status, MinOpt, Desc) {Num, #Name, PHASE_ENTRY_##Status(Name), MinOpt, Desc},
const PhaseInfo kPhases[] = {
#include "phases/phase_table.def"
};
#undef PHASE
#undef PHASE_ENTRY_IMPL
#undef PHASE_ENTRY_TODO

constexpr bool tableIsOrdered() {
  unsigned last = 0;
  unsigned nums[] = {
#define PHASE(Num, Name, Status, MinOpt, Desc) Num,
#include "phases/phase_table.def"
#undef PHASE
  };
  for (unsigned n : nums) {
    if (n <= last)
      return false;
    last = n;
  }
  return true;
}
static_assert(tableIsOrdered(), "phase_table.def rows must have strictly increasing numbers");

size_t indexOf(const PhaseInfo *p) { return static_cast<size_t>(p - kPhases); }

} // namespace

std::span<const PhaseInfo> allPhases() { return kPhases; }

const PhaseInfo *findPhase(std::string_view text) {
  unsigned num = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), num);
  bool numeric = ec == std::errc() && end == text.data() + text.size() && !text.empty();
  for (const PhaseInfo &p : kPhases) {
    if (numeric ? p.number == num : llvm::StringRef(p.name).equals_insensitive(text))
      return &p;
  }
  return nullptr;
}

std::string_view closestPhaseName(std::string_view text) {
  std::string want = llvm::StringRef(text).lower();
  std::string_view best = kPhases[0].name;
  unsigned bestDist = ~0u;
  for (const PhaseInfo &p : kPhases) {
    std::string name = llvm::StringRef(p.name).lower();
    unsigned d = llvm::StringRef(name).edit_distance(want);
    if (d < bestDist) {
      bestDist = d;
      best = p.name;
    }
  }
  return best;
}

void printPhaseList(std::ostream &os) {
  os << "Phase  Name                            Status           Min-O  Description\n";
  for (const PhaseInfo &p : kPhases) {
    char buf[256];
    std::snprintf(buf, sizeof buf, "%5u  %-31.*s %-16s %-6u ", p.number,
                  static_cast<int>(p.name.size()), p.name.data(),
                  p.implemented() ? "implemented" : "not implemented", p.minOpt);
    os << buf << p.description << '\n';
  }
}

PhaseManager::PhaseManager(const Knobs &knobs, unsigned optLevel, std::ostream *dumpStream,
                           DiagEngine *diag, const Target *target)
    : knobs_(knobs), optLevel_(optLevel), dump_(dumpStream), diag_(diag),
      target_(target ? target : &Target::sm90()) {
  validateEach_ = knobs.getBool(KnobId::ValidateIR);
#ifndef NDEBUG
  validateEach_ = true;
#endif
  bool disableAll = false;
  ok_ = parsePhaseList(KnobId::DUMPIR, dumpSet_, dumpAll_) &&
        parsePhaseList(KnobId::DisablePhases, disabledSet_, disableAll);
  if (disableAll)
    disabledSet_.assign(disabledSet_.size(), true);
  if (ok_ && diag_ && !dumpAll_)
    for (size_t i = 0; i < dumpSet_.size(); ++i)
      if (dumpSet_[i] && !kPhases[i].implemented())
        diag_->warning("DUMPIR names phase " + std::to_string(kPhases[i].number) + " '" +
                       std::string(kPhases[i].name) +
                       "', which is not implemented: nothing will be dumped after it");
}

bool PhaseManager::dumpsAnything() const {
  return dumpAll_ || std::find(dumpSet_.begin(), dumpSet_.end(), true) != dumpSet_.end();
}

bool PhaseManager::parsePhaseList(KnobId knob, std::vector<bool> &out, bool &all) {
  out.assign(std::size(kPhases), false);
  all = false;
  const KnobInfo &info = allKnobs()[static_cast<size_t>(knob)];
  for (const std::string &raw : knobs_.getStringList(knob)) {
    llvm::StringRef item = llvm::StringRef(raw).trim();
    if (item.empty())
      continue;
    if (item.equals_insensitive("all")) {
      all = true;
      continue;
    }
    const PhaseInfo *p = findPhase(item);
    if (!p) {
      if (diag_)
        diag_->error("Unknown phase '" + item.str() + "' in knob " + std::string(info.name) +
                     "; did you mean '" + std::string(closestPhaseName(item)) + "'?");
      return false;
    }
    out[indexOf(p)] = true;
  }
  return true;
}

bool PhaseManager::isDisabled(const PhaseInfo &p) const { return disabledSet_[indexOf(&p)]; }
bool PhaseManager::isDumped(const PhaseInfo &p) const {
  return dumpAll_ || dumpSet_[indexOf(&p)];
}

bool PhaseManager::validate(const ori::Function &f, std::string_view when) {
  std::vector<std::string> errs = ori::validateFunction(f);
  if (diag_)
    for (const std::string &e : errs)
      diag_->error("Ori validation failed " + std::string(when) + ": " + e);
  return errs.empty();
}

bool PhaseManager::runOne(const PhaseInfo &p, ori::Function &f) {
  PhaseContext ctx{knobs_, optLevel_, diag_, target_};
  p.entry(f, ctx);
  ran_.push_back(p.name);
  if (dump_ && isDumped(p)) {
    *dump_ << "; ==== DUMPIR after phase " << p.number << ' ' << p.name << " (@" << f.name
           << ") ====\n";
    *dump_ << ctx.dumpNotes;
    ori::printFunction(f, *dump_);
  }
  if (validateEach_ &&
      !validate(f, "after phase " + std::to_string(p.number) + " " + std::string(p.name)))
    return false;
  return true;
}

bool PhaseManager::run(ori::Function &f) {
  ran_.clear();
  for (const PhaseInfo &p : kPhases) {
    if (!p.implemented() || optLevel_ < p.minOpt || isDisabled(p))
      continue;
    if (!runOne(p, f))
      return false;
  }
  return true;
}

bool PhaseManager::run(ori::Program &prog) {
  for (ori::Function &f : prog.functions)
    if (!run(f))
      return false;
  return true;
}

bool PhaseManager::runPhases(ori::Function &f, std::span<const PhaseInfo *const> phases) {
  ran_.clear();
  for (const PhaseInfo *p : phases) {
    if (!p->implemented() || isDisabled(*p))
      continue;
    if (!runOne(*p, f))
      return false;
  }
  return true;
}

} // namespace ptxmini
