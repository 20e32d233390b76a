/* Device helpers of the benchmark harness (bench/harness_kernels.cu), C-callable. */
#ifndef GP_BENCH_HARNESS_KERNELS_H
#define GP_BENCH_HARNESS_KERNELS_H

#include <math.h>
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

/* Float data of other laws for gpb_fill_dist, element i from three hashes: GPB_NORMAL
 * (Box-Muller in double, then the element type: every float's 24 bits random),
 * GPB_LOGNORMAL (exp(3 z): positive, 1e-6 .. 1e6 and beyond), GPB_WIDE (z * 2^k, k
 * uniform in -30 .. 30: exponents 60 apart, signs mixed). */
enum { GPB_UNIFORM = 0, GPB_NORMAL, GPB_LOGNORMAL, GPB_WIDE, GPB_NDATA };
static inline GPB_HD double gpb_dist_value(int kind, uint64_t seed, uint64_t i) {
  const double u1 = ((double)(gpb_hash64(seed, i) >> 11) + 0.5) * 0x1.0p-53; /* (0, 1) */
  const double u2 = (double)(gpb_hash64(seed ^ 0x5bd1e995ull, i) >> 11) * 0x1.0p-53;
  const double z = sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
  if (kind == GPB_LOGNORMAL) return exp(3.0 * z);
  if (kind == GPB_WIDE) return ldexp(z, (int)(gpb_hash64(seed ^ 0x27d4eb2full, i) % 61) - 30);
  return z;
}

/* Fills n elements of gp_dtype `dtype` at device pointer p on `stream` (cudaStream_t);
 * see gpb_fill_random_range for the value ranges. Returns a cudaError_t (0 = success). */
int gpb_cuda_fill(void *p, int dtype, size_t n, uint64_t seed, uint64_t range, void *stream);
/* The same for F32 (dtype 0) / F64 (1) data of law `kind` (gpb_dist_value). */
int gpb_cuda_fill_dist(void *p, int dtype, size_t n, uint64_t seed, int kind, void *stream);

/* One empty kernel of one warp on `stream`, not waited for (the launch floor of the
 * host bench). Returns a cudaError_t. */
int gpb_cuda_empty(void *stream);
/* one warp that sets *flag = seq (mapped host memory, device pointer) */
int gpb_cuda_flag(void *stream, unsigned *flag, unsigned seq);

#ifdef __cplusplus
}
#endif
#endif
