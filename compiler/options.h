//===- compiler/options.h - ptxas-mini's command line, parsed once ------------------------===//
///
/// \file
/// The option surface follows ptxas 13.0 (`ptxas --help`): each option has a long name
/// (`--gpu-name`) and a short one (`-arch`); either may be written with one or two dashes, and
/// a value may follow as `=v` or as the next argument. The table of options lives in
/// options.cpp; everything the rest of the compiler needs ends up in `Options`.
//===----------------------------------------------------------------------------------===//
#pragma once

#include "support/diag.h"
#include "support/knobs.h"
#include "targets/arch.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ptxmini {

struct Options {
  ArchInfo arch = *parseArch("sm_75"); ///< ptxas's default -arch
  std::string output = "elf.o";        ///< ptxas's default output name
  bool outputGiven = false;
  unsigned optLevel = 3;
  bool optLevelGiven = false;
  bool verbose = false;
  bool compileOnly = false;            ///< -c: relocatable object
  std::vector<std::string> entries;    ///< -e: compile only these entry functions
  std::optional<unsigned> maxRegCount; ///< -maxrregcount
  std::optional<std::array<uint32_t, 3>> maxntid; ///< --maxntid: kernels without launch bounds
  std::string maxntidText;             ///< --maxntid as given (.note.nv.tkinfo records it)
  std::optional<unsigned> minnctapersm; ///< --minnctapersm: kernels without the directive
  unsigned splitCompile = 1;           ///< --split-compile: threads for code generation (0: all CPUs)
  bool lineInfo = false;               ///< -lineinfo: line tables (compiler/line_tables.h)
  bool suppressDebugInfo = false;      ///< -suppress-debug-info
  bool deviceDebug = false;            ///< -g: -O0, line tables and DWARF (compiler/debug_info.h)
  bool fmad = true;                    ///< --fmad: contract mul + add into fma
  bool maxRegCountArchMin = false;     ///< -maxrregcount archmin: the target's lower bound
  bool maxRegCountArchMax = false;     ///< -maxrregcount archmax: the target's upper bound
  std::vector<std::string> inputStrings; ///< --input-as-string: PTX given on the command line
  bool warnOnSpills = false;
  bool warnOnLocalMemory = false;
  bool warnDoubleUsage = false;
  bool suppressWarnings = false;       ///< -w
  bool warningsAsErrors = false;       ///< -Werror
  Knobs knobs;
  std::vector<std::string> inputs;
  std::string logLevel;

  // Requests that print something and exit.
  bool showHelp = false;
  bool showVersion = false;
  bool listVersion = false;            ///< --list-version: the PTX ISA versions accepted
  bool listKnobs = false;
  bool listPhases = false;
};

/// Parses argv[1..]. On a bad command line prints ptxas's fatal message through `diag` and
/// throws FatalError. Warnings (e.g. an accepted-but-ignored option) go through `diag`.
Options parseCommandLine(const std::vector<std::string> &args, DiagEngine &diag);

/// `--help` text, generated from the option table.
void printHelp(std::ostream &os);

} // namespace ptxmini
