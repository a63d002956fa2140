// wgmma types not covered by the other wgmma tests (issue 19), one warpgroup, two pipelines:
//  1. tf32: D1 (64x32 f32) = A1 (64x16 tf32, K-major, 64-byte swizzle: a k step advances the
//     start 32 bytes inside the 64-byte row) * B1 (stored N x K, K-major without swizzle, LBO
//     128, SBO 512; a k step advances 256 bytes), two m64n32k8 MMAs, scale-d 0 then 1.
//  2. f16 accumulators: D2 (64x16 f16) = C2 + A2 (64x16 f16, K-major, 32-byte swizzle) * B2
//     (16x16 f16 row-major K x N, i.e. N-major, read transposed with the 128-byte swizzle, of
//     whose 128-byte rows only 32 bytes are used), one m64n16k16.f16.f16.f16 MMA; D2's
//     registers hold pairs of halves.
// Plain loads/stores stage everything. Reference: runner/hopper_references.cpp (wgmma_mixed).
#include "wgmma_common.cuh"

extern "C" __global__ void __launch_bounds__(128) wgmma_mixed(const uint4* a1, const uint4* b1t, float* d1,
                                                              const uint4* a2, const uint4* b2, const uint32_t* c2,
                                                              uint32_t* d2) {
  __shared__ __align__(1024) uint8_t sa1[64 * 64];
  __shared__ __align__(1024) uint8_t sb1[32 * 64];
  __shared__ __align__(1024) uint8_t sa2[64 * 32];
  __shared__ __align__(1024) uint8_t sb2[2 * 1024];
  const uint32_t tid = threadIdx.x;
  for (uint32_t i = tid; i < 256; i += 128) {  // A1: 64 rows x 4 chunks
    *reinterpret_cast<uint4*>(sa1 + kmajor_chunk(i / 4, i % 4, 64, 0, 512)) = a1[i];
    if (i < 128) *reinterpret_cast<uint4*>(sb1 + kmajor_chunk(i / 4, i % 4, 0, 128, 512)) = b1t[i];
    if (i < 128) *reinterpret_cast<uint4*>(sa2 + kmajor_chunk(i / 2, i % 2, 32, 0, 256)) = a2[i];
    if (i < 32) *reinterpret_cast<uint4*>(sb2 + mnmajor_chunk(i / 2, i % 2, 128, 8192, 1024)) = b2[i];
  }
  float acc1[16];
  for (int i = 0; i < 16; ++i) acc1[i] = 0.f;  // not read: scale-d = 0
  uint32_t acc2[4];
  for (uint32_t j = 0; j < 4; ++j)  // register j: elements 2j (low half) and 2j + 1 (high half)
    acc2[j] = c2[(frag_row(tid, 2 * j) * 16 + frag_col(tid, 2 * j)) / 2];
  smem_to_async_proxy();
  wgmma_fence();
  asm volatile("wgmma.mma_async.sync.aligned.m64n32k8.f32.tf32.tf32 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15}, %16, %17, 0, 1, 1;"
               : "+f"(acc1[0]), "+f"(acc1[1]), "+f"(acc1[2]), "+f"(acc1[3]), "+f"(acc1[4]), "+f"(acc1[5]), "+f"(acc1[6]), "+f"(acc1[7]), "+f"(acc1[8]), "+f"(acc1[9]), "+f"(acc1[10]), "+f"(acc1[11]), "+f"(acc1[12]), "+f"(acc1[13]), "+f"(acc1[14]), "+f"(acc1[15])
               : "l"(gmma_desc(sa1, 16, 512, kSw64)), "l"(gmma_desc(sb1, 128, 512, kSwNone)));
  asm volatile("wgmma.mma_async.sync.aligned.m64n32k8.f32.tf32.tf32 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15}, %16, %17, 1, 1, 1;"
               : "+f"(acc1[0]), "+f"(acc1[1]), "+f"(acc1[2]), "+f"(acc1[3]), "+f"(acc1[4]), "+f"(acc1[5]), "+f"(acc1[6]), "+f"(acc1[7]), "+f"(acc1[8]), "+f"(acc1[9]), "+f"(acc1[10]), "+f"(acc1[11]), "+f"(acc1[12]), "+f"(acc1[13]), "+f"(acc1[14]), "+f"(acc1[15])
               : "l"(gmma_desc(sa1 + 32, 16, 512, kSw64)), "l"(gmma_desc(sb1 + 256, 128, 512, kSwNone)));
  wgmma_commit();
  asm volatile("wgmma.mma_async.sync.aligned.m64n16k16.f16.f16.f16 {%0, %1, %2, %3}, %4, %5, 1, 1, 1, 0, 1;"
               : "+r"(acc2[0]), "+r"(acc2[1]), "+r"(acc2[2]), "+r"(acc2[3])
               : "l"(gmma_desc(sa2, 16, 256, kSw32)), "l"(gmma_desc(sb2, 8192, 1024, kSw128)));
  wgmma_commit();
  wgmma_wait0();
  for (uint32_t i = 0; i < 16; ++i) d1[frag_row(tid, i) * 32 + frag_col(tid, i)] = acc1[i];
  for (uint32_t j = 0; j < 4; ++j) d2[(frag_row(tid, 2 * j) * 16 + frag_col(tid, 2 * j)) / 2] = acc2[j];
}
