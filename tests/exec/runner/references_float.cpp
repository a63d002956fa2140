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
    {nullptr, nullptr},
};

}  // namespace ptxmini::exec
