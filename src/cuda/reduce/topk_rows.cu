/* gp_topk_rows on CUDA (src/api/topk.c picks the path):
 *  - k <= GP_CUDA_TOPK_ROWS_SELECT_K: gp_cuda_topk_rows_select, one read of each row by 1,
 *    2 or 4 warps (longer rows, more warps). A warp keeps its best 32 * R composites
 *    (core/topk.h's key, position) sorted across its lanes and the k-th best as a
 *    threshold. It reads its slice in chunks of 32 x M elements into registers
 *    (gp_tkr_chunk): each lane's best (k > 32: the bests of 4 or 8 groups of its
 *    elements) go into the list first, which makes the threshold tight, and then only the
 *    few elements at most the threshold are offered. Candidates beating the threshold go
 *    into the list one at a time, or as a sorted batch merged by ranks when 8 or more pass
 *    at once. (k = 65 .. 128 with 8-byte keys or short slices: every 32 elements offered in
 *    turn.) The warps of a row meet in shared memory. Composites are unique (positions
 *    differ), so ties go to the lower position and the result equals gp_topk of the row.
 *  - larger k, 4-byte types: each element becomes one 64-bit composite (key << 32 | its
 *    position in the row), unique within the row, the rows are sorted as equal segments
 *    of keys alone (gp_sort_segments) and gp_cuda_topk_rows_composite_gather takes each
 *    row's first k.
 *  - larger k, 8-byte types: every (key, index) pair sorted per row
 *    (gp_sort_pairs_segments_offsets), then gp_cuda_topk_rows_gather takes the first k. */
#include "cuda/common/resident.cuh"
#include "cuda/reduce/reduce_cuda.h"
#include "core/topk.h"

#include <cuda_runtime.h>
#include <stdint.h>

#define GP_TKR_WARPS 4
#define GP_TKR_THREADS (GP_TKR_WARPS * 32)
#define GP_TKR_UNROLL 8
#define GP_TKR_FULL 0xffffffffu

/* (a, ai) before (b, bi): the smaller key, ties to the lower position */
template <typename K>
__device__ __forceinline__ bool gp_tkr_less(K a, unsigned ai, K b, unsigned bi) {
  return a < b || (a == b && ai < bi);
}

/* A warp's best 32 * R composites, sorted, lane l holding positions l*R .. l*R + R - 1
 * (blocked), and the k-th best (position k - 1) in every lane as the threshold a
 * candidate must beat. */
template <typename K, int R> struct gp_tkr_list {
  K key[R];
  unsigned idx[R];
  K tk;
  unsigned ti;
};

template <typename K, int R> __device__ __forceinline__ void gp_tkr_init(gp_tkr_list<K, R> &L) {
#pragma unroll
  for (int j = 0; j < R; j++) {
    L.key[j] = (K)~(K)0;
    L.idx[j] = 0xffffffffu;
  }
  L.tk = (K)~(K)0;
  L.ti = 0xffffffffu;
}

/* (ck, ci), the same in every lane and better than the threshold, into the list; the
 * last entry falls off and the threshold (position k - 1) is read again. */
template <typename K, int R>
__device__ __forceinline__ void gp_tkr_insert(gp_tkr_list<K, R> &L, K ck, unsigned ci, unsigned k) {
  const unsigned lane = threadIdx.x & 31;
  int before = 0;
#pragma unroll
  for (int j = 0; j < R; j++) before += gp_tkr_less(L.key[j], L.idx[j], ck, ci);
  const unsigned pos = __reduce_add_sync(GP_TKR_FULL, (unsigned)before);
  const K pk = __shfl_up_sync(GP_TKR_FULL, L.key[R - 1], 1);
  const unsigned pi = __shfl_up_sync(GP_TKR_FULL, L.idx[R - 1], 1);
#pragma unroll
  for (int j = R - 1; j >= 0; j--) {
    const unsigned p = lane * R + (unsigned)j;
    if (p > pos) {
      L.key[j] = j ? L.key[j > 0 ? j - 1 : 0] : pk;
      L.idx[j] = j ? L.idx[j > 0 ? j - 1 : 0] : pi;
    } else if (p == pos) {
      L.key[j] = ck;
      L.idx[j] = ci;
    }
  }
  const unsigned ts = (k - 1) % R;
  K sk = L.key[0];
  unsigned si = L.idx[0];
#pragma unroll
  for (int j = 1; j < R; j++)
    if ((unsigned)j == ts) {
      sk = L.key[j];
      si = L.idx[j];
    }
  L.tk = __shfl_sync(GP_TKR_FULL, sk, (int)((k - 1) / R));
  L.ti = __shfl_sync(GP_TKR_FULL, si, (int)((k - 1) / R));
}

/* Sorted position of x among n (a power of 2) sorted entries: the count before it
 * (after: ties too). */
template <typename K, int N, bool AFTER>
__device__ __forceinline__ unsigned gp_tkr_rank(const K *sk, const unsigned *si, K x, unsigned xi) {
  unsigned pos = 0;
#pragma unroll
  for (unsigned b = N / 2; b > 0; b >>= 1) {
    const unsigned q = pos + b - 1;
    if (AFTER ? !gp_tkr_less(x, xi, sk[q], si[q]) : gp_tkr_less(sk[q], si[q], x, xi)) pos += b;
  }
  if (AFTER ? !gp_tkr_less(x, xi, sk[pos], si[pos]) : gp_tkr_less(sk[pos], si[pos], x, xi)) pos++;
  return pos;
}

/* The warp's 32 (key, position) pairs sorted across its lanes (bitonic), lane l holding
 * the l-th smallest. */
template <typename K> __device__ __forceinline__ void gp_tkr_sort32(K &ck, unsigned &ci) {
  const unsigned lane = threadIdx.x & 31;
#pragma unroll
  for (unsigned size = 2; size <= 32; size <<= 1)
#pragma unroll
    for (unsigned stride = size / 2; stride > 0; stride >>= 1) {
      const K ok = __shfl_xor_sync(GP_TKR_FULL, ck, stride);
      const unsigned oi = __shfl_xor_sync(GP_TKR_FULL, ci, stride);
      const bool up = (lane & size) == 0, low = (lane & stride) == 0;
      if (low == up ? gp_tkr_less(ok, oi, ck, ci) : gp_tkr_less(ck, ci, ok, oi)) {
        ck = ok;
        ci = oi;
      }
    }
}

/* Many lanes beat the threshold at once (rows that rise: every element a new best): the
 * 32 candidates (the others as sentinels) are sorted across the warp (bitonic), then
 * merged with the list by ranks through the warp's shared scratch sk/si (32 * R + 32
 * entries): an entry's new place is its own plus the count of the other side before it
 * (list entries first on ties, so places are unique), and places past 32 * R fall off. */
template <typename K, int R>
__device__ __forceinline__ void gp_tkr_merge32(gp_tkr_list<K, R> &L, K ck, unsigned ci, unsigned k,
                                            K *sk, unsigned *si) {
  const unsigned lane = threadIdx.x & 31;
  gp_tkr_sort32<K>(ck, ci);
  K *ckeys = sk + 32 * R;
  unsigned *cidx = si + 32 * R;
#pragma unroll
  for (int j = 0; j < R; j++) {
    sk[lane * R + j] = L.key[j];
    si[lane * R + j] = L.idx[j];
  }
  ckeys[lane] = ck;
  cidx[lane] = ci;
  __syncwarp();
  unsigned place[R];
#pragma unroll
  for (int j = 0; j < R; j++)
    place[j] = lane * R + j + gp_tkr_rank<K, 32, false>(ckeys, cidx, L.key[j], L.idx[j]);
  const unsigned cplace = lane + gp_tkr_rank<K, 32 * R, true>(sk, si, ck, ci);
  __syncwarp();
#pragma unroll
  for (int j = 0; j < R; j++)
    if (place[j] < 32 * R) {
      sk[place[j]] = L.key[j];
      si[place[j]] = L.idx[j];
    }
  if (cplace < 32 * R) {
    sk[cplace] = ck;
    si[cplace] = ci;
  }
  __syncwarp();
#pragma unroll
  for (int j = 0; j < R; j++) {
    L.key[j] = sk[lane * R + j];
    L.idx[j] = si[lane * R + j];
  }
  L.tk = sk[k - 1];
  L.ti = si[k - 1];
  __syncwarp(); /* the scratch is read before anything writes it again */
}

/* Every lane offers one candidate (valid or not); those that beat the threshold go in:
 * one at a time in lane order, each checked again against the threshold it has moved, or
 * GP_TKR_BATCH or more at once by gp_tkr_merge32. */
#define GP_TKR_BATCH 8
template <typename K, int R>
__device__ __forceinline__ void gp_tkr_offer(gp_tkr_list<K, R> &L, K key, unsigned idx, bool valid,
                                             unsigned k, K *sk, unsigned *si) {
  const bool pass = valid && gp_tkr_less(key, idx, L.tk, L.ti);
  unsigned m = __ballot_sync(GP_TKR_FULL, pass);
  if (__popc(m) >= GP_TKR_BATCH) {
    gp_tkr_merge32<K, R>(L, pass ? key : (K)~(K)0, pass ? idx : 0xffffffffu, k, sk, si);
    return;
  }
  while (m) {
    const int src = __ffs(m) - 1;
    m &= m - 1;
    const K ck = __shfl_sync(GP_TKR_FULL, key, src);
    const unsigned ci = __shfl_sync(GP_TKR_FULL, idx, src);
    if (gp_tkr_less(ck, ci, L.tk, L.ti)) gp_tkr_insert<K, R>(L, ck, ci, k);
  }
}

/* Elements a lane holds in registers at a time (gp_tkr_chunk), for slices of at least
 * 32 * GP_TKR_M_LONG elements, else 8; GP_TKR_CHUNKS=0 offers every 32 elements in turn
 * instead (the path before 2026-12-04's twenty-eighth session). GP_TKR_FIRST_SORT=0
 * merges a slice's first lane bests (k <= 32) into the empty list instead of sorting them
 * into it. GP_TKR_MIN_BLOCKS: the select kernel's blocks a SM asked of the compiler
 * (__launch_bounds__). */
#ifndef GP_TKR_CHUNKS
#define GP_TKR_CHUNKS 1
#endif
#ifndef GP_TKR_M_LONG
#define GP_TKR_M_LONG 32
#endif
#ifndef GP_TKR_FIRST_SORT
#define GP_TKR_FIRST_SORT 1
#endif
#ifndef GP_TKR_MIN_BLOCKS
#define GP_TKR_MIN_BLOCKS 1
#endif

/* A chunk of 32 * M elements of a warp's slice [e, hi), in registers (FULL: all of them
 * in the slice). Each lane splits its M into G groups (G = 1 for k <= 32, 4 for k <= 64,
 * 8 above) and offers each group's best element first: k <= 32 and the first chunk of a
 * slice (`first`): the 32 lane bests, sorted, are the list. The list's k-th entry is then
 * a tight threshold (at least k offered elements are as good), and only the lanes' other
 * elements whose keys are at most the threshold's are offered (read again; the offer
 * compares positions on equal keys): on random rows of 1024, k = 8, about 2, where
 * offering every 32 elements in turn inserted about 24; for k = 64, 128 the 128 or 256
 * group bests take most of the top k. Elements not offered were worse than a threshold
 * the list has only tightened since, so the list's first k stay the best k. An element
 * costs a load, its key (three operations: gp_key_coded), a min, two compares. */
template <typename K, int R, int M, int G, bool FULL>
__device__ __forceinline__ void gp_tkr_chunk(gp_tkr_list<K, R> &L, const K *row, unsigned e,
                                             unsigned hi, bool first, unsigned k,
                                             gp_key_code q, K *sk, unsigned *si) {
  static_assert(M >= 1 && M <= 32, "a lane's slots are the bits of one word");
  const unsigned lane = threadIdx.x & 31;
  K x[M];
  /* every load issued before any is used (a guarded load is a branch, and the loads then
     wait one after another); past the end a lane reads the last element */
  const K *p = row + e + lane; /* full chunks: one address, constant offsets */
#pragma unroll
  for (int u = 0; u < M; u++) {
    const unsigned i = e + (unsigned)u * 32 + lane;
    x[u] = FULL ? __ldg(p + u * 32) : __ldg(row + (i < hi ? i : hi - 1));
  }
#pragma unroll
  for (int u = 0; u < M; u++) {
    x[u] = gp_key_coded(x[u], q);
    if (!FULL && e + (unsigned)u * 32 + lane >= hi) x[u] = (K)~(K)0;
  }
  /* each group's best: the smallest key, the first of equal ones (positions rise with u;
     the ~0 keys past the end come after every element). Group g is slots g, g + G, ...:
     spread over the chunk, so on rows that rise or fall the group bests are the chunk's
     best elements (groups of neighbours offered a batch a span, then most of the rest) */
  static_assert(M % G == 0, "groups of equal size");
  unsigned bests = 0; /* the slots offered as a group's best */
#pragma unroll
  for (int g = 0; g < G; g++) {
    K bk = x[g];
#pragma unroll
    for (int u = g + G; u < M; u += G) bk = x[u] < bk ? x[u] : bk;
    unsigned eq = 0;
#pragma unroll
    for (int u = g; u < M; u += G) eq |= (unsigned)(x[u] == bk) << u;
    const int bu = __ffs((int)eq) - 1;
    bests |= 1u << bu;
    unsigned bi = e + (unsigned)bu * 32 + lane;
    const bool bvalid = FULL || e + (unsigned)g * 32 + lane < hi;
    if (G == 1 && R == 1 && first && GP_TKR_FIRST_SORT) {
      if (!bvalid) bi = 0xffffffffu; /* no element: the list's sentinel */
      gp_tkr_sort32<K>(bk, bi);
      L.key[0] = bk;
      L.idx[0] = bi;
      L.tk = __shfl_sync(GP_TKR_FULL, bk, (int)k - 1);
      L.ti = __shfl_sync(GP_TKR_FULL, bi, (int)k - 1);
    } else {
      gp_tkr_offer<K, R>(L, bk, bi, bvalid, k, sk, si);
    }
  }
  unsigned slots = 0;
#pragma unroll
  for (int u = 0; u < M; u++)
    slots |= (unsigned)(x[u] <= L.tk && (FULL || e + (unsigned)u * 32 + lane < hi)) << u;
  slots &= ~bests;
  while (__any_sync(GP_TKR_FULL, slots != 0)) {
    const bool has = slots != 0;
    const int u = has ? __ffs((int)slots) - 1 : 0;
    slots &= slots - 1;
    const unsigned i = e + (unsigned)u * 32 + lane;
    const K key = has ? gp_key_coded(__ldg(row + i), q) : (K)~(K)0;
    gp_tkr_offer<K, R>(L, key, i, has, k, sk, si);
  }
}

/* wpr warps (1, 2 or 4) per row, each over its slice of the row, so a block of 4 warps
 * takes 4 / wpr rows at a time; the first warp of a row takes the others' lists through
 * shared memory and writes the row's k values and positions. */
template <typename K, int R, int M>
__global__ __launch_bounds__(GP_TKR_THREADS, GP_TKR_MIN_BLOCKS) void gp_topk_rows_select_kernel(
    const K *__restrict__ in, size_t rows, size_t cols, unsigned k, gp_key_class c, int largest,
    unsigned wpr, K *values, unsigned long long *indices) {
  __shared__ K s_key[GP_TKR_WARPS][32 * R + 32]; /* a warp's list, then the batch scratch */
  __shared__ unsigned s_idx[GP_TKR_WARPS][32 * R + 32];
  const unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const unsigned part = warp % wpr, per_block = GP_TKR_WARPS / wpr;
  const size_t slice = (cols + wpr - 1) / wpr;
  for (size_t base = (size_t)blockIdx.x * per_block; base < rows; base += (size_t)gridDim.x * per_block) {
    const size_t r = base + warp / wpr;
    gp_tkr_list<K, R> L;
    gp_tkr_init<K, R>(L);
    const K *row = in + r * cols;
    if (r < rows) {
      const size_t lo = part * slice, hi = lo + slice < cols ? lo + slice : cols;
      size_t e = lo;
      if (M > 0) { /* cols < 2^31: positions in 32 bits */
        constexpr int MC = M > 0 ? M : 1;
        constexpr int G = R == 1 ? 1 : (R == 2 ? 4 : 8) < MC ? (R == 2 ? 4 : 8) : MC;
        const gp_key_code q = gp_key_code_of(c, largest, sizeof(K) == 8);
        unsigned ec = (unsigned)lo;
        for (; ec + 32 * MC <= (unsigned)hi; ec += 32 * MC)
          gp_tkr_chunk<K, R, MC, G, true>(L, row, ec, (unsigned)hi, ec == (unsigned)lo, k, q,
                                       s_key[warp], s_idx[warp]);
        if (ec < (unsigned)hi)
          gp_tkr_chunk<K, R, MC, G, false>(L, row, ec, (unsigned)hi, ec == (unsigned)lo, k, q,
                                        s_key[warp], s_idx[warp]);
        e = hi;
      }
      for (; e + 32 * GP_TKR_UNROLL <= hi; e += 32 * GP_TKR_UNROLL) {
        K x[GP_TKR_UNROLL];
#pragma unroll
        for (int u = 0; u < GP_TKR_UNROLL; u++) x[u] = __ldg(row + e + u * 32 + lane);
#pragma unroll 1 /* one copy of the offer (and its batch merge): x shifts down instead */
        for (int u = 0; u < GP_TKR_UNROLL; u++) {
          gp_tkr_offer<K, R>(L, (K)gp_topk_key((uint64_t)x[0], sizeof(K) == 8, c, largest),
                             (unsigned)(e + u * 32 + lane), true, k, s_key[warp], s_idx[warp]);
#pragma unroll
          for (int q = 0; q < GP_TKR_UNROLL - 1; q++) x[q] = x[q + 1];
        }
      }
      for (; e < hi; e += 32) {
        const size_t i = e + lane;
        const K x = i < hi ? __ldg(row + i) : (K)0;
        gp_tkr_offer<K, R>(L, (K)gp_topk_key((uint64_t)x, sizeof(K) == 8, c, largest),
                           (unsigned)i, i < hi, k, s_key[warp], s_idx[warp]);
      }
    }
    if (wpr > 1) {
#pragma unroll
      for (int j = 0; j < R; j++) {
        s_key[warp][lane * R + j] = L.key[j];
        s_idx[warp][lane * R + j] = L.idx[j];
      }
      __syncthreads();
      if (part == 0 && r < rows)
        for (unsigned w = warp + 1; w < warp + wpr; w++)
          for (unsigned q = 0; q < k; q += 32) {
            const unsigned p = q + lane;
            const bool ok = p < k;
            gp_tkr_offer<K, R>(L, ok ? s_key[w][p] : (K)~(K)0, ok ? s_idx[w][p] : 0xffffffffu,
                               ok, k, s_key[warp], s_idx[warp]);
          }
    }
    if (part == 0 && r < rows) {
#pragma unroll
      for (int j = 0; j < R; j++) {
        const unsigned p = lane * R + (unsigned)j;
        if (p < k) {
          const unsigned i = L.idx[j];
          if (values) values[r * k + p] = row[i];
          if (indices) indices[r * k + p] = i;
        }
      }
    }
    if (wpr > 1) __syncthreads(); /* the shared lists are free for the next rows */
  }
}

/* warps per row: long rows are split so that enough warps stream the data */
static unsigned gp_tkr_warps_per_row(size_t rows, size_t cols) {
  if (cols >= 8192 && rows < 8192) return 4;
  if (cols >= 2048 && rows < 16384) return 2;
  return 1;
}


/* the select kernel's blocks a SM, per instance and device (gp_resident_blocks' cache: asked
   once, a failed query cleared and taken as 1) */
template <typename K, int R, int M> struct gp_tkr_occ { static int per_sm[GP_RESIDENT_MAX_DEVICES]; };
template <typename K, int R, int M> int gp_tkr_occ<K, R, M>::per_sm[GP_RESIDENT_MAX_DEVICES];

template <typename K, int R, int M>
static gp_status gp_tkr_launch(gp_context *ctx, const void *d_in, size_t rows, size_t cols,
                               size_t k, gp_key_class c, int largest, void *d_values,
                               uint64_t *d_indices) {
  const unsigned wpr = gp_tkr_warps_per_row(rows, cols);
  const size_t blocks = (rows + GP_TKR_WARPS / wpr - 1) / (GP_TKR_WARPS / wpr);
  const size_t cap = gp_resident_blocks(ctx, gp_topk_rows_select_kernel<K, R, M>, GP_TKR_THREADS,
                                        gp_tkr_occ<K, R, M>::per_sm);
  const unsigned g = (unsigned)(blocks < cap ? blocks : cap);
  gp_topk_rows_select_kernel<K, R, M><<<g, GP_TKR_THREADS, 0, (cudaStream_t)ctx->stream>>>(
      (const K *)d_in, rows, cols, (unsigned)k, c, largest, wpr, (K *)d_values,
      (unsigned long long *)d_indices);
  GP_LAUNCH_CHECK(ctx, "gp_topk_rows_select_kernel", g, GP_TKR_THREADS, 0);
  return GP_OK;
}

/* the chunk length for the slice (8-byte keys: half the registers' worth of elements) */
template <typename K, int R>
static gp_status gp_tkr_pick(gp_context *ctx, const void *d_in, size_t rows, size_t cols, size_t k,
                             gp_key_class c, int largest, void *d_values, uint64_t *d_indices) {
#if GP_TKR_CHUNKS
  constexpr int ML = sizeof(K) == 8 ? GP_TKR_M_LONG / 2 : GP_TKR_M_LONG;
  const unsigned wpr = gp_tkr_warps_per_row(rows, cols);
  const bool whole = (cols + wpr - 1) / wpr >= 32 * (size_t)ML;
  /* k = 65 .. 128: 8 batches of group bests a chunk pay for 4-byte keys in chunks of 32
     a lane (16384 x 1024 f32 1.36-1.55x faster), not for 8-byte keys or short slices
     (f64 1.5x, 65536 x 256 1.2x slower: s28-e), which keep offering 32 at a time */
  if constexpr (R == 4 && sizeof(K) == 8) {
    return gp_tkr_launch<K, R, 0>(ctx, d_in, rows, cols, k, c, largest, d_values, d_indices);
  } else if constexpr (R == 4) {
    if (whole)
      return gp_tkr_launch<K, R, ML>(ctx, d_in, rows, cols, k, c, largest, d_values, d_indices);
    return gp_tkr_launch<K, R, 0>(ctx, d_in, rows, cols, k, c, largest, d_values, d_indices);
  } else {
    if (whole)
      return gp_tkr_launch<K, R, ML>(ctx, d_in, rows, cols, k, c, largest, d_values, d_indices);
    return gp_tkr_launch<K, R, 8>(ctx, d_in, rows, cols, k, c, largest, d_values, d_indices);
  }
#else
  return gp_tkr_launch<K, R, 0>(ctx, d_in, rows, cols, k, c, largest, d_values, d_indices);
#endif
}

template <typename K>
static gp_status gp_tkr_dispatch(gp_context *ctx, const void *d_in, size_t rows, size_t cols,
                                 size_t k, gp_key_class c, int largest, void *d_values,
                                 uint64_t *d_indices) {
  if (k <= 32) return gp_tkr_pick<K, 1>(ctx, d_in, rows, cols, k, c, largest, d_values, d_indices);
  if (k <= 64) return gp_tkr_pick<K, 2>(ctx, d_in, rows, cols, k, c, largest, d_values, d_indices);
  return gp_tkr_pick<K, 4>(ctx, d_in, rows, cols, k, c, largest, d_values, d_indices);
}

extern "C" gp_status gp_cuda_topk_rows_select(gp_context *ctx, gp_dtype type, const void *d_in,
                                              size_t rows, size_t cols, size_t k, int largest,
                                              void *d_values, uint64_t *d_indices) {
  const gp_key_class c = gp_key_class_of(type);
  if (gp_dtype_size(type) == 4)
    return gp_tkr_dispatch<unsigned>(ctx, d_in, rows, cols, k, c, largest, d_values, d_indices);
  return gp_tkr_dispatch<unsigned long long>(ctx, d_in, rows, cols, k, c, largest, d_values,
                                             d_indices);
}

/* Rows: of each row's sorted (key, global index) pairs (rows x cols), the first k; the
 * indices become positions within the row. */
template <typename K>
__global__ void gp_topk_rows_gather_kernel(const K *__restrict__ in, const unsigned long long *idx,
                                           size_t rows, size_t cols, size_t k, K *values,
                                           unsigned long long *indices) {
  const size_t total = rows * k;
  for (size_t j = (size_t)blockIdx.x * blockDim.x + threadIdx.x; j < total;
       j += (size_t)gridDim.x * blockDim.x) {
    const size_t r = j / k;
    const unsigned long long i = idx[r * cols + (j - r * k)];
    if (values) values[j] = in[i];
    if (indices) indices[j] = i - r * cols;
  }
}

extern "C" gp_status gp_cuda_topk_rows_gather(gp_context *ctx, gp_dtype type, const void *d_in,
                                              const uint64_t *d_sorted_idx, size_t rows,
                                              size_t cols, size_t k, void *d_values,
                                              uint64_t *d_indices) {
  const unsigned g = gp_stride_grid(ctx, rows * k, 256, 8);
  cudaStream_t st = (cudaStream_t)ctx->stream;
  if (gp_dtype_size(type) == 4)
    gp_topk_rows_gather_kernel<unsigned><<<g, 256, 0, st>>>(
        (const unsigned *)d_in, (const unsigned long long *)d_sorted_idx, rows, cols, k,
        (unsigned *)d_values, (unsigned long long *)d_indices);
  else
    gp_topk_rows_gather_kernel<unsigned long long><<<g, 256, 0, st>>>(
        (const unsigned long long *)d_in, (const unsigned long long *)d_sorted_idx, rows, cols,
        k, (unsigned long long *)d_values, (unsigned long long *)d_indices);
  GP_LAUNCH_CHECK(ctx, "gp_topk_rows_gather_kernel", g, 256, 0);
  return GP_OK;
}

/* 4-byte types, larger k: composites (key << 32 | position in the row) */
__global__ void gp_topk_rows_composite_kernel(const unsigned *__restrict__ in, size_t n, size_t cols,
                                              gp_key_class c, int largest,
                                              unsigned long long *comp) {
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (size_t)gridDim.x * blockDim.x)
    comp[i] = (unsigned long long)gp_topk_key((uint64_t)in[i], 0, c, largest) << 32 |
              (unsigned long long)(i % cols);
}

__global__ void gp_topk_rows_composite_gather_kernel(const unsigned *__restrict__ in,
                                                     const unsigned long long *comp, size_t rows,
                                                     size_t cols, size_t k, unsigned *values,
                                                     unsigned long long *indices) {
  const size_t total = rows * k;
  for (size_t j = (size_t)blockIdx.x * blockDim.x + threadIdx.x; j < total;
       j += (size_t)gridDim.x * blockDim.x) {
    const size_t r = j / k;
    const unsigned i = (unsigned)comp[r * cols + (j - r * k)];
    if (values) values[j] = in[r * cols + i];
    if (indices) indices[j] = i;
  }
}


extern "C" gp_status gp_cuda_topk_rows_composite(gp_context *ctx, gp_dtype type, const void *d_in,
                                                 size_t rows, size_t cols, int largest,
                                                 uint64_t *d_comp) {
  const size_t n = rows * cols;
  const unsigned g = gp_stride_grid(ctx, n, 256, 8);
  gp_topk_rows_composite_kernel<<<g, 256, 0, (cudaStream_t)ctx->stream>>>(
      (const unsigned *)d_in, n, cols, gp_key_class_of(type), largest,
      (unsigned long long *)d_comp);
  GP_LAUNCH_CHECK(ctx, "gp_topk_rows_composite_kernel", g, 256, 0);
  return GP_OK;
}

extern "C" gp_status gp_cuda_topk_rows_composite_gather(gp_context *ctx, const void *d_in,
                                                        const uint64_t *d_comp, size_t rows,
                                                        size_t cols, size_t k, void *d_values,
                                                        uint64_t *d_indices) {
  const unsigned g = gp_stride_grid(ctx, rows * k, 256, 8);
  gp_topk_rows_composite_gather_kernel<<<g, 256, 0, (cudaStream_t)ctx->stream>>>(
      (const unsigned *)d_in, (const unsigned long long *)d_comp, rows, cols, k,
      (unsigned *)d_values, (unsigned long long *)d_indices);
  GP_LAUNCH_CHECK(ctx, "gp_topk_rows_composite_gather_kernel", g, 256, 0);
  return GP_OK;
}
