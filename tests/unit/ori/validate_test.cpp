// The validator must accept well-formed Ori and name each broken invariant.
#include "test_util.h"

#include "ori/validate.h"

#include <gtest/gtest.h>

using namespace ptxmini::ori;
using namespace ptxmini::ori::test;

namespace {

const char *kValid = R"(kernel @k {
bb0:
  %r0 = S2R SR_TID.X
  %r2.64 = IMAD.WIDE.U32 %r0, 0x4, c[0x0][0x210]
  %p0 = ISETP.GE.U32.AND %r0, 0x20, PT
  @%p0 BRA done
body:
  %r3 = LDG.E [%r2.64+0x10]
  %r4 = FFMA -|%r3|, 0f3F800000, %r3
  STG.E [%r2.64], %r4
done:
  EXIT
}
)";

// Expects exactly one problem whose message contains `what`.
void expectOneError(const Function &f, const std::string &what) {
  std::vector<std::string> errs = validateFunction(f);
  ASSERT_EQ(errs.size(), 1u) << (errs.empty() ? "no error" : errs[0]) << " (wanted: " << what << ")";
  EXPECT_NE(errs[0].find(what), std::string::npos) << errs[0];
}

Function withBody(const std::string &body) {
  return parseFunction("func @f {\nbb0:\n" + body + "  EXIT\n}\n");
}

TEST(OriValidate, WellFormedFunctionHasNoErrors) {
  // Positive control: the checks below must not fire on correct code.
  Function f = parseFunction(kValid);
  EXPECT_TRUE(validateFunction(f).empty());
}

TEST(OriValidate, OperandCounts) {
  // IADD3 needs three sources; MOV has exactly one definition.
  expectOneError(withBody("  %r1 = MOV 0x1\n  %r2 = IADD3 %r1, %r1\n"), "expects 3 to 5 use(s), found 2");
  expectOneError(withBody("  %r1, %r2 = MOV 0x1\n"), "expects 1 definition(s), found 2");
}

TEST(OriValidate, RegisterClassesAndOperandKinds) {
  // ISETP writes predicates; LDG reads a memory address; BRA takes a label.
  expectOneError(withBody("  %r1 = MOV 0x1\n  %r2 = ISETP.GE.AND %r1, %r1, PT\n"),
                 "definition 0 must be a P register");
  expectOneError(withBody("  %r1 = MOV 0x1\n  %r2 = LDG.E %r1\n"), "use 0 must be a memory address");
  expectOneError(withBody("  %ur1 = MOV 0x1\n"), "definition 0 must be an R register");
  // A memory descriptor is a 64-bit uniform register pair.
  expectOneError(withBody("  %r1.64 = MOV 0x1\n  %r2 = LDG.E desc[%r1.64][%r1.64]\n"),
                 "use 0 must be a memory address");
  expectOneError(withBody("  %r1 = MOV 0x1\n  %r2 = SEL %r1, %r1, %r1\n"), "use 2 must be a P/UP register");
}

TEST(OriValidate, OperandModifiersWhereTheyMeanSomething) {
  // '!' negates predicates only; '-' does not apply to predicates.
  expectOneError(withBody("  %r1 = MOV 0x1\n  %r2 = MOV !%r1\n"), "'!' applies to predicate operands only");
  expectOneError(withBody("  %p1 = ISETP.GE.AND RZ, RZ, PT\n  %r2 = SEL RZ, RZ, -%p1\n"),
                 "apply to register and constant-bank sources only");
}

TEST(OriValidate, GuardMustBeAPredicate) {
  // The parser refuses a non-predicate guard, so break one in memory.
  Function f = parseFunction(kValid);
  uint32_t b0 = blockIndex(f, "bb0");
  f.blocks[b0].instrs.back().guard = Operand::vreg(RegClass::R, 0);
  expectOneError(f, "the guard must be a P/UP register");
}

TEST(OriValidate, RegisterTableAgreement) {
  // Operands must agree with the register table on width, and refer to declared registers.
  Function f = parseFunction(kValid);
  f.blocks[0].instrs[1].ops[1].width = 2; // %r0 read as 64-bit
  expectOneError(f, "is used with width 64 but the register table says 32");
  Function g = parseFunction(kValid);
  g.blocks[0].instrs[1].ops[1].reg = 99; // a number the table never saw
  expectOneError(g, "virtual register %r99 is not in the register table");
}

TEST(OriValidate, TerminatorsEndBlocks) {
  // EXIT in the middle of a block hides the rest of the block; the last block may not fall
  // off the end of the function.
  expectOneError(parseFunction("func @f {\nbb0:\n  EXIT\n  %r1 = MOV 0x1\n  EXIT\n}\n"),
                 "must be the last instruction of its block");
  expectOneError(parseFunction("func @f {\nbb0:\n  %r1 = MOV 0x1\n}\n"), "falls off the end");
  expectOneError(parseFunction("func @f {\nbb0:\n  %p0 = ISETP.GE.AND RZ, RZ, PT\n  @%p0 EXIT\n}\n"),
                 "falls off the end");
}

TEST(OriValidate, CfgMustMatchTerminators) {
  // A phase that edits branches without rebuilding the CFG leaves stale edges.
  Function f = parseFunction(kValid);
  uint32_t body = blockIndex(f, "body");
  f.blocks[0].succs.pop_back(); // drop the fall-through bb0 -> body
  std::vector<std::string> errs = validateFunction(f);
  bool sawSucc = false, sawPred = false;
  for (const std::string &e : errs) {
    sawSucc |= e.find("successor list does not match") != std::string::npos;
    sawPred |= e.find("predecessor bb0 does not list this block") != std::string::npos;
  }
  EXPECT_TRUE(sawSucc && sawPred) << errs.size();
  Function g = parseFunction(kValid);
  g.blocks[body].preds.clear();
  expectOneError(g, "does not list this block as a predecessor");
}

TEST(OriValidate, UsedRegistersMustBeDefined) {
  // %r7 is read but nothing writes it: a frontend bug the validator must catch.
  expectOneError(withBody("  %r1 = IADD3 %r7, 0x1, RZ\n"), "virtual register %r7 is used but never defined");
  // A guard and a memory base are reads too.
  expectOneError(withBody("  @%p3 %r1 = MOV 0x1\n"), "%p3 is used but never defined");
  expectOneError(withBody("  %r1 = LDG.E [%r5.64]\n"), "%r5 is used but never defined");
  expectOneError(withBody("  %r4.64 = MOV 0x0\n  %r1 = LDG.E desc[%ur6.64][%r4.64]\n"), "%ur6 is used but never defined");
}

} // namespace
