// PTX bit-field extract/insert (bfe.u32, bfe.s32 with variable and constant fields, bfi.b32),
// which ptxas 13.0 lowers to SHF/SGXT/BMSK/PRMT/LOP3 sequences.
extern "C" __global__ void bitfield(const unsigned* a, const unsigned* b, unsigned* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned x = a[i], y = b[i], pos = y & 31, len = (y >> 5) & 31;
  unsigned r0, r1, r2;
  int s0;
  asm("bfe.u32 %0, %1, %2, %3;" : "=r"(r0) : "r"(x), "r"(pos), "r"(len));
  asm("bfe.s32 %0, %1, %2, %3;" : "=r"(s0) : "r"(x), "r"(pos), "r"(len));
  asm("bfi.b32 %0, %1, %2, %3, %4;" : "=r"(r1) : "r"(y), "r"(x), "r"(pos), "r"(len));
  asm("bfe.s32 %0, %1, 3, 7;" : "=r"(r2) : "r"(x));
  unsigned* o = out + i * 4;
  o[0] = r0; o[1] = (unsigned)s0; o[2] = r1; o[3] = r2;
}
