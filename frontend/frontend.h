//===- frontend/frontend.h - the PTX frontend's entry points ----------------------------===//
///
/// \file
/// Reads PTX text, parses it (grammar/PTX.g4) into the typed AST of frontend/ptx_ast.h and
/// checks it. Every problem is reported through the DiagEngine with file, line and column;
/// on any error the result is nullptr.
//===----------------------------------------------------------------------------------===//
#pragma once

#include "support/diag.h"

#include <memory>
#include <span>
#include <string>
#include <string_view>

namespace ptxmini::ptx {
struct Module;
}

namespace ptxmini::frontend {

struct FrontendOptions {
  /// The -arch the user asked for ("sm_90", "sm_90a", "compute_90"); the module's .target
  /// must not be higher, and instructions must exist there.
  std::string arch = "sm_75";
  /// Stop reporting after this many errors (ptxas keeps going within reason).
  unsigned maxErrors = 20;
  /// Build plain body statements straight from the tokens instead of through the parse tree
  /// (ptx_parse.cpp, FastScanner); the AST is identical, false exists for the test of that.
  bool directStatements = true;
};

/// Reads `path`, parses and checks it. A missing or unreadable file is a fatal error.
std::unique_ptr<ptx::Module> parseFile(const std::string &path, const FrontendOptions &opts,
                                       DiagEngine &diag);
/// Same, for text in memory; `fileName` is what diagnostics print.
std::unique_ptr<ptx::Module> parseText(std::string_view text, const std::string &fileName,
                                       const FrontendOptions &opts, DiagEngine &diag);

/// The PTX ISA versions the front end reads, oldest first ("1.0" ... "9.0"): what
/// `--list-version` prints (HW: the list ptxas 13.0.88 --list-version prints).
std::span<const char *const> ptxIsaVersions();

/// Destroys a module (lets callers hold unique_ptr<Module> without the AST's definition).
void destroyModule(ptx::Module *m);

} // namespace ptxmini::frontend
