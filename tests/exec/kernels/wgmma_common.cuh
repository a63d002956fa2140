// wgmma_common.cuh - helpers of the warpgroup-MMA exec tests (wgmma_*.cu, issue 19), written
// from the PTX ISA's "Matrix Descriptor Format" and "Shared Memory Matrix Layout" (public):
// descriptors, the canonical shared-memory layouts (16-byte chunks), mbarrier + bulk copy, and
// the accumulator fragment's coordinates. The emulator's model of the same facts is
// emu/ops_gmma.cpp; ptxas's cubins on the emulator and (when lent) a GPU check both.
#pragma once
#include <cstdint>

__device__ __forceinline__ uint32_t smem_u32(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

// Swizzle codes of the descriptor's bits 62-63 and their widths in bytes.
enum : uint32_t { kSwNone = 0, kSw128 = 1, kSw64 = 2, kSw32 = 3 };

// The 64-bit matrix descriptor: start address, LBO, SBO (bytes, 16-byte aligned), swizzle.
__device__ __forceinline__ uint64_t gmma_desc(const void* p, uint32_t lbo, uint32_t sbo, uint32_t swz) {
  return uint64_t((smem_u32(p) & 0x3ffff) >> 4) | uint64_t((lbo & 0x3ffff) >> 4) << 16 |
         uint64_t((sbo & 0x3ffff) >> 4) << 32 | uint64_t(swz) << 62;
}

// The swizzled byte offset inside a tile whose base is aligned to 1024 bytes: the 16-byte chunk
// bits [4, 4+b) XOR bits [7, 7+b), b = log2(S / 16) for swizzle width S (0 = none).
__device__ __forceinline__ uint32_t swizzle(uint32_t off, uint32_t S) {
  return S ? off ^ (((off >> 7) & (S / 16 - 1)) << 4) : off;
}

// K-major operand (rows i = m of A or n of B, each row's K bytes contiguous in global memory):
// the byte offset of the 16-byte chunk c (K bytes 16c..16c+15) of row i.
//   S = 0: 8x16-byte core matrices; LBO between K neighbours, SBO between groups of 8 rows.
//   S > 0: rows of S bytes (c < S / 16), SBO between groups of 8 rows, LBO unused.
__device__ __forceinline__ uint32_t kmajor_chunk(uint32_t i, uint32_t c, uint32_t S, uint32_t lbo, uint32_t sbo) {
  if (S == 0) return (i / 8) * sbo + c * lbo + (i % 8) * 16;
  return swizzle((i / 8) * sbo + (i % 8) * S + c * 16, S);
}

// MN-major operand (for each k, the MN elements contiguous): the byte offset of the 16-byte
// chunk c (MN bytes 16c..16c+15) of k-row k.
//   S = 0: core matrices of 8 k-rows x 16 bytes; SBO between MN neighbours, LBO between
//          groups of 8 k.
//   S > 0: k-rows of S bytes; LBO between S-byte MN blocks, SBO between groups of 8 k.
__device__ __forceinline__ uint32_t mnmajor_chunk(uint32_t k, uint32_t c, uint32_t S, uint32_t lbo, uint32_t sbo) {
  if (S == 0) return c * sbo + (k / 8) * lbo + (k % 8) * 16;
  uint32_t per = S / 16;
  return swizzle((c / per) * lbo + (k / 8) * sbo + (k % 8) * S + (c % per) * 16, S);
}

// Accumulator element i of this thread (32-bit accumulators): its row and column in the 64xN
// tile of the warpgroup (PTX ISA, wgmma "Register Fragments", matrix D).
__device__ __forceinline__ uint32_t frag_row(uint32_t tid, uint32_t i) {
  return (tid / 32 % 4) * 16 + (tid % 32) / 4 + 8 * (i / 2 % 2);
}
__device__ __forceinline__ uint32_t frag_col(uint32_t tid, uint32_t i) {
  return 8 * (i / 4) + 2 * (tid % 4) + i % 2;
}

__device__ __forceinline__ void mbar_init(uint32_t bar, uint32_t count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(bar), "r"(count) : "memory");
}
__device__ __forceinline__ void mbar_expect_tx(uint32_t bar, uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar), "r"(bytes) : "memory");
}
__device__ __forceinline__ void mbar_wait(uint32_t bar, uint32_t parity) {
  uint32_t done;
  do {
    asm volatile(
        "{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
        : "=r"(done)
        : "r"(bar), "r"(parity)
        : "memory");
  } while (!done);
}
// cp.async.bulk global -> shared, completing `bytes` transaction bytes on `bar`.
__device__ __forceinline__ void bulk_load(uint32_t dst, const void* src, uint32_t bytes, uint32_t bar) {
  asm volatile(
      "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(dst),
      "l"(src), "r"(bytes), "r"(bar)
      : "memory");
}
// Generic-proxy shared-memory writes made visible to the async proxy (wgmma reads), then a CTA
// barrier.
__device__ __forceinline__ void smem_to_async_proxy() {
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
}
__device__ __forceinline__ void wgmma_fence() { asm volatile("wgmma.fence.sync.aligned;" ::: "memory"); }
__device__ __forceinline__ void wgmma_commit() { asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory"); }
__device__ __forceinline__ void wgmma_wait0() { asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory"); }
