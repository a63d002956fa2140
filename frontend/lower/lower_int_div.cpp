//===- frontend/lower/lower_int_div.cpp - integer division and remainder ----------------===//
///
/// \file
/// Both sizes use a float reciprocal refined in integer arithmetic, as ptxas does (HW:
/// ptxas 13.0.88 inlines the 32-bit sequence and calls a straight-line subroutine for
/// 64-bit; we inline both):
///
///   32-bit unsigned n / d:
///     I2F.U32.RP f, d ; MUFU.RCP f, f ; IADD3 t, f, 0xffffffe (2^32 scale, 2 ulp down)
///     F2I.FTZ.U32.TRUNC.NTZ x, t               x ~ 2^32/d, never above it
///     x += hi(x * (-d * x))                     one Newton step (IMAD, IMAD.HI.U32, IADD3)
///     q = hi(x * n) ; r = n - q * d             IMAD.HI.U32, IMAD
///     twice: if (r >= d) { r -= d; q++ }        ISETP.GE.U32 + predicated IADD3s
///     d == 0: q = r = ~d (= 0xffffffff)        as ptxas: LOP3 ~d under !(d != 0)
///   32-bit signed: the same on IABS values, the quotient negated when the signs differ, the
///     remainder when n < 0; d == 0 gives ~d (= -1) as ptxas's code.
///   64-bit unsigned: I2F.U64.RP, MUFU.RCP, + 0x1ffffffe (2^64 scale), F2I.U64.TRUNC, two
///     Newton steps x += mulhi(x, -d * x), q = mulhi(n, x), two corrections by SEL; d == 0
///     gives all ones for quotient and remainder (ptxas's subroutine does the same, for all
///     four of div/rem .u64/.s64).
///   64-bit signed: on absolute values, signs fixed by SEL, as ptxas.
///   16-bit: the operands extended to 32 bits and divided as such.
/// The fix-ups are predicated instructions, so the PTX guard (if any) is applied only to
/// the final copy into the destination (see Unguarded).
//===----------------------------------------------------------------------------------===//
#include "frontend/lower/lower_int.h"

namespace ptxmini::frontend::lower::intsel {
namespace {

Operand negImm(const Operand &x) { return negate(x); }

/// q = n / d and r = n % d on unsigned 32-bit values (either may be unwanted: kind None on
/// entry; a register given on entry is where that result is built, else a temporary). Must
/// run with no PTX guard active. No division-by-zero fix-up.
void udivmod32(IntSel &s, const Operand &n0, const Operand &d, Operand &q, Operand &r,
               bool wantQ, bool wantR) {
  Operand n = s.inReg(n0);
  Operand f = s.temp(), f2 = s.temp(), t = s.temp(), x = s.temp(), e = s.temp(), h = s.temp(),
          x2 = s.temp();
  Operand qq = q.kind != ori::OperandKind::None ? q : s.temp();
  Operand rr = r.kind != ori::OperandKind::None ? r : s.temp();
  s.emit(Opcode::I2F, {Modifier::U32, Modifier::RP}, {f}, {d});
  s.emit(Opcode::MUFU, {Modifier::RCP}, {f2}, {f});
  s.emit(Opcode::IADD3, {}, {t}, {f2, imm(0xffffffe), RZ()});
  s.emit(Opcode::F2I, {Modifier::FTZ, Modifier::U32, Modifier::TRUNC, Modifier::NTZ}, {x}, {t});
  Operand nd;
  if (d.kind == ori::OperandKind::Imm) {
    nd = negImm(d);
  } else {
    nd = s.temp();
    s.emit(Opcode::IADD3, {}, {nd}, {negate(d), RZ(), RZ()});
  }
  s.emit(Opcode::IMAD, {}, {e}, {nd, x, RZ()});
  s.emit(Opcode::IMAD, {Modifier::HI, Modifier::U32}, {h}, {x, e, RZ()});
  s.emit(Opcode::IADD3, {}, {x2}, {x, h, RZ()});
  s.emit(Opcode::IMAD, {Modifier::HI, Modifier::U32}, {qq}, {x2, n, RZ()});
  s.emit(Opcode::IMAD, {}, {rr}, {nd, qq, n});
  Operand p0 = s.ptemp(), p1 = s.ptemp();
  s.emit(Opcode::ISETP, {Modifier::GE, Modifier::U32, Modifier::AND}, {p0, PT()}, {rr, d, PT()});
  s.emitIf(p0, Opcode::IADD3, {}, {rr}, {rr, negate(d), RZ()});
  s.emitIf(p0, Opcode::IADD3, {}, {qq}, {qq, imm(1), RZ()});
  s.emit(Opcode::ISETP, {Modifier::GE, Modifier::U32, Modifier::AND}, {p1, PT()}, {rr, d, PT()});
  if (wantQ)
    s.emitIf(p1, Opcode::IADD3, {}, {qq}, {qq, imm(1), RZ()});
  if (wantR)
    s.emitIf(p1, Opcode::IADD3, {}, {rr}, {rr, negate(d), RZ()});
  q = qq;
  r = rr;
}

/// res = ~d where d == 0 (0xffffffff), as ptxas.
void zeroFix32(IntSel &s, const Operand &res, const Operand &d) {
  if (d.kind == ori::OperandKind::Imm)
    return; // a nonzero immediate divisor (a zero one is RZ)
  Operand pz = s.ptemp();
  s.emit(Opcode::ISETP, {Modifier::NE, Modifier::U32, Modifier::AND}, {pz, PT()}, {d, RZ(), PT()});
  s.emitIf(notP(pz), Opcode::LOP3, {Modifier::LUT}, {res}, {RZ(), d, RZ(), imm(0x33), NPT()});
}

Operand iabs(IntSel &s, const Operand &x) {
  if (x.kind == ori::OperandKind::Imm) {
    auto v = static_cast<int32_t>(static_cast<uint32_t>(x.imm));
    return s.r32(imm(static_cast<uint32_t>(v < 0 ? 0u - static_cast<uint32_t>(v) : v)));
  }
  if (x.isFixed())
    return x;
  Operand t = s.temp();
  s.emit(Opcode::IABS, {}, {t}, {x});
  return t;
}

void divrem32(IntSel &s, const Operand &out, const Operand &n0, const Operand &d0, bool rem,
              bool sgn, unsigned bits) {
  Operand n = s.ext(n0, bits, sgn), d = s.ext(d0, bits, sgn);
  // The result is built in `out` itself unless `out` is also a source (the sequence reads
  // the sources after its first write of the result).
  Operand into = IntSel::aliases(out, {n0, d0}) ? s.temp() : out;
  Operand q, r;
  (rem ? r : q) = into;
  if (!sgn) {
    udivmod32(s, n, d, q, r, !rem, rem);
  } else {
    Operand an = iabs(s, n), ad = iabs(s, d);
    udivmod32(s, an, ad, q, r, !rem, rem);
    Operand p = s.ptemp();
    if (rem) {
      s.emit(Opcode::ISETP, {Modifier::GE, Modifier::AND}, {p, PT()}, {s.inReg(n), RZ(), PT()});
      s.emitIf(notP(p), Opcode::IADD3, {}, {r}, {negate(r), RZ(), RZ()});
    } else {
      Operand x = s.temp();
      s.emit(Opcode::LOP3, {Modifier::LUT}, {x}, {s.inReg(n), d, RZ(), imm(0x3c), NPT()});
      s.emit(Opcode::ISETP, {Modifier::GE, Modifier::AND}, {p, PT()}, {x, RZ(), PT()});
      s.emitIf(notP(p), Opcode::IADD3, {}, {q}, {negate(q), RZ(), RZ()});
    }
  }
  Operand res = rem ? r : q;
  zeroFix32(s, res, d);
  if (res.reg != out.reg)
    s.emit(Opcode::MOV, {}, {out}, {res});
}

/// Unsigned 64-bit quotient and remainder (pairs); d == 0 is not fixed up here.
void udivmod64(IntSel &s, const Operand &n0, const Operand &d0, Operand &q, Operand &r) {
  Operand n = s.inReg(n0, 2), d = s.inReg(d0, 2);
  Operand f = s.temp(), f2 = s.temp(), t = s.temp(), x = s.temp(2);
  s.emit(Opcode::I2F, {Modifier::U64, Modifier::RP}, {f}, {d});
  s.emit(Opcode::MUFU, {Modifier::RCP}, {f2}, {f});
  s.emit(Opcode::IADD3, {}, {t}, {f2, imm(0x1ffffffe), RZ()});
  s.emit(Opcode::F2I, {Modifier::U64, Modifier::TRUNC}, {x}, {t});
  for (int step = 0; step < 2; ++step) { // x += mulhi(x, -(x * d))
    Operand m = s.temp(2), e = s.temp(2), h = s.temp(2), x2 = s.temp(2);
    s.mul64lo(m, x, d);
    s.neg64(e, m);
    s.mulhi64u(h, x, e);
    s.add64(x2, x, h, false);
    x = x2;
  }
  Operand qq = s.temp(2), qd = s.temp(2), rr = s.temp(2);
  s.mulhi64u(qq, n, x);
  s.mul64lo(qd, qq, d);
  s.add64(rr, n, qd, true);
  for (int step = 0; step < 2; ++step) { // if (r >= d) { r -= d; q++; }
    Operand p = s.ptemp(), r2 = s.temp(2), q2 = s.temp(2), r3 = s.temp(2), q3 = s.temp(2);
    s.cmp64(p, PT(), Modifier::GE, true, rr, d);
    s.add64(r2, rr, d, true);
    s.add64(q2, qq, imm(1), false);
    s.sel64(r3, r2, rr, p);
    s.sel64(q3, q2, qq, p);
    rr = r3, qq = q3;
  }
  q = qq, r = rr;
}

Operand abs64(IntSel &s, const Operand &x0) {
  Operand x = s.inReg(x0, 2), n = s.temp(2), a = s.temp(2), p = s.ptemp();
  s.neg64(n, x);
  s.emit(Opcode::ISETP, {Modifier::LT, Modifier::AND}, {p, PT()}, {s.hi(x), RZ(), PT()});
  s.sel64(a, n, x, p);
  return a;
}

void divrem64(IntSel &s, const Operand &out, const Operand &n0, const Operand &d0, bool rem,
              bool sgn) {
  Operand n = s.inReg(n0, 2), d = s.inReg(d0, 2);
  Operand q, r, res;
  if (!sgn) {
    udivmod64(s, n, d, q, r);
    res = rem ? r : q;
  } else {
    udivmod64(s, abs64(s, n), abs64(s, d), q, r);
    Operand v = rem ? r : q, p = s.ptemp(), neg = s.temp(2);
    res = s.temp(2);
    if (rem) {
      s.emit(Opcode::ISETP, {Modifier::LT, Modifier::AND}, {p, PT()}, {s.hi(n), RZ(), PT()});
    } else {
      Operand x = s.temp();
      s.emit(Opcode::LOP3, {Modifier::LUT}, {x}, {s.hi(n), s.hi(d), RZ(), imm(0x3c), NPT()});
      s.emit(Opcode::ISETP, {Modifier::LT, Modifier::AND}, {p, PT()}, {x, RZ(), PT()});
    }
    s.neg64(neg, v);
    s.sel64(res, neg, v, p);
  }
  Operand pz = s.ptemp();
  s.cmp64(pz, PT(), Modifier::NE, true, d, RZ());
  s.sel64(out, res, imm(-1), pz);
}

bool divRem(LowerCtx &ctx, const ptx::Instruction &in, bool rem) {
  IntSel s(ctx, in);
  if (!isIntType(s.type()))
    return s.fail();
  if (!ctx.onlyModifiers(in, {}))
    return false;
  Operand d, x[2];
  if (!s.operands(2, d, x))
    return false;
  unsigned bits = s.bits();
  Unguarded ug(s, d, bits == 64 ? 2 : 1);
  if (bits == 64)
    divrem64(s, ug.dest(), x[0], x[1], rem, s.isSigned());
  else
    divrem32(s, ug.dest(), x[0], x[1], rem, s.isSigned(), bits);
  ug.finish();
  return true;
}

} // namespace

bool lowerDiv(LowerCtx &c, const ptx::Instruction &i) { return divRem(c, i, false); }
bool lowerRem(LowerCtx &c, const ptx::Instruction &i) { return divRem(c, i, true); }

} // namespace ptxmini::frontend::lower::intsel
