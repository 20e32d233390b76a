/* CUDA backend of gp_topk's radix select (topk.cu): the k smallest (key, index) pairs of
 * core/topk.h's keys, found without sorting all n, and the decoding of their keys back
 * to values. src/api/topk.c sorts the k pairs and copies them out. Internal; C-callable.
 * (The full-sort path's encode/gather entries stay in reduce_cuda.h.) */
#ifndef GP_CUDA_TOPK_H
#define GP_CUDA_TOPK_H

#include "core/context.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* gp_topk on CUDA selects by radix for 1 <= k <= n / GP_CUDA_TOPK_SELECT_DIV and sorts all
 * n (key, index) pairs above that. The select's own cost is ~2 reads of the input; what
 * grows with k is the sort of the k selected pairs (twice, 64-bit index keys then the
 * element keys), which passes the full sort's cost near k = n / 3; 16 keeps the select
 * where it wins clearly and its scratch small. */
#define GP_CUDA_TOPK_SELECT_DIV 16

/* The select's prefilter (n >= GP_CUDA_TOPK_PRE_MIN_N and k small against n): the keys of
 * GP_CUDA_TOPK_SAMPLE elements, element floor(j * n / GP_CUDA_TOPK_SAMPLE) for j = 0 ..
 * GP_CUDA_TOPK_SAMPLE - 1, are ranked on the GPU; one read of the input copies every
 * element whose key is at most the sample's key of rank gp_cuda_topk_pre_rank(n, k) into
 * a candidate buffer, and the radix rounds run on those alone when there are at least k
 * of them and they fit (on random data ~4k + 17 n / GP_CUDA_TOPK_SAMPLE, so ~1 read of
 * the input in all, where the rounds from the input take 2-3); otherwise on the input as
 * without it. The answer is the same either way. */
#define GP_CUDA_TOPK_SAMPLE 4096
#ifndef GP_CUDA_TOPK_PRE_MIN_N
#define GP_CUDA_TOPK_PRE_MIN_N ((size_t)1 << 20)
#endif

/* The sample rank of the prefilter's threshold for n elements and k wanted, or -1 where
 * the select runs without one. */
int gp_cuda_topk_pre_rank(size_t n, size_t k);

/* Device scratch (bytes, 256-byte aligned inside) that gp_cuda_topk_select needs on ctx's
 * GPU for n elements of `type`: the select's state and histograms (under 300 KiB) and two
 * candidate buffers of n/8 and n/64 (key, index) pairs, each plus the slack of the warps'
 * chunks (up to 4.3M pairs on 132 SMs): about n * (size + 8) * 9/64 bytes + 2 * 52 MB for
 * large n (560 MB for 2^28 f32), less below 2^24. */
size_t gp_cuda_topk_select_scratch_bytes(const gp_context *ctx, gp_dtype type, size_t n);

/* Radix select, most significant digit first, on the composite (key, index) of
 * core/topk.h's key of each of the n >= 2 elements at device-accessible d_in and its
 * position: the k (1 <= k <= n) smallest composites, i.e. the k smallest keys with ties
 * at the k-th key going to the lowest indices. d_keys (k keys of the type's width) and
 * d_idx (k positions) get them in no particular order (pair j's key with index j). All
 * rounds run on ctx's stream without synchronizing (each kernel reads the previous
 * round's result from the scratch). scratch: gp_cuda_topk_select_scratch_bytes bytes of
 * device memory, 256-byte aligned; once the stream has run the launches, its first 8
 * bytes hold the number of pairs written, k (anything else is an internal error the
 * caller reports), and the next 8 the slots of the prefilter's buffer that the rounds
 * read (candidates and sentinels; 0: they read the input). Deterministic: the set is
 * fixed by the input, whatever the order in which blocks write it. */
gp_status gp_cuda_topk_select(gp_context *ctx, gp_dtype type, const void *d_in, size_t n,
                              size_t k, int largest, void *scratch, void *d_keys,
                              uint64_t *d_idx);

/* In place: k keys of core/topk.h (largest: as encoded for GP_DESCENDING) at d_keys
 * become the elements' bits again (the encoding is a bijection). Async. */
gp_status gp_cuda_topk_decode(gp_context *ctx, gp_dtype type, int largest, void *d_keys,
                              size_t k);

#ifdef __cplusplus
}
#endif
#endif
