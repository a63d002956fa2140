// Integer arithmetic: 32-bit add/sub/mul/mulhi/div/rem (signed and unsigned), min/max/abs,
// and 64-bit mul/div/rem/mulhi/shift (64-bit division goes through ptxas's slow-path call).
extern "C" __global__ void int_arith(const int* a, const int* b, int* out, long long* out64, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int x = a[i], y = b[i];
  unsigned ux = x, uy = y;
  int* o = out + i * 12;
  o[0] = x + y;
  o[1] = x - y;
  o[2] = x * y;
  o[3] = __mulhi(x, y);
  o[4] = __umulhi(ux, uy);
  o[5] = y != 0 ? x / y : 0;
  o[6] = y != 0 ? x % y : 0;
  o[7] = uy ? ux / uy : 0;
  o[8] = uy ? ux % uy : 0;
  o[9] = min(x, y);
  o[10] = max(ux, uy);
  o[11] = abs(x);
  long long X = (long long)x * 123456789LL + y, Y = ((long long)y << 20) | 1;
  long long* p = out64 + i * 6;
  p[0] = X * Y;
  p[1] = X / Y;
  p[2] = X % Y;
  p[3] = (long long)((unsigned long long)X / (unsigned long long)Y);
  p[4] = __mul64hi(X, Y);
  p[5] = X >> (y & 63);
}
