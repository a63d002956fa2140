//===- driver/options.cpp - the option table and the parser over it --------------------===//
///
/// \file
/// One row per option: long name, short name, whether it takes a value, help, and what to do
/// with it. Spellings and messages follow ptxas 13.0.88 as observed:
///   unknown option        fatal "Unknown option '-foo'"
///   bad enumerated value  fatal "Value 'sm_91' is not defined for option 'gpu-name'"
///   bad number            fatal "Invalid value 'abc' for option 'maxrregcount'"
///   missing value         fatal "argument expected after '-arch'"
//===----------------------------------------------------------------------------------===//
#include "driver/options.h"

#include <llvm/ADT/SmallVector.h>
#include <llvm/ADT/StringRef.h>

#include <functional>
#include <iostream>

namespace ptxmini {
namespace {

struct OptionDesc {
  const char *longName;  ///< without dashes: "gpu-name"
  const char *shortName; ///< without dashes: "arch" (may equal longName)
  const char *valueName; ///< nullptr for flags
  const char *help;
  std::function<void(Options &, const std::string &value, DiagEngine &)> apply;
};

unsigned parseUnsigned(const std::string &v, const char *opt, DiagEngine &diag) {
  unsigned n = 0;
  if (llvm::StringRef(v).getAsInteger(10, n))
    diag.fatal("Invalid value '" + v + "' for option '" + opt + "'");
  return n;
}

bool parseBoolValue(const std::string &v, const char *opt, DiagEngine &diag) {
  if (v == "true")
    return true;
  if (v == "false")
    return false;
  diag.fatal("Value '" + v + "' is not defined for option '" + opt + "'");
}

void ignored(const char *opt, DiagEngine &diag) {
  diag.warning(std::string("Option '--") + opt + "' is accepted for compatibility with ptxas and has no effect in ptxas-mini yet");
}

const std::vector<OptionDesc> &optionTable() {
  static const std::vector<OptionDesc> table = {
      {"gpu-name", "arch", "<gpu name>",
       "Name of the GPU to generate code for (sm_XX[a|f]); compute_XX parses and checks only.",
       [](Options &o, const std::string &v, DiagEngine &d) {
         auto a = parseArch(v);
         if (!a)
           d.fatal("Value '" + v + "' is not defined for option 'gpu-name'");
         o.arch = *a;
       }},
      {"output-file", "o", "<file>", "Name of the output file (default 'elf.o').",
       [](Options &o, const std::string &v, DiagEngine &) {
         o.output = v;
         o.outputGiven = true;
       }},
      {"opt-level", "O", "<N>", "Optimization level (default 3).",
       [](Options &o, const std::string &v, DiagEngine &d) {
         o.optLevel = parseUnsigned(v, "opt-level", d);
         o.optLevelGiven = true;
       }},
      {"verbose", "v", nullptr, "Print code generation statistics.",
       [](Options &o, const std::string &, DiagEngine &) { o.verbose = true; }},
      {"machine", "m", "<bits>", "Host architecture bits; only 64.",
       [](Options &, const std::string &v, DiagEngine &d) {
         if (v != "64")
           d.fatal("Value '" + v + "' is not defined for option 'machine'");
       }},
      {"compile-only", "c", nullptr, "Generate a relocatable object.",
       [](Options &o, const std::string &, DiagEngine &) { o.compileOnly = true; }},
      {"entry", "e", "<entry function>,...", "Compile only these entry functions.",
       [](Options &o, const std::string &v, DiagEngine &) {
         llvm::SmallVector<llvm::StringRef, 4> parts;
         llvm::StringRef(v).split(parts, ',', -1, false);
         for (auto p : parts)
           o.entries.push_back(p.str());
       }},
      {"maxrregcount", "maxrregcount", "<N>", "Maximum number of registers a function may use.",
       [](Options &o, const std::string &v, DiagEngine &d) {
         o.maxRegCount = parseUnsigned(v, "maxrregcount", d);
       }},
      {"split-compile", "split-compile", "<N>",
       "Compile functions on at most N threads (0: one per CPU; 1, the default: serially). "
       "The output does not depend on N.",
       [](Options &o, const std::string &v, DiagEngine &d) {
         o.splitCompile = parseUnsigned(v, "split-compile", d);
       }},
      {"generate-line-info", "lineinfo", nullptr, "Generate line-number information.",
       [](Options &o, const std::string &, DiagEngine &) { o.lineInfo = true; }},
      {"device-debug", "g", nullptr, "Generate debug information for device code.",
       [](Options &o, const std::string &, DiagEngine &) { o.deviceDebug = true; }},
      {"warn-on-spills", "warn-spills", nullptr, "Warn when registers are spilled.",
       [](Options &o, const std::string &, DiagEngine &) { o.warnOnSpills = true; }},
      {"warn-on-local-memory-usage", "warn-lmem-usage", nullptr, "Warn when local memory is used.",
       [](Options &o, const std::string &, DiagEngine &) { o.warnOnLocalMemory = true; }},
      {"warn-on-double-precision-use", "warn-double-usage", nullptr,
       "Warn when doubles are used in an instruction.",
       [](Options &o, const std::string &, DiagEngine &) { o.warnDoubleUsage = true; }},
      {"disable-warnings", "w", nullptr, "Inhibit all warning messages.",
       [](Options &o, const std::string &, DiagEngine &) { o.suppressWarnings = true; }},
      {"warning-as-error", "Werror", nullptr, "Make all warnings into errors.",
       [](Options &o, const std::string &, DiagEngine &) { o.warningsAsErrors = true; }},
      {"version", "V", nullptr, "Print version information.",
       [](Options &o, const std::string &, DiagEngine &) { o.showVersion = true; }},
      {"help", "h", nullptr, "Print this help.",
       [](Options &o, const std::string &, DiagEngine &) { o.showHelp = true; }},
      // ptxas-mini's own.
      {"knob", "knob", "<Name=Value>",
       "Set an internal knob (repeatable); see --list-knobs.",
       [](Options &o, const std::string &v, DiagEngine &d) {
         std::string err;
         if (!o.knobs.assign(v, err))
           d.fatal(err);
       }},
      {"knobs-file", "knobsfile", "<file>",
       "Read knobs from a file: a '[knobs]' line, then one Name=Value a line.",
       [](Options &o, const std::string &v, DiagEngine &d) {
         std::string err;
         if (!o.knobs.loadFile(v, err))
           d.fatal(err);
       }},
      {"list-knobs", "list-knobs", nullptr, "List every knob: name, type, default, description.",
       [](Options &o, const std::string &, DiagEngine &) { o.listKnobs = true; }},
      {"list-phases", "list-phases", nullptr, "List every phase: number and name.",
       [](Options &o, const std::string &, DiagEngine &) { o.listPhases = true; }},
      {"log-level", "log-level", "<level>",
       "Developer logging through spdlog: trace, debug, info, warn, err, off (default off).",
       [](Options &o, const std::string &v, DiagEngine &) { o.logLevel = v; }},
      // ptxas options accepted so command lines written for ptxas keep working; they do not
      // change ptxas-mini's output yet, and say so.
      {"fmad", "fmad", "<true|false>", "Contract multiplies and adds into FMAs (default true).",
       [](Options &, const std::string &v, DiagEngine &d) {
         parseBoolValue(v, "fmad", d);
         ignored("fmad", d);
       }},
      {"position-independent-code", "pic", "<true|false>", "Position-independent code.",
       [](Options &, const std::string &v, DiagEngine &d) {
         parseBoolValue(v, "position-independent-code", d);
         ignored("position-independent-code", d);
       }},
      {"suppress-debug-info", "suppress-debug-info", nullptr,
       "Do not generate debug information sections.",
       [](Options &, const std::string &, DiagEngine &d) { ignored("suppress-debug-info", d); }},
      {"dont-merge-basicblocks", "no-bb-merge", nullptr, "Do not merge basic blocks.",
       [](Options &, const std::string &, DiagEngine &d) { ignored("dont-merge-basicblocks", d); }},
      {"return-at-end", "ret-end", nullptr, "Keep the last return instruction.",
       [](Options &, const std::string &, DiagEngine &d) { ignored("return-at-end", d); }},
  };
  return table;
}

/// Finds the row for `name` (dashes stripped), by long or short name.
const OptionDesc *findOption(llvm::StringRef name) {
  for (const OptionDesc &o : optionTable())
    if (name == o.longName || name == o.shortName)
      return &o;
  return nullptr;
}

} // namespace

Options parseCommandLine(const std::vector<std::string> &args, DiagEngine &diag) {
  Options opts;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string &arg = args[i];
    if (arg.size() < 2 || arg[0] != '-') {
      if (arg.empty() || arg == "-")
        diag.fatal("Unknown option '" + arg + "'");
      opts.inputs.push_back(arg);
      continue;
    }
    llvm::StringRef body = llvm::StringRef(arg).drop_front(arg[1] == '-' ? 2 : 1);
    auto [name, inlineValue] = body.split('=');
    bool hasInline = body.contains('=');
    const OptionDesc *desc = findOption(name);
    std::string value;
    // Glued short forms ptxas accepts: -O3, -m64.
    if (!desc && (name.starts_with("O") || name.starts_with("m")) && name.size() > 1 &&
        !hasInline && arg[1] != '-') {
      desc = findOption(name.take_front(1));
      value = name.drop_front(1).str();
      hasInline = true;
    } else {
      value = inlineValue.str();
    }
    if (!desc) // ptxas names the option with one dash, however many were typed
      diag.fatal("Unknown option '-" + std::string(body) + "'");
    if (desc->valueName) {
      if (!hasInline) {
        if (i + 1 >= args.size())
          diag.fatal("argument expected after '" + arg + "'");
        value = args[++i];
      }
    } else if (hasInline) {
      diag.fatal("Option '" + std::string(name) + "' takes no value");
    }
    desc->apply(opts, value, diag);
  }
  // -g compiles at -O0; asking for both is ptxas's "Optimized debugging" error.
  if (opts.deviceDebug) {
    if (opts.optLevelGiven && opts.optLevel > 0)
      diag.fatal("Optimized debugging not supported");
    opts.optLevel = 0;
  }
  return opts;
}

void printHelp(std::ostream &os) {
  os << "\nUsage  : ptxas-mini [options] <ptx file>,...\n\nOptions\n=======\n\n";
  for (const OptionDesc &o : optionTable()) {
    std::string left = std::string("--") + o.longName;
    if (o.valueName)
      left += std::string(" ") + o.valueName;
    std::string shortForm = std::string("(-") + o.shortName + ")";
    os << left;
    for (size_t n = left.size(); n < 52; ++n)
      os << ' ';
    os << ' ' << shortForm << "\n        " << o.help << "\n\n";
  }
}

} // namespace ptxmini
