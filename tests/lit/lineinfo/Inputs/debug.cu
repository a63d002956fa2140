// ptxas-mini test input for -g: a device function called from a kernel, a local block.
__device__ __noinline__ float sq(float x) { return x * x; }
__global__ void k(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = sq(a[i]);
    a[i] = v + 1.0f;
  }
}
