// 16-bit integer PTX. The 16-bit operands are built from 32-bit inputs inside the inline
// PTX, bit by bit with setp/selp.b16/or.b16 (no cvt or 16-bit load involved), then given
// nonzero upper bits in the 32-bit register that holds them (h | h << 16: shl.b16 by 16 leaves
// them in ptxas-mini's register; PTX's value is unchanged), so every consumer that depends on
// the upper bits must extend first. Results leave as 32-bit values through mul.wide.u16 /
// .s16 by 1 (zero- / sign-extension). x and y start with every pair of 16-bit edge values.
// neg.s16 and abs.s16 leave through mul.wide.u16: ptxas 13.0 keeps -(-32768) = +32768 in the
// 32-bit register and its mul.wide.s16 then yields 32768, not PTX's -32768 (observed on the
// emulator; a ptxas quirk we do not test against).
// MK16 (the bit-by-bit construction) is regular text: edit it as a whole. Ten outputs per asm
// block; %10, %11, %12 are x, y, z.

#define MK16 \
  ".reg .b16 hx, hy, hz, hb, hr; .reg .b32 t, u; .reg .pred p, q; " \
  "mov.u16 hx, 0; " \
    "and.b32 t, %10, 1; setp.ne.u32 p, t, 0; selp.b16 hb, 1, 0, p; or.b16 hx, hx, hb; " \
    "and.b32 t, %10, 2; setp.ne.u32 p, t, 0; selp.b16 hb, 2, 0, p; or.b16 hx, hx, hb; " \
    "and.b32 t, %10, 4; setp.ne.u32 p, t, 0; selp.b16 hb, 4, 0, p; or.b16 hx, hx, hb; " \
    "and.b32 t, %10, 8; setp.ne.u32 p, t, 0; selp.b16 hb, 8, 0, p; or.b16 hx, hx, hb; " \
    "and.b32 t, %10, 16; setp.ne.u32 p, t, 0; selp.b16 hb, 16, 0, p; or.b16 hx, hx, hb; " \
    "and.b32 t, %10, 32; setp.ne.u32 p, t, 0; selp.b16 hb, 32, 0, p; or.b16 hx, hx, hb; " \
    "and.b32 t, %10, 64; setp.ne.u32 p, t, 0; selp.b16 hb, 64, 0, p; or.b16 hx, hx, hb; " \
    "and.b32 t, %10, 128; setp.ne.u32 p, t, 0; selp.b16 hb, 128, 0, p; or.b16 hx, hx, hb; " \
    "and.b32 t, %10, 256; setp.ne.u32 p, t, 0; selp.b16 hb, 256, 0, p; or.b16 hx, hx, hb; " \
    "and.b32 t, %10, 512; setp.ne.u32 p, t, 0; selp.b16 hb, 512, 0, p; or.b16 hx, hx, hb; " \
    "and.b32 t, %10, 1024; setp.ne.u32 p, t, 0; selp.b16 hb, 1024, 0, p; or.b16 hx, hx, hb; " \
    "and.b32 t, %10, 2048; setp.ne.u32 p, t, 0; selp.b16 hb, 2048, 0, p; or.b16 hx, hx, hb; " \
    "and.b32 t, %10, 4096; setp.ne.u32 p, t, 0; selp.b16 hb, 4096, 0, p; or.b16 hx, hx, hb; " \
    "and.b32 t, %10, 8192; setp.ne.u32 p, t, 0; selp.b16 hb, 8192, 0, p; or.b16 hx, hx, hb; " \
    "and.b32 t, %10, 16384; setp.ne.u32 p, t, 0; selp.b16 hb, 16384, 0, p; or.b16 hx, hx, hb; " \
    "and.b32 t, %10, 32768; setp.ne.u32 p, t, 0; selp.b16 hb, 32768, 0, p; or.b16 hx, hx, hb; " \
    "shl.b16 hb, hx, 16; or.b16 hx, hx, hb; " \
  "mov.u16 hy, 0; " \
    "and.b32 t, %11, 1; setp.ne.u32 p, t, 0; selp.b16 hb, 1, 0, p; or.b16 hy, hy, hb; " \
    "and.b32 t, %11, 2; setp.ne.u32 p, t, 0; selp.b16 hb, 2, 0, p; or.b16 hy, hy, hb; " \
    "and.b32 t, %11, 4; setp.ne.u32 p, t, 0; selp.b16 hb, 4, 0, p; or.b16 hy, hy, hb; " \
    "and.b32 t, %11, 8; setp.ne.u32 p, t, 0; selp.b16 hb, 8, 0, p; or.b16 hy, hy, hb; " \
    "and.b32 t, %11, 16; setp.ne.u32 p, t, 0; selp.b16 hb, 16, 0, p; or.b16 hy, hy, hb; " \
    "and.b32 t, %11, 32; setp.ne.u32 p, t, 0; selp.b16 hb, 32, 0, p; or.b16 hy, hy, hb; " \
    "and.b32 t, %11, 64; setp.ne.u32 p, t, 0; selp.b16 hb, 64, 0, p; or.b16 hy, hy, hb; " \
    "and.b32 t, %11, 128; setp.ne.u32 p, t, 0; selp.b16 hb, 128, 0, p; or.b16 hy, hy, hb; " \
    "and.b32 t, %11, 256; setp.ne.u32 p, t, 0; selp.b16 hb, 256, 0, p; or.b16 hy, hy, hb; " \
    "and.b32 t, %11, 512; setp.ne.u32 p, t, 0; selp.b16 hb, 512, 0, p; or.b16 hy, hy, hb; " \
    "and.b32 t, %11, 1024; setp.ne.u32 p, t, 0; selp.b16 hb, 1024, 0, p; or.b16 hy, hy, hb; " \
    "and.b32 t, %11, 2048; setp.ne.u32 p, t, 0; selp.b16 hb, 2048, 0, p; or.b16 hy, hy, hb; " \
    "and.b32 t, %11, 4096; setp.ne.u32 p, t, 0; selp.b16 hb, 4096, 0, p; or.b16 hy, hy, hb; " \
    "and.b32 t, %11, 8192; setp.ne.u32 p, t, 0; selp.b16 hb, 8192, 0, p; or.b16 hy, hy, hb; " \
    "and.b32 t, %11, 16384; setp.ne.u32 p, t, 0; selp.b16 hb, 16384, 0, p; or.b16 hy, hy, hb; " \
    "and.b32 t, %11, 32768; setp.ne.u32 p, t, 0; selp.b16 hb, 32768, 0, p; or.b16 hy, hy, hb; " \
    "shl.b16 hb, hy, 16; or.b16 hy, hy, hb; " \
  "mov.u16 hz, 0; " \
    "and.b32 t, %12, 1; setp.ne.u32 p, t, 0; selp.b16 hb, 1, 0, p; or.b16 hz, hz, hb; " \
    "and.b32 t, %12, 2; setp.ne.u32 p, t, 0; selp.b16 hb, 2, 0, p; or.b16 hz, hz, hb; " \
    "and.b32 t, %12, 4; setp.ne.u32 p, t, 0; selp.b16 hb, 4, 0, p; or.b16 hz, hz, hb; " \
    "and.b32 t, %12, 8; setp.ne.u32 p, t, 0; selp.b16 hb, 8, 0, p; or.b16 hz, hz, hb; " \
    "and.b32 t, %12, 16; setp.ne.u32 p, t, 0; selp.b16 hb, 16, 0, p; or.b16 hz, hz, hb; " \
    "and.b32 t, %12, 32; setp.ne.u32 p, t, 0; selp.b16 hb, 32, 0, p; or.b16 hz, hz, hb; " \
    "and.b32 t, %12, 64; setp.ne.u32 p, t, 0; selp.b16 hb, 64, 0, p; or.b16 hz, hz, hb; " \
    "and.b32 t, %12, 128; setp.ne.u32 p, t, 0; selp.b16 hb, 128, 0, p; or.b16 hz, hz, hb; " \
    "and.b32 t, %12, 256; setp.ne.u32 p, t, 0; selp.b16 hb, 256, 0, p; or.b16 hz, hz, hb; " \
    "and.b32 t, %12, 512; setp.ne.u32 p, t, 0; selp.b16 hb, 512, 0, p; or.b16 hz, hz, hb; " \
    "and.b32 t, %12, 1024; setp.ne.u32 p, t, 0; selp.b16 hb, 1024, 0, p; or.b16 hz, hz, hb; " \
    "and.b32 t, %12, 2048; setp.ne.u32 p, t, 0; selp.b16 hb, 2048, 0, p; or.b16 hz, hz, hb; " \
    "and.b32 t, %12, 4096; setp.ne.u32 p, t, 0; selp.b16 hb, 4096, 0, p; or.b16 hz, hz, hb; " \
    "and.b32 t, %12, 8192; setp.ne.u32 p, t, 0; selp.b16 hb, 8192, 0, p; or.b16 hz, hz, hb; " \
    "and.b32 t, %12, 16384; setp.ne.u32 p, t, 0; selp.b16 hb, 16384, 0, p; or.b16 hz, hz, hb; " \
    "and.b32 t, %12, 32768; setp.ne.u32 p, t, 0; selp.b16 hb, 32768, 0, p; or.b16 hz, hz, hb; " \
    "shl.b16 hb, hz, 16; or.b16 hz, hz, hb; "

extern "C" __global__ void int16_ops(const unsigned* a, const unsigned* b, const unsigned* c,
                                     unsigned* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned x = a[i], y = b[i], z = c[i];
  unsigned* o = out + i * 40;
  // outputs 0..9
  asm volatile("{ " MK16
      "add.s16 hr, hx, hy; mul.wide.u16 %0, hr, 1; "
      "sub.s16 hr, hx, hy; mul.wide.u16 %1, hr, 1; "
      "mul.lo.s16 hr, hx, hy; mul.wide.s16 %2, hr, 1; "
      "mul.hi.s16 hr, hx, hy; mul.wide.s16 %3, hr, 1; "
      "mul.hi.u16 hr, hx, hy; mul.wide.u16 %4, hr, 1; "
      "mad.lo.u16 hr, hx, hy, hz; mul.wide.u16 %5, hr, 1; "
      "mul.wide.s16 %6, hx, hy; "
      "mul.wide.u16 %7, hx, hy; "
      "mad.wide.u16 %8, hx, hy, %12; "
      "neg.s16 hr, hx; mul.wide.u16 %9, hr, 1; "
      "}"
      : "=r"(o[0]), "=r"(o[1]), "=r"(o[2]), "=r"(o[3]), "=r"(o[4]), "=r"(o[5]), "=r"(o[6]), "=r"(o[7]), "=r"(o[8]), "=r"(o[9])
      : "r"(x), "r"(y), "r"(z));
  // outputs 10..19
  asm volatile("{ " MK16
      "abs.s16 hr, hx; mul.wide.u16 %0, hr, 1; "
      "min.s16 hr, hx, hy; mul.wide.s16 %1, hr, 1; "
      "max.s16 hr, hx, hy; mul.wide.s16 %2, hr, 1; "
      "min.u16 hr, hx, hy; mul.wide.u16 %3, hr, 1; "
      "max.u16 hr, hx, hy; mul.wide.u16 %4, hr, 1; "
      "shl.b16 hr, hx, %12; mul.wide.u16 %5, hr, 1; "
      "shr.u16 hr, hx, %12; mul.wide.u16 %6, hr, 1; "
      "shr.s16 hr, hx, %12; mul.wide.s16 %7, hr, 1; "
      "shr.s16 hr, hx, 3; mul.wide.s16 %8, hr, 1; "
      "shl.b16 hr, hx, 20; mul.wide.u16 %9, hr, 1; "
      "}"
      : "=r"(o[10]), "=r"(o[11]), "=r"(o[12]), "=r"(o[13]), "=r"(o[14]), "=r"(o[15]), "=r"(o[16]), "=r"(o[17]), "=r"(o[18]), "=r"(o[19])
      : "r"(x), "r"(y), "r"(z));
  // outputs 20..29
  asm volatile("{ " MK16
      "and.b16 hr, hx, hy; mul.wide.u16 %0, hr, 1; "
      "or.b16 hr, hx, 0xff00; mul.wide.u16 %1, hr, 1; "
      "xor.b16 hr, hx, hy; mul.wide.u16 %2, hr, 1; "
      "not.b16 hr, hx; mul.wide.u16 %3, hr, 1; "
      "cnot.b16 hr, hx; mul.wide.u16 %4, hr, 1; "
      "and.b32 u, %12, 1; setp.ne.u32 q, u, 0; selp.b16 hr, hx, hy, q; mul.wide.u16 %5, hr, 1; "
      "and.b32 u, %12, 1; setp.ne.u32 q, u, 0; selp.b16 hr, 0x1234, hy, q; mul.wide.u16 %6, hr, 1; "
      "div.u16 hr, hx, hy; mul.wide.u16 %7, hr, 1; "
      "rem.u16 hr, hx, hy; mul.wide.u16 %8, hr, 1; "
      "div.s16 hr, hx, hy; mul.wide.s16 %9, hr, 1; "
      "}"
      : "=r"(o[20]), "=r"(o[21]), "=r"(o[22]), "=r"(o[23]), "=r"(o[24]), "=r"(o[25]), "=r"(o[26]), "=r"(o[27]), "=r"(o[28]), "=r"(o[29])
      : "r"(x), "r"(y), "r"(z));
  // outputs 30..39
  asm volatile("{ " MK16
      "rem.s16 hr, hx, hy; mul.wide.s16 %0, hr, 1; "
      "div.u16 hr, hx, 7; mul.wide.u16 %1, hr, 1; "
      "sad.u16 hr, hx, hy, hz; mul.wide.u16 %2, hr, 1; "
      "sad.s16 hr, hx, hy, hz; mul.wide.u16 %3, hr, 1; "
      "mul.lo.u16 hr, hx, 0x9e37; mul.wide.u16 %4, hr, 1; "
      "add.u16 hr, hx, -1; mul.wide.u16 %5, hr, 1; "
      "set.lt.u32.s16 %6, hx, hy; "
      "set.hs.u32.u16 %7, hx, hy; "
      "mov.u32 %8, 0; setp.lt.s16 p, hx, hy; selp.u32 u, 1, 0, p; add.u32 %8, %8, u; setp.le.s16 p, hx, hy; selp.u32 u, 2, 0, p; add.u32 %8, %8, u; setp.gt.s16 p, hx, hy; selp.u32 u, 4, 0, p; add.u32 %8, %8, u; setp.ge.s16 p, hx, hy; selp.u32 u, 8, 0, p; add.u32 %8, %8, u; setp.eq.s16 p, hx, hy; selp.u32 u, 16, 0, p; add.u32 %8, %8, u; setp.ne.s16 p, hx, hy; selp.u32 u, 32, 0, p; add.u32 %8, %8, u; setp.lo.u16 p, hx, hy; selp.u32 u, 64, 0, p; add.u32 %8, %8, u; setp.ls.u16 p, hx, hy; selp.u32 u, 128, 0, p; add.u32 %8, %8, u; setp.hi.u16 p, hx, hy; selp.u32 u, 256, 0, p; add.u32 %8, %8, u; setp.hs.u16 p, hx, hy; selp.u32 u, 512, 0, p; add.u32 %8, %8, u; setp.eq.b16 p, hx, hy; selp.u32 u, 1024, 0, p; add.u32 %8, %8, u; setp.ne.u16 p, hx, hy; selp.u32 u, 2048, 0, p; add.u32 %8, %8, u; "
      "mov.u32 %9, 0; setp.eq.u16 p, hx, 5; selp.u32 u, 1, 0, p; add.u32 %9, %9, u; setp.lt.s16 p, -3, hx; selp.u32 u, 2, 0, p; add.u32 %9, %9, u; setp.gt.and.u16 p, hx, hy, p; selp.u32 u, 4, 0, p; add.u32 %9, %9, u; "
      "}"
      : "=r"(o[30]), "=r"(o[31]), "=r"(o[32]), "=r"(o[33]), "=r"(o[34]), "=r"(o[35]), "=r"(o[36]), "=r"(o[37]), "=r"(o[38]), "=r"(o[39])
      : "r"(x), "r"(y), "r"(z));
}
