// Warp-specialized wgmma GEMM with setmaxnreg (issue 19): two warpgroups. Warpgroup 0, the
// producer, gives registers back (setmaxnreg.dec 40); its first warp loads two K stages of A
// (64x128 f16, row-major) and B (stored 64x128, N x K) straight into the 128-byte-swizzled
// K-major layout with one 16-byte cp.async.bulk per chunk (what a TMA tensor copy with the
// 128-byte swizzle produces; tensor maps are not modelled by the emulator), each stage
// completing 16 KiB of transaction bytes on its own mbarrier. Warpgroup 1, the consumer, takes
// registers (setmaxnreg.inc 232), waits for each stage in turn and issues four
// m64n64k16.f32.f16.f16 MMAs per stage (scale-d 0 on the very first), one commit group per
// stage, then waits for both and writes D (64x64 f32). Reference: runner/hopper_references.cpp
// (wgmma_ws).
#include "wgmma_common.cuh"

extern "C" __global__ void __launch_bounds__(256, 1) wgmma_ws(const uint8_t* a, const uint8_t* bt, float* d) {
  __shared__ __align__(1024) uint8_t sa[2][8192];
  __shared__ __align__(1024) uint8_t sb[2][8192];
  __shared__ __align__(8) uint64_t full[2];
  const uint32_t tid = threadIdx.x;
  if (tid == 0) {
    mbar_init(smem_u32(&full[0]), 1);
    mbar_init(smem_u32(&full[1]), 1);
  }
  __syncthreads();
  if (tid < 128) {
    asm volatile("setmaxnreg.dec.sync.aligned.u32 40;" ::: "memory");
    if (tid < 32) {
      for (uint32_t s = 0; s < 2; ++s) {
        const uint32_t bar = smem_u32(&full[s]);
        if (tid == 0) mbar_expect_tx(bar, 16384);
        __syncwarp();
        for (uint32_t c = tid; c < 512; c += 32) {
          const uint32_t r = c / 8, kc = c % 8, src = r * 256 + s * 128 + kc * 16;
          const uint32_t off = kmajor_chunk(r, kc, 128, 0, 1024);
          bulk_load(smem_u32(sa[s] + off), a + src, 16, bar);
          bulk_load(smem_u32(sb[s] + off), bt + src, 16, bar);
        }
      }
    }
    return;
  }
  asm volatile("setmaxnreg.inc.sync.aligned.u32 232;" ::: "memory");
  float acc[32];
  for (int i = 0; i < 32; ++i) acc[i] = 0.f;
#pragma unroll
  for (uint32_t s = 0; s < 2; ++s) {
    mbar_wait(smem_u32(&full[s]), 0);
    wgmma_fence();
#pragma unroll
    for (uint32_t k = 0; k < 4; ++k) {
      const uint64_t da = gmma_desc(sa[s] + 32 * k, 16, 1024, kSw128);
      const uint64_t db = gmma_desc(sb[s] + 32 * k, 16, 1024, kSw128);
      asm volatile(
          "{ .reg .pred p; setp.ne.b32 p, %34, 0;\n"
          "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, %32, %33, p, 1, 1, 0, 0; }"
          : "+f"(acc[0]), "+f"(acc[1]), "+f"(acc[2]), "+f"(acc[3]), "+f"(acc[4]), "+f"(acc[5]), "+f"(acc[6]), "+f"(acc[7]), "+f"(acc[8]), "+f"(acc[9]), "+f"(acc[10]), "+f"(acc[11]), "+f"(acc[12]), "+f"(acc[13]), "+f"(acc[14]), "+f"(acc[15]), "+f"(acc[16]), "+f"(acc[17]), "+f"(acc[18]), "+f"(acc[19]), "+f"(acc[20]), "+f"(acc[21]), "+f"(acc[22]), "+f"(acc[23]), "+f"(acc[24]), "+f"(acc[25]), "+f"(acc[26]), "+f"(acc[27]), "+f"(acc[28]), "+f"(acc[29]), "+f"(acc[30]), "+f"(acc[31])
          : "l"(da), "l"(db), "r"(s | k));
    }
    wgmma_commit();
  }
  wgmma_wait0();
  for (uint32_t i = 0; i < 32; ++i) d[frag_row(tid, i) * 64 + frag_col(tid, i)] = acc[i];
}
