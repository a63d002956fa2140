// Unit tests of the performance model (emu/perf_model.h) on hand-written SASS with control
// annotations. Each test states the relation the model must satisfy and why; numbers come from
// the target's tables (targets/sm_90/perf_model.def) rather than being written here.
#include "tests/exec/emu/perf_model.h"

#include "encoder/sass_codec.h"
#include "targets/target.h"

#include <gtest/gtest.h>

#include <cstring>
#include <numeric>

using namespace ptxmini::exec;

namespace {

const ptxmini::Target& T() { return ptxmini::Target::sm90(); }

unsigned writeLatency(const char* mnemonic, std::vector<std::string_view> mods) {
  return T().perfCost(mnemonic, mods).writeLatency;
}

// Runs `lines` ("[B------:R-:W-:-:S01] INSTR ;") with `threads` per CTA and `ctas` CTAs; one
// buffer parameter of 4096 zero bytes at 0x210.
struct PerfRun {
  PerfResult r;
  std::string trap;
  PerfRun(const std::vector<std::string>& lines, uint32_t threads, uint32_t ctas = 1, uint32_t regs = 32) {
    KernelImage k;
    k.name = "t";
    for (const std::string& l : lines) {
      size_t close = l.find(']');
      ptxmini::volta::Control c;
      EXPECT_TRUE(close != std::string::npos && ptxmini::enc::parseControl(l.substr(0, close + 1), c)) << l;
      k.ctrl.push_back({static_cast<uint8_t>(c.stall), !c.yieldBit, static_cast<uint8_t>(c.writeSb),
                        static_cast<uint8_t>(c.readSb), static_cast<uint8_t>(c.waitMask)});
      k.insts.push_back(l.substr(close + 2));
    }
    k.params = {{0, 0, 8}};
    k.param_size = 8;
    k.shared_size = 0x800;
    k.num_regs = regs;
    GlobalMemory g;
    uint64_t buf = g.allocate(4096);
    LaunchConfig cfg;
    cfg.block.x = threads;
    cfg.grid.x = ctas;
    cfg.params.resize(8);
    std::memcpy(cfg.params.data(), &buf, 8);
    cfg.perf = true;
    Emulator e(k, g);
    try {
      e.launch(cfg);
    } catch (const Trap& t) {
      trap = t.what();
      return;
    }
    r = model_performance(k, e.code(), e.perf_trace(), cfg, T());
    EXPECT_EQ(r.warp_insts, e.stats().warp_insts) << "the model replays every issue of the functional run";
  }
};

std::vector<std::string> repeat(const std::string& line, int n) { return std::vector<std::string>(n, line); }

std::vector<std::string> operator+(std::vector<std::string> a, const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

const std::string kExit = "[B------:R-:W-:-:S05] EXIT ;";

}  // namespace

// Independent FP32 instructions with stall 1 issue one per cycle (the FMA pipe takes one warp
// instruction per cycle, [PG] 128 results/clk/SM): n instructions + EXIT finish at cycle n + 1.
TEST(PerfModel, IndependentStallOneTakesOneCycleEach) {
  ASSERT_EQ(T().perfCost("FADD", {}).issue, 1u);
  const int n = 20;
  PerfRun p(repeat("[B------:R-:W-:-:S01] FADD R4, R5, R6 ;", n) + std::vector<std::string>{kExit}, 32);
  ASSERT_EQ(p.trap, "");
  ASSERT_TRUE(p.r.ok) << p.r.error;
  EXPECT_EQ(p.r.cycles, uint64_t(n + 1));
}

// Stall counts add up: each instruction issues `stall` cycles after the previous one, and the
// yield form changes nothing for a warp that is alone.
TEST(PerfModel, StallsAddUp) {
  std::vector<std::string> code = {
      "[B------:R-:W-:-:S04] FFMA R4, R5, R6, R7 ;", "[B------:R-:W-:Y:S07] FFMA R8, R4, R6, R7 ;",
      "[B------:R-:W-:-:S02] FADD R9, R8, R8 ;", "[B------:R-:W-:Y:S13] FMUL R10, R9, R9 ;", kExit};
  PerfRun p(code, 32);
  ASSERT_TRUE(p.r.ok) << p.r.error;
  EXPECT_EQ(p.r.cycles, uint64_t(4 + 7 + 2 + 13 + 1));
}

// A pipe slower than one warp instruction per cycle throttles stall-1 code: INT32 ALU
// instructions occupy their pipe `issue` cycles each ([PG] 64 results/clk/SM), so n of them
// take at least n * issue - (issue - 1) cycles even with stall 1.
TEST(PerfModel, PipeThroughputLimitsIssue) {
  const unsigned issue = T().perfCost("IADD3", {}).issue;
  ASSERT_GT(issue, 1u);
  const int n = 16;
  PerfRun p(repeat("[B------:R-:W-:-:S01] IADD3 R4, R5, R6, RZ ;", n) + std::vector<std::string>{kExit}, 32);
  ASSERT_TRUE(p.r.ok) << p.r.error;
  EXPECT_GE(p.r.cycles, uint64_t(n) * issue - (issue - 1));
  // Alternating with the FMA pipe (IADD3 / FADD) hides the ALU's occupancy.
  std::vector<std::string> mixed;
  for (int i = 0; i < n / 2; ++i) {
    mixed.push_back("[B------:R-:W-:-:S01] IADD3 R4, R5, R6, RZ ;");
    mixed.push_back("[B------:R-:W-:-:S01] FADD R7, R5, R6 ;");
  }
  PerfRun q(mixed + std::vector<std::string>{kExit}, 32);
  ASSERT_TRUE(q.r.ok) << q.r.error;
  EXPECT_LT(q.r.cycles, p.r.cycles);
}

// A chain of dependent loads (each address comes from the previous load, each waits on the
// scoreboard the previous one set) costs at least the load latency per link; the same loads
// without the dependence overlap and cost about one latency.
TEST(PerfModel, DependentLoadChainWaitsOnScoreboards) {
  const unsigned lat = writeLatency("LDG", {"E"});
  ASSERT_GT(lat, 20u);
  const int n = 5;
  std::vector<std::string> chain = {"[B------:R-:W0:-:S02] LDC.64 R2, c[0x0][0x210] ;",
                                    "[B0-----:R-:W-:-:S01] MOV R4, R2 ;", "[B------:R-:W-:-:S01] MOV R5, R3 ;"};
  for (int i = 0; i < n; ++i) {
    chain.push_back("[B------:R-:W1:-:S01] LDG.E.64 R4, desc[UR4][R4.64] ;");
    // The buffer is zero: the next address would be 0; add the base back (R4:R5 = R2:R3 + 0).
    chain.push_back("[B-1----:R-:W-:-:S01] IADD3 R4, P0, R4, R2, RZ ;");
    chain.push_back("[B------:R-:W-:-:S05] IADD3.X R5, R5, R3, RZ, P0, !PT ;");
  }
  PerfRun c(chain + std::vector<std::string>{kExit}, 32);
  ASSERT_EQ(c.trap, "");
  ASSERT_TRUE(c.r.ok) << c.r.error;
  EXPECT_GE(c.r.cycles, uint64_t(n) * lat);
  // One warp alone: its time is all stalls and scoreboard waits, mostly the latter, and the
  // parts add up to its last issue.
  EXPECT_EQ(c.r.wait.total(), c.r.cycles - 1);
  EXPECT_GE(c.r.wait.scoreboard, uint64_t(n) * (lat - 10));
  EXPECT_EQ(c.r.wait.dispatch + c.r.wait.barrier, 0u);

  std::vector<std::string> indep = {"[B------:R-:W0:-:S02] LDC.64 R2, c[0x0][0x210] ;", "[B0-----:R-:W-:-:S01] NOP ;"};
  for (int i = 0; i < n; ++i)
    indep.push_back("[B------:R-:W1:-:S01] LDG.E R" + std::to_string(10 + i) + ", desc[UR4][R2.64+" +
                    std::to_string(8 * i) + "] ;");
  indep.push_back("[B-1----:R-:W-:-:S01] IADD3 R4, R10, R14, RZ ;");
  PerfRun d(indep + std::vector<std::string>{kExit}, 32);
  ASSERT_EQ(d.trap, "");
  ASSERT_TRUE(d.r.ok) << d.r.error;
  EXPECT_GE(d.r.cycles, uint64_t(lat));
  EXPECT_LT(d.r.cycles, uint64_t(2) * lat) << "independent loads overlap";
}

// DEPBAR.LE SB1, k waits until at most k operations remain pending on SB1: waiting for all of
// three loads costs more than waiting for the first only (they issue cycles apart; the model's
// releases are issue + latency, so the last lands last).
TEST(PerfModel, DepbarWaitsForTheCount) {
  auto code = [](int k) {
    std::vector<std::string> c = {"[B------:R-:W0:-:S02] LDC.64 R2, c[0x0][0x210] ;", "[B0-----:R-:W-:-:S01] NOP ;"};
    for (int i = 0; i < 3; ++i)
      c.push_back("[B------:R-:W1:-:S08] LDG.E R" + std::to_string(10 + i) + ", desc[UR4][R2.64] ;");
    c.push_back("[B------:R-:W-:-:S04] DEPBAR.LE SB1, 0x" + std::to_string(k) + " ;");
    c.push_back(kExit);
    return c;
  };
  PerfRun all(code(0), 32), first(code(2), 32);
  ASSERT_TRUE(all.r.ok) << all.r.error;
  ASSERT_TRUE(first.r.ok) << first.r.error;
  EXPECT_GT(all.r.cycles, first.r.cycles);
  EXPECT_GE(all.r.cycles, uint64_t(writeLatency("LDG", {"E"})) + 2 * 8);
}

// WARPGROUP.DEPBAR.LE gsb0, 0 (wgmma.wait_group 0) waits for the group its last MMA (`gsb0`)
// closed: one MMA write latency after that MMA issued; without the wait the warp runs on.
TEST(PerfModel, WarpgroupDepbarWaitsForTheGroup) {
  auto code = [](bool wait) {
    return std::vector<std::string>{
        "[B------:R-:W-:-:S01] WARPGROUP.ARRIVE ;",
        "[B------:R-:W-:-:S01] HGMMA.64x8x16.F32 R24, gdesc[UR4], RZ, !UPT, gsb0 ;",
        wait ? "[B------:R-:W-:-:S01] WARPGROUP.DEPBAR.LE gsb0, 0x0 ;" : "[B------:R-:W-:-:S01] NOP ;", kExit};
  };
  PerfRun waits(code(true), 128), runs_on(code(false), 128);
  ASSERT_TRUE(waits.r.ok) << waits.trap << waits.r.error;
  ASSERT_TRUE(runs_on.r.ok) << runs_on.trap << runs_on.r.error;
  unsigned lat = writeLatency("HGMMA", {"64x8x16", "F32"});
  EXPECT_GE(waits.r.cycles, uint64_t(lat));
  EXPECT_LT(runs_on.r.cycles, uint64_t(lat));
}

// One issue per cycle per sub-partition: warps 0 and 4 of a 5-warp CTA share sub-partition 0
// (slot % 4), so n stall-1 instructions each take at least 2n cycles there; with stall 4 the
// two warps interleave in each other's stalls and finish far sooner than twice one warp.
TEST(PerfModel, WarpsOnOneSubPartitionInterleave) {
  ASSERT_EQ(T().registers().subPartitions, 4u);
  const int n = 24;
  auto body = [&](const char* stall) {
    return repeat(std::string("[B------:R-:W-:-:") + stall + "] FFMA R4, R5, R6, R7 ;", n) +
           std::vector<std::string>{kExit};
  };
  PerfRun one(body("S01"), 32), five(body("S01"), 160);
  ASSERT_TRUE(one.r.ok && five.r.ok);
  EXPECT_EQ(five.r.issued[0], 2u * (n + 1)) << "warps 0 and 4 issue on sub-partition 0";
  EXPECT_GE(five.r.cycles, 2u * n) << "one issue per cycle on sub-partition 0";
  // The second warp of sub-partition 0 waits for the first: for the FMA pipe the first keeps
  // busy or for the issue slot itself.
  EXPECT_GE(five.r.wait.dispatch + five.r.wait.pipe, uint64_t(n));
  EXPECT_EQ(one.r.wait.dispatch + one.r.wait.pipe, 0u);
  PerfRun one4(body("S04"), 32), five4(body("S04"), 160);
  ASSERT_TRUE(one4.r.ok && five4.r.ok);
  EXPECT_LT(five4.r.cycles, one4.r.cycles + 4) << "the second warp fills the first one's stalls";
}

// Greedy-then-oldest: without the yield form the warp that issued keeps the sub-partition, so
// warp 0 finishes its whole stream before warp 4 starts; with `Y` on every instruction the two
// alternate and warp 0 finishes later.
TEST(PerfModel, YieldHandsTheSubPartitionOver) {
  const int n = 12;
  auto body = [&](const char* y) {
    return repeat(std::string("[B------:R-:W-:") + y + ":S01] FADD R4, R5, R6 ;", n) + std::vector<std::string>{kExit};
  };
  PerfRun greedy(body("-"), 160), yielding(body("Y"), 160);
  ASSERT_TRUE(greedy.r.ok && yielding.r.ok);
  ASSERT_EQ(greedy.r.warp_finish.size(), 5u);
  EXPECT_EQ(greedy.r.warp_finish[0], uint64_t(n + 1));
  EXPECT_GT(yielding.r.warp_finish[0], greedy.r.warp_finish[0]);
  EXPECT_EQ(greedy.r.cycles, yielding.r.cycles) << "the same work on one sub-partition either way";
}

// BAR.SYNC: a warp waits for the slowest warp of its CTA. Warp 1 runs a long stall chain
// before the barrier; warp 0 reaches it at once but cannot finish before warp 1 arrives plus
// the barrier's release latency.
TEST(PerfModel, BarrierWaitsForTheLastArrival) {
  std::vector<std::string> code = {
      "[B------:R-:W0:-:S01] S2R R0, SR_TID.X ;",
      "[B0-----:R-:W-:-:S04] ISETP.GE.U32.AND P0, PT, R0, 0x20, PT ;",
      "[B------:R-:W-:-:S05] @!P0 BRA 0x90 ;",
  };
  code = code + repeat("[B------:R-:W-:-:S15] FADD R4, R5, R6 ;", 6);  // warp 1 only: 90 cycles
  code.push_back("[B------:R-:W-:-:S05] BAR.SYNC.DEFER_BLOCKING 0x0 ;");  // 0x90
  code.push_back(kExit);
  PerfRun p(code, 64);
  ASSERT_EQ(p.trap, "");
  ASSERT_TRUE(p.r.ok) << p.r.error;
  ASSERT_EQ(p.r.warp_finish.size(), 2u);
  EXPECT_GE(p.r.warp_finish[0], 6u * 15 + T().perfFacts().barrierLatency)
      << "warp 0 leaves the barrier only after warp 1's long path";
  EXPECT_GE(p.r.wait.barrier, 6u * 15) << "warp 0's wait is counted as a barrier wait";
}

// Residency: CTAs run at once only as far as registers allow. With 255 registers per thread a
// sub-partition holds regsPerSubPartition / (256 * 32) warps, so fewer 4-warp CTAs are
// resident than with 32 registers, and a latency-bound kernel takes longer.
TEST(PerfModel, RegistersLimitResidentCtas) {
  std::vector<std::string> code = {"[B------:R-:W0:-:S02] LDC.64 R2, c[0x0][0x210] ;",
                                   "[B0-----:R-:W1:-:S01] LDG.E R4, desc[UR4][R2.64] ;",
                                   "[B-1----:R-:W-:-:S01] IADD3 R4, R4, 0x1, RZ ;", kExit};
  PerfRun few(code, 128, 16, 32), many(code, 128, 16, 255);
  ASSERT_TRUE(few.r.ok && many.r.ok);
  const unsigned perSp = T().registers().regsPerSubPartition / (256 * 32);
  EXPECT_EQ(many.r.resident_ctas, perSp) << "each 4-warp CTA puts one warp on every sub-partition";
  EXPECT_EQ(few.r.resident_ctas, 16u);
  EXPECT_GT(many.r.cycles, few.r.cycles);
}

// The model is deterministic: the same run gives the same cycles.
TEST(PerfModel, Deterministic) {
  std::vector<std::string> code = {"[B------:R-:W0:-:S02] LDC.64 R2, c[0x0][0x210] ;",
                                   "[B0-----:R-:W1:-:S01] LDG.E R4, desc[UR4][R2.64] ;",
                                   "[B-1----:R-:W-:Y:S04] FADD R4, R4, R4 ;", kExit};
  PerfRun a(code, 256, 8), b(code, 256, 8);
  ASSERT_TRUE(a.r.ok && b.r.ok);
  EXPECT_EQ(a.r.cycles, b.r.cycles);
  EXPECT_EQ(a.r.warp_finish, b.r.warp_finish);
}

// Without control codes there is nothing to time: an error, not a number.
TEST(PerfModel, RefusesAnImageWithoutControlCodes) {
  KernelImage k;
  k.insts = {"EXIT ;"};
  GlobalMemory g;
  LaunchConfig cfg;
  cfg.perf = true;
  Emulator e(k, g);
  e.launch(cfg);
  PerfResult r = model_performance(k, e.code(), e.perf_trace(), cfg, T());
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("control codes"), std::string::npos) << r.error;
}
