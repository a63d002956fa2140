// Conversions: int <-> float with each rounding mode, f32 <-> f64, saturating float -> int,
// 64-bit integer <-> double, narrowing to 8 and 16 bits. FRONTENDS: nvcc
__global__ void convert(const float *f, const double *d, const long long *l, int *oi,
                        float *of, double *od, unsigned char *ob, short *os, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float x = f[i];
  oi[4 * i + 0] = __float2int_rn(x);
  oi[4 * i + 1] = __float2int_rz(x);
  oi[4 * i + 2] = __float2int_rd(x) + __float2int_ru(x);
  oi[4 * i + 3] = (int)__float2uint_rn(x);
  of[2 * i + 0] = (float)d[i] + __int2float_rn(oi[i]);
  of[2 * i + 1] = __ll2float_rn(l[i]);
  od[2 * i + 0] = (double)x + (double)l[i];
  od[2 * i + 1] = __ll2double_rn(l[i] >> 3);
  ob[i] = (unsigned char)__saturatef(x);
  os[i] = (short)(x * 100.0f);
}
