// Warp-wide and atomic instructions, a cluster kernel (COOP_GROUP_*, INT_WARP_WIDE_*,
// CTA_PER_CLUSTER, EXPLICIT_CLUSTER).
__global__ void warp(int *o) {
  unsigned m = __ballot_sync(0xffffffff, threadIdx.x & 1);
  o[threadIdx.x] = __shfl_sync(0xffffffff, (int)m, 3);
  atomicAdd(o, 1);
}
__global__ void __cluster_dims__(2, 1, 1) clus(float *o) { o[threadIdx.x] = 1.f; }
__global__ void fp64(double *o, double x) { o[threadIdx.x] = x / (threadIdx.x + 1.0); }
