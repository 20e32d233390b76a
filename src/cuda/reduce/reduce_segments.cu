/* gp_reduce_rows / gp_reduce_segments_offsets on CUDA: one result per segment, each
 * with the bits gp_reduce (AUTO) gives for that segment alone. Float SUM is the exact
 * sum rounded once (core/exact_sum.h), MIN/MAX do not depend on order and integer SUM
 * is exact modulo 2^64, so any grouping of the additions is allowed: the tiniest
 * segments get one thread each, short ones one warp, longer ones one block (the host
 * picks by the mean length).
 * Float SUM keeps TwoSum expansions per lane; when nothing had to leave them for the
 * group's shared superaccumulator (the usual case), the head and tail already hold the
 * exact sum and one rounding finishes; otherwise the superaccumulator is rounded. */
#include "cuda/common/reduce_ops.cuh"
#include "cuda/reduce/reduce_cuda.h"
#include "core/exact_sum.h"

#include <stdint.h>

#define GP_SEG_THREADS 256u
#define GP_SEG_WARPS (GP_SEG_THREADS / GP_WARP_SIZE)
#define GP_SEG_GRID_PER_SM 8u
#define GP_XS_DIRTY 16u /* a flag bit: something went to the superaccumulator */
#ifndef GP_SEG_THREAD_MAX_MEAN
#define GP_SEG_THREAD_MAX_MEAN 8.0 /* mean segment length up to which a thread takes one */
#endif
#ifndef GP_SEG_WARP_MAX_MEAN
#define GP_SEG_WARP_MAX_MEAN 512.0 /* mean segment length up to which a warp takes one */
#endif

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
  typedef typename gp_rout<T, A>::type Out;
  static __device__ __forceinline__ S init() { return gp_rident<Op, A>::v(); }
  /* an empty segment: 0 for SUM, the identity (+inf / -inf / type max / min) for MIN/MAX */
  static __device__ __forceinline__ Out empty() { return gp_rfinal<Out>(init()); }
  static __device__ __forceinline__ void step(S &s, T x, gp_u64 *) { s = Op()(s, static_cast<A>(x)); }
  static __device__ __forceinline__ void merge(S &s, S o, gp_u64 *) { s = Op()(s, o); }
  static __device__ __forceinline__ S shfl(S s, int o) { return __shfl_down_sync(GP_FULL_MASK, s, o); }
  static __device__ __forceinline__ Out finish(S s, gp_u64 *) { return gp_rfinal<Out>(s); }
  /* thread-per-segment mode: a step that never needs help, and no slow path */
  static __device__ __forceinline__ bool step_try(S &s, T x) { s = Op()(s, static_cast<A>(x)); return true; }
  static __device__ __forceinline__ Out finish_alone(S s) { return gp_rfinal<Out>(s); }
  static __device__ Out slow_alone(const T *, size_t, size_t) { return Out(); }
};

/* Float SUM, exact: (h, l) expansions; the rare path adds into acc (L + 1 limbs). */
struct gp_seg_xs {
  double h, l;
};
template <typename T> struct gp_seg_exact {
  typedef gp_seg_xs S;
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
  static __device__ __forceinline__ void add(S &s, double x, gp_u64 *acc) {
    if (sizeof(T) == 4) {
      if (!gp_xs_add1(&s.h, x)) flush(acc, x);
    } else {
      if (!gp_xs_add2(&s.h, &s.l, x)) flush(acc, x);
    }
  }
  static __device__ __forceinline__ void step(S &s, T x, gp_u64 *acc) { add(s, (double)x, acc); }
  static __device__ __forceinline__ void merge(S &s, S o, gp_u64 *acc) {
    add(s, o.h, acc);
    if (sizeof(T) == 8) add(s, o.l, acc);
  }
  static __device__ __forceinline__ S shfl(S s, int o) {
    return {__shfl_down_sync(GP_FULL_MASK, s.h, o), __shfl_down_sync(GP_FULL_MASK, s.l, o)};
  }
  /* thread-per-segment mode: the expansion alone, or false when an input did not fit */
  static __device__ __forceinline__ bool step_try(S &s, T x) {
    if (sizeof(T) == 4) return gp_xs_add1(&s.h, (double)x);
    return gp_xs_add2(&s.h, &s.l, (double)x);
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
  /* one thread, after the group's flushes are visible; leaves acc zero */
  static __device__ Out finish(S s, gp_u64 *acc) {
    if (acc[L] == 0) { /* h + l is the exact sum: one rounding; a -0 head: all inputs -0 */
      if (sizeof(T) == 4) return gp_rt_canon_f32((float)s.h);
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

template <typename P> __device__ __forceinline__ typename P::S gp_seg_warp_tree(typename P::S s, gp_u64 *acc) {
  const unsigned lane = threadIdx.x % GP_WARP_SIZE;
#pragma unroll
  for (int o = GP_WARP_SIZE / 2; o > 0; o /= 2) {
    typename P::S t = P::shfl(s, o);
    if (lane < (unsigned)o) P::merge(s, t, acc);
  }
  return s;
}

/* One thread per segment (the tiniest segments): the expansion alone; a segment whose
 * inputs do not all fit it is redone from scratch into a thread-local superaccumulator. */
template <typename T, typename P>
__global__ __launch_bounds__(GP_SEG_THREADS) void gp_seg_thread_kernel(
    const T *__restrict__ in, gp_seg_map map, size_t nseg, typename P::Out *out) {
  const size_t stride = (size_t)gridDim.x * GP_SEG_THREADS;
  for (size_t s = (size_t)blockIdx.x * GP_SEG_THREADS + threadIdx.x; s < nseg; s += stride) {
    const size_t b = map.begin(s), e = map.end(s);
    if (b >= e) {
      out[s] = P::empty();
      continue;
    }
    typename P::S st = P::init();
    bool ok = true;
    for (size_t i = b; i < e; i++) ok &= P::step_try(st, __ldg(in + i));
    out[s] = ok ? P::finish_alone(st) : P::slow_alone(in, b, e);
  }
}

/* One warp per segment. acc: GP_SEG_WARPS x ACC_LIMBS limbs (zero), one per warp. */
template <typename T, typename P, int ACC_LIMBS>
__global__ __launch_bounds__(GP_SEG_THREADS) void gp_seg_warp_kernel(
    const T *__restrict__ in, gp_seg_map map, size_t nseg, typename P::Out *out) {
  __shared__ gp_u64 sacc[GP_SEG_WARPS][ACC_LIMBS];
  for (unsigned i = threadIdx.x; i < GP_SEG_WARPS * ACC_LIMBS; i += GP_SEG_THREADS) (&sacc[0][0])[i] = 0;
  __syncthreads();
  const unsigned lane = threadIdx.x % GP_WARP_SIZE, warp = threadIdx.x / GP_WARP_SIZE;
  gp_u64 *acc = sacc[warp];
  const size_t nwarps = (size_t)gridDim.x * GP_SEG_WARPS;
  for (size_t s = (size_t)blockIdx.x * GP_SEG_WARPS + warp; s < nseg; s += nwarps) {
    const size_t b = map.begin(s), e = map.end(s);
    if (b >= e) { /* warp-uniform */
      if (lane == 0) out[s] = P::empty();
      continue;
    }
    typename P::S st = P::init();
    for (size_t i = b + lane; i < e; i += GP_WARP_SIZE) P::step(st, __ldg(in + i), acc);
    st = gp_seg_warp_tree<P>(st, acc);
    __syncwarp();
    if (lane == 0) out[s] = P::finish(st, acc);
    __syncwarp();
  }
}

/* One block per segment: warps stride over it, then warp 0's lane 0 merges the warps. */
template <typename T, typename P, int ACC_LIMBS>
__global__ __launch_bounds__(GP_SEG_THREADS) void gp_seg_block_kernel(
    const T *__restrict__ in, gp_seg_map map, size_t nseg, typename P::Out *out) {
  __shared__ gp_u64 acc[ACC_LIMBS];
  __shared__ typename P::S part[GP_SEG_WARPS];
  for (unsigned i = threadIdx.x; i < ACC_LIMBS; i += GP_SEG_THREADS) acc[i] = 0;
  __syncthreads();
  const unsigned lane = threadIdx.x % GP_WARP_SIZE, warp = threadIdx.x / GP_WARP_SIZE;
  for (size_t s = blockIdx.x; s < nseg; s += gridDim.x) {
    const size_t b = map.begin(s), e = map.end(s);
    if (b >= e) { /* block-uniform */
      if (threadIdx.x == 0) out[s] = P::empty();
      continue;
    }
    typename P::S st = P::init();
    size_t i = b + threadIdx.x;
    for (; i + 3 * GP_SEG_THREADS < e; i += 4 * GP_SEG_THREADS) { /* four loads in flight */
      const T x0 = __ldg(in + i), x1 = __ldg(in + i + GP_SEG_THREADS);
      const T x2 = __ldg(in + i + 2 * GP_SEG_THREADS), x3 = __ldg(in + i + 3 * GP_SEG_THREADS);
      P::step(st, x0, acc);
      P::step(st, x1, acc);
      P::step(st, x2, acc);
      P::step(st, x3, acc);
    }
    for (; i < e; i += GP_SEG_THREADS) P::step(st, __ldg(in + i), acc);
    st = gp_seg_warp_tree<P>(st, acc);
    if (lane == 0) part[warp] = st;
    __syncthreads();
    if (threadIdx.x == 0) {
      typename P::S r = part[0];
      for (unsigned w = 1; w < GP_SEG_WARPS; w++) P::merge(r, part[w], acc);
      out[s] = P::finish(r, acc);
    }
    __syncthreads();
  }
}

/* ---- launch ------------------------------------------------------------------------- */
template <typename T, typename P, int ACC_LIMBS>
static gp_status gp_seg_launch(gp_context *ctx, const void *d_in, const uint64_t *d_offsets,
                               size_t row_len, size_t nseg, double mean_len, void *d_out) {
  const gp_seg_map map = {d_offsets, row_len};
  const T *in = static_cast<const T *>(d_in);
  typename P::Out *out = static_cast<typename P::Out *>(d_out);
  const size_t sms = ctx->info.sm_count > 0 ? (size_t)ctx->info.sm_count : 1;
  cudaStream_t st = (cudaStream_t)ctx->stream;
  if (mean_len <= GP_SEG_THREAD_MAX_MEAN) {
    size_t g = (nseg + GP_SEG_THREADS - 1) / GP_SEG_THREADS;
    if (g > sms * GP_SEG_GRID_PER_SM) g = sms * GP_SEG_GRID_PER_SM;
    gp_seg_thread_kernel<T, P><<<(unsigned)g, GP_SEG_THREADS, 0, st>>>(in, map, nseg, out);
    GP_LAUNCH_CHECK(ctx, "gp_seg_thread_kernel", g, GP_SEG_THREADS, 0);
  } else if (mean_len <= GP_SEG_WARP_MAX_MEAN) {
    size_t g = (nseg + GP_SEG_WARPS - 1) / GP_SEG_WARPS;
    if (g > sms * GP_SEG_GRID_PER_SM) g = sms * GP_SEG_GRID_PER_SM;
    gp_seg_warp_kernel<T, P, ACC_LIMBS><<<(unsigned)g, GP_SEG_THREADS, 0, st>>>(in, map, nseg, out);
    GP_LAUNCH_CHECK(ctx, "gp_seg_warp_kernel", g, GP_SEG_THREADS, 0);
  } else {
    size_t g = nseg < sms * GP_SEG_GRID_PER_SM ? nseg : sms * GP_SEG_GRID_PER_SM;
    gp_seg_block_kernel<T, P, ACC_LIMBS><<<(unsigned)g, GP_SEG_THREADS, 0, st>>>(in, map, nseg, out);
    GP_LAUNCH_CHECK(ctx, "gp_seg_block_kernel", g, GP_SEG_THREADS, 0);
  }
  return GP_OK;
}

template <typename T, typename A, typename Op>
static gp_status gp_seg_run(gp_context *ctx, const void *d_in, const uint64_t *d_offsets,
                            size_t row_len, size_t nseg, double mean_len, void *d_out) {
  return gp_seg_launch<T, gp_seg_plain<T, A, Op>, 1>(ctx, d_in, d_offsets, row_len, nseg, mean_len, d_out);
}
/* float SUM takes the exact policy (the F32 accumulator type in the dispatch is unused) */
template <> gp_status gp_seg_run<float, double, gp_rop_sum>(gp_context *ctx, const void *d_in,
                                                            const uint64_t *d_offsets, size_t row_len,
                                                            size_t nseg, double mean_len, void *d_out) {
  return gp_seg_launch<float, gp_seg_exact<float>, GP_XS_F32_LIMBS + 1>(ctx, d_in, d_offsets, row_len,
                                                                        nseg, mean_len, d_out);
}
template <> gp_status gp_seg_run<double, double, gp_rop_sum>(gp_context *ctx, const void *d_in,
                                                             const uint64_t *d_offsets, size_t row_len,
                                                             size_t nseg, double mean_len, void *d_out) {
  return gp_seg_launch<double, gp_seg_exact<double>, GP_XS_F64_LIMBS + 1>(ctx, d_in, d_offsets, row_len,
                                                                          nseg, mean_len, d_out);
}

extern "C" gp_status gp_cuda_reduce_segments(gp_context *ctx, gp_op op, gp_dtype type,
                                             const void *d_in, const uint64_t *d_offsets,
                                             size_t row_len, size_t nseg, double mean_len,
                                             void *d_out) {
  GP_REDUCE_DISPATCH(gp_seg_run, double, op, type, ctx, d_in, d_offsets, row_len, nseg, mean_len, d_out)
  return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT, "unknown dtype %d", (int)type);
}
