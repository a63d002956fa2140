/* fp_util.h - IEEE helpers shared by the float handlers: rounding-mode scope, FTZ, half
 * precision conversion (round-to-nearest-even, written from the IEEE 754 binary16 format). */
#pragma once

#include <bit>
#include <cfenv>
#include <cmath>
#include <cstdint>
#include <algorithm>
#include <string>

namespace ptxmini::exec {

// Sets the host rounding mode for the lifetime of the object (SASS .RN/.RZ/.RM/.RP).
struct RoundScope {
  int old;
  explicit RoundScope(const std::string& rnd) : old(std::fegetround()) {
    int m = FE_TONEAREST;
    if (rnd == "RZ") m = FE_TOWARDZERO;
    else if (rnd == "RM") m = FE_DOWNWARD;
    else if (rnd == "RP") m = FE_UPWARD;
    std::fesetround(m);
  }
  ~RoundScope() { std::fesetround(old); }
};

inline float ftz(float f) {
  return std::fpclassify(f) == FP_SUBNORMAL ? std::copysign(0.0f, f) : f;
}
inline double ftz(double f) {
  return std::fpclassify(f) == FP_SUBNORMAL ? std::copysign(0.0, f) : f;
}
inline uint32_t fbits(float f) { return std::bit_cast<uint32_t>(f); }
inline float bitsf(uint32_t u) { return std::bit_cast<float>(u); }

inline float half_to_float(uint16_t h) {
  uint32_t sign = (h >> 15) & 1, exp = (h >> 10) & 0x1f, man = h & 0x3ff;
  float v;
  if (exp == 0) v = std::ldexp(static_cast<float>(man), -24);
  else if (exp == 31) v = man ? std::numeric_limits<float>::quiet_NaN() : std::numeric_limits<float>::infinity();
  else v = std::ldexp(static_cast<float>(man | 0x400), static_cast<int>(exp) - 25);
  return sign ? -v : v;
}

// double -> binary16 with round-to-nearest-even (a double holds any float exactly).
inline uint16_t double_to_half(double d) {
  uint16_t sign = std::signbit(d) ? 0x8000 : 0;
  double a = std::fabs(d);
  if (std::isnan(d)) return 0x7fff;
  if (a >= 65520.0) return sign | 0x7c00;  // rounds to infinity
  if (a == 0) return sign;
  int e;
  std::frexp(a, &e);             // a = m * 2^e, m in [0.5, 1)
  int exp = e - 1;               // a = 1.x * 2^exp
  double q = exp < -14 ? std::ldexp(a, 24) : std::ldexp(a, 10 - exp);  // units of the last place
  double r = std::nearbyint(q);  // host mode is round-to-nearest-even here
  uint32_t n = static_cast<uint32_t>(r);
  if (exp < -14) return static_cast<uint16_t>(sign | n);  // subnormal (n may reach 0x400 = min normal)
  if (n == 2048) { n = 1024; ++exp; }
  if (exp > 15) return sign | 0x7c00;
  return static_cast<uint16_t>(sign | ((exp + 15) << 10) | (n & 0x3ff));
}

// double -> bfloat16 with round-to-nearest-even (no intermediate float rounding).
inline uint16_t double_to_bf16(double d) {
  if (std::isnan(d)) return 0x7fff;
  uint16_t sign = std::signbit(d) ? 0x8000 : 0;
  double a = std::fabs(d);
  if (a == 0) return sign;
  int e;
  std::frexp(a, &e);
  int exp = e - 1;                                   // a = 1.x * 2^exp
  if (exp > 127) return sign | 0x7f80;
  double q = exp < -126 ? std::ldexp(a, 133) : std::ldexp(a, 7 - exp);  // units of the last place
  uint32_t n = static_cast<uint32_t>(std::nearbyint(q));
  if (exp < -126) return static_cast<uint16_t>(sign | n);  // subnormal (0x80 = min normal)
  if (n == 256) { n = 128; ++exp; }
  if (exp > 127) return sign | 0x7f80;
  return static_cast<uint16_t>(sign | ((exp + 127) << 7) | (n & 0x7f));
}
inline float bf16_to_float(uint16_t h) { return bitsf(static_cast<uint32_t>(h) << 16); }

inline uint16_t float_to_bf16(float f) {
  uint32_t u = fbits(f);
  if (std::isnan(f)) return 0x7fff;
  uint32_t r = u + 0x7fff + ((u >> 16) & 1);
  return static_cast<uint16_t>(r >> 16);
}


// ---- exact rounding into a binary format -----------------------------------------------------
// A binary interchange format: p significant bits (with the implicit one), exponent range
// [emin, emax] of normal numbers, exponent field width.
// A double to an fp8 value with round to nearest even and saturation to the largest finite
// value (PTX cvt .satfinite): e4m3 (bias 7, no infinities, largest 448 = 0x7e) or e5m2 (bias
// 15, largest 57344 = 0x7b). A NaN gives 0x7f (PTX ISA 9.0, cvt: "NaN results in a canonical
// NaN"); .relu turns negative values (and -0) into +0.
inline uint32_t float_to_fp8(double x, bool e4m3, bool relu) {
  if (std::isnan(x)) return 0x7fu;
  uint32_t sign = std::signbit(x) ? 0x80u : 0u;
  if (relu && sign) return 0u;
  const int mbits = e4m3 ? 3 : 2, bias = e4m3 ? 7 : 15, emin = 1 - bias;
  const double maxv = e4m3 ? 448.0 : 57344.0;
  double a = std::fabs(x);
  if (a >= maxv) return sign | (e4m3 ? 0x7eu : 0x7bu);
  int e = a == 0 ? emin : std::max(emin, std::ilogb(a));
  double q = std::ldexp(1.0, e - mbits);   // the spacing of representable values at a
  // Ties to even, independent of the host rounding mode (the emulator changes it for .rz etc.).
  double y = a / q, f = std::floor(y);
  if (y - f > 0.5 || (y - f == 0.5 && std::fmod(f, 2.0) != 0.0)) f += 1.0;
  double r = f * q;
  if (r >= maxv) return sign | (e4m3 ? 0x7eu : 0x7bu);
  if (r == 0) return sign;
  int re = std::ilogb(r);
  if (re < emin) return sign | static_cast<uint32_t>(std::ldexp(r, -(emin - mbits)));
  uint32_t man = static_cast<uint32_t>(std::ldexp(r, -(re - mbits))) - (1u << mbits);
  return sign | static_cast<uint32_t>(re + bias) << mbits | man;
}

struct FpFormat {
  int p, emin, emax, ebits;
};
inline constexpr FpFormat kF16{11, -14, 15, 5};
inline constexpr FpFormat kBF16{8, -126, 127, 8};
inline constexpr FpFormat kF32{24, -126, 127, 8};
inline constexpr FpFormat kF64{53, -1022, 1023, 11};

// Rounding modes of round_exact: 0 nearest-even, 1 toward zero, 2 down, 3 up.
inline int mode_of(const std::string& rnd) {
  return rnd == "RZ" ? 1 : rnd == "RM" ? 2 : rnd == "RP" ? 3 : 0;
}

// The bits of the exact value (-1)^neg * n * 2^e rounded once into format f with mode.
// Overflow follows IEEE 754 (inf, or the largest finite number toward zero).
inline uint64_t round_exact(bool neg, unsigned __int128 n, int e, const FpFormat& f, int mode) {
  uint64_t sign = neg ? uint64_t{1} << (f.p - 1 + f.ebits) : 0;
  if (n == 0) return sign;
  int nb = 0;
  for (unsigned __int128 t = n; t; t >>= 1) ++nb;
  int top = nb - 1 + e;                       // exponent of the leading bit
  int qe = std::max(top, f.emin) - (f.p - 1); // exponent of the last kept bit
  int shift = qe - e;
  unsigned __int128 m;
  bool above = false, half = false, sticky = false;
  if (shift <= 0) {
    m = n << -shift;
  } else if (shift > 127) {
    m = 0;
    sticky = true;  // far below half a unit
  } else {
    m = n >> shift;
    unsigned __int128 r = n & ((static_cast<unsigned __int128>(1) << shift) - 1);
    unsigned __int128 h = static_cast<unsigned __int128>(1) << (shift - 1);
    above = r > h;
    half = r == h;
    sticky = r != 0;
  }
  bool inc = false;
  switch (mode) {
    case 0: inc = above || (half && (m & 1)); break;
    case 1: break;
    case 2: inc = neg && sticky; break;
    default: inc = !neg && sticky; break;
  }
  if (inc) ++m;
  if (m >> f.p) {  // carried into a new binade
    m >>= 1;
    ++qe;
  }
  uint64_t maxExp = (uint64_t{1} << f.ebits) - 1;
  uint64_t frac = static_cast<uint64_t>(m) & ((uint64_t{1} << (f.p - 1)) - 1);
  bool normal = (m >> (f.p - 1)) != 0;
  int64_t ef = normal ? qe + (f.p - 1) + ((1 << (f.ebits - 1)) - 1) : 0;
  if (ef >= static_cast<int64_t>(maxExp)) {
    bool toInf = mode == 0 || (mode == 2 && neg) || (mode == 3 && !neg);
    uint64_t inf = maxExp << (f.p - 1);
    return sign | (toInf ? inf : inf - 1);
  }
  return sign | (static_cast<uint64_t>(ef) << (f.p - 1)) | frac;
}

// The exact value of a double as round_exact's (neg, n, e); false for inf/NaN.
inline bool exact_parts(double x, bool& neg, unsigned __int128& n, int& e) {
  if (!std::isfinite(x)) return false;
  neg = std::signbit(x);
  int ex;
  double m = std::frexp(std::fabs(x), &ex);  // |x| = m * 2^ex, m in [0.5, 1)
  n = static_cast<unsigned __int128>(static_cast<uint64_t>(std::ldexp(m, 64)));
  e = ex - 64;
  return true;
}

// A double (finite or not) rounded into format f with mode; NaN gives the format's canonical
// NaN (all ones below the sign), infinities stay infinite.
inline uint64_t round_double(double x, const FpFormat& f, int mode) {
  uint64_t maxExp = (uint64_t{1} << f.ebits) - 1;
  if (std::isnan(x)) return (uint64_t{1} << (f.p - 1 + f.ebits)) - 1;
  if (std::isinf(x)) return (std::signbit(x) ? uint64_t{1} << (f.p - 1 + f.ebits) : 0) | maxExp << (f.p - 1);
  bool neg = false;
  unsigned __int128 n = 0;
  int e = 0;
  exact_parts(x, neg, n, e);
  return round_exact(neg, n, e, f, mode);
}


}  // namespace ptxmini::exec
