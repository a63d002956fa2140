// A pointer to a local array passed to a non-inlined function: the callee dereferences a
// generic address in the local window (built from R1 and c[0x0][0x20..0x24]), and the same
// function is called with a global pointer.
__device__ __noinline__ int weighted_sum(const int* p, int n) {
  int s = 0;
  for (int i = 0; i < n; i++) s += p[i] * (i + 1);
  return s;
}
extern "C" __global__ void local_generic(const int* in, int* out) {
  int a[8];
  for (int i = 0; i < 8; i++) a[i] = in[threadIdx.x + i] * 3;
  out[threadIdx.x] = weighted_sum(a, 8) + weighted_sum(in, 4);
}
