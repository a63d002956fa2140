//===- driver/sass_mc.cpp - sass-mc: SASS assembler, disassembler and cubin tool --------===//
///
/// \file
///     sass-mc -arch=sm_90 -assemble in.sass           words, as cuobjdump prints them
///     sass-mc -arch=sm_90 -disassemble file.cubin     nvdisasm-syntax text with words
///     sass-mc -arch=sm_90 -disassemble -raw words.txt (hex words, low then high qword)
///     sass-mc -elf file.cubin                         sections, symbols, attributes
///     sass-mc -rewrite in.cubin -o out.cubin          read into the model, write back
///     sass-mc -check-hazards [-strict] [-dump-deps F] a.cubin [b.cubin ...]
///                                                     control codes against the latency model
/// The work is done by the entry points in encoder/sass_mc_commands.h and, for
/// -check-hazards, scheduler/hazard_check.h (exit status 1 when a violation is found).
//===----------------------------------------------------------------------------------===//
#include "encoder/sass_mc_commands.h"
#include "scheduler/hazard_check.h"

#include <fstream>
#include <vector>

#include <iostream>
#include <string_view>

using namespace ptxmini;

namespace {
enum class Mode { None, Assemble, Disassemble, Elf, Rewrite, CheckHazards };

void usage(std::ostream &os) {
  os << "Usage: sass-mc [-arch=sm_XX] (-assemble FILE | -disassemble [-raw] FILE |\n"
        "               -elf FILE | -rewrite FILE -o OUT |\n"
        "               -check-hazards [-strict] [-dump-deps FILE] CUBIN...)\n";
}
/// -check-hazards: every cubin, then one summary line; 1 when any violation was found.
int checkHazards(const std::string &first, const std::vector<std::string> &more, bool strict,
                 const std::string &depsFile, DiagEngine &diag) {
  sched::HazardOptions ho;
  ho.strict = strict;
  std::ofstream deps;
  if (!depsFile.empty()) {
    deps.open(depsFile);
    if (!deps)
      diag.fatal("Cannot open '" + depsFile + "'");
    ho.depsOut = &deps;
  }
  sched::HazardStats total;
  unsigned files = 0, unreadable = 0;
  std::vector<std::string> inputs{first};
  inputs.insert(inputs.end(), more.begin(), more.end());
  for (const std::string &path : inputs) {
    bool ok;
    total.add(sched::checkCubinHazards(path, ho, std::cout, ok));
    ++files;
    unreadable += ok ? 0 : 1;
  }
  uint64_t bad = total.violations + (strict ? total.unverified : 0);
  std::cout << "hazards: " << files << " files, " << total.functions << " functions, "
            << total.instructions << " instructions (" << total.undecoded << " undecoded, "
            << total.opaque << " opaque), " << total.checkedReads << " dependent reads, "
            << bad << " violations, " << (strict ? 0 : total.unverified)
            << " unverified (ptxas's in-order/barrier completion), " << total.sharedScoreboards
            << " shared scoreboards";
  bool first_ = true;
  for (size_t k = 0; k < sched::hazardKinds().size(); ++k) {
    if (!total.byKind[k])
      continue;
    std::cout << (first_ ? " [" : ", ") << sched::hazardKinds()[k] << " " << total.byKind[k];
    first_ = false;
  }
  std::cout << (first_ ? "" : "]") << "\n";
  return (bad || unreadable) ? 1 : 0;
}

} // namespace

int main(int argc, char **argv) {
  DiagEngine diag("sass-mc");
  sassmc::Options opts;
  Mode mode = Mode::None;
  std::vector<std::string> extraInputs;
  bool strict = false;
  std::string depsFile;
  try {
    for (int i = 1; i < argc; ++i) {
      std::string_view a = argv[i];
      auto value = [&](std::string_view flag) -> std::string {
        if (a.size() > flag.size() && a[flag.size()] == '=')
          return std::string(a.substr(flag.size() + 1));
        if (i + 1 >= argc)
          diag.fatal("Option '" + std::string(flag) + "' requires a value");
        return argv[++i];
      };
      auto setMode = [&](Mode m) {
        if (mode != Mode::None)
          diag.fatal("Only one of -assemble, -disassemble, -elf, -rewrite may be given");
        mode = m;
      };
      if (a == "-h" || a == "--help") {
        usage(std::cout);
        return 0;
      } else if (a.starts_with("-arch") || a.starts_with("--gpu-name")) {
        opts.arch = value(a.starts_with("-arch") ? "-arch" : "--gpu-name");
      } else if (a == "-o" || a.starts_with("-o=")) {
        opts.output = value("-o");
      } else if (a == "-assemble") {
        setMode(Mode::Assemble);
      } else if (a == "-disassemble") {
        setMode(Mode::Disassemble);
      } else if (a == "-elf") {
        setMode(Mode::Elf);
      } else if (a == "-rewrite") {
        setMode(Mode::Rewrite);
      } else if (a == "-check-hazards") {
        setMode(Mode::CheckHazards);
      } else if (a == "-strict") {
        strict = true;
      } else if (a == "-dump-deps" || a.starts_with("-dump-deps=")) {
        depsFile = value("-dump-deps");
      } else if (a == "-raw") {
        opts.rawWords = true;
      } else if (a == "-no-hex") {
        opts.printHex = false;
      } else if (a.size() > 1 && a[0] == '-') {
        diag.fatal("Unknown option '" + std::string(a) + "'");
      } else if (opts.input.empty()) {
        opts.input = std::string(a);
      } else if (mode == Mode::CheckHazards) {
        extraInputs.emplace_back(a);
      } else {
        diag.fatal("More than one input file given: '" + std::string(a) + "'");
      }
    }
    if (mode == Mode::None) {
      usage(std::cerr);
      diag.fatal("No mode given");
    }
    if (opts.input.empty())
      diag.fatal("No input file specified");
    switch (mode) {
    case Mode::Assemble:
      return sassmc::assemble(opts, std::cout, diag);
    case Mode::Disassemble:
      return sassmc::disassemble(opts, std::cout, diag);
    case Mode::Elf:
      return sassmc::dumpElf(opts, std::cout, diag);
    case Mode::Rewrite:
      if (opts.output.empty())
        diag.fatal("-rewrite needs an output file (-o)");
      return sassmc::rewrite(opts, diag);
    case Mode::CheckHazards:
      return checkHazards(opts.input, extraInputs, strict, depsFile, diag);
    case Mode::None:
      break;
    }
  } catch (const FatalError &) {
    return DiagEngine::kFailureExitCode;
  }
  return DiagEngine::kFailureExitCode;
}
