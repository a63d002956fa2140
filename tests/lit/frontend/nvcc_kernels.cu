// nvcc's own output for a mix of CUDA features (shared memory, atomics, warp shuffles,
// printf through vprintf, half precision, math library, templates, dynamic shared memory)
// parses and checks clean; also with -lineinfo (.file/.loc) and -G (DWARF .section data).
// REQUIRES: nvcc
// RUN: %nvcc -arch=sm_90 -ptx %s -o %t.ptx
// RUN: %ptxas-mini -arch=compute_90 %t.ptx 2>&1 | count 0
// RUN: %nvcc -arch=sm_90 -ptx -lineinfo %s -o %t.line.ptx
// RUN: %ptxas-mini -arch=compute_90 %t.line.ptx 2>&1 | count 0
// RUN: %nvcc -arch=sm_90 -ptx -G %s -o %t.debug.ptx
// RUN: %ptxas-mini -arch=compute_90 %t.debug.ptx 2>&1 | count 0
#include <cstdio>
#include <cuda_fp16.h>

__device__ int g_count;
__constant__ float c_coef[4] = {1.f, 2.f, 3.f, 4.f};

template <typename T> __device__ T warpSum(T v) {
  for (int o = 16; o > 0; o >>= 1)
    v += __shfl_down_sync(0xffffffffu, v, o);
  return v;
}

__global__ void reduce(const float *in, float *out, int n) {
  __shared__ float tile[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? in[i] * c_coef[i & 3] : 0.f;
  v = warpSum(v);
  if ((threadIdx.x & 31) == 0)
    tile[threadIdx.x >> 5] = v;
  __syncthreads();
  if (threadIdx.x == 0) {
    float s = 0;
    for (int w = 0; w < blockDim.x / 32; ++w)
      s += tile[w];
    atomicAdd(out, s);
    atomicAdd(&g_count, 1);
  }
}

__global__ void mathy(double *d, __half *h, int n) {
  extern __shared__ double dyn[];
  int i = threadIdx.x;
  if (i < n) {
    dyn[i] = sin(d[i]) * exp(d[i]) + sqrt(fabs(d[i]));
    h[i] = __hadd(h[i], __float2half(1.5f));
  }
  __syncthreads();
  if (i < n)
    d[i] = dyn[n - 1 - i];
  if (i == 0)
    printf("n=%d first=%f\n", n, d[0]);
}
