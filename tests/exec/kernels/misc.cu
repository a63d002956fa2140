// Assorted families: generic (flat) pointers into shared memory with generic loads, stores and
// atomics, __threadfence, float/double rounding to integral values, double compares and
// min/max, clock64, and a loop whose bounds and loads are uniform across the warp.
extern "C" __global__ void misc(const float* f, const double* d, int* gi, float* of, double* od, int* oi, int k,
                                int n) {
  __shared__ int sh[64];
  int t = threadIdx.x;
  volatile int* p = (k & 1) ? sh : gi;
  p[t] = t * 3;
  __syncthreads();
  oi[t * 4 + 0] = p[t ^ 1];
  __syncthreads();
  atomicAdd((int*)p + (t & 7), 1);
  __threadfence();
  __syncthreads();
  oi[t * 4 + 1] = p[t & 7];
  float x = f[t];
  of[t * 4 + 0] = rintf(x);
  of[t * 4 + 1] = floorf(x);
  of[t * 4 + 2] = truncf(x);
  of[t * 4 + 3] = ceilf(x);
  double y = d[t];
  od[t * 3 + 0] = floor(y);
  od[t * 3 + 1] = y < 0.5 ? y : -y;
  od[t * 3 + 2] = fmax(y, 0.25);
  oi[t * 4 + 2] = clock64() > 0 ? 1 : 0;
  int acc = 0;
  for (int j = 0; j < n; j++) acc += (f[j] > x) ? j : -j;
  oi[t * 4 + 3] = acc;
}
