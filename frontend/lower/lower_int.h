//===- frontend/lower/lower_int.h - shared machinery of the integer-family files ---------===//
///
/// \file
/// The integer, logic and predicate families are split over lower_int*.cpp (the handler
/// table lives in lower_int.cpp). They share `IntSel`, a small builder around one PTX
/// instruction:
///   - operands: `dst()`, `src(i)` (PTX operand i as an Ori operand; a float literal used
///     as bits becomes an integer immediate; a 64-bit immediate keeps all its bits);
///   - 64-bit values as halves: `lo(x)` / `hi(x)` (a pair's component, or an immediate's
///     32-bit half, RZ when that half is 0);
///   - sub-word values: `ext(x, bits, signed)` sign- or zero-extends the low `bits` bits
///     into a fresh register (an immediate is folded), as consumers of 8/16-bit registers
///     must (their upper bits are unspecified, see LowerCtx::reg);
///   - `emit()`: LowerCtx::emit that also spells every 32-bit immediate the way its opcode's
///     immediate field reads it (signed for IADD3/IMAD/ISETP/VIMNMX, unsigned elsewhere;
///     targets/sm_90/sm90_forms.def `{I@32/32 s}` vs `{I@32/32}`), so callers pass plain
///     values;
///   - `Unguarded`: sequences that predicate their own steps (division's fix-ups) cannot also
///     carry the PTX guard, so they compute unguarded into temporaries and the guard applies
///     only to the final copies into the destination.
//===----------------------------------------------------------------------------------===//
#pragma once

#include "frontend/lower/lower_common.h"
#include "frontend/lower/lower_context.h"

#include <initializer_list>

namespace ptxmini::frontend::lower::intsel {

using ori::Modifier;
using ori::Opcode;
using ori::Operand;
using ori::RegClass;

inline bool isIntType(ptx::ScalarType t) {
  auto k = ptx::typeKind(t);
  return k == ptx::TypeKind::Signed || k == ptx::TypeKind::Unsigned || k == ptx::TypeKind::Bit;
}
inline bool isSignedType(ptx::ScalarType t) {
  return ptx::typeKind(t) == ptx::TypeKind::Signed;
}
inline bool isPredType(ptx::ScalarType t) { return ptx::typeKind(t) == ptx::TypeKind::Pred; }

/// A predicate operand with its '!' flipped.
inline Operand notP(Operand p) {
  p.mods ^= ori::OM_NOT;
  return p;
}
inline Operand imm(int64_t v) { return Operand::intImm(v); }
inline Operand NPT() { return notPT(); }

struct IntSel {
  IntSel(LowerCtx &c, const ptx::Instruction &i) : ctx(c), in(i) {}
  LowerCtx &ctx;
  const ptx::Instruction &in;
  bool failed = false;

  ptx::ScalarType type() const { return in.type(); }
  unsigned bits() const { return ptx::typeBits(in.type()); }
  bool isSigned() const { return isSignedType(in.type()); }

  /// Reports and returns false (so handlers can `return s.fail(...)`).
  bool fail(std::string_view what = {}) {
    failed = true;
    return ctx.unsupported(in, what);
  }
  bool badForm() { return fail("This operand form of '" + in.fullOpcode() + "'"); }

  /// Register destination operand `i` (kind None after reporting).
  Operand dst(unsigned i = 0);
  /// Source operand `i` (a register, possibly `!`-negated for predicates, or an immediate).
  Operand src(unsigned i);
  /// Destination + `n` sources of a plain `op d, a, b, ...`; false after reporting.
  bool operands(unsigned n, Operand &d, Operand *s);

  Operand temp(uint8_t width = 1) { return ctx.temp(RegClass::R, width); }
  Operand ptemp() { return ctx.temp(RegClass::P); }

  /// LowerCtx::emit with immediates spelled for the opcode (see the file comment).
  ori::Instr &emit(Opcode op, std::initializer_list<Modifier> mods,
                   std::initializer_list<Operand> defs, std::initializer_list<Operand> uses);
  /// emit() under an extra predicate of its own (only inside an Unguarded region).
  ori::Instr &emitIf(Operand pred, Opcode op, std::initializer_list<Modifier> mods,
                     std::initializer_list<Operand> defs, std::initializer_list<Operand> uses);

  /// 32-bit half `k` of a 64-bit value (register pair component or immediate half; an
  /// immediate half of 0 is RZ).
  Operand half(const Operand &x, unsigned k) const;
  Operand lo(const Operand &x) const { return half(x, 0); }
  Operand hi(const Operand &x) const { return half(x, 1); }
  /// The low 32 bits of a 32-bit-or-narrower value (an immediate truncated, 0 -> RZ).
  Operand r32(const Operand &x) const;
  /// `x` in a register (immediates moved into a fresh one, pairs for 64-bit).
  Operand inReg(const Operand &x, unsigned width = 1);
  /// The low `bits` bits of `x` sign- or zero-extended to 32 (bits >= 32: `x` itself).
  Operand ext(const Operand &x, unsigned bits, bool sign);

  /// True when `d` is the same virtual register as any of `srcs` (then a multi-instruction
  /// sequence that writes part of `d` early must build the result in a temporary).
  static bool aliases(const Operand &d, std::initializer_list<Operand> srcs);
  /// Copies a 32/64-bit value into `d` (one MOV per half).
  void copy(const Operand &d, const Operand &v, unsigned width);

  // 64-bit building blocks (every result in fresh temporaries unless `d` is given).
  /// d = a + b (b negated when `sub`), with an optional carry-out predicate.
  void add64(const Operand &d, const Operand &a, const Operand &b, bool sub,
             Operand carryOut = {});
  /// d = -a.
  void neg64(const Operand &d, const Operand &a);
  /// d = a * b (low 64 bits); `c` added when given.
  void mul64lo(const Operand &d, const Operand &a, const Operand &b, Operand c = {});
  /// d = high 64 bits of the unsigned 128-bit a * b.
  void mulhi64u(const Operand &d, const Operand &a, const Operand &b);
  /// P = a <cmp> b on 64-bit values (cmp an ISETP comparison modifier), combined with `c`
  /// by `bop` (AND with PT when no combine), second output `q` (PT when unused).
  void cmp64(Operand p, Operand q, Modifier cmp, bool isUnsigned, const Operand &a,
             const Operand &b, Modifier bop = Modifier::AND, Operand c = PT());
  /// d = p ? a : b on 64-bit values.
  void sel64(const Operand &d, const Operand &a, const Operand &b, const Operand &p);
  /// d = a << s / a >> s (arith when `sign`), 64-bit, s a 32-bit register or immediate
  /// (clamped at 64 as PTX requires).
  void shl64(const Operand &d, const Operand &a, const Operand &s);
  void shr64(const Operand &d, const Operand &a, const Operand &s, bool sign);
};

/// While alive, the PTX guard is lifted so a sequence can predicate its own steps; `finish`
/// copies the result into the destination under the guard. Without a guard, the result is
/// computed in place (dest() is the destination itself).
class Unguarded {
public:
  Unguarded(IntSel &s, Operand d, unsigned width);
  ~Unguarded();
  /// Where the sequence writes its result.
  Operand dest() const { return work_; }
  void finish();

private:
  IntSel &s_;
  Operand d_, work_;
  Operand guard_;
  unsigned width_;
  bool done_ = false;
};

/// Handlers by file. lower_int_arith.cpp:
bool lowerAdd(LowerCtx &, const ptx::Instruction &);
bool lowerSub(LowerCtx &, const ptx::Instruction &);
bool lowerAddc(LowerCtx &, const ptx::Instruction &);
bool lowerSubc(LowerCtx &, const ptx::Instruction &);
bool lowerMul(LowerCtx &, const ptx::Instruction &);
bool lowerMad(LowerCtx &, const ptx::Instruction &);
bool lowerMadc(LowerCtx &, const ptx::Instruction &);
bool lowerMul24(LowerCtx &, const ptx::Instruction &);
bool lowerMad24(LowerCtx &, const ptx::Instruction &);
bool lowerSad(LowerCtx &, const ptx::Instruction &);
bool lowerNeg(LowerCtx &, const ptx::Instruction &);
bool lowerAbs(LowerCtx &, const ptx::Instruction &);
bool lowerMin(LowerCtx &, const ptx::Instruction &);
bool lowerMax(LowerCtx &, const ptx::Instruction &);
bool lowerDp4a(LowerCtx &, const ptx::Instruction &);
bool lowerDp2a(LowerCtx &, const ptx::Instruction &);
// lower_int_video.cpp:
bool lowerVideo(LowerCtx &, const ptx::Instruction &);
bool lowerVmad(LowerCtx &, const ptx::Instruction &);
// lower_int_simd_video.cpp:
bool lowerSimdVideo(LowerCtx &, const ptx::Instruction &);
// lower_int_logic.cpp:
bool lowerAnd(LowerCtx &, const ptx::Instruction &);
bool lowerOr(LowerCtx &, const ptx::Instruction &);
bool lowerXor(LowerCtx &, const ptx::Instruction &);
bool lowerNot(LowerCtx &, const ptx::Instruction &);
bool lowerCnot(LowerCtx &, const ptx::Instruction &);
bool lowerLop3(LowerCtx &, const ptx::Instruction &);
bool lowerShl(LowerCtx &, const ptx::Instruction &);
bool lowerShr(LowerCtx &, const ptx::Instruction &);
bool lowerShf(LowerCtx &, const ptx::Instruction &);
bool lowerPopc(LowerCtx &, const ptx::Instruction &);
bool lowerClz(LowerCtx &, const ptx::Instruction &);
bool lowerBfind(LowerCtx &, const ptx::Instruction &);
bool lowerBrev(LowerCtx &, const ptx::Instruction &);
bool lowerBfe(LowerCtx &, const ptx::Instruction &);
bool lowerBfi(LowerCtx &, const ptx::Instruction &);
bool lowerBmsk(LowerCtx &, const ptx::Instruction &);
bool lowerSzext(LowerCtx &, const ptx::Instruction &);
bool lowerPrmt(LowerCtx &, const ptx::Instruction &);
bool lowerFns(LowerCtx &, const ptx::Instruction &);
// lower_int_cmp.cpp:
bool lowerSetp(LowerCtx &, const ptx::Instruction &);
bool lowerSet(LowerCtx &, const ptx::Instruction &);
bool setIsIntCompare(const ptx::Instruction &);
bool lowerSelp(LowerCtx &, const ptx::Instruction &);
bool lowerSlct(LowerCtx &, const ptx::Instruction &);
bool lowerMov(LowerCtx &, const ptx::Instruction &);
bool movIsIntValue(const ptx::Instruction &);
bool movIsWideFloatImm(const ptx::Instruction &);
// lower_int_div.cpp:
bool lowerDiv(LowerCtx &, const ptx::Instruction &);
bool lowerRem(LowerCtx &, const ptx::Instruction &);

} // namespace ptxmini::frontend::lower::intsel
