//===- frontend/lower/lower_control.cpp - branches, exits, traps --------------------------===//
///
/// \file
/// Control transfer in kernels, as ptxas selects it for sm_90 (forms read off ptxas 13.0.88
/// output with nvdisasm 13.2):
///   bra[.uni] L        BRA <block of L> (guarded: a conditional branch); the next statement
///                      starts a new fall-through block
///   ret / exit         EXIT in a kernel (ret in a .func belongs to lower_call.cpp)
///   trap / brkpt       BPT.TRAP 0x1 (ptxas emits the same word for both); it ends its block.
///                      Guarded: `@!p BRA skip; BPT.TRAP 0x1; skip:` (ptxas -O0 never guards
///                      BPT; it branches around it)
///   nanosleep t        NANOSLEEP t (immediate or register)
///   pmevent n          PMTRIG (1 << n);  pmevent.mask m   PMTRIG m
/// Reconvergence (BSSY/BSYNC around divergent regions, WARPSYNC before warp-synchronous
/// instructions) is not the lowering's business: phase InsertReconvergence places it.
//===----------------------------------------------------------------------------------===//
#include "frontend/lower/lower_context.h"

#include <array>

namespace ptxmini::frontend::lower {
namespace {

using ori::Modifier;
using ori::Opcode;
using ori::Operand;

bool lowerBra(LowerCtx &ctx, const ptx::Instruction &in) {
  if (!ctx.onlyModifiers(in, {"uni"}))
    return false;
  if (in.operands.size() != 1 || !in.operands[0].is<ptx::SymbolOperand>())
    return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
  std::optional<uint32_t> target = ctx.findLabel(in.operands[0].as<ptx::SymbolOperand>().name);
  if (!target)
    return ctx.unsupported(in, "A branch to something other than a label");
  ctx.emit(Opcode::BRA, {}, {}, {Operand::block(*target)});
  ctx.startBlock();
  return true;
}

bool lowerExit(LowerCtx &ctx, const ptx::Instruction &in) {
  // ret.uni only asserts that the threads do not diverge (HW: ptxas 13.0 emits the same EXIT).
  if (!ctx.onlyModifiers(in, {"uni"}))
    return false;
  if (!ctx.out.isKernel)
    return ctx.unsupported(in);
  ctx.emit(Opcode::EXIT, {}, {}, {});
  ctx.startBlock();
  return true;
}

/// trap and brkpt: HW: both become `BPT.TRAP 0x1` in ptxas 13.0 sm_90 code.
bool lowerTrap(LowerCtx &ctx, const ptx::Instruction &in) {
  if (!ctx.onlyModifiers(in, {}))
    return false;
  Operand guard = ctx.curGuard;
  ori::Instr *skip = nullptr;
  if (guard.kind != ori::OperandKind::None) {
    ori::Operand inverted = guard;
    inverted.mods ^= ori::OM_NOT;
    ctx.curGuard = inverted;
    skip = &ctx.emit(Opcode::BRA, {}, {}, {Operand::block(0)});
    ctx.curGuard = {};
    ctx.startBlock();
  }
  uint32_t braBlock = skip ? ctx.curBlock - 1 : 0;
  ctx.emit(Opcode::BPT, {Modifier::TRAP}, {}, {Operand::intImm(1)});
  uint32_t next = ctx.startBlock();
  if (skip) // startBlock() shifts no block before it, so the branch is where we left it
    ctx.fn().blocks[braBlock].instrs.back().uses()[0] = Operand::block(next);
  ctx.curGuard = guard;
  return true;
}

bool lowerNanosleep(LowerCtx &ctx, const ptx::Instruction &in) {
  if (!ctx.onlyModifiers(in, {}) || in.operands.size() != 1)
    return in.operands.size() == 1 ? false
                                   : ctx.unsupported(in, "This operand form of '" +
                                                             in.fullOpcode() + "'");
  Operand t = ctx.source(in, in.operands[0]);
  if (t.kind == ori::OperandKind::None)
    return false;
  ctx.emit(Opcode::NANOSLEEP, {}, {}, {t});
  return true;
}

/// HW: `pmevent 3` is `PMTRIG 0x8`, `pmevent.mask 0xc` is `PMTRIG 0xc` (ptxas 13.0, sm_90).
bool lowerPmevent(LowerCtx &ctx, const ptx::Instruction &in) {
  if (!ctx.onlyModifiers(in, {"mask"}))
    return false;
  std::optional<int64_t> v = in.operands.size() == 1 ? ctx.knownConstant(in.operands[0])
                                                     : std::nullopt;
  if (!v || *v < 0 || *v > 0xffff || (!in.has("mask") && *v > 15))
    return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
  ctx.emit(Opcode::PMTRIG, {}, {}, {Operand::intImm(in.has("mask") ? *v : int64_t{1} << *v)});
  return true;
}

constexpr std::array kRows = {
    HandlerRow{"bra", TypeClass::Any, lowerBra},
    HandlerRow{"ret", TypeClass::Any, lowerExit},
    HandlerRow{"exit", TypeClass::Any, lowerExit},
    HandlerRow{"trap", TypeClass::Any, lowerTrap},
    HandlerRow{"brkpt", TypeClass::Any, lowerTrap},
    HandlerRow{"nanosleep", TypeClass::Any, lowerNanosleep},
    HandlerRow{"pmevent", TypeClass::Any, lowerPmevent},
};

} // namespace

std::span<const HandlerRow> controlHandlers() { return kRows; }

} // namespace ptxmini::frontend::lower
