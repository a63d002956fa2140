// Local arrays (stack frame), non-inlined device functions, recursion (FRAME_SIZE,
// MIN/MAX_STACK_SIZE, CRS_STACK_SIZE, .nv.callgraph, .debug_frame for callees).
__device__ __noinline__ float helper(float a, float b, int n) {
  float s = 0;
  for (int i = 0; i < n; i++) s += a * b + i;
  return s;
}
__device__ __noinline__ int fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }
__global__ void localarr(int *out, int k) {
  int a[64];
  for (int i = 0; i < 64; i++) a[i] = i * k;
  out[threadIdx.x] = a[(threadIdx.x * k) & 63] + (int)helper(1.f, 2.f, k);
}
__global__ void recur(int *out, int n) { out[threadIdx.x] = fact(n + threadIdx.x); }
