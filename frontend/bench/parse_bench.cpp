//===- frontend/bench/parse_bench.cpp - parse+check throughput and peak memory ----------===//
///
/// \file
/// A benchmark, not a test: `ptx-parse-bench [-arch=sm_90a] [-v] [-no-direct] file.ptx...` parses and
/// checks each file with the frontend (diagnostics discarded unless -v) and prints, per
/// file, its size, the wall and CPU time of parseFile, MB/s of CPU time (the machines are
/// shared, so wall time is noisy), whether it was accepted, and at the end
/// the process's peak resident memory (getrusage). For a per-file memory figure run it on
/// one file at a time; compare with `/usr/bin/time -v ptxas -arch=compute_90 file.ptx`.
//===----------------------------------------------------------------------------------===//
#include "frontend/frontend.h"
#include "frontend/ptx_ast.h"

#include <sys/resource.h>

#include <chrono>
#include <ctime>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <sstream>

using namespace ptxmini;

int main(int argc, char **argv) {
  frontend::FrontendOptions opts;
  opts.arch = "sm_90a";
  bool verbose = false;
  double totalBytes = 0, totalSec = 0, totalCpu = 0;
  unsigned ok = 0, files = 0;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a.rfind("-arch=", 0) == 0) {
      opts.arch = a.substr(6);
      continue;
    }
    if (a == "-v") {
      verbose = true;
      continue;
    }
    if (a == "-no-direct") { // every statement through the parse tree (ptx_parse.cpp)
      opts.directStatements = false;
      continue;
    }
    std::ostringstream sink;
    DiagEngine diag("ptxas-mini");
    if (!verbose)
      diag.setStream(sink);
    std::error_code ec;
    auto size = std::filesystem::file_size(a, ec);
    if (ec) { // an unreadable input or an unknown option is not a file of -1 bytes
      std::fprintf(stderr, "ptx-parse-bench: cannot read '%s': %s\n", a.c_str(),
                   ec.message().c_str());
      return 2;
    }
    double bytes = static_cast<double>(size);
    auto t0 = std::chrono::steady_clock::now();
    std::clock_t c0 = std::clock();
    bool accepted = false;
    try {
      auto m = frontend::parseFile(a, opts, diag);
      accepted = m != nullptr;
      frontend::destroyModule(m.release());
    } catch (const FatalError &) {
    }
    double sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    double cpu = double(std::clock() - c0) / CLOCKS_PER_SEC;
    ++files;
    ok += accepted;
    totalBytes += bytes;
    totalSec += sec;
    totalCpu += cpu;
    std::printf("%-5s %10.0f bytes wall %7.3f s cpu %7.3f s %7.2f MB/s(cpu)  %s\n",
                accepted ? "ok" : "FAIL", bytes, sec, cpu, bytes / 1e6 / (cpu > 0 ? cpu : 1e-9),
                a.c_str());
  }
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  std::printf("files %u accepted %u total %.1f MB, wall %.3f s, cpu %.3f s = %.2f MB/s (cpu), "
              "peak RSS %.1f MB\n",
              files, ok, totalBytes / 1e6, totalSec, totalCpu,
              totalBytes / 1e6 / (totalCpu > 0 ? totalCpu : 1e-9), ru.ru_maxrss / 1024.0);
  return ok == files ? 0 : 1;
}
