// Calls to non-inlined device functions: a recursive factorial (stack frames through R1) and
// a float function with several arguments.
__device__ __noinline__ int fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }
__device__ __noinline__ float poly(float x, float a, float b, float c) { return (a * x + b) * x + c; }
extern "C" __global__ void device_call(const int* in, int* out, float* fo, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  out[i] = fact(in[i] % 12);
  fo[i] = poly((float)in[i], 0.5f, -2.0f, 3.0f);
}
