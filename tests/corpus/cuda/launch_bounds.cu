// Launch bounds: __launch_bounds__ with and without a minimum block count (MAX_THREADS, and a
// register limit derived from min blocks), and __maxnreg__ (MAXREG_COUNT). FRONTENDS: nvcc
__global__ void __launch_bounds__(128) lb128(float *a) { a[threadIdx.x] *= 2.0f; }

__global__ void __launch_bounds__(256, 4) lb256x4(const float *a, float *b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) b[i] = a[i] * a[i] + 1.0f;
}

__global__ void __maxnreg__(40) maxnreg40(const float *a, float *b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0.0f;
  for (int k = 0; k < n; ++k) acc += a[(i * 7 + k) % n] * (float)k;
  b[i] = acc;
}
