//===- frontend/lower/lower_arith.cpp - integer, float, logic, compare and select -----===//
///
/// \file
/// Instruction selection for PTX arithmetic on 32-bit integers and floats, 64-bit integer
/// add/sub (a carry pair), and comparisons, as ptxas selects them for sm_90 (the SASS
/// forms were read off ptxas 13.0.88 output with nvdisasm 13.2):
///   add/sub.s32   IADD3 d, a, (-)b, RZ          mul.lo / mad.lo  IMAD d, a, b, c|RZ
///   add.s64       IADD3 lo, P, a.lo, b.lo, RZ ; IADD3.X hi, a.hi, b.hi, RZ, P, !PT
///   mul.wide      IMAD.WIDE(.U32) d, a, b, RZ
///   and/or/xor    LOP3.LUT d, a, b, RZ, lut, !PT (lut 0xc0 / 0xfc / 0x3c)
///   shl / shr     SHF.L.U32 d, a, b, RZ / SHF.R.{U32,S32}.HI d, RZ, b, a
///   setp          ISETP.<cmp>[.U32].AND p, PT, a, b, PT / FSETP.<cmp>.AND p, PT, a, b, PT
///   selp          SEL d, a, b, p            add/mul/fma.f32  FADD / FMUL / FFMA
//===----------------------------------------------------------------------------------===//
#include "frontend/lower/lower_context.h"

#include <array>

namespace ptxmini::frontend::lower {
namespace {

using ori::Modifier;
using ori::Opcode;
using ori::Operand;
using ori::RegClass;

Operand RZ() { return Operand::fixed(RegClass::R); }
Operand PT() { return Operand::fixed(RegClass::P); }

bool isInt(ptx::ScalarType t) {
  auto k = ptx::typeKind(t);
  return k == ptx::TypeKind::Signed || k == ptx::TypeKind::Unsigned || k == ptx::TypeKind::Bit;
}
bool isF32(ptx::ScalarType t) { return t == ptx::ScalarType::F32; }
unsigned bits(ptx::ScalarType t) { return ptx::typeBits(t); }

/// Destination and sources of a plain `op.type d, a, b[, c]`; false after reporting.
bool operands(LowerCtx &ctx, const ptx::Instruction &in, unsigned numSrcs, Operand &d,
              std::array<Operand, 3> &s) {
  if (in.operands.size() != numSrcs + 1 || !in.operands[0].is<ptx::RegOperand>())
    return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
  d = ctx.reg(in, in.operands[0].as<ptx::RegOperand>().name);
  if (d.kind == ori::OperandKind::None)
    return false;
  for (unsigned i = 0; i < numSrcs; ++i) {
    s[i] = ctx.source(in, in.operands[i + 1]);
    if (s[i].kind == ori::OperandKind::None)
      return false;
  }
  return true;
}

/// A 32-bit integer immediate as the SASS ALU takes it (sign-extended to 64 bits here is
/// fine: the encoder range-checks the field).
Operand negate(const Operand &o) {
  Operand n = o;
  if (n.kind == ori::OperandKind::Imm)
    n.imm = static_cast<int32_t>(-static_cast<uint32_t>(n.imm));
  else
    n.mods ^= ori::OM_NEG;
  return n;
}

bool lowerAddSub(LowerCtx &ctx, const ptx::Instruction &in, bool isSub) {
  ptx::ScalarType t = in.type();
  Operand d;
  std::array<Operand, 3> s;
  if (isF32(t)) {
    if (!ctx.onlyModifiers(in, {"rn"}) || !operands(ctx, in, 2, d, s))
      return false;
    ctx.emit(Opcode::FADD, {}, {d}, {s[0], isSub ? negate(s[1]) : s[1]});
    return true;
  }
  if (!isInt(t) || !ctx.onlyModifiers(in, {}) || !operands(ctx, in, 2, d, s))
    return isInt(t) ? false : ctx.unsupported(in);
  if (bits(t) == 32) {
    ctx.emit(Opcode::IADD3, {}, {d}, {s[0], isSub ? negate(s[1]) : s[1], RZ()});
    return true;
  }
  if (bits(t) == 64) {
    if (s[0].kind != ori::OperandKind::VReg || s[1].kind != ori::OperandKind::VReg)
      return ctx.unsupported(in, "A 64-bit immediate operand of '" + in.fullOpcode() + "'");
    Operand carry = ctx.temp(RegClass::P);
    Operand notPT = PT();
    notPT.mods |= ori::OM_NOT;
    Operand bLo = component(s[1], 0), bHi = component(s[1], 1);
    if (isSub) { // a - b = a + ~b + 1: the low half negates, the high half inverts
      bLo = negate(bLo);
      bHi.mods |= ori::OM_INV;
    }
    ctx.emit(Opcode::IADD3, {}, {component(d, 0), carry}, {component(s[0], 0), bLo, RZ()});
    ctx.emit(Opcode::IADD3, {Modifier::X}, {component(d, 1)},
             {component(s[0], 1), bHi, RZ(), carry, notPT});
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
  if (isF32(t)) {
    if (!ctx.onlyModifiers(in, {"rn"}) || !operands(ctx, in, n, d, s))
      return false;
    if (isMad)
      ctx.emit(Opcode::FFMA, {}, {d}, {s[0], s[1], s[2]});
    else
      ctx.emit(Opcode::FMUL, {}, {d}, {s[0], s[1]});
    return true;
  }
  if (!isInt(t) || bits(t) != 32)
    return ctx.unsupported(in);
  if (in.has("wide")) {
    if (!ctx.onlyModifiers(in, {"wide"}) || !operands(ctx, in, n, d, s))
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
  if (!ctx.onlyModifiers(in, {"lo"}) || !operands(ctx, in, n, d, s))
    return false;
  ctx.emit(Opcode::IMAD, {}, {d}, {s[0], s[1], isMad ? s[2] : RZ()});
  return true;
}

bool lowerMul(LowerCtx &ctx, const ptx::Instruction &in) { return lowerMulMad(ctx, in, false); }
bool lowerMad(LowerCtx &ctx, const ptx::Instruction &in) { return lowerMulMad(ctx, in, true); }

bool lowerFma(LowerCtx &ctx, const ptx::Instruction &in) {
  Operand d;
  std::array<Operand, 3> s;
  if (!isF32(in.type()))
    return ctx.unsupported(in);
  if (!ctx.onlyModifiers(in, {"rn"}) || !operands(ctx, in, 3, d, s))
    return false;
  ctx.emit(Opcode::FFMA, {}, {d}, {s[0], s[1], s[2]});
  return true;
}

bool lowerLogic(LowerCtx &ctx, const ptx::Instruction &in, uint8_t lut) {
  Operand d;
  std::array<Operand, 3> s;
  ptx::ScalarType t = in.type();
  if (bits(t) != 32 || !isInt(t))
    return ctx.unsupported(in);
  if (!ctx.onlyModifiers(in, {}) || !operands(ctx, in, 2, d, s))
    return false;
  Operand notPT = PT();
  notPT.mods |= ori::OM_NOT;
  ctx.emit(Opcode::LOP3, {Modifier::LUT}, {d}, {s[0], s[1], RZ(), Operand::intImm(lut), notPT});
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
  if (!ctx.onlyModifiers(in, {}) || !operands(ctx, in, 2, d, s))
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

/// PTX comparison words to SASS comparison modifiers (integers: signed/unsigned by type).
struct CmpRow {
  std::string_view ptx;
  Modifier sass;
};
constexpr std::array kIntCmps = {
    CmpRow{"eq", Modifier::EQ}, CmpRow{"ne", Modifier::NE}, CmpRow{"lt", Modifier::LT},
    CmpRow{"le", Modifier::LE}, CmpRow{"gt", Modifier::GT}, CmpRow{"ge", Modifier::GE},
    CmpRow{"lo", Modifier::LT}, CmpRow{"ls", Modifier::LE}, CmpRow{"hi", Modifier::GT},
    CmpRow{"hs", Modifier::GE},
};
// Ordered float comparisons only; unordered forms (equ, ltu, ...) are not selected yet.
constexpr std::array kFloatCmps = {
    CmpRow{"eq", Modifier::EQ}, CmpRow{"ne", Modifier::NE}, CmpRow{"lt", Modifier::LT},
    CmpRow{"le", Modifier::LE}, CmpRow{"gt", Modifier::GT}, CmpRow{"ge", Modifier::GE},
};

bool lowerSetp(LowerCtx &ctx, const ptx::Instruction &in) {
  ptx::ScalarType t = in.type();
  bool f = isF32(t);
  if (!(f || (isInt(t) && bits(t) == 32)))
    return ctx.unsupported(in);
  const auto *row = static_cast<const CmpRow *>(nullptr);
  std::string cmpWord;
  for (const ptx::Modifier &m : in.modifiers)
    if (m.kind == ptx::Modifier::Kind::Other)
      cmpWord = m.text;
  for (const CmpRow &r : f ? std::span<const CmpRow>(kFloatCmps) : std::span<const CmpRow>(kIntCmps))
    if (r.ptx == cmpWord)
      row = &r;
  if (!row || in.modifiers.size() != 2)
    return ctx.unsupported(in);
  if (in.operands.size() != 3 || !in.operands[0].is<ptx::RegOperand>())
    return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
  Operand p = ctx.reg(in, in.operands[0].as<ptx::RegOperand>().name);
  Operand a = ctx.source(in, in.operands[1]), b = ctx.source(in, in.operands[2]);
  if (p.kind == ori::OperandKind::None || a.kind == ori::OperandKind::None ||
      b.kind == ori::OperandKind::None)
    return false;
  if (f) {
    ctx.emit(Opcode::FSETP, {row->sass, Modifier::AND}, {p, PT()}, {a, b, PT()});
  } else {
    bool unsignedCmp = ptx::typeKind(t) != ptx::TypeKind::Signed;
    if (unsignedCmp)
      ctx.emit(Opcode::ISETP, {row->sass, Modifier::U32, Modifier::AND}, {p, PT()}, {a, b, PT()});
    else
      ctx.emit(Opcode::ISETP, {row->sass, Modifier::AND}, {p, PT()}, {a, b, PT()});
  }
  return true;
}

bool lowerSelp(LowerCtx &ctx, const ptx::Instruction &in) {
  Operand d;
  std::array<Operand, 3> s;
  if (bits(in.type()) != 32)
    return ctx.unsupported(in);
  if (!ctx.onlyModifiers(in, {}) || !operands(ctx, in, 3, d, s))
    return false;
  ctx.emit(Opcode::SEL, {}, {d}, {s[0], s[1], s[2]});
  return true;
}

constexpr std::array kRows = {
    HandlerRow{"add", lowerAdd},   HandlerRow{"sub", lowerSub},   HandlerRow{"mul", lowerMul},
    HandlerRow{"mad", lowerMad},   HandlerRow{"fma", lowerFma},   HandlerRow{"and", lowerAnd},
    HandlerRow{"or", lowerOr},     HandlerRow{"xor", lowerXor},   HandlerRow{"shl", lowerShl},
    HandlerRow{"shr", lowerShr},   HandlerRow{"setp", lowerSetp}, HandlerRow{"selp", lowerSelp},
};

} // namespace

std::span<const HandlerRow> arithHandlers() { return kRows; }

} // namespace ptxmini::frontend::lower
