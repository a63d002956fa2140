//===- support/diag.h - diagnostics in ptxas's shape ------------------------------------===//
///
/// \file
/// Every message the tools print to the user goes through a DiagEngine, so it has ptxas's
/// shape (observed with ptxas 13.0.88, see shared/docs/cubin-format.md section 1):
///
///     ptxas-mini fatal   : Unknown option 'foo'
///     ptxas-mini k.ptx, line 12; error   : Unknown symbol 'x'
///     ptxas-mini warning : ...
///     ptxas-mini info    : ...
///
/// ptxas prints no column; we keep its `line N;` shape (tools match it with a regex) and add
/// the column at the end of the message as ` (column C)` when we know it.
/// Everything goes to one stream (stderr by default, like ptxas, -v included).
//===----------------------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <string_view>

namespace ptxmini {

/// Where in an input file something is. Line and column are 1-based; 0 means unknown.
struct SourceLoc {
  std::string file;
  uint32_t line = 0;
  uint32_t column = 0;
};

enum class Severity { Info, Warning, Error, Fatal };

/// Thrown by DiagEngine::fatal after printing: a fatal error stops the tool. The driver
/// catches it at the top level and exits with ptxas's failure code.
struct FatalError {
  std::string message;
};

class DiagEngine {
public:
  explicit DiagEngine(std::string toolName = "ptxas-mini");

  /// Redirects output (tests capture into a stringstream). Default: std::cerr. Also moves
  /// the info stream unless one was set apart with setInfoStream.
  void setStream(std::ostream &os) {
    if (infoOs_ == os_)
      infoOs_ = &os;
    os_ = &os;
  }
  std::ostream &stream() { return *os_; }
  /// Info messages (the -v report) on a stream of their own: the C API keeps an error log
  /// and an info log, as nvPTXCompiler does. Default: the same stream as the rest.
  void setInfoStream(std::ostream &os) { infoOs_ = &os; }
  std::ostream &infoStream() { return *infoOs_; }
  bool infoSeparate() const { return infoOs_ != os_; }

  void info(std::string_view msg);
  void warning(std::string_view msg);
  void warning(const SourceLoc &loc, std::string_view msg);
  void error(std::string_view msg);
  void error(const SourceLoc &loc, std::string_view msg);
  /// A syntax error ("Parsing error near 'x': syntax error"): ptxas labels it fatal (it
  /// stops there); here it counts as an error and does not throw (the parser reports one
  /// per chunk and the driver stops after parsing).
  void parseError(const SourceLoc &loc, std::string_view msg);
  /// Prints the message and throws FatalError.
  [[noreturn]] void fatal(std::string_view msg);
  /// Same, with a file and line (ptxas: "k.ptx, line 1; fatal   : Missing .version ...").
  [[noreturn]] void fatal(const SourceLoc &loc, std::string_view msg);

  /// -w: no warnings printed. -Werror: warnings count as errors.
  void setSuppressWarnings(bool v) { suppressWarnings_ = v; }
  void setWarningsAsErrors(bool v) { warningsAsErrors_ = v; }

  /// Error count including fatal; the caller decides when to stop.
  unsigned errorCount() const { return errors_; }
  unsigned warningCount() const { return warnings_; }
  bool hasErrors() const { return errors_ != 0; }

  const std::string &toolName() const { return tool_; }

  /// The exit status ptxas uses on any failure (observed: 255).
  static constexpr int kFailureExitCode = 255;

private:
  void emit(Severity sev, const SourceLoc *loc, std::string_view msg);

  std::string tool_;
  std::ostream *os_;
  std::ostream *infoOs_;
  unsigned errors_ = 0;
  unsigned warnings_ = 0;
  bool suppressWarnings_ = false;
  bool warningsAsErrors_ = false;
};

/// The label ptxas prints for a severity, padded as ptxas pads it ("error   ", "info    ").
std::string_view severityLabel(Severity sev);

} // namespace ptxmini
