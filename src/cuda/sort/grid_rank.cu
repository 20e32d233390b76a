/* GP_SORT_AUTO's sorts of a few thousand keys (keys alone, stable pairs, gp_argsort)
 * on the whole GPU: every block copies all n keys into its shared memory, and each key's
 * place is counted against every other key by L threads of one block (L = n / 128
 * rounded up to a power of two, at most 32): the keys below it, and the equal keys
 * before it (stable). n^2 comparisons over n / (256 / L) blocks (128 at 2^11), so
 * every SM takes part; no sorting network, no cluster barrier, one read of the keys a
 * block (from L2 after the first) and one write a key.
 *
 * Keys and pairs are sorted in place, so no key may be written before every block has
 * read them all: a cooperative launch (every block resident at once) waits for the
 * whole grid between the loads and the writes (cooperative_groups grid sync); where the
 * GPU cannot hold the grid at once (e.g. a small MIG slice), the ranking kernel writes
 * the sorted keys (and values) to scratch and a copy kernel, a programmatic dependent
 * launch (common/pdl.cuh), waits for it and copies them back (H200, s26-b: ~2 us more
 * than the grid sync at 2^11). An argsort writes its indices at once. Keys are compared
 * encoded (core/key_codec.h: the library's total order, descending complemented), so
 * the order is the radix sort's bit for bit. */
#include "cuda/sort/sort_cuda.h"
#include "cuda/sort/radix_policy.h"
#include "cuda/common/pdl.cuh"
#include "cuda/common/per_device.h"
#include "cuda/common/resident.cuh"
#include "core/key_codec.h"

#include <cooperative_groups.h>
#include <cuda_runtime.h>
#include <stdint.h>

typedef unsigned long long u64;

#define GRS_THREADS 256

enum { GRS_KEYS = 0, GRS_PAIRS = 1, GRS_ARGSORT = 2 };

struct grs_args {
  const void *kin; /* the keys */
  void *kout;      /* keys and pairs: the sorted keys (the keys themselves, or scratch) */
  const void *vin; /* pairs: the values */
  void *vout;      /* pairs: the sorted values (the values, or scratch); argsort: the indices */
  unsigned n;
  unsigned lanes; /* threads a key: a power of two, 1 .. 32 */
  gp_key_class kind;
  int desc;
};

/* s[0 .. np) = the encoded keys, np = n rounded up to 16 bytes, pads ~0 after them (a
 * pad never counts: it is not below any key, and it follows every key it equals) */
template <typename K>
__device__ __forceinline__ void grs_load(K *s, const K *kin, unsigned n, unsigned np,
                                         gp_key_class kind, int desc) {
  constexpr unsigned PER = 16 / sizeof(K);
  const unsigned t = threadIdx.x;
  if (((uintptr_t)kin & 15) == 0) {
    const uint4 *kv = (const uint4 *)kin;
    const unsigned full = n / PER; /* vectors wholly inside the keys */
#pragma unroll 4
    for (unsigned q = t; q < full; q += GRS_THREADS) {
      union {
        uint4 u;
        K k[PER];
      } x;
      x.u = kv[q];
#pragma unroll
      for (unsigned e = 0; e < PER; e++) x.k[e] = gp_key_enc(x.k[e], kind, desc);
      ((uint4 *)s)[q] = x.u;
    }
    for (unsigned j = full * PER + t; j < np; j += GRS_THREADS)
      s[j] = j < n ? gp_key_enc(kin[j], kind, desc) : ~(K)0;
  } else {
#pragma unroll 8
    for (unsigned j = t; j < np; j += GRS_THREADS) s[j] = j < n ? gp_key_enc(kin[j], kind, desc) : ~(K)0;
  }
}

/* COOP: a cooperative launch, writing in place after a grid sync */
template <typename K, typename V, int MODE, bool COOP>
__global__ void __launch_bounds__(GRS_THREADS) grs_rank(grs_args a) {
  constexpr unsigned PER = 16 / sizeof(K);
  extern __shared__ __align__(16) unsigned char grs_smem[];
  K *s = (K *)grs_smem;
  gp_pdl_trigger(); /* the copy kernel may launch: it waits for this one to complete */
  const unsigned L = a.lanes, t = threadIdx.x, sub = t & (L - 1);
  const unsigned i = blockIdx.x * (GRS_THREADS / L) + t / L; /* this thread's key */
  const unsigned n = a.n, np = (n + PER - 1) / PER * PER;
  const bool has = i < n;
  const K *kin = (const K *)a.kin;
  /* the key's own raw bits and value, read while the keys load */
  K raw = (K)0;
  V v = (V)0;
  if (has && sub == 0) {
    if (MODE != GRS_ARGSORT) raw = kin[i];
    if (MODE == GRS_PAIRS) v = ((const V *)a.vin)[i];
  }
  grs_load<K>(s, kin, n, np, a.kind, a.desc);
  if (COOP)
    cooperative_groups::this_grid().sync(); /* every block has read every key */
  else
    __syncthreads();
  const K k = has ? s[i] : ~(K)0;
  /* the keys before it: 16 bytes a load, the key's L threads on consecutive vectors (the
     warp's other keys read the same ones: broadcasts) */
  unsigned r = 0;
  const unsigned nv = np / PER;
#pragma unroll 4
  for (unsigned q = sub; q < nv; q += L) {
    union {
      uint4 u;
      K k[PER];
    } x;
    x.u = ((const uint4 *)s)[q];
#pragma unroll
    for (unsigned e = 0; e < PER; e++)
      r += (unsigned)(x.k[e] < k) | ((unsigned)(x.k[e] == k) & (unsigned)(q * PER + e < i));
  }
  for (unsigned o = L / 2; o > 0; o /= 2) r += __shfl_xor_sync(0xFFFFFFFFu, r, o);
  if (has && sub == 0) {
    if (MODE != GRS_ARGSORT) ((K *)a.kout)[r] = raw;
    if (MODE == GRS_PAIRS) ((V *)a.vout)[r] = v;
    if (MODE == GRS_ARGSORT) ((V *)a.vout)[r] = (V)i;
  }
}

/* the sorted keys (and values) from scratch back to the caller's arrays */
template <typename K, typename V, bool PV>
__global__ void __launch_bounds__(GRS_THREADS) grs_copy(const K *ks, K *keys, const V *vs, V *vals, unsigned n) {
  gp_pdl_wait(); /* the ranking kernel, complete and visible */
  for (unsigned j = blockIdx.x * GRS_THREADS + threadIdx.x; j < n; j += gridDim.x * GRS_THREADS) {
    keys[j] = ks[j];
    if (PV) vals[j] = vs[j];
  }
}

/* threads a key: about 128 comparisons a thread, 1 .. 32 */
static unsigned grs_lanes(size_t n) {
  unsigned L = 1;
  while (L < 32 && ((size_t)L << 7) < n) L *= 2;
  return L;
}

static size_t grs_align(size_t b) { return (b + 255) & ~(size_t)255; }

extern "C" int gp_cuda_grid_rank_takes(gp_context *ctx, gp_dtype key_type, int value_bytes,
                                       gp_grs_form form, size_t n) {
  (void)key_type;
  const size_t lo = form == GP_GRS_ARGSORT ? GP_GRS_ARGSORT_MIN
                    : form == GP_GRS_COPY  ? GP_GRS_COPY_MIN
                    : value_bytes          ? GP_GRS_PAIRS_MIN
                                           : GP_GRS_KEYS_MIN;
  const size_t hi = form == GP_GRS_ARGSORT ? GP_GRS_ARGSORT_MAX
                    : form == GP_GRS_COPY  ? GP_GRS_COPY_MAX
                    : value_bytes          ? GP_GRS_PAIRS_MAX
                                           : GP_GRS_KEYS_MAX;
  return ctx->info.arch >= 90 && n >= 2 && n > lo && n <= hi;
}

extern "C" size_t gp_cuda_grid_rank_scratch(gp_dtype key_type, int value_bytes, size_t n) {
  return grs_align(n * gp_dtype_size(key_type)) + grs_align(n * (size_t)value_bytes);
}

static unsigned grs_blocks(const grs_args &a) {
  return (a.n + GRS_THREADS / a.lanes - 1) / (GRS_THREADS / a.lanes);
}
template <typename K> static size_t grs_smem(unsigned n) {
  return (size_t)(n + 16 / sizeof(K) - 1) / (16 / sizeof(K)) * 16;
}

template <typename K, typename V, int MODE>
static gp_status grs_launch(gp_context *ctx, const grs_args &a) {
  const size_t smem = grs_smem<K>(a.n);
  const unsigned blocks = grs_blocks(a);
  grs_rank<K, V, MODE, false><<<blocks, GRS_THREADS, smem, (cudaStream_t)ctx->stream>>>(a);
  GP_LAUNCH_CHECK(ctx, "grs_rank", blocks, GRS_THREADS, smem);
  return GP_OK;
}

/* The cooperative form's state, per kernel: its blocks a SM (gp_resident_blocks' cache,
 * asked at the largest shared memory, 4096 keys), and per device (per_device.h) whether
 * the device was asked for cooperative launches and whether it refused them (no support,
 * or a launch refused as too large, e.g. under an MPS share of the SMs). */
template <typename K, typename V, int MODE> struct grs_coop {
  static int per_sm[GP_RESIDENT_MAX_DEVICES];
  static unsigned long long asked, refused;
};
template <typename K, typename V, int MODE> int grs_coop<K, V, MODE>::per_sm[GP_RESIDENT_MAX_DEVICES];
template <typename K, typename V, int MODE> unsigned long long grs_coop<K, V, MODE>::asked;
template <typename K, typename V, int MODE> unsigned long long grs_coop<K, V, MODE>::refused;

/* Can the GPU hold every block of the cooperative sort at once? */
template <typename K, typename V, int MODE> static bool grs_coop_fits(gp_context *ctx, unsigned blocks) {
  typedef grs_coop<K, V, MODE> C;
  if (!gp_dev_flag(&C::asked, ctx->device)) {
    int coop = 0;
    if (cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, ctx->device) != cudaSuccess || !coop)
      gp_dev_flag_set(&C::refused, ctx->device);
    (void)cudaGetLastError(); /* a refusal is an answer, not an error to report later */
    gp_dev_flag_set(&C::asked, ctx->device);
  }
  return !gp_dev_flag(&C::refused, ctx->device) &&
         blocks <= gp_resident_blocks(ctx, grs_rank<K, V, MODE, true>, GRS_THREADS, C::per_sm,
                                      grs_smem<K>(4096));
}

template <typename K, typename V, bool PV>
static gp_status grs_sort(gp_context *ctx, K *keys, V *vals, unsigned n, gp_key_class kind, int desc,
                          void *scratch) {
  constexpr int MODE = PV ? GRS_PAIRS : GRS_KEYS;
  const unsigned lanes = grs_lanes(n);
  grs_args a = {keys, keys, vals, vals, n, lanes, kind, desc};
  const unsigned rblocks = grs_blocks(a);
  if (GP_GRS_COOP && grs_coop_fits<K, V, MODE>(ctx, rblocks)) {
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3(rblocks, 1, 1);
    cfg.blockDim = dim3(GRS_THREADS, 1, 1);
    cfg.dynamicSmemBytes = grs_smem<K>(n);
    cfg.stream = (cudaStream_t)ctx->stream;
    cudaLaunchAttribute at;
    at.id = cudaLaunchAttributeCooperative;
    at.val.cooperative = 1;
    cfg.attrs = &at;
    cfg.numAttrs = 1;
    const cudaError_t e = cudaLaunchKernelEx(&cfg, grs_rank<K, V, MODE, true>, a);
    if (e != cudaErrorCooperativeLaunchTooLarge) {
      GP_CUDA_TRY(ctx, e);
      GP_LAUNCH_CHECK(ctx, "grs_rank", rblocks, GRS_THREADS, cfg.dynamicSmemBytes);
      return GP_OK;
    }
    /* fewer SMs than the device reports (e.g. an MPS share): the fallback from now on */
    (void)cudaGetLastError();
    gp_dev_flag_set(&grs_coop<K, V, MODE>::refused, ctx->device);
  }
  K *ks = (K *)scratch;
  V *vs = PV ? (V *)((char *)scratch + grs_align((size_t)n * sizeof(K))) : NULL;
  a.kout = ks;
  a.vout = vs;
  gp_status s = grs_launch<K, V, MODE>(ctx, a);
  if (s) return s;
  const unsigned blocks = (n + 4 * GRS_THREADS - 1) / (4 * GRS_THREADS);
  void *args[] = {(void *)&ks, (void *)&keys, (void *)&vs, (void *)&vals, (void *)&n};
  (void)gp_launch_pdl((const void *)grs_copy<K, V, PV>, blocks, GRS_THREADS, 0, (cudaStream_t)ctx->stream,
                      args, ctx->info.arch >= 90);
  GP_LAUNCH_CHECK(ctx, "grs_copy", blocks, GRS_THREADS, 0);
  return GP_OK;
}

extern "C" gp_status gp_cuda_grid_rank_sort(gp_context *ctx, gp_dtype key_type, void *keys, int value_bytes,
                                            void *values, size_t n, int desc, void *scratch) {
  const gp_key_class kind = gp_key_class_of(key_type);
  const unsigned m = (unsigned)n;
  if (gp_dtype_size(key_type) == 4) {
    uint32_t *k = (uint32_t *)keys;
    if (!value_bytes) return grs_sort<uint32_t, uint32_t, false>(ctx, k, (uint32_t *)NULL, m, kind, desc, scratch);
    if (value_bytes == 4) return grs_sort<uint32_t, uint32_t, true>(ctx, k, (uint32_t *)values, m, kind, desc, scratch);
    return grs_sort<uint32_t, u64, true>(ctx, k, (u64 *)values, m, kind, desc, scratch);
  }
  u64 *k = (u64 *)keys;
  if (!value_bytes) return grs_sort<u64, uint32_t, false>(ctx, k, (uint32_t *)NULL, m, kind, desc, scratch);
  if (value_bytes == 4) return grs_sort<u64, uint32_t, true>(ctx, k, (uint32_t *)values, m, kind, desc, scratch);
  return grs_sort<u64, u64, true>(ctx, k, (u64 *)values, m, kind, desc, scratch);
}

extern "C" gp_status gp_cuda_grid_rank_sort_copy(gp_context *ctx, gp_dtype key_type, const void *in,
                                                 void *out, size_t n, int desc) {
  /* in place's scratch form with the caller's arrays: the ranking kernel reads in, writes out */
  const grs_args a = {in, out, NULL, NULL, (unsigned)n, grs_lanes(n), gp_key_class_of(key_type), desc};
  return gp_dtype_size(key_type) == 4 ? grs_launch<uint32_t, uint32_t, GRS_KEYS>(ctx, a)
                                      : grs_launch<u64, uint32_t, GRS_KEYS>(ctx, a);
}

extern "C" gp_status gp_cuda_grid_rank_argsort(gp_context *ctx, gp_dtype key_type, const void *keys,
                                               int index_bytes, void *indices, size_t n, int desc) {
  const grs_args a = {keys, NULL, NULL, indices, (unsigned)n, grs_lanes(n), gp_key_class_of(key_type), desc};
  if (gp_dtype_size(key_type) == 4)
    return index_bytes == 8 ? grs_launch<uint32_t, u64, GRS_ARGSORT>(ctx, a)
                            : grs_launch<uint32_t, uint32_t, GRS_ARGSORT>(ctx, a);
  return index_bytes == 8 ? grs_launch<u64, u64, GRS_ARGSORT>(ctx, a) : grs_launch<u64, uint32_t, GRS_ARGSORT>(ctx, a);
}
