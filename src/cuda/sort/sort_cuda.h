/* C interface of the CUDA sorting kernels (src/cuda/sort/bitonic.cu, bitonic_seed.cu,
 * radix.cu, and merge.cu / dist_split.cu for gp_dist_sort). Arguments arrive validated
 * and in device (or managed) memory; every launch is asynchronous on ctx->stream. */
#ifndef GP_CUDA_SORT_SORT_CUDA_H
#define GP_CUDA_SORT_SORT_CUDA_H

#include "core/context.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* GP_SORT_BITONIC: nseg segments of seg keys each (nseg = 1 for a plain sort), any
 * seg >= 1, keys of key_type, values of value_bytes (0, 4 or 8) moving along. Sorts in
 * place, no scratch. */
gp_status gp_cuda_bitonic_sort(gp_context *ctx, gp_dtype key_type, void *keys,
                               int value_bytes, void *values, size_t nseg, size_t seg,
                               int desc);
/* gp_sort_copy's one-cluster bitonic sort (sm_90+, nseg 1, up to 2^16 keys alone): reads
 * in, writes out sorted; *done = 0 (nothing launched) where it does not apply. */
gp_status gp_cuda_bitonic_sort_copy(gp_context *ctx, gp_dtype key_type, const void *in, void *out,
                                    size_t n, int desc, int *done);

/* GP_SORT_AUTO's sorts and gp_argsort of up to a few thousand keys: one thread-block
 * cluster ranks them (rank_sort.cu; stable, so pairs and argsort too). takes: 1 when it
 * sorts n keys of key_type with value_bytes (0, 4 or 8; argsort: the index bytes) on
 * this GPU (sm_90+, up to the measured crossovers GP_RK_KEYS_LOG2 / GP_RK_PAIRS_LOG2 of
 * radix_policy.h); the sorts must only be called then. In place, no scratch. */
int gp_cuda_rank_sort_takes(gp_context *ctx, gp_dtype key_type, int value_bytes, int argsort,
                            size_t n);
gp_status gp_cuda_rank_sort(gp_context *ctx, gp_dtype key_type, void *keys, int value_bytes,
                            void *values, size_t n, int desc);
gp_status gp_cuda_rank_argsort(gp_context *ctx, gp_dtype key_type, const void *keys,
                               int index_bytes, void *indices, size_t n, int desc);

/* GP_SORT_AUTO's sorts, gp_sort_copy and gp_argsort of a few thousand keys on the whole
 * GPU (grid_rank.cu: every block holds all the keys; stable). takes: 1 when it sorts n
 * keys of key_type with value_bytes (0, 4 or 8; argsort: the index bytes) in that form on
 * this GPU (sm_90+, within GP_GRS_*_MIN / _MAX of radix_policy.h); the sorts must only be
 * called then. The sort (in place) needs gp_cuda_grid_rank_scratch bytes of device
 * scratch; the copy (keys alone, in to out, not overlapping) and the argsort none. */
typedef enum gp_grs_form { GP_GRS_IN_PLACE, GP_GRS_ARGSORT, GP_GRS_COPY } gp_grs_form;
int gp_cuda_grid_rank_takes(gp_context *ctx, gp_dtype key_type, int value_bytes, gp_grs_form form,
                            size_t n);
size_t gp_cuda_grid_rank_scratch(gp_dtype key_type, int value_bytes, size_t n);
gp_status gp_cuda_grid_rank_sort(gp_context *ctx, gp_dtype key_type, void *keys, int value_bytes,
                                 void *values, size_t n, int desc, void *scratch);
gp_status gp_cuda_grid_rank_sort_copy(gp_context *ctx, gp_dtype key_type, const void *in,
                                      void *out, size_t n, int desc);
gp_status gp_cuda_grid_rank_argsort(gp_context *ctx, gp_dtype key_type, const void *keys,
                                    int index_bytes, void *indices, size_t n, int desc);

/* GP_SORT_BITONIC_SEED (Program 6.19, th_per_blk = 1024). A non-power-of-two n is
 * padded with the largest key into `scratch`, which must hold
 * gp_cuda_bitonic_seed_scratch(key_type, n) bytes (0 for a power of two); pairs need
 * a power-of-two n (checked by the caller). */
size_t gp_cuda_bitonic_seed_scratch(gp_dtype key_type, size_t n);
gp_status gp_cuda_bitonic_seed_sort(gp_context *ctx, gp_dtype key_type, void *keys,
                                    int value_bytes, void *values, size_t n, int desc,
                                    void *scratch);

/* GP_SORT_RADIX (radix.cu): stable LSD radix sort of n keys in place, values of
 * value_bytes (0, 4 or 8) moving along. `scratch` must hold
 * gp_cuda_radix_scratch(key_type, value_bytes, n) bytes (0 when n fits one block). */
size_t gp_cuda_radix_scratch(gp_dtype key_type, int value_bytes, size_t n);
/* Stable pairs of 4-byte keys (n < 2^32): the bitonic sort of (encoded key << 32 |
 * index) composites, then the keys decoded and the values gathered from a copy in
 * `scratch` (gp_cuda_composite_pairs_scratch(value_bytes, n) bytes). */
size_t gp_cuda_composite_pairs_scratch(int value_bytes, size_t n);
gp_status gp_cuda_composite_pairs(gp_context *ctx, gp_dtype key_type, void *keys, int value_bytes,
                                  void *values, size_t n, int desc, void *scratch);
/* Scratch enough for any one sort of at most n keys (not monotone in n: see radix.cu). */
size_t gp_cuda_radix_scratch_upto(gp_dtype key_type, int value_bytes, size_t n);
gp_status gp_cuda_radix_sort(gp_context *ctx, gp_dtype key_type, void *keys, int value_bytes,
                             void *values, size_t n, int desc, void *scratch);

/* The stable permutation that sorts `keys` (left unchanged) into `indices` of
 * index_bytes (4 or 8; 4 only for n <= 2^32). scratch: gp_cuda_radix_argsort_scratch. */
size_t gp_cuda_radix_argsort_scratch(gp_dtype key_type, int index_bytes, size_t n);
gp_status gp_cuda_radix_argsort(gp_context *ctx, gp_dtype key_type, const void *keys,
                                int index_bytes, void *indices, size_t n, int desc,
                                void *scratch);

/* Segments [offsets[i], offsets[i+1]) for i < nseg, each sorted stably in place.
 * First gp_cuda_radix_summarize reads the nseg + 1 offsets where they are (host, or
 * device: a kernel and a copy of the summary back, which synchronizes): the first
 * decrease (first_bad, UINT64_MAX if none; then nothing else is filled), n =
 * offsets[nseg], the segments per size class, and in *large (malloc'd, NULL when
 * none; the caller frees it) begin and end of each segment above one tile (above the
 * largest block this GPU's shared memory holds for these keys and value_bytes). Segments
 * of up to one tile take a warp or a block each; the larger ones the device-wide sort,
 * one after another, or (4-byte keys, 16 or more of them) all at once as composites of
 * segment and key; scratch holds gp_cuda_radix_segments_scratch bytes. d_offsets: the
 * offsets in device memory. */
typedef struct gp_cuda_seg_summary {
  uint64_t first_bad, n;
  uint64_t counts[6]; /* segments of 2..32 keys, ..256, ..2048, ..the big block, ..one
                         tile, above a tile (radix.cu's size classes) */
  uint64_t max_large, nlarge;
} gp_cuda_seg_summary;
gp_status gp_cuda_radix_summarize(gp_context *ctx, gp_dtype key_type, int value_bytes,
                                  const uint64_t *offsets, int on_device, size_t nseg,
                                  gp_cuda_seg_summary *summary, uint64_t **large);
size_t gp_cuda_radix_segments_scratch(gp_dtype key_type, int value_bytes, size_t nseg,
                                      const gp_cuda_seg_summary *summary);
gp_status gp_cuda_radix_segments(gp_context *ctx, gp_dtype key_type, void *keys,
                                 int value_bytes, void *values, const uint64_t *d_offsets,
                                 size_t nseg, const gp_cuda_seg_summary *summary,
                                 const uint64_t *large, int desc, void *scratch);

/* gp_dist_sort's exact splitters (dist_split.cu), for nb boundaries over keys sorted by
 * encoded value (ascending, or descending when desc). cur: nb encoded keys being built
 * (start at 0), tgt: nb global target positions, counts: nb * 256, fin: nb * 2, all
 * device uint64. split_counts: counts[b*256 + d] = keys whose encoding is below
 * cur[b] | d << shift; split_pick (after the ranks summed counts): cur[b] |= the largest
 * d whose count is <= tgt[b]; split_final: fin[2b] = keys below cur[b], fin[2b+1] =
 * keys equal to it. */
gp_status gp_cuda_split_counts(gp_context *ctx, gp_dtype key_type, const void *keys, size_t n,
                               int desc, const uint64_t *cur, unsigned nb, unsigned shift,
                               uint64_t *counts);
gp_status gp_cuda_split_pick(gp_context *ctx, uint64_t *cur, const uint64_t *tgt,
                             const uint64_t *counts, unsigned nb, unsigned shift);
gp_status gp_cuda_split_final(gp_context *ctx, gp_dtype key_type, const void *keys, size_t n,
                              int desc, const uint64_t *cur, unsigned nb, uint64_t *fin);

/* The partition path of gp_dist_sort (dist_part.cu), keys alone. gp_cuda_dist_sample
 * writes `slots` samples of the n keys (global positions gbase ..): slot j < s the
 * encoded key and global position at a pseudo-random place of the j-th of s equal
 * strata, slots s .. (~0, ~0). gp_cuda_dist_partition scatters the n keys into out by
 * bucket: bucket b holds the keys whose (encoded key, global position) is at or above
 * splitter b - 1 and below splitter b, splitter i being the sorted sample (skey, spos,
 * `total` of them) at index pick[i] (host array of nranks - 1; >= total: +infinity).
 * Buckets lie in rank order with bucket `me` moved last; bucket_counts (device, nranks)
 * gets their sizes in rank order; scratch holds gp_cuda_dist_partition_scratch bytes.
 * 2 .. 65 ranks. */
gp_status gp_cuda_dist_sample(gp_context *ctx, gp_dtype key_type, const void *keys, size_t n,
                              size_t s, size_t slots, uint64_t gbase, int desc, uint64_t *skey,
                              uint64_t *spos);
size_t gp_cuda_dist_partition_scratch(gp_context *ctx, int nranks, size_t n);
gp_status gp_cuda_dist_partition(gp_context *ctx, gp_dtype key_type, const void *keys, size_t n,
                                 uint64_t gbase, int desc, int nranks, int me,
                                 const uint64_t *skey, const uint64_t *spos, size_t total,
                                 const uint64_t *pick, void *out, uint64_t *bucket_counts,
                                 void *scratch);

/* Stable merge (merge.cu) of the sorted runs src[0, na) and src[na, na + nb) into dst
 * (not overlapping src); values of value_bytes (0, 4 or 8) move along (vsrc -> vdst);
 * ties take the first run. scratch: gp_cuda_merge_scratch(na + nb) bytes. */
size_t gp_cuda_merge_scratch(size_t n);
gp_status gp_cuda_merge(gp_context *ctx, gp_dtype key_type, int value_bytes, int desc,
                        const void *src, const void *vsrc, size_t na, size_t nb, void *dst,
                        void *vdst, void *scratch);

#ifdef __cplusplus
}
#endif
#endif
