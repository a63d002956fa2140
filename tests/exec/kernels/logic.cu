// Logic and shifts: and/or/xor/not, variable shifts (logical, arithmetic), funnel shifts,
// popc/clz/brev/ffs, byte permute, bitfield extract/insert and a 64-bit shift of a product.
extern "C" __global__ void logic(const unsigned* a, const unsigned* b, unsigned* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned x = a[i], y = b[i], s = y & 31;
  unsigned* o = out + i * 16;
  o[0] = x & y;
  o[1] = x | ~y;
  o[2] = x ^ y;
  o[3] = x << s;
  o[4] = x >> s;
  o[5] = (unsigned)((int)x >> s);
  o[6] = __funnelshift_l(x, y, y & 63);
  o[7] = __funnelshift_rc(x, y, y & 63);
  o[8] = __popc(x);
  o[9] = __clz(x & y);
  o[10] = __brev(x);
  o[11] = __byte_perm(x, y, y & 0x7777);
  o[12] = __ffs(x & ~y);
  o[13] = (x >> 5) & 0x3ff;
  o[14] = (x & ~0xff0u) | ((y << 4) & 0xff0u);
  o[15] = (unsigned)(((unsigned long long)x * y) >> (s + 7));
}
