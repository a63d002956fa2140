// sm_90a-only instructions (setmaxnreg): the 'a' target marker in .nv.compat.
__global__ void __launch_bounds__(384) regs(float *o) {
  if (threadIdx.x < 128) {
    asm volatile("setmaxnreg.dec.sync.aligned.u32 40;");
  } else {
    asm volatile("setmaxnreg.inc.sync.aligned.u32 232;");
  }
  o[threadIdx.x] = threadIdx.x;
}
