// Kernel parameter layout: mixed scalar sizes and alignments (char, short, int, double,
// pointer), a struct passed by value, and an over-aligned struct. Drives KPARAM_INFO,
// CBANK_PARAM_SIZE and the constant bank 0 size. FRONTENDS: nvcc clang
struct Small { char c; int i; short s; };
struct alignas(16) Vec4 { float x, y, z, w; };
struct Big { int v[12]; double d; };

__global__ void many_params(char c, short s, int i, double d, float *p, Small sm, Vec4 v,
                            Big big, unsigned long long u, float *q) {
  float r = (float)c + (float)s + (float)i + (float)d + v.x * v.w + (float)sm.i + (float)sm.s;
  r += (float)big.v[threadIdx.x % 12] + (float)big.d + (float)u;
  p[threadIdx.x] = r;
  q[threadIdx.x] = (float)sm.c;
}

__global__ void no_params() {}
