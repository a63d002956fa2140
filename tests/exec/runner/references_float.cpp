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
    {nullptr, nullptr},
};

}  // namespace ptxmini::exec
