// FP8 wgmma (issue 19): D (64x64 f32) = A (64x64 e4m3) * B (64x64 e5m2) with two
// wgmma.mma_async.m64n64k32.f32.e4m3.e5m2 (K = 64). Both operands are K-major with the 32-byte
// swizzle: each k step (32 bytes) is its own block of 64 rows x 32 bytes (SBO 256), so the
// second step's descriptors start 2048 bytes further. Input bytes are masked with 0xbf on the
// way into shared memory (exponent field below its top bit: finite values, no NaN or
// infinity). Staged with plain loads/stores. Reference: runner/hopper_references.cpp (wgmma_fp8).
#include "wgmma_common.cuh"

extern "C" __global__ void __launch_bounds__(128) wgmma_fp8(const uint4* a, const uint4* bt, float* d) {
  __shared__ __align__(1024) uint8_t sa[64 * 64];
  __shared__ __align__(1024) uint8_t sb[64 * 64];
  const uint32_t tid = threadIdx.x;
  for (uint32_t i = tid; i < 256; i += 128) {
    const uint32_t r = i / 4, c = i % 4;  // row r, 16-byte chunk c of its 64 K bytes
    const uint32_t off = (c / 2) * 2048 + kmajor_chunk(r, c % 2, 32, 0, 256);
    uint4 va = a[i], vb = bt[i];
    va.x &= 0xbfbfbfbfu; va.y &= 0xbfbfbfbfu; va.z &= 0xbfbfbfbfu; va.w &= 0xbfbfbfbfu;
    vb.x &= 0xbfbfbfbfu; vb.y &= 0xbfbfbfbfu; vb.z &= 0xbfbfbfbfu; vb.w &= 0xbfbfbfbfu;
    *reinterpret_cast<uint4*>(sa + off) = va;
    *reinterpret_cast<uint4*>(sb + off) = vb;
  }
  smem_to_async_proxy();
  float acc[32];
  for (int i = 0; i < 32; ++i) acc[i] = 0.f;  // not read: the first MMA has scale-d = 0
  wgmma_fence();
  asm volatile(
      "wgmma.mma_async.sync.aligned.m64n64k32.f32.e4m3.e5m2 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, %32, %33, 0, 1, 1;"
      : "+f"(acc[0]), "+f"(acc[1]), "+f"(acc[2]), "+f"(acc[3]), "+f"(acc[4]), "+f"(acc[5]), "+f"(acc[6]), "+f"(acc[7]), "+f"(acc[8]), "+f"(acc[9]), "+f"(acc[10]), "+f"(acc[11]), "+f"(acc[12]), "+f"(acc[13]), "+f"(acc[14]), "+f"(acc[15]), "+f"(acc[16]), "+f"(acc[17]), "+f"(acc[18]), "+f"(acc[19]), "+f"(acc[20]), "+f"(acc[21]), "+f"(acc[22]), "+f"(acc[23]), "+f"(acc[24]), "+f"(acc[25]), "+f"(acc[26]), "+f"(acc[27]), "+f"(acc[28]), "+f"(acc[29]), "+f"(acc[30]), "+f"(acc[31])
      : "l"(gmma_desc(sa, 16, 256, kSw32)), "l"(gmma_desc(sb, 16, 256, kSw32)));
  asm volatile(
      "wgmma.mma_async.sync.aligned.m64n64k32.f32.e4m3.e5m2 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, %32, %33, 1, 1, 1;"
      : "+f"(acc[0]), "+f"(acc[1]), "+f"(acc[2]), "+f"(acc[3]), "+f"(acc[4]), "+f"(acc[5]), "+f"(acc[6]), "+f"(acc[7]), "+f"(acc[8]), "+f"(acc[9]), "+f"(acc[10]), "+f"(acc[11]), "+f"(acc[12]), "+f"(acc[13]), "+f"(acc[14]), "+f"(acc[15]), "+f"(acc[16]), "+f"(acc[17]), "+f"(acc[18]), "+f"(acc[19]), "+f"(acc[20]), "+f"(acc[21]), "+f"(acc[22]), "+f"(acc[23]), "+f"(acc[24]), "+f"(acc[25]), "+f"(acc[26]), "+f"(acc[27]), "+f"(acc[28]), "+f"(acc[29]), "+f"(acc[30]), "+f"(acc[31])
      : "l"(gmma_desc(sa + 2048, 16, 256, kSw32)), "l"(gmma_desc(sb + 2048, 16, 256, kSw32)));
  wgmma_commit();
  wgmma_wait0();
  for (uint32_t i = 0; i < 32; ++i) d[frag_row(tid, i) * 64 + frag_col(tid, i)] = acc[i];
}
