// A local array indexed with data-dependent indices, which ptxas must keep in local memory
// (the stack, addressed from R1 = c[0x0][0x28]).
extern "C" __global__ void local_array(const int* in, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int a[64];
  for (int j = 0; j < 64; j++) a[j] = in[(i + j) % n] * j;
  int s = 0;
  for (int j = 0; j < 64; j++) s += a[(j * in[i]) & 63];
  out[i] = s;
}
