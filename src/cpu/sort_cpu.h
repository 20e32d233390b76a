/* CPU sorting backend: the seed's serial bitonic sort (Program 6.17, Insert_zero /
 * Which_bit / Compare_swap) for GP_SORT_BITONIC_SEED, and the parallel stable radix sort
 * (radix_cpu.c) for every other algo, argsort and offset segments, both on keys encoded
 * by core/key_codec.h. */
#ifndef GP_CPU_SORT_CPU_H
#define GP_CPU_SORT_CPU_H

#include "core/context.h"
#include "core/key_codec.h"
#include <stdint.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The seed's serial bitonic sort (Program 6.17) of n keys, n a power of two, on
 * transformed (unsigned-ordered) keys; `vals` (value_bytes 0, 4 or 8) move along.
 * Compare_swap(list, e1, e2, e1 & bf_sz): increasing when the bit is clear; it swaps
 * only on strict inequality, exactly like the GPU's GP_SORT_BITONIC_SEED kernels, so
 * the two give the same bits, values included. */
void gp_cpu_bitonic_serial_u32(uint32_t *keys, void *vals, int value_bytes, size_t n);
void gp_cpu_bitonic_serial_u64(uint64_t *keys, void *vals, int value_bytes, size_t n);

/* Sorts `nseg` segments of `seg` keys each (nseg * seg keys in all), host memory,
 * arguments already validated. values may be NULL (value_bytes 0). algo SEED with one
 * segment runs Program 6.17 (pairs need a power-of-two seg, checked by the caller);
 * everything else the parallel stable radix sort of radix_cpu.c (OpenMP), whose bits
 * do not depend on the thread count. May fail only with GP_ERR_OUT_OF_MEMORY, before
 * touching the data. */
gp_status gp_cpu_sort(gp_context *ctx, gp_dtype key_type, void *keys, int value_bytes,
                      void *values, size_t nseg, size_t seg, gp_order order,
                      gp_sort_algo algo);

/* The stable permutation that sorts the n keys (keys unchanged): indices (index_type
 * GP_U32 or GP_U64) receives, for each output rank, the input position of its key;
 * equal keys keep their input order. Host memory, arguments already validated. May
 * fail only with GP_ERR_OUT_OF_MEMORY, before writing indices. */
gp_status gp_cpu_argsort(gp_context *ctx, gp_dtype key_type, const void *keys,
                         gp_dtype index_type, void *indices, size_t n, gp_order order);

/* Sorts nseg segments in place, segment i being keys [offsets[i], offsets[i+1]) (keys
 * outside every segment untouched), stable, values (value_bytes 0, 4 or 8) moving with
 * their keys. Host memory, arguments already validated (offsets non-decreasing). May
 * fail only with GP_ERR_OUT_OF_MEMORY, before touching the data. */
gp_status gp_cpu_sort_offsets(gp_context *ctx, gp_dtype key_type, void *keys,
                              int value_bytes, void *values, const uint64_t *offsets,
                              size_t nseg, gp_order order);

#ifdef __cplusplus
}
#endif
#endif
