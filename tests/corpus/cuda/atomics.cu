// Global and shared atomics: add (int, float, u64), CAS loop, max/min, exchange, and a shared
// histogram flushed with global atomics. FRONTENDS: nvcc clang
__global__ void atomics(int *ic, float *fc, unsigned long long *uc, int *lock, const int *keys,
                        int *hist, int n) {
  __shared__ int local_hist[32];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  if (t < 32) local_hist[t] = 0;
  __syncthreads();
  if (i < n) {
    int k = keys[i];
    atomicAdd(&local_hist[k & 31], 1);
    atomicAdd(ic, k);
    atomicAdd(fc, 0.5f);
    atomicAdd(uc, 1ull);
    atomicMax(ic + 1, k);
    atomicMin(ic + 2, k);
    atomicExch(ic + 3, k);
    int old = ic[4], assumed;
    do {
      assumed = old;
      old = atomicCAS(ic + 4, assumed, assumed + k);
    } while (old != assumed);
  }
  __syncthreads();
  if (t < 32) atomicAdd(&hist[t], local_hist[t]);
}
