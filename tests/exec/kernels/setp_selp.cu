// Comparisons and selects: every float comparison including NaN operands (ordered and
// unordered forms), signed/unsigned integer compares, and selects on their results.
extern "C" __global__ void setp_selp(const float* a, const float* b, const int* c, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int k = c[i];
  float x = (k % 7 == 0) ? __int_as_float(0x7fc00000) : a[i];
  float y = (k % 5 == 0) ? x : b[i];
  int r = 0;
  r |= (x < y) << 0;
  r |= (x <= y) << 1;
  r |= (x == y) << 2;
  r |= (x != y) << 3;
  r |= (x > y) << 4;
  r |= (x >= y) << 5;
  r |= isnan(x) << 6;
  r |= !(x < y) << 7;
  r |= (k < 0) << 8;
  r |= ((unsigned)k > 1000u) << 9;
  r |= (k == 7) << 10;
  r |= (k >= -3) << 11;
  out[i * 3] = r;
  out[i * 3 + 1] = x < y ? k : -k;
  out[i * 3 + 2] = __float_as_int(k > 0 ? x : y);
}
