// 64-bit integer PTX, one instruction (or a short chain) per output, as inline PTX: add/sub
// with immediates (split into halves), mul.lo/.hi (signed and unsigned), mad, neg/abs, min/max,
// shifts by registers and by immediates below, at and above 32 and 64, logic, popc/clz/bfind/
// brev, bfe/bfi with out-of-range fields, setp (every comparison, the boolean combine, p|q),
// selp/slct, mul.wide/mad.wide of 32-bit values, div/rem (zero divisors, INT64_MIN / -1),
// 128-bit carry chains (add.cc.u64/addc, sub.cc/subc, mad.lo.cc/madc.hi) and guarded forms.
// x and y start with every pair of 64-bit edge values (edges=row/col in the .desc).
#define IN "l"(x), "l"(y), "l"(w), "r"(s), "r"(t)
#define OP64(text) ({ unsigned long long r_; asm volatile(text : "=l"(r_) : IN); r_; })
#define OP32(text) ({ unsigned r_; asm volatile(text : "=r"(r_) : IN); r_; })

extern "C" __global__ void int64_ops(const unsigned long long* a, const unsigned long long* b,
                                     const unsigned long long* c, const unsigned* d,
                                     const unsigned* e, unsigned long long* out, unsigned* out32,
                                     int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned long long x = a[i], y = b[i], w = c[i];
  unsigned s = d[i], t = e[i];
  unsigned long long* o = out + i * 64;
  unsigned* q = out32 + i * 24;
  // %1 = x, %2 = y, %3 = w (64-bit); %4 = s (shift amounts), %5 = t (random bits).
  o[0] = OP64("add.s64 %0, %1, %2;");
  o[1] = OP64("sub.s64 %0, %1, %2;");
  o[2] = OP64("add.s64 %0, %1, 0x100000005;");
  o[3] = OP64("sub.s64 %0, %1, 5;");
  o[4] = OP64("sub.s64 %0, 7, %1;");
  o[5] = OP64("mul.lo.s64 %0, %1, %2;");
  o[6] = OP64("mul.lo.u64 %0, %1, 1000;");
  o[7] = OP64("mul.hi.u64 %0, %1, %2;");
  o[8] = OP64("mul.hi.s64 %0, %1, %2;");
  o[9] = OP64("mad.lo.s64 %0, %1, %2, %3;");
  o[10] = OP64("mad.hi.u64 %0, %1, %2, %3;");
  o[11] = OP64("neg.s64 %0, %1;");
  o[12] = OP64("abs.s64 %0, %1;");
  o[13] = OP64("min.s64 %0, %1, %2;");
  o[14] = OP64("max.s64 %0, %1, %2;");
  o[15] = OP64("min.u64 %0, %1, %2;");
  o[16] = OP64("max.u64 %0, %1, %2;");
  o[17] = OP64("shl.b64 %0, %1, %4;");
  o[18] = OP64("shr.u64 %0, %1, %4;");
  o[19] = OP64("shr.s64 %0, %1, %4;");
  o[20] = OP64("shl.b64 %0, %1, 5;");
  o[21] = OP64("shl.b64 %0, %1, 40;");
  o[22] = OP64("shr.u64 %0, %1, 40;");
  o[23] = OP64("shr.s64 %0, %1, 40;");
  o[24] = OP64("shr.s64 %0, %1, 63;");
  o[25] = OP64("shl.b64 %0, %1, 64;");
  o[26] = OP64("shr.s64 %0, %1, 7;");
  o[27] = OP64("and.b64 %0, %1, %2;");
  o[28] = OP64("or.b64 %0, %1, 0x100000001;");
  o[29] = OP64("xor.b64 %0, %1, %2;");
  o[30] = OP64("not.b64 %0, %1;");
  o[31] = OP64("brev.b64 %0, %1;");
  // Field position and length are restricted to 0..255 (PTX ISA).
  o[32] = OP64("{ .reg .b32 u, v; bfe.u32 u, %5, 8, 8; and.b32 v, %5, 255; bfe.u64 %0, %1, v, u; }");
  o[33] = OP64("{ .reg .b32 u, v; bfe.u32 u, %5, 8, 8; and.b32 v, %5, 255; bfe.s64 %0, %1, v, u; }");
  o[34] = OP64("{ .reg .b32 u, v; bfe.u32 u, %5, 8, 8; and.b32 v, %5, 255; bfi.b64 %0, %1, %2, v, u; }");
  o[35] = OP64("bfe.u64 %0, %1, 5, 20;");
  o[36] = OP64("bfe.s64 %0, %1, 60, 10;");
  o[37] = OP64("{ .reg .pred p; .reg .b32 u; and.b32 u, %4, 1; setp.ne.u32 p, u, 0; selp.b64 %0, %1, %2, p; }");
  o[38] = OP64("{ .reg .pred p; .reg .b32 u; and.b32 u, %4, 1; setp.ne.u32 p, u, 0; selp.b64 %0, 5, %2, p; }");
  o[39] = OP64("slct.u64.s32 %0, %1, %2, %4;");
  o[40] = OP64("mul.wide.s32 %0, %4, %5;");
  o[41] = OP64("mul.wide.u32 %0, %4, %5;");
  o[42] = OP64("mad.wide.s32 %0, %4, %5, %1;");
  o[43] = OP64("mad.wide.u32 %0, %4, %5, %1;");
  o[44] = OP64("mul.wide.u32 %0, %5, 1000;");
  o[45] = OP64("div.u64 %0, %1, %2;");
  o[46] = OP64("rem.u64 %0, %1, %2;");
  o[47] = OP64("div.s64 %0, %1, %2;");
  o[48] = OP64("rem.s64 %0, %1, %2;");
  o[49] = OP64("div.u64 %0, %1, 10;");
  o[50] = OP64("div.s64 %0, %1, -3;");
  asm volatile("add.cc.u64 %0, %2, %4; addc.u64 %1, %3, %2;" : "=l"(o[51]), "=l"(o[52]) : IN);
  asm volatile("sub.cc.u64 %0, %2, %4; subc.u64 %1, %3, %2;" : "=l"(o[53]), "=l"(o[54]) : IN);
  asm volatile("mad.lo.cc.u64 %0, %2, %3, %4; madc.hi.u64 %1, %2, %3, 0;"
               : "=l"(o[55]), "=l"(o[56]) : IN);
  o[57] = OP64("cnot.b64 %0, %1;");
  o[58] = OP64("{ .reg .pred p; mov.b64 %0, %3; setp.lt.u64 p, %1, %2; @p add.s64 %0, %1, %2; }");
  o[59] = OP64("{ .reg .pred p; mov.b64 %0, %3; setp.ne.s64 p, %2, 0; @p div.s64 %0, %1, %2; }");
  o[60] = OP64("{ .reg .b64 k; mov.b64 k, 0x123456789abcdef0; xor.b64 %0, %1, k; }");
  o[61] = OP64("min.u64 %0, %1, 7;");
  o[62] = OP64("max.s64 %0, %1, -1;");
  o[63] = OP64("sad.s64 %0, %1, %2, %3;");
  q[0] = OP32("popc.b64 %0, %1;");
  q[1] = OP32("clz.b64 %0, %1;");
  q[2] = OP32("bfind.u64 %0, %1;");
  q[3] = OP32("bfind.s64 %0, %1;");
  q[4] = OP32("bfind.shiftamt.u64 %0, %1;");
  q[5] = OP32("bfind.shiftamt.s64 %0, %1;");
#define SETP(cmp) OP32("{ .reg .pred p; setp." cmp " p, %1, %2; selp.u32 %0, 1, 0, p; }")
  q[6] = SETP("lt.s64");
  q[7] = SETP("le.s64");
  q[8] = SETP("gt.s64");
  q[9] = SETP("ge.s64");
  q[10] = SETP("eq.s64");
  q[11] = SETP("ne.b64");
  q[12] = SETP("lo.u64");
  q[13] = SETP("ls.u64");
  q[14] = SETP("hi.u64");
  q[15] = SETP("hs.u64");
  q[16] = OP32("{ .reg .pred p, q; .reg .b32 u; and.b32 u, %4, 1; setp.ne.u32 q, u, 0;"
               " setp.gt.and.u64 p, %1, %2, q; selp.u32 %0, 1, 0, p; }");
  q[17] = OP32("{ .reg .pred p, q, r; .reg .b32 u; and.b32 u, %4, 1; setp.ne.u32 q, u, 0;"
               " setp.lt.or.s64 p|r, %1, %2, !q; selp.u32 %0, 1, 0, p; @r add.u32 %0, %0, 2; }");
  q[18] = OP32("{ .reg .pred p; setp.le.u64 p, %1, 100; selp.u32 %0, 1, 0, p; }");
  q[19] = OP32("{ .reg .pred p; setp.lt.s64 p, -5, %1; selp.u32 %0, 1, 0, p; }");
  q[20] = OP32("{ .reg .pred p; setp.ge.s64 p, %1, 0x100000000; selp.u32 %0, 1, 0, p; }");
  q[21] = OP32("{ .reg .pred p; setp.eq.u64 p, %1, -1; selp.u32 %0, 1, 0, p; }");
  q[22] = OP32("set.lt.u32.s64 %0, %1, %2;");
  q[23] = OP32("set.hi.f32.u64 %0, %1, %2;");
}
