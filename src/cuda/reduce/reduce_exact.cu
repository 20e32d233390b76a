/* GP_REDUCE_AUTO's F32/F64 SUM on CUDA, correctly rounded: the exact sum of the inputs
 * rounded once (src/core/exact_sum.h). One launch: each thread keeps floating-point
 * expansions. F32: four heads a thread, each taking every input (one FP64 addition on
 * its chain, Fast2Sum's test beside it: 4 FP64 instructions an element), and one tail
 * taking the heads' errors when an addition was inexact (gp_xs_carry_head / tail).
 * F64: two doubles that take an input only when Fast2Sum says nothing is lost (5 FP64
 * instructions, or 11 when the tail takes a part). What an expansion cannot hold goes
 * into its warp's fixed-point superaccumulator in shared memory (integer atomics). At
 * the end the block folds its lanes' expansions by the same exact test into one
 * expansion (F64 below GP_XS_WINDOW_MAX_N: as 128-bit integers in a window set by the
 * block's largest exponent, exact_fold.cuh, when the values fit it, the record then
 * holding three 53-bit chunks of that integer, unrounded), which it writes as its
 * record (scratch); a block whose superaccumulator was used also adds its normalized
 * limbs into the call's global accumulator (integer atomics: associative, so any order
 * gives the same integer). The last block (ticket) folds the records the same way: when
 * no block used a superaccumulator and no input was NaN or infinite (ordinary data),
 * the fold is the exact sum and one rounding of head + tail finishes (F32 through a
 * double rounded to odd, gp_xs_narrow_f32); otherwise everything goes into limbs,
 * which are rounded.
 * Data spread over many binades sends most steps of either form out of line: a warp
 * whose lanes went there more than GP_XS_DENSE_AFTER times in a lane switches to dense
 * steps (gp_xs_dense: F32's tail addition inline; F64 in three parts) for the rest of
 * its tiles; F64's window kernel keeps the plain steps.
 * Either way the bits never depend on the grid, the order or the backend.
 * gp_cuda_sum_exact_acc runs the same kernel without records: every block
 * adds its expansion into the global accumulator and the last block writes the
 * normalized superaccumulator instead of rounding it: gp_dist_reduce adds the ranks'
 * ones. */
#include "cuda/common/load16.cuh"
#include "cuda/common/warp_reduce.cuh"
#include "cuda/common/resident.cuh"
#include "cuda/common/ticket.cuh"
#include "cuda/reduce/reduce_cuda.h"
#include "cuda/reduce/exact_fold.cuh"
#include "core/exact_sum.h"
#include "core/reduce_tree.h"

#include <cuda_runtime.h>
#include <stdint.h>

typedef unsigned long long gp_xs_u64;

#define GP_XS_THREADS 256u
#define GP_XS_WARPS (GP_XS_THREADS / GP_WARP_SIZE)
/* 16-byte loads in flight per thread per tile. 6 and 8 were slower at every size on the
 * H200 (2026-12-02, docs/perf/reduce.md: F32 2^16..2^22 by 5-15%, at 2^28 even (6) or
 * 31% slower (8, spills)), as was a contiguous range of tiles a block instead of the
 * grid stride (up to 7% slower at 2^24, even at 2^28). */
#define GP_XS_UNROLL 4u
#ifndef GP_XS_MIN_BLOCKS
#define GP_XS_MIN_BLOCKS 4  /* __launch_bounds__: blocks of 256 per SM */
#endif
/* A warp whose lanes' steps went out of line (gp_xs_step) more than this many times in
 * one lane takes dense steps (gp_xs_dense) for its remaining tiles. Dense steps from a
 * warp's first tile (F32 only; measured at 5d4e923, s16-e, docs/perf/reduce.md) took
 * wide data 8-13% faster at 2^12-2^24 and uniform data 0.6-0.7% slower at 2^26-2^28,
 * where the vote costs 0-0.5%. */
#ifndef GP_XS_DENSE_AFTER
#define GP_XS_DENSE_AFTER 8u
#endif
#define GP_XS_MAX_GRID 4096u /* records in the scratch; the grid never exceeds it */
/* Inputs of up to this many elements take one block (gp_sum_exact_one): a grid pays a
 * second fold (the last block over the records), a ticket and a fence, ~2 us for F32
 * and ~4 us for F64, more than one block takes for this many elements. Measured on the H200 (2026-12-01,
 * docs/perf/reduce.md) against thresholds of 0, 2^14 and 2^15 F32 / 2^13 and 2^14 F64
 * elements: one block wins up to 2^13 elements in both types (F32 2^13 6.50 against
 * 7.74 us, F64 2^12 8.61 against 13.02, 2^13 11.49 against 12.83) and loses from 2^14
 * (F32 8.96 against 7.71, F64 17.18 against 12.61). F64 stops earlier now that the grid
 * kernel loads its partial tile whole (GP_XS_ONE_BLOCK_N_F64). */
#ifndef GP_XS_ONE_BLOCK_N
#define GP_XS_ONE_BLOCK_N ((size_t)1 << 13)
#endif
/* 1: F64 blocks of inputs under GP_XS_WINDOW_MAX_N elements fold by the fixed-point
 * window (exact_fold.cuh) when it holds their values, else by exact merges; 0: always by
 * exact merges (for A/B measurements). F32 always merges: its merges are one double's
 * TwoSum, shorter than the window's barriers and thread 0's conversion. Measured on the
 * H200 (2026-12-02, docs/perf/reduce.md): the window took F64 2^12..2^18 from 0.53-0.77x
 * CUB to 0.70-0.88x, made F32 0.4-2.2 us slower at 2^12..2^20, and its registers cost
 * the main loop ~1.4% at F64 2^28..2^30, where the fold's time is nothing: larger inputs
 * run the kernel stamped without it. */
#ifndef GP_XS_INT_FOLD
#define GP_XS_INT_FOLD 1
#endif
#ifndef GP_XS_WINDOW_MAX_N
#define GP_XS_WINDOW_MAX_N ((size_t)1 << 25)
#endif
/* superaccumulators in a block's shared memory (warp w uses w % GP_XS_ACCS). 1 took F64
   2^14..2^22 1-3% faster on random data (H200, 2026-12-02, docs/perf/reduce.md), but
   then all eight warps' 64-bit shared atomics of inexact inputs meet on one
   accumulator, a cost not measured on data that takes that path: 8 stays. */
#ifndef GP_XS_ACCS
#define GP_XS_ACCS 8u
#endif
/* records each thread of the last block keeps in registers (read once); more records
   are read twice, once for their exponents */
#define GP_XS_REC_REGS 4

/* a block's exact sum h + l + m and flags (m is -0 for F32) */
struct gp_xs_rec {
  double h, l, m;
  gp_xs_u64 fl;
};

template <typename T> struct gp_xs_fmt;
template <> struct gp_xs_fmt<float> {
  static constexpr int L = GP_XS_F32_LIMBS, LSB = GP_XS_F32_LSB, PREC = 24;
  static constexpr bool WINDOW = false; /* a record's l stays -0 */
};
template <> struct gp_xs_fmt<double> {
  static constexpr int L = GP_XS_F64_LIMBS, LSB = GP_XS_F64_LSB, PREC = 53;
  static constexpr bool WINDOW = GP_XS_INT_FOLD;
};

/* the rounded double (exact for F32) as the output element, NaN canonical */
__device__ __forceinline__ void gp_xs_store(float *out, double r) { *out = gp_rt_canon_f32((float)r); }
__device__ __forceinline__ void gp_xs_store(double *out, double r) { *out = gp_rt_canon_f64(r); }
/* an exact sum h + l (finite) rounded once to the output element */
__device__ __forceinline__ void gp_xs_store2(float *out, double h, double l) { *out = gp_xs_narrow_f32(h, l); }
__device__ __forceinline__ void gp_xs_store2(double *out, double h, double l) { *out = gp_rt_canon_f64(h + l); }

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
  return GP_XS_NOT_NEG0 | GP_XS_USED;
}

/* F32: the rare half of gp_xs_carry_add, out of line like gp_xs_flush (inline, its
   copies in the unrolled loop made the kernel slower on data that never takes it): an
   inexact h + x's error e into l, the rest, if any, into acc. A chain that took a NaN or
   an infinity gives its class as a flag and starts again from -0 (the sum is not finite
   whatever else comes), so its later inputs do not all come here. */
struct gp_xs_hlf {
  double h, l;
  unsigned fl;
};
__device__ __noinline__ gp_xs_hlf gp_xs_carry_rare(double h, double l, double b, double z,
                                                   gp_xs_u64 *acc) {
  if (!(h - h == 0.0)) return {-0.0, l, gp_xs_flag(h)};
  const double f = gp_xs_carry_tail(&l, b - z);
  return {h, l, f != 0.0 ? gp_xs_flush<float>(acc, f) : 0u};
}
/* F32: (h, l) += x by gp_xs_carry_add, any rest into acc */
__device__ __forceinline__ void gp_xs_carry(double &h, double &l, double x, gp_xs_u64 *acc,
                                            unsigned &fl) {
  double b, z;
  if (gp_xs_carry_head(&h, x, &b, &z)) {
    const gp_xs_hlf r = gp_xs_carry_rare(h, l, b, z, acc);
    h = r.h;
    l = r.l;
    fl |= r.fl;
  }
}

/* one input into a lane's expansion (h, l), counting the calls out of line in nr. F32:
   h takes every input, errors go to l (gp_xs_carry); what l cannot take goes to the
   superaccumulator. F64: (h, l) takes the input when that is exact, else it goes to the
   superaccumulator. */
__device__ __forceinline__ void gp_xs_step(double &h, double &l, float x, gp_xs_u64 *acc,
                                           unsigned &fl, unsigned &nr) {
  double b, z;
  if (gp_xs_carry_head(&h, (double)x, &b, &z)) {
    nr++;
    const gp_xs_hlf r = gp_xs_carry_rare(h, l, b, z, acc);
    h = r.h;
    l = r.l;
    fl |= r.fl;
  }
}

__device__ __forceinline__ void gp_xs_step(double &h, double &l, double x, gp_xs_u64 *acc,
                                           unsigned &fl, unsigned &nr) {
  if (!gp_xs_fast_add2(&h, &l, x)) {
    nr++;
    fl |= gp_xs_flush<double>(acc, x);
  }
}

/* One input into a lane's expansion only when that is exact, without a branch: F32 h +=
 * x when h + x is exact; F64 (h, l) += x by gp_xs_fast_add2's test. Returns false,
 * leaving (h, l) as they were, otherwise (a NaN or infinite input, or F64 past
 * GP_XS_F64_HEAD_MAX, included): the caller gives that input to gp_xs_redo. The tile
 * loops take their inputs this way and mark the misses in a mask, so their code holds
 * no call per step (each step's call was ~12 SASS instructions inside a convergence
 * barrier, in the hot loop: sass_f32_head.txt.xz of s18-a). */
__device__ __forceinline__ bool gp_xs_try(double &h, double &l, float x) {
  (void)l;
  const double xd = x, s = h + xd;
  const bool p = fabs(h) >= fabs(xd);
  const double a = p ? h : xd, b = p ? xd : h;
  const bool ok = s - a == b; /* false for a NaN or infinite x: s - a is NaN */
  h = ok ? s : h;
  return ok;
}
__device__ __forceinline__ bool gp_xs_try(double &h, double &l, double x) {
  const double s = h + x;
  const bool p = fabs(h) >= fabs(x);
  const double a = p ? h : x, b = p ? x : h;
  const double z = s - a, e = b - z, t = l + e;
  const bool q = fabs(l) >= fabs(e);
  const double c = q ? l : e, d = q ? e : l;
  const bool exact = z == b; /* then l stays as it is, as in gp_xs_fast_add2 */
  const bool ok = (exact || t - c == d) && fabs(s) < GP_XS_F64_HEAD_MAX;
  h = ok ? s : h;
  l = ok && !exact ? t : l;
  return ok;
}

/* The inputs a tile loop's gp_xs_try missed (bit k of miss: x.t[k]), into the expansion
 * (h, l) by gp_xs_step: any chain may take any input, the sum is exact either way. Out
 * of line and called once a tile at most; the values come with the call. */
template <typename T, unsigned N> struct gp_xs_vals {
  T t[N];
};
struct gp_xs_hl2 {
  double h, l;
  unsigned fl;
};
template <typename T, unsigned N>
__device__ __noinline__ gp_xs_hl2 gp_xs_redo(double h, double l, gp_xs_vals<T, N> x, unsigned miss,
                                             gp_xs_u64 *acc) {
  static_assert(N <= 32, "a 32-bit mask");
  unsigned fl = 0, nr = 0;
  for (; miss; miss &= miss - 1) gp_xs_step(h, l, x.t[__ffs((int)miss) - 1], acc, fl, nr);
  return {h, l, fl};
}
/* The same for a whole F32 tile of the grid kernel, whose values are read again (input k
 * of the thread at p + (k / W) * THREADS * W + k % W), GP_XS_REDO_BATCH loads in flight.
 * H200, 2026-12-03 (s19-a, docs/perf/reduce.md), against passing the values, which keeps
 * a tile's 16 of them live until its mask is known: F32 2^20 / 2^22 / 2^24 9.02-9.09 /
 * 13.60 / 26.62-26.69 us against 9.25-9.31 / 14.02-14.08 / 27.10-27.17; batches of 1 / 8
 * took data over 60 binades to 52.70 / 50.27 us at 2^24 (4: 50.34, passing 50.59) and
 * uniform 2^22 to 13.63-13.66 / 13.70-13.79. F64 tiles pass their values: read again,
 * F64 data over 120 binades took 494.6-596.3 us at 2^24 against 451.3. */
#ifndef GP_XS_REDO_BATCH
#define GP_XS_REDO_BATCH 4u
#endif
template <typename T>
__device__ __noinline__ gp_xs_hl2 gp_xs_redo_at(double h, double l, const T *__restrict__ p,
                                                unsigned miss, gp_xs_u64 *acc) {
  constexpr unsigned W = 16 / sizeof(T);
  unsigned fl = 0, nr = 0;
  while (miss) {
    T x[GP_XS_REDO_BATCH];
#pragma unroll
    for (unsigned i = 0; i < GP_XS_REDO_BATCH; i++) {
      const unsigned k = (unsigned)__ffs((int)miss) - 1; /* ~0u once miss is 0 */
      x[i] = miss ? __ldg(p + (k / W) * (GP_XS_THREADS * W) + k % W) : -T(0);
      miss &= miss - 1;
    }
#pragma unroll
    for (unsigned i = 0; i < GP_XS_REDO_BATCH; i++) gp_xs_step(h, l, x[i], acc, fl, nr);
  }
  return {h, l, fl};
}
/* a redo's expansion and flags back into the caller's */
__device__ __forceinline__ void gp_xs_take(double &h, double &l, unsigned &fl, const gp_xs_hl2 &r) {
  h = r.h;
  l = r.l;
  fl |= r.fl;
}

/* Dense steps: what a warp runs once its lanes went out of line more than
 * GP_XS_DENSE_AFTER times (data spread over many binades: every other input has bits
 * below the head's). The same exact sums, with the common inexact case inline.
 * F32: gp_xs_step with the tail's addition inline; only its failure (data spanning
 * ~100 bits) or a non-finite input goes out of line. */
__device__ __forceinline__ void gp_xs_dense(double &h, double &l, double &m, float x,
                                            gp_xs_u64 *acc, unsigned &fl) {
  (void)m;
  double b, z;
  if (gp_xs_carry_head(&h, (double)x, &b, &z)) {
    const double e = b - z; /* NaN for a non-finite input */
    const double t = l + e;
    const bool q = fabs(l) >= fabs(e);
    const double c = q ? l : e, d = q ? e : l;
    if (d - (t - c) == 0.0) {
      l = t;
    } else {
      const gp_xs_hlf r = gp_xs_carry_rare(h, l, b, z, acc);
      h = r.h;
      l = r.l;
      fl |= r.fl;
    }
  }
}
/* F64: three parts: h taking every input (kept below GP_XS_F64_HEAD_MAX: an input that
 * would take it past is flushed), its error carried into l, l's error into lo when
 * exact, else flushed. Two doubles hold ~106 bits, which data spread over 60 binades
 * outgrows. l goes on from the steps before (where it took the heads' errors too);
 * lo, one a thread, starts at -0 and is merged into (h, l) by the caller after the
 * loop. */
__device__ __forceinline__ void gp_xs_dense(double &h, double &l, double &lo, double x,
                                            gp_xs_u64 *acc, unsigned &fl) {
  const double s = h + x;
  if (!(fabs(s) < GP_XS_F64_HEAD_MAX)) { /* also a NaN or infinite x */
    fl |= gp_xs_flush<double>(acc, x);
    return;
  }
  const bool p = fabs(h) >= fabs(x);
  const double a = p ? h : x, b = p ? x : h;
  const double z = s - a;
  h = s;
  if (z != b) {
    const double e = b - z;
    const double t = l + e;
    const bool q = fabs(l) >= fabs(e);
    const double c = q ? l : e, d = q ? e : l;
    const double f = d - (t - c);
    l = t;
    if (f != 0.0 && !gp_xs_fast_add1(&lo, f)) fl |= gp_xs_flush<double>(acc, f);
  }
}
/* another expansion (oh, ol) into (h, l), each part exactly or through the accumulator */
template <typename T>
__device__ __forceinline__ void gp_xs_merge(double &h, double &l, double oh, double ol,
                                            gp_xs_u64 *acc, unsigned &fl) {
  fl |= gp_xs_head_flag(oh);
  if (sizeof(T) == 4) { /* finite parts of F32 sums: no overflow, so carry them */
    gp_xs_carry(h, l, oh, acc, fl);
    if (ol != 0.0) gp_xs_carry(h, l, ol, acc, fl); /* a zero tail (the usual one) adds nothing */
  } else {
    if (!gp_xs_fast_add2(&h, &l, oh)) fl |= gp_xs_flush<T>(acc, oh);
    if (!gp_xs_fast_add2(&h, &l, ol)) fl |= gp_xs_flush<T>(acc, ol);
  }
}

/* The block's superaccumulators zeroed before their first use: by each warp its own
 * (WARP, when every warp has one: no block barrier at the kernel's start), else by the
 * block. */
template <int L, bool WARP>
__device__ __forceinline__ void gp_xs_zero_accs(gp_xs_u64 (*wacc)[L + 1]) {
  if (WARP && GP_XS_ACCS >= GP_XS_WARPS) {
    const unsigned lane = threadIdx.x % GP_WARP_SIZE, warp = threadIdx.x / GP_WARP_SIZE;
    for (unsigned r = warp; r < GP_XS_ACCS; r += GP_XS_WARPS)
      for (unsigned i = lane; i <= (unsigned)L; i += GP_WARP_SIZE) wacc[r][i] = 0;
    __syncwarp();
  } else {
    for (unsigned i = threadIdx.x; i < GP_XS_ACCS * (L + 1); i += GP_XS_THREADS) (&wacc[0][0])[i] = 0;
    __syncthreads();
  }
}


/* F32: the expansions (h, l) of lanes below `width` folded into lane 0's by shuffle
 * trees (lanes < o take lane + o's): the heads by gp_xs_carry (errors into each lane's
 * own tail), then, only when some lane holds a tail, the tails by a second tree into
 * lane 0's expansion. Shuffling tails at every level cost the folds 0.3-1.4 us on data
 * without any (s15-c); flushing them to the superaccumulator instead sent most blocks
 * of normal data through the limbs (s15-e: 2^20 at 0.73x CUB against 0.88x). */
__device__ __forceinline__ void gp_xs_tree_f32(double &h, double &l, unsigned &fl, gp_xs_u64 *acc,
                                               unsigned width) {
  const unsigned lane = threadIdx.x % GP_WARP_SIZE;
#pragma unroll
  for (unsigned o = width / 2; o > 0; o /= 2) {
    const double oh = __shfl_down_sync(GP_FULL_MASK, h, o);
    if (lane < o) {
      fl |= gp_xs_head_flag(oh);
      gp_xs_carry(h, l, oh, acc, fl);
    }
  }
  if (__any_sync(GP_FULL_MASK, l != 0.0)) {
    double t = l, tl = -0.0;
#pragma unroll
    for (unsigned o = width / 2; o > 0; o /= 2) {
      const double ot = __shfl_down_sync(GP_FULL_MASK, t, o);
      const double otl = __shfl_down_sync(GP_FULL_MASK, tl, o);
      if (lane < o) {
        gp_xs_carry(t, tl, ot, acc, fl);
        if (otl != 0.0) gp_xs_carry(t, tl, otl, acc, fl);
      }
    }
    if (lane == 0) { /* its own tail is in t */
      l = -0.0;
      gp_xs_carry(h, l, t, acc, fl);
      if (tl != 0.0) gp_xs_carry(h, l, tl, acc, fl);
    }
  }
}

/* A warp's lanes' expansions (h, l) folded into lane 0's by a shuffle tree (lanes < o
 * take lane + o's), exactly or through acc; every lane gets the warp's flags ORed. */
template <typename T>
__device__ __forceinline__ void gp_xs_warp_fold(double &h, double &l, unsigned &fl, gp_xs_u64 *acc) {
  const unsigned lane = threadIdx.x % GP_WARP_SIZE;
  if (sizeof(T) == 4) {
    gp_xs_tree_f32(h, l, fl, acc, GP_WARP_SIZE);
  } else {
#pragma unroll
    for (unsigned o = GP_WARP_SIZE / 2; o > 0; o /= 2) {
      const double oh = __shfl_down_sync(GP_FULL_MASK, h, o);
      const double ol = __shfl_down_sync(GP_FULL_MASK, l, o);
      if (lane < o) gp_xs_merge<T>(h, l, oh, ol, acc, fl);
    }
  }
  fl = __reduce_or_sync(GP_FULL_MASK, fl);
}

/* The block's lanes' expansions (h, l) folded into thread 0's, exactly or through the
 * superaccumulators: each warp's (gp_xs_warp_fold), then warp 0 over the warps'
 * results. Thread 0 gets the block's flags (heads other than -0 included); every thread
 * of the block must call it. */
template <typename T>
__device__ __forceinline__ void gp_xs_block_fold(double &h, double &l, unsigned &fl,
                                                 gp_xs_u64 (*wacc)[gp_xs_fmt<T>::L + 1],
                                                 double *sh, double *sl, unsigned *sf) {
  const unsigned tid = threadIdx.x, lane = tid % GP_WARP_SIZE, warp = tid / GP_WARP_SIZE;
  gp_xs_warp_fold<T>(h, l, fl, wacc[warp % GP_XS_ACCS]);
  if (lane == 0) { sh[warp] = h; sl[warp] = l; sf[warp] = fl; }
  __syncthreads();
  if (warp == 0) {
    h = lane < GP_XS_WARPS ? sh[lane] : -0.0;
    l = lane < GP_XS_WARPS ? sl[lane] : -0.0;
    fl = lane < GP_XS_WARPS ? sf[lane] : 0u;
    if (sizeof(T) == 4) {
      gp_xs_tree_f32(h, l, fl, wacc[0], GP_XS_WARPS);
    } else {
#pragma unroll
      for (unsigned o = GP_XS_WARPS / 2; o > 0; o /= 2) {
        const double oh = __shfl_down_sync(GP_FULL_MASK, h, o);
        const double ol = __shfl_down_sync(GP_FULL_MASK, l, o);
        if (lane < o) gp_xs_merge<T>(h, l, oh, ol, wacc[0], fl);
      }
    }
    fl = __reduce_or_sync(GP_FULL_MASK, fl) | gp_xs_head_flag(h);
  }
}

/* The warps' limbs added into wacc[0] (slot L: flags ORed), by threads 0..L. */
template <int L> __device__ __forceinline__ void gp_xs_block_limbs(gp_xs_u64 (*wacc)[L + 1]) {
  const unsigned tid = threadIdx.x;
  if (tid <= (unsigned)L) {
    gp_xs_u64 s = 0;
    for (unsigned w = 0; w < GP_XS_ACCS; w++) s = tid < (unsigned)L ? s + wacc[w][tid] : s | wacc[w][tid];
    wacc[0][tid] = s;
  }
}

/* The window fold's remainder (exact_fold.cuh), by thread 0, into the block's
 * superaccumulator. */
__device__ __forceinline__ unsigned gp_xs_flush_rest(gp_xs_u64 *acc, const double (&rest)[2]) {
  unsigned fl = 0u;
  if (rest[0] != 0.0) fl |= gp_xs_flush<double>(acc, rest[0]);
  if (rest[1] != 0.0) fl |= gp_xs_flush<double>(acc, rest[1]);
  return fl;
}

/* F64: the block's lanes' W expansions each (h[c], l[c]) by the window fold: false
 * (every thread) when it cannot hold them; otherwise thread 0 gets the block's sum in
 * (*bh, *bl) as mode says (exact_fold.cuh; GP_XF_CHUNKS: and *bm) and its flags in *fl,
 * any remainder already in acc. (Out of line, this and gp_xs_fold_records made the
 * kernel spill more, not less.) */
template <unsigned W>
__device__ __forceinline__ bool gp_xs_fold_lanes(const double *h, const double *l, unsigned *fl,
                                                 gp_xf_smem<GP_XS_WARPS> *xf, gp_xs_u64 *acc,
                                                 double *bh, double *bl, double *bm, gp_xf_mode mode) {
  static_assert(GP_XS_THREADS * 2 * W <= GP_XF_MAX_VALUES, "the window's headroom");
  int e = 1;
#pragma unroll
  for (unsigned c = 0; c < W; c++) e = max(e, max(gp_xf_bexp(h[c]), gp_xf_bexp(l[c])));
  const int E = gp_xf_block_emax(e, xf), unit = gp_xf_unit(E);
  gp_xf_i128 a = {0ull, 0ull};
  bool ok = true;
  unsigned f = *fl;
#pragma unroll
  for (unsigned c = 0; c < W; c++) {
    ok &= gp_xf_add(a, h[c], unit) & gp_xf_add(a, l[c], unit);
    f |= gp_xs_head_flag(h[c]);
  }
  double rest[2];
  if (!gp_xf_block_sum(a, ok, f, E, xf, *bh, *bl, rest, mode)) return false;
  if (threadIdx.x == 0) {
    if (mode != GP_XF_CHUNKS) {
      *fl = f | gp_xs_flush_rest(acc, rest);
    } else {
      *fl = f;
      *bm = rest[0] == 0.0 ? -0.0 : rest[0]; /* a zero sum's chunks must not raise NOT_NEG0 */
    }
  }
  return true;
}

/* F64: the last block's window fold of the g records (three values each), as
 * gp_xs_fold_lanes (mode GP_XF_EXACT or GP_XF_FINAL); false also when 3 g values could
 * overflow the window. */
__device__ __forceinline__ bool gp_xs_fold_records(const gp_xs_rec *recs, unsigned g, unsigned *fl,
                                                   gp_xf_smem<GP_XS_WARPS> *xf, gp_xs_u64 *acc,
                                                   double *bh, double *bl, gp_xf_mode mode) {
  if (3u * g > GP_XF_MAX_VALUES) return false;
  if (g <= GP_XS_REC_REGS * GP_XS_THREADS) {
    double rh[GP_XS_REC_REGS], rl[GP_XS_REC_REGS], rm[GP_XS_REC_REGS];
    unsigned f = 0u;
    int e = 1;
    /* r * GP_XS_THREADS >= g: no thread has a record there (block-uniform), skipped */
#pragma unroll
    for (unsigned r = 0; r < GP_XS_REC_REGS; r++) {
      const unsigned b = threadIdx.x + r * GP_XS_THREADS;
      rh[r] = rl[r] = rm[r] = -0.0;
      if (r * GP_XS_THREADS >= g) continue;
      rh[r] = b < g ? __ldcg(&recs[b].h) : -0.0;
      rl[r] = b < g ? __ldcg(&recs[b].l) : -0.0;
      rm[r] = b < g ? __ldcg(&recs[b].m) : -0.0;
      f |= b < g ? (unsigned)__ldcg(&recs[b].fl) : 0u;
    }
#pragma unroll
    for (unsigned r = 0; r < GP_XS_REC_REGS; r++)
      e = max(e, max(gp_xf_bexp(rh[r]), max(gp_xf_bexp(rl[r]), gp_xf_bexp(rm[r]))));
    const int E = gp_xf_block_emax(e, xf), unit = gp_xf_unit(E);
    gp_xf_i128 a = {0ull, 0ull};
    bool ok = true;
#pragma unroll
    for (unsigned r = 0; r < GP_XS_REC_REGS; r++) {
      if (r * GP_XS_THREADS >= g) continue;
      ok &= gp_xf_add(a, rh[r], unit) & gp_xf_add(a, rl[r], unit) & gp_xf_add(a, rm[r], unit);
      f |= gp_xs_head_flag(rh[r]);
    }
    double rest[2];
    if (!gp_xf_block_sum(a, ok, f, E, xf, *bh, *bl, rest, mode)) return false;
    if (threadIdx.x == 0) *fl = f | gp_xs_flush_rest(acc, rest);
    return true;
  }
  int e = 1;
  for (unsigned b = threadIdx.x; b < g; b += GP_XS_THREADS)
    e = max(e, max(gp_xf_bexp(__ldcg(&recs[b].h)),
                   max(gp_xf_bexp(__ldcg(&recs[b].l)), gp_xf_bexp(__ldcg(&recs[b].m)))));
  const int E = gp_xf_block_emax(e, xf), unit = gp_xf_unit(E);
  gp_xf_i128 a = {0ull, 0ull};
  bool ok = true;
  unsigned f = 0u;
  for (unsigned b = threadIdx.x; b < g; b += GP_XS_THREADS) {
    const double h = __ldcg(&recs[b].h);
    ok &= gp_xf_add(a, h, unit) & gp_xf_add(a, __ldcg(&recs[b].l), unit) &
          gp_xf_add(a, __ldcg(&recs[b].m), unit);
    f |= (unsigned)__ldcg(&recs[b].fl) | gp_xs_head_flag(h);
  }
  double rest[2];
  if (!gp_xf_block_sum(a, ok, f, E, xf, *bh, *bl, rest, mode)) return false;
  if (threadIdx.x == 0) *fl = f | gp_xs_flush_rest(acc, rest);
  return true;
}

/* one thread's part of a tile: GP_XS_UNROLL 16-byte vectors */
template <typename T> struct gp_xs_part {
  union {
    uint4 u;
    T t[16 / sizeof(T)];
  } x[GP_XS_UNROLL];
};

/* elements of one tile: GP_XS_UNROLL 16-byte vectors a thread */
template <typename T> __host__ __device__ constexpr size_t gp_xs_tile_elems() {
  return (size_t)GP_XS_THREADS * GP_XS_UNROLL * (16 / sizeof(T));
}

template <typename T, int LD>
__device__ __forceinline__ void gp_xs_load(gp_xs_part<T> &a, const T *__restrict__ in, size_t tile) {
  constexpr unsigned W = 16 / sizeof(T);
  constexpr size_t TE = gp_xs_tile_elems<T>();
  const unsigned tid = threadIdx.x;
  if (LD != GP_LOAD_SCALAR) {
    const uint4 *p = reinterpret_cast<const uint4 *>(in + tile * TE) + tid;
#pragma unroll
    for (unsigned u = 0; u < GP_XS_UNROLL; u++) a.x[u].u = gp_ld16<LD>(p + u * GP_XS_THREADS);
  } else { /* misaligned `in`: the same elements, scalar loads */
    const T *p = in + tile * TE;
#pragma unroll
    for (unsigned u = 0; u < GP_XS_UNROLL; u++)
#pragma unroll
      for (unsigned c = 0; c < W; c++) a.x[u].t[c] = __ldg(p + (u * GP_XS_THREADS + tid) * W + c);
  }
}

/* The partial tile's elements (rem < one tile's) in the same places as a whole tile's,
 * -0 past the end (an exact sum stays as it was), all loaded before the first step. */
template <typename T>
__device__ __forceinline__ void gp_xs_load_rem(gp_xs_part<T> &a, const T *__restrict__ p, unsigned rem) {
  constexpr unsigned W = 16 / sizeof(T);
#pragma unroll
  for (unsigned u = 0; u < GP_XS_UNROLL; u++)
#pragma unroll
    for (unsigned c = 0; c < W; c++) {
      const unsigned k = (u * GP_XS_THREADS + threadIdx.x) * W + c;
      a.x[u].t[c] = k < rem ? __ldg(p + k) : -T(0);
    }
}

/* The misses of the tile in a into (h, l), their values passed with the call. */
template <typename T>
__device__ __forceinline__ void gp_xs_redo_part(double &h, double &l, unsigned &fl, const gp_xs_part<T> &a,
                                                unsigned miss, gp_xs_u64 *acc) {
  constexpr unsigned W = 16 / sizeof(T), N = GP_XS_UNROLL * W;
  gp_xs_vals<T, N> x;
#pragma unroll
  for (unsigned k = 0; k < N; k++) x.t[k] = a.x[k / W].t[k % W];
  gp_xs_take(h, l, fl, gp_xs_redo<T, N>(h, l, x, miss, acc));
}

/* A tile's inputs into the W chains by gp_xs_try; returns the mask of those it missed. */
template <typename T>
__device__ __forceinline__ unsigned gp_xs_tile_try(double (&h)[16 / sizeof(T)], double (&l)[16 / sizeof(T)],
                                                   const gp_xs_part<T> &a) {
  constexpr unsigned W = 16 / sizeof(T);
  constexpr bool F32 = sizeof(T) == 4;
  unsigned miss = 0;
#pragma unroll
  for (unsigned u = 0; u < GP_XS_UNROLL; u++)
#pragma unroll
    for (unsigned c = 0; c < W; c++)
      miss |= (unsigned)!gp_xs_try(h[c], l[F32 ? 0 : c], a.x[u].t[c]) << (u * W + c);
  return miss;
}

template <typename T, int LD, bool WIN>
__global__ __launch_bounds__(GP_XS_THREADS, GP_XS_MIN_BLOCKS) void gp_sum_exact_kernel(
    const T *__restrict__ in, size_t n, gp_xs_rec *recs, gp_xs_u64 *gacc, unsigned *ticket,
    T *out, int64_t *acc_out) {
  constexpr int L = gp_xs_fmt<T>::L;
  constexpr unsigned W = 16 / sizeof(T);
  constexpr unsigned TE = (unsigned)gp_xs_tile_elems<T>();
  __shared__ gp_xs_u64 wacc[GP_XS_ACCS][L + 1];
  __shared__ double sh[GP_XS_WARPS], sl[GP_XS_WARPS];
  __shared__ unsigned bflags, blast, bend;
  __shared__ gp_xf_smem<GP_XS_WARPS> xf;
  const unsigned tid = threadIdx.x, warp = tid / GP_WARP_SIZE;
  gp_xs_u64 *acc = wacc[warp % GP_XS_ACCS];
  /* per warp where the fold's latency counts (F32, F64 with the window); the F64
     kernel of large inputs keeps the block's barrier: its per-warp loop made ptxas
     spill (sm_90) where one barrier costs nothing */
  gp_xs_zero_accs<L, sizeof(T) == 4 || WIN>(wacc);

  /* F32: the W chains share l[0] (only the rare path touches it; a tail per chain
     cost 8 registers and spilled) */
  constexpr bool F32 = sizeof(T) == 4;
  double h[W], l[W];
#pragma unroll
  for (unsigned c = 0; c < W; c++) { h[c] = -0.0; l[c] = -0.0; }
  unsigned fl = 0, nr = 0;
  const size_t full = n / TE;
  double lo = -0.0; /* F64 dense steps' third part, shared by the W chains */
  /* dense steps for F32, and for F64 in the kernel of large inputs (in the window's
     kernel its registers made ptxas spill more and F64 run 5% slower at 2^20 and 2^24
     on every data law: s16-a) */
  constexpr bool DENSE = F32 || !WIN;
  bool dense = false; /* warp-uniform: the warp votes after each tile */
  /* Loading the next tile before adding this one was slower at every size (H200,
   * 2026-12-02, docs/perf/reduce.md: 3-12% at 3 blocks a SM, 5-50% at 4 with spills) */
  for (size_t tile = blockIdx.x; tile < full; tile += gridDim.x) {
    gp_xs_part<T> a;
    gp_xs_load<T, LD>(a, in, tile);
    if (DENSE && dense) {
#pragma unroll
      for (unsigned u = 0; u < GP_XS_UNROLL; u++)
#pragma unroll
        for (unsigned c = 0; c < W; c++)
          gp_xs_dense(h[c], l[F32 ? 0 : c], lo, a.x[u].t[c], acc, fl);
    } else {
      const unsigned miss = gp_xs_tile_try<T>(h, l, a);
      if (miss) {
        nr += (unsigned)__popc(miss);
        if constexpr (F32)
          gp_xs_take(h[0], l[0], fl, gp_xs_redo_at<T>(h[0], l[0], in + tile * TE + tid * W, miss, acc));
        else
          gp_xs_redo_part<T>(h[0], l[0], fl, a, miss, acc);
      }
      if (DENSE) dense = __any_sync(GP_FULL_MASK, nr > GP_XS_DENSE_AFTER);
    }
  }
  if (full * TE < n && full % gridDim.x == blockIdx.x) { /* the partial tile */
    gp_xs_part<T> a;
    gp_xs_load_rem<T>(a, in + full * TE, (unsigned)(n - full * TE));
    const unsigned miss = gp_xs_tile_try<T>(h, l, a);
    if (miss) gp_xs_redo_part<T>(h[0], l[0], fl, a, miss, acc);
  }
  if (DENSE && !F32 && lo != 0.0) gp_xs_merge<T>(h[0], l[0], lo, -0.0, acc, fl);
  double m = -0.0; /* a record's third chunk */
  /* a block that writes a record for the last block keeps its sum exact in chunks; a
     grid of one rounds its sum, unless the call wants the exact sum (acc_out) */
  const gp_xf_mode mode = recs && gridDim.x > 1            ? GP_XF_CHUNKS
                          : acc_out || gridDim.x > 1 ? GP_XF_EXACT
                                                     : GP_XF_FINAL;
  if (!WIN || !gp_xs_fold_lanes<W>(h, l, &fl, &xf, wacc[0], &h[0], &l[0], &m, mode)) {
#pragma unroll
    for (unsigned c = 1; c < W; c++) gp_xs_merge<T>(h[0], l[0], h[c], l[c], acc, fl);
    gp_xs_block_fold<T>(h[0], l[0], fl, wacc, sh, sl, xf.flags);
  }

  /* thread 0 holds the block's expansion: its record, or (no records, or a grid of
   * one that goes on to round) into the limbs when it cannot be rounded by itself. A
   * block whose superaccumulators took nothing (ordinary data) has only that record to
   * publish: thread 0 takes the ticket at once (its release orders the record), with no
   * block barrier between. */
  if (tid == 0) {
    const bool one = gridDim.x == 1;
    if (recs && !one) {
      gp_xs_rec r = {h[0], l[0], m, fl};
      recs[blockIdx.x] = r;
      if (!(fl & GP_XS_USED)) blast = gp_ticket_acq_rel(ticket) == gridDim.x - 1;
    } else if (!one || (fl & GP_XS_SPECIAL) || acc_out) {
      fl |= gp_xs_flush<T>(wacc[0], h[0]) | gp_xs_flush<T>(wacc[0], l[0]) | GP_XS_USED;
    }
    bflags = fl;
  }
  __syncthreads();
  unsigned bfl = bflags;
  if (gridDim.x == 1) {
    if (!(bfl & GP_XS_SPECIAL)) { /* the fold is the exact sum: one IEEE rounding */
      if (tid == 0) gp_xs_store2(out, h[0], l[0]);
      return;
    }
    gp_xs_block_limbs<L>(wacc);
    __syncthreads();
    if (tid == 0) {
      wacc[0][L] |= bfl & ~GP_XS_USED;
      gp_xs_finish(reinterpret_cast<int64_t *>(wacc[0]), out, acc_out);
    }
    return;
  }

  /* a block whose superaccumulator took anything adds its limbs into the call's */
  if (bfl & GP_XS_USED) {
    gp_xs_block_limbs<L>(wacc);
    __syncthreads();
    if (tid == 0) gp_xs_normalize_ool<T>(reinterpret_cast<int64_t *>(wacc[0]));
    __syncthreads();
    if (tid < (unsigned)L) {
      const gp_xs_u64 v = wacc[0][tid];
      if (v) atomicAdd(gacc + tid, v);
    }
    if (tid == (unsigned)L && !recs) atomicOr(gacc + L, (gp_xs_u64)(bfl & ~GP_XS_USED));
    __threadfence(); /* these adds are visible before the block's ticket */
    __syncthreads();
    if (tid == 0) blast = gp_ticket_acq_rel(ticket) == gridDim.x - 1;
    __syncthreads();
  }
  if (!blast) return;

  /* the last block: every other block's record and adds are in (this block's own
   * limbs too, if any: its superaccumulators start again from zero; untouched ones
   * are zero still). Fold the records. */
  if (bfl & GP_XS_USED) {
    for (unsigned i = tid; i < GP_XS_ACCS * (L + 1); i += GP_XS_THREADS) (&wacc[0][0])[i] = 0;
    __syncthreads();
  }
  unsigned used = !recs; /* without records every block went through the limbs */
  if (recs) {
    double rh = -0.0, rl = -0.0;
    fl = 0;
    if (!WIN || !gp_xs_fold_records(recs, gridDim.x, &fl, &xf, wacc[0], &rh, &rl,
                                     acc_out ? GP_XF_EXACT : GP_XF_FINAL)) {
      /* a grid of up to 32 blocks: warp 0 alone, one record a lane (no barrier, no
         second level) */
      const bool w0 = gridDim.x <= GP_WARP_SIZE;
      for (unsigned b = tid; b < gridDim.x; b += GP_XS_THREADS) {
        fl |= (unsigned)__ldcg(&recs[b].fl);
        gp_xs_merge<T>(rh, rl, __ldcg(&recs[b].h), __ldcg(&recs[b].l), acc, fl);
        if (WIN) gp_xs_merge<T>(rh, rl, __ldcg(&recs[b].m), -0.0, acc, fl);
      }
      if (!w0) {
        gp_xs_block_fold<T>(rh, rl, fl, wacc, sh, sl, xf.flags);
      } else if (warp == 0) {
        gp_xs_warp_fold<T>(rh, rl, fl, acc);
        fl |= gp_xs_head_flag(rh);
      }
    }
    if (tid == 0) {
      if (!(fl & GP_XS_SPECIAL) && !acc_out) {
        gp_xs_store2(out, rh, rl);
        *ticket = 0;
      } else {
        fl |= gp_xs_flush<T>(wacc[0], rh) | gp_xs_flush<T>(wacc[0], rl);
      }
      bend = fl; /* not bflags: warp 0's fold of up to 32 records has no barrier, and
                    another warp may not have read bflags yet */
    }
    __syncthreads();
    if (!(bend & GP_XS_SPECIAL) && !acc_out) return;
    used = bend & GP_XS_USED;
    bfl = bend;
  }
  /* into limbs: this block's, plus the call's (taken, leaving zeros) */
  gp_xs_block_limbs<L>(wacc);
  __syncthreads();
  if (tid <= (unsigned)L) {
    const gp_xs_u64 g = used ? atomicExch(gacc + tid, 0ull) : 0ull;
    wacc[0][tid] = tid < (unsigned)L ? wacc[0][tid] + g : wacc[0][tid] | g;
  }
  __syncthreads();
  if (tid == 0) {
    wacc[0][L] = (wacc[0][L] | bfl) & ~(gp_xs_u64)GP_XS_USED;
    gp_xs_finish(reinterpret_cast<int64_t *>(wacc[0]), out, acc_out);
    *ticket = 0;
  }
}

/* The most elements gp_sum_exact_one takes: GP_XS_ONE_BLOCK_N F32 elements,
 * GP_XS_ONE_BLOCK_N_F64 F64 elements, in three shapes (rows of W elements a thread): up
 * to GP_XS_ONE_SMALL_N elements, up to GP_XS_ONE_MID_N, and the rest.
 * With its steps taken by gp_xs_try (no call per step), 16 F64 rows ran 2^12 and 6000
 * elements as fast as or faster than the grid kernel's one block (7.2 against 7.2-7.3 us,
 * 7.8 against 11.3: the grid kernel's partial tile then loaded one element after
 * another), but 2^10 0.6 us slower than 4 rows (H200, 2026-12-03, s18-a,
 * docs/perf/reduce.md). It lost at 2^14 F32 (7.9 against 7.2 us, s17-b). */
#ifndef GP_XS_ONE_SMALL_N
#define GP_XS_ONE_SMALL_N 2048u
#endif
/* The third shape: inputs of up to this many elements (equal to GP_XS_ONE_SMALL_N: no
 * third shape). GP_XS_ONE_SMALL_N = 4096 took F64 2^12 from 7.5 to 6.6-6.7 us but 2^10 /
 * 2^11 0.2-0.45 us slower (s18-b); this shape took F64 3000 / 2^12 from 6.82-6.88 /
 * 7.33-7.39 to 6.40-6.53 / 6.69-6.75 us with 2^10 / 2^11 unchanged, F32 within 0.1 us
 * (s19-a, docs/perf/reduce.md). */
#ifndef GP_XS_ONE_MID_N
#define GP_XS_ONE_MID_N 4096u
#endif
/* F64 inputs of up to this many elements take one block, larger ones the grid kernel
 * (H200, 2026-12-03, s19-b, docs/perf/reduce.md: one block / the grid at 6000 elements
 * 8.00 / 8.42-8.45 us, at 2^13 8.86-8.96 / 8.35-8.42): 6144, three of the grid's F64
 * tiles, between the two. */
#ifndef GP_XS_ONE_BLOCK_N_F64
#define GP_XS_ONE_BLOCK_N_F64 6144u
#endif
static_assert(GP_XS_ONE_BLOCK_N_F64 <= GP_XS_ONE_BLOCK_N, "the largest one-block shape holds the F64 limit");
template <typename T> __host__ __device__ constexpr size_t gp_xs_one_max() {
  return sizeof(T) == 4 ? GP_XS_ONE_BLOCK_N : GP_XS_ONE_BLOCK_N_F64;
}

/* Inputs of up to gp_xs_one_max elements: one block that loads every element of a
 * thread (J rows of W) before its first step, so the loads share one round trip to
 * memory (the grid kernel's tile loop waits for each tile in turn), then folds and
 * rounds as that kernel does for a grid of one. Pads are -0, which leaves an exact sum
 * as it was. VEC: `in` is 16-byte aligned. Measured against the grid kernel's one block
 * (s17-b): F32 2^10 / 2^11 / 2^13 0.2-0.3 / 0.5-0.6 / 0.1-0.25 us faster, 2^12 within
 * 0.2 us; F64 2^10 0.7 us faster. */
template <typename T, unsigned J, bool VEC>
__global__ __launch_bounds__(GP_XS_THREADS, 1) void gp_sum_exact_one(const T *__restrict__ in,
                                                                     unsigned n, T *out,
                                                                     int64_t *acc_out) {
  constexpr int L = gp_xs_fmt<T>::L;
  constexpr unsigned W = 16 / sizeof(T);
  constexpr bool F32 = sizeof(T) == 4, WIN = gp_xs_fmt<T>::WINDOW;
  __shared__ gp_xs_u64 wacc[GP_XS_ACCS][L + 1];
  __shared__ double sh[GP_XS_WARPS], sl[GP_XS_WARPS];
  __shared__ unsigned bflags;
  __shared__ gp_xf_smem<GP_XS_WARPS> xf;
  const unsigned tid = threadIdx.x;
  gp_xs_u64 *acc = wacc[(tid / GP_WARP_SIZE) % GP_XS_ACCS];
  gp_xs_zero_accs<L, true>(wacc);

  /* row j, chain c: VEC, the c-th element of vector j * THREADS + tid (the last n % W
     elements in row J, chain 0); else element (j * W + c) * THREADS + tid. Row j holds
     elements j * THREADS * W .. (j + 1) * THREADS * W - 1 either way. */
  T v[J + 1][W];
  const unsigned nv = n / W; /* whole vectors (VEC) */
#pragma unroll
  for (unsigned j = 0; j <= J; j++)
#pragma unroll
    for (unsigned c = 0; c < W; c++) v[j][c] = -T(0);
  if constexpr (VEC) {
    const uint4 *p = reinterpret_cast<const uint4 *>(in);
#pragma unroll
    for (unsigned j = 0; j < J; j++) {
      const unsigned i = j * GP_XS_THREADS + tid;
      if (i < nv) {
        union { uint4 u; T t[W]; } x;
        x.u = __ldg(p + i);
#pragma unroll
        for (unsigned c = 0; c < W; c++) v[j][c] = x.t[c];
      }
    }
    if (nv * W + tid < n) v[J][0] = __ldg(in + nv * W + tid);
  } else {
#pragma unroll
    for (unsigned j = 0; j < J; j++)
#pragma unroll
      for (unsigned c = 0; c < W; c++) {
        const unsigned k = (j * W + c) * GP_XS_THREADS + tid;
        if (k < n) v[j][c] = __ldg(in + k);
      }
  }
  double h[W], l[W];
#pragma unroll
  for (unsigned c = 0; c < W; c++) { h[c] = -0.0; l[c] = -0.0; }
  unsigned fl = 0, nr = 0, miss = 0;
  static_assert(J * W <= 32, "the rows' misses fit a 32-bit mask");
#pragma unroll
  for (unsigned j = 0; j < J; j++) {
    if (j * GP_XS_THREADS * W >= n) break; /* block-uniform: the rows after are empty too */
#pragma unroll
    for (unsigned c = 0; c < W; c++)
      miss |= (unsigned)!gp_xs_try(h[c], l[F32 ? 0 : c], v[j][c]) << (j * W + c);
  }
  if (miss) {
    gp_xs_vals<T, J * W> x;
#pragma unroll
    for (unsigned k = 0; k < J * W; k++) x.t[k] = v[k / W][k % W];
    gp_xs_take(h[0], l[0], fl, gp_xs_redo<T, J * W>(h[0], l[0], x, miss, acc));
  }
  if (VEC && n % W) gp_xs_step(h[0], l[0], v[J][0], acc, fl, nr);
  double m = -0.0;
  if (!WIN || !gp_xs_fold_lanes<W>(h, l, &fl, &xf, wacc[0], &h[0], &l[0], &m,
                                   acc_out ? GP_XF_EXACT : GP_XF_FINAL)) {
#pragma unroll
    for (unsigned c = 1; c < W; c++) gp_xs_merge<T>(h[0], l[0], h[c], l[c], acc, fl);
    gp_xs_block_fold<T>(h[0], l[0], fl, wacc, sh, sl, xf.flags);
  }
  if (tid == 0) {
    if ((fl & GP_XS_SPECIAL) || acc_out)
      fl |= gp_xs_flush<T>(wacc[0], h[0]) | gp_xs_flush<T>(wacc[0], l[0]) | GP_XS_USED;
    else
      gp_xs_store2(out, h[0], l[0]); /* the fold is the exact sum: one IEEE rounding */
    bflags = fl;
  }
  __syncthreads();
  const unsigned bfl = bflags;
  if (!(bfl & GP_XS_SPECIAL)) return;
  gp_xs_block_limbs<L>(wacc);
  __syncthreads();
  if (tid == 0) {
    wacc[0][L] |= bfl & ~GP_XS_USED;
    gp_xs_finish(reinterpret_cast<int64_t *>(wacc[0]), out, acc_out);
  }
}

template <typename T, unsigned J>
static void gp_xs_one_launch(cudaStream_t st, bool vec, const T *in, size_t n, T *out, int64_t *acc_out) {
  static_assert(J * GP_XS_THREADS * (16 / sizeof(T)) <= GP_XS_ONE_BLOCK_N, "rows past the limit");
  if (vec)
    gp_sum_exact_one<T, J, true><<<1, GP_XS_THREADS, 0, st>>>(in, (unsigned)n, out, acc_out);
  else
    gp_sum_exact_one<T, J, false><<<1, GP_XS_THREADS, 0, st>>>(in, (unsigned)n, out, acc_out);
}

template <typename T>
static gp_status gp_xs_one(gp_context *ctx, const T *in, size_t n, T *out, int64_t *acc_out) {
  constexpr unsigned ROW = GP_XS_THREADS * (16 / sizeof(T)); /* elements a row */
  cudaStream_t st = (cudaStream_t)ctx->stream;
  const bool vec = gp_load_mode(in, n * sizeof(T)) != GP_LOAD_SCALAR; /* 16-byte aligned */
  static_assert(GP_XS_ONE_SMALL_N <= GP_XS_ONE_MID_N && GP_XS_ONE_MID_N <= GP_XS_ONE_BLOCK_N,
                "the one-block shapes in order");
  if (n <= GP_XS_ONE_SMALL_N)
    gp_xs_one_launch<T, GP_XS_ONE_SMALL_N / ROW>(st, vec, in, n, out, acc_out);
  else if (n <= GP_XS_ONE_MID_N)
    gp_xs_one_launch<T, GP_XS_ONE_MID_N / ROW>(st, vec, in, n, out, acc_out);
  else
    gp_xs_one_launch<T, GP_XS_ONE_BLOCK_N / ROW>(st, vec, in, n, out, acc_out);
  GP_LAUNCH_CHECK(ctx, "gp_sum_exact_one", 1, GP_XS_THREADS, 0);
  return GP_OK;
}

/* Blocks of the kernel that fit on the device at once. */
template <typename T, int LD, bool WIN> static unsigned gp_xs_resident(gp_context *ctx) {
  static int per_sm[GP_RESIDENT_MAX_DEVICES];
  return gp_resident_blocks(ctx, gp_sum_exact_kernel<T, LD, WIN>, GP_XS_THREADS, per_sm);
}

/* Tiles of the kernel (the most blocks it can use) for n elements of T. */
template <typename T> static size_t gp_xs_tiles(size_t n) {
  constexpr size_t TE = gp_xs_tile_elems<T>();
  return n / TE + (n % TE != 0);
}

template <typename T, int LD, bool WIN>
static gp_status gp_xs_launch(gp_context *ctx, const T *in, size_t n, void *scratch, T *out,
                              int64_t *acc_out) {
  /* inputs of up to gp_xs_one_max elements come here only with a forced grid */
  size_t g = ctx->reduce_force_grid ? ctx->reduce_force_grid : gp_xs_resident<T, LD, WIN>(ctx);
  const size_t tiles = gp_xs_tiles<T>(n);
  /* F64 with the window, between 3/4 of a resident grid of tiles and one: two tiles a
     block (H200, 2026-12-02, docs/perf/reduce.md: 900000, 1000000 and 2^20 elements 7%
     faster; from half a grid it took 800000 and 600000 elements 1% and 4% slower) */
  if (WIN && !ctx->reduce_force_grid && tiles <= g && 4 * tiles > 3 * g) g = (tiles + 1) / 2;
  if (g > tiles) g = tiles;
  if (g > GP_XS_MAX_GRID) g = GP_XS_MAX_GRID;
  if (g < 1) g = 1;
  unsigned *ticket = NULL;
  gp_xs_u64 *gacc = NULL;
  if (g > 1) {
    gp_status s = gp_cuda_reduce_next_slot(ctx, &ticket, &gacc);
    if (s != GP_OK) return s;
  }
  gp_sum_exact_kernel<T, LD, WIN><<<(unsigned)g, GP_XS_THREADS, 0, (cudaStream_t)ctx->stream>>>(
      in, n, static_cast<gp_xs_rec *>(scratch), gacc, ticket, out, acc_out);
  GP_LAUNCH_CHECK(ctx, "gp_sum_exact_kernel", g, GP_XS_THREADS, 0);
  return GP_OK;
}

/* the kernel with the window fold (F64 below GP_XS_WINDOW_MAX_N) or without */
template <typename T, int LD>
static gp_status gp_xs_pick(gp_context *ctx, const T *in, size_t n, void *scratch, T *out,
                            int64_t *acc_out) {
  if constexpr (gp_xs_fmt<T>::WINDOW) {
    if (n < GP_XS_WINDOW_MAX_N) return gp_xs_launch<T, LD, true>(ctx, in, n, scratch, out, acc_out);
    /* inputs of no_allocate's sizes take the window: the large-input kernel is not
       stamped with it (it would be only with GP_NOALLOC_MAX_BYTES raised) */
    if constexpr (LD == GP_LOAD_NOALLOC)
      return gp_xs_launch<T, GP_LOAD_VEC, false>(ctx, in, n, scratch, out, acc_out);
    else
      return gp_xs_launch<T, LD, false>(ctx, in, n, scratch, out, acc_out);
  } else {
    return gp_xs_launch<T, LD, false>(ctx, in, n, scratch, out, acc_out);
  }
}

template <typename T>
static gp_status gp_xs_run(gp_context *ctx, const void *d_in, size_t n, void *scratch,
                           void *d_out, int64_t *acc_out) {
  const T *in = static_cast<const T *>(d_in);
  T *out = static_cast<T *>(d_out);
  /* a forced grid (tests, measurements) takes the grid kernel at any n */
  if (n <= gp_xs_one_max<T>() && !ctx->reduce_force_grid) return gp_xs_one<T>(ctx, in, n, out, acc_out);
  switch (gp_load_mode(in, n * sizeof(T))) {
  case GP_LOAD_SCALAR: return gp_xs_pick<T, GP_LOAD_SCALAR>(ctx, in, n, scratch, out, acc_out);
  case GP_LOAD_NOALLOC: return gp_xs_pick<T, GP_LOAD_NOALLOC>(ctx, in, n, scratch, out, acc_out);
  default: return gp_xs_pick<T, GP_LOAD_VEC>(ctx, in, n, scratch, out, acc_out);
  }
}

extern "C" size_t gp_cuda_sum_exact_scratch_bytes(gp_dtype type, size_t n) {
  size_t g = type == GP_F32 ? gp_xs_tiles<float>(n) : gp_xs_tiles<double>(n);
  if (g > GP_XS_MAX_GRID) g = GP_XS_MAX_GRID;
  return g * sizeof(gp_xs_rec);
}

extern "C" gp_status gp_cuda_sum_exact(gp_context *ctx, gp_dtype type, const void *d_in, size_t n,
                                       void *scratch, void *d_out) {
  if (type == GP_F32) return gp_xs_run<float>(ctx, d_in, n, scratch, d_out, NULL);
  return gp_xs_run<double>(ctx, d_in, n, scratch, d_out, NULL);
}

extern "C" gp_status gp_cuda_sum_exact_acc(gp_context *ctx, gp_dtype type, const void *d_in,
                                           size_t n, int64_t *d_acc) {
  if (type == GP_F32) return gp_xs_run<float>(ctx, d_in, n, NULL, NULL, d_acc);
  return gp_xs_run<double>(ctx, d_in, n, NULL, NULL, d_acc);
}
