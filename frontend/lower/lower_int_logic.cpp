//===- frontend/lower/lower_int_logic.cpp - logic, shifts and bit manipulation ----------===//
///
/// \file
/// SASS selected for sm_90 (HW: ptxas 13.0.88 on probe kernels, unless a line says GUESS):
///   and/or/xor.b16/32    LOP3.LUT d, a, b, RZ, 0xc0/0xfc/0x3c, !PT (.64: one per half)
///   not.b16/32           LOP3.LUT d, RZ, a, RZ, 0x33, !PT
///   and/or/xor/not.pred  PLOP3.LUT p, PT, a, b, PT, lut, 0x0 (sources may carry '!'); ptxas
///                        folds predicate logic into the ISETPs that feed it, we do not yet
///   cnot                 ISETP.EQ.U32 + SEL d, RZ, 0x1, !P
///   lop3.b32             LOP3.LUT d, a, b, c, lut, !PT
///   lop3.{and,or}.b32 d|p, a, b, c, lut, q: p = (d != 0) and/or q. HW: ptxas 13.0 folds it
///                        into the LOP3 (LOP3.LUT[.PAND] p, d, a, b, c, lut, q); here LOP3
///                        then ISETP.NE.U32.{AND,OR} p, PT, d, RZ, q (the same predicate)
///   shl.16/32            SHF.L.U32 d, a, s, RZ  (SHF clamps the amount at 32: PTX's clamp)
///   shr.32               SHF.R.{U32,S32}.HI d, RZ, s, a;  .16 extends a first
///   shl/shr.64           SHF.L.U64.HI + SHF.L.U32 / SHF.R.{U64,S64} + SHF.R.{U32,S32}.HI;
///                        an immediate amount >= 32 moves one word into the other
///   shf.{l,r}.{wrap,clamp} SHF.L[.W].U32.HI d, a, c, b / SHF.R[.W].U32 d, a, c, b
///   popc                 POPC (.64: two and IADD3)
///   clz                  FLO.U32 + IADD3 d, -t, 0x1f (.64: pick the word, 0x1f/0x3f, SEL)
///   bfind[.shiftamt]     FLO[.U32][.SH];  .64: FLO of the high word, else of the low one
///   brev                 BREV (.64: crossed halves)
///   bfe.32               SHF.R.{U32,S32}.HI by pos & 0xff, SGXT[.U32] by len & 0xff
///                        (ptxas isolates the bytes with three PRMTs, we use LOP3)
///   bfi.32               SHF.L.U32 f by pos, BMSK pos, len, LOP3 0xe2 (mask selects)
///   bfe/bfi.64           GUESS-free arithmetic of our own (64-bit shifts and masks), not
///                        ptxas's sequences; see bfe64/bfi64
///   bmsk / szext         BMSK[.W] / SGXT[.W][.U32]
///   prmt[.mode]          PRMT[.F4E|.B4E|.RC8|.ECL|.ECR|.RC16] d, a, c, b
//===----------------------------------------------------------------------------------===//
#include "frontend/lower/lower_int.h"

namespace ptxmini::frontend::lower::intsel {
namespace {

/// A predicate source: a register (maybe '!'), or an immediate as PT / !PT.
Operand predSrc(const Operand &x) {
  if (x.kind == ori::OperandKind::Imm)
    return x.imm ? PT() : NPT();
  return x;
}

bool logic2(LowerCtx &ctx, const ptx::Instruction &in, uint8_t lut) {
  IntSel s(ctx, in);
  if (!ctx.onlyModifiers(in, {}))
    return false;
  Operand d, x[2];
  if (!s.operands(2, d, x))
    return false;
  if (isPredType(s.type())) {
    s.emit(Opcode::PLOP3, {Modifier::LUT}, {d, PT()},
           {predSrc(x[0]), predSrc(x[1]), PT(), imm(lut), imm(0)});
    return true;
  }
  if (!isIntType(s.type()))
    return s.fail();
  unsigned halves = s.bits() == 64 ? 2 : 1;
  for (unsigned k = 0; k < halves; ++k) {
    Operand a = halves == 2 ? s.half(x[0], k) : s.r32(x[0]);
    Operand b = halves == 2 ? s.half(x[1], k) : s.r32(x[1]);
    if (!a.isReg() && b.isReg()) // the LUTs used here are symmetric in a and b
      std::swap(a, b);
    Operand dd = halves == 2 ? component(d, k) : d;
    s.emit(Opcode::LOP3, {Modifier::LUT}, {dd}, {s.inReg(a), b, RZ(), imm(lut), NPT()});
  }
  return true;
}

/// The low 8 bits of a bfe/bfi position or length operand (PTX uses only those).
Operand byte0(IntSel &s, const Operand &x) {
  if (x.kind == ori::OperandKind::Imm)
    return s.r32(imm(x.imm & 0xff));
  Operand t = s.temp();
  s.emit(Opcode::LOP3, {Modifier::LUT}, {t}, {x, imm(0xff), RZ(), imm(0xc0), NPT()});
  return t;
}

/// max(64 - len, 0) for a 64-bit field of `len` bits (len < 256).
Operand fieldShift(IntSel &s, const Operand &len) {
  if (len.kind == ori::OperandKind::Imm || len.isFixed()) {
    int64_t l = len.isFixed() ? 0 : len.imm;
    return s.r32(imm(std::max<int64_t>(64 - l, 0)));
  }
  Operand t = s.temp(), k = s.temp();
  s.emit(Opcode::IADD3, {}, {t}, {negate(len), imm(64), RZ()});
  s.emit(Opcode::VIMNMX, {}, {k}, {t, RZ(), NPT()});
  return k;
}

/// 64-bit bfe: shift the field down (arithmetic for .s64), then move it to the top and back
/// (by max(64 - len, 0)), which keeps len bits and sign- or zero-fills the rest: len = 0
/// gives 0, len >= 64 keeps everything, pos >= 64 leaves only the fill, as PTX defines.
void bfe64(IntSel &s, const Operand &d, const Operand &a, const Operand &pos,
           const Operand &len, bool sign) {
  Operand t = s.temp(2), u = s.temp(2);
  s.shr64(t, s.inReg(a, 2), pos, sign);
  Operand k = fieldShift(s, len);
  s.shl64(u, t, k);
  s.shr64(d, u, k, sign);
}

/// 64-bit bfi: mask = ((1 << len) - 1) << pos (shifts clamp, so len >= 64 gives all ones and
/// pos >= 64 nothing), d = (f << pos) & mask | b & ~mask.
void bfi64(IntSel &s, const Operand &d, const Operand &f, const Operand &b, const Operand &pos,
           const Operand &len) {
  Operand one = s.temp(2), m1 = s.temp(2), m = s.temp(2), m2 = s.temp(2), sh = s.temp(2);
  s.copy(one, imm(1), 2);
  s.shl64(m1, one, len);
  s.add64(m2, m1, imm(1), true);
  s.shl64(m, m2, pos);
  s.shl64(sh, s.inReg(f, 2), pos);
  for (unsigned k = 0; k < 2; ++k)
    s.emit(Opcode::LOP3, {Modifier::LUT}, {component(d, k)},
           {component(sh, k), component(m, k), s.half(b, k), imm(0xe2), NPT()});
}

} // namespace

bool lowerAnd(LowerCtx &c, const ptx::Instruction &i) { return logic2(c, i, 0xc0); }
bool lowerOr(LowerCtx &c, const ptx::Instruction &i) { return logic2(c, i, 0xfc); }
bool lowerXor(LowerCtx &c, const ptx::Instruction &i) { return logic2(c, i, 0x3c); }

bool lowerNot(LowerCtx &ctx, const ptx::Instruction &in) {
  IntSel s(ctx, in);
  if (!ctx.onlyModifiers(in, {}))
    return false;
  Operand d, x[1];
  if (!s.operands(1, d, x))
    return false;
  if (isPredType(s.type())) {
    s.emit(Opcode::PLOP3, {Modifier::LUT}, {d, PT()},
           {predSrc(x[0]), PT(), PT(), imm(0x0f), imm(0)});
    return true;
  }
  if (!isIntType(s.type()))
    return s.fail();
  if (s.bits() == 64) {
    for (unsigned k = 0; k < 2; ++k)
      s.emit(Opcode::LOP3, {Modifier::LUT}, {component(d, k)},
             {RZ(), s.half(x[0], k), RZ(), imm(0x33), NPT()});
  } else {
    s.emit(Opcode::LOP3, {Modifier::LUT}, {d}, {RZ(), s.r32(x[0]), RZ(), imm(0x33), NPT()});
  }
  return true;
}

bool lowerCnot(LowerCtx &ctx, const ptx::Instruction &in) {
  IntSel s(ctx, in);
  if (!isIntType(s.type()) || !ctx.onlyModifiers(in, {}))
    return isIntType(s.type()) ? false : s.fail();
  Operand d, x[1];
  if (!s.operands(1, d, x))
    return false;
  Operand v;
  if (s.bits() == 64) {
    v = s.temp();
    s.emit(Opcode::LOP3, {Modifier::LUT}, {v},
           {s.inReg(s.lo(x[0])), s.hi(x[0]), RZ(), imm(0xfc), NPT()});
  } else {
    v = s.inReg(s.ext(x[0], s.bits(), false));
  }
  Operand p = s.ptemp();
  s.emit(Opcode::ISETP, {Modifier::EQ, Modifier::U32, Modifier::AND}, {p, PT()},
         {v, RZ(), PT()});
  if (s.bits() == 64) {
    s.emit(Opcode::SEL, {}, {component(d, 0)}, {RZ(), imm(1), notP(p)});
    s.emit(Opcode::MOV, {}, {component(d, 1)}, {RZ()});
  } else {
    s.emit(Opcode::SEL, {}, {d}, {RZ(), imm(1), notP(p)});
  }
  return true;
}

bool lowerLop3(LowerCtx &ctx, const ptx::Instruction &in) {
  IntSel s(ctx, in);
  bool andOp = in.has("and"), orOp = in.has("or");
  if (s.bits() != 32 || !ctx.onlyModifiers(in, {"and", "or"}))
    return s.bits() != 32 ? s.fail() : false;
  Operand d, x[4];
  if (andOp || orOp) {
    // d|p, a, b, c, lut, q
    if (andOp == orOp || in.operands.size() != 6 || !in.operands[0].is<ptx::PairOperand>())
      return s.badForm();
    const auto &pair = in.operands[0].as<ptx::PairOperand>();
    d = ctx.reg(in, pair.first);
    Operand p = ctx.reg(in, pair.second);
    Operand q = ctx.source(in, in.operands[5]);
    if (d.kind == ori::OperandKind::None || p.kind == ori::OperandKind::None ||
        q.kind == ori::OperandKind::None)
      return false;
    if (d.cls != RegClass::R || p.cls != RegClass::P || q.cls != RegClass::P)
      return s.badForm();
    for (unsigned i = 0; i < 4; ++i)
      x[i] = s.src(i + 1);
    if (s.failed || x[3].kind != ori::OperandKind::Imm)
      return s.badForm();
    s.emit(Opcode::LOP3, {Modifier::LUT}, {d},
           {s.inReg(s.r32(x[0])), s.r32(x[1]), s.r32(x[2]), imm(x[3].imm & 0xff), NPT()});
    s.emit(Opcode::ISETP, {Modifier::NE, Modifier::U32, andOp ? Modifier::AND : Modifier::OR},
           {p, PT()}, {d, RZ(), q});
    return true;
  }
  if (!s.operands(4, d, x))
    return false;
  if (x[3].kind != ori::OperandKind::Imm)
    return s.badForm();
  s.emit(Opcode::LOP3, {Modifier::LUT}, {d},
         {s.inReg(s.r32(x[0])), s.r32(x[1]), s.r32(x[2]), imm(x[3].imm & 0xff), NPT()});
  return true;
}

bool lowerShl(LowerCtx &ctx, const ptx::Instruction &in) {
  IntSel s(ctx, in);
  if (!isIntType(s.type()) || !ctx.onlyModifiers(in, {}))
    return isIntType(s.type()) ? false : s.fail();
  Operand d, x[2];
  if (!s.operands(2, d, x))
    return false;
  if (s.bits() == 64)
    s.shl64(d, x[0], x[1]);
  else
    s.emit(Opcode::SHF, {Modifier::L, Modifier::U32}, {d}, {s.r32(x[0]), s.r32(x[1]), RZ()});
  return true;
}

bool lowerShr(LowerCtx &ctx, const ptx::Instruction &in) {
  IntSel s(ctx, in);
  if (!isIntType(s.type()) || !ctx.onlyModifiers(in, {}))
    return isIntType(s.type()) ? false : s.fail();
  Operand d, x[2];
  if (!s.operands(2, d, x))
    return false;
  bool sgn = s.isSigned();
  if (s.bits() == 64) {
    s.shr64(d, x[0], x[1], sgn);
    return true;
  }
  Operand a = s.ext(x[0], s.bits(), sgn);
  s.emit(Opcode::SHF, {Modifier::R, sgn ? Modifier::S32 : Modifier::U32, Modifier::HI}, {d},
         {RZ(), s.r32(x[1]), a});
  return true;
}

bool lowerShf(LowerCtx &ctx, const ptx::Instruction &in) {
  IntSel s(ctx, in);
  if (s.bits() != 32 || !ctx.onlyModifiers(in, {"l", "r", "wrap", "clamp"}))
    return s.bits() != 32 ? s.fail() : false;
  bool left = in.has("l"), wrap = in.has("wrap");
  if (left == in.has("r") || wrap == in.has("clamp"))
    return s.fail();
  Operand d, x[3];
  if (!s.operands(3, d, x))
    return false;
  Operand a = s.r32(x[0]), b = s.r32(x[1]), c = s.r32(x[2]);
  if (left && wrap)
    s.emit(Opcode::SHF, {Modifier::L, Modifier::W, Modifier::U32, Modifier::HI}, {d}, {a, c, b});
  else if (left)
    s.emit(Opcode::SHF, {Modifier::L, Modifier::U32, Modifier::HI}, {d}, {a, c, b});
  else if (wrap)
    s.emit(Opcode::SHF, {Modifier::R, Modifier::W, Modifier::U32}, {d}, {a, c, b});
  else
    s.emit(Opcode::SHF, {Modifier::R, Modifier::U32}, {d}, {a, c, b});
  return true;
}

bool lowerPopc(LowerCtx &ctx, const ptx::Instruction &in) {
  IntSel s(ctx, in);
  if (!isIntType(s.type()) || !ctx.onlyModifiers(in, {}))
    return isIntType(s.type()) ? false : s.fail();
  Operand d, x[1];
  if (!s.operands(1, d, x))
    return false;
  if (s.bits() == 64) {
    Operand a = s.temp(), b = s.temp();
    s.emit(Opcode::POPC, {}, {a}, {s.inReg(s.lo(x[0]))});
    s.emit(Opcode::POPC, {}, {b}, {s.inReg(s.hi(x[0]))});
    s.emit(Opcode::IADD3, {}, {d}, {a, b, RZ()});
  } else {
    s.emit(Opcode::POPC, {}, {d}, {s.inReg(s.r32(x[0]))});
  }
  return true;
}

bool lowerClz(LowerCtx &ctx, const ptx::Instruction &in) {
  IntSel s(ctx, in);
  if (!isIntType(s.type()) || !ctx.onlyModifiers(in, {}))
    return isIntType(s.type()) ? false : s.fail();
  Operand d, x[1];
  if (!s.operands(1, d, x))
    return false;
  Operand f = s.temp();
  if (s.bits() != 64) {
    s.emit(Opcode::FLO, {Modifier::U32}, {f}, {s.inReg(s.r32(x[0]))});
    s.emit(Opcode::IADD3, {}, {d}, {negate(f), imm(31), RZ()});
    return true;
  }
  Operand a = s.inReg(x[0], 2), p = s.ptemp(), w = s.temp(), r1 = s.temp(), r2 = s.temp();
  s.emit(Opcode::ISETP, {Modifier::NE, Modifier::U32, Modifier::AND}, {p, PT()},
         {s.hi(a), RZ(), PT()});
  s.emit(Opcode::SEL, {}, {w}, {s.hi(a), s.lo(a), p});
  s.emit(Opcode::FLO, {Modifier::U32}, {f}, {w});
  s.emit(Opcode::IADD3, {}, {r1}, {negate(f), imm(31), RZ()});
  s.emit(Opcode::IADD3, {}, {r2}, {negate(f), imm(63), RZ()});
  s.emit(Opcode::SEL, {}, {d}, {r1, r2, p});
  return true;
}

bool lowerBfind(LowerCtx &ctx, const ptx::Instruction &in) {
  IntSel s(ctx, in);
  if (!isIntType(s.type()) || !ctx.onlyModifiers(in, {"shiftamt"}))
    return isIntType(s.type()) ? false : s.fail();
  Operand d, x[1];
  if (!s.operands(1, d, x))
    return false;
  bool sgn = s.isSigned(), sh = in.has("shiftamt");
  if (s.bits() != 64) {
    Operand a = s.inReg(s.r32(x[0]));
    ori::Instr &i = sgn ? s.emit(Opcode::FLO, {}, {d}, {a})
                        : s.emit(Opcode::FLO, {Modifier::U32}, {d}, {a});
    if (sh)
      i.mods.push_back(Modifier::SH);
    return true;
  }
  // Position of the most significant (non-sign) bit: in the high word if FLO finds one
  // there, else in the low word (inverted when the value is negative, for .s64).
  Operand a = s.inReg(x[0], 2), fh = s.temp(), fl = s.temp(), t = s.temp(), p = s.ptemp();
  Operand lo = s.lo(a);
  if (sgn) {
    s.emit(Opcode::FLO, {}, {fh}, {s.hi(a)});
    Operand m = s.temp(), l2 = s.temp();
    s.emit(Opcode::SHF, {Modifier::R, Modifier::S32, Modifier::HI}, {m}, {RZ(), imm(31), s.hi(a)});
    s.emit(Opcode::LOP3, {Modifier::LUT}, {l2}, {lo, m, RZ(), imm(0x3c), NPT()});
    lo = l2;
  } else {
    s.emit(Opcode::FLO, {Modifier::U32}, {fh}, {s.hi(a)});
  }
  s.emit(Opcode::FLO, {Modifier::U32}, {fl}, {lo});
  s.emit(Opcode::ISETP, {Modifier::NE, Modifier::U32, Modifier::AND}, {p, PT()},
         {fh, imm(0xffffffff), PT()});
  s.emit(Opcode::IADD3, {}, {t}, {fh, imm(32), RZ()});
  if (!sh) {
    s.emit(Opcode::SEL, {}, {d}, {t, fl, p});
    return true;
  }
  Operand pos = s.temp(), u = s.temp(), q = s.ptemp();
  s.emit(Opcode::SEL, {}, {pos}, {t, fl, p});
  s.emit(Opcode::ISETP, {Modifier::NE, Modifier::U32, Modifier::AND}, {q, PT()},
         {pos, imm(0xffffffff), PT()});
  s.emit(Opcode::IADD3, {}, {u}, {negate(pos), imm(63), RZ()});
  s.emit(Opcode::SEL, {}, {d}, {u, imm(0xffffffff), q});
  return true;
}

bool lowerBrev(LowerCtx &ctx, const ptx::Instruction &in) {
  IntSel s(ctx, in);
  if (!isIntType(s.type()) || !ctx.onlyModifiers(in, {}))
    return isIntType(s.type()) ? false : s.fail();
  Operand d, x[1];
  if (!s.operands(1, d, x))
    return false;
  if (s.bits() != 64) {
    s.emit(Opcode::BREV, {}, {d}, {s.inReg(s.r32(x[0]))});
    return true;
  }
  Operand a = s.inReg(x[0], 2);
  Operand w = IntSel::aliases(d, {a}) ? s.temp(2) : d;
  s.emit(Opcode::BREV, {}, {component(w, 0)}, {s.hi(a)});
  s.emit(Opcode::BREV, {}, {component(w, 1)}, {s.lo(a)});
  if (w.reg != d.reg)
    s.copy(d, w, 2);
  return true;
}

bool lowerBfe(LowerCtx &ctx, const ptx::Instruction &in) {
  IntSel s(ctx, in);
  if (!isIntType(s.type()) || !ctx.onlyModifiers(in, {}))
    return isIntType(s.type()) ? false : s.fail();
  Operand d, x[3];
  if (!s.operands(3, d, x))
    return false;
  bool sgn = s.isSigned();
  Operand pos = byte0(s, x[1]), len = byte0(s, x[2]);
  if (s.bits() == 64) {
    bfe64(s, d, x[0], pos, len, sgn);
    return true;
  }
  Operand t = s.temp();
  s.emit(Opcode::SHF, {Modifier::R, sgn ? Modifier::S32 : Modifier::U32, Modifier::HI}, {t},
         {RZ(), pos, s.r32(x[0])});
  if (sgn)
    s.emit(Opcode::SGXT, {}, {d}, {t, len});
  else
    s.emit(Opcode::SGXT, {Modifier::U32}, {d}, {t, len});
  return true;
}

bool lowerBfi(LowerCtx &ctx, const ptx::Instruction &in) {
  IntSel s(ctx, in);
  if (!isIntType(s.type()) || !ctx.onlyModifiers(in, {}))
    return isIntType(s.type()) ? false : s.fail();
  Operand d, x[4];
  if (!s.operands(4, d, x))
    return false;
  Operand pos = byte0(s, x[2]), len = byte0(s, x[3]);
  if (s.bits() == 64) {
    Operand w = IntSel::aliases(d, {x[0], x[1]}) ? s.temp(2) : d;
    bfi64(s, w, x[0], x[1], pos, len);
    if (w.reg != d.reg)
      s.copy(d, w, 2);
    return true;
  }
  Operand sh = s.temp(), m;
  s.emit(Opcode::SHF, {Modifier::L, Modifier::U32}, {sh}, {s.inReg(s.r32(x[0])), pos, RZ()});
  if (!pos.isReg() || pos.isFixed()) {
    if (!len.isReg() || len.isFixed()) { // both known: the mask is a constant
      uint64_t p = pos.isFixed() ? 0 : static_cast<uint64_t>(pos.imm);
      uint64_t l = len.isFixed() ? 0 : static_cast<uint64_t>(len.imm);
      m = s.r32(imm(p >= 32 ? 0 : static_cast<uint32_t>(((uint64_t{1} << std::min<uint64_t>(l, 32)) - 1) << p)));
    }
  }
  if (m.kind == ori::OperandKind::None) {
    m = s.temp();
    s.emit(Opcode::BMSK, {}, {m}, {s.inReg(pos), len});
  }
  s.emit(Opcode::LOP3, {Modifier::LUT}, {d}, {sh, m, s.r32(x[1]), imm(0xe2), NPT()});
  return true;
}

bool lowerBmsk(LowerCtx &ctx, const ptx::Instruction &in) {
  IntSel s(ctx, in);
  if (s.bits() != 32 || !ctx.onlyModifiers(in, {"clamp", "wrap"}))
    return s.bits() != 32 ? s.fail() : false;
  Operand d, x[2];
  if (!s.operands(2, d, x))
    return false;
  // HW: ptxas: bmsk.clamp -> BMSK, bmsk.wrap -> BMSK.W.
  Operand a = s.inReg(s.r32(x[0])), b = s.r32(x[1]);
  if (in.has("wrap"))
    s.emit(Opcode::BMSK, {Modifier::W}, {d}, {a, b});
  else
    s.emit(Opcode::BMSK, {}, {d}, {a, b});
  return true;
}

bool lowerSzext(LowerCtx &ctx, const ptx::Instruction &in) {
  IntSel s(ctx, in);
  if (s.bits() != 32 || !ctx.onlyModifiers(in, {"clamp", "wrap"}))
    return s.bits() != 32 ? s.fail() : false;
  Operand d, x[2];
  if (!s.operands(2, d, x))
    return false;
  // HW: ptxas: szext.clamp -> SGXT[.U32], szext.wrap -> SGXT.W[.U32].
  Operand a = s.inReg(s.r32(x[0])), b = s.r32(x[1]);
  bool w = in.has("wrap");
  ori::Instr &i = s.isSigned() ? s.emit(Opcode::SGXT, {}, {d}, {a, b})
                                : s.emit(Opcode::SGXT, {Modifier::U32}, {d}, {a, b});
  if (w) // nvdisasm prints .W before .U32
    i.mods.insert(i.mods.begin(), Modifier::W);
  return true;
}

bool lowerPrmt(LowerCtx &ctx, const ptx::Instruction &in) {
  IntSel s(ctx, in);
  if (s.bits() != 32 || !ctx.onlyModifiers(in, {"f4e", "b4e", "rc8", "ecl", "ecr", "rc16"}))
    return s.bits() != 32 ? s.fail() : false;
  Operand d, x[3];
  if (!s.operands(3, d, x))
    return false;
  struct ModeRow {
    std::string_view ptx;
    Modifier sass;
  };
  static constexpr ModeRow kModes[] = {{"f4e", Modifier::F4E}, {"b4e", Modifier::B4E},
                                       {"rc8", Modifier::RC8}, {"ecl", Modifier::ECL},
                                       {"ecr", Modifier::ECR}, {"rc16", Modifier::RC16}};
  ori::Instr &i = s.emit(Opcode::PRMT, {}, {d}, {s.r32(x[0]), s.r32(x[2]), s.r32(x[1])});
  for (const ModeRow &m : kModes)
    if (in.has(m.ptx))
      i.mods.push_back(m.sass);
  return true;
}

bool lowerFns(LowerCtx &ctx, const ptx::Instruction &in) { return ctx.unsupported(in); }

} // namespace ptxmini::frontend::lower::intsel
