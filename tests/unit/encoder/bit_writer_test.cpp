// Unit tests for encoder/bit_writer.h: named bit ranges over the 128-bit word.
#include "encoder/bit_writer.h"

#include <gtest/gtest.h>

using ptxmini::enc::BitRange;
using ptxmini::enc::Word128;

// A range inside the low qword writes only those bits and reads back what was written.
TEST(BitWriter, LowRangeRoundTrips) {
  Word128 w;
  ASSERT_TRUE(w.set(BitRange{16, 8}, 0xab));
  EXPECT_EQ(w.lo, 0xab0000ull);
  EXPECT_EQ(w.hi, 0u);
  EXPECT_EQ(w.get(BitRange{16, 8}), 0xabu);
}

// A range that straddles bit 64 splits its value over both qwords, low bits first.
TEST(BitWriter, StraddlingRangeSplitsAcrossQwords) {
  Word128 w;
  ASSERT_TRUE(w.set(BitRange{60, 8}, 0xff));
  EXPECT_EQ(w.lo, 0xf000000000000000ull);
  EXPECT_EQ(w.hi, 0xfull);
  EXPECT_EQ(w.get(BitRange{60, 8}), 0xffu);
}

// A value wider than the range is refused and leaves the word untouched.
TEST(BitWriter, RefusesValuesThatDoNotFit) {
  Word128 w{1, 2};
  EXPECT_FALSE(w.set(BitRange{0, 3}, 8));
  EXPECT_EQ(w, (Word128{1, 2}));
}

// Writing a range replaces its previous contents and keeps neighbouring bits.
TEST(BitWriter, OverwriteKeepsNeighbours) {
  Word128 w{~0ull, ~0ull};
  ASSERT_TRUE(w.set(BitRange{105, 4}, 0));
  EXPECT_EQ(w.get(BitRange{105, 4}), 0u);
  EXPECT_TRUE(w.bit(104));
  EXPECT_TRUE(w.bit(109));
}

// mask() covers exactly the range.
TEST(BitWriter, MaskCoversRange) {
  Word128 m = Word128::mask(BitRange{62, 4});
  EXPECT_EQ(m.lo, 0xc000000000000000ull);
  EXPECT_EQ(m.hi, 0x3ull);
}
