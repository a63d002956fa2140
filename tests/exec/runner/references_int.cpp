/* references_int.cpp - C++ references of the integer-family execution tests (int32_ops,
 * int64_ops, int16_ops, int_div). Each helper states the PTX ISA definition of one
 * instruction in plain C++ (independently of how ptxas or ptxas-mini select it); division by
 * zero follows what ptxas's code yields (all ones), the one place PTX leaves the result
 * unspecified. Registered in references.cpp's table. */
#include "tests/exec/runner/test_desc.h"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>

namespace ptxmini::exec {
namespace {

using u8 = uint8_t;
using u16 = uint16_t;
using u32 = uint32_t;
using u64 = uint64_t;
using i16 = int16_t;
using i32 = int32_t;
using i64 = int64_t;

// ---- 32-bit helpers ------------------------------------------------------------------------
u32 sat32(i64 v) { return static_cast<u32>(v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : v); }
i32 sx(u32 v) { return static_cast<i32>(v); }
u32 sext(u32 v, int bits) { u32 m = bits >= 32 ? ~0u : (1u << bits) - 1; v &= m; return (bits < 32 && (v >> (bits - 1) & 1)) ? v | ~m : v; }
u32 zext(u32 v, int bits) { return bits >= 32 ? v : v & ((1u << bits) - 1); }

u32 bfind32(u32 v, bool sgn, bool shiftamt) {
  if (sgn && sx(v) < 0) v = ~v;
  if (v == 0) return 0xffffffffu;
  u32 pos = 31 - static_cast<u32>(std::countl_zero(v));
  return shiftamt ? 31 - pos : pos;
}
u32 brev32(u32 v) { u32 r = 0; for (int i = 0; i < 32; ++i) r |= (v >> i & 1) << (31 - i); return r; }

// bfe (PTX ISA): pos = b[7:0], len = c[7:0]; bits beyond the source's msb read as the sign.
u64 bfe(u64 a, u32 b, u32 c, int msb, bool sgn) {
  u32 pos = b & 0xff, len = c & 0xff;
  u64 sbit = 0;
  if (sgn && len != 0) sbit = a >> std::min<u32>(pos + len - 1, static_cast<u32>(msb)) & 1;
  u64 d = 0;
  for (int i = 0; i <= msb; ++i) {
    u64 bit = (static_cast<u32>(i) < len && pos + static_cast<u32>(i) <= static_cast<u32>(msb)) ? a >> (pos + i) & 1 : sbit;
    d |= bit << i;
  }
  return d;
}
// bfi (PTX ISA): d = b with len bits of f inserted at pos (as far as they fit).
u64 bfi(u64 f, u64 b, u32 pos0, u32 len0, int msb) {
  u32 pos = pos0 & 0xff, len = len0 & 0xff;
  u64 d = b;
  for (u32 i = 0; i < len && pos + i <= static_cast<u32>(msb); ++i)
    d = (d & ~(u64{1} << (pos + i))) | ((f >> i & 1) << (pos + i));
  return d;
}

u32 prmt(u32 a, u32 b, u32 c, int mode) {
  static const u8 kModes[6][4][4] = {
      {{0, 1, 2, 3}, {1, 2, 3, 4}, {2, 3, 4, 5}, {3, 4, 5, 6}},
      {{0, 7, 6, 5}, {1, 0, 7, 6}, {2, 1, 0, 7}, {3, 2, 1, 0}},
      {{0, 0, 0, 0}, {1, 1, 1, 1}, {2, 2, 2, 2}, {3, 3, 3, 3}},
      {{0, 1, 2, 3}, {1, 1, 2, 3}, {2, 2, 2, 3}, {3, 3, 3, 3}},
      {{0, 0, 0, 0}, {0, 1, 1, 1}, {0, 1, 2, 2}, {0, 1, 2, 3}},
      {{0, 1, 0, 1}, {2, 3, 2, 3}, {0, 1, 0, 1}, {2, 3, 2, 3}}};
  u64 src = u64{b} << 32 | a;
  u32 r = 0;
  for (int i = 0; i < 4; ++i) {
    u32 byte;
    if (mode >= 0) {
      byte = static_cast<u32>(src >> (8 * kModes[mode][c & 3][i])) & 0xff;
    } else {
      u32 sel = c >> (4 * i) & 0xf;
      byte = static_cast<u32>(src >> (8 * (sel & 7))) & 0xff;
      if (sel & 8) byte = (byte & 0x80) ? 0xff : 0;
    }
    r |= byte << (8 * i);
  }
  return r;
}

u32 shf(u32 a, u32 b, u32 c, bool left, bool wrap) {
  u32 n = wrap ? c & 31 : std::min<u32>(c, 32);
  u64 v = u64{b} << 32 | a;
  return left ? static_cast<u32>((v << n) >> 32) : static_cast<u32>(v >> n);
}

// Division as ptxas's code computes it: a zero divisor gives all ones; INT_MIN / -1 wraps.
u32 udiv32(u32 a, u32 b) { return b ? a / b : 0xffffffffu; }
u32 urem32(u32 a, u32 b) { return b ? a % b : 0xffffffffu; }
u32 sdiv32(u32 a, u32 b) { return b ? static_cast<u32>(static_cast<i64>(sx(a)) / sx(b)) : 0xffffffffu; }
u32 srem32(u32 a, u32 b) { return b ? static_cast<u32>(static_cast<i64>(sx(a)) % sx(b)) : 0xffffffffu; }

u32 dp4a(u32 a, u32 b, u32 c, bool sa, bool sb) {
  i64 s = 0;
  for (int i = 0; i < 4; ++i) {
    i64 x = sa ? static_cast<int8_t>(a >> (8 * i)) : static_cast<i64>(a >> (8 * i) & 0xff);
    i64 y = sb ? static_cast<int8_t>(b >> (8 * i)) : static_cast<i64>(b >> (8 * i) & 0xff);
    s += x * y;
  }
  return static_cast<u32>(s) + c;
}
u32 dp2a(u32 a, u32 b, u32 c, bool sa, bool sb, bool hi) {
  i64 s = 0;
  for (int i = 0; i < 2; ++i) {
    i64 x = sa ? static_cast<i16>(a >> (16 * i)) : static_cast<i64>(a >> (16 * i) & 0xffff);
    int k = i + (hi ? 2 : 0);
    i64 y = sb ? static_cast<int8_t>(b >> (8 * k)) : static_cast<i64>(b >> (8 * k) & 0xff);
    s += x * y;
  }
  return static_cast<u32>(s) + c;
}

}  // namespace

void ref_int32_ops(RefCtx& c) {
  int n = static_cast<int>(c.iscalar(4));
  const u32 *A = c.buf<u32>("a"), *B = c.buf<u32>("b"), *C = c.buf<u32>("c");
  u32* out = c.buf<u32>("out");
  for (int i = 0; i < n; ++i) {
    u32 x = A[i], y = B[i], z = C[i];
    u32* o = out + i * 100;
    i64 sxy = static_cast<i64>(sx(x)) * sx(y);
    u64 uxy = u64{x} * y;
    o[0] = sat32(static_cast<i64>(sx(x)) + sx(y));
    o[1] = sat32(static_cast<i64>(sx(x)) - sx(y));
    o[2] = static_cast<u32>(static_cast<u64>(sxy) >> 32);
    o[3] = static_cast<u32>(uxy >> 32);
    o[4] = static_cast<u32>(static_cast<u64>(sxy) >> 32) + z;
    o[5] = static_cast<u32>(uxy >> 32) + z;
    i64 s24 = static_cast<i64>(sx(sext(x, 24))) * sx(sext(y, 24));
    u64 u24 = u64{zext(x, 24)} * zext(y, 24);
    o[6] = static_cast<u32>(s24);
    o[7] = static_cast<u32>(u24);
    o[8] = static_cast<u32>(static_cast<u64>(s24) >> 16);
    o[9] = static_cast<u32>(u24 >> 16);
    o[10] = static_cast<u32>(u24) + z;
    o[11] = static_cast<u32>(static_cast<u64>(s24) >> 16) + z;
    o[12] = z + (sx(x) < sx(y) ? y - x : x - y);
    o[13] = z + (x < y ? y - x : x - y);
    o[14] = 0u - x;
    o[15] = sx(x) < 0 ? 0u - x : x;
    o[16] = static_cast<u32>(std::min(sx(x), sx(y)));
    o[17] = static_cast<u32>(std::max(sx(x), sx(y)));
    o[18] = std::min(x, y);
    o[19] = std::max(x, y);
    o[20] = static_cast<u32>(std::max(std::min(sx(x), sx(y)), 0));
    o[21] = static_cast<u32>(std::max(std::max(sx(x), sx(y)), 0));
    o[22] = static_cast<u32>(std::popcount(x));
    o[23] = static_cast<u32>(std::countl_zero(x));
    o[24] = bfind32(x, false, false);
    o[25] = bfind32(x, true, false);
    o[26] = bfind32(x, false, true);
    o[27] = bfind32(x, true, true);
    o[28] = brev32(x);
    o[29] = static_cast<u32>(bfe(x, y, z, 31, false));
    o[30] = static_cast<u32>(bfe(x, y, z, 31, true));
    o[31] = static_cast<u32>(bfi(x, y, z, z >> 8, 31));
    o[32] = static_cast<u32>(bfe(x, 3, 7, 31, false));
    o[33] = static_cast<u32>(bfi(x, y, 5, 9, 31));
    o[34] = prmt(x, y, z, -1);
    for (int m = 0; m < 6; ++m) o[35 + m] = prmt(x, y, z, m);
    o[41] = shf(x, y, z, true, true);
    o[42] = shf(x, y, z, true, false);
    o[43] = shf(x, y, z, false, true);
    o[44] = shf(x, y, z, false, false);
    o[45] = z >= 32 ? 0 : x << z;
    o[46] = z >= 32 ? 0 : x >> z;
    o[47] = static_cast<u32>(sx(x) >> std::min<u32>(z, 31));
    o[48] = static_cast<u32>(sx(x) >> 31);
    o[49] = udiv32(x, y);
    o[50] = urem32(x, y);
    o[51] = sdiv32(x, y);
    o[52] = srem32(x, y);
    o[53] = x / 7;
    o[54] = sdiv32(x, static_cast<u32>(-7));
    o[55] = srem32(x, 10);
    bool lt = sx(x) < sx(y);
    o[56] = (lt ? 1u : 0u) + (!lt ? 2u : 0u);
    o[57] = (x > y && (z & 1)) ? 1u : 0u;
    {
      bool q = (z & 1) != 0, r = x != y;
      o[58] = ((r || !q) ? 1u : 0u) + ((!r || !q) ? 2u : 0u);
    }
    {
      bool q = (z & 2) != 0, r = x <= 5;
      o[59] = ((r != q) ? 1u : 0u) + ((!r != q) ? 2u : 0u);
    }
    o[60] = lt ? 0xffffffffu : 0u;
    o[61] = (x >= y && (z & 4) == 0) ? 0x3f800000u : 0u;
    o[62] = sx(z) >= 0 ? x : y;
    {
      float f;
      std::memcpy(&f, &z, 4);
      o[63] = f >= 0.0f ? x : y;
    }
    o[64] = x == 0 ? 1u : 0u;
    o[65] = ~x;
    o[66] = x ^ y ^ z;
    o[67] = (x & 0x1234u) | (x & z) | (0x1234u & z);  // 0xe8: majority
    o[68] = dp4a(x, y, z, false, false);
    o[69] = dp4a(x, y, z, true, true);
    o[70] = dp4a(x, y, z, true, false);
    o[71] = dp2a(x, y, z, false, true, false);
    o[72] = dp2a(x, y, z, true, false, true);
    {  // (z, x, y) words + (x, y, z) words as a 96-bit sum / difference
      u64 s0 = u64{x} + z, s1 = u64{y} + x + (s0 >> 32), s2 = u64{z} + y + (s1 >> 32);
      o[73] = static_cast<u32>(s0), o[74] = static_cast<u32>(s1), o[75] = static_cast<u32>(s2);
      // Subtraction borrows as the hardware carry: no borrow sets the flag.
      u64 d0 = u64{x} + static_cast<u32>(~z) + 1;
      u64 d1 = u64{y} + static_cast<u32>(~x) + (d0 >> 32);
      u64 d2 = u64{z} + static_cast<u32>(~y) + (d1 >> 32);
      o[76] = static_cast<u32>(d0), o[77] = static_cast<u32>(d1), o[78] = static_cast<u32>(d2);
      u64 m0 = (uxy & 0xffffffffu) + z;
      o[79] = static_cast<u32>(m0);
      o[80] = static_cast<u32>((uxy >> 32) + (m0 >> 32));
      u64 m1 = (uxy >> 32) + z + (m0 >> 32);
      o[81] = static_cast<u32>(m0), o[82] = static_cast<u32>(m1), o[83] = static_cast<u32>(m1 >> 32);
    }
    {
      bool p1 = lt, p2 = (z & 1) != 0;
      o[84] = (p1 && p2 ? 1u : 0u) + (p1 || !p2 ? 2u : 0u) + (p1 != p2 ? 4u : 0u) + (!p1 ? 8u : 0u) +
              (p2 ? 16u : 0u);
    }
    o[85] = x < y ? x + y : z;
    o[86] = y != 0 ? x / y : z;
    o[87] = sx(x) < 0 ? 77u : srem32(x, y);
    o[88] = static_cast<u32>(std::min(sx(x), -5));
    o[89] = std::max(x, 0x80000000u);
    o[90] = 5u - x;
    o[91] = 100u < x ? 1u : 0u;
    o[92] = x ^ 0xf0f0f0f0u;
    o[93] = x * static_cast<u32>(-3);
    o[94] = x >= y ? z : 0x5a5au;
    {  // bmsk.clamp: a mask of b bits from a; positions past 31 and lengths past the top vanish
      u32 pos = std::min<u32>(x, 32), len = std::min<u32>(y, 32);
      o[95] = static_cast<u32>(((u64{1} << len) - 1) << pos);
    }
    o[96] = static_cast<u32>(((u64{1} << (y & 31)) - 1) << (x & 31));
    {  // szext: extend the low N bits, N clamped to 0..32 or taken mod 32; N = 0 gives 0
      u32 nc = std::min<u32>(z, 32), nw = z & 31;
      o[97] = nc == 0 ? 0 : sext(x, static_cast<int>(nc));
      o[98] = nw == 0 ? 0 : zext(x, static_cast<int>(nw));
    }
    o[99] = prmt(x, y, 0x7531, -1);
  }
}


namespace {
using u128 = unsigned __int128;
using i128 = __int128;
u64 udiv64(u64 a, u64 b) { return b ? a / b : ~u64{0}; }
u64 urem64(u64 a, u64 b) { return b ? a % b : ~u64{0}; }
u64 sdiv64(u64 a, u64 b) {
  if (!b) return ~u64{0};
  return static_cast<u64>(static_cast<i128>(static_cast<i64>(a)) / static_cast<i64>(b));
}
u64 srem64(u64 a, u64 b) {
  if (!b) return ~u64{0};
  return static_cast<u64>(static_cast<i128>(static_cast<i64>(a)) % static_cast<i64>(b));
}
i64 s64(u64 v) { return static_cast<i64>(v); }
u64 shl64(u64 v, u32 n) { return n >= 64 ? 0 : v << n; }
u64 shru64(u64 v, u32 n) { return n >= 64 ? 0 : v >> n; }
u64 shrs64(u64 v, u32 n) { return static_cast<u64>(s64(v) >> std::min<u32>(n, 63)); }
u32 bfind64(u64 v, bool sgn, bool shiftamt) {
  if (sgn && s64(v) < 0) v = ~v;
  if (v == 0) return 0xffffffffu;
  u32 pos = 63 - static_cast<u32>(std::countl_zero(v));
  return shiftamt ? 63 - pos : pos;
}
}  // namespace

void ref_int64_ops(RefCtx& c) {
  int n = static_cast<int>(c.iscalar(7));
  const u64 *A = c.buf<u64>("a"), *B = c.buf<u64>("b"), *C = c.buf<u64>("c");
  const u32 *D = c.buf<u32>("d"), *E = c.buf<u32>("e");
  u64* out = c.buf<u64>("out");
  u32* out32 = c.buf<u32>("out32");
  for (int i = 0; i < n; ++i) {
    u64 x = A[i], y = B[i], w = C[i];
    u32 s = D[i], t = E[i];
    u64* o = out + i * 64;
    u32* q = out32 + i * 24;
    u128 uxy = static_cast<u128>(x) * y;
    i128 sxy = static_cast<i128>(s64(x)) * s64(y);
    o[0] = x + y;
    o[1] = x - y;
    o[2] = x + 0x100000005ull;
    o[3] = x - 5;
    o[4] = 7 - x;
    o[5] = x * y;
    o[6] = x * 1000;
    o[7] = static_cast<u64>(uxy >> 64);
    o[8] = static_cast<u64>(static_cast<u128>(sxy) >> 64);
    o[9] = x * y + w;
    o[10] = static_cast<u64>(uxy >> 64) + w;
    o[11] = 0 - x;
    o[12] = s64(x) < 0 ? 0 - x : x;
    o[13] = static_cast<u64>(std::min(s64(x), s64(y)));
    o[14] = static_cast<u64>(std::max(s64(x), s64(y)));
    o[15] = std::min(x, y);
    o[16] = std::max(x, y);
    o[17] = shl64(x, s);
    o[18] = shru64(x, s);
    o[19] = shrs64(x, s);
    o[20] = x << 5;
    o[21] = x << 40;
    o[22] = x >> 40;
    o[23] = shrs64(x, 40);
    o[24] = shrs64(x, 63);
    o[25] = 0;
    o[26] = shrs64(x, 7);
    o[27] = x & y;
    o[28] = x | 0x100000001ull;
    o[29] = x ^ y;
    o[30] = ~x;
    {
      u64 r = 0;
      for (int k = 0; k < 64; ++k) r |= (x >> k & 1) << (63 - k);
      o[31] = r;
    }
    o[32] = bfe(x, t, t >> 8, 63, false);
    o[33] = bfe(x, t, t >> 8, 63, true);
    o[34] = bfi(x, y, t, t >> 8, 63);
    o[35] = bfe(x, 5, 20, 63, false);
    o[36] = bfe(x, 60, 10, 63, true);
    o[37] = (s & 1) ? x : y;
    o[38] = (s & 1) ? 5 : y;
    o[39] = sx(s) >= 0 ? x : y;
    o[40] = static_cast<u64>(static_cast<i64>(sx(s)) * sx(t));
    o[41] = u64{s} * t;
    o[42] = static_cast<u64>(static_cast<i64>(sx(s)) * sx(t)) + x;
    o[43] = u64{s} * t + x;
    o[44] = u64{t} * 1000;
    o[45] = udiv64(x, y);
    o[46] = urem64(x, y);
    o[47] = sdiv64(x, y);
    o[48] = srem64(x, y);
    o[49] = x / 10;
    o[50] = sdiv64(x, static_cast<u64>(-3));
    {  // 128-bit (y:x) + (w:x), (y:x) - (w:x) with the borrow as the hardware carry, and
       // x * y + w as a 128-bit value
      u128 X = static_cast<u128>(y) << 64 | x, W = static_cast<u128>(x) << 64 | w;
      u128 S = X + W, D = X - W;
      o[51] = static_cast<u64>(S), o[52] = static_cast<u64>(S >> 64);
      o[53] = static_cast<u64>(D), o[54] = static_cast<u64>(D >> 64);
      u128 M = uxy + w;
      o[55] = static_cast<u64>(M), o[56] = static_cast<u64>(M >> 64);
    }
    o[57] = x == 0 ? 1 : 0;
    o[58] = x < y ? x + y : w;
    o[59] = y != 0 ? sdiv64(x, y) : w;
    o[60] = x ^ 0x123456789abcdef0ull;
    o[61] = std::min<u64>(x, 7);
    o[62] = static_cast<u64>(std::max<i64>(s64(x), -1));
    o[63] = w + (s64(x) < s64(y) ? y - x : x - y);
    q[0] = static_cast<u32>(std::popcount(x));
    q[1] = static_cast<u32>(std::countl_zero(x));
    q[2] = bfind64(x, false, false);
    q[3] = bfind64(x, true, false);
    q[4] = bfind64(x, false, true);
    q[5] = bfind64(x, true, true);
    q[6] = s64(x) < s64(y);
    q[7] = s64(x) <= s64(y);
    q[8] = s64(x) > s64(y);
    q[9] = s64(x) >= s64(y);
    q[10] = x == y;
    q[11] = x != y;
    q[12] = x < y;
    q[13] = x <= y;
    q[14] = x > y;
    q[15] = x >= y;
    q[16] = x > y && (s & 1);
    {
      bool qq = (s & 1) != 0, r = s64(x) < s64(y);
      q[17] = ((r || !qq) ? 1u : 0u) + ((!r || !qq) ? 2u : 0u);
    }
    q[18] = x <= 100;
    q[19] = -5 < s64(x);
    q[20] = s64(x) >= 0x100000000ll;
    q[21] = x == ~u64{0};
    q[22] = s64(x) < s64(y) ? 0xffffffffu : 0u;
    q[23] = x > y ? 0x3f800000u : 0u;
  }
}


void ref_int16_ops(RefCtx& c) {
  int n = static_cast<int>(c.iscalar(4));
  const u32 *A = c.buf<u32>("a"), *B = c.buf<u32>("b"), *C = c.buf<u32>("c");
  u32* out = c.buf<u32>("out");
  auto U = [](u32 v) { return v & 0xffffu; };                               // mul.wide.u16 by 1
  auto S = [](u32 v) { return static_cast<u32>(static_cast<i32>(static_cast<i16>(v))); };  // .s16
  auto s16 = [](u16 v) { return static_cast<i32>(static_cast<i16>(v)); };
  for (int i = 0; i < n; ++i) {
    u16 hx = static_cast<u16>(A[i]), hy = static_cast<u16>(B[i]), hz = static_cast<u16>(C[i]);
    u32 z = C[i];
    u32* o = out + i * 40;
    o[0] = U(hx + hy);
    o[1] = U(static_cast<u32>(hx - hy));
    o[2] = S(static_cast<u32>(s16(hx) * s16(hy)));
    o[3] = S(static_cast<u32>((s16(hx) * s16(hy)) >> 16));
    o[4] = U((u32{hx} * hy) >> 16);
    o[5] = U(u32{hx} * hy + hz);
    o[6] = static_cast<u32>(s16(hx) * s16(hy));
    o[7] = u32{hx} * hy;
    o[8] = u32{hx} * hy + z;
    o[9] = U(0u - hx);
    o[10] = U(static_cast<u32>(s16(hx) < 0 ? -s16(hx) : s16(hx)));
    o[11] = S(static_cast<u32>(std::min(s16(hx), s16(hy))));
    o[12] = S(static_cast<u32>(std::max(s16(hx), s16(hy))));
    o[13] = std::min(hx, hy);
    o[14] = std::max(hx, hy);
    o[15] = z >= 16 ? 0 : U(u32{hx} << z);
    o[16] = z >= 16 ? 0 : u32{hx} >> z;
    o[17] = S(static_cast<u32>(s16(hx) >> std::min<u32>(z, 15)));
    o[18] = S(static_cast<u32>(s16(hx) >> 3));
    o[19] = 0;
    o[20] = hx & hy;
    o[21] = hx | 0xff00u;
    o[22] = hx ^ hy;
    o[23] = U(~u32{hx});
    o[24] = hx == 0 ? 1 : 0;
    o[25] = (z & 1) ? hx : hy;
    o[26] = (z & 1) ? 0x1234u : hy;
    o[27] = hy ? hx / hy : 0xffffu;
    o[28] = hy ? hx % hy : 0xffffu;
    o[29] = hy ? S(static_cast<u32>(s16(hx) / s16(hy))) : 0xffffffffu;
    o[30] = hy ? S(static_cast<u32>(s16(hx) % s16(hy))) : 0xffffffffu;
    o[31] = hx / 7u;
    o[32] = U(hz + (hx < hy ? hy - hx : hx - hy));
    o[33] = U(static_cast<u32>(hz + (s16(hx) < s16(hy) ? s16(hy) - s16(hx) : s16(hx) - s16(hy))));
    o[34] = U(u32{hx} * 0x9e37u);
    o[35] = U(hx + 0xffffu);
    o[36] = s16(hx) < s16(hy) ? 0xffffffffu : 0u;
    o[37] = hx >= hy ? 0xffffffffu : 0u;
    {
      bool r[12] = {s16(hx) < s16(hy), s16(hx) <= s16(hy), s16(hx) > s16(hy), s16(hx) >= s16(hy),
                    hx == hy, hx != hy, hx < hy, hx <= hy, hx > hy, hx >= hy, hx == hy, hx != hy};
      u32 v = 0;
      for (int k = 0; k < 12; ++k) v += r[k] ? (1u << k) : 0u;
      o[38] = v;
    }
    {
      bool p1 = hx == 5, p2 = -3 < s16(hx), p3 = hx > hy && p2;
      o[39] = (p1 ? 1u : 0u) + (p2 ? 2u : 0u) + (p3 ? 4u : 0u);
    }
  }
}


void ref_int_div(RefCtx& c) {
  int n = static_cast<int>(c.iscalar(7));
  const u64 *A = c.buf<u64>("a"), *B = c.buf<u64>("b");
  const u32 *C = c.buf<u32>("c"), *D = c.buf<u32>("d"), *E = c.buf<u32>("e");
  u64* out = c.buf<u64>("out");
  u32* out32 = c.buf<u32>("out32");
  for (int i = 0; i < n; ++i) {
    u64 x = A[i], y = B[i];
    u32 s = C[i], x32 = D[i], y32 = E[i];
    u64* o = out + i * 4;
    u32* q = out32 + i * 4;
    u64 du = y >> (s & 63), ds = shrs64(y, s & 63);
    o[0] = udiv64(x, du);
    o[1] = urem64(x, du);
    o[2] = sdiv64(x, ds);
    o[3] = srem64(x, ds);
    u32 k = (s >> 8) & 31;
    u32 eu = y32 >> k, es = static_cast<u32>(sx(y32) >> k);
    q[0] = udiv32(x32, eu);
    q[1] = urem32(x32, eu);
    q[2] = sdiv32(x32, es);
    q[3] = srem32(x32, es);
  }
}

// cvt into a destination register wider than the destination type (cvt_wide_dst.ptx): the
// source is the low `sbits` of its register extended by its own type; the value is clamped
// (.sat) or truncated to the destination type, then extended by the destination type's
// signedness to the whole destination register (PTX ISA: relaxed type checking of
// destination operands). A 16/32-bit register is stored with its own width.
void ref_cvt_wide_dst(RefCtx& c) {
  struct Case { int dreg; bool dsigned; int dbits; bool ssigned; int sbits; int sreg; bool sat; };
  static const Case cases[] = {
    {64, false, 8, false, 32, 32, false},
    {64, true, 8, true, 32, 32, false},
    {64, true, 16, true, 64, 64, true},
    {64, false, 16, true, 64, 64, true},
    {64, true, 32, true, 8, 16, false},
    {64, false, 32, true, 8, 16, false},
    {32, true, 8, false, 32, 32, false},
    {32, false, 8, true, 8, 16, false},
    {16, true, 8, true, 32, 32, false},
    {64, false, 8, false, 64, 64, false},
    {64, true, 8, true, 32, 32, true},
    {32, true, 16, true, 64, 64, false},
    {64, false, 8, true, 16, 16, true},
    {32, true, 16, false, 8, 16, false},
    {64, true, 16, false, 32, 32, true}
  };
  constexpr int n = sizeof(cases) / sizeof(cases[0]);
  const u64* A = c.buf<u64>("a");
  u64* out = c.buf<u64>("out");
  for (u64 t = 0; t < c.count("a"); ++t) {
    for (int i = 0; i < n; ++i) {
      const Case& k = cases[i];
      u64 raw = A[t];
      if (k.sreg < 64) raw &= (u64{1} << k.sreg) - 1;
      u64 sm = k.sbits == 64 ? ~u64{0} : (u64{1} << k.sbits) - 1;
      u64 sv = raw & sm;
      __int128 v = (k.ssigned && k.sbits < 64 && (sv >> (k.sbits - 1) & 1)) ? static_cast<__int128>(sv) - (static_cast<__int128>(1) << k.sbits)
                 : (k.ssigned && k.sbits == 64) ? static_cast<__int128>(static_cast<i64>(sv)) : static_cast<__int128>(sv);
      __int128 lo = k.dsigned ? -(static_cast<__int128>(1) << (k.dbits - 1)) : 0;
      __int128 hi = k.dsigned ? (static_cast<__int128>(1) << (k.dbits - 1)) - 1 : (static_cast<__int128>(1) << k.dbits) - 1;
      if (k.sat) v = std::clamp(v, lo, hi);
      u64 dm = (u64{1} << k.dbits) - 1;  // dbits <= 32 here
      u64 r = static_cast<u64>(v) & dm;
      if (k.dsigned && (r >> (k.dbits - 1) & 1)) r |= ~dm;
      if (k.dreg < 64) r &= (u64{1} << k.dreg) - 1;
      out[t * n + i] = r;
    }
  }
}

}  // namespace ptxmini::exec
