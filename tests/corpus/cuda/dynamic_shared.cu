// Dynamic (extern) shared memory next to a static array: the static part sets the shared
// section size, the dynamic part is sized at launch. FRONTENDS: nvcc clang
extern __shared__ int dyn[];
__global__ void stage_and_reverse(const int *in, int *out, int n) {
  __shared__ int fixed[64];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  dyn[t] = i < n ? in[i] : 0;
  if (t < 64) fixed[t] = t * 3;
  __syncthreads();
  if (i < n) out[i] = dyn[blockDim.x - 1 - t] + fixed[t & 63];
}
