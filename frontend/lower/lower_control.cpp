//===- frontend/lower/lower_control.cpp - branches and function exits -------------------===//
///
/// \file
///   bra L     BRA <block of L>; the next statement starts a new fall-through block
///   ret/exit  EXIT in a kernel
/// Reconvergence (BSSY/BSYNC around divergent regions) is not inserted yet: on sm_90 the
/// hardware reconverges at the immediate post-dominator only with those markers, so
/// divergent code runs correctly but without guaranteed reconvergence before the join (the
/// convergence points matter for warp-synchronous instructions, none of which is lowered yet).
//===----------------------------------------------------------------------------------===//
#include "frontend/lower/lower_context.h"

#include <array>

namespace ptxmini::frontend::lower {
namespace {

using ori::Opcode;
using ori::Operand;

bool lowerBra(LowerCtx &ctx, const ptx::Instruction &in) {
  if (!ctx.onlyModifiers(in, {"uni"}))
    return false;
  if (in.operands.size() != 1 || !in.operands[0].is<ptx::SymbolOperand>())
    return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
  auto it = ctx.labels.find(in.operands[0].as<ptx::SymbolOperand>().name);
  if (it == ctx.labels.end())
    return ctx.unsupported(in, "A branch to something other than a label");
  ctx.emit(Opcode::BRA, {}, {}, {Operand::block(it->second)});
  ctx.startBlock();
  return true;
}

bool lowerExit(LowerCtx &ctx, const ptx::Instruction &in) {
  if (!ctx.onlyModifiers(in, {}))
    return false;
  if (!ctx.out.isKernel)
    return ctx.unsupported(in);
  ctx.emit(Opcode::EXIT, {}, {}, {});
  ctx.startBlock();
  return true;
}

constexpr std::array kRows = {
    HandlerRow{"bra", TypeClass::Any, lowerBra},
    HandlerRow{"ret", TypeClass::Any, lowerExit},
    HandlerRow{"exit", TypeClass::Any, lowerExit},
};

} // namespace

std::span<const HandlerRow> controlHandlers() { return kRows; }

} // namespace ptxmini::frontend::lower
