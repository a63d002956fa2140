// Packed half precision: __hadd2/__hmul2/__hfma2 on half2 values built from floats, and
// conversions back to float (HADD2/HMUL2/HFMA2, F2FP pack, half->float).
#include <cuda_fp16.h>
#include <string.h>
extern "C" __global__ void packed_half(const float* a, const float* b, const float* c, unsigned* out, float* fo, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  __half2 x = __floats2half2_rn(a[2 * i], a[2 * i + 1]);
  __half2 y = __floats2half2_rn(b[2 * i], b[2 * i + 1]);
  __half2 z = __floats2half2_rn(c[2 * i], c[2 * i + 1]);
  __half2 s = __hadd2(x, y), m = __hmul2(x, y), f = __hfma2(x, y, z);
  unsigned u;
  memcpy(&u, &s, 4); out[i * 3 + 0] = u;
  memcpy(&u, &m, 4); out[i * 3 + 1] = u;
  memcpy(&u, &f, 4); out[i * 3 + 2] = u;
  fo[i] = __low2float(f) + __high2float(m);
}
