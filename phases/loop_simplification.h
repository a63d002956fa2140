//===- phases/loop_simplification.h - preheaders, shared by the loop phases -------------===//
///
/// \file
/// OriLoopSimplification (phase 18) gives loops dedicated preheaders; OriHoistInvariants
/// (35/66/79/88) needs one to move instructions into and makes it the same way where an
/// earlier phase did not (seed 004: the LICM mover "creates or locates the preheader block").
//===----------------------------------------------------------------------------------===//
#pragma once

#include "ori/ori.h"

#include <optional>
#include <string_view>

namespace ptxmini {

/// Operand tests the loop phases share (induction variables, trip counts, fusion): a whole
/// 32-bit R virtual register with no modifier other than reuse...
inline bool isLoopPlainR(const ori::Operand &o) {
  return o.kind == ori::OperandKind::VReg && o.cls == ori::RegClass::R && o.width == 1 &&
         o.sub == ori::kWholeReg && (o.mods & ~ori::OM_REUSE) == 0;
}
/// ... a 32-bit half (component `half`) of a 64-bit R register pair, no modifier but reuse
/// (64-bit induction variables and bounds) ...
inline bool isLoopPairHalf(const ori::Operand &o, unsigned half) {
  return o.kind == ori::OperandKind::VReg && o.cls == ori::RegClass::R && o.width == 2 &&
         o.sub == half && (o.mods & ~ori::OM_REUSE) == 0;
}
/// ... and the 32-bit constant an operand stands for (an immediate, or RZ as 0).
inline std::optional<uint32_t> loopConstOf(const ori::Operand &o) {
  if (o.kind == ori::OperandKind::Imm && o.mods == 0)
    return static_cast<uint32_t>(o.imm);
  if (o.isFixed() && o.cls == ori::RegClass::R && o.mods == 0)
    return 0u;
  return std::nullopt;
}

/// The loop's dedicated preheader: the only predecessor of the header from outside the
/// loop, whose only successor is the header, and whose last instruction leaves room for
/// code at its end (no terminator other than an unguarded `BRA header`, no CALL).
/// Needs the CFG facts of AnalyzeControlFlow.
std::optional<uint32_t> findDedicatedPreheader(const ori::Function &f, const ori::Loop &l);

/// Why a loop gets no preheader (nullptr: it can get one).
///   "entry"       the header is the function's entry block;
///   "convergent"  the loop holds warp-synchronous code (seed 004: edge splitting is
///                 suppressed in a convergent context);
///   "layout"      the new block would have to go at the end of a function whose last block
///                 falls through.
const char *preheaderRefusal(const ori::Function &f, const ori::Loop &l);

/// Inserts a dedicated preheader for loop `l` (when preheaderRefusal says it may) and
/// returns true; the caller re-runs AnalyzeControlFlow before using any CFG fact again
/// (block indices after the insertion point move up by one).
bool insertPreheader(ori::Function &f, const ori::Loop &l);

/// Whether `in` makes the code around it warp-synchronous (opcodes.def OF_WARP: barriers,
/// warp votes, shuffles, reconvergence markers, mma.sync): such loops are left as they are.
bool isWarpSynchronous(const ori::Instr &in);

} // namespace ptxmini
