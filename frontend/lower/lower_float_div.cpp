//===- frontend/lower/lower_float_div.cpp - IEEE division, reciprocal, square root -----===//
///
/// \file
/// div/rcp/sqrt with IEEE rounding (.rn/.rz/.rm/.rp, f32 with .ftz) must be correctly
/// rounded for every input. The common case takes the fast path ptxas 13.0.88 takes (HW:
/// read off its sm_90 output):
///   div.rn.f32   MUFU.RCP + FCHK + 5 FFMA; FCHK sends the cases it cannot vouch for away
///   rcp.rn.f32   MUFU.RCP + 2 FFMA when the exponent of a is in [1, 252]
///   sqrt.rn.f32  MUFU.RSQ + 2 FMUL + 2 FFMA when a's bits are in [0x0d000000, 0x7f7fffff]
///   div.rn.f64   MUFU.RCP64H + 5 DFMA Newton steps + DMUL + 2 DFMA (Markstein's final
///                correction), taken when ptxas's two range tests pass
///   sqrt.rn.f64  MUFU.RSQ64H refined + 2 DFMA, taken when a.hi is in [0x03500000, 0x7ff00000)
/// Everything else branches to a slow block (a block of this function, no call). A guarded
/// PTX instruction is skipped by a branch around its whole expansion, which is emitted
/// unguarded (see GuardRegion).
///   f64  special operands (0, inf, NaN, negative sqrt) by the IEEE rules; otherwise the
///        operands are normalized to [1,2) mantissas (subnormals scaled by 2^54 first), the
///        fast-path core computes the round-to-nearest result of the mantissas, which is then
///        placed at the true exponent: by exponent arithmetic when it is normal (overflow
///        gives inf), and through one rounding DMUL into the subnormal range followed by an
///        exact midpoint test when it is subnormal (see placeSubnormal).
///   directed rounding (.rz/.rm/.rp) always takes that route and then corrects the RN
///        result by one unit in the last place in the rounding direction when the exact
///        remainder (an FMA of the normalized operands, whose sign is exact) says the true
///        value lies on the other side.
///   f32  the operands are converted to f64 (exactly); the f64 round-to-nearest quotient or
///        root, made directed-correct as above for directed modes, is converted back with
///        F2F in the same mode. Rounding twice is innocuous: for RN because 53 >= 2*24 + 2
///        (Figueroa 1995, for / and sqrt; also near f32 subnormal midpoints, which an f32
///        quotient cannot approach closer than 2^-174 unless it equals one), and for the
///        directed modes because rounding the same way twice on nested grids is rounding once.
///        .ftz flushes subnormal inputs first; a result is flushed to zero when its rounding
///        to 24 bits with unbounded exponent is below 2^-126 (as ptxas's slow path does).
//===----------------------------------------------------------------------------------===//
#include "frontend/lower/lower_context.h"

#include "frontend/lower/lower_common.h"
#include "frontend/lower/lower_float_internal.h"
#include "frontend/lower/lower_float_util.h"

namespace ptxmini::frontend::lower {
namespace {

using ori::Modifier;
using ori::Opcode;
using ori::Operand;
using ori::RegClass;
using ptx::ScalarType;

constexpr uint64_t kOne = 0x3ff0000000000000ull;

/// Small emission helpers: each returns its (fresh) destination.
struct Em {
  LowerCtx &c;

  Operand r() { return c.temp(RegClass::R); }
  Operand r2() { return c.temp(RegClass::R, 2); }
  Operand p() { return c.temp(RegClass::P); }

  Operand op2(Opcode o, const Operand &a, const Operand &b, Rnd rnd = Rnd::None, bool pair = false) {
    Operand d = pair ? r2() : r();
    ori::Instr &i = c.emit(o, {}, {d}, {a, b});
    addRound(i, rnd);
    return d;
  }
  Operand dmul(const Operand &a, const Operand &b, Rnd rnd = Rnd::None) { return op2(Opcode::DMUL, a, b, rnd, true); }
  Operand dadd(const Operand &a, const Operand &b, Rnd rnd = Rnd::None) { return op2(Opcode::DADD, a, b, rnd, true); }
  Operand dfma(const Operand &a, const Operand &b, const Operand &cc, Rnd rnd = Rnd::None) {
    Operand d = r2();
    ori::Instr &i = c.emit(Opcode::DFMA, {}, {d}, {a, b, cc});
    addRound(i, rnd);
    return d;
  }
  Operand ffma(const Operand &a, const Operand &b, const Operand &cc, bool ftz = false) {
    Operand d = r();
    ori::Instr &i = c.emit(Opcode::FFMA, {}, {d}, {a, b, cc});
    if (ftz)
      i.mods.push_back(Modifier::FTZ);
    return d;
  }
  Operand fmul(const Operand &a, const Operand &b, bool ftz = false) {
    Operand d = r();
    ori::Instr &i = c.emit(Opcode::FMUL, {}, {d}, {a, b});
    if (ftz)
      i.mods.push_back(Modifier::FTZ);
    return d;
  }
  Operand mufu(Modifier fn, const Operand &a) {
    Operand d = r();
    c.emit(Opcode::MUFU, {fn}, {d}, {a});
    return d;
  }
  Operand lop(const Operand &a, const Operand &b, const Operand &cc, uint8_t lut) {
    Operand d = r();
    c.emit(Opcode::LOP3, {Modifier::LUT}, {d}, {a, b, cc, imm(lut), notPT()});
    return d;
  }
  Operand iadd(const Operand &a, const Operand &b, const Operand &cc = RZ()) {
    Operand d = r();
    c.emit(Opcode::IADD3, {}, {d}, {a, b, cc});
    return d;
  }
  Operand shr(const Operand &a, unsigned n) {
    Operand d = r();
    c.emit(Opcode::SHF, {Modifier::R, Modifier::U32, Modifier::HI}, {d}, {RZ(), imm(n), a});
    return d;
  }
  Operand sar(const Operand &a, unsigned n) {
    Operand d = r();
    c.emit(Opcode::SHF, {Modifier::R, Modifier::S32, Modifier::HI}, {d}, {RZ(), imm(n), a});
    return d;
  }
  Operand shl(const Operand &a, unsigned n) {
    Operand d = r();
    c.emit(Opcode::SHF, {Modifier::L, Modifier::U32}, {d}, {a, imm(n), RZ()});
    return d;
  }
  Operand sel(const Operand &a, const Operand &b, const Operand &pp) {
    Operand d = r();
    c.emit(Opcode::SEL, {}, {d}, {a, b, pp});
    return d;
  }
  Operand sel64(const Operand &a, const Operand &b, const Operand &pp) {
    Operand d = r2();
    c.emit(Opcode::SEL, {}, {component(d, 0)}, {component(a, 0), component(b, 0), pp});
    c.emit(Opcode::SEL, {}, {component(d, 1)}, {component(a, 1), component(b, 1), pp});
    return d;
  }
  Operand pair(const Operand &lo, const Operand &hi) {
    Operand d = r2();
    c.emit(Opcode::MOV, {}, {component(d, 0)}, {lo});
    c.emit(Opcode::MOV, {}, {component(d, 1)}, {hi});
    return d;
  }
  void mov64(const Operand &d, const Operand &s) {
    c.emit(Opcode::MOV, {}, {component(d, 0)}, {component(s, 0)});
    c.emit(Opcode::MOV, {}, {component(d, 1)}, {component(s, 1)});
  }
  Operand isetp(Modifier cmp, bool u32, const Operand &a, const Operand &b,
                const Operand &cc = PT(), Modifier bop = Modifier::AND) {
    Operand d = p();
    if (u32)
      c.emit(Opcode::ISETP, {cmp, Modifier::U32, bop}, {d, PT()}, {a, b, cc});
    else
      c.emit(Opcode::ISETP, {cmp, bop}, {d, PT()}, {a, b, cc});
    return d;
  }
  Operand fsetp(Modifier cmp, const Operand &a, const Operand &b, const Operand &cc = PT(),
                Modifier bop = Modifier::AND) {
    Operand d = p();
    c.emit(Opcode::FSETP, {cmp, bop}, {d, PT()}, {a, b, cc});
    return d;
  }
  Operand dsetp(Modifier cmp, const Operand &a, const Operand &b, const Operand &cc = PT(),
                Modifier bop = Modifier::AND) {
    Operand d = p();
    c.emit(Opcode::DSETP, {cmp, bop}, {d, PT()}, {a, b, cc});
    return d;
  }
  /// PLOP3.LUT over (a=0xf0, b=0xcc, c=0xaa).
  Operand plop(const Operand &a, const Operand &b, const Operand &cc, uint8_t lut) {
    Operand d = p();
    c.emit(Opcode::PLOP3, {Modifier::LUT}, {d, PT()}, {a, b, cc, imm(lut), imm(0)});
    return d;
  }
  /// The 64-bit integer a + k (k = +1 or -1): the next/previous double of a nonnegative one.
  Operand add64(const Operand &a, int32_t k) {
    Operand d = r2(), carry = p();
    c.emit(Opcode::IADD3, {}, {component(d, 0), carry}, {component(a, 0), imm(k), RZ()});
    c.emit(Opcode::IADD3, {Modifier::X}, {component(d, 1)},
           {component(a, 1), k < 0 ? imm(-1) : RZ(), RZ(), carry, notPT()});
    return d;
  }
  /// The double 2^k for an unbiased exponent k in [-1022, 1023] held in a register.
  Operand pow2(const Operand &k) {
    Operand hi = r();
    c.emit(Opcode::LEA, {}, {hi}, {k, imm(0x3ff00000), imm(20)});
    return pair(RZ(), hi);
  }
};

Operand notP(const Operand &p) {
  Operand n = p;
  n.mods ^= ori::OM_NOT;
  return n;
}

// ---- f64 cores (round to nearest) ---------------------------------------------------------

/// 1/b to about 2^-100 relative error plus rounding (HW: ptxas's sequence): y0 =
/// {1, MUFU.RCP64H(b.hi)}, e = 1 - b y0, e += e^2, y1 = y0 + y0 e, y = y1 + y1 (1 - b y1).
Operand recip64(Em &e, const Operand &b) {
  Operand y0 = e.pair(imm(1), e.mufu(Modifier::RCP64H, component(b, 1)));
  Operand one = f64Bits(kOne);
  Operand t = e.dfma(fneg(b), y0, one);
  t = e.dfma(t, t, t);
  Operand y1 = e.dfma(y0, t, y0);
  Operand t2 = e.dfma(fneg(b), y1, one);
  return e.dfma(y1, t2, y1);
}

/// a/b rounded to nearest, Markstein's correction: q0 = a y, q = q0 + y (a - b q0). Correct
/// inside ptxas's fast-path range (which the normalized mantissas always are in).
Operand divCore64(Em &e, const Operand &a, const Operand &b, const Operand &y) {
  Operand q0 = e.dmul(a, y);
  Operand rem = e.dfma(fneg(b), q0, a);
  return e.dfma(y, rem, q0);
}

/// sqrt(x) rounded to nearest for positive normal x in ptxas's fast-path range (HW: its
/// sequence): y = RSQ64H refined by one cubic step, s = x y, s + (x - s^2) y/2.
Operand sqrtCore64(Em &e, const Operand &x) {
  Operand y0 = e.pair(RZ(), e.mufu(Modifier::RSQ64H, component(x, 1)));
  Operand yy = e.dmul(y0, y0);
  Operand t = e.dfma(x, fneg(yy), f64Bits(kOne));
  Operand k = e.dfma(t, f64Bits(0x3fd8000000000000ull), f64Bits(0x3fe0000000000000ull));
  Operand yt = e.dmul(y0, t);
  Operand y = e.dfma(k, yt, y0);
  Operand s = e.dmul(x, y);
  Operand halfY = e.pair(component(y, 0), e.iadd(component(y, 1), imm(-0x100000)));
  Operand res = e.dfma(s, fneg(s), x);
  return e.dfma(res, halfY, s);
}

/// For a directed mode: whether the magnitude rounds away from zero (`up`), given the
/// result's sign bit in `signHi` (0 or 0x80000000; none for sqrt, whose result is positive).
/// Computed where it is used, to keep few predicates live.
Operand roundsUp(Em &e, Rnd rnd, const Operand &signHi) {
  bool hasSign = signHi.kind != ori::OperandKind::None;
  switch (rnd) {
  case Rnd::RP:
    return hasSign ? e.isetp(Modifier::EQ, true, signHi, RZ()) : PT();
  case Rnd::RM:
    return hasSign ? e.isetp(Modifier::NE, true, signHi, RZ()) : notPT();
  default:
    return notPT();
  }
}

/// Moves the nonnegative RN result `q` one unit toward the exact value when the directed
/// mode asks for it: `rem` has the sign of (exact - q) (exact when it is zero); `signHi` as
/// for roundsUp.
Operand directedFix(Em &e, const Operand &q, const Operand &rem, Rnd rnd, const Operand &signHi) {
  Operand prev = e.add64(q, -1), next = e.add64(q, 1);
  // down: take prev(q) when exact < q; up: take next(q) when exact > q.
  Operand up = roundsUp(e, rnd, signHi);
  Operand takePrev = e.plop(e.dsetp(Modifier::LT, rem, f64Bits(0)), up, PT(), 0x30); // & !up
  Operand r = e.sel64(prev, q, takePrev);
  Operand takeNext = e.plop(e.dsetp(Modifier::GT, rem, f64Bits(0)), up, PT(), 0xc0); // & up
  return e.sel64(next, r, takeNext);
}

/// Normalizes a positive finite nonzero double: the mantissa in [1,2) and the biased
/// exponent (subnormals counted with their scaling, so it can be below 1).
void normalize(Em &e, const Operand &x, Operand &mant, Operand &bexp) {
  Operand scaled = e.dmul(x, f64Bits(0x4350000000000000ull)); // * 2^54
  Operand sub = e.isetp(Modifier::LT, true, component(x, 1), imm(0x00100000));
  Operand n = e.sel64(scaled, x, sub);
  Operand field = e.shr(component(n, 1), 20);
  bexp = e.iadd(field, e.sel(uimm(-54), RZ(), sub));
  Operand hi = e.lop(component(n, 1), imm(0x000fffff), imm(0x3ff00000), 0xea); // (a & b) | c
  mant = e.pair(component(n, 0), hi);
}

/// The nonnegative double q * 2^E for q in [1, 2] (q the RN mantissa quotient of A/B) and an
/// integer E >= -1022: by exponent arithmetic; inf when it overflows.
Operand placeNormal(Em &e, const Operand &q, const Operand &E) {
  Operand hi = e.iadd(component(q, 1), e.shl(E, 20));
  Operand over = e.isetp(Modifier::GE, true, hi, imm(0x7ff00000));
  Operand h = e.sel(imm(0x7ff00000), hi, over);
  Operand l = e.sel(RZ(), component(q, 0), over);
  return e.pair(l, h);
}

/// The exact-sign remainder A - B*(c * 2^-E) for a nonnegative candidate c (finite or inf),
/// with E in [-1100, 1023] (the scaling is split in two exact steps).
Operand scaledRemainder(Em &e, const Operand &A, const Operand &B, const Operand &c, const Operand &E) {
  Operand mE = e.r();
  e.c.emit(Opcode::IADD3, {}, {mE}, {RZ(), negate(E), RZ()});
  Operand h1 = e.sar(mE, 1);
  Operand h2 = e.iadd(mE, negate(h1));
  Operand cs = e.dmul(e.dmul(c, e.pow2(h1)), e.pow2(h2));
  return e.dfma(fneg(B), cs, A);
}

/// RN of (A/B) * 2^E for E in [-1100, -1023] (a subnormal or the smallest normal result):
/// one rounding DMUL from the RN mantissa quotient q gives a candidate within one grid unit
/// (2^-1074) of the answer; the exact signs of A - B*(c +- 2^-1075)*2^-E then settle it,
/// ties to even. The midpoints are exact doubles once scaled by 2^-E (a subnormal has at
/// most 52 significant bits).
Operand placeSubnormal(Em &e, const Operand &A, const Operand &B, const Operand &q, const Operand &E) {
  // c = RN(q * 2^(E+600) * 2^-600): the first product is exact.
  Operand k = e.iadd(E, imm(600));
  Operand c = e.dmul(e.dmul(q, e.pow2(k)), f64Bits(0x1a70000000000000ull) /* 2^-600 */);
  // Half a grid unit scaled by 2^-E: 2^(-1075-E).
  Operand hk = e.r();
  e.c.emit(Opcode::IADD3, {}, {hk}, {imm(-1075), negate(E), RZ()});
  Operand h = e.pow2(hk);
  Operand mE = e.r();
  e.c.emit(Opcode::IADD3, {}, {mE}, {RZ(), negate(E), RZ()});
  Operand h1 = e.sar(mE, 1);
  Operand h2 = e.iadd(mE, negate(h1));
  Operand cs = e.dmul(e.dmul(c, e.pow2(h1)), e.pow2(h2));
  Operand mHi = e.dadd(cs, h), mLo = e.dadd(cs, fneg(h));
  Operand rHi = e.dfma(fneg(B), mHi, A), rLo = e.dfma(fneg(B), mLo, A);
  Operand odd = e.isetp(Modifier::NE, true, e.lop(component(c, 0), imm(1), RZ(), 0xc0), RZ());
  // up: rHi > 0, or rHi == 0 and c odd. down: rLo < 0, or rLo == 0 and c odd.
  Operand gtHi = e.dsetp(Modifier::GT, rHi, f64Bits(0));
  Operand eqHi = e.dsetp(Modifier::EQ, rHi, f64Bits(0));
  Operand ltLo = e.dsetp(Modifier::LT, rLo, f64Bits(0));
  Operand eqLo = e.dsetp(Modifier::EQ, rLo, f64Bits(0));
  Operand up = e.plop(gtHi, eqHi, odd, 0xf8);   // a | (b & c)
  Operand down = e.plop(ltLo, eqLo, odd, 0xf8);
  Operand next = e.add64(c, 1), prev = e.add64(c, -1);
  Operand r = e.sel64(prev, c, down);
  return e.sel64(next, r, up);
}

/// max(lo, min(hi, x)) for a signed integer x.
Operand clamp(Em &e, const Operand &x, int32_t lo, int32_t hi) {
  Operand t = e.sel(uimm(lo), x, e.isetp(Modifier::LT, false, x, simm(lo)));
  return e.sel(uimm(hi), t, e.isetp(Modifier::GT, false, t, simm(hi)));
}

/// The result of a/b (doubles, nonzero finite) with the IEEE rules for every rounding mode,
/// through the normalized route. Returns the magnitude; `neg` is the result's sign.
Operand divSlowMagnitude(Em &e, const Operand &a, const Operand &b, Rnd rnd, const Operand &signHi) {
  Operand absA = e.pair(component(a, 0), e.lop(component(a, 1), imm(0x7fffffff), RZ(), 0xc0));
  Operand absB = e.pair(component(b, 0), e.lop(component(b, 1), imm(0x7fffffff), RZ(), 0xc0));
  Operand A0, ea, B, eb;
  normalize(e, absA, A0, ea);
  normalize(e, absB, B, eb);
  Operand E0 = e.iadd(ea, negate(eb));
  // q' = A/B in [1,2): double A when A < B.
  Operand less = e.dsetp(Modifier::LT, A0, B);
  Operand A = e.sel64(e.dadd(A0, A0), A0, less);
  Operand E1 = e.iadd(E0, e.sel(uimm(-1), RZ(), less));
  // Clamp E to [-1100, 1100]: beyond, every mode gives the same result as at the bound.
  Operand E = clamp(e, E1, -1100, 1100);
  Operand y = recip64(e, B);
  Operand q = divCore64(e, A, B, y);
  Operand subV = placeSubnormal(e, A, B, q, E), normV = placeNormal(e, q, E);
  Operand rn = e.sel64(subV, normV, e.isetp(Modifier::LT, false, E, simm(-1022)));
  if (rnd == Rnd::RN || rnd == Rnd::None)
    return rn;
  // E for the remainder test: results that overflowed are inf and test as "below".
  Operand Er = clamp(e, E, -1100, 1023);
  Operand rem = scaledRemainder(e, A, B, rn, Er);
  return directedFix(e, rn, rem, rnd, signHi);
}

/// div (or rcp when a is 1.0) of doubles for any rounding mode: d = a / b. Specials by the
/// IEEE rules; the rest through divSlowMagnitude. Emitted in the current block.
void divSlow64(Em &e, const Operand &a, const Operand &b, Rnd rnd, const Operand &d) {
  Operand signHi = e.lop(component(a, 1), imm(0x80000000), component(b, 1), 0x48); // (a^b)&m
  Operand mag = divSlowMagnitude(e, a, b, rnd, signHi);
  Operand res = e.pair(component(mag, 0), e.lop(component(mag, 1), signHi, RZ(), 0xfc));
  // Specials: NaN operand -> a + b; 0/0 and inf/inf -> NaN; inf/x and x/0 -> inf;
  // 0/x and x/inf -> 0 (signed). Each predicate is computed where it is used.
  Operand inf = f64Bits(0x7ff0000000000000ull);
  auto isZero = [&](const Operand &x) { return e.dsetp(Modifier::EQ, x, f64Bits(0)); };
  auto isInf = [&](const Operand &x) { return e.dsetp(Modifier::EQ, fabsOp(x), inf); };
  Operand r = e.sel64(e.pair(RZ(), signHi), res, e.plop(isZero(a), isInf(b), PT(), 0xfc));
  r = e.sel64(e.pair(RZ(), e.lop(signHi, imm(0x7ff00000), RZ(), 0xfc)), r,
              e.plop(isInf(a), isZero(b), PT(), 0xfc));
  Operand invalid = e.plop(isInf(a), isInf(b), e.plop(isZero(a), isZero(b), PT(), 0xc0), 0xea);
  r = e.sel64(e.pair(RZ(), imm(0xfff80000)), r, invalid);
  Operand nanV = e.dadd(a, b);
  r = e.sel64(nanV, r, e.dsetp(Modifier::NaN, a, b));
  e.mov64(d, r);
}

/// sqrt of a double for any rounding mode, slow route: d = sqrt(x).
void sqrtSlow64(Em &e, const Operand &x, Rnd rnd, const Operand &d) {
  Operand absX = e.pair(component(x, 0), e.lop(component(x, 1), imm(0x7fffffff), RZ(), 0xc0));
  Operand m, bexp;
  normalize(e, absX, m, bexp);
  // x = m * 2^(bexp - 1023); make the exponent even: m in [1,4).
  Operand k = e.iadd(bexp, imm(-1023));
  Operand odd = e.isetp(Modifier::NE, true, e.lop(k, imm(1), RZ(), 0xc0), RZ());
  Operand X = e.sel64(e.dadd(m, m), m, odd);
  Operand kEven = e.iadd(k, e.sel(uimm(-1), RZ(), odd));
  Operand s = sqrtCore64(e, X);
  if (rnd != Rnd::RN && rnd != Rnd::None) {
    Operand rem = e.dfma(fneg(s), s, X);
    s = directedFix(e, s, rem, rnd, Operand{});
  }
  Operand half = e.sar(kEven, 1);
  Operand res = e.pair(component(s, 0), e.iadd(component(s, 1), e.shl(half, 20)));
  // Specials: NaN -> x + x; x < 0 -> NaN; +-0 -> x; +inf -> +inf.
  Operand isNan = e.dsetp(Modifier::NaN, x, x);
  Operand isNeg = e.dsetp(Modifier::LT, x, f64Bits(0));
  Operand isZero = e.dsetp(Modifier::EQ, x, f64Bits(0));
  Operand isInf = e.dsetp(Modifier::EQ, x, f64Bits(0x7ff0000000000000ull));
  Operand keep = e.plop(isZero, isInf, PT(), 0xfc);
  Operand r = e.sel64(x, res, keep);
  r = e.sel64(e.pair(RZ(), imm(0xfff80000)), r, isNeg);
  r = e.sel64(e.dadd(x, x), r, isNan);
  e.mov64(d, r);
}

// ---- f64 instructions ---------------------------------------------------------------------

bool ieeeMods(LowerCtx &ctx, const ptx::Instruction &in, bool allowFtz, FloatMods &m) {
  bool modsOk = allowFtz ? parseFloatMods(ctx, in, {"rn", "rz", "rm", "rp", "ftz"}, m)
                         : parseFloatMods(ctx, in, {"rn", "rz", "rm", "rp"}, m);
  if (!modsOk)
    return false;
  if (m.rnd == Rnd::None)
    return ctx.unsupported(in, "'" + in.fullOpcode() + "' without a rounding modifier");
  return true;
}

Operand inReg32(LowerCtx &ctx, const Operand &o) {
  if (o.kind == ori::OperandKind::VReg)
    return o;
  Operand t = ctx.temp(RegClass::R);
  ctx.emit(Opcode::MOV, {}, {t}, {o.kind == ori::OperandKind::FImm32 ? imm(o.imm) : o});
  return t;
}

/// div.rnd.f64 / rcp.rnd.f64 (a = 1.0).
bool div64(LowerCtx &ctx, const ptx::Instruction &in, const Operand &d, Operand a, Operand b, Rnd rnd) {
  Em e{ctx};
  a = protect(ctx, inReg64(ctx, a), d);
  b = protect(ctx, inReg64(ctx, b), d);
  if (rnd != Rnd::RN) {
    divSlow64(e, a, b, rnd, d);
    return true;
  }
  // HW: ptxas's fast path and its two tests: |a.hi| (as an f32) >= 0x03600000 and
  // |0 * b.hi + q.hi| (as an f32) > 0x00100000.
  Operand y = recip64(e, b);
  Operand q = divCore64(e, a, b, y);
  e.mov64(d, q);
  Operand p1 = e.fsetp(Modifier::GEU, fabsOp(component(a, 1)), Operand::fimm32(0x03600000));
  Operand t = e.ffma(RZ(), component(b, 1), component(q, 1));
  Operand p0 = e.fsetp(Modifier::GT, fabsOp(t), Operand::fimm32(0x00100000));
  Operand slow = e.plop(p0, p1, PT(), 0x3f); // !(p0 & p1)
  SlowPath sp = beginSlowPath(ctx, slow);
  divSlow64(e, a, b, Rnd::RN, d);
  endSlowPath(ctx, sp);
  (void)in;
  return true;
}

bool sqrt64(LowerCtx &ctx, const Operand &d, Operand x, Rnd rnd) {
  Em e{ctx};
  x = protect(ctx, inReg64(ctx, x), d);
  if (rnd != Rnd::RN) {
    sqrtSlow64(e, x, rnd, d);
    return true;
  }
  // HW: fast when x.hi - 0x03500000 < 0x7ca00000 (unsigned).
  Operand s = sqrtCore64(e, x);
  e.mov64(d, s);
  Operand t = e.iadd(component(x, 1), imm(-0x03500000));
  Operand slow = e.isetp(Modifier::GE, true, t, imm(0x7ca00000));
  SlowPath sp = beginSlowPath(ctx, slow);
  sqrtSlow64(e, x, Rnd::RN, d);
  endSlowPath(ctx, sp);
  return true;
}

// ---- f32 instructions ---------------------------------------------------------------------

/// Flushes a subnormal f32 to a zero of its sign (FADD.FTZ x, -0).
Operand flush32(Em &e, const Operand &x) {
  Operand negZero = RZ();
  negZero.mods |= ori::OM_NEG;
  Operand d = e.r();
  e.c.emit(Opcode::FADD, {Modifier::FTZ}, {d}, {x, negZero});
  return d;
}

Operand toF64(Em &e, const Operand &x) {
  Operand d = e.r2();
  e.c.emit(Opcode::F2F, {Modifier::F64, Modifier::F32}, {d}, {x});
  return d;
}

/// The f32 result of the f64 value q in mode rnd, flushed under .ftz (see the file comment).
Operand toF32(Em &e, const Operand &q, Rnd rnd, bool ftz) {
  Operand f = e.r();
  ori::Instr &i = e.c.emit(Opcode::F2F, {Modifier::F32, Modifier::F64}, {f}, {q});
  addRound(i, rnd);
  if (!ftz)
    return f;
  // Flush when |q| < the 24-bit rounding threshold of 2^-126 in this mode: RN 2^-126 -
  // 2^-151, toward zero 2^-126, away from zero 2^-126 - 2^-150 (inclusive).
  Operand z = e.lop(f, imm(0x80000000), RZ(), 0xc0);
  Operand tiny;
  switch (rnd) {
  case Rnd::RZ:
    tiny = e.dsetp(Modifier::LT, fabsOp(q), f64Bits(0x3810000000000000ull));
    break;
  default: {
    // RN threshold 2^-126 - 2^-151 (bits 0x380fffffe0000000 ... exact double).
    tiny = e.dsetp(Modifier::LT, fabsOp(q), f64Bits(0x380ffffff0000000ull));
    break;
  }
  }
  if (rnd == Rnd::RM || rnd == Rnd::RP) {
    // Away from zero for one sign, toward zero for the other: threshold by the sign.
    Operand negQ = e.dsetp(Modifier::LT, q, f64Bits(0));
    Operand away = rnd == Rnd::RP ? notP(negQ) : negQ;
    Operand tz = e.dsetp(Modifier::LT, fabsOp(q), f64Bits(0x3810000000000000ull));
    Operand ta = e.dsetp(Modifier::LE, fabsOp(q), f64Bits(0x380fffffe0000000ull));
    Operand tzSel = e.plop(tz, away, PT(), 0x30); // tz & !away
    tiny = e.plop(ta, away, tzSel, 0xea);         // (ta & away) | tzSel
  }
  return e.sel(z, f, tiny);
}

/// The f64 quotient a/b of f32-derived doubles (finite nonzero), RN or directed-correct.
Operand quot64Small(Em &e, const Operand &A, const Operand &B, Rnd rnd, const Operand &signHi) {
  Operand absA = e.pair(component(A, 0), e.lop(component(A, 1), imm(0x7fffffff), RZ(), 0xc0));
  Operand absB = e.pair(component(B, 0), e.lop(component(B, 1), imm(0x7fffffff), RZ(), 0xc0));
  Operand y = recip64(e, absB);
  Operand q = divCore64(e, absA, absB, y);
  if (rnd != Rnd::RN) {
    Operand rem = e.dfma(fneg(absB), q, absA);
    q = directedFix(e, q, rem, rnd, signHi);
  }
  return q;
}

/// a/b for f32 operands through f64 (any mode), into the f32 register d.
void divViaF64(Em &e, const Operand &a, const Operand &b, Rnd rnd, bool ftz, const Operand &d) {
  Operand fa = ftz ? flush32(e, a) : a, fb = ftz ? flush32(e, b) : b;
  Operand A = toF64(e, fa), B = toF64(e, fb);
  Operand signHi = e.lop(fa, imm(0x80000000), fb, 0x48);
  Operand mag = quot64Small(e, A, B, rnd, signHi);
  Operand q = e.pair(component(mag, 0), e.lop(component(mag, 1), signHi, RZ(), 0xfc));
  Operand f = toF32(e, q, rnd, ftz);
  // Specials by the IEEE rules, on the (flushed) f32 operands: a NaN operand gives a + b;
  // 0/0 and inf/inf the canonical NaN; inf/x and x/0 inf; 0/x and x/inf zero (signed).
  Operand zero = Operand::fimm32(0), inf = Operand::fimm32(0x7f800000);
  auto isZero = [&](const Operand &x) { return e.fsetp(Modifier::EQ, x, zero); };
  auto isInf = [&](const Operand &x) { return e.fsetp(Modifier::EQ, fabsOp(x), inf); };
  Operand r = e.sel(signHi, f, e.plop(isZero(fa), isInf(fb), PT(), 0xfc));
  r = e.sel(e.lop(signHi, imm(0x7f800000), RZ(), 0xfc), r, e.plop(isInf(fa), isZero(fb), PT(), 0xfc));
  Operand invalid = e.plop(isInf(fa), isInf(fb), e.plop(isZero(fa), isZero(fb), PT(), 0xc0), 0xea);
  r = e.sel(uimm(0x7fffffff), r, invalid);
  Operand nanV = e.r();
  e.c.emit(Opcode::FADD, {}, {nanV}, {fa, fb});
  r = e.sel(nanV, r, e.fsetp(Modifier::NaN, fa, fb));
  e.c.emit(Opcode::MOV, {}, {d}, {r});
}

/// sqrt of an f32 through f64 (any mode), into d.
void sqrtViaF64(Em &e, const Operand &a, Rnd rnd, bool ftz, const Operand &d) {
  Operand fa = ftz ? flush32(e, a) : a;
  Operand X = toF64(e, fa);
  // Positive finite nonzero: the f64 core (2^-149 is inside its range), made directed.
  Operand absX = e.pair(component(X, 0), e.lop(component(X, 1), imm(0x7fffffff), RZ(), 0xc0));
  Operand s = sqrtCore64(e, absX);
  if (rnd != Rnd::RN) {
    Operand rem = e.dfma(fneg(s), s, absX);
    s = directedFix(e, s, rem, rnd, Operand{});
  }
  Operand f = e.r();
  ori::Instr &i = e.c.emit(Opcode::F2F, {Modifier::F32, Modifier::F64}, {f}, {s});
  addRound(i, rnd);
  // Specials: NaN -> a + a; negative -> NaN; +-0 and +inf -> a.
  Operand isNan = e.fsetp(Modifier::NaN, fa, fa);
  Operand isNeg = e.fsetp(Modifier::LT, fa, Operand::fimm32(0));
  Operand keep = e.plop(e.fsetp(Modifier::EQ, fa, Operand::fimm32(0)),
                        e.fsetp(Modifier::EQ, fa, Operand::fimm32(0x7f800000)), PT(), 0xfc);
  Operand r = e.sel(fa, f, keep);
  r = e.sel(imm(0x7fffffff), r, isNeg);
  Operand nanV = e.r();
  e.c.emit(Opcode::FADD, {}, {nanV}, {fa, fa});
  r = e.sel(nanV, r, isNan);
  e.c.emit(Opcode::MOV, {}, {d}, {r});
}

bool div32(LowerCtx &ctx, const Operand &d, Operand a, Operand b, Rnd rnd, bool ftz) {
  Em e{ctx};
  a = protect(ctx, inReg32(ctx, a), d);
  b = protect(ctx, inReg32(ctx, b), d);
  if (rnd != Rnd::RN) {
    divViaF64(e, a, b, rnd, ftz, d);
    return true;
  }
  // HW: ptxas's fast path (the same with and without .ftz).
  Operand r = e.mufu(Modifier::RCP, b);
  Operand slow = e.p();
  ctx.emit(Opcode::FCHK, {}, {slow}, {a, b});
  Operand t = e.ffma(fneg(b), r, Operand::fimm32(0x3f800000));
  Operand r1 = e.ffma(r, t, r);
  Operand q0 = e.ffma(a, r1, RZ());
  Operand rem = e.ffma(fneg(b), q0, a);
  Operand q = e.ffma(r1, rem, q0);
  ctx.emit(Opcode::MOV, {}, {d}, {q});
  SlowPath sp = beginSlowPath(ctx, slow);
  divViaF64(e, a, b, Rnd::RN, ftz, d);
  endSlowPath(ctx, sp);
  return true;
}

bool rcp32(LowerCtx &ctx, const Operand &d, Operand a, Rnd rnd, bool ftz) {
  Em e{ctx};
  a = protect(ctx, inReg32(ctx, a), d);
  Operand one = e.r();
  ctx.emit(Opcode::MOV, {}, {one}, {imm(0x3f800000)});
  if (rnd != Rnd::RN) {
    divViaF64(e, one, a, rnd, ftz, d);
    return true;
  }
  // HW: fast when the exponent field of a is in [1, 252]: ((a + 0x01800000) & 0x7f800000)
  // > 0x01ffffff; r = MUFU.RCP(a), r + r * -(a r - 1).
  Operand t = e.lop(e.iadd(a, imm(0x01800000)), imm(0x7f800000), RZ(), 0xc0);
  Operand slow = e.isetp(Modifier::LE, true, t, imm(0x01ffffff));
  Operand r = e.mufu(Modifier::RCP, a);
  Operand err = e.ffma(a, r, Operand::fimm32(0xbf800000));
  Operand negZero = RZ();
  negZero.mods |= ori::OM_NEG;
  Operand nerr = e.r();
  ctx.emit(Opcode::FADD, {Modifier::FTZ}, {nerr}, {fneg(err), negZero});
  Operand q = e.ffma(r, nerr, r);
  ctx.emit(Opcode::MOV, {}, {d}, {q});
  SlowPath sp = beginSlowPath(ctx, slow);
  divViaF64(e, one, a, Rnd::RN, ftz, d);
  endSlowPath(ctx, sp);
  return true;
}

bool sqrt32(LowerCtx &ctx, const Operand &d, Operand a, Rnd rnd, bool ftz) {
  Em e{ctx};
  a = protect(ctx, inReg32(ctx, a), d);
  if (rnd != Rnd::RN) {
    sqrtViaF64(e, a, rnd, ftz, d);
    return true;
  }
  // HW: fast when a's bits are in [0x0d000000, 0x7f7fffff]: r = MUFU.RSQ(a), y = a r,
  // h = r / 2, y + (a - y^2) h.
  Operand t = e.iadd(a, imm(-0x0d000000));
  Operand slow = e.isetp(Modifier::GT, true, t, imm(0x727fffff));
  Operand r = e.mufu(Modifier::RSQ, a);
  Operand y = e.fmul(a, r, true);
  Operand h = e.fmul(r, Operand::fimm32(0x3f000000), true);
  Operand res = e.ffma(fneg(y), y, a);
  Operand s = e.ffma(res, h, y);
  ctx.emit(Opcode::MOV, {}, {d}, {s});
  SlowPath sp = beginSlowPath(ctx, slow);
  sqrtViaF64(e, a, Rnd::RN, ftz, d);
  endSlowPath(ctx, sp);
  return true;
}

/// The shape div, rcp and sqrt share without .approx: f32 or f64 only, the IEEE rounding
/// modifiers, `nSrc` operands, and the expansion (which branches) inside a guard region.
/// `expand(f64, mods, d, s)` emits it.
template <typename Expand>
bool lowerIeee(LowerCtx &ctx, const ptx::Instruction &in, unsigned nSrc, Expand expand) {
  ScalarType t = in.type();
  if (t != ScalarType::F32 && t != ScalarType::F64)
    return ctx.unsupported(in);
  unsigned bits = t == ScalarType::F64 ? 64 : 32;
  FloatMods m;
  Operand d;
  std::array<Operand, 3> s;
  if (!ieeeMods(ctx, in, bits == 32, m) || !floatOperands(ctx, in, nSrc, bits, d, s))
    return false;
  GuardRegion gr = beginGuardRegion(ctx);
  bool ok = expand(bits == 64, m, d, s);
  endGuardRegion(ctx, gr);
  return ok;
}

} // namespace

bool lowerDiv(LowerCtx &ctx, const ptx::Instruction &in) {
  if (in.has("approx") || in.has("full"))
    return lowerDivApprox(ctx, in);
  return lowerIeee(ctx, in, 2, [&](bool f64, const FloatMods &m, const Operand &d, const std::array<Operand, 3> &s) {
    return f64 ? div64(ctx, in, d, s[0], s[1], m.rnd) : div32(ctx, d, s[0], s[1], m.rnd, m.ftz);
  });
}

bool lowerRcp(LowerCtx &ctx, const ptx::Instruction &in) {
  if (in.has("approx"))
    return lowerRcpApprox(ctx, in);
  return lowerIeee(ctx, in, 1, [&](bool f64, const FloatMods &m, const Operand &d, const std::array<Operand, 3> &s) {
    return f64 ? div64(ctx, in, d, f64Bits(kOne), s[0], m.rnd) : rcp32(ctx, d, s[0], m.rnd, m.ftz);
  });
}

bool lowerSqrt(LowerCtx &ctx, const ptx::Instruction &in) {
  if (in.has("approx"))
    return lowerSqrtApprox(ctx, in);
  return lowerIeee(ctx, in, 1, [&](bool f64, const FloatMods &m, const Operand &d, const std::array<Operand, 3> &s) {
    return f64 ? sqrt64(ctx, d, s[0], m.rnd) : sqrt32(ctx, d, s[0], m.rnd, m.ftz);
  });
}

} // namespace ptxmini::frontend::lower
