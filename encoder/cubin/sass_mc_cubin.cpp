//===- encoder/cubin/sass_mc_cubin.cpp - sass-mc -elf and -rewrite ---------------------===//
///
/// \file
/// `-elf`: read the cubin into the model and print it (cubin_dump.cpp).
/// `-rewrite`: read the cubin into the model and write the model back to -o. The reader
/// refuses any section it could not re-encode exactly, so a rewrite that succeeds went
/// through the model, not around it.
//===----------------------------------------------------------------------------------===//
#include "encoder/cubin/cubin_dump.h"
#include "encoder/cubin/cubin_model.h"
#include "encoder/sass_mc_commands.h"

#include <fstream>
#include <iostream>
#include <iterator>

namespace ptxmini::sassmc {

namespace {
std::optional<cubin::Cubin> load(const std::string &path, DiagEngine &diag) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    diag.error("Cannot open input file '" + path + "'");
    return std::nullopt;
  }
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                             std::istreambuf_iterator<char>());
  std::string err;
  auto c = cubin::readCubin(bytes, err);
  if (!c)
    diag.error("'" + path + "' is not a valid cubin: " + err);
  return c;
}
} // namespace

int dumpElf(const Options &opts, std::ostream &out, DiagEngine &diag) {
  auto c = load(opts.input, diag);
  if (!c)
    return DiagEngine::kFailureExitCode;
  cubin::dumpCubin(*c, out);
  return 0;
}

int rewrite(const Options &opts, DiagEngine &diag) {
  auto c = load(opts.input, diag);
  if (!c)
    return DiagEngine::kFailureExitCode;
  std::string err;
  auto bytes = cubin::writeCubin(*c, err);
  if (!bytes) {
    diag.error("cannot write '" + opts.output + "': " + err);
    return DiagEngine::kFailureExitCode;
  }
  std::ofstream out(opts.output, std::ios::binary);
  out.write(reinterpret_cast<const char *>(bytes->data()),
            static_cast<std::streamsize>(bytes->size()));
  if (!out) {
    diag.error("cannot write '" + opts.output + "'");
    return DiagEngine::kFailureExitCode;
  }
  return 0;
}

} // namespace ptxmini::sassmc
