/* A block's exact sum by a fixed-point window, for reduce_exact.cu: the short fold.
 *
 * Every value a thread holds (its expansions' heads and tails, or the records the last
 * block reads) is a double; the block takes the largest biased exponent E among them
 * and adds each value as a signed 128-bit integer of units 2^(E - 1075 - GP_XF_S) (at
 * least 2^-1074), the two's-complement sums modulo 2^128 added across a warp by a
 * butterfly of shuffles and by thread 0 across the warps. A value of
 * exponent E has its 53 bits at the top of the window's low 113, so up to 2^13 values
 * fit below bit 126 (sign and headroom included). Thread 0 turns the block's integer
 * back into doubles: h = the sum rounded to 53 bits, l = the rest when that fits a double
 * (the expansion is then exact and normalized); when the rest needs more than 53 bits,
 * its low part goes to the superaccumulator, as an inexact addition would. A block that
 * only writes a record for the last block takes the cheaper split into three 53-bit
 * chunks instead. Exact either way, so the bits never depend on the path.
 *
 * The window cannot hold a value with bits below its unit (an exponent range of more
 * than ~113 bits in one block) nor a block whose largest exponent could overflow a head;
 * then the whole block says no (block-uniform) and the caller folds the old way (exact
 * merges of TwoSum expansions, gp_xs_block_fold). The old fold takes ~8 levels of
 * dependent TwoSum merges and shuffles; this one three barriers, a butterfly of shuffles
 * and one thread's conversion. */
#ifndef GP_CUDA_REDUCE_EXACT_FOLD_CUH
#define GP_CUDA_REDUCE_EXACT_FOLD_CUH

#include "core/exact_sum.h"
#include "cuda/common/warp_reduce.cuh"

#define GP_XF_S 60        /* window bits below the lsb of a value of exponent E */
#define GP_XF_MAX_VALUES 8192u /* values a block may add: 53 + 60 + 13 = 126 bits */
#define GP_XF_EMAX 2000   /* largest E taken: sums stay below 2^991 < GP_XS_F64_HEAD_MAX */

#define GP_XS_USED 16u /* in-kernel flag: a superaccumulator took an addition */
/* flags that send a sum through the limbs: not finite, or not all in the expansions */
#define GP_XS_SPECIAL (GP_XS_NAN | GP_XS_PINF | GP_XS_NINF | GP_XS_USED)

typedef unsigned long long gp_xf_u64;

/* a signed 128-bit integer, two's complement */
struct gp_xf_i128 {
  gp_xf_u64 lo, hi;
};

/* what a block's warps leave in shared memory for thread 0 */
template <unsigned WARPS> struct gp_xf_smem {
  gp_xf_u64 part[WARPS][2]; /* each warp's sum, lo and hi */
  unsigned flags[WARPS];
  int emax[WARPS];
};

/* the biased exponent that sets v's unit (1 for zeros and subnormals) */
__device__ __forceinline__ int gp_xf_bexp(double v) {
  const int e = (int)((gp_xf_u64)__double_as_longlong(v) >> 52 & 0x7ff);
  return e ? e : 1;
}

/* the unbiased exponent of the window's unit for block exponent E */
__device__ __forceinline__ int gp_xf_unit(int E) { return max(E - 1075 - GP_XF_S, -1074); }

__device__ __forceinline__ void gp_xf_add_at(gp_xf_i128 &a, gp_xf_u64 lo, gp_xf_u64 hi) {
  a.lo += lo;
  a.hi += hi + (a.lo < lo);
}

/* a += v (finite) in units 2^unit; false (a unchanged) when v has bits below the unit */
__device__ __forceinline__ bool gp_xf_add(gp_xf_i128 &a, double v, int unit) {
  const gp_xf_u64 b = (gp_xf_u64)__double_as_longlong(v);
  const int be = (int)(b >> 52 & 0x7ff);
  gp_xf_u64 m = (b & 0xfffffffffffffull) | (be ? 1ull << 52 : 0ull);
  int sh = (be ? be : 1) - 1075 - unit; /* <= GP_XF_S: E is the largest exponent */
  if (sh < 0) {
    if (sh <= -53) return m == 0;
    if (m & ((1ull << -sh) - 1)) return false;
    m >>= -sh;
    sh = 0;
  }
  gp_xf_u64 lo = m << sh, hi = sh ? m >> (64 - sh) : 0ull;
  if (b >> 63) {
    lo = ~lo + 1;
    hi = ~hi + (lo == 0);
  }
  gp_xf_add_at(a, lo, hi);
  return true;
}

/* x * 2^k, exact when the result is representable (k >= -1074 - 52) */
__device__ __forceinline__ double gp_xf_scale(double x, int k) {
  if (k < -1000) return x * __longlong_as_double((long long)(k + 64 + 1023) << 52) * 0x1p-64;
  return x * __longlong_as_double((long long)(k + 1023) << 52);
}

/* The block's largest exponent of the values e (each thread's max of gp_xf_bexp); all
 * threads call it and get it. */
template <unsigned WARPS>
__device__ __forceinline__ int gp_xf_block_emax(int e, gp_xf_smem<WARPS> *sm) {
  const unsigned lane = threadIdx.x % GP_WARP_SIZE, warp = threadIdx.x / GP_WARP_SIZE;
  e = (int)__reduce_max_sync(GP_FULL_MASK, (unsigned)e);
  if (lane == 0) sm->emax[warp] = e;
  __syncthreads();
  int E = sm->emax[0];
#pragma unroll
  for (unsigned w = 1; w < WARPS; w++) E = max(E, sm->emax[w]);
  return E;
}

/* The magnitude m (nonzero, below 2^127) times sign, in units 2^unit, as h = RN(value)
 * and l = the rest; a rest wider than 53 bits keeps its top 53 bits in l and leaves the
 * others in rest[0..1] (exact doubles, else +0) for the superaccumulator. */
__device__ __noinline__ void gp_xf_to_doubles(gp_xf_u64 mlo, gp_xf_u64 mhi, bool neg, int unit,
                                                 double &h, double &l, double (&rest)[2]) {
  const int p = mhi ? 127 - __clzll((long long)mhi) : 63 - __clzll((long long)mlo);
  const double sg = neg ? -1.0 : 1.0;
  if (p <= 52) {
    h = sg * gp_xf_scale((double)mlo, unit);
    l = -0.0;
    return;
  }
  const int sh = p - 52; /* 1 .. 74 */
  /* t = m >> sh (53 bits), r = the sh bits below */
  gp_xf_u64 t, rlo, rhi;
  if (sh < 64) {
    t = mlo >> sh | mhi << (64 - sh);
    rlo = mlo & ((1ull << sh) - 1);
    rhi = 0;
  } else {
    t = mhi >> (sh - 64);
    rlo = mlo;
    rhi = sh == 64 ? 0ull : mhi & ((1ull << (sh - 64)) - 1);
  }
  /* round to nearest, ties to even: compare r with half = 2^(sh - 1) */
  const gp_xf_u64 half_lo = sh - 1 < 64 ? 1ull << (sh - 1) : 0ull;
  const gp_xf_u64 half_hi = sh - 1 < 64 ? 0ull : 1ull << (sh - 1 - 64);
  const bool above = rhi > half_hi || (rhi == half_hi && rlo > half_lo);
  const bool tie = rhi == half_hi && rlo == half_lo;
  bool dneg = false; /* the rest's sign relative to the magnitude */
  if (above || (tie && (t & 1))) { /* t + 1, and the rest r - 2^sh (negative) */
    t++;
    const gp_xf_u64 slo = sh < 64 ? 1ull << sh : 0ull, shi = sh < 64 ? 0ull : 1ull << (sh - 64);
    const gp_xf_u64 dlo = slo - rlo;
    rhi = shi - rhi - (slo < rlo);
    rlo = dlo;
    dneg = true;
  }
  h = sg * gp_xf_scale((double)t, unit + sh);
  if (!(rlo | rhi)) {
    l = -0.0;
    return;
  }
  /* the rest: its set bits from q (lowest) to its top */
  const int q = rlo ? __ffsll((long long)rlo) - 1 : 64 + __ffsll((long long)rhi) - 1;
  const int top = rhi ? 127 - __clzll((long long)rhi) : 63 - __clzll((long long)rlo);
  const double rs = dneg ? -sg : sg;
  gp_xf_u64 ulo = rlo, uhi = rhi;
  int base = unit;
  if (top - q >= 53) { /* bits below top - 52 go to the superaccumulator, exactly */
    const int cut = top - 52; /* 1 .. 73 */
    gp_xf_u64 low_lo, low_hi;
    if (cut < 64) {
      low_lo = ulo & ((1ull << cut) - 1);
      low_hi = 0;
      ulo = ulo >> cut | uhi << (64 - cut);
      uhi >>= cut;
    } else {
      low_lo = ulo;
      low_hi = cut == 64 ? 0ull : uhi & ((1ull << (cut - 64)) - 1);
      ulo = uhi >> (cut - 64);
      uhi = 0;
    }
    /* the low part has at most 73 bits: two exact doubles */
    const double l1 = (double)(low_lo & ((1ull << 52) - 1));
    const double l2 = (double)(low_lo >> 52 | low_hi << 12);
    rest[0] = rs * gp_xf_scale(l1, unit);
    rest[1] = rs * gp_xf_scale(l2, unit + 52);
    base = unit + cut;
  } else if (q >= 64) {
    ulo = uhi;
    uhi = 0;
    base = unit + 64;
  }
  /* what is left fits 53 bits above its lowest set bit; with q < 64 and top <= 73 it may
   * still straddle the words: shift it down to its lowest set bit first */
  const int q2 = ulo ? __ffsll((long long)ulo) - 1 : 0;
  const gp_xf_u64 v = q2 ? (ulo >> q2 | (uhi << (64 - q2))) : ulo;
  l = rs * gp_xf_scale((double)v, base + q2);
}

/* The magnitude m (nonzero, below 2^127) times sign, in units 2^unit, rounded once to
 * the nearest double (ties to even): the short conversion, for a block whose sum is the
 * call's result. A sum of more than 53 bits (p > 52) is at least 2^(unit + 53) >=
 * 2^-1021, a normal double, so rounding to 53 bits here is the only rounding; one of up
 * to 53 bits is exact at any unit >= -1074. */
__device__ __forceinline__ double gp_xf_round(gp_xf_u64 mlo, gp_xf_u64 mhi, bool neg, int unit) {
  const int p = mhi ? 127 - __clzll((long long)mhi) : 63 - __clzll((long long)mlo);
  const double sg = neg ? -1.0 : 1.0;
  if (p <= 52) return sg * gp_xf_scale((double)mlo, unit);
  const int sh = p - 52, g = sh - 1; /* 1 .. 74: t = m >> sh, the guard bit g */
  gp_xf_u64 t = sh < 64 ? mlo >> sh | mhi << (64 - sh) : mhi >> (sh - 64);
  const unsigned guard = (unsigned)((g < 64 ? mlo >> g : mhi >> (g - 64)) & 1u);
  const bool sticky = g < 64 ? (mlo & ((1ull << g) - 1)) != 0
                             : (mlo | (mhi & ((1ull << (g - 64)) - 1))) != 0;
  t += guard & (unsigned)(sticky || (t & 1)); /* 2^53 at most: exact */
  return sg * gp_xf_scale((double)t, unit + sh);
}

/* The magnitude m (nonzero, below 2^127) times sign, in units 2^unit, as three exact
 * doubles h + l + r, each 53 bits of it (top, middle, low; not normalized): the cheap
 * conversion, for a block record that the last block adds again exactly. */
__device__ __forceinline__ void gp_xf_to_chunks(gp_xf_u64 mlo, gp_xf_u64 mhi, bool neg, int unit,
                                                double &h, double &l, double &r) {
  const gp_xf_u64 low = (1ull << 53) - 1;
  const double sg = neg ? -1.0 : 1.0;
  h = sg * gp_xf_scale((double)(mhi >> 42), unit + 106);
  l = sg * gp_xf_scale((double)((mlo >> 53 | mhi << 11) & low), unit + 53);
  r = sg * gp_xf_scale((double)(mlo & low), unit);
}

/* What gp_xf_block_sum gives thread 0. */
enum gp_xf_mode {
  GP_XF_CHUNKS, /* h, l, rest[0]: three 53-bit chunks of the sum (gp_xf_to_chunks) */
  GP_XF_EXACT,  /* h: the sum rounded to nearest, l: the rest when it fits a double,
                   rest (usually +0): the remainder for the superaccumulator */
  /* the caller only needs the sum rounded once (the call's result) unless the flags
     say otherwise: h the sum rounded, l -0 and rest +0 when fl has none of
     GP_XS_SPECIAL, else as GP_XF_EXACT */
  GP_XF_FINAL
};
/* 0: GP_XF_FINAL as GP_XF_EXACT (for A/B measurements). 1 took F64 sums 0.3 us faster
   at every size from 2^10 to 2^24 (H200, 2026-12-03, s20-a, docs/perf/reduce.md: 2^11
   5.44 against 5.60-5.76 us, 2^20 12.51 against 12.83-12.86) */
#ifndef GP_XF_FINAL_RN
#define GP_XF_FINAL_RN 1
#endif

/* The block's exact sum of every thread's window integer a (each added by gp_xf_add at
 * gp_xf_unit(E)). ok: the thread's values all fit. Returns false, the same in every
 * thread, when some did not: the caller folds the old way. Otherwise thread 0 gets the
 * sum as mode says and fl as every thread's flags ORed; a zero sum is -0 when no
 * thread's fl has GP_XS_NOT_NEG0, else +0 (in h; l and rest zero). Every thread must
 * call it. */
template <unsigned WARPS>
__device__ __forceinline__ bool gp_xf_block_sum(gp_xf_i128 a, bool ok, unsigned &fl, int E,
                                                gp_xf_smem<WARPS> *sm, double &h, double &l,
                                                double (&rest)[2], gp_xf_mode mode) {
  if (!__syncthreads_and(ok && E <= GP_XF_EMAX)) return false;
  const unsigned lane = threadIdx.x % GP_WARP_SIZE, warp = threadIdx.x / GP_WARP_SIZE;
  /* the warp's sum by a butterfly of shuffles, where eight __reduce_add_sync of 16-bit
     digits were slower (H200, docs/perf/reduce.md) */
#pragma unroll
  for (unsigned o = GP_WARP_SIZE / 2; o > 0; o /= 2)
    gp_xf_add_at(a, __shfl_xor_sync(GP_FULL_MASK, a.lo, o), __shfl_xor_sync(GP_FULL_MASK, a.hi, o));
  const unsigned wfl = __reduce_or_sync(GP_FULL_MASK, fl);
  if (lane == 0) {
    sm->part[warp][0] = a.lo;
    sm->part[warp][1] = a.hi;
    sm->flags[warp] = wfl;
  }
  __syncthreads();
  rest[0] = rest[1] = 0.0;
  if (threadIdx.x != 0) return true;
  gp_xf_i128 x = {0ull, 0ull};
  fl = 0u;
#pragma unroll
  for (unsigned w = 0; w < WARPS; w++) {
    fl |= sm->flags[w];
    gp_xf_add_at(x, sm->part[w][0], sm->part[w][1]);
  }
  const bool neg = x.hi >> 63;
  if (neg) {
    x.lo = ~x.lo + 1;
    x.hi = ~x.hi + (x.lo == 0);
  }
  if (!(x.lo | x.hi)) {
    h = (fl & GP_XS_NOT_NEG0) ? 0.0 : -0.0;
    l = -0.0;
    return true;
  }
  if (mode == GP_XF_CHUNKS) {
    gp_xf_to_chunks(x.lo, x.hi, neg, gp_xf_unit(E), h, l, rest[0]);
    return true;
  }
  if (GP_XF_FINAL_RN && mode == GP_XF_FINAL && !(fl & GP_XS_SPECIAL)) {
    h = gp_xf_round(x.lo, x.hi, neg, gp_xf_unit(E));
    l = -0.0;
    return true;
  }
  gp_xf_to_doubles(x.lo, x.hi, neg, gp_xf_unit(E), h, l, rest);
  return true;
}

#endif
