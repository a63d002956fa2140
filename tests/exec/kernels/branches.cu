// Branches and loops with divergence: a data-dependent while loop (Collatz steps), a switch,
// a nested inner loop and an early return.
extern "C" __global__ void branches(const int* in, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int x = in[i];
  unsigned v = x;
  int steps = 0;
  while (v != 1 && steps < 1000) {
    v = (v & 1) ? 3 * v + 1 : v / 2;
    steps++;
  }
  int s = 0;
  switch (x % 5) {
    case 0: s = 10; break;
    case 1: s = steps * 2; break;
    case 2: s = -steps; break;
    case 3:
      for (int j = 0; j < x % 13; j++) s += j * j;
      break;
    default:
      if (x & 8) { out[i] = -1; return; }
      s = x / 3;
  }
  out[i] = steps * 1000 + s;
}
