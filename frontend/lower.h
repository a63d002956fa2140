//===- frontend/lower.h - PTX AST to Ori: the lowering's entry point -------------------===//
///
/// \file
/// Lowers each function of a checked PTX module into an Ori function on virtual registers,
/// plus the facts the cubin writer needs (parameter layout, launch bounds). Instruction
/// selection is split by PTX family under frontend/lower/ (arith, memory, control); every
/// PTX instruction or form it does not handle yet is an error naming the instruction and
/// line ("... is not supported by ptxas-mini's code generator yet"), never silently wrong
/// code.
//===----------------------------------------------------------------------------------===//
#pragma once

#include "frontend/ptx_ast.h"
#include "ori/ori.h"
#include "support/diag.h"
#include "targets/target.h"

#include <array>
#include <optional>
#include <vector>

namespace ptxmini::frontend {

struct LoweredParam {
  uint32_t offset = 0; ///< within the parameter block (constant bank 0 + paramBase)
  uint32_t size = 0;
};

struct LoweredFunction {
  ori::Function fn;
  bool isKernel = false;
  std::vector<LoweredParam> params;
  uint32_t paramBytes = 0;
  std::optional<std::array<uint32_t, 3>> maxntid, reqntid;
  std::optional<uint32_t> maxnreg, minnctapersm; ///< .maxnreg, .minnctapersm
};

/// Lowers every kernel with a body and every .func a kernel reaches through calls (unused
/// .func produce no code, as in ptxas's whole-program mode); kernels first, then the callees
/// in PTX definition order. False when anything was reported through `diag`.
bool lowerModule(const ptx::Module &m, const Target &target, std::vector<LoweredFunction> &out,
                 DiagEngine &diag);

} // namespace ptxmini::frontend
