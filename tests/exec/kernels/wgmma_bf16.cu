// wgmma with A from registers (issue 19): D (64x64 f32) = C + A0 * B0 - A1 * B1, where A
// (64x32 bf16, row-major) is split into two k16 halves held in registers in wgmma's A
// fragment layout, B (32x64 bf16, row-major K x N, so N-major) sits in shared memory with the
// 64-byte swizzle and is read transposed (imm-trans-b = 1; LBO 2048 between the two 64-byte N
// blocks, SBO 512 between groups of 8 k), and C (64x64 f32) is the starting accumulator
// (scale-d = 1). The second MMA negates A (imm-scale-a = -1). B is staged with plain global
// loads and shared stores. Reference: runner/hopper_references.cpp (wgmma_bf16).
#include "wgmma_common.cuh"

extern "C" __global__ void __launch_bounds__(128) wgmma_bf16(const uint32_t* a, const uint4* b, const float* c, float* d) {
  __shared__ __align__(1024) uint8_t sb[32 * 128];
  const uint32_t tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
  for (uint32_t i = tid; i < 256; i += 128) {
    const uint32_t k = i / 8, ch = i % 8;  // row k of B, 16-byte chunk ch (8 n values)
    *reinterpret_cast<uint4*>(sb + mnmajor_chunk(k, ch, 64, 2048, 512)) = b[i];
  }
  float acc[32];
  for (uint32_t i = 0; i < 32; ++i) acc[i] = c[frag_row(tid, i) * 64 + frag_col(tid, i)];
  // A fragments: register r of k step s holds row 16 warp + lane/4 + 8 (r % 2), columns
  // 16 s + 8 (r / 2) + 2 (lane % 4) and the next (a[] holds bf16 pairs).
  uint32_t fa[2][4];
  for (uint32_t s = 0; s < 2; ++s)
    for (uint32_t r = 0; r < 4; ++r) {
      const uint32_t row = 16 * warp + lane / 4 + 8 * (r % 2), col = 16 * s + 8 * (r / 2) + 2 * (lane % 4);
      fa[s][r] = a[(row * 32 + col) / 2];
    }
  smem_to_async_proxy();
  wgmma_fence();
  const uint64_t db0 = gmma_desc(sb, 2048, 512, kSw64);
  const uint64_t db1 = gmma_desc(sb + 1024, 2048, 512, kSw64);
  asm volatile(
      "wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, {%32, %33, %34, %35}, %36, 1, 1, 1, 1;"
      : "+f"(acc[0]), "+f"(acc[1]), "+f"(acc[2]), "+f"(acc[3]), "+f"(acc[4]), "+f"(acc[5]), "+f"(acc[6]), "+f"(acc[7]), "+f"(acc[8]), "+f"(acc[9]), "+f"(acc[10]), "+f"(acc[11]), "+f"(acc[12]), "+f"(acc[13]), "+f"(acc[14]), "+f"(acc[15]), "+f"(acc[16]), "+f"(acc[17]), "+f"(acc[18]), "+f"(acc[19]), "+f"(acc[20]), "+f"(acc[21]), "+f"(acc[22]), "+f"(acc[23]), "+f"(acc[24]), "+f"(acc[25]), "+f"(acc[26]), "+f"(acc[27]), "+f"(acc[28]), "+f"(acc[29]), "+f"(acc[30]), "+f"(acc[31])
      : "r"(fa[0][0]), "r"(fa[0][1]), "r"(fa[0][2]), "r"(fa[0][3]), "l"(db0));
  asm volatile(
      "wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, {%32, %33, %34, %35}, %36, 1, -1, 1, 1;"
      : "+f"(acc[0]), "+f"(acc[1]), "+f"(acc[2]), "+f"(acc[3]), "+f"(acc[4]), "+f"(acc[5]), "+f"(acc[6]), "+f"(acc[7]), "+f"(acc[8]), "+f"(acc[9]), "+f"(acc[10]), "+f"(acc[11]), "+f"(acc[12]), "+f"(acc[13]), "+f"(acc[14]), "+f"(acc[15]), "+f"(acc[16]), "+f"(acc[17]), "+f"(acc[18]), "+f"(acc[19]), "+f"(acc[20]), "+f"(acc[21]), "+f"(acc[22]), "+f"(acc[23]), "+f"(acc[24]), "+f"(acc[25]), "+f"(acc[26]), "+f"(acc[27]), "+f"(acc[28]), "+f"(acc[29]), "+f"(acc[30]), "+f"(acc[31])
      : "r"(fa[1][0]), "r"(fa[1][1]), "r"(fa[1][2]), "r"(fa[1][3]), "l"(db1));
  wgmma_commit();
  wgmma_wait0();
  for (uint32_t i = 0; i < 32; ++i) d[frag_row(tid, i) * 64 + frag_col(tid, i)] = acc[i];
}
