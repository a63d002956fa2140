// wmma 16x16x16 GEMM in f64 (m8n8k4, A row-major, B column-major, C/D row-major): one warp
// per 8x8 tile of D (4 warps in 2 CTAs), four k-steps of 4, from global memory.
#include <mma.h>
using namespace nvcuda;

constexpr unsigned N = 16;

extern "C" __global__ void wmma_f64(const double* a, const double* b, const double* c, double* d) {
  unsigned warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  unsigned row = warp / 2 * 8, col = warp % 2 * 8;
  wmma::fragment<wmma::matrix_a, 8, 8, 4, double, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 8, 8, 4, double, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 8, 8, 4, double> acc;
  wmma::load_matrix_sync(acc, c + row * N + col, N, wmma::mem_row_major);
#pragma unroll
  for (unsigned k = 0; k < N; k += 4) {
    wmma::load_matrix_sync(fa, a + row * N + k, N);
    wmma::load_matrix_sync(fb, b + col * N + k, N);
    wmma::mma_sync(acc, fa, fb, acc);
  }
  wmma::store_matrix_sync(d + row * N + col, acc, N, wmma::mem_row_major);
}
