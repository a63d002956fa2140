// Unit tests of the hazard checker (scheduler/hazard_check.h): hand-made sequences with one
// hazard each must be reported with the right kind, and their fixed versions must pass; code
// ptxas 13.0 made (saxpy, re-assembled from its listing with the control codes it set) passes.
#include "scheduler/hazard_check.h"

#include "encoder/isa_table.h"
#include "encoder/sass_codec.h"
#include "targets/common/volta_word.h"

#include <gtest/gtest.h>

using namespace ptxmini;
using namespace ptxmini::sched;

namespace {

/// Lines "[B------:R-:W-:-:S04] TEXT" (pcs count from 0 by 16) to words.
std::vector<enc::Word128> assemble(const std::vector<std::string> &lines) {
  const enc::Isa *isa = enc::Isa::forSm(90);
  std::vector<enc::Word128> words;
  for (const std::string &l : lines) {
    volta::Control c;
    EXPECT_TRUE(enc::parseControl(std::string_view(l).substr(0, 21), c)) << l;
    enc::Word128 w;
    std::string err;
    EXPECT_TRUE(enc::encodeText(*isa, l.substr(22), words.size() * 16, w, err)) << l << ": " << err;
    volta::writeControl(w, c);
    words.push_back(w);
  }
  return words;
}

struct Result {
  HazardStats stats;
  std::vector<Violation> v;
  bool has(const std::string &kind) const {
    for (const Violation &x : v)
      if (x.kind == kind)
        return true;
    return false;
  }
};

Result check(const std::vector<std::string> &lines, bool strict = false) {
  HazardOptions o;
  o.strict = strict;
  Result r;
  r.stats = checkFunctionHazards("t", assemble(lines), 90, Target::sm90(), o, r.v);
  return r;
}

std::string dump(const Result &r) {
  std::string s;
  for (const Violation &v : r.v)
    s += v.kind + ": " + v.message + "\n";
  return s;
}

} // namespace

// Dependent FFMAs need the Fp32 -> Fp32 latency (4 cycles on sm_90, latencies.def).
TEST(HazardCheck, FixedLatencyRaw) {
  Result bad = check({"[B------:R-:W-:-:S01] FFMA R0, R1, R2, R3",
                      "[B------:R-:W-:-:S01] FFMA R4, R0, R2, R3",
                      "[B------:R-:W-:-:S05] EXIT"});
  EXPECT_TRUE(bad.has("raw-latency")) << dump(bad);
  Result good = check({"[B------:R-:W-:-:S04] FFMA R0, R1, R2, R3",
                       "[B------:R-:W-:-:S01] FFMA R4, R0, R2, R3",
                       "[B------:R-:W-:-:S05] EXIT"});
  EXPECT_EQ(good.stats.violations, 0u) << dump(good);
  // The latency accumulates over the instructions in between.
  Result spread = check({"[B------:R-:W-:-:S02] IADD3 R0, R1, R2, RZ",
                         "[B------:R-:W-:-:S02] IADD3 R5, R1, R2, RZ",
                         "[B------:R-:W-:-:S01] IADD3 R4, R0, R2, RZ",
                         "[B------:R-:W-:-:S05] EXIT"});
  EXPECT_EQ(spread.stats.violations, 0u) << dump(spread);
}

// A guard predicate is read early: an ISETP result needs 13 cycles before it can guard.
TEST(HazardCheck, PredicateGuardLatency) {
  Result bad = check({"[B------:R-:W-:-:S04] ISETP.GE.AND P0, PT, R1, R2, PT",
                      "[B------:R-:W-:-:S05] @P0 EXIT",
                      "[B------:R-:W-:-:S05] EXIT"});
  EXPECT_TRUE(bad.has("raw-latency")) << dump(bad);
  Result good = check({"[B------:R-:W-:-:S13] ISETP.GE.AND P0, PT, R1, R2, PT",
                       "[B------:R-:W-:-:S05] @P0 EXIT",
                       "[B------:R-:W-:-:S05] EXIT"});
  EXPECT_EQ(good.stats.violations, 0u) << dump(good);
}

// A load's consumer must wait on the load's write scoreboard, issued at least two cycles
// after the load set it.
TEST(HazardCheck, VariableLatencyNeedsWait) {
  Result bad = check({"[B------:R-:W0:-:S04] LDG.E R0, desc[UR4][R2.64]",
                      "[B------:R-:W-:-:S01] IADD3 R1, R0, 0x1, RZ",
                      "[B------:R-:W-:-:S05] EXIT"});
  EXPECT_TRUE(bad.has("raw-scoreboard")) << dump(bad);
  Result good = check({"[B------:R-:W0:-:S04] LDG.E R0, desc[UR4][R2.64]",
                       "[B0-----:R-:W-:-:S01] IADD3 R1, R0, 0x1, RZ",
                       "[B------:R-:W-:-:S05] EXIT"});
  EXPECT_EQ(good.stats.violations, 0u) << dump(good);
  Result early = check({"[B------:R-:W0:-:S01] LDG.E R0, desc[UR4][R2.64]",
                        "[B0-----:R-:W-:-:S01] IADD3 R1, R0, 0x1, RZ",
                        "[B------:R-:W-:-:S05] EXIT"});
  EXPECT_TRUE(early.has("raw-scoreboard")) << dump(early);
  // Overwriting the pending destination is a WAW hazard.
  Result waw = check({"[B------:R-:W0:-:S04] LDG.E R0, desc[UR4][R2.64]",
                      "[B------:R-:W-:-:S01] MOV R0, 0x1",
                      "[B------:R-:W-:-:S05] EXIT"});
  EXPECT_TRUE(waw.has("waw-scoreboard")) << dump(waw);
}

// A store reads its data late: overwriting it needs the store's read scoreboard.
TEST(HazardCheck, LateReadNeedsReadScoreboard) {
  Result bad = check({"[B------:R0:W-:-:S02] STG.E desc[UR4][R2.64], R5",
                      "[B------:R-:W-:-:S01] MOV R5, 0x1",
                      "[B------:R-:W-:-:S05] EXIT"});
  EXPECT_TRUE(bad.has("war-scoreboard")) << dump(bad);
  Result good = check({"[B------:R0:W-:-:S02] STG.E desc[UR4][R2.64], R5",
                       "[B0-----:R-:W-:-:S01] MOV R5, 0x1",
                       "[B------:R-:W-:-:S05] EXIT"});
  EXPECT_EQ(good.stats.violations, 0u) << dump(good);
  // Without a read scoreboard the overwrite is unverified, a violation under -strict.
  Result untracked = check({"[B------:R-:W-:-:S02] STG.E desc[UR4][R2.64], R5",
                            "[B------:R-:W-:-:S01] MOV R5, 0x1",
                            "[B------:R-:W-:-:S05] EXIT"},
                           true);
  EXPECT_TRUE(untracked.has("war-untracked")) << dump(untracked);
}

// A load's address is read before its data comes back: once a wait retired the load's write
// scoreboard, overwriting the address needs no read scoreboard, even under -strict. Without
// that wait the same overwrite is untracked.
TEST(HazardCheck, RetiredWriteRetiresLateReads) {
  Result good = check({"[B------:R-:W3:-:S02] LDG.E R9, desc[UR4][R12.64]",
                       "[B---3--:R-:W-:-:S02] MOV R19, R9",
                       "[B------:R-:W-:-:S01] MOV R12, 0x1",
                       "[B------:R-:W-:-:S05] EXIT"},
                      true);
  EXPECT_TRUE(good.v.empty()) << dump(good);
  Result bad = check({"[B------:R-:W3:-:S02] LDG.E R9, desc[UR4][R12.64]",
                      "[B------:R-:W-:-:S02] MOV R19, R8",
                      "[B------:R-:W-:-:S01] MOV R12, 0x1",
                      "[B---3--:R-:W-:-:S05] EXIT"},
                     true);
  EXPECT_TRUE(bad.has("war-untracked")) << dump(bad);
}

// DEPBAR.LE SBk, n retires all but the newest n operations on SBk.
TEST(HazardCheck, DepbarCountsInOrder) {
  std::vector<std::string> base = {"[B------:R-:W0:-:S04] LDS R0, [R2]",
                                   "[B------:R-:W0:-:S04] LDS R1, [R2+0x4]"};
  auto with = [&](std::vector<std::string> tail) {
    std::vector<std::string> l = base;
    l.insert(l.end(), tail.begin(), tail.end());
    return check(l);
  };
  Result first = with({"[B------:R-:W-:-:S02] DEPBAR.LE SB0, 0x1", "[B------:R-:W-:-:S01] MOV R4, R0",
                       "[B------:R-:W-:-:S05] EXIT"});
  EXPECT_EQ(first.stats.violations, 0u) << dump(first);
  Result second = with({"[B------:R-:W-:-:S02] DEPBAR.LE SB0, 0x1", "[B------:R-:W-:-:S01] MOV R4, R1",
                        "[B------:R-:W-:-:S05] EXIT"});
  EXPECT_TRUE(second.has("raw-scoreboard")) << dump(second);
}

// A block entered by a branch starts from what its predecessors left in flight.
TEST(HazardCheck, AcrossBranchesAndLoops) {
  Result branch = check({"[B------:R-:W-:-:S13] ISETP.GE.AND P0, PT, R1, R2, PT",
                         "[B------:R-:W-:-:S01] FFMA R0, R1, R2, R3",
                         "[B------:R-:W-:-:S01] @P0 BRA 0x40",
                         "[B------:R-:W-:-:S05] EXIT",
                         "[B------:R-:W-:-:S01] FADD R4, R0, R2",
                         "[B------:R-:W-:-:S05] EXIT"});
  EXPECT_TRUE(branch.has("raw-latency")) << dump(branch);
  // The back edge brings the FMUL at the loop's end to the FADD at its start.
  Result loop = check({"[B------:R-:W-:-:S01] MOV R0, 0x0",
                       "[B------:R-:W-:-:S04] NOP",
                       "[B------:R-:W-:-:S13] FADD R4, R0, R2",
                       "[B------:R-:W-:-:S01] ISETP.GE.AND P0, PT, R1, R2, PT",
                       "[B------:R-:W-:-:S01] FMUL R0, R1, R2",
                       "[B------:R-:W-:-:S01] @P0 BRA 0x20",
                       "[B------:R-:W-:-:S05] EXIT"});
  EXPECT_TRUE(loop.has("raw-latency")) << dump(loop);
  // A load issued in the loop and consumed at the loop head must be waited for there.
  Result loopLoad = check({"[B------:R-:W-:-:S01] MOV R0, 0x0",
                           "[B------:R-:W-:-:S04] NOP",
                           "[B------:R-:W-:-:S13] FADD R4, R0, R2",
                           "[B------:R-:W0:-:S01] LDG.E R0, desc[UR4][R2.64]",
                           "[B------:R-:W-:-:S13] ISETP.GE.AND P0, PT, R1, R2, PT",
                           "[B------:R-:W-:-:S05] @P0 BRA 0x20",
                           "[B------:R-:W-:-:S05] EXIT"});
  EXPECT_TRUE(loopLoad.has("raw-scoreboard")) << dump(loopLoad);
}

// A producer met again around a loop is one entry, not one per trip: a guarded load the loop
// never waits for and overwrites under the same guard is reported once per overwrite it
// reaches (here the one below it), however many trips the fixpoint takes. Before the fold,
// every trip left another copy (ggml's argsort never finished).
TEST(HazardCheck, LoopProducerFoldsIntoOneEntry) {
  Result r = check({"[B------:R-:W-:-:S13] ISETP.GE.AND P0, PT, R1, R2, PT",
                    "[B------:R-:W-:-:S01] NOP",
                    "[B------:R-:W-:-:S04] @P0 LDS R20, [R3]",
                    "[B------:R-:W-:-:S04] @P0 MOV R20, 0x1",
                    "[B------:R-:W-:-:S01] @P0 BRA 0x10",
                    "[B------:R-:W-:-:S05] EXIT"});
  EXPECT_EQ(r.stats.violations, 0u) << dump(r);
  EXPECT_EQ(r.stats.unverified, 1u) << dump(r);
  // Three blocks: the loop is stable after a few visits (without the fold: ~1,000).
  EXPECT_LE(r.stats.blockVisits, 12u) << dump(r);
}

// Instructions under complementary guards never see each other's results.
TEST(HazardCheck, ComplementaryGuards) {
  Result r = check({"[B------:R-:W-:-:S13] ISETP.GE.AND P0, PT, R1, R2, PT",
                    "[B------:R-:W0:-:S01] @P0 LDG.E R10, desc[UR4][R2.64]",
                    "[B------:R-:W-:-:S04] @!P0 MOV R10, 0x1",
                    "[B0-----:R-:W-:-:S05] EXIT"});
  EXPECT_EQ(r.stats.violations, 0u) << dump(r);
}

// ptxas 13.0's saxpy for sm_90 (tests/exec/kernels/saxpy.cu), with the control codes ptxas set.
TEST(HazardCheck, PtxasSaxpyPasses) {
  Result r = check({"[B------:R-:W-:-:S01] LDC R1, c[0x0][0x28]",
                    "[B------:R-:W0:-:S07] S2R R0, SR_TID.X",
                    "[B------:R-:W0:-:S08] S2UR UR4, SR_CTAID.X",
                    "[B------:R-:W0:-:S02] LDC R7, c[0x0][RZ]",
                    "[B0-----:R-:W-:-:S01] IMAD R7, R7, UR4, R0",
                    "[B------:R-:W-:Y:S04] ULDC UR4, c[0x0][0x210]",
                    "[B------:R-:W-:Y:S13] ISETP.GE.AND P0, PT, R7, UR4, PT",
                    "[B------:R-:W-:-:S05] @P0 EXIT",
                    "[B------:R-:W0:-:S01] LDC.64 R2, c[0x0][0x218]",
                    "[B------:R-:W-:-:S01] ULDC.64 UR4, c[0x0][0x208]",
                    "[B------:R-:W-:Y:S06] ULDC UR6, c[0x0][0x214]",
                    "[B------:R-:W1:-:S01] LDC.64 R4, c[0x0][0x220]",
                    "[B0-----:R-:W-:Y:S06] IMAD.WIDE R2, R7, 0x4, R2",
                    "[B------:R-:W2:-:S01] LDG.E R2, desc[UR4][R2.64]",
                    "[B-1----:R-:W-:Y:S05] IMAD.WIDE R4, R7, 0x4, R4",
                    "[B------:R-:W2:-:S02] LDG.E R7, desc[UR4][R4.64]",
                    "[B--2---:R-:W-:Y:S05] FFMA R7, R2, UR6, R7",
                    "[B------:R-:W-:-:S01] STG.E desc[UR4][R4.64], R7",
                    "[B------:R-:W-:-:S05] EXIT",
                    "[B------:R-:W-:Y:S00] BRA 0x130"});
  EXPECT_EQ(r.stats.violations, 0u) << dump(r);
  EXPECT_GT(r.stats.checkedReads, 10u);
}
