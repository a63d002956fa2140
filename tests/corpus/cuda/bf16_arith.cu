// bfloat16: scalar and packed arithmetic, conversions from float with rounding, and a dot
// product accumulated in float. FRONTENDS: nvcc
#include <cuda_bf16.h>
__global__ void bf16_ops(const __nv_bfloat16 *a, const __nv_bfloat162 *b, __nv_bfloat16 *out,
                         float *acc, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  __nv_bfloat16 x = a[i];
  out[i] = __hfma(x, __float2bfloat16(0.75f), x);
  __nv_bfloat162 v = b[i];
  __nv_bfloat162 w = __hmul2(v, v);
  acc[i] = __bfloat162float(w.x) + __bfloat162float(w.y) + __bfloat162float(x);
}
