/* GP_SORT_BITONIC: register / shared-memory bitonic sort of nseg segments of S keys
 * (nseg = 1: a plain sort), any S, keys-only or with 4/8-byte values.
 *
 * Network. Keys are first mapped to order-preserving unsigned integers (see
 * src/cpu/sort_cpu.h; descending complements them), so only two key widths exist.
 * Every merge level L (blocks of 2^L) starts with a "mirror" stage that compares i
 * with i ^ (2^L - 1), then ordinary stages i vs i ^ 2^b for b = L-2 .. 0; every
 * comparator puts the smaller key at the smaller index. With all comparators ascending,
 * a segment of S keys behaves as if padded to P = 2^ceil(log2 S) with +inf: elements
 * at or past S are never read or written (they load as the all-ones key, which a
 * strict compare never moves below a real key), so no padding memory and no wasted
 * passes over a whole power of two.
 *
 * Windows. A thread holds ITEMS = 2^LOGI elements whose indices differ exactly in a
 * window of LOGI consecutive bits [wl, wl + LOGI); every stage whose bit lies in the
 * window runs in registers with no communication. For a mirror stage whose top bit
 * is in the window, the thread's upper-half elements are taken with their index bits
 * below wl flipped, so the mirror partner is again in the same thread.
 *
 * Launches. bs_block_sort: one block sorts a tile of F = THREADS * ITEMS keys (or
 * F/P whole segments when P <= F: a segmented sort of small segments is this one
 * launch) through shared memory, re-windowing via shared memory every LOGI stages.
 * For each level L above log2 F: bs_global (stages with bits >= log2 F, LOGI of them
 * per launch, straight from global memory, coalesced) then bs_finish (the log2 F
 * stages below, in shared memory, one launch). Global traffic for a sort of n = 2^m:
 * 1 + sum_{L > f} (ceil((L - f) / LOGI) + 1) read+write passes, f = log2 F.
 * Up to 2^16 keys in one sort (and segments of 2^14 .. 2^16 four-byte keys) a single
 * launch does it all instead: bs_cluster_sort (bitonic_cluster.cuh), one cluster of
 * blocks whose tiles together hold the segment, the cross-tile stages done through
 * distributed shared memory.
 * Float total order, determinism: keys are compared as unsigned integers. */
#include "cuda/sort/sort_cuda.h"
#include "core/key_codec.h"
#include "cuda/common/per_device.h"

#include <cuda_runtime.h>
#include <stdint.h>

typedef unsigned long long u64;

/* 1: the cluster kernel of 8-byte keys in tiles of 16 a thread unrolled as the 4-byte
   one (slower: see bs_smem_sort_rolled); for A/B builds */
#ifndef GP_BS_UNROLL8
#define GP_BS_UNROLL8 0
#endif


/* ---- compare-exchange: the smaller key to a ---------------------------------------- */
template <typename K, typename V, bool PV>
__device__ __forceinline__ void bs_cx(K &a, K &b, V &va, V &vb) {
  if (PV) {
    bool sw = a > b;
    K ka = sw ? b : a, kb = sw ? a : b;
    V xa = sw ? vb : va, xb = sw ? va : vb;
    a = ka; b = kb; va = xa; vb = xb;
  } else {
    K lo = min(a, b), hi = max(a, b);
    a = lo; b = hi;
  }
}

/* Stage on window bit B: c (bit B clear) vs c | 2^B. Mirror: c vs c ^ (2^(B+1) - 1). */
template <int B, int ITEMS, typename K, typename V, bool PV>
__device__ __forceinline__ void bs_reg_stage(K *k, V *v, bool mirror) {
  if (mirror) {
#pragma unroll
    for (int c = 0; c < ITEMS; c++)
      if (!(c & (1 << B))) bs_cx<K, V, PV>(k[c], k[c ^ ((2 << B) - 1)], v[c], v[c ^ ((2 << B) - 1)]);
  } else {
#pragma unroll
    for (int c = 0; c < ITEMS; c++)
      if (!(c & (1 << B))) bs_cx<K, V, PV>(k[c], k[c | (1 << B)], v[c], v[c | (1 << B)]);
  }
}
template <int LOGI, typename K, typename V, bool PV>
__device__ __forceinline__ void bs_reg_stage_rt(int b, K *k, V *v, bool mirror) {
  constexpr int I = 1 << LOGI;
  switch (b) {
  case 0: bs_reg_stage<0, I, K, V, PV>(k, v, mirror); break;
  case 1: if (LOGI > 1) bs_reg_stage<(LOGI > 1 ? 1 : 0), I, K, V, PV>(k, v, mirror); break;
  case 2: if (LOGI > 2) bs_reg_stage<(LOGI > 2 ? 2 : 0), I, K, V, PV>(k, v, mirror); break;
  case 3: if (LOGI > 3) bs_reg_stage<(LOGI > 3 ? 3 : 0), I, K, V, PV>(k, v, mirror); break;
  case 4: if (LOGI > 4) bs_reg_stage<(LOGI > 4 ? 4 : 0), I, K, V, PV>(k, v, mirror); break;
  }
}

/* Index of item c of window thread t: window bits [wl, wl+LOGI) hold c, the others
 * hold t; with mbit >= 0, items whose window bit mbit is set take t's bits below wl
 * flipped (the mirror stage's partners). Used by the global-memory passes. */
template <int LOGI>
__device__ __forceinline__ u64 bs_widx(u64 t, unsigned wl, int c, int mbit) {
  u64 lowmask = (1ull << wl) - 1;
  u64 low = t & lowmask;
  if (mbit >= 0 && ((c >> mbit) & 1)) low ^= lowmask;
  return ((t >> wl) << (wl + LOGI)) | ((u64)c << wl) | low;
}

/* Shared-memory slot of tile index i: one pad word per ITEMS keeps a warp's window
 * accesses on distinct banks for every window position. */
template <int LOGI>
__device__ __forceinline__ unsigned bs_slot(unsigned i) { return i + (i >> LOGI); }

/* A tile of THREADS x 2^LOGI keys: log2 of its size, its slots (keys plus one pad per
 * 2^LOGI), and the dynamic shared memory of its keys and values. */
template <int LOGI, int THREADS>
__host__ __device__ constexpr int bs_tile_log2() {
  static_assert(THREADS >= 64 && THREADS <= 1024 && (THREADS & (THREADS - 1)) == 0,
                "THREADS must be a power of two from 64 to 1024");
  return LOGI + (THREADS == 64 ? 6 : THREADS == 128 ? 7 : THREADS == 256 ? 8 : THREADS == 512 ? 9 : 10);
}
template <int LOGI, int THREADS>
__host__ __device__ constexpr unsigned bs_tile_slots() { return (THREADS << LOGI) + THREADS; }
template <int LOGI, int THREADS, typename K, typename V, bool PV>
__host__ __device__ constexpr size_t bs_tile_smem() {
  return (size_t)bs_tile_slots<LOGI, THREADS>() * (sizeof(K) + (PV ? sizeof(V) : 0));
}

/* Loads (store = false) or stores the window [wl, wl + LOGI) of thread t from / to
 * shared memory, the mirror partners (mbit >= 0) as in bs_widx. Every caller passes
 * compile-time wl and mbit (its loops are unrolled): the index of item c is then one of
 * two per-thread bases plus a constant, since base and c << wl share no bit and
 * slot(base | c << wl) = slot(base) + (c << wl) + ((c << wl) >> LOGI). */
template <int LOGI, typename K, typename V, bool PV>
__device__ __forceinline__ void bs_window_io(K *sk, V *sv, unsigned t, int wl, int mbit,
                                             K *k, V *v, bool store) {
  constexpr int I = 1 << LOGI;
  const unsigned lowmask = (1u << wl) - 1;
  const unsigned hi = (t >> wl) << (wl + LOGI);
  const unsigned s0 = bs_slot<LOGI>(hi | (t & lowmask));
  const unsigned s1 = bs_slot<LOGI>(hi | ((t & lowmask) ^ lowmask));
#pragma unroll
  for (int c = 0; c < I; c++) {
    const unsigned o = ((unsigned)c << wl) + (((unsigned)c << wl) >> LOGI);
    const unsigned s = ((mbit >= 0 && ((c >> mbit) & 1)) ? s1 : s0) + o;
    if (store) {
      sk[s] = k[c];
      if (PV) sv[s] = v[c];
    } else {
      k[c] = sk[s];
      if (PV) v[c] = sv[s];
    }
  }
}

/* One shared-memory round: load thread t's window, run the stages top .. wl of level L
 * in registers (the first one the mirror when top = L - 1), store, synchronize. */
template <int LOGI, typename K, typename V, bool PV>
__device__ __forceinline__ void bs_round(K *sk, V *sv, unsigned t, int L, int top) {
  constexpr int I = 1 << LOGI;
  K k[I];
  V v[I];
  const int wl = top - LOGI + 1 > 0 ? top - LOGI + 1 : 0;
  const int mbit = (top == L - 1 && wl > 0) ? top - wl : -1;
  bs_window_io<LOGI, K, V, PV>(sk, sv, t, wl, mbit, k, v, false);
#pragma unroll
  for (int b = top; b >= wl; b--) bs_reg_stage_rt<LOGI, K, V, PV>(b - wl, k, v, b == L - 1);
  bs_window_io<LOGI, K, V, PV>(sk, sv, t, wl, mbit, k, v, true);
  __syncthreads();
}

/* Levels 1 .. min(Lend, LOGI) of the tile: one round in registers (window [0, LOGI)),
 * then synchronized. */
template <int LOGI, typename K, typename V, bool PV>
__device__ __forceinline__ void bs_first_round(K *sk, V *sv, unsigned Lend) {
  constexpr int I = 1 << LOGI;
  const unsigned t = threadIdx.x;
  K k[I];
  V v[I];
  bs_window_io<LOGI, K, V, PV>(sk, sv, t, 0, -1, k, v, false);
#pragma unroll
  for (int L = 1; L <= LOGI; L++) {
    if ((unsigned)L > Lend) break;
#pragma unroll
    for (int b = L - 1; b >= 0; b--) bs_reg_stage_rt<LOGI, K, V, PV>(b, k, v, b == L - 1);
  }
  bs_window_io<LOGI, K, V, PV>(sk, sv, t, 0, -1, k, v, true);
  __syncthreads();
}

/* Sorts the tile in shared memory: levels 1 .. Lend (Lend <= LOGF). Levels up to LOGI
 * run in one round (window [0, LOGI)); level L > LOGI takes ceil(L / LOGI) rounds.
 * The loops are unrolled, so every window is a compile-time constant; Lend only cuts
 * them short. Starts and ends synchronized. */
template <int LOGI, int LOGF, typename K, typename V, bool PV>
__device__ __forceinline__ void bs_smem_sort(K *sk, V *sv, unsigned Lend) {
  const unsigned t = threadIdx.x;
  bs_first_round<LOGI, K, V, PV>(sk, sv, Lend);
#pragma unroll
  for (int L = LOGI + 1; L <= LOGF; L++) {
    if ((unsigned)L > Lend) break;
#pragma unroll
    for (int top = L - 1; top >= 0; top -= LOGI) bs_round<LOGI, K, V, PV>(sk, sv, t, L, top);
  }
}

/* Levels 1 .. min(logP, LOGF) of bs_smem_sort. A whole tile (logP >= LOGF) passes the
 * constant LOGF, so nvcc unrolls every round (windows and slot offsets become
 * constants); shorter segments take the rolled loops. Used by bs_cluster_sort, where
 * it measured faster (docs/perf/sort.md). */
template <int LOGI, int LOGF, typename K, typename V, bool PV>
__device__ __forceinline__ void bs_smem_sort_tile(K *sk, V *sv, unsigned logP) {
  if (logP >= (unsigned)LOGF) bs_smem_sort<LOGI, LOGF, K, V, PV>(sk, sv, LOGF);
  else bs_smem_sort<LOGI, LOGF, K, V, PV>(sk, sv, logP);
}

/* bs_smem_sort with its rounds in rolled loops (windows and slot offsets computed at run
 * time): a fraction of the code. The cluster kernel of 8-byte keys in tiles of 16 keys a
 * thread takes it: unrolled, its warps spent 72% of their cycles waiting on instruction
 * fetch (ncu, u64 keys at 2^13: 59 us for a sort that 4-byte keys finish in 10). H200,
 * 2026-12-02, u64 keys 2^13 / 2^14 / 2^15 / 2^16: 61.2 / 72.0 / 82.9 / 95.9 us unrolled,
 * 34.4 / 40.2 / 46.8 / 55.2 rolled (docs/perf/sort.md). */
template <int LOGI, int LOGF, typename K, typename V, bool PV>
__device__ __forceinline__ void bs_smem_sort_rolled(K *sk, V *sv, unsigned Lend) {
  const unsigned t = threadIdx.x;
  bs_first_round<LOGI, K, V, PV>(sk, sv, Lend);
#pragma unroll 1
  for (int L = LOGI + 1; L <= LOGF && (unsigned)L <= Lend; L++)
#pragma unroll 1
    for (int top = L - 1; top >= 0; top -= LOGI) bs_round<LOGI, K, V, PV>(sk, sv, t, L, top);
}

struct bs_args {
  u64 S;          /* segment size */
  u64 nseg;
  unsigned logP;  /* P = 2^logP >= S */
  gp_key_class kind;
  int desc;
  const void *kin; /* the cluster sort's keys to read when not the ones it writes (gp_sort_copy) */
};

/* Maps tile position q of block blk to a global index; false where it is padding. */
template <int LOGF>
__device__ __forceinline__ bool bs_tile_index(const bs_args &a, u64 blk, unsigned q, u64 *g) {
  u64 seg, local;
  if (a.logP <= LOGF) {
    seg = (blk << (LOGF - a.logP)) + (q >> a.logP);
    local = q & ((1u << a.logP) - 1);
  } else {
    u64 tps = (a.S + (1ull << LOGF) - 1) >> LOGF;
    seg = blk / tps;
    local = ((blk % tps) << LOGF) | q;
  }
  *g = seg * a.S + local;
  return seg < a.nseg && local < a.S;
}

template <typename K> __device__ __forceinline__ K bs_maxkey() { return (K)~(K)0; }

/* Block sort: sorts each tile (levels 1 .. min(logP, log2 F)) in shared memory. Reads
 * and writes the tile once; encodes keys on load; decodes on store when it is the
 * whole sort (P <= F). Cost: log2 F (log2 F + 1) / 2 stages, about (log2 F)^2 / (2 LOGI)
 * shared-memory round trips of the tile. */
template <int LOGI, int THREADS, typename K, typename V, bool PV>
__global__ void __launch_bounds__(THREADS)
bs_block_sort(K *keys, V *vals, bs_args a) {
  constexpr int F = THREADS << LOGI;
  constexpr unsigned LOGF = (unsigned)bs_tile_log2<LOGI, THREADS>();
  extern __shared__ __align__(16) unsigned char bs_smem[];
  K *sk = (K *)bs_smem;
  V *sv = (V *)(sk + bs_tile_slots<LOGI, THREADS>());
  const u64 blk = blockIdx.x;
  for (unsigned q = threadIdx.x; q < (unsigned)F; q += THREADS) {
    u64 g;
    bool ok = bs_tile_index<LOGF>(a, blk, q, &g);
    unsigned s = bs_slot<LOGI>(q);
    sk[s] = ok ? gp_key_enc(keys[g], a.kind, a.desc) : bs_maxkey<K>();
    if (PV) sv[s] = ok ? vals[g] : (V)0;
  }
  __syncthreads();
  /* rolled (runtime Lend): unrolled rounds of a whole 8192-key tile measured slower
     here at 2^24 and raised the registers of the small-segment case too
     (docs/perf/sort.md) */
  bs_smem_sort<LOGI, LOGF, K, V, PV>(sk, sv, a.logP < LOGF ? a.logP : LOGF);
  const bool last = a.logP <= LOGF;
  for (unsigned q = threadIdx.x; q < (unsigned)F; q += THREADS) {
    u64 g;
    if (!bs_tile_index<LOGF>(a, blk, q, &g)) continue;
    unsigned s = bs_slot<LOGI>(q);
    K x = sk[s];
    keys[g] = last ? gp_key_dec(x, a.kind, a.desc) : x;
    if (PV) vals[g] = sv[s];
  }
}

/* Finish of level L > log2 F: the log2 F stages below the tile size, in shared
 * memory. Its first window is loaded straight from global memory (coalesced: item c
 * of thread t is c * THREADS + t). One read + one write of the data. */
template <int LOGI, int THREADS, typename K, typename V, bool PV>
__global__ void __launch_bounds__(THREADS)
bs_finish(K *keys, V *vals, bs_args a, unsigned L) {
  constexpr int I = 1 << LOGI, F = THREADS << LOGI;
  constexpr unsigned LOGF = (unsigned)bs_tile_log2<LOGI, THREADS>();
  extern __shared__ __align__(16) unsigned char bs_smem[];
  K *sk = (K *)bs_smem;
  V *sv = (V *)(sk + bs_tile_slots<LOGI, THREADS>());
  const u64 blk = blockIdx.x;
  const unsigned t = threadIdx.x;
  const int wl = (int)LOGF - LOGI;
  K k[I];
  V v[I];
#pragma unroll
  for (int c = 0; c < I; c++) {
    unsigned q = (unsigned)c * THREADS + t;
    u64 g;
    bool ok = bs_tile_index<LOGF>(a, blk, q, &g);
    k[c] = ok ? keys[g] : bs_maxkey<K>();
    if (PV) v[c] = ok ? vals[g] : (V)0;
  }
#pragma unroll
  for (int b = (int)LOGF - 1; b >= wl; b--) bs_reg_stage_rt<LOGI, K, V, PV>(b - wl, k, v, false);
#pragma unroll
  for (int c = 0; c < I; c++) {
    unsigned s = bs_slot<LOGI>((unsigned)c * THREADS + t);
    sk[s] = k[c];
    if (PV) sv[s] = v[c];
  }
  __syncthreads();
  /* the stages below the registers' window; none is a mirror (that one ran in bs_global),
     so the level passed is any one above them, a constant keeping the windows constant */
#pragma unroll
  for (int top = wl - 1; top >= 0; top -= LOGI) bs_round<LOGI, K, V, PV>(sk, sv, t, (int)LOGF + 1, top);
  const bool last = L == a.logP;
  for (unsigned q = t; q < (unsigned)F; q += THREADS) {
    u64 g;
    if (!bs_tile_index<LOGF>(a, blk, q, &g)) continue;
    unsigned s = bs_slot<LOGI>(q);
    K x = sk[s];
    keys[g] = last ? gp_key_dec(x, a.kind, a.desc) : x;
    if (PV) vals[g] = sv[s];
  }
}

/* Stages b_hi down to b_lo (all >= log2 F) of level L, window [wl, wl + LOGI): each
 * thread loads its ITEMS elements from global memory (coalesced: consecutive threads
 * take consecutive indices below wl), runs the stages in registers and stores them.
 * One read + one write per element for up to LOGI stages. */
template <int LOGI, int THREADS, typename K, typename V, bool PV>
__global__ void __launch_bounds__(THREADS)
bs_global(K *keys, V *vals, bs_args a, unsigned L, int b_hi, int b_lo, unsigned wl) {
  constexpr int I = 1 << LOGI;
  const u64 gt = (u64)blockIdx.x * THREADS + threadIdx.x;
  const unsigned logT = a.logP - LOGI; /* threads per segment = 2^logT */
  const u64 seg = gt >> logT;
  if (seg >= a.nseg) return;
  const u64 t = gt & ((1ull << logT) - 1);
  const int mbit = (b_hi == (int)L - 1) ? b_hi - (int)wl : -1;
  if (bs_widx<LOGI>(t, wl, 0, mbit) >= a.S) return; /* item 0 is the smallest index */
  K *sk = keys + seg * a.S;
  V *sv = vals ? vals + seg * a.S : vals;
  K k[I];
  V v[I];
#pragma unroll
  for (int c = 0; c < I; c++) {
    u64 i = bs_widx<LOGI>(t, wl, c, mbit);
    bool ok = i < a.S;
    k[c] = ok ? sk[i] : bs_maxkey<K>();
    if (PV) v[c] = ok ? sv[i] : (V)0;
  }
  for (int b = b_hi; b >= b_lo; b--)
    bs_reg_stage_rt<LOGI, K, V, PV>(b - (int)wl, k, v, b == (int)L - 1);
#pragma unroll
  for (int c = 0; c < I; c++) {
    u64 i = bs_widx<LOGI>(t, wl, c, mbit);
    if (i < a.S) {
      sk[i] = k[c];
      if (PV) sv[i] = v[c];
    }
  }
}

/* ---- host side --------------------------------------------------------------------- */
#include "cuda/sort/bitonic_cluster.cuh"

#define BS_THREADS 256 /* tile kernels for large problems */

template <int LOGI, int THREADS, typename K, typename V, bool PV>
static gp_status bs_launch_block(gp_context *ctx, K *keys, V *vals, const bs_args &a, u64 blocks) {
  constexpr size_t smem = bs_tile_smem<LOGI, THREADS, K, V, PV>();
  static unsigned long long attr_set; /* per device: common/per_device.h */
  if (!gp_dev_flag(&attr_set, ctx->device)) {
    GP_CUDA_TRY(ctx, cudaFuncSetAttribute(bs_block_sort<LOGI, THREADS, K, V, PV>,
                                          cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
    gp_dev_flag_set(&attr_set, ctx->device);
  }
  bs_block_sort<LOGI, THREADS, K, V, PV><<<(unsigned)blocks, THREADS, smem, (cudaStream_t)ctx->stream>>>(keys, vals, a);
  GP_LAUNCH_CHECK(ctx, "bs_block_sort", blocks, THREADS, smem);
  return GP_OK;
}

template <int LOGI, typename K, typename V, bool PV>
static gp_status bs_run(gp_context *ctx, K *keys, V *vals, bs_args a) {
  constexpr unsigned LOGF = LOGI + 8;
  const cudaStream_t st = (cudaStream_t)ctx->stream;
  /* One launch, one cluster (bitonic_cluster.cuh). Shapes measured on the H200
     (docs/perf/sort.md): up to 2^12 keys, tiles of 512 keys (128 threads x 4) in up to 8
     blocks (at 2^11 faster than 64 x 8, 128 x 8, 256 x 2 or 64 x 4 per tile, and than
     one block of 256 x 8); up to 2^16, tiles of 4096 (256 x 16) in up to 16 blocks,
     which beat tiles of 8192 in 8 blocks (the block sort, a chain of latencies, halves
     with the tile). */
  int done = 0;
  gp_status s;
  const bool clusters = ctx->info.arch >= 90; /* sm_90+; GPUPRIMS_FORCE_ARCH can lower it */
  if (clusters && a.nseg == 1 && a.logP <= 12)
    return bs_launch_cluster<2, 128, K, V, PV>(ctx, keys, vals, a, &done);
  if (clusters && a.nseg == 1 && a.logP <= 16) {
    if ((s = bs_launch_cluster<4, 256, K, V, PV>(ctx, keys, vals, a, &done)) || done) return s;
  }
  /* many segments of 2^14 .. 2^16 four-byte keys: a cluster of up to 8 tiles of 8192 per
     segment (measured faster than the tile + global passes from 16384 up) */
  if constexpr (sizeof(K) == 4 && !PV)
    if (clusters && a.nseg > 1 && a.logP >= 14 && a.logP <= 16) {
      if ((s = bs_launch_cluster<4, 512, K, V, PV>(ctx, keys, vals, a, &done)) || done) return s;
    }
  u64 blocks;
  if (a.logP <= LOGF) {
    u64 spb = 1ull << (LOGF - a.logP);
    blocks = (a.nseg + spb - 1) / spb;
  } else {
    blocks = a.nseg * ((a.S + (1ull << LOGF) - 1) >> LOGF);
  }
  if (blocks > 0x7FFFFFFFull)
    return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT, "sort too large for one grid (%llu blocks)", blocks);
  s = bs_launch_block<LOGI, BS_THREADS, K, V, PV>(ctx, keys, vals, a, blocks);
  if (s) return s;
  if (a.logP <= LOGF) return GP_OK;

  constexpr size_t smem = bs_tile_smem<LOGI, BS_THREADS, K, V, PV>();
  static unsigned long long attr_set; /* per device: common/per_device.h */
  if (!gp_dev_flag(&attr_set, ctx->device)) {
    GP_CUDA_TRY(ctx, cudaFuncSetAttribute(bs_finish<LOGI, BS_THREADS, K, V, PV>,
                                          cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
    gp_dev_flag_set(&attr_set, ctx->device);
  }
  u64 gthreads = a.nseg << (a.logP - LOGI);
  u64 gblocks = (gthreads + BS_THREADS - 1) / BS_THREADS;
  if (gblocks > 0x7FFFFFFFull)
    return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT, "sort too large for one grid (%llu blocks)", gblocks);
  for (unsigned L = LOGF + 1; L <= a.logP; L++) {
    int b = (int)L - 1;
    while (b >= (int)LOGF) {
      int wl = b - LOGI + 1;
      if (wl < (int)LOGF) wl = (int)LOGF;
      if (wl > (int)a.logP - LOGI) wl = (int)a.logP - LOGI;
      int lo = wl > (int)LOGF ? wl : (int)LOGF;
      bs_global<LOGI, BS_THREADS, K, V, PV><<<(unsigned)gblocks, BS_THREADS, 0, st>>>(
          keys, vals, a, L, b, lo, (unsigned)wl);
      GP_LAUNCH_CHECK(ctx, "bs_global", gblocks, BS_THREADS, 0);
      b = lo - 1;
    }
    bs_finish<LOGI, BS_THREADS, K, V, PV><<<(unsigned)blocks, BS_THREADS, smem, st>>>(keys, vals, a, L);
    GP_LAUNCH_CHECK(ctx, "bs_finish", blocks, BS_THREADS, smem);
  }
  return GP_OK;
}

extern "C" gp_status gp_cuda_bitonic_sort(gp_context *ctx, gp_dtype kt, void *keys,
                                          int vb, void *values, size_t nseg, size_t seg,
                                          int desc) {
  if (nseg == 0 || seg <= 1) return GP_OK;
  bs_args a;
  a.S = seg;
  a.nseg = nseg;
  a.logP = 0;
  while ((1ull << a.logP) < (u64)seg) a.logP++;
  a.kind = gp_key_class_of(kt);
  a.desc = desc;
  a.kin = NULL;
  if (gp_dtype_size(kt) == 4) {
    uint32_t *k = (uint32_t *)keys;
    if (vb == 0) return bs_run<5, uint32_t, uint32_t, false>(ctx, k, (uint32_t *)NULL, a);
    if (vb == 4) return bs_run<4, uint32_t, uint32_t, true>(ctx, k, (uint32_t *)values, a);
    return bs_run<4, uint32_t, u64, true>(ctx, k, (u64 *)values, a);
  }
  u64 *k = (u64 *)keys;
  if (vb == 0) return bs_run<4, u64, uint32_t, false>(ctx, k, (uint32_t *)NULL, a);
  if (vb == 4) return bs_run<4, u64, uint32_t, true>(ctx, k, (uint32_t *)values, a);
  /* 8-byte keys and values in tiles of 4096 take 68 KiB of shared memory, more than the
     64 KiB a block may have on sm_75 (Turing): tiles of 2048 there */
  if (ctx->info.arch < 80) return bs_run<3, u64, u64, true>(ctx, k, (u64 *)values, a);
  return bs_run<4, u64, u64, true>(ctx, k, (u64 *)values, a);
}

/* gp_sort_copy's one-cluster sort: n keys alone read from in, written sorted to out (no
   overlap); *done = 0 where the keys need more than one cluster or the GPU has none, and
   then nothing was launched. */
extern "C" gp_status gp_cuda_bitonic_sort_copy(gp_context *ctx, gp_dtype kt, const void *in, void *out,
                                               size_t n, int desc, int *done) {
  *done = 0;
  bs_args a;
  a.S = n;
  a.nseg = 1;
  a.logP = 0;
  while ((1ull << a.logP) < (u64)n) a.logP++;
  a.kind = gp_key_class_of(kt);
  a.desc = desc;
  a.kin = in;
  if (ctx->info.arch < 90 || n < 2 || a.logP > 16) return GP_OK;
  if (gp_dtype_size(kt) == 4) {
    uint32_t *k = (uint32_t *)out;
    return a.logP <= 12 ? bs_launch_cluster<2, 128, uint32_t, uint32_t, false>(ctx, k, NULL, a, done)
                        : bs_launch_cluster<4, 256, uint32_t, uint32_t, false>(ctx, k, NULL, a, done);
  }
  u64 *k = (u64 *)out;
  return a.logP <= 12 ? bs_launch_cluster<2, 128, u64, uint32_t, false>(ctx, k, NULL, a, done)
                      : bs_launch_cluster<4, 256, u64, uint32_t, false>(ctx, k, NULL, a, done);
}
