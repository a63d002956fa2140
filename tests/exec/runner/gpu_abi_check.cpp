/* gpu_abi_check.cpp - compares the hand-declared driver API types of cuda_driver_abi.h with
 * cuda.h, field by field (built only where cuda.h is installed; see tests/exec/CMakeLists.txt).
 * A layout mistake there would hand the driver garbage on a GPU run that no CPU test sees. */
#include "tests/exec/runner/cuda_driver_abi.h"

#include <cuda.h>

#include <cstddef>
#include <cstdio>

namespace A = ptxmini::exec::cuabi;

#define SAME_LAYOUT(Ours, Theirs) static_assert(sizeof(A::Ours) == sizeof(Theirs), #Ours " size")
#define SAME_FIELD(Ours, Theirs, f) \
  static_assert(offsetof(A::Ours, f) == offsetof(Theirs, f) && sizeof(A::Ours::f) == sizeof(Theirs::f), #Ours "::" #f)

SAME_LAYOUT(CuArrayDesc3D, CUDA_ARRAY3D_DESCRIPTOR);
SAME_FIELD(CuArrayDesc3D, CUDA_ARRAY3D_DESCRIPTOR, Width);
SAME_FIELD(CuArrayDesc3D, CUDA_ARRAY3D_DESCRIPTOR, Height);
SAME_FIELD(CuArrayDesc3D, CUDA_ARRAY3D_DESCRIPTOR, Depth);
SAME_FIELD(CuArrayDesc3D, CUDA_ARRAY3D_DESCRIPTOR, Format);
SAME_FIELD(CuArrayDesc3D, CUDA_ARRAY3D_DESCRIPTOR, NumChannels);
SAME_FIELD(CuArrayDesc3D, CUDA_ARRAY3D_DESCRIPTOR, Flags);

SAME_LAYOUT(CuMemcpy3D, CUDA_MEMCPY3D);
SAME_FIELD(CuMemcpy3D, CUDA_MEMCPY3D, srcXInBytes);
SAME_FIELD(CuMemcpy3D, CUDA_MEMCPY3D, srcLOD);
SAME_FIELD(CuMemcpy3D, CUDA_MEMCPY3D, srcMemoryType);
SAME_FIELD(CuMemcpy3D, CUDA_MEMCPY3D, srcHost);
SAME_FIELD(CuMemcpy3D, CUDA_MEMCPY3D, srcDevice);
SAME_FIELD(CuMemcpy3D, CUDA_MEMCPY3D, srcArray);
SAME_FIELD(CuMemcpy3D, CUDA_MEMCPY3D, srcPitch);
SAME_FIELD(CuMemcpy3D, CUDA_MEMCPY3D, srcHeight);
SAME_FIELD(CuMemcpy3D, CUDA_MEMCPY3D, dstXInBytes);
SAME_FIELD(CuMemcpy3D, CUDA_MEMCPY3D, dstMemoryType);
SAME_FIELD(CuMemcpy3D, CUDA_MEMCPY3D, dstHost);
SAME_FIELD(CuMemcpy3D, CUDA_MEMCPY3D, dstArray);
SAME_FIELD(CuMemcpy3D, CUDA_MEMCPY3D, dstPitch);
SAME_FIELD(CuMemcpy3D, CUDA_MEMCPY3D, dstHeight);
SAME_FIELD(CuMemcpy3D, CUDA_MEMCPY3D, WidthInBytes);
SAME_FIELD(CuMemcpy3D, CUDA_MEMCPY3D, Height);
SAME_FIELD(CuMemcpy3D, CUDA_MEMCPY3D, Depth);

SAME_LAYOUT(CuResourceDesc, CUDA_RESOURCE_DESC);
SAME_FIELD(CuResourceDesc, CUDA_RESOURCE_DESC, resType);
SAME_FIELD(CuResourceDesc, CUDA_RESOURCE_DESC, flags);
static_assert(offsetof(A::CuResourceDesc, res.array.hArray) == offsetof(CUDA_RESOURCE_DESC, res.array.hArray));
static_assert(offsetof(A::CuResourceDesc, res.linear.devPtr) == offsetof(CUDA_RESOURCE_DESC, res.linear.devPtr));
static_assert(offsetof(A::CuResourceDesc, res.linear.format) == offsetof(CUDA_RESOURCE_DESC, res.linear.format));
static_assert(offsetof(A::CuResourceDesc, res.linear.numChannels) ==
              offsetof(CUDA_RESOURCE_DESC, res.linear.numChannels));
static_assert(offsetof(A::CuResourceDesc, res.linear.sizeInBytes) ==
              offsetof(CUDA_RESOURCE_DESC, res.linear.sizeInBytes));

SAME_LAYOUT(CuTextureDesc, CUDA_TEXTURE_DESC);
SAME_FIELD(CuTextureDesc, CUDA_TEXTURE_DESC, addressMode);
SAME_FIELD(CuTextureDesc, CUDA_TEXTURE_DESC, filterMode);
SAME_FIELD(CuTextureDesc, CUDA_TEXTURE_DESC, flags);
SAME_FIELD(CuTextureDesc, CUDA_TEXTURE_DESC, maxAnisotropy);
SAME_FIELD(CuTextureDesc, CUDA_TEXTURE_DESC, borderColor);

static_assert(int(A::kFormatU8) == int(CU_AD_FORMAT_UNSIGNED_INT8) && int(A::kFormatS8) == int(CU_AD_FORMAT_SIGNED_INT8) &&
              int(A::kFormatU16) == int(CU_AD_FORMAT_UNSIGNED_INT16) &&
              int(A::kFormatS16) == int(CU_AD_FORMAT_SIGNED_INT16) &&
              int(A::kFormatU32) == int(CU_AD_FORMAT_UNSIGNED_INT32) &&
              int(A::kFormatS32) == int(CU_AD_FORMAT_SIGNED_INT32) && int(A::kFormatF32) == int(CU_AD_FORMAT_FLOAT));
static_assert(int(A::kArrayLayered) == int(CUDA_ARRAY3D_LAYERED) && int(A::kArraySurfaceLdst) == int(CUDA_ARRAY3D_SURFACE_LDST) &&
              int(A::kArrayCubemap) == int(CUDA_ARRAY3D_CUBEMAP));
static_assert(int(A::kMemoryHost) == int(CU_MEMORYTYPE_HOST) && int(A::kMemoryArray) == int(CU_MEMORYTYPE_ARRAY));
static_assert(int(A::kResourceArray) == int(CU_RESOURCE_TYPE_ARRAY) && int(A::kResourceLinear) == int(CU_RESOURCE_TYPE_LINEAR));
static_assert(int(A::kReadAsInteger) == int(CU_TRSF_READ_AS_INTEGER) &&
              int(A::kNormalizedCoordinates) == int(CU_TRSF_NORMALIZED_COORDINATES));
static_assert(int(A::kAddressWrap) == int(CU_TR_ADDRESS_MODE_WRAP) && int(A::kAddressClamp) == int(CU_TR_ADDRESS_MODE_CLAMP) &&
              int(A::kAddressMirror) == int(CU_TR_ADDRESS_MODE_MIRROR) &&
              int(A::kAddressBorder) == int(CU_TR_ADDRESS_MODE_BORDER));
static_assert(int(A::kFilterPoint) == int(CU_TR_FILTER_MODE_POINT) && int(A::kFilterLinear) == int(CU_TR_FILTER_MODE_LINEAR));

int main() {
  std::puts("cuda_driver_abi.h matches cuda.h");
  return 0;
}
