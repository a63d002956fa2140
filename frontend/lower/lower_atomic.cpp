//===- frontend/lower/lower_atomic.cpp - atom and red ------------------------------------===//
///
/// \file
/// Atomics as ptxas 13.0.88 selects them for sm_90 (read off its output with nvdisasm 13.2,
/// one PTX instruction per kernel):
///   atom.global.op.t d, [a], b     ATOMG.E.OP[.T].STRONG.<scope> PT, d, desc[UR][a.64], b
///   atom.global.cas.t d, [a], b, c ATOMG.E.CAS[.64].STRONG.<scope> PT, d, [a], b, c (no
///                                  descriptor; compare b, swap in c; 64-bit: pairs)
///   atom.shared.op.t d, [a], b     ATOMS.OP[.T] d, [a], b;  cas: ATOMS.CAS[.64] d, [a], b, c
///   atom.op.t (generic)            ATOM.E.OP[.T].STRONG.<scope> PT, d, desc[UR][a.64], b
///                                  (32-bit integer operations and cas.b32: the hardware
///                                  handles every space)
///   atom.op.t (generic, 64-bit or float): ptxas's fall-back paths (genericFallback):
///     ATOM.E.OP P, d, [a], b;  @P done     P: the hardware did it (a global address; for
///                                          exch/cas.b64 any non-local one)
///     QSPC.E.S q, RZ, [a];  @q: the shared CAS loop on a's low word (sharedCasLoop)
///     f32/f64 add: QSPC.E.D q, RZ, [a];  @q: a generic CAS loop (ptxas: ATOM.E.CAST.SPIN;
///                                          plain ATOM.E.CAS here)
///     else (local): LD.E old, [a];  ST.E [a], old (op) b   (no other thread sees it)
///     exch/cas.b64 have only the local path. HW: ptxas 13.0 -arch=sm_90 for atom.add.u64,
///     atom.and.b64, atom.min.s64, atom.add.f32/.f64, atom.add.noftz.f16x2/.bf16x2,
///     atom.exch.b64, atom.cas.b64 and red.add.f32 on a generic address.
///   red.global.op.t [a], b         REDG.E.OP[.T].STRONG.<scope> desc[UR][a.64], b
///   red.shared.op.t [a], b         ATOMS.OP[.T] RZ, [a], b
///   red.op.t (generic)             ATOM.E.OP[.T].STRONG.<scope> PT, RZ, desc[UR][a.64], b
/// Types: .u32/.b32 nothing, .s32 .S32, .u64/.b64 .64, .s64 .S64, .f32 .F32.FTZ.RN, .f64
/// .F64.RN, .f16x2/.bf16x2 (.noftz) .F16x2.RN / .BF16x2.RN. Without .sem/.scope an atomic is
/// .STRONG.GPU; .cta gives .STRONG.SM, .sys .STRONG.SYS; .release puts MEMBAR.ALL.<scope>
/// (+ ERRBAR; CGAERRBAR beyond the CTA) before it, .acquire CCTL.IVALL after it (gpu/sys),
/// .acq_rel both. ptxas also aggregates uniform-address add/min/max/and/or/xor across the
/// warp (VOTEU/POPC/REDUX + SHFL): an optimization, not selected here.
/// Shared atomics without a native operation (f32/f64 add, 64-bit add) are compare-and-swap
/// loops (sharedCasLoop), 64-bit shared min/max/and/or/xor too (HW: ptxas 13.0 loops on ATOMS.CAST.SPIN.64
/// for atom.shared.min.u64, comparing with ISETP.GE.U32 + ISETP.GE.U32.EX).
//===----------------------------------------------------------------------------------===//
#include "frontend/lower/lower_mem.h"

#include <array>

namespace ptxmini::frontend::lower {
namespace {

using ori::Modifier;
using ori::Opcode;
using ori::Operand;
using ori::OperandKind;
using ori::RegClass;
using ptx::ScalarType;
using ptx::StateSpace;

/// A PTX atomic operation and its SASS modifier.
struct OpRow {
  std::string_view ptx;
  Modifier sass;
};
constexpr std::array kOps = {
    OpRow{"add", Modifier::ADD}, OpRow{"min", Modifier::MIN},   OpRow{"max", Modifier::MAX},
    OpRow{"inc", Modifier::INC}, OpRow{"dec", Modifier::DEC},   OpRow{"and", Modifier::AND},
    OpRow{"or", Modifier::OR},   OpRow{"xor", Modifier::XOR},   OpRow{"exch", Modifier::EXCH},
    OpRow{"cas", Modifier::CAS},
};

/// The SASS type modifiers of an atomic (see the file comment); false when the type is not
/// selected for the operation.
bool typeModifiers(std::string_view op, ScalarType t, llvm::SmallVectorImpl<Modifier> &out,
                   bool &isFloat, unsigned &words) {
  isFloat = false;
  words = 1;
  bool arith = op == "add" || op == "min" || op == "max";
  switch (t) {
  case ScalarType::U32:
  case ScalarType::B32:
    return true;
  case ScalarType::S32:
    if (!arith)
      return false;
    out.push_back(Modifier::S32);
    return true;
  case ScalarType::U64:
  case ScalarType::B64:
    if (op == "inc" || op == "dec" || (arith && t == ScalarType::B64) ||
        (!arith && t == ScalarType::U64))
      return false;
    out.push_back(Modifier::Size64);
    words = 2;
    return true;
  case ScalarType::S64:
    if (op != "min" && op != "max")
      return false;
    out.push_back(Modifier::S64);
    words = 2;
    return true;
  case ScalarType::F32:
    if (op != "add")
      return false;
    out.append({Modifier::F32, Modifier::FTZ, Modifier::RN});
    isFloat = true;
    return true;
  case ScalarType::F64:
    if (op != "add")
      return false;
    out.append({Modifier::F64, Modifier::RN});
    isFloat = true;
    words = 2;
    return true;
  case ScalarType::F16X2:
  case ScalarType::BF16X2:
    if (op != "add")
      return false;
    out.append({t == ScalarType::F16X2 ? Modifier::F16x2 : Modifier::BF16x2, Modifier::RN});
    isFloat = true;
    return true;
  case ScalarType::F16:
  case ScalarType::BF16:
    // No SASS type: a compare-and-swap loop on the containing word (halfwordCasLoop).
    isFloat = true;
    return op == "add";
  case ScalarType::B16:
    return op == "cas";
  default:
    return false;
  }
}

/// atom/red.shared whose operation shared atomics lack (f32/f64 add, 64-bit add/min/max):
/// a compare-and-swap loop.
///   old = LDS [a]
/// loop:
///   new = old (op) b
///   r = ATOMS.CAS[.64] [a], old, new
///   p = r != old;  old = r;  @p BRA loop
/// HW: ptxas 13.0 builds the same loop with ATOMS.CAST.SPIN (a success flag instead of the
/// old value, re-reading [a] with LDS on failure; llm.c, cuda-samples); plain CAS, whose
/// result is documented, is used here. The loop diverges; the hardware reconverges the warp
/// at the next convergence point (no BSSY/BSYNC is inserted around it yet).
/// nw = old (op) b (c: cas's swap value) for the CAS loops and the local fall-back path;
/// false when `op` on `t` has no such form here.
bool combine(LowerCtx &ctx, std::string_view op, ScalarType t, const Operand &nw,
             const Operand &old, const Operand &b, const Operand &c = {}) {
  bool wide = ptx::typeBits(t) == 64;
  bool minMax = wide && (op == "min" || op == "max");
  bool logic = wide && (op == "and" || op == "or" || op == "xor");
  if (op == "exch") {
    for (unsigned k = 0; k < (wide ? 2u : 1u); ++k)
      ctx.emit(Opcode::MOV, {}, {wide ? component(nw, k) : nw}, {wide ? component(b, k) : b});
    return true;
  }
  if (op == "cas") {
    // nw = old == b ? c : old
    Operand same = ctx.temp(RegClass::P);
    ctx.emit(Opcode::ISETP, {Modifier::EQ, Modifier::U32, Modifier::AND}, {same, PT()},
             {wide ? component(old, 0) : old, wide ? component(b, 0) : b, PT()});
    if (wide)
      ctx.emit(Opcode::ISETP, {Modifier::EQ, Modifier::U32, Modifier::AND, Modifier::EX},
               {same, PT()}, {component(old, 1), component(b, 1), PT(), same});
    for (unsigned k = 0; k < (wide ? 2u : 1u); ++k)
      ctx.emit(Opcode::SEL, {}, {wide ? component(nw, k) : nw},
               {wide ? component(c, k) : c, wide ? component(old, k) : old, same});
    return true;
  }
  if (op == "add" && (t == ScalarType::F16X2 || t == ScalarType::BF16X2)) {
    // .noftz: no flush; HW: ptxas computes it as HFMA2.MMA[.BF16_V2] old * 1 + b.
    ori::Instr &h = ctx.emit(Opcode::HADD2, {}, {nw}, {old, b});
    if (t == ScalarType::BF16X2)
      h.mods.push_back(Modifier::BF16_V2);
    return true;
  }
  if ((op != "add" && !minMax && !logic) ||
      (!wide && t != ScalarType::F32))
    return false;
  if (op == "add" && t == ScalarType::F32) {
    ctx.emit(Opcode::FADD, {}, {nw}, {old, b});
  } else if (op == "add" && t == ScalarType::F64) {
    ctx.emit(Opcode::DADD, {}, {nw}, {old, b});
  } else if (logic) {
    // HW: ptxas 13.0's loop for atom.shared.and.b64 computes LOP3.LUT per half (0xc0 and,
    // 0xfc or, 0x3c xor).
    uint32_t lut = op == "and" ? 0xc0 : op == "or" ? 0xfc : 0x3c;
    for (unsigned k = 0; k < 2; ++k)
      ctx.emit(Opcode::LOP3, {Modifier::LUT}, {component(nw, k)},
               {component(old, k), component(b, k), RZ(), Operand::intImm(lut), notPT()});
  } else if (minMax) {
    // new = (old <op> b) ? old : b, a 64-bit compare (signed for .s64).
    bool isUnsigned = t != ScalarType::S64;
    Operand keep = ctx.temp(RegClass::P);
    Modifier cmp = op == "min" ? Modifier::LT : Modifier::GT;
    ori::Instr &lo = ctx.emit(Opcode::ISETP, {cmp, Modifier::U32, Modifier::AND}, {keep, PT()},
                              {component(old, 0), component(b, 0), PT()});
    (void)lo;
    ori::Instr &hi = ctx.emit(Opcode::ISETP, {cmp}, {keep, PT()},
                              {component(old, 1), component(b, 1), PT(), keep});
    if (isUnsigned)
      hi.mods.push_back(Modifier::U32);
    hi.mods.push_back(Modifier::AND);
    hi.mods.push_back(Modifier::EX);
    for (unsigned k = 0; k < 2; ++k)
      ctx.emit(Opcode::SEL, {}, {component(nw, k)}, {component(old, k), component(b, k), keep});
  } else if (op == "add" && wide) {
    Operand carry = ctx.temp(RegClass::P);
    ctx.emit(Opcode::IADD3, {}, {component(nw, 0), carry},
             {component(old, 0), component(b, 0), RZ()});
    ctx.emit(Opcode::IADD3, {Modifier::X}, {component(nw, 1)},
             {component(old, 1), component(b, 1), RZ(), carry, notPT()});
  } else {
    return false; // excluded above
  }
  return true;
}

/// One compare-and-swap of a CAS loop: r = CAS [m], old -> nw (ATOMS for shared memory;
/// ATOM/ATOMG carry .E, the memory order and a PT status result), 64-bit when `wide`.
Operand emitCas(LowerCtx &ctx, Opcode opc, bool wide, const MemOrder &order, const Operand &m,
                const Operand &old, const Operand &nw) {
  Operand r = ctx.temp(RegClass::R, wide ? 2 : 1);
  ori::Instr cas(opc);
  bool shared = opc == Opcode::ATOMS;
  if (!shared)
    cas.mods.push_back(Modifier::E);
  cas.mods.push_back(Modifier::CAS);
  if (wide)
    cas.mods.push_back(Modifier::Size64);
  if (!shared) {
    llvm::SmallVector<Modifier, 4> om;
    appendOrder(order, om);
    for (Modifier x : om)
      cas.mods.push_back(x);
    cas.addDef(PT());
  }
  cas.addDef(r);
  cas.addUse(m);
  cas.addUse(old);
  cas.addUse(nw);
  cas.srcLine = ctx.curLine;
  ctx.fn().blocks[ctx.curBlock].instrs.push_back(cas);
  return r;
}

/// A compare-and-swap loop on [a] in `space` (Shared: LDS + ATOMS.CAS; None: a generic
/// LD.E + ATOM.E.CAS), d = the value replaced. The loop is left in a new block.
bool casLoop(LowerCtx &ctx, const ptx::Instruction &in, std::string_view op, ScalarType t,
             const Operand &d, const Operand &b, const MemAddress &a, StateSpace space,
             const MemOrder &order) {
  bool wide = ptx::typeBits(t) == 64;
  uint8_t w = wide ? 2 : 1;
  bool shared = space == StateSpace::Shared;
  Operand m = shared ? memOperand(ctx, a, space) : Operand::mem(a.base, a.offset);
  Operand old = ctx.temp(RegClass::R, w);
  ori::Instr &ld = ctx.emit(shared ? Opcode::LDS : Opcode::LD, {}, {old},
                            {shared ? m : memOperand(ctx, a, space)});
  if (!shared)
    ld.mods.push_back(Modifier::E);
  if (wide)
    ld.mods.push_back(Modifier::Size64);
  uint32_t loop = ctx.startBlock();
  Operand nw = ctx.temp(RegClass::R, w);
  if (!combine(ctx, op, t, nw, old, b))
    return ctx.unsupported(in);
  Operand r = emitCas(ctx, shared ? Opcode::ATOMS : Opcode::ATOM, wide, order, m, old, nw);
  Operand again = ctx.temp(RegClass::P);
  ctx.emit(Opcode::ISETP, {Modifier::NE, Modifier::U32, Modifier::AND}, {again, PT()},
           {component(r, 0), component(old, 0), PT()});
  if (wide)
    ctx.emit(Opcode::ISETP, {Modifier::NE, Modifier::U32, Modifier::OR}, {again, PT()},
             {component(r, 1), component(old, 1), again});
  for (unsigned k = 0; k < w; ++k)
    ctx.emit(Opcode::MOV, {}, {component(old, k)}, {component(r, k)});
  ori::Instr &br = ctx.emit(Opcode::BRA, {}, {}, {Operand::block(loop)});
  br.guard = again;
  ctx.startBlock();
  if (d.kind != OperandKind::None)
    for (unsigned k = 0; k < w; ++k)
      ctx.emit(Opcode::MOV, {}, {w == 1 ? d : component(d, k)}, {component(old, k)});
  return true;
}

/// A 16-bit atomic (add.noftz.f16/.bf16, cas.b16): no SASS operation works on a halfword, so
/// a compare-and-swap loop on the aligned 32-bit word holding it, as ptxas 13.0 builds it
/// (HW: -arch=sm_90 for atom.global.add.noftz.f16, atom.shared.add.noftz.bf16,
/// red.global.add.noftz.bf16, atom.global.cas.b16, atom.shared.cas.b16: LDG/LDS of the word
/// at a & ~2, then HADD2[.BF16_V2] / PRMT inserts and ATOMG.E.CAS / ATOMS.CAS until the word
/// was unchanged; the value is selected with PRMT 0x3254/0x7610 where shifts are used here):
///   w = a & ~3;  sh = (a & 2) * 8;  old = LD [w]
/// loop:
///   cur = old >> sh;  v = cur (op) b  (add: HADD2, low half; cas: cur == b ? c : cur)
///   nw = (old & ~(0xffff << sh)) | ((v & 0xffff) << sh)
///   r = CAS [w], old, nw;  p = r != old;  old = r;  @p BRA loop
///   d = (old >> sh) & 0xffff
/// Global addresses use LDG + ATOMG.E.CAS, shared ones LDS + ATOMS.CAS, generic ones LD.E +
/// ATOM.E.CAS (the generic 32-bit CAS works on every space).
bool halfwordCasLoop(LowerCtx &ctx, const ptx::Instruction &in, std::string_view op,
                     ScalarType t, const Operand &d, const Operand &b, const Operand &c,
                     const MemAddress &a, StateSpace space, const MemOrder &order) {
  bool shared = space == StateSpace::Shared;
  bool global = space == StateSpace::Global;
  Operand lo, word;
  Operand m;
  if (shared) {
    Operand full = sharedAddressReg(ctx, a);
    lo = full;
    word = ctx.temp(RegClass::R);
    ctx.emit(Opcode::LOP3, {Modifier::LUT}, {word},
             {full, Operand::intImm(0xfffffffcu), RZ(), Operand::intImm(0xc0), notPT()});
    m = Operand::mem(word, 0);
  } else {
    if (a.base.kind == OperandKind::None)
      return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
    Operand full = a.base;
    if (a.offset != 0) {
      full = ctx.temp(RegClass::R, 2);
      add64Imm(ctx, full, a.base, a.offset);
    }
    lo = component(full, 0);
    word = ctx.temp(RegClass::R, 2);
    ctx.emit(Opcode::LOP3, {Modifier::LUT}, {component(word, 0)},
             {lo, Operand::intImm(0xfffffffcu), RZ(), Operand::intImm(0xc0), notPT()});
    ctx.emit(Opcode::MOV, {}, {component(word, 1)}, {component(full, 1)});
    m = Operand::mem(word, 0);
  }
  Operand sh = ctx.temp(RegClass::R);
  ctx.emit(Opcode::LOP3, {Modifier::LUT}, {sh},
           {lo, Operand::intImm(2), RZ(), Operand::intImm(0xc0), notPT()});
  ctx.emit(Opcode::IMAD, {Modifier::SHL, Modifier::U32}, {sh}, {sh, Operand::intImm(8), RZ()});
  Operand mask = ctx.temp(RegClass::R);
  ctx.emit(Opcode::SHF, {Modifier::L, Modifier::U32}, {mask},
           {Operand::intImm(0xffff), sh, RZ()});
  auto low16 = [&](const Operand &x) {
    Operand r = ctx.temp(RegClass::R);
    ctx.emit(Opcode::LOP3, {Modifier::LUT}, {r},
             {x, Operand::intImm(0xffff), RZ(), Operand::intImm(0xc0), notPT()});
    return r;
  };
  bool isCas = op == "cas";
  Operand b16 = isCas ? low16(b) : b, c16 = isCas ? low16(c) : Operand{};
  Operand old = ctx.temp(RegClass::R);
  MemAddress wa{word, 0};
  if (shared)
    ctx.emit(Opcode::LDS, {}, {old}, {m});
  else
    ctx.emit(global ? Opcode::LDG : Opcode::LD, {Modifier::E}, {old},
             {memOperand(ctx, wa, space)});
  uint32_t loop = ctx.startBlock();
  Operand cur = ctx.temp(RegClass::R);
  ctx.emit(Opcode::SHF, {Modifier::R, Modifier::U32, Modifier::HI}, {cur}, {RZ(), sh, old});
  Operand v = ctx.temp(RegClass::R);
  if (isCas) {
    Operand cur16 = low16(cur);
    Operand same = ctx.temp(RegClass::P);
    ctx.emit(Opcode::ISETP, {Modifier::EQ, Modifier::U32, Modifier::AND}, {same, PT()},
             {cur16, b16, PT()});
    ctx.emit(Opcode::SEL, {}, {v}, {c16, cur16, same});
  } else {
    ori::Instr &h = ctx.emit(Opcode::HADD2, {}, {v}, {cur, b});
    if (t == ScalarType::BF16)
      h.mods.push_back(Modifier::BF16_V2);
  }
  Operand ins = low16(v);
  ctx.emit(Opcode::SHF, {Modifier::L, Modifier::U32}, {ins}, {ins, sh, RZ()});
  Operand nw = ctx.temp(RegClass::R);
  // nw = (old & ~mask) | ins: LUT 0xba over (old, mask, ins).
  ctx.emit(Opcode::LOP3, {Modifier::LUT}, {nw},
           {old, mask, ins, Operand::intImm(0xba), notPT()});
  Operand r = emitCas(ctx, shared ? Opcode::ATOMS : global ? Opcode::ATOMG : Opcode::ATOM, false, order, m,
                      old, nw);
  Operand again = ctx.temp(RegClass::P);
  ctx.emit(Opcode::ISETP, {Modifier::NE, Modifier::U32, Modifier::AND}, {again, PT()},
           {r, old, PT()});
  ctx.emit(Opcode::MOV, {}, {old}, {r});
  ori::Instr &br = ctx.emit(Opcode::BRA, {}, {}, {Operand::block(loop)});
  br.guard = again;
  ctx.startBlock();
  if (d.kind != OperandKind::None) {
    Operand x = ctx.temp(RegClass::R);
    ctx.emit(Opcode::SHF, {Modifier::R, Modifier::U32, Modifier::HI}, {x}, {RZ(), sh, old});
    ctx.emit(Opcode::LOP3, {Modifier::LUT}, {d},
             {x, Operand::intImm(0xffff), RZ(), Operand::intImm(0xc0), notPT()});
  }
  return true;
}

/// A register holding source `op` of the atomic, `words` 32-bit words wide.
Operand atomicSource(LowerCtx &ctx, const ptx::Instruction &in, const ptx::Operand &op,
                     unsigned words) {
  Operand s = ctx.source(in, op);
  if (s.kind == OperandKind::None)
    return s;
  if (s.isReg()) {
    if (s.cls != RegClass::R || s.width != words) {
      ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
      return {};
    }
    return s;
  }
  Operand t = ctx.temp(RegClass::R, static_cast<uint8_t>(words));
  uint64_t bits = static_cast<uint64_t>(s.imm);
  if (s.kind == OperandKind::FImm32)
    bits &= 0xffffffffu;
  if (words == 1) {
    ctx.emit(Opcode::MOV, {}, {t}, {Operand::intImm(static_cast<uint32_t>(bits))});
  } else {
    ctx.emit(Opcode::MOV, {}, {component(t, 0)},
             {Operand::intImm(static_cast<uint32_t>(bits))});
    ctx.emit(Opcode::MOV, {}, {component(t, 1)},
             {Operand::intImm(static_cast<uint32_t>(bits >> 32))});
  }
  return t;
}

bool lowerAtomic(LowerCtx &ctx, const ptx::Instruction &in, bool isRed) {
  StateSpace space = in.space();
  if (space != StateSpace::Global && space != StateSpace::Shared && space != StateSpace::None)
    return ctx.unsupported(in);
  // The operation and the remaining words.
  const OpRow *op = nullptr;
  std::vector<std::string_view> used;
  for (const ptx::Modifier &m : in.modifiers)
    if (m.kind == ptx::Modifier::Kind::Other)
      for (const OpRow &r : kOps)
        if (m.text == r.ptx) {
          op = &r;
          used.push_back(r.ptx);
        }
  if (!op || (isRed && op->sass == Modifier::CAS) || (isRed && op->sass == Modifier::EXCH))
    return ctx.unsupported(in);
  MemOrder order;
  if (!memOrder(ctx, in, /*isAtomic=*/true, order, used))
    return false;
  for (const ptx::Modifier &m : in.modifiers) {
    if (m.kind != ptx::Modifier::Kind::Other)
      continue;
    bool known = m.text == "noftz";
    for (std::string_view u : used)
      known |= m.text == u;
    if (!known)
      return ctx.unsupported(in, "Modifier '." + m.text + "' of '" + in.fullOpcode() + "'");
  }
  ScalarType t = in.type();
  llvm::SmallVector<Modifier, 4> typeMods;
  bool isFloat = false;
  unsigned words = 1;
  if (!typeModifiers(op->ptx, t, typeMods, isFloat, words))
    return ctx.unsupported(in);
  bool f16 = t == ScalarType::F16X2 || t == ScalarType::BF16X2 || t == ScalarType::F16 ||
             t == ScalarType::BF16;
  bool halfword = ptx::typeBits(t) == 16;
  if (f16 != in.has("noftz"))
    return ctx.unsupported(in);
  bool isCas = op->sass == Modifier::CAS;
  // Shared forms without a native operation become compare-and-swap loops (casLoop);
  // generic 64-bit and float ones get ptxas's fall-back paths (genericFallback).
  bool sharedLoop = !halfword && space == StateSpace::Shared &&
                    (isFloat || (words == 2 && !isCas && op->sass != Modifier::EXCH));
  bool fallback = !halfword && space == StateSpace::None && (isFloat || words == 2);
  // Operands.
  size_t first = isRed ? 0 : 1;
  size_t nsrc = isCas ? 2 : 1;
  if (in.operands.size() != first + 1 + nsrc)
    return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
  Operand d;
  if (!isRed) {
    if (!in.operands[0].is<ptx::RegOperand>())
      return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
    d = ctx.reg(in, in.operands[0].as<ptx::RegOperand>().name);
    if (d.kind == OperandKind::None)
      return false;
    if (d.cls != RegClass::R || d.width != words)
      return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
  }
  Operand b = atomicSource(ctx, in, in.operands[first + 1], words);
  if (b.kind == OperandKind::None)
    return false;
  Operand c;
  if (isCas) {
    c = atomicSource(ctx, in, in.operands[first + 2], words);
    if (c.kind == OperandKind::None)
      return false;
  }
  MemAddress a;
  if (!memAddress(ctx, in, in.operands[first], space, a))
    return false;
  if (fallback && a.base.kind == OperandKind::None)
    return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
  // A guarded loop or fall-back: branch around the whole sequence. Forward branches name a
  // pending target (kToDone, kToNext: far above any block index, which startBlock's
  // renumbering keeps so) patched once the target exists; instruction indices are no handle,
  // the entry block gains the descriptor load in front when an access first needs it.
  constexpr uint32_t kToDone = 0x40000000u, kToNext = 0x20000000u;
  auto patch = [&](uint32_t pending, uint32_t target) {
    for (ori::Block &blk : ctx.fn().blocks)
      for (ori::Instr &x : blk.instrs)
        for (Operand &o : x.ops)
          if (o.kind == OperandKind::Block && o.reg >= pending && o.reg < 2 * pending)
            o = Operand::block(target);
  };
  Operand guard = ctx.curGuard;
  auto braToDone = [&](const Operand &p) {
    ori::Instr &br = ctx.emit(Opcode::BRA, {}, {}, {Operand::block(kToDone)});
    br.guard = p;
    ctx.startBlock();
  };
  auto finish = [&] {
    uint32_t done = ctx.startBlock();
    patch(kToDone, done);
    ctx.curGuard = guard;
    return true;
  };
  if ((sharedLoop || fallback || halfword) && guard.kind != OperandKind::None) {
    Operand skip = guard;
    skip.mods ^= ori::OM_NOT;
    ctx.curGuard = Operand{};
    braToDone(skip);
  }
  if (halfword) {
    emitReleaseFence(ctx, order);
    if (!halfwordCasLoop(ctx, in, op->ptx, t, d, b, c, a, space, order))
      return false;
    finish();
    emitAcquireFence(ctx, order);
    return true;
  }
  if (sharedLoop) {
    if (!casLoop(ctx, in, op->ptx, t, d, b, a, space, order))
      return false;
    return finish();
  }
  Operand result = isRed ? RZ() : d;
  // The instruction.
  llvm::SmallVector<Modifier, 8> mods;
  Opcode opc;
  Operand m;
  if (space == StateSpace::Shared) {
    opc = Opcode::ATOMS;
    mods.push_back(op->sass);
    mods.append(typeMods.begin(), typeMods.end());
    m = memOperand(ctx, a, space);
  } else {
    bool global = space == StateSpace::Global;
    opc = isRed && global ? Opcode::REDG : global ? Opcode::ATOMG : Opcode::ATOM;
    mods.push_back(Modifier::E);
    mods.push_back(op->sass);
    mods.append(typeMods.begin(), typeMods.end());
    appendOrder(order, mods);
    // HW: CAS takes no descriptor: ATOMG.E.CAS.STRONG.GPU PT, R12, [R2], R6, R7.
    m = isCas ? Operand::mem(a.base, a.offset) : memOperand(ctx, a, space);
  }
  emitReleaseFence(ctx, order);
  ori::Instr i(opc);
  for (Modifier x : mods)
    i.mods.push_back(x);
  i.guard = ctx.curGuard;
  i.srcLine = ctx.curLine;
  Operand done = fallback ? ctx.temp(RegClass::P) : PT();
  if (opc == Opcode::ATOMG || opc == Opcode::ATOM)
    i.addDef(done);
  if (opc != Opcode::REDG)
    i.addDef(result);
  i.addUse(m);
  i.addUse(b);
  if (isCas)
    i.addUse(c);
  ctx.fn().blocks[ctx.curBlock].instrs.push_back(i);
  if (fallback) {
    // genericFallback (file comment): the address was not one the instruction handles.
    braToDone(done);
    bool exchOrCas = isCas || op->sass == Modifier::EXCH;
    if (!exchOrCas) {
      Operand q = ctx.temp(RegClass::P), nq = q;
      nq.mods ^= ori::OM_NOT;
      ctx.emit(Opcode::QSPC, {Modifier::E, Modifier::S}, {q, RZ()},
               {Operand::mem(a.base, a.offset)});
      ori::Instr &toNext = ctx.emit(Opcode::BRA, {}, {}, {Operand::block(kToNext)});
      toNext.guard = nq;
      ctx.startBlock();
      MemAddress sa{component(a.base, 0), a.offset};
      if (!casLoop(ctx, in, op->ptx, t, isRed ? Operand{} : d, b, sa, StateSpace::Shared, order))
        return false;
      braToDone(Operand{});
      patch(kToNext, ctx.curBlock);
      if (isFloat && !f16) {
        // Another CTA's shared memory (the cluster window): a generic CAS loop.
        Operand qd = ctx.temp(RegClass::P), nqd = qd;
        nqd.mods ^= ori::OM_NOT;
        ctx.emit(Opcode::QSPC, {Modifier::E, Modifier::D}, {qd, RZ()},
                 {Operand::mem(a.base, a.offset)});
        ori::Instr &toLocal = ctx.emit(Opcode::BRA, {}, {}, {Operand::block(kToNext)});
        toLocal.guard = nqd;
        ctx.startBlock();
        if (!casLoop(ctx, in, op->ptx, t, isRed ? Operand{} : d, b, a, StateSpace::None, order))
          return false;
        braToDone(Operand{});
        patch(kToNext, ctx.curBlock);
      }
    }
    // Local memory: no other thread sees it, a plain load and store.
    uint8_t w = static_cast<uint8_t>(words);
    Operand old = ctx.temp(RegClass::R, w), nw = ctx.temp(RegClass::R, w);
    ori::Instr &ld = ctx.emit(Opcode::LD, {Modifier::E}, {old}, {memOperand(ctx, a, space)});
    if (words == 2)
      ld.mods.push_back(Modifier::Size64);
    if (!combine(ctx, op->ptx, t, nw, old, b, c))
      return ctx.unsupported(in);
    ori::Instr &st = ctx.emit(Opcode::ST, {Modifier::E}, {}, {memOperand(ctx, a, space), nw});
    if (words == 2)
      st.mods.push_back(Modifier::Size64);
    if (!isRed)
      for (unsigned k = 0; k < words; ++k)
        ctx.emit(Opcode::MOV, {}, {words == 1 ? d : component(d, k)},
                 {words == 1 ? old : component(old, k)});
    finish();
  }
  emitAcquireFence(ctx, order);
  return true;
}

bool lowerAtom(LowerCtx &ctx, const ptx::Instruction &in) { return lowerAtomic(ctx, in, false); }
bool lowerRed(LowerCtx &ctx, const ptx::Instruction &in) { return lowerAtomic(ctx, in, true); }

constexpr std::array kRows = {
    HandlerRow{"atom", TypeClass::Any, lowerAtom},
    HandlerRow{"red", TypeClass::Any, lowerRed},
};

} // namespace

std::span<const HandlerRow> atomicHandlers() { return kRows; }

bool lowerRedInstr(LowerCtx &ctx, const ptx::Instruction &in) { return lowerRed(ctx, in); }

} // namespace ptxmini::frontend::lower
