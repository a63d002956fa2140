// Negative test: n is larger than the buffer, so the last threads store past its end; the
// emulator must trap on the first such store instead of corrupting memory.
extern "C" __global__ void oob_store(int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = i;
}
