// Thread-block clusters (sm_90): __cluster_dims__ (CTA_PER_CLUSTER), cluster barrier and
// distributed shared memory through cooperative groups. FRONTENDS: nvcc
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void __cluster_dims__(2, 1, 1) cluster_pair(int *out) {
  __shared__ int smem[32];
  cg::cluster_group cluster = cg::this_cluster();
  unsigned rank = cluster.block_rank();
  if (threadIdx.x < 32) smem[threadIdx.x] = (int)(rank * 100 + threadIdx.x);
  cluster.sync();
  int *peer = cluster.map_shared_rank(smem, rank ^ 1);
  if (threadIdx.x < 32) out[blockIdx.x * 32 + threadIdx.x] = peer[threadIdx.x];
  cluster.sync();
}
