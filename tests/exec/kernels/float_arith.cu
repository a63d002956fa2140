// Float and double arithmetic with IEEE rounding: add/mul/fma/div/sqrt, min/max, the directed
// rounding intrinsics, and double mul/div/sqrt/fma (division and sqrt use slow-path calls for
// hard cases).
extern "C" __global__ void float_arith(const float* a, const float* b, float* out, double* outd, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float x = a[i], y = b[i];
  float* o = out + i * 10;
  o[0] = x + y;
  o[1] = x * y;
  o[2] = fmaf(x, y, 1.5f);
  o[3] = x / y;
  o[4] = sqrtf(fabsf(x));
  o[5] = fminf(x, y);
  o[6] = fmaxf(x, y);
  o[7] = __fadd_rz(x, y);
  o[8] = __fmul_ru(x, y);
  o[9] = __fdiv_rd(1.0f, y);
  double X = x, Y = y;
  double* p = outd + i * 5;
  p[0] = X * Y + X;
  p[1] = X / Y;
  p[2] = sqrt(fabs(X));
  p[3] = __dadd_rd(X, Y * 1e-3);
  p[4] = fma(X, Y, -1.0);
}
