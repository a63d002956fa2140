// Second conformance kernel set: warp-level ops, atomics on shared memory, conversions of
// every width, half/bfloat16 arithmetic, 64-bit integer maths, local arrays and calls.
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__device__ __noinline__ float helper(float x, int k) { for (int i = 0; i < k; ++i) x = x * x + 1.0f; return x; }
__global__ void warpops(int* out, const int* in) {
  int v = in[threadIdx.x];
  unsigned m = __activemask();
  int s = __reduce_add_sync(m, v) + __reduce_max_sync(m, v) + __reduce_or_sync(m, (unsigned)v);
  s += __shfl_sync(m, v, 3) + __shfl_up_sync(m, v, 1) + __shfl_xor_sync(m, v, 4) + __shfl_down_sync(m, v, v & 7);
  s += __all_sync(m, v > 0) + __any_sync(m, v < 0) + __popc(__ballot_sync(m, v & 1));
  s += __match_any_sync(m, v);
  out[threadIdx.x] = s;
}
__global__ void shatom(int* out, unsigned long long* o64) {
  __shared__ int sh[64];
  __shared__ unsigned long long sh64[8];
  sh[threadIdx.x & 63] = 0; if (threadIdx.x < 8) sh64[threadIdx.x] = 0;
  __syncthreads();
  atomicAdd(&sh[threadIdx.x & 63], 1); atomicMax(&sh[(threadIdx.x + 1) & 63], (int)threadIdx.x);
  atomicCAS(&sh[2], 0, 5); atomicExch(&sh[3], 7); atomicAdd(&sh64[threadIdx.x & 7], 3ull);
  __syncthreads();
  out[threadIdx.x] = sh[threadIdx.x & 63]; o64[threadIdx.x] = sh64[threadIdx.x & 7];
}
__global__ void convs(const double* d, const float* f, long long* l, unsigned long long* u, __half* h, __nv_bfloat16* b, signed char* c, unsigned short* us) {
  int i = threadIdx.x;
  l[i] = (long long)d[i] + (long long)f[i]; u[i] = (unsigned long long)f[i] + (unsigned long long)d[i];
  h[i] = __float2half(f[i]); b[i] = __float2bfloat16(f[i]); c[i] = (signed char)d[i]; us[i] = (unsigned short)f[i];
  float r = __half2float(h[i + 1]) + __bfloat162float(b[i + 1]) + (float)l[i + 1] + (float)u[i + 1] + (float)c[i + 1] + (float)us[i + 1];
  ((float*)d)[i] = r + rintf(f[i]) + floorf(f[i]) + ceilf(f[i]) + truncf(f[i]);
}
__global__ void halfmath(__half2* a, const __half2* b, __nv_bfloat162* c) {
  int i = threadIdx.x;
  __half2 x = __hmul2(a[i], b[i]); x = __hadd2(x, __hfma2(x, b[i], a[i])); x = __hmax2(x, b[i]);
  a[i] = x; c[i] = __hmul2(c[i], c[i + 1]);
}
__global__ void int64(long long* a, unsigned long long* b, int n) {
  int i = threadIdx.x;
  long long x = a[i]; unsigned long long y = b[i];
  a[i] = x * y + x / (n + 1) - (x >> 7) + (long long)(y % 1000) + __mul64hi(x, (long long)y) + __clzll(x) + __popcll(y);
  b[i] = (y << (n & 63)) | (y >> 3) | __brevll(y) | __umul64hi(y, (unsigned long long)n);
}
__global__ void localcall(float* a, int k) {
  float buf[32];
  for (int i = 0; i < 32; ++i) buf[i] = a[i * k] * 2.0f;
  a[threadIdx.x] = helper(buf[threadIdx.x & 31], k);
}
__global__ void grid(int* x) {
  cg::thread_block tb = cg::this_thread_block();
  auto tile = cg::tiled_partition<16>(tb);
  int v = tile.shfl(x[threadIdx.x], 0) + tile.thread_rank();
  tb.sync();
  __nanosleep(10);
  x[threadIdx.x] = v + (int)clock() + (int)(clock64() & 1);
}
