//===- encoder/cubin/fuzz/reader_fuzz.cpp - libFuzzer target for the cubin reader -------===//
///
/// \file
/// Any byte string: readCubin must not crash; when it accepts, the model must write, the
/// written bytes must read again, and writing that second model must give the same bytes
/// (the writer is a fixed point on its own output). Build with -DPTXMINI_FUZZ=ON and clang;
/// seed with real cubins: `build/bin/cubin-read-fuzz -max_total_time=600 DIR_OF_CUBINS`.
//===----------------------------------------------------------------------------------===//
#include "encoder/cubin/cubin_model.h"

#include <cstdlib>

using namespace ptxmini;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string err;
  auto model = cubin::readCubin(std::span<const uint8_t>(data, size), err);
  if (!model)
    return 0;
  auto once = cubin::writeCubin(*model, err);
  if (!once)
    return 0; // a model the writer refuses (inconsistent facts) is reported, not written
  auto again = cubin::readCubin(*once, err);
  if (!again)
    std::abort(); // the writer produced bytes its own reader rejects
  auto twice = cubin::writeCubin(*again, err);
  if (!twice || *twice != *once)
    std::abort(); // not a fixed point
  return 0;
}
