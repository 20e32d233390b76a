/* GP_SORT_AUTO's sorts of up to a few thousand keys (keys alone, stable pairs, and
 * gp_argsort): a rank sort in one thread-block cluster, one launch, each key read once
 * and written once at its place.
 *
 * Block b of a cluster of C <= 16 blocks holds the chunk of keys b * M .. b * M + M - 1
 * (the last block fewer; pads ~0 after them), L = RK_THREADS / M threads a key.
 * 1. It ranks its chunk stably in shared memory: every key against every other key of
 *    the chunk (the L threads of a key share them), ties by position, and writes the
 *    chunk sorted.
 * 2. A cluster barrier: every chunk is sorted, and every block has read its keys and
 *    values from global memory, so the in-place writes below overwrite nothing unread.
 * 3. It copies the C sorted chunks into its own shared memory (distributed shared memory
 *    reads), then tells the cluster it is done reading them.
 * 4. A key's place in the whole sort is its rank in its chunk plus, for every other
 *    chunk, the count of that chunk's keys that come before it: those <= it in chunks
 *    before its own, those < it in chunks after (a binary search each, the key's L
 *    threads sharing the chunks): the stable order. The key (and value, or index) is
 *    written at its place.
 * 5. The block waits for the cluster before it leaves (its chunk may still be read).
 * Pads rank after every key of their chunk (equal ~0 keys by position) and are never
 * counted: only the last chunk has them, and it is only searched for keys less than
 * the search key. Keys are compared encoded (core/key_codec.h: the library's total
 * order, descending complemented), so the order is the radix sort's bit for bit.
 * The work: M^2 comparisons a block and (log2 M + 1) shared loads per chunk a key,
 * against the bitonic sort's 66 rounds at 2^11 keys, several across the cluster.
 * Clusters need sm_90: device code for older GPUs gets an empty kernel that traps (the
 * host asks the context's arch first). */
#include "cuda/sort/sort_cuda.h"
#include "cuda/sort/radix_policy.h"
#include "cuda/common/cluster_launch.cuh"
#include "cuda/common/per_device.h"
#include "core/key_codec.h"

#include <cooperative_groups.h>
#include <cuda_runtime.h>
#include <stdint.h>

typedef unsigned long long u64;

#define RK_THREADS 1024
#define RK_MAX_BLOCKS 16

enum { RK_KEYS = 0, RK_PAIRS = 1, RK_ARGSORT = 2 };

struct rk_args {
  const void *kin; /* the keys */
  void *kout;      /* the sorted keys (kin: in place); unused by argsort */
  const void *vin; /* pairs: the values */
  void *vout;      /* pairs: the sorted values (vin); argsort: the indices */
  unsigned n;
  gp_key_class kind;
  int desc;
};

template <typename K, int M> struct rk_smem {
  K sorted[M];              /* this chunk sorted: read by the whole cluster */
  K all[RK_MAX_BLOCKS * M]; /* every chunk sorted (the first M: this chunk unsorted, before) */
};

template <typename K, typename V, int MODE, int M>
__global__ void __launch_bounds__(RK_THREADS) rk_sort(rk_args a) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
  __trap();
#else
  constexpr unsigned L = RK_THREADS / M, PER = 16 / sizeof(K), NV = M / (L * PER);
  constexpr unsigned CPL = (RK_MAX_BLOCKS + L - 1) / L; /* chunks a thread searches */
  static_assert(L >= 1 && L <= 32 && (L & (L - 1)) == 0, "a key's threads within a warp");
  static_assert(NV * L * PER == M, "a chunk read in 16-byte vectors, the same number a thread");
  __shared__ __align__(16) rk_smem<K, M> s;
  cooperative_groups::cluster_group cl = cooperative_groups::this_cluster();
  const unsigned C = cl.num_blocks(), b = cl.block_rank();
  const unsigned t = threadIdx.x, j0 = t / L, sub = t % L; /* key j0 of the chunk */
  const unsigned first = b * M, len = min((unsigned)M, a.n - first);
  const bool has = j0 < len;
  const K raw = has ? ((const K *)a.kin)[first + j0] : (K)0;
  const K k = has ? gp_key_enc(raw, a.kind, a.desc) : ~(K)0;
  V v = (V)0;
  if (MODE == RK_PAIRS && has && sub == 0) v = ((const V *)a.vin)[first + j0];
  if (sub == 0) s.all[j0] = k;
  __syncthreads();

  /* 1: the key's stable rank in its chunk, 16 bytes of keys a load; the key's L threads
     read consecutive vectors (distinct banks; the other keys' threads the same ones:
     broadcasts). Threads reading every R-th key instead met 2-4 to a bank (s20-a). */
  unsigned r = 0;
#pragma unroll 4
  for (unsigned q = 0; q < NV; q++) {
    const unsigned vq = q * L + sub;
    union {
      uint4 u;
      K k[PER];
    } x;
    x.u = ((const uint4 *)s.all)[vq];
#pragma unroll
    for (unsigned e = 0; e < PER; e++) {
      const unsigned j = vq * PER + e;
      r += (unsigned)(x.k[e] < k) | ((unsigned)(x.k[e] == k) & (unsigned)(j < j0));
    }
  }
#pragma unroll
  for (unsigned o = L / 2; o > 0; o /= 2) r += __shfl_xor_sync(0xFFFFFFFFu, r, o);
  if (sub == 0) s.sorted[r] = k;
  cl.sync(); /* 2 */

  /* 3: every chunk into this block's shared memory */
  constexpr unsigned W16 = M * sizeof(K) / 16;
  for (unsigned e = t; e < C * W16; e += RK_THREADS) {
    const uint4 *src = (const uint4 *)cl.map_shared_rank(s.sorted, e / W16);
    ((uint4 *)s.all)[e] = src[e % W16];
  }
  __syncthreads();
  asm volatile("barrier.cluster.arrive.release.aligned;" ::: "memory");

  /* 4: the searches, interleaved (a chunk index past C searches the last chunk and is
     not counted) */
  unsigned p[CPL];
  const K *base[CPL];
  bool le[CPL];
#pragma unroll
  for (unsigned q = 0; q < CPL; q++) {
    const unsigned c = min(sub + q * L, C - 1);
    base[q] = s.all + c * M;
    le[q] = c < b;
    p[q] = 0;
  }
#pragma unroll
  for (unsigned st = M / 2; st > 0; st /= 2)
#pragma unroll
    for (unsigned q = 0; q < CPL; q++) {
      const K x = base[q][p[q] + st - 1];
      if (x < k || (le[q] && x == k)) p[q] += st;
    }
  unsigned g = sub == 0 ? r : 0;
#pragma unroll
  for (unsigned q = 0; q < CPL; q++) {
    const K x = base[q][p[q]];
    const unsigned c = sub + q * L;
    const unsigned cnt = p[q] + (unsigned)(x < k || (le[q] && x == k));
    g += c < C && c != b ? cnt : 0u;
  }
#pragma unroll
  for (unsigned o = L / 2; o > 0; o /= 2) g += __shfl_xor_sync(0xFFFFFFFFu, g, o);
  if (has && sub == 0) {
    if (MODE != RK_ARGSORT) ((K *)a.kout)[g] = raw;
    if (MODE == RK_PAIRS) ((V *)a.vout)[g] = v;
    if (MODE == RK_ARGSORT) ((V *)a.vout)[g] = (V)(first + j0);
  }
  asm volatile("barrier.cluster.wait.acquire.aligned;" ::: "memory"); /* 5 */
#endif
}

/* Once per kernel and device: may its clusters have more than 8 blocks (the portable
 * most) on this GPU? A refusal is an answer, not an error to report later. */
template <typename K, typename V, int MODE, int M> static bool rk_big_ok(gp_context *ctx) {
  static unsigned long long asked, big; /* per device: common/per_device.h */
  if (!gp_dev_flag(&asked, ctx->device)) {
    if (cudaFuncSetAttribute(rk_sort<K, V, MODE, M>, cudaFuncAttributeNonPortableClusterSizeAllowed, 1) ==
        cudaSuccess) {
      cudaLaunchAttribute qa;
      const cudaLaunchConfig_t q = gp_cluster_config(&qa, 1, RK_MAX_BLOCKS, RK_THREADS, 0, 0);
      int nc = 0;
      if (cudaOccupancyMaxActiveClusters(&nc, rk_sort<K, V, MODE, M>, &q) == cudaSuccess && nc > 0)
        gp_dev_flag_set(&big, ctx->device);
    }
    (void)cudaGetLastError();
    gp_dev_flag_set(&asked, ctx->device);
  }
  return gp_dev_flag(&big, ctx->device);
}

static unsigned rk_blocks(size_t n, unsigned m) { return (unsigned)((n + m - 1) / m); }

/* Can this GPU run the cluster that sorts n keys in chunks of M? */
template <typename K, typename V, int MODE, int M> static bool rk_fits(gp_context *ctx, size_t n) {
  const unsigned c = rk_blocks(n, M);
  return c <= 8 || (c <= RK_MAX_BLOCKS && rk_big_ok<K, V, MODE, M>(ctx));
}

/* The keys a block (M) for n keys, the smallest chunk whose cluster this GPU can run; 0
 * where the rank sort does not take them (above the measured crossover of the mode, a
 * GPU without clusters, or 2048 < n on one without clusters of 16). */
template <typename K, typename V, int MODE> static unsigned rk_pick(gp_context *ctx, size_t n) {
  const unsigned most_log2 = MODE == RK_KEYS ? GP_RK_KEYS_LOG2 : GP_RK_PAIRS_LOG2;
  if (ctx->info.arch < 90 || n < 2 || n > ((size_t)1 << most_log2)) return 0;
  return rk_fits<K, V, MODE, 64>(ctx, n) ? 64 : rk_fits<K, V, MODE, 128>(ctx, n) ? 128
         : rk_fits<K, V, MODE, 256>(ctx, n) ? 256 : 0;
}

template <typename K, typename V, int MODE, int M>
static gp_status rk_launch(gp_context *ctx, const rk_args &a) {
  const unsigned C = rk_blocks(a.n, M);
  cudaLaunchAttribute attr;
  const cudaLaunchConfig_t cfg = gp_cluster_config(&attr, 1, C, RK_THREADS, 0, (cudaStream_t)ctx->stream);
  GP_CUDA_TRY(ctx, cudaLaunchKernelEx(&cfg, rk_sort<K, V, MODE, M>, a));
  GP_LAUNCH_CHECK(ctx, "rk_sort", C, RK_THREADS, 0);
  return GP_OK;
}

template <typename K, typename V, int MODE>
static gp_status rk_run(gp_context *ctx, const rk_args &a) {
  switch (rk_pick<K, V, MODE>(ctx, a.n)) {
  case 64: return rk_launch<K, V, MODE, 64>(ctx, a);
  case 128: return rk_launch<K, V, MODE, 128>(ctx, a);
  case 256: return rk_launch<K, V, MODE, 256>(ctx, a);
  }
  return gp_fail(ctx, GP_ERR_UNSUPPORTED,
                 "the rank sort does not take %u keys here (a gpuprims bug: AUTO asks "
                 "gp_cuda_rank_sort_takes first); GP_SORT_RADIX sorts them", a.n);
}

extern "C" int gp_cuda_rank_sort_takes(gp_context *ctx, gp_dtype key_type, int value_bytes,
                                       int argsort, size_t n) {
  const bool k8 = gp_dtype_size(key_type) == 8, v8 = value_bytes == 8;
  if (argsort)
    return k8 ? (v8 ? rk_pick<u64, u64, RK_ARGSORT>(ctx, n) : rk_pick<u64, uint32_t, RK_ARGSORT>(ctx, n)) != 0
              : (v8 ? rk_pick<uint32_t, u64, RK_ARGSORT>(ctx, n) : rk_pick<uint32_t, uint32_t, RK_ARGSORT>(ctx, n)) != 0;
  if (!value_bytes)
    return (k8 ? rk_pick<u64, uint32_t, RK_KEYS>(ctx, n) : rk_pick<uint32_t, uint32_t, RK_KEYS>(ctx, n)) != 0;
  return k8 ? (v8 ? rk_pick<u64, u64, RK_PAIRS>(ctx, n) : rk_pick<u64, uint32_t, RK_PAIRS>(ctx, n)) != 0
            : (v8 ? rk_pick<uint32_t, u64, RK_PAIRS>(ctx, n) : rk_pick<uint32_t, uint32_t, RK_PAIRS>(ctx, n)) != 0;
}

extern "C" gp_status gp_cuda_rank_sort(gp_context *ctx, gp_dtype key_type, void *keys, int value_bytes,
                                       void *values, size_t n, int desc) {
  const rk_args a = {keys, keys, values, values, (unsigned)n, gp_key_class_of(key_type), desc};
  const bool k8 = gp_dtype_size(key_type) == 8, v8 = value_bytes == 8;
  if (!value_bytes) return k8 ? rk_run<u64, uint32_t, RK_KEYS>(ctx, a) : rk_run<uint32_t, uint32_t, RK_KEYS>(ctx, a);
  return k8 ? (v8 ? rk_run<u64, u64, RK_PAIRS>(ctx, a) : rk_run<u64, uint32_t, RK_PAIRS>(ctx, a))
            : (v8 ? rk_run<uint32_t, u64, RK_PAIRS>(ctx, a) : rk_run<uint32_t, uint32_t, RK_PAIRS>(ctx, a));
}

extern "C" gp_status gp_cuda_rank_argsort(gp_context *ctx, gp_dtype key_type, const void *keys,
                                          int index_bytes, void *indices, size_t n, int desc) {
  const rk_args a = {keys, NULL, NULL, indices, (unsigned)n, gp_key_class_of(key_type), desc};
  const bool k8 = gp_dtype_size(key_type) == 8, v8 = index_bytes == 8;
  return k8 ? (v8 ? rk_run<u64, u64, RK_ARGSORT>(ctx, a) : rk_run<u64, uint32_t, RK_ARGSORT>(ctx, a))
            : (v8 ? rk_run<uint32_t, u64, RK_ARGSORT>(ctx, a) : rk_run<uint32_t, uint32_t, RK_ARGSORT>(ctx, a));
}
