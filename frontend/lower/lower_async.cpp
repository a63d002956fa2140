//===- frontend/lower/lower_async.cpp - asynchronous copies (cp.async) ------------------===//
///
/// \file
/// cp.async as ptxas 13.0.88 selects it for sm_90 (read off its output with nvdisasm 13.2,
/// one PTX instruction per kernel):
///   cp.async.ca.shared.global [s], [g], 4|8|16   three `@!PT LDS RZ, [RZ]`, then
///                                                LDGSTS.E[.LTCxB][.64|.128] [s], desc[UR][g.64]
///   cp.async.cg.shared.global [s], [g], 16       ... LDGSTS.E.BYPASS[.LTCxB].128 ...
///   .L2::64B / 128B / 256B                       .LTC64B / .LTC128B / .LTC256B
///   a src-size operand equal to cp-size          the same as without one
///   src-size 0 (immediate)                       LDGSTS ..., !PT (nothing read, all zeros)
///   src-size s, 0 < s < cp-size (immediate)      LDGSTS...ZFILL [s], [g + (cp - s)]
///   src-size n (register)                        t = (cp - n) & (cp - 1); P = n != 0;
///                                                LDGSTS...ZFILL [s], [g + t], P
///   a global offset outside -2048..2047          folded into the address pair by
///                                                LegalizeOperands (the field is 12 bits)
///   cp.async.commit_group                        LDGDEPBAR (ptxas gives it write scoreboard 0)
///   cp.async.wait_group N                        DEPBAR.LE SB0, N
///   cp.async.wait_all                            LDGDEPBAR; DEPBAR.LE SB0, 0x0
/// The three never-executed LDS ptxas puts before every LDGSTS are kept (GUESS: a hardware
/// workaround; their purpose is not documented). What .ZFILL does is read off ptxas's code, not
/// documented (GUESS): the low log2(cp-size) bits of the global address give the number of
/// trailing bytes written as zeros, the copy reads cp-size minus that many bytes from the
/// address rounded down, and a false predicate operand writes zeros without reading.
///   .L2::cache_hint [s], [g], n[, src], policy   the same as without the hint (see below)
/// The bulk / mbarrier forms are not selected yet.
//===----------------------------------------------------------------------------------===//
#include "frontend/lower/lower_common.h"
#include "frontend/lower/lower_mem.h"

#include <array>

namespace ptxmini::frontend::lower {
namespace {

using ori::Modifier;
using ori::Opcode;
using ori::Operand;
using ori::OperandKind;
using ori::RegClass;
using ptx::StateSpace;

/// The constant value of an immediate operand, or nullopt.
std::optional<int64_t> immValue(const ptx::Operand &op) {
  if (op.is<ptx::ImmOperand>())
    return op.as<ptx::ImmOperand>().value;
  return std::nullopt;
}

bool lowerCpAsync(LowerCtx &ctx, const ptx::Instruction &in) {
  // Spaces: .shared(::cta) destination, .global source.
  std::vector<StateSpace> spaces;
  for (const ptx::Modifier &m : in.modifiers)
    if (m.kind == ptx::Modifier::Kind::Space)
      spaces.push_back(m.space);
  if (spaces.size() != 2 || spaces[0] != StateSpace::Shared || spaces[1] != StateSpace::Global)
    return ctx.unsupported(in);
  bool cg = false, ca = false, cacheHint = false;
  std::optional<Modifier> ltc;
  for (const ptx::Modifier &m : in.modifiers) {
    if (m.kind != ptx::Modifier::Kind::Other)
      continue;
    if (m.text == "cg")
      cg = true;
    else if (m.text == "ca")
      ca = true;
    else if (m.text == "L2::64B")
      ltc = Modifier::LTC64B;
    else if (m.text == "L2::128B")
      ltc = Modifier::LTC128B;
    else if (m.text == "L2::256B")
      ltc = Modifier::LTC256B;
    else if (m.text == "L2::cache_hint")
      cacheHint = true;
    else
      return ctx.unsupported(in, "Modifier '." + m.text + "' of '" + in.fullOpcode() + "'");
  }
  // .L2::cache_hint: the last operand is a 64-bit cache policy (createpolicy), which the PTX
  // ISA (9.0, cp.async) describes as the policy that "may be used" for the access: a
  // performance hint. ptxas-mini does not put it into the access (ptxas 13.0.88 passes it
  // through the memory descriptor); the copy is the same without it. The operand is still
  // read, so an undefined register is reported as for any source.
  std::vector<ptx::Operand> ops = in.operands;
  if (cacheHint) {
    if (ops.size() < 4)
      return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
    if (ctx.source(in, ops.back()).kind == OperandKind::None)
      return false;
    ops.pop_back();
  }
  if (cg == ca || ops.size() < 3 || ops.size() > 4)
    return ctx.unsupported(in);
  std::optional<int64_t> size = immValue(ops[2]);
  if (!size || (*size != 4 && *size != 8 && *size != 16) || (cg && *size != 16))
    return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
  MemAddress dst, src;
  if (!memAddress(ctx, in, ops[0], StateSpace::Shared, dst) ||
      !memAddress(ctx, in, ops[1], StateSpace::Global, src))
    return false;
  // The source-size operand (zero fill), as ptxas 13.0 lowers it (see the table above).
  bool zfill = false;
  Operand valid; // LDGSTS's predicate operand; none = PT
  if (ops.size() == 4) {
    if (std::optional<int64_t> s = immValue(ops[3])) {
      if (*s < 0 || *s > *size)
        return ctx.unsupported(in, "A source size larger than the copy size in '" +
                                       in.fullOpcode() + "'");
      if (*s == 0) {
        valid = notPT();
      } else if (*s < *size) {
        zfill = true;
        src.offset += static_cast<int32_t>(*size - *s);
      }
    } else {
      Operand n = ctx.source(in, ops[3]);
      if (n.kind == OperandKind::None)
        return false;
      if (n.width != 1)
        return ctx.unsupported(in, "A 64-bit source size in '" + in.fullOpcode() + "'");
      Operand t = ctx.temp(RegClass::R), fill = ctx.temp(RegClass::R);
      ctx.emit(Opcode::IADD3, {}, {t}, {negate(n), Operand::intImm(*size), RZ()});
      ctx.emit(Opcode::LOP3, {Modifier::LUT}, {fill},
               {t, Operand::intImm(*size - 1), RZ(), Operand::intImm(0xc0), notPT()});
      valid = ctx.temp(RegClass::P);
      ctx.emit(Opcode::ISETP, {Modifier::NE, Modifier::U32, Modifier::AND}, {valid, PT()},
               {n, RZ(), PT()});
      Operand base = ctx.temp(RegClass::R, 2), carry = ctx.temp(RegClass::P);
      ctx.emit(Opcode::IADD3, {}, {component(base, 0), carry},
               {fill, component(src.base, 0), RZ()});
      ctx.emit(Opcode::IADD3, {Modifier::X}, {component(base, 1)},
               {RZ(), RZ(), component(src.base, 1), carry, notPT()});
      src.base = base;
      zfill = true;
    }
  }
  // HW: three `@!PT LDS RZ, [RZ]` precede every LDGSTS in ptxas's code.
  for (int k = 0; k < 3; ++k) {
    ori::Instr &nop = ctx.emit(Opcode::LDS, {}, {RZ()}, {Operand::mem(RZ(), 0)});
    nop.guard = notPT();
  }
  ori::Instr &i = ctx.emit(Opcode::LDGSTS, {Modifier::E}, {},
                           {memOperand(ctx, dst, StateSpace::Shared),
                            memOperand(ctx, src, StateSpace::Global)});
  if (cg)
    i.mods.push_back(Modifier::BYPASS);
  if (ltc)
    i.mods.push_back(*ltc);
  if (*size == 8)
    i.mods.push_back(Modifier::Size64);
  else if (*size == 16)
    i.mods.push_back(Modifier::Size128);
  if (zfill)
    i.mods.push_back(Modifier::ZFILL);
  if (valid.kind != OperandKind::None)
    i.addUse(valid);
  return true;
}

Operand scoreboard0() { return Operand::sreg(ori::SpecialReg::SB0); }

bool lowerCommitGroup(LowerCtx &ctx, const ptx::Instruction &in) {
  if (!ctx.onlyModifiers(in, {}) || !in.operands.empty())
    return in.operands.empty() ? false : ctx.unsupported(in);
  ctx.emit(Opcode::LDGDEPBAR, {}, {}, {});
  return true;
}

bool lowerWaitGroup(LowerCtx &ctx, const ptx::Instruction &in) {
  if (!ctx.onlyModifiers(in, {}))
    return false;
  std::optional<int64_t> n = in.operands.size() == 1 ? immValue(in.operands[0]) : std::nullopt;
  if (!n || *n < 0 || *n > 63) // DEPBAR's count field is 6 bits (I@38/6)
    return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
  ctx.emit(Opcode::DEPBAR, {Modifier::LE}, {}, {scoreboard0(), Operand::intImm(*n)});
  return true;
}

bool lowerWaitAll(LowerCtx &ctx, const ptx::Instruction &in) {
  if (!ctx.onlyModifiers(in, {}) || !in.operands.empty())
    return in.operands.empty() ? false : ctx.unsupported(in);
  ctx.emit(Opcode::LDGDEPBAR, {}, {}, {});
  ctx.emit(Opcode::DEPBAR, {Modifier::LE}, {}, {scoreboard0(), Operand::intImm(0)});
  return true;
}

constexpr std::array kRows = {
    HandlerRow{"cp.async", TypeClass::Any, lowerCpAsync},
    HandlerRow{"cp.async.commit_group", TypeClass::Any, lowerCommitGroup},
    HandlerRow{"cp.async.wait_group", TypeClass::Any, lowerWaitGroup},
    HandlerRow{"cp.async.wait_all", TypeClass::Any, lowerWaitAll},
};

} // namespace

std::span<const HandlerRow> asyncCopyHandlers() { return kRows; }

} // namespace ptxmini::frontend::lower
