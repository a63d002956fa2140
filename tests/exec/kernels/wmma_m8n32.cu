// wmma m8n32k16 and m32n8k16 (f16 inputs, f32 accumulate) from shared memory: A (32x16 f16,
// row-major), B (16x32 f16, column-major); warp 0 computes D1 = A[0:8] * B (m8n32k16), warp 1
// computes D2 = A * B[:, 0:8] (m32n8k16), both with C = 0.
#include <mma.h>
using namespace nvcuda;

extern "C" __global__ void wmma_m8n32(const half* a, const half* b, float* d1, float* d2) {
  __shared__ __align__(32) half sa[32 * 16];
  __shared__ __align__(32) half sb[32 * 16];
  unsigned t = threadIdx.x;
  for (unsigned i = t; i < 32 * 16; i += 64) { sa[i] = a[i]; sb[i] = b[i]; }
  __syncthreads();
  if (t < 32) {
    wmma::fragment<wmma::matrix_a, 8, 32, 16, half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 8, 32, 16, half, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 8, 32, 16, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    wmma::load_matrix_sync(fa, sa, 16);
    wmma::load_matrix_sync(fb, sb, 16);
    wmma::mma_sync(acc, fa, fb, acc);
    wmma::store_matrix_sync(d1, acc, 32, wmma::mem_row_major);
  } else {
    wmma::fragment<wmma::matrix_a, 32, 8, 16, half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 32, 8, 16, half, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 32, 8, 16, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    wmma::load_matrix_sync(fa, sa, 16);
    wmma::load_matrix_sync(fb, sb, 16);
    wmma::mma_sync(acc, fa, fb, acc);
    wmma::store_matrix_sync(d2, acc, 8, wmma::mem_row_major);
  }
}
