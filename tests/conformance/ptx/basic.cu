#include <cuda_fp16.h>
__global__ void saxpy(int n, float a, const float* x, float* y){ int i=blockIdx.x*blockDim.x+threadIdx.x; if(i<n) y[i]=a*x[i]+y[i]; }
__global__ void reduce(const float* in, float* out, int n){ __shared__ float s[256]; int t=threadIdx.x; float v=0; for(int i=blockIdx.x*256+t;i<n;i+=gridDim.x*256) v+=in[i]; s[t]=v; __syncthreads(); for(int k=128;k>0;k>>=1){ if(t<k) s[t]+=s[t+k]; __syncthreads(); } if(t==0) atomicAdd(out,s[0]); }
__global__ void warp(float* a, int* b){ float v=a[threadIdx.x]; for(int o=16;o>0;o/=2) v+=__shfl_down_sync(0xffffffff,v,o); unsigned m=__ballot_sync(0xffffffff,v>0); b[threadIdx.x]=__popc(m)+__clz(m)+__ffs(m); a[threadIdx.x]=v; }
__global__ void dbl(double* a, double b, int n){ int i=threadIdx.x; if(i<n){ double x=a[i]; a[i]=sqrt(x)*b+exp(x)/x; } }
__global__ void fmath(float* a){ int i=threadIdx.x; float x=a[i]; a[i]=sinf(x)+cosf(x)*expf(x)+logf(x)+rsqrtf(x)+powf(x,2.5f)+tanhf(x); }
__global__ void intops(int* a, unsigned* b, long long* c){ int i=threadIdx.x; int x=a[i]; unsigned y=b[i]; a[i]=x/7+x%13+(x>>3)+(y<<5)+min(x,(int)y)+max(x,3)+abs(x); b[i]=y/x+__brev(y)+__byte_perm(y,x,0x4321); c[i]=(long long)x*y + c[i]/x; }
__global__ void half_k(__half* h, __half2* h2){ int i=threadIdx.x; h[i]=__hadd(h[i],__hmul(h[i],h[i+1])); h2[i]=__hfma2(h2[i],h2[i+1],h2[i+2]); }
__global__ void conv(float* f, int* i, double* d, unsigned char* c, short* s){ int t=threadIdx.x; f[t]=(float)i[t]+(float)d[t]; i[t]=(int)f[t+1]+(int)d[t+1]; d[t]=(double)f[t+2]+(double)i[t+2]; c[t]=(unsigned char)f[t]; s[t]=(short)i[t+3]; }
__global__ void atom(int* a, unsigned* b, float* f, unsigned long long* u){ int t=threadIdx.x; atomicAdd(a,t); atomicMax(a+1,t); atomicCAS(a+2,t,t+1); atomicExch(b,t); atomicAnd(b+1,t); atomicOr(b+2,t); atomicXor(b+3,t); atomicInc(b+4,t); float r=atomicAdd(f,1.0f); u[t]=atomicAdd(u+1,(unsigned long long)r); }
__global__ void local(int* a, int n){ int buf[64]; for(int i=0;i<64;i++) buf[i]=a[i*n]; a[threadIdx.x]=buf[a[0]&63]; }
__global__ void sel(float* a, int* b){ int t=threadIdx.x; float x=a[t]; int y=b[t]; a[t]= x>0.5f? fminf(x,2.0f): fmaxf(x,-1.0f); b[t]= (y&0xff)|(y^0x55)? y: ~y; if(isnan(x)) b[t]=1; }
__global__ void sh(float* out){ __shared__ float tile[32][33]; int x=threadIdx.x,y=threadIdx.y; tile[y][x]=out[y*32+x]; __syncthreads(); out[x*32+y]=tile[x][y]; __syncwarp(); out[0]=__ldg(out+5); }
