// 32-bit integer, bit-manipulation, compare/select and predicate PTX, one instruction (or a
// short chain) per output, written as inline PTX so the exact instruction reaches the
// assembler: saturation, .hi/.wide products, mul24/mad24, sad, min/max(.relu), bfind/bfe/bfi
// with out-of-range positions and lengths, every prmt mode, shf wrap/clamp, shifts by >= 32,
// division and remainder (zero divisors, INT_MIN / -1), setp with .and/.or/.xor and p|q,
// set, slct, dp4a/dp2a, carry chains (add.cc/addc, sub.cc/subc, mad.cc/madc) and guarded
// instructions. Inputs start with every pair of edge values (edges=row/col in the .desc).
#define X3 "r"(x), "r"(y), "r"(z)
#define OP(text) ({ unsigned r_; asm volatile(text : "=r"(r_) : X3); r_; })

extern "C" __global__ void int32_ops(const unsigned* a, const unsigned* b, const unsigned* c,
                                     unsigned* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned x = a[i], y = b[i], z = c[i];
  unsigned* o = out + i * 100;
  o[0] = OP("add.sat.s32 %0, %1, %2;");
  o[1] = OP("sub.sat.s32 %0, %1, %2;");
  o[2] = OP("mul.hi.s32 %0, %1, %2;");
  o[3] = OP("mul.hi.u32 %0, %1, %2;");
  o[4] = OP("mad.hi.s32 %0, %1, %2, %3;");
  o[5] = OP("mad.hi.u32 %0, %1, %2, %3;");
  o[6] = OP("mul24.lo.s32 %0, %1, %2;");
  o[7] = OP("mul24.lo.u32 %0, %1, %2;");
  o[8] = OP("mul24.hi.s32 %0, %1, %2;");
  o[9] = OP("mul24.hi.u32 %0, %1, %2;");
  o[10] = OP("mad24.lo.u32 %0, %1, %2, %3;");
  o[11] = OP("mad24.hi.s32 %0, %1, %2, %3;");
  o[12] = OP("sad.s32 %0, %1, %2, %3;");
  o[13] = OP("sad.u32 %0, %1, %2, %3;");
  o[14] = OP("neg.s32 %0, %1;");
  o[15] = OP("abs.s32 %0, %1;");
  o[16] = OP("min.s32 %0, %1, %2;");
  o[17] = OP("max.s32 %0, %1, %2;");
  o[18] = OP("min.u32 %0, %1, %2;");
  o[19] = OP("max.u32 %0, %1, %2;");
  o[20] = OP("min.relu.s32 %0, %1, %2;");
  o[21] = OP("max.relu.s32 %0, %1, %2;");
  o[22] = OP("popc.b32 %0, %1;");
  o[23] = OP("clz.b32 %0, %1;");
  o[24] = OP("bfind.u32 %0, %1;");
  o[25] = OP("bfind.s32 %0, %1;");
  o[26] = OP("bfind.shiftamt.u32 %0, %1;");
  o[27] = OP("bfind.shiftamt.s32 %0, %1;");
  o[28] = OP("brev.b32 %0, %1;");
  o[29] = OP("bfe.u32 %0, %1, %2, %3;");
  o[30] = OP("bfe.s32 %0, %1, %2, %3;");
  o[31] = OP("{ .reg .b32 t; shr.u32 t, %3, 8; bfi.b32 %0, %1, %2, %3, t; }");
  o[32] = OP("bfe.u32 %0, %1, 3, 7;");
  o[33] = OP("bfi.b32 %0, %1, %2, 5, 9;");
  o[34] = OP("prmt.b32 %0, %1, %2, %3;");
  o[35] = OP("prmt.b32.f4e %0, %1, %2, %3;");
  o[36] = OP("prmt.b32.b4e %0, %1, %2, %3;");
  o[37] = OP("prmt.b32.rc8 %0, %1, %2, %3;");
  o[38] = OP("prmt.b32.ecl %0, %1, %2, %3;");
  o[39] = OP("prmt.b32.ecr %0, %1, %2, %3;");
  o[40] = OP("prmt.b32.rc16 %0, %1, %2, %3;");
  o[41] = OP("shf.l.wrap.b32 %0, %1, %2, %3;");
  o[42] = OP("shf.l.clamp.b32 %0, %1, %2, %3;");
  o[43] = OP("shf.r.wrap.b32 %0, %1, %2, %3;");
  o[44] = OP("shf.r.clamp.b32 %0, %1, %2, %3;");
  o[45] = OP("shl.b32 %0, %1, %3;");
  o[46] = OP("shr.u32 %0, %1, %3;");
  o[47] = OP("shr.s32 %0, %1, %3;");
  o[48] = OP("shr.s32 %0, %1, 31;");
  o[49] = OP("div.u32 %0, %1, %2;");
  o[50] = OP("rem.u32 %0, %1, %2;");
  o[51] = OP("div.s32 %0, %1, %2;");
  o[52] = OP("rem.s32 %0, %1, %2;");
  o[53] = OP("div.u32 %0, %1, 7;");
  o[54] = OP("div.s32 %0, %1, -7;");
  o[55] = OP("rem.s32 %0, %1, 10;");
  o[56] = OP("{ .reg .pred p, q; setp.lt.s32 p|q, %1, %2; selp.u32 %0, 1, 0, p; @q add.u32 %0, %0, 2; }");
  o[57] = OP("{ .reg .pred p, q; .reg .b32 t; and.b32 t, %3, 1; setp.ne.u32 q, t, 0;"
             " setp.gt.and.u32 p, %1, %2, q; selp.u32 %0, 1, 0, p; }");
  o[58] = OP("{ .reg .pred p, q, r; .reg .b32 t; and.b32 t, %3, 1; setp.ne.u32 q, t, 0;"
             " setp.ne.or.s32 p|r, %1, %2, !q; selp.u32 %0, 1, 0, p; @r add.u32 %0, %0, 2; }");
  o[59] = OP("{ .reg .pred p, q, r; .reg .b32 t; and.b32 t, %3, 2; setp.ne.u32 q, t, 0;"
             " setp.le.xor.u32 p|r, %1, 5, q; selp.u32 %0, 1, 0, p; @r add.u32 %0, %0, 2; }");
  o[60] = OP("set.lt.u32.s32 %0, %1, %2;");
  o[61] = OP("{ .reg .pred q; .reg .b32 t; and.b32 t, %3, 4; setp.eq.u32 q, t, 0;"
             " set.ge.and.f32.u32 %0, %1, %2, q; }");
  o[62] = OP("slct.u32.s32 %0, %1, %2, %3;");
  o[63] = OP("slct.u32.f32 %0, %1, %2, %3;");
  o[64] = OP("cnot.b32 %0, %1;");
  o[65] = OP("not.b32 %0, %1;");
  o[66] = OP("lop3.b32 %0, %1, %2, %3, 0x96;");
  o[67] = OP("lop3.b32 %0, %1, 0x1234, %3, 0xe8;");
  o[68] = OP("dp4a.u32.u32 %0, %1, %2, %3;");
  o[69] = OP("dp4a.s32.s32 %0, %1, %2, %3;");
  o[70] = OP("dp4a.s32.u32 %0, %1, %2, %3;");
  o[71] = OP("dp2a.lo.u32.s32 %0, %1, %2, %3;");
  o[72] = OP("dp2a.hi.s32.u32 %0, %1, %2, %3;");
  asm volatile("add.cc.u32 %0, %3, %5; addc.cc.u32 %1, %4, %3; addc.u32 %2, %5, %4;"
               : "=r"(o[73]), "=r"(o[74]), "=r"(o[75]) : X3);
  asm volatile("sub.cc.u32 %0, %3, %5; subc.cc.u32 %1, %4, %3; subc.u32 %2, %5, %4;"
               : "=r"(o[76]), "=r"(o[77]), "=r"(o[78]) : X3);
  asm volatile("mad.lo.cc.u32 %0, %2, %3, %4; madc.hi.u32 %1, %2, %3, 0;"
               : "=r"(o[79]), "=r"(o[80]) : X3);
  asm volatile("mad.lo.cc.u32 %0, %3, %4, %5; madc.hi.cc.u32 %1, %3, %4, %5; addc.u32 %2, 0, 0;"
               : "=r"(o[81]), "=r"(o[82]), "=r"(o[83]) : X3);
  o[84] = OP("{ .reg .pred p1, p2, pa, pb, pc, pd, pe; .reg .b32 t, u;"
             " setp.lt.s32 p1, %1, %2; and.b32 t, %3, 1; setp.ne.u32 p2, t, 0;"
             " and.pred pa, p1, p2; or.pred pb, p1, !p2; xor.pred pc, p1, p2; not.pred pd, p1;"
             " mov.pred pe, p2; selp.u32 %0, 1, 0, pa; selp.u32 u, 2, 0, pb; add.u32 %0, %0, u;"
             " selp.u32 u, 4, 0, pc; add.u32 %0, %0, u; selp.u32 u, 8, 0, pd; add.u32 %0, %0, u;"
             " selp.u32 u, 16, 0, pe; add.u32 %0, %0, u; }");
  o[85] = OP("{ .reg .pred p; mov.u32 %0, %3; setp.lt.u32 p, %1, %2; @p add.u32 %0, %1, %2; }");
  o[86] = OP("{ .reg .pred p; mov.u32 %0, %3; setp.ne.u32 p, %2, 0; @p div.u32 %0, %1, %2; }");
  o[87] = OP("{ .reg .pred p; mov.u32 %0, 77; setp.lt.s32 p, %1, 0; @!p rem.s32 %0, %1, %2; }");
  o[88] = OP("min.s32 %0, %1, -5;");
  o[89] = OP("max.u32 %0, %1, 0x80000000;");
  o[90] = OP("sub.s32 %0, 5, %1;");
  o[91] = OP("{ .reg .pred p; setp.lt.u32 p, 100, %1; selp.u32 %0, 1, 0, p; }");
  o[92] = OP("xor.b32 %0, %1, 0xf0f0f0f0;");
  o[93] = OP("mul.lo.u32 %0, %1, -3;");
  o[94] = OP("{ .reg .pred p; setp.hs.u32 p, %1, %2; selp.b32 %0, %3, 0x5a5a, p; }");
  o[95] = OP("bmsk.clamp.b32 %0, %1, %2;");
  o[96] = OP("bmsk.wrap.b32 %0, %1, %2;");
  o[97] = OP("szext.clamp.s32 %0, %1, %3;");
  o[98] = OP("szext.wrap.u32 %0, %1, %3;");
  o[99] = OP("prmt.b32 %0, %1, %2, 0x7531;");
}
