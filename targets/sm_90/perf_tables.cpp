//===- targets/sm_90/perf_tables.cpp - the sm_90 performance-model tables as data -------===//
///
/// \file
/// Instantiates perf_model.def into the PerfTables Target serves (targets/perf_model.h).
//===----------------------------------------------------------------------------------===//
#include "targets/perf_model.h"

namespace ptxmini {
namespace {

using ori::LatClass;

constexpr PerfClassRow kClasses[] = {
#define PERF_CLASS(Cls, Pipe, Issue, Write, Read)                                              \
  {LatClass::Cls, PerfCost{PerfPipe::Pipe, Issue, Write, Read}},
#include "targets/sm_90/perf_model.def"
};

constexpr PerfOpRow kOps[] = {
#define PERF_OP(Mn, Mod, Pipe, Issue, Write, Read)                                             \
  {#Mn, Mod, PerfCost{PerfPipe::Pipe, Issue, Write, Read}},
#include "targets/sm_90/perf_model.def"
};

struct FactsInit {
  PerfFacts facts{};
  constexpr FactsInit() {
#define PERF_FACT(Name, Value) facts.Name = Value;
#include "targets/sm_90/perf_model.def"
  }
};

} // namespace

const PerfTables &sm90PerfTables() {
  static constexpr FactsInit kFacts;
  static const PerfTables t{kClasses, kOps, kFacts.facts};
  return t;
}

} // namespace ptxmini
