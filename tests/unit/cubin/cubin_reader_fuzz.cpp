//===- tests/unit/cubin/cubin_reader_fuzz.cpp - libFuzzer target for the cubin reader ---===//
///
/// \file
/// Any byte string: readCubin either fails with a message or returns a model; a model must
/// print (sass-mc -elf's dump) and write back to exactly the input bytes (the round-trip
/// property the rewrite command relies on). When the facts a compiler would know can be read
/// off it, the builder must build and write a cubin from them without crashing.
/// Built only with -DPTXMINI_FUZZ=ON (clang, -fsanitize=fuzzer); run it with real cubins as
/// seeds, e.g.  nice cubin_reader_fuzz -max_total_time=600 corpus_dir/
//===----------------------------------------------------------------------------------===//
#include "encoder/cubin/cubin_builder.h"
#include "encoder/cubin/cubin_dump.h"
#include "tests/unit/cubin/cubin_facts.h"

#include <cstdlib>
#include <sstream>

using namespace ptxmini::cubin;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string err;
  auto c = readCubin(std::span<const uint8_t>(data, size), err);
  if (!c) {
    if (err.empty())
      std::abort(); // a rejection must say why
    return 0;
  }
  std::ostringstream os;
  dumpCubin(*c, os);
  auto w = writeCubin(*c, err);
  if (!w || w->size() != size || !std::equal(w->begin(), w->end(), data))
    std::abort(); // read + write must reproduce the input
  if (auto facts = testing::factsFromCubin(*c, err)) {
    for (auto &f : facts->functions)
      if (f.code.size() > (1u << 20))
        return 0; // keep runs fast; the builder's cost is linear in code size
    if (auto built = buildCubin(*facts, err))
      (void)writeCubin(*built, err);
  }
  return 0;
}
