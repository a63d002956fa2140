//===- frontend/lower/lower_int_cmp.cpp - integer compare, select and value moves -------===//
///
/// \file
/// SASS selected for sm_90 (HW: ptxas 13.0.88 on probe kernels):
///   setp.cmp[.bop].{s,u,b}32   ISETP.cmp[.U32].bop p, q, a, b, c (q = !(a cmp b) bop c; PT
///                              when PTX names no q; c = PT without a combine)
///   setp.*.16                  both sources extended first (PRMT 0x9910 / LOP3 & 0xffff)
///   setp.*.64                  ISETP.cmp.U32.AND t, PT, a.lo, b.lo, PT ;
///                              ISETP.cmp[.U32].bop.EX p, q, a.hi, b.hi, c, t
///   set.cmp[.bop].dtype.{int}  the same compare, then SEL d, RZ, 0xffffffff|1.0f, !P
///   selp                       SEL d, a, b, p (two for 64-bit; swapped with !p when only b
///                              is a register)
///   slct.dtype.s32/.f32        ISETP.GE / FSETP.GE[.FTZ] c, 0 then SEL
///   mov of immediates          MOV d, imm (64-bit, f64 too: one per half); sub-word registers: MOV
///   mov.pred                   PLOP3.LUT p, PT, q, PT, PT, 0xf0, 0x0 (PT/!PT for 1/0)
/// An immediate first source of a compare is swapped to the second place with the mirrored
/// comparison (ISETP's a is a register).
//===----------------------------------------------------------------------------------===//
#include "frontend/lower/lower_int.h"

#include <array>

namespace ptxmini::frontend::lower::intsel {
namespace {

/// PTX comparison words: the SASS comparison and whether the word itself is unsigned.
struct IntCmpRow {
  std::string_view ptx;
  Modifier sass;
  bool forcesUnsigned;
};
constexpr std::array kIntCmps = {
    IntCmpRow{"eq", Modifier::EQ, false}, IntCmpRow{"ne", Modifier::NE, false},
    IntCmpRow{"lt", Modifier::LT, false}, IntCmpRow{"le", Modifier::LE, false},
    IntCmpRow{"gt", Modifier::GT, false}, IntCmpRow{"ge", Modifier::GE, false},
    IntCmpRow{"lo", Modifier::LT, true},  IntCmpRow{"ls", Modifier::LE, true},
    IntCmpRow{"hi", Modifier::GT, true},  IntCmpRow{"hs", Modifier::GE, true},
};

struct BopRow {
  std::string_view ptx;
  Modifier sass;
};
constexpr std::array kBops = {BopRow{"and", Modifier::AND}, BopRow{"or", Modifier::OR},
                              BopRow{"xor", Modifier::XOR}};

Modifier mirror(Modifier m) {
  switch (m) {
  case Modifier::LT:
    return Modifier::GT;
  case Modifier::GT:
    return Modifier::LT;
  case Modifier::LE:
    return Modifier::GE;
  case Modifier::GE:
    return Modifier::LE;
  default:
    return m;
  }
}

const IntCmpRow *findIntCmp(const ptx::Instruction &in) {
  for (const ptx::Modifier &m : in.modifiers)
    if (m.kind == ptx::Modifier::Kind::Other)
      for (const IntCmpRow &r : kIntCmps)
        if (r.ptx == m.text)
          return &r;
  return nullptr;
}

const BopRow *findBop(const ptx::Instruction &in) {
  for (const ptx::Modifier &m : in.modifiers)
    if (m.kind == ptx::Modifier::Kind::Other)
      for (const BopRow &r : kBops)
        if (r.ptx == m.text)
          return &r;
  return nullptr;
}

Operand predSrc(const Operand &x) {
  if (x.kind == ori::OperandKind::Imm)
    return x.imm ? PT() : NPT();
  return x;
}

/// p (and q) = (a cmp b) bop c on integers of type `t`.
void compare(IntSel &s, Operand p, Operand q, const IntCmpRow &cmp, ptx::ScalarType t,
             Operand a, Operand b, Modifier bop, Operand c) {
  unsigned bits = ptx::typeBits(t);
  bool isUnsigned = cmp.forcesUnsigned || !isSignedType(t);
  Modifier m = cmp.sass;
  if (!a.isReg() && b.isReg()) {
    std::swap(a, b);
    m = mirror(m);
  }
  if (bits == 64) {
    s.cmp64(p, q, m, isUnsigned, s.inReg(a, 2), b, bop, c);
    return;
  }
  bool sx = !isUnsigned && bits < 32;
  a = s.inReg(s.ext(a, bits, sx));
  b = s.ext(b, bits, sx);
  if (isUnsigned)
    s.emit(Opcode::ISETP, {m, Modifier::U32, bop}, {p, q}, {a, b, c});
  else
    s.emit(Opcode::ISETP, {m, bop}, {p, q}, {a, b, c});
}

/// Shared front part of setp/set: comparison word, combine and its predicate operand.
bool compareParts(IntSel &s, const IntCmpRow *&cmp, Modifier &bop, Operand &c,
                  unsigned combineIndex) {
  cmp = findIntCmp(s.in);
  const BopRow *b = findBop(s.in);
  if (!cmp)
    return s.fail();
  bop = Modifier::AND;
  c = PT();
  if (b) {
    if (s.in.operands.size() != combineIndex + 1)
      return s.badForm();
    bop = b->sass;
    c = predSrc(s.src(combineIndex));
  } else if (s.in.operands.size() != combineIndex) {
    return s.badForm();
  }
  return !s.failed;
}

} // namespace

bool lowerSetp(LowerCtx &ctx, const ptx::Instruction &in) {
  IntSel s(ctx, in);
  if (!isIntType(s.type()))
    return s.fail();
  if (!ctx.onlyModifiers(in, {"eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs", "and",
                              "or", "xor"}))
    return false;
  const IntCmpRow *cmp;
  Modifier bop;
  Operand c;
  if (!compareParts(s, cmp, bop, c, 3))
    return false;
  Operand p, q = PT();
  const ptx::Operand &d = in.operands[0];
  if (d.is<ptx::PairOperand>()) {
    p = ctx.reg(in, d.as<ptx::PairOperand>().first);
    q = ctx.reg(in, d.as<ptx::PairOperand>().second);
  } else if (d.is<ptx::RegOperand>()) {
    p = s.dst(0);
  } else {
    return s.badForm();
  }
  Operand a = s.src(1), b = s.src(2);
  if (s.failed || p.kind == ori::OperandKind::None || q.kind == ori::OperandKind::None)
    return false;
  compare(s, p, q, *cmp, s.type(), a, b, bop, c);
  return true;
}

bool setIsIntCompare(const ptx::Instruction &in) {
  std::vector<ptx::ScalarType> ts = in.types();
  return ts.size() == 2 && isIntType(ts[1]);
}

bool lowerSet(LowerCtx &ctx, const ptx::Instruction &in) {
  IntSel s(ctx, in);
  std::vector<ptx::ScalarType> ts = in.types();
  if (!setIsIntCompare(in) || ptx::typeBits(ts[0]) != 32)
    return s.fail();
  if (!ctx.onlyModifiers(in, {"eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs", "and",
                              "or", "xor", "ftz"}))
    return false;
  const IntCmpRow *cmp;
  Modifier bop;
  Operand c;
  if (!compareParts(s, cmp, bop, c, 3))
    return false;
  Operand d = s.dst(0), a = s.src(1), b = s.src(2);
  if (s.failed)
    return false;
  Operand p = s.ptemp();
  compare(s, p, PT(), *cmp, ts[1], a, b, bop, c);
  // 0xffffffff for true in an integer destination, 1.0f in an f32 one.
  bool f = ptx::typeKind(ts[0]) == ptx::TypeKind::Float;
  s.emit(Opcode::SEL, {}, {d}, {RZ(), imm(f ? 0x3f800000 : 0xffffffff), notP(p)});
  return true;
}

bool lowerSelp(LowerCtx &ctx, const ptx::Instruction &in) {
  IntSel s(ctx, in);
  unsigned bits = s.bits();
  if (bits != 16 && bits != 32 && bits != 64)
    return s.fail();
  if (!ctx.onlyModifiers(in, {}))
    return false;
  Operand d, x[3];
  if (!s.operands(3, d, x))
    return false;
  Operand p = predSrc(x[2]);
  if (bits == 64) {
    s.sel64(d, x[0], x[1], p);
    return true;
  }
  Operand a = s.r32(x[0]), b = s.r32(x[1]);
  if (!a.isReg() && b.isReg()) {
    std::swap(a, b);
    p = notP(p);
  }
  s.emit(Opcode::SEL, {}, {d}, {s.inReg(a), b, p});
  return true;
}

bool lowerSlct(LowerCtx &ctx, const ptx::Instruction &in) {
  IntSel s(ctx, in);
  std::vector<ptx::ScalarType> ts = in.types();
  if (ts.size() != 2 || ptx::typeBits(ts[1]) != 32)
    return s.fail();
  bool fc = ts[1] == ptx::ScalarType::F32;
  if (!ctx.onlyModifiers(in, fc ? std::initializer_list<std::string_view>{"ftz"}
                                : std::initializer_list<std::string_view>{}))
    return false;
  Operand d, x[3];
  if (!s.operands(3, d, x))
    return false;
  Operand p = s.ptemp();
  Operand c = s.inReg(s.r32(x[2]));
  if (fc && in.has("ftz"))
    s.emit(Opcode::FSETP, {Modifier::GE, Modifier::FTZ, Modifier::AND}, {p, PT()}, {c, RZ(), PT()});
  else if (fc)
    s.emit(Opcode::FSETP, {Modifier::GE, Modifier::AND}, {p, PT()}, {c, RZ(), PT()});
  else
    s.emit(Opcode::ISETP, {Modifier::GE, Modifier::AND}, {p, PT()}, {c, RZ(), PT()});
  unsigned bits = ptx::typeBits(ts[0]);
  if (bits == 64) {
    s.sel64(d, x[0], x[1], p);
    return true;
  }
  Operand a = s.r32(x[0]), b = s.r32(x[1]);
  if (!a.isReg() && b.isReg()) {
    std::swap(a, b);
    p = notP(p);
  }
  s.emit(Opcode::SEL, {}, {d}, {s.inReg(a), b, p});
  return true;
}

bool movIsIntValue(const ptx::Instruction &in) {
  if (in.operands.size() != 2 || !in.operands[0].is<ptx::RegOperand>())
    return false;
  ptx::ScalarType t = in.type();
  if (isPredType(t))
    return true;
  const ptx::Operand &src = in.operands[1];
  if (src.is<ptx::ImmOperand>() || src.is<ptx::FloatOperand>())
    return true;
  // Sub-word registers (special registers are all 32-bit or wider).
  return ptx::typeBits(t) <= 16 && src.is<ptx::RegOperand>();
}

bool movIsWideFloatImm(const ptx::Instruction &in) {
  // mov.f64 d, 0d...: the immediate's bits, one MOV per half, like an integer immediate.
  return in.operands.size() == 2 && in.operands[0].is<ptx::RegOperand>() &&
         ptx::typeBits(in.type()) == 64 &&
         (in.operands[1].is<ptx::FloatOperand>() || in.operands[1].is<ptx::ImmOperand>());
}

bool lowerMov(LowerCtx &ctx, const ptx::Instruction &in) {
  IntSel s(ctx, in);
  if (!ctx.onlyModifiers(in, {}))
    return false;
  Operand d, x[1];
  if (!s.operands(1, d, x))
    return false;
  if (isPredType(s.type())) {
    if (x[0].kind == ori::OperandKind::Imm)
      s.emit(Opcode::PLOP3, {Modifier::LUT}, {d, PT()},
             {PT(), PT(), PT(), imm(x[0].imm ? 0xff : 0), imm(0)});
    else
      s.emit(Opcode::PLOP3, {Modifier::LUT}, {d, PT()}, {x[0], PT(), PT(), imm(0xf0), imm(0)});
    return true;
  }
  unsigned bits = s.bits();
  if (bits == 128)
    return s.fail();
  s.copy(d, x[0], bits == 64 ? 2 : 1);
  return true;
}

} // namespace ptxmini::frontend::lower::intsel
