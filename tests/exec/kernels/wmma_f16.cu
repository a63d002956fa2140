// wmma GEMM tile from global memory: D (32x32 f32, row-major) = A (32x32 f16, row-major) *
// B (32x32 f16, column-major) + C (f32, row-major); one warp per 16x16 tile of D (4 warps in
// 2 CTAs), two k-steps of 16. ptxas expands wmma.load/store into plain loads and stores with
// its own addressing, so this checks the emulator's HMMA fragment layout against ptxas's; the
// reference is an ordinary matrix product (runner/mma_references.cpp).
#include <mma.h>
using namespace nvcuda;

constexpr unsigned N = 32;

extern "C" __global__ void wmma_f16(const half* a, const half* b, const float* c, float* d) {
  unsigned warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  unsigned tm = warp / 2, tn = warp % 2;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::load_matrix_sync(acc, c + tm * 16 * N + tn * 16, N, wmma::mem_row_major);
#pragma unroll
  for (unsigned k = 0; k < N; k += 16) {
    wmma::load_matrix_sync(fa, a + tm * 16 * N + k, N);
    wmma::load_matrix_sync(fb, b + tn * 16 * N + k, N);
    wmma::mma_sync(acc, fa, fb, acc);
  }
  wmma::store_matrix_sync(d + tm * 16 * N + tn * 16, acc, N, wmma::mem_row_major);
}
