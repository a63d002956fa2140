// More atomics: 64-bit integer add and CAS, double add, unsigned long long max, atomicInc /
// atomicDec wrap-around, and shared-memory CAS/min/max/and/or/xor.
extern "C" __global__ void atomics2(const int* in, unsigned long long* g64, double* gd, unsigned* ginc,
                                    int* out, int n) {
  __shared__ int smin, smax, sand, sor, sxor, scas;
  int t = threadIdx.x;
  if (t == 0) { smin = 1 << 30; smax = -(1 << 30); sand = -1; sor = 0; sxor = 0; scas = 0; }
  __syncthreads();
  int i = blockIdx.x * blockDim.x + t;
  if (i < n) {
    int v = in[i];
    atomicAdd(&g64[0], (unsigned long long)v * 1000000007ull);
    atomicMax(&g64[1], (unsigned long long)v << 20);
    unsigned long long old = g64[2], assumed;
    do {
      assumed = old;
      old = atomicCAS(&g64[2], assumed, assumed + (unsigned long long)v);
    } while (old != assumed);
    atomicAdd(gd, (double)v * 0.25);
    atomicInc(&ginc[0], 9u);
    atomicDec(&ginc[1], 5u);
    atomicMin(&smin, v - 500);
    atomicMax(&smax, v - 500);
    atomicAnd(&sand, ~(1 << (v & 15)));
    atomicOr(&sor, 1 << (v & 31));
    atomicXor(&sxor, v);
    int o = scas, a;
    do {
      a = o;
      o = atomicCAS(&scas, a, a + 1);
    } while (o != a);
  }
  __syncthreads();
  if (t == 0) {
    int* p = out + blockIdx.x * 6;
    p[0] = smin; p[1] = smax; p[2] = sand; p[3] = sor; p[4] = sxor; p[5] = scas;
  }
}
