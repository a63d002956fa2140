//===- frontend/lower/lower_convert.cpp - cvt: every type pair --------------------------===//
///
/// \file
/// Instruction selection for PTX `cvt`, as ptxas 13.0.88 selects it for sm_90 where that
/// is sound with 8/16-bit registers whose upper bits are unspecified (HW: forms read off its
/// output with nvdisasm 13.2):
///   int -> int      extension of the source (PRMT 0x8880/0x9910 sign-extends a byte/half,
///                   LOP3 masks), the low word for narrowing, SHF.R.S32.HI for the high
///                   word of a signed widening; .sat clamps with ISETP + SEL (I2I.SAT for
///                   s32 -> 8/16 bits, as ptxas)
///   int -> float    I2FP.F32.S32/U32[.RZ] (32-bit to f32), else I2F[.F64|.F16|.BF16].<src>[.rnd]
///   float -> int    F2I[.FTZ].<dst>[.<src>][.FLOOR|.CEIL|.TRUNC][.NTZ]: F2I saturates;
///                   .NTZ (NaN to zero) is what ptxas adds for f32/f16/bf16 sources with
///                   8-32-bit results; 64-bit results flush a .ftz source with FMUL.FTZ x, 1
///   float -> float  F2F.<dst>.<src>[.rnd], F2FP.(F16|BF16).F32.PACK_AB[.RZ] for rn/rz
///                   narrowing from f32, bf16 -> f32 as a shift, FRND for .rni etc. on
///                   f32/f64, FADD[.FTZ].SAT d, RZ, a for .sat and .ftz on f32, HADD2 d, a, -RZ
///                   for f16 -> f16 and bf16 -> bf16;
///                   f64 -> f32 with .ftz flushes below 2^-126 - 2^-151 like ptxas
///   f16x2/bf16x2    cvt.rn/rz[.relu][.satfinite].f16x2.f32 d, a, b: F2FP...PACK_AB d, a, b
///   tf32            cvt.rna/rn/rz.tf32.f32 on the integer bits (ptxas's rna sequence)
///   fp8x2 -> f16x2  cvt.rn[.relu].f16x2.e4m3x2|e5m2x2: F2FP[.RELU].F16.E4M3|E5M2.UNPACK_B
///   f32/f16x2 -> fp8x2  cvt.rn.satfinite[.relu].e4m3x2|e5m2x2.f32 d, a, b and .f16x2 d, a:
///                   F2FP.SATFINITE[.RELU].E4M3|E5M2.F32.PACK_AB_MERGE_C d, a, b, RZ and
///                   ...F16.UNPACK_B_MERGE_C d, a, RZ
//===----------------------------------------------------------------------------------===//
#include "frontend/lower/lower_context.h"

#include "frontend/lower/lower_float_util.h"

#include <array>
#include <vector>

namespace ptxmini::frontend::lower {
namespace {

using ori::Modifier;
using ori::Opcode;
using ori::Operand;
using ori::RegClass;
using ptx::ScalarType;
using ptx::TypeKind;

bool isIntType(ScalarType t) {
  TypeKind k = ptx::typeKind(t);
  return k == TypeKind::Signed || k == TypeKind::Unsigned || k == TypeKind::Bit;
}
bool isSigned(ScalarType t) { return ptx::typeKind(t) == TypeKind::Signed; }
unsigned bitsOf(ScalarType t) { return ptx::typeBits(t); }
bool isScalarFloat(ScalarType t) {
  return t == ScalarType::F16 || t == ScalarType::BF16 || t == ScalarType::F32 ||
         t == ScalarType::F64;
}

/// The SASS type modifier of a float type.
Modifier floatMod(ScalarType t) {
  switch (t) {
  case ScalarType::F16:
    return Modifier::F16;
  case ScalarType::BF16:
    return Modifier::BF16;
  case ScalarType::F64:
    return Modifier::F64;
  default:
    return Modifier::F32;
  }
}

/// The SASS integer type modifier (U8..S64).
Modifier intMod(ScalarType t) {
  bool s = isSigned(t);
  switch (bitsOf(t)) {
  case 8:
    return s ? Modifier::S8 : Modifier::U8;
  case 16:
    return s ? Modifier::S16 : Modifier::U16;
  case 64:
    return s ? Modifier::S64 : Modifier::U64;
  default:
    return s ? Modifier::S32 : Modifier::U32;
  }
}

struct Cvt {
  LowerCtx &ctx;
  const ptx::Instruction &in;
  ScalarType dt, st;
  FloatMods m;
  Operand d, a;

  Operand r() { return ctx.temp(RegClass::R); }
  Operand p() { return ctx.temp(RegClass::P); }

  /// The 32-bit value of an integer source of at most 32 bits, extended by its own type.
  Operand extended32(const Operand &src, ScalarType t) {
    unsigned b = bitsOf(t);
    if (b >= 32)
      return b == 64 ? component(src, 0) : src;
    Operand v = r();
    if (isSigned(t))
      ctx.emit(Opcode::PRMT, {}, {v}, {src, imm(b == 8 ? 0x8880 : 0x9910), RZ()});
    else
      ctx.emit(Opcode::LOP3, {Modifier::LUT}, {v},
               {src, imm(b == 8 ? 0xff : 0xffff), RZ(), imm(0xc0), notPT()});
    return v;
  }

  Operand isetp(Modifier cmp, bool u32, const Operand &x, const Operand &y) {
    Operand q = p();
    if (u32)
      ctx.emit(Opcode::ISETP, {cmp, Modifier::U32, Modifier::AND}, {q, PT()}, {x, y, PT()});
    else
      ctx.emit(Opcode::ISETP, {cmp, Modifier::AND}, {q, PT()}, {x, y, PT()});
    return q;
  }
  Operand sel(const Operand &x, const Operand &y, const Operand &q) {
    Operand v = r();
    ctx.emit(Opcode::SEL, {}, {v}, {x, y, q});
    return v;
  }
  void mov(const Operand &dst, const Operand &src) { ctx.emit(Opcode::MOV, {}, {dst}, {src}); }

  // ---- int -> int ------------------------------------------------------------------------

  /// Writes a result of a destination type of at most 32 bits, held in the low bits of v, to
  /// d: truncated to the type and extended by its signedness to the whole register, 32 or 64
  /// bits (PTX: a destination register wider than the type is sign-extended for signed types,
  /// zero-extended otherwise; HW: ptxas 13.0 gives cvt.s8.s32 %r -> 0xfffffff0 for 0xf0 and
  /// cvt.u8.u32 %rd -> upper word 0). Found by tests/fuzz (seed 20: cvt.sat.u8.s16 %rd kept
  /// the upper word of %rd).
  void writeNarrow(const Operand &v) {
    unsigned db = bitsOf(dt);
    Operand x = db < 32 ? extended32(v, dt) : v;
    if (d.width < 2) {
      mov(d, x);
      return;
    }
    mov(component(d, 0), x);
    if (isSigned(dt)) {
      Operand h = r();
      ctx.emit(Opcode::SHF, {Modifier::R, Modifier::S32, Modifier::HI}, {h}, {RZ(), imm(31), x});
      mov(component(d, 1), h);
    } else {
      mov(component(d, 1), imm(0));
    }
  }

  bool intToInt() {
    if (m.rnd != Rnd::None || m.ftz)
      return ctx.unsupported(in, "A rounding or .ftz modifier of '" + in.fullOpcode() + "'");
    unsigned db = bitsOf(dt), sb = bitsOf(st);
    bool ss = isSigned(st), ds = isSigned(dt);
    if (a.kind != ori::OperandKind::VReg)
      return ctx.unsupported(in, "An immediate operand of '" + in.fullOpcode() + "'");
    // The destination range, as 64-bit values.
    int64_t dmin = ds ? (db == 64 ? INT64_MIN : -(int64_t{1} << (db - 1))) : 0;
    uint64_t dmax = ds ? (db == 64 ? uint64_t(INT64_MAX) : (uint64_t{1} << (db - 1)) - 1)
                       : (db == 64 ? UINT64_MAX : (uint64_t{1} << db) - 1);
    if (sb == 64) {
      Operand lo = component(a, 0), hi = component(a, 1);
      if (db == 64) {
        Operand dl = component(d, 0), dh = component(d, 1);
        if (!m.sat || ss == ds) {
          mov(dl, lo);
          mov(dh, hi);
          return true;
        }
        // s64 -> u64: negative -> 0; u64 -> s64: >= 2^63 -> INT64_MAX.
        Operand neg = isetp(Modifier::LT, false, hi, RZ());
        if (ss) {
          mov(dl, sel(RZ(), lo, neg));
          mov(dh, sel(RZ(), hi, neg));
        } else {
          mov(dl, sel(imm(0xffffffff), lo, neg));
          mov(dh, sel(imm(0x7fffffff), hi, neg));
        }
        return true;
      }
      if (!m.sat) {
        writeNarrow(lo);
        return true;
      }
      // The value fits the 32-bit view the clamp works on (a signed destination: hi is the
      // sign extension of lo; an unsigned one, or an unsigned source: hi == 0): clamp lo;
      // otherwise the bound on the side of the sign.
      Operand fits, big;
      bool loSigned = ss && ds;
      if (loSigned) {
        Operand ext = r();
        ctx.emit(Opcode::SHF, {Modifier::R, Modifier::S32, Modifier::HI}, {ext}, {RZ(), imm(31), lo});
        fits = isetp(Modifier::EQ, true, hi, ext);
      } else {
        fits = isetp(Modifier::EQ, true, hi, RZ());
      }
      if (ss) {
        Operand neg = isetp(Modifier::LT, false, hi, RZ());
        big = sel(uimm(dmin), uimm(dmax), neg);
      } else {
        big = r();
        mov(big, uimm(dmax));
      }
      Operand c = clamp32(lo, loSigned, dmin, dmax);
      writeNarrow(sel(c, big, fits));
      return true;
    }
    // Sources of at most 32 bits. HW: ptxas saturates an s32 to 8/16 bits with
    // I2I.<dst>.S32.SAT (its result is the saturated value extended to 32 bits).
    if (m.sat && sb == 32 && ss && db <= 16) {
      Operand v = r();
      ctx.emit(Opcode::I2I, {intMod(dt), Modifier::S32, Modifier::SAT}, {v}, {a});
      writeNarrow(v);
      return true;
    }
    Operand v = extended32(a, st);
    if (m.sat)
      v = clamp32(v, ss && sb <= 32, dmin, dmax);
    if (db == 64) {
      mov(component(d, 0), v);
      if (ss) {
        // A signed source (clamped to >= 0 first when .sat asks for an unsigned result).
        Operand h = r();
        ctx.emit(Opcode::SHF, {Modifier::R, Modifier::S32, Modifier::HI}, {h}, {RZ(), imm(31), v});
        mov(component(d, 1), h);
      } else {
        mov(component(d, 1), imm(0));
      }
      return true;
    }
    writeNarrow(v);
    return true;
  }

  /// Clamps the 32-bit value v (signed or not) to [dmin, dmax] where that is narrower.
  Operand clamp32(Operand v, bool vSigned, int64_t dmin, uint64_t dmax) {
    int64_t vmin = vSigned ? INT32_MIN : 0;
    uint64_t vmax = vSigned ? INT32_MAX : UINT32_MAX;
    if (dmax < vmax) {
      Operand over = isetp(Modifier::GT, !vSigned, v, simm(static_cast<int64_t>(dmax)));
      v = sel(uimm(dmax), v, over);
    }
    if (dmin > vmin) {
      Operand under = isetp(Modifier::LT, !vSigned, v, simm(dmin));
      v = sel(uimm(dmin), v, under);
    }
    return v;
  }

  // ---- int -> float ----------------------------------------------------------------------

  bool intToFloat() {
    if (m.integral || m.ftz)
      return ctx.unsupported(in, "Modifier of '" + in.fullOpcode() + "'");
    unsigned sb = bitsOf(st);
    Operand src = a;
    if (src.kind != ori::OperandKind::VReg) {
      Operand t = ctx.temp(RegClass::R, sb == 64 ? 2 : 1);
      if (sb == 64) {
        mov(component(t, 0), imm(static_cast<uint32_t>(src.imm)));
        mov(component(t, 1), imm(static_cast<uint32_t>(static_cast<uint64_t>(src.imm) >> 32)));
      } else {
        mov(t, src);
      }
      src = t;
    }
    Operand out = d;
    if (m.sat)
      out = dt == ScalarType::F64 ? ctx.temp(RegClass::R, 2) : r();
    if (dt == ScalarType::F32 && sb == 32 && (m.rnd == Rnd::None || m.rnd == Rnd::RN || m.rnd == Rnd::RZ)) {
      // HW: I2FP.F32.S32/U32[.RZ] (I2FP has no RM/RP: those take I2F, as ptxas does).
      ori::Instr &i = ctx.emit(Opcode::I2FP, {Modifier::F32, intMod(st)}, {out}, {src});
      addRound(i, m.rnd);
    } else {
      ori::Instr &i = ctx.emit(Opcode::I2F, {}, {out}, {src});
      if (dt != ScalarType::F32)
        i.mods.push_back(floatMod(dt));
      if (st != ScalarType::S32 && st != ScalarType::B32)
        i.mods.push_back(intMod(st));
      addRound(i, m.rnd);
    }
    if (m.sat)
      return saturateFloat(out, dt);
    return true;
  }

  // ---- float -> int ----------------------------------------------------------------------

  bool floatToInt() {
    if (!m.integral)
      return ctx.unsupported(in, "'" + in.fullOpcode() + "' without an integer rounding modifier");
    unsigned db = bitsOf(dt);
    Operand src = a;
    if (src.kind != ori::OperandKind::VReg)
      return ctx.unsupported(in, "An immediate operand of '" + in.fullOpcode() + "'");
    bool ftzSrc = m.ftz && st == ScalarType::F32;
    if (ftzSrc && db == 64) {
      // HW: 64-bit results: FMUL.FTZ x, 1 flushes the source first.
      Operand f = r();
      ctx.emit(Opcode::FMUL, {Modifier::FTZ}, {f}, {src, Operand::fimm32(0x3f800000)});
      src = f;
      ftzSrc = false;
    }
    ori::Instr &i = ctx.emit(Opcode::F2I, {}, {d}, {src});
    if (ftzSrc)
      i.mods.push_back(Modifier::FTZ);
    if (dt != ScalarType::S32)
      i.mods.push_back(intMod(dt));
    if (st != ScalarType::F32)
      i.mods.push_back(floatMod(st));
    switch (m.rnd) {
    case Rnd::RZ:
      i.mods.push_back(Modifier::TRUNC);
      break;
    case Rnd::RM:
      i.mods.push_back(Modifier::FLOOR);
      break;
    case Rnd::RP:
      i.mods.push_back(Modifier::CEIL);
      break;
    default:
      break;
    }
    if (db <= 32 && st != ScalarType::F64)
      i.mods.push_back(Modifier::NTZ);
    return true;
  }

  // ---- float -> float --------------------------------------------------------------------

  /// .sat on a float result: clamp to [0, 1], NaN and -0 to +0.
  bool saturateFloat(const Operand &v, ScalarType t) {
    if (t == ScalarType::F32) {
      ori::Instr &i = ctx.emit(Opcode::FADD, {}, {d}, {RZ(), v});
      if (m.ftz)
        i.mods.push_back(Modifier::FTZ);
      i.mods.push_back(Modifier::SAT);
      return true;
    }
    if (t == ScalarType::F64) {
      Operand gt1 = p(), le0 = p();
      ctx.emit(Opcode::DSETP, {Modifier::GT, Modifier::AND}, {gt1, PT()},
               {v, f64Bits(0x3ff0000000000000ull), PT()});
      ctx.emit(Opcode::DSETP, {Modifier::GT, Modifier::AND}, {le0, PT()}, {v, f64Bits(0), PT()});
      Operand hi = sel(imm(0x3ff00000), component(v, 1), gt1);
      Operand lo = sel(RZ(), component(v, 0), gt1);
      mov(component(d, 1), sel(hi, RZ(), le0));
      mov(component(d, 0), sel(lo, RZ(), le0));
      return true;
    }
    if (t == ScalarType::F16 || t == ScalarType::BF16) {
      // HW: HADD2.SAT v, -RZ on the pair (ptxas: HADD2.SAT d, v.H0_H0, -RZ.H0_H0).
      Operand negZero = RZ();
      negZero.mods |= ori::OM_NEG;
      ori::Instr &i = ctx.emit(Opcode::HADD2, {}, {d}, {v, negZero});
      if (t == ScalarType::BF16)
        i.mods.push_back(Modifier::BF16_V2);
      i.mods.push_back(Modifier::SAT);
      return true;
    }
    return ctx.unsupported(in);
  }

  bool floatToFloat() {
    Operand src = a;
    if (src.kind != ori::OperandKind::VReg) {
      Operand t = ctx.temp(RegClass::R, st == ScalarType::F64 ? 2 : 1);
      if (st == ScalarType::F64) {
        uint64_t bits = static_cast<uint64_t>(src.imm);
        mov(component(t, 0), imm(static_cast<uint32_t>(bits)));
        mov(component(t, 1), imm(static_cast<uint32_t>(bits >> 32)));
      } else {
        mov(t, imm(static_cast<uint32_t>(src.imm)));
      }
      src = t;
    }
    unsigned db = bitsOf(dt), sb = bitsOf(st);
    // Same type: rounding to an integral value, .sat and .ftz.
    if (dt == st) {
      if (m.rnd != Rnd::None && !m.integral)
        return ctx.unsupported(in, "Modifier of '" + in.fullOpcode() + "'");
      if (dt == ScalarType::F16 || dt == ScalarType::BF16) {
        if (m.integral) {
          // .rni/.rzi/.rmi/.rpi on f16/bf16: rounded in f32 (HW: ptxas 13.0 selects
          // FRND.F16 / FRND.BF16.TRUNC d, a.H0 on sm_90, a form not encoded here). Widening
          // is exact, and an integral f16/bf16 value is exact when narrowed back, so
          // F2F/SHF -> FRND -> F2FP.PACK_AB gives the same value (-0 kept).
          Operand w = r(), f = r();
          if (dt == ScalarType::BF16)
            ctx.emit(Opcode::SHF, {Modifier::L, Modifier::U32}, {w}, {src, imm(16), RZ()});
          else
            ctx.emit(Opcode::F2F, {Modifier::F32, Modifier::F16}, {w}, {src});
          ori::Instr &fr = ctx.emit(Opcode::FRND, {}, {f}, {w});
          if (m.rnd == Rnd::RM)
            fr.mods.push_back(Modifier::FLOOR);
          else if (m.rnd == Rnd::RP)
            fr.mods.push_back(Modifier::CEIL);
          else if (m.rnd == Rnd::RZ)
            fr.mods.push_back(Modifier::TRUNC);
          Operand out = m.sat ? r() : d;
          ctx.emit(Opcode::F2FP, {floatMod(dt), Modifier::F32, Modifier::PACK_AB}, {out},
                   {RZ(), f});
          return m.sat ? saturateFloat(out, dt) : true;
        }
        if (m.sat)
          return saturateFloat(src, dt);
        // HW: ptxas 13.0.88 adds -0 (cvt.f16.f16: HADD2 d, a.H0_H0, -RZ.H0_H0; bf16: the
        // same sum as HFMA2.BF16_V2 d, -RZ, RZ, a), which keeps every value, -0 included.
        Operand negZero = RZ();
        negZero.mods |= ori::OM_NEG;
        ori::Instr &i = ctx.emit(Opcode::HADD2, {}, {d}, {src, negZero});
        if (dt == ScalarType::BF16)
          i.mods.push_back(Modifier::BF16_V2);
        return true;
      }
      Operand v = src;
      if (m.integral) {
        Operand t = m.sat ? ctx.temp(RegClass::R, db == 64 ? 2 : 1) : d;
        ori::Instr &i = ctx.emit(Opcode::FRND, {}, {t}, {src});
        if (dt == ScalarType::F64)
          i.mods.push_back(Modifier::F64);
        if (m.ftz && dt == ScalarType::F32)
          i.mods.push_back(Modifier::FTZ);
        if (m.rnd == Rnd::RM)
          i.mods.push_back(Modifier::FLOOR);
        else if (m.rnd == Rnd::RP)
          i.mods.push_back(Modifier::CEIL);
        else if (m.rnd == Rnd::RZ)
          i.mods.push_back(Modifier::TRUNC);
        if (!m.sat)
          return true;
        v = t;
      }
      if (m.sat)
        return saturateFloat(v, dt);
      if (dt == ScalarType::F32) {
        Operand negZero = RZ();
        negZero.mods |= ori::OM_NEG;
        ori::Instr &i = ctx.emit(Opcode::FADD, {}, {d}, {v, negZero});
        if (m.ftz)
          i.mods.push_back(Modifier::FTZ);
        return true;
      }
      if (dt == ScalarType::F64) {
        mov(component(d, 0), component(v, 0));
        mov(component(d, 1), component(v, 1));
        return true;
      }
      return ctx.unsupported(in);
    }
    if (m.integral)
      return ctx.unsupported(in, "Modifier of '" + in.fullOpcode() + "'");
    // Narrowing needs a rounding mode (PTX); widening is exact and takes none.
    // Narrowing needs a rounding mode (PTX); ptxas also takes f16 <-> bf16 without one
    // (round to nearest) and ignores one on an exact widening.
    bool narrowing = db < sb || (db == sb);
    if (narrowing && m.rnd == Rnd::None) {
      if (db != sb)
        return ctx.unsupported(in, "'" + in.fullOpcode() + "' without a rounding modifier");
      m.rnd = Rnd::RN;
    }
    if (!narrowing)
      m.rnd = Rnd::None;
    if ((m.relu || m.satfinite) && !(st == ScalarType::F32 && db == 16 &&
                                     (m.rnd == Rnd::RN || m.rnd == Rnd::RZ) && !m.sat))
      return ctx.unsupported(in, "Modifier of '" + in.fullOpcode() + "'");
    Operand v = src;
    // .ftz on an f32 source flushes it first (F2F itself keeps subnormals).
    if (m.ftz && st == ScalarType::F32) {
      Operand f = r();
      ctx.emit(Opcode::FMUL, {Modifier::FTZ}, {f}, {v, Operand::fimm32(0x3f800000)});
      v = f;
    }
    // .sat on an f32 source that narrows: clamping first is the same as clamping the
    // rounded value (0 and 1 are exact in every format).
    bool satDone = false;
    if (m.sat && st == ScalarType::F32) {
      Operand f = r();
      ctx.emit(Opcode::FADD, {Modifier::SAT}, {f}, {RZ(), v});
      v = f;
      satDone = true;
    }
    Operand out = (m.sat && !satDone) || (m.ftz && dt == ScalarType::F32)
                      ? ctx.temp(RegClass::R, db == 64 ? 2 : 1)
                      : d;
    if (st == ScalarType::BF16 && dt == ScalarType::F32) {
      // HW: bf16 -> f32 is the bits shifted up (SHF.L.U32 d, a, 0x10, RZ).
      ctx.emit(Opcode::SHF, {Modifier::L, Modifier::U32}, {out}, {v, imm(16), RZ()});
    } else if (st == ScalarType::F32 && (dt == ScalarType::F16 || dt == ScalarType::BF16) &&
               (m.rnd == Rnd::RN || m.rnd == Rnd::RZ)) {
      // HW: F2FP.<F16|BF16>.F32.PACK_AB[.RZ] d, RZ, a (the low half is a).
      ori::Instr &i = ctx.emit(Opcode::F2FP, {}, {out}, {RZ(), v});
      if (m.satfinite)
        i.mods.push_back(Modifier::SATFINITE);
      if (m.relu)
        i.mods.push_back(Modifier::RELU);
      i.mods.push_back(floatMod(dt));
      i.mods.push_back(Modifier::F32);
      i.mods.push_back(Modifier::PACK_AB);
      if (m.rnd == Rnd::RZ)
        i.mods.push_back(Modifier::RZ);
    } else {
      ori::Instr &i = ctx.emit(Opcode::F2F, {floatMod(dt), floatMod(st)}, {out}, {v});
      addRound(i, m.rnd);
    }
    if (m.sat && !satDone)
      return saturateFloat(out, dt);
    if (m.ftz && dt == ScalarType::F32) {
      if (st == ScalarType::F64) {
        // HW: flush when |a| < 2^-126 - 2^-151 (the f32 rounds below 2^-126 on 24 bits).
        Operand tiny = p();
        ctx.emit(Opcode::DSETP, {Modifier::LT, Modifier::AND}, {tiny, PT()},
                 {fabsOp(v), f64Bits(0x380ffffff0000000ull), PT()});
        Operand z = r();
        ctx.emit(Opcode::LOP3, {Modifier::LUT}, {z}, {out, imm(0x80000000), RZ(), imm(0xc0), notPT()});
        mov(d, sel(z, out, tiny));
        return true;
      }
      // f16/bf16 sources: the result is never subnormal, except a subnormal bf16.
      Operand negZero = RZ();
      negZero.mods |= ori::OM_NEG;
      ctx.emit(Opcode::FADD, {Modifier::FTZ}, {d}, {out, negZero});
    }
    return true;
  }

  // ---- packed and tf32 ---------------------------------------------------------------------

  /// cvt.rn|rz[.relu][.satfinite].f16x2|bf16x2.f32 d, a, b: d = {a -> high, b -> low}.
  bool packPair() {
    if ((m.rnd != Rnd::RN && m.rnd != Rnd::RZ) || m.sat || m.ftz || m.integral)
      return ctx.unsupported(in, "Modifier of '" + in.fullOpcode() + "'");
    if (in.operands.size() != 3)
      return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
    Operand b = floatSource(ctx, in, in.operands[2], 32);
    if (b.kind == ori::OperandKind::None)
      return false;
    Operand x = a, y = b;
    for (Operand *o : {&x, &y})
      if (o->kind != ori::OperandKind::VReg) {
        Operand t = r();
        mov(t, imm(static_cast<uint32_t>(o->imm)));
        *o = t;
      }
    ori::Instr &i = ctx.emit(Opcode::F2FP, {}, {d}, {x, y});
    if (m.satfinite)
      i.mods.push_back(Modifier::SATFINITE);
    if (m.relu)
      i.mods.push_back(Modifier::RELU);
    i.mods.push_back(dt == ScalarType::BF16X2 ? Modifier::BF16 : Modifier::F16);
    i.mods.push_back(Modifier::F32);
    i.mods.push_back(Modifier::PACK_AB);
    if (m.rnd == Rnd::RZ)
      i.mods.push_back(Modifier::RZ);
    return true;
  }

  /// cvt.rn[.relu].f16x2.e4m3x2|e5m2x2 d, a: the two fp8 values in a's low 16 bits, each to
  /// an f16 half (the high byte to the high half). HW: ptxas 13.0 selects
  /// F2FP[.RELU].F16.E4M3|E5M2.UNPACK_B d, a (every fp8 value is exact in f16); a must be a
  /// register (ptxas: "Arguments mismatch" for an immediate).
  bool unpackFp8() {
    if (m.rnd != Rnd::RN || m.sat || m.ftz || m.integral || m.satfinite)
      return ctx.unsupported(in, "Modifier of '" + in.fullOpcode() + "'");
    // (an immediate source is refused by the checker, as by ptxas)
    ori::Instr &i = ctx.emit(Opcode::F2FP, {}, {d}, {a});
    if (m.relu)
      i.mods.push_back(Modifier::RELU);
    i.mods.push_back(Modifier::F16);
    i.mods.push_back(st == ScalarType::E4M3X2 ? Modifier::E4M3 : Modifier::E5M2);
    i.mods.push_back(Modifier::UNPACK_B);
    return true;
  }

  /// cvt.rn.satfinite[.relu].e4m3x2|e5m2x2.f32 d, a, b (a to the high byte, b to the low) and
  /// .f16x2 d, a (a's halves, high to high). HW: ptxas 13.0 selects
  /// F2FP.SATFINITE[.RELU].E4M3|E5M2.F32.PACK_AB_MERGE_C d, a, b, RZ and
  /// F2FP.SATFINITE[.RELU].E4M3|E5M2.F16.UNPACK_B_MERGE_C d, a, RZ; c (RZ) fills the high 16
  /// bits. An immediate source goes through a register (ptxas: MOV). .satfinite is required
  /// (PTX ISA 9.0, cvt: "the .satfinite modifier is required" for these destinations).
  bool packFp8() {
    if (m.rnd != Rnd::RN || !m.satfinite || m.sat || m.ftz || m.integral)
      return ctx.unsupported(in, "Modifier of '" + in.fullOpcode() + "'");
    bool fromF32 = st == ScalarType::F32;
    if (in.operands.size() != (fromF32 ? 3u : 2u))
      return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
    std::vector<Operand> srcs{a};
    if (fromF32) {
      Operand b = floatSource(ctx, in, in.operands[2], 32);
      if (b.kind == ori::OperandKind::None)
        return false;
      srcs.push_back(b);
    }
    for (Operand &o : srcs)
      if (o.kind != ori::OperandKind::VReg) {
        Operand t = r();
        mov(t, imm(static_cast<uint32_t>(o.imm)));
        o = t;
      }
    ori::Instr &i = fromF32 ? ctx.emit(Opcode::F2FP, {}, {d}, {srcs[0], srcs[1], RZ()})
                            : ctx.emit(Opcode::F2FP, {}, {d}, {srcs[0], RZ()});
    i.mods.push_back(Modifier::SATFINITE);
    if (m.relu)
      i.mods.push_back(Modifier::RELU);
    i.mods.push_back(dt == ScalarType::E4M3X2 ? Modifier::E4M3 : Modifier::E5M2);
    i.mods.push_back(fromF32 ? Modifier::F32 : Modifier::F16);
    i.mods.push_back(fromF32 ? Modifier::PACK_AB_MERGE_C : Modifier::UNPACK_B_MERGE_C);
    return true;
  }

  /// cvt.rna|rn|rz.tf32.f32 on the bits: the low 13 bits rounded away (rna: add 0x1000; rn:
  /// add 0xfff plus bit 13; rz: nothing), then cleared; inf and NaN skip the addition (HW:
  /// ptxas's rna sequence: FSETP.GEU |a|, +INF; @!P IADD a, 0x1000; LOP3 & 0xffffe000), and
  /// a NaN gives the NaN 0x7fffe000 (ptxas's sequence can turn a NaN into an infinity).
  bool toTf32() {
    bool rna = in.has("rna");
    if (!(rna || m.rnd == Rnd::RN || m.rnd == Rnd::RZ) || m.sat || m.ftz || m.relu || m.satfinite)
      return ctx.unsupported(in, "Modifier of '" + in.fullOpcode() + "'");
    Operand x = a;
    if (x.kind != ori::OperandKind::VReg) {
      Operand t = r();
      mov(t, imm(static_cast<uint32_t>(x.imm)));
      x = t;
    }
    Operand v = x;
    if (rna || m.rnd == Rnd::RN) {
      Operand big = p();
      ctx.emit(Opcode::FSETP, {Modifier::GEU, Modifier::AND}, {big, PT()},
               {fabsOp(x), Operand::fimm32(0x7f800000), PT()});
      Operand inc = imm(0x1000);
      if (!rna) {
        Operand bit = r(), k = r();
        ctx.emit(Opcode::SHF, {Modifier::R, Modifier::U32, Modifier::HI}, {bit}, {RZ(), imm(13), x});
        ctx.emit(Opcode::LOP3, {Modifier::LUT}, {k}, {bit, imm(1), RZ(), imm(0xc0), notPT()});
        Operand k2 = r();
        ctx.emit(Opcode::IADD3, {}, {k2}, {k, imm(0xfff), RZ()});
        inc = k2;
      }
      Operand sum = r();
      ctx.emit(Opcode::IADD3, {}, {sum}, {x, inc, RZ()});
      v = sel(x, sum, big);
    }
    // A NaN stays a NaN (clearing its low bits could leave an infinity): 0x7fffe000.
    Operand isNan = p(), masked = r();
    ctx.emit(Opcode::LOP3, {Modifier::LUT}, {masked}, {v, imm(0xffffe000), RZ(), imm(0xc0), notPT()});
    ctx.emit(Opcode::FSETP, {Modifier::NaN, Modifier::AND}, {isNan, PT()}, {x, x, PT()});
    mov(d, sel(uimm(0x7fffe000), masked, isNan));
    return true;
  }

  bool run() {
    std::vector<ScalarType> ts = in.types();
    if (ts.size() != 2)
      return ctx.unsupported(in);
    dt = ts[0];
    st = ts[1];
    if (!parseFloatMods(ctx, in,
                        {"rn", "rz", "rm", "rp", "rni", "rzi", "rmi", "rpi", "rna", "ftz", "sat",
                         "relu", "satfinite"},
                        m))
      return false;
    if (in.has("rna") && dt != ScalarType::TF32)
      return ctx.unsupported(in, "Modifier '.rna' of '" + in.fullOpcode() + "'");
    bool unpack8 = dt == ScalarType::F16X2 && (st == ScalarType::E4M3X2 || st == ScalarType::E5M2X2);
    bool pack8 = (dt == ScalarType::E4M3X2 || dt == ScalarType::E5M2X2) &&
                 (st == ScalarType::F32 || st == ScalarType::F16X2);
    bool pair = !unpack8 && (dt == ScalarType::F16X2 || dt == ScalarType::BF16X2);
    bool known = unpack8 || pack8 || (pair && st == ScalarType::F32) || (dt == ScalarType::TF32 && st == ScalarType::F32) ||
                 ((isIntType(dt) || isScalarFloat(dt)) && (isIntType(st) || isScalarFloat(st)));
    if (!known)
      return ctx.unsupported(in);
    if (!pair && !pack8 && in.operands.size() != 2)
      return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
    if (in.operands.empty() || !in.operands[0].is<ptx::RegOperand>())
      return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
    d = ctx.reg(in, in.operands[0].as<ptx::RegOperand>().name);
    if (d.kind == ori::OperandKind::None)
      return false;
    bool srcFloat = isScalarFloat(st);
    if (srcFloat)
      a = floatSource(ctx, in, in.operands[1], bitsOf(st));
    else
      a = ctx.source(in, in.operands[1]);
    if (a.kind == ori::OperandKind::None)
      return false;
    if (pair)
      return packPair();
    if (unpack8)
      return unpackFp8();
    if (pack8)
      return packFp8();
    if (dt == ScalarType::TF32 && st == ScalarType::F32)
      return toTf32();
    bool dstFloat = isScalarFloat(dt);
    if (isIntType(dt) && isIntType(st))
      return intToInt();
    if (dstFloat && isIntType(st))
      return intToFloat();
    if (isIntType(dt) && srcFloat)
      return floatToInt();
    if (dstFloat && srcFloat)
      return floatToFloat();
    return ctx.unsupported(in);
  }
};

bool lowerCvt(LowerCtx &ctx, const ptx::Instruction &in) {
  Cvt c{ctx, in, ScalarType::None, ScalarType::None, {}, {}, {}};
  return c.run();
}

constexpr std::array kRows = {
    HandlerRow{"cvt", TypeClass::Any, lowerCvt},
};

} // namespace

std::span<const HandlerRow> convertHandlers() { return kRows; }

} // namespace ptxmini::frontend::lower
