/* references.cpp - C++ CPU references for the execution tests, one function per test,
 * registered by name in the table at the bottom. Each computes the expected contents of the
 * output buffers from the inputs the same way the kernel's source (kernels/<name>.cu) defines
 * them, written independently in plain C++. Float results that the GPU computes with one
 * rounding (fma) use std::fma so the comparison can be exact. */
#include "tests/exec/runner/test_desc.h"

#include <algorithm>
#include <cfenv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace ptxmini::exec {

// references_int.cpp (integer-family tests)
void ref_int32_ops(RefCtx& c);
void ref_int64_ops(RefCtx& c);
void ref_int16_ops(RefCtx& c);
void ref_int_div(RefCtx& c);
void ref_cvt_wide_dst(RefCtx& c);

namespace {

void ref_saxpy(RefCtx& c) {
  int n = static_cast<int>(c.iscalar(0));
  float a = static_cast<float>(c.scalar(1));
  float* x = c.buf<float>("x");
  float* y = c.buf<float>("y");
  for (int i = 0; i < n; ++i) y[i] = std::fma(a, x[i], y[i]);
}


// Values are computed under round-to-nearest unless an explicit RoundMode says otherwise.
struct RoundMode {
  int old;
  explicit RoundMode(int m) : old(std::fegetround()) { std::fesetround(m); }
  ~RoundMode() { std::fesetround(old); }
};

void ref_int_arith(RefCtx& c) {
  int n = static_cast<int>(c.iscalar(4));
  const int32_t* a = c.buf<int32_t>("a");
  const int32_t* b = c.buf<int32_t>("b");
  int32_t* out = c.buf<int32_t>("out");
  int64_t* out64 = c.buf<int64_t>("out64");
  for (int i = 0; i < n; ++i) {
    int32_t x = a[i], y = b[i];
    uint32_t ux = static_cast<uint32_t>(x), uy = static_cast<uint32_t>(y);
    int32_t* o = out + i * 12;
    o[0] = static_cast<int32_t>(ux + uy);
    o[1] = static_cast<int32_t>(ux - uy);
    o[2] = static_cast<int32_t>(ux * uy);
    o[3] = static_cast<int32_t>((int64_t{x} * y) >> 32);
    o[4] = static_cast<int32_t>((uint64_t{ux} * uy) >> 32);
    o[5] = y ? x / y : 0;
    o[6] = y ? x % y : 0;
    o[7] = static_cast<int32_t>(uy ? ux / uy : 0);
    o[8] = static_cast<int32_t>(uy ? ux % uy : 0);
    o[9] = std::min(x, y);
    o[10] = static_cast<int32_t>(std::max(ux, uy));
    o[11] = x < 0 ? -x : x;
    int64_t X = static_cast<int64_t>(static_cast<uint64_t>(int64_t{x} * 123456789LL) + static_cast<uint64_t>(int64_t{y}));
    int64_t Y = static_cast<int64_t>((static_cast<uint64_t>(int64_t{y}) << 20) | 1);
    int64_t* p = out64 + i * 6;
    p[0] = static_cast<int64_t>(static_cast<uint64_t>(X) * static_cast<uint64_t>(Y));
    p[1] = X / Y;
    p[2] = X % Y;
    p[3] = static_cast<int64_t>(static_cast<uint64_t>(X) / static_cast<uint64_t>(Y));
    p[4] = static_cast<int64_t>((static_cast<__int128>(X) * Y) >> 64);
    p[5] = X >> (y & 63);
  }
}

void ref_float_arith(RefCtx& c) {
  int n = static_cast<int>(c.iscalar(4));
  const float* a = c.buf<float>("a");
  const float* b = c.buf<float>("b");
  float* out = c.buf<float>("out");
  double* outd = c.buf<double>("outd");
  for (int i = 0; i < n; ++i) {
    volatile float x = a[i], y = b[i];
    float* o = out + i * 10;
    o[0] = x + y;
    o[1] = x * y;
    o[2] = std::fma(x, y, 1.5f);
    o[3] = x / y;
    o[4] = std::sqrt(std::fabs(x));
    o[5] = std::fmin(x, y);
    o[6] = std::fmax(x, y);
    { RoundMode r(FE_TOWARDZERO); volatile float t = x + y; o[7] = t; }
    { RoundMode r(FE_UPWARD); volatile float t = x * y; o[8] = t; }
    { RoundMode r(FE_DOWNWARD); volatile float t = 1.0f / y; o[9] = t; }
    volatile double X = x, Y = y;
    double* p = outd + i * 5;
    p[0] = std::fma(X, Y, X);
    p[1] = X / Y;
    p[2] = std::sqrt(std::fabs(X));
    volatile double y3 = Y * 1e-3;
    { RoundMode r(FE_DOWNWARD); volatile double t = X + y3; p[3] = t; }
    p[4] = std::fma(X, Y, -1.0);
  }
}

void ref_math_approx(RefCtx& c) {
  int n = static_cast<int>(c.iscalar(2));
  const float* a = c.buf<float>("a");
  float* out = c.buf<float>("out");
  for (int i = 0; i < n; ++i) {
    double x = a[i];
    float* o = out + i * 10;
    o[0] = static_cast<float>(std::exp(x));
    o[1] = static_cast<float>(std::log(static_cast<double>(std::fabs(a[i]) + 1.0f)));
    o[2] = static_cast<float>(std::sin(x));
    o[3] = static_cast<float>(std::cos(x));
    o[4] = static_cast<float>(1.0 / std::sqrt(static_cast<double>(std::fabs(a[i]) + 0.5f)));
    o[5] = static_cast<float>(std::exp(x));
    o[6] = static_cast<float>(std::log(static_cast<double>(std::fabs(a[i]) + 0.25f)));
    o[7] = static_cast<float>(std::sin(x));
    o[8] = static_cast<float>(std::cos(x)) + static_cast<float>(std::exp2(x));
    o[9] = static_cast<float>(std::tanh(x));
  }
}

void ref_convert(RefCtx& c) {
  int n = static_cast<int>(c.iscalar(6));
  const float* f = c.buf<float>("f");
  const int32_t* iv = c.buf<int32_t>("iv");
  int32_t* oi = c.buf<int32_t>("oi");
  float* of = c.buf<float>("of");
  double* od = c.buf<double>("od");
  uint16_t* oh = c.buf<uint16_t>("oh");
  for (int i = 0; i < n; ++i) {
    float x = f[i];
    int32_t k = iv[i];
    int32_t* a = oi + i * 8;
    a[0] = static_cast<int32_t>(x);
    a[1] = static_cast<int32_t>(std::nearbyint(x));
    a[2] = static_cast<int32_t>(std::floor(x));
    a[3] = static_cast<int32_t>(std::ceil(x));
    a[4] = static_cast<int32_t>(static_cast<uint32_t>(std::fabs(x)));
    a[5] = static_cast<int8_t>(k);
    a[6] = static_cast<int16_t>(k);
    volatile float xm = x * 1e6f;
    a[7] = static_cast<int32_t>(static_cast<int64_t>(xm));
    float* b = of + i * 5;
    b[0] = static_cast<float>(k);
    { RoundMode r(FE_TOWARDZERO); volatile int32_t kk = k * 1000 + 7; volatile float t = static_cast<float>(kk); b[1] = t; }
    b[2] = static_cast<float>(static_cast<uint32_t>(k));
    b[3] = static_cast<float>(int64_t{k} * 100003LL);
    volatile float xs = x * 0.01f;
    b[4] = static_cast<float>(static_cast<_Float16>(static_cast<float>(xs)));
    od[i * 2] = static_cast<double>(x);
    od[i * 2 + 1] = static_cast<double>(k) * 0.5;
    _Float16 h = static_cast<_Float16>(x);
    std::memcpy(&oh[i], &h, 2);
  }
}

void ref_logic(RefCtx& c) {
  int n = static_cast<int>(c.iscalar(3));
  const uint32_t* a = c.buf<uint32_t>("a");
  const uint32_t* b = c.buf<uint32_t>("b");
  uint32_t* out = c.buf<uint32_t>("out");
  for (int i = 0; i < n; ++i) {
    uint32_t x = a[i], y = b[i], s = y & 31;
    uint32_t* o = out + i * 16;
    o[0] = x & y;
    o[1] = x | ~y;
    o[2] = x ^ y;
    o[3] = x << s;
    o[4] = x >> s;
    o[5] = static_cast<uint32_t>(static_cast<int32_t>(x) >> s);
    uint64_t hl = uint64_t{y} << 32 | x;
    o[6] = static_cast<uint32_t>((hl << ((y & 63) & 31)) >> 32);
    uint32_t rc = std::min<uint32_t>(y & 63, 32);
    o[7] = static_cast<uint32_t>(hl >> rc);
    o[8] = static_cast<uint32_t>(__builtin_popcount(x));
    o[9] = (x & y) ? static_cast<uint32_t>(__builtin_clz(x & y)) : 32u;
    uint32_t r = 0;
    for (int k = 0; k < 32; ++k) r |= ((x >> k) & 1u) << (31 - k);
    o[10] = r;
    uint32_t sel = y & 0x7777, bp = 0;
    uint64_t bytes = uint64_t{y} << 32 | x;
    for (int k = 0; k < 4; ++k) bp |= static_cast<uint32_t>((bytes >> (8 * ((sel >> (4 * k)) & 7))) & 0xff) << (8 * k);
    o[11] = bp;
    uint32_t m = x & ~y;
    o[12] = m ? static_cast<uint32_t>(__builtin_ctz(m)) + 1 : 0;
    o[13] = (x >> 5) & 0x3ff;
    o[14] = (x & ~0xff0u) | ((y << 4) & 0xff0u);
    o[15] = static_cast<uint32_t>((uint64_t{x} * y) >> (s + 7));
  }
}

void ref_setp_selp(RefCtx& c) {
  int n = static_cast<int>(c.iscalar(4));
  const float* a = c.buf<float>("a");
  const float* b = c.buf<float>("b");
  const int32_t* cc = c.buf<int32_t>("c");
  int32_t* out = c.buf<int32_t>("out");
  for (int i = 0; i < n; ++i) {
    int32_t k = cc[i];
    float nan;
    uint32_t nb = 0x7fc00000u;
    std::memcpy(&nan, &nb, 4);
    float x = (k % 7 == 0) ? nan : a[i];
    float y = (k % 5 == 0) ? x : b[i];
    int r = 0;
    r |= (x < y) << 0;
    r |= (x <= y) << 1;
    r |= (x == y) << 2;
    r |= (x != y) << 3;
    r |= (x > y) << 4;
    r |= (x >= y) << 5;
    r |= std::isnan(x) << 6;
    r |= !(x < y) << 7;
    r |= (k < 0) << 8;
    r |= (static_cast<uint32_t>(k) > 1000u) << 9;
    r |= (k == 7) << 10;
    r |= (k >= -3) << 11;
    out[i * 3] = r;
    out[i * 3 + 1] = x < y ? k : -k;
    float s = k > 0 ? x : y;
    std::memcpy(&out[i * 3 + 2], &s, 4);
  }
}

void ref_branches(RefCtx& c) {
  int n = static_cast<int>(c.iscalar(2));
  const int32_t* in = c.buf<int32_t>("in");
  int32_t* out = c.buf<int32_t>("out");
  for (int i = 0; i < n; ++i) {
    int x = in[i];
    uint32_t v = static_cast<uint32_t>(x);
    int steps = 0;
    while (v != 1 && steps < 1000) {
      v = (v & 1) ? 3 * v + 1 : v / 2;
      steps++;
    }
    int s = 0;
    bool early = false;
    switch (x % 5) {
      case 0: s = 10; break;
      case 1: s = steps * 2; break;
      case 2: s = -steps; break;
      case 3:
        for (int j = 0; j < x % 13; j++) s += j * j;
        break;
      default:
        if (x & 8) { out[i] = -1; early = true; break; }
        s = x / 3;
    }
    if (!early) out[i] = steps * 1000 + s;
  }
}

void ref_reduce_shared(RefCtx& c) {
  int n = static_cast<int>(c.iscalar(2));
  const int32_t* in = c.buf<int32_t>("in");
  int32_t* out = c.buf<int32_t>("out");
  for (uint32_t b = 0; b < c.d.grid[0]; ++b) {
    int32_t s = 0;
    for (int i = static_cast<int>(b * c.d.block[0] * 2); i < static_cast<int>((b + 1) * c.d.block[0] * 2) && i < n; ++i) s += in[i];
    out[b] = s;
  }
}

void ref_transpose(RefCtx& c) {
  int w = static_cast<int>(c.iscalar(2)), h = static_cast<int>(c.iscalar(3));
  const float* in = c.buf<float>("in");
  float* out = c.buf<float>("out");
  for (int r = 0; r < w; ++r)
    for (int col = 0; col < h; ++col) out[r * h + col] = in[col * w + r];
}

void ref_atomics(RefCtx& c) {
  int n = static_cast<int>(c.iscalar(7));
  const int32_t* in = c.buf<int32_t>("in");
  int32_t* hist = c.buf<int32_t>("hist");
  int32_t* exch = c.buf<int32_t>("exch");
  int32_t sum = 0;
  uint32_t mx = *c.buf<uint32_t>("gmax");
  for (int i = 0; i < n; ++i) {
    hist[in[i] & 15]++;
    sum += in[i];
    mx = std::max(mx, static_cast<uint32_t>(in[i]));
    exch[in[i] & 3] = 7;
  }
  *c.buf<int32_t>("gsum") += sum;
  *c.buf<float>("fsum") += 0.5f * static_cast<float>(n);
  *c.buf<uint32_t>("gmax") = mx;
  *c.buf<int32_t>("cas_count") += n;
}

void ref_warp_ops(RefCtx& c) {
  const int32_t* in = c.buf<int32_t>("in");
  int32_t* out = c.buf<int32_t>("out");
  uint64_t total = uint64_t{c.d.grid[0]} * c.d.block[0];
  for (uint64_t w0 = 0; w0 < total; w0 += 32) {
    const int32_t* v = in + w0;
    uint32_t ballot = 0, odd = 0;
    bool any = false, all = true;
    int32_t oddsum = 0;
    for (int l = 0; l < 32; ++l) {
      if (v[l] & 1) { ballot |= 1u << l; odd |= 1u << l; oddsum += v[l]; }
      any = any || v[l] > 900;
      all = all && v[l] >= 0;
    }
    for (int l = 0; l < 32; ++l) {
      int32_t* o = out + (w0 + static_cast<uint64_t>(l)) * 9;
      o[0] = v[(l * 7) & 31];
      o[1] = l >= 3 ? v[l - 3] : v[l];
      o[2] = l + 5 <= 31 ? v[l + 5] : v[l];
      o[3] = v[l ^ 9];
      o[4] = static_cast<int32_t>(ballot);
      o[5] = (any ? 1 : 0) + 2 * (all ? 1 : 0);
      uint32_t m = 0;
      for (int k = 0; k < 32; ++k) if ((v[k] & 3) == (v[l] & 3)) m |= 1u << k;
      o[6] = static_cast<int32_t>(m);
      o[7] = (v[l] & 1) ? (oddsum ^ static_cast<int32_t>(odd)) : 0;
      o[8] = (l % 16) + 1 < 16 ? v[l + 1] : v[l];
    }
  }
}

// kernels/ctrl_divergence.ptx: warp instructions after and inside divergent regions.
void ref_ctrl_divergence(RefCtx& c) {
  const uint32_t* in = c.buf<uint32_t>("in");
  uint32_t* out = c.buf<uint32_t>("out");
  uint64_t total = uint64_t{c.d.grid[0]} * c.d.block[0];
  for (uint64_t w0 = 0; w0 < total; w0 += 32) {
    uint32_t v[32], a[32], steps[32], x[32], acc[32];
    for (int l = 0; l < 32; ++l) {
      v[l] = in[w0 + l];
      if (v[l] & 1) a[l] = (v[l] & 2) ? v[l] * 3 : v[l] + 7;
      else a[l] = (v[l] >> 1) > 100 ? (v[l] >> 1) - 100 : v[l] >> 1;
      steps[l] = 0;
      x[l] = v[l];
      while (x[l] != 0 && (x[l] & 15) != 15) { x[l] >>= 2; steps[l]++; }
      acc[l] = 0;
      for (uint32_t i = 0; i < (v[l] & 7); i++) acc[l] += i * v[l];
    }
    uint32_t sum = 0, ballot = 0, m = 0, m8 = 0, addm = 0, maxm = 0;
    bool all5 = true, any1000 = false;
    for (int l = 0; l < 32; ++l) {
      sum += a[l];
      if (steps[l] > 3) ballot |= 1u << l;
      if ((v[l] & 6) == 2) { m |= 1u << l; addm += v[l]; }
      if ((v[l] & 6) == 2 && (v[l] & 8)) { m8 |= 1u << l; maxm = std::max(maxm, a[l]); }
      all5 = all5 && a[l] > 5;
      any1000 = any1000 || a[l] > 1000;
    }
    uint32_t bit8 = 0;
    for (int l = 0; l < 32; ++l) bit8 += (v[l] & 0x100) != 0;
    bool uni = bit8 == 0 || bit8 == 32;
    for (int l = 0; l < 32; ++l) {
      uint32_t* o = out + (w0 + static_cast<uint64_t>(l)) * 8;
      o[0] = sum;
      o[1] = ballot;
      uint32_t r = 0;
      if ((v[l] & 6) == 2) {
        r = addm ^ (m * 3);
        if (v[l] & 8) r += maxm;
      }
      o[2] = r;
      o[3] = (all5 ? 2 : 0) + (any1000 ? 1 : 0);
      o[4] = l >= 3 ? steps[l - 3] * 2 + 1 : steps[l] * 2;
      o[5] = (l + 5 <= 31 ? acc[l + 5] : acc[l]) + acc[(l * 7) & 31];
      uint32_t mm = 0;
      for (int k = 0; k < 32; ++k) if ((v[k] & 3) == (v[l] & 3)) mm |= 1u << k;
      o[6] = (uni ? 1u : 0u) | (mm << 1);
      o[7] = x[l];
    }
  }
}

// kernels/ctrl_barriers.ptx: CTA reductions, named barriers with counts, exchanges.
void ref_ctrl_barriers(RefCtx& c) {
  const uint32_t* in = c.buf<uint32_t>("in");
  uint32_t* out = c.buf<uint32_t>("out");
  uint32_t ntid = c.d.block[0];
  for (uint32_t cta = 0; cta < c.d.grid[0]; ++cta) {
    const uint32_t* v = in + cta * ntid;
    uint32_t popc = 0;
    bool all = true, any = false;
    for (uint32_t t = 0; t < ntid; ++t) {
      popc += v[t] > 500;
      all = all && v[t] <= 1000;
      any = any || v[t] < 20;
    }
    for (uint32_t t = 0; t < ntid; ++t) {
      uint32_t g = cta * ntid + t;
      uint32_t* o = out + g * 5;
      o[0] = popc;
      o[1] = (all ? 1u : 0u) | (any ? 2u : 0u) | ((ntid - popc) << 2);
      o[2] = t < 64 ? v[t] * 2 + 1 : v[t - 64] * 2 + 1;
      o[3] = in[g ^ 32];
      o[4] = 7 * 1000 + ntid;
    }
  }
}

// kernels/ctrl_warp_misc.ptx: lane registers, elect, match, redux, shfl operand forms.
void ref_ctrl_warp_misc(RefCtx& c) {
  const uint32_t* in = c.buf<uint32_t>("in");
  uint32_t* out = c.buf<uint32_t>("out");
  uint32_t ntid = c.d.block[0];
  for (uint32_t cta = 0; cta < c.d.grid[0]; ++cta)
    for (uint32_t w0 = 0; w0 < ntid; w0 += 32) {
      const uint32_t* v = in + cta * ntid + w0;
      uint32_t andv = ~0u, orv = 0, xorv = 0, minu = ~0u, one = 0;
      int32_t mins = INT32_MAX, maxs = INT32_MIN, sums = 0;
      for (int l = 0; l < 32; ++l) {
        andv &= v[l] | 0xff00;
        orv |= v[l];
        xorv ^= v[l];
        minu = std::min(minu, v[l]);
        int32_t s = static_cast<int32_t>(v[l]) - 500;
        mins = std::min(mins, s);
        maxs = std::max(maxs, s);
        sums += s;
        one += v[l] & 1;
      }
      bool same1 = one == 0 || one == 32;
      for (uint32_t l = 0; l < 32; ++l) {
        uint32_t* o = out + (cta * ntid + w0 + l) * 16;
        uint32_t bit = 1u << l;
        o[0] = l;
        o[1] = bit;
        o[2] = bit | (bit - 1);
        o[3] = bit - 1;
        o[4] = ~(bit - 1);
        o[5] = ~(bit | (bit - 1));
        o[6] = l == 0 ? 1 : 0;
        o[7] = 0xffffffffu;
        o[8] = same1 ? 0xffffffffu : 0u;
        o[9] = andv ^ orv;
        o[10] = xorv + static_cast<uint32_t>(mins);
        o[11] = static_cast<uint32_t>(maxs) + minu;
        // width 8 (c = 0x181f): the source lane wraps inside the lane's group of 8 and is
        // always in range for idx
        uint32_t src = (l & ~7u) | ((l + 1) & 7u);
        o[12] = v[src] * 2 + 1;
        uint32_t mm = 0;
        for (int k = 0; k < 32; ++k) if ((v[k] & 3) == (v[l] & 3)) mm |= 1u << k;
        o[13] = mm;
        uint32_t d = l + (l & 3);
        o[14] = d <= 31 ? v[d] * 2 + 1 : v[l] * 2;
        o[15] = static_cast<uint32_t>(sums);
      }
    }
}

// kernels/ctrl_sregs.ptx: launch-fixed special registers of a launch without clusters.
void ref_ctrl_sregs(RefCtx& c) {
  uint32_t* out = c.buf<uint32_t>("out");
  for (uint32_t y = 0; y < c.d.grid[1]; ++y)
    for (uint32_t x = 0; x < c.d.grid[0]; ++x)
      for (uint32_t t = 0; t < c.d.block[0]; ++t) {
        uint32_t* o = out + ((y * c.d.grid[0] + x) * c.d.block[0] + t) * 12;
        o[0] = x;
        o[1] = y;
        o[2] = 0;
        o[3] = 0;
        o[4] = c.d.grid[0];
        o[5] = c.d.grid[1];
        o[6] = 1;
        o[7] = 0;
        o[8] = 1;
        o[9] = 0;
        o[10] = c.d.dynamic_shared;
        o[11] = 100 * c.d.grid[1] + y;
      }
}

void ref_local_array(RefCtx& c) {
  int n = static_cast<int>(c.iscalar(2));
  const int32_t* in = c.buf<int32_t>("in");
  int32_t* out = c.buf<int32_t>("out");
  for (int i = 0; i < n; ++i) {
    int a[64];
    for (int j = 0; j < 64; j++) a[j] = in[(i + j) % n] * j;
    int s = 0;
    for (int j = 0; j < 64; j++) s += a[(j * in[i]) & 63];
    out[i] = s;
  }
}

void ref_device_call(RefCtx& c) {
  int n = static_cast<int>(c.iscalar(3));
  const int32_t* in = c.buf<int32_t>("in");
  int32_t* out = c.buf<int32_t>("out");
  float* fo = c.buf<float>("fo");
  for (int i = 0; i < n; ++i) {
    int k = in[i] % 12, f = 1;
    for (int j = 2; j <= k; ++j) f *= j;
    out[i] = f;
    float x = static_cast<float>(in[i]);
    fo[i] = std::fma(std::fma(0.5f, x, -2.0f), x, 3.0f);
  }
}

void ref_minmax(RefCtx& c) {
  int n = static_cast<int>(c.iscalar(4));
  const int32_t *a = c.buf<int32_t>("a"), *b = c.buf<int32_t>("b"), *cc = c.buf<int32_t>("c");
  int32_t* out = c.buf<int32_t>("out");
  for (int i = 0; i < n; ++i) {
    int32_t x = a[i], y = b[i], z = cc[i];
    uint32_t ux = static_cast<uint32_t>(x), uy = static_cast<uint32_t>(y), uz = static_cast<uint32_t>(z);
    int32_t* o = out + i * 9;
    o[0] = std::min(x + y, z);
    o[1] = std::max(x - y, z);
    o[2] = static_cast<int32_t>(std::min(ux - uy, uz));
    o[3] = static_cast<int32_t>(std::max(ux + uy, uz));
    o[4] = std::min(std::max(x, -100), 100);
    o[5] = static_cast<int32_t>(std::min(ux, uy));
    o[6] = static_cast<int32_t>(std::min(ux - uy, uy));
    o[7] = std::max(x + y, y * 3);
    o[8] = static_cast<int32_t>(std::min(ux + 5, uz));
  }
}

void ref_misc(RefCtx& c) {
  const float* f = c.buf<float>("f");
  const double* d = c.buf<double>("d");
  float* of = c.buf<float>("of");
  double* od = c.buf<double>("od");
  int32_t* oi = c.buf<int32_t>("oi");
  int n = static_cast<int>(c.iscalar(7));
  int threads = static_cast<int>(c.d.block[0]);
  for (int t = 0; t < threads; ++t) {
    oi[t * 4 + 0] = (t ^ 1) * 3;                 // the neighbour's value, after the barrier
    oi[t * 4 + 1] = (t & 7) * 3 + threads / 8;   // plus one atomic increment per thread mapping there
    float x = f[t];
    of[t * 4 + 0] = std::nearbyint(x);
    of[t * 4 + 1] = std::floor(x);
    of[t * 4 + 2] = std::trunc(x);
    of[t * 4 + 3] = std::ceil(x);
    double y = d[t];
    od[t * 3 + 0] = std::floor(y);
    od[t * 3 + 1] = y < 0.5 ? y : -y;
    od[t * 3 + 2] = std::fmax(y, 0.25);
    oi[t * 4 + 2] = 1;
    int acc = 0;
    for (int j = 0; j < n; j++) acc += (f[j] > x) ? j : -j;
    oi[t * 4 + 3] = acc;
  }
}

// atomicInc/atomicDec are order dependent only through their wrap-around; applying them in any
// order gives the same final value, as do the commutative operations.
void ref_atomics2(RefCtx& c) {
  int n = static_cast<int>(c.iscalar(5));
  const int32_t* in = c.buf<int32_t>("in");
  uint64_t* g64 = c.buf<uint64_t>("g64");
  uint32_t* ginc = c.buf<uint32_t>("ginc");
  int32_t* out = c.buf<int32_t>("out");
  double sum = 0;
  for (int i = 0; i < n; ++i) {
    uint64_t v = static_cast<uint64_t>(in[i]);
    g64[0] += v * 1000000007ull;
    g64[1] = std::max(g64[1], v << 20);
    g64[2] += v;
    sum += static_cast<double>(in[i]) * 0.25;  // exact: quarters of small integers
    ginc[0] = ginc[0] >= 9u ? 0 : ginc[0] + 1;
    ginc[1] = (ginc[1] == 0 || ginc[1] > 5u) ? 5u : ginc[1] - 1;
  }
  *c.buf<double>("gd") += sum;
  int threads = static_cast<int>(c.d.block[0]);
  for (uint32_t b = 0; b < c.d.grid[0]; ++b) {
    int mn = 1 << 30, mx = -(1 << 30), an = -1, orv = 0, xr = 0, cnt = 0;
    for (int t = 0; t < threads; ++t) {
      int i = static_cast<int>(b) * threads + t;
      if (i >= n) continue;
      int v = in[i];
      mn = std::min(mn, v - 500);
      mx = std::max(mx, v - 500);
      an &= ~(1 << (v & 15));
      orv |= static_cast<int>(1u << (v & 31));
      xr ^= v;
      ++cnt;
    }
    int32_t* p = out + b * 6;
    p[0] = mn; p[1] = mx; p[2] = an; p[3] = orv; p[4] = xr; p[5] = cnt;
  }
}

void ref_dims(RefCtx& c) {
  const uint32_t* G = c.d.grid;
  const uint32_t* B = c.d.block;
  int32_t* out = c.buf<int32_t>("out");
  for (uint32_t bz = 0; bz < G[2]; ++bz)
    for (uint32_t by = 0; by < G[1]; ++by)
      for (uint32_t bx = 0; bx < G[0]; ++bx)
        for (uint32_t tz = 0; tz < B[2]; ++tz)
          for (uint32_t ty = 0; ty < B[1]; ++ty)
            for (uint32_t tx = 0; tx < B[0]; ++tx) {
              uint32_t bid = bx + G[0] * (by + G[1] * bz), tid = tx + B[0] * (ty + B[1] * tz);
              uint32_t g = bid * B[0] * B[1] * B[2] + tid;
              out[g * 3 + 0] = static_cast<int32_t>(B[0] * 1000000 + B[1] * 10000 + B[2] * 100 + G[0] * 10 + G[1] + G[2] * 7);
              out[g * 3 + 1] = static_cast<int32_t>(tx * 10000 + ty * 100 + tz);
              out[g * 3 + 2] = static_cast<int32_t>(bx * 10000 + by * 100 + bz);
            }
}

// PTX ISA definitions of bfe / bfi (32-bit): fields from bits [7:0] of pos and len.
uint32_t bfe32(uint32_t a, uint32_t pos, uint32_t len, bool sgn) {
  pos &= 0xff;
  len &= 0xff;
  uint32_t sbit = 0;
  if (sgn && len != 0) sbit = (a >> std::min(pos + len - 1, 31u)) & 1;
  uint32_t d = 0;
  for (uint32_t i = 0; i <= 31; ++i) {
    uint32_t bit = (i < len && pos + i <= 31) ? (a >> (pos + i)) & 1 : sbit;
    d |= bit << i;
  }
  return d;
}

uint32_t bfi32(uint32_t a, uint32_t b, uint32_t pos, uint32_t len) {
  pos &= 0xff;
  len &= 0xff;
  uint32_t f = b;
  for (uint32_t i = 0; i < len && pos + i <= 31; ++i) f = (f & ~(1u << (pos + i))) | (((a >> i) & 1) << (pos + i));
  return f;
}

void ref_bitfield(RefCtx& c) {
  int n = static_cast<int>(c.iscalar(3));
  const uint32_t *a = c.buf<uint32_t>("a"), *b = c.buf<uint32_t>("b");
  uint32_t* out = c.buf<uint32_t>("out");
  for (int i = 0; i < n; ++i) {
    uint32_t x = a[i], y = b[i], pos = y & 31, len = (y >> 5) & 31;
    out[i * 4 + 0] = bfe32(x, pos, len, false);
    out[i * 4 + 1] = bfe32(x, pos, len, true);
    out[i * 4 + 2] = bfi32(y, x, pos, len);
    out[i * 4 + 3] = bfe32(x, 3, 7, true);
  }
}

void ref_const_table(RefCtx& c) {
  const int table[16] = {3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3};
  const float coef[4] = {0.5f, -1.25f, 2.0f, 0.125f};
  int n = static_cast<int>(c.iscalar(3));
  const int32_t* in = c.buf<int32_t>("in");
  for (int i = 0; i < n; ++i) {
    int v = in[i], s = 0;
    for (int k = 0; k < 16; k++) s += table[k] * (v + k);
    c.buf<int32_t>("out")[i * 2] = table[v & 15];
    c.buf<int32_t>("out")[i * 2 + 1] = s;
    c.buf<float>("fout")[i] = coef[v & 3] * static_cast<float>(v);
  }
}

// binary16 arithmetic with one rounding per operation: products and sums of halves are exact
// in double, then rounded once by the (correctly rounding) double -> _Float16 conversion.
uint16_t hbits(_Float16 h) {
  uint16_t u;
  std::memcpy(&u, &h, 2);
  return u;
}

void ref_packed_half(RefCtx& c) {
  int n = static_cast<int>(c.iscalar(5));
  const float *a = c.buf<float>("a"), *b = c.buf<float>("b"), *cc = c.buf<float>("c");
  for (int i = 0; i < n; ++i) {
    uint32_t w[3] = {0, 0, 0};
    _Float16 fl = 0, mh = 0;
    for (int k = 0; k < 2; ++k) {
      _Float16 x = static_cast<_Float16>(a[2 * i + k]), y = static_cast<_Float16>(b[2 * i + k]),
               z = static_cast<_Float16>(cc[2 * i + k]);
      double dx = static_cast<double>(x), dy = static_cast<double>(y), dz = static_cast<double>(z);
      _Float16 s = static_cast<_Float16>(dx + dy), m = static_cast<_Float16>(dx * dy), f = static_cast<_Float16>(dx * dy + dz);
      w[0] |= uint32_t{hbits(s)} << (16 * k);
      w[1] |= uint32_t{hbits(m)} << (16 * k);
      w[2] |= uint32_t{hbits(f)} << (16 * k);
      if (k == 0) fl = f;
      else mh = m;
    }
    for (int k = 0; k < 3; ++k) c.buf<uint32_t>("out")[i * 3 + k] = w[k];
    c.buf<float>("fo")[i] = static_cast<float>(fl) + static_cast<float>(mh);
  }
}

void ref_local_generic(RefCtx& c) {
  const int32_t* in = c.buf<int32_t>("in");
  for (uint32_t t = 0; t < c.d.block[0]; ++t) {
    int s = 0;
    for (int i = 0; i < 8; i++) s += in[t + static_cast<uint32_t>(i)] * 3 * (i + 1);
    for (int i = 0; i < 4; i++) s += in[i] * (i + 1);
    c.buf<int32_t>("out")[t] = s;
  }
}

// ---- memory tests (kernels/mem_*.ptx) ----------------------------------------------------

// mem_vector.ptx: per thread a 24-word record, see the kernel for the layout.
void ref_mem_vector(RefCtx& c) {
  const uint32_t* in = c.buf<uint32_t>("in");
  uint32_t* out = c.buf<uint32_t>("out");
  for (int t = 0; t < 40; ++t) {
    const uint32_t* a = in + 24 * t;
    uint32_t* o = out + 24 * t;
    o[0] = a[3]; o[1] = a[2]; o[2] = a[1]; o[3] = a[0];
    o[4] = a[6]; o[5] = a[7]; o[6] = a[4]; o[7] = a[5];
    o[8] = a[11]; o[9] = a[8]; o[10] = a[0]; o[11] = 305419896u;
    o[12] = a[14]; o[13] = a[15]; o[14] = a[12]; o[15] = a[13];
    for (int k = 16; k < 20; ++k) o[k] = a[k];
    o[20] = a[21]; o[21] = a[21]; o[22] = a[20]; o[23] = a[20];
  }
}

// mem_subword.ptx: per thread 16 input bytes -> 20 words and 16 bytes.
void ref_mem_subword(RefCtx& c) {
  const uint8_t* in = c.buf<uint8_t>("in");
  uint32_t* out = c.buf<uint32_t>("out");
  uint8_t* bytes = c.buf<uint8_t>("bytes");
  auto s8 = [](uint8_t v) { return static_cast<uint32_t>(static_cast<int32_t>(static_cast<int8_t>(v))); };
  auto u16 = [](const uint8_t* p) { return static_cast<uint32_t>(p[0] | p[1] << 8); };
  auto s16 = [](const uint8_t* p) { return static_cast<uint32_t>(static_cast<int32_t>(static_cast<int16_t>(p[0] | p[1] << 8))); };
  auto put64 = [](uint32_t* o, int64_t v) { o[0] = static_cast<uint32_t>(v); o[1] = static_cast<uint32_t>(static_cast<uint64_t>(v) >> 32); };
  for (int t = 0; t < 48; ++t) {
    const uint8_t* b = in + 16 * t;
    uint32_t* o = out + 20 * t;
    uint8_t* bb = bytes + 16 * t;
    o[0] = b[0];
    o[1] = s8(b[1]);
    o[2] = u16(b + 2);
    o[3] = s16(b + 4);
    o[4] = b[7];
    o[5] = s8(b[15]);
    put64(o + 6, static_cast<int8_t>(b[6]));
    put64(o + 8, u16(b + 8));
    int32_t w12;
    std::memcpy(&w12, b + 12, 4);
    put64(o + 10, w12);
    o[12] = s8(b[12]); o[13] = s8(b[13]); o[14] = s8(b[14]); o[15] = u16(b + 8);
    o[16] = s8(b[7]);
    o[17] = s8(b[0]);
    o[18] = s16(b + 4);
    bb[3] = b[1];
    bb[0] = b[5]; bb[1] = 0;
    bb[2] = b[4];
    bb[4] = b[1]; bb[5] = b[0];
    bb[6] = b[2]; bb[7] = b[3];
    // shared bytes: 0, b0, b4, b7, 0, 0, b2, b3
    uint32_t w = static_cast<uint32_t>(b[0]) << 8 | static_cast<uint32_t>(b[4]) << 16 | static_cast<uint32_t>(b[7]) << 24;
    std::memcpy(bb + 8, &w, 4);
    bb[12] = b[0]; bb[13] = b[4]; bb[14] = b[2]; bb[15] = b[3];
  }
}

// mem_shared.ptx: per thread 12 words (the last two only for thread 0).
void ref_mem_shared(RefCtx& c) {
  const uint32_t* in = c.buf<uint32_t>("in");
  uint32_t* out = c.buf<uint32_t>("out");
  for (uint32_t t = 0; t < 64; ++t) {
    uint32_t v = in[t], x = v ^ 0x5a5a5a5au;
    uint32_t* o = out + 12 * t;
    o[0] = x;                          // fsh reload
    o[1] = x; o[2] = v; o[3] = t;      // msh v4 round trip
    o[4] = x;
    o[5] = v;                          // fsh through a 64-bit address
    o[6] = v + 17;                     // generic load of the dynamic slot
    o[7] = v + 17 + 1000;              // after the generic store
    o[8] = v + 17 + 1000;
    if (t == 0) o[9] = v;
  }
}

// mem_module.ptx: per thread 36 words from module data and parameters.
void ref_mem_module(RefCtx& c) {
  uint32_t* out = c.buf<uint32_t>("out");
  const uint32_t ctab[8] = {3, 1, 4, 1, 5, 9, 2, 6};
  const uint16_t gh[3] = {65535, 2, 32768};
  auto put64 = [](uint32_t* o, uint64_t v) { o[0] = static_cast<uint32_t>(v); o[1] = static_cast<uint32_t>(v >> 32); };
  auto f2u = [](float f) { uint32_t u; std::memcpy(&u, &f, 4); return u; };
  auto d2u = [](double d) { uint64_t u; std::memcpy(&u, &d, 8); return u; };
  uint8_t sp[24];
  for (int k = 0; k < 24; ++k) sp[k] = static_cast<uint8_t>(241 + k);
  auto u32at = [&](int k) { uint32_t v; std::memcpy(&v, sp + k, 4); return v; };
  for (uint32_t t = 0; t < 48; ++t) {
    uint32_t* o = out + 36 * t;
    o[0] = 'e'; o[1] = 5; o[2] = 32768; o[3] = 0;
    put64(o + 4, 81985529216486895ull);
    put64(o + 6, 7);
    o[8] = f2u(-2.25f);
    o[9] = 5;
    o[10] = 11; o[11] = 44;
    put64(o + 12, d2u(3.141592653589793));
    uint32_t h = static_cast<uint32_t>(static_cast<int32_t>(static_cast<int16_t>(gh[t & 1])));
    o[14] = 0;                        // czero
    o[15] = ctab[(t & 3) + 1];
    o[16] = h; o[17] = 0; o[18] = t + 100; o[19] = h;
    o[20] = ctab[5]; o[21] = ctab[t & 3]; o[22] = 40000;
    o[23] = static_cast<uint32_t>(-2);
    put64(o + 24, d2u(-2.5));
    o[26] = ctab[2]; o[27] = ctab[3];
    o[28] = u32at(4) + u32at(8) + u32at(12) + u32at(4);
    o[29] = static_cast<uint32_t>(-14);   // 0xf2 sign-extended
    o[30] = 200;
    o[31] = static_cast<uint32_t>(-3);
    uint64_t q;
    std::memcpy(&q, sp + 16, 8);
    put64(o + 32, q);
  }
}

// mem_atomics.ptx: contended counters (final values from the initial buffer contents),
// private slots (returned old values), shared counters per warp.
void ref_mem_atomics(RefCtx& c) {
  const int32_t* in = c.buf<int32_t>("in");
  uint32_t* g = c.buf<uint32_t>("g");
  uint64_t* g64 = c.buf<uint64_t>("g64");
  uint32_t* gfp = c.buf<uint32_t>("gfp");
  uint32_t* priv = c.buf<uint32_t>("priv");
  uint32_t* own = c.buf<uint32_t>("own");
  uint32_t* sout = c.buf<uint32_t>("sout");
  auto inc = [](uint32_t old, uint32_t b) { return old >= b ? 0u : old + 1; };
  auto dec = [](uint32_t old, uint32_t b) { return (old == 0 || old > b) ? b : old - 1; };
  auto bit = [](int32_t v) { return 1u << (static_cast<uint32_t>(v) & 31); };
  for (int i = 0; i < 128; ++i) {
    int32_t v = in[i];
    uint32_t u = static_cast<uint32_t>(v);
    int64_t w = int64_t{v} * 1000003;
    uint64_t uw = static_cast<uint64_t>(w);
    g[0] += u;
    g[1] = static_cast<uint32_t>(std::min(static_cast<int32_t>(g[1]), v));
    g[2] = static_cast<uint32_t>(std::max(static_cast<int32_t>(g[2]), v));
    g[3] = std::min(g[3], u);
    g[4] = std::max(g[4], u);
    g[5] &= ~bit(v);
    g[6] |= bit(v);
    g[7] ^= u;
    g[8] = inc(g[8], 50);
    g[9] = dec(g[9], 50);
    g[10] = 77;
    g[11] += 1;
    g[12] += u;
    g[13] = std::max(g[13], u);
    g[14] |= bit(v);
    g[15] = inc(g[15], 1000);
    g[16] = dec(g[16], 20);
    g[17] = static_cast<uint32_t>(std::min(static_cast<int32_t>(g[17]), v));
    g[18] += 1; g[19] += 2; g[20] += 3; g[21] += 4; g[22] += 5;
    g64[0] += uw;
    g64[1] = static_cast<uint64_t>(std::min(static_cast<int64_t>(g64[1]), w));
    g64[2] = std::max(g64[2], uw);
    g64[3] |= bit(v);
    g64[4] += uw;
    g64[5] = 4886718345ull;
    g64[8] ^= bit(v);
    g64[9] &= 0xffffffff00000000ull | ~bit(v);
    g64[6] = static_cast<uint64_t>(std::max(static_cast<int64_t>(g64[6]), w));
    g64[7] += uw;
    // private slots
    uint32_t* p = priv + 8 * i;
    uint32_t* o = own + 24 * i;
    o[0] = p[0]; p[0] = u;
    o[7] = p[1];
    o[1] = p[1]; p[1] = u;
    o[2] = p[2];                      // the cas compares with p[2] + 1: fails
    o[3] = p[3]; p[3] = inc(p[3], 7);
    o[4] = p[4]; p[4] = dec(p[4], 7);
    o[5] = p[5]; p[5] += u;
    o[6] = p[6]; if (p[6] == u) p[6] = 5;
    p[7] = 0;
    uint64_t old64 = uint64_t{p[6]} | uint64_t{p[7]} << 32;
    o[8] = static_cast<uint32_t>(old64); o[9] = static_cast<uint32_t>(old64 >> 32);
    old64 += uw;
    p[6] = static_cast<uint32_t>(old64); p[7] = static_cast<uint32_t>(old64 >> 32);
    // private shared slots
    uint32_t tid = static_cast<uint32_t>(i % 64), cta = static_cast<uint32_t>(i / 64);
    uint32_t s0 = u, s1 = static_cast<uint32_t>(i);
    o[12] = s0; s0 = tid;                          // cas succeeds
    o[13] = s1; if (s1 == u) s1 = tid;             // cas usually fails
    o[14] = s1; s1 = cta;                          // exch
    o[15] = s0;
    o[16] = u; o[17] = tid;                        // exch.b64 returns (v, tid)
    o[18] = static_cast<uint32_t>(uw); o[19] = static_cast<uint32_t>(uw >> 32);
    o[20] = s1; o[21] = u; o[22] = tid; o[23] = cta;
  }
  // f32/f64/f16x2/bf16x2 sums of 128 exact terms
  auto f2u = [](float f) { uint32_t x; std::memcpy(&x, &f, 4); return x; };
  gfp[0] = f2u(64.0f);
  gfp[1] = f2u(32.0f);
  double d0 = 16.0, d1 = 8.0;
  std::memcpy(gfp + 2, &d0, 8);
  std::memcpy(gfp + 4, &d1, 8);
  gfp[6] = 0x58005400u;               // f16x2 (64.0, 128.0)
  gfp[7] = 0x43004280u;               // bf16x2 (64.0, 128.0)
  // shared counters, one set per warp
  for (int wg = 0; wg < 4; ++wg) {
    uint32_t* q = sout + 16 * wg;
    uint32_t s[16] = {0, 0x7fffffffu, 0x80000000u, 0xffffffffu, 0, 0, 0, 0xffffffffu,
                      0, 0x12345678u, 0, 0, 0, 0, 0, 0};
    for (int l = 0; l < 32; ++l) {
      int32_t v = in[wg * 32 + l];
      uint32_t u = static_cast<uint32_t>(v);
      s[0] += u;
      s[1] = static_cast<uint32_t>(std::min(static_cast<int32_t>(s[1]), v));
      s[2] = static_cast<uint32_t>(std::max(static_cast<int32_t>(s[2]), v));
      s[3] = std::min(s[3], u);
      s[4] = std::max(s[4], u);
      s[5] = inc(s[5], 9);
      s[6] = dec(s[6], 9);
      s[7] &= ~bit(v);
      s[8] |= bit(v);
      s[9] ^= u;
      s[10] = 99;
      s[11] += 3;
      s[12] ^= bit(v);
      s[13] += 1;
      s[14] += 2;
    }
    std::memcpy(q, s, sizeof s);
  }
}

// mem_cp_async.ptx: per thread 8 words copied through shared memory.
void ref_mem_cp_async(RefCtx& c) {
  const uint32_t* in = c.buf<uint32_t>("in");
  uint32_t* out = c.buf<uint32_t>("out");
  for (int t = 0; t < 64; ++t) {
    const uint32_t* a = in + 8 * t;
    uint32_t* o = out + 8 * t;
    o[0] = a[3]; o[1] = a[2]; o[2] = a[1]; o[3] = a[0];
    o[4] = a[6]; o[5] = a[7]; o[6] = a[4]; o[7] = a[5];
  }
}

// mem_cp_async_zfill.ptx: each copy writes its first src-size bytes from `in` and zeros after.
void ref_mem_cp_async_zfill(RefCtx& c) {
  const uint8_t* in = reinterpret_cast<const uint8_t*>(c.buf<uint32_t>("in"));
  uint8_t* out = reinterpret_cast<uint8_t*>(c.buf<uint32_t>("out"));
  for (uint32_t t = 0; t < 64; ++t) {
    struct Copy { uint32_t off, size, src; };
    const Copy copies[] = {{0, 16, t % 17}, {16, 8, t % 9}, {24, 4, t % 5}, {28, 4, 0},
                           {32, 16, 5},     {48, 8, 3},     {56, 4, 4},     {60, 4, (t + 2) % 5}};
    for (const Copy& k : copies)
      for (uint32_t b = 0; b < k.size; ++b)
        out[64 * t + k.off + b] = b < k.src ? in[64 * t + k.off + b] : 0;
  }
}

// ---- calls, local memory, register allocation (kernels/call_*.ptx, spill_*.ptx) ----------

void ref_call_basic(RefCtx& c) {
  const int32_t* in = c.buf<int32_t>("in");
  int32_t* out = c.buf<int32_t>("out");
  auto f = [](uint32_t a, uint32_t b) { return a * 3u + b; };
  auto g = [&](uint32_t a) { return f(a, 7) + a; };
  for (uint32_t t = 0; t < c.d.block[0]; ++t) {
    uint32_t x = static_cast<uint32_t>(in[t]);
    out[t] = static_cast<int32_t>(g(f(x, t)) + x);
  }
}

// kernels/int_video_simd.ptx: the SIMD video instructions per the PTX ISA 9.0 (9.7.17.2):
// lanes extended by their types, the operation exact, .sat to dtype's lane range, then .add
// (c + the sum of the lane results) or the merge of the masked lanes' low bits into c.
namespace {
struct SimdCase {
  const char* op;  // vadd vsub vavrg vabsdiff vmin vmax vset
  int lanes;
  bool dsigned, asigned, bsigned, sat, add;
  const char* cmp; // vset
  unsigned mask;   // lanes written (merge) or summed (.add)
  const char* asel = nullptr;  // lane selectors (".h10" digits, lane 0 last) over {b, a}
  const char* bsel = nullptr;
};
uint32_t simd_video(const SimdCase& k, uint32_t a, uint32_t b, uint32_t c) {
  int w = 32 / k.lanes;
  uint32_t lm = w == 32 ? ~0u : (1u << w) - 1;
  uint64_t ba = uint64_t{b} << 32 | a;
  // Lane i of the selected source: default a's lane i (asel) or b's (bsel).
  auto lane = [&](const char* sel, bool isB, int i, bool sg) -> int64_t {
    int from = sel ? sel[k.lanes - 1 - i] - '0' : (isB ? k.lanes : 0) + i;
    uint32_t x = static_cast<uint32_t>(ba >> (w * from)) & lm;
    if (sg && (x >> (w - 1) & 1)) return static_cast<int64_t>(x) - (int64_t{1} << w);
    return x;
  };
  uint32_t d = c;
  for (int i = 0; i < k.lanes; ++i) {
    if (!(k.mask >> i & 1)) continue;
    int64_t x = lane(k.asel, false, i, k.asigned), y = lane(k.bsel, true, i, k.bsigned), t = 0;
    std::string op = k.op;
    if (op == "vadd") t = x + y;
    else if (op == "vsub") t = x - y;
    else if (op == "vavrg") t = (x + y) >= 0 ? (x + y + 1) >> 1 : (x + y) >> 1;
    else if (op == "vabsdiff") t = x > y ? x - y : y - x;
    else if (op == "vmin") t = std::min(x, y);
    else if (op == "vmax") t = std::max(x, y);
    else {
      std::string cm = k.cmp;
      bool r = cm == "eq" ? x == y : cm == "ne" ? x != y : cm == "lt" ? x < y
             : cm == "le" ? x <= y : cm == "gt" ? x > y : x >= y;
      t = r ? 1 : 0;
    }
    if (k.sat) {
      int64_t hi = k.dsigned ? (int64_t{1} << (w - 1)) - 1 : (int64_t{1} << w) - 1;
      int64_t lo = k.dsigned ? -(int64_t{1} << (w - 1)) : 0;
      t = std::min(std::max(t, lo), hi);
    }
    if (k.add) d += static_cast<uint32_t>(t);
    else d = (d & ~(lm << (w * i))) | ((static_cast<uint32_t>(t) & lm) << (w * i));
  }
  return d;
}
}  // namespace

void ref_int_video_simd(RefCtx& c) {
  static const SimdCase cases[] = {
      {"vadd", 2, false, false, false, false, false, "", 3},
      {"vadd", 2, true, true, true, true, false, "", 3},
      {"vadd", 2, false, true, true, true, false, "", 3},
      {"vsub", 2, true, false, false, true, false, "", 3},
      {"vsub", 2, false, false, false, false, true, "", 3},
      {"vavrg", 2, true, true, true, false, false, "", 3},
      {"vavrg", 2, false, false, false, false, false, "", 3},
      {"vabsdiff", 2, true, true, true, false, false, "", 3},
      {"vmin", 2, true, true, true, false, false, "", 3},
      {"vmax", 2, false, true, true, true, false, "", 3},
      {"vset", 2, false, true, false, false, false, "lt", 3},
      {"vset", 2, false, false, false, false, true, "ge", 3},
      {"vadd", 4, false, false, false, false, true, "", 15},
      {"vadd", 4, true, true, true, true, false, "", 15},
      {"vsub", 4, false, false, false, true, false, "", 15},
      {"vavrg", 4, true, true, true, false, false, "", 15},
      {"vabsdiff", 4, false, false, false, false, false, "", 15},
      {"vmin", 4, false, true, true, false, false, "", 15},
      {"vmax", 4, true, true, true, true, false, "", 15},
      {"vset", 4, false, true, true, false, false, "ne", 15},
      {"vadd", 2, false, false, false, false, false, "", 2},
      {"vmin", 4, true, true, true, false, false, "", 4},
      {"vabsdiff", 2, false, true, false, false, true, "", 3},
      {"vset", 4, false, false, true, false, true, "gt", 15},
      {"vadd", 2, false, false, false, false, false, "", 1, "32", "10"},
      {"vsub", 2, true, true, true, false, false, "", 3, "01", "23"},
      {"vmax", 4, false, false, false, false, false, "", 10, "7250", "0123"},
      {"vset", 4, false, true, true, false, true, "gt", 5, "3300", "4477"},
  };
  // vmad: {asigned, bsigned, sat, a part, b part} (part: -1 word, 0-3 byte, 4/5 half 0/1).
  struct VmadCase {
    bool asigned, bsigned, sat;
    int apart, bpart;
  };
  static const VmadCase vmads[] = {{false, false, false, -1, -1}, {true, true, true, -1, -1},
                                   {false, false, true, -1, -1},  {false, true, true, -1, -1},
                                   {false, false, false, 5, 2},   {true, true, true, 3, 4}};
  auto part = [](uint32_t v, int p, bool sg) -> uint32_t {
    if (p < 0) return v;
    int bits = p < 4 ? 8 : 16, at = p < 4 ? 8 * p : 16 * (p - 4);
    uint32_t x = (v >> at) & ((1u << bits) - 1);
    if (sg && (x >> (bits - 1) & 1)) x |= ~0u << bits;
    return x;
  };
  auto vmad = [&](const VmadCase& k, uint32_t a, uint32_t b, uint32_t cc) -> uint32_t {
    uint32_t x = part(a, k.apart, k.asigned), y = part(b, k.bpart, k.bsigned);
    // As ptxas 13.0 computes it (frontend/lower/lower_int_video.cpp): signed words, c
    // sign-extended, whatever the types; .sat to s32 when a or b is signed, else 0..2^32-1.
    bool sg = k.asigned || k.bsigned;
    int64_t r = int64_t{static_cast<int32_t>(x)} * static_cast<int32_t>(y) +
                static_cast<int32_t>(cc);
    if (k.sat) r = sg ? std::min<int64_t>(std::max<int64_t>(r, INT32_MIN), INT32_MAX)
                      : std::min<int64_t>(std::max<int64_t>(r, 0), UINT32_MAX);
    return static_cast<uint32_t>(r);
  };
  const uint32_t* in = c.buf<uint32_t>("in");
  uint32_t* out = c.buf<uint32_t>("out");
  // Per thread: cases 0-23 (no selectors), the vmads, then cases 24-27 (selectors).
  const size_t n = sizeof cases / sizeof cases[0], nv = sizeof vmads / sizeof vmads[0];
  const size_t plain = 24, stride = n + nv;
  for (uint32_t t = 0; t < c.d.block[0]; ++t) {
    const uint32_t a = in[3 * t], b = in[3 * t + 1], cc = in[3 * t + 2];
    for (size_t k = 0; k < plain; ++k)
      out[stride * t + k] = simd_video(cases[k], a, b, cc);
    for (size_t k = 0; k < nv; ++k)
      out[stride * t + plain + k] = vmad(vmads[k], a, b, cc);
    for (size_t k = plain; k < n; ++k)
      out[stride * t + nv + k] = simd_video(cases[k], a, b, cc);
  }
}

// kernels/atomics_generic.ptx: twelve atomics on one region per space (global and shared:
// all 64 threads; local: each thread's own region), then per-thread cas/exch slots. v = in[t],
// w = v ^ (t << 40), the f16x2/bf16x2 addend is t % 4 in both halves.
void ref_atomics_generic(RefCtx& c) {
  const int64_t* in = c.buf<int64_t>("in");
  uint64_t* g = c.buf<uint64_t>("gout");
  uint64_t* sh = c.buf<uint64_t>("sout");
  uint64_t* lo = c.buf<uint64_t>("lout");
  const uint32_t n = c.d.block[0];
  auto f32bits = [](double x) {
    float f = static_cast<float>(x);
    uint32_t b;
    std::memcpy(&b, &f, 4);
    return uint64_t{b};
  };
  auto f64bits = [](double x) { uint64_t b; std::memcpy(&b, &x, 8); return b; };
  static const uint16_t kHalf[4] = {0x0000, 0x3c00, 0x4000, 0x4200};  // 0..3 as binary16
  static const uint16_t kBf16[4] = {0x0000, 0x3f80, 0x4000, 0x4040};  // 0..3 as bfloat16
  auto pair = [](uint16_t h) { return uint64_t{h} | uint64_t{h} << 16; };
  auto wOf = [&](uint32_t t) { return static_cast<uint64_t>(in[t]) ^ (uint64_t{t} << 40); };
  uint64_t sum = 0, mx = 0, andv = ~0ull, orv = 0, xorv = 0;
  int64_t mn = INT64_MAX;
  double fs = 0;
  for (uint32_t t = 0; t < n; ++t) {
    sum += static_cast<uint64_t>(in[t]);
    mn = std::min(mn, in[t]);
    mx = std::max(mx, wOf(t));
    andv &= wOf(t), orv |= wOf(t), xorv ^= wOf(t);
    fs += static_cast<double>(in[t]);
  }
  uint32_t hs = 0;
  for (uint32_t t = 0; t < n; ++t) hs += t % 4;
  // hs = 96 for 64 threads: binary16 0x5600, bfloat16 0x42c0.
  uint16_t h96 = hs == 96 ? 0x5600 : 0, b96 = hs == 96 ? 0x42c0 : 0;
  for (uint64_t* r : {g, sh}) {
    r[0] = sum, r[1] = static_cast<uint64_t>(mn), r[2] = mx, r[3] = andv, r[4] = orv, r[5] = xorv;
    r[6] = f32bits(fs), r[7] = f64bits(fs), r[8] = pair(h96), r[9] = pair(b96);
    r[10] = sum, r[11] = f32bits(fs);
    for (uint32_t t = 0; t < n; ++t) {
      r[12 + t] = static_cast<uint64_t>(in[t]);
      r[12 + n + t] = wOf(t);
    }
  }
  for (uint32_t t = 0; t < n; ++t) {
    uint64_t* l = lo + 24 * t;
    uint64_t v = static_cast<uint64_t>(in[t]), w = wOf(t);
    double fv = static_cast<double>(in[t]);
    l[0] = v, l[1] = v, l[2] = w, l[3] = w, l[4] = w, l[5] = w;
    l[6] = f32bits(fv), l[7] = f64bits(fv), l[8] = pair(kHalf[t % 4]), l[9] = pair(kBf16[t % 4]);
    l[10] = v, l[11] = f32bits(fv);
    l[12] = t, l[13] = t, l[14] = v;                 // the cas/exch/cas old values
    l[15] = 0, l[16] = static_cast<uint64_t>(INT64_MAX), l[17] = 0, l[18] = ~0ull, l[19] = 0,
    l[20] = 0;                                       // the old values of add..xor
    l[21] = 0, l[22] = 0, l[23] = 0;                 // f32, f64, f16x2 old values (+0.0)
  }
}

// kernels/call_indirect.cu: a virtual area() chosen by i % 3 (x + 1, x * x, 3x - 5), a
// function pointer chosen by i & 1 (2x + 7, -x), gv[2] = 13 through a module pointer, and for
// x > 0 the first pointer's 2(x + i) + 7.
void ref_call_indirect(RefCtx& c) {
  const int32_t* in = c.buf<int32_t>("in");
  int32_t* out = c.buf<int32_t>("out");
  for (uint32_t t = 0; t < c.d.block[0]; ++t) {
    uint32_t x = static_cast<uint32_t>(in[t]);
    uint32_t a = t % 3 == 0 ? x + 1u : t % 3 == 1 ? x * x : x * 3u - 5u;
    uint32_t f = (t & 1) ? 0u - x : 2u * x + 7u;
    uint32_t extra = static_cast<int32_t>(x) > 0 ? 2u * (x + t) + 7u : 0u;
    out[t] = static_cast<int32_t>(a + f + 13u + extra);
  }
}

// kernels/ctrl_fall_off.ptx: f(x) = 5x + 1 from a .func without ret; odd inputs add x.
void ref_ctrl_fall_off(RefCtx& c) {
  const int32_t* in = c.buf<int32_t>("in");
  int32_t* out = c.buf<int32_t>("out");
  for (uint32_t t = 0; t < c.d.block[0]; ++t) {
    uint32_t x = static_cast<uint32_t>(in[t]);
    uint32_t f = x * 5u + 1u;
    out[t] = static_cast<int32_t>((x & 1) ? f + x : f);
  }
}

// kernels/triton_softmax.ptx (Triton 3.9.0's PTX of a row softmax, tests/triton): out[r][c] =
// exp(x[r][c] - max_r) / sum_r exp(...) for c < n_cols; parameters (out, in, in_stride,
// out_stride, n_rows, n_cols, scratch, scratch). Computed in double; the kernel's ex2.approx
// and rcp are compared with a tolerance (the .desc).
void ref_triton_softmax(RefCtx& c) {
  const float* in = c.buf<float>("in");
  float* out = c.buf<float>("out");
  int64_t in_stride = c.iscalar(2), out_stride = c.iscalar(3), rows = c.iscalar(4),
          cols = c.iscalar(5);
  for (int64_t r = 0; r < rows; ++r) {
    double m = -INFINITY, sum = 0;
    for (int64_t k = 0; k < cols; ++k) m = std::max(m, double(in[r * in_stride + k]));
    for (int64_t k = 0; k < cols; ++k) sum += std::exp(double(in[r * in_stride + k]) - m);
    for (int64_t k = 0; k < cols; ++k)
      out[r * out_stride + k] = float(std::exp(double(in[r * in_stride + k]) - m) / sum);
  }
}

int32_t fib_ref(int32_t n) { return n < 2 ? n : fib_ref(n - 1) + fib_ref(n - 2); }

void ref_call_recursion(RefCtx& c) {
  const int32_t* in = c.buf<int32_t>("in");
  int32_t* out = c.buf<int32_t>("out");
  uint32_t threads = c.d.block[0] * c.d.grid[0];
  for (uint32_t i = 0; i < threads; ++i) {
    // The kernel indexes by %tid.x only: every block reads and writes the first block's part.
    uint32_t t = i % c.d.block[0];
    int32_t x = in[t], n = x & 15;
    uint32_t s = static_cast<uint32_t>(fib_ref(n));
    for (int32_t k = 0; k < n; ++k) s += 2u * static_cast<uint32_t>(k);
    if (x & 1) s += 2u * static_cast<uint32_t>(x);
    out[t] = static_cast<int32_t>(s);
  }
}

void ref_call_args(RefCtx& c) {
  const uint32_t* in = c.buf<uint32_t>("in");
  uint32_t* out = c.buf<uint32_t>("out");
  for (uint32_t t = 0; t < c.d.block[0]; ++t) {
    const uint32_t* w = in + 4 * t;
    uint32_t r2 = w[0], r3 = w[1];
    uint64_t rd7 = uint64_t{w[2]} | uint64_t{w[3]} << 32;
    // many(a0=r2, a1=rd7, a2=f32(r3), a3=t, a4=r3, a5=1000, a6=-7, a7=r2, a8=16t, a9=r3,
    //      s={rd7, r3, t})
    uint32_t r12 = r2 + 3u * t + 5u * r3 + 7u * 1000u + 11u * static_cast<uint32_t>(-7) +
                   13u * r2 + 17u * r3 + r3 - t;
    uint64_t rd4 = rd7 + uint64_t{16} * t + rd7;
    float a2;
    std::memcpy(&a2, &r3, 4);
    float f2 = std::fma(a2, 2.0f, 1.0f);
    uint32_t r15;
    std::memcpy(&r15, &f2, 4);
    uint32_t r13 = r12 + (r3 & 7u) * r12;
    uint64_t rd8 = rd7 + rd4;
    uint32_t* o = out + 4 * t;
    o[0] = r13 + r2;
    o[1] = r15;
    o[2] = static_cast<uint32_t>(rd8);
    o[3] = static_cast<uint32_t>(rd8 >> 32);
  }
}

void ref_spill_pressure(RefCtx& c) {
  const int32_t* in = c.buf<int32_t>("in");
  int32_t* out = c.buf<int32_t>("out");
  for (uint32_t t = 0; t < c.d.block[0]; ++t) {
    uint32_t acc = 0;
    for (uint32_t i = 0; i < 4; ++i) {
      int32_t v[16];
      for (int j = 0; j < 16; ++j)
        v[j] = static_cast<int32_t>(static_cast<uint32_t>(in[t * 16 + j]) + i);
      uint32_t sum = 0;
      for (int j = 0; j < 8; ++j)
        sum += static_cast<uint32_t>(v[j]) * static_cast<uint32_t>(v[15 - j]);
      acc += sum;
      for (int j = 0; j < 10; ++j)
        if (v[j] > (j * 37) % 50 - 25) acc += static_cast<uint32_t>(j + 1);
    }
    out[t] = static_cast<int32_t>(acc);
  }
}

void ref_spill_calls(RefCtx& c) {
  const int32_t* in = c.buf<int32_t>("in");
  int32_t* out = c.buf<int32_t>("out");
  auto mix = [](uint32_t a, uint32_t b) {
    uint32_t m[8], s = 0;
    for (uint32_t j = 0; j < 8; ++j) m[j] = a * (j + 3) + b;
    for (int j = 0; j < 8; ++j) s += m[j] ^ m[7 - j];
    return s;
  };
  for (uint32_t t = 0; t < c.d.block[0]; ++t) {
    const uint32_t* v = reinterpret_cast<const uint32_t*>(in) + 12 * t;
    uint32_t acc = mix(v[0], v[11]) + mix(v[1], v[10]) + mix(v[2], v[9]);
    for (uint32_t j = 0; j < 12; ++j) acc += v[j] * (j + 1);
    out[t] = static_cast<int32_t>(acc);
  }
}

void ref_local_mem(RefCtx& c) {
  const int32_t* in = c.buf<int32_t>("in");
  int32_t* out = c.buf<int32_t>("out");
  for (uint32_t t = 0; t < c.d.block[0]; ++t) {
    const int32_t* w = in + 8 * t;
    uint8_t buf[64] = {};
    // The v4 at 0-15 (w0-w3), the v2 at 16-23 (w6, w7), the u64 at 24-31 (w4, w5).
    const int32_t layout[8] = {w[0], w[1], w[2], w[3], w[6], w[7], w[4], w[5]};
    std::memcpy(buf, layout, 32);
    uint32_t r2 = static_cast<uint32_t>(w[0]), r3 = static_cast<uint32_t>(w[1]);
    uint32_t r4 = static_cast<uint32_t>(w[2]);
    uint32_t o8 = 32 + (r2 & 15), o16 = 48 + (r3 & 14);
    buf[o8] = static_cast<uint8_t>(r3);
    uint16_t h = static_cast<uint16_t>(r4);
    std::memcpy(buf + o16, &h, 2);
    int32_t s8 = static_cast<int8_t>(buf[o8]);
    uint32_t u8 = buf[o8];
    int16_t s16v;
    std::memcpy(&s16v, buf + o16, 2);
    uint16_t u16v;
    std::memcpy(&u16v, buf + o16, 2);
    uint32_t word[8];
    std::memcpy(word, buf, 32);
    int32_t* o = out + 8 * t;
    o[0] = static_cast<int32_t>(static_cast<uint32_t>(s8) + u8);
    o[1] = static_cast<int32_t>(static_cast<uint32_t>(int32_t{s16v}) + u16v);
    o[2] = static_cast<int32_t>(word[2] + word[3]);
    o[3] = static_cast<int32_t>(word[0] + word[3] + word[1] + word[2]);
    o[4] = static_cast<int32_t>(word[6]);
    o[5] = static_cast<int32_t>(word[7]);
    o[6] = static_cast<int32_t>(word[5] + t);
    // small[16]: {u16 r2, u16 r3}, {u8 r4, r5, r6, r7}, {u8 r7, r2}
    uint32_t r5 = static_cast<uint32_t>(w[3]), r6 = static_cast<uint32_t>(w[6]);
    uint32_t r7 = static_cast<uint32_t>(w[7]);
    uint8_t sm[16] = {};
    uint16_t h2 = static_cast<uint16_t>(r2), h3 = static_cast<uint16_t>(r3);
    std::memcpy(sm, &h2, 2);
    std::memcpy(sm + 2, &h3, 2);
    sm[4] = static_cast<uint8_t>(r4), sm[5] = static_cast<uint8_t>(r5);
    sm[6] = static_cast<uint8_t>(r6), sm[7] = static_cast<uint8_t>(r7);
    sm[8] = static_cast<uint8_t>(r7), sm[9] = static_cast<uint8_t>(r2);
    auto s8at = [&](int k) { return static_cast<uint32_t>(int32_t{static_cast<int8_t>(sm[k])}); };
    auto s16at = [&](int k) {
      int16_t v;
      std::memcpy(&v, sm + k, 2);
      return static_cast<uint32_t>(int32_t{v});
    };
    auto u16at = [&](int k) {
      uint16_t v;
      std::memcpy(&v, sm + k, 2);
      return uint32_t{v};
    };
    uint32_t sum = s8at(4) + s8at(5) + s8at(6) + s8at(7) + sm[0] + sm[3] + s16at(0) +
                   s16at(2) + u16at(4) + u16at(6) + sm[9];
    o[7] = static_cast<int32_t>(sum);
  }
}

void ref_spill_full(RefCtx& c) {
  const int32_t* in = c.buf<int32_t>("in");
  int32_t* out = c.buf<int32_t>("out");
  const int n = 1200;
  std::vector<uint32_t> r(n);
  for (uint32_t t = 0; t < c.d.block[0]; ++t) {
    for (int j = 10; j < n; ++j)
      r[j] = j < 300 ? static_cast<uint32_t>(in[t + static_cast<uint32_t>(j % 64)])
                     : r[j - 290] * r[j - 1] + r[j - 150];
    out[t] = static_cast<int32_t>(r[n - 1]);
  }
}

// large_param: out[i] = p[i] * 3 + p[4999 - i] over the 5000 ints of the by-value parameter.
void ref_large_param(RefCtx& c) {
  const int32_t* p = c.buf<int32_t>("p");
  for (int i = 0; i < 5000; ++i) c.buf<int32_t>("out")[i] = p[i] * 3 + p[4999 - i];
}

// mem_cluster_addr.ptx: per thread words a (u32), a rank r = word 1 & 15 and b (u64, words
// 2-3); mapa puts the rank in bits 24..31 of the low word, getctarank
// reads them back; the createpolicy constants are ptxas 13.0's (lower_mem.cpp).
void ref_mem_cluster_addr(RefCtx& c) {
  const uint32_t* in = c.buf<uint32_t>("a");
  uint32_t* o = c.buf<uint32_t>("o");
  const uint32_t last = 0x14f00000u, normalFirst = 0x17400000u;  // (0x100|0x40|15), (0x100|0x60|0x10|4)
  for (int t = 0; t < 256; ++t) {
    uint32_t a = in[4 * t], r = in[4 * t + 1] & 15, lo = in[4 * t + 2], hi = in[4 * t + 3];
    uint32_t* w = o + 9 * t;
    w[0] = (a & 0xffffffu) | r << 24;
    w[1] = a >> 24;
    w[2] = lo >> 24;
    w[3] = (a & 0xffffffu) | 3u << 24;
    w[4] = (lo & 0xffffffu) | r << 24;
    w[5] = hi;
    w[6] = 0;
    w[7] = last ^ normalFirst;
    w[8] = normalFirst;
  }
}

// int_video.ptx: the scalar video semantics (PTX ISA 9.7.17.1 as ptxas 13.0 computes them, see
// lower_int_video.cpp): selected byte/half/word, extended by its type to 64 bits; the
// operation in 64 bits; .sat clamps to s32, or for u32 only negatives (to 0), else the low
// word; .add adds c, .min/.max compare (vmin/vmax/vset/shifts: the whole result, else the low word
// sign-extended) with c extended by dtype (signed iff dtype); a destination selector .bK takes
// the result's low byte to byte K, .h0/.h1 the result's half in place, c's bytes elsewhere. The forms are parsed from the
// kernel's own text (copied here). vset: 1 or 0 by the comparison of the extended values,
// dtype u32. vshl/vshr: the shift amount clamped to 32 or taken mod 32, vshr arithmetic for a
// signed atype.
// kernels/createpolicy_cvt.ptx: the loaded word unchanged, and the fractional evict_last
// policy of 0.5 ((0x100 | 0x40 | (ceil(0.5 * 16) - 1)) << 52, lower_mem.cpp) unchanged.
void ref_createpolicy_cvt(RefCtx& c) {
  const uint64_t* in = c.buf<uint64_t>("in");
  uint64_t* out = c.buf<uint64_t>("out");
  for (size_t i = 0; i < c.count("in"); ++i) {
    out[2 * i] = in[i];
    out[2 * i + 1] = uint64_t{0x100 | 0x40 | 7} << 52;
  }
}

// kernels/atomics_half.ptx: 16-bit atomics. Sums of t % 4 over the block (96: binary16
// 0x5600, bfloat16 0x42c0); per-thread cas slots end at t + 0x200; res[t] folds the old values
// of the global and shared compare-and-swaps; res[64] is the old value 2.0 of one f16 add.
void ref_atomics_half(RefCtx& c) {
  uint16_t* g = c.buf<uint16_t>("gout");
  uint16_t* sh = c.buf<uint16_t>("sout");
  uint32_t* res = c.buf<uint32_t>("res");
  const uint32_t n = c.d.block[0];
  uint32_t hs = 0;
  for (uint32_t t = 0; t < n; ++t) hs += t % 4;
  const uint16_t h = hs == 96 ? 0x5600 : 0, b = hs == 96 ? 0x42c0 : 0;
  const uint16_t gsum[8] = {h, b, h, b, h, b, 0, 0x4200};
  const uint16_t ssum[8] = {h, b, h, b, b, h, 0, 0};
  for (int i = 0; i < 8; ++i) g[i] = gsum[i], sh[i] = ssum[i];
  for (uint32_t t = 0; t < n; ++t) {
    g[8 + t] = static_cast<uint16_t>(t + 0x200);
    sh[8 + t] = static_cast<uint16_t>(t + 0x200);
    res[t] = ((t + 1) << 16) ^ (t + 0x200) ^ ((t + 1) << 8);
  }
  res[64] = 0x4000;
}

// kernels/cvt_round_f16.ptx: binary16 rounded to an integral value in the four modes, and the
// same bits as bfloat16 rounded to nearest and toward zero (exact in float either way).
void ref_cvt_round_f16(RefCtx& c) {
  const uint16_t* a = c.buf<uint16_t>("a");
  uint16_t* out = c.buf<uint16_t>("out");
  for (size_t i = 0; i < c.count("a"); ++i) {
    _Float16 h;
    std::memcpy(&h, &a[i], 2);
    float x = static_cast<float>(h);
    float r[4] = {std::nearbyint(x), std::trunc(x), std::floor(x), std::ceil(x)};
    for (int k = 0; k < 4; ++k) out[6 * i + k] = hbits(static_cast<_Float16>(r[k]));
    uint32_t bw = uint32_t{a[i]} << 16;
    float b;
    std::memcpy(&b, &bw, 4);
    float rb[2] = {std::nearbyint(b), std::trunc(b)};
    for (int k = 0; k < 2; ++k) {
      uint32_t u;
      std::memcpy(&u, &rb[k], 4);
      out[6 * i + 4 + k] = static_cast<uint16_t>(u >> 16);
    }
  }
}

// kernels/lop3_pred.ptx: lop3 with a predicate result, p = (d != 0) and/or q.
void ref_lop3_pred(RefCtx& c) {
  const uint32_t *a = c.buf<uint32_t>("a"), *b = c.buf<uint32_t>("b"), *cc = c.buf<uint32_t>("c");
  uint32_t* out = c.buf<uint32_t>("out");
  for (size_t i = 0; i < c.count("a"); ++i) {
    uint32_t x = a[i] ^ b[i] ^ cc[i];
    uint32_t m = (a[i] & b[i]) | (a[i] & cc[i]) | (b[i] & cc[i]);
    out[4 * i] = x;
    out[4 * i + 1] = (x != 0 && (a[i] & 1)) ? 1 : 0;
    out[4 * i + 2] = m;
    out[4 * i + 3] = (m != 0 || (b[i] & 1)) ? 1 : 0;
  }
}

// kernels/int_mad_hi_sat.ptx: sat(hi32(a * b) + c) in the signed 32-bit range.
void ref_int_mad_hi_sat(RefCtx& c) {
  const int32_t *a = c.buf<int32_t>("a"), *b = c.buf<int32_t>("b"), *cc = c.buf<int32_t>("c");
  int32_t* out = c.buf<int32_t>("out");
  for (size_t i = 0; i < c.count("a"); ++i) {
    int64_t hi = (static_cast<int64_t>(a[i]) * b[i]) >> 32;  // arithmetic shift
    int64_t sum = hi + cc[i];
    out[i] = static_cast<int32_t>(std::min<int64_t>(std::max<int64_t>(sum, INT32_MIN), INT32_MAX));
  }
}

// kernels/int_minmax16x2.ptx: min/max of each 16-bit half, unsigned and signed.
void ref_int_minmax16x2(RefCtx& c) {
  const uint32_t *a = c.buf<uint32_t>("a"), *b = c.buf<uint32_t>("b");
  uint32_t* out = c.buf<uint32_t>("out");
  auto halves = [](uint32_t x, uint32_t y, bool sgn, bool mx) {
    uint32_t r = 0;
    for (int h = 0; h < 2; ++h) {
      uint32_t u = x >> (16 * h) & 0xffff, v = y >> (16 * h) & 0xffff;
      bool less = sgn ? static_cast<int16_t>(u) < static_cast<int16_t>(v) : u < v;
      r |= (mx ? (less ? v : u) : (less ? u : v)) << (16 * h);
    }
    return r;
  };
  for (size_t i = 0; i < c.count("a"); ++i) {
    out[4 * i] = halves(a[i], b[i], false, false);
    out[4 * i + 1] = halves(a[i], b[i], false, true);
    out[4 * i + 2] = halves(a[i], b[i], true, false);
    out[4 * i + 3] = halves(a[i], b[i], true, true);
  }
}

void ref_int_video(RefCtx& c) {
  static const char* kForms[] = {
      "vadd.u32.u32.u32 %r10, %r5, %r6;",
      "vadd.s32.s32.s32.sat %r11, %r5, %r6;",
      "vadd.u32.u32.u32.sat %r12, %r5, %r6;",
      "vadd.u32.s32.s32.sat %r13, %r5, %r6;",
      "vadd.s32.u32.s32.sat %r14, %r5, %r6;",
      "vadd.u32.u32.u32.add %r15, %r5, %r6, %r7;",
      "vadd.u32.u32.u32.max %r16, %r5, %r6, %r7;",
      "vadd.s32.s32.s32.min %r17, %r5, %r6, %r7;",
      "vadd.u32.u32.u32.sat.min %r18, %r5, %r6, %r7;",
      "vadd.s32.s32.s32 %r19, %r5.b1, %r6.h1;",
      "vadd.u32.u32.u32 %r20.h1, %r5, %r6, %r7;",
      "vadd.u32.u32.u32 %r21.b2, %r5.b3, %r6.b0, %r7;",
      "vsub.s32.s32.s32 %r22, %r5, %r6;",
      "vsub.s32.u32.u32.sat %r23, %r5, %r6;",
      "vsub.u32.u32.s32.sat.add %r24, %r5, %r6.h0, %r7;",
      "vabsdiff.s32.s32.s32.add %r25, %r5, %r6, %r7;",
      "vabsdiff.u32.u32.u32 %r26, %r5, %r6;",
      "vabsdiff.u32.s32.u32.sat %r27, %r5.h1, %r6;",
      "vmin.s32.u32.s32 %r28, %r5, %r6;",
      "vmin.u32.s32.s32.sat %r29, %r5, %r6.b2;",
      "vmax.s32.s32.u32.max %r30, %r5, %r6, %r7;",
      "vmax.u32.u32.u32 %r31.b0, %r5, %r6, %r7;",
      "vmax.s32.s32.s32.sat.add %r32, %r5.h0, %r6.b1, %r7;",
      "vmin.u32.u32.u32.min %r33, %r5, %r6, %r7;",
      "vset.s32.u32.lt %r34, %r5, %r6;",
      "vset.u32.u32.ge.add %r35, %r5.b1, %r6, %r7;",
      "vset.s32.s32.ne %r36.h0, %r5.h1, %r6.h1, %r7;",
      "vset.u32.s32.gt.max %r37, %r5, %r6, %r7;",
      "vshl.u32.u32.u32.clamp %r38, %r5, %r6;",
      "vshl.u32.u32.u32.wrap.add %r39, %r5, %r6.b0, %r7;",
      "vshr.s32.s32.u32.clamp %r40, %r5, %r6.b1;",
      "vshr.u32.u32.u32.wrap %r41.h0, %r5, %r6, %r7;",
      "vshl.s32.s32.u32.clamp.max %r42, %r5, %r6.b0, %r7;",
      "vshr.s32.u32.u32.clamp.min %r43, %r5.b2, %r6.b3, %r7;"
  };
  const uint32_t* A = c.buf<uint32_t>("a");
  const uint32_t* B = c.buf<uint32_t>("b");
  const uint32_t* C = c.buf<uint32_t>("c");
  uint32_t* o = c.buf<uint32_t>("o");
  const size_t n = sizeof(kForms) / sizeof(kForms[0]);
  auto sel = [](uint32_t v, const std::string& s, bool sign) -> int64_t {
    if (s.empty()) return sign ? static_cast<int64_t>(static_cast<int32_t>(v)) : static_cast<int64_t>(v);
    int k = s[1] - '0';
    if (s[0] == 'b') {
      uint32_t x = (v >> (8 * k)) & 0xff;
      return sign ? static_cast<int64_t>(static_cast<int8_t>(x)) : static_cast<int64_t>(x);
    }
    uint32_t x = (v >> (16 * k)) & 0xffff;
    return sign ? static_cast<int64_t>(static_cast<int16_t>(x)) : static_cast<int64_t>(x);
  };
  for (size_t f = 0; f < n; ++f) {
    std::string text = kForms[f];
    std::string opc = text.substr(0, text.find(' '));
    std::vector<std::string> w;
    for (size_t p = 0, q; p != std::string::npos; p = q == std::string::npos ? q : q + 1)
      w.push_back(opc.substr(p, (q = opc.find('.', p)) == std::string::npos ? std::string::npos : q - p));
    std::string op = w[0], op2, cmp;
    bool vset = op == "vset";
    if (vset) w.insert(w.begin() + 1, "u32");  // vset: dtype u32, the comparison after the types
    bool ds = w[1][0] == 's', as = w[2][0] == 's', bs = w[3][0] == 's', sat = false;
    if (vset) cmp = w[4], w.erase(w.begin() + 4);
    bool clampShift = false;
    for (size_t k = 4; k < w.size(); ++k) {
      if (w[k] == "sat") sat = true;
      else if (w[k] == "clamp" || w[k] == "wrap") clampShift = w[k] == "clamp";
      else op2 = w[k];
    }
    std::vector<std::string> selv;  // d, a, b selectors
    std::string rest = text.substr(text.find(' ') + 1);
    for (size_t p = 0; p < rest.size();) {
      size_t q = rest.find_first_of(",;", p);
      std::string opnd = rest.substr(p, q - p);
      size_t dot = opnd.find('.');
      selv.push_back(dot == std::string::npos ? "" : opnd.substr(dot + 1));
      p = q + 1;
      while (p < rest.size() && rest[p] == ' ') ++p;
    }
    for (size_t i = 0; i < c.count("a"); ++i) {
      int64_t x = sel(A[i], selv[1], as), y = sel(B[i], selv[2], bs), t;
      if (op == "vadd") t = x + y;
      else if (op == "vsub") t = x - y;
      else if (op == "vabsdiff") t = x > y ? x - y : y - x;
      else if (op == "vmin") t = std::min(x, y);
      else if (op == "vshl" || op == "vshr") {
        uint64_t n = static_cast<uint64_t>(y);  // btype u32: zero-extended
        n = clampShift ? std::min<uint64_t>(n, 32) : n & 31;
        t = op == "vshl" ? static_cast<int64_t>(static_cast<uint64_t>(x) << n) : x >> n;
      } else if (vset)
        t = cmp == "eq" ? x == y : cmp == "ne" ? x != y : cmp == "lt" ? x < y
          : cmp == "le" ? x <= y : cmp == "gt" ? x > y : x >= y;
      else t = std::max(x, y);
      uint32_t r;
      if (sat && ds) {
        r = static_cast<uint32_t>(std::clamp<int64_t>(t, INT32_MIN, INT32_MAX));
      } else if (sat) {
        r = t < 0 ? 0u : static_cast<uint32_t>(t);  // ptxas: no clamp at 2^32 - 1
      } else {
        r = static_cast<uint32_t>(t);
      }
      uint32_t cv = C[i], d;
      if (op2 == "add") {
        d = r + cv;
      } else if (!op2.empty()) {
        bool whole = !sat && (op == "vmin" || op == "vmax" || vset || op == "vshl" || op == "vshr");
        int64_t tw = whole ? t : static_cast<int64_t>(static_cast<int32_t>(r));
        int64_t cw = ds ? static_cast<int64_t>(static_cast<int32_t>(cv)) : static_cast<int64_t>(cv);
        bool pick;
        if (ds) pick = op2 == "min" ? tw < cw : tw > cw;
        else pick = op2 == "min" ? static_cast<uint64_t>(tw) < static_cast<uint64_t>(cw)
                                 : static_cast<uint64_t>(tw) > static_cast<uint64_t>(cw);
        d = pick ? r : cv;
      } else if (!selv[0].empty()) {
        int k = selv[0][1] - '0';
        uint32_t mask = selv[0][0] == 'b' ? 0xffu << (8 * k) : 0xffffu << (16 * k);
        uint32_t part = selv[0][0] == 'b' ? (r & 0xffu) << (8 * k) : r & mask;  // .h1: in place
        d = part | (cv & ~mask);
      } else {
        d = r;
      }
      o[i * n + f] = d;
    }
  }
}

// mem_atomics_shared64.ptx: per CTA of 128 threads, the unsigned min and max and the signed
// min and max, the and, or and xor of its 128 64-bit values (8 words per CTA, the last 0).
void ref_mem_atomics_shared64(RefCtx& c) {
  const uint64_t* a = c.buf<uint64_t>("a");
  uint64_t* o = c.buf<uint64_t>("o");
  for (int b = 0; b < 4; ++b) {
    uint64_t umin = ~0ull, umax = 0, band = ~0ull, bor = 0, bxor = 0;
    int64_t smin = INT64_MAX, smax = INT64_MIN;
    for (int t = 0; t < 128; ++t) {
      uint64_t v = a[b * 128 + t];
      umin = std::min(umin, v), umax = std::max(umax, v);
      smin = std::min(smin, static_cast<int64_t>(v)), smax = std::max(smax, static_cast<int64_t>(v));
      band &= v, bor |= v, bxor ^= v;
    }
    o[8 * b] = umin, o[8 * b + 1] = umax;
    o[8 * b + 2] = static_cast<uint64_t>(smin), o[8 * b + 3] = static_cast<uint64_t>(smax);
    o[8 * b + 4] = band, o[8 * b + 5] = bor, o[8 * b + 6] = bxor, o[8 * b + 7] = 0;
  }
}

// huge_param: out[i] = p[i] * 3 + p[8179 - i] + p[8170] * 5 over the 8180 ints of the by-value
// parameter (k = 5); the 12 words past the end keep their 7.
void ref_huge_param(RefCtx& c) {
  const int32_t* p = c.buf<int32_t>("p");
  for (int i = 0; i < 8180; ++i) c.buf<int32_t>("out")[i] = p[i] * 3 + p[8179 - i] + p[8170] * 5;
}

// mem_atomic_loops.ptx: per warp the counters after 32 equal updates and the sums of the
// values the atomics returned (k * increment for k = 0..31).
void ref_mem_atomic_loops(RefCtx& c) {
  uint32_t* out = c.buf<uint32_t>("out");
  for (int w = 0; w < 2; ++w) {
    uint32_t* o = out + 12 * w;
    float f = 16.0f, fr = 4.0f, fs = 248.0f;
    double d = 8.0, ds = 124.0;
    uint64_t u = 32ull * 0x80000001ull, us = 496ull * 0x80000001ull;
    std::memcpy(o + 0, &f, 4);
    std::memcpy(o + 1, &fr, 4);
    std::memcpy(o + 2, &d, 8);
    std::memcpy(o + 4, &u, 8);
    std::memcpy(o + 6, &fs, 4);
    o[7] = 0;
    std::memcpy(o + 8, &ds, 8);
    std::memcpy(o + 10, &us, 8);
  }
}

// kernels/loop_invariants.cu, computed the way the kernel states it.
void ref_loop_invariants(RefCtx& c) {
  int n = static_cast<int>(c.iscalar(2)), d = static_cast<int>(c.iscalar(3));
  uint32_t ud = static_cast<uint32_t>(c.iscalar(4));
  const int32_t* in = c.buf<int32_t>("in");
  int32_t* out = c.buf<int32_t>("out");
  int threads = static_cast<int>(c.d.grid[0] * c.d.block[0]);
  for (int t = 0; t < threads; ++t) {
    int a = 0;
    for (int i = 0; i < n; ++i) a += in[(t + i) % 64] / d;
    uint32_t b = 0;
    for (int j = 0; j < (t & 3) + 1; ++j)
      for (int i = 0; i < n; ++i)
        b += static_cast<uint32_t>(in[(i * 7 + j) % 64]) % ud + static_cast<uint32_t>(j) * ud;
    float f = 0.f;
    for (int i = 0; i < n; ++i) {
      if (in[(t + i) % 64] > 900) break;
      f += static_cast<float>(in[(t + i) % 64]) / static_cast<float>(d);
    }
    out[3 * t] = a;
    out[3 * t + 1] = static_cast<int32_t>(b);
    out[3 * t + 2] = static_cast<int32_t>(f * 16.f);
  }
}

// kernels/pipeline_loops.ptx: element i of thread t at i * T + t.
void ref_pipeline_loops(RefCtx& c) {
  const int n = static_cast<int>(c.iscalar(3));
  const float* x = c.buf<float>("x");
  float* y = c.buf<float>("y");
  int32_t* out = c.buf<int32_t>("out");
  const int threads = static_cast<int>(c.d.grid[0] * c.d.block[0]);
  for (int t = 0; t < threads; ++t) {
    float s = 0.f;
    uint32_t h = 0;
    for (int i = 0; i < n; ++i)
      s += x[i * threads + t];
    for (int i = 0; i < n; ++i)
      y[i * threads + t] = std::fma(x[i * threads + t], 2.f, y[i * threads + t]);
    for (int i = 0; i < n; ++i) {
      uint32_t bits;
      std::memcpy(&bits, &x[i * threads + t], 4);
      h = h * 31u + bits;
    }
    std::memcpy(&out[3 * t], &s, 4);
    out[3 * t + 1] = static_cast<int32_t>(h);
    out[3 * t + 2] = n < 1 ? 0 : n;
  }
}

// kernels/loops_i64.cu: 64-bit loop counters, n = nb + t % 13 per thread.
void ref_loops_i64(RefCtx& c) {
  const int64_t nb = c.iscalar(2);
  const int32_t* a = c.buf<int32_t>("a");
  int32_t* o = c.buf<int32_t>("o");
  // Sums wrap as the kernel's 32-bit ints do.
  auto add = [](int32_t& s, int64_t v) { s = static_cast<int32_t>(static_cast<uint32_t>(s) + static_cast<uint32_t>(v)); };
  const int threads = static_cast<int>(c.d.block[0]);
  for (int t = 0; t < threads; ++t) {
    const int64_t n = nb + t % 13;
    int32_t s[7] = {};
    for (int64_t i = 0; i < n; ++i) add(s[0], a[t + i * 64]);
    for (int64_t i = 0; i <= n - 2; i += 2) add(s[1], int64_t(a[t + i * 64]) * 3);
    for (int64_t i = n; i > 0; --i) add(s[2], a[t + (i - 1) * 64] ^ static_cast<int32_t>(i));
    for (int64_t i = 0; i < n; ++i) add(s[3], int64_t(a[t + i * 64]) * 5);
    for (int64_t i = 0; i < n; ++i) add(s[4], int64_t(a[t + i * 64]) + 1);
    for (int64_t i = 0; i < 37; ++i) add(s[5], int64_t(a[t + i * 64]) * i);
    for (int64_t i = 0; i < n; ++i) add(s[6], int64_t(a[t + i * 64]) - 7);
    for (int k = 0; k < 7; ++k) o[t * 7 + k] = s[k];
  }
}

// kernels/loop_fusion.ptx: element i of thread t at i * T + t; three pairs of loops.
void ref_loop_fusion(RefCtx& c) {
  const int n = static_cast<int>(c.iscalar(4));
  const float* x = c.buf<float>("x");
  float* y = c.buf<float>("y");
  float* z = c.buf<float>("z");
  int32_t* out = c.buf<int32_t>("out");
  const int threads = static_cast<int>(c.d.grid[0] * c.d.block[0]);
  for (int t = 0; t < threads; ++t) {
    float s = 0.f, q = 0.f, s3 = 0.f;
    uint32_t h = 0;
    for (int i = 0; i < n; ++i)
      s += x[i * threads + t];
    for (int i = 0; i < n; ++i)
      q = std::fma(y[i * threads + t], y[i * threads + t], q);
    for (int i = 0; i < n; ++i)
      z[i * threads + t] = x[i * threads + t] + 1.f;
    for (int i = 0; i < n; ++i)
      h = h * 31u + static_cast<uint32_t>(i);
    for (int i = 0; i < n; ++i)
      y[i * threads + t] = x[i * threads + t] + x[i * threads + t];
    for (int i = 0; i < n; ++i)
      s3 += y[i * threads + t];
    std::memcpy(&out[4 * t], &s, 4);
    std::memcpy(&out[4 * t + 1], &q, 4);
    out[4 * t + 2] = static_cast<int32_t>(h);
    std::memcpy(&out[4 * t + 3], &s3, 4);
  }
}

// kernels/hot_cold_loops.ptx: element i of thread t at i * T + t; exit at x < -95.
void ref_hot_cold_loops(RefCtx& c) {
  const int n = static_cast<int>(c.iscalar(2));
  const float* x = c.buf<float>("x");
  int32_t* out = c.buf<int32_t>("out");
  const int threads = static_cast<int>(c.d.grid[0] * c.d.block[0]);
  for (int t = 0; t < threads; ++t) {
    float s = 0.f;
    int i = 0;
    bool early = false;
    do {
      const float v = x[i * threads + t];
      if (v < -95.f) {
        early = true;
        break;
      }
      s += v;
      ++i;
    } while (i < n);
    if (early) {
      out[2 * t] = i;
      out[2 * t + 1] = 1;
    } else {
      std::memcpy(&out[2 * t], &s, 4);
      out[2 * t + 1] = 0;
    }
  }
}

struct Entry {
  const char* name;
  RefFn fn;
};
const Entry kRefs[] = {
    {"saxpy", ref_saxpy},
    {"int_arith", ref_int_arith},
    {"float_arith", ref_float_arith},
    {"math_approx", ref_math_approx},
    {"convert", ref_convert},
    {"logic", ref_logic},
    {"setp_selp", ref_setp_selp},
    {"branches", ref_branches},
    {"reduce_shared", ref_reduce_shared},
    {"loop_invariants", ref_loop_invariants},
    {"pipeline_loops", ref_pipeline_loops},
    {"loops_i64", ref_loops_i64},
    {"loop_fusion", ref_loop_fusion},
    {"hot_cold_loops", ref_hot_cold_loops},
    {"transpose", ref_transpose},
    {"atomics", ref_atomics},
    {"warp_ops", ref_warp_ops},
    {"local_array", ref_local_array},
    {"device_call", ref_device_call},
    {"minmax", ref_minmax},
    {"misc", ref_misc},
    {"atomics2", ref_atomics2},
    {"dims", ref_dims},
    {"bitfield", ref_bitfield},
    {"const_table", ref_const_table},
    {"packed_half", ref_packed_half},
    {"local_generic", ref_local_generic},
    {"ctrl_divergence", ref_ctrl_divergence},
    {"ctrl_barriers", ref_ctrl_barriers},
    {"ctrl_warp_misc", ref_ctrl_warp_misc},
    {"ctrl_sregs", ref_ctrl_sregs},
    {"call_basic", ref_call_basic},
    {"call_indirect", ref_call_indirect},
    {"int_video_simd", ref_int_video_simd},
    {"atomics_generic", ref_atomics_generic},
    {"ctrl_fall_off", ref_ctrl_fall_off},
    {"triton_softmax", ref_triton_softmax},
    {"call_recursion", ref_call_recursion},
    {"call_args", ref_call_args},
    {"spill_pressure", ref_spill_pressure},
    {"spill_calls", ref_spill_calls},
    {"local_mem", ref_local_mem},
    {"spill_full", ref_spill_full},
    {"large_param", ref_large_param},
    {"huge_param", ref_huge_param},
    {"mem_atomics_shared64", ref_mem_atomics_shared64},
    {"int_video", ref_int_video},
    {"int_minmax16x2", ref_int_minmax16x2},
    {"int_mad_hi_sat", ref_int_mad_hi_sat},
    {"atomics_half", ref_atomics_half},
    {"cvt_round_f16", ref_cvt_round_f16},
    {"lop3_pred", ref_lop3_pred},
    {"createpolicy_cvt", ref_createpolicy_cvt},
    {"mem_cluster_addr", ref_mem_cluster_addr},
    {"mem_vector", ref_mem_vector},
    {"mem_subword", ref_mem_subword},
    {"mem_shared", ref_mem_shared},
    {"mem_module", ref_mem_module},
    {"mem_atomics", ref_mem_atomics},
    {"mem_cp_async", ref_mem_cp_async},
    {"mem_cp_async_zfill", ref_mem_cp_async_zfill},
    {"mem_atomic_loops", ref_mem_atomic_loops},
    {"int32_ops", ref_int32_ops},
    {"int64_ops", ref_int64_ops},
    {"int16_ops", ref_int16_ops},
    {"int_div", ref_int_div},
    {"cvt_wide_dst", ref_cvt_wide_dst},
};

}  // namespace

struct CorpusRef {
  const char* name;
  RefFn fn;
};
extern const CorpusRef kCorpusRefs[];  // corpus_references.cpp, terminated by a null name
extern const CorpusRef kFloatRefs[];   // references_float.cpp, terminated by a null name
extern const CorpusRef kTextureRefs[];  // tex_references.cpp, terminated by a null name
extern const CorpusRef kMmaRefs[];  // mma_references.cpp, terminated by a null name
extern const CorpusRef kHopperRefs[];  // hopper_references.cpp, terminated by a null name

RefFn find_reference(const std::string& name) {
  for (auto& e : kRefs)
    if (name == e.name) return e.fn;
  for (const CorpusRef* e = kCorpusRefs; e->name; ++e)
    if (name == e->name) return e->fn;
  for (const CorpusRef* e = kFloatRefs; e->name; ++e)
    if (name == e->name) return e->fn;
  for (const CorpusRef* e = kTextureRefs; e->name; ++e)
    if (name == e->name) return e->fn;
  for (const CorpusRef* e = kMmaRefs; e->name; ++e)
    if (name == e->name) return e->fn;
  for (const CorpusRef* e = kHopperRefs; e->name; ++e)
    if (name == e->name) return e->fn;
  return nullptr;
}

std::vector<std::string> reference_names() {
  std::vector<std::string> v;
  for (auto& e : kRefs) v.push_back(e.name);
  for (const CorpusRef* e = kCorpusRefs; e->name; ++e) v.push_back(e->name);
  for (const CorpusRef* e = kFloatRefs; e->name; ++e) v.push_back(e->name);
  for (const CorpusRef* e = kTextureRefs; e->name; ++e) v.push_back(e->name);
  for (const CorpusRef* e = kMmaRefs; e->name; ++e) v.push_back(e->name);
  for (const CorpusRef* e = kHopperRefs; e->name; ++e) v.push_back(e->name);
  return v;
}

}  // namespace ptxmini::exec
