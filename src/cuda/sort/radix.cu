/* GP_SORT_RADIX: stable LSD radix sort of the one-sweep class (Adinets & Merrill,
 * "Onesweep: A Faster Least Significant Digit Radix Sort for GPUs", 2022), keys of 4 or
 * 8 bytes encoded by core/key_codec.h, values of 4 or 8 bytes moving along.
 *
 * Device-wide sort (n above one tile), on the context's stream, no host sync:
 *   rx_histogram  one read of the keys counts every digit of every pass (8-bit digits)
 *   rx_plan       one block: exclusive scans of the counts (each digit's global start)
 *                 and the pass plan: a pass whose digit is the same for every key is
 *                 skipped, and the buffers ping-pong so the last pass lands in place
 *   rx_onesweep   per digit: each block takes the next tile (an atomic ticket, so all
 *                 earlier tiles are running or done), publishes its digit counts
 *                 (counted first, so later tiles rarely wait), ranks it stably in
 *                 shared memory (a warp multi-split by ballots), looks back over
 *                 earlier tiles (decoupled look-back, one thread per digit) for the
 *                 global offsets, then scatters through shared memory so each digit's
 *                 run is written contiguously
 *   rx_fixup      copies the other buffer back when an odd pass count ended there
 * Segments (and single sorts) of up to one tile take one read and one write: up to 32
 * keys four lanes each (rx_warpsort, a bitonic network in registers), larger ones a
 * block each (rx_segsort: the same stable ranking, every pass in shared memory).
 * Sorts (and segments) of above the big block up to 2^16 keys (4-byte keys alone, not
 * segments: 2^17) take one thread-block cluster each (radix_cluster.cuh: every pass in
 * the cluster's distributed shared memory) on sm_90+. Larger segments take the
 * device-wide sort: of 4-byte keys, when there are many, all together as (segment, key)
 * composites; otherwise one after another. rx_summarize checks device-resident offsets
 * and lists those segments for the host.
 *
 * Keys are read raw and encoded in registers at every pass (a few ALU operations), so
 * every buffer holds caller-visible keys. Stable: the ranking keeps input order within
 * a digit. Deterministic: the look-back sums are integer counts. */
#include "cuda/sort/sort_cuda.h"
#include "cuda/sort/radix_policy.h"
#include "cuda/sort/radix_match.cuh"
#include "core/key_codec.h"
#include "cuda/common/pdl.cuh"
#include "cuda/common/per_device.h"

#include <cuda_runtime.h>
#include <stdint.h>
#include <type_traits>
#include <stdlib.h>
#include <string.h>

typedef unsigned long long u64;

#define RX_MAXPASS 8
static_assert(GP_RX_THREADS >= GP_RX_RADIX && GP_RX_THREADS % 32 == 0 && GP_RX_THREADS <= 1024,
              "the look-back gives one thread per digit: GP_RX_THREADS >= 256, whole warps");
static_assert(GP_RX_SMALL_THREADS % 32 == 0, "GP_RX_SMALL_THREADS: whole warps");

template <typename K> __host__ __device__ constexpr int rx_items() {
  return sizeof(K) == 4 ? GP_RX_ITEMS4 : GP_RX_ITEMS8;
}
template <typename K> __host__ __device__ constexpr unsigned rx_tile() {
  return (unsigned)GP_RX_THREADS * rx_items<K>();
}
/* the one-sweep pass's shape: fewer keys per thread when values come along, and far
 * fewer (RX_SW_SMALL) for sorts of up to 2^GP_RX_SMALL_SWEEP_LOG2 keys, whose few large
 * tiles would leave most SMs idle while each block ranks its keys one item after
 * another; RX_SW_WIDE: 8-byte keys with 8-byte values in larger tiles, on GPUs whose
 * blocks may take their shared memory (rx_wide_ok) */
enum { RX_SW_BIG = 0, RX_SW_SMALL = 1, RX_SW_WIDE = 2 };
template <typename K, int VB, int SHAPE> __host__ __device__ constexpr int rx_sweep_items() {
  return SHAPE == RX_SW_SMALL
             ? (sizeof(K) == 4 ? GP_RX_SMALL_SWEEP_ITEMS4 : GP_RX_SMALL_SWEEP_ITEMS8)
         : VB == 0 ? rx_items<K>()
         : sizeof(K) == 4 ? (VB == 8 ? GP_RX_PAIR_ITEMS4_V8 : GP_RX_PAIR_ITEMS4)
         : VB == 8 ? (SHAPE == RX_SW_WIDE ? GP_RX_PAIR_ITEMS8_V8_WIDE : GP_RX_PAIR_ITEMS8_V8)
         : GP_RX_PAIR_ITEMS8;
}
/* VB: bytes of a value, 0 for keys alone */
template <typename K, int VB, int SHAPE> __host__ __device__ constexpr unsigned rx_sweep_tile() {
  return (unsigned)GP_RX_THREADS * rx_sweep_items<K, VB, SHAPE>();
}
static bool rx_small_sweep(size_t n) { return n <= ((size_t)1 << GP_RX_SMALL_SWEEP_LOG2); }
template <typename K> __host__ __device__ constexpr int rx_npass() {
  return (int)(sizeof(K) * 8 / GP_RX_BITS);
}

/* ---- look-back words: flag (2 bits) | pass tag (4 bits) | count (58 bits) ---------- */
#define RX_FLAG_AGG 1ull    /* this tile's own count */
#define RX_FLAG_PREFIX 2ull /* the count of this tile and all before it */
#define RX_VAL_MASK ((1ull << 58) - 1)
__device__ __forceinline__ u64 rx_word(u64 flag, int pass, u64 v) {
  return (flag << 62) | ((u64)(pass + 1) << 58) | v;
}

/* ---- shared memory of the block ranking --------------------------------------------- */
template <int THREADS> struct rx_rank_smem {
  unsigned whist[(THREADS / 32) * GP_RX_RADIX]; /* per warp, per digit */
  unsigned cnt[GP_RX_RADIX];                     /* the tile's count of each digit */
  unsigned dstart[GP_RX_RADIX];                  /* exclusive scan of cnt */
};

/* The digit of encoded key e at `shift` (a multiple of GP_RX_BITS); PERM, 4-byte keys: one
 * byte permute (PRMT) instead of a shift and a mask (the one-sweep pass; in rx_segsort it
 * cost registers). */
template <bool PERM = false, typename K> __device__ __forceinline__ unsigned rx_digit(K e, unsigned shift) {
  if constexpr (PERM && sizeof(K) == 4 && GP_RX_BITS == 8)
    return __byte_perm((unsigned)e, 0u, 0x4440u | (shift >> 3));
  else
    return (unsigned)(e >> shift) & (GP_RX_RADIX - 1);
}

/* *p += v by the lane with `leader` set, returning the old value there (0 elsewhere), as
 * a predicated PTX atomic. ptxas branches around it all the same (s25-b's SASS), but
 * schedules the pairs' pass better than around `if (leader) atomicAdd(...)` (H200,
 * s25-final2, docs/perf/sort.md: pairs 0.4-0.8% faster); keys alone were not. */
__device__ __forceinline__ unsigned rx_leader_add(unsigned *p, unsigned v, bool leader) {
  unsigned r = 0;
  asm volatile("{\n\t.reg .pred q;\n\tsetp.ne.u32 q, %3, 0;\n\t"
               "@q atom.shared.add.u32 %0, [%1], %2;\n\t}"
               : "+r"(r)
               : "r"((unsigned)__cvta_generic_to_shared(p)), "r"(v), "r"((unsigned)leader)
               : "memory");
  return r;
}

__device__ __forceinline__ unsigned rx_match_digit(unsigned d) {
  unsigned peers = 0xFFFFFFFFu;
#pragma unroll
  for (int b = 0; b < GP_RX_BITS; b++) peers = rx_match_bit(peers, d, 1u << b);
  return peers;
}

/* Ranking the block's keys stably on the digit at `shift`, in two calls with the tile's
 * digit counts in between (so the one-sweep pass publishes them before the costly part,
 * and later tiles' look-back rarely waits). Item i of lane l in warp w is tile position
 * (w * ITEMS + i) * 32 + l, a key below `count` and a pad from there on: the caller sets
 * pads to ~0 (digit 255 at every shift), so they rank after every key, in the last
 * places, and the ranking needs no validity test (a full tile has none).
 *
 * rx_rank_count: each warp counts its keys' digits in its own row of s.whist (shared
 * atomics), then per digit the rows become the warps' exclusive prefixes and s.cnt the
 * tile's count, pads included in s.cnt[255]. On return s.cnt[d] is visible to the
 * thread that wrote it (d mod THREADS); the zeroing of a warp's row must not overlap a
 * previous reader (callers sync between uses of s). */
template <int THREADS, int ITEMS, typename K, bool PERM = false>
__device__ __forceinline__ void rx_rank_count(const K (&ek)[ITEMS], unsigned count, unsigned shift,
                                              rx_rank_smem<THREADS> &s) {
  constexpr int WARPS = THREADS / 32;
  const unsigned tid = threadIdx.x, lane = tid & 31, w = tid >> 5;
  unsigned *wh = s.whist + w * GP_RX_RADIX;
  for (unsigned j = lane; j < GP_RX_RADIX; j += 32) wh[j] = 0;
  __syncwarp();
  if (count >= (unsigned)(THREADS * ITEMS)) {
#pragma unroll
    for (int i = 0; i < ITEMS; i++) atomicAdd(&wh[rx_digit<PERM>(ek[i], shift)], 1u);
  } else {
    /* the pads of an item: one add by their first lane (not 32 colliding ones) */
#pragma unroll
    for (int i = 0; i < ITEMS; i++) {
      const bool key = (w * ITEMS + i) * 32 + lane < count;
      const unsigned pads = __ballot_sync(0xFFFFFFFFu, !key);
      if (key)
        atomicAdd(&wh[rx_digit<PERM>(ek[i], shift)], 1u);
      else if (lane == (unsigned)(__ffs(pads) - 1))
        atomicAdd(&wh[GP_RX_RADIX - 1], (unsigned)__popc(pads));
    }
  }
  __syncthreads();
  for (unsigned d = tid; d < GP_RX_RADIX; d += THREADS) {
    unsigned run = 0;
#pragma unroll
    for (int ww = 0; ww < WARPS; ww++) {
      const unsigned t = s.whist[ww * GP_RX_RADIX + d];
      s.whist[ww * GP_RX_RADIX + d] = run;
      run += t;
    }
    s.cnt[d] = run;
  }
}

/* One warp: out[d] = (ADD ? out[d] : 0) + the sum of in[0 .. d), over the 256 digits,
 * eight consecutive digits a lane. */
template <bool ADD>
__device__ __forceinline__ void rx_warp_scan256(const unsigned *in, unsigned *out) {
  constexpr int PER = GP_RX_RADIX / 32;
  const unsigned lane = threadIdx.x & 31;
  unsigned c[PER], sum = 0;
#pragma unroll
  for (int j = 0; j < PER; j++) {
    c[j] = in[lane * PER + j];
    sum += c[j];
  }
  unsigned incl = sum;
#pragma unroll
  for (int o = 1; o < 32; o <<= 1) {
    unsigned y = __shfl_up_sync(0xFFFFFFFFu, incl, o);
    if ((int)lane >= o) incl += y;
  }
  unsigned run = incl - sum;
#pragma unroll
  for (int j = 0; j < PER; j++) {
    out[lane * PER + j] = ADD ? out[lane * PER + j] + run : run;
    run += c[j];
  }
}

/* rx_rank_finish: s.dstart (exclusive scan of the counts, by warp 0) added to the warps'
 * rows, then each key's place in the tile ordered by digit, equal digits in position
 * order: pos[i], where the key is stored at once (sk[pos[i]] = ek[i], so a keys-only
 * caller keeps no positions in registers). Each warp takes its keys item by item: the
 * lanes holding one digit (a ballot per digit bit) get consecutive places after those
 * the warp gave out before, the leader lane advancing the warp's counter. */
template <int THREADS, int ITEMS, typename K, bool PERM = false, bool PRED = false>
__device__ __forceinline__ void rx_rank_finish(const K (&ek)[ITEMS], unsigned shift,
                                               rx_rank_smem<THREADS> &s, K *sk,
                                               unsigned (&pos)[ITEMS]) {
  const unsigned tid = threadIdx.x, lane = tid & 31, w = tid >> 5;
  __syncthreads();
  if (w == 0) rx_warp_scan256<false>(s.cnt, s.dstart);
  __syncthreads();
  /* each warp's row: the tile place of its first key of each digit */
  for (unsigned d = tid; d < GP_RX_RADIX; d += THREADS) {
    const unsigned start = s.dstart[d];
#pragma unroll
    for (int ww = 0; ww < THREADS / 32; ww++) s.whist[ww * GP_RX_RADIX + d] += start;
  }
  __syncthreads();
  unsigned *wh = s.whist + w * GP_RX_RADIX;
  const unsigned lt = (1u << lane) - 1;
#pragma unroll
  for (int i = 0; i < ITEMS; i++) {
    const unsigned d = rx_digit<PERM>(ek[i], shift);
    const unsigned peers = rx_match_digit(d);
    const int leader = 31 - __clz(peers);
    unsigned base = 0;
    if constexpr (PRED)
      base = rx_leader_add(&wh[d], (unsigned)__popc(peers), (int)lane == leader);
    else if ((int)lane == leader)
      base = atomicAdd(&wh[d], (unsigned)__popc(peers));
    base = __shfl_sync(0xFFFFFFFFu, base, leader);
    pos[i] = base + __popc(peers & lt);
    sk[pos[i]] = ek[i];
    __syncwarp(); /* the leader's update is seen by the next item's leader */
  }
}

/* ---- upfront histogram ---------------------------------------------------------------- */
/* hist[p * 256 + d] += number of keys whose digit p is d (hist zeroed by the caller).
 * Shared-atomic throughput bounds this kernel, and random digits put several lanes of a
 * warp on one bank (the atomic then takes as many passes as the busiest bank has
 * lanes): each count has C copies side by side, lane l adding to copy l mod C, so
 * lanes that share a bank mostly add to different words of distinct banks. With 32
 * copies every lane has its own bank; with 16, lanes l and l + 16 share two. Two
 * shapes (radix_policy.h): 32 KiB blocks, several an SM, and for large sorts one block
 * of 128 KiB an SM with more copies. Keys are read 16 bytes at a time. */
template <typename K, int C>
__device__ __forceinline__ void rx_hist_add(unsigned *mine, K key, gp_key_class kind, int desc) {
  const K x = gp_key_enc(key, kind, desc);
#pragma unroll
  for (int p = 0; p < rx_npass<K>(); p++)
    atomicAdd(&mine[(p * GP_RX_RADIX + (unsigned)((x >> (p * GP_RX_BITS)) & (GP_RX_RADIX - 1))) * C], 1u);
}
template <typename K, int C>
__device__ __forceinline__ void rx_hist_add4(unsigned *mine, uint4 v, gp_key_class kind, int desc) {
  K k[16 / sizeof(K)];
  memcpy(k, &v, 16);
#pragma unroll
  for (int u = 0; u < (int)(16 / sizeof(K)); u++) rx_hist_add<K, C>(mine, k[u], kind, desc);
}
/* C copies of every count (dynamic shared memory: NP * 256 * C words), lane l adding to
 * copy l mod C; U 16-byte loads in flight a thread. */
template <typename K, int C, int THREADS, int U>
__global__ void __launch_bounds__(THREADS)
rx_histogram(const K *keys, u64 n, gp_key_class kind, int desc, u64 *hist) {
  constexpr int NP = rx_npass<K>(), PER = 16 / sizeof(K);
  extern __shared__ unsigned rx_hist_sh[];
  unsigned *sh = rx_hist_sh;
  gp_pdl_trigger(); /* the plan kernel may launch; it waits for this one */
  for (unsigned j = threadIdx.x; j < NP * GP_RX_RADIX * C; j += THREADS) sh[j] = 0;
  __syncthreads();
  unsigned *mine = sh + (threadIdx.x & (C - 1));
  const u64 stride = (u64)gridDim.x * THREADS;
  const u64 first = (u64)blockIdx.x * THREADS + threadIdx.x;
  u64 i = first;
  if (((uintptr_t)keys & 15) == 0) { /* 16-byte loads over the whole vectors */
    const uint4 *kv = (const uint4 *)keys;
    const u64 nv = n / PER;
    u64 j = first;
    for (; j + (U - 1) * stride < nv; j += U * stride) {
      uint4 x[U];
#pragma unroll
      for (int u = 0; u < U; u++) x[u] = kv[j + u * stride];
#pragma unroll
      for (int u = 0; u < U; u++) rx_hist_add4<K, C>(mine, x[u], kind, desc);
    }
    for (; j < nv; j += stride) rx_hist_add4<K, C>(mine, kv[j], kind, desc);
    i = nv * PER + first;
  }
  for (; i < n; i += stride) rx_hist_add<K, C>(mine, keys[i], kind, desc);
  __syncthreads();
  for (unsigned j = threadIdx.x; j < NP * GP_RX_RADIX; j += THREADS) {
    unsigned c = 0;
#pragma unroll
    for (int k = 0; k < C; k++) c += sh[j * C + ((k + j) & (C - 1))]; /* rotated: fewer conflicts */
    if (c) atomicAdd(&hist[j], (u64)c);
  }
}

/* Which buffer each pass reads and writes: src -1 is the input, 0 the caller's (final)
 * buffer, 1 the other one. */
struct rx_plan {
  int active[RX_MAXPASS];
  int src[RX_MAXPASS];
  int dst[RX_MAXPASS];
  int last;      /* the last active pass, -1 if none */
  int copy_back; /* the last pass wrote buffer 1: copy it to buffer 0 */
};

/* One block of 256 threads: each pass's digit starts (gbase, exclusive scans of hist)
 * and the plan. in_place: the input is buffer 0, so the first pass must not write it. */
__global__ void __launch_bounds__(GP_RX_RADIX)
rx_plan_kernel(const u64 *hist, u64 *gbase, int npass, u64 n, int in_place, rx_plan *plan) {
  __shared__ u64 tmp[GP_RX_RADIX / 32];
  __shared__ int active[RX_MAXPASS];
  const unsigned d = threadIdx.x, lane = d & 31, w = d >> 5;
  gp_pdl_wait(); /* the histogram */
  gp_pdl_trigger();
  for (int p = 0; p < npass; p++) {
    const u64 c = hist[p * GP_RX_RADIX + d];
    const int trivial = __syncthreads_or(c == n);
    if (d == 0) active[p] = !trivial;
    u64 incl = c;
    for (int o = 1; o < 32; o <<= 1) {
      u64 y = __shfl_up_sync(0xFFFFFFFFu, incl, o);
      if ((int)lane >= o) incl += y;
    }
    if (lane == 31) tmp[w] = incl;
    __syncthreads();
    u64 before = 0;
    for (unsigned ww = 0; ww < w; ww++) before += tmp[ww];
    gbase[p * GP_RX_RADIX + d] = before + incl - c;
    __syncthreads();
  }
  if (d == 0) {
    int m = 0;
    for (int p = 0; p < npass; p++) m += active[p];
    const int flip = in_place && (m & 1); /* an odd count from buffer 0 ends in buffer 1 */
    int j = 0, prev = -1;
    plan->last = -1;
    for (int p = 0; p < RX_MAXPASS; p++) {
      plan->active[p] = p < npass && active[p];
      plan->src[p] = plan->dst[p] = 0;
      if (!plan->active[p]) continue;
      const int dst = flip ? (j & 1 ? 0 : 1) : (((m - 1 - j) & 1) ? 1 : 0);
      plan->src[p] = prev;
      plan->dst[p] = dst;
      prev = dst;
      plan->last = p;
      j++;
    }
    plan->copy_back = flip;
  }
}

struct rx_sweep_args {
  const void *kin, *vin; /* the first active pass's input; vin NULL with values: iota */
  void *kbuf[2], *vbuf[2];
  u64 n;
  const rx_plan *plan;
  const u64 *gbase;      /* [pass][digit] */
  u64 *status;           /* [tile][digit] look-back words, zeroed before the first pass */
  unsigned *tickets;     /* [pass] */
  gp_key_class kind;
  int desc;
  int pass;
  int discard_keys;      /* argsort: the last pass need not write keys */
};

template <typename K, typename V, bool PV, int SHAPE> struct rx_sweep_smem {
  rx_rank_smem<GP_RX_THREADS> r;
  /* for each digit, the global index of the tile's sorted position 0; 4-byte keys alone:
     the address of that place in the output (one IMAD.WIDE a key instead of four to add
     the index and scale it, ncu at 2^26, s25-a) */
  u64 goff[GP_RX_RADIX];
  unsigned tile;
  K k[rx_sweep_tile<K, PV ? (int)sizeof(V) : 0, SHAPE>()];
  V v[PV ? rx_sweep_tile<K, PV ? (int)sizeof(V) : 0, SHAPE>() : 1];
};
/* every shape but RX_SW_WIDE fits the 99 KiB a block may take on sm_86 / sm_89 / sm_120 */
template <typename K, typename V, bool PV> constexpr bool rx_sweep_fits_99k() {
  return sizeof(rx_sweep_smem<K, V, PV, RX_SW_BIG>) <= 99 * 1024 &&
         sizeof(rx_sweep_smem<K, V, PV, RX_SW_SMALL>) <= 99 * 1024;
}
static_assert(rx_sweep_fits_99k<uint32_t, uint32_t, false>() &&
                  rx_sweep_fits_99k<uint32_t, uint32_t, true>() &&
                  rx_sweep_fits_99k<uint32_t, u64, true>() && rx_sweep_fits_99k<u64, u64, false>() &&
                  rx_sweep_fits_99k<u64, uint32_t, true>() && rx_sweep_fits_99k<u64, u64, true>(),
              "a one-sweep shape past 99 KiB of shared memory: sm_86 / sm_89 / sm_120 cannot run it");

/* One digit pass over one tile (see the file comment). */
template <typename K, typename V, bool PV, int SHAPE>
__global__ void __launch_bounds__(GP_RX_THREADS, SHAPE == RX_SW_WIDE ? GP_RX_WIDE_MIN_BLOCKS : GP_RX_MIN_BLOCKS)
rx_onesweep(rx_sweep_args a) {
  constexpr int ITEMS = rx_sweep_items<K, PV ? (int)sizeof(V) : 0, SHAPE>();
  constexpr unsigned TILE = rx_sweep_tile<K, PV ? (int)sizeof(V) : 0, SHAPE>();
  const int pass = a.pass;
  gp_pdl_wait(); /* the previous pass (or the plan), and transitively all before it */
  if (GP_RX_PDL_TRIGGER == 0) gp_pdl_trigger();
  if (!a.plan->active[pass]) return;
  extern __shared__ __align__(16) unsigned char rx_smem_raw[];
  rx_sweep_smem<K, V, PV, SHAPE> &s = *(rx_sweep_smem<K, V, PV, SHAPE> *)rx_smem_raw;
  const unsigned tid = threadIdx.x, lane = tid & 31, w = tid >> 5;
  if (tid == 0) s.tile = atomicAdd(&a.tickets[pass], 1u);
  __syncthreads();
  const unsigned tile = s.tile;
  const u64 base = (u64)tile * TILE;
  const unsigned count = (unsigned)(a.n - base < TILE ? a.n - base : TILE);
  const int src = a.plan->src[pass], dst = a.plan->dst[pass];
  /* selects, not a.kbuf[src]: a dynamic index would copy the arguments to the stack */
  const K *kin = (const K *)(src < 0 ? a.kin : src ? a.kbuf[1] : a.kbuf[0]);
  const V *vin = (const V *)(src < 0 ? a.vin : src ? a.vbuf[1] : a.vbuf[0]);
  K *kout = (K *)(dst ? a.kbuf[1] : a.kbuf[0]);
  V *vout = (V *)(dst ? a.vbuf[1] : a.vbuf[0]);
  const unsigned shift = (unsigned)pass * GP_RX_BITS;
  /* descending: the encoded keys complemented by a mask (4-byte keys, and 8-byte keys
     with values), else by the codec: what measured fastest for each (H200, s25-c:
     u64/u64 pairs 2^28 2.3% faster with the mask, u64 keys alone 0.3% slower) */
  constexpr bool DM = sizeof(K) == 4 || PV;
  const K dm = DM && a.desc ? ~(K)0 : (K)0;
  const int cdesc = DM ? 0 : a.desc;

  /* 4-byte keys alone: the output addresses in s.goff, full tiles loaded and stored
     without bounds tests (with 8-byte keys either made ptxas spill at 56 registers), the
     digits by a byte permute (H200, s25-b/c, docs/perf/sort.md: u32 keys 2^28 4844 ->
     4178 us with the mask below; pairs, untried alone, keep the shift and mask) */
  constexpr bool RX_DST_PTR = !PV && sizeof(K) == 4;
  constexpr bool RX_PERM = RX_DST_PTR;
  constexpr bool EARLY = PV && GP_RX_VAL_EARLY && SHAPE == RX_SW_WIDE;
  /* the wide pairs' shape (8-byte keys and values, 80 registers): s.goff holds output
     addresses too, the value's a fixed distance from its key's (GP_RX_WIDE_ADDR) */
  constexpr bool RX_WIDE_PTR = EARLY && GP_RX_WIDE_ADDR && sizeof(K) == sizeof(V);
  constexpr bool RX_GOFF_PTR = RX_DST_PTR || RX_WIDE_PTR;
  constexpr bool RX_PRED = PV && GP_RX_PAIRS_PRED; /* rx_leader_add */
  K ek[ITEMS];
  if (RX_DST_PTR && count == TILE) { /* no bounds test, no pads */
#pragma unroll
    for (int i = 0; i < ITEMS; i++)
      ek[i] = gp_key_enc(kin[base + (w * ITEMS + i) * 32 + lane], a.kind, cdesc) ^ dm;
  } else {
#pragma unroll
    for (int i = 0; i < ITEMS; i++) {
      const unsigned local = (w * ITEMS + i) * 32 + lane;
      ek[i] = local < count ? gp_key_enc(kin[base + local], a.kind, cdesc) ^ dm : ~(K)0; /* pad */
    }
  }
  /* the tile's digit counts, published at once: a later tile's look-back finds them
     while this one ranks */
  rx_rank_count<GP_RX_THREADS, ITEMS, K, RX_PERM>(ek, count, shift, s.r);
  volatile u64 *st = (volatile u64 *)a.status;
  if (tid < GP_RX_RADIX)
    st[(u64)tile * GP_RX_RADIX + tid] =
        rx_word(tile == 0 ? RX_FLAG_PREFIX : RX_FLAG_AGG, pass, s.r.cnt[tid]);
  unsigned pos[ITEMS]; /* the keys go to their sorted tile positions in s.k (encoded) */
  rx_rank_finish<GP_RX_THREADS, ITEMS, K, RX_PERM, RX_PRED>(ek, shift, s.r, s.k, pos);
  V ev[EARLY ? ITEMS : 1]; /* EARLY: the values, loaded before the look-back */
  if constexpr (EARLY) {
#pragma unroll
    for (int i = 0; i < ITEMS; i++) {
      const unsigned local = (w * ITEMS + i) * 32 + lane;
      ev[i] = local < count ? (vin ? vin[base + local] : (V)(base + local)) : (V)0;
    }
  }
  /* decoupled look-back: thread d finds how many keys of digit d all earlier tiles hold */
  if (tid < GP_RX_RADIX) {
    const unsigned d = tid;
    const u64 c = s.r.cnt[d];
    u64 excl = 0;
    if (tile > 0) {
      u64 j = tile - 1;
      for (;;) {
        const u64 word = st[j * GP_RX_RADIX + d];
        const u64 flag = word >> 62;
        if (flag == 0 || (int)((word >> 58) & 15) != pass + 1) continue; /* not yet */
        excl += word & RX_VAL_MASK;
        if (flag == RX_FLAG_PREFIX) break;
        j--;
      }
      st[(u64)tile * GP_RX_RADIX + d] = rx_word(RX_FLAG_PREFIX, pass, excl + c);
    }
    const u64 g = a.gbase[pass * GP_RX_RADIX + d] + excl - s.r.dstart[d];
    s.goff[d] = RX_GOFF_PTR ? (u64)(uintptr_t)kout + g * sizeof(K) : g; /* mod 2^64, as the index */
  }
  if (GP_RX_PDL_TRIGGER == 1) gp_pdl_trigger();
  const bool store_keys = !(a.discard_keys && pass == a.plan->last);
  if constexpr (EARLY) {
#pragma unroll
    for (int i = 0; i < ITEMS; i++) {
      const unsigned local = (w * ITEMS + i) * 32 + lane;
      if (local < count) s.v[pos[i]] = ev[i];
    }
    __syncthreads();
    const u64 vdelta = (u64)(uintptr_t)vout - (u64)(uintptr_t)kout; /* mod 2^64 */
    for (unsigned j = tid; j < count; j += GP_RX_THREADS) {
      const K e = s.k[j];
      const u64 o = s.goff[rx_digit<RX_PERM>(e, shift)];
      K *to = RX_WIDE_PTR ? (K *)(uintptr_t)o + j : kout + (o + j);
      V *vto = RX_WIDE_PTR ? (V *)(uintptr_t)((u64)(uintptr_t)to + vdelta) : vout + (o + j);
      if (store_keys) *to = gp_key_dec(e ^ dm, a.kind, cdesc);
      *vto = s.v[j];
    }
    return;
  }
  /* then out in order: each digit's run is written by consecutive threads */
  __syncthreads();
  if (RX_DST_PTR && count == TILE) { /* keys alone: store_keys */
#pragma unroll
    for (int i = 0; i < ITEMS; i++) {
      const unsigned j = tid + i * GP_RX_THREADS;
      const K e = s.k[j];
      ((K *)(uintptr_t)s.goff[rx_digit<RX_PERM>(e, shift)])[j] = gp_key_dec(e ^ dm, a.kind, cdesc);
    }
  } else if (store_keys) {
    for (unsigned j = tid; j < count; j += GP_RX_THREADS) {
      const K e = s.k[j];
      const unsigned d = rx_digit<RX_PERM>(e, shift);
      K *to = RX_DST_PTR ? (K *)(uintptr_t)s.goff[d] : kout + s.goff[d];
      to[j] = gp_key_dec(e ^ dm, a.kind, cdesc);
    }
  }
  if (PV) {
#pragma unroll
    for (int i = 0; i < ITEMS; i++) {
      const unsigned local = (w * ITEMS + i) * 32 + lane;
      if (local < count) s.v[pos[i]] = vin ? vin[base + local] : (V)(base + local);
    }
    __syncthreads();
    for (unsigned j = tid; j < count; j += GP_RX_THREADS) {
      vout[s.goff[rx_digit<RX_PERM>(s.k[j], shift)] + j] = s.v[j];
    }
  }
}

/* After the passes: buffer 1 back to buffer 0 when the plan ended there; with no active
 * pass (all keys equal) the iota of an argsort. */
template <typename K, typename V, bool PV>
__global__ void rx_fixup(rx_sweep_args a) {
  gp_pdl_wait(); /* the last pass */
  const rx_plan *pl = a.plan;
  const bool iota = PV && pl->last < 0 && !a.vin;
  if (!pl->copy_back && !iota) return;
  const u64 stride = (u64)gridDim.x * blockDim.x;
  for (u64 i = (u64)blockIdx.x * blockDim.x + threadIdx.x; i < a.n; i += stride) {
    if (pl->copy_back) {
      if (!a.discard_keys) ((K *)a.kbuf[0])[i] = ((const K *)a.kbuf[1])[i];
      if (PV) ((V *)a.vbuf[0])[i] = ((const V *)a.vbuf[1])[i];
    } else {
      ((V *)a.vbuf[0])[i] = (V)i;
    }
  }
}

/* ---- four lanes or one block per segment --------------------------------------------- */
struct rx_seg_args {
  const void *kin, *vin; /* vin NULL with values: iota (global index) */
  void *kout, *vout;     /* kout NULL: keys not written (argsort) */
  const u64 *offsets;    /* nseg + 1 offsets; NULL: one segment [0, n) */
  u64 nseg, n;
  unsigned min_size, max_size; /* this launch sorts segments of min_size .. max_size keys */
  gp_key_class kind;
  int desc;
  const u64 *spans; /* rx_clustersort only, if not NULL: cluster q sorts [spans[2q], spans[2q + 1]) */
};

template <int THREADS, int ITEMS, typename K, typename V, bool PV> struct rx_seg_smem {
  rx_rank_smem<THREADS> r;
  K k[THREADS * ITEMS];
  V v[PV ? THREADS * ITEMS : 1];
};

/* Each block sorts whole segments of min_size .. max_size (<= THREADS * ITEMS) keys:
 * every digit pass ranks the keys held in registers and exchanges them through shared
 * memory; a pass whose digit is the same for the whole segment is skipped. */
template <int THREADS, int ITEMS, typename K, typename V, bool PV>
__global__ void __launch_bounds__(THREADS)
rx_segsort(rx_seg_args a) {
  constexpr int NP = rx_npass<K>();
  extern __shared__ __align__(16) unsigned char rx_smem_raw[];
  rx_seg_smem<THREADS, ITEMS, K, V, PV> &s = *(rx_seg_smem<THREADS, ITEMS, K, V, PV> *)rx_smem_raw;
  const unsigned tid = threadIdx.x, lane = tid & 31, w = tid >> 5;
  for (u64 seg = blockIdx.x; seg < a.nseg; seg += gridDim.x) {
    const u64 begin = a.offsets ? a.offsets[seg] : 0;
    const u64 end = a.offsets ? a.offsets[seg + 1] : a.n;
    const u64 size = end - begin;
    if (size < a.min_size || size > a.max_size || size < 2) continue; /* block-uniform */
    const unsigned count = (unsigned)size;
    const K *kin = (const K *)a.kin + begin;
    K ek[ITEMS];
    V v[ITEMS];
#pragma unroll
    for (int i = 0; i < ITEMS; i++) {
      const unsigned local = (w * ITEMS + i) * 32 + lane;
      const bool ok = local < count;
      ek[i] = ok ? gp_key_enc(kin[local], a.kind, a.desc) : ~(K)0; /* pad */
      if (PV) v[i] = !ok ? (V)0 : a.vin ? ((const V *)a.vin)[begin + local] : (V)(begin + local);
    }
    for (int p = 0; p < NP; p++) {
      const unsigned shift = (unsigned)p * GP_RX_BITS;
      rx_rank_count<THREADS, ITEMS, K>(ek, count, shift, s.r);
      int mine = 0; /* the pads are in digit 255's count */
      for (unsigned d = tid; d < GP_RX_RADIX; d += THREADS)
        mine |= s.r.cnt[d] - (d == GP_RX_RADIX - 1 ? THREADS * ITEMS - count : 0) == count;
      if (__syncthreads_or(mine)) continue; /* one digit for the whole segment */
      unsigned pos[ITEMS];
      rx_rank_finish<THREADS, ITEMS, K>(ek, shift, s.r, s.k, pos);
      if (PV)
#pragma unroll
        for (int i = 0; i < ITEMS; i++)
          if ((w * ITEMS + i) * 32 + lane < count) s.v[pos[i]] = v[i];
      __syncthreads();
#pragma unroll
      for (int i = 0; i < ITEMS; i++) {
        const unsigned local = (w * ITEMS + i) * 32 + lane;
        if (local < count) {
          ek[i] = s.k[local];
          if (PV) v[i] = s.v[local];
        }
      }
      __syncthreads();
    }
#pragma unroll
    for (int i = 0; i < ITEMS; i++) {
      const unsigned local = (w * ITEMS + i) * 32 + lane;
      if (local < count) {
        if (a.kout) ((K *)a.kout)[begin + local] = gp_key_dec(ek[i], a.kind, a.desc);
        if (PV) ((V *)a.vout)[begin + local] = v[i];
      }
    }
  }
}

/* Segments of 2 .. 32 keys: four lanes each (a warp takes eight), eight keys a lane in
 * registers: element e of a segment is slot e % 8 of the segment's lane e / 8. A bitonic
 * network with every comparator ascending (each merge of blocks of 2^L opens with the
 * mirror stage e vs e ^ (2^L - 1)): the stages on bits 0..2 of e run in registers, the
 * three on bits 3 and 4 exchange a lane's eight keys with its partner lane's. (A warp
 * per segment, a key a lane, spent 30 shuffles per segment and was issue-bound.)
 * Keys alone compare as keys (equal keys are the same bits); with values they compare as
 * (key, input position), all distinct, so the result is the stable sort's. Elements past
 * a segment hold the largest key and later positions, so they sort last. */
template <typename K, typename V, bool PV>
__device__ __forceinline__ void rx_ws_cx(K &ka, K &kb, unsigned &pa, unsigned &pb, V &va, V &vb) {
  if (PV) {
    const bool sw = kb < ka || (kb == ka && pb < pa);
    const K k0 = sw ? kb : ka, k1 = sw ? ka : kb;
    const unsigned p0 = sw ? pb : pa, p1 = sw ? pa : pb;
    const V v0 = sw ? vb : va, v1 = sw ? va : vb;
    ka = k0; kb = k1; pa = p0; pb = p1; va = v0; vb = v1;
  } else {
    const K lo = min(ka, kb), hi = max(ka, kb);
    ka = lo;
    kb = hi;
  }
}

/* in registers: slots c vs c ^ (2^(B+1) - 1) (mirror) or c vs c | 2^B, bit B of c clear */
template <int B, bool MIRROR, typename K, typename V, bool PV>
__device__ __forceinline__ void rx_ws_reg(K (&k)[8], unsigned (&p)[8], V (&v)[8]) {
#pragma unroll
  for (int c = 0; c < 8; c++)
    if (!(c & (1 << B))) {
      const int d = MIRROR ? c ^ ((2 << B) - 1) : c | (1 << B);
      rx_ws_cx<K, V, PV>(k[c], k[d], p[c], p[d], v[c], v[d]);
    }
}

/* across lanes: slot c against slot c ^ FLIP of lane ^ X; the lower lane keeps the least */
template <unsigned X, int FLIP, typename K, typename V, bool PV>
__device__ __forceinline__ void rx_ws_lanes(K (&k)[8], unsigned (&p)[8], V (&v)[8], bool lower) {
  K ko[8];
  unsigned po[8];
  V vo[8];
#pragma unroll
  for (int c = 0; c < 8; c++) {
    ko[c] = __shfl_xor_sync(0xFFFFFFFFu, k[c ^ FLIP], X);
    if (PV) {
      po[c] = __shfl_xor_sync(0xFFFFFFFFu, p[c ^ FLIP], X);
      vo[c] = __shfl_xor_sync(0xFFFFFFFFu, v[c ^ FLIP], X);
    }
  }
#pragma unroll
  for (int c = 0; c < 8; c++) {
    if (PV) {
      const bool other_less = ko[c] < k[c] || (ko[c] == k[c] && po[c] < p[c]);
      if (other_less == lower) {
        k[c] = ko[c];
        p[c] = po[c];
        v[c] = vo[c];
      }
    } else {
      k[c] = lower ? min(k[c], ko[c]) : max(k[c], ko[c]);
    }
  }
}

template <typename K, typename V, bool PV>
__global__ void __launch_bounds__(GP_RX_WARP_THREADS)
rx_warpsort(rx_seg_args a) {
  const unsigned lane = threadIdx.x & 31, g = lane & 3;
  const u64 first = (((u64)blockIdx.x * GP_RX_WARP_THREADS + threadIdx.x) >> 5) * 8;
  const u64 stride = (u64)gridDim.x * (GP_RX_WARP_THREADS / 32) * 8;
  for (u64 seg0 = first; seg0 < a.nseg; seg0 += stride) {
    u64 o = 0; /* lane j <= 8: offsets[seg0 + j], clamped to the last */
    if (lane <= 8) {
      const u64 j = seg0 + lane < a.nseg ? seg0 + lane : a.nseg;
      o = a.offsets ? a.offsets[j] : j ? a.n : 0;
    }
    const u64 begin = __shfl_sync(0xFFFFFFFFu, o, lane >> 2);
    const u64 sz = __shfl_sync(0xFFFFFFFFu, o, (lane >> 2) + 1) - begin;
    const unsigned size = sz >= 2 && sz <= 32 ? (unsigned)sz : 0; /* 0: another class sorts it */
    K k[8];
    unsigned p[8];
    V v[8];
#pragma unroll
    for (int c = 0; c < 8; c++) {
      const unsigned e = g * 8 + c;
      const bool ok = e < size;
      k[c] = ok ? gp_key_enc(((const K *)a.kin)[begin + e], a.kind, a.desc) : (K)~(K)0;
      p[c] = e;
      v[c] = (V)0;
      if (PV && ok) v[c] = a.vin ? ((const V *)a.vin)[begin + e] : (V)(begin + e);
    }
    rx_ws_reg<0, true, K, V, PV>(k, p, v); /* blocks of 2 */
    rx_ws_reg<1, true, K, V, PV>(k, p, v); /* of 4 */
    rx_ws_reg<0, false, K, V, PV>(k, p, v);
    rx_ws_reg<2, true, K, V, PV>(k, p, v); /* of 8 */
    rx_ws_reg<1, false, K, V, PV>(k, p, v);
    rx_ws_reg<0, false, K, V, PV>(k, p, v);
    rx_ws_lanes<1, 7, K, V, PV>(k, p, v, !(g & 1)); /* of 16: e vs e ^ 15 */
    rx_ws_reg<2, false, K, V, PV>(k, p, v);
    rx_ws_reg<1, false, K, V, PV>(k, p, v);
    rx_ws_reg<0, false, K, V, PV>(k, p, v);
    rx_ws_lanes<3, 7, K, V, PV>(k, p, v, !(g & 2)); /* of 32: e vs e ^ 31 */
    rx_ws_lanes<1, 0, K, V, PV>(k, p, v, !(g & 1)); /* e vs e ^ 8 */
    rx_ws_reg<2, false, K, V, PV>(k, p, v);
    rx_ws_reg<1, false, K, V, PV>(k, p, v);
    rx_ws_reg<0, false, K, V, PV>(k, p, v);
#pragma unroll
    for (int c = 0; c < 8; c++) {
      const unsigned e = g * 8 + c;
      if (e < size) {
        if (a.kout) ((K *)a.kout)[begin + e] = gp_key_dec(k[c], a.kind, a.desc);
        if (PV) ((V *)a.vout)[begin + e] = v[c];
      }
    }
  }
}

/* ---- host side ------------------------------------------------------------------------ */
static size_t rx_align(size_t b) { return (b + 255) & ~(size_t)255; }

/* The device-wide sort's scratch, carved in this order. */
struct rx_scratch_layout {
  size_t k1, v1, hist, gbase, plan, tickets, status, end;
};
/* Keys in a one-sweep tile for a sort of n keys of kb bytes, values of vb bytes (0:
 * none): the shape rx_device_sort launches, or a smaller one (RX_SW_WIDE's tiles are
 * larger), which rx_layout sizes the look-back for. */
template <typename K, int VB> static u64 rx_tile_of(bool small) {
  return small ? rx_sweep_tile<K, VB, RX_SW_SMALL>() : rx_sweep_tile<K, VB, RX_SW_BIG>();
}
static u64 rx_tile_for(size_t kb, int vb, size_t n) {
  const bool sm = rx_small_sweep(n);
  if (kb == 4)
    return vb == 8 ? rx_tile_of<uint32_t, 8>(sm) : vb ? rx_tile_of<uint32_t, 4>(sm)
                                                      : rx_tile_of<uint32_t, 0>(sm);
  return vb == 8 ? rx_tile_of<u64, 8>(sm) : vb ? rx_tile_of<u64, 4>(sm) : rx_tile_of<u64, 0>(sm);
}

static rx_scratch_layout rx_layout(size_t kb, int vb, size_t n) {
  rx_scratch_layout L;
  const size_t tile = rx_tile_for(kb, vb, n);
  const size_t tiles = (n + tile - 1) / tile;
  size_t o = 0;
  L.k1 = o; o += rx_align(n * kb);
  L.v1 = o; o += rx_align(n * (size_t)vb);
  L.hist = o; o += rx_align(RX_MAXPASS * GP_RX_RADIX * sizeof(u64)); /* zeroed from here */
  L.tickets = o; o += rx_align(RX_MAXPASS * sizeof(unsigned));
  L.status = o; o += rx_align(tiles * GP_RX_RADIX * sizeof(u64));
  L.gbase = o; o += rx_align(RX_MAXPASS * GP_RX_RADIX * sizeof(u64));
  L.plan = o; o += rx_align(sizeof(rx_plan));
  L.end = o;
  return L;
}

/* Sorts of up to the middle block always run in one block; larger ones do too where the
 * GPU's shared memory holds the block (rx_bounds_for), else the device-wide sort: the
 * scratch (n keys and values and the look-back state) is sized for that case. */
static int rx_block_always(size_t n) { return n <= (size_t)GP_RX_MID_THREADS * GP_RX_MID_ITEMS; }

extern "C" size_t gp_cuda_radix_scratch(gp_dtype key_type, int value_bytes, size_t n) {
  const size_t kb = gp_dtype_size(key_type);
  if (n <= 1 || rx_block_always(n)) return 0;
  return rx_layout(kb, value_bytes, n).end;
}

/* rx_layout grows with n within each shape, but sorts of up to 2^GP_RX_SMALL_SWEEP_LOG2
 * keys take smaller tiles, so more look-back state: the scratch of n keys can be less
 * than that of fewer. A buffer for several sorts of at most n keys needs this much. */
extern "C" size_t gp_cuda_radix_scratch_upto(gp_dtype key_type, int value_bytes, size_t n) {
  const size_t sm = (size_t)1 << GP_RX_SMALL_SWEEP_LOG2;
  const size_t a = gp_cuda_radix_scratch(key_type, value_bytes, n);
  const size_t b = n > sm ? gp_cuda_radix_scratch(key_type, value_bytes, sm) : 0;
  return a > b ? a : b;
}

/* Argsorts of 4-byte keys above the middle block and up to 2^GP_RX_ARGSORT_BITONIC_LOG2
 * sort (encoded key << 32 | index) composites with the bitonic sort: they are all
 * distinct, so their order is the stable one. */
static bool rx_argsort_bitonic(size_t kb, size_t n) {
  return kb == 4 && n > (size_t)GP_RX_MID_THREADS * GP_RX_MID_ITEMS &&
         n <= ((size_t)1 << GP_RX_ARGSORT_BITONIC_LOG2);
}

extern "C" size_t gp_cuda_radix_argsort_scratch(gp_dtype key_type, int index_bytes, size_t n) {
  const size_t kb = gp_dtype_size(key_type);
  if (rx_argsort_bitonic(kb, n)) return n * sizeof(u64);
  if (n <= 1 || rx_block_always(n)) return 0;
  return rx_align(n * kb) + rx_layout(kb, index_bytes, n).end;
}

/* The size classes keep within ctx->smem_block (rx_bounds_for); every launch checks it
 * (against it, not the device's own figure, so GPUPRIMS_FORCE_ARCH=89 on a larger GPU
 * fails where an sm_89 GPU would). */
static gp_status rx_smem_ok(gp_context *ctx, size_t smem) {
  if (smem <= 48 * 1024 || !ctx->smem_block || smem <= ctx->smem_block) return GP_OK;
  return gp_fail(ctx, GP_ERR_UNSUPPORTED,
                 "a radix sort block needs %zu bytes of shared memory and this GPU gives a "
                 "block at most %zu: a gpuprims bug, please report it with the sort's types "
                 "and size",
                 smem, ctx->smem_block);
}

template <typename F>
static gp_status rx_smem_attr(gp_context *ctx, F *kernel, size_t smem) {
  if (smem > 48 * 1024)
    GP_CUDA_TRY(ctx, cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
  return GP_OK;
}

template <int THREADS, int ITEMS, typename K, typename V, bool PV>
static gp_status rx_launch_seg(gp_context *ctx, const rx_seg_args &a, u64 nblocks) {
  if (nblocks == 0) return GP_OK;
  constexpr size_t smem = sizeof(rx_seg_smem<THREADS, ITEMS, K, V, PV>);
  gp_status ok = rx_smem_ok(ctx, smem);
  if (ok) return ok;
  static unsigned long long attr_set; /* per device: common/per_device.h */
  if (!gp_dev_flag(&attr_set, ctx->device)) {
    gp_status s = rx_smem_attr(ctx, rx_segsort<THREADS, ITEMS, K, V, PV>, smem);
    if (s) return s;
    gp_dev_flag_set(&attr_set, ctx->device);
  }
  const unsigned grid = (unsigned)(nblocks < (1u << 30) ? nblocks : (1u << 30));
  rx_segsort<THREADS, ITEMS, K, V, PV><<<grid, THREADS, smem, (cudaStream_t)ctx->stream>>>(a);
  GP_LAUNCH_CHECK(ctx, "rx_segsort", grid, THREADS, smem);
  return GP_OK;
}

#include "cuda/sort/radix_cluster.cuh"

/* The size classes of segments: RX_WARP of 2 .. 32 keys (four lanes each), RX_SMALL up to
 * the small block, RX_MID up to the middle block, RX_BIG up to the big block (1024
 * threads), RX_TILE up to the one-sweep tile (a block each), RX_LARGE above a tile (the
 * device-wide sort). */
enum { RX_WARP, RX_SMALL, RX_MID, RX_BIG, RX_TILE, RX_LARGE, RX_NCLASS };
constexpr unsigned RX_SMALL_MAX = GP_RX_SMALL_THREADS * GP_RX_SMALL_ITEMS;
constexpr unsigned RX_MID_MAX = GP_RX_MID_THREADS * GP_RX_MID_ITEMS;
template <typename K> __host__ __device__ constexpr int rx_big_items() {
  return sizeof(K) == 4 ? GP_RX_BIG_ITEMS4 : GP_RX_BIG_ITEMS8;
}
template <typename K> __host__ __device__ constexpr unsigned rx_big_max() {
  return (unsigned)GP_RX_BIG_THREADS * rx_big_items<K>();
}
static_assert(RX_SMALL_MAX > 32 && RX_MID_MAX > RX_SMALL_MAX, "size classes must grow");
static_assert(rx_big_max<uint32_t>() > RX_MID_MAX && rx_big_max<u64>() > RX_MID_MAX &&
                  rx_big_max<uint32_t>() < rx_tile<uint32_t>() && rx_big_max<u64>() < rx_tile<u64>(),
              "the big block is between the middle block and a tile");
static_assert(sizeof(((gp_cuda_seg_summary *)0)->counts) == RX_NCLASS * sizeof(uint64_t),
              "gp_cuda_seg_summary.counts: one per size class");

/* The largest sizes of the big and tile classes on this GPU: a class whose block needs
 * more shared memory than the GPU gives one (ctx->smem_block: 99 KiB on sm_86 / sm_89 /
 * sm_120, 64 KiB on sm_75) is empty, its sizes going to the next class up, and past the
 * tile to the device-wide sort, whose shapes all fit 99 KiB. */
struct rx_bounds {
  unsigned big_max, tile_max;
};

template <typename K, typename V, bool PV> static rx_bounds rx_bounds_for(const gp_context *ctx) {
  const size_t most = ctx->smem_block ? ctx->smem_block : (size_t)-1;
  const bool big = sizeof(rx_seg_smem<GP_RX_BIG_THREADS, rx_big_items<K>(), K, V, PV>) <= most;
  const bool tile = sizeof(rx_seg_smem<GP_RX_THREADS, rx_items<K>(), K, V, PV>) <= most;
  rx_bounds b;
  b.big_max = big ? rx_big_max<K>() : RX_MID_MAX;
  b.tile_max = tile ? rx_tile<K>() : b.big_max;
  return b;
}

static rx_bounds rx_bounds_kv(const gp_context *ctx, size_t kb, int vb) {
  if (kb == 4)
    return vb == 0 ? rx_bounds_for<uint32_t, uint32_t, false>(ctx)
           : vb == 4 ? rx_bounds_for<uint32_t, uint32_t, true>(ctx) : rx_bounds_for<uint32_t, u64, true>(ctx);
  return vb == 0 ? rx_bounds_for<u64, uint32_t, false>(ctx)
         : vb == 4 ? rx_bounds_for<u64, uint32_t, true>(ctx) : rx_bounds_for<u64, u64, true>(ctx);
}

__host__ __device__ static int rx_class(u64 size, rx_bounds b) {
  return size <= 32 ? RX_WARP : size <= RX_SMALL_MAX ? RX_SMALL : size <= RX_MID_MAX ? RX_MID
         : size <= b.big_max ? RX_BIG : size <= b.tile_max ? RX_TILE : RX_LARGE;
}

/* Segments of up to one tile: a launch per size class with segments, each a grid over
 * all segments (blocks skip the other classes' ones). */
template <typename K, typename V, bool PV>
static gp_status rx_seg_launches(gp_context *ctx, rx_seg_args a, const uint64_t counts[RX_NCLASS]) {
  const rx_bounds b = rx_bounds_for<K, V, PV>(ctx);
  if (counts[RX_WARP]) {
    const u64 per = GP_RX_WARP_THREADS / 32 * 8;
    u64 blocks = (a.nseg + per - 1) / per;
    if (blocks > (1u << 30)) blocks = 1u << 30;
    rx_warpsort<K, V, PV><<<(unsigned)blocks, GP_RX_WARP_THREADS, 0, (cudaStream_t)ctx->stream>>>(a);
    GP_LAUNCH_CHECK(ctx, "rx_warpsort", blocks, GP_RX_WARP_THREADS, 0);
  }
  a.min_size = 33;
  a.max_size = RX_SMALL_MAX;
  gp_status s = rx_launch_seg<GP_RX_SMALL_THREADS, GP_RX_SMALL_ITEMS, K, V, PV>(
      ctx, a, counts[RX_SMALL] ? a.nseg : 0);
  if (s) return s;
  a.min_size = RX_SMALL_MAX + 1;
  a.max_size = RX_MID_MAX;
  s = rx_launch_seg<GP_RX_MID_THREADS, GP_RX_MID_ITEMS, K, V, PV>(ctx, a, counts[RX_MID] ? a.nseg : 0);
  if (s) return s;
  a.min_size = RX_MID_MAX + 1;
  a.max_size = b.big_max;
  s = rx_launch_seg<GP_RX_BIG_THREADS, rx_big_items<K>(), K, V, PV>(
      ctx, a, counts[RX_BIG] && b.big_max > RX_MID_MAX ? a.nseg : 0);
  if (s) return s;
  a.min_size = b.big_max + 1;
  a.max_size = b.tile_max;
  return rx_launch_seg<GP_RX_THREADS, rx_items<K>(), K, V, PV>(
      ctx, a, counts[RX_TILE] && b.tile_max > b.big_max ? a.nseg : 0);
}

/* The device-wide sort's kernels after the histogram are programmatic dependent launches
 * on sm_90+ (GP_RX_PDL): each waits for its predecessor before touching memory. */
static int rx_pdl(const gp_context *ctx) { return GP_RX_PDL && ctx->info.arch >= 90; }

/* The one-sweep passes, a launch per digit. */
template <typename K, typename V, bool PV, int SHAPE>
static gp_status rx_sweeps(gp_context *ctx, rx_sweep_args &a, int npass, u64 tiles) {
  constexpr size_t smem = sizeof(rx_sweep_smem<K, V, PV, SHAPE>);
  gp_status ok = rx_smem_ok(ctx, smem);
  if (ok) return ok;
  static unsigned long long attr_set; /* per device: common/per_device.h */
  if (!gp_dev_flag(&attr_set, ctx->device)) {
    gp_status s = rx_smem_attr(ctx, rx_onesweep<K, V, PV, SHAPE>, smem);
    if (s) return s;
    gp_dev_flag_set(&attr_set, ctx->device);
  }
  void *args[] = {&a};
  for (int p = 0; p < npass; p++) {
    a.pass = p; /* the launch copies the arguments */
    (void)gp_launch_pdl((const void *)rx_onesweep<K, V, PV, SHAPE>, (unsigned)tiles, GP_RX_THREADS,
                        smem, (cudaStream_t)ctx->stream, args, rx_pdl(ctx));
    GP_LAUNCH_CHECK(ctx, "rx_onesweep", tiles, GP_RX_THREADS, smem);
  }
  return GP_OK;
}

/* 8-byte keys with 8-byte values take RX_SW_WIDE tiles where the GPU gives a block their
 * shared memory (112 KiB at 16 keys a thread: Hopper and sm_80 / sm_100, not sm_86 /
 * sm_89 / sm_120, whose 99 KiB keep RX_SW_BIG's 88). */
template <typename K, typename V, bool PV> static bool rx_wide_ok(const gp_context *ctx) {
  if constexpr (sizeof(K) == 8 && PV && sizeof(V) == 8 &&
                GP_RX_PAIR_ITEMS8_V8_WIDE != GP_RX_PAIR_ITEMS8_V8)
    return ctx->smem_block >= sizeof(rx_sweep_smem<K, V, PV, RX_SW_WIDE>);
  else
    return false;
}

/* The upfront histogram in one of its two shapes (rx_histogram): the wide one for sorts
 * of at least 2^GP_RX_HIST_WIDE_LOG2 keys where the GPU gives a block its 128 KiB. */
template <typename K, int C, int THREADS, int U>
static gp_status rx_hist_go(gp_context *ctx, const K *kin, u64 n, gp_key_class kind, int desc,
                            u64 *hist, u64 blocks) {
  constexpr size_t smem = (size_t)rx_npass<K>() * GP_RX_RADIX * C * sizeof(unsigned);
  static unsigned long long attr_set; /* per device: common/per_device.h */
  if (!gp_dev_flag(&attr_set, ctx->device)) {
    gp_status s = rx_smem_attr(ctx, rx_histogram<K, C, THREADS, U>, smem);
    if (s) return s;
    gp_dev_flag_set(&attr_set, ctx->device);
  }
  const u64 need = (n + THREADS * 16 - 1) / (THREADS * 16);
  if (blocks > need) blocks = need;
  rx_histogram<K, C, THREADS, U><<<(unsigned)blocks, THREADS, smem, (cudaStream_t)ctx->stream>>>(
      kin, n, kind, desc, hist);
  GP_LAUNCH_CHECK(ctx, "rx_histogram", blocks, THREADS, smem);
  return GP_OK;
}
template <typename K>
static gp_status rx_hist_launch(gp_context *ctx, const K *kin, u64 n, gp_key_class kind, int desc,
                                u64 *hist, int sms) {
  constexpr int CW = sizeof(K) == 4 ? GP_RX_HIST_WIDE_COPIES4 : GP_RX_HIST_WIDE_COPIES8;
  constexpr size_t wide_smem = (size_t)rx_npass<K>() * GP_RX_RADIX * CW * sizeof(unsigned);
  if (GP_RX_HIST_WIDE_LOG2 < 64 && n >= (1ull << (GP_RX_HIST_WIDE_LOG2 & 63)) &&
      ctx->smem_block >= wide_smem)
    return rx_hist_go<K, CW, GP_RX_HIST_WIDE_THREADS, GP_RX_HIST_WIDE_LOADS>(ctx, kin, n, kind, desc,
                                                                            hist, (u64)sms);
  return rx_hist_go<K, sizeof(K) == 4 ? 8 : 4, GP_RX_HIST_THREADS, 2>(
      ctx, kin, n, kind, desc, hist, (u64)sms * GP_RX_HIST_BLOCKS_PER_SM);
}

/* The device-wide sort: kin (read by the first active pass; may be kbuf0) to kbuf0,
 * values vin (NULL: iota) to vbuf0; scratch as rx_layout; kbuf1 given for argsort. */
template <typename K, typename V, bool PV>
static gp_status rx_device_sort(gp_context *ctx, const K *kin, K *kbuf0, K *kbuf1, const V *vin,
                                V *vbuf0, u64 n, gp_key_class kind, int desc, int discard_keys,
                                char *scratch) {
  const cudaStream_t st = (cudaStream_t)ctx->stream;
  const rx_scratch_layout L = rx_layout(sizeof(K), PV ? (int)sizeof(V) : 0, n);
  constexpr int NP = rx_npass<K>();
  const bool small = rx_small_sweep(n);
  const bool wide = !small && rx_wide_ok<K, V, PV>(ctx);
  /* the launched shape's tile, from the same templates as rx_tile_for's (rx_layout's) */
  constexpr int VB = PV ? (int)sizeof(V) : 0;
  const u64 tile = wide ? rx_sweep_tile<K, VB, RX_SW_WIDE>() : rx_tile_of<K, VB>(small);
  const u64 tiles = (n + tile - 1) / tile;
  if (tiles > 0x7FFFFFFFull)
    return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT, "radix sort too large for one grid (%llu tiles)", tiles);
  rx_sweep_args a;
  a.kin = kin;
  a.vin = vin;
  a.kbuf[0] = kbuf0;
  a.kbuf[1] = kbuf1 ? (void *)kbuf1 : (void *)(scratch + L.k1);
  a.vbuf[0] = vbuf0;
  a.vbuf[1] = PV ? (void *)(scratch + L.v1) : NULL;
  a.n = n;
  a.plan = (const rx_plan *)(scratch + L.plan);
  a.gbase = (const u64 *)(scratch + L.gbase);
  a.status = (u64 *)(scratch + L.status);
  a.tickets = (unsigned *)(scratch + L.tickets);
  a.kind = kind;
  a.desc = desc;
  a.discard_keys = discard_keys;
  u64 *hist = (u64 *)(scratch + L.hist);
  GP_CUDA_TRY(ctx, cudaMemsetAsync(hist, 0, L.gbase - L.hist, st));
  gp_status s;

  const int sms = ctx->info.sm_count > 0 ? ctx->info.sm_count : 1;
  s = rx_hist_launch<K>(ctx, kin, n, kind, desc, hist, sms);
  if (s) return s;
  {
    const u64 *h = hist;
    u64 *gb = (u64 *)a.gbase;
    int np = NP, in_place = (const void *)kin == (const void *)kbuf0;
    rx_plan *plan = (rx_plan *)a.plan;
    void *args[] = {&h, &gb, &np, &n, &in_place, &plan};
    (void)gp_launch_pdl((const void *)rx_plan_kernel, 1, GP_RX_RADIX, 0, st, args, rx_pdl(ctx));
  }
  GP_LAUNCH_CHECK(ctx, "rx_plan_kernel", 1, GP_RX_RADIX, 0);

  if (small)
    s = rx_sweeps<K, V, PV, RX_SW_SMALL>(ctx, a, NP, tiles);
  else if constexpr (sizeof(K) == 8 && PV && sizeof(V) == 8)
    s = wide ? rx_sweeps<K, V, PV, RX_SW_WIDE>(ctx, a, NP, tiles)
             : rx_sweeps<K, V, PV, RX_SW_BIG>(ctx, a, NP, tiles);
  else
    s = rx_sweeps<K, V, PV, RX_SW_BIG>(ctx, a, NP, tiles);
  if (s) return s;
  u64 fblocks = (n + 255) / 256;
  if (fblocks > (u64)sms * 8) fblocks = (u64)sms * 8;
  {
    void *args[] = {&a};
    (void)gp_launch_pdl((const void *)rx_fixup<K, V, PV>, (unsigned)fblocks, 256, 0, st, args,
                        rx_pdl(ctx));
  }
  GP_LAUNCH_CHECK(ctx, "rx_fixup", fblocks, 256, 0);
  return GP_OK;
}

/* One sort of above the big block (GP_RX_CL_OVER_TILE: above the tile) up to a
 * cluster's capacity by one cluster (radix_cluster.cuh): blocks of GP_RX_CL_ITEMS keys a
 * thread, or of GP_RX_CL_WIDE_ITEMS for 4-byte keys alone beyond their reach; *done = 0
 * where another path must sort it. Values travel as VC and are written as V (an
 * argsort's 8-byte indices as 4-byte places: rx_clustersort). */
template <typename K, typename V, bool PV, typename VC = V>
static gp_status rx_try_cluster(gp_context *ctx, const void *kin, const void *vin, void *kout,
                                void *vout, u64 n, gp_key_class kind, int desc, rx_bounds b,
                                int *done) {
  constexpr int WIDE = sizeof(K) == 4 && !PV ? GP_RX_CL_WIDE_ITEMS : 0;
  const u64 lo = GP_RX_CL_OVER_TILE ? b.tile_max : b.big_max;
  const rx_seg_args a = {kin, vin, kout, vout, NULL, 1, n, 0, (unsigned)n, kind, desc, NULL};
  u64 cap = 0;
  *done = 0;
  if (n <= lo) return GP_OK;
  gp_status s = rx_cl_capacity<GP_RX_CL_ITEMS, K, VC, PV, V>(ctx, &cap);
  if (s || n <= cap) {
    *done = !s;
    return s ? s : rx_launch_cluster<GP_RX_CL_ITEMS, K, VC, PV, V>(ctx, a);
  }
  if constexpr (WIDE > 0) {
    if ((s = rx_cl_capacity<WIDE, K, VC, PV, V>(ctx, &cap)) || n <= cap) {
      *done = !s;
      return s ? s : rx_launch_cluster<WIDE, K, VC, PV, V>(ctx, a);
    }
  }
  return GP_OK;
}

/* Sort of n keys in place (values along), by one block when they fit a tile. */
template <typename K, typename V, bool PV>
static gp_status rx_sort_t(gp_context *ctx, gp_dtype kt, void *keys, void *values, u64 n,
                           int desc, void *scratch) {
  const gp_key_class kind = gp_key_class_of(kt);
  const rx_bounds b = rx_bounds_for<K, V, PV>(ctx);
  int done;
  gp_status s = rx_try_cluster<K, V, PV>(ctx, keys, values, keys, values, n, kind, desc, b, &done);
  if (s || done) return s;
  if (n <= b.tile_max) {
    rx_seg_args a = {keys, values, keys, values, NULL, 1, n, 0, 0, kind, desc, NULL};
    uint64_t counts[RX_NCLASS] = {0};
    counts[rx_class(n, b)] = 1;
    return rx_seg_launches<K, V, PV>(ctx, a, counts);
  }
  return rx_device_sort<K, V, PV>(ctx, (const K *)keys, (K *)keys, NULL, (const V *)values,
                                  (V *)values, n, kind, desc, 0, (char *)scratch);
}

extern "C" gp_status gp_cuda_radix_sort(gp_context *ctx, gp_dtype kt, void *keys, int vb,
                                        void *values, size_t n, int desc, void *scratch) {
  if (n <= 1) return GP_OK;
  if (gp_dtype_size(kt) == 4) {
    if (vb == 0) return rx_sort_t<uint32_t, uint32_t, false>(ctx, kt, keys, NULL, n, desc, scratch);
    if (vb == 4) return rx_sort_t<uint32_t, uint32_t, true>(ctx, kt, keys, values, n, desc, scratch);
    return rx_sort_t<uint32_t, u64, true>(ctx, kt, keys, values, n, desc, scratch);
  }
  if (vb == 0) return rx_sort_t<u64, uint32_t, false>(ctx, kt, keys, NULL, n, desc, scratch);
  if (vb == 4) return rx_sort_t<u64, uint32_t, true>(ctx, kt, keys, values, n, desc, scratch);
  return rx_sort_t<u64, u64, true>(ctx, kt, keys, values, n, desc, scratch);
}

__global__ void rx_arg_compose(const uint32_t *__restrict__ keys, u64 n, gp_key_class kind,
                               int desc, u64 *comp) {
  for (u64 i = (u64)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (u64)gridDim.x * blockDim.x)
    comp[i] = (u64)gp_key32_enc(keys[i], kind, desc) << 32 | i;
}

template <typename V>
__global__ void rx_arg_extract(const u64 *__restrict__ comp, u64 n, V *idx) {
  for (u64 i = (u64)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (u64)gridDim.x * blockDim.x)
    idx[i] = (V)(uint32_t)comp[i];
}

/* comp[i] = (encoded keys[i] << 32 | i), sorted by the bitonic sort: the stable order of
 * n <= 2^32 four-byte keys (argsorts and AUTO pairs of 2049 .. 4096 keys) */
static gp_status rx_composites_sorted(gp_context *ctx, gp_dtype kt, const void *keys, u64 n,
                                      int desc, u64 *comp) {
  const unsigned g = (unsigned)((n + 255) / 256);
  rx_arg_compose<<<g, 256, 0, (cudaStream_t)ctx->stream>>>((const uint32_t *)keys, n,
                                                          gp_key_class_of(kt), desc, comp);
  GP_LAUNCH_CHECK(ctx, "rx_arg_compose", g, 256, 0);
  return gp_cuda_bitonic_sort(ctx, GP_U64, comp, 0, NULL, 1, n, 0);
}

template <typename V>
static gp_status rx_argsort_composite(gp_context *ctx, gp_dtype kt, const void *keys, void *idx,
                                      u64 n, int desc, void *scratch) {
  const cudaStream_t st = (cudaStream_t)ctx->stream;
  u64 *comp = (u64 *)scratch;
  const unsigned g = (unsigned)((n + 255) / 256);
  gp_status s = rx_composites_sorted(ctx, kt, keys, n, desc, comp);
  if (s) return s;
  rx_arg_extract<V><<<g, 256, 0, st>>>(comp, n, (V *)idx);
  GP_LAUNCH_CHECK(ctx, "rx_arg_extract", g, 256, 0);
  return GP_OK;
}

template <typename V>
__global__ void rx_pair_extract(const u64 *__restrict__ comp, u64 n, gp_key_class kind, int desc,
                                const V *__restrict__ vcopy, uint32_t *keys, V *vals) {
  for (u64 i = (u64)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (u64)gridDim.x * blockDim.x) {
    const u64 c = comp[i];
    keys[i] = gp_key32_dec((uint32_t)(c >> 32), kind, desc);
    vals[i] = vcopy[(uint32_t)c];
  }
}

extern "C" size_t gp_cuda_composite_pairs_scratch(int value_bytes, size_t n) {
  return rx_align(n * sizeof(u64)) + n * (size_t)value_bytes;
}

extern "C" gp_status gp_cuda_composite_pairs(gp_context *ctx, gp_dtype kt, void *keys, int vb,
                                             void *values, size_t n, int desc, void *scratch) {
  if (n <= 1) return GP_OK;
  const cudaStream_t st = (cudaStream_t)ctx->stream;
  const gp_key_class kind = gp_key_class_of(kt);
  u64 *comp = (u64 *)scratch;
  void *vcopy = (char *)scratch + rx_align(n * sizeof(u64));
  const unsigned g = (unsigned)((n + 255) / 256);
  GP_CUDA_TRY(ctx, cudaMemcpyAsync(vcopy, values, n * (size_t)vb, cudaMemcpyDeviceToDevice, st));
  gp_status s = rx_composites_sorted(ctx, kt, keys, n, desc, comp);
  if (s) return s;
  if (vb == 4)
    rx_pair_extract<uint32_t><<<g, 256, 0, st>>>(comp, n, kind, desc, (const uint32_t *)vcopy,
                                                 (uint32_t *)keys, (uint32_t *)values);
  else
    rx_pair_extract<u64><<<g, 256, 0, st>>>(comp, n, kind, desc, (const u64 *)vcopy,
                                            (uint32_t *)keys, (u64 *)values);
  GP_LAUNCH_CHECK(ctx, "rx_pair_extract", g, 256, 0);
  return GP_OK;
}

template <typename K, typename V>
static gp_status rx_argsort_t(gp_context *ctx, gp_dtype kt, const void *keys, void *idx, u64 n,
                              int desc, void *scratch) {
  const gp_key_class kind = gp_key_class_of(kt);
  const rx_bounds b = rx_bounds_for<K, V, true>(ctx);
  int done;
  /* 8-byte indices carried as 4-byte places by the cluster (radix_cluster.cuh) */
  using VC = typename std::conditional<sizeof(V) == 8 && GP_RX_CL_NARROW_IDX, unsigned, V>::type;
  gp_status s = rx_try_cluster<K, V, true, VC>(ctx, keys, NULL, NULL, idx, n, kind, desc, b, &done);
  if (s || done) return s;
  if (n <= b.tile_max) {
    rx_seg_args a = {keys, NULL, NULL, idx, NULL, 1, n, 0, 0, kind, desc, NULL};
    uint64_t counts[RX_NCLASS] = {0};
    counts[rx_class(n, b)] = 1;
    return rx_seg_launches<K, V, true>(ctx, a, counts);
  }
  char *sc = (char *)scratch;
  K *k0 = (K *)sc;
  return rx_device_sort<K, V, true>(ctx, (const K *)keys, k0, NULL, NULL, (V *)idx, n, kind, desc,
                                    1, sc + rx_align(n * sizeof(K)));
}

extern "C" gp_status gp_cuda_radix_argsort(gp_context *ctx, gp_dtype kt, const void *keys,
                                           int index_bytes, void *indices, size_t n, int desc,
                                           void *scratch) {
  if (n == 0) return GP_OK;
  if (n == 1) {
    if (index_bytes == 4) GP_CUDA_TRY(ctx, cudaMemsetAsync(indices, 0, 4, (cudaStream_t)ctx->stream));
    else GP_CUDA_TRY(ctx, cudaMemsetAsync(indices, 0, 8, (cudaStream_t)ctx->stream));
    return GP_OK;
  }
  if (rx_argsort_bitonic(gp_dtype_size(kt), n))
    return index_bytes == 4 ? rx_argsort_composite<uint32_t>(ctx, kt, keys, indices, n, desc, scratch)
                            : rx_argsort_composite<u64>(ctx, kt, keys, indices, n, desc, scratch);
  if (gp_dtype_size(kt) == 4) {
    if (index_bytes == 4) return rx_argsort_t<uint32_t, uint32_t>(ctx, kt, keys, indices, n, desc, scratch);
    return rx_argsort_t<uint32_t, u64>(ctx, kt, keys, indices, n, desc, scratch);
  }
  if (index_bytes == 4) return rx_argsort_t<u64, uint32_t>(ctx, kt, keys, indices, n, desc, scratch);
  return rx_argsort_t<u64, u64>(ctx, kt, keys, indices, n, desc, scratch);
}

/* ---- segments by offsets -------------------------------------------------------------- */
/* What the offsets hold, found on the device: the first decrease, n, the segments of each
 * size class, and the segments above a tile listed (begin, end) in `large`. */
struct rx_summary {
  u64 first_bad; /* set to all ones before the launch */
  u64 n;
  u64 counts[RX_NCLASS];
  u64 max_large;
  u64 nlarge;
};

__global__ void __launch_bounds__(256)
rx_summarize(const u64 *off, u64 nseg, rx_bounds bounds, rx_summary *s, u64 *large) {
  __shared__ unsigned long long counts[RX_NCLASS];
  const unsigned lane = threadIdx.x & 31;
  const u64 stride = (u64)gridDim.x * blockDim.x;
  if (threadIdx.x < RX_NCLASS) counts[threadIdx.x] = 0;
  __syncthreads();
  /* warp-uniform trips: the ballots below need every lane */
  for (u64 base = (u64)blockIdx.x * blockDim.x + (threadIdx.x - lane); base < nseg; base += stride) {
    const u64 i = base + lane;
    int cls = -1;
    if (i < nseg) {
      const u64 b = off[i], e = off[i + 1];
      if (e < b) atomicMin(&s->first_bad, i);
      else if (e - b >= 2) cls = rx_class(e - b, bounds);
      if (cls == RX_LARGE) {
        const u64 j = atomicAdd(&s->nlarge, 1ull);
        large[2 * j] = b;
        large[2 * j + 1] = e;
        atomicMax(&s->max_large, e - b);
      }
    }
    /* a shared-memory atomic per warp and class, a global one per block and class (a
       global atomic per warp on the same five words serialized 2^15 warps in L2) */
#pragma unroll
    for (int c = 0; c < RX_NCLASS; c++) {
      const unsigned m = __ballot_sync(0xFFFFFFFFu, cls == c);
      if (lane == 0 && m) atomicAdd(&counts[c], (unsigned long long)__popc(m));
    }
  }
  __syncthreads();
  if (threadIdx.x < RX_NCLASS && counts[threadIdx.x])
    atomicAdd(&s->counts[threadIdx.x], (u64)counts[threadIdx.x]);
  if (blockIdx.x == 0 && threadIdx.x == 0) s->n = off[nseg];
}

static void rx_summary_from_host(rx_bounds bounds, const uint64_t *off, size_t nseg,
                                 gp_cuda_seg_summary *sum, uint64_t *large) {
  memset(sum, 0, sizeof *sum);
  sum->first_bad = UINT64_MAX;
  for (size_t i = 0; i < nseg; i++) {
    const u64 b = off[i], e = off[i + 1];
    if (e < b) {
      sum->first_bad = i;
      return;
    }
    if (e - b < 2) continue;
    const int c = rx_class(e - b, bounds);
    sum->counts[c]++;
    if (c == RX_LARGE) {
      if (large) {
        large[2 * sum->nlarge] = b;
        large[2 * sum->nlarge + 1] = e;
      }
      sum->nlarge++;
      if (e - b > sum->max_large) sum->max_large = e - b;
    }
  }
  sum->n = off[nseg];
}

extern "C" gp_status gp_cuda_radix_summarize(gp_context *ctx, gp_dtype key_type, int value_bytes,
                                             const uint64_t *offsets, int on_device, size_t nseg,
                                             gp_cuda_seg_summary *sum, uint64_t **large) {
  const rx_bounds bounds = rx_bounds_kv(ctx, gp_dtype_size(key_type), value_bytes);
  *large = NULL;
  if (!on_device) {
    rx_summary_from_host(bounds, offsets, nseg, sum, NULL);
    if (sum->nlarge) {
      *large = (uint64_t *)malloc(sum->nlarge * 2 * sizeof(uint64_t));
      if (!*large)
        return gp_fail(ctx, GP_ERR_OUT_OF_MEMORY, "no host memory for the list of %llu large segments",
                       (unsigned long long)sum->nlarge);
      rx_summary_from_host(bounds, offsets, nseg, sum, *large);
    }
    return GP_OK;
  }
  const cudaStream_t st = (cudaStream_t)ctx->stream;
  gp_ws_layout lay = {0};
  const size_t os = gp_ws_add(&lay, sizeof(rx_summary));
  const size_t ol = gp_ws_add(&lay, nseg * 2 * sizeof(u64));
  void *ws = NULL;
  gp_status s = gp_ws_reserve(ctx, &lay, &ws);
  if (s) return s;
  rx_summary *ds = (rx_summary *)((char *)ws + os);
  u64 *dl = (u64 *)((char *)ws + ol);
  GP_CUDA_TRY(ctx, cudaMemsetAsync(ds, 0, sizeof *ds, st));
  GP_CUDA_TRY(ctx, cudaMemsetAsync(&ds->first_bad, 0xFF, sizeof ds->first_bad, st));
  const int sms = ctx->info.sm_count > 0 ? ctx->info.sm_count : 1;
  u64 blocks = (nseg + 255) / 256;
  if (blocks > (u64)sms * 8) blocks = (u64)sms * 8;
  rx_summarize<<<(unsigned)blocks, 256, 0, st>>>((const u64 *)offsets, nseg, bounds, ds, dl);
  GP_LAUNCH_CHECK(ctx, "rx_summarize", blocks, 256, 0);
  void *pin = NULL;
  if ((s = gp_pinned(ctx, sizeof(rx_summary), &pin))) return s;
  GP_CUDA_TRY(ctx, cudaMemcpyAsync(pin, ds, sizeof(rx_summary), cudaMemcpyDeviceToHost, st));
  if ((s = gp_sync_stream(ctx))) return s;
  const rx_summary *h = (const rx_summary *)pin;
  sum->first_bad = h->first_bad;
  sum->n = h->n;
  for (int c = 0; c < RX_NCLASS; c++) sum->counts[c] = h->counts[c];
  sum->max_large = h->max_large;
  sum->nlarge = h->nlarge;
  if (sum->first_bad == UINT64_MAX && sum->nlarge) {
    *large = (uint64_t *)malloc(sum->nlarge * 2 * sizeof(uint64_t));
    if (!*large)
      return gp_fail(ctx, GP_ERR_OUT_OF_MEMORY, "no host memory for the list of %llu large segments",
                     (unsigned long long)sum->nlarge);
    s = gp_copy_sync(ctx, *large, dl, sum->nlarge * 2 * sizeof(uint64_t));
    if (s) {
      free(*large);
      *large = NULL;
      return s;
    }
  }
  return GP_OK;
}

/* 4-byte keys with at least this many segments above one tile sort those together:
 * one device-wide sort of 64-bit composites (segment << 32 | encoded key) over the span
 * from the first large segment to the end of the last, instead of one device-wide sort
 * per segment, whose fixed cost (a histogram, a plan, four sweeps: ~48 us on the H200)
 * made 1024 segments of 16384 pairs take 49.5 ms. The sort is stable and a segment's
 * composites share their top half, so each segment ends in order with its values; the
 * small segments inside the span, already sorted, stay as they are. */
#define GP_RX_SEG_COMPOSITE_MIN 16

/* count: the large segments it would sort (the summary's for the scratch, which then
 * covers either path; those the clusters left for the choice) */
static bool rx_seg_composite(gp_dtype kt, size_t nseg, u64 count) {
  return gp_dtype_size(kt) == 4 && count >= GP_RX_SEG_COMPOSITE_MIN && nseg <= 0xFFFFFFFFull;
}

/* Scratch: the spans of the large segments that clusters sort, then the composites and
 * their sort's scratch, or the buffer the large segments are sorted in one after another
 * (sized as if no cluster took any). */
static size_t rx_spans_bytes(const gp_cuda_seg_summary *sum) { return rx_align(sum->nlarge * 16); }

extern "C" size_t gp_cuda_radix_segments_scratch(gp_dtype key_type, int value_bytes,
                                                 size_t nseg, const gp_cuda_seg_summary *sum) {
  if (!sum->nlarge) return 0;
  if (rx_seg_composite(key_type, nseg, sum->nlarge))
    return rx_spans_bytes(sum) + rx_align((size_t)sum->n * 8) +
           gp_cuda_radix_scratch_upto(GP_U64, value_bytes, sum->n);
  return rx_spans_bytes(sum) + gp_cuda_radix_scratch_upto(key_type, value_bytes, sum->max_large);
}

/* A warp per segment: the composites of the keys of [lo, hi) */
__global__ void rx_seg_compose(const uint32_t *__restrict__ keys, const u64 *__restrict__ off,
                               u64 nseg, u64 lo, u64 hi, gp_key_class kind, int desc, u64 *comp) {
  const u64 nw = ((u64)gridDim.x * blockDim.x) >> 5;
  const unsigned lane = threadIdx.x & 31;
  for (u64 sg = ((u64)blockIdx.x * blockDim.x + threadIdx.x) >> 5; sg < nseg; sg += nw) {
    u64 b = off[sg], e = off[sg + 1];
    if (b < lo) b = lo;
    if (e > hi) e = hi;
    for (u64 i = b + lane; i < e; i += 32)
      comp[i - lo] = sg << 32 | (u64)gp_key32_enc(keys[i], kind, desc);
  }
}

__global__ void rx_seg_decompose(const u64 *__restrict__ comp, u64 n, gp_key_class kind, int desc,
                                 uint32_t *keys) {
  for (u64 i = (u64)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (u64)gridDim.x * blockDim.x)
    keys[i] = gp_key32_dec((uint32_t)comp[i], kind, desc);
}

template <typename V, bool PV>
static gp_status rx_segments_composite(gp_context *ctx, uint32_t *keys, V *values,
                                       const uint64_t *d_off, size_t nseg, const uint64_t *large,
                                       u64 nlarge,
                                       gp_key_class kind, int desc, char *scratch) {
  /* (device offsets list the large segments in the order their summary's atomics took) */
  u64 lo = large[0], hi = large[1];
  for (u64 i = 1; i < nlarge; i++) {
    if (large[2 * i] < lo) lo = large[2 * i];
    if (large[2 * i + 1] > hi) hi = large[2 * i + 1];
  }
  const u64 n = hi - lo;
  u64 *comp = (u64 *)scratch;
  const cudaStream_t st = (cudaStream_t)ctx->stream;
  const int sms = ctx->info.sm_count > 0 ? ctx->info.sm_count : 1;
  u64 g = (nseg + 7) / 8; /* 8 warps a block */
  if (g > (u64)sms * 8) g = (u64)sms * 8;
  rx_seg_compose<<<(unsigned)g, 256, 0, st>>>(keys, (const u64 *)d_off, nseg, lo, hi, kind, desc,
                                              comp);
  GP_LAUNCH_CHECK(ctx, "rx_seg_compose", g, 256, 0);
  V *v = PV ? values + lo : NULL;
  gp_status s = rx_device_sort<u64, V, PV>(ctx, comp, comp, NULL, v, v, n, GP_KEY_UNSIGNED, 0, 0,
                                           scratch + rx_align((size_t)n * 8));
  if (s) return s;
  g = (n + 255) / 256;
  if (g > (u64)sms * 16) g = (u64)sms * 16;
  rx_seg_decompose<<<(unsigned)g, 256, 0, st>>>(comp, n, kind, desc, keys + lo);
  GP_LAUNCH_CHECK(ctx, "rx_seg_decompose", g, 256, 0);
  return GP_OK;
}

/* The large segments a cluster can sort (rx_cl_capacity): their spans grouped by
 * the blocks their cluster needs, copied to `spans` (device scratch) and sorted by a
 * launch per group. *rest (malloc'd) lists the others and *nrest counts them; *rest
 * stays NULL when no cluster took any (the others are then all of `large`). */
template <typename K, typename V, bool PV>
static gp_status rx_segments_clusters(gp_context *ctx, rx_seg_args a, const gp_cuda_seg_summary *sum,
                                      const uint64_t *large, u64 *spans, uint64_t **rest, u64 *nrest) {
  constexpr unsigned TILE = rx_cl_tile<GP_RX_CL_ITEMS, K>();
  u64 cap, per[GP_RX_CL_MAX_BLOCKS + 1] = {0}, taken = 0;
  gp_status s = rx_cl_capacity<GP_RX_CL_ITEMS, K, V, PV>(ctx, &cap);
  if (s) return s;
  for (u64 i = 0; i < sum->nlarge; i++) {
    const u64 sz = large[2 * i + 1] - large[2 * i];
    if (sz <= cap) per[(sz + TILE - 1) / TILE]++, taken++;
  }
  if (!taken) return GP_OK;
  uint64_t *host = (uint64_t *)malloc((size_t)sum->nlarge * 16);
  if (!host)
    return gp_fail(ctx, GP_ERR_OUT_OF_MEMORY, "no host memory for the spans of %llu large segments",
                   (unsigned long long)sum->nlarge);
  u64 at[GP_RX_CL_MAX_BLOCKS + 1], o = 0, r = taken; /* cluster groups first, then the rest */
  for (int c = 0; c <= GP_RX_CL_MAX_BLOCKS; c++) at[c] = o, o += per[c];
  for (u64 i = 0; i < sum->nlarge; i++) {
    const u64 sz = large[2 * i + 1] - large[2 * i];
    const u64 j = sz <= cap ? at[(sz + TILE - 1) / TILE]++ : r++;
    host[2 * j] = large[2 * i];
    host[2 * j + 1] = large[2 * i + 1];
  }
  /* from pageable memory: returns once the spans are staged, so `host` may go */
  s = gp_cuda_status(ctx, (int)cudaMemcpyAsync(spans, host, (size_t)taken * 16,
                                                         cudaMemcpyHostToDevice,
                                                         (cudaStream_t)ctx->stream),
                               "cudaMemcpyAsync(the spans of large segments)", __FILE__, __LINE__);
  u64 first = 0;
  for (int c = 1; !s && c <= GP_RX_CL_MAX_BLOCKS; first += per[c], c++) {
    if (!per[c]) continue;
    rx_seg_args g = a;
    g.spans = spans + 2 * first;
    g.nseg = per[c];
    g.min_size = 0;
    g.max_size = (unsigned)c * TILE;
    s = rx_launch_cluster<GP_RX_CL_ITEMS, K, V, PV>(ctx, g);
  }
  if (s || taken == sum->nlarge) {
    free(host);
    *nrest = 0;
    return s;
  }
  memmove(host, host + 2 * taken, (size_t)(sum->nlarge - taken) * 16);
  *rest = host;
  *nrest = sum->nlarge - taken;
  return GP_OK;
}

template <typename K, typename V, bool PV>
static gp_status rx_segments_t(gp_context *ctx, gp_dtype kt, void *keys, void *values,
                               const uint64_t *d_off, size_t nseg, const gp_cuda_seg_summary *sum,
                               const uint64_t *large, int desc, void *scratch) {
  const gp_key_class kind = gp_key_class_of(kt);
  rx_seg_args a = {keys, values, keys, values, (const u64 *)d_off, nseg, 0, 0, 0, kind, desc, NULL};
  u64 nrest = sum->nlarge;
  uint64_t *rest = NULL; /* the large segments no cluster takes */
  gp_status s = rx_segments_clusters<K, V, PV>(ctx, a, sum, large, (u64 *)scratch, &rest, &nrest);
  if (s) return s;
  char *sc = (char *)scratch + rx_spans_bytes(sum);
  const uint64_t *r = rest ? rest : large;
  if ((s = rx_seg_launches<K, V, PV>(ctx, a, sum->counts))) goto out;
  /* the composite pays for the segments the clusters left, not for those they took: it
     sorts the whole span between the first and the last of the rest (its scratch, sized
     from the summary, covers either path) */
  if (sizeof(K) == 4 && rx_seg_composite(kt, nseg, nrest)) {
    s = rx_segments_composite<V, PV>(ctx, (uint32_t *)keys, (V *)values, d_off, nseg, r, nrest,
                                     kind, desc, sc);
    goto out;
  }
  for (u64 i = 0; i < nrest; i++) {
    const u64 b = r[2 * i], sz = r[2 * i + 1] - b;
    K *k = (K *)keys + b;
    V *v = PV ? (V *)values + b : NULL;
    if ((s = rx_device_sort<K, V, PV>(ctx, k, k, NULL, v, v, sz, kind, desc, 0, sc))) goto out;
  }
out:
  free(rest);
  return s;
}

extern "C" gp_status gp_cuda_radix_segments(gp_context *ctx, gp_dtype kt, void *keys, int vb,
                                            void *values, const uint64_t *d_off, size_t nseg,
                                            const gp_cuda_seg_summary *sum, const uint64_t *large,
                                            int desc, void *scratch) {
  if (nseg == 0) return GP_OK;
  if (gp_dtype_size(kt) == 4) {
    if (vb == 0) return rx_segments_t<uint32_t, uint32_t, false>(ctx, kt, keys, NULL, d_off, nseg, sum, large, desc, scratch);
    if (vb == 4) return rx_segments_t<uint32_t, uint32_t, true>(ctx, kt, keys, values, d_off, nseg, sum, large, desc, scratch);
    return rx_segments_t<uint32_t, u64, true>(ctx, kt, keys, values, d_off, nseg, sum, large, desc, scratch);
  }
  if (vb == 0) return rx_segments_t<u64, uint32_t, false>(ctx, kt, keys, NULL, d_off, nseg, sum, large, desc, scratch);
  if (vb == 4) return rx_segments_t<u64, uint32_t, true>(ctx, kt, keys, values, d_off, nseg, sum, large, desc, scratch);
  return rx_segments_t<u64, u64, true>(ctx, kt, keys, values, d_off, nseg, sum, large, desc, scratch);
}
