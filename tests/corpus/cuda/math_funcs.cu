// libdevice math (inlined by nvcc): exp, log, sin/cos, pow, tanh, erf in float and double, and
// the fast intrinsics (__expf, __sinf). Large straight-line code with many constants.
// FRONTENDS: nvcc
__global__ void math_f32(const float *a, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float x = a[i];
  out[5 * i + 0] = expf(x) + logf(fabsf(x) + 1.0f);
  out[5 * i + 1] = sinf(x) * cosf(x);
  out[5 * i + 2] = powf(fabsf(x), 1.7f);
  out[5 * i + 3] = tanhf(x) + erff(x);
  out[5 * i + 4] = __expf(x) + __sinf(x);
}

__global__ void math_f64(const double *a, double *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  double x = a[i];
  out[2 * i + 0] = exp(x) * log1p(fabs(x));
  out[2 * i + 1] = sin(x) + atan2(x, 3.0);
}
