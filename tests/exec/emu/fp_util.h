/* fp_util.h - IEEE helpers shared by the float handlers: rounding-mode scope, FTZ, half
 * precision conversion (round-to-nearest-even, written from the IEEE 754 binary16 format). */
#pragma once

#include <bit>
#include <cfenv>
#include <cmath>
#include <cstdint>
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

}  // namespace ptxmini::exec
