// wmma with 8-bit integers from shared memory (m16n16k16, u8 and s8, s32 accumulate), as the
// corpus's immaTensorCoreGemm sample: A (32x32 u8/s8, row-major), B (32x32, column-major), C
// (32x32 s32, row-major); each of 4 warps computes a 16x16 tile of D over two k-steps.
#include <mma.h>
using namespace nvcuda;

constexpr unsigned N = 32;

extern "C" __global__ void wmma_u8(const unsigned char* a, const unsigned char* b, const int* c, int* du, int* ds) {
  __shared__ __align__(32) unsigned char sa[N * N];
  __shared__ __align__(32) unsigned char sb[N * N];
  unsigned t = threadIdx.x;
  for (unsigned i = t; i < N * N; i += 128) { sa[i] = a[i]; sb[i] = b[i]; }
  __syncthreads();
  unsigned warp = t / 32, row = warp / 2 * 16, col = warp % 2 * 16;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, unsigned char, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, unsigned char, wmma::col_major> fb;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, signed char, wmma::row_major> sfa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, signed char, wmma::col_major> sfb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, int> acc, sacc;
  wmma::load_matrix_sync(acc, c + row * N + col, N, wmma::mem_row_major);
  wmma::load_matrix_sync(sacc, c + row * N + col, N, wmma::mem_row_major);
#pragma unroll
  for (unsigned k = 0; k < N; k += 16) {
    wmma::load_matrix_sync(fa, sa + row * N + k, N);
    wmma::load_matrix_sync(fb, sb + col * N + k, N);
    wmma::mma_sync(acc, fa, fb, acc);
    wmma::load_matrix_sync(sfa, reinterpret_cast<const signed char*>(sa) + row * N + k, N);
    wmma::load_matrix_sync(sfb, reinterpret_cast<const signed char*>(sb) + col * N + k, N);
    wmma::mma_sync(sacc, sfa, sfb, sacc);
  }
  wmma::store_matrix_sync(du + row * N + col, acc, N, wmma::mem_row_major);
  wmma::store_matrix_sync(ds + row * N + col, sacc, N, wmma::mem_row_major);
}
