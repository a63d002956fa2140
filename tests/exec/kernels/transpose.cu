// Tiled matrix transpose through padded static shared memory: 2D grid and 2D blocks
// (threadIdx.y, blockIdx.y), bounds checks on ragged edges, a barrier between the phases.
#define T 16
extern "C" __global__ void transpose(const float* in, float* out, int w, int h) {
  __shared__ float tile[T][T + 1];
  int x = blockIdx.x * T + threadIdx.x, y = blockIdx.y * T + threadIdx.y;
  if (x < w && y < h) tile[threadIdx.y][threadIdx.x] = in[y * w + x];
  __syncthreads();
  x = blockIdx.y * T + threadIdx.x;
  y = blockIdx.x * T + threadIdx.y;
  if (x < h && y < w) out[y * h + x] = tile[threadIdx.x][threadIdx.y];
}
