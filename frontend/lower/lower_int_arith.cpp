//===- frontend/lower/lower_int_arith.cpp - integer add, multiply and friends -----------===//
///
/// \file
/// SASS selected for sm_90 (HW: ptxas 13.0.88 on probe kernels, unless a line says GUESS):
///   add/sub.{s,u}16/32   IADD3 d, a, (-)b, RZ
///   add/sub.64           IADD3 lo, P, a.lo, (-)b.lo, RZ ; IADD3.X hi, a.hi, b.hi|~b.hi, RZ, P, !PT
///   add/sub.sat.s32, mad.hi.sat.s32 (the high word, then the same saturating add)
///                        not the PLOP3.SIGN form ptxas uses (absent from our tables): the
///                        sum, then overflow = ((a^t) & (b^t)) < 0 [sub: ((a^b) & (a^t)) < 0]
///                        and SEL of the saturated value (a<0 ? INT_MIN : INT_MAX)
///   add.cc/addc/sub.cc/subc/mad.cc/madc
///                        the carry flag is a predicate (ctx.carryFlag): IADD3 d, P, ... and
///                        IADD3.X d, P', a, b|~b, RZ, P, !PT. After a subtraction P is the
///                        hardware's "no borrow", as in ptxas's code; subc adds ~b + P. A
///                        guarded .cc instruction rewrites the same predicate, so a false
///                        guard leaves the flag as it was.
///   mul.lo / mad.lo      IMAD d, a, b, c|RZ (16-bit too: the low bits do not depend on the
///                        upper ones); 64-bit: cross IMADs + IMAD.WIDE.U32 + IADD3
///   mul.hi.32            IMAD.HI[.U32] d, a, b, RZ (mad.hi adds c with IADD3)
///   mul.hi.16            extend, IMAD, SHF.R.{S32,U32}.HI 16
///   mul.hi.64            ptxas's IMAD.WIDE.U32 chain; signed: minus b/a where a/b < 0
///   mul.wide.32          IMAD.WIDE[.U32] d, a, b, c|RZ;  .16: extend, IMAD
///   mul24/mad24          extend from 24 bits (SGXT[.U32]), IMAD (.lo) or IMAD.WIDE then
///                        SHF.R.U64 16 (.hi)
///   sad.16/32            VABSDIFF[.U32] d, a, b, c;  .64: compare, two subtractions, SEL, add
///   neg                  IADD3 d, -a, RZ, RZ;  .64: IADD3 + IADD3.X from RZ
///   abs                  IABS;  .64: negate, ISETP.LT on the high word, two SELs
///   min/max.16/32        VIMNMX[.U32|.S16x2|.U16x2][.RELU] d, a, b, PT (min) / !PT (max)
///   min/max.u16x2/.s16x2 VIMNMX.U16x2 / .S16x2 on both halves
///   min/max.64           ISETP.LT/GT.U32 + ISETP.EX, two SELs
///   dp4a / dp2a          IDP.4A.{U8,S8}.{U8,S8} / IDP.2A.{LO,HI}.{U16,S16}.{U8,S8}
//===----------------------------------------------------------------------------------===//
#include "frontend/lower/lower_int.h"

namespace ptxmini::frontend::lower::intsel {
namespace {

Operand inv(const Operand &x) {
  if (x.kind == ori::OperandKind::Imm)
    return imm(~static_cast<uint32_t>(x.imm));
  Operand r = x;
  r.mods ^= ori::OM_INV;
  return r;
}

/// The carry-in predicate of addc/subc/madc: the last .cc result, or false when the chain
/// starts without one (PTX leaves CC.CF undefined there).
Operand carryIn(LowerCtx &ctx) {
  return ctx.carryFlag.kind == ori::OperandKind::None ? NPT() : ctx.carryFlag;
}

/// The predicate a `.cc` instruction writes its carry to. A guarded one writes the current
/// carry predicate itself, so that when its guard is false the flag keeps its old value (as
/// PTX's CC.CF does); an unguarded one starts a fresh predicate.
Operand carryOut(LowerCtx &ctx) {
  if (ctx.curGuard.kind != ori::OperandKind::None && ctx.carryFlag.kind != ori::OperandKind::None)
    return ctx.carryFlag;
  return ctx.temp(RegClass::P);
}

/// d = a + b + carry (b inverted for subc), 32 or 64 bits, with an optional carry out.
void addWithCarry(IntSel &s, const Operand &d, const Operand &a, const Operand &b, bool sub,
                  bool cc, unsigned bits) {
  Operand pin = carryIn(s.ctx);
  Operand pout = cc ? carryOut(s.ctx) : Operand{};
  auto step = [&](const Operand &dd, const Operand &x, const Operand &y, const Operand &ci,
                  const Operand &co) {
    Operand yy = sub ? inv(y) : y;
    if (co.kind != ori::OperandKind::None)
      s.emit(Opcode::IADD3, {Modifier::X}, {dd, co}, {x, yy, RZ(), ci, NPT()});
    else
      s.emit(Opcode::IADD3, {Modifier::X}, {dd}, {x, yy, RZ(), ci, NPT()});
  };
  if (bits == 64) {
    Operand mid = s.ptemp();
    step(component(d, 0), s.lo(a), s.lo(b), pin, mid);
    step(component(d, 1), s.hi(a), s.hi(b), mid, pout);
  } else {
    step(d, s.r32(a), s.r32(b), pin, pout);
  }
  if (cc)
    s.ctx.carryFlag = pout;
}

/// d = a + b (a - b when `sub`) saturated to the signed 32-bit range. Overflow iff the
/// operands' signs make it possible and the result's differs. LOP3 truth tables over
/// (a=0xf0, b=0xcc, c=0xaa): add (a^c)&(b^c) = 0x42, sub (a^b)&(a^c) = 0x18.
void satAddSub32(IntSel &s, const Operand &d, const Operand &a, const Operand &b, bool sub) {
  Operand nb = sub ? negate(b) : b;
  Operand t = s.temp(), o = s.temp(), sg = s.temp(), lim = s.temp(), p = s.ptemp();
  Operand ar = s.inReg(a);
  s.emit(Opcode::IADD3, {}, {t}, {ar, nb, RZ()});
  s.emit(Opcode::LOP3, {Modifier::LUT}, {o}, {ar, b, t, imm(sub ? 0x18 : 0x42), NPT()});
  s.emit(Opcode::ISETP, {Modifier::LT, Modifier::AND}, {p, PT()}, {o, RZ(), PT()});
  s.emit(Opcode::SHF, {Modifier::R, Modifier::S32, Modifier::HI}, {sg}, {RZ(), imm(31), ar});
  s.emit(Opcode::LOP3, {Modifier::LUT}, {lim}, {sg, imm(0x7fffffff), RZ(), imm(0x3c), NPT()});
  s.emit(Opcode::SEL, {}, {d}, {lim, t, p});
}

bool lowerAddSub(LowerCtx &ctx, const ptx::Instruction &in, bool sub) {
  IntSel s(ctx, in);
  if (!isIntType(s.type()))
    return s.fail();
  if (!ctx.onlyModifiers(in, {"cc", "sat"}))
    return false;
  Operand d, x[2];
  if (!s.operands(2, d, x))
    return false;
  bool cc = in.has("cc"), sat = in.has("sat");
  unsigned bits = s.bits();
  if ((sat && (bits != 32 || !s.isSigned())) || (cc && bits < 32) || (sat && cc))
    return s.fail();
  if (bits == 64) {
    Operand p = cc ? carryOut(ctx) : Operand{};
    s.add64(d, x[0], x[1], sub, p);
    if (cc)
      ctx.carryFlag = p;
    return true;
  }
  Operand a = s.r32(x[0]), b = s.r32(x[1]);
  Operand nb = sub ? negate(b) : b;
  if (cc) {
    Operand p = carryOut(ctx);
    s.emit(Opcode::IADD3, {}, {d, p}, {a, nb, RZ()});
    ctx.carryFlag = p;
    return true;
  }
  if (!sat) {
    s.emit(Opcode::IADD3, {}, {d}, {a, nb, RZ()});
    return true;
  }
  satAddSub32(s, d, a, b, sub);
  return true;
}

bool addcSubc(LowerCtx &ctx, const ptx::Instruction &in, bool sub) {
  IntSel s(ctx, in);
  if (!isIntType(s.type()) || s.bits() < 32)
    return s.fail();
  if (!ctx.onlyModifiers(in, {"cc"}))
    return false;
  Operand d, x[2];
  if (!s.operands(2, d, x))
    return false;
  addWithCarry(s, d, x[0], x[1], sub, in.has("cc"), s.bits());
  return true;
}

/// High 64 bits of the signed 128-bit product: the unsigned high part minus b where a < 0
/// and minus a where b < 0. HW: ptxas's mul.hi.s64 does the same with ISETP.LT + SELs.
void mulhi64s(IntSel &s, const Operand &d, const Operand &a0, const Operand &b0) {
  Operand a = s.inReg(a0, 2), b = s.inReg(b0, 2);
  Operand u = s.temp(2), t1 = s.temp(2), u1 = s.temp(2), t2 = s.temp(2);
  Operand pa = s.ptemp(), pb = s.ptemp();
  s.mulhi64u(u, a, b);
  s.emit(Opcode::ISETP, {Modifier::LT, Modifier::AND}, {pb, PT()}, {s.hi(b), RZ(), PT()});
  s.emit(Opcode::ISETP, {Modifier::LT, Modifier::AND}, {pa, PT()}, {s.hi(a), RZ(), PT()});
  s.add64(t1, u, a, true);
  s.sel64(u1, t1, u, pb);
  s.add64(t2, u1, b, true);
  s.sel64(d, t2, u1, pa);
}

bool lowerMulMad(LowerCtx &ctx, const ptx::Instruction &in, bool mad, bool madc) {
  IntSel s(ctx, in);
  if (!isIntType(s.type()))
    return s.fail();
  if (!ctx.onlyModifiers(in, {"lo", "hi", "wide", "cc", "sat"}))
    return false;
  unsigned n = mad ? 3 : 2;
  Operand d, x[3];
  if (!s.operands(n, d, x))
    return false;
  bool wide = in.has("wide"), hi = in.has("hi"), cc = in.has("cc"), sat = in.has("sat");
  bool sgn = s.isSigned();
  unsigned bits = s.bits();
  if ((wide && bits == 64) || (cc && (bits < 32 || wide)) || (madc && wide))
    return s.fail();
  // mad.hi.sat.s32 (the only .sat form): the high word, then a saturating add of c.
  if (sat && (!mad || madc || !hi || cc || bits != 32 || !sgn))
    return s.fail();
  Operand c = mad ? x[2] : Operand{};
  if (wide) {
    if (bits == 32) {
      Operand cc2 = mad ? s.inReg(c, 2) : RZ();
      if (sgn)
        s.emit(Opcode::IMAD, {Modifier::WIDE}, {d}, {x[0], x[1], cc2});
      else
        s.emit(Opcode::IMAD, {Modifier::WIDE, Modifier::U32}, {d}, {x[0], x[1], cc2});
    } else { // 16 x 16 -> 32
      Operand a = s.ext(x[0], 16, sgn), b = s.ext(x[1], 16, sgn);
      s.emit(Opcode::IMAD, {}, {d}, {a, b, mad ? s.r32(c) : RZ()});
    }
    return true;
  }
  // The product (low or high part) into `p`, then c added (with the carry chain if asked).
  bool addLater = mad && (hi || cc || madc);
  Operand p = addLater ? s.temp(static_cast<uint8_t>(bits == 64 ? 2 : 1)) : d;
  if (!hi) {
    if (bits == 64)
      s.mul64lo(p, x[0], x[1], addLater || !mad ? Operand{} : c);
    else
      s.emit(Opcode::IMAD, {}, {p}, {x[0], x[1], mad && !addLater ? s.r32(c) : RZ()});
  } else if (bits == 64) {
    if (sgn)
      mulhi64s(s, p, x[0], x[1]);
    else
      s.mulhi64u(p, x[0], x[1]);
  } else if (bits == 32) {
    if (sgn)
      s.emit(Opcode::IMAD, {Modifier::HI}, {p}, {x[0], x[1], RZ()});
    else
      s.emit(Opcode::IMAD, {Modifier::HI, Modifier::U32}, {p}, {x[0], x[1], RZ()});
  } else { // 16-bit high half of the 32-bit product
    Operand a = s.ext(x[0], 16, sgn), b = s.ext(x[1], 16, sgn), t = s.temp();
    s.emit(Opcode::IMAD, {}, {t}, {a, b, RZ()});
    s.emit(Opcode::SHF, {Modifier::R, sgn ? Modifier::S32 : Modifier::U32, Modifier::HI}, {p},
           {RZ(), imm(16), t});
  }
  if (!addLater)
    return true;
  if (sat) {
    satAddSub32(s, d, p, s.r32(c), false);
    return true;
  }
  if (madc) {
    addWithCarry(s, d, p, c, false, cc, bits);
    return true;
  }
  if (bits == 64) {
    Operand co = cc ? carryOut(ctx) : Operand{};
    s.add64(d, p, c, false, co);
    if (cc)
      ctx.carryFlag = co;
  } else if (cc) {
    Operand co = carryOut(ctx);
    s.emit(Opcode::IADD3, {}, {d, co}, {p, s.r32(c), RZ()});
    ctx.carryFlag = co;
  } else {
    s.emit(Opcode::IADD3, {}, {d}, {p, s.r32(c), RZ()});
  }
  return true;
}

bool mul24(LowerCtx &ctx, const ptx::Instruction &in, bool mad) {
  IntSel s(ctx, in);
  if (!isIntType(s.type()) || s.bits() != 32)
    return s.fail();
  if (!ctx.onlyModifiers(in, {"lo", "hi"}))
    return false;
  Operand d, x[3];
  if (!s.operands(mad ? 3 : 2, d, x))
    return false;
  bool sgn = s.isSigned();
  Operand a = s.ext(x[0], 24, sgn), b = s.ext(x[1], 24, sgn);
  if (!in.has("hi")) {
    s.emit(Opcode::IMAD, {}, {d}, {a, b, mad ? s.r32(x[2]) : RZ()});
    return true;
  }
  // Bits 16..47 of the 48-bit product.
  Operand w = s.temp(2), t = mad ? s.temp() : d;
  if (sgn)
    s.emit(Opcode::IMAD, {Modifier::WIDE}, {w}, {a, b, RZ()});
  else
    s.emit(Opcode::IMAD, {Modifier::WIDE, Modifier::U32}, {w}, {a, b, RZ()});
  s.emit(Opcode::SHF, {Modifier::R, Modifier::U64}, {t},
         {component(w, 0), imm(16), component(w, 1)});
  if (mad)
    s.emit(Opcode::IADD3, {}, {d}, {t, s.r32(x[2]), RZ()});
  return true;
}

bool minMax(LowerCtx &ctx, const ptx::Instruction &in, bool isMin) {
  IntSel s(ctx, in);
  if (s.type() == ptx::ScalarType::U16X2 || s.type() == ptx::ScalarType::S16X2) {
    // HW: ptxas 13.0.88: min/max.u16x2 / .s16x2 is VIMNMX.U16x2 / .S16x2 d, a, b, PT / !PT.
    if (!ctx.onlyModifiers(in, {}))
      return false;
    if (in.operands.size() != 3 || !in.operands[0].is<ptx::RegOperand>())
      return s.badForm();
    Operand d = ctx.reg(in, in.operands[0].as<ptx::RegOperand>().name);
    Operand a = ctx.source(in, in.operands[1]), b = ctx.source(in, in.operands[2]);
    if (d.kind == ori::OperandKind::None || a.kind == ori::OperandKind::None ||
        b.kind == ori::OperandKind::None)
      return false;
    s.emit(Opcode::VIMNMX,
           {s.type() == ptx::ScalarType::S16X2 ? Modifier::S16x2 : Modifier::U16x2}, {d},
           {s.inReg(s.r32(a)), s.r32(b), isMin ? PT() : NPT()});
    return true;
  }
  if (!isIntType(s.type()))
    return s.fail();
  if (!ctx.onlyModifiers(in, {"relu"}))
    return false;
  Operand d, x[2];
  if (!s.operands(2, d, x))
    return false;
  bool sgn = s.isSigned(), relu = in.has("relu");
  unsigned bits = s.bits();
  if (relu && (!sgn || bits != 32))
    return s.fail();
  Operand which = isMin ? PT() : NPT();
  if (bits == 64) {
    Operand p = s.ptemp();
    s.cmp64(p, PT(), isMin ? Modifier::LT : Modifier::GT, !sgn, x[0], x[1]);
    s.sel64(d, x[0], x[1], p);
    return true;
  }
  Operand a = s.r32(x[0]), b = s.r32(x[1]);
  if (bits == 16) {
    // HW: ptxas: VIMNMX.S16x2 / .U16x2 on the two halves; the upper lane is don't-care.
    s.emit(Opcode::VIMNMX, {sgn ? Modifier::S16x2 : Modifier::U16x2}, {d}, {a, b, which});
  } else if (!sgn) {
    s.emit(Opcode::VIMNMX, {Modifier::U32}, {d}, {a, b, which});
  } else if (relu) {
    s.emit(Opcode::VIMNMX, {Modifier::RELU}, {d}, {a, b, which});
  } else {
    s.emit(Opcode::VIMNMX, {}, {d}, {a, b, which});
  }
  return true;
}

bool dpa(LowerCtx &ctx, const ptx::Instruction &in, bool four) {
  IntSel s(ctx, in);
  std::vector<ptx::ScalarType> ts = in.types();
  if (ts.size() != 2 || ptx::typeBits(ts[0]) != 32 || ptx::typeBits(ts[1]) != 32)
    return s.fail();
  if (!ctx.onlyModifiers(in, four ? std::initializer_list<std::string_view>{}
                                  : std::initializer_list<std::string_view>{"lo", "hi"}))
    return false;
  Operand d, x[3];
  if (!s.operands(3, d, x))
    return false;
  bool sa = isSignedType(ts[0]), sb = isSignedType(ts[1]);
  Operand a = s.inReg(s.r32(x[0])), b = s.inReg(s.r32(x[1])), c = s.r32(x[2]);
  if (four)
    s.emit(Opcode::IDP, {Modifier::DP4A, sa ? Modifier::S8 : Modifier::U8,
                         sb ? Modifier::S8 : Modifier::U8},
           {d}, {a, b, c});
  else
    s.emit(Opcode::IDP, {Modifier::DP2A, in.has("hi") ? Modifier::HI : Modifier::LO,
                         sa ? Modifier::S16 : Modifier::U16, sb ? Modifier::S8 : Modifier::U8},
           {d}, {a, b, c});
  return true;
}

} // namespace

bool lowerAdd(LowerCtx &c, const ptx::Instruction &i) { return lowerAddSub(c, i, false); }
bool lowerSub(LowerCtx &c, const ptx::Instruction &i) { return lowerAddSub(c, i, true); }
bool lowerAddc(LowerCtx &c, const ptx::Instruction &i) { return addcSubc(c, i, false); }
bool lowerSubc(LowerCtx &c, const ptx::Instruction &i) { return addcSubc(c, i, true); }
bool lowerMul(LowerCtx &c, const ptx::Instruction &i) { return lowerMulMad(c, i, false, false); }
bool lowerMad(LowerCtx &c, const ptx::Instruction &i) { return lowerMulMad(c, i, true, false); }
bool lowerMadc(LowerCtx &c, const ptx::Instruction &i) { return lowerMulMad(c, i, true, true); }
bool lowerMul24(LowerCtx &c, const ptx::Instruction &i) { return mul24(c, i, false); }
bool lowerMad24(LowerCtx &c, const ptx::Instruction &i) { return mul24(c, i, true); }
bool lowerMin(LowerCtx &c, const ptx::Instruction &i) { return minMax(c, i, true); }
bool lowerMax(LowerCtx &c, const ptx::Instruction &i) { return minMax(c, i, false); }
bool lowerDp4a(LowerCtx &c, const ptx::Instruction &i) { return dpa(c, i, true); }
bool lowerDp2a(LowerCtx &c, const ptx::Instruction &i) { return dpa(c, i, false); }

bool lowerSad(LowerCtx &ctx, const ptx::Instruction &in) {
  IntSel s(ctx, in);
  if (!isIntType(s.type()))
    return s.fail();
  if (!ctx.onlyModifiers(in, {}))
    return false;
  Operand d, x[3];
  if (!s.operands(3, d, x))
    return false;
  bool sgn = s.isSigned();
  if (s.bits() == 64) {
    Operand p = s.ptemp(), t1 = s.temp(2), t2 = s.temp(2), m = s.temp(2);
    s.cmp64(p, PT(), Modifier::LT, !sgn, x[0], x[1]);
    s.add64(t1, x[0], x[1], true);
    s.add64(t2, x[1], x[0], true);
    s.sel64(m, t2, t1, p);
    s.add64(d, m, x[2], false);
    return true;
  }
  Operand a = s.ext(x[0], s.bits(), sgn), b = s.ext(x[1], s.bits(), sgn);
  if (sgn)
    s.emit(Opcode::VABSDIFF, {}, {d}, {a, b, s.r32(x[2])});
  else
    s.emit(Opcode::VABSDIFF, {Modifier::U32}, {d}, {a, b, s.r32(x[2])});
  return true;
}

bool lowerNeg(LowerCtx &ctx, const ptx::Instruction &in) {
  IntSel s(ctx, in);
  if (!isIntType(s.type()))
    return s.fail();
  if (!ctx.onlyModifiers(in, {}))
    return false;
  Operand d, x[1];
  if (!s.operands(1, d, x))
    return false;
  if (s.bits() == 64)
    s.neg64(d, x[0]);
  else
    s.emit(Opcode::IADD3, {}, {d}, {negate(s.r32(x[0])), RZ(), RZ()});
  return true;
}

bool lowerAbs(LowerCtx &ctx, const ptx::Instruction &in) {
  IntSel s(ctx, in);
  if (!isIntType(s.type()))
    return s.fail();
  if (!ctx.onlyModifiers(in, {}))
    return false;
  Operand d, x[1];
  if (!s.operands(1, d, x))
    return false;
  if (s.bits() == 64) {
    Operand a = s.inReg(x[0], 2), n = s.temp(2), p = s.ptemp();
    s.neg64(n, a);
    s.emit(Opcode::ISETP, {Modifier::LT, Modifier::AND}, {p, PT()}, {s.hi(a), RZ(), PT()});
    s.sel64(d, n, a, p);
    return true;
  }
  s.emit(Opcode::IABS, {}, {d}, {s.inReg(s.ext(x[0], s.bits(), true))});
  return true;
}

} // namespace ptxmini::frontend::lower::intsel
