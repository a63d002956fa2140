/* corpus_references.cpp - CPU references for kernels of the real-PTX corpus (see "Corpora" in
 * docs/verification.md): standard computations written here in plain C++ from their
 * mathematical definitions (vector add, PolyBench linear-algebra and stencil kernels). The
 * corpus, its cubins and the descriptions that bind these references to corpus kernels stay
 * on the machine that runs them and are never committed. Row strides are parameters of the
 * description ("param" values are the kernel's; strides are the kernels' compile-time sizes,
 * given to the reference as extra buffer-free constants below). Comparisons use a tolerance
 * because the order of float accumulation and fma contraction is the compiler's choice. */
#include "tests/exec/runner/test_desc.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ptxmini::exec {
namespace {

// Strides compiled into the PolyBench kernels (their STANDARD_DATASET sizes).
constexpr int kPb4096 = 4096, kPb512 = 512, kPb1024 = 1024, kPb1000 = 1000, kPb2048 = 2048;

void vector_add(RefCtx& c) {
  int n = static_cast<int>(c.iscalar(3));
  for (int i = 0; i < n; ++i) c.buf<float>("C")[i] = c.buf<float>("A")[i] + c.buf<float>("B")[i];
}

void pb_conv2d(RefCtx& c) {
  int ni = static_cast<int>(c.iscalar(0)), nj = static_cast<int>(c.iscalar(1));
  const float* A = c.buf<float>("A");
  float* B = c.buf<float>("B");
  const float k[3][3] = {{0.2f, -0.3f, 0.4f}, {0.5f, 0.6f, 0.7f}, {-0.8f, -0.9f, 0.10f}};  // k[col][row]
  for (int i = 1; i < ni - 1; ++i)
    for (int j = 1; j < nj - 1; ++j) {
      float s = 0;
      for (int dj = -1; dj <= 1; ++dj)
        for (int di = -1; di <= 1; ++di) s += k[dj + 1][di + 1] * A[(i + di) * kPb4096 + (j + dj)];
      B[i * kPb4096 + j] = s;
    }
}

void pb_atax1(RefCtx& c) {
  int nx = static_cast<int>(c.iscalar(0)), ny = static_cast<int>(c.iscalar(1));
  for (int i = 0; i < nx; ++i) {
    float t = 0;
    for (int j = 0; j < ny; ++j) t = std::fma(c.buf<float>("A")[i * kPb4096 + j], c.buf<float>("x")[j], t);
    c.buf<float>("tmp")[i] = t;
  }
}

void pb_atax2(RefCtx& c) {
  int nx = static_cast<int>(c.iscalar(0)), ny = static_cast<int>(c.iscalar(1));
  for (int j = 0; j < ny; ++j) {
    float t = 0;
    for (int i = 0; i < nx; ++i) t = std::fma(c.buf<float>("A")[i * kPb4096 + j], c.buf<float>("tmp")[i], t);
    c.buf<float>("y")[j] = t;
  }
}

void pb_bicg1(RefCtx& c) {
  int nx = static_cast<int>(c.iscalar(0)), ny = static_cast<int>(c.iscalar(1));
  for (int j = 0; j < ny; ++j) {
    float t = 0;
    for (int i = 0; i < nx; ++i) t = std::fma(c.buf<float>("r")[i], c.buf<float>("A")[i * kPb4096 + j], t);
    c.buf<float>("s")[j] = t;
  }
}

void pb_bicg2(RefCtx& c) {
  int nx = static_cast<int>(c.iscalar(0)), ny = static_cast<int>(c.iscalar(1));
  for (int i = 0; i < nx; ++i) {
    float t = 0;
    for (int j = 0; j < ny; ++j) t = std::fma(c.buf<float>("A")[i * kPb4096 + j], c.buf<float>("p")[j], t);
    c.buf<float>("q")[i] = t;
  }
}

void pb_gemm(RefCtx& c) {
  int ni = static_cast<int>(c.iscalar(0)), nj = static_cast<int>(c.iscalar(1)), nk = static_cast<int>(c.iscalar(2));
  float alpha = static_cast<float>(c.scalar(3)), beta = static_cast<float>(c.scalar(4));
  const float *a = c.buf<float>("a"), *b = c.buf<float>("b");
  float* C = c.buf<float>("c");
  for (int i = 0; i < ni; ++i)
    for (int j = 0; j < nj; ++j) {
      float t = C[i * kPb512 + j] * beta;
      for (int k = 0; k < nk; ++k) t = std::fma(alpha * a[i * kPb512 + k], b[k * kPb512 + j], t);
      C[i * kPb512 + j] = t;
    }
}

void pb_gesummv(RefCtx& c) {
  int n = static_cast<int>(c.iscalar(0));
  float alpha = static_cast<float>(c.scalar(1)), beta = static_cast<float>(c.scalar(2));
  float *tmp = c.buf<float>("tmp"), *y = c.buf<float>("y");
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      tmp[i] = std::fma(c.buf<float>("A")[i * kPb4096 + j], c.buf<float>("x")[j], tmp[i]);
      y[i] = std::fma(c.buf<float>("B")[i * kPb4096 + j], c.buf<float>("x")[j], y[i]);
    }
    y[i] = alpha * tmp[i] + beta * y[i];
  }
}

void pb_mvt1(RefCtx& c) {
  int n = static_cast<int>(c.iscalar(0));
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      c.buf<float>("x1")[i] = std::fma(c.buf<float>("a")[i * kPb4096 + j], c.buf<float>("y1")[j], c.buf<float>("x1")[i]);
}

void pb_mvt2(RefCtx& c) {
  int n = static_cast<int>(c.iscalar(0));
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      c.buf<float>("x2")[i] = std::fma(c.buf<float>("a")[j * kPb4096 + i], c.buf<float>("y2")[j], c.buf<float>("x2")[i]);
}

void pb_syrk(RefCtx& c) {
  int ni = static_cast<int>(c.iscalar(0)), nj = static_cast<int>(c.iscalar(1));
  float alpha = static_cast<float>(c.scalar(2)), beta = static_cast<float>(c.scalar(3));
  const float* a = c.buf<float>("a");
  float* C = c.buf<float>("c");
  for (int i = 0; i < ni; ++i)
    for (int j = 0; j < ni; ++j) {
      float t = C[i * kPb1024 + j] * beta;
      for (int k = 0; k < nj; ++k) t = std::fma(alpha * a[i * kPb1024 + k], a[j * kPb1024 + k], t);
      C[i * kPb1024 + j] = t;
    }
}

void pb_jacobi1d_1(RefCtx& c) {
  int n = static_cast<int>(c.iscalar(0));
  const float* A = c.buf<float>("A");
  for (int i = 1; i < n - 1; ++i) c.buf<float>("B")[i] = static_cast<float>(0.33333 * static_cast<double>(A[i - 1] + A[i] + A[i + 1]));
}

void pb_jacobi_copy(RefCtx& c) {
  int n = static_cast<int>(c.iscalar(0));
  bool two_d = c.count("A") > static_cast<uint64_t>(n) * 2;
  if (!two_d) {
    for (int j = 1; j < n - 1; ++j) c.buf<float>("A")[j] = c.buf<float>("B")[j];
    return;
  }
  for (int i = 1; i < n - 1; ++i)
    for (int j = 1; j < n - 1; ++j) c.buf<float>("A")[i * kPb1000 + j] = c.buf<float>("B")[i * kPb1000 + j];
}

void pb_jacobi2d_1(RefCtx& c) {
  int n = static_cast<int>(c.iscalar(0));
  const float* A = c.buf<float>("A");
  for (int i = 1; i < n - 1; ++i)
    for (int j = 1; j < n - 1; ++j)
      c.buf<float>("B")[i * kPb1000 + j] = 0.2f * (A[i * kPb1000 + j] + A[i * kPb1000 + j - 1] + A[i * kPb1000 + j + 1] +
                                                   A[(i + 1) * kPb1000 + j] + A[(i - 1) * kPb1000 + j]);
}

void pb_gemver1(RefCtx& c) {
  int n = static_cast<int>(c.iscalar(0));
  float* a = c.buf<float>("a");
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      a[i * kPb4096 + j] += c.buf<float>("u1")[i] * c.buf<float>("v1")[j] + c.buf<float>("u2")[i] * c.buf<float>("v2")[j];
}

void pb_gemver2(RefCtx& c) {
  int n = static_cast<int>(c.iscalar(0));
  float beta = static_cast<float>(c.scalar(2));
  float* x = c.buf<float>("x");
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) x[i] = std::fma(beta * c.buf<float>("a")[j * kPb4096 + i], c.buf<float>("y")[j], x[i]);
    x[i] += c.buf<float>("z")[i];
  }
}

void pb_gemver3(RefCtx& c) {
  int n = static_cast<int>(c.iscalar(0));
  float alpha = static_cast<float>(c.scalar(1));
  float* w = c.buf<float>("w");
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) w[i] = std::fma(alpha * c.buf<float>("a")[i * kPb4096 + j], c.buf<float>("x")[j], w[i]);
}

void pb_covar_mean(RefCtx& c) {
  int m = static_cast<int>(c.iscalar(0)), n = static_cast<int>(c.iscalar(1));
  for (int j = 0; j < m; ++j) {
    float s = 0;
    for (int i = 0; i < n; ++i) s += c.buf<float>("data")[i * kPb2048 + j];
    c.buf<float>("mean")[j] = s / static_cast<float>(3214212.01);
  }
}

void pb_covar_reduce(RefCtx& c) {
  int m = static_cast<int>(c.iscalar(0)), n = static_cast<int>(c.iscalar(1));
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < m; ++j) c.buf<float>("data")[i * kPb2048 + j] -= c.buf<float>("mean")[j];
}

void pb_covar(RefCtx& c) {
  int m = static_cast<int>(c.iscalar(0)), n = static_cast<int>(c.iscalar(1));
  const float* d = c.buf<float>("data");
  float* s = c.buf<float>("symmat");
  for (int j1 = 0; j1 < m; ++j1)
    for (int j2 = j1; j2 < m; ++j2) {
      float t = 0;
      for (int i = 0; i < n; ++i) t = std::fma(d[i * kPb2048 + j1], d[i * kPb2048 + j2], t);
      s[j1 * kPb2048 + j2] = t;
      s[j2 * kPb2048 + j1] = t;
    }
}

void pb_fdtd1(RefCtx& c) {
  int nx = static_cast<int>(c.iscalar(0)), ny = static_cast<int>(c.iscalar(1)), t = static_cast<int>(c.iscalar(6));
  float *ey = c.buf<float>("ey"), *hz = c.buf<float>("hz");
  for (int i = 0; i < nx; ++i)
    for (int j = 0; j < ny; ++j)
      ey[i * kPb2048 + j] = i == 0 ? c.buf<float>("fict")[t] : ey[i * kPb2048 + j] - 0.5f * (hz[i * kPb2048 + j] - hz[(i - 1) * kPb2048 + j]);
}

void pb_fdtd2(RefCtx& c) {
  int nx = static_cast<int>(c.iscalar(0)), ny = static_cast<int>(c.iscalar(1));
  float *ex = c.buf<float>("ex"), *hz = c.buf<float>("hz");
  for (int i = 0; i < nx; ++i)
    for (int j = 1; j < ny; ++j) ex[i * kPb2048 + j] = ex[i * kPb2048 + j] - 0.5f * (hz[i * kPb2048 + j] - hz[i * kPb2048 + j - 1]);
}

void pb_fdtd3(RefCtx& c) {
  int nx = static_cast<int>(c.iscalar(0)), ny = static_cast<int>(c.iscalar(1));
  float *ex = c.buf<float>("ex"), *ey = c.buf<float>("ey"), *hz = c.buf<float>("hz");
  for (int i = 0; i < nx - 1; ++i)
    for (int j = 0; j < ny - 1; ++j)
      hz[i * kPb2048 + j] = hz[i * kPb2048 + j] - 0.7f * (ex[i * kPb2048 + j + 1] - ex[i * kPb2048 + j] + ey[(i + 1) * kPb2048 + j] - ey[i * kPb2048 + j]);
}

// ---- PolyBench, further kernels ---------------------------------------------------------------
// Row-major matrices with the compiled-in row stride S: x[i][j] = x[i * S + j].
// 2MM (stride 1024): tmp = alpha A B (ni x nj, k < nk); D = beta D + tmp C (ni x nl, k < nj).
void pb_2mm1(RefCtx& c) {
  int ni = static_cast<int>(c.iscalar(0)), nj = static_cast<int>(c.iscalar(1)), nk = static_cast<int>(c.iscalar(2));
  float alpha = static_cast<float>(c.scalar(4));
  const float *A = c.buf<float>("A"), *B = c.buf<float>("B");
  for (int i = 0; i < ni; ++i)
    for (int j = 0; j < nj; ++j) {
      float t = 0;
      for (int k = 0; k < nk; ++k) t = std::fma(alpha * A[i * kPb1024 + k], B[k * kPb1024 + j], t);
      c.buf<float>("tmp")[i * kPb1024 + j] = t;
    }
}

void pb_2mm2(RefCtx& c) {
  int ni = static_cast<int>(c.iscalar(0)), nj = static_cast<int>(c.iscalar(1)), nl = static_cast<int>(c.iscalar(3));
  float beta = static_cast<float>(c.scalar(5));
  const float *tmp = c.buf<float>("tmp"), *C = c.buf<float>("C");
  float* D = c.buf<float>("D");
  for (int i = 0; i < ni; ++i)
    for (int j = 0; j < nl; ++j) {
      float t = D[i * kPb1024 + j] * beta;
      for (int k = 0; k < nj; ++k) t = std::fma(tmp[i * kPb1024 + k], C[k * kPb1024 + j], t);
      D[i * kPb1024 + j] = t;
    }
}

// out (rows x cols) = X (rows x inner) Y (inner x cols), stride 512 (3MM).
void matmul512(const float* X, const float* Y, float* out, int rows, int cols, int inner) {
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) {
      float t = 0;
      for (int k = 0; k < inner; ++k) t = std::fma(X[i * kPb512 + k], Y[k * kPb512 + j], t);
      out[i * kPb512 + j] = t;
    }
}
// 3MM(ni, nj, nk, nl, nm, ...): E = A B (ni x nj, k < nk); F = C D (nj x nl, k < nm); G = E F (ni x nl, k < nj).
void pb_3mm1(RefCtx& c) {
  matmul512(c.buf<float>("A"), c.buf<float>("B"), c.buf<float>("E"), static_cast<int>(c.iscalar(0)),
            static_cast<int>(c.iscalar(1)), static_cast<int>(c.iscalar(2)));
}
void pb_3mm2(RefCtx& c) {
  matmul512(c.buf<float>("C"), c.buf<float>("D"), c.buf<float>("F"), static_cast<int>(c.iscalar(1)),
            static_cast<int>(c.iscalar(3)), static_cast<int>(c.iscalar(4)));
}
void pb_3mm3(RefCtx& c) {
  matmul512(c.buf<float>("E"), c.buf<float>("F"), c.buf<float>("G"), static_cast<int>(c.iscalar(0)),
            static_cast<int>(c.iscalar(3)), static_cast<int>(c.iscalar(1)));
}

// SYR2K: C = alpha A B^T + alpha B A^T + beta C. The kernel bounds i, j by the compiled NI and k
// by NJ (both 1024), not by its parameters, so the reference covers the launched threads.
void pb_syr2k(RefCtx& c) {
  float alpha = static_cast<float>(c.scalar(2)), beta = static_cast<float>(c.scalar(3));
  const float *a = c.buf<float>("a"), *b = c.buf<float>("b");
  float* C = c.buf<float>("c");
  int rows = static_cast<int>(std::min<uint64_t>(c.d.grid[1] * c.d.block[1], kPb1024));
  int cols = static_cast<int>(std::min<uint64_t>(c.d.grid[0] * c.d.block[0], kPb1024));
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) {
      double t = static_cast<double>(C[i * kPb1024 + j]) * beta;
      for (int k = 0; k < kPb1024; ++k)
        t += static_cast<double>(alpha) * a[i * kPb1024 + k] * b[j * kPb1024 + k] +
             static_cast<double>(alpha) * b[i * kPb1024 + k] * a[j * kPb1024 + k];
      C[i * kPb1024 + j] = static_cast<float>(t);
    }
}

// CORR (stride 2048, FLOAT_N = 3214212.01f, EPS = 0.005f): mean as COVAR; std[j] = sqrt(sum_i
// (data[i][j] - mean[j])^2 / FLOAT_N), replaced by 1 when <= EPS; data = (data - mean) /
// (sqrt(FLOAT_N) std); symmat = data^T data with a unit diagonal (j1 < m-1).
constexpr float kCorrFloatN = 3214212.01f, kCorrEps = 0.005f;
void pb_corr_std(RefCtx& c) {
  int m = static_cast<int>(c.iscalar(0)), n = static_cast<int>(c.iscalar(1));
  const float *d = c.buf<float>("data"), *mean = c.buf<float>("mean");
  for (int j = 0; j < m; ++j) {
    float s = 0;
    for (int i = 0; i < n; ++i) s = std::fma(d[i * kPb2048 + j] - mean[j], d[i * kPb2048 + j] - mean[j], s);
    s = std::sqrt(s / kCorrFloatN);
    c.buf<float>("std")[j] = s <= kCorrEps ? 1.0f : s;
  }
}

void pb_corr_reduce(RefCtx& c) {
  int m = static_cast<int>(c.iscalar(0)), n = static_cast<int>(c.iscalar(1));
  float* d = c.buf<float>("data");
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < m; ++j) {
      float v = d[i * kPb2048 + j] - c.buf<float>("mean")[j];
      d[i * kPb2048 + j] = v / (std::sqrt(kCorrFloatN) * c.buf<float>("std")[j]);
    }
}

void pb_corr(RefCtx& c) {
  int m = static_cast<int>(c.iscalar(0)), n = static_cast<int>(c.iscalar(1));
  const float* d = c.buf<float>("data");
  float* s = c.buf<float>("symmat");
  for (int j1 = 0; j1 < m - 1; ++j1) {
    s[j1 * kPb2048 + j1] = 1.0f;
    for (int j2 = j1 + 1; j2 < m; ++j2) {
      float t = 0;
      for (int i = 0; i < n; ++i) t = std::fma(d[i * kPb2048 + j1], d[i * kPb2048 + j2], t);
      s[j1 * kPb2048 + j2] = t;
      s[j2 * kPb2048 + j1] = t;
    }
  }
}

// 3DCONV(ni, nj, nk, A, B, i): one i-plane of the 3-D stencil, planes of NJ*NK = 256*256, rows
// of 256. The kernel's 15 terms, as written in the benchmark (several repeat the same corner).
void pb_conv3d(RefCtx& c) {
  int nj = static_cast<int>(c.iscalar(1)), nk = static_cast<int>(c.iscalar(2)), i = static_cast<int>(c.iscalar(5));
  int ni = static_cast<int>(c.iscalar(0));
  constexpr int R = 256, P = 256 * 256;
  const float c11 = 2, c21 = 5, c31 = -8, c12 = -3, c22 = 6, c32 = -9, c13 = 4, c23 = 7, c33 = 10;
  const float* A = c.buf<float>("A");
  auto a = [&](int di, int dj, int dk, int j, int k) { return static_cast<double>(A[(i + di) * P + (j + dj) * R + (k + dk)]); };
  if (i <= 0 || i >= ni - 1) return;
  for (int j = 1; j < nj - 1; ++j)
    for (int k = 1; k < nk - 1; ++k) {
      double s = c11 * a(-1, -1, -1, j, k) + c13 * a(1, -1, -1, j, k) + c21 * a(-1, -1, -1, j, k) + c23 * a(1, -1, -1, j, k) +
                 c31 * a(-1, -1, -1, j, k) + c33 * a(1, -1, -1, j, k) + c12 * a(0, -1, 0, j, k) + c22 * a(0, 0, 0, j, k) +
                 c32 * a(0, 1, 0, j, k) + c11 * a(-1, -1, 1, j, k) + c13 * a(1, -1, 1, j, k) + c21 * a(-1, 0, 1, j, k) +
                 c23 * a(1, 0, 1, j, k) + c31 * a(-1, 1, 1, j, k) + c33 * a(1, 1, 1, j, k);
      c.buf<float>("B")[i * P + j * R + k] = static_cast<float>(s);
    }
}

// GRAMSCHMIDT step k (stride 2048): r[k][k] = |a[:][k]|; q[:][k] = a[:][k] / r[k][k]; for j > k:
// r[k][j] = q[:][k] . a[:][j], a[:][j] -= q[:][k] r[k][j].
void pb_gramschmidt1(RefCtx& c) {
  int ni = static_cast<int>(c.iscalar(0)), k = static_cast<int>(c.iscalar(5));
  const float* a = c.buf<float>("a");
  float s = 0;
  for (int i = 0; i < ni; ++i) s = std::fma(a[i * kPb2048 + k], a[i * kPb2048 + k], s);
  c.buf<float>("r")[k * kPb2048 + k] = std::sqrt(s);
}

void pb_gramschmidt2(RefCtx& c) {
  int ni = static_cast<int>(c.iscalar(0)), k = static_cast<int>(c.iscalar(5));
  for (int i = 0; i < ni; ++i)
    c.buf<float>("q")[i * kPb2048 + k] = c.buf<float>("a")[i * kPb2048 + k] / c.buf<float>("r")[k * kPb2048 + k];
}

void pb_gramschmidt3(RefCtx& c) {
  int ni = static_cast<int>(c.iscalar(0)), nj = static_cast<int>(c.iscalar(1)), k = static_cast<int>(c.iscalar(5));
  float *a = c.buf<float>("a"), *r = c.buf<float>("r");
  const float* q = c.buf<float>("q");
  for (int j = k + 1; j < nj; ++j) {
    float t = 0;
    for (int i = 0; i < ni; ++i) t = std::fma(q[i * kPb2048 + k], a[i * kPb2048 + j], t);
    r[k * kPb2048 + j] = t;
    for (int i = 0; i < ni; ++i) a[i * kPb2048 + j] = std::fma(-q[i * kPb2048 + k], t, a[i * kPb2048 + j]);
  }
}

// LU step k (stride 2048): row k right of the pivot divided by the pivot; then the trailing
// submatrix updated A[i][j] -= A[i][k] A[k][j].
void pb_lu1(RefCtx& c) {
  int n = static_cast<int>(c.iscalar(0)), k = static_cast<int>(c.iscalar(2));
  float* A = c.buf<float>("A");
  for (int j = k + 1; j < n; ++j) A[k * kPb2048 + j] = A[k * kPb2048 + j] / A[k * kPb2048 + k];
}

void pb_lu2(RefCtx& c) {
  int n = static_cast<int>(c.iscalar(0)), k = static_cast<int>(c.iscalar(2));
  float* A = c.buf<float>("A");
  for (int i = k + 1; i < n; ++i)
    for (int j = k + 1; j < n; ++j) A[i * kPb2048 + j] = std::fma(-A[i * kPb2048 + k], A[k * kPb2048 + j], A[i * kPb2048 + j]);
}

// ADI (alternating direction implicit, stride N = 1024; kernels 2, 3, 5 and 6 index with the
// compiled N, the loops run to the parameter n). Row sweeps (1-3) run along i2 inside row i1,
// column sweeps (4-6) across rows for every column i2 < n.
void pb_adi1(RefCtx& c) {
  int n = static_cast<int>(c.iscalar(0));
  const float* A = c.buf<float>("A");
  float *B = c.buf<float>("B"), *X = c.buf<float>("X");
  for (int r = 0; r < n; ++r)
    for (int i2 = 1; i2 < n; ++i2) {
      int o = r * kPb1024 + i2;
      X[o] = X[o] - X[o - 1] * A[o] / B[o - 1];
      B[o] = B[o] - A[o] * A[o] / B[o - 1];
    }
}

void pb_adi2(RefCtx& c) {
  int n = static_cast<int>(c.iscalar(0));
  for (int r = 0; r < n; ++r) {
    int o = r * kPb1024 + (kPb1024 - 1);
    c.buf<float>("X")[o] = c.buf<float>("X")[o] / c.buf<float>("B")[o];
  }
}

void pb_adi3(RefCtx& c) {
  int n = static_cast<int>(c.iscalar(0));
  const float *A = c.buf<float>("A"), *B = c.buf<float>("B");
  float* X = c.buf<float>("X");
  for (int r = 0; r < n; ++r)
    for (int i2 = 0; i2 < n - 2; ++i2) {
      int o = r * kPb1024;
      X[o + kPb1024 - i2 - 2] = (X[o + kPb1024 - 2 - i2] - X[o + kPb1024 - 3 - i2] * A[o + kPb1024 - i2 - 3]) / B[o + kPb1024 - 3 - i2];
    }
}

void pb_adi4(RefCtx& c) {
  int n = static_cast<int>(c.iscalar(0)), i1 = static_cast<int>(c.iscalar(4));
  const float* A = c.buf<float>("A");
  float *B = c.buf<float>("B"), *X = c.buf<float>("X");
  for (int i2 = 0; i2 < n; ++i2) {
    int o = i1 * kPb1024 + i2, u = (i1 - 1) * kPb1024 + i2;
    X[o] = X[o] - X[u] * A[o] / B[u];
    B[o] = B[o] - A[o] * A[o] / B[u];
  }
}

void pb_adi5(RefCtx& c) {
  int n = static_cast<int>(c.iscalar(0));
  for (int i2 = 0; i2 < n; ++i2) {
    int o = (kPb1024 - 1) * kPb1024 + i2;
    c.buf<float>("X")[o] = c.buf<float>("X")[o] / c.buf<float>("B")[o];
  }
}

void pb_adi6(RefCtx& c) {
  int n = static_cast<int>(c.iscalar(0)), i1 = static_cast<int>(c.iscalar(4));
  const float *A = c.buf<float>("A"), *B = c.buf<float>("B");
  float* X = c.buf<float>("X");
  for (int i2 = 0; i2 < n; ++i2) {
    int o = (kPb1024 - 2 - i1) * kPb1024 + i2, u = (kPb1024 - i1 - 3) * kPb1024 + i2;
    X[o] = (X[o] - X[u] * A[u]) / B[o];
  }
}

// odata, idata, width, height: odata (width x height) = transpose of idata (height x width).
void transpose_wh(RefCtx& c) {
  int w = static_cast<int>(c.iscalar(2)), h = static_cast<int>(c.iscalar(3));
  for (int r = 0; r < h; ++r)
    for (int col = 0; col < w; ++col) c.buf<float>("odata")[col * h + r] = c.buf<float>("idata")[r * w + col];
}

void copy_wh(RefCtx& c) {
  int w = static_cast<int>(c.iscalar(2)), h = static_cast<int>(c.iscalar(3));
  for (int i = 0; i < w * h; ++i) c.buf<float>("odata")[i] = c.buf<float>("idata")[i];
}

// C, A, B, wA, wB: C (hA x wB) = A (hA x wA) * B (wA x wB), hA = |C| / wB.
void matmul_ab(RefCtx& c) {
  int wA = static_cast<int>(c.iscalar(3)), wB = static_cast<int>(c.iscalar(4));
  int hA = static_cast<int>(c.count("C")) / wB;
  for (int i = 0; i < hA; ++i)
    for (int j = 0; j < wB; ++j) {
      float s = 0;
      for (int k = 0; k < wA; ++k) s = std::fma(c.buf<float>("A")[i * wA + k], c.buf<float>("B")[k * wB + j], s);
      c.buf<float>("C")[i * wB + j] = s;
    }
}

// partial, data, count: per-block byte histograms (256 bins) of the 32-bit words the block's
// threads visit with a grid-stride loop (pos = block * blockDim + thread, step blockDim * gridDim).
void hist256_partial(RefCtx& c) {
  uint32_t count = static_cast<uint32_t>(c.iscalar(2));
  uint32_t bd = c.d.block[0], gd = c.d.grid[0];
  const uint32_t* data = c.buf<uint32_t>("data");
  uint32_t* part = c.buf<uint32_t>("partial");
  for (uint32_t b = 0; b < gd; ++b) {
    for (int k = 0; k < 256; ++k) part[b * 256 + k] = 0;
    for (uint32_t t = 0; t < bd; ++t)
      for (uint32_t pos = b * bd + t; pos < count; pos += bd * gd)
        for (int byte = 0; byte < 4; ++byte) part[b * 256 + ((data[pos] >> (8 * byte)) & 0xff)]++;
  }
}

// histogram, partial, n: histogram[bin] = sum of the n partial histograms' bin.
void hist256_merge(RefCtx& c) {
  uint32_t n = static_cast<uint32_t>(c.iscalar(2));
  for (int bin = 0; bin < 256; ++bin) {
    uint32_t s = 0;
    for (uint32_t i = 0; i < n; ++i) s += c.buf<uint32_t>("partial")[bin + i * 256];
    c.buf<uint32_t>("histogram")[bin] = s;
  }
}

// ---- cuda-samples, further kernels ------------------------------------------------------------
// partial, data, count: per-block 64-bin histograms of bits [2,8) of every byte of the uint4
// words (count of them) the block's threads visit with a grid-stride loop.
void hist64_partial(RefCtx& c) {
  uint32_t count = static_cast<uint32_t>(c.iscalar(2));
  uint32_t bd = c.d.block[0], gd = c.d.grid[0];
  const uint32_t* data = c.buf<uint32_t>("data");
  uint32_t* part = c.buf<uint32_t>("partial");
  for (uint32_t b = 0; b < gd; ++b) {
    for (int k = 0; k < 64; ++k) part[b * 64 + k] = 0;
    for (uint32_t t = 0; t < bd; ++t)
      for (uint32_t pos = b * bd + t; pos < count; pos += bd * gd)
        for (int w = 0; w < 4; ++w)
          for (int byte = 0; byte < 4; ++byte) part[b * 64 + ((data[pos * 4 + w] >> (8 * byte + 2)) & 0x3f)]++;
  }
}

// histogram, partial, n: histogram[bin] = sum of the n partial 64-bin histograms' bin.
void hist64_merge(RefCtx& c) {
  uint32_t n = static_cast<uint32_t>(c.iscalar(2));
  for (int bin = 0; bin < 64; ++bin) {
    uint32_t s = 0;
    for (uint32_t i = 0; i < n; ++i) s += c.buf<uint32_t>("partial")[bin + i * 64];
    c.buf<uint32_t>("histogram")[bin] = s;
  }
}

// C, A, B, n: C = A B for n x n row-major matrices.
void matmul_square(RefCtx& c) {
  int n = static_cast<int>(c.iscalar(3));
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      float s = 0;
      for (int k = 0; k < n; ++k) s = std::fma(c.buf<float>("A")[i * n + k], c.buf<float>("B")[k * n + j], s);
      c.buf<float>("C")[i * n + j] = s;
    }
}

// C, A, B, vectorN, elementN: C[v] = dot product of the v-th elementN-long slices of A and B.
void scalar_prod(RefCtx& c) {
  int vn = static_cast<int>(c.iscalar(3)), en = static_cast<int>(c.iscalar(4));
  for (int v = 0; v < vn; ++v) {
    double s = 0;
    for (int e = 0; e < en; ++e) s += static_cast<double>(c.buf<float>("A")[v * en + e]) * c.buf<float>("B")[v * en + e];
    c.buf<float>("C")[v] = static_cast<float>(s);
  }
}

// call, put, S, X, T, R, V, n: European call and put prices by the Black-Scholes formula with the
// 5-term polynomial approximation of the cumulative normal distribution (Abramowitz-Stegun
// 26.2.17) that the sample uses; the kernel computes with fast approximate exp/log/division.
double cnd_as(double d) {
  const double a1 = 0.31938153, a2 = -0.356563782, a3 = 1.781477937, a4 = -1.821255978, a5 = 1.330274429;
  double k = 1.0 / (1.0 + 0.2316419 * std::fabs(d));
  double cnd = 0.39894228040143267794 * std::exp(-0.5 * d * d) * (k * (a1 + k * (a2 + k * (a3 + k * (a4 + k * a5)))));
  return d > 0 ? 1.0 - cnd : cnd;
}
void black_scholes(RefCtx& c) {
  double r = c.scalar(5), v = c.scalar(6);
  int n = static_cast<int>(c.iscalar(7));
  for (int i = 0; i < n; ++i) {
    double s = c.buf<float>("S")[i], x = c.buf<float>("X")[i], t = c.buf<float>("T")[i];
    double d1 = (std::log(s / x) + (r + 0.5 * v * v) * t) / (v * std::sqrt(t)), d2 = d1 - v * std::sqrt(t);
    double e = std::exp(-r * t);
    c.buf<float>("call")[i] = static_cast<float>(s * cnd_as(d1) - x * e * cnd_as(d2));
    c.buf<float>("put")[i] = static_cast<float>(x * e * (1.0 - cnd_as(d2)) - s * (1.0 - cnd_as(d1)));
  }
}

// out, in, log2N: the Walsh-Hadamard transform (natural order) of every 2^log2N-element batch:
// out[k] = sum_j (-1)^popcount(j & k) in[j]; grid = number of batches.
void fwt_batch1(RefCtx& c) {
  int n = 1 << c.iscalar(2);
  for (uint32_t b = 0; b < c.d.grid[0]; ++b)
    for (int k = 0; k < n; ++k) {
      double s = 0;
      for (int j = 0; j < n; ++j) s += (std::popcount(static_cast<unsigned>(j & k)) & 1 ? -1.0 : 1.0) * c.buf<float>("in")[b * n + j];
      c.buf<float>("out")[b * n + k] = static_cast<float>(s);
    }
}

// out, in, stride: one radix-4 Walsh-Hadamard stage: in every batch (blockIdx.y) of N = 4 x the
// threads along x, each group of 4 elements i0 + {0,1,2,3} stride (i0 = 4 stride floor(p / stride)
// + p mod stride for p < N/4) is multiplied by the 4x4 Sylvester-Hadamard matrix.
void fwt_batch2(RefCtx& c) {
  uint32_t stride = static_cast<uint32_t>(c.iscalar(2));
  uint32_t n = c.d.grid[0] * c.d.block[0] * 4;
  const float* in = c.buf<float>("in");
  float* out = c.buf<float>("out");
  for (uint32_t y = 0; y < c.d.grid[1]; ++y)
    for (uint32_t p = 0; p < n / 4; ++p) {
      uint32_t i0 = y * n + 4 * stride * (p / stride) + p % stride;
      float d0 = in[i0], d1 = in[i0 + stride], d2 = in[i0 + 2 * stride], d3 = in[i0 + 3 * stride];
      out[i0] = (d0 + d2) + (d1 + d3);
      out[i0 + stride] = (d0 + d2) - (d1 + d3);
      out[i0 + 2 * stride] = (d0 - d2) + (d1 - d3);
      out[i0 + 3 * stride] = (d0 - d2) - (d1 - d3);
    }
}

// A, B, N: A[i] *= B[i] / N.
void fwt_modulate(RefCtx& c) {
  int n = static_cast<int>(c.iscalar(2));
  float rcp = 1.0f / static_cast<float>(n);
  for (int i = 0; i < n; ++i) c.buf<float>("A")[i] *= c.buf<float>("B")[i] * rcp;
}

// idata, odata, n: odata[b] = the sum of the idata elements block b owns, block b owning the
// chunks of Chunk x blockDim consecutive elements whose index / (Chunk blockDim) = b mod gridDim
// (one chunk per block when the grid covers n; a grid-stride loop otherwise).
template <int Chunk>
void block_sums(RefCtx& c) {
  uint32_t n = static_cast<uint32_t>(c.iscalar(2));
  uint32_t chunk = Chunk * c.d.block[0], grid = c.d.grid[0];
  std::string type;
  for (auto& b : c.d.buffers)
    if (b.name == "idata") type = b.type;
  for (uint32_t b = 0; b < grid; ++b) {
    int64_t is = 0;
    double fs = 0;
    for (uint32_t i = 0; i < n; ++i)
      if ((i / chunk) % grid == b) {
        if (type == "f32") fs += c.buf<float>("idata")[i];
        else if (type == "f64") fs += c.buf<double>("idata")[i];
        else is += c.buf<int32_t>("idata")[i];
      }
    if (type == "f32") c.buf<float>("odata")[b] = static_cast<float>(fs);
    else if (type == "f64") c.buf<double>("odata")[b] = fs;
    else c.buf<int32_t>("odata")[b] = static_cast<int32_t>(is);
  }
}

// DstKey, DstVal, SrcKey, SrcVal, arrayLength, dir: every arrayLength-long segment sorted by key
// (ascending when dir = 1, else descending), values following their keys (keys distinct).
void sort_segments(RefCtx& c, uint32_t len, bool (*ascending)(uint32_t seg, RefCtx&)) {
  uint64_t n = c.count("SrcKey");
  const uint32_t *sk = c.buf<uint32_t>("SrcKey"), *sv = c.buf<uint32_t>("SrcVal");
  uint32_t *dk = c.buf<uint32_t>("DstKey"), *dv = c.buf<uint32_t>("DstVal");
  for (uint64_t base = 0; base + len <= n; base += len) {
    std::vector<std::pair<uint32_t, uint32_t>> v;
    for (uint64_t i = base; i < base + len; ++i) v.emplace_back(sk[i], sv[i]);
    bool up = ascending(static_cast<uint32_t>(base / len), c);
    std::sort(v.begin(), v.end(), [up](auto& x, auto& y) { return up ? x.first < y.first : x.first > y.first; });
    for (uint64_t i = 0; i < len; ++i) dk[base + i] = v[i].first, dv[base + i] = v[i].second;
  }
}
void sort_segments_dir(RefCtx& c) {
  sort_segments(c, static_cast<uint32_t>(c.iscalar(4)), [](uint32_t, RefCtx& r) { return r.iscalar(5) != 0; });
}
// bitonicSortShared1: 1024-element segments, odd segments ascending, even ones descending.
void sort_segments_alt1024(RefCtx& c) {
  sort_segments(c, 1024, [](uint32_t seg, RefCtx&) { return (seg & 1) != 0; });
}

// ---- Rodinia --------------------------------------------------------------------------------
// nn: locations (lat, lng pairs), distances, n, lat, lng: Euclidean distance of every record.
void nn_euclid(RefCtx& c) {
  int n = static_cast<int>(c.iscalar(2));
  float lat = static_cast<float>(c.scalar(3)), lng = static_cast<float>(c.scalar(4));
  const float* loc = c.buf<float>("locations");
  for (int i = 0; i < n; ++i) {
    float dl = lat - loc[2 * i], dg = lng - loc[2 * i + 1];
    c.buf<float>("distances")[i] = std::sqrt(dl * dl + dg * dg);
  }
}

// pathfinder: iteration, wall, src, results, cols, rows, startStep, border: `iteration` rows of
// the minimum-path dynamic program, cost[x] = min(prev[x-1], prev[x], prev[x+1]) + wall[row][x]
// (neighbours clamped at the edges), rows startStep ... startStep + iteration - 1 of wall.
void pathfinder(RefCtx& c) {
  int iter = static_cast<int>(c.iscalar(0)), cols = static_cast<int>(c.iscalar(4)), start = static_cast<int>(c.iscalar(6));
  const int32_t* wall = c.buf<int32_t>("wall");
  std::vector<int32_t> prev(c.buf<int32_t>("src"), c.buf<int32_t>("src") + cols), next(static_cast<size_t>(cols));
  for (int i = 0; i < iter; ++i) {
    for (int x = 0; x < cols; ++x)
      next[x] = std::min({prev[std::max(x - 1, 0)], prev[x], prev[std::min(x + 1, cols - 1)]}) + wall[(start + i) * cols + x];
    prev.swap(next);
  }
  for (int x = 0; x < cols; ++x) c.buf<int32_t>("results")[x] = prev[x];
}

// backprop weight update (ETA = MOMENTUM = 0.3, in double): for input rows j = 1..in and hidden
// units k = 1..16: d = ETA delta[k] ly[j] + MOMENTUM oldw[j][k]; w[j][k] += d; oldw[j][k] = d;
// the bias row j = 0 the same with ly = 1. Rows of hid + 1 = 17 weights.
void bpnn_adjust_weights(RefCtx& c) {
  int hid = static_cast<int>(c.iscalar(1)), in = static_cast<int>(c.iscalar(3));
  const float *delta = c.buf<float>("delta"), *ly = c.buf<float>("ly");
  float *w = c.buf<float>("w"), *oldw = c.buf<float>("oldw");
  for (int j = 0; j <= in; ++j)
    for (int k = 1; k <= hid; ++k) {
      int o = j * (hid + 1) + k;
      double d = 0.3 * delta[k] * (j ? static_cast<double>(ly[j]) : 1.0) + 0.3 * oldw[o];
      w[o] = static_cast<float>(w[o] + d);
      oldw[o] = static_cast<float>(d);
    }
}

// backprop forward layer, one 16 x 16 tile per block row: products p[r][k] = w[j][k] x in[j]
// (j = 16 by + r + 1, k = 1..16) are summed down each column by a shared-memory tree; the kernel
// stores the tree's partial sums back into w (row r holds the sum of rows r .. r + 2^t - 1, t the
// number of trailing zeros of r, all 16 for r = 0) and the column totals into partial[by][k-1].
void bpnn_layerforward(RefCtx& c) {
  int hid = static_cast<int>(c.iscalar(5));
  const float* in = c.buf<float>("input");
  float *w = c.buf<float>("w"), *part = c.buf<float>("partial");
  for (uint32_t by = 0; by < c.d.grid[1]; ++by) {
    float p[16][16];
    for (int r = 0; r < 16; ++r)
      for (int k = 0; k < 16; ++k) p[r][k] = w[(16 * by + r + 1) * (hid + 1) + k + 1] * in[16 * by + r + 1];
    for (int r = 0; r < 16; ++r) {
      int span = r == 0 ? 16 : (r & -r);
      for (int k = 0; k < 16; ++k) {
        double s = 0;
        for (int q = r; q < r + span; ++q) s += p[q][k];
        w[(16 * by + r + 1) * (hid + 1) + k + 1] = static_cast<float>(s);
        if (r == 0) part[by * hid + k] = static_cast<float>(s);
      }
    }
  }
}

// hotspot: iteration, power, src, dst, cols, rows, border_cols, border_rows, Cap, Rx, Ry, Rz,
// step, time: `iteration` explicit steps of the thermal model T' = T + step/Cap (P + (T_S + T_N
// - 2T)/Ry + (T_E + T_W - 2T)/Rx + (80 - T)/Rz), neighbours clamped at the chip edges (the
// kernel evaluates the sum in double, 2.0 being a double constant).
void hotspot(RefCtx& c) {
  int iter = static_cast<int>(c.iscalar(0)), cols = static_cast<int>(c.iscalar(4)), rows = static_cast<int>(c.iscalar(5));
  float cap = static_cast<float>(c.scalar(8)), rx = static_cast<float>(c.scalar(9)), ry = static_cast<float>(c.scalar(10));
  float rz = static_cast<float>(c.scalar(11)), step = static_cast<float>(c.scalar(12));
  float sdc = step / cap, rx1 = 1 / rx, ry1 = 1 / ry, rz1 = 1 / rz;
  const float* pw = c.buf<float>("power");
  std::vector<float> t(c.buf<float>("src"), c.buf<float>("src") + rows * cols), u(t.size());
  auto at = [&](int r, int x) { return static_cast<double>(t[std::clamp(r, 0, rows - 1) * cols + std::clamp(x, 0, cols - 1)]); };
  for (int i = 0; i < iter; ++i) {
    for (int r = 0; r < rows; ++r)
      for (int x = 0; x < cols; ++x) {
        double v = at(r, x);
        double d = pw[r * cols + x] + (at(r + 1, x) + at(r - 1, x) - 2.0 * v) * ry1 + (at(r, x + 1) + at(r, x - 1) - 2.0 * v) * rx1 +
                   (80.0f - static_cast<float>(v)) * rz1;
        u[r * cols + x] = static_cast<float>(v + sdc * d);
      }
    t.swap(u);
  }
  for (size_t k = 0; k < t.size(); ++k) c.buf<float>("dst")[k] = t[k];
}

// ---- cuda-samples: votes, copies, scans, parameters, half precision ---------------------------
// input, result, size: result[t] = 1 when any (VoteAny) / all (VoteAll) lanes of t's warp have a
// non-zero input, else 0.
template <bool All>
void vote_warp(RefCtx& c) {
  uint64_t n = c.count("result");
  for (uint64_t w = 0; w < n; w += 32) {
    bool any = false, all = true;
    for (uint64_t t = w; t < std::min(n, w + 32); ++t) {
      bool v = c.buf<uint32_t>("input")[t] != 0;
      any = any || v;
      all = all && v;
    }
    for (uint64_t t = w; t < std::min(n, w + 32); ++t) c.buf<uint32_t>("result")[t] = (All ? all : any) ? 1 : 0;
  }
}

// info, warp_size: bytes info[3t .. 3t+2] = (any lane of the warp has t' >= 3 warp_size / 2,
// t >= 3 warp_size / 2, and `true` written only where all lanes of the warp do).
void vote_any3(RefCtx& c) {
  int ws = static_cast<int>(c.iscalar(1));
  uint8_t* info = c.buf<uint8_t>("info");
  int n = static_cast<int>(c.count("info") / 3);
  for (int w = 0; w < n; w += 32) {
    bool any = false, all = true;
    for (int t = w; t < std::min(n, w + 32); ++t) {
      any = any || t >= ws * 3 / 2;
      all = all && t >= ws * 3 / 2;
    }
    for (int t = w; t < std::min(n, w + 32); ++t) {
      info[3 * t] = any;
      info[3 * t + 1] = t >= ws * 3 / 2;
      if (all) info[3 * t + 2] = 1;
    }
  }
}

// odata, idata, n: the whole input copied (the buffers hold exactly n elements of the kernel's
// element type, whatever its size and alignment).
void copy_buffer(RefCtx& c) {
  auto& out = c.bufs.at("odata");
  const auto& in = c.bufs.at("idata");
  std::copy(in.begin(), in.begin() + static_cast<long>(std::min(in.size(), out.size())), out.begin());
}

// p (by value), result: result[0] = the sum of the parameter's 32-bit integers.
void sum_param_i32(RefCtx& c) {
  uint32_t s = 0;
  for (uint64_t i = 0; i < c.count("p"); ++i) s += c.buf<uint32_t>("p")[i];
  c.buf<uint32_t>("result")[0] = s;
}

// data, width, partial_sums: inclusive prefix sums within each block; partial_sums[b] = block b's total.
void block_inclusive_scan(RefCtx& c) {
  uint32_t bd = c.d.block[0];
  int32_t* d = c.buf<int32_t>("data");
  for (uint32_t b = 0; b < c.d.grid[0]; ++b) {
    int32_t s = 0;
    for (uint32_t t = 0; t < bd; ++t) d[b * bd + t] = s += d[b * bd + t];
    if (c.bufs.count("partial_sums")) c.buf<int32_t>("partial_sums")[b] = s;
  }
}

// data, partial_sums, len: data[id] += partial_sums[block of id] for every launched id <= len
// (the sample's bound is `id > len` returns, so id == len is included).
void uniform_add(RefCtx& c) {
  int64_t len = c.iscalar(2);
  uint32_t bd = c.d.block[0];
  for (uint32_t id = 0; id < c.d.grid[0] * bd && id <= len; ++id) c.buf<int32_t>("data")[id] += c.buf<int32_t>("partial_sums")[id / bd];
}

// IEEE binary16 <-> double, round to nearest even.
double half_to_double(uint16_t h) {
  int e = (h >> 10) & 0x1f, m = h & 0x3ff;
  double v = e == 0 ? std::ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : std::ldexp(m | 0x400, e - 25);
  return h & 0x8000 ? -v : v;
}
uint16_t double_to_half(double x) {
  uint16_t sign = std::signbit(x) ? 0x8000 : 0;
  x = std::fabs(x);
  if (std::isnan(x)) return 0x7e00;
  if (x >= 65520.0) return sign | 0x7c00;  // rounds to infinity
  int e;
  std::frexp(x, &e);                       // x = f 2^e, f in [0.5, 1)
  int q = std::max(e - 11, -24);           // quantum: 11 significant bits, subnormals 2^-24
  double m = std::nearbyint(std::ldexp(x, -q));  // the default rounding mode is to nearest even
  double r = std::ldexp(m, q);
  int re;
  std::frexp(r, &re);
  if (r == 0) return sign;
  if (re < -13) return sign | static_cast<uint16_t>(std::ldexp(r, 24));  // subnormal
  return sign | static_cast<uint16_t>(((re + 14) << 10) | (static_cast<int>(std::ldexp(r, 11 - re)) & 0x3ff));
}

// fp16ScalarProduct (a, b, results, size; half2 elements): every thread of a 128-thread block
// accumulates v = fma(a[i], b[i], v) in binary16 for i = tid + blockDim + blockIdx, step
// gridDim blockDim (the sample's indexing); a shared-memory tree of binary16 additions sums
// the block; results[block] = low + high half of the sum, in float.
void fp16_scalar_product(RefCtx& c) {
  uint64_t size = static_cast<uint64_t>(c.iscalar(3));
  const uint16_t *a = c.buf<uint16_t>("a"), *b = c.buf<uint16_t>("b");
  uint32_t bd = c.d.block[0], gd = c.d.grid[0];
  for (uint32_t blk = 0; blk < gd; ++blk) {
    std::vector<std::array<uint16_t, 2>> v(bd, {0, 0});
    for (uint32_t t = 0; t < bd; ++t)
      for (uint64_t i = t + bd + blk; i < size; i += static_cast<uint64_t>(gd) * bd)
        for (int h = 0; h < 2; ++h)
          v[t][h] = double_to_half(half_to_double(a[2 * i + h]) * half_to_double(b[2 * i + h]) + half_to_double(v[t][h]));
    for (uint32_t s = bd / 2; s > 0; s /= 2)
      for (uint32_t t = 0; t < s; ++t)
        for (int h = 0; h < 2; ++h) v[t][h] = double_to_half(half_to_double(v[t][h]) + half_to_double(v[t + s][h]));
    c.buf<float>("results")[blk] = static_cast<float>(half_to_double(v[0][0])) + static_cast<float>(half_to_double(v[0][1]));
  }
}

// ---- llm.c ------------------------------------------------------------------------------------
// matmul_backward_bias (dbias, dout (bfloat16, B*T rows of OC), B, T, OC, ...): the bias
// gradient, dbias[oc] += sum over the B*T rows of dout[row][oc].
void bias_grad_bf16(RefCtx& c) {
  int64_t rows = c.iscalar(2) * c.iscalar(3), oc = c.iscalar(4);
  const uint16_t* d = c.buf<uint16_t>("dout");
  for (int64_t o = 0; o < oc; ++o) {
    double s = 0;
    for (int64_t r = 0; r < rows; ++r) s += static_cast<double>(std::bit_cast<float>(uint32_t{d[r * oc + o]} << 16));
    c.buf<float>("dbias")[o] += static_cast<float>(s);
  }
}

float bf16_to_float(uint16_t h) { return std::bit_cast<float>(uint32_t{h} << 16); }
uint16_t float_to_bf16(float f) {  // round to nearest even (NaN not expected here)
  uint32_t b = std::bit_cast<uint32_t>(f);
  return static_cast<uint16_t>((b + 0x7fff + ((b >> 16) & 1)) >> 16);
}

// The same gradient into a bfloat16 dbias: dbias[oc] = bf16(float(dbias[oc]) + sum).
void bias_grad_bf16_out(RefCtx& c) {
  int64_t rows = c.iscalar(2) * c.iscalar(3), oc = c.iscalar(4);
  const uint16_t* d = c.buf<uint16_t>("dout");
  for (int64_t o = 0; o < oc; ++o) {
    double s = 0;
    for (int64_t r = 0; r < rows; ++r) s += bf16_to_float(d[r * oc + o]);
    uint16_t& b = c.buf<uint16_t>("dbias")[o];
    b = float_to_bf16(bf16_to_float(b) + static_cast<float>(s));
  }
}

// cast_and_add (dst bfloat16, src float, n): dst[i] = bf16(float(dst[i]) + src[i]).
void cast_and_add_bf16(RefCtx& c) {
  int64_t n = c.iscalar(2);
  for (int64_t i = 0; i < n; ++i) {
    uint16_t& b = c.buf<uint16_t>("dst")[i];
    b = float_to_bf16(bf16_to_float(b) + c.buf<float>("src")[i]);
  }
}

// adamw (params, grads, m, v, n, lr, beta1, beta2, bc1, bc2, eps, wd): one AdamW step,
// m = beta1 m + (1 - beta1) g, v = beta2 v + (1 - beta2) g^2, p -= lr (m/bc1 / (sqrt(v/bc2) + eps)
// + wd p) (in double; the kernels round in float with their own fma choices).
void adamw(RefCtx& c) {
  int64_t n = c.iscalar(4);
  double lr = c.scalar(5), b1 = c.scalar(6), b2 = c.scalar(7), bc1 = c.scalar(8), bc2 = c.scalar(9);
  double eps = c.scalar(10), wd = c.scalar(11);
  float *p = c.buf<float>("params"), *m = c.buf<float>("m"), *v = c.buf<float>("v");
  const float* g = c.buf<float>("grads");
  for (int64_t i = 0; i < n; ++i) {
    double mi = b1 * m[i] + (1 - b1) * g[i], vi = b2 * v[i] + (1 - b2) * g[i] * static_cast<double>(g[i]);
    m[i] = static_cast<float>(mi);
    v[i] = static_cast<float>(vi);
    p[i] = static_cast<float>(p[i] - lr * (mi / bc1 / (std::sqrt(vi / bc2) + eps) + wd * p[i]));
  }
}

// crossentropy_forward (losses, probs (B, T, V), targets (B, T), B, T, V): losses = -log of the
// target's probability.
void crossentropy_forward(RefCtx& c) {
  int64_t bt = c.iscalar(3) * c.iscalar(4), v = c.iscalar(5);
  for (int64_t i = 0; i < bt; ++i)
    c.buf<float>("losses")[i] = -std::log(c.buf<float>("probs")[i * v + c.buf<int32_t>("targets")[i]]);
}

// encoder_forward (out, inp tokens (B, T), wte (V, C), wpe (T, C), B, T, C; bfloat16 tables):
// out[b][t] = bf16(wte[token] + wpe[t]) element-wise, the sum in float.
void encoder_forward_bf16(RefCtx& c) {
  int64_t b = c.iscalar(4), t = c.iscalar(5), ch = c.iscalar(6);
  const uint16_t *wte = c.buf<uint16_t>("wte"), *wpe = c.buf<uint16_t>("wpe");
  for (int64_t i = 0; i < b * t; ++i)
    for (int64_t k = 0; k < ch; ++k)
      c.buf<uint16_t>("out")[i * ch + k] =
          float_to_bf16(bf16_to_float(wte[c.buf<int32_t>("inp")[i] * ch + k]) + bf16_to_float(wpe[(i % t) * ch + k]));
}

// permute (q, k, v, inp (B, N, 3, NH, d), B, N, NH, d): q/k/v (B, NH, N, d) = inp[b][n][0/1/2][h][e].
void attention_permute(RefCtx& c) {
  int64_t B = c.iscalar(4), N = c.iscalar(5), NH = c.iscalar(6), d = c.iscalar(7);
  const float* in = c.buf<float>("inp");
  for (int64_t b = 0; b < B; ++b)
    for (int64_t h = 0; h < NH; ++h)
      for (int64_t n = 0; n < N; ++n)
        for (int64_t e = 0; e < d; ++e) {
          int64_t o = ((b * NH + h) * N + n) * d + e, src = ((b * N + n) * 3 * NH + h) * d + e;
          c.buf<float>("q")[o] = in[src];
          c.buf<float>("k")[o] = in[src + NH * d];
          c.buf<float>("v")[o] = in[src + 2 * NH * d];
        }
}

// unpermute (inp (B, NH, N, d), out, B, N, NH, d): out (B, N, NH, d) = inp transposed back.
void attention_unpermute(RefCtx& c) {
  int64_t B = c.iscalar(2), N = c.iscalar(3), NH = c.iscalar(4), d = c.iscalar(5);
  for (int64_t b = 0; b < B; ++b)
    for (int64_t h = 0; h < NH; ++h)
      for (int64_t n = 0; n < N; ++n)
        for (int64_t e = 0; e < d; ++e)
          c.buf<float>("out")[((b * N + n) * NH + h) * d + e] = c.buf<float>("inp")[((b * NH + h) * N + n) * d + e];
}

// Rodinia lud (m, matrix_dim, offset), 16 x 16 blocks: lud_diagonal factors the diagonal block at
// (offset, offset) in place, Doolittle without pivoting (unit lower L below the diagonal, U on and
// above it): for each column i, L[r][i] = (A[r][i] - sum_{j<i} L[r][j] U[j][i]) / U[i][i] for r > i,
// then row i + 1 of U, U[i+1][c] = A[i+1][c] - sum_{j<=i} L[i+1][j] U[j][c] for c > i.
void lud_diagonal(RefCtx& c) {
  int n = static_cast<int>(c.iscalar(1)), off = static_cast<int>(c.iscalar(2));
  float* m = c.buf<float>("m");
  auto a = [&](int r, int col) -> float& { return m[(off + r) * n + off + col]; };
  for (int i = 0; i < 15; ++i) {
    for (int r = i + 1; r < 16; ++r) {
      for (int j = 0; j < i; ++j) a(r, i) = std::fma(-a(r, j), a(j, i), a(r, i));
      a(r, i) /= a(i, i);
    }
    for (int col = i + 1; col < 16; ++col)
      for (int j = 0; j <= i; ++j) a(i + 1, col) = std::fma(-a(i + 1, j), a(j, col), a(i + 1, col));
  }
}

// lud_internal: every 16 x 16 tile right of and below the diagonal block at offset is updated
// with the product of its block row's L panel and its block column's U panel, A -= L U.
void lud_internal(RefCtx& c) {
  int n = static_cast<int>(c.iscalar(1)), off = static_cast<int>(c.iscalar(2));
  float* m = c.buf<float>("m");
  std::vector<float> orig(m, m + c.count("m"));
  for (uint32_t by = 0; by < c.d.grid[1]; ++by)
    for (uint32_t bx = 0; bx < c.d.grid[0]; ++bx) {
      int row0 = off + static_cast<int>(by + 1) * 16, col0 = off + static_cast<int>(bx + 1) * 16;
      for (int r = 0; r < 16; ++r)
        for (int col = 0; col < 16; ++col) {
          double sum = 0;
          for (int i = 0; i < 16; ++i) sum += static_cast<double>(orig[(row0 + r) * n + off + i]) * orig[(off + i) * n + col0 + col];
          m[(row0 + r) * n + col0 + col] = static_cast<float>(orig[(row0 + r) * n + col0 + col] - sum);
        }
    }
}

// increment (data, inc): data[i] += inc for every launched thread.
void increment_i32(RefCtx& c) {
  int32_t inc = static_cast<int32_t>(c.iscalar(1));
  for (uint64_t i = 0; i < static_cast<uint64_t>(c.d.grid[0]) * c.d.block[0]; ++i) c.buf<int32_t>("data")[i] += inc;
}

// template sample (idata, odata): odata[t] = blockDim.x * idata[t] (one block).
void scale_by_threads(RefCtx& c) {
  for (uint32_t t = 0; t < c.d.block[0]; ++t)
    c.buf<float>("odata")[t] = static_cast<float>(c.d.block[0]) * c.buf<float>("idata")[t];
}

}  // namespace

struct CorpusRef {
  const char* name;
  RefFn fn;
};
extern const CorpusRef kCorpusRefs[];
const CorpusRef kCorpusRefs[] = {
    {"vector_add", vector_add},   {"pb_conv2d", pb_conv2d},         {"pb_atax1", pb_atax1},
    {"pb_atax2", pb_atax2},       {"pb_bicg1", pb_bicg1},           {"pb_bicg2", pb_bicg2},
    {"pb_gemm", pb_gemm},         {"pb_gesummv", pb_gesummv},       {"pb_mvt1", pb_mvt1},
    {"pb_mvt2", pb_mvt2},         {"pb_syrk", pb_syrk},             {"pb_jacobi1d_1", pb_jacobi1d_1},
    {"pb_jacobi_copy", pb_jacobi_copy}, {"pb_jacobi2d_1", pb_jacobi2d_1}, {"pb_gemver1", pb_gemver1},
    {"pb_gemver2", pb_gemver2},   {"pb_gemver3", pb_gemver3},       {"pb_covar_mean", pb_covar_mean},
    {"pb_covar_reduce", pb_covar_reduce}, {"pb_covar", pb_covar},   {"pb_fdtd1", pb_fdtd1},
    {"pb_fdtd2", pb_fdtd2},       {"pb_fdtd3", pb_fdtd3},
    {"transpose_wh", transpose_wh}, {"copy_wh", copy_wh}, {"matmul_ab", matmul_ab},
    {"hist256_partial", hist256_partial}, {"hist256_merge", hist256_merge},
    {"pb_2mm1", pb_2mm1}, {"pb_2mm2", pb_2mm2}, {"pb_3mm1", pb_3mm1}, {"pb_3mm2", pb_3mm2}, {"pb_3mm3", pb_3mm3},
    {"pb_syr2k", pb_syr2k}, {"pb_corr_std", pb_corr_std}, {"pb_corr_reduce", pb_corr_reduce}, {"pb_corr", pb_corr},
    {"pb_conv3d", pb_conv3d}, {"pb_gramschmidt1", pb_gramschmidt1}, {"pb_gramschmidt2", pb_gramschmidt2},
    {"pb_gramschmidt3", pb_gramschmidt3}, {"pb_lu1", pb_lu1}, {"pb_lu2", pb_lu2}, {"pb_adi1", pb_adi1},
    {"pb_adi2", pb_adi2}, {"pb_adi3", pb_adi3}, {"pb_adi4", pb_adi4}, {"pb_adi5", pb_adi5}, {"pb_adi6", pb_adi6},
    {"hist64_partial", hist64_partial}, {"hist64_merge", hist64_merge}, {"matmul_square", matmul_square},
    {"scalar_prod", scalar_prod}, {"black_scholes", black_scholes}, {"fwt_batch1", fwt_batch1},
    {"fwt_batch2", fwt_batch2}, {"fwt_modulate", fwt_modulate}, {"block_sums_x1", block_sums<1>},
    {"block_sums_x2", block_sums<2>}, {"sort_segments_dir", sort_segments_dir},
    {"sort_segments_alt1024", sort_segments_alt1024}, {"nn_euclid", nn_euclid}, {"pathfinder", pathfinder},
    {"bpnn_adjust_weights", bpnn_adjust_weights}, {"bpnn_layerforward", bpnn_layerforward}, {"hotspot", hotspot},
    {"vote_any", vote_warp<false>}, {"vote_all", vote_warp<true>}, {"vote_any3", vote_any3},
    {"copy_buffer", copy_buffer}, {"sum_param_i32", sum_param_i32}, {"block_inclusive_scan", block_inclusive_scan},
    {"uniform_add", uniform_add}, {"fp16_scalar_product", fp16_scalar_product},
    {"bias_grad_bf16", bias_grad_bf16}, {"bias_grad_bf16_out", bias_grad_bf16_out},
    {"cast_and_add_bf16", cast_and_add_bf16}, {"adamw", adamw}, {"crossentropy_forward", crossentropy_forward},
    {"encoder_forward_bf16", encoder_forward_bf16}, {"attention_permute", attention_permute},
    {"attention_unpermute", attention_unpermute}, {"lud_diagonal", lud_diagonal}, {"lud_internal", lud_internal},
    {"increment_i32", increment_i32}, {"scale_by_threads", scale_by_threads}, {nullptr, nullptr},
};

}  // namespace ptxmini::exec
