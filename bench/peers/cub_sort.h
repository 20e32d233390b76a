/* Peers for the sort suite: cub::DeviceRadixSort::SortKeys and
 * cub::DeviceSegmentedSort::SortKeys on a device buffer (bench/peers/cub_sort.cu),
 * callable from C. Compiled only with CUDA. */
#ifndef GP_BENCH_PEERS_CUB_SORT_H
#define GP_BENCH_PEERS_CUB_SORT_H

#include <stddef.h>

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
/* Enqueues the sort on stream. Asynchronous. */
int gpb_cub_sort_run(gpb_cub_sort *r, void *stream);
void gpb_cub_sort_destroy(gpb_cub_sort *r);

#ifdef __cplusplus
}
#endif
#endif
