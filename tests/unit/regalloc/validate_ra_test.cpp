// The allocation checker (regalloc/validate_ra.cpp) must accept a right assignment and
// reject wrong ones: two values live at once in one register, a value kept in a register a
// call clobbers, a value in a register a calling-convention copy overwrote. The allocator
// never produces these, so the checker is fed hand-made assignments.
#include "regalloc/regalloc_internal.h"

#include "ori/parse.h"

#include <gtest/gtest.h>

#include <sstream>

namespace ptxmini::ra {
namespace {

ori::Function parse(const std::string &text) {
  std::ostringstream err;
  DiagEngine diag("ori-test");
  diag.setStream(err);
  ori::Program p;
  EXPECT_TRUE(ori::parseProgram(text, "test.ori", diag, p)) << err.str();
  return p.functions.empty() ? ori::Function{} : p.functions[0];
}

/// Assignment with every R virtual register listed in `regs` (by number).
std::vector<std::vector<int32_t>> assign(const ori::Function &f, std::vector<int32_t> regs) {
  std::vector<std::vector<int32_t>> a(ori::kNumRegClasses);
  for (unsigned c = 0; c < ori::kNumRegClasses; ++c)
    a[c].assign(f.numRegs(static_cast<ori::RegClass>(c)), -1);
  for (size_t i = 0; i < regs.size() && i < a[0].size(); ++i)
    a[0][i] = regs[i];
  return a;
}

TEST(ValidateRA, AcceptsDistinctRegisters) {
  ori::Function f = parse(R"(kernel @k {
entry:
  %r0 = S2R SR_TID.X
  %r1 = S2R SR_TID.Y
  %r2 = IADD3 %r0, %r1, RZ
  %r3 = IADD3 %r2, %r0, RZ
  EXIT
}
)");
  EXPECT_TRUE(validateAllocation(f, Target::sm90(), assign(f, {0, 2, 3, 0})).empty());
  // %r2 may take %r1's register (its last read is the instruction that writes %r2).
  EXPECT_TRUE(validateAllocation(f, Target::sm90(), assign(f, {0, 2, 2, 0})).empty());
}

TEST(ValidateRA, RejectsTwoLiveValuesInOneRegister) {
  ori::Function f = parse(R"(kernel @k {
entry:
  %r0 = S2R SR_TID.X
  %r1 = S2R SR_TID.Y
  %r2 = IADD3 %r0, %r1, RZ
  EXIT
}
)");
  auto problems = validateAllocation(f, Target::sm90(), assign(f, {0, 0, 2}));
  ASSERT_FALSE(problems.empty());
  EXPECT_NE(problems[0].find("%r0 in R0"), std::string::npos) << problems[0];
}

TEST(ValidateRA, RejectsValueInClobberedRegisterAcrossCall) {
  ori::Function f = parse(R"(kernel @k {
entry:
  %r0 = S2R SR_TID.X
  R2 = MOV back
  CALL.REL.NOINC `(g)
back:
  %r1 = IADD3 %r0, 0x1, RZ
  EXIT
}
)");
  // No clobber set for g: every allocatable register changes.
  EXPECT_FALSE(validateAllocation(f, Target::sm90(), assign(f, {6, 7})).empty());
  // With g's set known to be {R2, R3, R4}, R6 survives but R4 does not.
  f.calleeClobbers.resize(1);
  ori::PhysRegSet s;
  for (uint32_t r : {2u, 3u, 4u})
    s.set(ori::RegClass::R, r);
  f.calleeClobbers[0] = s;
  EXPECT_TRUE(validateAllocation(f, Target::sm90(), assign(f, {6, 7})).empty());
  EXPECT_FALSE(validateAllocation(f, Target::sm90(), assign(f, {4, 7})).empty());
}

TEST(ValidateRA, RejectsValueOverwrittenByConventionCopy) {
  ori::Function f = parse(R"(func @f {
entry:
  %r0 = MOV R2
  %r1 = MOV R4
  R4 = MOV 0x7
  %r2 = IADD3 %r1, 0x1, RZ
  R2 = MOV %r0
  R3 = MOV RZ
  RET.REL.NODEC R2.64, 0x0
}
)");
  EXPECT_TRUE(validateAllocation(f, Target::sm90(), assign(f, {2, 5, 0})).empty());
  EXPECT_FALSE(validateAllocation(f, Target::sm90(), assign(f, {2, 4, 0})).empty());
}

TEST(ValidateRA, RejectsLoopCarriedConflict) {
  // %r0 is defined before the loop and read in it; %r1 is written in the loop. Sharing a
  // register is wrong even though the straight path looks fine.
  ori::Function f = parse(R"(kernel @k {
entry:
  %r0 = S2R SR_TID.X
  %r2 = MOV 0x0
loop:
  %r1 = IADD3 %r0, %r2, RZ
  %r2 = IADD3 %r1, 0x1, RZ
  %p0, PT = ISETP.LT.AND %r2, 0x10, PT
  @%p0 BRA loop
exit:
  EXIT
}
)");
  std::vector<std::vector<int32_t>> good = assign(f, {0, 2, 3});
  good[size_t(ori::RegClass::P)][0] = 0;
  EXPECT_TRUE(validateAllocation(f, Target::sm90(), good).empty());
  std::vector<std::vector<int32_t>> bad = assign(f, {0, 0, 3});
  bad[size_t(ori::RegClass::P)][0] = 0;
  EXPECT_FALSE(validateAllocation(f, Target::sm90(), bad).empty());
}

} // namespace
} // namespace ptxmini::ra
