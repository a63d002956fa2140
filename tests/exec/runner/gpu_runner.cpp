/* gpu_runner.cpp - the CUDA driver API, loaded with dlopen.
 *
 * Only the handful of entry points needed are declared here (signatures from the CUDA Driver
 * API reference; the _v2 names are the ones cuda.h maps the plain names to), so the build
 * needs neither cuda.h nor libcuda. Untested in this task: no GPU was available. */
#include "tests/exec/runner/gpu_runner.h"

#include <dlfcn.h>

#include <cstring>

namespace ptxmini::exec {
namespace {

using CUresult = int;
using CUdevice = int;
using CUcontext = void*;
using CUmodule = void*;
using CUfunction = void*;
using CUstream = void*;
using CUdeviceptr = unsigned long long;

struct Driver {
  void* h = nullptr;
  CUresult (*cuInit)(unsigned) = nullptr;
  CUresult (*cuDeviceGetCount)(int*) = nullptr;
  CUresult (*cuDeviceGet)(CUdevice*, int) = nullptr;
  CUresult (*cuCtxCreate)(CUcontext*, unsigned, CUdevice) = nullptr;
  CUresult (*cuCtxDestroy)(CUcontext) = nullptr;
  CUresult (*cuModuleLoadData)(CUmodule*, const void*) = nullptr;
  CUresult (*cuModuleGetFunction)(CUfunction*, CUmodule, const char*) = nullptr;
  CUresult (*cuMemAlloc)(CUdeviceptr*, size_t) = nullptr;
  CUresult (*cuMemFree)(CUdeviceptr) = nullptr;
  CUresult (*cuMemcpyHtoD)(CUdeviceptr, const void*, size_t) = nullptr;
  CUresult (*cuMemcpyDtoH)(void*, CUdeviceptr, size_t) = nullptr;
  CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, CUstream,
                             void**, void**) = nullptr;
  CUresult (*cuCtxSynchronize)() = nullptr;
  CUresult (*cuGetErrorString)(CUresult, const char**) = nullptr;

  template <class F> bool sym(F& f, const char* name) {
    f = reinterpret_cast<F>(dlsym(h, name));
    return f != nullptr;
  }
  bool load(std::string& msg) {
    h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!h) { msg = std::string("no CUDA driver (dlopen libcuda.so.1: ") + dlerror() + ")"; return false; }
    bool ok = sym(cuInit, "cuInit") && sym(cuDeviceGetCount, "cuDeviceGetCount") && sym(cuDeviceGet, "cuDeviceGet") &&
              sym(cuCtxCreate, "cuCtxCreate_v2") && sym(cuCtxDestroy, "cuCtxDestroy_v2") &&
              sym(cuModuleLoadData, "cuModuleLoadData") && sym(cuModuleGetFunction, "cuModuleGetFunction") &&
              sym(cuMemAlloc, "cuMemAlloc_v2") && sym(cuMemFree, "cuMemFree_v2") && sym(cuMemcpyHtoD, "cuMemcpyHtoD_v2") &&
              sym(cuMemcpyDtoH, "cuMemcpyDtoH_v2") && sym(cuLaunchKernel, "cuLaunchKernel") &&
              sym(cuCtxSynchronize, "cuCtxSynchronize") && sym(cuGetErrorString, "cuGetErrorString");
    if (!ok) msg = "libcuda.so.1 lacks a needed entry point";
    return ok;
  }
  std::string str(CUresult r) {
    const char* s = nullptr;
    if (cuGetErrorString) cuGetErrorString(r, &s);
    return s ? s : "CUDA error " + std::to_string(r);
  }
};

}  // namespace

GpuStatus run_on_gpu(const std::string& cubin, const TestDesc& d, std::map<std::string, std::vector<uint8_t>>& result,
                     std::string& msg) {
  Driver D;
  if (!D.load(msg)) return GpuStatus::NoGpu;
  CUresult r = D.cuInit(0);
  int n = 0;
  if (r != 0 || D.cuDeviceGetCount(&n) != 0 || n == 0) {
    msg = "no GPU device (cuInit: " + D.str(r) + ")";
    return GpuStatus::NoGpu;
  }
  std::vector<uint8_t> image;
  {
    FILE* f = std::fopen(cubin.c_str(), "rb");
    if (!f) { msg = "cannot read " + cubin; return GpuStatus::Error; }
    uint8_t buf[65536];
    size_t k;
    while ((k = std::fread(buf, 1, sizeof buf, f)) > 0) image.insert(image.end(), buf, buf + k);
    std::fclose(f);
  }
  CUdevice dev;
  CUcontext ctx = nullptr;
  auto fail = [&](const char* what, CUresult e) {
    msg = std::string(what) + ": " + D.str(e);
    if (ctx) D.cuCtxDestroy(ctx);
    return GpuStatus::Error;
  };
  if ((r = D.cuDeviceGet(&dev, 0))) return fail("cuDeviceGet", r);
  if ((r = D.cuCtxCreate(&ctx, 0, dev))) return fail("cuCtxCreate", r);
  CUmodule mod;
  CUfunction fn;
  if ((r = D.cuModuleLoadData(&mod, image.data()))) return fail("cuModuleLoadData", r);
  if ((r = D.cuModuleGetFunction(&fn, mod, d.kernel.c_str()))) return fail("cuModuleGetFunction", r);
  std::map<std::string, CUdeviceptr> dptr;
  for (auto& b : d.buffers) {
    CUdeviceptr p;
    size_t sz = std::max<size_t>(b.data.size(), 1);
    if ((r = D.cuMemAlloc(&p, sz))) return fail("cuMemAlloc", r);
    if (!b.data.empty() && (r = D.cuMemcpyHtoD(p, b.data.data(), b.data.size()))) return fail("cuMemcpyHtoD", r);
    dptr[b.name] = p;
  }
  std::vector<std::vector<uint8_t>> storage;
  std::vector<void*> args;
  storage.reserve(d.params.size());
  for (auto& p : d.params) {
    std::vector<uint8_t> bytes;
    if (p.type == "ptr") {
      bytes.resize(8);
      std::memcpy(bytes.data(), &dptr[p.value], 8);
    } else if (p.type == "blob") {
      const BufferDesc* b = d.buffer(p.value);
      if (!b) {
        msg = "no buffer " + p.value + " for a blob parameter";
        return GpuStatus::Error;
      }
      bytes = b->data;
    } else if (!encode_scalar(p.type, p.value, bytes, msg)) {
      return GpuStatus::Error;
    }
    storage.push_back(bytes);
  }
  for (auto& s : storage) args.push_back(s.data());
  if ((r = D.cuLaunchKernel(fn, d.grid[0], d.grid[1], d.grid[2], d.block[0], d.block[1], d.block[2], d.dynamic_shared,
                            nullptr, args.data(), nullptr)))
    return fail("cuLaunchKernel", r);
  if ((r = D.cuCtxSynchronize())) return fail("kernel execution", r);
  for (auto& b : d.buffers) {
    auto& out = result[b.name];
    out.resize(b.data.size());
    if (!out.empty() && (r = D.cuMemcpyDtoH(out.data(), dptr[b.name], out.size()))) return fail("cuMemcpyDtoH", r);
    D.cuMemFree(dptr[b.name]);
  }
  D.cuCtxDestroy(ctx);
  return GpuStatus::Ok;
}

}  // namespace ptxmini::exec
