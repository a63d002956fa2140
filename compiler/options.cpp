//===- driver/options.cpp - the option table and the parser over it --------------------===//
///
/// \file
/// One row per option: long name, short name, whether it takes a value, help, and what to do
/// with it. Spellings and messages follow ptxas 13.0.88 as observed:
///   unknown option        fatal "Unknown option '-foo'"
///   bad enumerated value  fatal "Value 'sm_91' is not defined for option 'gpu-name'"
///   bad number            fatal "Invalid value 'abc' for option 'maxrregcount'"
///   missing value         fatal "argument expected after '-arch'"
///   bad boolean           fatal "'x': expected true or false"
///   bad number (most)     fatal "'x': expected a number"
/// Every option of `ptxas --help` (13.0.88) has a row, plus the undocumented
/// `--regAllocOptLevel=N` that Triton passes. Each row is one of:
///   honoured       does what ptxas does (-arch, -O, --fmad, -maxrregcount, ...);
///   no effect      accepted as ptxas accepts it, where it changes nothing in ptxas-mini's
///                  output (tuning levels ptxas-mini has no use for, warnings it never prints);
///   not supported  a fatal error naming the option, where honouring it would change the code
///                  or the cubin and ptxas-mini cannot (--sanitize, cache overrides, ...).
/// Also as ptxas: "no argument expected after '-v'" for a flag given a value, and a warning
/// when a single-valued option is given again with another value (the last one wins).
/// -lineinfo writes line tables (.debug_line, .nv_debug_line_sass, .nv_debug_ptx_txt) as
/// ptxas does, which also writes them for any PTX with .loc; --suppress-debug-info writes
/// none (compiler/line_tables.h).
//===----------------------------------------------------------------------------------===//
#include "compiler/options.h"

#include <llvm/ADT/SmallVector.h>
#include <llvm/ADT/StringRef.h>

#include <array>
#include <cctype>
#include <map>
#include <fstream>
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

/// A number where ptxas says "'x': expected a number".
unsigned parseNumber(const std::string &v, DiagEngine &diag) {
  unsigned n = 0;
  if (llvm::StringRef(v).getAsInteger(10, n))
    diag.fatal("'" + v + "': expected a number");
  return n;
}

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
  (void)opt;
  diag.fatal("'" + v + "': expected true or false");
}

/// An option ptxas-mini cannot honour and that would change its output.
[[noreturn]] void notSupported(const char *longName, const char *shortName, DiagEngine &diag,
                               const std::string &why = "") {
  diag.fatal(std::string("Option '--") + longName + "' (-" + shortName +
             ") is not supported by ptxas-mini yet" + (why.empty() ? "" : ": " + why));
}

/// HW (ptxas 13.0.88): a cache modifier the option does not take is an error (the compile
/// then stops with "Ptx assembly aborted due to errors"); every valid one changes the code.
void cacheModifier(const std::string &v, const char *kind,
                   std::initializer_list<const char *> valid, DiagEngine &diag) {
  for (const char *ok : valid)
    if (v == ok)
      return;
  diag.error(std::string("Invalid default cache modifier on ") + kind + " specified: " + v);
  diag.fatal("Ptx assembly aborted due to errors");
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
         o.optLevel = parseNumber(v, d); // HW: ptxas 13.0.88 "-Ox": "'x': expected a number"
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
      {"maxrregcount", "maxrregcount", "<archmax/archmin/N>",
       "Maximum number of registers a function may use.",
       [](Options &o, const std::string &v, DiagEngine &d) {
         // archmin/archmax are the target's bounds, resolved once the target is known.
         o.maxRegCountArchMin = v == "archmin";
         o.maxRegCountArchMax = v == "archmax";
         if (o.maxRegCountArchMin || o.maxRegCountArchMax)
           o.maxRegCount = 0;
         else
           o.maxRegCount = parseUnsigned(v, "maxrregcount", d);
       }},
      {"device-function-maxrregcount", "func-maxrregcount", "<archmax/archmin/N>",
       "Register limit of device functions under -c; ignored (with ptxas's warning) for "
       "whole-program compilation, the only mode ptxas-mini has.",
       [](Options &, const std::string &v, DiagEngine &d) {
         if (v != "archmax" && v != "archmin")
           parseUnsigned(v, "device-function-maxrregcount", d);
         d.warning("Command line option 'device-function-maxrregcount' not supported for "
                   "'whole program compilation', will be ignored");
       }},
      {"split-compile", "split-compile", "<N>",
       "Compile functions on at most N threads (0: one per CPU; 1, the default: serially). "
       "The output does not depend on N.",
       [](Options &o, const std::string &v, DiagEngine &d) { o.splitCompile = parseNumber(v, d); }},
      {"generate-line-info", "lineinfo", nullptr,
       "Generate line-number information for device code (.debug_line from the PTX .loc "
       "directives, .nv_debug_line_sass from the PTX lines).",
       [](Options &o, const std::string &, DiagEngine &) { o.lineInfo = true; }},
      {"suppress-debug-info", "suppress-debug-info", nullptr,
       "Do not generate debug information sections (no line tables, even with .loc or "
       "-lineinfo).",
       [](Options &o, const std::string &, DiagEngine &) { o.suppressDebugInfo = true; }},
      {"device-debug", "g", nullptr,
       "Generate debug information for device code: -O0, line tables and the PTX's DWARF "
       "(variables' register locations are not described yet).",
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
      {"list-version", "version-ls", nullptr, "Print the PTX ISA versions accepted.",
       [](Options &o, const std::string &, DiagEngine &) { o.listVersion = true; }},
      {"input-as-string", "ias", "<ptx string>",
       "A PTX module given as a string instead of a file (repeatable).",
       [](Options &o, const std::string &v, DiagEngine &) { o.inputStrings.push_back(v); }},
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
      {"fmad", "fmad", "<true|false>",
       "Contract floating-point multiplies and adds/subtracts into FFMA/DFMA (default true).",
       [](Options &o, const std::string &v, DiagEngine &d) { o.fmad = parseBoolValue(v, "fmad", d); }},
      // No effect here: tuning levels and permissions ptxas-mini has no use for, warnings it
      // never prints. Values are checked as ptxas checks them.
      {"regAllocOptLevel", "regAllocOptLevel", "<N>",
       "Undocumented ptxas register allocator level (Triton passes 2); no effect.",
       [](Options &, const std::string &v, DiagEngine &d) { parseNumber(v, d); }},
      {"Ofast-compile", "Ofc", "<0|min|mid|max>",
       "Fast-compile level; no effect (ptxas-mini has no expensive optimizations to skip).",
       [](Options &, const std::string &v, DiagEngine &d) {
         if (v != "0" && v != "min" && v != "mid" && v != "max")
           d.fatal("Invalid value for --Ofast-compile/-Ofc (" + v +
                   "), is not 'max', 'mid', 'min', or '0'");
       }},
      {"allow-expensive-optimizations", "allow-expensive-optimizations", "<true|false>",
       "Permission for expensive optimizations; no effect.",
       [](Options &, const std::string &v, DiagEngine &d) {
         parseBoolValue(v, "allow-expensive-optimizations", d);
       }},
      {"register-usage-level", "regUsageLevel", "<0..10>",
       "Register-usage aggressiveness; no effect.",
       [](Options &, const std::string &v, DiagEngine &d) {
         unsigned n = parseNumber(v, d);
         if (n > 10)
           d.warning("Value of RegUsageLevel (" + v +
                     ") is out of valid range {0..10}, option will be ignored");
       }},
      // Undocumented ones ptxas 13.0.88 accepts (probed; XLA passes -sw200428197=true). They
      // tune ptxas's own scheduling (its code changes, what it computes does not) and have
      // nothing to tune here.
      {"sw200428197", "sw200428197", "<true|false>",
       "Undocumented ptxas workaround switch (XLA passes it); no effect.",
       [](Options &, const std::string &v, DiagEngine &d) { parseBoolValue(v, "sw200428197", d); }},
      {"fast-compile", "fast-compile", nullptr, "Undocumented ptxas tuning flag; no effect.",
       [](Options &, const std::string &, DiagEngine &) {}},
      {"fastimul", "fastimul", nullptr, "Undocumented ptxas flag; no effect.",
       [](Options &, const std::string &, DiagEngine &) {}},
      {"noFwdPrg", "noFwdPrg", nullptr, "Undocumented ptxas flag; no effect.",
       [](Options &, const std::string &, DiagEngine &) {}},
      {"optimize-float-atomics", "opt-fp-atomics", nullptr,
       "Permission to optimize float atomics; no effect.",
       [](Options &, const std::string &, DiagEngine &) {}},
      {"disable-optimizer-constants", "disable-optimizer-consts", nullptr,
       "Do not use the optimizer constant bank; no effect (ptxas-mini never uses it).",
       [](Options &, const std::string &, DiagEngine &) {}},
      {"device-stack-protector", "device-stack-protector", "<true|false>",
       "Stack canaries: false (the default) only; true is not supported yet.",
       [](Options &, const std::string &v, DiagEngine &d) {
         if (parseBoolValue(v, "device-stack-protector", d))
           notSupported("device-stack-protector", "device-stack-protector", d,
                        "no stack canaries are written");
       }},
      {"g-tensor-memory-access-check", "g-tmem-access-check", nullptr,
       "tcgen05 access checks; ignored for sm_90 (as ptxas).",
       [](Options &, const std::string &, DiagEngine &) {}},
      {"gno-tensor-memory-access-check", "gno-tmem-access-check", nullptr,
       "No tcgen05 access checks; ignored for sm_90 (as ptxas).",
       [](Options &, const std::string &, DiagEngine &) {}},
      {"legacy-bar-warp-wide-behavior", "legacy-bar-warp-wide-behavior", nullptr,
       "Deprecated; ignored for sm_70 and later (as ptxas).",
       [](Options &, const std::string &, DiagEngine &) {}},
      {"suppress-async-bulk-multicast-advisory-warning",
       "suppress-async-bulk-multicast-advisory-warning", nullptr,
       "Suppress an advisory warning ptxas-mini never prints.",
       [](Options &, const std::string &, DiagEngine &) {}},
      {"suppress-double-demote-warning", "suppress-double-demote-warning", nullptr,
       "Suppress a warning ptxas-mini never prints.",
       [](Options &, const std::string &, DiagEngine &) {}},
      {"suppress-sparse-mma-advisory-info", "suppress-sparse-mma-advisory-info", nullptr,
       "Suppress advisory info ptxas-mini never prints.",
       [](Options &, const std::string &, DiagEngine &) {}},
      {"suppress-stack-size-warning", "suppress-stack-size-warning", nullptr,
       "Suppress a warning ptxas-mini never prints.",
       [](Options &, const std::string &, DiagEngine &) {}},
      // Accepted with a warning: they would change ptxas's code layout, not what it computes.
      {"position-independent-code", "pic", "<true|false>", "Position-independent code.",
       [](Options &, const std::string &v, DiagEngine &d) {
         parseBoolValue(v, "position-independent-code", d);
         ignored("position-independent-code", d);
       }},
      {"dont-merge-basicblocks", "no-bb-merge", nullptr, "Do not merge basic blocks.",
       [](Options &, const std::string &, DiagEngine &d) { ignored("dont-merge-basicblocks", d); }},
      {"return-at-end", "ret-end", nullptr, "Keep the last return instruction.",
       [](Options &, const std::string &, DiagEngine &d) { ignored("return-at-end", d); }},
      // Not supported: honouring them changes the code or the cubin, and ptxas-mini cannot.
      {"compile-as-tools-patch", "astoolspatch", nullptr, "Not supported yet (an error).",
       [](Options &, const std::string &, DiagEngine &d) {
         notSupported("compile-as-tools-patch", "astoolspatch", d);
       }},
      {"compiler-annotations", "annotate", nullptr, "Not supported yet (an error).",
       [](Options &, const std::string &, DiagEngine &d) {
         notSupported("compiler-annotations", "annotate", d);
       }},
      {"def-load-cache", "dlcm", "<modifier>", "Not supported yet (an error).",
       [](Options &, const std::string &v, DiagEngine &d) {
         cacheModifier(v, "load", {"ca", "cg", "cs", "lu", "cv"}, d);
         notSupported("def-load-cache", "dlcm", d);
       }},
      {"def-store-cache", "dscm", "<modifier>", "Not supported yet (an error).",
       [](Options &, const std::string &v, DiagEngine &d) {
         cacheModifier(v, "store", {"cg", "cs", "wb", "wt"}, d);
         notSupported("def-store-cache", "dscm", d);
       }},
      {"force-load-cache", "flcm", "<modifier>", "Not supported yet (an error).",
       [](Options &, const std::string &v, DiagEngine &d) {
         cacheModifier(v, "load", {"ca", "cg", "cs", "lu", "cv"}, d);
         notSupported("force-load-cache", "flcm", d);
       }},
      {"force-store-cache", "fscm", "<modifier>", "Not supported yet (an error).",
       [](Options &, const std::string &v, DiagEngine &d) {
         cacheModifier(v, "store", {"cg", "cs", "wb", "wt"}, d);
         notSupported("force-store-cache", "fscm", d);
       }},
      {"extensible-whole-program", "ewp", nullptr, "Not supported yet (an error).",
       [](Options &, const std::string &, DiagEngine &d) {
         notSupported("extensible-whole-program", "ewp", d);
       }},
      {"make-errors-visible-at-exit", "make-errors-visible-at-exit", nullptr,
       "Not supported yet (an error).",
       [](Options &, const std::string &, DiagEngine &d) {
         notSupported("make-errors-visible-at-exit", "make-errors-visible-at-exit", d);
       }},
      {"maxntid", "maxntid", "<N>,...",
       "Launch bound for kernels without .maxntid/.reqntid, as if they had the directive "
       "(ignored with -maxrregcount).",
       [](Options &o, const std::string &v, DiagEngine &) {
         // HW (ptxas 13.0.88): a value that is not 1-3 numbers is accepted and does nothing
         // (`--maxntid=abc`: no EIATTR_MAX_THREADS), but is recorded in .note.nv.tkinfo.
         o.maxntidText = v;
         o.maxntid.reset();
         llvm::SmallVector<llvm::StringRef, 3> parts;
         llvm::StringRef(v).split(parts, ',');
         std::array<uint32_t, 3> dims{1, 1, 1};
         if (parts.size() > 3)
           return;
         for (size_t i = 0; i < parts.size(); ++i)
           if (parts[i].getAsInteger(10, dims[i]) || dims[i] == 0)
             return;
         o.maxntid = dims;
       }},
      {"minnctapersm", "minnctapersm", "<N>",
       "Minimum CTAs per SM for kernels without .minnctapersm, as the directive (with a "
       "launch bound only; ignored with -maxrregcount).",
       [](Options &o, const std::string &v, DiagEngine &d) { o.minnctapersm = parseNumber(v, d); }},
      {"override-directive-values", "override-directive-values", nullptr,
       "Not supported yet (an error).",
       [](Options &, const std::string &, DiagEngine &d) {
         notSupported("override-directive-values", "override-directive-values", d);
       }},
      {"preserve-relocs", "preserve-relocs", nullptr, "Not supported yet (an error).",
       [](Options &, const std::string &, DiagEngine &d) {
         notSupported("preserve-relocs", "preserve-relocs", d);
       }},
      {"sanitize", "sanitize", "<memcheck|threadsteer>", "Not supported yet (an error).",
       [](Options &, const std::string &v, DiagEngine &d) {
         if (v != "memcheck" && v != "threadsteer")
           d.fatal("Value '" + v + "' is not defined for option 'sanitize'");
         notSupported("sanitize", "sanitize", d);
       }},
      {"sp-bounds-check", "sp-bounds-check", nullptr, "Not supported yet (an error).",
       [](Options &, const std::string &, DiagEngine &d) {
         notSupported("sp-bounds-check", "sp-bounds-check", d);
       }},
      {"options-file", "optf", "<file>,...",
       "Read further options from the files (whitespace-separated; quotes group).",
       [](Options &, const std::string &, DiagEngine &) {}}, // expanded by parseCommandLine
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

namespace {

/// The words of an options file: whitespace separates, double or single quotes group.
std::vector<std::string> readOptionsFile(const std::string &path, DiagEngine &diag) {
  std::ifstream in(path);
  if (!in)
    diag.fatal("Could not open options file '" + path + "'");
  std::vector<std::string> words;
  std::string cur;
  bool inWord = false;
  char quote = 0;
  for (char c; in.get(c);) {
    if (quote) {
      if (c == quote)
        quote = 0;
      else
        cur += c;
    } else if (c == '"' || c == '\'') {
      quote = c;
      inWord = true;
    } else if (std::isspace(static_cast<unsigned char>(c))) {
      if (inWord)
        words.push_back(std::move(cur));
      cur.clear();
      inWord = false;
    } else {
      cur += c;
      inWord = true;
    }
  }
  if (inWord)
    words.push_back(std::move(cur));
  return words;
}

} // namespace

Options parseCommandLine(const std::vector<std::string> &argv, DiagEngine &diag) {
  Options opts;
  std::vector<std::string> args = argv; // grows where --options-file splices its words in
  unsigned filesRead = 0;
  std::map<std::string, std::string> lastValue; // option -> its value, for redefinitions
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string arg = args[i];
    if (arg.size() < 2 || arg[0] != '-') {
      if (arg.empty())
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
      // HW: ptxas 13.0.88 names the option as typed ("-v=1": "no argument expected after '-v'").
      diag.fatal("no argument expected after '" + arg.substr(0, arg.find('=')) + "'");
    }
    if (llvm::StringRef(desc->longName) == "options-file") {
      // The files' words take the place of the option, in order.
      if (++filesRead > 64)
        diag.fatal("Too many nested options files");
      llvm::SmallVector<llvm::StringRef, 2> files;
      llvm::StringRef(value).split(files, ',', -1, false);
      std::vector<std::string> words;
      for (llvm::StringRef f : files) {
        std::vector<std::string> w = readOptionsFile(f.str(), diag);
        words.insert(words.end(), w.begin(), w.end());
      }
      args.insert(args.begin() + static_cast<std::ptrdiff_t>(i) + 1, words.begin(), words.end());
      continue;
    }
    desc->apply(opts, value, diag);
    // HW (ptxas 13.0.88): a single-valued option given again with another value warns, once
    // the new value is checked, and the last value wins (options that collect several values
    // do not warn).
    if (desc->valueName && !llvm::StringRef(desc->valueName).ends_with(",...") &&
        llvm::StringRef(desc->longName) != "knob" && llvm::StringRef(desc->longName) != "knobs-file" &&
        llvm::StringRef(desc->longName) != "input-as-string") {
      auto [prev, first] = lastValue.emplace(desc->longName, value);
      if (!first && prev->second != value) {
        diag.warning(std::string("incompatible redefinition for option '") + desc->longName +
                     "', the last value of this option was used");
        prev->second = value;
      }
    }
  }
  // HW (ptxas 13.0.88): -maxrregcount wins over --maxntid, with this warning.
  if (opts.maxRegCount && !opts.maxntidText.empty()) {
    diag.warning("Conflicting options -maxrregcount and -maxntid specified, ignoring -maxntid "
                 "option");
    opts.maxntid.reset();
  }
  // -g compiles at -O0; asking for both is ptxas's "Optimized debugging" error.
  if (opts.deviceDebug) {
    if (opts.optLevelGiven && opts.optLevel > 0)
      diag.fatal("Optimized debugging not supported");
    opts.optLevel = 0;
    // HW: ptxas 13.0.88 prints this and goes on with -g alone.
    if (opts.lineInfo) {
      diag.warning("Conflicting options --device-debug and --generate-line-info specified, "
                   "ignoring --generate-line-info option");
      opts.lineInfo = false;
    }
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
