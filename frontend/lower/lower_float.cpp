//===- frontend/lower/lower_float.cpp - floating-point arithmetic and comparisons ------===//
///
/// \file
/// Instruction selection for PTX floating-point instructions, as ptxas selects them for
/// sm_90 (forms read off ptxas 13.0.88 output with nvdisasm 13.2):
///   add/sub/mul/fma.f32   FADD d, a, (-)b / FMUL d, a, b / FFMA d, a, b, c
///   setp.<cmp>.f32        FSETP.<cmp>.AND p, PT, a, b, PT
/// Only .f32 with round-to-nearest is selected so far; every other type or modifier is
/// reported as not supported, never dropped.
//===----------------------------------------------------------------------------------===//
#include "frontend/lower/lower_context.h"

#include "frontend/lower/lower_common.h"

#include <array>

namespace ptxmini::frontend::lower {
namespace {

using ori::Modifier;
using ori::Opcode;
using ori::Operand;

bool isF32(ptx::ScalarType t) { return t == ptx::ScalarType::F32; }

bool lowerAddSub(LowerCtx &ctx, const ptx::Instruction &in, bool isSub) {
  Operand d;
  std::array<Operand, 3> s;
  if (!isF32(in.type()))
    return ctx.unsupported(in);
  if (!ctx.onlyModifiers(in, {"rn"}) || !plainOperands(ctx, in, 2, d, s))
    return false;
  ctx.emit(Opcode::FADD, {}, {d}, {s[0], isSub ? negate(s[1]) : s[1]});
  return true;
}
bool lowerAdd(LowerCtx &ctx, const ptx::Instruction &in) { return lowerAddSub(ctx, in, false); }
bool lowerSub(LowerCtx &ctx, const ptx::Instruction &in) { return lowerAddSub(ctx, in, true); }

bool lowerMulMad(LowerCtx &ctx, const ptx::Instruction &in, bool isMad) {
  Operand d;
  std::array<Operand, 3> s;
  if (!isF32(in.type()))
    return ctx.unsupported(in);
  if (!ctx.onlyModifiers(in, {"rn"}) || !plainOperands(ctx, in, isMad ? 3 : 2, d, s))
    return false;
  if (isMad)
    ctx.emit(Opcode::FFMA, {}, {d}, {s[0], s[1], s[2]});
  else
    ctx.emit(Opcode::FMUL, {}, {d}, {s[0], s[1]});
  return true;
}
bool lowerMul(LowerCtx &ctx, const ptx::Instruction &in) { return lowerMulMad(ctx, in, false); }
bool lowerMad(LowerCtx &ctx, const ptx::Instruction &in) { return lowerMulMad(ctx, in, true); }
bool lowerFma(LowerCtx &ctx, const ptx::Instruction &in) { return lowerMulMad(ctx, in, true); }

// Ordered comparisons only; unordered forms (equ, ltu, ...) are not selected yet.
constexpr std::array kFloatCmps = {
    CmpRow{"eq", Modifier::EQ}, CmpRow{"ne", Modifier::NE}, CmpRow{"lt", Modifier::LT},
    CmpRow{"le", Modifier::LE}, CmpRow{"gt", Modifier::GT}, CmpRow{"ge", Modifier::GE},
};

bool lowerSetp(LowerCtx &ctx, const ptx::Instruction &in) {
  if (!isF32(in.type()))
    return ctx.unsupported(in);
  const CmpRow *row = findCmp(in, kFloatCmps);
  if (!row || in.modifiers.size() != 2)
    return ctx.unsupported(in);
  Operand p, a, b;
  if (!setpOperands(ctx, in, p, a, b))
    return false;
  ctx.emit(Opcode::FSETP, {row->sass, Modifier::AND}, {p, PT()}, {a, b, PT()});
  return true;
}

constexpr std::array kRows = {
    HandlerRow{"add", TypeClass::Float, lowerAdd},   HandlerRow{"sub", TypeClass::Float, lowerSub},
    HandlerRow{"mul", TypeClass::Float, lowerMul},   HandlerRow{"mad", TypeClass::Float, lowerMad},
    HandlerRow{"fma", TypeClass::Float, lowerFma},   HandlerRow{"setp", TypeClass::Float, lowerSetp},
};

} // namespace

std::span<const HandlerRow> floatHandlers() { return kRows; }

} // namespace ptxmini::frontend::lower
