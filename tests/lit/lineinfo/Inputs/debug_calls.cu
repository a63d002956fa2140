// ptxas-mini test input for -g (nvcc -G -ptx -arch=sm_90): two __noinline__ device functions
// called from two kernels, a __forceinline__ one, a loop.
__device__ __noinline__ float scale(float x, float s) {
  float y = x * s;
  return y + 1.0f;
}
__device__ __forceinline__ int twice(int v) { return v * 2; }
__device__ __noinline__ int addup(const int *p, int n) {
  int s = 0;
  for (int i = 0; i < n; ++i)
    s += twice(p[i]);
  return s;
}
__global__ void k1(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = scale(in[i], 2.0f);
}
__global__ void k2(int *out, const int *in, int n) {
  int t = threadIdx.x;
  out[t] = addup(in, n) + twice(t);
}
