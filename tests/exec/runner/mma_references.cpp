/* mma_references.cpp - C++ CPU references of the warp-level matrix execution tests
 * (kernels/mma_*.ptx, ldmatrix.ptx, wmma_*.ptx).
 *
 * The mma kernels give every thread its own slots in each buffer: thread T of a warp w holds
 * its fragment registers at [T * regs_per_thread ...]. The references rebuild each warp's
 * matrices from those slots with the PTX ISA's fragment descriptions, which say for element
 * i of a thread's fragment which (row, col) it is (groupID g = lane >> 2, threadID_in_group
 * t = lane % 4), compute D = A * B + C in plain loops, and scatter D back the same way. This
 * is the "element i -> (row, col)" direction of the ISA text, written independently of the
 * emulator's "(row, col) -> lane, register" direction (emu/ops_mma.cpp).
 * Floating sums are formed in double and rounded once; the hardware's accumulation order is
 * undocumented, so the descriptions compare float outputs with a tolerance (f64 and integer
 * outputs exactly: the f64 inputs are multiples of 1/16, so every sum is exact).
 * The wmma kernels are plain row/column-major GEMM tiles: their references are ordinary
 * matrix products over memory, independent of any fragment layout. */
#include "tests/exec/emu/fp_util.h"
#include "tests/exec/runner/test_desc.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <vector>

namespace ptxmini::exec {
namespace {

struct RC {
  int row, col;
};
// Element i of a thread's fragment -> (row, col). One function per operand layout of the ISA.
using Layout = std::function<RC(int lane, int i)>;

int G(int lane) { return lane >> 2; }
int Tq(int lane) { return lane % 4; }

// 16-bit A, m16n8k16: a0..a7; k8: a0..a3.
RC a16_k16(int l, int i) { return {G(l) + ((i % 4) >= 2 ? 8 : 0), Tq(l) * 2 + (i & 1) + (i >= 4 ? 8 : 0)}; }
RC a16_k8(int l, int i) { return {G(l) + (i >= 2 ? 8 : 0), Tq(l) * 2 + (i & 1)}; }
// 16-bit B: b0..b3 (k16), b0..b1 (k8).
RC b16(int l, int i) { return {Tq(l) * 2 + (i & 1) + (i >= 2 ? 8 : 0), G(l)}; }
// C/D of m16n8: c0..c3.
RC c16x8(int l, int i) { return {G(l) + (i >= 2 ? 8 : 0), Tq(l) * 2 + (i & 1)}; }
// C/D of m8n8: c0..c1.
RC c8x8(int l, int i) { return {G(l), Tq(l) * 2 + i}; }
// tf32 / f64 A (one element per 32/64-bit slot): m16n8k8 a0..a3, k4 a0..a1; f64 m16n8k16 a0..a7.
RC a32(int l, int i) { return {G(l) + (i % 2 ? 8 : 0), Tq(l) + 4 * (i / 2)}; }
RC b32(int l, int i) { return {Tq(l) + 4 * i, G(l)}; }
// 8-bit A: m16n8k32 a0..a15, m16n8k16 a0..a7; m8n8k16 a0..a3.
RC a8_k32(int l, int i) { return {G(l) + ((i / 4) % 2 ? 8 : 0), Tq(l) * 4 + (i & 3) + (i >= 8 ? 16 : 0)}; }
RC a8_m8(int l, int i) { return {G(l), Tq(l) * 4 + i}; }
RC b8(int l, int i) { return {Tq(l) * 4 + (i & 3) + (i >= 4 ? 16 : 0), G(l)}; }
// f64 m8n8k4: one A and one B element.
RC a64_m8(int l, int) { return {G(l), Tq(l)}; }

// Element accessors over a buffer of per-thread slots.
struct Frag {
  const uint8_t* base;
  int slot_bytes;    // bytes per thread
  int elem_bits;     // 8, 16, 32, 64
  bool is_signed = false;
  const char* kind;  // "f16" "bf16" "f32" "tf32" "f64" "i8" "i32"
  double get(int thread, int i) const {
    const uint8_t* p = base + static_cast<size_t>(thread) * slot_bytes + static_cast<size_t>(i) * elem_bits / 8;
    std::string k = kind;
    if (k == "f16" || k == "bf16") {
      uint16_t h;
      std::memcpy(&h, p, 2);
      return k == "f16" ? half_to_float(h) : bitsf(uint32_t{h} << 16);
    }
    if (k == "f32" || k == "tf32") {
      uint32_t u;
      std::memcpy(&u, p, 4);
      if (k == "tf32") u &= 0xffffe000u;  // exact tf32 inputs: no bits here
      return bitsf(u);
    }
    if (k == "f64") {
      double d;
      std::memcpy(&d, p, 8);
      return d;
    }
    if (k == "i8") return is_signed ? static_cast<int8_t>(*p) : *p;
    int32_t v;
    std::memcpy(&v, p, 4);
    return v;
  }
};

enum class Out { F32, F16, F64, S32Wrap, S32Sat };

// One mma over every warp: D[m][n] = sum_k A[m][k] B[k][n] + C[m][n].
void mma_ref(RefCtx& c, int threads, int M, int N, int K, const Frag& A, Layout la, int na, const Frag& B,
             Layout lb, int nb, const Frag& C, Layout lc, int nc, const std::string& dname, int d_slot_bytes,
             Out out) {
  uint8_t* D = c.buf<uint8_t>(dname);
  for (int w0 = 0; w0 < threads; w0 += 32) {
    std::vector<double> a(M * K), b(K * N), cm(M * N);
    for (int l = 0; l < 32; ++l) {
      for (int i = 0; i < na; ++i) { RC rc = la(l, i); a[rc.row * K + rc.col] = A.get(w0 + l, i); }
      for (int i = 0; i < nb; ++i) { RC rc = lb(l, i); b[rc.row * N + rc.col] = B.get(w0 + l, i); }
      for (int i = 0; i < nc; ++i) { RC rc = lc(l, i); cm[rc.row * N + rc.col] = C.get(w0 + l, i); }
    }
    for (int l = 0; l < 32; ++l)
      for (int i = 0; i < nc; ++i) {
        RC rc = lc(l, i);
        uint8_t* p = D + static_cast<size_t>(w0 + l) * d_slot_bytes;
        if (out == Out::S32Wrap || out == Out::S32Sat) {
          int64_t s = static_cast<int64_t>(cm[rc.row * N + rc.col]);
          for (int k = 0; k < K; ++k)
            s += static_cast<int64_t>(a[rc.row * K + k]) * static_cast<int64_t>(b[k * N + rc.col]);
          if (out == Out::S32Sat) s = std::min<int64_t>(std::max<int64_t>(s, INT32_MIN), INT32_MAX);
          uint32_t u = static_cast<uint32_t>(s);
          std::memcpy(p + 4 * i, &u, 4);
          continue;
        }
        double s = cm[rc.row * N + rc.col];
        for (int k = 0; k < K; ++k) s += a[rc.row * K + k] * b[k * N + rc.col];
        if (out == Out::F32) { float f = static_cast<float>(s); std::memcpy(p + 4 * i, &f, 4); }
        else if (out == Out::F64) std::memcpy(p + 8 * i, &s, 8);
        else { uint16_t h = double_to_half(s); std::memcpy(p + 2 * i, &h, 2); }
      }
  }
}

int threads_of(const RefCtx& c) { return static_cast<int>(c.d.grid[0] * c.d.block[0]); }

void ref_mma_f16(RefCtx& c) {
  int T = threads_of(c);
  Frag A{c.buf<uint8_t>("a"), 16, 16, false, "f16"}, B{c.buf<uint8_t>("b"), 8, 16, false, "f16"};
  Frag C32{c.buf<uint8_t>("c32"), 16, 32, false, "f32"}, C16{c.buf<uint8_t>("c16"), 8, 16, false, "f16"};
  mma_ref(c, T, 16, 8, 16, A, a16_k16, 8, B, b16, 4, C32, c16x8, 4, "d0", 16, Out::F32);
  mma_ref(c, T, 16, 8, 16, A, a16_k16, 8, B, b16, 4, C16, c16x8, 4, "d1", 8, Out::F16);
  mma_ref(c, T, 16, 8, 8, A, a16_k8, 4, B, b16, 2, C32, c16x8, 4, "d2", 16, Out::F32);
  mma_ref(c, T, 16, 8, 8, A, a16_k8, 4, B, b16, 2, C16, c16x8, 4, "d3", 8, Out::F16);
}

void ref_mma_bf16(RefCtx& c) {
  int T = threads_of(c);
  Frag A{c.buf<uint8_t>("a"), 16, 16, false, "bf16"}, B{c.buf<uint8_t>("b"), 8, 16, false, "bf16"};
  Frag C{c.buf<uint8_t>("c"), 16, 32, false, "f32"};
  mma_ref(c, T, 16, 8, 16, A, a16_k16, 8, B, b16, 4, C, c16x8, 4, "d0", 16, Out::F32);
  mma_ref(c, T, 16, 8, 8, A, a16_k8, 4, B, b16, 2, C, c16x8, 4, "d1", 16, Out::F32);
}

void ref_mma_tf32(RefCtx& c) {
  int T = threads_of(c);
  Frag A{c.buf<uint8_t>("a"), 16, 32, false, "tf32"}, B{c.buf<uint8_t>("b"), 8, 32, false, "tf32"};
  Frag C{c.buf<uint8_t>("c"), 16, 32, false, "f32"};
  mma_ref(c, T, 16, 8, 8, A, a32, 4, B, b32, 2, C, c16x8, 4, "d0", 16, Out::F32);
  mma_ref(c, T, 16, 8, 4, A, a32, 2, B, b32, 1, C, c16x8, 4, "d1", 16, Out::F32);
}

void ref_mma_int8(RefCtx& c) {
  int T = threads_of(c);
  Frag As{c.buf<uint8_t>("a"), 16, 8, true, "i8"}, Au{c.buf<uint8_t>("a"), 16, 8, false, "i8"};
  Frag Bs{c.buf<uint8_t>("b"), 8, 8, true, "i8"}, Bu{c.buf<uint8_t>("b"), 8, 8, false, "i8"};
  Frag C{c.buf<uint8_t>("c"), 16, 32, true, "i32"}, S{c.buf<uint8_t>("csat"), 16, 32, true, "i32"};
  mma_ref(c, T, 16, 8, 32, As, a8_k32, 16, Bs, b8, 8, C, c16x8, 4, "d0", 16, Out::S32Wrap);
  mma_ref(c, T, 16, 8, 32, As, a8_k32, 16, Bs, b8, 8, S, c16x8, 4, "d1", 16, Out::S32Sat);
  mma_ref(c, T, 16, 8, 32, Au, a8_k32, 16, Bs, b8, 8, C, c16x8, 4, "d2", 16, Out::S32Wrap);
  mma_ref(c, T, 16, 8, 16, As, a8_k32, 8, Bs, b8, 4, C, c16x8, 4, "d3", 16, Out::S32Wrap);
  mma_ref(c, T, 16, 8, 16, As, a8_k32, 8, Bu, b8, 4, S, c16x8, 4, "d4", 16, Out::S32Sat);
  mma_ref(c, T, 8, 8, 16, As, a8_m8, 4, Bs, b8, 4, S, c8x8, 2, "d5", 8, Out::S32Sat);
  mma_ref(c, T, 8, 8, 16, Au, a8_m8, 4, Bu, b8, 4, C, c8x8, 2, "d6", 8, Out::S32Wrap);
}

void ref_mma_f64(RefCtx& c) {
  int T = threads_of(c);
  Frag A{c.buf<uint8_t>("a"), 8, 64, false, "f64"}, B{c.buf<uint8_t>("b"), 8, 64, false, "f64"};
  Frag C{c.buf<uint8_t>("c"), 16, 64, false, "f64"};
  mma_ref(c, T, 8, 8, 4, A, a64_m8, 1, B, b32, 1, C, c8x8, 2, "d0", 16, Out::F64);
}

void ref_mma_f64_m16(RefCtx& c) {
  int T = threads_of(c);
  Frag A{c.buf<uint8_t>("a"), 64, 64, false, "f64"}, B{c.buf<uint8_t>("b"), 32, 64, false, "f64"};
  Frag C{c.buf<uint8_t>("c"), 32, 64, false, "f64"};
  mma_ref(c, T, 16, 8, 4, A, a32, 2, B, b32, 1, C, c16x8, 4, "d1", 32, Out::F64);
  mma_ref(c, T, 16, 8, 8, A, a32, 4, B, b32, 2, C, c16x8, 4, "d2", 32, Out::F64);
  mma_ref(c, T, 16, 8, 16, A, a32, 8, B, b32, 4, C, c16x8, 4, "d3", 32, Out::F64);
}

// A plain GEMM over memory: D[i][j] = sum_k A(i, k) B(k, j) + C[i][j], with A row-major
// (lda), B column-major (ldb), C and D row-major (ldc); element readers per type.
template <class GetA, class GetB, class GetC, class PutD>
void gemm_ref(int M, int N, int K, GetA ga, GetB gb, GetC gc, PutD pd) {
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      double s = gc(i, j);
      for (int k = 0; k < K; ++k) s += ga(i, k) * gb(k, j);
      pd(i, j, s);
    }
}
double h2d(const uint16_t* p, size_t i) { return half_to_float(p[i]); }
double bf2d(const uint16_t* p, size_t i) { return bitsf(uint32_t{p[i]} << 16); }

void ref_wmma_f16(RefCtx& c) {
  const uint16_t *a = c.buf<uint16_t>("a"), *b = c.buf<uint16_t>("b");
  const float* cm = c.buf<float>("c");
  float* d = c.buf<float>("d");
  gemm_ref(32, 32, 32, [&](int i, int k) { return h2d(a, i * 32 + k); },
           [&](int k, int j) { return h2d(b, j * 32 + k); }, [&](int i, int j) { return double{cm[i * 32 + j]}; },
           [&](int i, int j, double s) { d[i * 32 + j] = static_cast<float>(s); });
}

void ref_wmma_bf16(RefCtx& c) {
  const uint16_t *a = c.buf<uint16_t>("a"), *b = c.buf<uint16_t>("b");
  const float* cm = c.buf<float>("c");
  float* d = c.buf<float>("d");
  gemm_ref(32, 32, 32, [&](int i, int k) { return bf2d(a, i * 32 + k); },
           [&](int k, int j) { return bf2d(b, j * 32 + k); }, [&](int i, int j) { return double{cm[i * 32 + j]}; },
           [&](int i, int j, double s) { d[i * 32 + j] = static_cast<float>(s); });
}

void ref_wmma_tf32(RefCtx& c) {
  const float *a = c.buf<float>("a"), *b = c.buf<float>("b"), *cm = c.buf<float>("c");
  float* d = c.buf<float>("d");
  gemm_ref(32, 32, 32, [&](int i, int k) { return double{a[i * 32 + k]}; },
           [&](int k, int j) { return double{b[j * 32 + k]}; }, [&](int i, int j) { return double{cm[i * 32 + j]}; },
           [&](int i, int j, double s) { d[i * 32 + j] = static_cast<float>(s); });
}

void ref_wmma_f64(RefCtx& c) {
  const double *a = c.buf<double>("a"), *b = c.buf<double>("b"), *cm = c.buf<double>("c");
  double* d = c.buf<double>("d");
  gemm_ref(16, 16, 16, [&](int i, int k) { return a[i * 16 + k]; }, [&](int k, int j) { return b[j * 16 + k]; },
           [&](int i, int j) { return cm[i * 16 + j]; }, [&](int i, int j, double s) { d[i * 16 + j] = s; });
}

void ref_wmma_shared(RefCtx& c) {
  const uint16_t *a = c.buf<uint16_t>("a"), *b = c.buf<uint16_t>("b");
  const float* cm = c.buf<float>("c");
  float* d32 = c.buf<float>("d32");
  uint16_t* d16 = c.buf<uint16_t>("d16");
  auto ga = [&](int i, int k) { return h2d(a, i * 16 + k); };
  auto gb = [&](int k, int j) { return h2d(b, j * 16 + k); };
  gemm_ref(32, 32, 16, ga, gb, [&](int i, int j) { return double{cm[i * 32 + j]}; },
           [&](int i, int j, double s) { d32[i * 32 + j] = static_cast<float>(s); });
  gemm_ref(32, 32, 16, ga, gb, [](int, int) { return 0.0; },
           [&](int i, int j, double s) { d16[i * 32 + j] = double_to_half(s); });
}

void ref_wmma_u8(RefCtx& c) {
  const uint8_t *a = c.buf<uint8_t>("a"), *b = c.buf<uint8_t>("b");
  const int32_t* cm = c.buf<int32_t>("c");
  for (int sgn = 0; sgn < 2; ++sgn) {
    int32_t* d = c.buf<int32_t>(sgn ? "ds" : "du");
    auto v = [&](uint8_t x) { return sgn ? int64_t{static_cast<int8_t>(x)} : int64_t{x}; };
    for (int i = 0; i < 32; ++i)
      for (int j = 0; j < 32; ++j) {
        int64_t s = cm[i * 32 + j];
        for (int k = 0; k < 32; ++k) s += v(a[i * 32 + k]) * v(b[j * 32 + k]);
        d[i * 32 + j] = static_cast<int32_t>(s);
      }
  }
}

void ref_wmma_m8n32(RefCtx& c) {
  const uint16_t *a = c.buf<uint16_t>("a"), *b = c.buf<uint16_t>("b");
  float *d1 = c.buf<float>("d1"), *d2 = c.buf<float>("d2");
  auto ga = [&](int i, int k) { return h2d(a, i * 16 + k); };
  auto gb = [&](int k, int j) { return h2d(b, j * 16 + k); };
  auto zero = [](int, int) { return 0.0; };
  gemm_ref(8, 32, 16, ga, gb, zero, [&](int i, int j, double s) { d1[i * 32 + j] = static_cast<float>(s); });
  gemm_ref(32, 8, 16, ga, gb, zero, [&](int i, int j, double s) { d2[i * 8 + j] = static_cast<float>(s); });
}

void ref_wmma_trans(RefCtx& c) {
  const uint16_t *a = c.buf<uint16_t>("a"), *b = c.buf<uint16_t>("b");
  const float* cm = c.buf<float>("c");
  float* d = c.buf<float>("d");
  gemm_ref(32, 32, 16, [&](int i, int k) { return h2d(a, k * 32 + i); },
           [&](int k, int j) { return h2d(b, k * 32 + j); }, [&](int i, int j) { return double{cm[j * 32 + i]}; },
           [&](int i, int j, double s) { d[j * 32 + i] = static_cast<float>(s); });
}

// ldmatrix.ptx. The PTX ISA's ldmatrix: for .x1/.x2/.x4, threads 0-7, 8-15, 16-23, 24-31
// give the row addresses of matrices 0, 1, 2, 3; destination register j of thread l receives
// elements 2(l%4) and 2(l%4)+1 of row l/4 of matrix j (the first in the low half), and with
// .trans the same positions of the transposed matrix. stmatrix stores the same way;
// movmatrix.trans transposes one matrix held in that layout.
void ref_ldmatrix(RefCtx& c) {
  const uint16_t* src = c.buf<uint16_t>("src");
  uint32_t* out = c.buf<uint32_t>("out");
  uint16_t* out2 = c.buf<uint16_t>("out2");
  for (int cta = 0; cta < 2; ++cta) {
    const uint16_t* sm = src + cta * 1024;  // the CTA's 2048 bytes as b16 elements
    auto row_of = [](int lane) { return (7 * lane) & 31; };  // 16-byte row index of a lane
    // element (r, col) of matrix j read from region `base` (bytes)
    auto elem = [&](int base, int j, int r, int col) { return sm[(base + row_of(8 * j + r) * 16) / 2 + col]; };
    auto ld = [&](int base, int count, bool trans, int lane, int j) -> uint32_t {
      (void)count;
      int r = lane / 4, cc = 2 * (lane % 4);
      if (!trans) return elem(base, j, r, cc) | uint32_t{elem(base, j, r, cc + 1)} << 16;
      return elem(base, j, cc, r) | uint32_t{elem(base, j, cc + 1, r)} << 16;
    };
    uint32_t regs[32][19];
    for (int l = 0; l < 32; ++l) {
      int k = 0;
      regs[l][k++] = ld(0, 1, false, l, 0);
      for (int j = 0; j < 2; ++j) regs[l][k++] = ld(512, 2, false, l, j);
      for (int j = 0; j < 4; ++j) regs[l][k++] = ld(1024, 4, false, l, j);
      regs[l][k++] = ld(1536, 1, true, l, 0);
      for (int j = 0; j < 2; ++j) regs[l][k++] = ld(0, 2, true, l, j);
      for (int j = 0; j < 4; ++j) regs[l][k++] = ld(512, 4, true, l, j);
      for (int j = 0; j < 4; ++j) regs[l][k++] = ld(1024, 4, false, l, j);
    }
    // movmatrix.trans of the x1 result: the matrix M[r][col] held as above, transposed.
    auto held = [&](int reg, int r, int col) {
      return static_cast<uint16_t>(regs[r * 4 + col / 2][reg] >> (16 * (col & 1)));
    };
    for (int l = 0; l < 32; ++l) {
      int r = l / 4, cc = 2 * (l % 4);
      regs[l][18] = held(0, cc, r) | uint32_t{held(0, cc + 1, r)} << 16;
    }
    for (int l = 0; l < 32; ++l)
      for (int k = 0; k < 19; ++k) out[(cta * 32 + l) * 19 + k] = regs[l][k];
    // stmatrix: matrix j's row r goes to the address of thread 8j + r.
    uint16_t* st = out2 + cta * 1024;
    for (int i = 0; i < 1024; ++i) st[i] = 0;
    auto store = [&](int reg0, int count, bool trans, auto addr_of) {
      for (int j = 0; j < count; ++j)
        for (int r = 0; r < 8; ++r)
          for (int col = 0; col < 8; ++col) {
            // element (r, col) of matrix j as stored: the held fragment element, or its transpose
            uint16_t v = trans ? held(reg0 + j, col, r) : held(reg0 + j, r, col);
            st[addr_of(8 * j + r) / 2 + col] = v;
          }
    };
    store(3, 4, false, [](int lane) { return ((3 * lane) & 31) * 16; });
    store(0, 1, false, [](int lane) { return 512 + lane * 32; });
    store(1, 2, true, [](int lane) { return 1024 + lane * 16; });
  }
}

// wmma_ptx.ptx: several GEMMs over strided memory (strides in elements, see the kernel).
void ref_wmma_ptx(RefCtx& c) {
  const uint16_t *a16 = c.buf<uint16_t>("a16"), *b16 = c.buf<uint16_t>("b16"), *c16 = c.buf<uint16_t>("c16");
  const uint16_t *abf = c.buf<uint16_t>("abf"), *bbf = c.buf<uint16_t>("bbf");
  const uint16_t *b32 = c.buf<uint16_t>("b32"), *a32 = c.buf<uint16_t>("a32");
  const float *c32 = c.buf<float>("c32"), *at = c.buf<float>("at"), *bt = c.buf<float>("bt");
  const uint8_t *au = c.buf<uint8_t>("au"), *bu = c.buf<uint8_t>("bu");
  const int32_t* ci = c.buf<int32_t>("ci");
  const double *ad = c.buf<double>("ad"), *bd = c.buf<double>("bd"), *cd = c.buf<double>("cd");
  auto f32out = [&](const char* n, int ld) {
    float* d = c.buf<float>(n);
    return [d, ld](int i, int j, double s) { d[i * ld + j] = static_cast<float>(s); };
  };
  auto C32 = [&](int i, int j) { return double{c32[i * 20 + j]}; };
  auto A16 = [&](int i, int k) { return h2d(a16, i * 24 + k); };
  auto B16 = [&](int k, int j) { return h2d(b16, j * 24 + k); };
  gemm_ref(16, 16, 16, A16, B16, C32, f32out("d0", 20));
  uint16_t* d1 = c.buf<uint16_t>("d1");
  gemm_ref(16, 16, 16, A16, B16, [&](int i, int j) { return h2d(c16, i * 24 + j); },
           [&](int i, int j, double s) { d1[i * 24 + j] = double_to_half(s); });
  gemm_ref(16, 16, 16, [&](int i, int k) { return bf2d(abf, i * 24 + k); },
           [&](int k, int j) { return bf2d(bbf, j * 24 + k); }, C32, f32out("d2", 20));
  gemm_ref(16, 16, 8, [&](int i, int k) { return double{at[i * 12 + k]}; },
           [&](int k, int j) { return double{bt[j * 12 + k]}; }, C32, f32out("d3", 20));
  for (int sgn = 0; sgn < 2; ++sgn) {
    int32_t* d = c.buf<int32_t>(sgn ? "d5" : "d4");
    auto v = [&](uint8_t x) { return sgn ? int64_t{static_cast<int8_t>(x)} : int64_t{x}; };
    for (int i = 0; i < 16; ++i)
      for (int j = 0; j < 16; ++j) {
        int64_t s = ci[i * 20 + j];
        for (int k = 0; k < 16; ++k) s += v(au[i * 32 + k]) * v(bu[j * 32 + k]);
        if (sgn) s = std::min<int64_t>(std::max<int64_t>(s, INT32_MIN), INT32_MAX);
        d[i * 20 + j] = static_cast<int32_t>(s);
      }
  }
  double* d6 = c.buf<double>("d6");
  gemm_ref(8, 8, 4, [&](int i, int k) { return ad[i * 4 + k]; }, [&](int k, int j) { return bd[j * 4 + k]; },
           [&](int i, int j) { return cd[i * 8 + j]; }, [&](int i, int j, double s) { d6[i * 8 + j] = s; });
  auto zero = [](int, int) { return 0.0; };
  gemm_ref(8, 32, 16, A16, [&](int k, int j) { return h2d(b32, j * 24 + k); }, zero, f32out("d7", 36));
  gemm_ref(32, 8, 16, [&](int i, int k) { return h2d(a32, i * 24 + k); }, B16, zero, f32out("d8", 12));
}

}  // namespace

struct CorpusRef {
  const char* name;
  RefFn fn;
};
extern const CorpusRef kMmaRefs[];
const CorpusRef kMmaRefs[] = {
    {"mma_f16", ref_mma_f16},
    {"mma_bf16", ref_mma_bf16},
    {"mma_tf32", ref_mma_tf32},
    {"mma_int8", ref_mma_int8},
    {"mma_f64", ref_mma_f64},
    {"mma_f64_m16", ref_mma_f64_m16},
    {"wmma_f16", ref_wmma_f16},
    {"wmma_bf16", ref_wmma_bf16},
    {"wmma_tf32", ref_wmma_tf32},
    {"wmma_f64", ref_wmma_f64},
    {"wmma_shared", ref_wmma_shared},
    {"wmma_u8", ref_wmma_u8},
    {"wmma_m8n32", ref_wmma_m8n32},
    {"wmma_trans", ref_wmma_trans},
    {"ldmatrix", ref_ldmatrix},
    {"wmma_ptx", ref_wmma_ptx},
    {nullptr, nullptr},
};

}  // namespace ptxmini::exec
