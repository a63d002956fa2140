//===- frontend/frontend.cpp - the PTX frontend's entry points --------------------------===//
///
/// \file
/// parseFile/parseText: read the text, parse it chunk by chunk into the AST (ptx_parse.h),
/// check the module header the way ptxas does (missing .version/.target, -arch versus
/// .target), then the semantic checks (ptx_check.h). Any error -> nullptr.
//===----------------------------------------------------------------------------------===//
#include "frontend/frontend.h"

#include "frontend/ptx_ast.h"
#include "frontend/ptx_check.h"
#include "frontend/ptx_parse.h"
#include "targets/arch.h"

#include <algorithm>
#include <fstream>
#include <sstream>

namespace ptxmini::frontend {

std::unique_ptr<ptx::Module> parseText(std::string_view text, const std::string &fileName,
                                       const FrontendOptions &opts, DiagEngine &diag) {
  std::optional<ArchInfo> arch = parseArch(opts.arch);
  if (!arch)
    diag.fatal("Value '" + opts.arch + "' is not defined for option 'gpu-name'");
  const unsigned errorsAtStart = diag.errorCount();
  const unsigned maxErrors = opts.maxErrors ? opts.maxErrors : 1;
  auto m = std::make_unique<ptx::Module>();
  m->fileName = fileName;

  // HW (ptxas 13.0.88): any byte outside ASCII, in a comment or a string too, is fatal
  // before anything else: "Unexpected non-ASCII character encountered on line N" (the first
  // such line only).
  if (auto bad = std::find_if(text.begin(), text.end(),
                              [](char c) { return static_cast<unsigned char>(c) >= 0x80; });
      bad != text.end()) {
    size_t line = 1 + static_cast<size_t>(std::count(text.begin(), bad, '\n'));
    diag.fatal("Unexpected non-ASCII character encountered on line " + std::to_string(line));
  }

  PendingDiags pending;
  // Prints the collected problems in line order, at most maxErrors of them in all.
  auto flush = [&] {
    std::stable_sort(pending.begin(), pending.end(),
                     [](const PendingDiag &a, const PendingDiag &b) { return a.line < b.line; });
    for (const PendingDiag &p : pending) {
      if (diag.errorCount() - errorsAtStart >= maxErrors)
        break;
      p.syntax ? diag.parseError(SourceLoc{fileName, p.line, p.column}, p.message)
               : diag.error(SourceLoc{fileName, p.line, p.column}, p.message);
    }
  };

  ParseResult res =
      parsePtx(text, fileName, *m, diag, maxErrors, pending, opts.directStatements);
  if (res.syntaxErrors || diag.errorCount() != errorsAtStart) {
    flush();
    return nullptr;
  }

  // ptxas's header checks: a missing .version or .target is fatal, reported at the line of
  // the second top-level item (HW: observed with ptxas 13.0.88 on files missing either).
  uint32_t headerLine = res.secondItemLine ? res.secondItemLine
                        : res.firstItemLine ? res.firstItemLine
                                            : 1;
  if (!res.sawVersion || !res.versionFirst)
    diag.fatal(SourceLoc{fileName, headerLine, 0},
               "Missing .version directive at start of file '" + fileName + "'");
  // HW: .target must be the second item: ptxas 13.0.88 refuses `.version; .address_size;
  // .target` and a second .version with this message too.
  if (m->targets.empty() || !res.targetSecond)
    diag.fatal(SourceLoc{fileName, headerLine, 0},
               "Missing .target directive at start of file '" + fileName + "'");

  // HW: ptxas 13.0.88 on `.address_size 32` PTX for a real SM: this warning (-m is 64
  // here), then a fatal error; for compute_XX nothing.
  if (m->addressSize == 32 && !arch->isVirtual) {
    diag.warning(" 64 Bit host architecture (--machine) being used mismatches with "
                 ".address_size of 32 bits");
    diag.fatal(address32Refusal(*arch));
  }

  checkModule(*m, *arch, diag, maxErrors, pending);
  flush();
  if (diag.errorCount() != errorsAtStart)
    return nullptr;
  return m;
}

std::unique_ptr<ptx::Module> parseFile(const std::string &path, const FrontendOptions &opts,
                                       DiagEngine &diag) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    diag.fatal("Input file '" + path + "' could not be opened");
  // One buffer of the file's size (a stringstream would hold up to two more copies of the
  // text while it is parsed: its growing buffer and the string it hands out).
  std::string text;
  in.seekg(0, std::ios::end);
  std::streamoff size = in.tellg();
  in.seekg(0, std::ios::beg);
  if (size > 0) {
    text.resize(static_cast<size_t>(size));
    in.read(text.data(), size);
    text.resize(static_cast<size_t>(in.gcount()));
  } else { // not seekable (a pipe): read to the end
    in.clear();
    std::ostringstream ss;
    ss << in.rdbuf();
    text = ss.str();
  }
  if (in.bad())
    diag.fatal("Input file '" + path + "' could not be read");
  return parseText(text, path, opts, diag);
}

std::span<const char *const> ptxIsaVersions() {
  // HW: ptxas 13.0.88 --list-version, in its order.
  static constexpr const char *kVersions[] = {
      "1.0", "1.1", "1.2", "1.3", "1.4", "1.5", "2.0", "2.1", "2.2", "2.3", "3.0",
      "3.1", "3.2", "4.0", "4.1", "4.2", "4.3", "5.0", "5.1", "6.0", "6.1", "6.2",
      "6.3", "6.4", "6.5", "7.0", "7.1", "7.2", "7.3", "7.4", "7.5", "7.6", "7.7",
      "7.8", "8.0", "8.1", "8.2", "8.3", "8.4", "8.5", "8.6", "8.7", "8.8", "9.0"};
  return kVersions;
}

void destroyModule(ptx::Module *m) { delete m; }

} // namespace ptxmini::frontend
