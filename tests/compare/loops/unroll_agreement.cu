extern "C" __global__ void l_sum8(const float *a, float *o) {
  float s = 0.f;
  for (int i = 0; i < 8; ++i) s += a[threadIdx.x * 8 + i];
  o[threadIdx.x] = s;
}
extern "C" __global__ void l_sum4(const int *a, int *o) {
  int s = 0;
  for (int i = 0; i < 4; ++i) s ^= a[threadIdx.x + i * 32];
  o[threadIdx.x] = s;
}
extern "C" __global__ void l_sum32(const float *a, float *o) {
  float s = 0.f;
  for (int i = 0; i < 32; ++i) s += a[threadIdx.x + i * 128];
  o[threadIdx.x] = s;
}
extern "C" __global__ void l_sum100(const float *a, float *o) {
  float s = 0.f;
  for (int i = 0; i < 100; ++i) s = s * 1.5f + a[threadIdx.x + i * 128];
  o[threadIdx.x] = s;
}
extern "C" __global__ void l_sum1000(const float *a, float *o) {
  float s = 0.f;
  for (int i = 0; i < 1000; ++i) s += a[threadIdx.x + i * 128];
  o[threadIdx.x] = s;
}
extern "C" __global__ void l_varn(const float *a, float *o, int n) {
  float s = 0.f;
  for (int i = 0; i < n; ++i) s += a[threadIdx.x + i * 128];
  o[threadIdx.x] = s;
}
extern "C" __global__ void l_poly16(const float *a, float *o) {
  float x = a[threadIdx.x], s = 0.f;
  for (int i = 0; i < 16; ++i) s = s * x + (float)i;
  o[threadIdx.x] = s;
}
extern "C" __global__ void l_int64(unsigned *o) {
  unsigned h = threadIdx.x;
  for (int i = 0; i < 64; ++i) h = h * 31u + (h >> 3);
  o[threadIdx.x] = h;
}
extern "C" __global__ void l_nested(const float *a, float *o) {
  float s = 0.f;
  for (int j = 0; j < 4; ++j)
    for (int i = 0; i < 4; ++i) s += a[threadIdx.x + (j * 4 + i) * 128];
  o[threadIdx.x] = s;
}
extern "C" __global__ void l_shfl(float *o) {
  float v = o[threadIdx.x];
  for (int i = 16; i > 0; i >>= 1) v += __shfl_xor_sync(0xffffffff, v, i);
  o[threadIdx.x] = v;
}
extern "C" __global__ void l_big_body(const float *a, float *o) {
  float s = 0.f, t = 1.f;
  for (int i = 0; i < 12; ++i) {
    float v = a[threadIdx.x + i * 128];
    s += v * v; t = t * v + s; s = s * 0.5f + t * 0.25f; t -= __fdividef(s, v + 3.f);
  }
  o[threadIdx.x] = s + t;
}
extern "C" __global__ void l_step3(int *o) {
  int s = 0;
  for (int i = 1; i < 40; i += 3) s += i * i;
  o[threadIdx.x] = s;
}
extern "C" __global__ void m_t3(const int *a, int *o) {
  int s = 0;
  for (int i = 0; i < 3; ++i) s += a[threadIdx.x * 3 + i] * (i + 1);
  o[threadIdx.x] = s;
}
extern "C" __global__ void m_t7(const float *a, float *o) {
  float s = 1.f;
  for (int i = 0; i < 7; ++i) s *= a[threadIdx.x + 64 * i];
  o[threadIdx.x] = s;
}
extern "C" __global__ void m_t256(const float *a, float *o) {
  float s = 0.f;
  for (int i = 0; i < 256; ++i) s += a[threadIdx.x + 64 * i];
  o[threadIdx.x] = s;
}
extern "C" __global__ void m_down(const int *a, int *o) {
  int s = 0;
  for (int i = 20; i > 0; i -= 2) s += a[threadIdx.x + i];
  o[threadIdx.x] = s;
}
extern "C" __global__ void m_bar(float *o) {
  __shared__ float sh[256];
  float v = o[threadIdx.x];
  for (int i = 0; i < 4; ++i) { sh[threadIdx.x] = v; __syncthreads(); v += sh[(threadIdx.x + 1) & 255]; __syncthreads(); }
  o[threadIdx.x] = v;
}
extern "C" __global__ void m_while(const int *a, int *o) {
  int i = threadIdx.x, n = 0;
  while (a[i] != 0) { i += 32; ++n; }
  o[threadIdx.x] = n;
}
extern "C" __global__ void m_cond(const int *a, int *o) {
  int s = 0;
  for (int i = 0; i < 8; ++i) { int v = a[threadIdx.x + 32 * i]; if (v > 3) s += v; else s -= 1; }
  o[threadIdx.x] = s;
}
extern "C" __global__ void m_bits(unsigned *o) {
  unsigned x = o[threadIdx.x], c = 0;
  for (int i = 0; i < 32; ++i) c += (x >> i) & 1;
  o[threadIdx.x] = c;
}
extern "C" __global__ void m_varstep(const float *a, float *o, int n) {
  float s = 0.f;
  for (int i = threadIdx.x; i < n; i += blockDim.x) s += a[i];
  o[threadIdx.x] = s;
}
extern "C" __global__ void m_mat4(const float *a, const float *b, float *c) {
  float acc = 0.f;
  for (int k = 0; k < 16; ++k) acc += a[threadIdx.y * 16 + k] * b[k * 16 + threadIdx.x];
  c[threadIdx.y * 16 + threadIdx.x] = acc;
}
// Added for issue 17 (remainders, run-time counts, several blocks): more loop shapes.
extern "C" __global__ void v_le(const float *a, float *o, int n) {
  float s = 0.f;
  for (int i = 0; i <= n; ++i) s += a[threadIdx.x + i * 128];
  o[threadIdx.x] = s;
}
extern "C" __global__ void v_down(const float *a, float *o, int n) {
  float s = 0.f;
  for (int i = n; i > 0; --i) s += a[threadIdx.x + i * 128];
  o[threadIdx.x] = s;
}
extern "C" __global__ void v_step2(const float *a, float *o, int n) {
  float s = 0.f;
  for (int i = 0; i < n; i += 2) s += a[threadIdx.x + i * 128];
  o[threadIdx.x] = s;
}
extern "C" __global__ void v_u32(const float *a, float *o, unsigned n) {
  float s = 0.f;
  for (unsigned i = 0; i < n; ++i) s += a[threadIdx.x + i * 128];
  o[threadIdx.x] = s;
}
extern "C" __global__ void v_ne(const float *a, float *o, int n) {
  float s = 0.f;
  for (int i = 0; i != n; ++i) s += a[threadIdx.x + i * 128];
  o[threadIdx.x] = s;
}
extern "C" __global__ void v_i64(const float *a, float *o, long long n) {
  float s = 0.f;
  for (long long i = 0; i < n; ++i) s += a[threadIdx.x + i * 128];
  o[threadIdx.x] = s;
}
extern "C" __global__ void v_ptr(const float *a, const float *e, float *o) {
  float s = 0.f;
  for (const float *p = a; p < e; ++p) s += *p;
  o[threadIdx.x] = s;
}
extern "C" __global__ void v_nested(const float *a, float *o, int n) {
  float s = 0.f;
  for (int j = 0; j < 8; ++j)
    for (int i = 0; i < n; ++i) s += a[threadIdx.x + (j * n + i) * 128];
  o[threadIdx.x] = s;
}
extern "C" __global__ void v_cond(const int *a, int *o, int n) {
  int s = 0;
  for (int i = 0; i < n; ++i) { int v = a[threadIdx.x + 32 * i]; if (v > 3) s += v * v; else s -= v >> 1; }
  o[threadIdx.x] = s;
}
extern "C" __global__ void v_start(const float *a, float *o, int lo, int hi) {
  float s = 0.f;
  for (int i = lo; i < hi; ++i) s += a[threadIdx.x + i * 128];
  o[threadIdx.x] = s;
}
extern "C" __global__ void k_t37(const float *a, float *o) {
  float s = 0.f, t = 0.f;
  for (int i = 0; i < 37; ++i) { float v = a[threadIdx.x + i * 128]; s += v * t; t = t * 0.5f + v; }
  o[threadIdx.x] = s + t;
}
extern "C" __global__ void k_t1001(const float *a, float *o) {
  float s = 0.f;
  for (int i = 0; i < 1001; ++i) s += a[threadIdx.x + i * 128];
  o[threadIdx.x] = s;
}
extern "C" __global__ void k_step4(const float *a, float *o) {
  float s = 0.f;
  for (int i = 0; i < 1000; i += 4) s += a[threadIdx.x + i * 32];
  o[threadIdx.x] = s;
}
extern "C" __global__ void k_down(const float *a, float *o) {
  float s = 0.f;
  for (int i = 99; i >= 0; --i) s = s * 0.75f + a[threadIdx.x + i * 128];
  o[threadIdx.x] = s;
}
extern "C" __global__ void k_i64(const float *a, float *o) {
  float s = 0.f;
  for (long long i = 0; i < 300; ++i) s += a[threadIdx.x + i * 128];
  o[threadIdx.x] = s;
}
extern "C" __global__ void k_nest2(const float *a, float *o) {
  float s = 0.f;
  for (int j = 0; j < 10; ++j)
    for (int i = 0; i < 30; ++i) s += a[threadIdx.x + (j * 30 + i) * 128];
  o[threadIdx.x] = s;
}
extern "C" __global__ void v_mb(const int *a, int *o, int n) {
  int s = 0;
  for (int i = 0; i < n; ++i) { int v = a[threadIdx.x + 32 * i]; if (v > 3) o[threadIdx.x + 32 * i] = v; s += v; }
  o[threadIdx.x] = s;
}
extern "C" __global__ void k_mb(const int *a, int *o) {
  int s = 0;
  for (int i = 0; i < 8; ++i) { int v = a[threadIdx.x + 32 * i]; if (v > 3) o[threadIdx.x + 32 * i] = v; s += v; }
  o[threadIdx.x] = s;
}
extern "C" __global__ void k_break(const int *a, int *o) {
  int s = 0;
  for (int i = 0; i < 16; ++i) { int v = a[threadIdx.x + 32 * i]; if (v == 0) break; s += v; }
  o[threadIdx.x] = s;
}
extern "C" __global__ void v_break(const int *a, int *o, int n) {
  int s = 0;
  for (int i = 0; i < n; ++i) { int v = a[threadIdx.x + 32 * i]; if (v == 0) break; s += v; }
  o[threadIdx.x] = s;
}
extern "C" __global__ void k_t10(const float *a, float *o) {
  float s = 0.f;
  for (int i = 0; i < 10; ++i) s = s * a[threadIdx.x + i * 128] + 1.0f;
  o[threadIdx.x] = s;
}
// w_*: 64-bit counters with other compares, steps and starts, pointer bounds computed in the
// kernel, constant 64-bit counts on both sides of full unrolling, and two more 32-bit shapes.
extern "C" __global__ void w_i64_le(const float *a, float *o, long long n) {
  float s = 0.f;
  for (long long i = 0; i <= n; ++i) s += a[threadIdx.x + i * 128];
  o[threadIdx.x] = s;
}
extern "C" __global__ void w_i64_down(const float *a, float *o, long long n) {
  float s = 0.f;
  for (long long i = n; i > 0; --i) s += a[threadIdx.x + i * 128];
  o[threadIdx.x] = s;
}
extern "C" __global__ void w_i64_step2(const float *a, float *o, long long n) {
  float s = 0.f;
  for (long long i = 0; i < n; i += 2) s += a[threadIdx.x + i * 128];
  o[threadIdx.x] = s;
}
extern "C" __global__ void w_u64(const float *a, float *o, unsigned long long n) {
  float s = 0.f;
  for (unsigned long long i = 0; i < n; ++i) s += a[threadIdx.x + i * 128];
  o[threadIdx.x] = s;
}
extern "C" __global__ void w_i64_start(const float *a, float *o, long long lo, long long hi) {
  float s = 0.f;
  for (long long i = lo; i < hi; ++i) s += a[threadIdx.x + i * 128];
  o[threadIdx.x] = s;
}
extern "C" __global__ void w_i64_k40(const float *a, float *o) {
  float s = 0.f;
  for (long long i = 0; i < 40; ++i) s += a[threadIdx.x + i * 128];
  o[threadIdx.x] = s;
}
extern "C" __global__ void w_i64_k700(const float *a, float *o) {
  float s = 0.f;
  for (long long i = 0; i < 700; ++i) s += a[threadIdx.x + i * 128];
  o[threadIdx.x] = s;
}
extern "C" __global__ void w_ptr_n(const float *a, float *o, int n) {
  float s = 0.f;
  for (const float *p = a + threadIdx.x, *e = a + threadIdx.x + 128 * (long long)n; p < e; p += 128) s += *p;
  o[threadIdx.x] = s;
}
extern "C" __global__ void w_down2(const float *a, float *o, int n) {
  float s = 0.f;
  for (int i = n; i > 0; i -= 2) s += a[threadIdx.x + i * 128];
  o[threadIdx.x] = s;
}
extern "C" __global__ void w_k17(const float *a, float *o) {
  float s = 0.f;
  for (int i = 0; i < 17; ++i) s += a[threadIdx.x + i * 128] * a[i];
  o[threadIdx.x] = s;
}
