// Texture and surface objects through the CUDA API as real code uses them (nvcc's own PTX):
// tex2D<float4> with normalized coordinates and wrap addressing, tex1Dfetch<float4> from
// linear memory, and surf2Dread / surf2Dwrite<uchar4> in place. The 16 x 8 sizes keep every
// coordinate exact in float ((x + 0.5) / 16 * 2 - 0.5 needs no rounding).
#include <cuda_runtime.h>

extern "C" __global__ void tex_cuda(float4* out, cudaTextureObject_t tex2d, cudaTextureObject_t texbuf,
                         cudaSurfaceObject_t surf, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  float u = (x + 0.5f) / w, v = (y + 0.5f) / h;
  float4 a = tex2D<float4>(tex2d, u * 2.0f - 0.5f, v);
  float4 b = tex1Dfetch<float4>(texbuf, y * w + x);
  out[y * w + x] = make_float4(a.x + b.x, a.y - b.y, a.z, b.w);
  uchar4 c = surf2Dread<uchar4>(surf, x * 4, y);
  surf2Dwrite(make_uchar4(c.w, c.z, c.y, c.x), surf, x * 4, y);
}
