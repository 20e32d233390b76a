/* Peers for the sort suite: cub::DeviceRadixSort::SortKeys / SortPairs and
 * cub::DeviceSegmentedSort::SortKeys (fixed sizes or given offsets) on device buffers
 * (bench/peers/cub_sort.cu), callable from C. Compiled only with CUDA. */
#ifndef GP_BENCH_PEERS_CUB_SORT_H
#define GP_BENCH_PEERS_CUB_SORT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gpb_cub_sort gpb_cub_sort;

/* Prepares a sort of n keys of gp_dtype `dtype` from device d_in to device d_out
 * (CUB sorts out of place, so the input needs no restoring between runs): a radix sort
 * of all n keys when seg is 0, else n / seg segments of seg keys (DeviceSegmentedSort,
 * offsets built here). desc: descending. Temporary storage and the offsets are
 * allocated here, once, outside any timed region. Returns a cudaError_t (0: success). */
int gpb_cub_sort_create(gpb_cub_sort **r, int dtype, const void *d_in, void *d_out,
                        size_t n, size_t seg, int desc);
/* A radix sort of n (key, value) pairs, keys d_in -> d_out, values of value_bytes (4 or
 * 8) d_vin -> d_vout (DeviceRadixSort::SortPairs, stable). With d_vin an iota this is
 * what torch.argsort runs. */
int gpb_cub_sort_pairs_create(gpb_cub_sort **r, int dtype, const void *d_in, void *d_out,
                              int value_bytes, const void *d_vin, void *d_vout, size_t n,
                              int desc);
/* nseg segments of n keys given by nseg + 1 uint64 offsets in device memory (segment i
 * is [d_offsets[i], d_offsets[i+1])): DeviceSegmentedSort::SortKeys with begin =
 * d_offsets, end = d_offsets + 1. The offsets are the caller's (not freed here). */
int gpb_cub_sort_offsets_create(gpb_cub_sort **r, int dtype, const void *d_in, void *d_out,
                                size_t n, const uint64_t *d_offsets, size_t nseg, int desc);
/* Enqueues the sort on stream. Asynchronous. */
int gpb_cub_sort_run(gpb_cub_sort *r, void *stream);
void gpb_cub_sort_destroy(gpb_cub_sort *r);

#ifdef __cplusplus
}
#endif
#endif
