/* gpu_runner.cpp - the CUDA driver API, loaded with dlopen.
 *
 * Only the handful of entry points needed are declared here (signatures from the CUDA Driver
 * API reference; the _v2 names are the ones cuda.h maps the plain names to), so the build
 * needs neither cuda.h nor libcuda. Texture and surface objects of a description are CUDA arrays
 * (linear memory for shape `buffer`) filled from their buffers and copied back after the run.
 * Untested: none of the tasks that wrote it had a GPU. */
#include "tests/exec/runner/gpu_runner.h"

#include "tests/exec/runner/cuda_driver_abi.h"

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
using namespace cuabi;
using CUtexObject = unsigned long long;
using CUsurfObject = unsigned long long;

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
  CUresult (*cuArray3DCreate)(CUarray*, const CuArrayDesc3D*) = nullptr;
  CUresult (*cuArrayDestroy)(CUarray) = nullptr;
  CUresult (*cuMemcpy3D)(const CuMemcpy3D*) = nullptr;
  CUresult (*cuTexObjectCreate)(CUtexObject*, const CuResourceDesc*, const CuTextureDesc*, const void*) = nullptr;
  CUresult (*cuTexObjectDestroy)(CUtexObject) = nullptr;
  CUresult (*cuSurfObjectCreate)(CUsurfObject*, const CuResourceDesc*) = nullptr;
  CUresult (*cuSurfObjectDestroy)(CUsurfObject) = nullptr;

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
              sym(cuCtxSynchronize, "cuCtxSynchronize") && sym(cuGetErrorString, "cuGetErrorString") &&
              sym(cuArray3DCreate, "cuArray3DCreate_v2") && sym(cuArrayDestroy, "cuArrayDestroy") &&
              sym(cuMemcpy3D, "cuMemcpy3D_v2") && sym(cuTexObjectCreate, "cuTexObjectCreate") &&
              sym(cuTexObjectDestroy, "cuTexObjectDestroy") && sym(cuSurfObjectCreate, "cuSurfObjectCreate") &&
              sym(cuSurfObjectDestroy, "cuSurfObjectDestroy");
    if (!ok) msg = "libcuda.so.1 lacks a needed entry point";
    return ok;
  }
  std::string str(CUresult r) {
    const char* s = nullptr;
    if (cuGetErrorString) cuGetErrorString(r, &s);
    return s ? s : "CUDA error " + std::to_string(r);
  }
};

// A description's texture/surface on the device: a CUDA array holding the buffer's texels
// (linear memory for shape `buffer`) and the object over it.
struct DeviceTexture {
  CUarray array = nullptr;
  unsigned long long object = 0;
  bool surface = false;
  CuMemcpy3D back{};  // array -> host copy of the buffer after the run
};

bool format_of(const std::string& f, int& format, unsigned& channels, size_t& elem) {
  std::string base = f.substr(0, f.find('x'));
  channels = f.find('x') == std::string::npos ? 1 : static_cast<unsigned>(std::stoul(f.substr(f.find('x') + 1)));
  static const struct { const char* n; int fmt; size_t bytes; } kFormats[] = {
      {"u8", kFormatU8, 1},   {"s8", kFormatS8, 1},
      {"u16", kFormatU16, 2}, {"s16", kFormatS16, 2},
      {"u32", kFormatU32, 4}, {"s32", kFormatS32, 4},
      {"f32", kFormatF32, 4}};
  for (auto& k : kFormats)
    if (base == k.n) { format = k.fmt; elem = k.bytes * channels; return channels == 1 || channels == 2 || channels == 4; }
  return false;
}

// Creates the array (filled from the host buffer) and the object; false with `msg` set.
bool make_device_texture(Driver& D, const exec::TextureDesc& t, const BufferDesc& b, CUdeviceptr dptr,
                         DeviceTexture& out, std::string& msg) {
  int format;
  unsigned channels;
  size_t elem;
  if (!format_of(t.format, format, channels, elem)) { msg = "texture " + t.name + ": unknown format " + t.format; return false; }
  CuResourceDesc res{};
  out.surface = t.surface;
  const std::string& sh = t.shape;
  if (sh == "buffer") {
    res.resType = kResourceLinear;
    res.res.linear.devPtr = dptr;
    res.res.linear.format = format;
    res.res.linear.numChannels = channels;
    res.res.linear.sizeInBytes = b.data.size();
  } else {
    bool layered = sh == "a1d" || sh == "a2d" || sh == "acube", cube = sh == "cube" || sh == "acube";
    bool oneD = sh == "1d" || sh == "a1d";
    size_t slices = sh == "3d" ? t.depth : cube ? 6 * (sh == "acube" ? t.layers : 1) : layered ? t.layers : 1;
    CuArrayDesc3D ad{};
    ad.Width = t.width;
    ad.Height = oneD ? 0 : t.height;
    ad.Depth = sh == "3d" || layered || cube ? slices : 0;
    ad.Format = format;
    ad.NumChannels = channels;
    ad.Flags = (layered ? kArrayLayered : 0u) | (cube ? kArrayCubemap : 0u) |
               (t.surface ? kArraySurfaceLdst : 0u);
    CUresult r = D.cuArray3DCreate(&out.array, &ad);
    if (r) { msg = "cuArray3DCreate (" + t.name + "): " + D.str(r); return false; }
    CuMemcpy3D in{};
    in.srcMemoryType = kMemoryHost;
    in.srcHost = b.data.data();
    in.srcPitch = t.width * elem;
    in.srcHeight = oneD ? 1 : t.height;
    in.dstMemoryType = kMemoryArray;
    in.dstArray = out.array;
    in.WidthInBytes = t.width * elem;
    in.Height = oneD ? 1 : t.height;
    in.Depth = slices;
    if ((r = D.cuMemcpy3D(&in))) { msg = "cuMemcpy3D (" + t.name + "): " + D.str(r); return false; }
    out.back = in;
    out.back.srcMemoryType = kMemoryArray;
    out.back.srcHost = nullptr;
    out.back.srcArray = out.array;
    out.back.dstMemoryType = kMemoryHost;
    out.back.dstArray = nullptr;
    out.back.dstPitch = in.srcPitch;
    out.back.dstHeight = in.srcHeight;
    res.resType = kResourceArray;
    res.res.array.hArray = out.array;
  }
  CUresult r;
  if (t.surface) {
    r = D.cuSurfObjectCreate(&out.object, &res);
  } else {
    CuTextureDesc td{};
    int mode = t.address == "wrap" ? kAddressWrap : t.address == "mirror" ? kAddressMirror
             : t.address == "border" ? kAddressBorder : kAddressClamp;
    td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = mode;
    td.filterMode = t.linear_filter ? kFilterLinear : kFilterPoint;
    td.flags = (t.read_normalized ? 0u : kReadAsInteger) | (t.normalized_coords ? kNormalizedCoordinates : 0u);
    r = D.cuTexObjectCreate(&out.object, &res, &td, nullptr);
  }
  if (r) { msg = std::string(t.surface ? "cuSurfObjectCreate" : "cuTexObjectCreate") + " (" + t.name + "): " + D.str(r); return false; }
  return true;
}

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
  std::map<std::string, DeviceTexture> dtex;
  for (auto& t : d.textures) {
    DeviceTexture dt;
    if (!make_device_texture(D, t, *d.buffer(t.buffer), dptr[t.buffer], dt, msg)) {
      D.cuCtxDestroy(ctx);
      return GpuStatus::Error;
    }
    dtex[t.name] = dt;
  }
  std::vector<std::vector<uint8_t>> storage;
  std::vector<void*> args;
  storage.reserve(d.params.size());
  for (auto& p : d.params) {
    std::vector<uint8_t> bytes;
    if (p.type == "ptr") {
      bytes.resize(8);
      std::memcpy(bytes.data(), &dptr[p.value], 8);
    } else if (p.type == "tex") {
      bytes.resize(8);
      std::memcpy(bytes.data(), &dtex[p.value].object, 8);
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
  // Array-backed buffers: the array's contents (surface stores) are the buffer's result.
  for (auto& t : d.textures) {
    DeviceTexture& dt = dtex[t.name];
    if (dt.array) {
      auto& out = result[t.buffer];
      dt.back.dstHost = out.data();
      if ((r = D.cuMemcpy3D(&dt.back))) return fail("cuMemcpy3D (array to host)", r);
    }
    if (dt.surface) D.cuSurfObjectDestroy(dt.object);
    else D.cuTexObjectDestroy(dt.object);
    if (dt.array) D.cuArrayDestroy(dt.array);
  }
  D.cuCtxDestroy(ctx);
  return GpuStatus::Ok;
}

}  // namespace ptxmini::exec
