//===- driver/ori_opt.cpp - ori-opt: run phases on Ori text -----------------------------===//
///
/// \file
///     ori-opt [options] <file.ori | ->
///       -run-phase=<name|number>[,...]  run these phases, in this order (repeatable);
///                                       -O gates do not apply, DisablePhases does
///       -pipeline                       run the whole phase table with its -O gates
///       -O<n>                           optimization level for the gates (default 3)
///       -knob Name=Value                set a knob (repeatable); -knobs-file FILE
///       -verify                         validate the input and after every phase
///       -o FILE                         write the Ori text to FILE (default: stdout)
///       --list-phases                   print the phase table and exit
/// With no phase option it parses and prints (the round-trip test). DUMPIR output goes to
/// stdout ahead of the final text. Errors are in ptxas's shape, exit status 255.
//===----------------------------------------------------------------------------------===//
#include "ori/parse.h"
#include "ori/print.h"
#include "ori/validate.h"
#include "phases/phase_manager.h"
#include "support/diag.h"
#include "support/knobs.h"

#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

using namespace ptxmini;

namespace {

void usage(std::ostream &os) {
  os << "Usage: ori-opt [-run-phase=P[,P...]] [-pipeline] [-O<n>] [-knob Name=Value]...\n"
        "               [-knobs-file FILE] [-verify] [-o FILE] [--list-phases] <file.ori | ->\n";
}

int run(int argc, char **argv, DiagEngine &diag) {
  Knobs knobs;
  std::vector<const PhaseInfo *> phases;
  bool pipeline = false, verify = false;
  unsigned optLevel = 3;
  std::string input, output;
  for (int i = 1; i < argc; ++i) {
    std::string_view a = argv[i];
    auto value = [&](std::string_view flag) -> std::string {
      if (a.size() > flag.size() && a[flag.size()] == '=')
        return std::string(a.substr(flag.size() + 1));
      if (a.size() > flag.size())
        diag.fatal("Unknown option '" + std::string(a) + "'");
      if (i + 1 >= argc)
        diag.fatal("Option '" + std::string(flag) + "' requires a value");
      return argv[++i];
    };
    std::string err;
    if (a == "-h" || a == "--help") {
      usage(std::cout);
      return 0;
    } else if (a == "--list-phases" || a == "-list-phases") {
      printPhaseList(std::cout);
      return 0;
    } else if (a.starts_with("-run-phase") || a.starts_with("--run-phase")) {
      std::string list = value(a.starts_with("--") ? "--run-phase" : "-run-phase");
      std::stringstream ss(list);
      std::string item;
      while (std::getline(ss, item, ',')) {
        const PhaseInfo *p = findPhase(item);
        if (!p)
          diag.fatal("Unknown phase '" + item + "'; did you mean '" +
                     std::string(closestPhaseName(item)) + "'?");
        if (!p->implemented())
          diag.fatal("Phase " + std::to_string(p->number) + " '" + std::string(p->name) +
                     "' is not implemented");
        phases.push_back(p);
      }
      if (list.empty())
        diag.fatal("Option '-run-phase' requires a phase name or number");
    } else if (a == "-pipeline") {
      pipeline = true;
    } else if (a.size() == 3 && a.starts_with("-O") && a[2] >= '0' && a[2] <= '4') {
      optLevel = static_cast<unsigned>(a[2] - '0');
    } else if (a == "-knob" || a.starts_with("-knob=") || a == "--knob") {
      if (!knobs.assign(value(a.starts_with("--") ? "--knob" : "-knob"), err))
        diag.fatal(err);
    } else if (a == "-knobs-file" || a.starts_with("-knobs-file=")) {
      if (!knobs.loadFile(value("-knobs-file"), err))
        diag.fatal(err);
    } else if (a == "-verify") {
      verify = true;
    } else if (a == "-o" || a.starts_with("-o=")) {
      output = value("-o");
    } else if (a == "-" || !a.starts_with("-")) {
      if (!input.empty())
        diag.fatal("More than one input file given: '" + input + "' and '" + std::string(a) + "'");
      input = std::string(a);
    } else {
      diag.fatal("Unknown option '" + std::string(a) + "'");
    }
  }
  if (input.empty())
    diag.fatal("No input file specified");
  if (pipeline && !phases.empty())
    diag.fatal("Options '-pipeline' and '-run-phase' are mutually exclusive");

  std::string text;
  std::string fileName = input == "-" ? "<stdin>" : input;
  if (input == "-") {
    text.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
  } else {
    std::ifstream in(input, std::ios::binary);
    if (!in)
      diag.fatal("Unable to open input file '" + input + "'");
    text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }

  ori::Program prog;
  if (!ori::parseProgram(text, fileName, diag, prog))
    return DiagEngine::kFailureExitCode;

  std::ostringstream out; // everything for stdout/-o, written only on success
  if (verify) {
    std::string err;
    knobs.set("ValidateIR", "true", err);
  }
  PhaseManager pm(knobs, optLevel, &out, &diag);
  if (!pm.ok())
    return DiagEngine::kFailureExitCode;
  for (ori::Function &f : prog.functions) {
    if (verify && !pm.validate(f, "on input"))
      return DiagEngine::kFailureExitCode;
    bool ok = pipeline ? pm.run(f) : pm.runPhases(f, phases);
    if (!ok)
      return DiagEngine::kFailureExitCode;
  }
  ori::printProgram(prog, out);
  if (output.empty()) {
    std::cout << out.str();
    std::cout.flush();
    return std::cout ? 0 : DiagEngine::kFailureExitCode;
  }
  std::ofstream of(output, std::ios::binary);
  if (!of || !(of << out.str()) || !of.flush())
    diag.fatal("Unable to write output file '" + output + "'");
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  DiagEngine diag("ori-opt");
  try {
    return run(argc, argv, diag);
  } catch (const FatalError &) {
    return DiagEngine::kFailureExitCode;
  }
}
