//===- frontend/lower/lower_mma.h - helpers shared by the matrix-instruction lowering ----===//
///
/// \file
/// Fragments: the `{%r1, %r2, ...}` register lists of mma / ldmatrix / wmma. A SASS
/// tensor-core instruction reads and writes whole aligned register tuples (HMMA's A is a quad,
/// B a pair, ...), while the PTX registers of a fragment are separate virtual registers; the
/// lowering gathers them into one tuple with MOVs before the instruction and scatters the
/// result tuple back after it (the register allocator aligns tuples to their width).
//===----------------------------------------------------------------------------------===//
#pragma once

#include "frontend/lower/lower_context.h"

#include <vector>

namespace ptxmini::frontend::lower {

/// The registers of operand `idx` of `in`: a `{...}` list or a single register. Each is the
/// PTX register's virtual register (width 1 for 32-bit, 2 for 64-bit registers). False after
/// reporting (not a register list, `_` sinks, undeclared registers).
bool fragmentRegs(LowerCtx &ctx, const ptx::Instruction &in, size_t idx,
                  std::vector<ori::Operand> &out);

/// One register tuple holding `regs` in order (their 32-bit components one after the other),
/// built with MOVs; a single register of the right width is returned as it is. The total
/// width must be 1, 2 or 4.
ori::Operand gatherTuple(LowerCtx &ctx, const std::vector<ori::Operand> &regs);
/// A fresh tuple as wide as `regs` together (the destination of a matrix instruction).
ori::Operand resultTuple(LowerCtx &ctx, const std::vector<ori::Operand> &regs);
/// Copies the components of `tuple` back into `regs` (no-op when `tuple` is `regs[0]`).
void scatterTuple(LowerCtx &ctx, const ori::Operand &tuple, const std::vector<ori::Operand> &regs);

/// The input-type family of an mma / wmma.mma (its A and B types).
enum class MmaIn : uint8_t { F16, BF16, TF32, I8, F64 };

/// The SASS modifiers of a tensor-core instruction after its shape: the accumulator and input
/// types as HMMA/IMMA print them (f16: .F32 or .F16 by `d`; bf16/tf32: .F32 and the input
/// type; i8: the signedness of `a` and `b`, then .SAT when `sat`; f64: none).
std::vector<ori::Modifier> mmaTypeModifiers(ori::Modifier shape, MmaIn in, ptx::ScalarType d,
                                            ptx::ScalarType a, ptx::ScalarType b, bool sat);

/// The wmma handlers (lower_wmma.cpp).
bool lowerWmmaLoad(LowerCtx &ctx, const ptx::Instruction &in);
bool lowerWmmaStore(LowerCtx &ctx, const ptx::Instruction &in);
bool lowerWmmaMma(LowerCtx &ctx, const ptx::Instruction &in);

} // namespace ptxmini::frontend::lower
