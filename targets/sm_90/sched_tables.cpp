//===- targets/sm_90/sched_tables.cpp - the sm_90 scheduling tables as data -------------===//
///
/// \file
/// Instantiates sass_ops.def (opcode rows, tensor-core shapes, class refinements) and
/// latencies.def (writer x reader cycles, issue facts) into the SchedTables Target serves.
//===----------------------------------------------------------------------------------===//
#include "targets/sched_model.h"

namespace ptxmini {
namespace {

using ori::LatClass;
using ori::RegClass;

constexpr SassOpInfo kOps[] = {
#define SASS_OP(Mn, Cls, Defs, Width, Flags) {#Mn, LatClass::Cls, Defs, WidthRule::Width, Flags},
#include "targets/sm_90/sass_ops.def"
};

constexpr MmaShape kMma[] = {
#define MMA_SHAPE(Mn, Shape, Acc, D, A, B, C) {#Mn, Shape, Acc, D, A, B, C},
#include "targets/sm_90/sass_ops.def"
};

// Reader column `Any` is the row default.
constexpr uint8_t Any = kAnyClass;
constexpr uint8_t rd(LatClass c) { return static_cast<uint8_t>(c); }

constexpr ClassByModifier kClassByMod[] = {
#define CLASS_BY_MOD(Mn, Mod, Cls, Width) {#Mn, Mod, LatClass::Cls, WidthRule::Width},
#include "targets/sm_90/latencies.def"
};

constexpr RawLatency kRaw[] = {
#define RAW(W, R, File, Kind, Cycles)                                                          \
  {LatClass::W, rd(LatClass::R), RegClass::File, ReadKind::Kind, Cycles},
#define RAW_ANY(W, File, Kind, Cycles) {LatClass::W, Any, RegClass::File, ReadKind::Kind, Cycles},
#include "targets/sm_90/latencies.def"
};

struct IssueInit {
  IssueFacts facts{};
  uint8_t fallback = 0;
  constexpr IssueInit() {
#define ISSUE(Name, Value) facts.Name = Value;
#define FALLBACK_LATENCY(Cycles) fallback = Cycles;
#include "targets/sm_90/latencies.def"
  }
};

constexpr MinStall kMinStall[] = {
#define MIN_STALL(Mn, Cycles) {#Mn, Cycles},
#include "targets/sm_90/latencies.def"
};

constexpr PairHigh kPairHigh[] = {
#define PAIR_HIGH(Cls, High) {LatClass::Cls, LatClass::High},
#include "targets/sm_90/latencies.def"
};

} // namespace

const SchedTables &sm90SchedTables() {
  static constexpr IssueInit kIssue;
  static const SchedTables t{kOps, kMinStall, kMma, kClassByMod, kPairHigh, kRaw, kIssue.fallback, kIssue.facts};
  return t;
}

} // namespace ptxmini
