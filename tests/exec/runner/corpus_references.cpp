/* corpus_references.cpp - CPU references for kernels of the real-PTX corpus (see "Corpora" in
 * docs/verification.md): standard computations written here in plain C++ from their
 * mathematical definitions (vector add, PolyBench linear-algebra and stencil kernels). The
 * corpus, its cubins and the descriptions that bind these references to corpus kernels stay
 * on the machine that runs them and are never committed. Row strides are parameters of the
 * description ("param" values are the kernel's; strides are the kernels' compile-time sizes,
 * given to the reference as extra buffer-free constants below). Comparisons use a tolerance
 * because the order of float accumulation and fma contraction is the compiler's choice. */
#include "tests/exec/runner/test_desc.h"

#include <cmath>
#include <cstdint>

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
    {"pb_fdtd2", pb_fdtd2},       {"pb_fdtd3", pb_fdtd3},           {nullptr, nullptr},
};

}  // namespace ptxmini::exec
