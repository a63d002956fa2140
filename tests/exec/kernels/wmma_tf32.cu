// wmma 32x32x32 GEMM with tf32 inputs (m16n16k8, A row-major, B column-major) and f32
// accumulate, from global memory. The inputs are exact tf32 values (see the description);
// the kernel does not convert them.
#include <mma.h>
using namespace nvcuda;

constexpr unsigned N = 32;

extern "C" __global__ void wmma_tf32(const float* a, const float* b, const float* c, float* d) {
  unsigned warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  unsigned tm = warp / 2, tn = warp % 2;
  wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 8, float> acc;
  wmma::load_matrix_sync(acc, c + tm * 16 * N + tn * 16, N, wmma::mem_row_major);
#pragma unroll
  for (unsigned k = 0; k < N; k += 8) {
    wmma::load_matrix_sync(fa, a + tm * 16 * N + k, N);
    wmma::load_matrix_sync(fb, b + tn * 16 * N + k, N);
    wmma::mma_sync(acc, fa, fb, acc);
  }
  wmma::store_matrix_sync(d + tm * 16 * N + tn * 16, acc, N, wmma::mem_row_major);
}
