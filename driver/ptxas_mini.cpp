//===- driver/ptxas_mini.cpp - the ptxas-mini command -----------------------------------===//
///
/// \file
///     ptxas-mini -arch=sm_90 kernel.ptx -o kernel.cubin
///
/// Parses the command line once (options.cpp), then runs the compilation (compilation.cpp).
/// Every failure ends in ptxas's exit status 255 and leaves no output file behind.
//===----------------------------------------------------------------------------------===//
#include "driver/compilation.h"
#include "driver/options.h"
#include "phases/phase_manager.h"
#include "support/logging.h"

#include <iostream>

using namespace ptxmini;

int main(int argc, char **argv) {
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
    return runCompilation(opts, diag);
  } catch (const FatalError &) {
    return DiagEngine::kFailureExitCode;
  }
}
