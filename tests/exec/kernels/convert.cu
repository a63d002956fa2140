// Conversions: float->int with each rounding mode, int->float (also directed rounding and
// 64-bit), narrowing/sign extension of integers, float<->double and float<->half.
#include <cuda_fp16.h>
extern "C" __global__ void convert(const float* f, const int* iv, int* oi, float* of, double* od,
                                   unsigned short* oh, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float x = f[i];
  int k = iv[i];
  int* a = oi + i * 8;
  a[0] = (int)x;
  a[1] = __float2int_rn(x);
  a[2] = __float2int_rd(x);
  a[3] = __float2int_ru(x);
  a[4] = (int)(unsigned)fabsf(x);
  a[5] = (signed char)k;
  a[6] = (short)k;
  a[7] = (int)(long long)(x * 1e6f);
  float* b = of + i * 5;
  b[0] = (float)k;
  b[1] = __int2float_rz(k * 1000 + 7);
  b[2] = (float)(unsigned)k;
  b[3] = (float)((long long)k * 100003LL);
  b[4] = __half2float(__float2half(x * 0.01f));
  double* c = od + i * 2;
  c[0] = (double)x;
  c[1] = (double)k * 0.5;
  oh[i] = __half_as_ushort(__float2half(x));
}
