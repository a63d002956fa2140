//===- frontend/ptx_parse.h - PTX text to AST, one chunk at a time ---------------------===//
///
/// \file
/// Runs the generated ANTLR lexer/parser (grammar/PTX.g4) over each top-level chunk of the
/// text (ptx_chunker.h) and converts the chunk's parse tree into AST nodes appended to the
/// module, then drops the tree. Syntax errors become DiagEngine errors in ptxas's shape
/// ("Parsing error near 'x': syntax error") with file, line and column; one per chunk, at
/// most `maxErrors` in all. Decoding the opcode against the instruction table (unknown
/// instruction/modifier) also happens here, since that is where the words are split.
/// Private to frontend/.
//===----------------------------------------------------------------------------------===//
#pragma once

#include "frontend/ptx_ast.h"
#include "support/diag.h"

#include <string>
#include <string_view>
#include <vector>

namespace ptxmini::frontend {

/// A non-fatal problem found while building or checking the AST. They are collected and
/// printed sorted by line at the end, so a run's errors come out in source order no matter
/// which stage found them (ptxas prints in source order too).
struct PendingDiag {
  uint32_t line = 0, column = 0;
  std::string message;
  bool syntax = false; ///< a syntax error (DiagEngine::parseError: ptxas labels it fatal)
  /// ptxas's pass that finds it: 0 the instruction checks, 1 the name resolution after them
  /// (HW: ptxas 13.0.88 lists every "Unknown symbol" after all the other errors).
  uint8_t pass = 0;
};
using PendingDiags = std::vector<PendingDiag>;

struct ParseResult {
  unsigned syntaxErrors = 0; ///< parse errors (the AST is then incomplete)
  bool sawVersion = false;
  uint32_t firstItemLine = 0; ///< line of the first top-level item (ptxas's .version check)
  uint32_t secondItemLine = 0; ///< and of the second (ptxas's .target check)
  bool targetSecond = false;   ///< the second top-level item is .target
  bool versionFirst = true;   ///< .version was the first item
};

/// Syntax errors go straight to `diag`; other problems found while building the AST
/// (unknown instruction or modifier, bad literal) are appended to `pending`.
/// `directStatements`: build plain body statements straight from the tokens (the AST is the
/// same either way; false is for the tests that check that).
ParseResult parsePtx(std::string_view text, const std::string &fileName, ptx::Module &m,
                     DiagEngine &diag, unsigned maxErrors, PendingDiags &pending,
                     bool directStatements = true);

} // namespace ptxmini::frontend
