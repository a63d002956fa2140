// Warp-wide operations: shuffles (idx/up/down/xor, and a sub-warp width), ballot, any/all,
// match.any, and reduce/activemask inside a divergent branch.
extern "C" __global__ void warp_ops(const int* in, int* out) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x & 31;
  int v = in[g];
  int* o = out + g * 9;
  o[0] = __shfl_sync(0xffffffffu, v, (lane * 7) & 31);
  o[1] = __shfl_up_sync(0xffffffffu, v, 3);
  o[2] = __shfl_down_sync(0xffffffffu, v, 5);
  o[3] = __shfl_xor_sync(0xffffffffu, v, 9);
  o[4] = __ballot_sync(0xffffffffu, v & 1);
  o[5] = __any_sync(0xffffffffu, v > 900) + 2 * __all_sync(0xffffffffu, v >= 0);
  o[6] = __match_any_sync(0xffffffffu, v & 3);
  int s = 0;
  if (v & 1) s = __reduce_add_sync(__activemask(), v) ^ __activemask();
  o[7] = s;
  o[8] = __shfl_down_sync(0xffffffffu, v, 1, 16);
}
