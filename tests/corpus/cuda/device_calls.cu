// Device function calls: __noinline__ functions (real CALL/RET with an ABI), a recursive
// function (needs a stack), and an inlined helper. FRONTENDS: nvcc clang
__device__ __noinline__ float poly(float x, float a, float b, float c) { return (a * x + b) * x + c; }

__device__ __noinline__ int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

__device__ __forceinline__ int clamp_idx(int i, int n) { return i < 0 ? 0 : (i >= n ? n - 1 : i); }

__global__ void calls(const float *x, float *y, int *z, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  y[i] = poly(x[clamp_idx(i - 1, n)], 1.0f, 2.0f, 3.0f) + poly(x[i], 0.5f, -1.0f, 0.0f);
  z[i] = fib(i & 15);
}
