// huge_param: parameters up to CUDA's 32,764-byte limit. A 32,720-byte by-value struct, then
// a pointer and an int that land past constant-bank offset 0x8000 (c[0x0][0x8200] and on),
// beyond what a positive 16-bit cbank offset reaches: ptxas 13.0 writes them as negative
// offsets (LDC.64 R2, c[0x0][-0x7e00]), the 64 KiB bank wrapping. Indexed reads of the struct
// go through LDC c[0x0][Rx+0x210]; v[8170] is read at a fixed offset past 0x8000.
struct Huge {
  int v[8180];
};
extern "C" __global__ void huge_param(__grid_constant__ const Huge p, int* out, int k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < 8180) out[i] = p.v[i] * 3 + p.v[8179 - i] + p.v[8170] * k;
}
