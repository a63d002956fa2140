//===- frontend/lower/lower_mma.cpp - mma.sync, ldmatrix, stmatrix, movmatrix -----------===//
///
/// \file
/// Instruction selection for the warp-level matrix instructions, as ptxas 13.0.88 selects
/// them for sm_90 (forms read off its output with nvdisasm 13.2; tests/lit/codegen/mma_*.ptx):
///
///   mma.sync.aligned.m16n8k16.row.col.{f32,f16}.f16.f16.{f32,f16}  HMMA.16816.{F32,F16} d, a, b, c
///   mma.sync.aligned.m16n8k8 .row.col.{f32,f16}.f16.f16.{f32,f16}  HMMA.1688.{F32,F16}
///   mma.sync.aligned.m16n8k{16,8}.row.col.f32.bf16.bf16.f32        HMMA.{16816,1688}.F32.BF16
///   mma.sync.aligned.m16n8k{8,4}.row.col.f32.tf32.tf32.f32         HMMA.{1688,1684}.F32.TF32
///   mma.sync.aligned.m16n8k32.row.col[.satfinite].s32.{s8,u8}x2.s32 IMMA.16832.{S8,U8}.{S8,U8}[.SAT]
///   mma.sync.aligned.m16n8k16 (8-bit)                              IMMA.16816...
///   mma.sync.aligned.m8n8k16  (8-bit)                              IMMA.8816...
///   mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64                DMMA.8x8x4
///   mma.sync.aligned.m16n8k{4,8}.row.col.f64.f64.f64.f64          DMMA.16x8x{4,8}
///   ldmatrix.sync.aligned.m8n8.x{1,2,4}[.trans][.shared].b16       LDSM.16.{M88,MT88}[.2|.4] d, [a]
///   stmatrix.sync.aligned.m8n8.x{1,2,4}[.trans][.shared].b16       STSM.16.{M88,MT88}[.2|.4] [a], s
///   movmatrix.sync.aligned.m8n8.trans.b16                          MOVM.16.MT88 d, a
///
/// Operand tuples (HW: register numbers in ptxas's output, e.g. `HMMA.16816.F32 R4, R4, R8,
/// R12` for a = {R4..R7}, b = {R8, R9}, c = {R12..R15}): A has one register per PTX register
/// of the fragment (a quad for m16n8k16 f16), B and C/D likewise; f64 operands are register
/// pairs. The PTX registers are gathered into aligned tuples with MOVs and the result is
/// scattered back (lower_mma.h). ldmatrix/stmatrix take a 32-bit shared address; with a
/// generic address ptxas uses its low word (HW: `MOV R0, R2; LDSM.16.M88.4 R4, [R0]` for
/// ldmatrix without .shared on a 64-bit address), and so does this lowering.
///
/// Not selected (a "not supported" error): mma.sp, m8n8k4 with f16 inputs and the 4-bit /
/// 1-bit integer shapes (ptxas emulates these on sm_90 with internal subroutines), f64
/// m16n8k16 (DMMA.16x8x16 reads A as 16 consecutive registers; Ori tuples are at most 8 wide,
/// ori.h), f8 inputs, mixed f16/f32 C and D types, and addresses that name a shared
/// variable directly.
//===----------------------------------------------------------------------------------===//
#include "frontend/lower/lower_mma.h"

#include <array>

namespace ptxmini::frontend::lower {

using ori::Modifier;
using ori::Opcode;
using ori::Operand;
using ori::RegClass;

// ---- fragments ----------------------------------------------------------------------------

bool fragmentRegs(LowerCtx &ctx, const ptx::Instruction &in, size_t idx,
                  std::vector<Operand> &out) {
  out.clear();
  if (idx >= in.operands.size())
    return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
  const ptx::Operand &op = in.operands[idx];
  std::vector<const ptx::Operand *> elems;
  if (op.is<ptx::VectorOperand>())
    for (const ptx::Operand &e : op.as<ptx::VectorOperand>().elems)
      elems.push_back(&e);
  else
    elems.push_back(&op);
  for (const ptx::Operand *e : elems) {
    if (!e->is<ptx::RegOperand>() || e->as<ptx::RegOperand>().negated)
      return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
    Operand r = ctx.reg(in, e->as<ptx::RegOperand>().name);
    if (r.kind == ori::OperandKind::None)
      return false;
    if (r.cls != RegClass::R)
      return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
    out.push_back(r);
  }
  return true;
}

namespace {
unsigned totalWidth(const std::vector<Operand> &regs) {
  unsigned w = 0;
  for (const Operand &r : regs)
    w += r.width;
  return w;
}
/// Component k of register r as a 32-bit operand (r itself when it is 32-bit).
Operand part(const Operand &r, unsigned k) { return r.width == 1 ? r : component(r, k); }
} // namespace

Operand gatherTuple(LowerCtx &ctx, const std::vector<Operand> &regs) {
  if (regs.size() == 1)
    return regs[0];
  Operand t = ctx.temp(RegClass::R, static_cast<uint8_t>(totalWidth(regs)));
  unsigned k = 0;
  for (const Operand &r : regs)
    for (unsigned c = 0; c < r.width; ++c)
      ctx.emit(Opcode::MOV, {}, {component(t, k++)}, {part(r, c)});
  return t;
}

Operand resultTuple(LowerCtx &ctx, const std::vector<Operand> &regs) {
  if (regs.size() == 1)
    return regs[0];
  return ctx.temp(RegClass::R, static_cast<uint8_t>(totalWidth(regs)));
}

void scatterTuple(LowerCtx &ctx, const Operand &tuple, const std::vector<Operand> &regs) {
  if (regs.size() == 1 && tuple == regs[0])
    return;
  unsigned k = 0;
  for (const Operand &r : regs)
    for (unsigned c = 0; c < r.width; ++c)
      ctx.emit(Opcode::MOV, {}, {part(r, c)}, {component(tuple, k++)});
}

namespace {

// ---- mma.sync -----------------------------------------------------------------------------

struct MmaRow {
  std::string_view shape; ///< PTX shape modifier
  MmaIn in;
  Opcode op;
  Modifier shapeMod; ///< the SASS shape modifier
  uint8_t nA, nB;    ///< PTX registers of the A and B fragments
  bool m8;           ///< an m8 shape: C/D hold half as many elements per thread
};
// HW: each row's SASS was read off ptxas 13.0.88's output for the PTX form (see file comment).
constexpr std::array kMmaRows = {
    MmaRow{"m16n8k16", MmaIn::F16, Opcode::HMMA, Modifier::Mma16816, 4, 2, false},
    MmaRow{"m16n8k8", MmaIn::F16, Opcode::HMMA, Modifier::Mma1688, 2, 1, false},
    MmaRow{"m16n8k16", MmaIn::BF16, Opcode::HMMA, Modifier::Mma16816, 4, 2, false},
    MmaRow{"m16n8k8", MmaIn::BF16, Opcode::HMMA, Modifier::Mma1688, 2, 1, false},
    MmaRow{"m16n8k8", MmaIn::TF32, Opcode::HMMA, Modifier::Mma1688, 4, 2, false},
    MmaRow{"m16n8k4", MmaIn::TF32, Opcode::HMMA, Modifier::Mma1684, 2, 1, false},
    MmaRow{"m16n8k32", MmaIn::I8, Opcode::IMMA, Modifier::Mma16832, 4, 2, false},
    MmaRow{"m16n8k16", MmaIn::I8, Opcode::IMMA, Modifier::Mma16816, 2, 1, false},
    MmaRow{"m8n8k16", MmaIn::I8, Opcode::IMMA, Modifier::Mma8816, 1, 1, true},
    MmaRow{"m8n8k4", MmaIn::F64, Opcode::DMMA, Modifier::Mma8x8x4, 1, 1, true},
    MmaRow{"m16n8k4", MmaIn::F64, Opcode::DMMA, Modifier::Mma16x8x4, 2, 1, false},
    MmaRow{"m16n8k8", MmaIn::F64, Opcode::DMMA, Modifier::Mma16x8x8, 4, 2, false},
};

bool inputKind(ptx::ScalarType t, MmaIn &k) {
  using T = ptx::ScalarType;
  switch (t) {
  case T::F16: k = MmaIn::F16; return true;
  case T::BF16: k = MmaIn::BF16; return true;
  case T::TF32: k = MmaIn::TF32; return true;
  case T::S8: case T::U8: k = MmaIn::I8; return true;
  case T::F64: k = MmaIn::F64; return true;
  default: return false;
  }
}

/// The shape word of `in` (the modifier starting with 'm' followed by a digit), or empty.
std::string_view shapeWord(const ptx::Instruction &in) {
  for (const ptx::Modifier &m : in.modifiers)
    if (m.kind == ptx::Modifier::Kind::Other && m.text.size() > 1 && m.text[0] == 'm' &&
        m.text[1] >= '0' && m.text[1] <= '9')
      return m.text;
  return {};
}

/// The .row/.col words in order.
std::vector<std::string_view> layoutWords(const ptx::Instruction &in) {
  std::vector<std::string_view> v;
  for (const ptx::Modifier &m : in.modifiers)
    if (m.kind == ptx::Modifier::Kind::Other && (m.text == "row" || m.text == "col"))
      v.push_back(m.text);
  return v;
}

bool lowerMma(LowerCtx &ctx, const ptx::Instruction &in) {
  std::string_view shape = shapeWord(in);
  std::vector<ptx::ScalarType> ty = in.types();
  MmaIn ka, kb;
  if (in.has("sp") || ty.size() != 4 || !inputKind(ty[1], ka) || !inputKind(ty[2], kb) ||
      ka != kb)
    return ctx.unsupported(in);
  const MmaRow *row = nullptr;
  for (const MmaRow &r : kMmaRows)
    if (r.shape == shape && r.in == ka)
      row = &r;
  if (!row)
    return ctx.unsupported(in);
  using T = ptx::ScalarType;
  T dt = ty[0], ct = ty[3];
  bool typesOk = dt == ct;
  switch (ka) {
  case MmaIn::F16: typesOk &= dt == T::F16 || dt == T::F32; break;
  case MmaIn::BF16: case MmaIn::TF32: typesOk &= dt == T::F32; break;
  case MmaIn::I8: typesOk &= dt == T::S32; break;
  case MmaIn::F64: typesOk &= dt == T::F64; break;
  }
  std::vector<std::string_view> layout = layoutWords(in);
  if (!typesOk || layout.size() != 2 || layout[0] != "row" || layout[1] != "col")
    return ctx.unsupported(in);
  std::string_view shapeText = shape;
  if (!ctx.onlyModifiers(in, {"sync", "aligned", shapeText, "row", "col", "satfinite", "rn"}))
    return false;
  bool sat = in.has("satfinite");
  if ((sat && ka != MmaIn::I8) || (in.has("rn") && ka != MmaIn::F64) || !in.has("sync") ||
      !in.has("aligned"))
    return ctx.unsupported(in);
  if (in.operands.size() != 4)
    return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
  std::vector<Operand> d, a, b, c;
  if (!fragmentRegs(ctx, in, 0, d) || !fragmentRegs(ctx, in, 1, a) ||
      !fragmentRegs(ctx, in, 2, b) || !fragmentRegs(ctx, in, 3, c))
    return false;
  // Register counts and widths: A/B as the row says; C/D: 4 (m16) or 2 (m8) 32-bit registers,
  // 2 f16x2 registers for an f16 accumulator, 2 f64 registers for DMMA.
  unsigned regW = ka == MmaIn::F64 ? 2 : 1;
  unsigned nC = dt == T::F16 ? 2 : row->m8 ? 2 : 4;
  auto fits = [&](const std::vector<Operand> &v, unsigned n) {
    if (v.size() != n)
      return false;
    for (const Operand &r : v)
      if (r.width != regW)
        return false;
    return true;
  };
  if (!fits(a, row->nA) || !fits(b, row->nB) || !fits(c, nC) || !fits(d, nC))
    return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");

  std::vector<Modifier> mods = mmaTypeModifiers(row->shapeMod, ka, dt, ty[1], ty[2], sat);
  Operand ta = gatherTuple(ctx, a), tb = gatherTuple(ctx, b), tc = gatherTuple(ctx, c);
  Operand td = resultTuple(ctx, d);
  ori::Instr &mi = ctx.emit(row->op, {}, {td}, {ta, tb, tc});
  mi.mods.assign(mods.begin(), mods.end());
  scatterTuple(ctx, td, d);
  return true;
}

// ---- ldmatrix / stmatrix / movmatrix ------------------------------------------------------

/// The 32-bit shared address of a ldmatrix/stmatrix operand: a register (a 64-bit one, shared
/// or generic, contributes its low word) plus the constant offset. Kind None after reporting.
Operand sharedAddress(LowerCtx &ctx, const ptx::Instruction &in, const ptx::Operand &op) {
  if (!op.is<ptx::AddressOperand>()) {
    ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
    return {};
  }
  const auto &addr = op.as<ptx::AddressOperand>();
  if (addr.baseKind != ptx::AddressOperand::BaseKind::Register || !addr.extra.empty()) {
    ctx.unsupported(in, "A shared variable address in '" + in.fullOpcode() + "'");
    return {};
  }
  // HW: the address field is a signed 24-bit offset (sm90_forms.def LDSM/STSM I@40/24).
  if (addr.offset < -(1 << 23) || addr.offset >= (1 << 23)) {
    ctx.unsupported(in, "A large address offset in '" + in.fullOpcode() + "'");
    return {};
  }
  Operand base = ctx.reg(in, addr.base);
  if (base.kind == ori::OperandKind::None)
    return {};
  if (base.cls != RegClass::R || base.width > 2) {
    ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
    return {};
  }
  if (base.width == 2)
    base = component(base, 0);
  return Operand::mem(base, static_cast<int32_t>(addr.offset));
}

/// .x1/.x2/.x4 -> 1/2/4, 0 when absent.
unsigned matrixCount(const ptx::Instruction &in) {
  return in.has("x1") ? 1 : in.has("x2") ? 2 : in.has("x4") ? 4 : 0;
}

/// LDSM/STSM modifiers: .16, .M88 or .MT88, and the count (.2/.4; one prints nothing).
std::vector<Modifier> matrixMods(unsigned count, bool trans) {
  std::vector<Modifier> m{Modifier::Elem16, trans ? Modifier::MT88 : Modifier::M88};
  if (count == 2)
    m.push_back(Modifier::Cnt2);
  else if (count == 4)
    m.push_back(Modifier::Cnt4);
  return m;
}

bool matrixMoveOk(LowerCtx &ctx, const ptx::Instruction &in) {
  ptx::StateSpace sp = in.space();
  if (in.type() != ptx::ScalarType::B16 ||
      (sp != ptx::StateSpace::None && sp != ptx::StateSpace::Shared) || !in.has("sync") ||
      !in.has("aligned") || !in.has("m8n8") || !matrixCount(in))
    return ctx.unsupported(in);
  return ctx.onlyModifiers(in, {"sync", "aligned", "m8n8", "x1", "x2", "x4", "trans"});
}

bool lowerLdmatrix(LowerCtx &ctx, const ptx::Instruction &in) {
  if (!matrixMoveOk(ctx, in))
    return false;
  unsigned n = matrixCount(in);
  std::vector<Operand> d;
  if (in.operands.size() != 2 || !fragmentRegs(ctx, in, 0, d))
    return in.operands.size() != 2
               ? ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'")
               : false;
  if (d.size() != n || totalWidth(d) != n)
    return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
  Operand m = sharedAddress(ctx, in, in.operands[1]);
  if (m.kind == ori::OperandKind::None)
    return false;
  Operand td = resultTuple(ctx, d);
  ori::Instr &li = ctx.emit(Opcode::LDSM, {}, {td}, {m});
  std::vector<Modifier> mods = matrixMods(n, in.has("trans"));
  li.mods.assign(mods.begin(), mods.end());
  scatterTuple(ctx, td, d);
  return true;
}

bool lowerStmatrix(LowerCtx &ctx, const ptx::Instruction &in) {
  if (!matrixMoveOk(ctx, in))
    return false;
  unsigned n = matrixCount(in);
  std::vector<Operand> s;
  if (in.operands.size() != 2 || !fragmentRegs(ctx, in, 1, s))
    return in.operands.size() != 2
               ? ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'")
               : false;
  if (s.size() != n || totalWidth(s) != n)
    return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
  Operand m = sharedAddress(ctx, in, in.operands[0]);
  if (m.kind == ori::OperandKind::None)
    return false;
  Operand ts = gatherTuple(ctx, s);
  ori::Instr &si = ctx.emit(Opcode::STSM, {}, {}, {m, ts});
  std::vector<Modifier> mods = matrixMods(n, in.has("trans"));
  si.mods.assign(mods.begin(), mods.end());
  return true;
}

bool lowerMovmatrix(LowerCtx &ctx, const ptx::Instruction &in) {
  if (in.type() != ptx::ScalarType::B16 || !in.has("trans") || !in.has("m8n8") ||
      !in.has("sync") || !in.has("aligned"))
    return ctx.unsupported(in);
  if (!ctx.onlyModifiers(in, {"sync", "aligned", "m8n8", "trans"}))
    return false;
  std::vector<Operand> d, a;
  if (in.operands.size() != 2)
    return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
  if (!fragmentRegs(ctx, in, 0, d) || !fragmentRegs(ctx, in, 1, a))
    return false;
  if (d.size() != 1 || a.size() != 1 || d[0].width != 1 || a[0].width != 1)
    return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
  ctx.emit(Opcode::MOVM, {Modifier::Elem16, Modifier::MT88}, {d[0]}, {a[0]});
  return true;
}

constexpr std::array kRows = {
    HandlerRow{"mma", TypeClass::Any, lowerMma},
    HandlerRow{"ldmatrix", TypeClass::Any, lowerLdmatrix},
    HandlerRow{"stmatrix", TypeClass::Any, lowerStmatrix},
    HandlerRow{"movmatrix", TypeClass::Any, lowerMovmatrix},
    HandlerRow{"wmma.load", TypeClass::Any, lowerWmmaLoad},
    HandlerRow{"wmma.store", TypeClass::Any, lowerWmmaStore},
    HandlerRow{"wmma.mma", TypeClass::Any, lowerWmmaMma},
};

} // namespace

std::span<const HandlerRow> mmaHandlers() { return kRows; }

std::vector<Modifier> mmaTypeModifiers(Modifier shape, MmaIn in, ptx::ScalarType d, ptx::ScalarType a,
                                       ptx::ScalarType b, bool sat) {
  using T = ptx::ScalarType;
  std::vector<Modifier> mods{shape};
  switch (in) {
  case MmaIn::F16:
    mods.push_back(d == T::F32 ? Modifier::F32 : Modifier::F16);
    break;
  case MmaIn::BF16:
    mods.insert(mods.end(), {Modifier::F32, Modifier::BF16});
    break;
  case MmaIn::TF32:
    mods.insert(mods.end(), {Modifier::F32, Modifier::TF32});
    break;
  case MmaIn::I8:
    mods.push_back(a == T::S8 ? Modifier::S8 : Modifier::U8);
    mods.push_back(b == T::S8 ? Modifier::S8 : Modifier::U8);
    if (sat)
      mods.push_back(Modifier::SAT);
    break;
  case MmaIn::F64:
    break;
  }
  return mods;
}

} // namespace ptxmini::frontend::lower
