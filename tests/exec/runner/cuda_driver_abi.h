/* cuda_driver_abi.h - the CUDA driver API types gpu_runner.cpp passes for texture and surface
 * objects, declared by hand so that the build needs no cuda.h (CUDA Driver API reference,
 * "Data types used by CUDA driver": CUDA_ARRAY3D_DESCRIPTOR, CUDA_MEMCPY3D,
 * CUDA_RESOURCE_DESC, CUDA_TEXTURE_DESC and their enums). gpu_abi_check.cpp compares every
 * layout with cuda.h where the toolkit is installed (a static_assert per field). */
#pragma once

#include <cstddef>

namespace ptxmini::exec::cuabi {

using CUdeviceptr = unsigned long long;
using CUarray = void*;

enum : int { kFormatU8 = 0x01, kFormatU16 = 0x02, kFormatU32 = 0x03,
             kFormatS8 = 0x08, kFormatS16 = 0x09, kFormatS32 = 0x0a,
             kFormatF32 = 0x20 };
enum : unsigned { kArrayLayered = 0x01, kArraySurfaceLdst = 0x02, kArrayCubemap = 0x04 };
enum : int { kMemoryHost = 1, kMemoryArray = 3 };
enum : int { kResourceArray = 0, kResourceLinear = 2 };
enum : unsigned { kReadAsInteger = 0x01, kNormalizedCoordinates = 0x02 };
enum : int { kAddressWrap = 0, kAddressClamp = 1, kAddressMirror = 2,
             kAddressBorder = 3 };
enum : int { kFilterPoint = 0, kFilterLinear = 1 };
struct CuArrayDesc3D {  // CUDA_ARRAY3D_DESCRIPTOR
  size_t Width, Height, Depth;
  int Format;
  unsigned NumChannels, Flags;
};
struct CuMemcpy3D {  // CUDA_MEMCPY3D
  size_t srcXInBytes, srcY, srcZ, srcLOD;
  int srcMemoryType;
  const void* srcHost;
  CUdeviceptr srcDevice;
  CUarray srcArray;
  void* reserved0;
  size_t srcPitch, srcHeight;
  size_t dstXInBytes, dstY, dstZ, dstLOD;
  int dstMemoryType;
  void* dstHost;
  CUdeviceptr dstDevice;
  CUarray dstArray;
  void* reserved1;
  size_t dstPitch, dstHeight;
  size_t WidthInBytes, Height, Depth;
};
struct CuResourceDesc {  // CUDA_RESOURCE_DESC
  int resType;
  union {
    struct { CUarray hArray; } array;
    struct { CUdeviceptr devPtr; int format; unsigned numChannels; size_t sizeInBytes; } linear;
    struct { int reserved[32]; } reserved;
  } res;
  unsigned flags;
};
struct CuTextureDesc {  // CUDA_TEXTURE_DESC
  int addressMode[3];
  int filterMode;
  unsigned flags, maxAnisotropy;
  int mipmapFilterMode;
  float mipmapLevelBias, minMipmapLevelClamp, maxMipmapLevelClamp;
  float borderColor[4];
  int reserved[12];
};

}  // namespace ptxmini::exec::cuabi
