//===- encoder/sass_mc_commands.h - the sub-commands of the sass-mc tool ----------------===//
///
/// \file
/// sass-mc is a thin command line (driver/sass_mc.cpp) over these entry points, so tests and
/// other tools can call them directly. Each returns the process exit status (0 on success,
/// DiagEngine::kFailureExitCode on error) and reports problems through `diag`.
//===----------------------------------------------------------------------------------===//
#pragma once

#include "support/diag.h"

#include <iosfwd>
#include <string>

namespace ptxmini::sassmc {

struct Options {
  std::string arch = "sm_90";  ///< -arch=sm_XX
  std::string input;           ///< the input file ("-" for stdin where it makes sense)
  std::string output;          ///< -o FILE
  bool rawWords = false;       ///< -disassemble -raw: input is hex words, not a cubin
  bool printHex = true;        ///< -disassemble: show the encoded words beside the text
};

/// -assemble: SASS text (nvdisasm syntax, one instruction a line, optional control-code
/// annotation) to 128-bit words printed as cuobjdump prints them. (encoder/sass_assembler)
int assemble(const Options &opts, std::ostream &out, DiagEngine &diag);
/// -disassemble: a cubin's code sections, or raw words with -raw, to nvdisasm-syntax text.
int disassemble(const Options &opts, std::ostream &out, DiagEngine &diag);
/// -elf: sections, symbols, relocations and .nv.info attributes by name. (encoder/cubin)
int dumpElf(const Options &opts, std::ostream &out, DiagEngine &diag);
/// -rewrite: read a cubin into the model and write it back to -o. (encoder/cubin)
int rewrite(const Options &opts, DiagEngine &diag);

} // namespace ptxmini::sassmc
