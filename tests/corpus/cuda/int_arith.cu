// Integer arithmetic, 32 and 64 bit, signed and unsigned: add/sub/mul, mul.hi, division and
// remainder (ptxas expands these into instruction sequences), shifts, bit operations, popc,
// clz, brev. FRONTENDS: nvcc clang
__global__ void int32_ops(const int *a, const int *b, int *out, unsigned *uout, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int x = a[i], y = b[i] | 1;
  unsigned ux = (unsigned)x, uy = (unsigned)y;
  out[8 * i + 0] = x + y * 3 - (x >> 2);
  out[8 * i + 1] = x / y;
  out[8 * i + 2] = x % y;
  out[8 * i + 3] = __mulhi(x, y) ^ (x << (y & 31));
  out[8 * i + 4] = __popc(ux) + __clz(x);
  out[8 * i + 5] = (int)__brev(ux) & ~y;
  uout[4 * i + 0] = ux / uy;
  uout[4 * i + 1] = ux % uy;
  uout[4 * i + 2] = __umulhi(ux, uy) + (ux >> (uy & 31));
  uout[4 * i + 3] = ux * 7u + 13u;
}

__global__ void int64_ops(const long long *a, const long long *b, long long *out,
                          unsigned long long *uout, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  long long x = a[i], y = b[i] | 1;
  out[3 * i + 0] = x * y + (x >> 7);
  out[3 * i + 1] = x / y;
  out[3 * i + 2] = x % y;
  uout[i] = (unsigned long long)x / (unsigned long long)y + ((unsigned long long)x << 3);
}
