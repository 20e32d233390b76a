/* GP_REDUCE_AUTO's F32/F64 SUM on CUDA, correctly rounded: the exact sum of the inputs
 * rounded once (src/core/exact_sum.h). One launch: each thread keeps floating-point
 * expansions that take an input only when TwoSum says nothing is lost (F32: one double
 * per lane, ~7 FP64 instructions per element; F64: two doubles, ~13), any other input
 * goes into its warp's fixed-point superaccumulator in shared memory (integer atomics);
 * at the end warps fold their expansions by the same exact test, the block sums and
 * normalizes its warps' limbs, adds them into the call's global accumulator (integer
 * atomics: associative, so any order gives the same integer) and the last block
 * (ticket) rounds. The bits never depend on the grid, the order or the backend.
 * gp_cuda_sum_exact_acc runs the same kernel but the last block writes the normalized
 * superaccumulator instead of rounding it: gp_dist_reduce adds the ranks' ones. */
#include "cuda/common/warp_reduce.cuh"
#include "cuda/common/resident.cuh"
#include "cuda/reduce/reduce_cuda.h"
#include "core/exact_sum.h"
#include "core/reduce_tree.h"

#include <cuda_runtime.h>
#include <stdint.h>

typedef unsigned long long gp_xs_u64;

#define GP_XS_THREADS 256u
#define GP_XS_WARPS (GP_XS_THREADS / GP_WARP_SIZE)
#define GP_XS_UNROLL 4u     /* 16-byte loads in flight per thread per tile */
#define GP_XS_MIN_BLOCKS 4  /* __launch_bounds__: blocks of 256 per SM */

template <typename T> struct gp_xs_fmt;
template <> struct gp_xs_fmt<float> {
  static constexpr int L = GP_XS_F32_LIMBS, LSB = GP_XS_F32_LSB, PREC = 24;
};
template <> struct gp_xs_fmt<double> {
  static constexpr int L = GP_XS_F64_LIMBS, LSB = GP_XS_F64_LSB, PREC = 53;
};

/* the rounded double (exact for F32) as the output element, NaN canonical */
__device__ __forceinline__ void gp_xs_store(float *out, double r) { *out = gp_rt_canon_f32((float)r); }
__device__ __forceinline__ void gp_xs_store(double *out, double r) { *out = gp_rt_canon_f64(r); }

/* normalize the block's (or the call's) limbs, round once, store: out of line, so its
 * local arrays stay out of the kernel's register allocation */
template <typename T> __device__ __noinline__ void gp_xs_finish(int64_t *limbs, T *out,
                                                                int64_t *acc_out) {
  gp_xs_normalize(limbs, gp_xs_fmt<T>::L);
  if (acc_out) { /* gp_cuda_sum_exact_acc: the exact sum itself, for gp_dist_reduce */
    for (int i = 0; i <= gp_xs_fmt<T>::L; i++) acc_out[i] = limbs[i];
    return;
  }
  gp_xs_store(out, gp_xs_round(limbs, gp_xs_fmt<T>::L, gp_xs_fmt<T>::LSB, gp_xs_fmt<T>::PREC));
}

/* Out of line too: inlined, the unrolled 68-limb carry chain made the F64 kernel spill
 * ~150 bytes at 64 registers (ptxas -v, sm_90); out of line, 12. */
template <typename T> __device__ __noinline__ void gp_xs_normalize_ool(int64_t *limbs) {
  gp_xs_normalize(limbs, gp_xs_fmt<T>::L);
}

/* The rare path: x (a double holding an exact input, head or error term) into the
 * warp's shared accumulator; returns the flags it raises. Kept out of line so the hot
 * loop stays small. */
template <typename T>
__device__ __noinline__ unsigned gp_xs_flush(gp_xs_u64 *acc, double x) {
  if (!(x - x == 0.0)) return gp_xs_flag(x);
  int64_t d[3];
  const int k = gp_xs_split(x, gp_xs_fmt<T>::LSB, d);
  if (k < 0) return 0u;
  atomicAdd(acc + k, (gp_xs_u64)d[0]);
  if (d[1]) atomicAdd(acc + k + 1, (gp_xs_u64)d[1]);
  if (d[2] && k + 2 < gp_xs_fmt<T>::L) atomicAdd(acc + k + 2, (gp_xs_u64)d[2]);
  return GP_XS_NOT_NEG0;
}

/* one input into a lane's expansion (h, l) */
__device__ __forceinline__ void gp_xs_step(double &h, double &l, float x, gp_xs_u64 *acc,
                                           unsigned &fl) {
  (void)l;
  const double v = (double)x;
  if (!gp_xs_add1(&h, v)) fl |= gp_xs_flush<float>(acc, v);
}
__device__ __forceinline__ void gp_xs_step(double &h, double &l, double x, gp_xs_u64 *acc,
                                           unsigned &fl) {
  if (!gp_xs_add2(&h, &l, x)) fl |= gp_xs_flush<double>(acc, x);
}
/* another expansion (oh, ol) into (h, l), each part exactly or through the accumulator */
template <typename T>
__device__ __forceinline__ void gp_xs_merge(double &h, double &l, double oh, double ol,
                                            gp_xs_u64 *acc, unsigned &fl) {
  fl |= gp_xs_head_flag(oh);
  if (sizeof(T) == 4) {
    if (!gp_xs_add1(&h, oh)) fl |= gp_xs_flush<T>(acc, oh);
  } else {
    if (!gp_xs_add2(&h, &l, oh)) fl |= gp_xs_flush<T>(acc, oh);
    if (!gp_xs_add2(&h, &l, ol)) fl |= gp_xs_flush<T>(acc, ol);
  }
}

/* atomicAdd(ticket, 1) with release + acquire semantics at GPU scope */
__device__ __forceinline__ unsigned gp_xs_ticket(unsigned *t) {
  unsigned old;
  asm volatile("atom.add.acq_rel.gpu.u32 %0, [%1], 1;" : "=r"(old) : "l"(t) : "memory");
  return old;
}

template <typename T, bool VEC>
__global__ __launch_bounds__(GP_XS_THREADS, GP_XS_MIN_BLOCKS) void gp_sum_exact_kernel(
    const T *__restrict__ in, size_t n, gp_xs_u64 *gacc, unsigned *ticket, T *out,
    int64_t *acc_out) {
  constexpr int L = gp_xs_fmt<T>::L;
  constexpr unsigned W = 16 / sizeof(T);
  constexpr unsigned TE = GP_XS_THREADS * GP_XS_UNROLL * W;
  __shared__ gp_xs_u64 wacc[GP_XS_WARPS][L + 1];
  __shared__ unsigned am_last;
  const unsigned tid = threadIdx.x, lane = tid % GP_WARP_SIZE, warp = tid / GP_WARP_SIZE;
  for (unsigned i = tid; i < GP_XS_WARPS * (L + 1); i += GP_XS_THREADS) (&wacc[0][0])[i] = 0;
  __syncthreads();
  gp_xs_u64 *acc = wacc[warp];

  double h[W], l[W];
#pragma unroll
  for (unsigned c = 0; c < W; c++) { h[c] = -0.0; l[c] = -0.0; }
  unsigned fl = 0;
  const size_t full = n / TE;
  for (size_t tile = blockIdx.x; tile < full; tile += gridDim.x) {
    union { uint4 u; T t[W]; } x[GP_XS_UNROLL];
    if (VEC) {
      const uint4 *p = reinterpret_cast<const uint4 *>(in + tile * TE) + tid;
#pragma unroll
      for (unsigned u = 0; u < GP_XS_UNROLL; u++) x[u].u = __ldg(p + u * GP_XS_THREADS);
    } else { /* misaligned `in`: the same elements, scalar loads */
      const T *p = in + tile * TE;
#pragma unroll
      for (unsigned u = 0; u < GP_XS_UNROLL; u++)
#pragma unroll
        for (unsigned c = 0; c < W; c++) x[u].t[c] = __ldg(p + (u * GP_XS_THREADS + tid) * W + c);
    }
#pragma unroll
    for (unsigned u = 0; u < GP_XS_UNROLL; u++)
#pragma unroll
      for (unsigned c = 0; c < W; c++) gp_xs_step(h[c], l[c], x[u].t[c], acc, fl);
  }
  if (full * TE < n && full % gridDim.x == blockIdx.x) { /* the partial tile */
    const T *p = in + full * TE;
    const unsigned rem = (unsigned)(n - full * TE);
    for (unsigned k = tid; k < rem; k += GP_XS_THREADS) gp_xs_step(h[0], l[0], __ldg(p + k), acc, fl);
  }

  /* fold: lane components, then the warp's shuffle tree (lanes < o take lane + o's) */
#pragma unroll
  for (unsigned c = 1; c < W; c++) gp_xs_merge<T>(h[0], l[0], h[c], l[c], acc, fl);
#pragma unroll
  for (unsigned o = GP_WARP_SIZE / 2; o > 0; o /= 2) {
    const double oh = __shfl_down_sync(GP_FULL_MASK, h[0], o);
    const double ol = __shfl_down_sync(GP_FULL_MASK, l[0], o);
    if (lane < o) gp_xs_merge<T>(h[0], l[0], oh, ol, acc, fl);
  }
  if (lane == 0) {
    fl |= gp_xs_head_flag(h[0]); /* (a zero l may be +0 from -0 inputs: only heads count) */
    fl |= gp_xs_flush<T>(acc, h[0]);
    fl |= gp_xs_flush<T>(acc, l[0]);
  }
  fl = __reduce_or_sync(GP_FULL_MASK, fl);
  if (lane == 0 && fl) atomicOr(&acc[L], (gp_xs_u64)fl);
  __syncthreads();

  /* the block's exact sum: warps' limbs added, then carries propagated */
  if (tid <= (unsigned)L) {
    gp_xs_u64 s = 0;
    for (unsigned w = 0; w < GP_XS_WARPS; w++) s = tid < (unsigned)L ? s + wacc[w][tid] : s | wacc[w][tid];
    wacc[0][tid] = s;
  }
  __syncthreads();
  int64_t *blk = reinterpret_cast<int64_t *>(wacc[0]);
  if (gridDim.x == 1) {
    if (tid == 0) gp_xs_finish(blk, out, acc_out);
    return;
  }
  if (tid == 0) gp_xs_normalize_ool<T>(blk);
  __syncthreads();
  if (tid <= (unsigned)L) {
    const gp_xs_u64 v = wacc[0][tid];
    if (v) {
      if (tid < (unsigned)L) atomicAdd(gacc + tid, v);
      else atomicOr(gacc + tid, v);
      __threadfence(); /* this add is visible before the block's ticket */
    }
  }
  __syncthreads();
  if (tid == 0) am_last = gp_xs_ticket(ticket) == gridDim.x - 1;
  __syncthreads();
  if (!am_last) return;
  /* the last block: every other block's adds are in; take the total and leave zeros */
  if (tid <= (unsigned)L) wacc[0][tid] = atomicExch(gacc + tid, 0ull);
  __syncthreads();
  if (tid == 0) {
    gp_xs_finish(blk, out, acc_out);
    *ticket = 0;
  }
}

/* Blocks of the kernel that fit on the device at once. */
template <typename T, bool VEC> static unsigned gp_xs_resident(gp_context *ctx) {
  static int per_sm[GP_RESIDENT_MAX_DEVICES];
  return gp_resident_blocks(ctx, gp_sum_exact_kernel<T, VEC>, GP_XS_THREADS, per_sm);
}

template <typename T, bool VEC>
static gp_status gp_xs_launch(gp_context *ctx, const T *in, size_t n, T *out, int64_t *acc_out) {
  constexpr size_t TE = GP_XS_THREADS * GP_XS_UNROLL * (16 / sizeof(T));
  const size_t tiles = n / TE + (n % TE != 0);
  size_t g = ctx->reduce_force_grid ? ctx->reduce_force_grid : gp_xs_resident<T, VEC>(ctx);
  if (g > tiles) g = tiles;
  if (g < 1) g = 1;
  unsigned *ticket = NULL;
  gp_xs_u64 *gacc = NULL;
  if (g > 1) {
    gp_status s = gp_cuda_reduce_next_slot(ctx, &ticket, &gacc);
    if (s != GP_OK) return s;
  }
  gp_sum_exact_kernel<T, VEC><<<(unsigned)g, GP_XS_THREADS, 0, (cudaStream_t)ctx->stream>>>(
      in, n, gacc, ticket, out, acc_out);
  GP_LAUNCH_CHECK(ctx, "gp_sum_exact_kernel", g, GP_XS_THREADS, 0);
  return GP_OK;
}

template <typename T>
static gp_status gp_xs_run(gp_context *ctx, const void *d_in, size_t n, void *d_out,
                           int64_t *acc_out) {
  const T *in = static_cast<const T *>(d_in);
  T *out = static_cast<T *>(d_out);
  if ((uintptr_t)in % 16 == 0) return gp_xs_launch<T, true>(ctx, in, n, out, acc_out);
  return gp_xs_launch<T, false>(ctx, in, n, out, acc_out);
}

extern "C" gp_status gp_cuda_sum_exact(gp_context *ctx, gp_dtype type, const void *d_in, size_t n,
                                       void *d_out) {
  if (type == GP_F32) return gp_xs_run<float>(ctx, d_in, n, d_out, NULL);
  return gp_xs_run<double>(ctx, d_in, n, d_out, NULL);
}

extern "C" gp_status gp_cuda_sum_exact_acc(gp_context *ctx, gp_dtype type, const void *d_in,
                                           size_t n, int64_t *d_acc) {
  if (type == GP_F32) return gp_xs_run<float>(ctx, d_in, n, NULL, d_acc);
  return gp_xs_run<double>(ctx, d_in, n, NULL, d_acc);
}
