//===- frontend/fuzz/parse_fuzz.cpp - libFuzzer target over frontend::parseText --------===//
///
/// \file
/// Any byte string must come back as a module or as diagnostics: never a crash, a hang, a
/// leak or an uncaught exception other than the documented FatalError. Built only with
/// -DPTXMINI_FUZZ=ON and clang (-fsanitize=fuzzer,address). Seed it with tests/lit/frontend.
//===----------------------------------------------------------------------------------===//
#include "frontend/frontend.h"
#include "frontend/ptx_ast.h"

#include <sstream>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::ostringstream sink;
  ptxmini::DiagEngine diag("ptxas-mini");
  diag.setStream(sink);
  ptxmini::frontend::FrontendOptions opts;
  opts.arch = "sm_90a";
  try {
    auto m = ptxmini::frontend::parseText(
        std::string_view(reinterpret_cast<const char *>(data), size), "fuzz.ptx", opts, diag);
    ptxmini::frontend::destroyModule(m.release());
  } catch (const ptxmini::FatalError &) {
  }
  return 0;
}
