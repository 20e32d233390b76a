/* gp_argreduce on CUDA: arg-min / arg-max in one launch. Each thread walks its 16-byte
 * vectors in increasing index order keeping the best (key, index) of core/argreduce.h
 * (keys as wide as the elements; see gp_arg_batch), the block combines lexicographically through
 * warp shuffles, each block stores its pair, and the last block (ticket) combines the
 * pairs and writes the value and index. Lexicographic min is associative and
 * commutative, so the answer does not depend on the grid. */
#include "cuda/common/load16.cuh"
#include "cuda/common/warp_reduce.cuh"
#include "cuda/common/resident.cuh"
#include "cuda/common/ticket.cuh"
#include "cuda/reduce/reduce_cuda.h"
#include "cuda/reduce/argreduce.cuh"

#include <cuda_runtime.h>
#include <stdint.h>

#define GP_ARG_THREADS 256u
#ifndef GP_ARG_UNROLL
#define GP_ARG_UNROLL 4u /* 16-byte loads in flight per thread */
#endif
#define GP_ARG_MAX_BLOCKS 4096u /* at most this many partial pairs in the scratch */

/* The grid, from t = the input's unrolled iterations (tiles) and R = the resident
 * blocks: one tile a block up to 3/4 R, two tiles a block up to R, four from there (at
 * most R blocks). Measured on the H200 (2026-12-02, docs/perf/reduce.md, s9-e): two or
 * four tiles a block at every size were 8-48% slower at 2^18-2^20 elements, but f32
 * 2^22 (t ~ R) 11% faster with two and 2^23 8% faster with four (i32 3%). */
#ifndef GP_ARG_GRID_RULE
#define GP_ARG_GRID_RULE 1
#endif
/* partials each thread of the last block loads before it compares them */
#ifndef GP_ARG_LAST_LOADS
#define GP_ARG_LAST_LOADS 4u
#endif

/* thread 0 gets the block's best pair; every thread must call it */
__device__ __forceinline__ void gp_arg_block(gp_arg_u64 &bk, gp_arg_u64 &bi, gp_arg_pair *sh) {
  const unsigned lane = threadIdx.x % GP_WARP_SIZE, warp = threadIdx.x / GP_WARP_SIZE;
#pragma unroll
  for (int o = GP_WARP_SIZE / 2; o > 0; o /= 2)
    gp_arg_take(bk, bi, __shfl_down_sync(GP_FULL_MASK, bk, o), __shfl_down_sync(GP_FULL_MASK, bi, o));
  if (lane == 0) sh[warp] = {bk, bi};
  __syncthreads();
  if (warp == 0) {
    bk = ~0ull;
    bi = ~0ull;
    if (lane < GP_ARG_THREADS / GP_WARP_SIZE) { bk = sh[lane].k; bi = sh[lane].i; }
#pragma unroll
    for (int o = GP_WARP_SIZE / 2; o > 0; o /= 2)
      gp_arg_take(bk, bi, __shfl_down_sync(GP_FULL_MASK, bk, o), __shfl_down_sync(GP_FULL_MASK, bi, o));
  }
}

template <typename T, int LD, int MX>
__global__ __launch_bounds__(GP_ARG_THREADS) void gp_argreduce_kernel(
    const T *__restrict__ in, size_t n, gp_arg_pair *partials, unsigned *ticket, T *vout,
    gp_arg_u64 *iout) {
  constexpr unsigned W = 16 / sizeof(T);
  typedef typename gp_arg_kt<sizeof(T)>::type KT;
  __shared__ gp_arg_pair sh[GP_WARP_SIZE];
  __shared__ unsigned am_last;
  const size_t stride = (size_t)gridDim.x * GP_ARG_THREADS;
  const size_t g = (size_t)blockIdx.x * GP_ARG_THREADS + threadIdx.x;
  KT tk = (KT)~(KT)0;
  gp_arg_u64 bi = GP_ARG_NONE;
  size_t done = 0; /* elements covered by the vector loop */
  if (LD != GP_LOAD_SCALAR) {
    const size_t nvec = n / W;
    const uint4 *p = reinterpret_cast<const uint4 *>(in);
    size_t v = g;
    for (; v + (GP_ARG_UNROLL - 1) * stride < nvec; v += GP_ARG_UNROLL * stride) {
      union { uint4 u; T t[W]; } x[GP_ARG_UNROLL];
#pragma unroll
      for (unsigned u = 0; u < GP_ARG_UNROLL; u++) x[u].u = gp_ld16<LD>(p + v + u * stride);
      KT k[GP_ARG_UNROLL * W];
      gp_arg_u64 ix[GP_ARG_UNROLL * W];
#pragma unroll
      for (unsigned u = 0; u < GP_ARG_UNROLL; u++)
#pragma unroll
        for (unsigned c = 0; c < W; c++) {
          k[u * W + c] = (KT)gp_arg_key<T>(x[u].t[c], MX);
          ix[u * W + c] = (v + u * stride) * W + c;
        }
      gp_arg_batch(tk, bi, k, ix);
    }
    for (; v < nvec; v += stride) {
      union { uint4 u; T t[W]; } x;
      x.u = gp_ld16<LD>(p + v);
      KT k[W];
      gp_arg_u64 ix[W];
#pragma unroll
      for (unsigned c = 0; c < W; c++) {
        k[c] = (KT)gp_arg_key<T>(x.t[c], MX);
        ix[c] = v * W + c;
      }
      gp_arg_batch(tk, bi, k, ix);
    }
    done = nvec * W;
  }
  for (size_t i = done + g; i < n; i += stride) { /* the tail, or all of a misaligned input */
    const KT k[1] = {(KT)gp_arg_key<T>(__ldg(in + i), MX)};
    const gp_arg_u64 ix[1] = {i};
    gp_arg_batch(tk, bi, k, ix);
  }
  /* (all-ones, NONE) loses to every real pair, a 64-bit all-ones key included */
  gp_arg_u64 bk = bi == GP_ARG_NONE ? ~0ull : (gp_arg_u64)tk;
  gp_arg_block(bk, bi, sh);
  if (gridDim.x > 1) {
    if (threadIdx.x == 0) {
      partials[blockIdx.x] = {bk, bi};
      __threadfence();
      am_last = gp_ticket_acq_rel(ticket) == gridDim.x - 1;
    }
    __syncthreads();
    if (!am_last) return;
    bk = ~0ull;
    bi = ~0ull;
    /* GP_ARG_LAST_LOADS partials a thread in flight, then taken (any order: the best
       pair is the lowest key, then the lowest index) */
    for (unsigned b0 = threadIdx.x; b0 < gridDim.x; b0 += GP_ARG_LAST_LOADS * GP_ARG_THREADS) {
      gp_arg_pair q[GP_ARG_LAST_LOADS];
#pragma unroll
      for (unsigned j = 0; j < GP_ARG_LAST_LOADS; j++) {
        const unsigned b = b0 + j * GP_ARG_THREADS;
        q[j].k = b < gridDim.x ? __ldcg(&partials[b].k) : ~0ull;
        q[j].i = b < gridDim.x ? __ldcg(&partials[b].i) : ~0ull;
      }
#pragma unroll
      for (unsigned j = 0; j < GP_ARG_LAST_LOADS; j++) gp_arg_take(bk, bi, q[j].k, q[j].i);
    }
    __syncthreads(); /* sh is reused */
    gp_arg_block(bk, bi, sh);
  }
  if (threadIdx.x == 0) {
    *vout = gp_arg_canon(in[bi]);
    *iout = bi;
    if (gridDim.x > 1) *ticket = 0;
  }
}

/* Blocks that fit at once. */
template <typename T, int LD, int MX> static unsigned gp_arg_resident(gp_context *ctx) {
  static int per_sm[GP_RESIDENT_MAX_DEVICES];
  return gp_resident_blocks(ctx, gp_argreduce_kernel<T, LD, MX>, GP_ARG_THREADS, per_sm);
}

template <typename T, int LD, int MX>
static gp_status gp_arg_launch(gp_context *ctx, const T *in, size_t n, void *scratch, T *vout,
                               gp_arg_u64 *iout) {
  const size_t per_block = (size_t)GP_ARG_THREADS * GP_ARG_UNROLL * (16 / sizeof(T));
  const size_t tiles = n / per_block + 1;
  const size_t res = gp_arg_resident<T, LD, MX>(ctx);
  size_t g = tiles;
  if (GP_ARG_GRID_RULE && 4 * tiles > 3 * res) g = tiles > res ? (tiles + 3) / 4 : (tiles + 1) / 2;
  if (g > res) g = res;
  if (g > GP_ARG_MAX_BLOCKS) g = GP_ARG_MAX_BLOCKS;
  unsigned *ticket = NULL;
  if (g > 1) {
    gp_status s = gp_cuda_reduce_next_slot(ctx, &ticket, NULL);
    if (s != GP_OK) return s;
  }
  gp_argreduce_kernel<T, LD, MX><<<(unsigned)g, GP_ARG_THREADS, 0, (cudaStream_t)ctx->stream>>>(
      in, n, static_cast<gp_arg_pair *>(scratch), ticket, vout, iout);
  GP_LAUNCH_CHECK(ctx, "gp_argreduce_kernel", g, GP_ARG_THREADS, 0);
  return GP_OK;
}

template <typename T>
static gp_status gp_arg_run(gp_context *ctx, int mx, const void *d_in, size_t n, void *scratch,
                            void *vout, void *iout) {
  const T *in = static_cast<const T *>(d_in);
  T *v = static_cast<T *>(vout);
  gp_arg_u64 *i = static_cast<gp_arg_u64 *>(iout);
  switch (gp_load_mode(in, n * sizeof(T))) {
  case GP_LOAD_SCALAR:
    return mx ? gp_arg_launch<T, GP_LOAD_SCALAR, 1>(ctx, in, n, scratch, v, i)
              : gp_arg_launch<T, GP_LOAD_SCALAR, 0>(ctx, in, n, scratch, v, i);
  case GP_LOAD_NOALLOC:
    return mx ? gp_arg_launch<T, GP_LOAD_NOALLOC, 1>(ctx, in, n, scratch, v, i)
              : gp_arg_launch<T, GP_LOAD_NOALLOC, 0>(ctx, in, n, scratch, v, i);
  default:
    return mx ? gp_arg_launch<T, GP_LOAD_VEC, 1>(ctx, in, n, scratch, v, i)
              : gp_arg_launch<T, GP_LOAD_VEC, 0>(ctx, in, n, scratch, v, i);
  }
}

extern "C" size_t gp_cuda_argreduce_scratch_bytes(void) {
  return GP_ARG_MAX_BLOCKS * sizeof(gp_arg_pair);
}

extern "C" gp_status gp_cuda_argreduce(gp_context *ctx, gp_op op, gp_dtype type, const void *d_in,
                                       size_t n, void *scratch, void *d_value, uint64_t *d_index) {
  const int mx = op == GP_MAX;
  switch (type) {
  case GP_F32: return gp_arg_run<float>(ctx, mx, d_in, n, scratch, d_value, d_index);
  case GP_F64: return gp_arg_run<double>(ctx, mx, d_in, n, scratch, d_value, d_index);
  case GP_I32: return gp_arg_run<int>(ctx, mx, d_in, n, scratch, d_value, d_index);
  case GP_I64: return gp_arg_run<long long>(ctx, mx, d_in, n, scratch, d_value, d_index);
  case GP_U32: return gp_arg_run<unsigned>(ctx, mx, d_in, n, scratch, d_value, d_index);
  case GP_U64: return gp_arg_run<unsigned long long>(ctx, mx, d_in, n, scratch, d_value, d_index);
  }
  return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT, "unknown dtype %d", (int)type);
}
