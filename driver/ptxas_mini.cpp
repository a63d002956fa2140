//===- driver/ptxas_mini.cpp - the ptxas-mini command -----------------------------------===//
///
/// \file
///     ptxas-mini -arch=sm_90 kernel.ptx -o kernel.cubin
///
/// A thin client of the library layer: parses the command line (compiler/options.cpp),
/// compiles through compiler/compiler.h's one entry point and writes the cubin atomically.
/// Every failure ends in ptxas's exit status 255 and leaves no output file behind.
/// The process ends with std::_Exit once the streams are flushed: tearing down what the run
/// built (the ANTLR parser's ATN, the TBB scheduler, spdlog's registry, the module) would only
/// hand memory back to an exiting process; it was ~5% of a tiny kernel's run (issue 23).
//===----------------------------------------------------------------------------------===//
#include "compiler/compiler.h"
#include "compiler/options.h"
#include "driver/output_file.h"
#include "phases/phase_manager.h"
#include "support/logging.h"

#include <cstdio>
#include <cstdlib>
#include <iostream>

using namespace ptxmini;

namespace {

int run(int argc, char **argv) {
  DiagEngine diag("ptxas-mini");
  try {
    std::vector<std::string> args(argv + 1, argv + argc);
    Options opts = parseCommandLine(args, diag);
    if (!initLogging(opts.logLevel))
      diag.fatal("Value '" + opts.logLevel + "' is not defined for option 'log-level'");
    diag.setSuppressWarnings(opts.suppressWarnings);
    diag.setWarningsAsErrors(opts.warningsAsErrors);
    if (opts.showHelp || (opts.inputs.empty() && opts.inputStrings.empty() &&
                          !opts.showVersion && !opts.listVersion && !opts.listKnobs &&
                          !opts.listPhases)) {
      // ptxas prints its usage and succeeds when given no input file.
      printHelp(std::cout);
      return 0;
    }
    if (opts.showVersion) {
      printVersion(std::cout);
      return 0;
    }
    if (opts.listVersion) {
      printPtxIsaVersions(std::cout);
      return 0;
    }
    if (opts.listKnobs) {
      printKnobList(std::cout);
      return 0;
    }
    if (opts.listPhases) {
      printPhaseList(std::cout);
      return 0;
    }
    CompileHooks hooks;
    hooks.dumpStream = &std::cout;
    // Refuse an unwritable output before any code generation work (ptxas only finds out at
    // the end); the file itself is written atomically once the cubin exists.
    hooks.beforeCodeGen = [&](DiagEngine &d) {
      if (!canWriteFile(opts.output))
        d.fatal("Output file '" + opts.output + "' could not be opened");
    };
    std::vector<uint8_t> cubin;
    if (!compile(opts, diag, cubin, hooks))
      return DiagEngine::kFailureExitCode;
    if (opts.arch.isVirtual)
      return 0; // compute_XX: parse and check only, no output (ptxas does the same)
    std::string err;
    if (!writeFileAtomically(opts.output, cubin, err))
      diag.fatal(err);
    return 0;
  } catch (const FatalError &) {
    return DiagEngine::kFailureExitCode;
  }
}

} // namespace

int main(int argc, char **argv) {
  int rc = run(argc, argv);
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
  std::_Exit(rc);
}
