//===- frontend/lower/lower_wmma.cpp - wmma.load / wmma.store / wmma.mma ------------------===//
///
/// \file
/// wmma fragments are opaque in PTX: which element each thread holds is the implementation's
/// choice, and PTX code only moves them between wmma.load, wmma.mma and wmma.store (or applies
/// element-wise arithmetic to all of them). This lowering uses ptxas's own layouts, so that
/// fragments are interchangeable with the mma.sync layouts the tensor cores read:
///
/// HW: the tables below were read off ptxas 13.0.88 by running its cubins for every wmma.load /
/// wmma.store form of the corpus on the project's SASS emulator (tests/exec) with memory holding
/// each element's own index, and by reading which fragment registers its wmma.mma passes to
/// each HMMA/IMMA/DMMA (cuobjdump 13.2). The wmma exec tests check the result against plain
/// matrix products.
///
/// A fragment register i of a thread with lane l (g = l >> 2, t = l & 3) holds the element
///   row = g + dr_i,        col = step * t + dc_i     (kind GT), or
///   row = step * t + dr_i, col = g + dc_i            (kind TG)
/// of the operand matrix (A: M x K, B: K x N, C/D: M x N), plus the next epr - 1 elements
/// along the row (A, C/D) or along the column (B) when a 32-bit register holds several.
/// Some registers only repeat earlier ones (ptxas loads A of m16n16k16 into four registers and
/// copies them into the other four). Element (row, col) is at `row * ld + col` in a row-major
/// matrix and `col * ld + row` in a column-major one (ld: the stride operand, in elements; when
/// absent, the matrix is contiguous).
///
/// Loads and stores: one 32-bit (64-bit for f64) access per register, from per-thread
/// addresses built from %laneid (LDG/STG for .global, LD/ST for generic addresses, LDS/STS for
/// .shared); ptxas itself merges some of them (LDG.E.64 for two f32 accumulators, LDSM for
/// 16-bit shared fragments). Only forms whose multi-element registers are contiguous in memory
/// are selected (row-major A and C/D, column-major B, any layout of one-element registers).
///
/// wmma.mma: two HMMA.16816 / IMMA.16816 (one per 8-column half of D), four HMMA.1684.TF32
/// for m16n16k8, one DMMA.8x8x4 for m8n8k4 f64 (HW: ptxas 13.0's choices; m8n32k16 is computed
/// transposed, D^T = B^T A^T, with B's fragment as the A operand).
//===----------------------------------------------------------------------------------===//
#include "frontend/lower/lower_mma.h"

#include <array>
#include <map>

namespace ptxmini::frontend::lower {
namespace {

using ori::Modifier;
using ori::Opcode;
using ori::Operand;
using ori::RegClass;
using T = ptx::ScalarType;

enum class Frag : uint8_t { A, B, C }; // C: wmma.load.c and wmma.store.d

struct RegPos {
  int8_t dr = 0, dc = 0;
  int8_t dup = -1; ///< >= 0: this register repeats register `dup`
};
constexpr RegPos P(int dr, int dc) { return RegPos{static_cast<int8_t>(dr), static_cast<int8_t>(dc), -1}; }
constexpr RegPos D(int i) { return RegPos{0, 0, static_cast<int8_t>(i)}; }

struct LayoutRow {
  Frag frag;
  std::string_view shape;
  std::array<T, 2> types;   ///< element types the row serves (None: unused slot)
  uint8_t esize;            ///< bytes per element
  uint8_t epr;              ///< elements per register (along the row for A, C/D; the column for B)
  bool tg;                  ///< kind TG (row from t, column from g), else GT
  uint8_t step;
  uint8_t nregs;
  std::array<RegPos, 8> pos;
};

constexpr T None = T::None;
// HW: ptxas 13.0.88 (see the file comment). B rows are in (k, n) coordinates.
constexpr std::array kLayouts = {
    LayoutRow{Frag::A, "m16n16k16", {T::F16, None}, 2, 2, false, 2, 8,
              {P(0, 0), P(8, 0), P(0, 8), P(8, 8), D(0), D(1), D(2), D(3)}},
    LayoutRow{Frag::B, "m16n16k16", {T::F16, None}, 2, 2, true, 2, 8,
              {P(0, 0), P(8, 0), P(0, 8), P(8, 8), D(0), D(1), D(2), D(3)}},
    // bf16 fragments have no repeated registers (PTX gives them 4 registers, f16 8).
    LayoutRow{Frag::A, "m16n16k16", {T::BF16, None}, 2, 2, false, 2, 4,
              {P(0, 0), P(8, 0), P(0, 8), P(8, 8)}},
    LayoutRow{Frag::B, "m16n16k16", {T::BF16, None}, 2, 2, true, 2, 4,
              {P(0, 0), P(8, 0), P(0, 8), P(8, 8)}},
    LayoutRow{Frag::C, "m16n16k16", {T::F16, None}, 2, 2, false, 2, 4,
              {P(0, 0), P(8, 0), P(0, 8), P(8, 8)}},
    LayoutRow{Frag::C, "m16n16k16", {T::F32, T::S32}, 4, 1, false, 2, 8,
              {P(0, 0), P(0, 1), P(8, 0), P(8, 1), P(0, 8), P(0, 9), P(8, 8), P(8, 9)}},
    LayoutRow{Frag::A, "m16n16k16", {T::U8, T::S8}, 1, 4, false, 4, 2, {P(0, 0), P(8, 0)}},
    LayoutRow{Frag::B, "m16n16k16", {T::U8, T::S8}, 1, 4, true, 4, 2, {P(0, 0), P(0, 8)}},
    LayoutRow{Frag::A, "m16n16k8", {T::TF32, None}, 4, 1, false, 1, 4,
              {P(0, 0), P(8, 0), P(0, 4), P(8, 4)}},
    LayoutRow{Frag::B, "m16n16k8", {T::TF32, None}, 4, 1, true, 1, 4,
              {P(0, 0), P(4, 0), P(0, 8), P(4, 8)}},
    LayoutRow{Frag::C, "m16n16k8", {T::F32, None}, 4, 1, false, 2, 8,
              {P(0, 0), P(0, 1), P(8, 0), P(8, 1), P(0, 8), P(0, 9), P(8, 8), P(8, 9)}},
    LayoutRow{Frag::A, "m8n8k4", {T::F64, None}, 8, 1, false, 1, 1, {P(0, 0)}},
    LayoutRow{Frag::B, "m8n8k4", {T::F64, None}, 8, 1, true, 1, 1, {P(0, 0)}},
    LayoutRow{Frag::C, "m8n8k4", {T::F64, None}, 8, 1, false, 2, 2, {P(0, 0), P(0, 1)}},
    LayoutRow{Frag::A, "m8n32k16", {T::F16, None}, 2, 2, false, 2, 8,
              {P(0, 0), P(0, 8), D(0), D(1), D(0), D(1), D(0), D(1)}},
    LayoutRow{Frag::A, "m8n32k16", {T::BF16, None}, 2, 2, false, 2, 2, {P(0, 0), P(0, 8)}},
    LayoutRow{Frag::B, "m8n32k16", {T::F16, T::BF16}, 2, 2, true, 2, 8,
              {P(0, 0), P(0, 8), P(8, 0), P(8, 8), P(0, 16), P(0, 24), P(8, 16), P(8, 24)}},
    LayoutRow{Frag::C, "m8n32k16", {T::F32, None}, 4, 1, true, 2, 8,
              {P(0, 0), P(1, 0), P(0, 8), P(1, 8), P(0, 16), P(1, 16), P(0, 24), P(1, 24)}},
    LayoutRow{Frag::A, "m32n8k16", {T::F16, T::BF16}, 2, 2, false, 2, 8,
              {P(0, 0), P(8, 0), P(0, 8), P(8, 8), P(16, 0), P(24, 0), P(16, 8), P(24, 8)}},
    LayoutRow{Frag::B, "m32n8k16", {T::F16, None}, 2, 2, true, 2, 8,
              {P(0, 0), P(8, 0), D(0), D(1), D(0), D(1), D(0), D(1)}},
    LayoutRow{Frag::B, "m32n8k16", {T::BF16, None}, 2, 2, true, 2, 2, {P(0, 0), P(8, 0)}},
    LayoutRow{Frag::C, "m32n8k16", {T::F32, None}, 4, 1, false, 2, 8,
              {P(0, 0), P(0, 1), P(8, 0), P(8, 1), P(16, 0), P(16, 1), P(24, 0), P(24, 1)}},
};

const LayoutRow *findLayout(Frag f, std::string_view shape, T type) {
  for (const LayoutRow &r : kLayouts)
    if (r.frag == f && r.shape == shape && type != None && (r.types[0] == type || r.types[1] == type))
      return &r;
  return nullptr;
}

std::string_view shapeOf(const ptx::Instruction &in) {
  for (const ptx::Modifier &m : in.modifiers)
    if (m.kind == ptx::Modifier::Kind::Other && m.text.size() > 1 && m.text[0] == 'm' &&
        m.text[1] >= '0' && m.text[1] <= '9')
      return m.text;
  return {};
}

/// M, N, K of "m16n16k16".
bool parseShape(std::string_view s, unsigned &m, unsigned &n, unsigned &k) {
  unsigned *dst[3] = {&m, &n, &k};
  const char tags[3] = {'m', 'n', 'k'};
  size_t p = 0;
  for (int i = 0; i < 3; ++i) {
    if (p >= s.size() || s[p] != tags[i])
      return false;
    ++p;
    unsigned v = 0;
    size_t start = p;
    while (p < s.size() && s[p] >= '0' && s[p] <= '9')
      v = v * 10 + static_cast<unsigned>(s[p++] - '0');
    if (p == start)
      return false;
    *dst[i] = v;
  }
  return p == s.size();
}

/// The per-thread address plan of one wmma.load/store.
struct Access {
  Opcode op = Opcode::LDG; ///< LDG/LD/LDS or STG/ST/STS
  bool wide = true;        ///< a 64-bit address (global, generic)
  Operand base;            ///< the address register (64-bit pair or 32-bit)
  int64_t offset = 0;      ///< the address operand's constant offset (bytes)
  Operand ld;              ///< the stride in elements: a register or an immediate
  bool rowMajor = true;
};

bool accessOf(LowerCtx &ctx, const ptx::Instruction &in, size_t addrIdx, size_t strideIdx,
              bool store, unsigned defaultLd, Access &acc) {
  const ptx::Operand &op = in.operands[addrIdx];
  if (!op.is<ptx::AddressOperand>())
    return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
  const auto &addr = op.as<ptx::AddressOperand>();
  if (addr.baseKind != ptx::AddressOperand::BaseKind::Register || !addr.extra.empty())
    return ctx.unsupported(in, "A variable's address in '" + in.fullOpcode() + "'");
  Operand base = ctx.reg(in, addr.base);
  if (base.kind == ori::OperandKind::None)
    return false;
  if (base.cls != RegClass::R)
    return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
  switch (in.space()) {
  case ptx::StateSpace::Global:
    acc.op = store ? Opcode::STG : Opcode::LDG;
    acc.wide = true;
    break;
  case ptx::StateSpace::None:
    acc.op = store ? Opcode::ST : Opcode::LD;
    acc.wide = true;
    break;
  case ptx::StateSpace::Shared:
    acc.op = store ? Opcode::STS : Opcode::LDS;
    acc.wide = false;
    break;
  default:
    return ctx.unsupported(in);
  }
  if (acc.wide && base.width != 2)
    return ctx.unsupported(in, "A 32-bit address in '" + in.fullOpcode() + "'");
  if (!acc.wide && base.width == 2)
    base = component(base, 0); // a 64-bit shared address: its low word
  acc.base = base;
  acc.offset = addr.offset;
  if (strideIdx < in.operands.size()) {
    acc.ld = ctx.source(in, in.operands[strideIdx]);
    if (acc.ld.kind == ori::OperandKind::None)
      return false;
    if (!(acc.ld.kind == ori::OperandKind::Imm ||
          (acc.ld.kind == ori::OperandKind::VReg && acc.ld.width == 1 && !acc.ld.mods)))
      return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
  } else {
    acc.ld = Operand::intImm(defaultLd);
  }
  return true;
}

/// Emits the address arithmetic and the accesses of one fragment: `regs[i]` is loaded from /
/// stored to its element's address; repeated registers are copied after a load.
bool fragmentAccess(LowerCtx &ctx, const ptx::Instruction &in, const LayoutRow &row,
                    const Access &acc, bool store, const std::vector<Operand> &regs) {
  // Lane coordinates.
  Operand lane = ctx.temp(RegClass::R), g = ctx.temp(RegClass::R), t = ctx.temp(RegClass::R);
  ctx.emit(Opcode::S2R, {}, {lane}, {Operand::sreg(ori::SpecialReg::LANEID)});
  ctx.emit(Opcode::SHF, {Modifier::R, Modifier::U32, Modifier::HI}, {g},
           {RZ(), Operand::intImm(2), lane});
  ctx.emit(Opcode::LOP3, {Modifier::LUT}, {t},
           {lane, Operand::intImm(3), RZ(), Operand::intImm(0xc0), notPT()});
  Operand ts = t;
  if (row.step != 1) {
    ts = ctx.temp(RegClass::R);
    ctx.emit(Opcode::IMAD, {}, {ts}, {t, Operand::intImm(row.step), RZ()});
  }
  Operand rowL = row.tg ? ts : g, colL = row.tg ? g : ts;
  Operand major = acc.rowMajor ? rowL : colL, minor = acc.rowMajor ? colL : rowL;
  // Element offset of this lane's first element, then its address.
  Operand off = ctx.temp(RegClass::R);
  ctx.emit(Opcode::IMAD, {}, {off}, {major, acc.ld, minor});
  Operand addr0 = ctx.temp(RegClass::R, acc.wide ? 2 : 1);
  if (acc.wide)
    ctx.emit(Opcode::IMAD, {Modifier::WIDE, Modifier::U32}, {addr0},
             {off, Operand::intImm(row.esize), acc.base});
  else
    ctx.emit(Opcode::IMAD, {}, {addr0}, {off, Operand::intImm(row.esize), acc.base});
  bool ldImm = acc.ld.kind == ori::OperandKind::Imm;
  std::map<int, Operand> rowAddr{{0, addr0}}; // ld multiple -> address register
  unsigned regBytes = row.esize * row.epr;
  bool widePart = regBytes == 8;
  for (size_t i = 0; i < regs.size(); ++i) {
    const RegPos &p = row.pos[i];
    if (p.dup >= 0)
      continue;
    int ldMul = acc.rowMajor ? p.dr : p.dc, inner = acc.rowMajor ? p.dc : p.dr;
    int64_t imm = acc.offset + static_cast<int64_t>(inner) * row.esize;
    Operand a = addr0;
    if (ldImm) {
      imm += static_cast<int64_t>(ldMul) * acc.ld.imm * row.esize;
    } else if (ldMul) {
      auto it = rowAddr.find(ldMul);
      if (it == rowAddr.end()) {
        Operand ak = ctx.temp(RegClass::R, acc.wide ? 2 : 1);
        Operand scale = Operand::intImm(static_cast<int64_t>(ldMul) * row.esize);
        if (acc.wide)
          ctx.emit(Opcode::IMAD, {Modifier::WIDE, Modifier::U32}, {ak}, {acc.ld, scale, addr0});
        else
          ctx.emit(Opcode::IMAD, {}, {ak}, {acc.ld, scale, addr0});
        it = rowAddr.emplace(ldMul, ak).first;
      }
      a = it->second;
    }
    // HW: the address offset field is a signed 24-bit byte offset (sm90_forms.def I@40/24).
    if (imm < -(1 << 23) || imm >= (1 << 23))
      return ctx.unsupported(in, "A large address offset in '" + in.fullOpcode() + "'");
    Operand m = acc.op == Opcode::LDS || acc.op == Opcode::STS
                    ? Operand::mem(a, static_cast<int32_t>(imm))
                    : Operand::mem(a, static_cast<int32_t>(imm), ctx.globalDescriptor());
    std::vector<Modifier> mods;
    if (acc.op != Opcode::LDS && acc.op != Opcode::STS)
      mods.push_back(Modifier::E);
    if (widePart)
      mods.push_back(Modifier::Size64);
    ori::Instr &mi = store ? ctx.emit(acc.op, {}, {}, {m, regs[i]}) : ctx.emit(acc.op, {}, {regs[i]}, {m});
    mi.mods.assign(mods.begin(), mods.end());
  }
  if (!store)
    for (size_t i = 0; i < regs.size(); ++i)
      if (row.pos[i].dup >= 0)
        ctx.emit(Opcode::MOV, {}, {regs[i]}, {regs[static_cast<size_t>(row.pos[i].dup)]});
  return true;
}

/// Common checks of wmma.load / wmma.store: the layout row, the registers, the access.
bool wmmaMemory(LowerCtx &ctx, const ptx::Instruction &in, bool store) {
  Frag f = Frag::C;
  if (!store) {
    if (in.has("a"))
      f = Frag::A;
    else if (in.has("b"))
      f = Frag::B;
    else if (!in.has("c"))
      return ctx.unsupported(in);
  } else if (!in.has("d")) {
    return ctx.unsupported(in);
  }
  std::string_view shape = shapeOf(in);
  const LayoutRow *row = findLayout(f, shape, in.type());
  bool rowMajor = in.has("row");
  unsigned M = 0, N = 0, K = 0;
  if (!row || !in.has("sync") || !in.has("aligned") || rowMajor == in.has("col") ||
      !parseShape(shape, M, N, K))
    return ctx.unsupported(in);
  if (!ctx.onlyModifiers(in, {store ? "d" : f == Frag::A ? "a" : f == Frag::B ? "b" : "c", "sync",
                              "aligned", "row", "col", shape}))
    return false;
  // Several elements per register must be adjacent in memory.
  bool runsAlongRow = f != Frag::B;
  if (row->epr > 1 && rowMajor != runsAlongRow)
    return ctx.unsupported(in, "This layout of '" + in.fullOpcode() + "'");
  size_t regIdx = store ? 1 : 0, addrIdx = store ? 0 : 1;
  if (in.operands.size() != 2 && in.operands.size() != 3)
    return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
  std::vector<Operand> regs;
  if (!fragmentRegs(ctx, in, regIdx, regs))
    return false;
  unsigned regWidth = row->esize == 8 ? 2 : 1;
  bool ok = regs.size() == row->nregs;
  for (const Operand &r : regs)
    ok &= r.width == regWidth;
  if (!ok)
    return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
  // The contiguous stride: the row length of a row-major matrix, the column height otherwise.
  unsigned rows = f == Frag::A ? M : f == Frag::B ? K : M;
  unsigned cols = f == Frag::A ? K : N;
  Access acc;
  acc.rowMajor = rowMajor;
  if (!accessOf(ctx, in, addrIdx, 2, store, rowMajor ? cols : rows, acc))
    return false;
  return fragmentAccess(ctx, in, *row, acc, store, regs);
}

// ---- wmma.mma ---------------------------------------------------------------------------

/// Registers `first .. first + count - 1` of fragment `frag` ('a', 'b', 'c'), or of the result
/// of an earlier step (`frag` 's', `first` = the step).
struct Pick {
  char frag;
  uint8_t first, count;
};
struct Step {
  Pick a, b, c;
  uint8_t dFirst, dCount; ///< the PTX D registers this step's result becomes
};

struct MmaShapeRow {
  std::string_view shape;
  MmaIn in;
  bool f16Acc; ///< the f16-accumulator variant (F16 inputs only)
  Opcode op;
  Modifier shapeMod;
  uint8_t nA, nB, nC; ///< PTX registers of the fragments (C and D alike)
  std::array<Step, 4> steps;
  uint8_t nSteps;
};

// HW: which fragment registers ptxas 13.0.88 passes to each HMMA/IMMA/DMMA of a wmma.mma
// (cuobjdump 13.2 of wmma.mma with every fragment register loaded from its own address).
constexpr std::array kMmaShapes = {
    MmaShapeRow{"m16n16k16", MmaIn::F16, false, Opcode::HMMA, Modifier::Mma16816, 8, 8, 8,
                {Step{{'a', 0, 4}, {'b', 0, 2}, {'c', 0, 4}, 0, 4},
                 Step{{'a', 0, 4}, {'b', 2, 2}, {'c', 4, 4}, 4, 4}}, 2},
    MmaShapeRow{"m16n16k16", MmaIn::F16, true, Opcode::HMMA, Modifier::Mma16816, 8, 8, 4,
                {Step{{'a', 0, 4}, {'b', 0, 2}, {'c', 0, 2}, 0, 2},
                 Step{{'a', 0, 4}, {'b', 2, 2}, {'c', 2, 2}, 2, 2}}, 2},
    MmaShapeRow{"m16n16k16", MmaIn::BF16, false, Opcode::HMMA, Modifier::Mma16816, 4, 4, 8,
                {Step{{'a', 0, 4}, {'b', 0, 2}, {'c', 0, 4}, 0, 4},
                 Step{{'a', 0, 4}, {'b', 2, 2}, {'c', 4, 4}, 4, 4}}, 2},
    MmaShapeRow{"m16n16k16", MmaIn::I8, false, Opcode::IMMA, Modifier::Mma16816, 2, 2, 8,
                {Step{{'a', 0, 2}, {'b', 0, 1}, {'c', 0, 4}, 0, 4},
                 Step{{'a', 0, 2}, {'b', 1, 1}, {'c', 4, 4}, 4, 4}}, 2},
    MmaShapeRow{"m16n16k8", MmaIn::TF32, false, Opcode::HMMA, Modifier::Mma1684, 4, 4, 8,
                {Step{{'a', 0, 2}, {'b', 0, 1}, {'c', 0, 4}, 0, 4},
                 Step{{'a', 0, 2}, {'b', 2, 1}, {'c', 4, 4}, 4, 4},
                 Step{{'a', 2, 2}, {'b', 1, 1}, {'s', 0, 4}, 0, 4},
                 Step{{'a', 2, 2}, {'b', 3, 1}, {'s', 1, 4}, 4, 4}}, 4},
    MmaShapeRow{"m8n8k4", MmaIn::F64, false, Opcode::DMMA, Modifier::Mma8x8x4, 1, 1, 2,
                {Step{{'a', 0, 1}, {'b', 0, 1}, {'c', 0, 2}, 0, 2}}, 1},
    MmaShapeRow{"m8n32k16", MmaIn::F16, false, Opcode::HMMA, Modifier::Mma16816, 8, 8, 8,
                {Step{{'b', 0, 4}, {'a', 0, 2}, {'c', 0, 4}, 0, 4},
                 Step{{'b', 4, 4}, {'a', 0, 2}, {'c', 4, 4}, 4, 4}}, 2},
    MmaShapeRow{"m32n8k16", MmaIn::F16, false, Opcode::HMMA, Modifier::Mma16816, 8, 8, 8,
                {Step{{'a', 0, 4}, {'b', 0, 2}, {'c', 0, 4}, 0, 4},
                 Step{{'a', 4, 4}, {'b', 0, 2}, {'c', 4, 4}, 4, 4}}, 2},
    MmaShapeRow{"m8n32k16", MmaIn::BF16, false, Opcode::HMMA, Modifier::Mma16816, 2, 8, 8,
                {Step{{'b', 0, 4}, {'a', 0, 2}, {'c', 0, 4}, 0, 4},
                 Step{{'b', 4, 4}, {'a', 0, 2}, {'c', 4, 4}, 4, 4}}, 2},
    MmaShapeRow{"m32n8k16", MmaIn::BF16, false, Opcode::HMMA, Modifier::Mma16816, 8, 2, 8,
                {Step{{'a', 0, 4}, {'b', 0, 2}, {'c', 0, 4}, 0, 4},
                 Step{{'a', 4, 4}, {'b', 0, 2}, {'c', 4, 4}, 4, 4}}, 2},
};

} // namespace

bool lowerWmmaLoad(LowerCtx &ctx, const ptx::Instruction &in) { return wmmaMemory(ctx, in, false); }
bool lowerWmmaStore(LowerCtx &ctx, const ptx::Instruction &in) { return wmmaMemory(ctx, in, true); }

bool lowerWmmaMma(LowerCtx &ctx, const ptx::Instruction &in) {
  std::string_view shape = shapeOf(in);
  std::vector<T> ty = in.types();
  // `.dtype.ctype` (f16 inputs) or `.dtype.atype.btype.ctype`.
  T dt = ty.empty() ? None : ty.front(), ct = ty.empty() ? None : ty.back();
  T at = T::F16, bt = T::F16;
  if (ty.size() == 4) {
    at = ty[1];
    bt = ty[2];
  } else if (ty.size() != 2) {
    return ctx.unsupported(in);
  }
  MmaIn kind;
  bool bf16 = at == T::BF16;
  if ((at == T::F16 || at == T::BF16) && bt == at) {
    kind = bf16 ? MmaIn::BF16 : MmaIn::F16;
  } else if ((at == T::U8 || at == T::S8) && (bt == T::U8 || bt == T::S8)) {
    kind = MmaIn::I8;
  } else if (at == T::TF32 && bt == at) {
    kind = MmaIn::TF32;
  } else if (at == T::F64 && bt == at) {
    kind = MmaIn::F64;
  } else {
    return ctx.unsupported(in);
  }
  bool typesOk = dt == ct;
  switch (kind) {
  case MmaIn::F16: typesOk &= dt == T::F32 || dt == T::F16; break;
  case MmaIn::BF16: typesOk &= dt == T::F32; break;
  case MmaIn::I8: typesOk &= dt == T::S32; break;
  case MmaIn::TF32: typesOk &= dt == T::F32; break;
  case MmaIn::F64: typesOk &= dt == T::F64; break;
  }
  const MmaShapeRow *row = nullptr;
  for (const MmaShapeRow &r : kMmaShapes)
    if (r.shape == shape && r.in == kind && r.f16Acc == (dt == T::F16))
      row = &r;
  // The layouts: A row-major, B column-major (the fragments this lowering's wmma.load builds).
  std::vector<std::string_view> layout;
  for (const ptx::Modifier &m : in.modifiers)
    if (m.kind == ptx::Modifier::Kind::Other && (m.text == "row" || m.text == "col"))
      layout.push_back(m.text);
  if (!row || !typesOk || layout.size() != 2 || layout[0] != "row" || layout[1] != "col" ||
      !in.has("sync") || !in.has("aligned"))
    return ctx.unsupported(in);
  if (!ctx.onlyModifiers(in, {"sync", "aligned", "row", "col", shape, "satfinite", "rn", "rz",
                              "rm", "rp"}))
    return false;
  bool sat = in.has("satfinite");
  Modifier rnd = Modifier::RN;
  bool hasRnd = false;
  for (auto [w, m] : {std::pair{"rn", Modifier::RN}, {"rz", Modifier::RZ}, {"rm", Modifier::RM},
                      {"rp", Modifier::RP}})
    if (in.has(w)) {
      rnd = m;
      hasRnd = true;
    }
  if ((sat && kind != MmaIn::I8) || (hasRnd && kind != MmaIn::F64))
    return ctx.unsupported(in);
  if (in.operands.size() != 4)
    return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
  std::vector<Operand> d, a, b, c;
  if (!fragmentRegs(ctx, in, 0, d) || !fragmentRegs(ctx, in, 1, a) ||
      !fragmentRegs(ctx, in, 2, b) || !fragmentRegs(ctx, in, 3, c))
    return false;
  unsigned regW = kind == MmaIn::F64 ? 2 : 1;
  auto fits = [&](const std::vector<Operand> &v, unsigned n) {
    bool ok = v.size() == n;
    for (const Operand &r : v)
      ok &= r.width == regW;
    return ok;
  };
  if (!fits(a, row->nA) || !fits(b, row->nB) || !fits(c, row->nC) || !fits(d, row->nC))
    return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
  std::vector<Modifier> mods = mmaTypeModifiers(row->shapeMod, kind, dt, at, bt, sat);
  if (kind == MmaIn::F64 && hasRnd && rnd != Modifier::RN) // DMMA prints no .RN (sm90_forms.def DMMA rows)
    mods.push_back(rnd);
  auto pick = [&](const Pick &p, const std::vector<Operand> &results) {
    if (p.frag == 's')
      return results[p.first];
    const std::vector<Operand> &src = p.frag == 'a' ? a : p.frag == 'b' ? b : c;
    std::vector<Operand> sel(src.begin() + p.first, src.begin() + p.first + p.count);
    return gatherTuple(ctx, sel);
  };
  std::vector<Operand> results;
  std::map<unsigned, size_t> lastWriter; // first D register -> step
  for (unsigned s = 0; s < row->nSteps; ++s) {
    const Step &st = row->steps[s];
    Operand ta = pick(st.a, results), tb = pick(st.b, results), tc = pick(st.c, results);
    Operand td = ctx.temp(RegClass::R, static_cast<uint8_t>(st.dCount * regW));
    ori::Instr &mi = ctx.emit(row->op, {}, {td}, {ta, tb, tc});
    mi.mods.assign(mods.begin(), mods.end());
    results.push_back(td);
    lastWriter[st.dFirst] = s;
  }
  for (auto [first, s] : lastWriter) {
    const Step &st = row->steps[s];
    std::vector<Operand> dsel(d.begin() + first, d.begin() + first + st.dCount);
    scatterTuple(ctx, results[s], dsel);
  }
  return true;
}

} // namespace ptxmini::frontend::lower
