// Module-scope data: zero-initialised and initialised globals, constants
// (.nv.global, .nv.global.init, .nv.constant3, .nv.constant4 + R_CUDA_64).
__device__ float gvar[16];
__device__ int ginit[4] = {1, 2, 3, 4};
__constant__ float cvals[8] = {1, 2, 3, 4, 5, 6, 7, 8};
__device__ int *gptr = ginit;
__global__ void usevars(float *out) {
  int t = threadIdx.x;
  gvar[t & 15] += 1.f;
  out[t] = gvar[3] + cvals[t & 7] + ginit[t & 3] + *gptr;
}
