// The scheduling tables (targets/sm_90/sass_ops.def, latencies.def) agree with Ori's opcode
// table and cover what the scheduler asks.
#include "targets/target.h"

#include <gtest/gtest.h>

#include <set>

using namespace ptxmini;

// Every Ori opcode the SASS table knows has the same latency class and variable-latency flag
// in both tables (ori/opcodes.def keeps its own column for readers of the IR).
TEST(SchedTables, OriAndSassTablesAgree) {
  const Target &t = Target::sm90();
  for (unsigned i = 0; i < static_cast<unsigned>(ori::Opcode::NumOpcodes); ++i) {
    const ori::OpcodeInfo &oi = ori::opcodeInfo(static_cast<ori::Opcode>(i));
    const SassOpInfo *so = t.sassOp(oi.name);
    ASSERT_NE(so, nullptr) << oi.name << " has no row in sass_ops.def";
    EXPECT_EQ(so->cls, oi.latClass) << oi.name;
    EXPECT_EQ(so->has(OP_VLAT), oi.has(ori::OF_VLAT)) << oi.name;
  }
}

TEST(SchedTables, RowsAreUnique) {
  std::set<std::string_view> seen;
  for (const SassOpInfo &o : sm90SchedTables().ops)
    EXPECT_TRUE(seen.insert(o.mnemonic).second) << o.mnemonic;
}

// The classes ptxas-mini emits most have measured cells (not the fallback).
TEST(SchedTables, MainPairsAreMeasured) {
  const Target &t = Target::sm90();
  using L = ori::LatClass;
  using R = ori::RegClass;
  unsigned fb = sm90SchedTables().fallbackLatency;
  for (L w : {L::Alu, L::Imad, L::Fp32, L::ImadWide})
    for (L r : {L::Alu, L::Imad, L::Fp32, L::Mem, L::Shared})
      EXPECT_LT(t.rawLatency(w, r, R::R, ReadKind::Src), fb)
          << ori::latClassName(w) << " -> " << ori::latClassName(r);
  EXPECT_EQ(t.rawLatency(L::Fp32, L::Fp32, R::R, ReadKind::Src), 4u);
  // A branch guard reads a compare's predicate within the published 13 cycles (ptxas leaves
  // 13 almost always; 2 of 90,783 corpus pairs leave 9, and the table takes ptxas's minimum).
  EXPECT_LE(t.rawLatency(L::Alu, L::Branch, R::P, ReadKind::Guard), 13u);
  EXPECT_GE(t.rawLatency(L::Alu, L::Branch, R::P, ReadKind::Guard), 4u);
  EXPECT_GE(t.issue().scoreboardSetDelay, 2u);
}

// A later writer of another class waits at most the older class's largest latency, never for
// its own class, and an ISETP followed by a PLOP3 writing the same predicate does not wait
// (every reader measured for both classes reads them equally fast).
TEST(SchedTables, WawDistance) {
  const Target &t = Target::sm90();
  using L = ori::LatClass;
  using R = ori::RegClass;
  for (unsigned o = 0; o < ori::kNumLatClasses; ++o)
    for (unsigned n = 0; n < ori::kNumLatClasses; ++n)
      for (R f : {R::R, R::P, R::UR, R::UP}) {
        L lo = static_cast<L>(o), ln = static_cast<L>(n);
        EXPECT_LE(t.wawDistance(lo, ln, f), t.maxRawLatency(lo, f));
        if (o == n) {
          EXPECT_EQ(t.wawDistance(lo, ln, f), 0u) << ori::latClassName(lo);
        }
      }
  EXPECT_EQ(t.wawDistance(L::Alu, L::PredOp, R::P), 0u);
}
