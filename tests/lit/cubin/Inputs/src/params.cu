// Kernels whose parameters differ in size, alignment and count (KPARAM_INFO, CBANK_PARAM_SIZE).
struct __align__(16) Big { float v[8]; int n; };
__global__ void saxpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
__global__ void mixed(char c, short s, double d, Big b, long long l, float *out) {
  out[threadIdx.x] = c + s + (float)d + b.v[threadIdx.x & 7] + b.n + (float)l;
}
__global__ void noparams() {}
