// ptxas-mini test input for -g (nvcc -G -ptx -arch=sm_90): __device__, __constant__ and
// initialised module variables and a __shared__ array, whose locations the DWARF gives.
__device__ int counter;
__constant__ float coef[4];
__device__ float table[16] = {1, 2, 3};
__global__ void kg(float *out, int n) {
  __shared__ float tile[32];
  int i = threadIdx.x;
  tile[i % 32] = coef[i % 4] + table[i % 16];
  __syncthreads();
  if (i < n) out[i] = tile[(i + 1) % 32];
  atomicAdd(&counter, 1);
}
