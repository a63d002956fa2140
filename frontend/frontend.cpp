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
#include <cctype>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

namespace ptxmini::frontend {

namespace {

/// The words at the start of a PTX text, for ptxas's header check: blanks and comments
/// skipped, a word is a run of identifier/number characters (`.version`, `8.0`, `sm_90`),
/// anything else one character. An empty word is the end of the text.
class HeaderScanner {
public:
  explicit HeaderScanner(std::string_view text) : t_(text) {}
  struct Word {
    std::string_view text;
    uint32_t line;
  };
  Word next() {
    while (p_ < t_.size()) {
      char c = t_[p_];
      if (c == '\n') {
        ++line_;
        ++p_;
      } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
        ++p_;
      } else if (c == '/' && p_ + 1 < t_.size() && t_[p_ + 1] == '/') {
        while (p_ < t_.size() && t_[p_] != '\n')
          ++p_;
      } else if (c == '/' && p_ + 1 < t_.size() && t_[p_ + 1] == '*') {
        size_t close = t_.find("*/", p_ + 2);
        size_t end = close == std::string_view::npos ? t_.size() : close + 2;
        line_ += static_cast<uint32_t>(std::count(t_.begin() + p_, t_.begin() + end, '\n'));
        p_ = end;
      } else {
        break;
      }
    }
    size_t b = p_;
    auto word = [](char c) {
      return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '$' ||
             c == '%';
    };
    if (p_ < t_.size())
      ++p_;
    if (b < t_.size() && word(t_[b]))
      while (p_ < t_.size() && word(t_[p_]))
        ++p_;
    return Word{t_.substr(b, p_ - b), line_};
  }

private:
  std::string_view t_;
  size_t p_ = 0;
  uint32_t line_ = 1;
};

/// HW (ptxas 13.0.88, probed): the text must open with `.version X.Y` and `.target`, checked
/// before anything is parsed. Without `.version X.Y` first it is "Missing .version directive"
/// at the first word's line (after a leading `.target` list, at the word after the list:
/// ptxas's parser needs that look-ahead to end the list); without `.target` next, "Missing
/// .target directive" at the line of the word found instead. The end of the text counts as a
/// word on its last line.
void checkHeader(std::string_view text, const std::string &fileName, DiagEngine &diag) {
  HeaderScanner sc(text);
  auto missing = [&](const char *what, uint32_t line) {
    diag.fatal(SourceLoc{fileName, line, 0},
               std::string("Missing ") + what + " directive at start of file '" + fileName + "'");
  };
  HeaderScanner::Word w = sc.next();
  if (w.text != ".version") {
    uint32_t line = w.line;
    if (w.text == ".target") {
      HeaderScanner::Word after = sc.next(); // the first target
      for (after = sc.next(); after.text == ","; after = sc.next())
        sc.next();
      line = after.line;
    }
    missing(".version", line);
  }
  HeaderScanner::Word v = sc.next();
  size_t dot = v.text.find('.');
  auto digits = [](std::string_view s) {
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
      return std::isdigit(static_cast<unsigned char>(c));
    });
  };
  if (dot == std::string_view::npos || !digits(v.text.substr(0, dot)) ||
      !digits(v.text.substr(dot + 1)))
    missing(".version", w.line);
  HeaderScanner::Word t = sc.next();
  if (t.text != ".target")
    missing(".target", t.line);
}

} // namespace

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
  // A NUL byte likewise, wherever it is, as the end of the text: "Unexpected EOF encountered
  // on line N"; the first of the two in the text decides the message.
  if (auto bad = std::find_if(text.begin(), text.end(),
                              [](char c) { return c == 0 || static_cast<unsigned char>(c) >= 0x80; });
      bad != text.end()) {
    size_t line = 1 + static_cast<size_t>(std::count(text.begin(), bad, '\n'));
    diag.fatal(std::string(*bad == 0 ? "Unexpected EOF" : "Unexpected non-ASCII character") +
               " encountered on line " + std::to_string(line));
  }

  checkHeader(text, fileName, diag);

  PendingDiags pending;
  // Prints the collected problems in line order, at most maxErrors of them in all.
  auto flush = [&] {
    std::stable_sort(pending.begin(), pending.end(),
                     [](const PendingDiag &a, const PendingDiag &b) {
                       return a.pass != b.pass ? a.pass < b.pass : a.line < b.line;
                     });
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
  // HW (ptxas 13.0.88): `-` is the standard input; a directory reads as an empty file
  // ("Missing .version directive at start of file 'dir'").
  if (path == "-" || std::filesystem::is_directory(path)) {
    std::string text;
    if (path == "-") {
      std::ostringstream ss;
      ss << std::cin.rdbuf();
      text = ss.str();
    }
    return parseText(text, path == "-" ? "<stdin>" : path, opts, diag);
  }
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
