// Indirect calls: virtual functions (vtables: module variables initialized with function
// addresses), a table of device function pointers (also called inside a divergent branch),
// and a module pointer initialized with a variable's generic address (R_CUDA_G64 in
// .rela.nv.global.init).
struct Shape {
  __device__ virtual int area(int x) const { return x + 1; }
};
struct Square : Shape {
  __device__ int area(int x) const override { return x * x; }
};
struct Tri : Shape {
  __device__ int area(int x) const override { return x * 3 - 5; }
};
__device__ int twice_plus7(int x) { return 2 * x + 7; }
__device__ int negate(int x) { return -x; }
__device__ int (*ops[2])(int) = {twice_plus7, negate};
__device__ int gv[4] = {11, 12, 13, 14};
__device__ int *gp = &gv[2];

extern "C" __global__ void call_indirect(const int *in, int *out) {
  int i = threadIdx.x;
  Shape b;
  Square s;
  Tri t;
  const Shape *p = (i % 3 == 0) ? &b : (i % 3 == 1) ? static_cast<const Shape *>(&s) : &t;
  int v = in[i];
  int r = p->area(v) + ops[i & 1](v) + *gp;
  // A call through a pointer inside a divergent branch: values (and the branch's convergence
  // barrier) live across it.
  if (v > 0) r += ops[0](v + i);
  out[i] = r;
}

// A second kernel: with two kernels ptxas calls through the per-kernel table of code
// offsets (.nv.constant2.<kernel>), as ptxas-mini always does.
extern "C" __global__ void call_indirect_other(int *out) { out[threadIdx.x] = ops[0](threadIdx.x); }
