//===- driver/compilation.cpp - one run of the compiler over its inputs ----------------===//
///
/// \file
/// The pipeline as the driver sees it:
///   1. every input file: read, parse, check (frontend/); errors are collected per file and
///      the run stops after the front end if any were reported ("Ptx assembly aborted due to
///      errors", as ptxas);
///   2. -arch=compute_XX stops here and writes nothing, as ptxas does;
///   3. code generation for sm_XX (lowering, phases, allocation, scheduling, encoding, cubin).
///      Not implemented yet: it is reported as a fatal error, and no output file is written.
//===----------------------------------------------------------------------------------===//
#include "driver/compilation.h"

#include "frontend/frontend.h"
#include "phases/phase_manager.h"
#include "frontend/ptx_ast.h"
#include "driver/output_file.h"
#include "support/knobs.h"

#include <spdlog/spdlog.h>

#include <iomanip>
#include <iostream>
#include <memory>

namespace ptxmini {

void printVersion(std::ostream &os) {
  os << "ptxas-mini: an open PTX optimizing assembler\n"
     << "Version 0.1.0 (modelled on ptxas 13.0.88; PTX ISA up to 9.0)\n";
}

void printKnobList(std::ostream &os) {
  os << std::left << std::setw(28) << "knob" << std::setw(13) << "type" << std::setw(12)
     << "default"
     << "description\n";
  for (const KnobInfo &k : allKnobs()) {
    std::string def = k.defaultValue.empty() ? "\"\"" : std::string(k.defaultValue);
    os << std::setw(28) << k.name << std::setw(13) << knobTypeName(k.type) << std::setw(12)
       << def << k.description << '\n';
  }
}

int runCompilation(const Options &opts, DiagEngine &diag) {
  // Knobs that name phases are checked before any work, so a typo is reported at once.
  PhaseManager phases(opts.knobs, opts.optLevel, &std::cout, &diag);
  if (!phases.ok())
    throw FatalError{"invalid phase name in knobs"}; // the manager has reported it
  frontend::FrontendOptions feOpts;
  feOpts.arch = opts.arch.name();
  std::vector<std::unique_ptr<ptx::Module>> modules;
  for (const std::string &input : opts.inputs) {
    spdlog::debug("parsing {}", input);
    modules.emplace_back(frontend::parseFile(input, feOpts, diag));
  }
  if (diag.hasErrors())
    diag.fatal("Ptx assembly aborted due to errors");
  // -e names entry functions that must exist in some input (ptxas: "Unknown function f").
  for (const std::string &entry : opts.entries) {
    bool found = false;
    for (const auto &m : modules)
      if (const ptx::Function *f = m->findFunction(entry); f && f->isEntry && f->hasBody)
        found = true;
    if (!found)
      diag.fatal("Unknown function " + entry);
  }
  if (opts.arch.isVirtual)
    return 0; // compute_XX: parse and check only, no output (ptxas does the same)
  // Refuse an unwritable output before any code generation work (ptxas only finds out at
  // the end); the file itself is written atomically once the cubin exists.
  if (!canWriteFile(opts.output))
    diag.fatal("Output file '" + opts.output + "' could not be opened");
  if (!opts.arch.hasCodegen())
    diag.fatal("Code generation for '" + opts.arch.name() +
               "' is not supported by ptxas-mini yet; -arch=compute_" +
               std::to_string(opts.arch.sm) + " parses and checks only");
  diag.fatal("Code generation (PTX to SASS) is not implemented yet; -arch=compute_" +
             std::to_string(opts.arch.sm) + " parses and checks only");
}

} // namespace ptxmini
