// Unit tests for the sm_90 tables and the generic codec (encoder/isa_table.h, sass_codec.h).
#include "encoder/isa_table.h"
#include "encoder/sass_codec.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace ptxmini::enc;

// Every row of the sm_90 table must parse: a malformed row is a table bug.
TEST(IsaTable, EverySm90RowParses) {
  const auto *t = ptxmini::targets::isaTablesFor(90);
  ASSERT_NE(t, nullptr);
  std::vector<std::string> errors;
  Isa isa(*t, errors);
  for (const auto &e : errors)
    ADD_FAILURE() << e;
  EXPECT_EQ(isa.forms().size(), t->forms.size());
}

// No template may claim bits of the opcode, guard or control block: those are family-wide.
TEST(IsaTable, TemplatesStayOutOfFixedFields) {
  const Isa *isa = Isa::forSm(90);
  ASSERT_NE(isa, nullptr);
  Word128 reserved = Word128::mask(ptxmini::volta::kOpcode) | Word128::mask(BitRange{12, 4}) |
                     Word128::mask(BitRange{105, 17});
  for (const auto &f : isa->forms())
    EXPECT_EQ(f.tmpl.owned & reserved, Word128{}) << "row " << f.row;
}

// Control annotations round-trip, and `Y` is printed exactly when bit 109 is 0.
TEST(Codec, ControlAnnotation) {
  ptxmini::volta::Control c;
  ASSERT_TRUE(parseControl("[B0-2---:R1:W3:Y:S04]", c));
  EXPECT_EQ(c.waitMask, 0b101u);
  EXPECT_EQ(c.readSb, 1u);
  EXPECT_EQ(c.writeSb, 3u);
  EXPECT_FALSE(c.yieldBit);
  EXPECT_EQ(c.stall, 4u);
  EXPECT_EQ(formatControl(c), "[B0-2---:R1:W3:Y:S04]");
  EXPECT_FALSE(parseControl("[B------:R-:W-:Y:S16]", c)); // stall has 4 bits
}

// Encoding then decoding gives the text back, and the guard lands in bits 12..15.
TEST(Codec, EncodeDecodeRoundTrip) {
  const Isa *isa = Isa::forSm(90);
  ASSERT_NE(isa, nullptr);
  for (const char *text : {"@!P2 IADD3 R1, R2, -0x20, RZ", "FFMA.FTZ R0, -R1, |R2|, R3",
                           "ISETP.GE.U32.AND P0, PT, R4, 0x7f, PT", "BRA 0x40"}) {
    Word128 w;
    std::string err;
    ASSERT_TRUE(encodeText(*isa, text, 0x100, w, err)) << err;
    auto back = decodeText(*isa, w, 0x100);
    ASSERT_TRUE(back.has_value()) << text;
    EXPECT_EQ(*back, text);
  }
  Word128 w;
  std::string err;
  ASSERT_TRUE(encodeText(*isa, "@!P2 NOP", 0, w, err));
  EXPECT_EQ(w.get(ptxmini::volta::kGuardPred), 2u);
  EXPECT_EQ(w.get(ptxmini::volta::kGuardNeg), 1u);
  EXPECT_FALSE(encodeText(*isa, "FROB R1, R2", 0, w, err));
  EXPECT_NE(err.find("FROB"), std::string::npos);
}

// Selecting conditions: `pow2` and `!=` rows pick nvdisasm's IMAD.SHL alias exactly where it
// prints it (powers of two except 0x10000 and 0x80000000, observed), and the assembler
// accepts the alias only where the decoder would print it.
TEST(Codec, AliasConditions) {
  const Isa *isa = Isa::forSm(90);
  ASSERT_NE(isa, nullptr);
  Word128 w;
  std::string err;
  ASSERT_TRUE(encodeText(*isa, "IMAD.U32 R6, R0, 0x3, RZ", 0, w, err)) << err;
  EXPECT_EQ(decodeText(*isa, w, 0).value_or(""), "IMAD.U32 R6, R0, 0x3, RZ");
  ASSERT_TRUE(encodeText(*isa, "IMAD.SHL.U32 R6, R0, 0x4, RZ", 0, w, err)) << err;
  EXPECT_EQ(decodeText(*isa, w, 0).value_or(""), "IMAD.SHL.U32 R6, R0, 0x4, RZ");
  EXPECT_FALSE(encodeText(*isa, "IMAD.SHL.U32 R6, R0, 0x10000, RZ", 0, w, err));
  ASSERT_TRUE(encodeText(*isa, "IMAD.U32 R6, R0, 0x10000, RZ", 0, w, err)) << err;
  EXPECT_EQ(decodeText(*isa, w, 0).value_or(""), "IMAD.U32 R6, R0, 0x10000, RZ");
}

// sm_80 (and sm_86, which shares its tables; sm_89 differs in a spelling) is an overlay: its rows parse, the family
// rows of the opcodes it replaces are gone, and no template claims a fixed field.
TEST(IsaTable, Sm80OverlayParses) {
  const auto *t = ptxmini::targets::isaTablesFor(80);
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(ptxmini::targets::isaTablesFor(86), t);
  ASSERT_NE(ptxmini::targets::isaTablesFor(89), nullptr); // sm_80's rows, F2FP spelled as sm_90
  EXPECT_EQ(ptxmini::targets::isaTablesFor(75), nullptr); // no tables yet: refused, not guessed
  std::vector<std::string> errors;
  Isa isa(*t, errors);
  for (const auto &e : errors)
    ADD_FAILURE() << e;
  size_t replaced = 0;
  for (const auto &r : t->shared)
    replaced += std::count(t->replaced.begin(), t->replaced.end(), r.opcode) != 0;
  EXPECT_GT(replaced, 0u);
  EXPECT_EQ(isa.forms().size(), t->forms.size() + t->shared.size() - replaced);
  Word128 reserved = Word128::mask(ptxmini::volta::kOpcode) | Word128::mask(BitRange{12, 4}) |
                     Word128::mask(BitRange{105, 17});
  for (const auto &f : isa.forms())
    EXPECT_EQ(f.tmpl.owned & reserved, Word128{}) << "row " << f.row;
}

// The branch target differs: sm_80 keeps the whole offset in bits 34..81 (sm_90 splits it
// with bits 16..23), so the same text gives different words and each decodes back.
TEST(Codec, Sm80BranchTargetLayout) {
  const Isa *i80 = Isa::forSm(80), *i90 = Isa::forSm(90);
  ASSERT_NE(i80, nullptr);
  ASSERT_NE(i90, nullptr);
  Word128 w80, w90;
  std::string err;
  ASSERT_TRUE(encodeText(*i80, "BRA 0x230", 0x100, w80, err)) << err;
  ASSERT_TRUE(encodeText(*i90, "BRA 0x230", 0x100, w90, err)) << err;
  EXPECT_EQ(w80.get(BitRange{16, 8}), 0u);
  EXPECT_NE(w80, w90);
  EXPECT_EQ(decodeText(*i80, w80, 0x100).value_or(""), "BRA 0x230");
  EXPECT_EQ(decodeText(*i90, w90, 0x100).value_or(""), "BRA 0x230");
}
