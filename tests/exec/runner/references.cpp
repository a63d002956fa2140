/* references.cpp - C++ CPU references for the execution tests, one function per test,
 * registered by name in the table at the bottom. Each computes the expected contents of the
 * output buffers from the inputs the same way the kernel's source (kernels/<name>.cu) defines
 * them, written independently in plain C++. Float results that the GPU computes with one
 * rounding (fma) use std::fma so the comparison can be exact. */
#include "tests/exec/runner/test_desc.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

namespace ptxmini::exec {
namespace {

void ref_saxpy(RefCtx& c) {
  int n = static_cast<int>(c.iscalar(0));
  float a = static_cast<float>(c.scalar(1));
  float* x = c.buf<float>("x");
  float* y = c.buf<float>("y");
  for (int i = 0; i < n; ++i) y[i] = std::fma(a, x[i], y[i]);
}

struct Entry {
  const char* name;
  RefFn fn;
};
const Entry kRefs[] = {
    {"saxpy", ref_saxpy},
};

}  // namespace

RefFn find_reference(const std::string& name) {
  for (auto& e : kRefs)
    if (name == e.name) return e.fn;
  return nullptr;
}

std::vector<std::string> reference_names() {
  std::vector<std::string> v;
  for (auto& e : kRefs) v.push_back(e.name);
  return v;
}

}  // namespace ptxmini::exec
