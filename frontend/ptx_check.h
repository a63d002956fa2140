//===- frontend/ptx_check.h - semantic checks of a PTX module --------------------------===//
///
/// \file
/// Checks a parsed module the way ptxas does, with ptxas's messages:
///  - .version/.target: supported values, the .version each .target needs;
///  - names: duplicate definitions (variables, labels, functions), unknown symbols;
///    operands are resolved (a name becomes RegOperand or SymbolOperand of the right kind);
///  - instructions against ptx_instructions.def: .version and .target feature requirements,
///    type modifiers, operand count and each operand's kind, type and width (signature
///    letters), state space of an address versus the instruction;
///  - stops after `maxErrors` errors.
/// Private to frontend/.
//===----------------------------------------------------------------------------------===//
#pragma once

#include "frontend/ptx_ast.h"
#include "frontend/ptx_parse.h"
#include "support/diag.h"
#include "targets/arch.h"

namespace ptxmini::frontend {

/// Unsupported .version/.target and an -arch that cannot take the .target are fatal
/// (DiagEngine::fatal throws), as in ptxas; every other problem is appended to `pending`
/// (the caller prints them sorted by line). Stops after about `maxErrors` problems.
void checkModule(ptx::Module &m, const ArchInfo &arch, DiagEngine &diag, unsigned maxErrors,
                 PendingDiags &pending);

} // namespace ptxmini::frontend
