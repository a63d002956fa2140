// wmma from shared memory with the transposed operand layouts: A column-major and B row-major
// (m16n16k16 f16, f32 accumulate, C and D column-major). ptxas loads these fragments with
// LDSM.16.MT88 (transposing ldmatrix), so this checks the emulator's transposed LDSM against
// ptxas's own use of it; the reference is a plain matrix product.
#include <mma.h>
using namespace nvcuda;

constexpr unsigned M = 32, N = 32, K = 16;

extern "C" __global__ void wmma_trans(const half* a, const half* b, const float* c, float* d) {
  __shared__ __align__(32) half sa[M * K];  // column-major: element (i, k) at k * M + i
  __shared__ __align__(32) half sb[K * N];  // row-major: element (k, j) at k * N + j
  unsigned t = threadIdx.x;
  for (unsigned i = t; i < M * K; i += 128) { sa[i] = a[i]; sb[i] = b[i]; }
  __syncthreads();
  unsigned warp = t / 32, row = warp / 2 * 16, col = warp % 2 * 16;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::col_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::load_matrix_sync(fa, sa + row, M);
  wmma::load_matrix_sync(fb, sb + col, N);
  wmma::load_matrix_sync(acc, c + col * M + row, M, wmma::mem_col_major);
  wmma::mma_sync(acc, fa, fb, acc);
  wmma::store_matrix_sync(d + col * M + row, acc, M, wmma::mem_col_major);
}
