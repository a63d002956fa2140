// Integer min/max patterns that ptxas fuses with an add (VIADDMNMX) or keeps separate
// (VIMNMX), signed and unsigned, plus a clamp. o[6..8] are the shapes ptxas 13.0 turns into
// VIADDMNMX (min/max of a sum and a third value).
extern "C" __global__ void minmax(const int* a, const int* b, const int* c, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int x = a[i], y = b[i], z = c[i];
  unsigned ux = x, uy = y, uz = z;
  int* o = out + i * 9;
  o[0] = min(x + y, z);
  o[1] = max(x - y, z);
  o[2] = (int)min(ux - uy, uz);
  o[3] = (int)max(ux + uy, uz);
  o[4] = min(max(x, -100), 100);
  o[5] = (int)min(ux, uy);
  o[6] = (int)min(ux - uy, uy);
  o[7] = max(x + y, y * 3);
  o[8] = (int)min(ux + 5, uz);
}
