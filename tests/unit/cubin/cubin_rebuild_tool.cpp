//===- tests/unit/cubin/cubin_rebuild_tool.cpp - rebuild a ptxas cubin from its facts -===//
///
/// \file
/// Test-only command:  cubin-rebuild IN.cubin [-o OUT.cubin]
/// Reads a ptxas cubin, takes the facts a compiler would know (tests/unit/cubin/
/// cubin_facts.h), builds a cubin from them with the builder (encoder/cubin/cubin_builder.h)
/// and prints "IDENTICAL" or one "DIFF: ..." line per differing part. -o writes the built
/// cubin (tests open it with cuobjdump and nvdisasm). Exit status 0 when the build succeeded
/// (identical or not), 1 on error.
//===----------------------------------------------------------------------------------===//
#include "tests/unit/cubin/cubin_facts.h"

#include <fstream>
#include <iostream>
#include <iterator>

using namespace ptxmini::cubin;

int main(int argc, char **argv) {
  std::string in, out;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "-o" && i + 1 < argc)
      out = argv[++i];
    else
      in = a;
  }
  if (in.empty()) {
    std::cerr << "usage: cubin-rebuild IN.cubin [-o OUT.cubin]\n";
    return 1;
  }
  std::ifstream f(in, std::ios::binary);
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  std::string err;
  auto ref = readCubin(bytes, err);
  if (!ref) {
    std::cerr << "cubin-rebuild: " << in << ": " << err << "\n";
    return 1;
  }
  auto facts = testing::factsFromCubin(*ref, err);
  if (!facts) {
    std::cerr << "cubin-rebuild: " << in << ": facts: " << err << "\n";
    return 1;
  }
  auto built = buildCubin(*facts, err);
  if (!built) {
    std::cerr << "cubin-rebuild: build: " << err << "\n";
    return 1;
  }
  auto builtBytes = writeCubin(*built, err);
  if (!builtBytes) {
    std::cerr << "cubin-rebuild: write: " << err << "\n";
    return 1;
  }
  if (!out.empty()) {
    std::ofstream o(out, std::ios::binary);
    o.write(reinterpret_cast<const char *>(builtBytes->data()),
            static_cast<std::streamsize>(builtBytes->size()));
  }
  auto diffs = testing::diffCubins(*ref, bytes, *built, *builtBytes);
  if (diffs.empty())
    std::cout << "IDENTICAL\n";
  for (const auto &d : diffs)
    std::cout << "DIFF: " << d << "\n";
  return 0;
}
