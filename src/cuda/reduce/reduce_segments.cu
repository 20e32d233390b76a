/* gp_reduce_rows / gp_reduce_segments_offsets on CUDA: one result per segment, each
 * with the bits gp_reduce (AUTO) gives for that segment alone. Float SUM is the exact
 * sum rounded once (core/exact_sum.h), MIN/MAX do not depend on order and integer SUM
 * is exact modulo 2^64, so any grouping of the additions is allowed. The host picks by
 * the mean length: short segments get a group of 1 to 32 lanes each (about four 16-byte
 * loads a lane), longer ones a warp, the longest by offsets a block; rows of at least
 * two chunks are split into chunks, a warp each, whose records a second kernel combines.
 * Float SUM keeps exact expansions per lane (Fast2Sum, core/exact_sum.h). A lane group
 * tries the expansions alone (taking an input only when that is exact) and redoes a
 * segment they cannot hold with one thread's superaccumulator; warps and blocks add as
 * the main kernel does (F32: gp_xs_carry_head / tail, the head takes every input and
 * its errors go to the tail; F64: gp_xs_fast_add2) and send what does not fit to a
 * shared superaccumulator, and when nothing went there (the usual case) the head and
 * tail already hold the exact sum and one rounding finishes; otherwise the
 * superaccumulator is rounded. */
#include "cuda/common/reduce_ops.cuh"
#include "cuda/common/resident.cuh"
#include "cuda/reduce/reduce_cuda.h"
#include "core/exact_sum.h"

#include <stdint.h>

#define GP_SEG_THREADS 256u
#define GP_SEG_WARPS (GP_SEG_THREADS / GP_WARP_SIZE)
/* __launch_bounds__: at least 4 blocks of 256 per SM (64 registers). The rare paths'
 * thread-local superaccumulators (slow_alone, finish's limbs) would otherwise take the
 * F64 kernels to 100-225 registers, one or two blocks per SM; capped, they spill there. */
#define GP_SEG_MIN_BLOCKS 4
#define GP_XS_DIRTY 16u /* a flag bit: something went to the superaccumulator */
#ifndef GP_SEG_GROUP_MAX_MEAN
#define GP_SEG_GROUP_MAX_MEAN 512.0 /* mean segment length up to which lane groups take them */
#endif
#ifndef GP_SEG_WARP_MAX_MEAN
#define GP_SEG_WARP_MAX_MEAN 4096.0 /* mean segment length up to which a warp takes one */
#endif

/* Rows of at least two chunks of this many elements are split (a warp per chunk), at
 * most GP_SEG_MAX_CHUNKS per row and GP_SEG_MAX_TASKS in all: the records' scratch
 * stays under 19 MB (F64 SUM: 576 bytes a chunk). 8192 against 4096 on the H200
 * (2026-12-01, f32 SUM, n = 2^26): rows of 8192 77.7 against 85.9 us, longer rows
 * 0.5-1.2% faster. */
#ifndef GP_SEG_CHUNK
#define GP_SEG_CHUNK ((size_t)8192)
#endif
#define GP_SEG_MAX_CHUNKS ((size_t)1024)
#define GP_SEG_MAX_TASKS ((size_t)32768)

/* Where segment s lies: offsets[s] .. offsets[s+1], or rows of row_len. */
struct gp_seg_map {
  const uint64_t *offsets;
  size_t row_len;
  __device__ __forceinline__ size_t begin(size_t s) const { return offsets ? offsets[s] : s * row_len; }
  __device__ __forceinline__ size_t end(size_t s) const { return offsets ? offsets[s + 1] : (s + 1) * row_len; }
};

/* ---- policies: state, step, merge, shuffle, finish ---------------------------------- */
/* The plain operator (every op but float SUM): the accumulator of gp_reduce. */
template <typename T, typename A, typename Op> struct gp_seg_plain {
  typedef A S;
  static constexpr bool TAILS = false; /* gp_seg_warp_tree: one tree of merges */
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

/* Thread t of nt hands each of its elements of [b, e) to f: single elements up to a
 * 16-byte boundary, then 16-byte vectors, four in flight, then the tail. */
template <typename T, typename F>
__device__ __forceinline__ void gp_seg_range(const T *__restrict__ in, size_t b, size_t e,
                                             unsigned t, unsigned nt, F f) {
  constexpr size_t W = 16 / sizeof(T);
  const size_t mis = ((uintptr_t)(in + b) / sizeof(T)) % W;
  size_t a = b + (mis ? W - mis : 0);
  if (a > e) a = e;
  for (size_t i = b + t; i < a; i += nt) f(__ldg(in + i));
  const size_t nv = (e - a) / W;
  const uint4 *p = reinterpret_cast<const uint4 *>(in + a);
  size_t v = t;
  for (; v + 3 * (size_t)nt < nv; v += 4 * (size_t)nt) {
    union { uint4 u; T x[W]; } q[4];
#pragma unroll
    for (unsigned u = 0; u < 4; u++) q[u].u = __ldg(p + v + u * nt);
#pragma unroll
    for (unsigned u = 0; u < 4; u++)
#pragma unroll
      for (unsigned c = 0; c < W; c++) f(q[u].x[c]);
  }
  for (; v < nv; v += nt) {
    union { uint4 u; T x[W]; } q;
    q.u = __ldg(p + v);
#pragma unroll
    for (unsigned c = 0; c < W; c++) f(q.x[c]);
  }
  for (size_t i = a + nv * W + t; i < e; i += nt) f(__ldg(in + i));
}

/* Block-wide: warp trees, then thread 0 merges the warps' states and returns the
 * block's (other threads: their own). The caller's barrier must follow thread 0's use
 * of the result before part is written again. */
template <typename P>
__device__ __forceinline__ typename P::S gp_seg_block_state(typename P::S st, gp_u64 *acc,
                                                            typename P::S *part) {
  const unsigned lane = threadIdx.x % GP_WARP_SIZE, warp = threadIdx.x / GP_WARP_SIZE;
  st = gp_seg_warp_tree<P>(st, acc);
  if (lane == 0) part[warp] = st;
  __syncthreads();
  if (threadIdx.x == 0)
    for (unsigned w = 1; w < GP_SEG_WARPS; w++) P::merge(st, part[w], acc);
  return st;
}

/* A row chunk's result (gp_seg_warp_kernel), combined per row by gp_seg_combine_kernel. */
template <typename S> struct gp_seg_rec {
  S s;
  gp_u64 dirty; /* the chunk's accumulator was used: its limbs are saved beside */
};

/* G lanes per segment (short ones: 32 / G segments per warp at a time, each lane about
 * four 16-byte loads in flight): the expansions alone, merged by shuffles within the group; a
 * segment where any input or merge did not fit them is redone from scratch by its
 * first lane into a thread-local superaccumulator (slow_alone). */
template <typename T, typename P, unsigned G>
__global__ __launch_bounds__(GP_SEG_THREADS, GP_SEG_MIN_BLOCKS) void gp_seg_group_kernel(
    const T *__restrict__ in, gp_seg_map map, size_t nseg, typename P::Out *out) {
  const unsigned lane = threadIdx.x % GP_WARP_SIZE, sub = lane % G;
  const unsigned gmask = G == GP_WARP_SIZE ? GP_FULL_MASK : ((1u << G) - 1u) << (lane - sub);
  const size_t per_warp = GP_WARP_SIZE / G;
  const size_t w = ((size_t)blockIdx.x * GP_SEG_THREADS + threadIdx.x) / GP_WARP_SIZE;
  const size_t nw = (size_t)gridDim.x * GP_SEG_WARPS;
  for (size_t base = w * per_warp; base < nseg; base += nw * per_warp) { /* warp-uniform */
    const size_t s = base + lane / G;
    const bool live = s < nseg;
    const size_t b = live ? map.begin(s) : 0, e = live ? map.end(s) : 0;
    typename P::S st = P::init();
    bool ok = true;
    if (G == 1 && e - b < 2 * (16 / sizeof(T))) /* a few elements: vectors' set-up costs more */
      for (size_t i = b; i < e; i++) ok &= P::step_try(st, __ldg(in + i));
    else
      gp_seg_range(in, b, e, sub, G, [&](T x) { ok &= P::step_try(st, x); });
#pragma unroll
    for (unsigned o = G / 2; o > 0; o /= 2) {
      const typename P::S t = P::shfl(st, (int)o, (int)G);
      if (sub < o) ok &= P::merge_try(st, t);
    }
    const unsigned bad = __ballot_sync(GP_FULL_MASK, !ok) & gmask;
    if (live && sub == 0)
      out[s] = b >= e ? P::empty() : !bad ? P::finish_alone(st) : P::slow_alone(in, b, e);
  }
}

/* One warp per task: a whole segment (chunks == 1: its result goes to out), or chunk j
 * of row s (task s * chunks + j, chunk elements each: its state and, when it was used,
 * its accumulator go to the records for gp_seg_combine_kernel). acc: one per warp. */
template <typename T, typename P, int ACC_LIMBS>
__global__ __launch_bounds__(GP_SEG_THREADS, GP_SEG_MIN_BLOCKS) void gp_seg_warp_kernel(
    const T *__restrict__ in, gp_seg_map map, size_t nseg, size_t chunks, size_t chunk,
    typename P::Out *out, gp_seg_rec<typename P::S> *rec, gp_u64 *limbs) {
  __shared__ gp_u64 sacc[GP_SEG_WARPS][ACC_LIMBS];
  for (unsigned i = threadIdx.x; i < GP_SEG_WARPS * ACC_LIMBS; i += GP_SEG_THREADS) (&sacc[0][0])[i] = 0;
  __syncthreads();
  const unsigned lane = threadIdx.x % GP_WARP_SIZE, warp = threadIdx.x / GP_WARP_SIZE;
  gp_u64 *acc = sacc[warp];
  const size_t nwarps = (size_t)gridDim.x * GP_SEG_WARPS;
  for (size_t t = (size_t)blockIdx.x * GP_SEG_WARPS + warp; t < nseg * chunks; t += nwarps) {
    const size_t s = chunks == 1 ? t : t / chunks;
    size_t b = map.begin(s), e = map.end(s);
    if (chunks > 1) {
      const size_t cb = b + (t - s * chunks) * chunk;
      b = cb < e ? cb : e; /* an empty last chunk: the identity */
      if (e - b > chunk) e = b + chunk;
    } else if (b >= e) { /* warp-uniform */
      if (lane == 0) out[s] = P::empty();
      continue;
    }
    typename P::S st = P::init();
    gp_seg_range(in, b, e, lane, GP_WARP_SIZE, [&](T x) { P::step(st, x, acc); });
    st = gp_seg_warp_tree<P>(st, acc);
    __syncwarp();
    if (lane == 0) {
      if (chunks == 1) {
        out[s] = P::finish(st, acc);
      } else {
        const gp_u64 dirty = acc[ACC_LIMBS - 1]; /* the flag word: nonzero once anything left */
        if (dirty) P::save(acc, limbs + t * ACC_LIMBS);
        rec[t] = {st, dirty};
      }
    }
    __syncwarp();
  }
}

/* One block per segment: the block's threads share it, then thread 0 merges the warps. */
template <typename T, typename P, int ACC_LIMBS>
__global__ __launch_bounds__(GP_SEG_THREADS, GP_SEG_MIN_BLOCKS) void gp_seg_block_kernel(
    const T *__restrict__ in, gp_seg_map map, size_t nseg, typename P::Out *out) {
  __shared__ gp_u64 acc[ACC_LIMBS];
  __shared__ typename P::S part[GP_SEG_WARPS];
  for (unsigned i = threadIdx.x; i < ACC_LIMBS; i += GP_SEG_THREADS) acc[i] = 0;
  __syncthreads();
  for (size_t s = blockIdx.x; s < nseg; s += gridDim.x) {
    const size_t b = map.begin(s), e = map.end(s);
    if (b >= e) { /* block-uniform */
      if (threadIdx.x == 0) out[s] = P::empty();
      continue;
    }
    typename P::S st = P::init();
    gp_seg_range(in, b, e, threadIdx.x, GP_SEG_THREADS, [&](T x) { P::step(st, x, acc); });
    st = gp_seg_block_state<P>(st, acc, part);
    if (threadIdx.x == 0) out[s] = P::finish(st, acc);
    __syncthreads();
  }
}

/* ---- split rows: a warp per row over its chunks' records ---------------------------- */
template <typename T, typename P, int ACC_LIMBS>
__global__ __launch_bounds__(GP_SEG_THREADS, GP_SEG_MIN_BLOCKS) void gp_seg_combine_kernel(
    const gp_seg_rec<typename P::S> *rec, const gp_u64 *limbs, size_t nseg, size_t chunks,
    typename P::Out *out) {
  __shared__ gp_u64 sacc[GP_SEG_WARPS][ACC_LIMBS];
  for (unsigned i = threadIdx.x; i < GP_SEG_WARPS * ACC_LIMBS; i += GP_SEG_THREADS) (&sacc[0][0])[i] = 0;
  __syncthreads();
  const unsigned lane = threadIdx.x % GP_WARP_SIZE, warp = threadIdx.x / GP_WARP_SIZE;
  gp_u64 *acc = sacc[warp];
  const size_t nwarps = (size_t)gridDim.x * GP_SEG_WARPS;
  for (size_t s = (size_t)blockIdx.x * GP_SEG_WARPS + warp; s < nseg; s += nwarps) {
    const gp_seg_rec<typename P::S> *r = rec + s * chunks;
    for (size_t j = lane; j < chunks; j += GP_WARP_SIZE)
      if (r[j].dirty) P::load(acc, limbs + (s * chunks + j) * ACC_LIMBS);
    __syncwarp();
    typename P::S st = P::init();
    for (size_t j = lane; j < chunks; j += GP_WARP_SIZE) P::merge(st, r[j].s, acc);
    st = gp_seg_warp_tree<P>(st, acc);
    __syncwarp();
    if (lane == 0) out[s] = P::finish(st, acc);
    __syncwarp();
  }
}

/* Chunks per row for the split path, 1 when the row is not split: rows (not offsets) of
 * at least two chunks, as many chunks as fit the caps. */
static size_t gp_seg_chunks(const uint64_t *offsets, size_t row_len, size_t nseg) {
  if (offsets || nseg == 0 || row_len < 2 * GP_SEG_CHUNK) return 1;
  size_t r = (row_len + GP_SEG_CHUNK - 1) / GP_SEG_CHUNK;
  if (r > GP_SEG_MAX_CHUNKS) r = GP_SEG_MAX_CHUNKS;
  if (r > GP_SEG_MAX_TASKS / nseg) r = GP_SEG_MAX_TASKS / nseg;
  return r < 2 ? 1 : r;
}

/* ---- launch ------------------------------------------------------------------------- */
template <typename T, typename P, int ACC_LIMBS> static size_t gp_seg_scratch(size_t tasks) {
  const size_t rec = (tasks * sizeof(gp_seg_rec<typename P::S>) + 255) & ~(size_t)255;
  return rec + tasks * ACC_LIMBS * sizeof(gp_u64);
}

/* A grid of at most `want` blocks that are all resident at once (the kernels loop). */
template <typename K>
static unsigned gp_seg_grid(gp_context *ctx, K kernel, int *per_sm, size_t want) {
  const size_t res = gp_resident_blocks(ctx, kernel, GP_SEG_THREADS, per_sm);
  return (unsigned)(want < 1 ? 1 : want < res ? want : res);
}

template <typename T, typename P, unsigned G>
static gp_status gp_seg_group(gp_context *ctx, const T *in, gp_seg_map map, size_t nseg,
                              typename P::Out *out) {
  static int per_sm[GP_RESIDENT_MAX_DEVICES];
  const size_t per_block = GP_SEG_THREADS / G;
  const unsigned g = gp_seg_grid(ctx, gp_seg_group_kernel<T, P, G>, per_sm,
                                 (nseg + per_block - 1) / per_block);
  gp_seg_group_kernel<T, P, G><<<g, GP_SEG_THREADS, 0, (cudaStream_t)ctx->stream>>>(in, map, nseg, out);
  GP_LAUNCH_CHECK(ctx, "gp_seg_group_kernel", g, GP_SEG_THREADS, 0);
  return GP_OK;
}

template <typename T, typename P, int ACC_LIMBS>
static gp_status gp_seg_launch(gp_context *ctx, const void *d_in, const uint64_t *d_offsets,
                               size_t row_len, size_t nseg, double mean_len, void *scratch,
                               void *d_out) {
  static int per_sm_warp[GP_RESIDENT_MAX_DEVICES], per_sm_comb[GP_RESIDENT_MAX_DEVICES],
      per_sm_block[GP_RESIDENT_MAX_DEVICES];
  const gp_seg_map map = {d_offsets, row_len};
  const T *in = static_cast<const T *>(d_in);
  typename P::Out *out = static_cast<typename P::Out *>(d_out);
  cudaStream_t st = (cudaStream_t)ctx->stream;
  const size_t chunks = gp_seg_chunks(d_offsets, row_len, nseg);
  if (chunks == 1 && mean_len <= GP_SEG_GROUP_MAX_MEAN) { /* ~ four 16-byte vectors a lane */
    const double v = mean_len / (4.0 * (16 / sizeof(T)));
    if (v < 2) return gp_seg_group<T, P, 1>(ctx, in, map, nseg, out);
    if (v < 4) return gp_seg_group<T, P, 2>(ctx, in, map, nseg, out);
    if (v < 8) return gp_seg_group<T, P, 4>(ctx, in, map, nseg, out);
    if (v < 16) return gp_seg_group<T, P, 8>(ctx, in, map, nseg, out);
    if (v < 32) return gp_seg_group<T, P, 16>(ctx, in, map, nseg, out);
    return gp_seg_group<T, P, 32>(ctx, in, map, nseg, out);
  }
  /* rows take warps: a block a row of 4096 .. 16383 elements was 0-67% slower (H200,
     2026-12-02, docs/perf/reduce.md) */
  if (chunks > 1 || !d_offsets || mean_len <= GP_SEG_WARP_MAX_MEAN) {
    const size_t tasks = nseg * chunks;
    /* chunk starts stay 16-byte aligned when the rows are */
    const size_t per = ((row_len + chunks - 1) / chunks + 3) & ~(size_t)3;
    gp_seg_rec<typename P::S> *rec = static_cast<gp_seg_rec<typename P::S> *>(scratch);
    gp_u64 *limbs = chunks == 1 ? NULL : reinterpret_cast<gp_u64 *>(
        static_cast<char *>(scratch) + ((tasks * sizeof(*rec) + 255) & ~(size_t)255));
    const unsigned g = gp_seg_grid(ctx, gp_seg_warp_kernel<T, P, ACC_LIMBS>, per_sm_warp,
                                   (tasks + GP_SEG_WARPS - 1) / GP_SEG_WARPS);
    gp_seg_warp_kernel<T, P, ACC_LIMBS><<<g, GP_SEG_THREADS, 0, st>>>(in, map, nseg, chunks, per,
                                                                     out, rec, limbs);
    GP_LAUNCH_CHECK(ctx, "gp_seg_warp_kernel", g, GP_SEG_THREADS, 0);
    if (chunks == 1) return GP_OK;
    const unsigned gc = gp_seg_grid(ctx, gp_seg_combine_kernel<T, P, ACC_LIMBS>, per_sm_comb,
                                    (nseg + GP_SEG_WARPS - 1) / GP_SEG_WARPS);
    gp_seg_combine_kernel<T, P, ACC_LIMBS><<<gc, GP_SEG_THREADS, 0, st>>>(rec, limbs, nseg, chunks, out);
    GP_LAUNCH_CHECK(ctx, "gp_seg_combine_kernel", gc, GP_SEG_THREADS, 0);
    return GP_OK;
  }
  const unsigned g = gp_seg_grid(ctx, gp_seg_block_kernel<T, P, ACC_LIMBS>, per_sm_block, nseg);
  gp_seg_block_kernel<T, P, ACC_LIMBS><<<g, GP_SEG_THREADS, 0, st>>>(in, map, nseg, out);
  GP_LAUNCH_CHECK(ctx, "gp_seg_block_kernel", g, GP_SEG_THREADS, 0);
  return GP_OK;
}

/* One entry per (policy, job): the launch, or (scratch_only) the scratch bytes. */
template <typename T, typename P, int ACC_LIMBS>
static gp_status gp_seg_go(gp_context *ctx, const void *d_in, const uint64_t *d_offsets,
                           size_t row_len, size_t nseg, double mean_len, void *scratch,
                           void *d_out, size_t *scratch_bytes) {
  if (scratch_bytes) {
    const size_t chunks = gp_seg_chunks(d_offsets, row_len, nseg);
    *scratch_bytes = chunks > 1 ? gp_seg_scratch<T, P, ACC_LIMBS>(nseg * chunks) : 0;
    return GP_OK;
  }
  return gp_seg_launch<T, P, ACC_LIMBS>(ctx, d_in, d_offsets, row_len, nseg, mean_len, scratch, d_out);
}

#define GP_SEG_ARGS                                                                        \
  gp_context *ctx, const void *d_in, const uint64_t *d_offsets, size_t row_len, size_t nseg,      \
      double mean_len, void *scratch, void *d_out, size_t *scratch_bytes
#define GP_SEG_PASS ctx, d_in, d_offsets, row_len, nseg, mean_len, scratch, d_out, scratch_bytes

template <typename T, typename A, typename Op> static gp_status gp_seg_run(GP_SEG_ARGS) {
  return gp_seg_go<T, gp_seg_plain<T, A, Op>, 1>(GP_SEG_PASS);
}
/* float SUM takes the exact policy (the F32 accumulator type in the dispatch is unused) */
template <> gp_status gp_seg_run<float, double, gp_rop_sum>(GP_SEG_ARGS) {
  return gp_seg_go<float, gp_seg_exact<float>, GP_XS_F32_LIMBS + 1>(GP_SEG_PASS);
}
template <> gp_status gp_seg_run<double, double, gp_rop_sum>(GP_SEG_ARGS) {
  return gp_seg_go<double, gp_seg_exact<double>, GP_XS_F64_LIMBS + 1>(GP_SEG_PASS);
}

/* the dispatch on (op, type); GP_ERR_INVALID_ARGUMENT for an unknown type, unreported */
static gp_status gp_seg_dispatch(gp_op op, gp_dtype type, GP_SEG_ARGS) {
  GP_REDUCE_DISPATCH(gp_seg_run, double, op, type, GP_SEG_PASS)
  return GP_ERR_INVALID_ARGUMENT;
}

extern "C" size_t gp_cuda_reduce_segments_scratch_bytes(gp_op op, gp_dtype type,
                                                        const uint64_t *d_offsets, size_t row_len,
                                                        size_t nseg) {
  size_t bytes = 0;
  (void)gp_seg_dispatch(op, type, NULL, NULL, d_offsets, row_len, nseg, 0.0, NULL, NULL, &bytes);
  return bytes;
}

extern "C" gp_status gp_cuda_reduce_segments(gp_context *ctx, gp_op op, gp_dtype type,
                                             const void *d_in, const uint64_t *d_offsets,
                                             size_t row_len, size_t nseg, double mean_len,
                                             void *scratch, void *d_out) {
  const gp_status s = gp_seg_dispatch(op, type, ctx, d_in, d_offsets, row_len, nseg, mean_len,
                                      scratch, d_out, NULL);
  if (s == GP_ERR_INVALID_ARGUMENT) return gp_fail(ctx, s, "unknown dtype %d", (int)type);
  return s;
}
