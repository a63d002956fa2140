// clang_prelude.h: the few CUDA names the project's own test programs use, for clang's CUDA
// front end run with -nocudainc.
//
// Why: Debian's clang-19 cannot include CUDA 13's headers (its runtime wrapper wants
// texture_fetch_functions.h, which CUDA 13 no longer ships), so the clang build of
// tests/corpus/cuda/*.cu uses `-nocudainc -include clang_prelude.h` instead. Each name maps
// onto a clang NVPTX builtin; nothing here is copied from CUDA's or clang's headers. Files that
// need more (cuda_fp16.h, libdevice math, cooperative groups) say `FRONTENDS: nvcc`.
#pragma once
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __host__ __attribute__((host))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __noinline__ __attribute__((noinline))
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#include <__clang_cuda_builtin_vars.h>

static __device__ __forceinline__ int __shfl_sync(unsigned m, int v, int l) { return __nvvm_shfl_sync_idx_i32(m, v, l, 0x1f); }
static __device__ __forceinline__ float __shfl_sync(unsigned m, float v, int l) { return __nvvm_shfl_sync_idx_f32(m, v, l, 0x1f); }
static __device__ __forceinline__ int __shfl_down_sync(unsigned m, int v, unsigned d) { return __nvvm_shfl_sync_down_i32(m, v, d, 0x1f); }
static __device__ __forceinline__ float __shfl_down_sync(unsigned m, float v, unsigned d) { return __nvvm_shfl_sync_down_f32(m, v, d, 0x1f); }
static __device__ __forceinline__ int __shfl_xor_sync(unsigned m, int v, int x) { return __nvvm_shfl_sync_bfly_i32(m, v, x, 0x1f); }
static __device__ __forceinline__ float __shfl_xor_sync(unsigned m, float v, int x) { return __nvvm_shfl_sync_bfly_f32(m, v, x, 0x1f); }
static __device__ __forceinline__ int __shfl_up_sync(unsigned m, int v, unsigned d) { return __nvvm_shfl_sync_up_i32(m, v, d, 0); }
static __device__ __forceinline__ unsigned __ballot_sync(unsigned m, int p) { return __nvvm_vote_ballot_sync(m, p); }
static __device__ __forceinline__ int __any_sync(unsigned m, int p) { return __nvvm_vote_any_sync(m, p); }
static __device__ __forceinline__ int __all_sync(unsigned m, int p) { return __nvvm_vote_all_sync(m, p); }
static __device__ __forceinline__ int __syncthreads_count(int p) { return __nvvm_bar0_popc(p); }
static __device__ __forceinline__ int __syncthreads_or(int p) { return __nvvm_bar0_or(p); }
static __device__ __forceinline__ int __syncthreads_and(int p) { return __nvvm_bar0_and(p); }
static __device__ __forceinline__ void __threadfence() { __nvvm_membar_gl(); }
static __device__ __forceinline__ void __threadfence_block() { __nvvm_membar_cta(); }
static __device__ __forceinline__ int __popc(unsigned x) { return __builtin_popcount(x); }
static __device__ __forceinline__ int __clz(int x) { return x == 0 ? 32 : __builtin_clz((unsigned)x); }
static __device__ __forceinline__ unsigned __brev(unsigned x) { return __builtin_bitreverse32(x); }
static __device__ __forceinline__ int __mulhi(int a, int b) { return (int)(((long long)a * b) >> 32); }
static __device__ __forceinline__ unsigned __umulhi(unsigned a, unsigned b) { return (unsigned)(((unsigned long long)a * b) >> 32); }
static __device__ __forceinline__ int atomicAdd(int *p, int v) { return __nvvm_atom_add_gen_i(p, v); }
static __device__ __forceinline__ float atomicAdd(float *p, float v) { return __nvvm_atom_add_gen_f(p, v); }
static __device__ __forceinline__ unsigned long long atomicAdd(unsigned long long *p, unsigned long long v) {
  return (unsigned long long)__nvvm_atom_add_gen_ll((long long *)p, (long long)v);
}
static __device__ __forceinline__ int atomicCAS(int *p, int c, int v) { return __nvvm_atom_cas_gen_i(p, c, v); }
static __device__ __forceinline__ int atomicMax(int *p, int v) { return __nvvm_atom_max_gen_i(p, v); }
static __device__ __forceinline__ int atomicMin(int *p, int v) { return __nvvm_atom_min_gen_i(p, v); }
static __device__ __forceinline__ int atomicExch(int *p, int v) { return __nvvm_atom_xchg_gen_i(p, v); }
static __device__ __forceinline__ float fmaf(float a, float b, float c) { return __builtin_fmaf(a, b, c); }
static __device__ __forceinline__ float sqrtf(float a) { return __nvvm_sqrt_rn_f(a); }
static __device__ __forceinline__ double sqrt(double a) { return __nvvm_sqrt_rn_d(a); }
static __device__ __forceinline__ float fabsf(float a) { return __builtin_fabsf(a); }
static __device__ __forceinline__ float fminf(float a, float b) { return __nvvm_fmin_f(a, b); }
static __device__ __forceinline__ float fmaxf(float a, float b) { return __nvvm_fmax_f(a, b); }
static __device__ __forceinline__ float rsqrtf(float a) { return __nvvm_rsqrt_approx_f(a); }
static __device__ __forceinline__ int min(int a, int b) { return a < b ? a : b; }
static __device__ __forceinline__ int max(int a, int b) { return a > b ? a : b; }
