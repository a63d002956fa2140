// Single and double precision arithmetic: fma, IEEE division and square root (subroutine
// calls in SASS), min/max/abs, rsqrt, comparisons and selects. FRONTENDS: nvcc clang
__global__ void f32_ops(const float *a, const float *b, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float x = a[i], y = b[i];
  out[6 * i + 0] = fmaf(x, y, 1.5f) - x * y;
  out[6 * i + 1] = x / y;
  out[6 * i + 2] = sqrtf(fabsf(x));
  out[6 * i + 3] = fminf(x, y) + fmaxf(x, 2.0f * y);
  out[6 * i + 4] = rsqrtf(y * y + 1.0f);
  out[6 * i + 5] = x > y ? x - y : y * 0.5f;
}

__global__ void f64_ops(const double *a, const double *b, double *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  double x = a[i], y = b[i];
  out[3 * i + 0] = x * y + 0.25 * x;
  out[3 * i + 1] = x / y;
  out[3 * i + 2] = sqrt(x * x + y * y);
}
