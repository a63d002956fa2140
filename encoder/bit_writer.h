//===- encoder/bit_writer.h - 128-bit instruction words and named bit ranges ------------===//
///
/// \file
/// A Word128 is one Volta+ instruction word: 16 bytes, little-endian, printed by cuobjdump
/// and nvdisasm as the low qword then the high qword. A BitRange names `width` bits starting
/// at bit `lo` (0 = least significant bit of the low qword); a range may straddle the
/// 64-bit boundary. get/set are the only way the encoder touches bits: the tables say
/// *which* range, this file says *how*. No knowledge of any SM lives here.
//===----------------------------------------------------------------------------------===//
#pragma once

#include <cstdint>

namespace ptxmini::enc {

struct BitRange {
  uint16_t lo = 0;    ///< first bit (0..127)
  uint16_t width = 0; ///< number of bits (1..64); 0 = absent
  constexpr bool valid() const { return width != 0 && width <= 64 && lo + width <= 128; }
  constexpr uint64_t maxValue() const { return width >= 64 ? ~0ULL : (1ULL << width) - 1; }
};

struct Word128 {
  uint64_t lo = 0;
  uint64_t hi = 0;

  bool operator==(const Word128 &) const = default;

  bool bit(unsigned i) const { return ((i < 64 ? lo >> i : hi >> (i - 64)) & 1) != 0; }
  void setBit(unsigned i, bool v) {
    uint64_t &q = i < 64 ? lo : hi;
    uint64_t m = 1ULL << (i & 63);
    q = v ? (q | m) : (q & ~m);
  }

  /// The value of range `r`, bit r.lo in the least significant position.
  uint64_t get(BitRange r) const {
    uint64_t v = 0;
    for (unsigned i = 0; i < r.width; ++i)
      v |= uint64_t(bit(r.lo + i)) << i;
    return v;
  }
  /// Writes the low r.width bits of `v` into range `r`; returns false (and writes nothing)
  /// when `v` does not fit.
  bool set(BitRange r, uint64_t v) {
    if (!r.valid() || (v & ~r.maxValue()) != 0)
      return false;
    for (unsigned i = 0; i < r.width; ++i)
      setBit(r.lo + i, ((v >> i) & 1) != 0);
    return true;
  }
  /// A word with the bits of `r` set: a mask for match/ownership bookkeeping.
  static Word128 mask(BitRange r) {
    Word128 w;
    for (unsigned i = 0; i < r.width; ++i)
      w.setBit(r.lo + i, true);
    return w;
  }
  Word128 operator|(const Word128 &o) const { return {lo | o.lo, hi | o.hi}; }
  Word128 operator&(const Word128 &o) const { return {lo & o.lo, hi & o.hi}; }
  Word128 operator~() const { return {~lo, ~hi}; }
  Word128 operator^(const Word128 &o) const { return {lo ^ o.lo, hi ^ o.hi}; }
};

} // namespace ptxmini::enc
