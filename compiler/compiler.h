//===- compiler/compiler.h - the compiler's one entry point ----------------------------===//
///
/// \file
/// The library layer: everything between a parsed option set and the cubin bytes. The
/// command-line tool (driver/ptxas_mini.cpp), the C API (compiler/c_api.cpp, public header
/// compiler/include/ptxas_mini.h) and the tests all drive `compile`; nothing here reads a
/// command line, writes an output file, exits or aborts the host process.
//===----------------------------------------------------------------------------------===//
#pragma once

#include "compiler/options.h"

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <vector>

namespace ptxmini {

/// What a caller adds to the options.
struct CompileHooks {
  /// Where DUMPIR text goes (null: the diagnostics' info stream).
  std::ostream *dumpStream = nullptr;
  /// Runs once the inputs are parsed and checked, before code generation for an sm_XX; a
  /// fatal diagnostic from it stops the compilation (the tool refuses an unwritable output
  /// file here, before the long part of the work, and after the input's own errors).
  std::function<void(DiagEngine &)> beforeCodeGen;
};

/// Compiles the inputs of `opts` (files in `inputs`, PTX text in `inputStrings`) for
/// `opts.arch`. On success returns true and `cubin` holds the cubin (empty for compute_XX,
/// which only parses and checks, as ptxas does). On failure returns false; what went wrong
/// is in `diag` (ptxas's shape, ending in a fatal line). Never throws, never exits.
bool compile(const Options &opts, DiagEngine &diag, std::vector<uint8_t> &cubin,
             const CompileHooks &hooks = {});

void printVersion(std::ostream &os);
/// `--list-version`: the PTX ISA versions accepted, one a line.
void printPtxIsaVersions(std::ostream &os);
/// Every knob: name, type, default, description (from support/knobs.def).
void printKnobList(std::ostream &os);

/// The library's version (the C API's ptxminiGetVersion reports it).
inline constexpr unsigned kVersionMajor = 0, kVersionMinor = 1;
} // namespace ptxmini
