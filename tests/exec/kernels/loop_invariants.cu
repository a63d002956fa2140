// Loops whose bodies hold code that does not change from one iteration to the next, for
// OriHoistInvariants (phases 35/66/79/88): the reciprocal sequence of an integer division
// or remainder by a loop-invariant divisor (one PTX instruction, so NVVM cannot hoist any
// part of it; the lowering expands it and LICM moves the divisor-only half out), a nested
// loop whose invariant changes with the outer loop, a divergent trip count, and a loop
// left by `break`. The values must be the same wherever the code ends up.
extern "C" __global__ void loop_invariants(int *out, const int *in, int n, int d, unsigned ud) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int a = 0;
#pragma unroll 1
  for (int i = 0; i < n; ++i)
    a += in[(t + i) % 64] / d;
  unsigned b = 0;
#pragma unroll 1
  for (int j = 0; j < (t & 3) + 1; ++j) {
#pragma unroll 1
    for (int i = 0; i < n; ++i)
      b += (unsigned)in[(i * 7 + j) % 64] % ud + j * ud;
  }
  float f = 0.f;
#pragma unroll 1
  for (int i = 0; i < n; ++i) {
    if (in[(t + i) % 64] > 900)
      break;
    f += (float)in[(t + i) % 64] / (float)d;
  }
  out[3 * t] = a;
  out[3 * t + 1] = (int)b;
  out[3 * t + 2] = (int)(f * 16.f);
}
