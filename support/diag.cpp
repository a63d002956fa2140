//===- support/diag.cpp - diagnostics in ptxas's shape ----------------------------------===//
#include "support/diag.h"

#include <iostream>

namespace ptxmini {

DiagEngine::DiagEngine(std::string toolName) : tool_(std::move(toolName)), os_(&std::cerr), infoOs_(&std::cerr) {}

std::string_view severityLabel(Severity sev) {
  switch (sev) {
  case Severity::Info:
    return "info    ";
  case Severity::Warning:
    return "warning ";
  case Severity::Error:
    return "error   ";
  case Severity::Fatal:
    return "fatal   ";
  }
  return "error   ";
}

void DiagEngine::emit(Severity sev, const SourceLoc *loc, std::string_view msg) {
  std::ostream &os = sev == Severity::Info ? *infoOs_ : *os_;
  os << tool_;
  if (loc && !loc->file.empty()) {
    os << ' ' << loc->file;
    if (loc->line)
      os << ", line " << loc->line;
    os << ';';
  }
  os << ' ' << severityLabel(sev) << ": " << msg;
  if (loc && loc->column)
    os << " (column " << loc->column << ')';
  os << '\n';
}

void DiagEngine::info(std::string_view msg) { emit(Severity::Info, nullptr, msg); }

void DiagEngine::warning(std::string_view msg) {
  if (warningsAsErrors_)
    return error(msg);
  if (suppressWarnings_)
    return;
  ++warnings_;
  emit(Severity::Warning, nullptr, msg);
}

void DiagEngine::warning(const SourceLoc &loc, std::string_view msg) {
  if (warningsAsErrors_)
    return error(loc, msg);
  if (suppressWarnings_)
    return;
  ++warnings_;
  emit(Severity::Warning, &loc, msg);
}

void DiagEngine::error(std::string_view msg) {
  ++errors_;
  emit(Severity::Error, nullptr, msg);
}

void DiagEngine::error(const SourceLoc &loc, std::string_view msg) {
  ++errors_;
  emit(Severity::Error, &loc, msg);
}

void DiagEngine::parseError(const SourceLoc &loc, std::string_view msg) {
  ++errors_;
  emit(Severity::Fatal, &loc, msg); // HW: ptxas 13.0.88 "line 4; fatal   : Parsing error ..."
}

void DiagEngine::fatal(std::string_view msg) {
  ++errors_;
  emit(Severity::Fatal, nullptr, msg);
  throw FatalError{std::string(msg)};
}

void DiagEngine::fatal(const SourceLoc &loc, std::string_view msg) {
  ++errors_;
  emit(Severity::Fatal, &loc, msg);
  throw FatalError{std::string(msg)};
}

} // namespace ptxmini
