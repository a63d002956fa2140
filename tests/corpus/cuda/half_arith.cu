// Half precision: scalar __half and packed __half2 arithmetic, fma, comparisons, conversions
// to and from float. FRONTENDS: nvcc
#include <cuda_fp16.h>
__global__ void half_ops(const __half *a, const __half2 *b, __half *out, __half2 *out2, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  __half x = a[i];
  __half y = __float2half(1.25f);
  out[i] = __hfma(x, y, __hmul(x, x));
  __half2 v = b[i];
  __half2 w = __hadd2(v, __floats2half2_rn(0.5f, -0.5f));
  out2[i] = __hmul2(w, __hmax2(v, w));
  if (__hgt(x, y)) out[i + n] = __float2half(__half2float(x) * 3.0f);
}
