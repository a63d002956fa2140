// Local memory: a per-thread array indexed with run-time indices cannot live in registers, so
// it gets a stack frame (FRAME_SIZE) and LDL/STL. FRONTENDS: nvcc clang
__global__ void local_array(const int *idx, const float *in, float *out, int n) {
  float tmp[64];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  for (int k = 0; k < 64; ++k) tmp[k] = in[(i + k) % n];
  float s = 0.0f;
  for (int k = 0; k < 16; ++k) s += tmp[idx[i * 16 + k] & 63];
  out[i] = s;
}
