// Integer wgmma (issue 19): D (64x32 s32) = C + A (64x128 s8) * B (128x32 u8) with four
// wgmma.mma_async.m64n32k32.s32.s8.u8.satfinite (K = 128). A is K-major without swizzle (core
// matrices, LBO 128 between K neighbours, SBO 1024 between groups of 8 rows; a k step advances
// the start by 256 bytes), B (stored N x K) K-major with the 128-byte swizzle (a k step advances
// the start by 32 bytes). C is the starting accumulator (scale-d = 1). Staged with plain
// loads/stores. Reference: runner/hopper_references.cpp (wgmma_s8).
#include "wgmma_common.cuh"

extern "C" __global__ void __launch_bounds__(128) wgmma_s8(const uint4* a, const uint4* bt, const int* c, int* d) {
  __shared__ __align__(1024) uint8_t sa[64 * 128];
  __shared__ __align__(1024) uint8_t sb[32 * 128];
  const uint32_t tid = threadIdx.x;
  for (uint32_t i = tid; i < 512; i += 128) {
    const uint32_t r = i / 8, ch = i % 8;
    *reinterpret_cast<uint4*>(sa + kmajor_chunk(r, ch, 0, 128, 1024)) = a[i];
    if (i < 256) *reinterpret_cast<uint4*>(sb + kmajor_chunk(r, ch, 128, 0, 1024)) = bt[i];
  }
  int acc[16];
  for (uint32_t i = 0; i < 16; ++i) acc[i] = c[frag_row(tid, i) * 32 + frag_col(tid, i)];
  smem_to_async_proxy();
  wgmma_fence();
#pragma unroll
  for (uint32_t s = 0; s < 4; ++s) {
    asm volatile(
        "wgmma.mma_async.sync.aligned.m64n32k32.s32.s8.u8.satfinite {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15}, %16, %17, 1;"
        : "+r"(acc[0]), "+r"(acc[1]), "+r"(acc[2]), "+r"(acc[3]), "+r"(acc[4]), "+r"(acc[5]), "+r"(acc[6]), "+r"(acc[7]), "+r"(acc[8]), "+r"(acc[9]), "+r"(acc[10]), "+r"(acc[11]), "+r"(acc[12]), "+r"(acc[13]), "+r"(acc[14]), "+r"(acc[15])
        : "l"(gmma_desc(sa + 256 * s, 128, 1024, kSwNone)), "l"(gmma_desc(sb + 32 * s, 16, 1024, kSw128)));
  }
  wgmma_commit();
  wgmma_wait0();
  for (uint32_t i = 0; i < 16; ++i) d[frag_row(tid, i) * 32 + frag_col(tid, i)] = acc[i];
}
