// Module-scope data: initialized and zero-initialized __device__ globals (.nv.global(.init)),
// __constant__ tables (.nv.constant3), and their addresses reached from code.
// FRONTENDS: nvcc clang
__device__ int counter;
__device__ float scale_table[4] = {1.0f, 2.0f, 4.0f, 8.0f};
__constant__ float coeffs[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
__constant__ int offsets[8];

__global__ void use_globals(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float s = 0.0f;
  for (int k = 0; k < 16; ++k) s += coeffs[k] * in[(i + offsets[k & 7]) % n];
  out[i] = s * scale_table[i & 3];
  if (i == 0) counter += 1;
}
