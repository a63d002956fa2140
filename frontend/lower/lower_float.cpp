//===- frontend/lower/lower_float.cpp - floating-point arithmetic and comparisons ------===//
///
/// \file
/// Instruction selection for PTX floating-point arithmetic, sign operations, min/max,
/// comparisons and classification, as ptxas 13.0.88 selects them for sm_90 (forms read off
/// its output with nvdisasm 13.2; `HW:` notes give the observation):
///   add/sub/mul/fma.f32   FADD/FMUL/FFMA[.FTZ][.RZ|.RM|.RP][.SAT] (sub negates b)
///   add/sub/mul/fma.f64   DADD/DMUL/DFMA[.RZ|.RM|.RP]
///   .f16/.bf16[x2]        HADD2/HMUL2/HFMA2[.BF16_V2][.FTZ][.SAT|.RELU] on the whole register (a
///                         scalar half lives in the low 16 bits, the high half is don't-care)
///   neg/abs.f32           FADD d, -a / |a|, -RZ     .f64: DADD d, -RZ, -a / |a|
///   min/max.f32           FMNMX[.FTZ][.NAN][.XORSIGN] d, a, b, PT (min) / !PT (max)
///   min/max.f64           DSETP.MIN/MAX + selects, quieting a NaN pair (as ptxas)
///   copysign              LOP3.LUT d, b, 0x80000000, a, 0xb8
///   setp.cmp[.bop]        FSETP/DSETP.cmp[.FTZ].bop p, PT, a, b, c; a second destination
///                         q = !cmp bop c is a second compare with the complementary cmp
///   set.cmp.dtype.f32     the setp, then SEL d, RZ, (-1 | 1.0), !p
///   setp.cmp.f16/bf16     HSETP2[.BF16_V2].cmp[.FTZ].bop p, PT, a, b, c: without a half
///                         selector HSETP2's first destination is the low halves' compare,
///                         where a scalar half lives (HW: ptxas writes a.H0_H0, b.H0_H0)
///   setp.cmp.f16x2 p|q    HSETP2.cmp.bop p, q, a, b, c (p: low halves, q: high halves)
///   set.cmp.u32.f16x2     HSET2.cmp.bop d, a, b, c (0xffff per true half);
///   set.cmp.f16x2.f16x2   HSET2.BF (1.0 per true half), bf16x2: HSET2.BF16_V2.BF; a scalar
///                         set.cmp.f16.f16 and set.cmp.u16.f16 the same (the low half);
///                         set.cmp.u32.f16: the setp, then SEL as for f32
///   testp.op.f32          integer tests on |a| (HW: ptxas's LOP3 + ISETP sequences)
/// The transcendental/approximate and IEEE-rounded division family is in
/// lower_float_math.cpp and lower_float_div.cpp, conversions in lower_convert.cpp.
/// Anything not selected is reported, never dropped.
//===----------------------------------------------------------------------------------===//
#include "frontend/lower/lower_context.h"

#include "frontend/lower/lower_float_internal.h"
#include "frontend/lower/lower_float_util.h"

#include <array>

namespace ptxmini::frontend::lower {
namespace {

using ori::Modifier;
using ori::Opcode;
using ori::Operand;
using ori::RegClass;
using ptx::ScalarType;

unsigned widthOf(ScalarType t) {
  return t == ScalarType::F64 ? 64 : t == ScalarType::F32 ? 32 : isHalfType(t) ? 16 : 0;
}

/// HADD2/HMUL2/HFMA2 modifiers in template order: .BF16_V2, .FTZ, .SAT.
void halfMods(ori::Instr &i, ScalarType t, const FloatMods &m) {
  if (isBf16Type(t))
    i.mods.push_back(Modifier::BF16_V2);
  if (m.ftz)
    i.mods.push_back(Modifier::FTZ);
  if (m.sat)
    i.mods.push_back(Modifier::SAT);
  if (m.relu)
    i.mods.push_back(Modifier::RELU);
}

// ---- add, sub, mul, fma, mad -------------------------------------------------------------

enum class Arith { Add, Sub, Mul, Fma };

bool lowerArith(LowerCtx &ctx, const ptx::Instruction &in, Arith op) {
  ScalarType t = in.type();
  unsigned bits = widthOf(t);
  unsigned n = op == Arith::Fma ? 3 : 2;
  FloatMods m;
  Operand d;
  std::array<Operand, 3> s;
  if (bits == 32) {
    if (!parseFloatMods(ctx, in, {"rn", "rz", "rm", "rp", "ftz", "sat"}, m) ||
        !floatOperands(ctx, in, n, 32, d, s))
      return false;
    if (op == Arith::Sub)
      s[1] = fneg(s[1]);
    Opcode opc = op == Arith::Fma ? Opcode::FFMA : op == Arith::Mul ? Opcode::FMUL : Opcode::FADD;
    ori::Instr &i = op == Arith::Fma ? ctx.emit(opc, {}, {d}, {s[0], s[1], s[2]})
                                     : ctx.emit(opc, {}, {d}, {s[0], s[1]});
    if (m.ftz)
      i.mods.push_back(Modifier::FTZ);
    addRound(i, m.rnd);
    if (m.sat)
      i.mods.push_back(Modifier::SAT);
    return true;
  }
  if (bits == 64) {
    if (!parseFloatMods(ctx, in, {"rn", "rz", "rm", "rp"}, m) ||
        !floatOperands(ctx, in, n, 64, d, s))
      return false;
    if (op == Arith::Sub)
      s[1] = fneg(s[1]);
    Opcode opc = op == Arith::Fma ? Opcode::DFMA : op == Arith::Mul ? Opcode::DMUL : Opcode::DADD;
    ori::Instr &i = op == Arith::Fma ? ctx.emit(opc, {}, {d}, {s[0], s[1], s[2]})
                                     : ctx.emit(opc, {}, {d}, {s[0], s[1]});
    addRound(i, m.rnd);
    return true;
  }
  if (bits == 16) {
    // PTX: .f16/.bf16 arithmetic rounds to nearest only; bf16 has no .ftz/.sat.
    // fma.rn.relu clamps a negative result to +0 (HFMA2.RELU; PTX allows it with fma only).
    std::string_view relu = op == Arith::Fma ? "relu" : "rn";
    bool modsOk = isBf16Type(t) ? parseFloatMods(ctx, in, {"rn", relu}, m)
                                : parseFloatMods(ctx, in, {"rn", "ftz", "sat", relu}, m);
    if (modsOk && m.relu && m.sat)
      return ctx.unsupported(in, "Modifiers '.relu' with '.sat' of '" + in.fullOpcode() + "'");
    if (!modsOk || !floatOperands(ctx, in, n, 16, d, s))
      return false;
    for (unsigned k = 0; k < n; ++k)
      if (s[k].kind != ori::OperandKind::VReg)
        return ctx.unsupported(in, "An immediate operand of '" + in.fullOpcode() + "'");
    if (op == Arith::Sub)
      s[1] = fneg(s[1]);
    Opcode opc = op == Arith::Fma ? Opcode::HFMA2 : op == Arith::Mul ? Opcode::HMUL2 : Opcode::HADD2;
    ori::Instr &i = op == Arith::Fma ? ctx.emit(opc, {}, {d}, {s[0], s[1], s[2]})
                                     : ctx.emit(opc, {}, {d}, {s[0], s[1]});
    halfMods(i, t, m);
    return true;
  }
  return ctx.unsupported(in);
}

bool lowerAdd(LowerCtx &ctx, const ptx::Instruction &in) { return lowerArith(ctx, in, Arith::Add); }
bool lowerSub(LowerCtx &ctx, const ptx::Instruction &in) { return lowerArith(ctx, in, Arith::Sub); }
bool lowerMul(LowerCtx &ctx, const ptx::Instruction &in) { return lowerArith(ctx, in, Arith::Mul); }
bool lowerFma(LowerCtx &ctx, const ptx::Instruction &in) { return lowerArith(ctx, in, Arith::Fma); }

// ---- neg, abs, copysign --------------------------------------------------------------------

bool lowerNegAbs(LowerCtx &ctx, const ptx::Instruction &in, bool isNeg) {
  ScalarType t = in.type();
  unsigned bits = widthOf(t);
  FloatMods m;
  Operand d;
  std::array<Operand, 3> s;
  if (bits == 0)
    return ctx.unsupported(in);
  bool modsOk = bits == 64 || isBf16Type(t) ? parseFloatMods(ctx, in, {}, m)
                                            : parseFloatMods(ctx, in, {"ftz"}, m);
  if (!modsOk || !floatOperands(ctx, in, 1, bits, d, s))
    return false;
  Operand a = isNeg ? fneg(s[0]) : fabsOp(s[0]);
  Operand negZero = RZ();
  negZero.mods |= ori::OM_NEG;
  if (bits == 32) {
    // HW: ptxas: FADD d, -a, -RZ / FADD d, |a|, -RZ (adding -0 keeps the sign of a zero).
    ori::Instr &i = ctx.emit(Opcode::FADD, {}, {d}, {a, negZero});
    if (m.ftz)
      i.mods.push_back(Modifier::FTZ);
    return true;
  }
  if (bits == 64) {
    ctx.emit(Opcode::DADD, {}, {d}, {negZero, a});
    return true;
  }
  if (s[0].kind != ori::OperandKind::VReg)
    return ctx.unsupported(in, "An immediate operand of '" + in.fullOpcode() + "'");
  if (m.ftz) {
    ori::Instr &i = ctx.emit(Opcode::HADD2, {}, {d}, {a, negZero});
    halfMods(i, t, m);
    return true;
  }
  // Without .ftz the result is the operand with its sign bit(s) changed (PTX: a NaN input
  // gives an unspecified NaN), which a LOP3 does exactly for one or two halves.
  uint32_t sign = t == ScalarType::F16X2 || t == ScalarType::BF16X2 ? 0x80008000u : 0x8000u;
  if (isNeg)
    ctx.emit(Opcode::LOP3, {Modifier::LUT}, {d}, {s[0], imm(sign), RZ(), imm(0x3c), notPT()});
  else
    ctx.emit(Opcode::LOP3, {Modifier::LUT}, {d}, {s[0], imm(~sign & 0xffffffffu), RZ(), imm(0xc0), notPT()});
  return true;
}
bool lowerNeg(LowerCtx &ctx, const ptx::Instruction &in) { return lowerNegAbs(ctx, in, true); }
bool lowerAbs(LowerCtx &ctx, const ptx::Instruction &in) { return lowerNegAbs(ctx, in, false); }

// copysign.type d, a, b: b's magnitude with a's sign.
bool lowerCopysign(LowerCtx &ctx, const ptx::Instruction &in) {
  ScalarType t = in.type();
  unsigned bits = widthOf(t);
  FloatMods m;
  Operand d;
  std::array<Operand, 3> s;
  if (bits != 32 && bits != 64)
    return ctx.unsupported(in);
  if (!parseFloatMods(ctx, in, {}, m) || !floatOperands(ctx, in, 2, bits, d, s))
    return false;
  for (unsigned k = 0; k < 2; ++k)
    if (s[k].kind != ori::OperandKind::VReg)
      return ctx.unsupported(in, "An immediate operand of '" + in.fullOpcode() + "'");
  // LOP3 over (b=0xf0, mask=0xcc, a=0xaa): (mask & a) | (~mask & b) = 0xb8.
  if (bits == 32) {
    ctx.emit(Opcode::LOP3, {Modifier::LUT}, {d}, {s[1], imm(0x80000000), s[0], imm(0xb8), notPT()});
    return true;
  }
  ctx.emit(Opcode::LOP3, {Modifier::LUT}, {component(d, 1)},
           {component(s[1], 1), imm(0x80000000), component(s[0], 1), imm(0xb8), notPT()});
  ctx.emit(Opcode::MOV, {}, {component(d, 0)}, {component(s[1], 0)});
  return true;
}

// ---- min, max ------------------------------------------------------------------------------

bool lowerMinMax(LowerCtx &ctx, const ptx::Instruction &in, bool isMin) {
  ScalarType t = in.type();
  unsigned bits = widthOf(t);
  FloatMods m;
  Operand d;
  std::array<Operand, 3> s;
  if (bits == 0)
    return ctx.unsupported(in);
  bool modsOk = bits == 64        ? parseFloatMods(ctx, in, {}, m)
                : isBf16Type(t) ? parseFloatMods(ctx, in, {"NaN", "xorsign", "abs"}, m)
                                : parseFloatMods(ctx, in, {"ftz", "NaN", "xorsign", "abs"}, m);
  if (!modsOk || !floatOperands(ctx, in, 2, bits, d, s))
    return false;
  if (m.xorsign != m.abs)
    return ctx.unsupported(in, "Modifier '.xorsign' without '.abs' of '" + in.fullOpcode() + "'");
  Operand sel = isMin ? PT() : notPT();
  if (bits == 32 || bits == 16) {
    if (bits == 16 && (s[0].kind != ori::OperandKind::VReg || s[1].kind != ori::OperandKind::VReg))
      return ctx.unsupported(in, "An immediate operand of '" + in.fullOpcode() + "'");
    Operand a = m.abs ? fabsOp(s[0]) : s[0], b = m.abs ? fabsOp(s[1]) : s[1];
    // HW: FMNMX picks the other operand when one is NaN and the canonical NaN when both are
    // (PTX min/max); .NAN makes any NaN operand give the canonical NaN (PTX .NaN).
    ori::Instr &i = ctx.emit(bits == 32 ? Opcode::FMNMX : Opcode::HMNMX2, {}, {d}, {a, b, sel});
    if (bits == 16 && isBf16Type(t))
      i.mods.push_back(Modifier::BF16_V2);
    if (m.ftz)
      i.mods.push_back(Modifier::FTZ);
    if (m.nan)
      i.mods.push_back(Modifier::NaN);
    if (m.xorsign)
      i.mods.push_back(Modifier::XORSIGN);
    return true;
  }
  // f64, as ptxas 13.0 selects it (HW: `min.f64` gives DSETP.MIN.AND P0, P1, a, b, PT; the
  // halves selected on P0; with P1 (both NaN) the high word is b's with the quiet bit set).
  // The temporaries are computed unguarded (a guarded definition would keep them live from
  // the function entry); only the writes of d carry the PTX guard.
  Operand saved = ctx.curGuard;
  ctx.curGuard = {};
  // An immediate operand goes through a register pair (two MOVs): DSETP takes only the upper
  // 32 bits of a double immediate and the SELs need both words. Found by tests/fuzz (the
  // generator clamps every f64 with max.f64 x, -DBL_MAX before storing it).
  for (unsigned k = 0; k < 2; ++k)
    if (s[k].kind == ori::OperandKind::FImm64)
      s[k] = inReg64(ctx, s[k]);
    else if (s[k].kind != ori::OperandKind::VReg)
      return ctx.unsupported(in, "An immediate operand of '" + in.fullOpcode() + "'");
  Operand pa = ctx.temp(RegClass::P), pn = ctx.temp(RegClass::P);
  ctx.emit(Opcode::DSETP, {isMin ? Modifier::MIN : Modifier::MAX, Modifier::AND}, {pa, pn},
           {s[0], s[1], PT()});
  Operand hi = ctx.temp(RegClass::R), lo = ctx.temp(RegClass::R);
  ctx.emit(Opcode::SEL, {}, {hi}, {component(s[0], 1), component(s[1], 1), pa});
  ctx.emit(Opcode::SEL, {}, {lo}, {component(s[0], 0), component(s[1], 0), pa});
  // Where both were NaN (pn), b's high word with the quiet bit set.
  ctx.curGuard = pn;
  ctx.emit(Opcode::LOP3, {Modifier::LUT}, {hi}, {component(s[1], 1), imm(0x80000), RZ(), imm(0xfc), notPT()});
  ctx.curGuard = saved;
  ctx.emit(Opcode::MOV, {}, {component(d, 0)}, {lo});
  ctx.emit(Opcode::MOV, {}, {component(d, 1)}, {hi});
  return true;
}
bool lowerMin(LowerCtx &ctx, const ptx::Instruction &in) { return lowerMinMax(ctx, in, true); }
bool lowerMax(LowerCtx &ctx, const ptx::Instruction &in) { return lowerMinMax(ctx, in, false); }

// ---- setp, set, testp ----------------------------------------------------------------------

/// The comparison of a setp/set: cmp, the operands, the optional predicate c (with its
/// combine), into `p` (and the complement into `q` when given). False after reporting.
/// HSETP2/HSET2's modifiers in template order: .BF16_V2, (.BF), cmp, .FTZ, bop.
void halfCompareMods(ori::Instr &i, ScalarType t, bool bf, Modifier which, bool ftz,
                     Modifier bop) {
  if (isBf16Type(t))
    i.mods.push_back(Modifier::BF16_V2);
  if (bf)
    i.mods.push_back(Modifier::BF);
  i.mods.push_back(which);
  if (ftz)
    i.mods.push_back(Modifier::FTZ);
  i.mods.push_back(bop);
}

bool emitCompare(LowerCtx &ctx, const ptx::Instruction &in, const FloatCmp &cmp, bool ftz,
                 ScalarType t, const Operand &a, const Operand &b, const Operand &c,
                 const Operand &p, const Operand &q) {
  unsigned bits = widthOf(t);
  bool pair = t == ScalarType::F16X2 || t == ScalarType::BF16X2;
  Modifier bop = c.kind == ori::OperandKind::None ? Modifier::AND : boolOp(in);
  Operand cc = c.kind == ori::OperandKind::None ? PT() : c;
  // `setp.ne.xor p|q, a, b, p`: the first compare writes p, which the second still reads.
  if (q.kind != ori::OperandKind::None && cc.kind == ori::OperandKind::VReg && cc.reg == p.reg) {
    Operand t = ctx.temp(RegClass::P);
    Operand plain = cc;
    plain.mods = 0;
    ctx.emit(Opcode::PLOP3, {Modifier::LUT}, {t, PT()}, {plain, PT(), PT(), imm(0xf0), imm(0)});
    t.mods = cc.mods;
    cc = t;
  }
  if (pair) { // one HSETP2: low halves into p, high halves into q
    ori::Instr &i = ctx.emit(Opcode::HSETP2, {}, {p, q.kind == ori::OperandKind::None ? PT() : q},
                             {a, b, cc});
    halfCompareMods(i, t, false, cmp.sass, ftz, bop);
    return true;
  }
  auto one = [&](Modifier which, const Operand &dst) {
    if (bits == 16) {
      ori::Instr &i = ctx.emit(Opcode::HSETP2, {}, {dst, PT()},
                               {a, b, cc});
      halfCompareMods(i, t, false, which, ftz, bop);
    } else if (bits == 64) {
      ctx.emit(Opcode::DSETP, {which, bop}, {dst, PT()}, {a, b, cc});
    } else {
      ori::Instr &i = ctx.emit(Opcode::FSETP, {which}, {dst, PT()}, {a, b, cc});
      if (ftz)
        i.mods.push_back(Modifier::FTZ);
      i.mods.push_back(bop);
    }
  };
  one(cmp.sass, p);
  if (q.kind != ori::OperandKind::None)
    one(cmp.complement, q);
  return true;
}

/// Reads `setp`/`set` operands: destination(s), a, b and the optional predicate c.
bool compareOperands(LowerCtx &ctx, const ptx::Instruction &in, unsigned bits, Operand &p,
                     Operand &q, Operand &a, Operand &b, Operand &c) {
  size_t n = in.operands.size();
  if (n != 3 && n != 4)
    return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
  const ptx::Operand &dst = in.operands[0];
  if (dst.is<ptx::PairOperand>()) {
    p = ctx.reg(in, dst.as<ptx::PairOperand>().first);
    q = ctx.reg(in, dst.as<ptx::PairOperand>().second);
    if (q.kind == ori::OperandKind::None)
      return false;
  } else if (dst.is<ptx::RegOperand>()) {
    p = ctx.reg(in, dst.as<ptx::RegOperand>().name);
  } else {
    return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
  }
  if (p.kind == ori::OperandKind::None)
    return false;
  a = floatSource(ctx, in, in.operands[1], bits);
  b = floatSource(ctx, in, in.operands[2], bits);
  if (a.kind == ori::OperandKind::None || b.kind == ori::OperandKind::None)
    return false;
  if (n == 4) {
    c = ctx.source(in, in.operands[3]);
    if (c.kind != ori::OperandKind::VReg || c.cls != RegClass::P)
      return c.kind == ori::OperandKind::None
                 ? false
                 : ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
  }
  return true;
}

bool lowerSetp(LowerCtx &ctx, const ptx::Instruction &in) {
  ScalarType t = in.type();
  unsigned bits = widthOf(t);
  if (bits != 16 && bits != 32 && bits != 64)
    return ctx.unsupported(in);
  const FloatCmp *cmp = findFloatCmp(in);
  FloatMods m;
  if (!cmp)
    return ctx.unsupported(in);
  // .ftz: f32 and f16[x2] (PTX ISA: setp.f16 takes .ftz; bf16 and f64 do not).
  bool ftzOk = bits == 32 || t == ScalarType::F16 || t == ScalarType::F16X2;
  if (!parseFloatMods(ctx, in, {cmp->ptx, "and", "or", "xor", ftzOk ? "ftz" : "and"}, m))
    return false;
  Operand p, q, a, b, c;
  if (!compareOperands(ctx, in, bits, p, q, a, b, c))
    return false;
  if (q.kind == ori::OperandKind::None || ctx.curGuard.kind == ori::OperandKind::None)
    return emitCompare(ctx, in, *cmp, m.ftz, t, a, b, c, p, q);
  // Guarded `@g setp p|q`: both results into temporaries first, then copied under the guard
  // (the guard may be p itself).
  Operand saved = ctx.curGuard, tp = ctx.temp(RegClass::P), tq = ctx.temp(RegClass::P);
  ctx.curGuard = {};
  emitCompare(ctx, in, *cmp, m.ftz, t, a, b, c, tp, tq);
  ctx.curGuard = saved;
  Operand g = guardAnd(ctx, PT(), false); // the guard itself, evaluated once
  ctx.curGuard = g;
  ctx.emit(Opcode::PLOP3, {Modifier::LUT}, {p, PT()}, {tp, PT(), PT(), imm(0xf0), imm(0)});
  ctx.emit(Opcode::PLOP3, {Modifier::LUT}, {q, PT()}, {tq, PT(), PT(), imm(0xf0), imm(0)});
  ctx.curGuard = saved;
  return true;
}

// set.cmp[.ftz][.bop].dtype.stype d, a, b[, c]: d = all ones / 1.0 when true, else 0.
bool lowerSet(LowerCtx &ctx, const ptx::Instruction &in) {
  std::vector<ScalarType> ts = in.types();
  if (ts.size() != 2)
    return ctx.unsupported(in);
  unsigned bits = widthOf(ts[1]);
  bool pair = ts[1] == ScalarType::F16X2 || ts[1] == ScalarType::BF16X2;
  bool dstFloat = ts[0] == ScalarType::F32;
  bool dstInt = ts[0] == ScalarType::U32 || ts[0] == ScalarType::S32 || ts[0] == ScalarType::B32;
  // set.cmp.f16x2.f16x2 / set.cmp.f16.f16: 1.0 per true half (HSET2.BF; a scalar's result is
  // the low half, the high half of its register is don't-care).
  // set.cmp.u16.f16: 0xffff in the low half, HSET2 without .BF.
  bool dstHalf = bits == 16 && ts[0] == ts[1];
  bool dstMask16 = bits == 16 && !pair && (ts[0] == ScalarType::U16 || ts[0] == ScalarType::S16);
  // The checker (ptx_check.cpp) has already refused the destination types ptxas refuses.
  bool ok = bits == 16 ? dstInt || dstHalf || dstMask16
                       : (bits == 32 || bits == 64) && (dstFloat || dstInt);
  if (!ok)
    return ctx.unsupported(in);
  const FloatCmp *cmp = findFloatCmp(in);
  FloatMods m;
  if (!cmp)
    return ctx.unsupported(in);
  bool ftzOk = bits == 32 || ts[1] == ScalarType::F16X2 || ts[1] == ScalarType::F16;
  if (!parseFloatMods(ctx, in, {cmp->ptx, "and", "or", "xor", ftzOk ? "ftz" : "and"}, m))
    return false;
  Operand d, q, a, b, c;
  if (!in.operands.empty() && in.operands[0].is<ptx::PairOperand>())
    return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
  if (!compareOperands(ctx, in, bits, d, q, a, b, c))
    return false;
  if (pair || dstHalf || dstMask16) { // HSET2 per half: 0xffff, or 1.0 with .BF, when true
    Modifier bop = c.kind == ori::OperandKind::None ? Modifier::AND : boolOp(in);
    ori::Instr &i = ctx.emit(Opcode::HSET2, {}, {d},
                             {a, b,
                              c.kind == ori::OperandKind::None ? PT() : c});
    halfCompareMods(i, ts[1], dstHalf, cmp->sass, m.ftz, bop);
    return true;
  }
  Operand p = ctx.temp(RegClass::P);
  emitCompare(ctx, in, *cmp, m.ftz, ts[1], a, b, c, p, Operand{});
  Operand np = p;
  np.mods |= ori::OM_NOT;
  ctx.emit(Opcode::SEL, {}, {d}, {RZ(), dstFloat ? imm(0x3f800000) : imm(0xffffffff), np});
  return true;
}

// testp.op.type p, a. HW: ptxas 13.0 tests f32 on the integer bits of |a| (LOP3 with
// 0x7fffffff, then ISETP.*.U32 against 0x7f800000 / 0x800000); `normal` includes zero and
// `subnormal` excludes it, as ptxas selects them.
bool lowerTestp(LowerCtx &ctx, const ptx::Instruction &in) {
  ScalarType t = in.type();
  unsigned bits = widthOf(t);
  if (bits != 32 && bits != 64)
    return ctx.unsupported(in);
  std::string_view op;
  for (std::string_view w : {"finite", "infinite", "number", "notanumber", "normal", "subnormal"})
    if (in.has(w))
      op = w;
  FloatMods m;
  if (op.empty() || !parseFloatMods(ctx, in, {op}, m))
    return op.empty() ? ctx.unsupported(in) : false;
  if (in.operands.size() != 2 || !in.operands[0].is<ptx::RegOperand>())
    return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
  Operand p = ctx.reg(in, in.operands[0].as<ptx::RegOperand>().name);
  Operand a = floatSource(ctx, in, in.operands[1], bits);
  if (p.kind == ori::OperandKind::None || a.kind == ori::OperandKind::None)
    return false;
  if (a.kind != ori::OperandKind::VReg)
    return ctx.unsupported(in, "An immediate operand of '" + in.fullOpcode() + "'");
  // The test is computed unguarded into a temporary and written to p in one step under the
  // PTX guard (`@p testp.normal.f32 p, a` must not see its own partial result as the guard).
  Operand saved = ctx.curGuard, finalP = p;
  ctx.curGuard = {};
  p = ctx.temp(RegClass::P);
  // The magnitude bits: f32 |a|; f64 the high word of |a| with the low word folded in as a
  // sticky bit (an f64 is finite iff |hi| < 0x7ff00000, a NaN iff |hi| > 0x7ff00000 or
  // |hi| == 0x7ff00000 with a nonzero low word, ...).
  Operand mag = ctx.temp(RegClass::R);
  uint32_t inf = 0x7f800000, minNormal = 0x800000;
  if (bits == 32) {
    ctx.emit(Opcode::LOP3, {Modifier::LUT}, {mag}, {a, imm(0x7fffffff), RZ(), imm(0xc0), notPT()});
  } else {
    // mag = (|hi| << 1) | (lo != 0): compares against inf/min-normal shifted left by one
    // stay exact (2 * 0x7ff00000 fits in 32 bits unsigned).
    Operand nz = ctx.temp(RegClass::P);
    ctx.emit(Opcode::ISETP, {Modifier::NE, Modifier::U32, Modifier::AND}, {nz, PT()},
             {component(a, 0), RZ(), PT()});
    Operand sticky = ctx.temp(RegClass::R);
    ctx.emit(Opcode::SEL, {}, {sticky}, {imm(1), RZ(), nz});
    ctx.emit(Opcode::LEA, {}, {mag}, {component(a, 1), sticky, imm(1)});
    inf = 0xffe00000u;
    minNormal = 0x00200000u;
  }
  auto isetp = [&](Modifier cmpm, const Operand &dst, const Operand &b, const Operand &c,
                   Modifier bop) {
    Operand bb = b.kind == ori::OperandKind::Imm ? simm(b.imm) : b;
    ctx.emit(Opcode::ISETP, {cmpm, Modifier::U32, bop}, {dst, PT()}, {mag, bb, c});
  };
  Operand notP = p;
  notP.mods |= ori::OM_NOT;
  if (op == "finite")
    isetp(Modifier::LT, p, imm(inf), PT(), Modifier::AND);
  else if (op == "infinite")
    isetp(Modifier::EQ, p, imm(inf), PT(), Modifier::AND);
  else if (op == "number")
    isetp(Modifier::LE, p, imm(inf), PT(), Modifier::AND);
  else if (op == "notanumber")
    isetp(Modifier::GT, p, imm(inf), PT(), Modifier::AND);
  else if (op == "normal") {
    isetp(Modifier::GE, p, imm(inf), PT(), Modifier::AND);
    isetp(Modifier::GE, p, imm(minNormal), notP, Modifier::AND);
    isetp(Modifier::EQ, p, RZ(), p, Modifier::OR);
  } else {
    isetp(Modifier::GE, p, imm(minNormal), PT(), Modifier::AND);
    isetp(Modifier::GT, p, RZ(), notP, Modifier::AND);
  }
  ctx.curGuard = saved;
  ctx.emit(Opcode::PLOP3, {Modifier::LUT}, {finalP, PT()}, {p, PT(), PT(), imm(0xf0), imm(0)});
  return true;
}

constexpr std::array kRows = {
    HandlerRow{"add", TypeClass::Float, lowerAdd},
    HandlerRow{"sub", TypeClass::Float, lowerSub},
    HandlerRow{"mul", TypeClass::Float, lowerMul},
    HandlerRow{"mad", TypeClass::Float, lowerFma},
    HandlerRow{"fma", TypeClass::Float, lowerFma},
    HandlerRow{"neg", TypeClass::Float, lowerNeg},
    HandlerRow{"abs", TypeClass::Float, lowerAbs},
    HandlerRow{"min", TypeClass::Float, lowerMin},
    HandlerRow{"max", TypeClass::Float, lowerMax},
    HandlerRow{"copysign", TypeClass::Float, lowerCopysign},
    HandlerRow{"setp", TypeClass::Float, lowerSetp},
    HandlerRow{"set", TypeClass::Any, lowerSet},
    HandlerRow{"testp", TypeClass::Float, lowerTestp},
    // lower_float_math.cpp / lower_float_div.cpp
    HandlerRow{"rcp", TypeClass::Float, lowerRcp},
    HandlerRow{"div", TypeClass::Float, lowerDiv},
    HandlerRow{"sqrt", TypeClass::Float, lowerSqrt},
    HandlerRow{"rsqrt", TypeClass::Float, lowerRsqrt},
    HandlerRow{"sin", TypeClass::Float, lowerSin},
    HandlerRow{"cos", TypeClass::Float, lowerCos},
    HandlerRow{"lg2", TypeClass::Float, lowerLg2},
    HandlerRow{"ex2", TypeClass::Float, lowerEx2},
    HandlerRow{"tanh", TypeClass::Float, lowerTanh},
};

} // namespace

std::span<const HandlerRow> floatHandlers() { return kRows; }

bool lowerFmaInstruction(LowerCtx &ctx, const ptx::Instruction &in) { return lowerFma(ctx, in); }

} // namespace ptxmini::frontend::lower
