// Control flow: nested if/else, a switch (possibly a jump table), several early exits, and a
// loop whose exit depends on lane-divergent data (BSSY/BSYNC reconvergence).
// FRONTENDS: nvcc clang
__global__ void branches(const int *in, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int v = in[i];
  if (v < 0) { out[i] = -v; return; }
  int r;
  switch (v & 7) {
    case 0: r = v * 3; break;
    case 1: r = v + 11; break;
    case 2: r = v ^ 0x55; break;
    case 3: r = v >> 1; break;
    case 5: r = v * v; break;
    default: r = 0; break;
  }
  if (r == 0) return;
  int steps = 0;
  while (r != 1 && steps < 1000) { r = (r & 1) ? 3 * r + 1 : r >> 1; ++steps; }
  out[i] = steps;
}
