// Static shared memory and __syncthreads: a block-wide tree reduction, then a warp-level tail
// with shuffles. Exercises shared bytes and bar.sync. FRONTENDS: nvcc clang
#define BLOCK 256
__global__ void block_sum(const float *in, float *out, int n) {
  __shared__ float buf[BLOCK];
  int t = threadIdx.x;
  int i = blockIdx.x * BLOCK + t;
  buf[t] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (int s = BLOCK / 2; s >= 32; s >>= 1) {
    if (t < s) buf[t] += buf[t + s];
    __syncthreads();
  }
  float v = t < 32 ? buf[t] : 0.0f;
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
  if (t == 0) out[blockIdx.x] = v;
}
