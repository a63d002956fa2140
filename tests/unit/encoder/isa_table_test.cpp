// Unit tests for the sm_90 tables and the generic codec (encoder/isa_table.h, sass_codec.h).
#include "encoder/isa_table.h"
#include "encoder/sass_codec.h"

#include <gtest/gtest.h>

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
