//===- frontend/lower/lower_setmaxnreg.cpp - setmaxnreg (sm_90a register pools) ----------===//
///
/// \file
/// setmaxnreg.{inc,dec}.sync.aligned.u32 n as ptxas 13.0.88 selects it for sm_90a (HW: read
/// off its output with nvdisasm 13.2 on a `.maxntid 384` kernel with a producer and a
/// consumer branch):
///   setmaxnreg.dec ... n     WARPSYNC.ALL; USETMAXREG.DEALLOC.CTAPOOL n
///   setmaxnreg.inc ... n     WARPSYNC.ALL; retry: USETMAXREG.TRY_ALLOC.CTAPOOL UP, n;
///                            PLOP3.LUT P, PT, PT, PT, UP, 0x80, 0x0; @!P BRA retry
/// (the aligned form's WARPSYNC marker is the one bar.sync gets: InsertReconvergence keeps or
/// drops it). ptxas needs the kernel's register count at entry, which launch bounds
/// (.maxntid/.reqntid) or .maxnreg give; without them it drops the instruction and says
///   ptxas info    : (C7508) Potential Performance Loss: 'setmaxnreg' ignored; unable to
///   determine register count at entry.
/// and so does this lowering. The kept counts go to LoweredFunction::setmaxnreg: the
/// allocator stays within the smallest of them and the cubin reports the entry count
/// (compiler/compiler.cpp). Counts must be multiples of 8 in 24..256 (PTX ISA 9.0,
/// setmaxnreg), checked here.
//===----------------------------------------------------------------------------------===//
#include "frontend/lower/lower_common.h"

#include <array>

namespace ptxmini::frontend::lower {
namespace {

using ori::Modifier;
using ori::Opcode;
using ori::Operand;
using ori::OperandKind;
using ori::RegClass;

bool lowerSetMaxNReg(LowerCtx &ctx, const ptx::Instruction &in) {
  bool inc = in.has("inc"), dec = in.has("dec");
  if (inc == dec || !in.has("sync") || !in.has("aligned"))
    return ctx.unsupported(in);
  if (!ctx.onlyModifiers(in, {"inc", "dec", "sync", "aligned"}))
    return false;
  if (in.operands.size() != 1 || !in.operands[0].is<ptx::ImmOperand>())
    return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
  int64_t n = in.operands[0].as<ptx::ImmOperand>().value;
  if (n < 24 || n > 256 || n % 8 != 0)
    return ctx.unsupported(in, "A register count other than a multiple of 8 in 24..256 in '" +
                                   in.fullOpcode() + "'");
  if (ctx.curGuard.kind != OperandKind::None)
    return ctx.unsupported(in, "A guarded '" + in.fullOpcode() + "'");
  // HW (ptxas 13.0 probes): the count is known with .maxnreg, .reqntid, or .maxntid together
  // with .minnctapersm; .maxntid alone is not enough.
  const ptx::Function &f = ctx.pfn;
  bool entryKnown = f.isEntry && (f.attr("maxnreg") || f.attr("reqntid") ||
                                  (f.attr("maxntid") && f.attr("minnctapersm")));
  if (!entryKnown) {
    // HW: ptxas 13.0 emits nothing for them and says so once per function.
    if (!ctx.out.setmaxnregIgnored)
      ctx.diag.info("(C7508) Potential Performance Loss: 'setmaxnreg' ignored; unable to "
                    "determine register count at entry.");
    ctx.out.setmaxnregIgnored = true;
    return true;
  }
  ctx.out.setmaxnreg.push_back(static_cast<uint32_t>(n));
  ctx.emit(Opcode::WARPSYNC, {}, {}, {Operand::intImm(0xffffffffu)});
  if (dec) {
    ctx.emit(Opcode::USETMAXREG, {Modifier::DEALLOC, Modifier::CTAPOOL}, {},
             {Operand::intImm(n)});
    return true;
  }
  uint32_t retry = ctx.startBlock();
  Operand up = ctx.temp(RegClass::UP), p = ctx.temp(RegClass::P);
  ctx.emit(Opcode::USETMAXREG, {Modifier::TRY_ALLOC, Modifier::CTAPOOL}, {up},
           {Operand::intImm(n)});
  ctx.emit(Opcode::PLOP3, {Modifier::LUT}, {p, PT()},
           {PT(), PT(), up, Operand::intImm(0x80), Operand::intImm(0)});
  Operand notP = p;
  notP.mods |= ori::OM_NOT;
  ctx.emit(Opcode::BRA, {}, {}, {Operand::block(retry)}).guard = notP;
  ctx.startBlock();
  return true;
}

constexpr std::array kRows = {
    HandlerRow{"setmaxnreg", TypeClass::Any, lowerSetMaxNReg},
};

} // namespace

std::span<const HandlerRow> setmaxnregHandlers() { return kRows; }

} // namespace ptxmini::frontend::lower
