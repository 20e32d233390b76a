// Standalone probe kernels for scripts/ncu_models.sh: the two shared-memory patterns
// the library ships no kernel for, so ncu can hold the bank model against them:
// cuda-samples reduce1 (interleaved addressing with a strided index, 2*s*tid) and a
// plain strided load a[tid*S]. Build: nvcc -arch=sm_90 -O3 -o model_probe model_probe.cu
// Run:   model_probe STRIDE   (launches each kernel once on 4096 blocks of 256)
#include <cstdio>
#include <cstdlib>

#define PB 256

// reduce1: i = 2*s*tid; the active threads are contiguous (no divergence past one
// warp), but warp 0's lanes hit words 2*s*k: 2-, 4-, then 8-way bank conflicts.
__global__ void __launch_bounds__(PB) probe_interleaved_strided(const float *in, float *out) {
  __shared__ float sdata[PB];
  unsigned tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * PB + tid];
  __syncthreads();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    unsigned i = 2 * s * tid;
    if (i < blockDim.x) sdata[i] += sdata[i + s];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];
}

// a[tid * S]: one conflict-free store of the tile, then one strided load per thread.
__global__ void __launch_bounds__(PB) probe_stride(const float *in, float *out, unsigned S) {
  __shared__ float buf[PB * 32];
  unsigned tid = threadIdx.x;
  for (unsigned k = 0; k < 32; k++) buf[k * PB + tid] = in[blockIdx.x * PB + tid] + k;
  __syncthreads();
  out[blockIdx.x * PB + tid] = buf[(tid * S) % (PB * 32)];
}

int main(int argc, char **argv) {
  unsigned S = argc > 1 ? (unsigned)atoi(argv[1]) : 2;
  const unsigned blocks = 4096;
  float *in, *out;
  if (cudaMalloc(&in, blocks * PB * sizeof(float)) || cudaMalloc(&out, blocks * PB * sizeof(float))) {
    fprintf(stderr, "model_probe: cudaMalloc failed\n");
    return 1;
  }
  cudaMemset(in, 0, blocks * PB * sizeof(float));
  probe_interleaved_strided<<<blocks, PB>>>(in, out);
  probe_stride<<<blocks, PB>>>(in, out, S);
  cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) {
    fprintf(stderr, "model_probe: %s\n", cudaGetErrorString(e));
    return 1;
  }
  printf("model_probe: ok (stride %u)\n", S);
  return 0;
}
