/* CPU sorting backend: the order-preserving key transform shared with the CUDA
 * backend, the seed's serial bitonic sort (Program 6.17, Insert_zero / Which_bit /
 * Compare_swap) and a fast LSD radix sort used for GP_SORT_AUTO / GP_SORT_BITONIC. */
#ifndef GP_CPU_SORT_CPU_H
#define GP_CPU_SORT_CPU_H

#include "core/context.h"
#include <stdint.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- the order-preserving transform ---------------------------------------------
 * Every key maps to an unsigned integer of its width whose unsigned order is the
 * documented total order: floats flip all bits when the sign is set, else the sign
 * bit (-NaN < -inf < ... < -0 < +0 < ... < +inf < +NaN); signed integers flip the
 * sign bit; descending complements the result. Sorting these ascending and mapping
 * back sorts the keys. The CUDA kernels use the same formulas. */
static inline uint32_t gp_key32_enc(uint32_t u, gp_dtype t, int desc) {
  if (t == GP_F32) u ^= (u >> 31) ? 0xFFFFFFFFu : 0x80000000u;
  else if (t == GP_I32) u ^= 0x80000000u;
  return desc ? ~u : u;
}
static inline uint32_t gp_key32_dec(uint32_t u, gp_dtype t, int desc) {
  if (desc) u = ~u;
  if (t == GP_F32) u ^= (u >> 31) ? 0x80000000u : 0xFFFFFFFFu;
  else if (t == GP_I32) u ^= 0x80000000u;
  return u;
}
static inline uint64_t gp_key64_enc(uint64_t u, gp_dtype t, int desc) {
  if (t == GP_F64) u ^= (u >> 63) ? ~(uint64_t)0 : (uint64_t)1 << 63;
  else if (t == GP_I64) u ^= (uint64_t)1 << 63;
  return desc ? ~u : u;
}
static inline uint64_t gp_key64_dec(uint64_t u, gp_dtype t, int desc) {
  if (desc) u = ~u;
  if (t == GP_F64) u ^= (u >> 63) ? (uint64_t)1 << 63 : ~(uint64_t)0;
  else if (t == GP_I64) u ^= (uint64_t)1 << 63;
  return u;
}

/* ---- Program 6.17 ------------------------------------------------------------- */
/* Inserts a 0 bit at position `which_bit` of th (the bits at and above it move up). */
static inline size_t gp_bitonic_insert_zero(size_t th, unsigned which_bit) {
  size_t low = th & (((size_t)1 << which_bit) - 1);
  return ((th >> which_bit) << (which_bit + 1)) | low;
}
/* log2 of a power of two. */
static inline unsigned gp_bitonic_which_bit(size_t stage) {
  unsigned b = 0;
  while (((size_t)1 << b) < stage) b++;
  return b;
}

/* The seed's serial bitonic sort (Program 6.17) of n keys, n a power of two, on
 * transformed (unsigned-ordered) keys; `vals` (value_bytes 0, 4 or 8) move along.
 * Compare_swap(list, e1, e2, e1 & bf_sz): increasing when the bit is clear; it swaps
 * only on strict inequality, exactly like the GPU's GP_SORT_BITONIC_SEED kernels, so
 * the two give the same bits, values included. */
void gp_cpu_bitonic_serial_u32(uint32_t *keys, void *vals, int value_bytes, size_t n);
void gp_cpu_bitonic_serial_u64(uint64_t *keys, void *vals, int value_bytes, size_t n);

/* Sorts `nseg` segments of `seg` keys each (nseg * seg keys in all), host memory,
 * arguments already validated. values may be NULL (value_bytes 0). algo SEED needs a
 * power-of-two seg for pairs (checked by the caller); other algos use a stable LSD
 * radix sort (insertion sort for tiny segments). Segments run in parallel (OpenMP).
 * May fail only with GP_ERR_OUT_OF_MEMORY, before touching the data. */
gp_status gp_cpu_sort(gp_context *ctx, gp_dtype key_type, void *keys, int value_bytes,
                      void *values, size_t nseg, size_t seg, gp_order order,
                      gp_sort_algo algo);

#ifdef __cplusplus
}
#endif
#endif
