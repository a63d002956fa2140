//===- frontend/lower/lower_int.cpp - integer arithmetic, logic, compare and select -----===//
///
/// \file
/// Instruction selection for PTX integer arithmetic on 32-bit values, 64-bit add/sub (a
/// carry pair), logic, shifts, comparisons and selects, as ptxas selects them for sm_90 (the
/// SASS forms were read off ptxas 13.0.88 output with nvdisasm 13.2):
///   add/sub.s32   IADD3 d, a, (-)b, RZ          mul.lo / mad.lo  IMAD d, a, b, c|RZ
///   add.s64       IADD3 lo, P, a.lo, b.lo, RZ ; IADD3.X hi, a.hi, b.hi, RZ, P, !PT
///   mul.wide      IMAD.WIDE(.U32) d, a, b, RZ
///   and/or/xor    LOP3.LUT d, a, b, RZ, lut, !PT (lut 0xc0 / 0xfc / 0x3c)
///   shl / shr     SHF.L.U32 d, a, b, RZ / SHF.R.{U32,S32}.HI d, RZ, b, a
///   setp          ISETP.<cmp>[.U32].AND p, PT, a, b, PT / FSETP.<cmp>.AND p, PT, a, b, PT
///   selp          SEL d, a, b, p
//===----------------------------------------------------------------------------------===//
#include "frontend/lower/lower_context.h"

#include "frontend/lower/lower_common.h"

#include <array>

namespace ptxmini::frontend::lower {
namespace {

using ori::Modifier;
using ori::Opcode;
using ori::Operand;
using ori::RegClass;

bool isInt(ptx::ScalarType t) {
  auto k = ptx::typeKind(t);
  return k == ptx::TypeKind::Signed || k == ptx::TypeKind::Unsigned || k == ptx::TypeKind::Bit;
}
unsigned bits(ptx::ScalarType t) { return ptx::typeBits(t); }

bool lowerAddSub(LowerCtx &ctx, const ptx::Instruction &in, bool isSub) {
  ptx::ScalarType t = in.type();
  Operand d;
  std::array<Operand, 3> s;
  if (!isInt(t) || !ctx.onlyModifiers(in, {}) || !plainOperands(ctx, in, 2, d, s))
    return isInt(t) ? false : ctx.unsupported(in);
  if (bits(t) == 32) {
    ctx.emit(Opcode::IADD3, {}, {d}, {s[0], isSub ? negate(s[1]) : s[1], RZ()});
    return true;
  }
  if (bits(t) == 64) {
    if (s[0].kind != ori::OperandKind::VReg || s[1].kind != ori::OperandKind::VReg)
      return ctx.unsupported(in, "A 64-bit immediate operand of '" + in.fullOpcode() + "'");
    Operand carry = ctx.temp(RegClass::P);
    Operand bLo = component(s[1], 0), bHi = component(s[1], 1);
    if (isSub) { // a - b = a + ~b + 1: the low half negates, the high half inverts
      bLo = negate(bLo);
      bHi.mods |= ori::OM_INV;
    }
    ctx.emit(Opcode::IADD3, {}, {component(d, 0), carry}, {component(s[0], 0), bLo, RZ()});
    ctx.emit(Opcode::IADD3, {Modifier::X}, {component(d, 1)},
             {component(s[0], 1), bHi, RZ(), carry, notPT()});
    return true;
  }
  return ctx.unsupported(in);
}

bool lowerAdd(LowerCtx &ctx, const ptx::Instruction &in) { return lowerAddSub(ctx, in, false); }
bool lowerSub(LowerCtx &ctx, const ptx::Instruction &in) { return lowerAddSub(ctx, in, true); }

bool lowerMulMad(LowerCtx &ctx, const ptx::Instruction &in, bool isMad) {
  ptx::ScalarType t = in.type();
  Operand d;
  std::array<Operand, 3> s;
  unsigned n = isMad ? 3 : 2;
  if (!isInt(t) || bits(t) != 32)
    return ctx.unsupported(in);
  if (in.has("wide")) {
    if (!ctx.onlyModifiers(in, {"wide"}) || !plainOperands(ctx, in, n, d, s))
      return false;
    if (isMad)
      return ctx.unsupported(in);
    bool isUnsigned = ptx::typeKind(t) == ptx::TypeKind::Unsigned;
    if (isUnsigned)
      ctx.emit(Opcode::IMAD, {Modifier::WIDE, Modifier::U32}, {d}, {s[0], s[1], RZ()});
    else
      ctx.emit(Opcode::IMAD, {Modifier::WIDE}, {d}, {s[0], s[1], RZ()});
    return true;
  }
  if (!in.has("lo"))
    return ctx.unsupported(in); // .hi (and plain forms of other types) are not selected yet
  if (!ctx.onlyModifiers(in, {"lo"}) || !plainOperands(ctx, in, n, d, s))
    return false;
  ctx.emit(Opcode::IMAD, {}, {d}, {s[0], s[1], isMad ? s[2] : RZ()});
  return true;
}

bool lowerMul(LowerCtx &ctx, const ptx::Instruction &in) { return lowerMulMad(ctx, in, false); }
bool lowerMad(LowerCtx &ctx, const ptx::Instruction &in) { return lowerMulMad(ctx, in, true); }

bool lowerLogic(LowerCtx &ctx, const ptx::Instruction &in, uint8_t lut) {
  Operand d;
  std::array<Operand, 3> s;
  ptx::ScalarType t = in.type();
  if (bits(t) != 32 || !isInt(t))
    return ctx.unsupported(in);
  if (!ctx.onlyModifiers(in, {}) || !plainOperands(ctx, in, 2, d, s))
    return false;
  ctx.emit(Opcode::LOP3, {Modifier::LUT}, {d}, {s[0], s[1], RZ(), Operand::intImm(lut), notPT()});
  return true;
}
// LOP3 truth tables over (a=0xf0, b=0xcc, c=0xaa).
bool lowerAnd(LowerCtx &ctx, const ptx::Instruction &in) { return lowerLogic(ctx, in, 0xc0); }
bool lowerOr(LowerCtx &ctx, const ptx::Instruction &in) { return lowerLogic(ctx, in, 0xfc); }
bool lowerXor(LowerCtx &ctx, const ptx::Instruction &in) { return lowerLogic(ctx, in, 0x3c); }

bool lowerShift(LowerCtx &ctx, const ptx::Instruction &in, bool left) {
  Operand d;
  std::array<Operand, 3> s;
  ptx::ScalarType t = in.type();
  if (bits(t) != 32 || !isInt(t))
    return ctx.unsupported(in);
  if (!ctx.onlyModifiers(in, {}) || !plainOperands(ctx, in, 2, d, s))
    return false;
  if (left) {
    ctx.emit(Opcode::SHF, {Modifier::L, Modifier::U32}, {d}, {s[0], s[1], RZ()});
  } else if (ptx::typeKind(t) == ptx::TypeKind::Signed) {
    ctx.emit(Opcode::SHF, {Modifier::R, Modifier::S32, Modifier::HI}, {d}, {RZ(), s[1], s[0]});
  } else {
    ctx.emit(Opcode::SHF, {Modifier::R, Modifier::U32, Modifier::HI}, {d}, {RZ(), s[1], s[0]});
  }
  return true;
}
bool lowerShl(LowerCtx &ctx, const ptx::Instruction &in) { return lowerShift(ctx, in, true); }
bool lowerShr(LowerCtx &ctx, const ptx::Instruction &in) { return lowerShift(ctx, in, false); }

/// PTX comparison words to SASS comparison modifiers (signed/unsigned by the type).
constexpr std::array kIntCmps = {
    CmpRow{"eq", Modifier::EQ}, CmpRow{"ne", Modifier::NE}, CmpRow{"lt", Modifier::LT},
    CmpRow{"le", Modifier::LE}, CmpRow{"gt", Modifier::GT}, CmpRow{"ge", Modifier::GE},
    CmpRow{"lo", Modifier::LT}, CmpRow{"ls", Modifier::LE}, CmpRow{"hi", Modifier::GT},
    CmpRow{"hs", Modifier::GE},
};

bool lowerSetp(LowerCtx &ctx, const ptx::Instruction &in) {
  ptx::ScalarType t = in.type();
  if (!isInt(t) || bits(t) != 32)
    return ctx.unsupported(in);
  const CmpRow *row = findCmp(in, kIntCmps);
  if (!row || in.modifiers.size() != 2)
    return ctx.unsupported(in);
  Operand p, a, b;
  if (!setpOperands(ctx, in, p, a, b))
    return false;
  if (ptx::typeKind(t) != ptx::TypeKind::Signed)
    ctx.emit(Opcode::ISETP, {row->sass, Modifier::U32, Modifier::AND}, {p, PT()}, {a, b, PT()});
  else
    ctx.emit(Opcode::ISETP, {row->sass, Modifier::AND}, {p, PT()}, {a, b, PT()});
  return true;
}

bool lowerSelp(LowerCtx &ctx, const ptx::Instruction &in) {
  Operand d;
  std::array<Operand, 3> s;
  if (bits(in.type()) != 32)
    return ctx.unsupported(in);
  if (!ctx.onlyModifiers(in, {}) || !plainOperands(ctx, in, 3, d, s))
    return false;
  ctx.emit(Opcode::SEL, {}, {d}, {s[0], s[1], s[2]});
  return true;
}

constexpr std::array kRows = {
    HandlerRow{"add", TypeClass::Int, lowerAdd},   HandlerRow{"sub", TypeClass::Int, lowerSub},
    HandlerRow{"mul", TypeClass::Int, lowerMul},   HandlerRow{"mad", TypeClass::Int, lowerMad},
    HandlerRow{"and", TypeClass::Int, lowerAnd},   HandlerRow{"or", TypeClass::Int, lowerOr},
    HandlerRow{"xor", TypeClass::Int, lowerXor},   HandlerRow{"shl", TypeClass::Int, lowerShl},
    HandlerRow{"shr", TypeClass::Int, lowerShr},   HandlerRow{"setp", TypeClass::Int, lowerSetp},
    HandlerRow{"selp", TypeClass::Any, lowerSelp},
};

} // namespace

std::span<const HandlerRow> intHandlers() { return kRows; }

} // namespace ptxmini::frontend::lower
