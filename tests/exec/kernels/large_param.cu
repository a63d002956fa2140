// large_param: a 20000-byte by-value struct parameter. Past KPARAM_INFO's 14-bit size field, so
// ptxas describes the parameters with EIATTR_KPARAM_INFO_V2 (the pointer lands at offset 0x4e20),
// and past the pre-CUDA-12.1 4 KiB limit; indexed reads of the parameter block become
// LDC c[0x0][Rx+0x210]. The description passes the struct with `param blob`.
struct Big {
  int v[5000];
};
extern "C" __global__ void large_param(__grid_constant__ const Big p, int* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < 5000) out[i] = p.v[i] * 3 + p.v[4999 - i];
}
