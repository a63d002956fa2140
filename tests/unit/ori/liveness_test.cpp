// Liveness: per-block live-in/live-out of virtual registers in non-SSA Ori.
#include "test_util.h"

#include "ori/analysis/liveness.h"

#include <gtest/gtest.h>

using namespace ptxmini::ori;
using namespace ptxmini::ori::test;

namespace {

bool liveIn(const Function &f, const Liveness &lv, const char *block, RegClass c, uint32_t n) {
  return lv.liveIn[blockIndex(f, block)].test(f.flatRegIndex(c, n));
}
bool liveOut(const Function &f, const Liveness &lv, const char *block, RegClass c, uint32_t n) {
  return lv.liveOut[blockIndex(f, block)].test(f.flatRegIndex(c, n));
}

TEST(OriLiveness, LoopCarriedValueIsLiveAroundTheLoop) {
  // %r0 (the counter) is read in the loop and redefined there: live into the header, out of
  // the latch and into the exit; %r1 is dead after the loop.
  Function g = parseFunction(R"(func @l {
entry:
  %r0 = MOV 0x0
  %r1 = MOV 0x5
  %r2.64 = IMAD.WIDE.U32 %r1, 0x4, c[0x0][0x210]
head:
  %r0 = IADD3 %r0, %r1, RZ
  %p0 = ISETP.LT.AND %r0, 0x10, PT
  @%p0 BRA head
exit:
  STG.E [%r2.64], %r0
  EXIT
}
)");
  Liveness lv = computeLiveness(g);
  EXPECT_FALSE(liveIn(g, lv, "entry", RegClass::R, 0)); // defined before any use
  EXPECT_TRUE(liveIn(g, lv, "head", RegClass::R, 0));
  EXPECT_TRUE(liveOut(g, lv, "head", RegClass::R, 0));   // back-edge and exit both read it
  EXPECT_TRUE(liveIn(g, lv, "head", RegClass::R, 1));    // read every iteration
  EXPECT_FALSE(liveIn(g, lv, "exit", RegClass::R, 1));   // no reads after the loop
  EXPECT_TRUE(liveIn(g, lv, "exit", RegClass::R, 2));    // memory base is a read
  EXPECT_FALSE(liveOut(g, lv, "head", RegClass::P, 0));  // consumed in the same block
  EXPECT_FALSE(liveOut(g, lv, "exit", RegClass::R, 0));  // nothing after EXIT
}

TEST(OriLiveness, GuardedAndPartialDefinitionsDoNotKill) {
  // A predicated write may not happen and a component write leaves the other half: in both
  // cases the old value flows through, so it is live into the block.
  Function f = parseFunction(R"(func @g {
entry:
  %r0 = MOV 0x0
  %r3.64 = IMAD.WIDE.U32 %r0, 0x4, RZ
  %p0 = ISETP.LT.AND %r0, 0x10, PT
next:
  @%p0 %r0 = MOV 0x1
  %r3.64[0] = MOV 0x2
  %r4 = IADD3 %r0, %r3.64[1], RZ
  EXIT
}
)");
  Liveness lv = computeLiveness(f);
  EXPECT_TRUE(liveIn(f, lv, "next", RegClass::R, 0));
  EXPECT_TRUE(liveIn(f, lv, "next", RegClass::R, 3));
  EXPECT_TRUE(liveIn(f, lv, "next", RegClass::P, 0)); // the guard is a read
  EXPECT_TRUE(liveOut(f, lv, "entry", RegClass::R, 0));
}

TEST(OriLiveness, FullUnguardedDefinitionKills) {
  // Redefining before reading makes the incoming value dead.
  Function f = parseFunction(R"(func @k {
entry:
  %r0 = MOV 0x0
next:
  %r0 = MOV 0x1
  %r1 = IADD3 %r0, %r0, RZ
  EXIT
}
)");
  Liveness lv = computeLiveness(f);
  EXPECT_FALSE(liveIn(f, lv, "next", RegClass::R, 0));
  EXPECT_FALSE(liveOut(f, lv, "entry", RegClass::R, 0));
}

TEST(OriLiveness, ValueLiveAcrossOnlyOneBranch) {
  // %r1 is read only on the taken side: live out of the branch block, live into `use`,
  // not live into `other`.
  Function f = parseFunction(R"(func @d {
entry:
  %r1 = MOV 0x7
  %p0 = ISETP.EQ.AND %r1, RZ, PT
  @%p0 BRA use
other:
  %r2 = MOV 0x0
  EXIT
use:
  %r2 = IADD3 %r1, 0x1, RZ
  EXIT
}
)");
  Liveness lv = computeLiveness(f);
  EXPECT_TRUE(liveOut(f, lv, "entry", RegClass::R, 1));
  EXPECT_TRUE(liveIn(f, lv, "use", RegClass::R, 1));
  EXPECT_FALSE(liveIn(f, lv, "other", RegClass::R, 1));
}

} // namespace
