// Block reduction in dynamic shared memory with __syncthreads between levels, finished by a
// warp-level shuffle reduction.
extern "C" __global__ void reduce_shared(const int* in, int* out, int n) {
  extern __shared__ int s[];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x * 2 + t;
  int v = (i < n ? in[i] : 0) + (i + (int)blockDim.x < n ? in[i + blockDim.x] : 0);
  s[t] = v;
  __syncthreads();
  for (int k = blockDim.x / 2; k >= 32; k >>= 1) {
    if (t < k) s[t] += s[t + k];
    __syncthreads();
  }
  if (t < 32) {
    v = s[t];
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
    if (t == 0) out[blockIdx.x] = v;
  }
}
