/* Device-side data generation for the benchmarks: a counter-based hash per element
 * (gpb_hash64), so inputs are random-looking, reproducible, and made where they live. */
#include "harness_kernels.h"

#include <cuda_runtime.h>

/* One hash per element, grid-stride; write-bound (n * size bytes), negligible cost. */
__global__ void gpb_fill_kernel(void *p, int dtype, size_t n, uint64_t seed, uint64_t range) {
  size_t stride = (size_t)gridDim.x * blockDim.x;
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    uint64_t h = gpb_hash64(seed, i);
    switch (dtype) {
    case 0: { /* GP_F32: [0, 1) or [0, range) */
      float v = (float)(h >> 40) * 0x1.0p-24f;
      ((float *)p)[i] = range ? v * (float)range : v;
      break;
    }
    case 1: {
      double v = (double)(h >> 11) * 0x1.0p-53;
      ((double *)p)[i] = range ? v * (double)range : v;
      break;
    }
    case 2: ((uint32_t *)p)[i] = (uint32_t)(range ? h % range : h); break;
    case 3: ((uint64_t *)p)[i] = range ? h % range : h; break;
    case 4: ((uint32_t *)p)[i] = (uint32_t)(range ? h % range : h); break;
    default: ((uint64_t *)p)[i] = range ? h % range : h; break;
    }
  }
}

extern "C" int gpb_cuda_fill(void *p, int dtype, size_t n, uint64_t seed, uint64_t range,
                             void *stream) {
  if (n == 0) return 0;
  size_t blocks = (n + 255) / 256;
  if (blocks > 65536) blocks = 65536;
  gpb_fill_kernel<<<(unsigned)blocks, 256, 0, (cudaStream_t)stream>>>(p, dtype, n, seed, range);
  cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) return (int)e;
  return (int)cudaStreamSynchronize((cudaStream_t)stream);
}

__global__ void gpb_fill_dist_kernel(void *p, int dtype, size_t n, uint64_t seed, int kind) {
  size_t stride = (size_t)gridDim.x * blockDim.x;
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    const double v = gpb_dist_value(kind, seed, i);
    if (dtype == 0) ((float *)p)[i] = (float)v;
    else ((double *)p)[i] = v;
  }
}

extern "C" int gpb_cuda_fill_dist(void *p, int dtype, size_t n, uint64_t seed, int kind,
                                  void *stream) {
  if (n == 0) return 0;
  size_t blocks = (n + 255) / 256;
  if (blocks > 65536) blocks = 65536;
  gpb_fill_dist_kernel<<<(unsigned)blocks, 256, 0, (cudaStream_t)stream>>>(p, dtype, n, seed, kind);
  cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) return (int)e;
  return (int)cudaStreamSynchronize((cudaStream_t)stream);
}

__global__ void gpb_empty_kernel() {}

extern "C" int gpb_cuda_empty(void *stream) {
  gpb_empty_kernel<<<1, 32, 0, (cudaStream_t)stream>>>();
  return (int)cudaGetLastError();
}

/* one warp whose thread 0 raises a flag in mapped host memory: the floor under a result
   that the kernel itself announces to a host polling for it */
__global__ void gpb_flag_kernel(unsigned *flag, unsigned seq) {
  if (threadIdx.x == 0) {
    __threadfence_system();
    *(volatile unsigned *)flag = seq;
  }
}

extern "C" int gpb_cuda_flag(void *stream, unsigned *flag, unsigned seq) {
  gpb_flag_kernel<<<1, 32, 0, (cudaStream_t)stream>>>(flag, seq);
  return (int)cudaGetLastError();
}
