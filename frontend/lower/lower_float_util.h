//===- frontend/lower/lower_float_util.h - helpers of the float and cvt lowering --------===//
///
/// \file
/// Shared by lower_float.cpp, lower_float_math.cpp, lower_float_div.cpp and
/// lower_convert.cpp: the PTX float modifiers as one struct, float operands (immediates
/// converted the way ptxas converts them), sign manipulation of operands, and the SASS
/// rounding modifiers.
//===----------------------------------------------------------------------------------===//
#pragma once

#include "frontend/lower/lower_context.h"

#include <array>
#include <cstdint>
#include <initializer_list>
#include <string_view>

namespace ptxmini::frontend::lower {

/// IEEE rounding of a PTX instruction: .rn/.rz/.rm/.rp (None when absent). For cvt the
/// integer-rounding forms .rni/.rzi/.rmi/.rpi set `integral` as well.
enum class Rnd : uint8_t { None, RN, RZ, RM, RP };

/// The non-type modifiers of a float instruction, decoded.
struct FloatMods {
  Rnd rnd = Rnd::None;
  bool integral = false; ///< .rni/.rzi/.rmi/.rpi
  bool ftz = false, sat = false, approx = false, full = false, relu = false;
  bool nan = false, xorsign = false, abs = false, satfinite = false;
};

/// Decodes `in`'s modifiers; every word must be one of `allowed` (spelled as in PTX, without
/// the dot) or is reported as not supported (false).
bool parseFloatMods(LowerCtx &ctx, const ptx::Instruction &in,
                    std::initializer_list<std::string_view> allowed, FloatMods &m);

/// Appends the SASS rounding modifier of `r` (round-to-nearest prints nothing).
void addRound(ori::Instr &i, Rnd r);

/// True for the PTX types held in one R register as (one or two) 16-bit floats.
bool isHalfType(ptx::ScalarType t);
bool isBf16Type(ptx::ScalarType t);

/// A float source of an instruction whose operation works on `bits` (16, 32 or 64) bit
/// floats. Immediates follow ptxas 13.0: a 0d/decimal literal in an f32 instruction is
/// rounded to f32, a 0f literal in an f64 instruction keeps its 32 bits zero-extended
/// (HW: `add.f64 d, a, 0f3FC00000` adds the double with bits 0x3fc00000). Kind None after
/// reporting.
ori::Operand floatSource(LowerCtx &ctx, const ptx::Instruction &in, const ptx::Operand &op,
                         unsigned bits);
/// `op.type d, a[, b[, c]]` with float sources; false after reporting.
bool floatOperands(LowerCtx &ctx, const ptx::Instruction &in, unsigned numSrcs, unsigned bits,
                   ori::Operand &d, std::array<ori::Operand, 3> &s);

/// `-x`: toggles OM_NEG of a register, flips the sign bit of a float immediate.
ori::Operand fneg(const ori::Operand &o);
/// `|x|`: sets OM_ABS (clearing OM_NEG) of a register, clears the sign bit of an immediate.
ori::Operand fabsOp(const ori::Operand &o);

/// Immediates. The sm_90 templates print some 32-bit immediate fields signed (IADD3,
/// ISETP, IMAD: `-0x1`) and others unsigned (MOV, SEL, LOP3, PRMT: `0xffffffff`), and the
/// assembler takes only that spelling: simm/uimm give the 32-bit value in each.
inline ori::Operand imm(int64_t v) { return ori::Operand::intImm(v); }
inline ori::Operand simm(int64_t v) {
  return ori::Operand::intImm(static_cast<int32_t>(static_cast<uint32_t>(v)));
}
inline ori::Operand uimm(int64_t v) { return ori::Operand::intImm(static_cast<uint32_t>(v)); }
ori::Operand f32Imm(float f);
/// A 64-bit source in a register pair: a register without modifiers as it is, an f64
/// immediate through two MOVs into a fresh pair (callers pass nothing else).
ori::Operand inReg64(LowerCtx &ctx, const ori::Operand &o);
/// The f64 immediate with these bits (encodable in DADD/DMUL/DFMA/DSETP only when the low
/// 32 bits are zero; LegalizeOperands moves it into registers otherwise).
inline ori::Operand f64Bits(uint64_t bits) { return ori::Operand::fimm64(bits); }

/// One PTX comparison: the SASS comparison modifier and the modifier of its complement
/// (`!(a lt b)` is `a geu b`).
struct FloatCmp {
  std::string_view ptx;
  ori::Modifier sass, complement;
};
/// The comparison word of `in`, or nullptr.
const FloatCmp *findFloatCmp(const ptx::Instruction &in);
/// The .and/.or/.xor combine modifier of a setp/set with a predicate source (AND when
/// absent).
ori::Modifier boolOp(const ptx::Instruction &in);

/// The predicate to guard a conditional step with: `p` (negated when `neg`) under the
/// PTX instruction's own guard. Without a PTX guard this is `p` itself; with one, an
/// unguarded PLOP3 combines the two into a fresh predicate.
ori::Operand guardAnd(LowerCtx &ctx, const ori::Operand &p, bool neg);

/// Emits what `emitIt` emits under predicate `g` (already combined with the PTX guard).
template <class F> void emitUnder(LowerCtx &ctx, const ori::Operand &g, F &&emitIt) {
  ori::Operand saved = ctx.curGuard;
  ctx.curGuard = g;
  emitIt();
  ctx.curGuard = saved;
}

/// A fast path with a slow block:
///       ...fast path...                (under the PTX guard)
///       @!(guard & slow) BRA join
///   slow:  ...                         (unguarded: reached only when both hold)
///   join:  ...
/// beginSlowPath emits the branch and starts the slow block; endSlowPath starts the join
/// block, points the branch at it and restores the PTX guard.
struct SlowPath {
  uint32_t braBlock = 0, braIndex = 0;
  ori::Operand guard;
};
SlowPath beginSlowPath(LowerCtx &ctx, const ori::Operand &slow);
void endSlowPath(LowerCtx &ctx, const SlowPath &sp);

/// A guarded PTX instruction whose expansion is long: `@!g BRA skip` in front of it and the
/// expansion emitted unguarded (guarded definitions of its many temporaries would keep them
/// live from the function entry). Inactive when the instruction has no guard.
struct GuardRegion {
  bool active = false;
  SlowPath sp;
};
GuardRegion beginGuardRegion(LowerCtx &ctx);
void endGuardRegion(LowerCtx &ctx, const GuardRegion &r);

/// `src` itself, or a copy of it when it is the register `dst` (so that a sequence writing
/// `dst` early can still read the original source).
ori::Operand protect(LowerCtx &ctx, const ori::Operand &src, const ori::Operand &dst);

} // namespace ptxmini::frontend::lower
