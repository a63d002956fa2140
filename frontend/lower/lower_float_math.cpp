//===- frontend/lower/lower_float_math.cpp - MUFU-based approximate functions ----------===//
///
/// \file
/// The .approx instructions, selected as ptxas 13.0.88 selects them for sm_90 (HW: read off
/// its output for each form with nvdisasm 13.2). MUFU flushes subnormal inputs and results,
/// so the non-.ftz forms scale arguments out of the subnormal range first and undo the
/// scaling afterwards:
///   ex2.approx.f32      a < -126: MUFU.EX2(a / 2)^2        .ftz: MUFU.EX2
///   lg2.approx.f32      |a| < 2^-126: MUFU.LG2(a * 2^24) - 24
///   rsqrt.approx.f32    |a| < 2^-126: MUFU.RSQ(a * 2^24) * 2^12
///   sqrt.approx.f32     |a| < 2^-126: MUFU.SQRT(a * 2^24) * 2^-12
///   rcp.approx.f32      a scaled by 2^24 (tiny) or 1/4 (|a| > 2^126), MUFU.RCP, scaled back
///   div.approx.f32      |b| < 2^-126: a, b scaled by 2^24; MUFU.RCP(b) * a
///   div.full.f32        as div.approx, and |b| > 2^126: a, b scaled by 1/4
///   sin/cos.approx.f32  MUFU.SIN/COS(a * 1/(2 pi)), the product rounded toward zero
///   tanh.approx.f32     MUFU.TANH
///   ex2/tanh .f16/.bf16 MUFU.EX2/TANH.F16/.BF16, once per half of an x2 operand
///   rcp.approx.ftz.f64  {0, MUFU.RCP64H(a.hi)}     rsqrt.approx.ftz.f64: {0, MUFU.RSQ64H}
///   rsqrt.approx.f64    MUFU.RSQ64H refined by one cubic Newton step; zero, negative,
///                       infinite, NaN and subnormal inputs take a branch to a fix-up block
//===----------------------------------------------------------------------------------===//
#include "frontend/lower/lower_context.h"

#include "frontend/lower/lower_float_internal.h"
#include "frontend/lower/lower_float_util.h"

namespace ptxmini::frontend::lower {

using ori::Modifier;
using ori::Opcode;
using ori::Operand;
using ori::RegClass;
using ptx::ScalarType;

namespace {

constexpr uint32_t kFltMin = 0x00800000;   // 2^-126
constexpr uint32_t kTwo24 = 0x4b800000;    // 2^24
constexpr uint32_t kTwo126 = 0x7e800000;   // 2^126

Operand fimm(uint32_t bits) { return Operand::fimm32(bits); }

/// `op.approx[.ftz].type d, a` operands: d and one float source in a register.
bool unaryOperands(LowerCtx &ctx, const ptx::Instruction &in, unsigned bits, Operand &d,
                   Operand &a) {
  std::array<Operand, 3> s;
  if (!floatOperands(ctx, in, 1, bits, d, s))
    return false;
  a = s[0];
  return true;
}

/// A copy of `a` into a fresh register (for values a guarded step rewrites).
Operand copyOf(LowerCtx &ctx, const Operand &a) {
  Operand t = ctx.temp(RegClass::R);
  ctx.emit(Opcode::MOV, {}, {t}, {a});
  return t;
}

Operand mufu(LowerCtx &ctx, Modifier fn, const Operand &a, const Operand &d = {}) {
  Operand r = d.kind == ori::OperandKind::None ? ctx.temp(RegClass::R) : d;
  ctx.emit(Opcode::MUFU, {fn}, {r}, {a});
  return r;
}

/// P = (cmp(|a| or a, k)) for the scaling tests.
Operand fsetp(LowerCtx &ctx, Modifier cmp, const Operand &a, uint32_t k) {
  Operand p = ctx.temp(RegClass::P);
  ctx.emit(Opcode::FSETP, {cmp, Modifier::AND}, {p, PT()}, {a, fimm(k), PT()});
  return p;
}

/// The f32 function `fn` of a with the input scaled by `inScale` when !(test) and the
/// result fixed by `fix` (multiply or add `outK`) in that case.
bool scaledMufu(LowerCtx &ctx, const ptx::Instruction &in, Modifier fn, Modifier cmp,
                bool absTest, uint32_t testK, uint32_t inScale, Opcode fixOp, uint32_t outK) {
  FloatMods m;
  Operand d, a;
  if (!parseFloatMods(ctx, in, {"approx", "ftz"}, m) || !unaryOperands(ctx, in, 32, d, a))
    return false;
  if (!m.approx)
    return ctx.unsupported(in);
  if (m.ftz) {
    mufu(ctx, fn, a, d);
    return true;
  }
  // Temporaries unguarded (see lowerMinMax); only the write of d carries the PTX guard.
  Operand saved = ctx.curGuard;
  ctx.curGuard = {};
  Operand p = fsetp(ctx, cmp, absTest ? fabsOp(a) : a, testK);
  Operand g = guardAnd(ctx, p, true);
  Operand x = copyOf(ctx, a);
  emitUnder(ctx, g, [&] { ctx.emit(Opcode::FMUL, {}, {x}, {x, fimm(inScale)}); });
  Operand r = mufu(ctx, fn, x);
  emitUnder(ctx, g, [&] { ctx.emit(fixOp, {}, {r}, {r, fimm(outK)}); });
  ctx.curGuard = saved;
  ctx.emit(Opcode::MOV, {}, {d}, {r});
  return true;
}

/// ex2/tanh of .f16/.bf16 scalars and pairs: MUFU.fn.F16/.BF16 per half.
bool halfMufu(LowerCtx &ctx, const ptx::Instruction &in, Modifier fn) {
  ScalarType t = in.type();
  FloatMods m;
  Operand d, a;
  bool bf = isBf16Type(t);
  // PTX: ex2.approx.f16 / ex2.approx.ftz.bf16 / tanh.approx.{f16,bf16}.
  if (!parseFloatMods(ctx, in, {"approx", "ftz"}, m) || !unaryOperands(ctx, in, 16, d, a))
    return false;
  if (!m.approx || a.kind != ori::OperandKind::VReg)
    return ctx.unsupported(in);
  Modifier ty = bf ? Modifier::BF16 : Modifier::F16;
  if (t == ScalarType::F16 || t == ScalarType::BF16) {
    ctx.emit(Opcode::MUFU, {fn, ty}, {d}, {a});
    return true;
  }
  Operand lo = ctx.temp(RegClass::R), hiIn = ctx.temp(RegClass::R), hi = ctx.temp(RegClass::R);
  ctx.emit(Opcode::MUFU, {fn, ty}, {lo}, {a});
  ctx.emit(Opcode::SHF, {Modifier::R, Modifier::U32, Modifier::HI}, {hiIn}, {RZ(), imm(16), a});
  ctx.emit(Opcode::MUFU, {fn, ty}, {hi}, {hiIn});
  // PRMT d, lo, 0x5410, hi: bytes 0-1 of lo, then bytes 0-1 of hi.
  ctx.emit(Opcode::PRMT, {}, {d}, {lo, imm(0x5410), hi});
  return true;
}

} // namespace

bool lowerEx2(LowerCtx &ctx, const ptx::Instruction &in) {
  if (isHalfType(in.type()))
    return halfMufu(ctx, in, Modifier::EX2);
  if (in.type() != ScalarType::F32)
    return ctx.unsupported(in);
  // HW: a < -126 halves a and squares the result (FSETP.GEU a, -126; @!P FMUL a, 0.5;
  // MUFU.EX2; @!P FMUL r, r, r).
  FloatMods m;
  Operand d, a;
  if (!parseFloatMods(ctx, in, {"approx", "ftz"}, m) || !unaryOperands(ctx, in, 32, d, a))
    return false;
  if (!m.approx)
    return ctx.unsupported(in);
  if (m.ftz) {
    mufu(ctx, Modifier::EX2, a, d);
    return true;
  }
  Operand saved = ctx.curGuard;
  ctx.curGuard = {};
  Operand p = fsetp(ctx, Modifier::GEU, a, 0xc2fc0000u /* -126 */);
  Operand g = guardAnd(ctx, p, true);
  Operand x = copyOf(ctx, a);
  emitUnder(ctx, g, [&] { ctx.emit(Opcode::FMUL, {}, {x}, {x, fimm(0x3f000000)}); });
  Operand r = mufu(ctx, Modifier::EX2, x);
  emitUnder(ctx, g, [&] { ctx.emit(Opcode::FMUL, {}, {r}, {r, r}); });
  ctx.curGuard = saved;
  ctx.emit(Opcode::MOV, {}, {d}, {r});
  return true;
}

bool lowerLg2(LowerCtx &ctx, const ptx::Instruction &in) {
  if (in.type() != ScalarType::F32)
    return ctx.unsupported(in);
  return scaledMufu(ctx, in, Modifier::LG2, Modifier::GEU, true, kFltMin, kTwo24, Opcode::FADD,
                    0xc1c00000u /* -24 */);
}

bool lowerSinCos(LowerCtx &ctx, const ptx::Instruction &in, Modifier fn) {
  if (in.type() != ScalarType::F32)
    return ctx.unsupported(in);
  FloatMods m;
  Operand d, a;
  if (!parseFloatMods(ctx, in, {"approx", "ftz"}, m) || !unaryOperands(ctx, in, 32, d, a))
    return false;
  if (!m.approx)
    return ctx.unsupported(in);
  // HW: FMUL.RZ t, a, 0.15915493667125701904 (1/(2 pi) as f32); MUFU.SIN/COS t.
  Operand t = ctx.temp(RegClass::R);
  ctx.emit(Opcode::FMUL, {Modifier::RZ}, {t}, {a, fimm(0x3e22f983u)});
  mufu(ctx, fn, t, d);
  return true;
}
bool lowerSin(LowerCtx &ctx, const ptx::Instruction &in) { return lowerSinCos(ctx, in, Modifier::SIN); }
bool lowerCos(LowerCtx &ctx, const ptx::Instruction &in) { return lowerSinCos(ctx, in, Modifier::COS); }

bool lowerTanh(LowerCtx &ctx, const ptx::Instruction &in) {
  if (isHalfType(in.type()))
    return halfMufu(ctx, in, Modifier::TANH);
  if (in.type() != ScalarType::F32)
    return ctx.unsupported(in);
  FloatMods m;
  Operand d, a;
  if (!parseFloatMods(ctx, in, {"approx"}, m) || !unaryOperands(ctx, in, 32, d, a))
    return false;
  if (!m.approx)
    return ctx.unsupported(in);
  mufu(ctx, Modifier::TANH, a, d);
  return true;
}

namespace {

/// rsqrt.approx.f64 on a positive normal x (HW: ptxas's fast path): y = MUFU.RSQ64H(x.hi)
/// (low word 0), e = 1 - x*y*y, y += y*e*(0.5 + 0.375*e).
void rsqrt64Core(LowerCtx &ctx, const Operand &x, const Operand &out) {
  Operand y = ctx.temp(RegClass::R, 2), e = ctx.temp(RegClass::R, 2), k = ctx.temp(RegClass::R, 2);
  ctx.emit(Opcode::MOV, {}, {component(y, 0)}, {imm(0)});
  ctx.emit(Opcode::MUFU, {Modifier::RSQ64H}, {component(y, 1)}, {component(x, 1)});
  Operand yy = ctx.temp(RegClass::R, 2);
  ctx.emit(Opcode::DMUL, {}, {yy}, {y, y});
  ctx.emit(Opcode::DFMA, {}, {e}, {x, fneg(yy), f64Bits(0x3ff0000000000000ull)});
  ctx.emit(Opcode::DFMA, {}, {k}, {e, f64Bits(0x3fd8000000000000ull), f64Bits(0x3fe0000000000000ull)});
  Operand ye = ctx.temp(RegClass::R, 2);
  ctx.emit(Opcode::DMUL, {}, {ye}, {y, e});
  ctx.emit(Opcode::DFMA, {}, {out}, {k, ye, y});
}

} // namespace

bool lowerRsqrt(LowerCtx &ctx, const ptx::Instruction &in) {
  ScalarType t = in.type();
  if (t == ScalarType::F32)
    return scaledMufu(ctx, in, Modifier::RSQ, Modifier::GEU, true, kFltMin, kTwo24, Opcode::FMUL,
                      0x45800000u /* 4096 */);
  if (t != ScalarType::F64)
    return ctx.unsupported(in);
  FloatMods m;
  Operand d, a;
  if (!parseFloatMods(ctx, in, {"approx", "ftz"}, m) || !unaryOperands(ctx, in, 64, d, a))
    return false;
  if (!m.approx || a.kind != ori::OperandKind::VReg)
    return ctx.unsupported(in);
  if (m.ftz) {
    // HW: rsqrt.approx.ftz.f64 is the bare unit: {0, MUFU.RSQ64H(a.hi)}.
    ctx.emit(Opcode::MOV, {}, {component(d, 0)}, {imm(0)});
    ctx.emit(Opcode::MUFU, {Modifier::RSQ64H}, {component(d, 1)}, {component(a, 1)});
    return true;
  }
  // Fast path for positive normal finite x: x.hi - 0x00100000 < 0x7fe00000 (unsigned).
  GuardRegion gr = beginGuardRegion(ctx);
  a = protect(ctx, a, d);
  Operand t1 = ctx.temp(RegClass::R), slow = ctx.temp(RegClass::P);
  ctx.emit(Opcode::IADD3, {}, {t1}, {component(a, 1), imm(-0x100000), RZ()});
  ctx.emit(Opcode::ISETP, {Modifier::GE, Modifier::U32, Modifier::AND}, {slow, PT()},
           {t1, imm(0x7fe00000), PT()});
  rsqrt64Core(ctx, a, d);
  SlowPath sp = beginSlowPath(ctx, slow);
  // Subnormal positive x: x * 2^54, core, result * 2^27. Zero: +-inf. Negative: NaN.
  // +inf: +0. NaN: the NaN itself (x + x).
  Operand xs = ctx.temp(RegClass::R, 2), r = ctx.temp(RegClass::R, 2);
  ctx.emit(Opcode::DMUL, {}, {xs}, {a, f64Bits(0x4350000000000000ull) /* 2^54 */});
  rsqrt64Core(ctx, xs, r);
  ctx.emit(Opcode::DMUL, {}, {d}, {r, f64Bits(0x41a0000000000000ull) /* 2^27 */});
  Operand pz = ctx.temp(RegClass::P), pneg = ctx.temp(RegClass::P), pinf = ctx.temp(RegClass::P),
          pnan = ctx.temp(RegClass::P);
  ctx.emit(Opcode::DSETP, {Modifier::EQ, Modifier::AND}, {pz, PT()}, {a, f64Bits(0), PT()});
  ctx.emit(Opcode::DSETP, {Modifier::LT, Modifier::AND}, {pneg, PT()}, {a, f64Bits(0), PT()});
  ctx.emit(Opcode::DSETP, {Modifier::EQ, Modifier::AND}, {pinf, PT()},
           {a, f64Bits(0x7ff0000000000000ull), PT()});
  ctx.emit(Opcode::DSETP, {Modifier::NaN, Modifier::AND}, {pnan, PT()}, {a, a, PT()});
  // Zero: the sign of a with an infinite magnitude.
  Operand infHi = ctx.temp(RegClass::R);
  ctx.emit(Opcode::LOP3, {Modifier::LUT}, {infHi},
           {component(a, 1), imm(0x80000000), imm(0x7ff00000), imm(0xea), notPT()}); // (a & b) | c
  Operand nanSum = ctx.temp(RegClass::R, 2);
  ctx.emit(Opcode::DADD, {}, {nanSum}, {a, a});
  auto set = [&](const Operand &p, const Operand &lo, const Operand &hi) {
    emitUnder(ctx, p, [&] {
      ctx.emit(Opcode::MOV, {}, {component(d, 0)}, {lo});
      ctx.emit(Opcode::MOV, {}, {component(d, 1)}, {hi});
    });
  };
  set(pneg, imm(0), imm(0xfff80000));
  set(pz, imm(0), infHi);
  set(pinf, imm(0), imm(0));
  set(pnan, component(nanSum, 0), component(nanSum, 1));
  endSlowPath(ctx, sp);
  endGuardRegion(ctx, gr);
  return true;
}

// ---- approximate reciprocal, division, square root -------------------------------------

bool lowerRcpApprox(LowerCtx &ctx, const ptx::Instruction &in) {
  ScalarType t = in.type();
  FloatMods m;
  Operand d, a;
  if (t == ScalarType::F64) {
    if (!parseFloatMods(ctx, in, {"approx", "ftz"}, m) || !unaryOperands(ctx, in, 64, d, a))
      return false;
    if (!m.ftz || a.kind != ori::OperandKind::VReg)
      return ctx.unsupported(in); // PTX has rcp.approx.ftz.f64 only
    ctx.emit(Opcode::MOV, {}, {component(d, 0)}, {imm(0)});
    ctx.emit(Opcode::MUFU, {Modifier::RCP64H}, {component(d, 1)}, {component(a, 1)});
    return true;
  }
  if (!parseFloatMods(ctx, in, {"approx", "ftz"}, m) || !unaryOperands(ctx, in, 32, d, a))
    return false;
  if (m.ftz) {
    mufu(ctx, Modifier::RCP, a, d);
    return true;
  }
  // HW: s = |a| < 2^-126 ? 2^24 : (|a| > 2^126 ? 0.25 : 1); d = s * MUFU.RCP(a * s).
  Operand saved = ctx.curGuard;
  ctx.curGuard = {};
  Operand p1 = fsetp(ctx, Modifier::GEU, fabsOp(a), kFltMin);
  Operand p0 = fsetp(ctx, Modifier::GT, fabsOp(a), kTwo126);
  Operand big = ctx.temp(RegClass::R), s1 = ctx.temp(RegClass::R), s = ctx.temp(RegClass::R);
  ctx.emit(Opcode::MOV, {}, {big}, {imm(kTwo24)});
  Operand np1 = p1, np0 = p0;
  np1.mods |= ori::OM_NOT;
  np0.mods |= ori::OM_NOT;
  ctx.emit(Opcode::FSEL, {}, {s1}, {big, fimm(0x3f800000), np1});
  ctx.emit(Opcode::FSEL, {}, {s}, {s1, fimm(0x3e800000), np0});
  Operand x = ctx.temp(RegClass::R);
  ctx.emit(Opcode::FMUL, {}, {x}, {a, s});
  Operand r = mufu(ctx, Modifier::RCP, x);
  ctx.curGuard = saved;
  ctx.emit(Opcode::FMUL, {}, {d}, {s, r});
  return true;
}

bool lowerDivApprox(LowerCtx &ctx, const ptx::Instruction &in) {
  FloatMods m;
  Operand d;
  std::array<Operand, 3> s;
  if (in.type() != ScalarType::F32)
    return ctx.unsupported(in);
  if (!parseFloatMods(ctx, in, {"approx", "full", "ftz"}, m) || !floatOperands(ctx, in, 2, 32, d, s))
    return false;
  Operand saved = ctx.curGuard;
  ctx.curGuard = {};
  Operand a = copyOf(ctx, s[0]), b = copyOf(ctx, s[1]);
  auto scaleBoth = [&](const Operand &g, uint32_t k) {
    emitUnder(ctx, g, [&] {
      ctx.emit(Opcode::FMUL, {}, {b}, {b, fimm(k)});
      ctx.emit(Opcode::FMUL, {}, {a}, {a, fimm(k)});
    });
  };
  if (m.full) {
    // HW: |b| > 2^126: both scaled by 1/4 (the result of MUFU.RCP would be subnormal).
    Operand p0 = fsetp(ctx, Modifier::GT, fabsOp(b), kTwo126);
    scaleBoth(guardAnd(ctx, p0, false), 0x3e800000);
  }
  if (!m.ftz) {
    Operand p1 = fsetp(ctx, Modifier::GEU, fabsOp(b), kFltMin);
    scaleBoth(guardAnd(ctx, p1, true), kTwo24);
  }
  Operand r = mufu(ctx, Modifier::RCP, b);
  ctx.curGuard = saved;
  ori::Instr &i = ctx.emit(Opcode::FMUL, {}, {d}, {r, a});
  if (m.ftz)
    i.mods.push_back(Modifier::FTZ);
  return true;
}

bool lowerSqrtApprox(LowerCtx &ctx, const ptx::Instruction &in) {
  if (in.type() != ScalarType::F32)
    return ctx.unsupported(in);
  return scaledMufu(ctx, in, Modifier::SQRT, Modifier::GEU, true, kFltMin, kTwo24, Opcode::FMUL,
                    0x39800000u /* 2^-12 */);
}

} // namespace ptxmini::frontend::lower
