//===- ori/parse.h - Ori text parser ----------------------------------------------------===//
///
/// \file
/// Reads the text form ori/print.h writes (grammar at the top of ori/parse.cpp). Errors are
/// reported through the DiagEngine as `<tool> file, line N; error   : msg (column C)`; the
/// parser stops at the first error and returns false. It never crashes on bad input.
/// On success every function's CFG (preds/succs) and register table are built.
//===----------------------------------------------------------------------------------===//
#pragma once

#include "ori/ori.h"
#include "support/diag.h"

#include <string>
#include <string_view>

namespace ptxmini::ori {

bool parseProgram(std::string_view text, const std::string &fileName, DiagEngine &diag,
                  Program &out);

} // namespace ptxmini::ori
