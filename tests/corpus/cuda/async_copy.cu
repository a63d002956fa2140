// Asynchronous copies (sm_80+): cp.async global->shared through the pipeline primitives, with
// commit/wait, then a compute step on shared data. FRONTENDS: nvcc
#include <cuda_pipeline.h>
__global__ void async_stage(const float4 *in, float4 *out, int n) {
  __shared__ float4 tile[128];
  int t = threadIdx.x;
  int i = blockIdx.x * 128 + t;
  if (i < n) __pipeline_memcpy_async(&tile[t], &in[i], sizeof(float4));
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncthreads();
  if (i < n) {
    float4 v = tile[127 - t];
    out[i] = make_float4(v.w, v.z, v.y, v.x);
  }
}
