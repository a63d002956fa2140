// Atomics: shared-memory histogram (atomicAdd on shared), global integer add, float add,
// unsigned max, exchange, and a compare-and-swap retry loop.
extern "C" __global__ void atomics(const int* in, int* hist, int* gsum, float* fsum, unsigned* gmax, int* cas_count,
                                   int* exch, int n) {
  __shared__ int sh[16];
  if (threadIdx.x < 16) sh[threadIdx.x] = 0;
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int v = in[i];
    atomicAdd(&sh[v & 15], 1);
    atomicAdd(gsum, v);
    atomicAdd(fsum, 0.5f);
    atomicMax(gmax, (unsigned)v);
    atomicExch(&exch[v & 3], 7);
    int old = *(volatile int*)cas_count, assumed;
    do {
      assumed = old;
      old = atomicCAS(cas_count, assumed, assumed + 1);
    } while (old != assumed);
  }
  __syncthreads();
  if (threadIdx.x < 16) atomicAdd(&hist[threadIdx.x], sh[threadIdx.x]);
}
