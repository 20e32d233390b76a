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
 *                 earlier tiles are running or done), ranks it stably in shared memory
 *                 (warp match_any multi-split), publishes its digit counts and looks
 *                 back over earlier tiles (decoupled look-back, one thread per digit)
 *                 for the global offsets, then scatters through shared memory so
 *                 each digit's run is written contiguously
 *   rx_fixup      copies the other buffer back when an odd pass count ended there
 * Segments (and single sorts) of up to one tile run in one block each (rx_segsort):
 * the same stable ranking, all passes in shared memory, one read and one write.
 *
 * Keys are read raw and encoded in registers at every pass (a few ALU operations), so
 * every buffer holds caller-visible keys. Stable: the ranking keeps input order within
 * a digit. Deterministic: the look-back sums are integer counts. */
#include "cuda/sort/sort_cuda.h"
#include "cuda/sort/radix_policy.h"
#include "core/key_codec.h"

#include <cuda_runtime.h>
#include <stdint.h>

typedef unsigned long long u64;

#define RX_WARPS (GP_RX_THREADS / 32)
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

/* Ranks the block's keys stably on the digit at `shift`: item i of lane l in warp w is
 * tile position (w * ITEMS + i) * 32 + l, valid below `count`; on return pos[i] is its
 * place in the tile ordered by digit (equal digits in position order), s.cnt and
 * s.dstart hold each digit's count and start. Every thread calls it; it starts with a
 * barrier-free zeroing that must not overlap a previous reader of s (callers sync). */
template <int THREADS, int ITEMS, typename K>
__device__ __forceinline__ void rx_block_rank(const K (&ek)[ITEMS], unsigned count,
                                              unsigned shift, rx_rank_smem<THREADS> &s,
                                              unsigned (&pos)[ITEMS]) {
  constexpr int WARPS = THREADS / 32;
  const unsigned tid = threadIdx.x, lane = tid & 31, w = tid >> 5;
  for (unsigned j = tid; j < WARPS * GP_RX_RADIX; j += THREADS) s.whist[j] = 0;
  __syncthreads();
  unsigned *wh = s.whist + w * GP_RX_RADIX;
  const unsigned lt = (1u << lane) - 1;
#pragma unroll
  for (int i = 0; i < ITEMS; i++) {
    const unsigned local = (w * ITEMS + i) * 32 + lane;
    const unsigned d = local < count ? (unsigned)(ek[i] >> shift) & (GP_RX_RADIX - 1) : GP_RX_RADIX;
    const unsigned peers = __match_any_sync(0xFFFFFFFFu, d);
    const int leader = 31 - __clz(peers);
    unsigned base = 0;
    if ((int)lane == leader && d < GP_RX_RADIX) {
      base = wh[d];
      wh[d] = base + __popc(peers);
    }
    base = __shfl_sync(0xFFFFFFFFu, base, leader);
    pos[i] = base + __popc(peers & lt);
    __syncwarp(); /* the leader's update is seen by the next item's leader */
  }
  __syncthreads();
  /* per digit: warps' exclusive prefix (in place) and the tile's count */
  for (unsigned d = tid; d < GP_RX_RADIX; d += THREADS) {
    unsigned run = 0;
#pragma unroll
    for (int ww = 0; ww < WARPS; ww++) {
      unsigned t = s.whist[ww * GP_RX_RADIX + d];
      s.whist[ww * GP_RX_RADIX + d] = run;
      run += t;
    }
    s.cnt[d] = run;
  }
  __syncthreads();
  /* exclusive scan of the 256 counts by warp 0, 8 consecutive digits per lane */
  if (w == 0) {
    constexpr int PER = GP_RX_RADIX / 32;
    unsigned c[PER], sum = 0;
#pragma unroll
    for (int j = 0; j < PER; j++) {
      c[j] = s.cnt[lane * PER + j];
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
      s.dstart[lane * PER + j] = run;
      run += c[j];
    }
  }
  __syncthreads();
  /* digits recomputed rather than kept: ITEMS fewer registers */
#pragma unroll
  for (int i = 0; i < ITEMS; i++)
    if ((w * ITEMS + i) * 32 + lane < count) {
      const unsigned d = (unsigned)(ek[i] >> shift) & (GP_RX_RADIX - 1);
      pos[i] += s.dstart[d] + wh[d];
    }
}

/* ---- upfront histogram ---------------------------------------------------------------- */
/* hist[p * 256 + d] += number of keys whose digit p is d (hist zeroed by the caller). */
template <typename K>
__global__ void __launch_bounds__(GP_RX_HIST_THREADS)
rx_histogram(const K *keys, u64 n, gp_key_class kind, int desc, u64 *hist) {
  constexpr int NP = rx_npass<K>();
  __shared__ unsigned sh[NP * GP_RX_RADIX];
  for (unsigned j = threadIdx.x; j < NP * GP_RX_RADIX; j += GP_RX_HIST_THREADS) sh[j] = 0;
  __syncthreads();
  const u64 stride = (u64)gridDim.x * GP_RX_HIST_THREADS;
  for (u64 i = (u64)blockIdx.x * GP_RX_HIST_THREADS + threadIdx.x; i < n; i += stride) {
    const K e = gp_key_enc(keys[i], kind, desc);
#pragma unroll
    for (int p = 0; p < NP; p++)
      atomicAdd(&sh[p * GP_RX_RADIX + (unsigned)((e >> (p * GP_RX_BITS)) & (GP_RX_RADIX - 1))], 1u);
  }
  __syncthreads();
  for (unsigned j = threadIdx.x; j < NP * GP_RX_RADIX; j += GP_RX_HIST_THREADS)
    if (sh[j]) atomicAdd(&hist[j], (u64)sh[j]);
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

template <typename K, typename V, bool PV> struct rx_sweep_smem {
  rx_rank_smem<GP_RX_THREADS> r;
  u64 goff[GP_RX_RADIX]; /* global index of the tile's sorted position 0 for each digit */
  unsigned tile;
  K k[rx_tile<K>()];
  V v[PV ? rx_tile<K>() : 1];
};

/* One digit pass over one tile (see the file comment). */
template <typename K, typename V, bool PV>
__global__ void __launch_bounds__(GP_RX_THREADS, GP_RX_MIN_BLOCKS)
rx_onesweep(rx_sweep_args a) {
  constexpr int ITEMS = rx_items<K>();
  constexpr unsigned TILE = rx_tile<K>();
  const int pass = a.pass;
  if (!a.plan->active[pass]) return;
  extern __shared__ __align__(16) unsigned char rx_smem_raw[];
  rx_sweep_smem<K, V, PV> &s = *(rx_sweep_smem<K, V, PV> *)rx_smem_raw;
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

  K ek[ITEMS];
#pragma unroll
  for (int i = 0; i < ITEMS; i++) {
    const unsigned local = (w * ITEMS + i) * 32 + lane;
    ek[i] = local < count ? gp_key_enc(kin[base + local], a.kind, a.desc) : (K)0;
  }
  unsigned pos[ITEMS];
  rx_block_rank<GP_RX_THREADS, ITEMS, K>(ek, count, shift, s.r, pos);

  /* decoupled look-back: thread d finds how many keys of digit d all earlier tiles hold */
  if (tid < GP_RX_RADIX) {
    const unsigned d = tid;
    const u64 c = s.r.cnt[d];
    volatile u64 *st = (volatile u64 *)a.status;
    u64 excl = 0;
    if (tile == 0) {
      st[d] = rx_word(RX_FLAG_PREFIX, pass, c);
    } else {
      st[(u64)tile * GP_RX_RADIX + d] = rx_word(RX_FLAG_AGG, pass, c);
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
    s.goff[d] = a.gbase[pass * GP_RX_RADIX + d] + excl - s.r.dstart[d];
  }
  /* keys to their sorted tile positions, then out in order: each digit's run is written
     by consecutive threads */
#pragma unroll
  for (int i = 0; i < ITEMS; i++)
    if ((w * ITEMS + i) * 32 + lane < count) s.k[pos[i]] = gp_key_dec(ek[i], a.kind, a.desc);
  __syncthreads();
  const bool store_keys = !(a.discard_keys && pass == a.plan->last);
  if (store_keys)
    for (unsigned j = tid; j < count; j += GP_RX_THREADS) {
      const K k = s.k[j];
      const unsigned d = (unsigned)(gp_key_enc(k, a.kind, a.desc) >> shift) & (GP_RX_RADIX - 1);
      kout[s.goff[d] + j] = k;
    }
  if (PV) {
#pragma unroll
    for (int i = 0; i < ITEMS; i++) {
      const unsigned local = (w * ITEMS + i) * 32 + lane;
      if (local < count) s.v[pos[i]] = vin ? vin[base + local] : (V)(base + local);
    }
    __syncthreads();
    for (unsigned j = tid; j < count; j += GP_RX_THREADS) {
      const unsigned d = (unsigned)(gp_key_enc(s.k[j], a.kind, a.desc) >> shift) & (GP_RX_RADIX - 1);
      vout[s.goff[d] + j] = s.v[j];
    }
  }
}

/* After the passes: buffer 1 back to buffer 0 when the plan ended there; with no active
 * pass (all keys equal) the iota of an argsort. */
template <typename K, typename V, bool PV>
__global__ void rx_fixup(rx_sweep_args a) {
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

/* ---- one block per segment ------------------------------------------------------------ */
struct rx_seg_args {
  const void *kin, *vin; /* vin NULL with values: iota (global index) */
  void *kout, *vout;     /* kout NULL: keys not written (argsort) */
  const u64 *offsets;    /* nseg + 1 offsets; NULL: one segment [0, n) */
  u64 nseg, n;
  unsigned min_size, max_size; /* this launch sorts segments of min_size .. max_size keys */
  gp_key_class kind;
  int desc;
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
      ek[i] = ok ? gp_key_enc(kin[local], a.kind, a.desc) : (K)0;
      if (PV) v[i] = !ok ? (V)0 : a.vin ? ((const V *)a.vin)[begin + local] : (V)(begin + local);
    }
    for (int p = 0; p < NP; p++) {
      unsigned pos[ITEMS];
      rx_block_rank<THREADS, ITEMS, K>(ek, count, (unsigned)p * GP_RX_BITS, s.r, pos);
      int mine = 0;
      for (unsigned d = tid; d < GP_RX_RADIX; d += THREADS) mine |= s.r.cnt[d] == count;
      if (__syncthreads_or(mine)) continue; /* one digit for the whole segment */
#pragma unroll
      for (int i = 0; i < ITEMS; i++)
        if ((w * ITEMS + i) * 32 + lane < count) {
          s.k[pos[i]] = ek[i];
          if (PV) s.v[pos[i]] = v[i];
        }
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

/* ---- host side ------------------------------------------------------------------------ */
static size_t rx_align(size_t b) { return (b + 255) & ~(size_t)255; }

/* The device-wide sort's scratch, carved in this order. */
struct rx_scratch_layout {
  size_t k1, v1, hist, gbase, plan, tickets, status, end;
};
static rx_scratch_layout rx_layout(size_t kb, int vb, size_t n) {
  rx_scratch_layout L;
  const size_t tile = kb == 4 ? rx_tile<uint32_t>() : rx_tile<u64>();
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

static int rx_fits_block(size_t kb, size_t n) {
  return n <= (kb == 4 ? rx_tile<uint32_t>() : rx_tile<u64>());
}

extern "C" size_t gp_cuda_radix_scratch(gp_dtype key_type, int value_bytes, size_t n) {
  const size_t kb = gp_dtype_size(key_type);
  if (n <= 1 || rx_fits_block(kb, n)) return 0;
  return rx_layout(kb, value_bytes, n).end;
}

extern "C" size_t gp_cuda_radix_argsort_scratch(gp_dtype key_type, int index_bytes, size_t n) {
  const size_t kb = gp_dtype_size(key_type);
  if (n <= 1 || rx_fits_block(kb, n)) return 0;
  return rx_align(n * kb) + rx_layout(kb, index_bytes, n).end;
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
  static int attr_set; /* once per kernel: a benign race sets it twice */
  if (!attr_set) {
    gp_status s = rx_smem_attr(ctx, rx_segsort<THREADS, ITEMS, K, V, PV>, smem);
    if (s) return s;
    attr_set = 1;
  }
  const unsigned grid = (unsigned)(nblocks < (1u << 30) ? nblocks : (1u << 30));
  rx_segsort<THREADS, ITEMS, K, V, PV><<<grid, THREADS, smem, (cudaStream_t)ctx->stream>>>(a);
  GP_LAUNCH_CHECK(ctx, "rx_segsort");
  return GP_OK;
}

/* Sorts segments of 2 .. one tile with one block each: small ones with a small block. */
template <typename K, typename V, bool PV>
static gp_status rx_seg_launches(gp_context *ctx, rx_seg_args a, u64 n_small, u64 n_tile) {
  constexpr unsigned SMALL = GP_RX_SMALL_THREADS * GP_RX_SMALL_ITEMS;
  a.min_size = 2;
  a.max_size = SMALL;
  gp_status s = rx_launch_seg<GP_RX_SMALL_THREADS, GP_RX_SMALL_ITEMS, K, V, PV>(ctx, a, n_small);
  if (s) return s;
  a.min_size = SMALL + 1;
  a.max_size = rx_tile<K>();
  return rx_launch_seg<GP_RX_THREADS, rx_items<K>(), K, V, PV>(ctx, a, n_tile);
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
  constexpr unsigned TILE = rx_tile<K>();
  const u64 tiles = (n + TILE - 1) / TILE;
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

  const int sms = ctx->info.sm_count > 0 ? ctx->info.sm_count : 1;
  u64 hblocks = (n + GP_RX_HIST_THREADS * 16 - 1) / (GP_RX_HIST_THREADS * 16);
  if (hblocks > (u64)sms * GP_RX_HIST_BLOCKS_PER_SM) hblocks = (u64)sms * GP_RX_HIST_BLOCKS_PER_SM;
  rx_histogram<K><<<(unsigned)hblocks, GP_RX_HIST_THREADS, 0, st>>>(kin, n, kind, desc, hist);
  GP_LAUNCH_CHECK(ctx, "rx_histogram");
  rx_plan_kernel<<<1, GP_RX_RADIX, 0, st>>>(hist, (u64 *)a.gbase, NP, n,
                                            (const void *)kin == (const void *)kbuf0,
                                            (rx_plan *)a.plan);
  GP_LAUNCH_CHECK(ctx, "rx_plan_kernel");

  constexpr size_t smem = sizeof(rx_sweep_smem<K, V, PV>);
  static int attr_set;
  if (!attr_set) {
    gp_status s = rx_smem_attr(ctx, rx_onesweep<K, V, PV>, smem);
    if (s) return s;
    attr_set = 1;
  }
  for (int p = 0; p < NP; p++) {
    a.pass = p;
    rx_onesweep<K, V, PV><<<(unsigned)tiles, GP_RX_THREADS, smem, st>>>(a);
    GP_LAUNCH_CHECK(ctx, "rx_onesweep");
  }
  u64 fblocks = (n + 255) / 256;
  if (fblocks > (u64)sms * 8) fblocks = (u64)sms * 8;
  rx_fixup<K, V, PV><<<(unsigned)fblocks, 256, 0, st>>>(a);
  GP_LAUNCH_CHECK(ctx, "rx_fixup");
  return GP_OK;
}

/* Sort of n keys in place (values along), by one block when they fit a tile. */
template <typename K, typename V, bool PV>
static gp_status rx_sort_t(gp_context *ctx, gp_dtype kt, void *keys, void *values, u64 n,
                           int desc, void *scratch) {
  const gp_key_class kind = gp_key_class_of(kt);
  if (rx_fits_block(sizeof(K), n)) {
    rx_seg_args a = {keys, values, keys, values, NULL, 1, n, 0, 0, kind, desc};
    const bool small = n <= GP_RX_SMALL_THREADS * GP_RX_SMALL_ITEMS;
    return rx_seg_launches<K, V, PV>(ctx, a, small ? 1 : 0, small ? 0 : 1);
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

template <typename K, typename V>
static gp_status rx_argsort_t(gp_context *ctx, gp_dtype kt, const void *keys, void *idx, u64 n,
                              int desc, void *scratch) {
  const gp_key_class kind = gp_key_class_of(kt);
  if (rx_fits_block(sizeof(K), n)) {
    rx_seg_args a = {keys, NULL, NULL, idx, NULL, 1, n, 0, 0, kind, desc};
    const bool small = n <= GP_RX_SMALL_THREADS * GP_RX_SMALL_ITEMS;
    return rx_seg_launches<K, V, true>(ctx, a, small ? 1 : 0, small ? 0 : 1);
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
  if (gp_dtype_size(kt) == 4) {
    if (index_bytes == 4) return rx_argsort_t<uint32_t, uint32_t>(ctx, kt, keys, indices, n, desc, scratch);
    return rx_argsort_t<uint32_t, u64>(ctx, kt, keys, indices, n, desc, scratch);
  }
  if (index_bytes == 4) return rx_argsort_t<u64, uint32_t>(ctx, kt, keys, indices, n, desc, scratch);
  return rx_argsort_t<u64, u64>(ctx, kt, keys, indices, n, desc, scratch);
}

/* ---- segments by offsets -------------------------------------------------------------- */
static unsigned rx_tile_of(size_t kb) { return kb == 4 ? rx_tile<uint32_t>() : rx_tile<u64>(); }

extern "C" size_t gp_cuda_radix_segments_scratch(gp_dtype key_type, int value_bytes,
                                                 const uint64_t *offsets, size_t nseg) {
  const size_t kb = gp_dtype_size(key_type);
  u64 big = 0;
  for (size_t i = 0; i < nseg; i++) {
    const u64 sz = offsets[i + 1] - offsets[i];
    if (sz > rx_tile_of(kb) && sz > big) big = sz;
  }
  return big ? rx_layout(kb, value_bytes, big).end : 0;
}

template <typename K, typename V, bool PV>
static gp_status rx_segments_t(gp_context *ctx, gp_dtype kt, void *keys, void *values,
                               const uint64_t *d_off, const uint64_t *h_off, size_t nseg,
                               int desc, void *scratch) {
  const gp_key_class kind = gp_key_class_of(kt);
  constexpr u64 SMALL = GP_RX_SMALL_THREADS * GP_RX_SMALL_ITEMS;
  u64 n_small = 0, n_tile = 0;
  for (size_t i = 0; i < nseg; i++) {
    const u64 sz = h_off[i + 1] - h_off[i];
    if (sz >= 2 && sz <= SMALL) n_small++;
    else if (sz > SMALL && sz <= rx_tile<K>()) n_tile++;
  }
  /* one block per segment of the class; the grid covers all segments when a class is
     sparse, since blocks find their segment by index */
  rx_seg_args a = {keys, values, keys, values, (const u64 *)d_off, nseg, 0, 0, 0, kind, desc};
  gp_status s = rx_seg_launches<K, V, PV>(ctx, a, n_small ? nseg : 0, n_tile ? nseg : 0);
  if (s) return s;
  for (size_t i = 0; i < nseg; i++) {
    const u64 sz = h_off[i + 1] - h_off[i];
    if (sz <= rx_tile<K>()) continue;
    K *k = (K *)keys + h_off[i];
    V *v = PV ? (V *)values + h_off[i] : NULL;
    if ((s = rx_device_sort<K, V, PV>(ctx, k, k, NULL, v, v, sz, kind, desc, 0, (char *)scratch)))
      return s;
  }
  return GP_OK;
}

extern "C" gp_status gp_cuda_radix_segments(gp_context *ctx, gp_dtype kt, void *keys, int vb,
                                            void *values, const uint64_t *d_offsets,
                                            const uint64_t *h_offsets, size_t nseg, int desc,
                                            void *scratch) {
  if (nseg == 0) return GP_OK;
  if (gp_dtype_size(kt) == 4) {
    if (vb == 0) return rx_segments_t<uint32_t, uint32_t, false>(ctx, kt, keys, NULL, d_offsets, h_offsets, nseg, desc, scratch);
    if (vb == 4) return rx_segments_t<uint32_t, uint32_t, true>(ctx, kt, keys, values, d_offsets, h_offsets, nseg, desc, scratch);
    return rx_segments_t<uint32_t, u64, true>(ctx, kt, keys, values, d_offsets, h_offsets, nseg, desc, scratch);
  }
  if (vb == 0) return rx_segments_t<u64, uint32_t, false>(ctx, kt, keys, NULL, d_offsets, h_offsets, nseg, desc, scratch);
  if (vb == 4) return rx_segments_t<u64, uint32_t, true>(ctx, kt, keys, values, d_offsets, h_offsets, nseg, desc, scratch);
  return rx_segments_t<u64, u64, true>(ctx, kt, keys, values, d_offsets, h_offsets, nseg, desc, scratch);
}
