// Static and dynamic shared memory, barriers, launch bounds (.nv.shared, NUM_BARRIERS,
// MAX_THREADS, MAXREG_COUNT from minBlocks).
__global__ void __launch_bounds__(256, 2) reduce(const float *in, float *out) {
  __shared__ float sm[256];
  int t = threadIdx.x;
  sm[t] = in[blockIdx.x * 256 + t];
  __syncthreads();
  for (int s = 128; s > 0; s >>= 1) {
    if (t < s) sm[t] += sm[t + s];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = sm[0];
}
extern __shared__ double dyn[];
__global__ void dynamic(double *out, int n) {
  dyn[threadIdx.x] = threadIdx.x * 2.0;
  __syncthreads();
  out[threadIdx.x] = dyn[(threadIdx.x + n) % blockDim.x];
}
__global__ void __launch_bounds__(128) named(int *out) {
  __shared__ int a[64];
  a[threadIdx.x & 63] = threadIdx.x;
  asm volatile("bar.sync 1, 64;");
  out[threadIdx.x] = a[(threadIdx.x + 1) & 63];
}
