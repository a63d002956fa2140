// Vector and cached memory accesses: 16-byte and 8-byte loads/stores through aligned structs,
// __restrict__ read-only pointers (LDG.CONSTANT), and 8/16-bit loads. FRONTENDS: nvcc clang
struct alignas(16) F4 { float x, y, z, w; };
struct alignas(8) I2 { int a, b; };
__global__ void vec_mem(const F4 *__restrict__ a, const I2 *__restrict__ b,
                        const unsigned char *__restrict__ bytes, const short *__restrict__ shorts,
                        F4 *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  F4 v = a[i];
  I2 w = b[i];
  float s = (float)bytes[i] + (float)shorts[i];
  out[i] = F4{v.x + (float)w.a, v.y + (float)w.b, v.z * s, v.w};
}
