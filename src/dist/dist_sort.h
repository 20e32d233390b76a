/* gp_dist_sort after the local sorts (src/dist/dist_sort.c): exact splitters, the
 * exchange of buckets and the merge of the received runs. Internal; NCCL builds only. */
#ifndef GP_DIST_DIST_SORT_H
#define GP_DIST_DIST_SORT_H

#include "dist/dist.h"

/* Device workspace one local entry needs for n keys of kb bytes and values of vb bytes
 * (0: none) among nranks ranks: receive buffers, splitter state, merge splits. */
size_t gp_dist_sort_ws_bytes(int nranks, size_t n, int kb, int vb);

/* keys[i] / values[i] (values may be NULL when vb = 0) hold n[i] = all_n[rank0 + i]
 * sorted keys (by encoded value, desc as given) on local entry i's GPU, ws[i] its
 * workspace of gp_dist_sort_ws_bytes. Leaves keys[i] holding its slice of the global
 * order (same count), ties by (key, rank, position). Waits for the ranks. */
gp_status gp_dist_sort_exchange(gp_dist *d, gp_dtype key_type, int vb, void *const *keys,
                                void *const *values, const uint64_t *all_n, int desc,
                                void *const *ws);

/* The partition path (src/dist/dist_psort.c): keys alone over 2 .. 65 ranks; the exchange
 * overlaps the sort of the rank's own bucket. gp_dist_psort_possible says whether it
 * applies; gp_dist_psort_ws_bytes is local entry i's workspace (n its count, all_n every
 * rank's); gp_dist_psort sorts the unsorted shards keys[i] (ws[i] each) so that each
 * holds its slice of the global order, same count. When the sampled buckets would
 * exceed a rank's receive capacity (the same decision on every rank) it sets *fell_back,
 * returns GP_OK and leaves the keys untouched: sort them by the exact path instead. */
int gp_dist_psort_possible(int nranks, int vb);
size_t gp_dist_psort_ws_bytes(gp_context *ctx, gp_dtype key_type, int nranks, size_t n,
                              const uint64_t *all_n);
gp_status gp_dist_psort(gp_dist *d, gp_dtype key_type, void *const *keys, const uint64_t *all_n,
                        int desc, void *const *ws, int *fell_back);

#endif
