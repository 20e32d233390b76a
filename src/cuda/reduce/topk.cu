/* gp_topk on CUDA. Every element becomes core/topk.h's key (the library's total order,
 * complemented for the largest), so the answer is the k smallest (key, index) pairs.
 *
 *  - Radix select (gp_cuda_topk_select, k <= n / GP_CUDA_TOPK_SELECT_DIV): most
 *    significant digit first over the composite (key, index), which is unique per
 *    element, so ties at the k-th key resolve to the lowest indices by the same
 *    machinery and the last round always ends with exactly k pairs. Digits: 13 bits,
 *    then 11 (32-bit keys: 13+11+8; 64-bit: 13+11+11+11+11+7), then the index's
 *    bit_length(n-1) bits in 11-bit digits. Round r is a pass kernel and a one-block
 *    scan kernel:
 *      pass r  reads the candidates (elements whose composite matches the prefix of
 *              rounds 1..r-2), emits those whose digit r-1 is below the bucket chosen
 *              in round r-1 (they are in the answer: "definite"), histograms digit r
 *              of those whose digit r-1 equals it, and copies them (key, index) into a
 *              candidate buffer when they fit (n/8 pairs, then n/64; per-warp chunks,
 *              no block barrier, see gp_tk_chunk).
 *      scan r  finds the bucket where the running count crosses the number still
 *              wanted, and decides where pass r+1 reads (input or a buffer) and writes.
 *    When a bucket holds exactly the number still wanted, it is taken whole: the next
 *    pass only emits and the later launches return at once. All state is on the
 *    device; the host launches every round of the plan without synchronizing.
 *    Prefilter (large n, small k; topk_cuda.h): before round 1, one block takes a
 *    strided sample of 4096 keys and selects the one of a rank that leaves ~4k +
 *    17/4096 of the data at or below it; one read of the input copies those into
 *    buffer 1, and pass 1 reads that buffer when it holds >= k elements and nothing was
 *    dropped (each block decides alike from the counters), else the input as before.
 *    Either way the rounds select the same k composites.
 *    Cost on uniform [0,1) f32 (the worst common case: a 13-bit digit leaves 1/32 of
 *    the data in the top bucket): pass 1 reads n, pass 2 reads n and writes n/32 pairs,
 *    pass 3 reads those; the rest touches a few thousand elements. On normal data the
 *    top buckets are tiny: ~2 reads of the input.
 *    Measured (H200, 2^28 f32, torch profiler, 2026-12-01): pass 1 ~270 us (1 GiB at
 *    ~4 TB/s); the later passes together ~400 us on normal data and ~750 us on uniform
 *    [0,1) (pass 2 is instruction-bound: ~1.5x pass 1 without copies); scans ~15-20 us;
 *    the two sorts of k pairs 3 us (k = 16) to 20 us (k = 1024). gp_topk end to end,
 *    from Python: normal 0.80-0.85 ms (6.0-6.1x torch.topk), uniform 1.14-1.18 ms
 *    (4.3-4.5x). Next costs to remove: pass 2's per-element instructions and the copy.
 *  - Full sort (k above the cut-over; src/api/topk.c): gp_cuda_topk_encode writes all n
 *    keys and indices, gp_sort_pairs sorts them (stable), gp_cuda_topk_gather takes the
 *    first k. */
#include "cuda/common/resident.cuh"
#include "cuda/reduce/topk_cuda.h"
#include "cuda/reduce/reduce_cuda.h"
#include "core/topk.h"

#include <cuda_runtime.h>
#include <stdint.h>

#define GP_TOPK_THREADS 256u

/* ---- radix select: tuning knobs, all here ---------------------------------------- */
/* pass kernel: threads; 16-byte loads per thread per tile of input (4: 16 f32 or 8 f64
   keys; with 2 the later passes ran at half the first's bandwidth on the H200: too few
   bytes in flight); keys per thread per tile of a candidate buffer; blocks per SM that
   __launch_bounds__ holds pass 1 (64 registers) and the later passes (85: at 64 the
   f32 pass spilled 264 bytes; at 85 ptxas -v shows a 16-byte spill there, none
   elsewhere) to. Each pass's grid is its resident blocks (occupancy API), at most
   GP_TK_BLOCKS_PER_SM per SM, which also sizes the chunks' slack. */
#define GP_TK_THREADS 256
#define GP_TK_VECS 4
#define GP_TK_BUF_ITEMS 8
#define GP_TK_BLOCKS_PER_SM 4
#define GP_TK_BLOCKS_PER_SM_LATER 3
/* digit widths: the first (8192 shared-memory bins, 32 KiB) splits uniform [0,1) f32
   into buckets of 1/32 of the data; the later ones take 8 KiB */
#define GP_TK_FIRST_BITS 13
#define GP_TK_BITS 11
/* candidate buffers: n / 8 and n / 64 pairs, each plus the warps' chunk slack. Copying
   c pairs out of the input costs c * (key + 8) bytes written and read again, which pays
   while c is below ~n/6 (f32). A warp takes GP_TK_CHUNK_MAX slots at a time (>= a
   warp's candidates of one tile, 32 * 16); n below 2^24 takes half. The prefilter's
   candidates are sparse (~4k + n / 240): its warps take GP_TK_PRE_CHUNK slots at a time,
   several when a tile has more, so that its sentinels (up to a chunk a warp) stay few
   against them. */
#define GP_TK_CAP0_DIV 8
#define GP_TK_CAP1_DIV 64
#define GP_TK_CHUNK_MAX 1024u
#define GP_TK_PRE_CHUNK 64u
#define GP_TK_STAGE 64u      /* a warp's staged candidates per tile (more: stored directly) */
#define GP_TK_NONE (~0ull)   /* a sentinel's index */
/* the prefilter (topk_cuda.h): the sample's rank is GP_TK_PRE_SLACK + GP_TK_PRE_OVER *
   k * sample / n, rounded up (about OVER times k candidates expected, and never fewer
   than SLACK + 1 of the sample's keys), and it runs while that rank is below sample /
   GP_TK_PRE_MAX_DIV (at most ~n / 16 candidates expected, well inside buffer 1) */
#define GP_TK_PRE_SLACK 16u
#define GP_TK_PRE_OVER 4u
#define GP_TK_PRE_MAX_DIV 16u
/* rounds: up to 6 for a 64-bit key and 6 for an index of up to 64 bits */
#define GP_TK_MAX_ROUNDS 12
#define GP_TK_SCAN_THREADS 1024

#define GP_TK_FULL 0xffffffffu

static_assert(GP_TK_THREADS % 32 == 0, "whole warps");
static_assert((1 << GP_TK_FIRST_BITS) * 4 + 64 <= 48 * 1024, "first pass's histogram fits static shared memory");
static_assert(GP_TK_BITS <= GP_TK_FIRST_BITS, "the later passes' histogram is the smaller");
/* a thread's keys of a tile are bits of a 32-bit mask, a warp's counts of a tile are
   packed in 16-bit halves for its scan, and fit a chunk and the staging */
static_assert(GP_TK_VECS * 4 < 32 && GP_TK_BUF_ITEMS < 32, "item masks");
static_assert(32 * GP_TK_VECS * 4 < 65536 && 32 * GP_TK_VECS * 4 <= GP_TK_CHUNK_MAX / 2 &&
              32 * GP_TK_BUF_ITEMS <= GP_TK_CHUNK_MAX / 2, "a warp's tile fits 16 bits and a chunk");

typedef unsigned long long tk_u64;

/* One digit: bits of the key (on_idx 0) or of the index (1) from `shift` up; bits 0 = none. */
struct gp_tk_digit {
  int on_idx, shift, bits;
};

/* The select's device state, zeroed before pass 1. Round r's prefix kp/ip is the
 * composite's value on the bits of rounds 1..r (0 elsewhere). */
struct gp_tk_state {
  tk_u64 nout;   /* definite pairs written; k at the end (topk_cuda.h: the first 8 bytes) */
  tk_u64 pre_slots; /* pass 1 read the prefilter's buffer of that many slots; 0: the input */
  tk_u64 kwant;  /* still wanted among the elements that match the current prefix */
  int last;      /* the pass that only emits (0: none yet); later launches return */
  int err;       /* a scan found fewer candidates than wanted (cannot happen): its round */
  tk_u64 kp[GP_TK_MAX_ROUNDS + 1], ip[GP_TK_MAX_ROUNDS + 1];
  unsigned bucket[GP_TK_MAX_ROUNDS + 1];     /* round r's bucket (+1 when taken whole) */
  int src[GP_TK_MAX_ROUNDS + 2];             /* where pass r reads: 0 input, 1/2 buffer */
  int dst[GP_TK_MAX_ROUNDS + 2];             /* where pass r copies candidates: 0 none */
  tk_u64 srcn[GP_TK_MAX_ROUNDS + 2];         /* pairs in pass r's source buffer */
  tk_u64 ncomp[GP_TK_MAX_ROUNDS + 2];        /* pass r's copy counter (0: the prefilter's) */
  tk_u64 thr;    /* the prefilter's threshold key (the sample's order statistic) */
  tk_u64 npad;   /* the prefilter's sentinel slots */
};

/* One pass's arguments (by value). */
struct gp_tk_pass {
  const void *in;
  tk_u64 n;
  int vec_ok;          /* in is 16-byte aligned */
  gp_key_class kc;
  int largest;
  void *bkey[2];       /* candidate buffers: keys, indices, capacity in pairs */
  tk_u64 *bidx[2];
  tk_u64 cap[2];       /* slots, the chunks' slack included */
  unsigned chunk;      /* slots a warp takes at a time */
  void *okey;          /* the k definite pairs */
  tk_u64 *oidx;
  tk_u64 k;
  gp_tk_state *st;
  tk_u64 *hist;        /* this round's global histogram (1 << cur.bits bins) */
  int round;
  gp_tk_digit prev, cur;   /* digits r-1 (decided) and r (counted); cur.bits 0: emit only */
  tk_u64 kmask, imask;     /* the bits of rounds 1..r-2 */
  int pre;                 /* a prefilter ran: pass 1 reads where its check says */
};

/* Block-uniform control of one pass, read from the state. */
template <typename K>
struct gp_tk_ctl {
  K kp, km;      /* prefix of rounds 1..r-2 on the key, and its bits */
  tk_u64 ip, im; /* and on the index */
  unsigned b1;   /* round r-1's bucket */
  int s1, s2;    /* shifts of digits r-1 and r */
  unsigned m1, m2; /* their masks */
  int nb;        /* bins counted (0: emit only) */
  int dst;       /* 0, or the buffer (1/2) candidates are copied to */
  K fm, tm, lm;  /* the key encoding's masks (gp_tk_enc) */
  K thr;         /* the prefilter's threshold: a candidate's key is at most it */
};

/* core/key_codec.h's gp_key_enc without branches on the class: u ^ (negative float ?
 * all ones : top bit for floats and signed, 0 for unsigned), complemented for the
 * largest. fm: all ones for floats; tm: the top bit for floats and signed; lm: all ones
 * for the largest. (The tests compare every result with the CPU backend, which uses
 * gp_key_enc.) */
template <typename K>
__device__ __forceinline__ K gp_tk_enc(K u, const gp_tk_ctl<K> &c) {
  const K neg = (K)0 - (u >> (8 * sizeof(K) - 1));
  return u ^ ((neg & c.fm) | c.tm) ^ c.lm;
}

/* A control block with every field zero but the encoding's masks. */
template <typename K>
__device__ __forceinline__ gp_tk_ctl<K> gp_tk_ctl_enc(gp_key_class kc, int largest) {
  gp_tk_ctl<K> c;
  c.kp = c.km = c.thr = 0;
  c.ip = c.im = 0;
  c.b1 = 0;
  c.s1 = c.s2 = 0;
  c.m1 = c.m2 = 0;
  c.nb = c.dst = 0;
  const K top = (K)1 << (8 * sizeof(K) - 1);
  c.fm = kc == GP_KEY_FLOAT ? ~(K)0 : (K)0;
  c.tm = kc == GP_KEY_UNSIGNED ? (K)0 : top;
  c.lm = largest ? ~(K)0 : (K)0;
  return c;
}

/* Which of the key and the index digits r-1 and r are on: the tile code is stamped per
 * mode so that a pass does only its own arithmetic (key digits in the key's width, no
 * index work in the key rounds). The later passes are instruction-bound: one
 * runtime-general path took 778 us for them on 2^28 normal f32 where the stamped one
 * took 603 (H200; with the other changes since, ~400). */
enum { GP_TK_FIRST = 0, GP_TK_KK = 1, GP_TK_KI = 2, GP_TK_II = 3, GP_TK_PRE = 4 };

template <typename K, bool ON_IDX>
__device__ __forceinline__ unsigned gp_tk_dig(K key, tk_u64 idx, int shift, unsigned mask) {
  if (ON_IDX) return (unsigned)(idx >> shift) & mask;
  return (unsigned)(key >> shift) & mask;
}

/* Adds 1 to bin d for each candidate lane. Every lane of the warp calls it; when all 32
 * are candidates of one bin (constant or sorted data) one atomic adds 32, which keeps a
 * skewed input from serializing on one shared-memory address. */
__device__ __forceinline__ void gp_tk_hist_add(unsigned *h, bool cand, unsigned d) {
  const unsigned d0 = __shfl_sync(GP_TK_FULL, d, 0);
  if (__all_sync(GP_TK_FULL, cand && d == d0)) {
    if ((threadIdx.x & 31) == 0) atomicAdd(&h[d0], 32u);
  } else if (cand) {
    atomicAdd(&h[d], 1u);
  }
}

/* Index of item j of a thread's tile: three layouts. */
template <int PV>
struct gp_tk_idx_vec {  /* 16-byte vectors: item j = vector j / PV, lane j % PV */
  tk_u64 base;          /* t0 + threadIdx.x * PV */
  __device__ __forceinline__ tk_u64 operator()(int j) const {
    return base + (tk_u64)(j / PV) * GP_TK_THREADS * PV + (unsigned)(j % PV);
  }
};
struct gp_tk_idx_lin {  /* scalar: item j at t0 + j * THREADS + threadIdx.x */
  tk_u64 base;
  __device__ __forceinline__ tk_u64 operator()(int j) const {
    return base + (tk_u64)j * GP_TK_THREADS;
  }
};
template <int IT>
struct gp_tk_idx_buf {  /* a candidate buffer's loaded indices */
  tk_u64 v[IT];
  __device__ __forceinline__ tk_u64 operator()(int j) const { return v[j]; }
};

/* A warp's chunk of the candidate buffer: candidates are copied warp by warp, with no
 * block barrier in the pass; a warp takes a.chunk slots at a time (one global atomic
 * per chunk, where a block scan, two barriers and an atomic per tile came before) and
 * fills the unused end of its last chunk with sentinels (index GP_TK_NONE) that the
 * next pass skips. Uniform across the warp's lanes. */
struct gp_tk_chunk {
  tk_u64 base;    /* first slot of the chunk */
  unsigned used;  /* slots filled (a.chunk before the first: nothing to pad) */
};

/* One tile's IT keys per thread: classify, histogram, then per warp one scan of the
 * lanes' counts, one atomic for the definite pairs (exact positions of the k-array) and,
 * when the chunk runs out, one for a new chunk. Every lane of the warp calls it. */
template <typename K, int MODE, int IT, typename IdxOf>
__device__ __forceinline__ void gp_tk_tile(const gp_tk_pass &a, const gp_tk_ctl<K> &c,
                                           const K (&key)[IT], const IdxOf &idx_of,
                                           unsigned valid, unsigned *sh_hist,
                                           gp_tk_chunk &ch, K *stk, tk_u64 *sti) {
  constexpr bool FIRST = MODE == GP_TK_FIRST, PRE = MODE == GP_TK_PRE;
  unsigned emit = 0, cand = 0;
#pragma unroll
  for (int j = 0; j < IT; j++) {
    bool m = (valid >> j) & 1u;
    unsigned d1 = 0;
    if (PRE) {  /* the prefilter: every key up to the threshold is a candidate */
      cand |= (unsigned)(m && key[j] <= c.thr) << j;
      continue;
    }
    if (!FIRST) {
      m = m && (key[j] & c.km) == c.kp;
      if (MODE == GP_TK_II) m = m && (idx_of(j) & c.im) == c.ip;
      d1 = gp_tk_dig<K, MODE == GP_TK_II>(key[j], MODE == GP_TK_II ? idx_of(j) : 0ull, c.s1, c.m1);
    }
    const bool e = !FIRST && m && d1 < c.b1;
    const bool cd = m && d1 == c.b1 && c.nb != 0;
    emit |= (unsigned)e << j;
    cand |= (unsigned)cd << j;
    /* after pass 1 most warps hold no candidate of an item: one vote skips the rest */
    if (c.nb && (FIRST || __any_sync(GP_TK_FULL, cd)))
      gp_tk_hist_add(sh_hist, cd, gp_tk_dig<K, MODE >= GP_TK_KI>(key[j], MODE >= GP_TK_KI ? idx_of(j) : 0ull, c.s2, c.m2));
  }
  if (FIRST) return;
  const unsigned ne = __popc(emit), nc = c.dst ? __popc(cand) : 0u;
  if (!__any_sync(GP_TK_FULL, (ne | nc) != 0)) return;
  /* (the prefilter emits nothing: ne is 0 there and its loop below never runs) */
  /* inclusive warp scan of (ne << 16 | nc): a warp's totals stay below 2^16 */
  const unsigned packed = (ne << 16) | nc, lane = threadIdx.x & 31;
  unsigned x = packed;
#pragma unroll
  for (int o = 1; o < 32; o <<= 1) {
    const unsigned y = __shfl_up_sync(GP_TK_FULL, x, o);
    if (lane >= (unsigned)o) x += y;
  }
  const unsigned total = __shfl_sync(GP_TK_FULL, x, 31), excl = x - packed;
  const unsigned te = total >> 16, tc = total & 0xffffu;
  tk_u64 ebase = 0, nbase = 0;
  const unsigned room = a.chunk - ch.used;
  /* new chunks, contiguous: one in the rounds (a tile's candidates fit a chunk there),
     possibly more in the prefilter, whose chunks are small */
  const unsigned nch = tc > room ? (tc - room + a.chunk - 1) / a.chunk : 0u;
  if (lane == 0) {
    if (te) ebase = atomicAdd(&a.st->nout, (tk_u64)te);
    if (nch) nbase = atomicAdd(&a.st->ncomp[a.round], (tk_u64)nch * a.chunk);
  }
  ebase = __shfl_sync(GP_TK_FULL, ebase, 0);
  nbase = __shfl_sync(GP_TK_FULL, nbase, 0);
  tk_u64 pe = ebase + (excl >> 16);
  unsigned pc = excl & 0xffffu; /* the lane's first candidate, counted in this tile */
  K *okey = (K *)a.okey;
  K *bkey = c.dst ? (K *)a.bkey[c.dst - 1] : (K *)0;
  tk_u64 *bidx = c.dst ? a.bidx[c.dst - 1] : (tk_u64 *)0;
  const tk_u64 cap = c.dst ? a.cap[c.dst - 1] : 0ull;
  const tk_u64 old = ch.base + ch.used;
  if (te) {  /* warp-uniform: the loops run only where something is written */
#pragma unroll
    for (int j = 0; j < IT; j++)
      if ((emit >> j) & 1u) {
        if (pe < a.k) {  /* always: the scans never emit more than k (guards a bug) */
          okey[pe] = key[j];
          a.oidx[pe] = idx_of(j);
        }
        pe++;
      }
  }
  if (tc && tc <= GP_TK_STAGE) {
    /* through the warp's shared staging, so the buffer is written by whole-warp
       coalesced stores rather than one lane's store per candidate (H200, 2^28 uniform
       [0,1) f32, which copies 1/32 of the input: later passes 800 -> 744 us) */
#pragma unroll
    for (int j = 0; j < IT; j++)
      if ((cand >> j) & 1u) {
        stk[pc] = key[j];
        sti[pc] = idx_of(j);
        pc++;
      }
    __syncwarp();
    for (unsigned q = lane; q < tc; q += 32) {
      const tk_u64 d = q < room ? old + q : nbase + (q - room);
      if (d < cap) {
        bkey[d] = stk[q];
        bidx[d] = sti[q];
      }
    }
    __syncwarp();
  } else if (tc) {
#pragma unroll
    for (int j = 0; j < IT; j++)
      if ((cand >> j) & 1u) {
        /* the first `room` of the tile's candidates end the current chunk, the rest
           go to the new chunks, which are contiguous */
        const tk_u64 d = pc < room ? old + pc : nbase + (pc - room);
        if (d < cap) {  /* always: the scan copies only what fits with the chunks' slack */
          bkey[d] = key[j];
          bidx[d] = idx_of(j);
        }
        pc++;
      }
  }
  if (nch) {
    ch.base = nbase + (tk_u64)(nch - 1) * a.chunk;
    ch.used = tc - room - (nch - 1) * a.chunk;
  } else {
    ch.used += tc;
  }
}

/* A pass's tiles over its source (grid-stride), stamped per mode. */
template <typename K, int MODE>
__device__ __forceinline__ void gp_tk_run(const gp_tk_pass &a, const gp_tk_ctl<K> &c, int src,
                                          tk_u64 srcn, unsigned *sh_hist, gp_tk_chunk &ch,
                                          K *stk, tk_u64 *sti) {
  constexpr int PV = 16 / (int)sizeof(K);   /* keys per 16-byte load */
  constexpr int NV = GP_TK_VECS;            /* loads per thread */
  constexpr int IT = NV * PV;               /* keys per thread per input tile */
  constexpr int ITB = GP_TK_BUF_ITEMS;      /* keys per thread per buffer tile */
  if (src == 0) {
    const K *in = (const K *)a.in;
    const tk_u64 tile = (tk_u64)GP_TK_THREADS * IT, stride = (tk_u64)gridDim.x * tile;
    for (tk_u64 t0 = (tk_u64)blockIdx.x * tile; t0 < srcn; t0 += stride) {
      /* the prefilter has failed once a warp's chunk starts past the buffer (the check
         then sends pass 1 to the input): stop reading (warp-uniform, no barrier) */
      if (MODE == GP_TK_PRE && ch.base >= a.cap[0]) break;
      K key[IT];
      if (a.vec_ok && t0 + tile <= srcn) {
        const uint4 *v = (const uint4 *)(in + t0) + threadIdx.x;
        uint4 q[NV];
#pragma unroll
        for (int i = 0; i < NV; i++) q[i] = v[i * GP_TK_THREADS];
#pragma unroll
        for (int i = 0; i < NV; i++) {
          const K *e = (const K *)&q[i];
#pragma unroll
          for (int l = 0; l < PV; l++)
            key[i * PV + l] = gp_tk_enc(e[l], c);
        }
        const gp_tk_idx_vec<PV> ix = {t0 + (tk_u64)threadIdx.x * PV};
        gp_tk_tile<K, MODE, IT>(a, c, key, ix, (1u << IT) - 1u, sh_hist, ch, stk, sti);
      } else {  /* the last tile, or an input that is not 16-byte aligned */
        const gp_tk_idx_lin ix = {t0 + threadIdx.x};
        unsigned valid = 0;
#pragma unroll
        for (int j = 0; j < IT; j++) {
          const tk_u64 i = ix(j);
          key[j] = i < srcn ? gp_tk_enc(in[i], c) : (K)0;
          valid |= (unsigned)(i < srcn) << j;
        }
        gp_tk_tile<K, MODE, IT>(a, c, key, ix, valid, sh_hist, ch, stk, sti);
      }
    }
  } else if (MODE != GP_TK_PRE) {
    const K *bk = (const K *)a.bkey[src - 1];
    const tk_u64 *bi = a.bidx[src - 1];
    const tk_u64 tile = (tk_u64)GP_TK_THREADS * ITB, stride = (tk_u64)gridDim.x * tile;
    for (tk_u64 t0 = (tk_u64)blockIdx.x * tile; t0 < srcn; t0 += stride) {
      K key[ITB];
      gp_tk_idx_buf<ITB> ix;
      unsigned valid = 0;
#pragma unroll
      for (int j = 0; j < ITB; j++) {
        const tk_u64 i = t0 + (tk_u64)j * GP_TK_THREADS + threadIdx.x;
        const bool ok = i < srcn;
        key[j] = ok ? bk[i] : (K)0;
        ix.v[j] = ok ? bi[i] : GP_TK_NONE;
        valid |= (unsigned)(ix.v[j] != GP_TK_NONE) << j; /* sentinels are no element */
      }
      gp_tk_tile<K, MODE, ITB>(a, c, key, ix, valid, sh_hist, ch, stk, sti);
    }
  }
}

/* Pass r of the select (FIRST: r = 1, which reads the input and only counts). A block's
 * shared histogram goes to the round's global one once at the end; each warp pads its
 * last chunk. */
template <typename K, bool FIRST>
__global__ void __launch_bounds__(GP_TK_THREADS, FIRST ? GP_TK_BLOCKS_PER_SM : GP_TK_BLOCKS_PER_SM_LATER)
gp_tk_pass_kernel(const gp_tk_pass a) {
  constexpr int NB = 1 << (FIRST ? GP_TK_FIRST_BITS : GP_TK_BITS);
  constexpr int NS = FIRST ? 1 : GP_TK_STAGE * (GP_TK_THREADS / 32);
  __shared__ unsigned sh_hist[NB];
  __shared__ K sh_stk[NS];      /* each warp's staging of its copied candidates */
  __shared__ tk_u64 sh_sti[NS];
  K *stk = sh_stk + (FIRST ? 0 : (threadIdx.x >> 5) * GP_TK_STAGE);
  tk_u64 *sti = sh_sti + (FIRST ? 0 : (threadIdx.x >> 5) * GP_TK_STAGE);

  gp_tk_ctl<K> c = gp_tk_ctl_enc<K>(a.kc, a.largest);
  c.s1 = a.prev.shift;
  c.m1 = (1u << a.prev.bits) - 1u;
  c.s2 = a.cur.shift;
  c.m2 = (1u << a.cur.bits) - 1u;
  c.nb = 1 << a.cur.bits;
  int src = 0;
  tk_u64 srcn = a.n;
  if (FIRST && a.pre) {
    /* the prefilter's outcome, which every block works out alike: its buffer when it
       holds at least k candidates and nothing was dropped, else the input */
    const gp_tk_state *st = a.st;
    const tk_u64 slots = st->ncomp[0], cnt = slots - st->npad;
    if (slots <= a.cap[0] && cnt >= a.k) {
      src = 1;
      srcn = slots;
    }
    if (blockIdx.x == 0 && threadIdx.x == 0) {  /* for the scans; read after this pass */
      a.st->src[1] = src;
      a.st->srcn[1] = src ? srcn : 0;
      a.st->pre_slots = src ? srcn : 0;
    }
  }
  if (!FIRST) {
    const gp_tk_state *st = a.st;
    const int last = st->last;
    if (last && a.round > last) return;          /* the select has finished */
    const bool emit_only = last == a.round || a.cur.bits == 0;
    c.nb = emit_only ? 0 : 1 << a.cur.bits;
    c.dst = emit_only ? 0 : st->dst[a.round];
    c.kp = (K)st->kp[a.round - 2];
    c.km = (K)a.kmask;
    c.ip = st->ip[a.round - 2];
    c.im = a.imask;
    c.b1 = st->bucket[a.round - 1];
    src = st->src[a.round];
    if (src) srcn = st->srcn[a.round];
  }
  /* a block past the source's tiles has nothing to do */
  const int items = src ? GP_TK_BUF_ITEMS : GP_TK_VECS * 16 / (int)sizeof(K);
  if ((tk_u64)blockIdx.x * GP_TK_THREADS * items >= srcn) return;
  for (int i = threadIdx.x; i < c.nb; i += GP_TK_THREADS) sh_hist[i] = 0;
  __syncthreads();
  gp_tk_chunk ch = {0ull, a.chunk};
  if (FIRST)
    gp_tk_run<K, GP_TK_FIRST>(a, c, src, srcn, sh_hist, ch, stk, sti);
  else if (a.prev.on_idx)
    gp_tk_run<K, GP_TK_II>(a, c, src, srcn, sh_hist, ch, stk, sti);
  else if (a.cur.on_idx)
    gp_tk_run<K, GP_TK_KI>(a, c, src, srcn, sh_hist, ch, stk, sti);
  else
    gp_tk_run<K, GP_TK_KK>(a, c, src, srcn, sh_hist, ch, stk, sti);
  if (!FIRST && ch.used < a.chunk) {  /* sentinels to the end of the warp's chunk */
    tk_u64 *bidx = a.bidx[c.dst - 1];
    const tk_u64 cap = a.cap[c.dst - 1];
    for (unsigned i = ch.used + (threadIdx.x & 31); i < a.chunk; i += 32)
      if (ch.base + i < cap) bidx[ch.base + i] = GP_TK_NONE;
  }
  __syncthreads();
  for (int i = threadIdx.x; i < c.nb; i += GP_TK_THREADS) {
    const unsigned h = sh_hist[i];
    if (h) atomicAdd(&a.hist[i], (tk_u64)h);
  }
}

/* The prefilter's threshold: the keys of GP_CUDA_TOPK_SAMPLE elements, key j from element
 * floor(j * n / GP_CUDA_TOPK_SAMPLE), and the one of rank `rank` (0-based) among them,
 * found by a radix select in shared memory (8-bit digits from the top, a histogram and a
 * one-warp scan a digit), stored as the state's thr. One block of GP_TK_SCAN_THREADS.
 * (A bitonic sort of the sample took 40-55 us on the H200, ncu; this takes a few.) */
template <typename K>
__global__ void __launch_bounds__(GP_TK_SCAN_THREADS)
gp_tk_sample_kernel(const K *in, tk_u64 n, gp_key_class kc, int largest, int rank,
                    gp_tk_state *st) {
  constexpr int M = GP_CUDA_TOPK_SAMPLE, PER = M / GP_TK_SCAN_THREADS;
  static_assert(M % GP_TK_SCAN_THREADS == 0 && GP_TK_SCAN_THREADS >= 256, "sample layout");
  __shared__ unsigned hist[256];
  __shared__ unsigned sh_bucket, sh_rank;
  const gp_tk_ctl<K> c = gp_tk_ctl_enc<K>(kc, largest);
  K key[PER];
#pragma unroll
  for (int q = 0; q < PER; q++)
    key[q] = gp_tk_enc(in[(tk_u64)(threadIdx.x + q * GP_TK_SCAN_THREADS) * n / M], c);
  K prefix = 0, pmask = 0;
  unsigned want = (unsigned)rank;
  for (int shift = 8 * (int)sizeof(K) - 8; shift >= 0; shift -= 8) {
    if (threadIdx.x < 256) hist[threadIdx.x] = 0;
    __syncthreads();
#pragma unroll
    for (int q = 0; q < PER; q++)
      if ((key[q] & pmask) == prefix) atomicAdd(&hist[(unsigned)(key[q] >> shift) & 255u], 1u);
    __syncthreads();
    if (threadIdx.x < 32) {  /* the bucket holding rank `want` of the keys left */
      const unsigned lane = threadIdx.x;
      unsigned mine = 0;
      for (int b = 0; b < 8; b++) mine += hist[lane * 8 + b];
      unsigned x = mine;
      for (int o = 1; o < 32; o <<= 1) {
        const unsigned y = __shfl_up_sync(GP_TK_FULL, x, o);
        if (lane >= (unsigned)o) x += y;
      }
      unsigned before = x - mine;
      if (before <= want && want < x) {
        unsigned b = lane * 8;
        while (before + hist[b] <= want) before += hist[b++];
        sh_bucket = b;
        sh_rank = want - before;
      }
    }
    __syncthreads();
    prefix |= (K)sh_bucket << shift;
    pmask |= (K)255u << shift;
    want = sh_rank;
  }
  if (threadIdx.x == 0) st->thr = (tk_u64)prefix;
}

/* The prefilter: one read of the input copying every (key, index) whose key is at most
 * the sampled threshold into buffer 1 (warp chunks and sentinels as in a pass; the
 * round-0 copy counter), and each warp's sentinel count to npad. Pass 1 then decides. */
template <typename K>
__global__ void __launch_bounds__(GP_TK_THREADS, GP_TK_BLOCKS_PER_SM_LATER)
gp_tk_pre_kernel(const gp_tk_pass a) {
  constexpr int NS = GP_TK_STAGE * (GP_TK_THREADS / 32);
  __shared__ K sh_stk[NS];
  __shared__ tk_u64 sh_sti[NS];
  K *stk = sh_stk + (threadIdx.x >> 5) * GP_TK_STAGE;
  tk_u64 *sti = sh_sti + (threadIdx.x >> 5) * GP_TK_STAGE;
  gp_tk_ctl<K> c = gp_tk_ctl_enc<K>(a.kc, a.largest);
  c.thr = (K)a.st->thr;
  c.dst = 1;
  if ((tk_u64)blockIdx.x * GP_TK_THREADS * (GP_TK_VECS * 16 / sizeof(K)) >= a.n) return;
  gp_tk_chunk ch = {0ull, a.chunk};
  gp_tk_run<K, GP_TK_PRE>(a, c, 0, a.n, (unsigned *)0, ch, stk, sti);
  if (ch.used < a.chunk) {  /* sentinels to the end of the warp's chunk, and their count */
    const unsigned lane = threadIdx.x & 31;
    for (unsigned i = ch.used + lane; i < a.chunk; i += 32)
      if (ch.base + i < a.cap[0]) a.bidx[0][ch.base + i] = GP_TK_NONE;
    if (lane == 0) atomicAdd(&a.st->npad, (tk_u64)(a.chunk - ch.used));
  }
}

/* Scan of round r: the bucket b where the running count of the round's histogram
 * reaches the number still wanted; the prefix, what is still wanted inside b, and
 * where pass r+1 reads and copies. One block; one thread finds b and writes. */
__global__ void __launch_bounds__(GP_TK_SCAN_THREADS)
gp_tk_scan_kernel(gp_tk_state *st, const tk_u64 *hist, int round, gp_tk_digit cur, tk_u64 k,
                  tk_u64 fit0, tk_u64 fit1) {
  __shared__ tk_u64 sh[GP_TK_SCAN_THREADS / 32];
  if (st->last) return;
  const tk_u64 kwant = round == 1 ? k : st->kwant;
  const int nb = 1 << cur.bits;
  const int per = (nb + GP_TK_SCAN_THREADS - 1) / GP_TK_SCAN_THREADS;
  const int lo = (int)threadIdx.x * per;
  tk_u64 mine = 0;
  for (int i = 0; i < per; i++)
    if (lo + i < nb) mine += hist[lo + i];
  const unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  tk_u64 x = mine;
#pragma unroll
  for (int o = 1; o < 32; o <<= 1) {
    const tk_u64 y = __shfl_up_sync(GP_TK_FULL, x, o);
    if (lane >= (unsigned)o) x += y;
  }
  if (lane == 31) sh[warp] = x;
  __syncthreads();
  tk_u64 before = 0, total = 0;
  for (unsigned w = 0; w < GP_TK_SCAN_THREADS / 32; w++) {
    before += w < warp ? sh[w] : 0ull;
    total += sh[w];
  }
  if (threadIdx.x == 0 && total < kwant) { /* fewer candidates than wanted: a bug */
    st->err = round;
    st->last = round;
  }
  const tk_u64 excl = before + x - mine;
  if (!(excl < kwant && kwant <= excl + mine)) return;
  int b = lo;
  tk_u64 cum = excl;
  for (;; b++) {
    const tk_u64 h = hist[b];
    if (cum + h >= kwant) break;
    cum += h;
  }
  const tk_u64 cnt = hist[b], kw = kwant - cum;
  const tk_u64 bit = (tk_u64)b << cur.shift;
  st->kp[round] = st->kp[round - 1] | (cur.on_idx ? 0ull : bit);
  st->ip[round] = st->ip[round - 1] | (cur.on_idx ? bit : 0ull);
  /* pass r copied all its candidates when it had a buffer: its chunks hold them and the
     sentinels */
  int src = st->src[round];
  tk_u64 srcn = st->srcn[round];
  if (st->dst[round]) {
    src = st->dst[round];
    srcn = st->ncomp[round];
  }
  st->src[round + 1] = src;
  st->srcn[round + 1] = srcn;
  if (cnt == kw) { /* bucket b is taken whole: pass r+1 emits it and the select ends */
    st->bucket[round] = (unsigned)b + 1u;
    st->kwant = 0;
    st->dst[round + 1] = 0;
    st->last = round + 1;
  } else {
    st->bucket[round] = (unsigned)b;
    st->kwant = kw;
    const int other = src == 1 ? 2 : 1;
    st->dst[round + 1] = cnt <= (other == 1 ? fit0 : fit1) ? other : 0;
  }
}

/* ---- radix select: the plan and its launches -------------------------------------- */
typedef struct gp_tk_plan {
  int rounds;
  gp_tk_digit d[GP_TK_MAX_ROUNDS + 2];   /* d[r], r = 1..rounds; d[0], d[rounds+1]: none */
  tk_u64 kmask[GP_TK_MAX_ROUNDS + 1];    /* key bits of rounds 1..r */
  tk_u64 imask[GP_TK_MAX_ROUNDS + 1];
  size_t hist_off[GP_TK_MAX_ROUNDS + 1]; /* round r's histogram, in bins */
  size_t hist_bins;
  tk_u64 fit0, fit1;   /* candidates each buffer takes: n / 8, n / 64 */
  tk_u64 cap0, cap1;   /* their slots: that plus every warp's chunk */
  unsigned chunk, grid; /* grid: an upper bound of every pass's */
  tk_u64 gmin;          /* blocks so that none counts more than 2^31 elements */
  size_t off_hist, off_b0k, off_b0i, off_b1k, off_b1i, bytes;
} gp_tk_plan;

static size_t gp_tk_align(size_t x) { return (x + 255) & ~(size_t)255; }

static void gp_tk_make_plan(const gp_context *ctx, size_t es, size_t n, gp_tk_plan *p) {
  const int kb = (int)(8 * es);
  int ib = 0;
  while (ib < 64 && ((tk_u64)(n - 1) >> ib) != 0) ib++;
  if (ib == 0) ib = 1;
  int r = 0;
  p->d[0].on_idx = 0;
  p->d[0].shift = 0;
  p->d[0].bits = 0;
  for (int part = 0; part < 2; part++) {
    int left = part ? ib : kb;
    while (left > 0) {
      const int w = part == 0 && left == kb ? GP_TK_FIRST_BITS : (left < GP_TK_BITS ? left : GP_TK_BITS);
      r++;
      p->d[r].on_idx = part;
      p->d[r].shift = left - w;
      p->d[r].bits = w;
      left -= w;
    }
  }
  p->rounds = r;
  p->d[r + 1] = p->d[0];
  p->kmask[0] = p->imask[0] = 0;
  size_t bins = 0;
  for (int q = 1; q <= r; q++) {
    const tk_u64 m = (((tk_u64)1 << p->d[q].bits) - 1) << p->d[q].shift;
    p->kmask[q] = p->kmask[q - 1] | (p->d[q].on_idx ? 0 : m);
    p->imask[q] = p->imask[q - 1] | (p->d[q].on_idx ? m : 0);
    p->hist_off[q] = bins;
    bins += (size_t)1 << p->d[q].bits;
  }
  p->hist_bins = bins;
  /* one grid for every pass; a block's shared counters are 32-bit: at most 2^31
     elements per block */
  const size_t tile = (size_t)GP_TK_THREADS * GP_TK_VECS * (16 / es);
  size_t g = (n + tile - 1) / tile;
  const size_t gcap = (size_t)(ctx->info.sm_count > 0 ? ctx->info.sm_count : 1) * GP_TK_BLOCKS_PER_SM;
  if (g > gcap) g = gcap;
  const size_t gmin = (size_t)(((tk_u64)n >> 31) + 1);
  if (g < gmin) g = gmin;
  p->grid = (unsigned)g;
  p->gmin = gmin;
  p->chunk = n >= ((size_t)1 << 24) ? GP_TK_CHUNK_MAX : GP_TK_CHUNK_MAX / 2;
  const tk_u64 slack = (tk_u64)g * (GP_TK_THREADS / 32) * p->chunk;
  p->fit0 = n / GP_TK_CAP0_DIV + 1;
  p->fit1 = n / GP_TK_CAP1_DIV + 1;
  p->cap0 = p->fit0 + slack;
  p->cap1 = p->fit1 + slack;
  p->off_hist = gp_tk_align(sizeof(gp_tk_state));
  p->off_b0k = p->off_hist + gp_tk_align(bins * 8);
  p->off_b0i = p->off_b0k + gp_tk_align(p->cap0 * es);
  p->off_b1k = p->off_b0i + gp_tk_align(p->cap0 * 8);
  p->off_b1i = p->off_b1k + gp_tk_align(p->cap1 * es);
  p->bytes = p->off_b1i + gp_tk_align(p->cap1 * 8);
}

/* A pass's grid: the plan's (its upper bound, which sizes the chunks' slack), at most
 * `occ` resident blocks per SM, and never fewer than the 32-bit counters need. */
static unsigned gp_tk_grid_for(const gp_tk_plan &p, unsigned sms, int occ) {
  tk_u64 g = p.grid;
  const tk_u64 res = (tk_u64)sms * (tk_u64)(occ > 0 ? occ : 1);
  if (g > res) g = res;
  if (g < p.gmin) g = p.gmin;
  return (unsigned)g;
}

/* The rank in the sorted sample whose key the prefilter keeps everything up to, or -1
 * where there is no prefilter (topk_cuda.h). */
extern "C" int gp_cuda_topk_pre_rank(size_t n, size_t k) {
  if (n < GP_CUDA_TOPK_PRE_MIN_N || k == 0) return -1;
  const tk_u64 m = GP_CUDA_TOPK_SAMPLE;
  const tk_u64 r = GP_TK_PRE_SLACK + (GP_TK_PRE_OVER * (tk_u64)k * m + n - 1) / n;
  return r < m / GP_TK_PRE_MAX_DIV ? (int)r : -1;
}

extern "C" size_t gp_cuda_topk_select_scratch_bytes(const gp_context *ctx, gp_dtype type, size_t n) {
  gp_tk_plan p;
  gp_tk_make_plan(ctx, gp_dtype_size(type), n < 2 ? 2 : n, &p);
  return p.bytes;
}

template <typename K>
static gp_status gp_tk_select(gp_context *ctx, gp_dtype type, const void *d_in, size_t n,
                              size_t k, int largest, void *scratch, void *d_keys,
                              uint64_t *d_idx) {
  gp_tk_plan p;
  gp_tk_make_plan(ctx, sizeof(K), n, &p);
  cudaStream_t st = (cudaStream_t)ctx->stream;
  char *s = (char *)scratch;
  gp_tk_state *state = (gp_tk_state *)s;
  tk_u64 *hist = (tk_u64 *)(s + p.off_hist);
  GP_CUDA_TRY(ctx, cudaMemsetAsync(s, 0, p.off_hist + p.hist_bins * 8, st));

  gp_tk_pass a;
  a.in = d_in;
  a.n = n;
  a.vec_ok = ((uintptr_t)d_in & 15) == 0;
  a.kc = gp_key_class_of(type);
  a.largest = largest;
  a.bkey[0] = s + p.off_b0k;
  a.bidx[0] = (tk_u64 *)(s + p.off_b0i);
  a.bkey[1] = s + p.off_b1k;
  a.bidx[1] = (tk_u64 *)(s + p.off_b1i);
  a.cap[0] = p.cap0;
  a.cap[1] = p.cap1;
  a.chunk = p.chunk;
  a.okey = d_keys;
  a.oidx = (tk_u64 *)d_idx;
  a.k = k;
  a.st = state;
  const int rank = gp_cuda_topk_pre_rank(n, k);
  a.pre = rank >= 0;

  /* each pass kernel's grid: at most the blocks that are resident at once (a grid-stride
     grid one wave too large ran the later passes at half speed: 3 of its 4 blocks per
     SM fit, so the 4th waited for a whole share of tiles) */
  int occ1 = 0, occ2 = 0;
  GP_CUDA_TRY(ctx, cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ1, gp_tk_pass_kernel<K, true>,
                                                                 GP_TK_THREADS, 0));
  GP_CUDA_TRY(ctx, cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ2, gp_tk_pass_kernel<K, false>,
                                                                 GP_TK_THREADS, 0));
  const unsigned sms = (unsigned)(ctx->info.sm_count > 0 ? ctx->info.sm_count : 1);
  const unsigned grid1 = gp_tk_grid_for(p, sms, occ1), grid2 = gp_tk_grid_for(p, sms, occ2);

  if (a.pre) {  /* the sample's threshold, then the prefilter (pass 1 reads its outcome) */
    int occp = 0;
    GP_CUDA_TRY(ctx, cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occp, gp_tk_pre_kernel<K>,
                                                                   GP_TK_THREADS, 0));
    const unsigned gridp = gp_tk_grid_for(p, sms, occp);
    gp_tk_sample_kernel<K><<<1, GP_TK_SCAN_THREADS, 0, st>>>((const K *)d_in, n, a.kc, largest,
                                                             rank, state);
    GP_LAUNCH_CHECK(ctx, "gp_tk_sample_kernel", 1, GP_TK_SCAN_THREADS, 0);
    gp_tk_pass ap = a;
    ap.round = 0;
    ap.chunk = GP_TK_PRE_CHUNK;
    gp_tk_pre_kernel<K><<<gridp, GP_TK_THREADS, 0, st>>>(ap);
    GP_LAUNCH_CHECK(ctx, "gp_tk_pre_kernel", gridp, GP_TK_THREADS, 0);
  }

  for (int r = 1; r <= p.rounds + 1; r++) {
    a.round = r;
    a.prev = p.d[r - 1];
    a.cur = p.d[r];
    a.kmask = r >= 2 ? p.kmask[r - 2] : 0;
    a.imask = r >= 2 ? p.imask[r - 2] : 0;
    a.hist = r <= p.rounds ? hist + p.hist_off[r] : hist;
    if (r == 1) {
      gp_tk_pass_kernel<K, true><<<grid1, GP_TK_THREADS, 0, st>>>(a);
      GP_LAUNCH_CHECK(ctx, "gp_tk_pass_kernel<first>", grid1, GP_TK_THREADS, 0);
    } else {
      gp_tk_pass_kernel<K, false><<<grid2, GP_TK_THREADS, 0, st>>>(a);
      GP_LAUNCH_CHECK(ctx, "gp_tk_pass_kernel", grid2, GP_TK_THREADS, 0);
    }
    if (r <= p.rounds) {
      gp_tk_scan_kernel<<<1, GP_TK_SCAN_THREADS, 0, st>>>(state, hist + p.hist_off[r], r, p.d[r],
                                                           (tk_u64)k, p.fit0, p.fit1);
      GP_LAUNCH_CHECK(ctx, "gp_tk_scan_kernel", 1, GP_TK_SCAN_THREADS, 0);
    }
  }
  return GP_OK;
}

extern "C" gp_status gp_cuda_topk_select(gp_context *ctx, gp_dtype type, const void *d_in,
                                         size_t n, size_t k, int largest, void *scratch,
                                         void *d_keys, uint64_t *d_idx) {
  if (gp_dtype_size(type) == 4)
    return gp_tk_select<unsigned>(ctx, type, d_in, n, k, largest, scratch, d_keys, d_idx);
  return gp_tk_select<unsigned long long>(ctx, type, d_in, n, k, largest, scratch, d_keys, d_idx);
}

template <typename K>
__global__ void gp_topk_decode_kernel(K *keys, size_t k, gp_key_class c, int largest) {
  for (size_t j = (size_t)blockIdx.x * blockDim.x + threadIdx.x; j < k; j += (size_t)gridDim.x * blockDim.x)
    keys[j] = gp_key_dec(keys[j], c, largest);
}

/* ---- full sort: encode all n, gather the first k ------------------------------------ */
template <typename K>
__global__ void gp_topk_encode_kernel(const K *__restrict__ in, size_t n, gp_key_class c, int largest,
                                      K *keys, unsigned long long *idx) {
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
    keys[i] = (K)gp_topk_key((uint64_t)in[i], sizeof(K) == 8, c, largest);
    idx[i] = i;
  }
}

template <typename K>
__global__ void gp_topk_gather_kernel(const K *__restrict__ in, const unsigned long long *idx, size_t k,
                                      K *values, unsigned long long *indices) {
  for (size_t j = (size_t)blockIdx.x * blockDim.x + threadIdx.x; j < k; j += (size_t)gridDim.x * blockDim.x) {
    const unsigned long long i = idx[j];
    if (values) values[j] = in[i];
    if (indices) indices[j] = i;
  }
}

extern "C" gp_status gp_cuda_topk_decode(gp_context *ctx, gp_dtype type, int largest, void *d_keys,
                                         size_t k) {
  const unsigned g = gp_stride_grid(ctx, k, GP_TOPK_THREADS, 8);
  cudaStream_t st = (cudaStream_t)ctx->stream;
  const gp_key_class c = gp_key_class_of(type);
  if (gp_dtype_size(type) == 4)
    gp_topk_decode_kernel<unsigned><<<g, GP_TOPK_THREADS, 0, st>>>((unsigned *)d_keys, k, c, largest);
  else
    gp_topk_decode_kernel<unsigned long long><<<g, GP_TOPK_THREADS, 0, st>>>(
        (unsigned long long *)d_keys, k, c, largest);
  GP_LAUNCH_CHECK(ctx, "gp_topk_decode_kernel", g, GP_TOPK_THREADS, 0);
  return GP_OK;
}

extern "C" gp_status gp_cuda_topk_encode(gp_context *ctx, gp_dtype type, const void *d_in, size_t n,
                                         int largest, void *d_keys, uint64_t *d_idx) {
  const unsigned g = gp_stride_grid(ctx, n, GP_TOPK_THREADS, 8);
  cudaStream_t st = (cudaStream_t)ctx->stream;
  const gp_key_class c = gp_key_class_of(type);
  if (gp_dtype_size(type) == 4)
    gp_topk_encode_kernel<unsigned><<<g, GP_TOPK_THREADS, 0, st>>>(
        (const unsigned *)d_in, n, c, largest, (unsigned *)d_keys, (unsigned long long *)d_idx);
  else
    gp_topk_encode_kernel<unsigned long long><<<g, GP_TOPK_THREADS, 0, st>>>(
        (const unsigned long long *)d_in, n, c, largest, (unsigned long long *)d_keys,
        (unsigned long long *)d_idx);
  GP_LAUNCH_CHECK(ctx, "gp_topk_encode_kernel", g, GP_TOPK_THREADS, 0);
  return GP_OK;
}

extern "C" gp_status gp_cuda_topk_gather(gp_context *ctx, gp_dtype type, const void *d_in,
                                         const uint64_t *d_sorted_idx, size_t k, void *d_values,
                                         uint64_t *d_indices) {
  const unsigned g = gp_stride_grid(ctx, k, GP_TOPK_THREADS, 8);
  cudaStream_t st = (cudaStream_t)ctx->stream;
  if (gp_dtype_size(type) == 4)
    gp_topk_gather_kernel<unsigned><<<g, GP_TOPK_THREADS, 0, st>>>(
        (const unsigned *)d_in, (const unsigned long long *)d_sorted_idx, k, (unsigned *)d_values,
        (unsigned long long *)d_indices);
  else
    gp_topk_gather_kernel<unsigned long long><<<g, GP_TOPK_THREADS, 0, st>>>(
        (const unsigned long long *)d_in, (const unsigned long long *)d_sorted_idx, k,
        (unsigned long long *)d_values, (unsigned long long *)d_indices);
  GP_LAUNCH_CHECK(ctx, "gp_topk_gather_kernel", g, GP_TOPK_THREADS, 0);
  return GP_OK;
}
