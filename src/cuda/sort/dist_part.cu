/* The partition path of gp_dist_sort (keys alone; src/dist/dist_psort.c): samples of each
 * shard, and the partition of the unsorted shard into one bucket per rank by splitters
 * picked from the sorted samples. Keys compare as (encoded key, global position), so
 * equal keys are split between ranks like any others and the buckets stay balanced
 * whatever the data. */
#include "cuda/sort/sort_cuda.h"
#include "core/key_codec.h"
#include "core/psort_math.h"

#include <cuda_runtime.h>
#include <stdint.h>

typedef unsigned long long u64;

#define DP_THREADS 256
#define DP_MAXP (GP_PS_MAX_RANKS - 1) /* splitters a block keeps in shared memory */

/* Slot j < s holds the sample of stratum j: a pseudo-random position in
 * [j n / s, (j + 1) n / s); slots s .. slots-1 hold (~0, ~0), which sorts last. */
template <typename K>
__global__ void dp_sample(const K *keys, u64 n, u64 s, u64 slots, u64 gbase, gp_key_class kc,
                          int desc, u64 *skey, u64 *spos) {
  for (u64 j = (u64)blockIdx.x * blockDim.x + threadIdx.x; j < slots;
       j += (u64)gridDim.x * blockDim.x) {
    if (j < s) {
      const u64 pos = gp_ps_sample_pos(j, n, s, gbase);
      skey[j] = (u64)gp_key_enc(keys[pos], kc, desc);
      spos[j] = gbase + pos;
    } else {
      skey[j] = ~0ull;
      spos[j] = ~0ull;
    }
  }
}

struct dp_args {
  const void *keys;
  u64 n, gbase, chunk; /* each block takes keys [blk * chunk, (blk + 1) * chunk) */
  gp_key_class kc;
  int desc;
  unsigned nb;         /* splitters: ranks - 1 */
  const u64 *skey, *spos;
  u64 total;           /* sorted samples at skey/spos */
  u64 pick[DP_MAXP];   /* splitter i: the sorted sample at pick[i] (>= total: +infinity) */
  u64 *blk_counts;     /* [gridDim.x][nb + 1] */
};

/* Splitter i is the sorted sample at index a.pick[i] (>= the sample count: +infinity). */
__device__ __forceinline__ void dp_load_splitters(const dp_args &a, uint64_t *sk, uint64_t *sp) {
  for (unsigned i = threadIdx.x; i < a.nb; i += blockDim.x) {
    const u64 k = a.pick[i];
    sk[i] = k < a.total ? a.skey[k] : ~0ull;
    sp[i] = k < a.total ? a.spos[k] : ~0ull;
  }
  __syncthreads();
}

template <typename K> __global__ __launch_bounds__(DP_THREADS) void dp_count(dp_args a) {
  __shared__ uint64_t sk[DP_MAXP], sp[DP_MAXP];
  __shared__ unsigned cnt[DP_MAXP + 1];
  dp_load_splitters(a, sk, sp);
  for (unsigned b = threadIdx.x; b <= a.nb; b += blockDim.x) cnt[b] = 0;
  __syncthreads();
  const u64 lo = (u64)blockIdx.x * a.chunk, hi = lo + a.chunk < a.n ? lo + a.chunk : a.n;
  const K *keys = (const K *)a.keys;
  for (u64 i = lo + threadIdx.x; i < hi; i += DP_THREADS) {
    const u64 e = (u64)gp_key_enc(keys[i], a.kc, a.desc);
    atomicAdd(&cnt[gp_ps_bucket(e, a.gbase + i, sk, sp, a.nb)], 1u);
  }
  __syncthreads();
  for (unsigned b = threadIdx.x; b <= a.nb; b += blockDim.x)
    a.blk_counts[(u64)blockIdx.x * (a.nb + 1) + b] = cnt[b];
}

/* One thread per bucket: the blocks' starts within their bucket, buckets laid out in
 * rank order except this rank's (me), which comes last; totals to bucket_counts[b]. */
__global__ void dp_scan(u64 *blk_counts, unsigned blocks, unsigned p, unsigned me,
                        u64 *bucket_counts) {
  __shared__ u64 tot[DP_MAXP + 1];
  const unsigned b = threadIdx.x;
  if (b < p) {
    u64 t = 0;
    for (unsigned k = 0; k < blocks; k++) {
      const u64 c = blk_counts[(u64)k * p + b];
      blk_counts[(u64)k * p + b] = t;
      t += c;
    }
    tot[b] = t;
    bucket_counts[b] = t;
  }
  __syncthreads();
  if (b < p) {
    u64 start = 0;
    for (unsigned r = 0; r < p; r++)
      if (r != me && (b == me || r < b)) start += tot[r];
    for (unsigned k = 0; k < blocks; k++) blk_counts[(u64)k * p + b] += start;
  }
}

template <typename K> __global__ __launch_bounds__(DP_THREADS) void dp_scatter(dp_args a, K *out) {
  __shared__ uint64_t sk[DP_MAXP], sp[DP_MAXP];
  __shared__ unsigned long long cur[DP_MAXP + 1];
  dp_load_splitters(a, sk, sp);
  for (unsigned b = threadIdx.x; b <= a.nb; b += blockDim.x)
    cur[b] = a.blk_counts[(u64)blockIdx.x * (a.nb + 1) + b];
  __syncthreads();
  const unsigned lane = threadIdx.x & 31;
  const u64 lo = (u64)blockIdx.x * a.chunk, hi = lo + a.chunk < a.n ? lo + a.chunk : a.n;
  const K *keys = (const K *)a.keys;
  /* warp-uniform trips: the ballots need every lane */
  for (u64 base = lo + (threadIdx.x - lane); base < hi; base += DP_THREADS) {
    const u64 i = base + lane;
    const bool ok = i < hi;
    K k = 0;
    unsigned b = ~0u;
    if (ok) {
      k = keys[i];
      b = gp_ps_bucket((u64)gp_key_enc(k, a.kc, a.desc), a.gbase + i, sk, sp, a.nb);
    }
    for (unsigned c = 0; c <= a.nb; c++) {
      const unsigned m = __ballot_sync(0xFFFFFFFFu, b == c);
      if (!m) continue;
      const unsigned leader = __ffs(m) - 1;
      u64 at = 0;
      if (lane == leader) at = atomicAdd(&cur[c], (unsigned long long)__popc(m));
      at = __shfl_sync(0xFFFFFFFFu, at, leader);
      if (b == c) out[at + __popc(m & ((1u << lane) - 1))] = k;
    }
  }
}

extern "C" gp_status gp_cuda_dist_sample(gp_context *ctx, gp_dtype key_type, const void *keys,
                                         size_t n, size_t s, size_t slots, uint64_t gbase,
                                         int desc, uint64_t *skey, uint64_t *spos) {
  if (slots == 0) return GP_OK;
  const gp_key_class kc = gp_key_class_of(key_type);
  u64 grid = (slots + DP_THREADS - 1) / DP_THREADS;
  if (grid > 4096) grid = 4096;
  cudaStream_t st = (cudaStream_t)ctx->stream;
  if (gp_dtype_size(key_type) == 4)
    dp_sample<uint32_t><<<(unsigned)grid, DP_THREADS, 0, st>>>(
        (const uint32_t *)keys, n, s, slots, gbase, kc, desc, (u64 *)skey, (u64 *)spos);
  else
    dp_sample<u64><<<(unsigned)grid, DP_THREADS, 0, st>>>((const u64 *)keys, n, s, slots, gbase,
                                                          kc, desc, (u64 *)skey, (u64 *)spos);
  GP_LAUNCH_CHECK(ctx, "dp_sample", grid, DP_THREADS, 0);
  return GP_OK;
}

static unsigned dp_blocks(gp_context *ctx, size_t n) {
  const unsigned sms = ctx->info.sm_count > 0 ? (unsigned)ctx->info.sm_count : 1;
  u64 b = (n + 4095) / 4096;
  if (b > (u64)sms * 8) b = (u64)sms * 8;
  return b ? (unsigned)b : 1;
}

extern "C" size_t gp_cuda_dist_partition_scratch(gp_context *ctx, int nranks, size_t n) {
  return (size_t)dp_blocks(ctx, n) * (size_t)nranks * sizeof(u64);
}

extern "C" gp_status gp_cuda_dist_partition(gp_context *ctx, gp_dtype key_type, const void *keys,
                                            size_t n, uint64_t gbase, int desc, int nranks,
                                            int me, const uint64_t *skey, const uint64_t *spos,
                                            size_t total, const uint64_t *pick, void *out,
                                            uint64_t *bucket_counts, void *scratch) {
  if (nranks < 2 || nranks > DP_MAXP + 1)
    return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT, "the partition path takes 2 .. %d ranks, not %d",
                   DP_MAXP + 1, nranks);
  const unsigned p = (unsigned)nranks, blocks = dp_blocks(ctx, n);
  cudaStream_t st = (cudaStream_t)ctx->stream;
  u64 *blk = (u64 *)scratch;
  dp_args a;
  a.keys = keys;
  a.n = n;
  a.gbase = gbase;
  a.chunk = (n + blocks - 1) / blocks;
  a.kc = gp_key_class_of(key_type);
  a.desc = desc;
  a.nb = p - 1;
  a.skey = (const u64 *)skey;
  a.spos = (const u64 *)spos;
  for (unsigned i = 0; i + 1 < p; i++) a.pick[i] = pick[i];
  a.total = total;
  a.blk_counts = blk;
  const bool four = gp_dtype_size(key_type) == 4;
  if (four) dp_count<uint32_t><<<blocks, DP_THREADS, 0, st>>>(a);
  else dp_count<u64><<<blocks, DP_THREADS, 0, st>>>(a);
  GP_LAUNCH_CHECK(ctx, "dp_count", blocks, DP_THREADS, 0);
  dp_scan<<<1, 128, 0, st>>>(blk, blocks, p, (unsigned)me, (u64 *)bucket_counts);
  GP_LAUNCH_CHECK(ctx, "dp_scan", 1, 128, 0);
  if (four) dp_scatter<uint32_t><<<blocks, DP_THREADS, 0, st>>>(a, (uint32_t *)out);
  else dp_scatter<u64><<<blocks, DP_THREADS, 0, st>>>(a, (u64 *)out);
  GP_LAUNCH_CHECK(ctx, "dp_scatter", blocks, DP_THREADS, 0);
  return GP_OK;
}
