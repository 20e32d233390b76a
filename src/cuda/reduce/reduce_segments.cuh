/* What gp_reduce_rows (reduce_segments.cu) and gp_reduce_segments_offsets
 * (reduce_offsets.cu) share on CUDA: the policies (a plain operator's accumulator, or
 * float SUM's exact expansions with a superaccumulator for what they cannot hold), the
 * warp tree that merges lanes' states, the loop that hands a lane its elements of a
 * segment, a chunk's record, and one lane group's whole segment. */
#ifndef GP_CUDA_REDUCE_SEGMENTS_CUH
#define GP_CUDA_REDUCE_SEGMENTS_CUH

#include "cuda/common/reduce_ops.cuh"
#include "cuda/common/resident.cuh"
#include "cuda/reduce/xs_window.cuh"
#include "core/exact_sum.h"

#include <stdint.h>

#define GP_SEG_THREADS 256u
#define GP_SEG_WARPS (GP_SEG_THREADS / GP_WARP_SIZE)
/* __launch_bounds__: at least 4 blocks of 256 per SM (64 registers). The rare paths'
 * thread-local superaccumulators (slow_alone, finish's limbs) would otherwise take the
 * F64 kernels to 100-225 registers, one or two blocks per SM; capped, they spill there. */
#define GP_SEG_MIN_BLOCKS 4
#define GP_XS_DIRTY 16u /* a flag bit: something went to the superaccumulator */

/* ---- policies: state, step, merge, shuffle, finish ---------------------------------- */
/* The plain operator (every op but float SUM): the accumulator of gp_reduce. */
template <typename T, typename A, typename Op> struct gp_seg_plain {
  typedef A S;
  static constexpr bool TAILS = false; /* gp_seg_warp_tree: one tree of merges */
  static constexpr bool TRY = false;   /* gp_seg_lane: each element stepped */
  typedef typename gp_rout<T, A>::type Out;
  static __device__ __forceinline__ S init() { return gp_rident<Op, A>::v(); }
  /* an empty segment: 0 for SUM, the identity (+inf / -inf / type max / min) for MIN/MAX */
  static __device__ __forceinline__ Out empty() { return gp_rfinal<Out>(init()); }
  static __device__ __forceinline__ void step(S &s, T x, gp_u64 *) { s = Op()(s, static_cast<A>(x)); }
  static __device__ __forceinline__ void merge(S &s, S o, gp_u64 *) { s = Op()(s, o); }
  static __device__ __forceinline__ S shfl(S s, int o, int w = GP_WARP_SIZE) {
    return __shfl_down_sync(GP_FULL_MASK, s, o, w);
  }
  static __device__ __forceinline__ Out finish(S s, gp_u64 *) { return gp_rfinal<Out>(s); }
  /* group mode (gp_seg_group_kernel): steps and merges that never need help, no slow path */
  static __device__ __forceinline__ bool step_try(S &s, T x) { s = Op()(s, static_cast<A>(x)); return true; }
  static __device__ __forceinline__ bool merge_try(S &s, S o) { s = Op()(s, o); return true; }
  static __device__ __forceinline__ Out finish_alone(S s) { return gp_rfinal<Out>(s); }
  static __device__ Out slow_alone(const T *, size_t, size_t) { return Out(); }
  /* a chunk's accumulator to and from its record: never used (nothing leaves the state) */
  static __device__ __forceinline__ void save(gp_u64 *, gp_u64 *) {}
  static __device__ __forceinline__ void load(gp_u64 *, const gp_u64 *) {}
};

/* Float SUM, exact: (h, l) expansions; the rare path adds into acc (L + 1 limbs). */
struct gp_seg_xs {
  double h, l;
};
template <typename T> struct gp_seg_exact {
  typedef gp_seg_xs S;
  /* F32: lanes keep tails (gp_xs_carry_head / tail); gp_seg_warp_tree folds heads, then
     tails only when some lane holds one */
  static constexpr bool TAILS = sizeof(T) == 4;
  static constexpr bool TRY = true; /* gp_seg_lane: a batch tried, its misses stepped */
  typedef T Out;
  static constexpr int L = sizeof(T) == 4 ? GP_XS_F32_LIMBS : GP_XS_F64_LIMBS;
  static constexpr int LSB = sizeof(T) == 4 ? GP_XS_F32_LSB : GP_XS_F64_LSB;
  static __device__ __forceinline__ S init() { return {-0.0, -0.0}; }
  static __device__ __forceinline__ Out empty() { return (Out)0; } /* +0, as gp_reduce of n = 0 */
  static __device__ __noinline__ void flush(gp_u64 *acc, double x) {
    unsigned fl = GP_XS_DIRTY;
    if (!(x - x == 0.0)) {
      fl |= gp_xs_flag(x);
    } else {
      int64_t d[3];
      const int k = gp_xs_split(x, LSB, d);
      if (k >= 0) {
        fl |= GP_XS_NOT_NEG0;
        atomicAdd(acc + k, (gp_u64)d[0]);
        if (d[1]) atomicAdd(acc + k + 1, (gp_u64)d[1]);
        if (d[2] && k + 2 < L) atomicAdd(acc + k + 2, (gp_u64)d[2]);
      }
    }
    atomicOr(acc + L, (gp_u64)fl);
  }
  /* F32: the rare half of gp_xs_carry_add out of line (as in reduce_exact.cu): the
     error into l, the rest into acc; a non-finite head flagged and reset to -0 */
  static __device__ __noinline__ S carry_rare(S s, double b, double z, gp_u64 *acc) {
    if (!(s.h - s.h == 0.0)) {
      atomicOr(acc + L, (gp_u64)(GP_XS_DIRTY | gp_xs_flag(s.h)));
      return {-0.0, s.l};
    }
    const double f = gp_xs_carry_tail(&s.l, b - z);
    if (f != 0.0) flush(acc, f);
    return s;
  }
  static __device__ __forceinline__ void add(S &s, double x, gp_u64 *acc) {
    if (sizeof(T) == 4) { /* h takes every input, errors go to l (gp_xs_carry_add) */
      double b, z;
      if (gp_xs_carry_head(&s.h, x, &b, &z)) s = carry_rare(s, b, z, acc);
    } else {
      if (!gp_xs_fast_add2(&s.h, &s.l, x)) flush(acc, x);
    }
  }
  static __device__ __forceinline__ void step(S &s, T x, gp_u64 *acc) { add(s, (double)x, acc); }
  static __device__ __forceinline__ void merge(S &s, S o, gp_u64 *acc) {
    add(s, o.h, acc);
    if (sizeof(T) == 8 || o.l != 0.0) add(s, o.l, acc); /* F32: a zero tail adds nothing */
  }
  static __device__ __forceinline__ S shfl(S s, int o, int w = GP_WARP_SIZE) {
    return {__shfl_down_sync(GP_FULL_MASK, s.h, o, w), __shfl_down_sync(GP_FULL_MASK, s.l, o, w)};
  }
  /* group mode: the expansion alone, or false when an input or a lane's state did not fit */
  static __device__ __forceinline__ bool step_try(S &s, T x) {
    if (sizeof(T) == 4) return gp_xs_fast_add1(&s.h, (double)x);
    return gp_xs_fast_add2(&s.h, &s.l, (double)x);
  }
  static __device__ __forceinline__ bool merge_try(S &s, S o) {
    if (sizeof(T) == 4) return gp_xs_fast_add1(&s.h, o.h);
    return gp_xs_fast_add2(&s.h, &s.l, o.h) && gp_xs_fast_add2(&s.h, &s.l, o.l);
  }
  static __device__ __forceinline__ Out finish_alone(S s) {
    if (sizeof(T) == 4) return gp_rt_canon_f32((float)s.h);
    return gp_rt_canon_f64(gp_rt_f64_bits(s.h) == 0x8000000000000000ull ? s.h : s.h + s.l);
  }
  /* every input of [b, e) straight into a thread-local superaccumulator, then rounded */
  static __device__ __noinline__ Out slow_alone(const T *in, size_t b, size_t e) {
    int64_t a[L + 1];
    for (int i = 0; i <= L; i++) a[i] = 0;
    for (size_t i = b; i < e; i++) {
      const double x = (double)in[i];
      if (gp_rt_f64_bits(x) == 0) a[L] |= GP_XS_NOT_NEG0; /* +0: the sum is not -0 */
      gp_xs_add_plain(a, L, LSB, x);
    }
    gp_xs_normalize(a, L);
    const double r = gp_xs_round(a, L, LSB, sizeof(T) == 4 ? 24 : 53);
    return sizeof(T) == 4 ? (Out)gp_rt_canon_f32((float)r) : (Out)gp_rt_canon_f64(r);
  }
  /* one thread: a chunk's used accumulator, normalized (digits below 2^32, so a few
   * thousand of them add without overflow), to dst; leaves acc zero */
  static __device__ void save(gp_u64 *acc, gp_u64 *dst) {
    gp_xs_normalize(reinterpret_cast<int64_t *>(acc), L);
    for (int i = 0; i <= L; i++) {
      dst[i] = acc[i];
      acc[i] = 0;
    }
  }
  /* any thread: a saved accumulator into the group's */
  static __device__ void load(gp_u64 *acc, const gp_u64 *src) {
    for (int i = 0; i < L; i++) atomicAdd(acc + i, __ldcg(src + i));
    atomicOr(acc + L, __ldcg(src + L));
  }
  /* one thread, after the group's flushes are visible; leaves acc zero */
  static __device__ Out finish(S s, gp_u64 *acc) {
    if (acc[L] == 0) { /* h + l is the exact sum: one rounding; a -0 head: all inputs -0 */
      if (sizeof(T) == 4) return gp_rt_canon_f32(gp_xs_narrow_f32(s.h, s.l));
      return gp_rt_canon_f64(gp_rt_f64_bits(s.h) == 0x8000000000000000ull ? s.h : s.h + s.l);
    }
    int64_t *a = reinterpret_cast<int64_t *>(acc);
    const unsigned hf = gp_xs_head_flag(s.h);
    gp_xs_add_plain(a, L, LSB, s.h);
    gp_xs_add_plain(a, L, LSB, s.l);
    a[L] |= (int64_t)hf;
    gp_xs_normalize(a, L);
    const double r = gp_xs_round(a, L, LSB, sizeof(T) == 4 ? 24 : 53);
    for (int i = 0; i <= L; i++) acc[i] = 0;
    return sizeof(T) == 4 ? (Out)gp_rt_canon_f32((float)r) : (Out)gp_rt_canon_f64(r);
  }
};

/* A warp's states merged into lane 0's. With tails (F32 SUM), as the main kernel's
 * gp_xs_tree_f32: the heads by one tree (their errors into each lane's tail), the tails
 * by a second only when some lane holds one (merging them at every level cost rows of
 * 1024 7% on data without any; flushing them sent lognormal rows through the limbs). */
template <typename P> __device__ __forceinline__ typename P::S gp_seg_warp_tree(typename P::S s, gp_u64 *acc) {
  const unsigned lane = threadIdx.x % GP_WARP_SIZE;
  if constexpr (P::TAILS) {
#pragma unroll
    for (int o = GP_WARP_SIZE / 2; o > 0; o /= 2) {
      const double oh = __shfl_down_sync(GP_FULL_MASK, s.h, o);
      if (lane < (unsigned)o) P::add(s, oh, acc);
    }
    if (__any_sync(GP_FULL_MASK, s.l != 0.0)) {
      typename P::S t = {s.l, -0.0};
#pragma unroll
      for (int o = GP_WARP_SIZE / 2; o > 0; o /= 2) {
        const typename P::S u = P::shfl(t, o);
        if (lane < (unsigned)o) P::merge(t, u, acc);
      }
      if (lane == 0) { /* its own tail is in t */
        s.l = -0.0;
        P::merge(s, t, acc);
      }
    }
  } else {
#pragma unroll
    for (int o = GP_WARP_SIZE / 2; o > 0; o /= 2) {
      typename P::S t = P::shfl(s, o);
      if (lane < (unsigned)o) P::merge(s, t, acc);
    }
  }
  return s;
}

/* Threads t < nt / 2 of a vector loop whose batch starts at vector v0 (4 nt vectors of
 * 16 bytes: nt / 2 lines of 128) ask L2 for line t of that batch, when it starts before
 * vector nv. A prefetch holds no register and no scoreboard slot. */
__device__ __forceinline__ void gp_seg_prefetch(const uint4 *p, size_t v0, size_t nv, unsigned t,
                                                unsigned nt) {
  const size_t v = v0 + 8 * (size_t)t;
  if (2 * t < nt && v < nv) asm volatile("prefetch.global.L2 [%0];" ::"l"(p + v));
}

/* A batch of inputs: four 16-byte vectors' worth. */
template <typename T> struct gp_seg_batch {
  static constexpr unsigned N = 4 * (16 / sizeof(T));
  T t[N];
};

/* Thread t of nt hands each of its elements of [b, e) to f1, except (with FB) four
 * 16-byte vectors at a time to fb (a gp_seg_batch): single elements up to a 16-byte
 * boundary, then the vectors, four in flight, then the tail; with PF > 0 the batch PF
 * ahead of each is asked into L2 (gp_seg_prefetch; the first PF - 1 before the loop).
 * Without FB the vectors keep their own unions: one union of the whole batch made the
 * I32 offsets kernel spill 16 bytes (ptxas, sm_90) where this form spills none. */
template <bool FB, unsigned PF, typename T, typename F1, typename FBatch>
__device__ __forceinline__ void gp_seg_range_b(const T *__restrict__ in, size_t b, size_t e,
                                               unsigned t, unsigned nt, F1 f1, FBatch fb) {
  constexpr size_t W = 16 / sizeof(T);
  const size_t mis = ((uintptr_t)(in + b) / sizeof(T)) % W;
  size_t a = b + (mis ? W - mis : 0);
  if (a > e) a = e;
  for (size_t i = b + t; i < a; i += nt) f1(__ldg(in + i));
  const size_t nv = (e - a) / W;
  const uint4 *p = reinterpret_cast<const uint4 *>(in + a);
  size_t v = t;
  if constexpr (PF > 1)
    if (3 * (size_t)nt < nv)
#pragma unroll
      for (unsigned j = 1; j < PF; j++) gp_seg_prefetch(p, 4 * (size_t)nt * j, nv, t, nt);
  for (; v + 3 * (size_t)nt < nv; v += 4 * (size_t)nt) {
    if constexpr (PF > 0) gp_seg_prefetch(p, v - t + 4 * (size_t)nt * PF, nv, t, nt);
    if constexpr (FB) {
      union { uint4 u[4]; gp_seg_batch<T> x; } q;
#pragma unroll
      for (unsigned u = 0; u < 4; u++) q.u[u] = __ldg(p + v + u * nt);
      fb(q.x);
    } else {
      union { uint4 u; T x[W]; } q[4];
#pragma unroll
      for (unsigned u = 0; u < 4; u++) q[u].u = __ldg(p + v + u * nt);
#pragma unroll
      for (unsigned u = 0; u < 4; u++)
#pragma unroll
        for (unsigned c = 0; c < W; c++) f1(q[u].x[c]);
    }
  }
  for (; v < nv; v += nt) {
    union { uint4 u; T x[W]; } q;
    q.u = __ldg(p + v);
#pragma unroll
    for (unsigned c = 0; c < W; c++) f1(q.x[c]);
  }
  for (size_t i = a + nv * W + t; i < e; i += nt) f1(__ldg(in + i));
}

/* gp_seg_range_b with f for every element. */
template <unsigned PF = 0, typename T, typename F>
__device__ __forceinline__ void gp_seg_range(const T *__restrict__ in, size_t b, size_t e,
                                             unsigned t, unsigned nt, F f) {
  gp_seg_range_b<false, PF>(in, b, e, t, nt, f, 0);
}

/* The inputs of a batch that step_try missed (bit k of miss: x.t[k]) by P::step. Out of
 * line: the batch loop keeps its registers. */
template <typename T, typename P>
__device__ __noinline__ typename P::S gp_seg_redo(typename P::S s, gp_seg_batch<T> x, unsigned miss,
                                                  gp_u64 *acc) {
  for (; miss; miss &= miss - 1) P::step(s, x.t[__ffs((int)miss) - 1], acc);
  return s;
}

/* Thread t of nt: its elements of [b, e) into st[0] (plain operators: each element
 * stepped), or (exact sums, P::TRY) into one expansion per vector component, st[c]
 * (what left them is in acc): F32 adds a batch whose window fits (xs_window.cuh) with
 * plain additions; otherwise each input is tried on its chain (gp_xs_try's way in
 * reduce_exact.cu) and the misses go through P::step on st[0] after their batch, out of
 * line, so only st[0] ever holds a tail. m: F32, the window's last-bit exponent. */
template <typename T, typename P, unsigned PF>
__device__ __forceinline__ void gp_seg_lane(const T *__restrict__ in, size_t b, size_t e, unsigned t,
                                            unsigned nt, typename P::S (&st)[16 / sizeof(T)], int &m,
                                            gp_u64 *acc) {
  constexpr unsigned W = 16 / sizeof(T), N = gp_seg_batch<T>::N;
  constexpr bool F32 = sizeof(T) == 4;
#pragma unroll
  for (unsigned c = 0; c < W; c++) st[c] = P::init();
  m = GP_XS_WIN_NONE;
  if constexpr (!P::TRY) {
    gp_seg_range<PF>(in, b, e, t, nt, [&](T x) { P::step(st[0], x, acc); });
  } else {
    gp_seg_range_b<true, PF>(
        in, b, e, t, nt,
        [&](T x) {
          if constexpr (F32) {
            const int lx = gp_xs_win_lsb((__float_as_uint(x) & 0x7fffffffu) - 1u);
            m = lx < m ? lx : m;
          }
          P::step(st[0], x, acc);
        },
        [&](const gp_seg_batch<T> &x) {
          if constexpr (F32) {
            double h[W];
#pragma unroll
            for (unsigned c = 0; c < W; c++) h[c] = st[c].h;
            if (gp_xs_win_fits<N, W>(x.t, h, m)) {
#pragma unroll
              for (unsigned k = 0; k < N; k++) st[k % W].h += (double)x.t[k];
              return;
            }
          }
          unsigned miss = 0;
#pragma unroll
          for (unsigned k = 0; k < N; k++) miss |= (unsigned)!P::step_try(st[k % W], x.t[k]) << k;
          if (miss) st[0] = gp_seg_redo<T, P>(st[0], x, miss, acc);
        });
  }
}

/* [b, e) by the whole warp: lane 0 gets the state, what left it is in acc. F32 exact
 * sums whose lanes all fit one window merge their 128 chains with plain additions: heads
 * that are multiples of 2^m, each below 2^(e - 1022), add exactly while 2^(e - 1015)
 * stays within 2^(m + 53) and no lane holds a tail; otherwise the chains merge exactly
 * (P::merge) and the lanes by gp_seg_warp_tree. */
template <typename T, typename P, unsigned PF = 0>
__device__ __forceinline__ typename P::S gp_seg_warp_sum(const T *__restrict__ in, size_t b, size_t e,
                                                         gp_u64 *acc) {
  constexpr unsigned W = 16 / sizeof(T);
  typename P::S st[W];
  int m;
  gp_seg_lane<T, P, PF>(in, b, e, threadIdx.x % GP_WARP_SIZE, GP_WARP_SIZE, st, m, acc);
  if constexpr (P::TRY && sizeof(T) == 4) {
    int eh = 0;
#pragma unroll
    for (unsigned c = 0; c < W; c++) eh = max(eh, gp_xs_win_exp(st[c].h));
    const int mw = __reduce_min_sync(GP_FULL_MASK, m), ew = __reduce_max_sync(GP_FULL_MASK, eh);
    if (!__any_sync(GP_FULL_MASK, st[0].l != 0.0) && ew - 1015 <= mw + 53) {
      double h = (st[0].h + st[1].h) + (st[2].h + st[3].h);
#pragma unroll
      for (int o = GP_WARP_SIZE / 2; o > 0; o /= 2) h += __shfl_down_sync(GP_FULL_MASK, h, o);
      st[0].h = h;
      return st[0];
    }
  }
  if constexpr (P::TRY) {
#pragma unroll
    for (unsigned c = 1; c < W; c++) P::merge(st[0], st[c], acc);
  }
  return gp_seg_warp_tree<P>(st[0], acc);
}

/* A chunk's result (a row's chunk, or a long segment's span), combined per segment. */
template <typename S> struct gp_seg_rec {
  S s;
  gp_u64 dirty; /* the chunk's accumulator was used: its limbs are saved beside */
};

/* Segment [b, e) by the G lanes of the calling lane's group (G divides 32; every lane of
 * the warp calls it, `live` false where the group has no segment): the expansions
 * alone, merged by shuffles within the group; a segment where any input or merge did not
 * fit them is redone from scratch by its first lane into a thread-local
 * superaccumulator (slow_alone). The group's first lane stores the result in *out. */
template <typename T, typename P, unsigned G, unsigned PF = 0>
__device__ __forceinline__ void gp_seg_group_one(const T *__restrict__ in, size_t b, size_t e,
                                                 bool live, typename P::Out *out) {
  const unsigned lane = threadIdx.x % GP_WARP_SIZE, sub = lane % G;
  const unsigned gmask = G == GP_WARP_SIZE ? GP_FULL_MASK : ((1u << G) - 1u) << (lane - sub);
  typename P::S st = P::init();
  bool ok = true;
  if (G == 1 && e - b < 2 * (16 / sizeof(T))) /* a few elements: vectors' set-up costs more */
    for (size_t i = b; i < e; i++) ok &= P::step_try(st, __ldg(in + i));
  else
    gp_seg_range<PF>(in, b, e, sub, G, [&](T x) { ok &= P::step_try(st, x); });
#pragma unroll
  for (unsigned o = G / 2; o > 0; o /= 2) {
    const typename P::S t = P::shfl(st, (int)o, (int)G);
    if (sub < o) ok &= P::merge_try(st, t);
  }
  const unsigned bad = __ballot_sync(GP_FULL_MASK, !ok) & gmask;
  if (live && sub == 0) *out = b >= e ? P::empty() : !bad ? P::finish_alone(st) : P::slow_alone(in, b, e);
}

/* Stamps RUN<T, A, Op>(ARGS), the dispatch's entry for one (type, op): GO<T, policy,
 * superaccumulator words>(PASS), float SUM on the exact policy (the F32 accumulator type
 * in GP_REDUCE_DISPATCH is unused there). ARGS and PASS are the names of macros holding
 * the parameter list and the argument list. */
#define GP_SEG_POLICY_RUN(RUN, GO, ARGS, PASS)                                             \
  template <typename T, typename A, typename Op> static gp_status RUN(ARGS) {              \
    return GO<T, gp_seg_plain<T, A, Op>, 1>(PASS);                                        \
  }                                                                                        \
  template <> gp_status RUN<float, double, gp_rop_sum>(ARGS) {                             \
    return GO<float, gp_seg_exact<float>, GP_XS_F32_LIMBS + 1>(PASS);                     \
  }                                                                                        \
  template <> gp_status RUN<double, double, gp_rop_sum>(ARGS) {                            \
    return GO<double, gp_seg_exact<double>, GP_XS_F64_LIMBS + 1>(PASS);                   \
  }

/* A grid of at most `want` blocks that are all resident at once (the kernels loop). */
template <typename K>
static unsigned gp_seg_grid(gp_context *ctx, K kernel, int *per_sm, size_t want) {
  const size_t res = gp_resident_blocks(ctx, kernel, GP_SEG_THREADS, per_sm);
  return (unsigned)(want < 1 ? 1 : want < res ? want : res);
}

#endif
