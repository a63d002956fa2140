// Loops: a counted loop the compiler unrolls, a loop kept rolled with #pragma unroll 1, a
// data-dependent while loop with break/continue, and nested loops (matrix multiply tile).
// FRONTENDS: nvcc clang
__global__ void loop_kinds(const float *a, const float *b, float *c, const int *trip, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float s = 0.0f;
#pragma unroll
  for (int k = 0; k < 8; ++k) s += a[i * 8 + k] * (float)k;
#pragma unroll 1
  for (int k = 0; k < trip[i]; ++k) s = s * 0.5f + b[k];
  int j = 0;
  while (true) {
    ++j;
    if (j & 1) continue;
    if (a[(i + j) % n] > s || j > 100) break;
  }
  c[i] = s + (float)j;
}

__global__ void matmul_naive(const float *A, const float *B, float *C, int N) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= N || col >= N) return;
  float acc = 0.0f;
  for (int k = 0; k < N; ++k) acc += A[row * N + k] * B[k * N + col];
  C[row * N + col] = acc;
}
