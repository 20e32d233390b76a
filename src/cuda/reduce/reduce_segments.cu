/* gp_reduce_rows on CUDA: one result per row, each with the bits gp_reduce (AUTO)
 * gives for that row alone. Float SUM is the exact sum rounded once (core/exact_sum.h),
 * MIN/MAX do not depend on order and integer SUM is exact modulo 2^64, so any grouping
 * of the additions is allowed. The host picks by the row length: short rows get a group
 * of 1 to 32 lanes each (about four 16-byte loads a lane), longer ones a warp; rows of
 * at least two chunks are split into chunks, a warp each, whose records a second kernel
 * combines. Float SUM keeps exact expansions per lane (Fast2Sum, core/exact_sum.h). A
 * lane group tries the expansions alone (taking an input only when that is exact) and
 * redoes a row they cannot hold with one thread's superaccumulator; warps add as the
 * main kernel does (F32: gp_xs_carry_head / tail, the head takes every input and its
 * errors go to the tail; F64: gp_xs_fast_add2) and send what does not fit to a shared
 * superaccumulator, and when nothing went there (the usual case) the head and tail
 * already hold the exact sum and one rounding finishes; otherwise the superaccumulator
 * is rounded. Segments by offsets: reduce_offsets.cu. */
#include "cuda/reduce/reduce_segments.cuh"
#include "cuda/reduce/reduce_cuda.h"

#ifndef GP_SEG_GROUP_MAX_LEN
#define GP_SEG_GROUP_MAX_LEN 512u /* row length up to which lane groups take the rows */
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

/* G lanes per row (short ones: 32 / G rows per warp at a time, gp_seg_group_one). */
template <typename T, typename P, unsigned G>
__global__ __launch_bounds__(GP_SEG_THREADS, GP_SEG_MIN_BLOCKS) void gp_seg_group_kernel(
    const T *__restrict__ in, size_t row_len, size_t nseg, typename P::Out *out) {
  const unsigned lane = threadIdx.x % GP_WARP_SIZE;
  const size_t per_warp = GP_WARP_SIZE / G;
  const size_t w = ((size_t)blockIdx.x * GP_SEG_THREADS + threadIdx.x) / GP_WARP_SIZE;
  const size_t nw = (size_t)gridDim.x * GP_SEG_WARPS;
  for (size_t base = w * per_warp; base < nseg; base += nw * per_warp) { /* warp-uniform */
    const size_t s = base + lane / G;
    const bool live = s < nseg;
    const size_t b = live ? s * row_len : 0, e = live ? b + row_len : 0;
    gp_seg_group_one<T, P, G>(in, b, e, live, out + s);
  }
}

/* One warp per task: a whole row (chunks == 1: its result goes to out), or chunk j of
 * row s (task s * chunks + j, chunk elements each: its state and, when it was used, its
 * accumulator go to the records for gp_seg_combine_kernel). acc: one per warp. */
template <typename T, typename P, int ACC_LIMBS>
__global__ __launch_bounds__(GP_SEG_THREADS, GP_SEG_MIN_BLOCKS) void gp_seg_warp_kernel(
    const T *__restrict__ in, size_t row_len, size_t nseg, size_t chunks, size_t chunk,
    typename P::Out *out, gp_seg_rec<typename P::S> *rec, gp_u64 *limbs) {
  __shared__ gp_u64 sacc[GP_SEG_WARPS][ACC_LIMBS];
  for (unsigned i = threadIdx.x; i < GP_SEG_WARPS * ACC_LIMBS; i += GP_SEG_THREADS) (&sacc[0][0])[i] = 0;
  __syncthreads();
  const unsigned lane = threadIdx.x % GP_WARP_SIZE, warp = threadIdx.x / GP_WARP_SIZE;
  gp_u64 *acc = sacc[warp];
  const size_t nwarps = (size_t)gridDim.x * GP_SEG_WARPS;
  for (size_t t = (size_t)blockIdx.x * GP_SEG_WARPS + warp; t < nseg * chunks; t += nwarps) {
    const size_t s = chunks == 1 ? t : t / chunks;
    size_t b = s * row_len, e = b + row_len;
    if (chunks > 1) {
      const size_t cb = b + (t - s * chunks) * chunk;
      b = cb < e ? cb : e; /* an empty last chunk: the identity */
      if (e - b > chunk) e = b + chunk;
    } else if (b >= e) { /* warp-uniform */
      if (lane == 0) out[s] = P::empty();
      continue;
    }
    const typename P::S st = gp_seg_warp_sum<T, P>(in, b, e, acc);
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

/* Chunks per row for the split path, 1 when the row is not split: rows of at least two
 * chunks, as many chunks as fit the caps. */
static size_t gp_seg_chunks(size_t row_len, size_t nseg) {
  if (nseg == 0 || row_len < 2 * GP_SEG_CHUNK) return 1;
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

template <typename T, typename P, unsigned G>
static gp_status gp_seg_group(gp_context *ctx, const T *in, size_t row_len, size_t nseg,
                              typename P::Out *out) {
  static int per_sm[GP_RESIDENT_MAX_DEVICES];
  const size_t per_block = GP_SEG_THREADS / G;
  const unsigned g = gp_seg_grid(ctx, gp_seg_group_kernel<T, P, G>, per_sm,
                                 (nseg + per_block - 1) / per_block);
  gp_seg_group_kernel<T, P, G><<<g, GP_SEG_THREADS, 0, (cudaStream_t)ctx->stream>>>(in, row_len, nseg, out);
  GP_LAUNCH_CHECK(ctx, "gp_seg_group_kernel", g, GP_SEG_THREADS, 0);
  return GP_OK;
}

template <typename T, typename P, int ACC_LIMBS>
static gp_status gp_seg_launch(gp_context *ctx, const void *d_in, size_t row_len, size_t nseg,
                               void *scratch, void *d_out) {
  static int per_sm_warp[GP_RESIDENT_MAX_DEVICES], per_sm_comb[GP_RESIDENT_MAX_DEVICES];
  const T *in = static_cast<const T *>(d_in);
  typename P::Out *out = static_cast<typename P::Out *>(d_out);
  cudaStream_t st = (cudaStream_t)ctx->stream;
  const size_t chunks = gp_seg_chunks(row_len, nseg);
  if (chunks == 1 && row_len <= GP_SEG_GROUP_MAX_LEN) { /* ~ four 16-byte vectors a lane */
    const size_t v = row_len / (4 * (16 / sizeof(T)));
    if (v < 2) return gp_seg_group<T, P, 1>(ctx, in, row_len, nseg, out);
    if (v < 4) return gp_seg_group<T, P, 2>(ctx, in, row_len, nseg, out);
    if (v < 8) return gp_seg_group<T, P, 4>(ctx, in, row_len, nseg, out);
    if (v < 16) return gp_seg_group<T, P, 8>(ctx, in, row_len, nseg, out);
    if (v < 32) return gp_seg_group<T, P, 16>(ctx, in, row_len, nseg, out);
    return gp_seg_group<T, P, 32>(ctx, in, row_len, nseg, out);
  }
  /* longer rows take warps: a block a row of 4096 .. 16383 elements was 0-67% slower
     (H200, 2026-12-02, docs/perf/reduce.md) */
  const size_t tasks = nseg * chunks;
  /* chunk starts stay 16-byte aligned when the rows are */
  const size_t per = ((row_len + chunks - 1) / chunks + 3) & ~(size_t)3;
  gp_seg_rec<typename P::S> *rec = static_cast<gp_seg_rec<typename P::S> *>(scratch);
  gp_u64 *limbs = chunks == 1 ? NULL : reinterpret_cast<gp_u64 *>(
      static_cast<char *>(scratch) + ((tasks * sizeof(*rec) + 255) & ~(size_t)255));
  const unsigned g = gp_seg_grid(ctx, gp_seg_warp_kernel<T, P, ACC_LIMBS>, per_sm_warp,
                                 (tasks + GP_SEG_WARPS - 1) / GP_SEG_WARPS);
  gp_seg_warp_kernel<T, P, ACC_LIMBS><<<g, GP_SEG_THREADS, 0, st>>>(in, row_len, nseg, chunks, per,
                                                                   out, rec, limbs);
  GP_LAUNCH_CHECK(ctx, "gp_seg_warp_kernel", g, GP_SEG_THREADS, 0);
  if (chunks == 1) return GP_OK;
  const unsigned gc = gp_seg_grid(ctx, gp_seg_combine_kernel<T, P, ACC_LIMBS>, per_sm_comb,
                                  (nseg + GP_SEG_WARPS - 1) / GP_SEG_WARPS);
  gp_seg_combine_kernel<T, P, ACC_LIMBS><<<gc, GP_SEG_THREADS, 0, st>>>(rec, limbs, nseg, chunks, out);
  GP_LAUNCH_CHECK(ctx, "gp_seg_combine_kernel", gc, GP_SEG_THREADS, 0);
  return GP_OK;
}

/* One entry per (policy, job): the launch, or (scratch_only) the scratch bytes. */
template <typename T, typename P, int ACC_LIMBS>
static gp_status gp_seg_go(gp_context *ctx, const void *d_in, size_t row_len, size_t nseg,
                           void *scratch, void *d_out, size_t *scratch_bytes) {
  if (scratch_bytes) {
    const size_t chunks = gp_seg_chunks(row_len, nseg);
    *scratch_bytes = chunks > 1 ? gp_seg_scratch<T, P, ACC_LIMBS>(nseg * chunks) : 0;
    return GP_OK;
  }
  return gp_seg_launch<T, P, ACC_LIMBS>(ctx, d_in, row_len, nseg, scratch, d_out);
}

#define GP_SEG_ARGS                                                                        \
  gp_context *ctx, const void *d_in, size_t row_len, size_t nseg, void *scratch, void *d_out, \
      size_t *scratch_bytes
#define GP_SEG_PASS ctx, d_in, row_len, nseg, scratch, d_out, scratch_bytes

GP_SEG_POLICY_RUN(gp_seg_run, gp_seg_go, GP_SEG_ARGS, GP_SEG_PASS)

/* the dispatch on (op, type); GP_ERR_INVALID_ARGUMENT for an unknown type, unreported */
static gp_status gp_seg_dispatch(gp_op op, gp_dtype type, GP_SEG_ARGS) {
  GP_REDUCE_DISPATCH(gp_seg_run, double, op, type, GP_SEG_PASS)
  return GP_ERR_INVALID_ARGUMENT;
}

extern "C" size_t gp_cuda_reduce_rows_scratch_bytes(gp_op op, gp_dtype type, size_t row_len,
                                                    size_t nrows) {
  size_t bytes = 0;
  (void)gp_seg_dispatch(op, type, NULL, NULL, row_len, nrows, NULL, NULL, &bytes);
  return bytes;
}

extern "C" gp_status gp_cuda_reduce_rows(gp_context *ctx, gp_op op, gp_dtype type,
                                         const void *d_in, size_t row_len, size_t nrows,
                                         void *scratch, void *d_out) {
  const gp_status s = gp_seg_dispatch(op, type, ctx, d_in, row_len, nrows, scratch, d_out, NULL);
  if (s == GP_ERR_INVALID_ARGUMENT) return gp_fail(ctx, s, "unknown dtype %d", (int)type);
  return s;
}
