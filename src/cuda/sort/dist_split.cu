/* Exact splitters for gp_dist_sort: for each output boundary b (global position t_b, the
 * same on every rank) the ranks find, together, the key value K_b at global position
 * t_b by a radix search over the encoded key bits, 8 bits a round, most significant
 * first. A round counts, in this rank's sorted shard, the keys below each of the 256
 * candidates K_b | d << shift (a binary search each: ds_counts); the ranks sum the counts
 * (an NCCL all-reduce, by the caller); ds_pick keeps the largest d whose global count is
 * still <= t_b. After the last round K_b is the largest key with count(< K_b) <= t_b, and
 * ds_final gives this rank's count below K_b and equal to it, from which the host splits
 * the equal keys by rank. No host synchronization until the final counts. */
#include "cuda/sort/sort_cuda.h"
#include "core/key_codec.h"

#include <cuda_runtime.h>
#include <stdint.h>

typedef unsigned long long u64;

#define DS_THREADS 256

/* keys (sorted by encoded value) below `cand`: the first position whose encoded key is
   >= cand (lower bound); strict = 0 gives the first position > cand (upper bound) */
template <typename K>
__device__ __forceinline__ u64 ds_bound(const K *keys, u64 n, K cand, gp_key_class kc,
                                        int desc, int strict) {
  u64 lo = 0, hi = n;
  while (lo < hi) {
    const u64 mid = lo + (hi - lo) / 2;
    const K e = gp_key_enc(keys[mid], kc, desc);
    if (strict ? e < cand : e <= cand) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

template <typename K>
__global__ __launch_bounds__(DS_THREADS) void ds_counts(const K *keys, u64 n, gp_key_class kc,
                                                        int desc, const u64 *cur, unsigned nb,
                                                        unsigned shift, u64 *counts) {
  const u64 g = (u64)blockIdx.x * DS_THREADS + threadIdx.x;
  if (g >= (u64)nb * 256) return;
  const unsigned b = (unsigned)(g / 256), d = (unsigned)(g % 256);
  const K cand = (K)(cur[b] | ((u64)d << shift));
  counts[g] = ds_bound<K>(keys, n, cand, kc, desc, 1);
}

__global__ void ds_pick(u64 *cur, const u64 *tgt, const u64 *counts, unsigned nb,
                        unsigned shift) {
  const unsigned b = blockIdx.x * blockDim.x + threadIdx.x;
  if (b >= nb) return;
  unsigned best = 0; /* d = 0 is cur itself, whose count is <= t by induction */
  for (unsigned d = 1; d < 256; d++)
    if (counts[(u64)b * 256 + d] <= tgt[b]) best = d;
  cur[b] |= (u64)best << shift;
}

template <typename K>
__global__ void ds_final(const K *keys, u64 n, gp_key_class kc, int desc, const u64 *cur,
                         unsigned nb, u64 *fin) {
  const unsigned b = blockIdx.x * blockDim.x + threadIdx.x;
  if (b >= nb) return;
  const K k = (K)cur[b];
  const u64 lt = ds_bound<K>(keys, n, k, kc, desc, 1);
  fin[2 * (u64)b] = lt;
  fin[2 * (u64)b + 1] = ds_bound<K>(keys, n, k, kc, desc, 0) - lt;
}

extern "C" gp_status gp_cuda_split_counts(gp_context *ctx, gp_dtype key_type, const void *keys,
                                          size_t n, int desc, const uint64_t *cur, unsigned nb,
                                          unsigned shift, uint64_t *counts) {
  const gp_key_class kc = gp_key_class_of(key_type);
  const unsigned grid = (nb * 256 + DS_THREADS - 1) / DS_THREADS;
  cudaStream_t st = (cudaStream_t)ctx->stream;
  if (gp_dtype_size(key_type) == 4)
    ds_counts<uint32_t><<<grid, DS_THREADS, 0, st>>>((const uint32_t *)keys, n, kc, desc,
                                                     (const u64 *)cur, nb, shift, (u64 *)counts);
  else
    ds_counts<u64><<<grid, DS_THREADS, 0, st>>>((const u64 *)keys, n, kc, desc,
                                                (const u64 *)cur, nb, shift, (u64 *)counts);
  GP_LAUNCH_CHECK(ctx, "ds_counts", grid, DS_THREADS, 0);
  return GP_OK;
}

extern "C" gp_status gp_cuda_split_pick(gp_context *ctx, uint64_t *cur, const uint64_t *tgt,
                                        const uint64_t *counts, unsigned nb, unsigned shift) {
  const unsigned grid = (nb + 127) / 128;
  ds_pick<<<grid, 128, 0, (cudaStream_t)ctx->stream>>>((u64 *)cur, (const u64 *)tgt,
                                                       (const u64 *)counts, nb, shift);
  GP_LAUNCH_CHECK(ctx, "ds_pick", grid, 128, 0);
  return GP_OK;
}

extern "C" gp_status gp_cuda_split_final(gp_context *ctx, gp_dtype key_type, const void *keys,
                                         size_t n, int desc, const uint64_t *cur, unsigned nb,
                                         uint64_t *fin) {
  const gp_key_class kc = gp_key_class_of(key_type);
  const unsigned grid = (nb + 127) / 128;
  cudaStream_t st = (cudaStream_t)ctx->stream;
  if (gp_dtype_size(key_type) == 4)
    ds_final<uint32_t><<<grid, 128, 0, st>>>((const uint32_t *)keys, n, kc, desc,
                                             (const u64 *)cur, nb, (u64 *)fin);
  else
    ds_final<u64><<<grid, 128, 0, st>>>((const u64 *)keys, n, kc, desc, (const u64 *)cur, nb,
                                        (u64 *)fin);
  GP_LAUNCH_CHECK(ctx, "ds_final", grid, 128, 0);
  return GP_OK;
}
