// The phase table and PhaseManager: seed numbering, lookups, gates, DUMPIR, validation.
#include "ori/parse.h"
#include "ori/print.h"
#include "phases/phase_manager.h"

#include <gtest/gtest.h>

#include <sstream>

using namespace ptxmini;

namespace {

const char *kLoop = R"(kernel @k {
bb0:
  %r0 = MOV 0x0
loop:
  %r0 = IADD3 %r0, 0x1, RZ
  %p0 = ISETP.LT.AND %r0, 0x8, PT
  @%p0 BRA loop
done:
  EXIT
}
)";

ori::Function parse(const char *text) {
  DiagEngine diag("t");
  std::ostringstream errs;
  diag.setStream(errs);
  ori::Program p;
  EXPECT_TRUE(ori::parseProgram(text, "t.ori", diag, p)) << errs.str();
  return p.functions.empty() ? ori::Function{} : std::move(p.functions[0]);
}

Knobs knobsWith(std::initializer_list<const char *> assignments) {
  Knobs k;
  for (const char *a : assignments) {
    std::string err;
    EXPECT_TRUE(k.assign(a, err)) << err;
  }
  return k;
}

TEST(PhaseTable, SeedNumbersAndNames) {
  // Seed 004 fixes these numbers and names; the table must agree with it.
  struct { unsigned num; const char *name; } seed[] = {
      {3, "AnalyzeControlFlow"},     {13, "GeneralOptimizeEarly"}, {15, "OriBranchOpt"},
      {16, "OriPerformLiveDeadFirst"}, {18, "OriLoopSimplification"}, {19, "OriSplitLiveRanges"},
      {21, "OriStrengthReduce"},     {22, "OriLoopUnrolling"},     {23, "GenerateMovPhi"},
      {24, "OriPipelining"},         {25, "StageAndFence"},        {29, "GeneralOptimize"},
      {35, "OriHoistInvariantsEarly"}, {58, "GeneralOptimizeLate"}, {59, "OriLoopFusion"},
      {65, "GeneralOptimizeLate2"},  {66, "OriHoistInvariantsLate"}, {78, "LateExpansionUnsupportedOps"},
      {79, "OriHoistInvariantsLate2"}, {87, "FixupGmmaSequence"}, {88, "OriHoistInvariantsLate3"},
      {108, "OptimizeHotColdInLoop"}, {138, "OriSplitHighPressureLiveRanges"}};
  for (auto &s : seed) {
    const PhaseInfo *p = findPhase(std::to_string(s.num));
    ASSERT_NE(p, nullptr) << s.num;
    EXPECT_EQ(p->name, s.name);
    EXPECT_EQ(findPhase(s.name), p);
  }
}

TEST(PhaseTable, LookupIsCaseInsensitiveAndSuggestsNames) {
  EXPECT_EQ(findPhase("analyzecontrolflow"), findPhase("3"));
  EXPECT_EQ(findPhase("NoSuchPhase"), nullptr);
  EXPECT_EQ(findPhase("4"), nullptr); // no phase 4 in the table
  EXPECT_EQ(findPhase(""), nullptr);
  EXPECT_EQ(closestPhaseName("AnalyseControlFlow"), "AnalyzeControlFlow");
}

TEST(PhaseTable, ListingMarksWhatIsImplemented) {
  // --list-phases must not present an unimplemented phase as working.
  std::ostringstream os;
  printPhaseList(os);
  std::string s = os.str();
  auto lineOf = [&](const char *name) {
    size_t at = s.find(name);
    EXPECT_NE(at, std::string::npos) << name;
    size_t start = s.rfind('\n', at) + 1;
    return s.substr(start, s.find('\n', at) - start);
  };
  EXPECT_NE(lineOf("AnalyzeControlFlow").find(" implemented"), std::string::npos);
  EXPECT_NE(lineOf("StageAndFence").find("not implemented"), std::string::npos);
  for (const PhaseInfo &p : allPhases())
    EXPECT_EQ(lineOf(std::string(p.name).c_str()).find("not implemented") == std::string::npos,
              p.implemented())
        << p.name;
}

TEST(PhaseManager, RunsOnlyImplementedPhasesInTableOrder) {
  // Unimplemented rows are skipped, never "run" as no-ops.
  ori::Function f = parse(kLoop);
  Knobs k;
  PhaseManager pm(k, 3);
  ASSERT_TRUE(pm.ok());
  ASSERT_TRUE(pm.run(f));
  std::vector<std::string_view> want;
  for (const PhaseInfo &p : allPhases())
    if (p.implemented())
      want.push_back(p.name);
  EXPECT_EQ(pm.ranPhases(), want);
  EXPECT_TRUE(f.cfgAnalyzed);
}

TEST(PhaseManager, DisablePhasesByNameOrNumber) {
  // A disabled phase does not run (and leaves its analysis undone); the others still do.
  for (const char *knob : {"DisablePhases=AnalyzeControlFlow", "DisablePhases=3"}) {
    ori::Function f = parse(kLoop);
    Knobs k = knobsWith({knob});
    PhaseManager pm(k, 3);
    ASSERT_TRUE(pm.run(f));
    for (std::string_view ran : pm.ranPhases())
      EXPECT_NE(ran, "AnalyzeControlFlow") << knob;
    EXPECT_FALSE(f.cfgAnalyzed) << knob;
  }
  // `all` disables every phase: nothing runs.
  ori::Function f = parse(kLoop);
  Knobs k = knobsWith({"DisablePhases=all"});
  PhaseManager pm(k, 3);
  ASSERT_TRUE(pm.run(f));
  EXPECT_TRUE(pm.ranPhases().empty());
  EXPECT_FALSE(f.cfgAnalyzed);
}

TEST(PhaseManager, OptimizationLevelGates) {
  // At -O0 only phases with MinOpt 0 may run; every phase that ran must allow -O0.
  ori::Function f = parse(kLoop);
  Knobs k;
  PhaseManager pm(k, 0);
  ASSERT_TRUE(pm.run(f));
  for (std::string_view name : pm.ranPhases())
    EXPECT_EQ(findPhase(name)->minOpt, 0u) << name;
}

TEST(PhaseManager, DumpIrAfterNamedPhase) {
  // DUMPIR=<name|number|all> prints a header naming the phase, then the function with the
  // phase's results (here the loop header comment of AnalyzeControlFlow).
  for (const char *knob : {"DUMPIR=AnalyzeControlFlow", "DUMPIR=3", "DUMPIR=all", "DUMPIR=22,3"}) {
    ori::Function f = parse(kLoop);
    Knobs k = knobsWith({knob});
    std::ostringstream dump, errs;
    DiagEngine diag("t");
    diag.setStream(errs);
    PhaseManager pm(k, 3, &dump, &diag);
    ASSERT_TRUE(pm.ok()) << errs.str();
    ASSERT_TRUE(pm.run(f));
    std::string d = dump.str();
    EXPECT_NE(d.find("DUMPIR after phase 3 AnalyzeControlFlow (@k)"), std::string::npos) << knob;
    EXPECT_NE(d.find("loop:  ; preds: bb0, loop"), std::string::npos) << d;
    EXPECT_NE(d.find("loop-header"), std::string::npos) << d;
  }
  // Nothing is dumped when DUMPIR is not set.
  ori::Function f = parse(kLoop);
  Knobs k;
  std::ostringstream dump;
  PhaseManager pm(k, 3, &dump);
  ASSERT_TRUE(pm.run(f));
  EXPECT_TRUE(dump.str().empty());
}

TEST(PhaseManager, DumpIrOfUnimplementedPhaseWarns) {
  // Asking to dump after a phase that cannot run must say so instead of silently printing
  // nothing.
  Knobs k = knobsWith({"DUMPIR=StageAndFence"});
  std::ostringstream dump, errs;
  DiagEngine diag("t");
  diag.setStream(errs);
  PhaseManager pm(k, 3, &dump, &diag);
  EXPECT_TRUE(pm.ok());
  EXPECT_NE(errs.str().find("warning"), std::string::npos);
  EXPECT_NE(errs.str().find("not implemented"), std::string::npos);
  ori::Function f = parse(kLoop);
  ASSERT_TRUE(pm.run(f));
  EXPECT_TRUE(dump.str().empty());
}

TEST(PhaseManager, UnknownPhaseInKnobIsAnError) {
  for (const char *knob : {"DUMPIR=AnalyseControlFlow", "DisablePhases=9999"}) {
    Knobs k = knobsWith({knob});
    std::ostringstream errs;
    DiagEngine diag("t");
    diag.setStream(errs);
    PhaseManager pm(k, 3, nullptr, &diag);
    EXPECT_FALSE(pm.ok()) << knob;
    EXPECT_NE(errs.str().find("Unknown phase"), std::string::npos) << errs.str();
    EXPECT_NE(errs.str().find("did you mean"), std::string::npos) << errs.str();
  }
}

TEST(PhaseManager, ValidateIrCatchesBrokenFunctions) {
  // With ValidateIR, an invalid function is reported after the first phase that runs.
  ori::Function f = parse(kLoop);
  f.blocks[0].instrs[0].ops.pop_back(); // MOV without its source
  Knobs k = knobsWith({"ValidateIR=true"});
  std::ostringstream errs;
  DiagEngine diag("t");
  diag.setStream(errs);
  PhaseManager pm(k, 3, nullptr, &diag);
  EXPECT_FALSE(pm.run(f));
  EXPECT_NE(errs.str().find("Ori validation failed after phase 3 AnalyzeControlFlow"),
            std::string::npos)
      << errs.str();
}

} // namespace
