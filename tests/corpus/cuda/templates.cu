// Templates instantiated for several types and block sizes: several kernels in one module with
// mangled names, which ptxas emits in reverse order. FRONTENDS: nvcc clang
template <typename T, int BS>
__global__ void axpy_t(T a, const T *x, T *y, int n) {
  int i = blockIdx.x * BS + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
template __global__ void axpy_t<float, 128>(float, const float *, float *, int);
template __global__ void axpy_t<double, 256>(double, const double *, double *, int);
template __global__ void axpy_t<int, 64>(int, const int *, int *, int);
