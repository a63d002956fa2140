/* hopper_references.cpp - C++ CPU references of the sm_90a asynchronous-machinery execution
 * tests (kernels/mbarrier_*.ptx, ...): what the kernels compute, written from the PTX ISA's
 * description of the instructions, independently of the emulator's model of them. */
#include "tests/exec/emu/fp_util.h"
#include "tests/exec/runner/test_desc.h"

#include <cmath>
#include <cstdint>

namespace ptxmini::exec {
namespace {

// mbarrier_pc: consumer j of CTA b folds the 4 rounds of its slot (j % 32): acc = acc * 3 + v.
// info[b] = {pending arrivals after init(5) (state before arrive 2): 5, after the second
// arrive's state: 3, test_wait before completion: 0, after the fifth arrival: 1}.
void ref_mbarrier_pc(RefCtx& c) {
  const uint32_t* in = c.buf<uint32_t>("in");
  uint32_t* out = c.buf<uint32_t>("out");
  uint32_t* info = c.buf<uint32_t>("info");
  for (uint32_t b = 0; b < c.d.grid[0]; ++b) {
    for (uint32_t j = 0; j < 96; ++j) {
      uint32_t acc = 0;
      for (uint32_t r = 0; r < 4; ++r) acc = acc * 3 + in[(b * 4 + r) * 32 + j % 32];
      out[b * 96 + j] = acc;
    }
    info[b * 4 + 0] = 5;
    info[b * 4 + 1] = 3;
    info[b * 4 + 2] = 0;
    info[b * 4 + 3] = 1;
  }
}

// setmaxnreg_ws: out[b * 256 + j] = in[b * 256 + j] * 5 + in[b * 256 + 255 - j].
void ref_setmaxnreg_ws(RefCtx& c) {
  const uint32_t* in = c.buf<uint32_t>("in");
  uint32_t* out = c.buf<uint32_t>("out");
  for (uint32_t b = 0; b < c.d.grid[0]; ++b)
    for (uint32_t j = 0; j < 256; ++j)
      out[b * 256 + j] = in[b * 256 + j] * 5 + in[b * 256 + 255 - j];
}

// cvta_param: out[t] = blob[t % 4] + t + 3 * blob[3].
void ref_cvta_param(RefCtx& c) {
  const uint32_t* blob = c.buf<uint32_t>("blob");
  uint32_t* out = c.buf<uint32_t>("out");
  for (uint32_t t = 0; t < 64; ++t) out[t] = blob[t % 4] + t + 3 * blob[3];
}

// cvta_roundtrip: .const table entry t % 4 (11, 22, 33, 44) and parameter word t % 4.
void ref_cvta_roundtrip(RefCtx& c) {
  const uint32_t* blob = c.buf<uint32_t>("blob");
  uint32_t* out = c.buf<uint32_t>("out");
  for (uint32_t t = 0; t < 64; ++t) {
    out[2 * t] = 11 * (t % 4 + 1);
    out[2 * t + 1] = blob[t % 4];
  }
}

// bulk_copy: out = in + 1 and out2 = in2 (each CTA its slice: 256 and 128 words).
void ref_bulk_copy(RefCtx& c) {
  const uint32_t* in = c.buf<uint32_t>("in");
  const uint32_t* in2 = c.buf<uint32_t>("in2");
  uint32_t* out = c.buf<uint32_t>("out");
  uint32_t* out2 = c.buf<uint32_t>("out2");
  for (uint32_t i = 0; i < 256 * c.d.grid[0]; ++i) out[i] = in[i] + 1;
  for (uint32_t i = 0; i < 128 * c.d.grid[0]; ++i) out2[i] = in2[i];
}

// cp_async_mbarrier: out[t] = in[63 - t] * 2 + in[64 + 63 - t].
void ref_cp_async_mbarrier(RefCtx& c) {
  const uint32_t* in = c.buf<uint32_t>("in");
  uint32_t* out = c.buf<uint32_t>("out");
  for (uint32_t t = 0; t < 64; ++t) out[t] = in[63 - t] * 2 + in[64 + 63 - t];
}

// The fp8 value of a byte (PTX ISA, "Alternate floating point data formats": e4m3 bias 7,
// e5m2 bias 15, subnormals at exponent 0). The wgmma_fp8 inputs are masked finite.
double fp8_to_double(uint8_t b, bool e4m3) {
  int mbits = e4m3 ? 3 : 2, bias = e4m3 ? 7 : 15;
  int exp = b >> mbits & (e4m3 ? 0xf : 0x1f), man = b & ((1 << mbits) - 1);
  double v = exp ? std::ldexp(1.0 + man / double(1 << mbits), exp - bias) : std::ldexp(man / double(1 << mbits), 1 - bias);
  return b & 0x80 ? -v : v;
}

// wgmma_f16: per tile t (one per CTA), d = a * bt^T (a: 64x64 row-major M x K, bt: 64x64 N x K).
// The inputs are multiples of 1/8 in [-2, 2]: every sum is exact in f32.
void ref_wgmma_f16(RefCtx& c) {
  const uint16_t *a = c.buf<uint16_t>("a"), *bt = c.buf<uint16_t>("bt");
  float* d = c.buf<float>("d");
  for (uint32_t t = 0; t < c.d.grid[0]; ++t)
    for (int m = 0; m < 64; ++m)
      for (int n = 0; n < 64; ++n) {
        double s = 0;
        for (int k = 0; k < 64; ++k) s += double{half_to_float(a[t * 4096 + m * 64 + k])} * half_to_float(bt[t * 4096 + n * 64 + k]);
        d[t * 4096 + m * 64 + n] = static_cast<float>(s);
      }
}

// wgmma_bf16: d = c + a[:, 0:16] * b[0:16, :] - a[:, 16:32] * b[16:32, :] (a 64x32, b 32x64,
// row-major).
void ref_wgmma_bf16(RefCtx& c) {
  const uint16_t *a = c.buf<uint16_t>("a"), *b = c.buf<uint16_t>("b");
  const float* cm = c.buf<float>("c");
  float* d = c.buf<float>("d");
  for (int m = 0; m < 64; ++m)
    for (int n = 0; n < 64; ++n) {
      double s = cm[m * 64 + n];
      for (int k = 0; k < 32; ++k) {
        double p = double{bf16_to_float(a[m * 32 + k])} * bf16_to_float(b[k * 64 + n]);
        s += k < 16 ? p : -p;
      }
      d[m * 64 + n] = static_cast<float>(s);
    }
}

// wgmma_fp8: d = A * B^T with A = e4m3(a & 0xbf), B^T = e5m2(bt & 0xbf) (64x64 each, K-major).
void ref_wgmma_fp8(RefCtx& c) {
  const uint8_t *a = c.buf<uint8_t>("a"), *bt = c.buf<uint8_t>("bt");
  float* d = c.buf<float>("d");
  for (int m = 0; m < 64; ++m)
    for (int n = 0; n < 64; ++n) {
      double s = 0;
      for (int k = 0; k < 64; ++k)
        s += fp8_to_double(a[m * 64 + k] & 0xbf, true) * fp8_to_double(bt[n * 64 + k] & 0xbf, false);
      d[m * 64 + n] = static_cast<float>(s);
    }
}

// wgmma_s8: d = c + a * bt^T (a: 64x128 s8, bt: 32x128 u8, c and d: 64x32 s32).
void ref_wgmma_s8(RefCtx& c) {
  const int8_t* a = c.buf<int8_t>("a");
  const uint8_t* bt = c.buf<uint8_t>("bt");
  const int32_t* cm = c.buf<int32_t>("c");
  int32_t* d = c.buf<int32_t>("d");
  for (int m = 0; m < 64; ++m)
    for (int n = 0; n < 32; ++n) {
      int64_t s = cm[m * 32 + n];
      for (int k = 0; k < 128; ++k) s += int64_t{a[m * 128 + k]} * bt[n * 128 + k];
      d[m * 32 + n] = static_cast<int32_t>(s);
    }
}

// wgmma_mixed: d1 = a1 * b1t^T (a1 64x16 f32 holding tf32 values, b1t 32x16, K-major) and
// d2 = c2 + a2 * b2 (a2 64x16 f16 row-major, b2 16x16 f16 row-major K x N, c2/d2 64x16 f16).
void ref_wgmma_mixed(RefCtx& c) {
  const float *a1 = c.buf<float>("a1"), *b1t = c.buf<float>("b1t");
  float* d1 = c.buf<float>("d1");
  for (int m = 0; m < 64; ++m)
    for (int n = 0; n < 32; ++n) {
      double s = 0;
      for (int k = 0; k < 16; ++k) s += double{a1[m * 16 + k]} * b1t[n * 16 + k];
      d1[m * 32 + n] = static_cast<float>(s);
    }
  const uint16_t *a2 = c.buf<uint16_t>("a2"), *b2 = c.buf<uint16_t>("b2"), *c2 = c.buf<uint16_t>("c2");
  uint16_t* d2 = c.buf<uint16_t>("d2");
  for (int m = 0; m < 64; ++m)
    for (int n = 0; n < 16; ++n) {
      double s = half_to_float(c2[m * 16 + n]);
      for (int k = 0; k < 16; ++k) s += double{half_to_float(a2[m * 16 + k])} * half_to_float(b2[k * 16 + n]);
      d2[m * 16 + n] = double_to_half(s);
    }
}

// wgmma_ws: d = a * bt^T with K = 128 (a: 64x128 f16 row-major, bt: 64x128 N x K).
void ref_wgmma_ws(RefCtx& c) {
  const uint16_t *a = c.buf<uint16_t>("a"), *bt = c.buf<uint16_t>("bt");
  float* d = c.buf<float>("d");
  for (int m = 0; m < 64; ++m)
    for (int n = 0; n < 64; ++n) {
      double s = 0;
      for (int k = 0; k < 128; ++k) s += double{half_to_float(a[m * 128 + k])} * half_to_float(bt[n * 128 + k]);
      d[m * 64 + n] = static_cast<float>(s);
    }
}

}  // namespace

struct CorpusRef {
  const char* name;
  RefFn fn;
};
extern const CorpusRef kHopperRefs[];
const CorpusRef kHopperRefs[] = {
    {"mbarrier_pc", ref_mbarrier_pc},
    {"setmaxnreg_ws", ref_setmaxnreg_ws},
    {"cvta_param", ref_cvta_param},
    {"cvta_roundtrip", ref_cvta_roundtrip},
    {"bulk_copy", ref_bulk_copy},
    {"cp_async_mbarrier", ref_cp_async_mbarrier},
    {"wgmma_f16", ref_wgmma_f16},
    {"wgmma_bf16", ref_wgmma_bf16},
    {"wgmma_fp8", ref_wgmma_fp8},
    {"wgmma_s8", ref_wgmma_s8},
    {"wgmma_mixed", ref_wgmma_mixed},
    {"wgmma_ws", ref_wgmma_ws},
    {nullptr, nullptr},
};

}  // namespace ptxmini::exec
