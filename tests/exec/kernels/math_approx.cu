// Math library and fast intrinsics: MUFU-based __expf/__logf/__sinf/__cosf/rsqrtf and the
// full-precision expf/logf/sinf/cosf/exp2f/tanhf (compared with a tolerance).
extern "C" __global__ void math_approx(const float* a, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float x = a[i];
  float* o = out + i * 10;
  o[0] = __expf(x);
  o[1] = __logf(fabsf(x) + 1.0f);
  o[2] = __sinf(x);
  o[3] = __cosf(x);
  o[4] = rsqrtf(fabsf(x) + 0.5f);
  o[5] = expf(x);
  o[6] = logf(fabsf(x) + 0.25f);
  o[7] = sinf(x);
  o[8] = cosf(x) + exp2f(x);
  o[9] = tanhf(x);
}
