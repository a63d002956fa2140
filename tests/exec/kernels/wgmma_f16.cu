// wgmma GEMM tile (issue 19): one warpgroup computes D (64x64 f32) = A (64x64 f16) * B (64x64
// f16) with four wgmma.mma_async.m64n64k16.f32.f16.f16 (K = 64) in one commit group. Thread 0
// loads A (row-major, M x K) and B (stored N x K, i.e. B^T row-major) with cp.async.bulk into a
// staging area, completing transaction bytes on an mbarrier that every thread waits on; the
// threads then rearrange them with plain shared loads/stores into the canonical layouts: A
// K-major with the 128-byte swizzle (each k step advances the descriptor's start by 32 bytes
// inside the swizzle row), B K-major without swizzle (8x16-byte core matrices, LBO 128, SBO
// 1024). scale-d is a predicate: false on the first step (the accumulators start from zero
// without being read), true after. Two CTAs, one tile each. TMA tensor copies are not used: the
// emulator does not model tensor maps. Reference: runner/hopper_references.cpp (wgmma_f16).
#include "wgmma_common.cuh"

extern "C" __global__ void __launch_bounds__(128) wgmma_f16(const uint16_t* a, const uint16_t* bt, float* d) {
  __shared__ __align__(1024) uint8_t sa[64 * 128];
  __shared__ __align__(1024) uint8_t sb[64 * 128];
  __shared__ __align__(128) uint8_t stage[2 * 8192];
  __shared__ __align__(8) uint64_t bar;
  const uint32_t tid = threadIdx.x, tile = blockIdx.x;
  const uint32_t b = smem_u32(&bar);
  if (tid == 0) mbar_init(b, 1);
  __syncthreads();
  if (tid == 0) {
    mbar_expect_tx(b, 16384);
    bulk_load(smem_u32(stage), a + tile * 4096, 8192, b);
    bulk_load(smem_u32(stage + 8192), bt + tile * 4096, 8192, b);
  }
  mbar_wait(b, 0);
  for (uint32_t c = tid; c < 512; c += 128) {
    const uint32_t r = c / 8, kc = c % 8;
    uint4 va = *reinterpret_cast<const uint4*>(stage + r * 128 + kc * 16);
    uint4 vb = *reinterpret_cast<const uint4*>(stage + 8192 + r * 128 + kc * 16);
    *reinterpret_cast<uint4*>(sa + kmajor_chunk(r, kc, 128, 0, 1024)) = va;
    *reinterpret_cast<uint4*>(sb + kmajor_chunk(r, kc, 0, 128, 1024)) = vb;
  }
  smem_to_async_proxy();
  float acc[32];
  for (int i = 0; i < 32; ++i) acc[i] = 0.f;
  wgmma_fence();
#pragma unroll
  for (uint32_t s = 0; s < 4; ++s) {
    const uint64_t da = gmma_desc(sa + 32 * s, 16, 1024, kSw128);
    const uint64_t db = gmma_desc(sb + 256 * s, 128, 1024, kSwNone);
    asm volatile(
        "{ .reg .pred p; setp.ne.b32 p, %34, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, %32, %33, p, 1, 1, 0, 0; }"
        : "+f"(acc[0]), "+f"(acc[1]), "+f"(acc[2]), "+f"(acc[3]), "+f"(acc[4]), "+f"(acc[5]), "+f"(acc[6]), "+f"(acc[7]), "+f"(acc[8]), "+f"(acc[9]), "+f"(acc[10]), "+f"(acc[11]), "+f"(acc[12]), "+f"(acc[13]), "+f"(acc[14]), "+f"(acc[15]), "+f"(acc[16]), "+f"(acc[17]), "+f"(acc[18]), "+f"(acc[19]), "+f"(acc[20]), "+f"(acc[21]), "+f"(acc[22]), "+f"(acc[23]), "+f"(acc[24]), "+f"(acc[25]), "+f"(acc[26]), "+f"(acc[27]), "+f"(acc[28]), "+f"(acc[29]), "+f"(acc[30]), "+f"(acc[31])
        : "l"(da), "l"(db), "r"(s));
  }
  wgmma_commit();
  wgmma_wait0();
  for (uint32_t i = 0; i < 32; ++i) d[tile * 4096 + frag_row(tid, i) * 64 + frag_col(tid, i)] = acc[i];
}
