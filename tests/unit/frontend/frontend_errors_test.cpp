//===- tests/unit/frontend/frontend_errors_test.cpp - refusals in ptxas's words --------===//
//
// Each case: what ptxas 13.0.88 says for the same input (probed with
// `ptxas -arch=sm_90 f.ptx`), checked for message, line and that no module comes back.
//===----------------------------------------------------------------------------------===//
#include "test_util.h"

using namespace ptxmini;
using ptxmini::testing::kBodyLine;
using ptxmini::testing::kernel;
using ptxmini::testing::parse;

namespace {

std::string at(unsigned line, const std::string &sev, const std::string &msg) {
  return "t.ptx, line " + std::to_string(line) + "; " + sev + ": " + msg;
}

void expectRefused(const ptxmini::testing::ParseRun &r, const std::string &needle) {
  EXPECT_FALSE(r.module);
  EXPECT_GT(r.errors, 0u);
  EXPECT_NE(r.diags.find(needle), std::string::npos) << "want: " << needle << "\ngot:\n"
                                                     << r.diags;
}

} // namespace

// The reference kernel itself is clean, so every failure below comes from the one change.
TEST(FrontendErrors, BaselineIsClean) {
  auto r = parse(kernel("  add.s32 %r1, %r2, 1;"));
  EXPECT_TRUE(r.module) << r.diags;
  EXPECT_EQ(r.diags, "");
}

TEST(FrontendErrors, SyntaxErrorNamesTokenAndLine) {
  expectRefused(parse(kernel("  add.s32 %r1, %r2, 1 1;")),
                at(kBodyLine, "fatal   ", "Parsing error near '1': syntax error"));
}

TEST(FrontendErrors, UnknownSymbolAndLabel) {
  expectRefused(parse(kernel("  add.s32 %r1, %r9, 1;")),
                at(kBodyLine, "error   ", "Unknown symbol '%r9'"));
  expectRefused(parse(kernel("  bra $L_nowhere;")),
                at(kBodyLine, "error   ", "Unknown symbol '$L_nowhere'"));
}

TEST(FrontendErrors, Duplicates) {
  expectRefused(parse(kernel("  .reg .b32 %r3;")),
                at(kBodyLine, "error   ", "Duplicate definition of variable '%r3'"));
  expectRefused(parse(kernel("$L:\n$L:")),
                at(kBodyLine + 1, "error   ", "Duplicate definition of label '$L'"));
}

// Operand count, register width and kind against the instruction type.
TEST(FrontendErrors, ArgumentsMismatch) {
  const std::string msg = "Arguments mismatch for instruction 'add'";
  expectRefused(parse(kernel("  add.s32 %r1, %r2;")), msg);       // count
  expectRefused(parse(kernel("  add.s32 %r1, %r2, %rd1;")), msg);  // width
  expectRefused(parse(kernel("  add.u32 %r1, %r2, %f1;")), msg);   // f32 into an integer op
  expectRefused(parse(kernel("  add.f32 %f1, %f2, 1;")), msg);     // integer immediate
  expectRefused(parse(kernel("  ld.global.u64 %r1, [%rd1];")),
                "Arguments mismatch for instruction 'ld'");          // narrower destination
  // ...while the compatible forms ptxas accepts are accepted.
  EXPECT_TRUE(parse(kernel("  add.f32 %f1, %r2, %f1;")).module);     // .b32 register
  EXPECT_TRUE(parse(kernel("  ld.global.u8 %r1, [%rd1];")).module);  // wider destination
  EXPECT_TRUE(parse(kernel("  mov.b64 %rd1, {%r1, %r2};")).module);  // packing
}

TEST(FrontendErrors, UnknownInstructionAndModifier) {
  expectRefused(parse(kernel("  foo.s32 %r1, %r2, 1;")),
                "Not a name of any known instruction: 'foo'");
  expectRefused(parse(kernel("  st.foo.u32 [%rd1], %r1;")), "Unknown modifier '.foo'");
  expectRefused(parse(kernel("  and.f32 %f1, %f2, %f3;")),
                "Unexpected instruction types specified for 'and'");
}

TEST(FrontendErrors, StateSpaceMismatch) {
  std::string text = ".version 8.0\n.target sm_90\n.address_size 64\n.shared .u32 s;\n"
                     ".entry k()\n{\n .reg .b32 %r;\n ld.global.u32 %r, [s];\n ret;\n}\n";
  expectRefused(parse(text),
                at(8, "error   ",
                   "State space mismatch between instruction and address in instruction 'ld'"));
}

// .target/.version feature gates.
TEST(FrontendErrors, FeatureRequirements) {
  expectRefused(parse(kernel("  wgmma.fence.sync.aligned;")),
                "Instruction 'wgmma.fence' not supported on .target 'sm_90'");
  EXPECT_TRUE(parse(kernel("  wgmma.fence.sync.aligned;", "sm_90a"), "sm_90a").module);
  expectRefused(parse(kernel("  elect.sync %r1|%p1, 0xffffffff;", "sm_90", "7.8")),
                "Feature 'elect' requires PTX ISA .version 8.0 or later");
  expectRefused(parse(kernel("  redux.sync.add.u32 %r1, %r2, 0xffffffff;", "sm_75"), "sm_75"),
                "Feature 'redux' requires .target sm_80 or higher");
  expectRefused(parse(kernel("", "sm_90", "7.5")),
                at(2, "error   ", "PTX .version 7.5 does not support .target sm_90"));
}

TEST(FrontendErrors, HeaderFatals) {
  // ptxas reports it at the second top-level item (line 2 here)
  auto noVersion = parse(".target sm_90\n.entry k()\n{\n ret;\n}\n");
  EXPECT_TRUE(noVersion.fatal);
  EXPECT_NE(noVersion.diags.find(at(2, "fatal   ", "Missing .version directive at start of file 't.ptx'")),
            std::string::npos)
      << noVersion.diags;
  auto badVersion = parse(kernel("", "sm_90", "9.9"));
  EXPECT_TRUE(badVersion.fatal);
  EXPECT_NE(badVersion.diags.find("Unsupported .version 9.9; current version is '9.0'"),
            std::string::npos);
  auto badTarget = parse(kernel("", "sm_99"));
  EXPECT_TRUE(badTarget.fatal);
  EXPECT_NE(badTarget.diags.find(at(2, "fatal   ", "Unsupported .target 'sm_99'")),
            std::string::npos);
  // -arch lower than .target
  auto higher = parse(kernel("", "sm_90"), "sm_80");
  EXPECT_TRUE(higher.fatal);
  EXPECT_NE(higher.diags.find("SM version specified by .target is higher than default SM "
                              "version assumed"),
            std::string::npos);
  auto archA = parse(kernel("", "sm_90a", "8.0"), "sm_90");
  EXPECT_TRUE(archA.fatal);
  EXPECT_NE(archA.diags.find("PTX with .target 'sm_90a' cannot be compiled for architecture "
                             "'sm_90'"),
            std::string::npos);
}

// Several errors per run, in order, and no more than maxErrors.
TEST(FrontendErrors, SeveralErrorsBounded) {
  std::string body;
  for (int i = 0; i < 50; ++i)
    body += "  add.s32 %r1, %nope" + std::to_string(i) + ", 1;\n";
  auto r = parse(kernel(body), "sm_90", /*maxErrors=*/7);
  EXPECT_FALSE(r.module);
  EXPECT_EQ(r.errors, 7u);
  // Each line is two errors (ptxas 13.0.88): the operand check's, then, after all of those,
  // the unknown name's.
  size_t mismatch = r.diags.find("Arguments mismatch for instruction 'add'");
  size_t unknown = r.diags.find("Unknown symbol '%nope0'");
  EXPECT_NE(mismatch, std::string::npos);
  EXPECT_NE(unknown, std::string::npos);
  EXPECT_LT(mismatch, unknown);
  EXPECT_EQ(r.diags.find("Unknown symbol '%nope7'"), std::string::npos);
}

// Hostile input: refused with a message, never a crash or a hang.
TEST(FrontendErrors, HostileInput) {
  std::string deep = kernel(std::string(100000, '{') + std::string(100000, '}'));
  auto r = parse(deep);
  EXPECT_FALSE(r.module);
  EXPECT_NE(r.diags.find("Parsing error"), std::string::npos);
  std::string junk = ".version 8.0\n.target sm_90\n";
  for (int c = 0; c < 256; ++c)
    junk += static_cast<char>(c);
  auto j = parse(junk);
  EXPECT_FALSE(j.module);
  EXPECT_GT(j.errors, 0u);
  auto minus = parse(kernel("  add.s32 %r1, %r2, " + std::string(50000, '-') + "1;"));
  EXPECT_TRUE(minus.module) << "an even number of unary minuses folds to 1";
}
