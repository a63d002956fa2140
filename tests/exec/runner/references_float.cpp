/* references_float.cpp - CPU references of the float and conversion execution tests
 * (kernels/float_*.ptx, convert_*.ptx, half_*.ptx, math_*.ptx). Each computes what the PTX
 * instructions define, in plain C++ on the host FPU: IEEE operations in the rounding mode the
 * instruction names (std::fesetround; this file is compiled with -frounding-math so that no
 * operation is folded or moved across a mode change), and the PTX rules written out for what
 * the host has no instruction for (.ftz, .sat, float-to-integer saturation, f16/bf16 rounding).
 * Independent of the emulator's own float helpers. */
#include "tests/exec/runner/test_desc.h"

#include <bit>
#include <cfenv>
#include <cmath>
#include <cstdint>
#include <algorithm>
#include <cstring>
#include <limits>

namespace ptxmini::exec {
namespace {

struct Mode {
  int old;
  explicit Mode(int m) : old(std::fegetround()) { std::fesetround(m); }
  ~Mode() { std::fesetround(old); }
};
constexpr int kModes[4] = {FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD};
enum { RN, RZ, RM, RP };

float flush(float x) { return std::fpclassify(x) == FP_SUBNORMAL ? std::copysign(0.0f, x) : x; }

float fdiv(float a, float b, int m) {
  Mode s(kModes[m]);
  volatile float x = a, y = b;
  volatile float r = x / y;  // computed inside the mode's scope (GCC may sink a returned value)
  return r;
}
float fsqrt(float a, int m) {
  Mode s(kModes[m]);
  volatile float x = a;
  volatile float r = std::sqrt(static_cast<float>(x));
  return r;
}
double ddiv(double a, double b, int m) {
  Mode s(kModes[m]);
  volatile double x = a, y = b;
  volatile double r = x / y;
  return r;
}
double dsqrt(double a, int m) {
  Mode s(kModes[m]);
  volatile double x = a;
  volatile double r = std::sqrt(static_cast<double>(x));
  return r;
}

// .ftz division: subnormal inputs flushed; a result is flushed to a zero of its sign when its
// rounding to 24 bits with an unbounded exponent (in the instruction's mode) lies below 2^-126
// (HW: the rule ptxas's slow path implements). The thresholds have at most 25 significant bits,
// which a quotient of two f32 values cannot approach closer than 2^-49 relative without
// equalling it, so the long double quotient decides exactly.
float fdivFtz(float a, float b, int m) {
  a = flush(a);
  b = flush(b);
  float q = fdiv(a, b, m);
  if (!std::isfinite(q) || q == 0) return q;
  long double Q = static_cast<long double>(a) / static_cast<long double>(b);
  long double A = std::fabs(Q);
  const long double fltMin = std::ldexp(1.0L, -126);
  bool away = (m == RP && Q > 0) || (m == RM && Q < 0);
  bool tiny = m == RN ? A < fltMin - std::ldexp(1.0L, -151)
              : away  ? A <= fltMin - std::ldexp(1.0L, -150)
                      : A < fltMin;
  return tiny ? std::copysign(0.0f, q) : q;
}

void ref_float_ieee32(RefCtx& c) {
  uint64_t n = c.count("a");
  const float* a = c.buf<float>("a");
  const float* b = c.buf<float>("b");
  float* o = c.buf<float>("o_f32");
  for (uint64_t i = 0; i < n; ++i) {
    float x = a[i], y = b[i];
    float* r = o + i * 18;
    int k = 0;
    for (int m : {RN, RZ, RM, RP}) r[k++] = fdiv(x, y, m);
    for (int m : {RN, RZ, RP}) r[k++] = fdivFtz(x, y, m);
    for (int m : {RN, RZ, RM, RP}) r[k++] = fdiv(1.0f, y, m);
    r[k++] = fdivFtz(1.0f, y, RN);
    r[k++] = fdivFtz(1.0f, y, RM);
    for (int m : {RN, RZ, RM, RP}) r[k++] = fsqrt(x, m);
    r[k++] = fsqrt(flush(x), RN);
  }
}

void ref_float_ieee64(RefCtx& c) {
  uint64_t n = c.count("a");
  const double* a = c.buf<double>("a");
  const double* b = c.buf<double>("b");
  double* o = c.buf<double>("o_f64");
  for (uint64_t i = 0; i < n; ++i) {
    double x = a[i], y = b[i];
    double* r = o + i * 12;
    int k = 0;
    for (int m : {RN, RZ, RM, RP}) r[k++] = ddiv(x, y, m);
    for (int m : {RN, RZ, RM, RP}) r[k++] = ddiv(1.0, y, m);
    for (int m : {RN, RZ, RM, RP}) r[k++] = dsqrt(x, m);
  }
}


// ---- arithmetic in every mode -----------------------------------------------------------------
template <class T> T rop(T a, T b, T c, int op, int m) {  // op: 0 add, 1 sub, 2 mul, 3 fma
  Mode s(kModes[m]);
  volatile T x = a, y = b, z = c;
  volatile T r = op == 0 ? x + y : op == 1 ? x - y : op == 2 ? x * y : std::fma(static_cast<T>(x), static_cast<T>(y), static_cast<T>(z));
  return r;
}
// .sat: clamp to [0, 1]; NaN and -0 give +0.
template <class T> T sat(T x) { return std::isnan(x) || x <= 0 ? T(0) : x > 1 ? T(1) : x; }
// PTX min/max: a NaN operand gives the other; two NaNs a NaN; -0 is below +0. `nanMode`: any
// NaN operand gives a NaN (.NaN).
template <class T> T pmin(T a, T b, bool isMax, bool nanMode = false) {
  if (std::isnan(a) && std::isnan(b)) return std::numeric_limits<T>::quiet_NaN();
  if (nanMode && (std::isnan(a) || std::isnan(b))) return std::numeric_limits<T>::quiet_NaN();
  if (std::isnan(a)) return b;
  if (std::isnan(b)) return a;
  if (a == b) return (std::signbit(a) != isMax) ? a : b;  // min picks the negative zero
  return (a < b) != isMax ? a : b;
}
// .xorsign.abs: min/max of the magnitudes, with the XOR of the operands' signs.
float xorsignMinMax(float a, float b, bool isMax, bool nanMode) {
  float r = pmin(std::fabs(a), std::fabs(b), isMax, nanMode);
  if (std::isnan(r)) return r;
  return std::copysign(r, (std::signbit(a) != std::signbit(b)) ? -1.0f : 1.0f);
}
float rint32(float x, int m) {
  Mode s(kModes[m]);
  volatile float v = x;
  volatile float r = std::nearbyint(static_cast<float>(v));
  return r;
}
double rint64(double x, int m) {
  Mode s(kModes[m]);
  volatile double v = x;
  volatile double r = std::nearbyint(static_cast<double>(v));
  return r;
}

void ref_float_round32(RefCtx& c) {
  uint64_t n = c.count("a");
  const float* A = c.buf<float>("a");
  const float* B = c.buf<float>("b");
  const float* C = c.buf<float>("c");
  float* o = c.buf<float>("o_f32");
  for (uint64_t i = 0; i < n; ++i) {
    float a = A[i], b = B[i], cc = C[i];
    float fa = flush(a), fb = flush(b), fc = flush(cc);
    float* r = o + i * 40;
    int k = 0;
    for (int m : {RN, RZ, RM, RP}) r[k++] = rop(a, b, cc, 0, m);
    r[k++] = flush(rop(fa, fb, fc, 0, RN));
    r[k++] = sat(rop(a, b, cc, 0, RN));
    r[k++] = sat(flush(rop(fa, fb, fc, 0, RZ)));
    r[k++] = rop(a, b, cc, 1, RM);
    for (int m : {RN, RZ, RM, RP}) r[k++] = rop(a, b, cc, 2, m);
    r[k++] = flush(rop(fa, fb, fc, 2, RN));
    r[k++] = sat(rop(a, b, cc, 2, RN));
    for (int m : {RN, RZ, RM, RP}) r[k++] = rop(a, b, cc, 3, m);
    r[k++] = flush(rop(fa, fb, fc, 3, RN));
    r[k++] = sat(rop(a, b, cc, 3, RN));
    r[k++] = sat(flush(rop(fa, fb, fc, 3, RP)));
    r[k++] = rop(a, b, cc, 3, RM);
    r[k++] = -a;
    r[k++] = -fa;
    r[k++] = std::fabs(a);
    r[k++] = std::fabs(fa);
    r[k++] = std::copysign(b, a);
    r[k++] = pmin(a, b, false);
    r[k++] = pmin(a, b, true);
    r[k++] = pmin(fa, fb, false);
    r[k++] = pmin(a, b, true, true);
    r[k++] = xorsignMinMax(a, b, false, false);
    r[k++] = xorsignMinMax(fa, fb, true, true);
    r[k++] = rint32(a, RN);
    r[k++] = std::trunc(a);
    r[k++] = std::floor(a);
    r[k++] = std::ceil(fa);
    r[k++] = sat(a);
    r[k++] = fa;
    r[k++] = sat(std::trunc(a));
  }
}

void ref_float_round64(RefCtx& c) {
  uint64_t n = c.count("a");
  const double* A = c.buf<double>("a");
  const double* B = c.buf<double>("b");
  const double* C = c.buf<double>("c");
  double* o = c.buf<double>("o_f64");
  for (uint64_t i = 0; i < n; ++i) {
    double a = A[i], b = B[i], cc = C[i];
    double* r = o + i * 29;
    int k = 0;
    for (int op : {0, 1, 2, 3})
      for (int m : {RN, RZ, RM, RP}) r[k++] = rop(a, b, cc, op, m);
    r[k++] = -a;
    r[k++] = std::fabs(a);
    r[k++] = std::copysign(b, a);
    r[k++] = pmin(a, b, false);
    r[k++] = pmin(a, b, true);
    r[k++] = rint64(a, RN);
    r[k++] = std::trunc(a);
    r[k++] = std::floor(a);
    r[k++] = std::ceil(a);
    r[k++] = sat(a);
    r[k++] = rop(a, 1.5, 0.0, 0, RN);
    r[k++] = rop(a, 2.0, 0.0, 2, RZ);
    r[k++] = rop(a, b, -1.0, 3, RN);
  }
}

// ---- comparisons ------------------------------------------------------------------------------
template <class T> bool cmp(int k, T a, T b) {  // the order of the kernels' CMPS list
  bool un = std::isnan(a) || std::isnan(b);
  switch (k) {
    case 0: return !un && a == b;
    case 1: return !un && a != b;
    case 2: return !un && a < b;
    case 3: return !un && a <= b;
    case 4: return !un && a > b;
    case 5: return !un && a >= b;
    case 6: return un || a == b;
    case 7: return un || a != b;
    case 8: return un || a < b;
    case 9: return un || a <= b;
    case 10: return un || a > b;
    case 11: return un || a >= b;
    case 12: return !un;
    default: return un;
  }
}
enum { EQ, NE, LT, LE, GT, GE, EQU, NEU, LTU, LEU, GTU, GEU, NUM, NAN_ };
// testp as ptxas selects it: `normal` includes zero, `subnormal` excludes it.
template <class T> bool testp(int k, T a) {
  switch (k) {
    case 0: return std::isfinite(a);
    case 1: return std::isinf(a);
    case 2: return !std::isnan(a);
    case 3: return std::isnan(a);
    case 4: return std::isnormal(a) || a == 0;
    default: return std::fpclassify(a) == FP_SUBNORMAL;
  }
}
template <class T> void cmp_ref(RefCtx& c, bool f32) {
  uint64_t n = c.count("a");
  const T* A = c.buf<T>("a");
  const T* B = c.buf<T>("b");
  const T* C = c.buf<T>("c");
  uint32_t* o = c.buf<uint32_t>("o_u32");
  float* of = c.buf<float>("o_f32");
  for (uint64_t i = 0; i < n; ++i) {
    T a = A[i], b = B[i], cc = C[i];
    uint32_t* r = o + i * 4;
    r[0] = 0;
    for (int k = 0; k < 14; ++k) r[0] |= uint32_t{cmp(k, a, b)} << k;
    bool plt = cmp(LT, a, cc);
    bool e[16];
    int m = 0;
    e[m++] = cmp(GT, a, b) && plt;
    e[m++] = cmp(LEU, a, b) || !plt;
    e[m++] = cmp(NE, a, b) != plt;
    e[m++] = !cmp(NE, a, b) != plt;
    e[m++] = cmp(GE, a, b) && plt;
    if (f32) {
      T fa = static_cast<T>(flush(static_cast<float>(a))), fb = static_cast<T>(flush(static_cast<float>(b)));
      e[m++] = cmp(LT, fa, fb);
      e[m++] = cmp(EQU, fa, fb);
    }
    for (int k = 0; k < 6; ++k) e[m++] = testp(k, a);
    r[1] = 0;
    for (int k = 0; k < m; ++k) r[1] |= uint32_t{e[k]} << k;
    r[2] = cmp(GT, a, b) ? 0xffffffffu : 0u;
    r[3] = (cmp(LEU, a, b) || plt) ? 0xffffffffu : 0u;
    of[i] = cmp(NUM, a, b) ? 1.0f : 0.0f;
  }
}
void ref_float_cmp32(RefCtx& c) { cmp_ref<float>(c, true); }
void ref_float_cmp64(RefCtx& c) { cmp_ref<double>(c, false); }


// ---- conversions ----------------------------------------------------------------------------
// A binary format: p significant bits, normal exponents [emin, emax], ebits exponent bits.
struct Fmt {
  int p, emin, emax, ebits;
};
constexpr Fmt kHalf{11, -14, 15, 5}, kBf16{8, -126, 127, 8};

// x rounded once into format f in mode m (host nearbyint on the scaled value, exact in long
// double for every value these tests produce); the bits. NaN gives the canonical NaN.
uint32_t toFormat(long double x, const Fmt& f, int m) {
  uint32_t signBit = 1u << (f.p - 1 + f.ebits), maxExp = (1u << f.ebits) - 1;
  if (std::isnan(x)) return signBit - 1;
  uint32_t sign = std::signbit(x) ? signBit : 0;
  if (std::isinf(x)) return sign | maxExp << (f.p - 1);
  if (x == 0) return sign;
  int e = std::ilogb(x);
  int q = std::max(e, f.emin) - (f.p - 1);
  long double scaled = std::ldexp(x, -q), r;
  {
    Mode s(kModes[m]);
    volatile long double v = scaled;
    volatile long double w = std::nearbyint(static_cast<long double>(v));
    r = w;
  }
  long double mag = std::fabs(r);
  if (mag == std::ldexp(1.0L, f.p)) {
    mag /= 2;
    ++q;
  }
  int bias = (1 << (f.ebits - 1)) - 1;
  bool toInf = m == RN || (m == RM && sign) || (m == RP && !sign);
  if (q + f.p - 1 > f.emax) return sign | (toInf ? maxExp << (f.p - 1) : (maxExp << (f.p - 1)) - 1);
  uint32_t n = static_cast<uint32_t>(mag);
  if (n < (1u << (f.p - 1))) return sign | n;  // subnormal
  return sign | static_cast<uint32_t>(q + f.p - 1 + bias) << (f.p - 1) | (n - (1u << (f.p - 1)));
}
long double fromFormat(uint32_t bits, const Fmt& f) {
  uint32_t maxExp = (1u << f.ebits) - 1, fracMask = (1u << (f.p - 1)) - 1;
  uint32_t ex = (bits >> (f.p - 1)) & maxExp, frac = bits & fracMask;
  bool neg = (bits >> (f.p - 1 + f.ebits)) & 1;
  int bias = (1 << (f.ebits - 1)) - 1;
  long double v;
  if (ex == maxExp) v = frac ? std::numeric_limits<long double>::quiet_NaN() : std::numeric_limits<long double>::infinity();
  else if (ex == 0) v = std::ldexp(static_cast<long double>(frac), f.emin - (f.p - 1));
  else v = std::ldexp(static_cast<long double>(frac | (1u << (f.p - 1))), static_cast<int>(ex) - bias - (f.p - 1));
  return neg ? -v : v;
}
// float -> integer: round by mode (rni/rzi/rmi/rpi), saturate to the type, NaN -> 0.
uint64_t f2i(long double x, int m, int bits, bool sgn) {
  if (std::isnan(x)) return 0;
  long double r = m == RN ? rint64(static_cast<double>(x), RN) : m == RZ ? std::trunc(x) : m == RM ? std::floor(x) : std::ceil(x);
  if (m == RN && std::fabs(x) >= 0x1p52L) r = x;  // already integral
  long double lo = sgn ? -std::ldexp(1.0L, bits - 1) : 0, hi = sgn ? std::ldexp(1.0L, bits - 1) - 1 : std::ldexp(1.0L, bits) - 1;
  if (r < lo) r = lo;
  if (r > hi) r = hi;
  uint64_t mask = bits == 64 ? ~0ull : (1ull << bits) - 1;
  return sgn ? static_cast<uint64_t>(static_cast<int64_t>(r)) & mask : static_cast<uint64_t>(r) & mask;
}
uint32_t packRelu(uint32_t h, bool relu, bool satfinite, const Fmt& f) {
  uint32_t signBit = 1u << (f.p - 1 + f.ebits), inf = ((1u << f.ebits) - 1) << (f.p - 1);
  if ((h & (signBit - 1)) > inf) return signBit - 1;  // NaN
  if (relu && (h & signBit)) h = 0;
  if (satfinite && (h & (signBit - 1)) == inf) h = (h & signBit) | (inf - 1);
  return h;
}
uint32_t tf32(uint32_t a, int mode) {  // 0 rna, 1 rn, 2 rz
  float f = std::bit_cast<float>(a);
  if (std::isnan(f)) return 0x7fffe000u;
  if (std::isinf(f) || mode == 2) return a & 0xffffe000u;
  uint32_t add = mode == 0 ? 0x1000u : 0xfffu + ((a >> 13) & 1);
  return (a + add) & 0xffffe000u;
}

void ref_convert_f32(RefCtx& c) {
  uint64_t n = c.count("a");
  const float* A = c.buf<float>("a");
  const float* B = c.buf<float>("b");
  uint32_t* o = c.buf<uint32_t>("o_u32");
  uint64_t* o64 = c.buf<uint64_t>("o_u64");
  double* od = c.buf<double>("o_f64");
  for (uint64_t i = 0; i < n; ++i) {
    float a = A[i], b = B[i], fa = flush(a);
    uint32_t* r = o + i * 28;
    int k = 0;
    for (int m : {RN, RZ, RM, RP}) r[k++] = static_cast<uint32_t>(f2i(a, m, 32, true));
    r[k++] = static_cast<uint32_t>(f2i(a, RZ, 32, false));
    r[k++] = static_cast<uint32_t>(f2i(fa, RN, 32, true));
    r[k++] = static_cast<uint32_t>(f2i(fa, RM, 32, false));
    r[k++] = static_cast<uint32_t>(f2i(a, RZ, 16, true));
    r[k++] = static_cast<uint32_t>(f2i(a, RN, 16, false));
    r[k++] = static_cast<uint32_t>(f2i(a, RN, 8, false));
    r[k++] = static_cast<uint32_t>(f2i(a, RM, 8, true));
    for (int m : {RN, RZ, RM, RP}) r[k++] = toFormat(a, kHalf, m);
    for (int m : {RN, RZ, RM, RP}) r[k++] = toFormat(a, kBf16, m);
    r[k++] = toFormat(sat(a), kHalf, RN);
    r[k++] = packRelu(toFormat(a, kHalf, RN), true, false, kHalf);
    r[k++] = packRelu(toFormat(a, kBf16, RZ), false, true, kBf16);
    r[k++] = toFormat(a, kHalf, RN) << 16 | toFormat(b, kHalf, RN);
    r[k++] = packRelu(toFormat(a, kBf16, RZ), true, false, kBf16) << 16 | packRelu(toFormat(b, kBf16, RZ), true, false, kBf16);
    r[k++] = packRelu(toFormat(a, kHalf, RN), false, true, kHalf) << 16 | packRelu(toFormat(b, kHalf, RN), false, true, kHalf);
    uint32_t bits = std::bit_cast<uint32_t>(a);
    r[k++] = std::isnan(a) ? 0u : tf32(bits, 0);  // the kernel feeds rna a NaN-free value
    r[k++] = tf32(bits, 1);
    r[k++] = tf32(bits, 2);
    uint64_t* q = o64 + i * 3;
    q[0] = f2i(a, RM, 64, true);
    q[1] = f2i(a, RP, 64, false);
    q[2] = f2i(fa, RZ, 64, true);
    double* d = od + i * 3;
    d[0] = a;
    d[1] = fa;
    d[2] = sat(static_cast<double>(a));
  }
}

void ref_convert_f64(RefCtx& c) {
  uint64_t n = c.count("a");
  const double* A = c.buf<double>("a");
  uint32_t* o = c.buf<uint32_t>("o_u32");
  float* of = c.buf<float>("o_f32");
  uint64_t* o64 = c.buf<uint64_t>("o_u64");
  auto toF32 = [](double x, int m) {
    Mode s(kModes[m]);
    volatile double v = x;
    volatile float r = static_cast<float>(v);
    return static_cast<float>(r);
  };
  for (uint64_t i = 0; i < n; ++i) {
    double a = A[i];
    uint32_t* r = o + i * 8;
    r[0] = static_cast<uint32_t>(f2i(a, RZ, 32, true));
    r[1] = static_cast<uint32_t>(f2i(a, RN, 32, false));
    r[2] = static_cast<uint32_t>(f2i(a, RZ, 16, true));
    r[3] = static_cast<uint32_t>(f2i(a, RP, 8, false));
    r[4] = toFormat(a, kHalf, RN);
    r[5] = toFormat(a, kHalf, RP);
    r[6] = toFormat(a, kBf16, RN);
    r[7] = toFormat(a, kBf16, RZ);
    uint64_t* q = o64 + i * 2;
    q[0] = f2i(a, RM, 64, true);
    q[1] = f2i(a, RP, 64, false);
    float* f = of + i * 7;
    for (int m : {RN, RZ, RM, RP}) f[m] = toF32(a, m);
    // .ftz: flushed when the f32 rounds below 2^-126 on 24 bits (|a| < 2^-126 - 2^-151).
    f[4] = std::fabs(a) < 0x1p-126 - 0x1p-151 ? std::copysign(0.0f, toF32(a, RN)) : toF32(a, RN);
    f[5] = sat(toF32(a, RZ));
    f[6] = flush(sat(toF32(a, RM)));
  }
}

void ref_convert_int(RefCtx& c) {
  uint64_t n = c.count("a");
  const uint64_t* A = c.buf<uint64_t>("a");
  uint32_t* o = c.buf<uint32_t>("o_u32");
  float* of = c.buf<float>("o_f32");
  uint64_t* o64 = c.buf<uint64_t>("o_u64");
  double* od = c.buf<double>("o_f64");
  auto clampS = [](long double v, long double lo, long double hi) { return v < lo ? lo : v > hi ? hi : v; };
  auto i2f = [](long double v, int m) {  // f32 in mode m
    Mode s(kModes[m]);
    volatile long double x = v;
    volatile float r = static_cast<float>(x);
    return static_cast<float>(r);
  };
  auto i2d = [](long double v, int m) {
    Mode s(kModes[m]);
    volatile long double x = v;
    volatile double r = static_cast<double>(x);
    return static_cast<double>(r);
  };
  for (uint64_t i = 0; i < n; ++i) {
    uint64_t a = A[i];
    int64_t sa = static_cast<int64_t>(a);
    uint32_t lo = static_cast<uint32_t>(a);
    int32_t slo = static_cast<int32_t>(lo);
    uint16_t lo16 = static_cast<uint16_t>(a);
    uint8_t lo8 = static_cast<uint8_t>(a);
    uint32_t* r = o + i * 18;
    r[0] = lo;
    r[1] = static_cast<uint32_t>(static_cast<int32_t>(clampS(sa, INT32_MIN, INT32_MAX)));
    r[2] = static_cast<uint32_t>(clampS(sa, 0, UINT32_MAX));
    r[3] = static_cast<uint32_t>(clampS(static_cast<long double>(a), 0, INT32_MAX));
    r[4] = static_cast<uint16_t>(static_cast<int16_t>(clampS(static_cast<long double>(a), 0, INT16_MAX)));
    r[5] = static_cast<uint8_t>(clampS(sa, 0, 255));
    r[6] = static_cast<uint32_t>(static_cast<int32_t>(static_cast<int8_t>(lo8)));
    r[7] = lo16;
    r[8] = static_cast<uint8_t>(static_cast<int8_t>(clampS(slo, -128, 127)));
    r[9] = static_cast<uint16_t>(clampS(slo, 0, 65535));
    r[10] = static_cast<uint32_t>(clampS(lo, 0, INT32_MAX));
    r[11] = static_cast<uint32_t>(clampS(slo, 0, INT32_MAX));
    r[12] = static_cast<uint8_t>(clampS(static_cast<int16_t>(lo16), 0, 255));
    r[13] = static_cast<uint16_t>(clampS(lo16, 0, INT16_MAX));
    r[14] = toFormat(lo8, kHalf, RZ);
    r[15] = toFormat(slo, kBf16, RN);
    r[16] = toFormat(sa, kHalf, RN);
    r[17] = toFormat(lo16, kBf16, RP);
    uint64_t* q = o64 + i * 6;
    q[0] = sa < 0 ? 0 : a;
    q[1] = a > static_cast<uint64_t>(INT64_MAX) ? static_cast<uint64_t>(INT64_MAX) : a;
    q[2] = static_cast<uint64_t>(static_cast<int64_t>(slo));
    q[3] = lo;
    q[4] = static_cast<uint64_t>(static_cast<int64_t>(static_cast<int16_t>(lo16)));
    q[5] = lo8;
    float* f = of + i * 9;
    for (int m : {RN, RZ, RM, RP}) f[m] = i2f(slo, m);
    f[4] = i2f(lo, RM);
    f[5] = i2f(sa, RP);
    f[6] = i2f(a, RZ);
    f[7] = i2f(static_cast<int16_t>(lo16), RN);
    f[8] = sat(i2f(slo, RN));
    double* d = od + i * 3;
    d[0] = i2d(a, RN);
    d[1] = i2d(sa, RM);
    d[2] = slo;
  }
}

void ref_convert_half(RefCtx& c) {
  uint64_t n = c.count("a");
  const uint32_t* A = c.buf<uint32_t>("a");
  uint32_t* o = c.buf<uint32_t>("o_u32");
  float* of = c.buf<float>("o_f32");
  uint64_t* o64 = c.buf<uint64_t>("o_u64");
  double* od = c.buf<double>("o_f64");
  for (uint64_t i = 0; i < n; ++i) {
    uint16_t h = static_cast<uint16_t>(A[i]);
    long double fh = fromFormat(h, kHalf), fbv = fromFormat(h, kBf16);
    uint32_t* r = o + i * 6;
    r[0] = toFormat(fh, kBf16, RN);
    r[1] = toFormat(fbv, kHalf, RN);
    r[2] = static_cast<uint32_t>(f2i(fh, RZ, 32, true));
    r[3] = static_cast<uint32_t>(f2i(fbv, RN, 32, false));
    r[4] = static_cast<uint32_t>(f2i(fh, RP, 16, false));
    r[5] = std::isnan(fh) || fh <= 0 ? 0u : fh >= 1 ? 0x3c00u : h;
    of[i * 3 + 0] = static_cast<float>(fh);
    of[i * 3 + 1] = static_cast<float>(fbv);
    of[i * 3 + 2] = flush(static_cast<float>(fbv));
    od[i * 2 + 0] = static_cast<double>(fh);
    od[i * 2 + 1] = static_cast<double>(fbv);
    o64[i] = f2i(fh, RM, 64, true);
  }
}


// ---- half precision ---------------------------------------------------------------------------
// An exact value (-1)^neg * m * 2^e rounded to nearest even into format f (independent of the
// emulator: the rounding position found from the bit length, then a half-unit comparison).
uint32_t roundExactRN(bool neg, unsigned __int128 m, int e, const Fmt& f) {
  uint32_t sign = neg ? 1u << (f.p - 1 + f.ebits) : 0, maxExp = (1u << f.ebits) - 1;
  if (m == 0) return sign;
  int len = 128;
  while (!((m >> (len - 1)) & 1)) --len;
  int lsbExp = std::max(len - 1 + e, f.emin) - (f.p - 1);  // exponent of the kept unit
  unsigned __int128 kept;
  if (lsbExp <= e) {
    kept = m << (e - lsbExp);
  } else {
    int drop = lsbExp - e;
    if (drop >= 128) {
      kept = 0;  // far below half a unit
    } else {
      kept = m >> drop;
      unsigned __int128 rest = m - (kept << drop), half = static_cast<unsigned __int128>(1) << (drop - 1);
      if (rest > half || (rest == half && (kept & 1))) ++kept;
    }
  }
  if (kept >> f.p) {
    kept >>= 1;
    ++lsbExp;
  }
  int bias = (1 << (f.ebits - 1)) - 1;
  if (!(kept >> (f.p - 1))) return sign | static_cast<uint32_t>(kept);  // subnormal (or zero)
  int ef = lsbExp + f.p - 1 + bias;
  if (ef >= static_cast<int>(maxExp)) return sign | maxExp << (f.p - 1);
  return sign | static_cast<uint32_t>(ef) << (f.p - 1) | (static_cast<uint32_t>(kept) & ((1u << (f.p - 1)) - 1));
}
struct HV {  // a decoded half: finite (neg, m, e), inf or NaN
  bool neg = false, inf = false, nan = false;
  uint32_t m = 0;
  int e = 0;
};
HV decodeH(uint32_t bits, const Fmt& f) {
  HV v;
  uint32_t maxExp = (1u << f.ebits) - 1, fracMask = (1u << (f.p - 1)) - 1;
  uint32_t ex = (bits >> (f.p - 1)) & maxExp, frac = bits & fracMask;
  v.neg = (bits >> (f.p - 1 + f.ebits)) & 1;
  int bias = (1 << (f.ebits - 1)) - 1;
  if (ex == maxExp) {
    (frac ? v.nan : v.inf) = true;
    return v;
  }
  v.m = ex ? (frac | (1u << (f.p - 1))) : frac;
  v.e = (ex ? static_cast<int>(ex) : 1) - bias - (f.p - 1);
  return v;
}
bool subnormalH(uint32_t bits, const Fmt& f) {
  uint32_t maxExp = (1u << f.ebits) - 1;
  return ((bits >> (f.p - 1)) & maxExp) == 0 && (bits & ((1u << (f.p - 1)) - 1));
}
// a * b + c, exact then rounded to nearest even; NaN results canonical (0x7fff).
uint32_t fmaH(uint32_t a, uint32_t b, uint32_t c, const Fmt& f) {
  HV x = decodeH(a, f), y = decodeH(b, f), z = decodeH(c, f);
  uint32_t signBit = 1u << (f.p - 1 + f.ebits), inf = ((1u << f.ebits) - 1) << (f.p - 1), nan = signBit - 1;
  if (x.nan || y.nan || z.nan) return nan;
  bool pneg = x.neg != y.neg, pinf = x.inf || y.inf;
  if (pinf && ((!x.inf && x.m == 0) || (!y.inf && y.m == 0))) return nan;
  if (pinf || z.inf) {
    if (pinf && z.inf && pneg != z.neg) return nan;
    return ((pinf ? pneg : z.neg) ? signBit : 0) | inf;
  }
  unsigned __int128 pm = static_cast<unsigned __int128>(x.m) * y.m;
  int pe = x.e + y.e;
  if (pm == 0 && z.m == 0) return pneg && z.neg ? signBit : 0;
  if (pm == 0) return roundExactRN(z.neg, z.m, z.e, f);
  if (z.m == 0) return roundExactRN(pneg, pm, pe, f);
  // Align on the smaller exponent; a gap over 100 bits keeps the smaller term as a sticky bit.
  bool pBig = pe >= z.e;
  unsigned __int128 bm = pBig ? pm : z.m, sm = pBig ? z.m : pm;
  int be = pBig ? pe : z.e, se = pBig ? z.e : pe;
  bool bneg = pBig ? pneg : z.neg, sneg = pBig ? z.neg : pneg;
  unsigned __int128 big, small;
  int e;
  if (be - se > 100) {
    big = bm << 2, small = 1, e = be - 2;
  } else {
    big = bm << (be - se), small = sm, e = se;
  }
  if (bneg == sneg) return roundExactRN(bneg, big + small, e, f);
  if (big == small) return 0;
  return big > small ? roundExactRN(bneg, big - small, e, f) : roundExactRN(sneg, small - big, e, f);
}
long double valH(uint32_t bits, const Fmt& f) { return fromFormat(bits, f); }
uint32_t satH(uint32_t r, const Fmt& f) {
  long double v = valH(r, f);
  if (std::isnan(v) || v <= 0) return 0;
  uint32_t one = static_cast<uint32_t>((1 << (f.ebits - 1)) - 1) << (f.p - 1);
  return v >= 1 ? one : r;
}
uint32_t ftzH(uint32_t r, const Fmt& f) { return subnormalH(r, f) ? r & (1u << (f.p - 1 + f.ebits)) : r; }
uint32_t minmaxH(uint32_t a, uint32_t b, bool isMax, bool nanMode, bool xorsign, const Fmt& f) {
  uint32_t signBit = 1u << (f.p - 1 + f.ebits);
  uint32_t x = xorsign ? a & (signBit - 1) : a, y = xorsign ? b & (signBit - 1) : b;
  long double vx = valH(x, f), vy = valH(y, f);
  uint32_t r;
  if (std::isnan(vx) && std::isnan(vy)) return signBit - 1;
  if (nanMode && (std::isnan(vx) || std::isnan(vy))) return signBit - 1;
  if (std::isnan(vx)) r = y;
  else if (std::isnan(vy)) r = x;
  else if (vx == vy) r = isMax ? (x & y) : (x | y);  // -0 below +0
  else r = (vx < vy) != isMax ? x : y;
  if (xorsign) r = (r & (signBit - 1)) | ((a ^ b) & signBit);
  return r;
}
// One lane of the half_arith kernel's operation k (its item order); NaN results canonical.
uint32_t halfOp(int k, uint32_t a, uint32_t b, uint32_t c, bool bf) {
  const Fmt& f = bf ? kBf16 : kHalf;
  uint32_t one = bf ? 0x3f80u : 0x3c00u, negZero = 0x8000u;
  auto canon = [&](uint32_t r) { return (r & 0x7fffu) > (bf ? 0x7f80u : 0x7c00u) ? 0x7fffu : r; };
  uint32_t fa = ftzH(a, f), fb = ftzH(b, f), fc = ftzH(c, f);
  uint32_t r = 0;
  if (!bf) {
    switch (k) {
      case 0: r = fmaH(a, one, b, f); break;
      case 1: r = ftzH(fmaH(fa, one, fb ^ 0x8000u, f), f); break;
      case 2: r = satH(fmaH(a, b, negZero, f), f); break;
      case 3: r = fmaH(a, b, c, f); break;
      case 4: r = satH(ftzH(fmaH(fa, fb, fc, f), f), f); break;
      case 5: r = a ^ 0x8000u; break;
      case 6: r = fa & 0x7fffu; break;
      case 7: r = minmaxH(a, b, false, false, false, f); break;
      case 8: r = minmaxH(a, b, true, true, false, f); break;
      case 9: r = minmaxH(a, b, false, false, true, f); break;
      default: r = minmaxH(fa, fb, true, false, false, f); break;
    }
  } else {
    switch (k) {
      case 0: r = fmaH(a, one, b, f); break;
      case 1: r = fmaH(a, one, b ^ 0x8000u, f); break;
      case 2: r = fmaH(a, b, negZero, f); break;
      case 3: r = fmaH(a, b, c, f); break;
      case 4: r = a ^ 0x8000u; break;
      case 5: r = a & 0x7fffu; break;
      case 6: r = minmaxH(a, b, false, false, false, f); break;
      default: r = minmaxH(a, b, true, true, false, f); break;
    }
  }
  return canon(r);
}

void ref_half_arith(RefCtx& c) {
  uint64_t n = c.count("a");
  const uint32_t* A = c.buf<uint32_t>("a");
  const uint32_t* B = c.buf<uint32_t>("b");
  const uint32_t* C = c.buf<uint32_t>("c");
  uint32_t* o = c.buf<uint32_t>("o_u32");
  for (uint64_t i = 0; i < n; ++i) {
    uint32_t* r = o + i * 36;
    int k = 0;
    for (int bf = 0; bf < 2; ++bf) {
      int ops = bf ? 8 : 11;
      for (int op = 0; op < ops; ++op)  // scalar: the low halves
        r[k++] = halfOp(op, A[i] & 0xffff, B[i] & 0xffff, C[i] & 0xffff, bf);
      for (int op = bf ? 2 : 0; op < ops; ++op)  // packed: each half (no bf16x2 add/sub)
        r[k++] = halfOp(op, A[i] & 0xffff, B[i] & 0xffff, C[i] & 0xffff, bf) |
                 halfOp(op, A[i] >> 16, B[i] >> 16, C[i] >> 16, bf) << 16;
    }
  }
}

// half_cmp.ptx: f16/bf16 comparisons and fma.relu. A comparison word as PTX names it ("lt",
// "gtu", ...): ordered ones are false with a NaN operand, unordered ones true.
bool cmpH(const char* op, uint32_t a, uint32_t b, const Fmt& f, bool ftz) {
  if (ftz) a = ftzH(a, f), b = ftzH(b, f);
  long double x = valH(a, f), y = valH(b, f);
  std::string o = op;
  bool un = std::isnan(x) || std::isnan(y), unordered = o.size() == 3 && o[2] == 'u';
  if (un) return unordered;
  std::string k = o.substr(0, 2);
  return k == "lt" ? x < y : k == "le" ? x <= y : k == "gt" ? x > y : k == "ge" ? x >= y
       : k == "eq" ? x == y : x != y;
}
uint32_t reluH(uint32_t r, const Fmt& f) {  // canonical NaN kept, negative (and -0) to +0
  if (std::isnan(valH(r, f))) return 0x7fffu;
  return (r >> (f.p - 1 + f.ebits)) & 1 ? 0u : r;
}

void ref_half_cmp(RefCtx& c) {
  uint64_t n = c.count("a");
  const uint32_t* A = c.buf<uint32_t>("a");
  const uint32_t* B = c.buf<uint32_t>("b");
  const uint32_t* C = c.buf<uint32_t>("c");
  uint32_t* o = c.buf<uint32_t>("o");
  for (uint64_t i = 0; i < n; ++i) {
    uint32_t a = A[i], b = B[i], cc = C[i], al = a & 0xffff, bl = b & 0xffff, cl = cc & 0xffff;
    uint32_t ah = a >> 16, bh = b >> 16, ch = cc >> 16;
    bool podd = cc & 1;
    uint32_t* r = o + i * 16;
    auto pack = [](bool lo, bool hi, uint32_t one) { return (lo ? one : 0u) | (hi ? one : 0u) << 16; };
    r[0] = cmpH("lt", al, bl, kHalf, false);
    r[1] = cmpH("gtu", al, bl, kBf16, false);
    r[2] = cmpH("eq", al & 0x83ff, bl & 0x8000, kHalf, true);
    r[3] = cmpH("ge", al, bl, kHalf, false) | cmpH("ge", ah, bh, kHalf, false) << 1;
    r[4] = cmpH("neu", al, bl, kBf16, false) | cmpH("neu", ah, bh, kBf16, false) << 1;
    r[5] = cmpH("le", al, bl, kHalf, false) && podd;
    r[6] = cmpH("lt", al, cl, kHalf, false);
    r[7] = pack(cmpH("lt", al, bl, kHalf, false), cmpH("lt", ah, bh, kHalf, false), 0xffff);
    r[8] = pack(cmpH("gt", al, bl, kHalf, false), cmpH("gt", ah, bh, kHalf, false), 0x3c00);
    r[9] = pack(cmpH("ne", al, bl, kBf16, false), cmpH("ne", ah, bh, kBf16, false), 0x3f80);
    r[10] = pack(cmpH("equ", al, cl, kHalf, false) || podd, cmpH("equ", ah, ch, kHalf, false) || podd, 0xffff);
    r[11] = reluH(fmaH(al, bl, cl, kHalf), kHalf) | reluH(fmaH(ah, bh, ch, kHalf), kHalf) << 16;
    r[12] = reluH(fmaH(al, bl, cl, kBf16), kBf16);
    r[13] = cmpH("le", al, bl, kHalf, false) ? 0x3c00u : 0u;
    r[14] = cmpH("geu", al, bl, kBf16, false) ? 0xffffu : 0u;
    r[15] = std::isnan(valH(al, kHalf)) || std::isnan(valH(bl, kHalf)) ? 0xffffffffu : 0u;
  }
}

// convert_fp8.ptx: an fp8 value (e4m3: bias 7, no infinities, S.1111.111 NaN; e5m2: IEEE-like
// with bias 15) as a number, then to f16 (exact); NaN gives 0x7fff, .relu makes negatives +0.
uint32_t fp8ToHalf(uint32_t b, bool e4, bool relu) {
  int mbits = e4 ? 3 : 2, bias = e4 ? 7 : 15;
  uint32_t ex = (b & 0x7f) >> mbits, man = b & ((1u << mbits) - 1), emax = (1u << (7 - mbits)) - 1;
  bool neg = b & 0x80;
  if (e4 ? (ex == emax && man == (1u << mbits) - 1) : (ex == emax && man)) return 0x7fffu;
  long double v;
  if (!e4 && ex == emax) v = INFINITY;
  else if (ex == 0) v = std::ldexp(static_cast<long double>(man), 1 - bias - mbits);
  else v = std::ldexp(static_cast<long double>(man | (1u << mbits)), static_cast<int>(ex) - bias - mbits);
  if (neg) v = -v;
  if (relu && (neg || v < 0)) return 0;
  return toFormat(v, kHalf, RN);
}

void ref_convert_fp8(RefCtx& c) {
  uint64_t n = c.count("a");
  const uint32_t* A = c.buf<uint32_t>("a");
  uint32_t* o = c.buf<uint32_t>("o");
  for (uint64_t i = 0; i < n; ++i) {
    uint32_t lo = static_cast<uint32_t>(i * 257) & 0xffff, hi = A[i] >> 16;
    auto pair = [](uint32_t p, bool e4, bool relu) {
      return fp8ToHalf(p & 0xff, e4, relu) | fp8ToHalf(p >> 8, e4, relu) << 16;
    };
    o[3 * i] = pair(lo, true, false);
    o[3 * i + 1] = pair(hi, false, false);
    o[3 * i + 2] = pair(hi, true, true);
  }
}

// convert_fp8_pack.ptx: f32 / f16 values to fp8 with .satfinite: the nearest of the finite
// fp8 values (searched over all codes; a tie goes to the even code), magnitudes past the
// largest clamped to it, NaN to 0x7f, .relu negatives to +0.
uint32_t toFp8Nearest(double x, bool e4, bool relu) {
  if (std::isnan(x)) return 0x7fu;
  bool neg = std::signbit(x);
  if (relu && neg) return 0;
  int mbits = e4 ? 3 : 2, bias = e4 ? 7 : 15;
  uint32_t last = e4 ? 0x7eu : 0x7bu;  // the largest finite code
  // Clamp first: far past the largest value the distances round to equal in double.
  double a = std::min(std::fabs(x), e4 ? 448.0 : 57344.0), best = INFINITY;
  uint32_t code = 0;
  for (uint32_t k = 0; k <= last; ++k) {
    uint32_t ex = k >> mbits, man = k & ((1u << mbits) - 1);
    double v = ex == 0 ? std::ldexp(static_cast<double>(man), 1 - bias - mbits)
                       : std::ldexp(static_cast<double>(man | (1u << mbits)), static_cast<int>(ex) - bias - mbits);
    double dist = std::fabs(v - a);
    if (dist < best || (dist == best && !(k & 1))) best = dist, code = k;
  }
  return (neg ? 0x80u : 0u) | code;
}

void ref_convert_fp8_pack(RefCtx& c) {
  uint64_t n = c.count("a");
  const float* A = c.buf<float>("a");
  const float* B = c.buf<float>("b");
  const uint32_t* H = c.buf<uint32_t>("h");
  uint32_t* o = c.buf<uint32_t>("o");
  for (uint64_t i = 0; i < n; ++i) {
    double a = A[i], b = B[i];
    double hh = valH(H[i] >> 16, kHalf), hl = valH(H[i] & 0xffff, kHalf);
    auto pairF = [&](bool e4, bool relu) { return toFp8Nearest(a, e4, relu) << 8 | toFp8Nearest(b, e4, relu); };
    auto pairH = [&](bool e4, bool relu) { return toFp8Nearest(hh, e4, relu) << 8 | toFp8Nearest(hl, e4, relu); };
    o[3 * i] = pairF(false, false) << 16 | pairF(true, false);
    o[3 * i + 1] = pairH(false, false) << 16 | pairH(true, false);
    o[3 * i + 2] = pairH(false, true) << 16 | pairF(true, true);
  }
}

// ---- MUFU approximations ----------------------------------------------------------------------
void ref_math_mufu(RefCtx& c) {
  uint64_t n = c.count("a");
  const float* A = c.buf<float>("a");
  const float* B = c.buf<float>("b");
  const float* C = c.buf<float>("c");
  float* o = c.buf<float>("o_f32");
  for (uint64_t i = 0; i < n; ++i) {
    double a = A[i], b = B[i], x = C[i];
    double fa = flush(A[i]);
    float* r = o + i * 19;
    int k = 0;
    auto both = [&](double (*fn)(double), double v, double fv) {
      r[k++] = static_cast<float>(fn(v));
      r[k++] = flush(static_cast<float>(fn(fv)));
    };
    both([](double v) { return std::exp2(v); }, a, fa);
    both([](double v) { return std::log2(v); }, a, fa);
    both([](double v) { return std::sin(v); }, x, x);
    both([](double v) { return std::cos(v); }, x, x);
    both([](double v) { return 1.0 / std::sqrt(v); }, a, fa);
    both([](double v) { return std::sqrt(v); }, a, fa);
    both([](double v) { return 1.0 / v; }, a, fa);
    r[k++] = static_cast<float>(std::tanh(a));
    // PTX div.approx: for 2^126 < |b| < 2^128 the result is a * 0 (the reciprocal is zero).
    bool hugeB = std::fabs(b) > 0x1p126 && std::isfinite(b);
    r[k++] = hugeB ? static_cast<float>(a * std::copysign(0.0, b)) : static_cast<float>(a / b);
    r[k++] = hugeB ? static_cast<float>(fa * std::copysign(0.0, b)) : flush(static_cast<float>(fa / flush(B[i])));
    r[k++] = static_cast<float>(a / b);
    r[k++] = flush(static_cast<float>(fa / flush(B[i])));
  }
}


// ---- mul + add contraction (kernels/float_contract.ptx) ---------------------------------------
void ref_float_contract(RefCtx& c) {
  const float* A = c.buf<float>("a");
  const float* B = c.buf<float>("b");
  const float* C = c.buf<float>("c");
  const float* D = c.buf<float>("d");
  float* o = c.buf<float>("o");
  double* od = c.buf<double>("od");
  for (uint64_t i = 0; i < c.count("a"); ++i) {
    float a = A[i], b = B[i], x = C[i], y = D[i];
    float* r = o + 9 * i;
    r[0] = std::fma(a, b, x);
    r[1] = std::fma(-a, b, x);
    r[2] = std::fma(a, b, -x);
    r[3] = std::fma(a, b, x);
    r[4] = std::fma(a, b, y);
    volatile float xy = x * y; // rounded once on its own
    r[5] = std::fma(a, b, -xy);
    volatile float ab = a * b; // mul.rn: two roundings
    r[6] = ab + x;
    r[7] = 0;
    r[8] = 0;
    od[2 * i] = std::fma(double(a), double(b), double(y));
    od[2 * i + 1] = std::fma(-double(a), double(y), double(b));
  }
}

// ---- guarded expansions -----------------------------------------------------------------------
void ref_float_guarded(RefCtx& c) {
  uint64_t n = c.count("a");
  const float* A = c.buf<float>("a");
  const float* B = c.buf<float>("b");
  const float* C = c.buf<float>("c");
  float* o = c.buf<float>("o_f32");
  double* od = c.buf<double>("o_f64");
  for (uint64_t i = 0; i < n; ++i) {
    float a = A[i], b = B[i];
    bool g = C[i] < 0;
    float other = rop(a, b, 0.0f, 0, RN);
    float* r = o + i * 6;
    r[0] = g ? fdiv(a, b, RN) : other;
    r[1] = g ? fdiv(a, b, RZ) : other;
    r[2] = g ? fsqrt(a, RN) : other;
    r[3] = g ? fdivFtz(1.0f, a, RN) : other;
    r[4] = g ? fdiv(1.0f, b, RZ) : other;
    r[5] = g ? pmin(a, b, false) : other;
    double x = a, y = b;
    double* d = od + i * 4;
    d[0] = g ? ddiv(x, y, RN) : x;
    d[1] = g ? dsqrt(x, RM) : x;
    d[2] = g ? ddiv(1.0, y, RP) : x;
    d[3] = g ? pmin(x, y, true) : x;
  }
}

}  // namespace

struct CorpusRef {
  const char* name;
  RefFn fn;
};
// Looked up by find_reference (references.cpp) after its own table; ends with a null name.
extern const CorpusRef kFloatRefs[];
const CorpusRef kFloatRefs[] = {
    {"float_ieee32", ref_float_ieee32},
    {"float_ieee64", ref_float_ieee64},
    {"float_round32", ref_float_round32},
    {"float_round64", ref_float_round64},
    {"float_cmp32", ref_float_cmp32},
    {"float_cmp64", ref_float_cmp64},
    {"convert_f32", ref_convert_f32},
    {"convert_f64", ref_convert_f64},
    {"convert_int", ref_convert_int},
    {"convert_half", ref_convert_half},
    {"half_arith", ref_half_arith},
    {"half_cmp", ref_half_cmp},
    {"convert_fp8", ref_convert_fp8},
    {"convert_fp8_pack", ref_convert_fp8_pack},
    {"math_mufu", ref_math_mufu},
    {"float_guarded", ref_float_guarded},
    {"float_contract", ref_float_contract},
    {nullptr, nullptr},
};

}  // namespace ptxmini::exec
