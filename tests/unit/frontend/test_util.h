//===- tests/unit/frontend/test_util.h - helpers for frontend unit tests ---------------===//
#pragma once

#include "frontend/frontend.h"
#include "frontend/ptx_ast.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>

namespace ptxmini::testing {

/// Parses `text` (file name "t.ptx"), capturing diagnostics into `out`.
struct ParseRun {
  std::unique_ptr<ptx::Module> module;
  std::string diags;
  unsigned errors = 0;
  bool fatal = false;
};

inline ParseRun parse(const std::string &text, const std::string &arch = "sm_90",
                      unsigned maxErrors = 20) {
  ParseRun r;
  std::ostringstream os;
  DiagEngine diag("ptxas-mini");
  diag.setStream(os);
  frontend::FrontendOptions opts;
  opts.arch = arch;
  opts.maxErrors = maxErrors;
  try {
    r.module = frontend::parseText(text, "t.ptx", opts, diag);
  } catch (const FatalError &) {
    r.fatal = true;
  }
  r.diags = os.str();
  r.errors = diag.errorCount();
  return r;
}

/// A kernel around `body` with a few registers of each kind declared.
inline std::string kernel(const std::string &body, const std::string &target = "sm_90",
                          const std::string &version = "8.0") {
  return ".version " + version + "\n.target " + target + "\n.address_size 64\n" +
         ".visible .entry k(.param .u64 k_p)\n{\n"
         "  .reg .pred %p<4>;\n  .reg .b16 %rs<4>;\n  .reg .b32 %r<8>;\n"
         "  .reg .b64 %rd<8>;\n  .reg .f32 %f<8>;\n  .reg .f64 %fd<4>;\n" +
         body + "\n  ret;\n}\n";
}
/// Line of the first body line in kernel() (lines 1-3 header, 4 .entry, 5 '{', 6-11 regs).
constexpr unsigned kBodyLine = 12;

} // namespace ptxmini::testing
