// Bad Ori text must produce one ptxas-shaped diagnostic with the right line and column and
// never crash; random damage to valid text must never crash or hang either.
#include "test_util.h"

#include "ori/parse.h"
#include "ori/print.h"
#include "support/diag.h"

#include <gtest/gtest.h>

#include <random>
#include <sstream>

using namespace ptxmini;
using namespace ptxmini::ori;
using namespace ptxmini::ori::test;

namespace {

struct ErrorCase {
  const char *text;
  const char *message; // substring expected in the diagnostic
  unsigned line, column;
};

// Each case: which mistake, where it is, and what the user should be told.
const ErrorCase kCases[] = {
    {"func @f {\nbb0:\n  FOO %r1\n}\n", "unknown opcode 'FOO'", 3, 3},
    {"func @f {\nbb0:\n  %r1 = MOV.BOGUS 0x1\n}\n", "unknown modifier '.BOGUS'", 3, 13},
    {"func @f {\nbb0:\n  BRA nowhere\n}\n", "unknown block label 'nowhere'", 3, 7},
    {"func @f {\nbb0:\n  EXIT\nbb0:\n  EXIT\n}\n", "block 'bb0' is defined twice", 4, 1},
    {"func @f {\nb:\n  EXIT\n}\nfunc @f {\nb:\n  EXIT\n}\n", "function @f is defined twice", 5, 7},
    {"func @f {\nbb0:\n  %r1 = MOV 0x1\n  %r2 = MOV %r1.64\n  EXIT\n}\n", "has width 32 elsewhere but 64 here", 4, 13},
    {"func @f {\n  EXIT\n}\n", "instruction before the first block label", 2, 3},
    {"func @f {\nbb0:\n  EXIT\n", "is not closed with '}'", 1, 1},
    {"func @f {\nbb0:\n  EXIT [B------:R-:W9:Y:S04]\n}\n", "malformed control code", 3, 8},
    {"func @f {\nbb0:\n  EXIT [B------:R-:W0:Y:S99]\n}\n", "stall count must be 0-15", 3, 26},
    {"func @f {\nbb0:\n  %r1 = MOV 0f3F80\n}\n", "exactly 8 hex digits", 3, 13},
    {"func @f {\nbb0:\n  %q1 = MOV 0x1\n}\n", "unknown virtual register class '%q'", 3, 3},
    {"func @f {\nbb0:\n  @%r1 EXIT\n}\n", "a guard must be a predicate register", 3, 4},
    {"func @f {\nbb0:\n  %r1 = MOV 0x1ffffffffffffffff\n}\n", "integer constant too large", 3, 13},
    {"func @f {\nbb0:\n  EXIT junk junk\n}\n", "after the instruction", 3, 13},
    {"func @f {\n}\n", "function @f has no blocks", 2, 1},
    {"func @f {\nbb0:\n  %r1 = LDG [%r2\n}\n", "expected ']' to close the memory address", 3, 17},
    {"func @f {\nbb0:\n  %r1 = MOV R4.32\n}\n", "register width must be 64, 128 or 256", 3, 16},
    {"func @f {\nbb0:\n  %r1 = MOV %r2.64[2]\n}\n", "component 2 is outside the register", 3, 20},
    {"func @f {\nbb0:\n  EXIT {nosuchflag}\n}\n", "unknown instruction flag 'nosuchflag'", 3, 9},
    {"func @f {\nR5:\n  EXIT\n}\n", "is reserved and cannot name a block", 2, 1},
    {"garbage\n", "expected 'func' or 'kernel'", 1, 1},
    {"func @f {\nbb0:\n  %r1 = MOV c[0x0]\n}\n", "expected '][' in constant-bank reference", 3, 19},
    {"func @f {\nbb0:\n  %r1 = S2R SR_NOPE\n}\n", "unknown special register 'SR_NOPE'", 3, 13},
    {"func @f {\nbb0:\n  %r1 %r2 = MOV 0x1\n}\n", "expected ',' or '=' after a definition", 3, 7},
    {"func @f {\nbb0:\n  %r1 = LDG [%r2.64+0x80000000]\n}\n", "memory offset does not fit in 32 bits", 3, 13},
    {"func @f {\nbb0:\n  %r1 = LDG desc[%ur2.64[1]][%r2.64]\n}\n", "a memory descriptor must be a whole register", 3, 18},
    {"func @f {\nbb0:\n  %r1 = LDG desc[%ur2.64]%r2.64]\n}\n", "expected '][' after the memory descriptor", 3, 26},
};

TEST(OriParseErrors, EachMistakeIsReportedAtItsPlace) {
  for (const ErrorCase &c : kCases) {
    std::string err = parseError(c.text);
    SCOPED_TRACE(c.text);
    EXPECT_NE(err.find(c.message), std::string::npos) << err;
    // ptxas's shape: "<tool> <file>, line N; error   : msg (column C)"
    std::string where = "ori-test t.ori, line " + std::to_string(c.line) + "; error   : ";
    EXPECT_EQ(err.rfind(where, 0), 0u) << err;
    EXPECT_NE(err.find("(column " + std::to_string(c.column) + ")"), std::string::npos) << err;
    // Exactly one message: the parser stops at the first error.
    EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
  }
}

TEST(OriParseErrors, RandomDamageNeverCrashes) {
  // Mutate valid text at random (delete, duplicate, insert a special character); the parser
  // must either accept it (and then print a fixed point) or report an error.
  const std::string base = R"(kernel @k {
bb0:
  %r0 = S2R SR_TID.X
  %r2.64 = IMAD.WIDE.U32 %r0, 0x4, c[0x0][0x210]
  %p0, %p1 = ISETP.GE.U32.AND %r0, -0x1, !PT
  @!%p0 BRA done
  %r3 = LDG.E [%r2.64+0x10] {hoisted} [B0----5:R-:W1:Y:S04]
  %r4 = FFMA -|%r3|, 0f3F800000, ~%r3
  REDG.E.ADD desc[UR6.64][%r2.64-0x10], %r4
done:
  R4.64[1] = MOV UR4.reuse
  EXIT
}
)";
  std::mt19937 rng(1234);
  const char specials[] = "%@![]{}|~-+,.:=;0xfdR\n ";
  for (int iter = 0; iter < 3000; ++iter) {
    std::string t = base;
    int edits = 1 + static_cast<int>(rng() % 3);
    for (int e = 0; e < edits && !t.empty(); ++e) {
      size_t at = rng() % t.size();
      switch (rng() % 3) {
      case 0: t.erase(at, 1 + rng() % 4); break;
      case 1: t.insert(at, t.substr(rng() % t.size(), 1 + rng() % 6)); break;
      default: t.insert(at, 1, specials[rng() % (sizeof specials - 1)]); break;
      }
    }
    std::ostringstream errs;
    DiagEngine diag("fuzz");
    diag.setStream(errs);
    Program p;
    if (parseProgram(t, "t.ori", diag, p)) {
      std::string once = toString(p);
      Program p2;
      ASSERT_TRUE(parseProgram(once, "t2.ori", diag, p2)) << "printed text must parse:\n" << once;
      ASSERT_EQ(toString(p2), once) << "from mutated input:\n" << t;
    } else {
      ASSERT_TRUE(diag.hasErrors());
      ASSERT_NE(errs.str().find("error"), std::string::npos);
    }
  }
}

} // namespace
