/* Stable merge of two sorted runs that lie back to back (a = src[0, na), b = src[na,
 * na + nb)) into dst, by merge path (Odeh, Green, Mwassi, Shmueli, Birk, "Merge Path",
 * 2012): mg_partition finds, for the first output of every tile, how many come from a
 * (a binary search along the cross diagonal, in global memory); mg_merge gives each
 * block one tile: it loads the tile's a and b ranges into shared memory (coalesced),
 * each thread finds its own split in shared memory and merges MG_ITEMS outputs, and the
 * tile leaves through shared memory in coalesced stores. Ties take a first, so equal
 * keys keep (run, position) order: that is what makes gp_dist_sort_pairs stable.
 * Keys compare by their encoded value (core/key_codec.h), values move by source index.
 * Memory-bound: one read and one write of keys (and values), plus ~8 bytes of split per
 * 2048 outputs. */
#include "cuda/sort/sort_cuda.h"
#include "core/key_codec.h"

#include <cuda_runtime.h>
#include <stdint.h>

typedef unsigned long long u64;

#define MG_THREADS 256
#define MG_ITEMS 8
#define MG_TILE (MG_THREADS * MG_ITEMS)

/* how many of the first `diag` outputs come from a; ties go to a */
template <typename K>
__device__ __forceinline__ u64 mg_path(const K *a, u64 na, const K *b, u64 nb, u64 diag,
                                       gp_key_class kc, int desc) {
  u64 lo = diag > nb ? diag - nb : 0, hi = diag < na ? diag : na;
  while (lo < hi) {
    const u64 mid = lo + (hi - lo) / 2;
    if (gp_key_enc(a[mid], kc, desc) <= gp_key_enc(b[diag - 1 - mid], kc, desc)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

template <typename K>
__global__ void mg_partition(const K *src, u64 na, u64 nb, gp_key_class kc, int desc,
                             u64 *split, u64 ntiles) {
  const u64 t = (u64)blockIdx.x * blockDim.x + threadIdx.x;
  if (t > ntiles) return;
  const u64 diag = t * MG_TILE < na + nb ? t * MG_TILE : na + nb;
  split[t] = mg_path<K>(src, na, src + na, nb, diag, kc, desc);
}

template <typename K, typename V>
__global__ __launch_bounds__(MG_THREADS) void mg_merge(const K *src, const V *vsrc, u64 na,
                                                       u64 nb, gp_key_class kc, int desc,
                                                       const u64 *split, K *dst, V *vdst) {
  __shared__ K sk[MG_TILE];
  __shared__ V sv[sizeof(V) > 1 ? MG_TILE : 1]; /* V = unsigned char: keys alone */
  __shared__ unsigned short sidx[MG_TILE];
  const u64 tile = blockIdx.x, d0 = tile * MG_TILE;
  const u64 d1 = d0 + MG_TILE < na + nb ? d0 + MG_TILE : na + nb;
  const u64 a0 = split[tile], a1 = split[tile + 1];
  const u64 b0 = d0 - a0, b1 = d1 - a1;
  const unsigned la = (unsigned)(a1 - a0), lb = (unsigned)(b1 - b0), len = la + lb;
  for (unsigned i = threadIdx.x; i < len; i += MG_THREADS) {
    const u64 g = i < la ? a0 + i : na + b0 + (i - la);
    sk[i] = src[g];
    if (sizeof(V) > 1) sv[i] = vsrc[g];
  }
  __syncthreads();
  /* this thread's outputs [o, o + MG_ITEMS) of the tile */
  const unsigned o = threadIdx.x * MG_ITEMS < len ? threadIdx.x * MG_ITEMS : len;
  unsigned lo = o > lb ? o - lb : 0, hi = o < la ? o : la;
  while (lo < hi) {
    const unsigned mid = (lo + hi) / 2;
    if (gp_key_enc(sk[mid], kc, desc) <= gp_key_enc(sk[la + o - 1 - mid], kc, desc)) lo = mid + 1;
    else hi = mid;
  }
  unsigned ia = lo, ib = la + (o - lo);
  K out[MG_ITEMS];
  unsigned short from[MG_ITEMS];
#pragma unroll
  for (int k = 0; k < MG_ITEMS; k++) {
    if (o + k >= len) break;
    const bool take_a =
        ib >= len || (ia < la && gp_key_enc(sk[ia], kc, desc) <= gp_key_enc(sk[ib], kc, desc));
    from[k] = (unsigned short)(take_a ? ia : ib);
    out[k] = sk[from[k]];
    if (take_a) ia++;
    else ib++;
  }
  __syncthreads(); /* every thread has read sk: reuse it for the output tile */
#pragma unroll
  for (int k = 0; k < MG_ITEMS; k++)
    if (o + k < len) {
      sk[o + k] = out[k];
      sidx[o + k] = from[k];
    }
  __syncthreads();
  for (unsigned i = threadIdx.x; i < len; i += MG_THREADS) {
    dst[d0 + i] = sk[i];
    if (sizeof(V) > 1) vdst[d0 + i] = sv[sidx[i]];
  }
}

extern "C" size_t gp_cuda_merge_scratch(size_t n) { return (n / MG_TILE + 2) * sizeof(u64); }

template <typename K, typename V>
static gp_status mg_run(gp_context *ctx, const void *src, const void *vsrc, size_t na, size_t nb,
                        gp_key_class kc, int desc, void *dst, void *vdst, void *scratch) {
  const u64 n = (u64)na + nb, ntiles = (n + MG_TILE - 1) / MG_TILE;
  cudaStream_t st = (cudaStream_t)ctx->stream;
  u64 *split = (u64 *)scratch;
  const unsigned pgrid = (unsigned)((ntiles + 1 + 255) / 256);
  mg_partition<K><<<pgrid, 256, 0, st>>>((const K *)src, na, nb, kc, desc, split, ntiles);
  GP_LAUNCH_CHECK(ctx, "mg_partition", pgrid, 256, 0);
  mg_merge<K, V><<<(unsigned)ntiles, MG_THREADS, 0, st>>>((const K *)src, (const V *)vsrc, na, nb,
                                                          kc, desc, split, (K *)dst, (V *)vdst);
  GP_LAUNCH_CHECK(ctx, "mg_merge", ntiles, MG_THREADS, 0);
  return GP_OK;
}

template <typename K>
static gp_status mg_values(gp_context *ctx, int vb, const void *src, const void *vsrc, size_t na,
                           size_t nb, gp_key_class kc, int desc, void *dst, void *vdst,
                           void *scratch) {
  if (vb == 4) return mg_run<K, uint32_t>(ctx, src, vsrc, na, nb, kc, desc, dst, vdst, scratch);
  if (vb == 8) return mg_run<K, u64>(ctx, src, vsrc, na, nb, kc, desc, dst, vdst, scratch);
  return mg_run<K, unsigned char>(ctx, src, vsrc, na, nb, kc, desc, dst, vdst, scratch);
}

extern "C" gp_status gp_cuda_merge(gp_context *ctx, gp_dtype key_type, int value_bytes, int desc,
                                   const void *src, const void *vsrc, size_t na, size_t nb,
                                   void *dst, void *vdst, void *scratch) {
  if (na + nb == 0) return GP_OK;
  const gp_key_class kc = gp_key_class_of(key_type);
  if (gp_dtype_size(key_type) == 4)
    return mg_values<uint32_t>(ctx, value_bytes, src, vsrc, na, nb, kc, desc, dst, vdst, scratch);
  return mg_values<u64>(ctx, value_bytes, src, vsrc, na, nb, kc, desc, dst, vdst, scratch);
}
