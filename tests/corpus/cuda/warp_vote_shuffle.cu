// Warp-level primitives: shuffles (idx, up, down, xor) on int and float, ballot, any/all, and
// popc of a ballot. FRONTENDS: nvcc clang
__global__ void warp_ops(const int *in, const float *fin, int *out, float *fout) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[i];
  float f = fin[i];
  int lane = threadIdx.x & 31;
  int bcast = __shfl_sync(0xffffffffu, v, 0);
  int up = __shfl_up_sync(0xffffffffu, v, 1);
  int down = __shfl_down_sync(0xffffffffu, v, 2);
  float x = __shfl_xor_sync(0xffffffffu, f, 4);
  unsigned b = __ballot_sync(0xffffffffu, v > 0);
  int any = __any_sync(0xffffffffu, v == 7);
  int all = __all_sync(0xffffffffu, v != 0);
  out[i] = bcast + (lane > 0 ? up : 0) + down + __popc(b) + any * 2 + all * 4;
  fout[i] = x + f;
}
