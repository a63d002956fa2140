// Launch geometry: blockDim/gridDim (constant bank 0 at 0x0..0x14, as the emulator lays it out
// from what ptxas's code reads) and 3D thread/block indices.
extern "C" __global__ void dims(int* out) {
  int bid = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  int tid = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  int g = bid * (blockDim.x * blockDim.y * blockDim.z) + tid;
  out[g * 3 + 0] = blockDim.x * 1000000 + blockDim.y * 10000 + blockDim.z * 100 + gridDim.x * 10 + gridDim.y + gridDim.z * 7;
  out[g * 3 + 1] = threadIdx.x * 10000 + threadIdx.y * 100 + threadIdx.z;
  out[g * 3 + 2] = blockIdx.x * 10000 + blockIdx.y * 100 + blockIdx.z;
}
