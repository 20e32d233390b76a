/* gp_argreduce_rows and gp_argreduce_segments_offsets on CUDA: each segment's first
 * minimum (maximum) and its position within the segment. The best (key, index) pair
 * (argreduce.cuh) is the lexicographic minimum, which is associative and commutative,
 * so every split of a segment below gives what gp_argreduce of that segment alone gives.
 *
 * - Short segments: G lanes a segment (1 .. 32, about four 16-byte vectors a lane),
 *   32 / G segments a warp at a time; each lane scans its share in increasing index
 *   order (scalars up to a 16-byte boundary, vectors four in flight, the tail), then the
 *   G lanes combine by shuffles and the first stores the value and position.
 * - Long segments, when there are too few to fill the GPU (rows of at least two chunks;
 *   offsets segments of at least two chunks, listed by the host from its offsets): a
 *   warp per chunk stores its best pair, then a warp per long segment combines the
 *   segment's chunk pairs. */
#include "cuda/common/warp_reduce.cuh"
#include "cuda/common/resident.cuh"
#include "cuda/reduce/reduce_cuda.h"
#include "cuda/reduce/argreduce.cuh"

#include <cuda_runtime.h>
#include <stdint.h>

#define GP_AS_THREADS 256u
#define GP_AS_WARPS (GP_AS_THREADS / GP_WARP_SIZE)
/* A chunk: 8192 elements (the segmented sums' chunk, reduce_segments.cu), doubled for
 * offsets until the call has at most about GP_AS_MAX_TASKS chunks. Rows of 2 x 8192
 * elements or more are split into chunks of 1024 .. 8192, about 16384 a call (a warp
 * each: a call of few long rows filled few of the GPU's warp slots), at most
 * GP_AS_MAX_CHUNKS a row and GP_AS_MAX_TASKS in all. H100, 2026-12-05 (s33-final,
 * docs/perf/reduce.md), x cub::DeviceSegmentedReduce::ArgMax, chunks of 8192 -> sized to
 * the call: f32 2^24 rows of 16384 / 32768 / 65536 0.79 / 0.80 / 0.95x -> 0.90 / 0.91 /
 * 1.09x, 2^26 0.89-0.92x -> 0.93-0.95x; f64 2^24 0.87-1.00x -> 0.91-1.03x, but 16 rows of
 * 2^20 f64 8.1x -> 7.6x and f64 2^26 0.5-1% slower. Offsets kept 8192: chunks sized to the
 * call cost power-law offsets 30% (s33-a). */
#define GP_AS_CHUNK ((size_t)8192)
#define GP_AS_MAX_CHUNKS ((size_t)1024)
#define GP_AS_MAX_TASKS ((size_t)32768)

/* Thread t of nt: the best (key, index) of its elements of [b, e) (indices absolute),
 * (~0, NONE) when it has none. Its indices rise through the three loops, so the batch
 * rule of gp_arg_batch (a strictly better key replaces) keeps the first occurrence. */
template <typename T>
__device__ __forceinline__ void gp_as_scan(const T *__restrict__ in, size_t b, size_t e,
                                           unsigned t, unsigned nt, int mx, gp_arg_u64 &bk,
                                           gp_arg_u64 &bi) {
  constexpr unsigned W = 16 / sizeof(T);
  typedef typename gp_arg_kt<sizeof(T)>::type KT;
  KT tk = (KT)~(KT)0;
  bi = GP_ARG_NONE;
  const size_t mis = ((uintptr_t)(in + b) / sizeof(T)) % W;
  size_t a = b + (mis ? W - mis : 0);
  if (a > e) a = e;
  for (size_t i = b + t; i < a; i += nt) {
    const KT k[1] = {(KT)gp_arg_key<T>(__ldg(in + i), mx)};
    const gp_arg_u64 ix[1] = {i};
    gp_arg_batch(tk, bi, k, ix);
  }
  const size_t nv = (e - a) / W;
  const uint4 *p = reinterpret_cast<const uint4 *>(in + a);
  size_t v = t;
  for (; v + 3 * (size_t)nt < nv; v += 4 * (size_t)nt) {
    union { uint4 u; T x[W]; } q[4];
#pragma unroll
    for (unsigned u = 0; u < 4; u++) q[u].u = __ldg(p + v + u * nt);
    KT k[4 * W];
    gp_arg_u64 ix[4 * W];
#pragma unroll
    for (unsigned u = 0; u < 4; u++)
#pragma unroll
      for (unsigned c = 0; c < W; c++) {
        k[u * W + c] = (KT)gp_arg_key<T>(q[u].x[c], mx);
        ix[u * W + c] = a + (v + u * nt) * W + c;
      }
    gp_arg_batch(tk, bi, k, ix);
  }
  for (; v < nv; v += nt) {
    union { uint4 u; T x[W]; } q;
    q.u = __ldg(p + v);
    KT k[W];
    gp_arg_u64 ix[W];
#pragma unroll
    for (unsigned c = 0; c < W; c++) {
      k[c] = (KT)gp_arg_key<T>(q.x[c], mx);
      ix[c] = a + v * W + c;
    }
    gp_arg_batch(tk, bi, k, ix);
  }
  for (size_t i = a + nv * W + t; i < e; i += nt) {
    const KT k[1] = {(KT)gp_arg_key<T>(__ldg(in + i), mx)};
    const gp_arg_u64 ix[1] = {i};
    gp_arg_batch(tk, bi, k, ix);
  }
  /* (all-ones, NONE) loses to every real pair, a 64-bit all-ones key included */
  bk = bi == GP_ARG_NONE ? ~0ull : (gp_arg_u64)tk;
}

/* The first lane of each group of G gets the group's best pair (every lane calls it). */
template <unsigned G>
__device__ __forceinline__ void gp_as_group(gp_arg_u64 &bk, gp_arg_u64 &bi) {
#pragma unroll
  for (unsigned o = G / 2; o > 0; o /= 2)
    gp_arg_take(bk, bi, __shfl_down_sync(GP_FULL_MASK, bk, o, G),
                __shfl_down_sync(GP_FULL_MASK, bi, o, G));
}

/* Segment s = [b, e) has its best at absolute index bi. */
template <typename T>
__device__ __forceinline__ void gp_as_store(const T *__restrict__ in, size_t s, size_t b,
                                            gp_arg_u64 bi, T *vout, gp_arg_u64 *iout) {
  if (vout) vout[s] = gp_arg_canon(__ldg(in + bi));
  if (iout) iout[s] = bi - b;
}

/* Where the segments are: device offsets, or (off NULL) rows of `len`. */
struct gp_as_segs {
  const uint64_t *off;
  size_t len;
  __device__ __forceinline__ void at(size_t s, size_t &b, size_t &e) const {
    if (off) {
      b = (size_t)off[s];
      e = (size_t)off[s + 1];
    } else {
      b = s * len;
      e = b + len;
    }
  }
};

/* G lanes a segment; segments of long_len elements or more are the chunk kernels'. */
template <typename T, unsigned G>
__global__ __launch_bounds__(GP_AS_THREADS) void gp_as_group_kernel(
    const T *__restrict__ in, gp_as_segs segs, size_t nseg, size_t long_len, int mx, T *vout,
    gp_arg_u64 *iout) {
  const unsigned lane = threadIdx.x % GP_WARP_SIZE, sub = lane % G;
  const size_t per_warp = GP_WARP_SIZE / G;
  const size_t w = ((size_t)blockIdx.x * GP_AS_THREADS + threadIdx.x) / GP_WARP_SIZE;
  const size_t nw = (size_t)gridDim.x * GP_AS_WARPS;
  for (size_t base = w * per_warp; base < nseg; base += nw * per_warp) { /* warp-uniform */
    const size_t s = base + lane / G;
    size_t b = 0, e = 0;
    if (s < nseg) segs.at(s, b, e);
    const bool live = s < nseg && e - b < long_len;
    if (!live) b = e = 0;
    gp_arg_u64 bk, bi;
    gp_as_scan<T>(in, b, e, sub, G, mx, bk, bi);
    gp_as_group<G>(bk, bi);
    if (live && sub == 0) gp_as_store(in, s, b, bi, vout, iout);
  }
}

/* The split of long segments: chunk t is [task[2t], task[2t + 1]) and long segment i is
 * segment lng[2i] of the offsets, its chunks lng[2i + 1] .. lng[2i + 3] (lists the host
 * made); or, task NULL, rows of `len` elements, `chunks` chunks of `per` elements each
 * (chunk j of row s is chunk s * chunks + j), every row long. */
struct gp_as_split_of {
  const uint64_t *task, *lng, *off;
  size_t len, chunks, per;
  __device__ __forceinline__ void chunk(size_t t, size_t &b, size_t &e) const {
    if (task) {
      b = (size_t)task[2 * t];
      e = (size_t)task[2 * t + 1];
      return;
    }
    const size_t s = t / chunks, rb = s * len;
    b = rb + (t - s * chunks) * per;
    e = b + per < rb + len ? b + per : rb + len;
    if (b > e) b = e;
  }
  __device__ __forceinline__ void seg(size_t i, size_t &s, size_t &b, size_t &t0,
                                      size_t &t1) const {
    if (task) {
      s = (size_t)lng[2 * i];
      b = (size_t)off[s];
      t0 = (size_t)lng[2 * i + 1];
      t1 = (size_t)lng[2 * i + 3];
      return;
    }
    s = i;
    b = i * len;
    t0 = i * chunks;
    t1 = t0 + chunks;
  }
};

/* A warp a chunk: its best pair to rec[t]. */
template <typename T>
__global__ __launch_bounds__(GP_AS_THREADS) void gp_as_chunk_kernel(const T *__restrict__ in,
                                                                    gp_as_split_of sp,
                                                                    size_t ntasks, int mx,
                                                                    gp_arg_pair *rec) {
  const unsigned lane = threadIdx.x % GP_WARP_SIZE;
  const size_t nw = (size_t)gridDim.x * GP_AS_WARPS;
  for (size_t t = ((size_t)blockIdx.x * GP_AS_THREADS + threadIdx.x) / GP_WARP_SIZE; t < ntasks;
       t += nw) {
    size_t b, e;
    sp.chunk(t, b, e);
    gp_arg_u64 bk, bi;
    gp_as_scan<T>(in, b, e, lane, GP_WARP_SIZE, mx, bk, bi);
    gp_as_group<GP_WARP_SIZE>(bk, bi);
    if (lane == 0) rec[t] = {bk, bi};
  }
}

/* A warp a long segment: the best of its chunks' pairs. */
template <typename T>
__global__ __launch_bounds__(GP_AS_THREADS) void gp_as_combine_kernel(
    const T *__restrict__ in, gp_as_split_of sp, size_t nlong, const gp_arg_pair *rec, T *vout,
    gp_arg_u64 *iout) {
  const unsigned lane = threadIdx.x % GP_WARP_SIZE;
  const size_t nw = (size_t)gridDim.x * GP_AS_WARPS;
  for (size_t i = ((size_t)blockIdx.x * GP_AS_THREADS + threadIdx.x) / GP_WARP_SIZE; i < nlong;
       i += nw) {
    size_t s, b, t0, t1;
    sp.seg(i, s, b, t0, t1);
    gp_arg_u64 bk = ~0ull, bi = ~0ull;
    for (size_t t = t0 + lane; t < t1; t += GP_WARP_SIZE) gp_arg_take(bk, bi, rec[t].k, rec[t].i);
    gp_as_group<GP_WARP_SIZE>(bk, bi);
    if (lane == 0) gp_as_store(in, s, b, bi, vout, iout);
  }
}

/* ---- launch ------------------------------------------------------------------------- */
/* A grid of at most `want` blocks, all resident at once (the kernels loop). */
template <typename K>
static unsigned gp_as_grid(gp_context *ctx, K kernel, int *per_sm, size_t want) {
  const size_t res = gp_resident_blocks(ctx, kernel, GP_AS_THREADS, per_sm);
  return (unsigned)(want < 1 ? 1 : want < res ? want : res);
}

template <typename T, unsigned G>
static gp_status gp_as_group_launch(gp_context *ctx, const T *in, gp_as_segs segs, size_t nseg,
                                    size_t long_len, int mx, T *vout, gp_arg_u64 *iout) {
  static int per_sm[GP_RESIDENT_MAX_DEVICES];
  const size_t per_block = GP_AS_THREADS / G;
  const unsigned g = gp_as_grid(ctx, gp_as_group_kernel<T, G>, per_sm,
                                (nseg + per_block - 1) / per_block);
  gp_as_group_kernel<T, G><<<g, GP_AS_THREADS, 0, (cudaStream_t)ctx->stream>>>(
      in, segs, nseg, long_len, mx, vout, iout);
  GP_LAUNCH_CHECK(ctx, "gp_as_group_kernel", g, GP_AS_THREADS, 0);
  return GP_OK;
}

/* Lanes a segment for segments of about `len` elements: about four 16-byte vectors a
 * lane, a warp from 32 up. */
template <typename T>
static gp_status gp_as_groups(gp_context *ctx, const T *in, gp_as_segs segs, size_t nseg,
                              size_t len, size_t long_len, int mx, T *vout, gp_arg_u64 *iout) {
  const size_t v = len / (4 * (16 / sizeof(T)));
  if (v < 2) return gp_as_group_launch<T, 1>(ctx, in, segs, nseg, long_len, mx, vout, iout);
  if (v < 4) return gp_as_group_launch<T, 2>(ctx, in, segs, nseg, long_len, mx, vout, iout);
  if (v < 8) return gp_as_group_launch<T, 4>(ctx, in, segs, nseg, long_len, mx, vout, iout);
  if (v < 16) return gp_as_group_launch<T, 8>(ctx, in, segs, nseg, long_len, mx, vout, iout);
  if (v < 32) return gp_as_group_launch<T, 16>(ctx, in, segs, nseg, long_len, mx, vout, iout);
  return gp_as_group_launch<T, 32>(ctx, in, segs, nseg, long_len, mx, vout, iout);
}

template <typename T>
static gp_status gp_as_split(gp_context *ctx, const T *in, gp_as_split_of sp, size_t ntasks,
                             size_t nlong, int mx, gp_arg_pair *rec, T *vout, gp_arg_u64 *iout) {
  static int per_sm_c[GP_RESIDENT_MAX_DEVICES], per_sm_l[GP_RESIDENT_MAX_DEVICES];
  cudaStream_t st = (cudaStream_t)ctx->stream;
  const unsigned g = gp_as_grid(ctx, gp_as_chunk_kernel<T>, per_sm_c,
                                (ntasks + GP_AS_WARPS - 1) / GP_AS_WARPS);
  gp_as_chunk_kernel<T><<<g, GP_AS_THREADS, 0, st>>>(in, sp, ntasks, mx, rec);
  GP_LAUNCH_CHECK(ctx, "gp_as_chunk_kernel", g, GP_AS_THREADS, 0);
  const unsigned gl = gp_as_grid(ctx, gp_as_combine_kernel<T>, per_sm_l,
                                 (nlong + GP_AS_WARPS - 1) / GP_AS_WARPS);
  gp_as_combine_kernel<T><<<gl, GP_AS_THREADS, 0, st>>>(in, sp, nlong, rec, vout, iout);
  GP_LAUNCH_CHECK(ctx, "gp_as_combine_kernel", gl, GP_AS_THREADS, 0);
  return GP_OK;
}

/* Chunks a row for the split path, 1 when rows are not split. */
static size_t gp_as_row_chunks_of(size_t row_len, size_t nrows) {
  if (nrows == 0 || row_len < 2 * GP_AS_CHUNK) return 1;
  /* rows long enough to split: chunks of 1024 .. 8192, so that the call makes about
     16384 of them (a warp each) */
  size_t c = 1024;
  while (c < GP_AS_CHUNK && row_len / c * nrows > 16384) c *= 2;
  size_t r = (row_len + c - 1) / c;
  if (r > GP_AS_MAX_CHUNKS) r = GP_AS_MAX_CHUNKS;
  if (r > GP_AS_MAX_TASKS / nrows) r = GP_AS_MAX_TASKS / nrows;
  return r < 2 ? 1 : r;
}

template <typename T>
static gp_status gp_as_rows_run(gp_context *ctx, int mx, const void *d_in, size_t row_len,
                                size_t nrows, void *scratch, void *d_value, uint64_t *d_index) {
  const T *in = static_cast<const T *>(d_in);
  T *vout = static_cast<T *>(d_value);
  gp_arg_u64 *iout = reinterpret_cast<gp_arg_u64 *>(d_index);
  const size_t chunks = gp_as_row_chunks_of(row_len, nrows);
  if (chunks == 1)
    return gp_as_groups<T>(ctx, in, gp_as_segs{NULL, row_len}, nrows, row_len, ~(size_t)0, mx,
                           vout, iout);
  /* chunk starts stay 16-byte aligned when the rows are */
  const size_t per = ((row_len + chunks - 1) / chunks + 3) & ~(size_t)3;
  return gp_as_split<T>(ctx, in, gp_as_split_of{NULL, NULL, NULL, row_len, chunks, per},
                        nrows * chunks, nrows, mx, static_cast<gp_arg_pair *>(scratch), vout,
                        iout);
}

template <typename T>
static gp_status gp_as_offs_run(gp_context *ctx, int mx, const void *d_in, const uint64_t *d_off,
                                size_t nseg, const gp_cuda_argseg_plan *plan,
                                const uint64_t *d_words, void *scratch, void *d_value,
                                uint64_t *d_index) {
  const T *in = static_cast<const T *>(d_in);
  T *vout = static_cast<T *>(d_value);
  gp_arg_u64 *iout = reinterpret_cast<gp_arg_u64 *>(d_index);
  gp_status s = GP_OK;
  if (plan->nlong < nseg)
    s = gp_as_groups<T>(ctx, in, gp_as_segs{d_off, 0}, nseg, plan->short_avg, plan->long_len,
                        mx, vout, iout);
  if (s != GP_OK || plan->nlong == 0) return s;
  return gp_as_split<T>(ctx, in,
                        gp_as_split_of{d_words, d_words + 2 * plan->ntasks, d_off, 0, 0, 0},
                        plan->ntasks, plan->nlong, mx, static_cast<gp_arg_pair *>(scratch),
                        vout, iout);
}

/* type to RUN<T>(args...) */
#define GP_AS_DISPATCH(RUN, type, ...)                                                    \
  switch (type) {                                                                          \
  case GP_F32: return RUN<float>(__VA_ARGS__);                                             \
  case GP_F64: return RUN<double>(__VA_ARGS__);                                            \
  case GP_I32: return RUN<int>(__VA_ARGS__);                                               \
  case GP_I64: return RUN<long long>(__VA_ARGS__);                                         \
  case GP_U32: return RUN<unsigned>(__VA_ARGS__);                                          \
  case GP_U64: return RUN<unsigned long long>(__VA_ARGS__);                                \
  }

extern "C" size_t gp_cuda_argreduce_rows_scratch_bytes(size_t row_len, size_t nrows) {
  const size_t chunks = gp_as_row_chunks_of(row_len, nrows);
  return chunks > 1 ? nrows * chunks * sizeof(gp_arg_pair) : 0;
}

extern "C" gp_status gp_cuda_argreduce_rows(gp_context *ctx, gp_op op, gp_dtype type,
                                            const void *d_in, size_t row_len, size_t nrows,
                                            void *scratch, void *d_value, uint64_t *d_index) {
  GP_AS_DISPATCH(gp_as_rows_run, type, ctx, op == GP_MAX, d_in, row_len, nrows, scratch, d_value,
                 d_index)
  return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT, "unknown dtype %d", (int)type);
}

/* The chunk size: GP_AS_CHUNK, doubled until the call's elements make at most
 * GP_AS_MAX_TASKS chunks; segments of two chunks or more are long. */
static uint64_t gp_as_offs_chunk(const uint64_t *h_off, size_t nseg) {
  const uint64_t total = h_off[nseg] - h_off[0];
  uint64_t c = GP_AS_CHUNK;
  while (total / c > GP_AS_MAX_TASKS) c *= 2;
  return c;
}

extern "C" size_t gp_cuda_argreduce_offsets_plan(const uint64_t *h_off, size_t nseg,
                                                 gp_cuda_argseg_plan *plan) {
  const uint64_t c = gp_as_offs_chunk(h_off, nseg);
  plan->long_len = 2 * c;
  plan->ntasks = plan->nlong = 0;
  uint64_t short_total = 0;
  for (size_t s = 0; s < nseg; s++) {
    const uint64_t len = h_off[s + 1] - h_off[s];
    if (len < plan->long_len) {
      short_total += len;
    } else {
      plan->nlong++;
      plan->ntasks += (size_t)((len + c - 1) / c);
    }
  }
  const size_t nshort = nseg - plan->nlong;
  plan->short_avg = nshort ? (size_t)(short_total / nshort) : 0;
  return plan->nlong ? 2 * plan->ntasks + 2 * plan->nlong + 2 : 0;
}

extern "C" void gp_cuda_argreduce_offsets_plan_fill(const uint64_t *h_off, size_t nseg,
                                                    const gp_cuda_argseg_plan *plan,
                                                    uint64_t *words) {
  const uint64_t c = plan->long_len / 2;
  uint64_t *lng = words + 2 * plan->ntasks;
  size_t t = 0, i = 0;
  for (size_t s = 0; s < nseg; s++) {
    const uint64_t b = h_off[s], e = h_off[s + 1];
    if (e - b < plan->long_len) continue;
    lng[2 * i] = s;
    lng[2 * i + 1] = t;
    i++;
    for (uint64_t cb = b; cb < e; cb += c, t++) {
      words[2 * t] = cb;
      words[2 * t + 1] = e - cb > c ? cb + c : e;
    }
  }
  lng[2 * i] = 0;
  lng[2 * i + 1] = t; /* the last long segment's end */
}

extern "C" size_t gp_cuda_argreduce_offsets_scratch_bytes(const gp_cuda_argseg_plan *plan) {
  return plan->ntasks * sizeof(gp_arg_pair);
}

extern "C" gp_status gp_cuda_argreduce_offsets(gp_context *ctx, gp_op op, gp_dtype type,
                                               const void *d_in, const uint64_t *d_off,
                                               size_t nseg, const gp_cuda_argseg_plan *plan,
                                               const uint64_t *d_words, void *scratch,
                                               void *d_value, uint64_t *d_index) {
  GP_AS_DISPATCH(gp_as_offs_run, type, ctx, op == GP_MAX, d_in, d_off, nseg, plan, d_words,
                 scratch, d_value, d_index)
  return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT, "unknown dtype %d", (int)type);
}
