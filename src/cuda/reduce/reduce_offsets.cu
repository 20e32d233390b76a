/* gp_reduce_segments_offsets on CUDA: one result per segment, each with the bits
 * gp_reduce (AUTO) gives for that segment alone (reduce_segments.cuh's policies), for
 * any mix of lengths in one call, with nothing read back to the host.
 *
 * The elements [offsets[0], offsets[nseg]) are cut into spans of C elements (8 KB, C
 * doubling until there are at most GP_OFF_MAX_SPANS). A segment of at least C elements
 * (GP_OFF_LONG_SPANS spans) is long; the others are short.
 * - gp_off_seg_kernel: a warp takes a window of up to 32 segments (fewer when there are
 *   few segments, so that every warp has work) and sorts the short ones into three
 *   classes by length: one lane a segment (up to 16 16-byte vectors), eight lanes (up
 *   to 16 a lane), or the whole warp, so that a warp holding lengths 1 and 2000 side by
 *   side spends one round on all the small ones and one on the 2000; in a window of four
 *   segments or fewer each gets eight lanes or more, in a window of one the warp. For
 *   each long segment it writes the segment's number into the span map:
 *   slot 0 of every span it covers from the span's first element, slot 1 of the span
 *   where it starts when it starts inside one (two long segments cannot start in one
 *   span, and only one covers a span's first element), and zeroes its tickets.
 * - gp_off_span_kernel: a warp a span. It checks each map entry against the offsets (an
 *   entry left from an earlier call, or workspace garbage, is ignored unless it names
 *   the segment that does own that slot now), reduces the segment's part of the span as
 *   a warp, writes the state (and the superaccumulator limbs when they were used) to the
 *   slot's record, resets the entry, and takes the ticket of its group of 32 spans; the
 *   warp that completes a group merges the group's records into a group record and
 *   takes the segment's ticket, and the warp that completes the segment merges the
 *   group records and writes its result.
 * So a segment of 2^20 elements is read by 128+ warps at once, not by one group, and
 * the results do not depend on which warp finished first (every merge is exact). */
#include "cuda/common/pdl.cuh"
#include "cuda/common/ticket.cuh"
#include "cuda/reduce/reduce_segments.cuh"
#include "cuda/reduce/reduce_cuda.h"

#ifndef GP_OFF_SPAN_BYTES
#define GP_OFF_SPAN_BYTES 8192u /* the smallest span */
#endif
/* At most this many spans (about a span a resident warp of the span kernel on an H200)
 * and long segments from one span up. H200, 2026-12-04 (s23-e, docs/perf/reduce.md), f32
 * SUM of 8192..32768-element segments against 8192 spans and two: 2^24 / 2^25 / 2^26 /
 * 2^27 elements 0.625 / 0.720 / 0.687 / 0.678x CUB -> 0.751 / 0.795 / 0.731 / 0.656x;
 * power-law and single segments 2-18% faster, uniform 1..2048 even. */
#ifndef GP_OFF_MAX_SPANS
#define GP_OFF_MAX_SPANS ((uint64_t)4096)
#endif
#define GP_OFF_GROUP 32u /* spans whose records one warp merges */
#define GP_OFF_NONE (~0ull) /* an empty map entry */
/* Batches ahead of the vector loops that are asked into L2 (gp_seg_prefetch). H200,
 * 2026-12-04 (s23-a, docs/perf/reduce.md), f32 SUM at 2^24 against none: uniform 1..2048
 * 8% faster, power-law 4%, 8192..32768 even; 4 and 8 slower (up to 11% on 8192..32768).
 * Rows keep none: there every distance was 10-40% slower. */
#ifndef GP_OFF_PREFETCH
#define GP_OFF_PREFETCH 2u
#endif
/* 1: on sm_90+ the span kernel is launched as a programmatic dependent of the segment
 * kernel (which lets it launch at once): its blocks start as the segment kernel's leave,
 * and wait (griddepcontrol.wait) for all of it, memory included, before reading what it
 * wrote. 0: an ordinary launch after it. H200, 2026-12-04 (s23-g, docs/perf/reduce.md):
 * 1.0-1.9 us faster on every kind of offsets measured (f32 uniform 1..2048 at 2^20 14.0
 * -> 12.4 us, at 2^24 39.3 -> 37.5 us). */
#ifndef GP_OFF_PDL
#define GP_OFF_PDL 1
#endif

/* How the call's elements are cut into spans. */
struct gp_off_geo {
  uint64_t first, last; /* offsets[0], offsets[nseg] */
  uint64_t c;           /* elements a span (2^sh); spans start at multiples of c */
  unsigned sh;          /* shifts, not 64-bit divisions, in the span kernel's per-span work */
  uint64_t k0, spans;   /* the first span's number, and how many */
};

template <typename T>
__host__ __device__ __forceinline__ gp_off_geo gp_off_geo_of(uint64_t first, uint64_t last) {
  static_assert((GP_OFF_SPAN_BYTES / sizeof(T) & (GP_OFF_SPAN_BYTES / sizeof(T) - 1)) == 0,
                "spans of a power of two elements");
  gp_off_geo g = {first, last, GP_OFF_SPAN_BYTES / sizeof(T), 0, 0, 0};
  while (g.c >> g.sh > 1) g.sh++;
  if (last <= first) return g;
  while (((last - 1) >> g.sh) - (first >> g.sh) + 1 > GP_OFF_MAX_SPANS) {
    g.c *= 2;
    g.sh++;
  }
  g.k0 = first >> g.sh;
  g.spans = ((last - 1) >> g.sh) - g.k0 + 1;
  return g;
}

/* Segment [b, e) is long: at least GP_OFF_LONG_SPANS spans (1 or 2), inside [first,
 * last). One span is enough for the map's two slots a span: a long segment that starts
 * inside span k runs past k's end, so no other segment starts in k after it. */
#ifndef GP_OFF_LONG_SPANS
#define GP_OFF_LONG_SPANS 1
#endif
__host__ __device__ __forceinline__ bool gp_off_long(const gp_off_geo &g, uint64_t b, uint64_t e) {
  return e > b && e - b >= GP_OFF_LONG_SPANS * g.c && b >= g.first && e <= g.last;
}

/* The position of the n-th (from 0) set bit of m; m has more than n set bits. */
__device__ __forceinline__ unsigned gp_off_nth_bit(unsigned m, unsigned n) {
  unsigned pos = 0;
#pragma unroll
  for (unsigned w = 16; w > 0; w /= 2) {
    const unsigned lo = __popc(m & ((1u << w) - 1u));
    if (n >= lo) {
      n -= lo;
      m >>= w;
      pos += w;
    }
  }
  return pos;
}

/* [b, e) by the whole warp: lane 0 gets the state, what left it is in acc (the warp's).
 * Inline: on uniform 1..2048 lengths the call ran at 0.82x CUB's speed at 2^24 and 0.96x
 * at 2^27, against 0.78x and 0.90x with this pass out of line (s21-d). */
template <typename T, typename P>
__device__ __forceinline__ typename P::S gp_off_warp_part(const T *__restrict__ in, uint64_t b,
                                                       uint64_t e, gp_u64 *acc) {
  const typename P::S st = gp_seg_warp_sum<T, P, GP_OFF_PREFETCH>(in, b, e, acc);
  __syncwarp();
  return st;
}

/* The window's segments of one class (bit i of mask: segment sid of lane i, whose
 * [b, e) lane i holds), 32 / G at a time, G lanes each (gp_seg_group_one). Out of line:
 * inline, the offsets kernel's F32 SUM spilled 216 bytes where it spills 128. */
template <typename T, typename P, unsigned G>
__device__ __noinline__ void gp_off_groups(const T *__restrict__ in, uint64_t b, uint64_t e,
                                           size_t sid, unsigned mask, typename P::Out *out) {
  constexpr unsigned PER = GP_WARP_SIZE / G;
  const unsigned grp = (threadIdx.x % GP_WARP_SIZE) / G;
  while (mask) { /* warp-uniform */
    const unsigned cnt = __popc(mask);
    const bool live = grp < cnt;
    const unsigned src = gp_off_nth_bit(mask, live ? grp : 0);
    const uint64_t sb = __shfl_sync(GP_FULL_MASK, b, src), se = __shfl_sync(GP_FULL_MASK, e, src);
    const size_t ss = __shfl_sync(GP_FULL_MASK, sid, src);
    gp_seg_group_one<T, P, G, GP_OFF_PREFETCH>(in, live ? sb : 0, live ? se : 0, live, out + ss);
    mask = cnt <= PER ? 0u : mask & ~((2u << gp_off_nth_bit(mask, PER - 1)) - 1u);
  }
}

/* A long segment [b, e) (number sid) into the map, its tickets zeroed; by the warp. */
__device__ __forceinline__ void gp_off_mark(const gp_off_geo &g, uint64_t b, uint64_t e, size_t sid,
                                            gp_u64 *map, unsigned *t_group, unsigned *t_seg) {
  const unsigned lane = threadIdx.x % GP_WARP_SIZE;
  const uint64_t kb = b >> g.sh;
  const unsigned n = (unsigned)(((e - 1) >> g.sh) - kb) + 1; /* spans, at most GP_OFF_MAX_SPANS */
  gp_u64 *m = map + 2 * (kb - g.k0);
  unsigned *tg = t_group + (kb - g.k0);
  if (lane == 0) {
    m[b > kb << g.sh ? 1 : 0] = sid;
    t_seg[kb - g.k0] = 0;
  }
  for (unsigned j = lane + 1; j < n; j += GP_WARP_SIZE) m[2 * j] = sid;
  for (unsigned j = GP_OFF_GROUP * lane + GP_OFF_GROUP - 1; j < n + GP_OFF_GROUP - 1;
       j += GP_OFF_GROUP * GP_WARP_SIZE)
    tg[j < n ? j : n - 1] = 0; /* each group's ticket sits at its last span */
}

/* Segments are taken in windows of up to 32 (win). Below 32, lane i of warp w holds
 * segment w + i * (warps) in each block of warps * win segments, so that the warps'
 * current segments lie close together in memory (uniform 1..2048 lengths at 2^27: 0.96x
 * CUB against 0.84x with consecutive windows); a full window holds 32 consecutive ones,
 * whose offsets one warp reads in two loads (2^20 segments of 0..31: 16.6x against
 * 15.2x strided; s21-d). Empty segments take the one-lane class (its groups write the
 * empty result). */
template <typename T, typename P, int ACC_LIMBS>
__global__ __launch_bounds__(GP_SEG_THREADS, GP_SEG_MIN_BLOCKS) void gp_off_seg_kernel(
    const T *__restrict__ in, const uint64_t *__restrict__ off, size_t nseg, unsigned win,
    gp_u64 *map, unsigned *t_group, unsigned *t_seg, unsigned *has_long, unsigned epoch,
    typename P::Out *out) {
  __shared__ gp_u64 sacc[GP_SEG_WARPS][ACC_LIMBS];
  __shared__ gp_off_geo sg; /* in shared memory: in registers it crowded the warp's pass */
  gp_pdl_trigger();
  for (unsigned i = threadIdx.x; i < GP_SEG_WARPS * ACC_LIMBS; i += GP_SEG_THREADS) (&sacc[0][0])[i] = 0;
  if (threadIdx.x == 0) sg = gp_off_geo_of<T>(off[0], off[nseg]);
  __syncthreads();
  const gp_off_geo &g = sg;
  const unsigned lane = threadIdx.x % GP_WARP_SIZE, warp = threadIdx.x / GP_WARP_SIZE;
  gp_u64 *acc = sacc[warp];
  constexpr uint64_t W = 16 / sizeof(T);
  /* lanes a short segment needs: 1 up to 16 vectors, 8 up to 128, else the warp; with
     few segments a window (win <= 4), at least 8, and with one, the warp */
  const uint64_t small = win <= 4 ? 0 : 16 * W, mid = win == 1 ? 0 : 128 * W;
  const size_t nw = (size_t)gridDim.x * GP_SEG_WARPS;
  const size_t w0 = (size_t)blockIdx.x * GP_SEG_WARPS + warp;
  const bool strided = win < GP_WARP_SIZE;
  for (size_t base = strided ? w0 : w0 * win; base < nseg; base += nw * win) { /* warp-uniform */
    const size_t s = strided ? base + (size_t)lane * nw : base + lane;
    const bool live = lane < win && s < nseg;
    const uint64_t b = live ? off[s] : 0, e0 = live ? off[s + 1] : 0;
    const uint64_t e = e0 < b ? b : e0; /* decreasing offsets: nothing (see the header) */
    const bool lng = live && gp_off_long(g, b, e);
    const uint64_t len = e - b;
    const unsigned one = __ballot_sync(GP_FULL_MASK, live && !lng && (len < small || len == 0));
    const unsigned eight = __ballot_sync(GP_FULL_MASK, live && !lng && len && len >= small && len < mid);
    const unsigned whole = __ballot_sync(GP_FULL_MASK, live && !lng && len && len >= mid);
    const unsigned longs = __ballot_sync(GP_FULL_MASK, lng);
    if (longs && lane == 0) *has_long = epoch;
    for (unsigned m = longs; m; m &= m - 1) { /* long segments: the span kernel's */
      const unsigned src = __ffs(m) - 1;
      gp_off_mark(g, __shfl_sync(GP_FULL_MASK, b, src), __shfl_sync(GP_FULL_MASK, e, src),
                  __shfl_sync(GP_FULL_MASK, s, src), map, t_group, t_seg);
    }
    if (one) gp_off_groups<T, P, 1>(in, b, e, s, one, out);
    if (eight) gp_off_groups<T, P, 8>(in, b, e, s, eight, out);
    for (unsigned m = whole; m; m &= m - 1) { /* the whole warp, one segment at a time */
      const unsigned src = __ffs(m) - 1;
      const uint64_t sb = __shfl_sync(GP_FULL_MASK, b, src), se = __shfl_sync(GP_FULL_MASK, e, src);
      const size_t ss = __shfl_sync(GP_FULL_MASK, s, src);
      const typename P::S st = gp_off_warp_part<T, P>(in, sb, se, acc);
      if (lane == 0) out[ss] = P::finish(st, acc);
      __syncwarp();
    }
  }
}


/* A record written by another SM in this kernel, read from L2. */
template <typename R> __device__ __forceinline__ R gp_off_ld_rec(const R *p) {
  static_assert(sizeof(R) % 8 == 0, "records are whole 8-byte words");
  union {
    R r;
    gp_u64 w[sizeof(R) / 8];
  } u;
#pragma unroll
  for (unsigned i = 0; i < sizeof(R) / 8; i++) u.w[i] = __ldcg(reinterpret_cast<const gp_u64 *>(p) + i);
  return u.r;
}

/* Lane 0 gets the merge of n records in order, their used limbs added into acc: with
 * groups 0, the span records of spans k .. k + n - 1 (slot 1 in span kb when first_slot);
 * with groups 1, the group records of the segment's n groups (each at its last span).
 * Out of line: the span loop keeps its registers. */
template <typename P, int ACC_LIMBS>
__device__ __noinline__ typename P::S gp_off_gather(const gp_seg_rec<typename P::S> *rec,
                                                    const gp_u64 *limbs, int groups, uint64_t k,
                                                    uint64_t n, uint64_t kb, uint64_t ke,
                                                    uint64_t k0, unsigned first_slot, gp_u64 *acc) {
  const unsigned lane = threadIdx.x % GP_WARP_SIZE;
  typename P::S st = P::init();
  for (uint64_t j = lane; j < n; j += GP_WARP_SIZE) {
    size_t r;
    if (groups) {
      const uint64_t last = k + GP_OFF_GROUP * j + GP_OFF_GROUP - 1;
      r = (last < ke ? last : ke) - k0;
    } else {
      r = 2 * (k + j - k0) + (k + j == kb ? first_slot : 0);
    }
    const gp_seg_rec<typename P::S> x = gp_off_ld_rec(rec + r);
    if (x.dirty) P::load(acc, limbs + r * ACC_LIMBS);
    P::merge(st, x.s, acc);
  }
  st = gp_seg_warp_tree<P>(st, acc);
  __syncwarp();
  return st;
}

template <typename T, typename P, int ACC_LIMBS>
__global__ __launch_bounds__(GP_SEG_THREADS, GP_SEG_MIN_BLOCKS) void gp_off_span_kernel(
    const T *__restrict__ in, const uint64_t *__restrict__ off, size_t nseg, gp_u64 *map,
    unsigned *t_group, unsigned *t_seg, const unsigned *has_long, unsigned epoch,
    gp_seg_rec<typename P::S> *rec, gp_u64 *limbs, gp_seg_rec<typename P::S> *grec,
    gp_u64 *glimbs, typename P::Out *out) {
  __shared__ gp_u64 sacc[GP_SEG_WARPS][ACC_LIMBS];
  for (unsigned i = threadIdx.x; i < GP_SEG_WARPS * ACC_LIMBS; i += GP_SEG_THREADS) (&sacc[0][0])[i] = 0;
  gp_pdl_wait(); /* the segment kernel's map, tickets and has_long */
  if (__ldcg(has_long) != epoch) return; /* no long segment in this call (block-uniform) */
  __syncthreads();
  const gp_off_geo g = gp_off_geo_of<T>(off[0], off[nseg]);
  const unsigned lane = threadIdx.x % GP_WARP_SIZE, warp = threadIdx.x / GP_WARP_SIZE;
  gp_u64 *acc = sacc[warp];
  const size_t nwarps = (size_t)gridDim.x * GP_SEG_WARPS;
  for (size_t t = (size_t)blockIdx.x * GP_SEG_WARPS + warp; t < g.spans; t += nwarps) {
    const uint64_t k = g.k0 + t, cb = k << g.sh, ce = cb + g.c;
    gp_u64 ent = lane < 2 ? __ldcg(map + 2 * t + lane) : GP_OFF_NONE;
    if (lane < 2 && ent != GP_OFF_NONE) map[2 * t + lane] = GP_OFF_NONE; /* for the next call */
    for (unsigned slot = 0; slot < 2; slot++) {
      const gp_u64 s = __shfl_sync(GP_FULL_MASK, ent, slot);
      if (s >= nseg) continue; /* warp-uniform from here on */
      const uint64_t b = off[s], e = off[s + 1];
      if (!gp_off_long(g, b, e) || (slot == 0 ? !(b <= cb && cb < e) : !(cb < b && b < ce))) continue;
      typename P::S st = gp_off_warp_part<T, P>(in, b > cb ? b : cb, e < ce ? e : ce, acc);
      const uint64_t kb = b >> g.sh, ke = (e - 1) >> g.sh;
      const uint64_t gfirst = kb + (k - kb) / GP_OFF_GROUP * GP_OFF_GROUP;
      const uint64_t glast = gfirst + GP_OFF_GROUP - 1 < ke ? gfirst + GP_OFF_GROUP - 1 : ke;
      const uint64_t ngroups = (ke - kb) / GP_OFF_GROUP + 1;
      const unsigned first_slot = b > kb << g.sh ? 1 : 0;
      unsigned done = 0;
      if (lane == 0) {
        const size_t r = 2 * t + slot;
        const gp_u64 dirty = acc[ACC_LIMBS - 1]; /* the flag word: nonzero once anything left */
        if (dirty) P::save(acc, limbs + r * ACC_LIMBS);
        rec[r] = {st, dirty};
        done = gp_ticket_acq_rel(t_group + (glast - g.k0)) == (unsigned)(glast - gfirst);
      }
      __syncwarp(); /* lane 0's writes to acc before the other lanes' loads into it */
      if (!__shfl_sync(GP_FULL_MASK, done, 0)) continue;
      /* this warp completed a group of spans */
      st = gp_off_gather<P, ACC_LIMBS>(rec, limbs, 0, gfirst, glast - gfirst + 1, kb, ke, g.k0,
                                       first_slot, acc);
      if (ngroups > 1) {
        done = 0;
        if (lane == 0) {
          const size_t r = glast - g.k0;
          const gp_u64 dirty = acc[ACC_LIMBS - 1];
          if (dirty) P::save(acc, glimbs + r * ACC_LIMBS);
          grec[r] = {st, dirty};
          done = gp_ticket_acq_rel(t_seg + (kb - g.k0)) == (unsigned)(ngroups - 1);
        }
        __syncwarp();
        if (!__shfl_sync(GP_FULL_MASK, done, 0)) continue;
        /* and the segment's last group */
        st = gp_off_gather<P, ACC_LIMBS>(grec, glimbs, 1, kb, ngroups, kb, ke, g.k0, 0, acc);
      }
      if (lane == 0) out[s] = P::finish(st, acc);
      __syncwarp();
    }
  }
}

/* ---- launch ------------------------------------------------------------------------- */
/* Scratch, in this order: the map (two entries a span); the group tickets, the segment
 * tickets (a word a span each) and the word that says whether this call has long
 * segments; the span records (two a span) and their limbs; the group records (one a
 * span: a group's sits at its last span) and their limbs. */
template <typename P, int ACC_LIMBS> struct gp_off_layout {
  typedef gp_seg_rec<typename P::S> R;
  static constexpr size_t up(size_t x) { return (x + 255) & ~(size_t)255; }
  static constexpr size_t MAP = 2 * GP_OFF_MAX_SPANS * sizeof(gp_u64);
  static constexpr size_t TICKETS = up((2 * GP_OFF_MAX_SPANS + 1) * sizeof(unsigned));
  static constexpr size_t REC = up(2 * GP_OFF_MAX_SPANS * sizeof(R));
  static constexpr size_t LIMBS = up(2 * GP_OFF_MAX_SPANS * ACC_LIMBS * sizeof(gp_u64));
  static constexpr size_t GREC = up(GP_OFF_MAX_SPANS * sizeof(R));
  static constexpr size_t GLIMBS = GP_OFF_MAX_SPANS * ACC_LIMBS * sizeof(gp_u64);
  static constexpr size_t BYTES = MAP + TICKETS + REC + LIMBS + GREC + GLIMBS;
};

template <typename T, typename P, int ACC_LIMBS>
static gp_status gp_off_launch(gp_context *ctx, const void *d_in, const uint64_t *d_off, size_t nseg,
                               int spans, void *scratch, void *d_out) {
  typedef gp_off_layout<P, ACC_LIMBS> Lay;
  typedef typename Lay::R R;
  static int per_sm_seg[GP_RESIDENT_MAX_DEVICES], per_sm_span[GP_RESIDENT_MAX_DEVICES];
  const T *in = static_cast<const T *>(d_in);
  typename P::Out *out = static_cast<typename P::Out *>(d_out);
  cudaStream_t st = (cudaStream_t)ctx->stream;
  char *w = spans ? static_cast<char *>(scratch) : NULL;
  gp_u64 *map = reinterpret_cast<gp_u64 *>(w);
  unsigned *t_group = spans ? reinterpret_cast<unsigned *>(w + Lay::MAP) : NULL;
  unsigned *t_seg = spans ? t_group + GP_OFF_MAX_SPANS : NULL;
  unsigned *has_long = spans ? t_seg + GP_OFF_MAX_SPANS : NULL;
  char *recs = spans ? w + Lay::MAP + Lay::TICKETS : NULL;
  R *rec = reinterpret_cast<R *>(recs);
  gp_u64 *limbs = spans ? reinterpret_cast<gp_u64 *>(recs + Lay::REC) : NULL;
  R *grec = spans ? reinterpret_cast<R *>(recs + Lay::REC + Lay::LIMBS) : NULL;
  gp_u64 *glimbs = spans ? reinterpret_cast<gp_u64 *>(recs + Lay::REC + Lay::LIMBS + Lay::GREC) : NULL;
  /* this call's mark in has_long: another call's (or the workspace's old bytes) differ */
  static unsigned calls;
  const unsigned epoch = __atomic_add_fetch(&calls, 1u, __ATOMIC_RELAXED);
  /* segments a warp sorts into classes at a time: 32, or fewer so that every resident
     warp gets about two windows (few segments: each warp's share of the work stays small) */
  const size_t resident_warps = gp_resident_blocks(ctx, gp_off_seg_kernel<T, P, ACC_LIMBS>,
                                                   GP_SEG_THREADS, per_sm_seg) * GP_SEG_WARPS;
  const size_t per = nseg / (2 * resident_warps);
  const unsigned win = per >= GP_WARP_SIZE ? GP_WARP_SIZE : per < 1 ? 1u : (unsigned)per;
  const size_t windows = (nseg + win - 1) / win;
  const unsigned g = gp_seg_grid(ctx, gp_off_seg_kernel<T, P, ACC_LIMBS>, per_sm_seg,
                                 (windows + GP_SEG_WARPS - 1) / GP_SEG_WARPS);
  gp_off_seg_kernel<T, P, ACC_LIMBS><<<g, GP_SEG_THREADS, 0, st>>>(in, d_off, nseg, win, map, t_group,
                                                                   t_seg, has_long, epoch, out);
  GP_LAUNCH_CHECK(ctx, "gp_off_seg_kernel", g, GP_SEG_THREADS, 0);
  if (!spans) return GP_OK;
  const unsigned gs = gp_seg_grid(ctx, gp_off_span_kernel<T, P, ACC_LIMBS>, per_sm_span,
                                  (size_t)(GP_OFF_MAX_SPANS / GP_SEG_WARPS));
  {
    const unsigned *hl = has_long;
    void *args[] = {&in, &d_off, &nseg, &map, &t_group, &t_seg, &hl, (void *)&epoch,
                    &rec, &limbs, &grec, &glimbs, &out};
    (void)gp_launch_pdl((const void *)gp_off_span_kernel<T, P, ACC_LIMBS>, gs, GP_SEG_THREADS, 0,
                        st, args, GP_OFF_PDL && ctx->info.arch >= 90);
  }
  GP_LAUNCH_CHECK(ctx, "gp_off_span_kernel", gs, GP_SEG_THREADS, 0);
  return GP_OK;
}

/* One entry per (policy, job): the launch, or (scratch_bytes) the scratch it needs. */
template <typename T, typename P, int ACC_LIMBS>
static gp_status gp_off_go(gp_context *ctx, const void *d_in, const uint64_t *d_off, size_t nseg,
                           int spans, void *scratch, void *d_out, size_t *scratch_bytes) {
  if (scratch_bytes) {
    *scratch_bytes = spans ? gp_off_layout<P, ACC_LIMBS>::BYTES : 0;
    return GP_OK;
  }
  return gp_off_launch<T, P, ACC_LIMBS>(ctx, d_in, d_off, nseg, spans, scratch, d_out);
}

#define GP_OFF_ARGS                                                                          \
  gp_context *ctx, const void *d_in, const uint64_t *d_off, size_t nseg, int spans, void *scratch, \
      void *d_out, size_t *scratch_bytes
#define GP_OFF_PASS ctx, d_in, d_off, nseg, spans, scratch, d_out, scratch_bytes

GP_SEG_POLICY_RUN(gp_off_run, gp_off_go, GP_OFF_ARGS, GP_OFF_PASS)

static gp_status gp_off_dispatch(gp_op op, gp_dtype type, GP_OFF_ARGS) {
  GP_REDUCE_DISPATCH(gp_off_run, double, op, type, GP_OFF_PASS)
  return GP_ERR_INVALID_ARGUMENT;
}

extern "C" int gp_cuda_reduce_offsets_long(gp_dtype type, const uint64_t *h_off, size_t nseg) {
  gp_off_geo g;
  switch (gp_dtype_size(type)) {
  case 4: g = gp_off_geo_of<float>(h_off[0], h_off[nseg]); break;
  default: g = gp_off_geo_of<double>(h_off[0], h_off[nseg]); break;
  }
  for (size_t s = 0; s < nseg; s++)
    if (gp_off_long(g, h_off[s], h_off[s + 1])) return 1;
  return 0;
}

extern "C" size_t gp_cuda_reduce_offsets_scratch_bytes(gp_op op, gp_dtype type, int spans) {
  size_t bytes = 0;
  (void)gp_off_dispatch(op, type, NULL, NULL, NULL, 0, spans, NULL, NULL, &bytes);
  return bytes;
}

extern "C" gp_status gp_cuda_reduce_offsets(gp_context *ctx, gp_op op, gp_dtype type,
                                            const void *d_in, const uint64_t *d_off, size_t nseg,
                                            int spans, void *scratch, void *d_out) {
  const gp_status s = gp_off_dispatch(op, type, ctx, d_in, d_off, nseg, spans, scratch, d_out, NULL);
  if (s == GP_ERR_INVALID_ARGUMENT) return gp_fail(ctx, s, "unknown dtype %d", (int)type);
  return s;
}
