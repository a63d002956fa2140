//===- ori/fuzz/parse_fuzz.cpp - libFuzzer target for the Ori text parser ---------------===//
///
/// \file
/// Any byte string: the parser must not crash; when it accepts, the printed text must parse
/// again and print identically, and the validator, AnalyzeControlFlow's analyses and
/// liveness must run on whatever CFG the input describes. Build with -DPTXMINI_FUZZ=ON and
/// clang; run `build/bin/ori-parse-fuzz -max_total_time=60 tests/lit/ori/Inputs`.
//===----------------------------------------------------------------------------------===//
#include "ori/analysis/dominators.h"
#include "ori/analysis/liveness.h"
#include "ori/analysis/loops.h"
#include "ori/analysis/rpo.h"
#include "ori/parse.h"
#include "ori/print.h"
#include "ori/validate.h"

#include <cstdlib>
#include <sstream>

using namespace ptxmini;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string_view text(reinterpret_cast<const char *>(data), size);
  std::ostringstream sink;
  DiagEngine diag("fuzz");
  diag.setStream(sink);
  ori::Program p;
  if (!ori::parseProgram(text, "fuzz.ori", diag, p))
    return 0;
  std::string once = ori::toString(p);
  ori::Program p2;
  if (!ori::parseProgram(once, "fuzz2.ori", diag, p2) || ori::toString(p2) != once)
    std::abort();
  for (ori::Function &f : p.functions) {
    (void)ori::validateFunction(f);
    std::vector<uint32_t> rpo = ori::computeRPO(f);
    ori::DomTree dt(f, rpo);
    (void)ori::computeLoops(f, rpo, dt);
    (void)ori::computeLiveness(f);
  }
  return 0;
}
