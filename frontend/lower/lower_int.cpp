//===- frontend/lower/lower_int.cpp - integer, logic and predicate families: table ------===//
///
/// \file
/// Instruction selection for PTX's integer, bit-manipulation, comparison/selection and
/// predicate-logic instructions on sm_90, as ptxas 13.0.88 selects them (SASS read with
/// cuobjdump/nvdisasm 13.2 on probe kernels; each file names the forms it emits):
///   lower_int_arith.cpp  add/sub (.sat, .cc chains), mul/mad (.lo/.hi/.wide, 16/32/64),
///                        mul24/mad24, sad, neg, abs, min/max, dp4a/dp2a
///   lower_int_logic.cpp  and/or/xor/not/cnot/lop3 (b16..b64 and .pred), shl/shr/shf,
///                        popc/clz/bfind/brev/bfe/bfi/bmsk/szext/prmt
///   lower_int_cmp.cpp    setp/set (with the boolean combine and p|q), selp, slct, mov of
///                        immediates, predicates and sub-word registers
///   lower_int_div.cpp    div/rem (reciprocal-based, 16/32/64-bit, inline)
///   lower_int_video.cpp  scalar video: vadd/vsub/vabsdiff/vmin/vmax/vset/vshl/vshr
/// This file holds the handler table and IntSel (lower_int.h), the helpers they share.
//===----------------------------------------------------------------------------------===//
#include "frontend/lower/lower_int.h"

#include <array>

namespace ptxmini::frontend::lower {
namespace intsel {


Operand IntSel::dst(unsigned i) {
  if (i >= in.operands.size() || !in.operands[i].is<ptx::RegOperand>()) {
    badForm();
    return {};
  }
  Operand d = ctx.reg(in, in.operands[i].as<ptx::RegOperand>().name);
  if (d.kind == ori::OperandKind::None)
    failed = true;
  return d;
}

Operand IntSel::src(unsigned i) {
  if (i >= in.operands.size()) {
    badForm();
    return {};
  }
  const ptx::Operand &op = in.operands[i];
  if (op.is<ptx::FloatOperand>()) { // a float literal used as bits (mov.b32 %r, 0f3F800000)
    const auto &f = op.as<ptx::FloatOperand>();
    return imm(static_cast<int64_t>(f.isDouble ? f.bits : (f.bits & 0xffffffffu)));
  }
  if (!op.is<ptx::RegOperand>() && !op.is<ptx::ImmOperand>()) {
    badForm();
    return {};
  }
  Operand o = ctx.source(in, op);
  if (o.kind == ori::OperandKind::None)
    failed = true;
  return o;
}

bool IntSel::operands(unsigned n, Operand &d, Operand *s) {
  if (in.operands.size() != n + 1)
    return badForm();
  d = dst(0);
  for (unsigned i = 0; i < n && !failed; ++i)
    s[i] = src(i + 1);
  return !failed;
}

ori::Instr &IntSel::emit(Opcode op, std::initializer_list<Modifier> mods,
                         std::initializer_list<Operand> defs,
                         std::initializer_list<Operand> uses) {
  ori::Instr &i = ctx.emit(op, mods, defs, uses);
  ori::spellImmediates(i);
  return i;
}

ori::Instr &IntSel::emitIf(Operand pred, Opcode op, std::initializer_list<Modifier> mods,
                           std::initializer_list<Operand> defs,
                           std::initializer_list<Operand> uses) {
  ori::Instr &i = emit(op, mods, defs, uses);
  i.guard = pred;
  return i;
}

Operand IntSel::half(const Operand &x, unsigned k) const {
  if (x.kind == ori::OperandKind::Imm) {
    auto v = static_cast<uint64_t>(x.imm);
    uint32_t h = static_cast<uint32_t>(k ? v >> 32 : v);
    return h ? imm(h) : RZ();
  }
  if (x.isFixed())
    return x;
  if (x.isReg() && x.width >= 2)
    return component(x, k);
  return k ? RZ() : x;
}

Operand IntSel::r32(const Operand &x) const {
  if (x.kind == ori::OperandKind::Imm) {
    auto v = static_cast<uint32_t>(x.imm);
    return v ? imm(v) : RZ();
  }
  return x;
}

Operand IntSel::inReg(const Operand &x, unsigned width) {
  if (x.isReg())
    return x;
  Operand t = temp(static_cast<uint8_t>(width));
  copy(t, x, width);
  return t;
}

Operand IntSel::ext(const Operand &x, unsigned b, bool sign) {
  if (b >= 32)
    return r32(x);
  if (x.kind == ori::OperandKind::Imm) {
    uint32_t m = (1u << b) - 1;
    uint32_t v = static_cast<uint32_t>(x.imm) & m;
    if (sign && (v >> (b - 1) & 1))
      v |= ~m;
    return v ? imm(v) : RZ();
  }
  Operand t = temp();
  // HW: ptxas sign-extends 16/8-bit values with PRMT selectors 0x9910 / 0x8880 (bytes
  // 0-1 / 0 then the sign of the top byte) and zero-extends with LOP3 & mask; other widths
  // (mul24's 24) with SGXT[.U32] (observed on setp.lt.s16, mul.hi.s16, mul24.lo probes).
  if (sign && (b == 16 || b == 8))
    emit(Opcode::PRMT, {}, {t}, {x, imm(b == 16 ? 0x9910 : 0x8880), RZ()});
  else if (!sign && (b == 16 || b == 8))
    emit(Opcode::LOP3, {Modifier::LUT}, {t}, {x, imm((1u << b) - 1), RZ(), imm(0xc0), NPT()});
  else if (sign)
    emit(Opcode::SGXT, {}, {t}, {x, imm(b)});
  else
    emit(Opcode::SGXT, {Modifier::U32}, {t}, {x, imm(b)});
  return t;
}

bool IntSel::aliases(const Operand &d, std::initializer_list<Operand> srcs) {
  for (const Operand &s : srcs)
    if (s.kind == ori::OperandKind::VReg && d.kind == ori::OperandKind::VReg && s.cls == d.cls &&
        s.reg == d.reg)
      return true;
  return false;
}

void IntSel::copy(const Operand &d, const Operand &v, unsigned width) {
  if (width == 2) {
    emit(Opcode::MOV, {}, {component(d, 0)}, {lo(v)});
    emit(Opcode::MOV, {}, {component(d, 1)}, {hi(v)});
  } else {
    emit(Opcode::MOV, {}, {d}, {r32(v)});
  }
}

void IntSel::add64(const Operand &d, const Operand &a, const Operand &b0, bool sub,
                   Operand carryOut) {
  Operand b = b0;
  // a - k = a + (-k) for an immediate k, unless the carry is wanted: sub.cc's carry is "no
  // borrow", which a + (-0) would not produce for k = 0.
  if (sub && b.kind == ori::OperandKind::Imm && carryOut.kind == ori::OperandKind::None) {
    b = imm(static_cast<int64_t>(0 - static_cast<uint64_t>(b.imm)));
    sub = false;
  }
  Operand c = ptemp();
  Operand bLo = lo(b), bHi = hi(b);
  if (sub) {
    bLo = negate(bLo); // an immediate half negated, RZ as -RZ (carry out 1)
    if (bHi.kind == ori::OperandKind::Imm)
      bHi = imm(~static_cast<uint32_t>(bHi.imm));
    else
      bHi.mods ^= ori::OM_INV;
  }
  emit(Opcode::IADD3, {}, {component(d, 0), c}, {lo(a), bLo, RZ()});
  if (carryOut.kind != ori::OperandKind::None)
    emit(Opcode::IADD3, {Modifier::X}, {component(d, 1), carryOut},
         {hi(a), bHi, RZ(), c, NPT()});
  else
    emit(Opcode::IADD3, {Modifier::X}, {component(d, 1)}, {hi(a), bHi, RZ(), c, NPT()});
}

void IntSel::neg64(const Operand &d, const Operand &a) {
  Operand c = ptemp();
  Operand aHi = hi(a);
  aHi.mods ^= ori::OM_INV;
  emit(Opcode::IADD3, {}, {component(d, 0), c}, {RZ(), negate(lo(a)), RZ()});
  emit(Opcode::IADD3, {Modifier::X}, {component(d, 1)}, {RZ(), aHi, RZ(), c, NPT()});
}

void IntSel::mul64lo(const Operand &d, const Operand &a, const Operand &b, Operand c) {
  // HW: ptxas's mul.lo.s64: IMAD t, a.hi, b.lo, RZ; IMAD.WIDE.U32 d, a.lo, b.lo, RZ|c;
  // IMAD t, a.lo, b.hi, t; IADD3 d.hi, d.hi, t, RZ. The cross terms are computed first so
  // the wide product may overwrite a or b.
  Operand cross = RZ();
  auto term = [&](const Operand &x, const Operand &y) {
    if (x.isFixed() || y.isFixed())
      return;
    Operand t = temp();
    emit(Opcode::IMAD, {}, {t}, {x, y, cross});
    cross = t;
  };
  term(hi(a), lo(b));
  term(lo(a), hi(b));
  Operand cc = c.kind == ori::OperandKind::None ? RZ() : inReg(c, 2);
  emit(Opcode::IMAD, {Modifier::WIDE, Modifier::U32}, {d}, {lo(a), lo(b), cc});
  if (!cross.isFixed())
    emit(Opcode::IADD3, {}, {component(d, 1)}, {component(d, 1), cross, RZ()});
}

void IntSel::mulhi64u(const Operand &d, const Operand &a, const Operand &b) {
  // HW: ptxas's mul.hi.u64 (cross products with the carry out of their sum kept in a
  // predicate, then IMAD.WIDE.U32.X of the high halves over {t2.hi, carry}).
  Operand t1 = temp(2), t2 = temp(2), t0 = temp(2), cc = temp(2);
  Operand p0 = ptemp(), p1 = ptemp();
  emit(Opcode::IMAD, {Modifier::WIDE, Modifier::U32}, {t1}, {hi(a), lo(b), RZ()});
  emit(Opcode::IMAD, {Modifier::WIDE, Modifier::U32}, {t2, p0}, {lo(a), hi(b), t1});
  emit(Opcode::IMAD, {Modifier::WIDE, Modifier::U32}, {t0}, {lo(a), lo(b), RZ()});
  emit(Opcode::IADD3, {Modifier::X}, {component(cc, 1)}, {RZ(), RZ(), RZ(), p0, NPT()});
  emit(Opcode::MOV, {}, {component(cc, 0)}, {component(t2, 1)});
  emit(Opcode::IADD3, {}, {RZ(), p1}, {component(t0, 1), component(t2, 0), RZ()});
  emit(Opcode::IMAD, {Modifier::WIDE, Modifier::U32, Modifier::X}, {d},
       {hi(a), hi(b), cc, p1});
}

void IntSel::cmp64(Operand p, Operand q, Modifier cmp, bool isUnsigned, const Operand &a,
                   const Operand &b, Modifier bop, Operand c) {
  Operand t = ptemp();
  emit(Opcode::ISETP, {cmp, Modifier::U32, Modifier::AND}, {t, PT()}, {lo(a), lo(b), PT()});
  if (isUnsigned)
    emit(Opcode::ISETP, {cmp, Modifier::U32, bop, Modifier::EX}, {p, q}, {hi(a), hi(b), c, t});
  else
    emit(Opcode::ISETP, {cmp, bop, Modifier::EX}, {p, q}, {hi(a), hi(b), c, t});
}

void IntSel::sel64(const Operand &d, const Operand &a, const Operand &b, const Operand &p) {
  for (unsigned k = 0; k < 2; ++k) {
    Operand x = half(a, k), y = half(b, k), pp = p;
    if (!x.isReg() && y.isReg()) { // SEL's first source is a register
      std::swap(x, y);
      pp = notP(pp);
    }
    emit(Opcode::SEL, {}, {component(d, k)}, {x, y, pp});
  }
}

void IntSel::shl64(const Operand &d, const Operand &a, const Operand &s) {
  if (s.kind == ori::OperandKind::Imm) {
    uint32_t n = static_cast<uint32_t>(s.imm);
    if (n >= 64) {
      copy(d, RZ(), 2);
      return;
    }
    if (n >= 32) { // HW: ptxas shifts the low word into the high one (shl.b64 by 40)
      emit(Opcode::SHF, {Modifier::L, Modifier::U32}, {component(d, 1)}, {lo(a), imm(n - 32), RZ()});
      emit(Opcode::MOV, {}, {component(d, 0)}, {RZ()});
      return;
    }
  }
  // HW: ptxas: SHF.L.U64.HI d.hi, a.lo, s, a.hi ; SHF.L.U32 d.lo, a.lo, s, RZ (in place).
  emit(Opcode::SHF, {Modifier::L, Modifier::U64, Modifier::HI}, {component(d, 1)},
       {lo(a), r32(s), hi(a)});
  emit(Opcode::SHF, {Modifier::L, Modifier::U32}, {component(d, 0)}, {lo(a), r32(s), RZ()});
}

void IntSel::shr64(const Operand &d, const Operand &a, const Operand &s, bool sign) {
  Modifier t32 = sign ? Modifier::S32 : Modifier::U32;
  if (s.kind == ori::OperandKind::Imm) {
    uint32_t n = std::min<uint32_t>(static_cast<uint32_t>(s.imm), 64);
    if (n >= 32) { // HW: ptxas (shr.s64 by 40): both words from the high one
      if (n == 64 && !sign)
        emit(Opcode::MOV, {}, {component(d, 0)}, {RZ()});
      else
        emit(Opcode::SHF, {Modifier::R, t32, Modifier::HI}, {component(d, 0)},
             {RZ(), imm(n == 64 ? 31 : n - 32), hi(a)});
      if (sign)
        emit(Opcode::SHF, {Modifier::R, Modifier::S32, Modifier::HI}, {component(d, 1)},
             {RZ(), imm(31), hi(a)});
      else
        emit(Opcode::MOV, {}, {component(d, 1)}, {RZ()});
      return;
    }
  }
  // HW: ptxas: SHF.R.{U64,S64} d.lo, a.lo, s, a.hi ; SHF.R.{U32,S32}.HI d.hi, RZ, s, a.hi.
  emit(Opcode::SHF, {Modifier::R, sign ? Modifier::S64 : Modifier::U64}, {component(d, 0)},
       {lo(a), r32(s), hi(a)});
  emit(Opcode::SHF, {Modifier::R, t32, Modifier::HI}, {component(d, 1)}, {RZ(), r32(s), hi(a)});
}

Unguarded::Unguarded(IntSel &s, Operand d, unsigned width)
    : s_(s), d_(d), guard_(s.ctx.curGuard), width_(width) {
  if (guard_.kind != ori::OperandKind::None) {
    s_.ctx.curGuard = {};
    work_ = s_.temp(static_cast<uint8_t>(width));
  } else {
    work_ = d;
  }
}

Unguarded::~Unguarded() { s_.ctx.curGuard = guard_; }

void Unguarded::finish() {
  s_.ctx.curGuard = guard_;
  done_ = true;
  if (guard_.kind != ori::OperandKind::None)
    s_.copy(d_, work_, width_);
}

namespace {

constexpr std::array kRows = {
    // lower_int_arith.cpp
    HandlerRow{"add", TypeClass::Int, lowerAdd},
    HandlerRow{"sub", TypeClass::Int, lowerSub},
    HandlerRow{"addc", TypeClass::Int, lowerAddc},
    HandlerRow{"subc", TypeClass::Int, lowerSubc},
    HandlerRow{"mul", TypeClass::Int, lowerMul},
    HandlerRow{"mad", TypeClass::Int, lowerMad},
    HandlerRow{"madc", TypeClass::Int, lowerMadc},
    HandlerRow{"mul24", TypeClass::Int, lowerMul24},
    HandlerRow{"mad24", TypeClass::Int, lowerMad24},
    HandlerRow{"sad", TypeClass::Int, lowerSad},
    HandlerRow{"vadd", TypeClass::Any, lowerVideo},
    HandlerRow{"vsub", TypeClass::Any, lowerVideo},
    HandlerRow{"vabsdiff", TypeClass::Any, lowerVideo},
    HandlerRow{"vmin", TypeClass::Any, lowerVideo},
    HandlerRow{"vmax", TypeClass::Any, lowerVideo},
    HandlerRow{"vset", TypeClass::Any, lowerVideo},
    HandlerRow{"vshl", TypeClass::Any, lowerVideo},
    HandlerRow{"vshr", TypeClass::Any, lowerVideo},
    HandlerRow{"vmad", TypeClass::Any, lowerVmad},
    HandlerRow{"vadd2", TypeClass::Any, lowerSimdVideo},
    HandlerRow{"vsub2", TypeClass::Any, lowerSimdVideo},
    HandlerRow{"vavrg2", TypeClass::Any, lowerSimdVideo},
    HandlerRow{"vabsdiff2", TypeClass::Any, lowerSimdVideo},
    HandlerRow{"vmin2", TypeClass::Any, lowerSimdVideo},
    HandlerRow{"vmax2", TypeClass::Any, lowerSimdVideo},
    HandlerRow{"vset2", TypeClass::Any, lowerSimdVideo},
    HandlerRow{"vadd4", TypeClass::Any, lowerSimdVideo},
    HandlerRow{"vsub4", TypeClass::Any, lowerSimdVideo},
    HandlerRow{"vavrg4", TypeClass::Any, lowerSimdVideo},
    HandlerRow{"vabsdiff4", TypeClass::Any, lowerSimdVideo},
    HandlerRow{"vmin4", TypeClass::Any, lowerSimdVideo},
    HandlerRow{"vmax4", TypeClass::Any, lowerSimdVideo},
    HandlerRow{"vset4", TypeClass::Any, lowerSimdVideo},
    HandlerRow{"neg", TypeClass::Int, lowerNeg},
    HandlerRow{"abs", TypeClass::Int, lowerAbs},
    HandlerRow{"min", TypeClass::Int, lowerMin},
    HandlerRow{"max", TypeClass::Int, lowerMax},
    HandlerRow{"dp4a", TypeClass::Int, lowerDp4a},
    HandlerRow{"dp2a", TypeClass::Int, lowerDp2a},
    // lower_int_logic.cpp
    HandlerRow{"and", TypeClass::Int, lowerAnd},
    HandlerRow{"or", TypeClass::Int, lowerOr},
    HandlerRow{"xor", TypeClass::Int, lowerXor},
    HandlerRow{"not", TypeClass::Int, lowerNot},
    HandlerRow{"cnot", TypeClass::Int, lowerCnot},
    HandlerRow{"lop3", TypeClass::Int, lowerLop3},
    HandlerRow{"shl", TypeClass::Int, lowerShl},
    HandlerRow{"shr", TypeClass::Int, lowerShr},
    HandlerRow{"shf", TypeClass::Int, lowerShf},
    HandlerRow{"popc", TypeClass::Int, lowerPopc},
    HandlerRow{"clz", TypeClass::Int, lowerClz},
    HandlerRow{"bfind", TypeClass::Int, lowerBfind},
    HandlerRow{"brev", TypeClass::Int, lowerBrev},
    HandlerRow{"bfe", TypeClass::Int, lowerBfe},
    HandlerRow{"bfi", TypeClass::Int, lowerBfi},
    HandlerRow{"bmsk", TypeClass::Int, lowerBmsk},
    HandlerRow{"szext", TypeClass::Int, lowerSzext},
    HandlerRow{"prmt", TypeClass::Int, lowerPrmt},
    HandlerRow{"fns", TypeClass::Int, lowerFns},
    // lower_int_cmp.cpp
    HandlerRow{"setp", TypeClass::Int, lowerSetp},
    HandlerRow{"set", TypeClass::Any, lowerSet, setIsIntCompare},
    HandlerRow{"selp", TypeClass::Any, lowerSelp},
    HandlerRow{"slct", TypeClass::Any, lowerSlct},
    HandlerRow{"mov", TypeClass::Int, lowerMov, movIsIntValue},
    HandlerRow{"mov", TypeClass::Float, lowerMov, movIsWideFloatImm},
    // lower_int_div.cpp
    HandlerRow{"div", TypeClass::Int, lowerDiv},
    HandlerRow{"rem", TypeClass::Int, lowerRem},
};

} // namespace
} // namespace intsel

std::span<const HandlerRow> intHandlers() { return intsel::kRows; }

} // namespace ptxmini::frontend::lower
