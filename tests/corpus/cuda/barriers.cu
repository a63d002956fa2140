// Barriers beyond bar.sync 0: __syncthreads_count/_or/_and (bar.red), a named barrier with a
// thread count (inline PTX bar.sync 1, 64), and memory fences. Should raise NUM_BARRIERS.
// FRONTENDS: nvcc clang
__global__ void barrier_kinds(const int *in, int *out) {
  int t = threadIdx.x;
  int v = in[blockIdx.x * blockDim.x + t];
  int cnt = __syncthreads_count(v > 0);
  int any = __syncthreads_or(v < 0);
  int all = __syncthreads_and(v != 5);
  if (t < 64) {
    asm volatile("bar.sync 1, 64;");
    __threadfence_block();
  }
  __threadfence();
  out[blockIdx.x * blockDim.x + t] = cnt + any * 1000 + all * 2000;
}
