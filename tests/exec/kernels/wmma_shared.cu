// wmma from shared memory, as the corpus's tensor-core samples use it: a CTA of 4 warps copies
// A (32x16 f16, row-major), B (16x32 f16, column-major) and C (32x32 f32, row-major) into
// shared memory, synchronizes, and each warp computes one 16x16 tile of D with
// wmma.load.{a,b,c}.shared, an f32 and an f16 accumulator (D32 and D16 = f16(A * B)), and
// stores D32 through shared memory (wmma.store.d.shared) and D16 to global memory directly.
#include <mma.h>
using namespace nvcuda;

constexpr unsigned M = 32, N = 32, K = 16;

extern "C" __global__ void wmma_shared(const half* a, const half* b, const float* c, float* d32, half* d16) {
  __shared__ __align__(32) half sa[M * K];
  __shared__ __align__(32) half sb[N * K];
  __shared__ __align__(32) float sc[M * N];
  unsigned t = threadIdx.x;
  for (unsigned i = t; i < M * K; i += 128) sa[i] = a[i];
  for (unsigned i = t; i < N * K; i += 128) sb[i] = b[i];
  for (unsigned i = t; i < M * N; i += 128) sc[i] = c[i];
  __syncthreads();
  unsigned warp = t / 32, row = warp / 2 * 16, col = warp % 2 * 16;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fragment<wmma::accumulator, 16, 16, 16, half> acc16;
  wmma::load_matrix_sync(fa, sa + row * K, K);
  wmma::load_matrix_sync(fb, sb + col * K, K);
  wmma::load_matrix_sync(acc, sc + row * N + col, N, wmma::mem_row_major);
  wmma::fill_fragment(acc16, __float2half(0.0f));
  wmma::mma_sync(acc, fa, fb, acc);
  wmma::mma_sync(acc16, fa, fb, acc16);
  __syncthreads();
  wmma::store_matrix_sync(sc + row * N + col, acc, N, wmma::mem_row_major);
  wmma::store_matrix_sync(d16 + row * N + col, acc16, N, wmma::mem_row_major);
  __syncthreads();
  for (unsigned i = t; i < M * N; i += 128) d32[i] = sc[i];
}
