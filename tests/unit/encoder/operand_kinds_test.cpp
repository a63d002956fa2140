// Unit tests for the operand kinds of the template language (encoder/sass_template.h):
// every kind must print what nvdisasm prints and match its own text back to the same bits.
#include "encoder/sass_template.h"
#include "targets/common/volta_word.h"

#include <gtest/gtest.h>

using namespace ptxmini::enc;

namespace {
Template parse(const char *text) {
  std::string err;
  auto t = parseTemplate(text, err);
  EXPECT_TRUE(t.has_value()) << err;
  return t ? *t : Template{};
}
// Matches `text`, checks the field values via `check`, and that rendering gives `text` back.
Word128 roundTrip(const Template &t, const std::string &text, uint64_t pc = 0) {
  TemplateEnv env{nullptr, pc};
  Word128 w;
  EXPECT_TRUE(match(t, text, env, w)) << text;
  auto back = render(t, w, env);
  EXPECT_TRUE(back.has_value());
  EXPECT_EQ(back.value_or(""), text);
  return w;
}
} // namespace

// GPRs: the all-ones value is RZ; decorations set their own bits.
TEST(OperandKinds, GprAndDecorations) {
  Template t = parse("OP {R@16}, {R@24 -72 |73}");
  Word128 w = roundTrip(t, "OP RZ, -|R7|.reuse");
  EXPECT_EQ(w.get(BitRange{16, 8}), ptxmini::volta::kRZ);
  EXPECT_EQ(w.get(BitRange{24, 8}), 7u);
  EXPECT_TRUE(w.bit(72) && w.bit(73));
  EXPECT_TRUE(w.bit(ptxmini::volta::kReuseBitA)); // R@24 reuses through bit 122
  roundTrip(t, "OP R3, R200");
}

// Uniform registers (URZ = 63) and predicates (PT = 7) with their not-bit.
TEST(OperandKinds, UniformRegistersAndPredicates) {
  Template t = parse("OP {UR@16}, {P@81}, {UP@84 !90}");
  Word128 w = roundTrip(t, "OP URZ, PT, !UP2");
  EXPECT_EQ(w.get(BitRange{16, 6}), ptxmini::volta::kURZ);
  EXPECT_EQ(w.get(BitRange{81, 3}), ptxmini::volta::kPT);
  EXPECT_TRUE(w.bit(90));
  // A register number that does not fit the field is not this form.
  Word128 x;
  EXPECT_FALSE(match(t, "OP UR64, PT, UP0", TemplateEnv{}, x));
}

// Integer immediates: hex, signed ones print negative values with '-'.
TEST(OperandKinds, IntegerImmediates) {
  Template t = parse("OP {I@32/32 s}");
  Word128 w = roundTrip(t, "OP -0x20");
  EXPECT_EQ(w.get(BitRange{32, 32}), 0xffffffe0u);
  Template u = parse("OP {I@32/32}");
  roundTrip(u, "OP 0xffffffe0");
  Word128 x;
  EXPECT_FALSE(match(u, "OP 0x100000000", TemplateEnv{}, x)); // wider than the field
  EXPECT_FALSE(match(u, "OP 32", TemplateEnv{}, x));          // nvdisasm never prints decimal here
}

// Float immediates: f32 as %.20g, f64 by its upper half, f16 pairs.
TEST(OperandKinds, FloatImmediates) {
  Word128 w = roundTrip(parse("OP {F@32}"), "OP 0.5");
  EXPECT_EQ(w.get(BitRange{32, 32}), 0x3f000000u);
  roundTrip(parse("OP {F@32}"), "OP -1.5707962512969970703");
  roundTrip(parse("OP {F@32}"), "OP +INF");
  // nvdisasm switches to the exponent form at a magnitude of 1e9 (probed on FMUL)
  roundTrip(parse("OP {F@32}"), "OP 999999936");
  roundTrip(parse("OP {F@32}"), "OP -1.00000000000000000000e+09");
  w = roundTrip(parse("OP {D@32}"), "OP 1");
  EXPECT_EQ(w.get(BitRange{32, 32}), 0x3ff00000u);
  roundTrip(parse("OP {D@32}"), "OP 6.75539944105574400000e+15");
  w = roundTrip(parse("OP {H@48}, {H@32}"), "OP 1.875, 0");
  EXPECT_EQ(w.get(BitRange{48, 16}), 0x3f80u);
  // bf16 halves print as the f32 they are the upper half of (nvdisasm on ptxas's
  // HMUL2.BF16_V2 R3, R6, 0.25, 0.25 and HADD2.BF16_V2's 0x3728).
  w = roundTrip(parse("OP {BH@48}, {BH@32}"), "OP 0.25, 1.0013580322265625e-05");
  EXPECT_EQ(w.get(BitRange{48, 16}), 0x3e80u);
  EXPECT_EQ(w.get(BitRange{32, 16}), 0x3728u);
  Word128 x;
  EXPECT_FALSE(match(parse("OP {BH@32}"), "OP 0.1", TemplateEnv{}, x)); // not a bf16 value
}

// Scoreboard sets: highest first, no spaces as nvdisasm prints them; canonical spacing
// (", ") matches too; not descending or empty is not this form.
TEST(OperandKinds, ScoreboardSet) {
  Template t = parse("DEPBAR {SB@32/6}");
  Word128 w = roundTrip(t, "DEPBAR {5,4,3,2,1,0}");
  EXPECT_EQ(w.get(BitRange{32, 6}), 0x3fu);
  Word128 x;
  EXPECT_TRUE(match(t, "DEPBAR {5, 1}", TemplateEnv{}, x));
  EXPECT_EQ(x.get(BitRange{32, 6}), 0x22u);
  EXPECT_FALSE(match(t, "DEPBAR {1,5}", TemplateEnv{}, x));
  EXPECT_FALSE(match(t, "DEPBAR {6}", TemplateEnv{}, x));
  EXPECT_FALSE(match(t, "DEPBAR {}", TemplateEnv{}, x));
}

// Constant-bank operands: bank and signed byte offset as nvdisasm spells them.
TEST(OperandKinds, ConstantBank) {
  Word128 w = roundTrip(parse("OP c[{I@54/5}][{I@38/16 s}]"), "OP c[0x3][0x210]");
  EXPECT_EQ(w.get(BitRange{54, 5}), 3u);
  EXPECT_EQ(w.get(BitRange{38, 16}), 0x210u);
}

// Addresses: GPR with .64, uniform register and offset, each omitted when zero.
TEST(OperandKinds, Addresses) {
  Template t = parse("OP [{A@ R@24 UR@32 X@90 I@40/24}]");
  Word128 w = roundTrip(t, "OP [R4.64+UR6+-0x10]");
  EXPECT_EQ(w.get(BitRange{24, 8}), 4u);
  EXPECT_TRUE(w.bit(90));
  EXPECT_EQ(w.get(BitRange{32, 6}), 6u);
  EXPECT_EQ(w.get(BitRange{40, 24}), 0xfffff0u);
  roundTrip(t, "OP [R8]");
  w = roundTrip(t, "OP [0x40]");
  EXPECT_EQ(w.get(BitRange{24, 8}), ptxmini::volta::kRZ); // an absent GPR is RZ
}

// Branch targets: absolute address in the text, pc-relative 4-byte units in the word,
// split over two ranges (low part first).
TEST(OperandKinds, BranchTargets) {
  Template t = parse("BRA {T@16/8,34/48}");
  Word128 w = roundTrip(t, "BRA 0x1a0", 0x1a0); // a branch to itself: offset -16 bytes
  EXPECT_EQ(w.get(BitRange{16, 8}), 0xfcu);
  EXPECT_EQ(w.get(BitRange{34, 48}), (1ull << 48) - 1);
  roundTrip(t, "BRA 0x10000", 0x40);
}

// Enumerated modifiers and flags: value k prints alternative k; '?' values do not decode.
TEST(OperandKinds, EnumsAndFlags) {
  Template t = parse("ISETP{E@76/3 .F|.LT|.EQ|.LE|.GT|.NE|.GE|.T}{E@74/2 .AND|.OR|.XOR|?}{?72 .EX}");
  Word128 w = roundTrip(t, "ISETP.GE.OR.EX");
  EXPECT_EQ(w.get(BitRange{76, 3}), 6u);
  EXPECT_EQ(w.get(BitRange{74, 2}), 1u);
  EXPECT_TRUE(w.bit(72));
  Word128 bad;
  bad.set(BitRange{74, 2}, 3);
  EXPECT_FALSE(render(t, bad, TemplateEnv{}).has_value());
}

// Control annotations are the family-wide block; canonical spacing is nvdisasm's.
TEST(OperandKinds, SpacingIsCanonical) {
  EXPECT_EQ(canonicalSpacing("  IADD3  R1 ,R2,   R3 "), "IADD3 R1, R2, R3");
  EXPECT_EQ(canonicalSpacing("FSETP.GT.AND P1, PT, |R6|, +INF , PT"), "FSETP.GT.AND P1, PT, |R6|, +INF, PT");
}

// Inverted register fields (`^7`): LDG's optional predicate stores 7 - n, so 0 is PT.
TEST(OperandKinds, InvertedPredicateField) {
  Word128 w = roundTrip(parse("OP {P@64 ^7 !67}"), "OP P1");
  EXPECT_EQ(w.get(BitRange{64, 3}), 6u);
  w = roundTrip(parse("OP {P@64 ^7 !67}"), "OP !PT");
  EXPECT_EQ(w.get(BitRange{64, 3}), 0u);
  EXPECT_TRUE(w.bit(67));
}

// An immediate split over two ranges (PLOP3's lut: low 3 bits at 64, high 5 at 72).
TEST(OperandKinds, SplitImmediate) {
  Word128 w = roundTrip(parse("OP {I@64/3,72/5}"), "OP 0x8a");
  EXPECT_EQ(w.get(BitRange{64, 3}), 0x2u);
  EXPECT_EQ(w.get(BitRange{72, 5}), 0x11u);
}

// Byte-unit targets (LEPC) and addresses that always print their uniform register.
TEST(OperandKinds, ByteTargetsAndForcedUniformRegister) {
  Word128 w = roundTrip(parse("LEPC {T@24/58 b}"), "LEPC 0x181", 0x100);
  EXPECT_EQ(w.get(BitRange{24, 58}), 0x71u); // 0x181 - (0x100 + 16)
  Template t = parse("OP [{A@ R@24 UR@64 U! I@40/24}]");
  w = roundTrip(t, "OP [R9+URZ]");
  EXPECT_EQ(w.get(BitRange{64, 6}), ptxmini::volta::kURZ);
  roundTrip(t, "OP [UR4+0x10]");
}
