/* Device helpers of the benchmark harness (bench/harness_kernels.cu), C-callable. */
#ifndef GP_BENCH_HARNESS_KERNELS_H
#define GP_BENCH_HARNESS_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __CUDACC__
#define GPB_HD __host__ __device__
#else
#define GPB_HD
#endif

/* The value of element i for gpb_fill_random: one formula on host and device, so the
 * CPU and CUDA backends benchmark the same data. */
static inline GPB_HD uint64_t gpb_hash64(uint64_t seed, uint64_t i) {
  uint64_t z = seed * 0x9E3779B97F4A7C15ull + i * 0xD1B54A32D192ED03ull + 0x632BE59BD9B4E019ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/* Fills n elements of gp_dtype `dtype` at device pointer p on `stream` (cudaStream_t);
 * see gpb_fill_random_range for the value ranges. Returns a cudaError_t (0 = success). */
int gpb_cuda_fill(void *p, int dtype, size_t n, uint64_t seed, uint64_t range, void *stream);

#ifdef __cplusplus
}
#endif
#endif
