/* The exact accumulator behind the correctly rounded F32/F64 SUM (GP_REDUCE_AUTO), shared
 * by the CUDA kernel (src/cuda/reduce/reduce_exact.cu) and the CPU backend
 * (src/cpu/reduce_exact_cpu.c): a per-thread floating-point expansion that only takes an
 * addition when it is exact, and a fixed-point superaccumulator for everything else.
 *
 * Superaccumulator: L signed 64-bit limbs, limb i holds a 32-bit digit of weight
 * 2^(32 i) units, unit = 2^LSB (2^-149 for F32, 2^-1074 for F64: every input, and every
 * sum or TwoSum error of inputs, is an integer number of units). The 31 spare bits of a
 * limb defer carries: any order of limb additions gives the same integer (adds modulo
 * 2^64 are associative), so the result is deterministic by construction. Slot L holds
 * flags for NaN / +inf / -inf inputs. Rounded once at the end (round to nearest even).
 *
 * Expansion: F32 inputs accumulate in one double h, F64 inputs in two doubles (h, l);
 * an addition is committed only when an exactness test says it lost nothing (TwoSum on
 * the CPU, Fast2Sum in the CUDA kernels: the same decisions; and, for F64, the
 * head stays below 2^1000 so nothing can overflow); otherwise that one input goes to
 * the superaccumulator. For data of ordinary range that is almost never. The CUDA F32
 * chains instead let h take every input and carry its error into a tail
 * (gp_xs_carry_head / tail), and data spread over many binades moves both backends to
 * dense steps in three parts (reduce_exact.cu gp_xs_dense, reduce_exact_cpu.c
 * xs_dense1): the same exact sum either way. */
#ifndef GP_CORE_EXACT_SUM_H
#define GP_CORE_EXACT_SUM_H

#include <math.h>
#include <stdint.h>

#include "core/reduce_tree.h"

#define GP_XS_F32_LSB (-149)
#define GP_XS_F32_LIMBS 11 /* 352 bits: up to 2^203, headroom over 2^128 for any n */
#define GP_XS_F64_LSB (-1074)
#define GP_XS_F64_LIMBS 68 /* 2176 bits: up to 2^1102 */
#define GP_XS_MAX_LIMBS 68
#define GP_XS_NAN 1u
#define GP_XS_PINF 2u
#define GP_XS_NINF 4u
#define GP_XS_NOT_NEG0 8u /* some input was not -0: an exact zero sum is +0, else -0 */
#define GP_XS_F64_HEAD_MAX 1e300 /* heads stay below this: TwoSum cannot overflow */

/* h += x if that is exact (returns 1); otherwise h is unchanged (returns 0). A NaN or
 * infinite x always returns 0 (its error term is NaN). */
GP_RT_FN int gp_xs_add1(double *h, double x) {
  double s = *h + x;
  double bb = s - *h;
  double e = (*h - (s - bb)) + (x - bb);
  if (e != 0.0) return 0; /* also when x is NaN or inf: e is NaN then */
  *h = s;
  return 1;
}

/* (h, l) += x if exact and the head stays below GP_XS_F64_HEAD_MAX; else unchanged. */
GP_RT_FN int gp_xs_add2(double *h, double *l, double x) {
  double s = *h + x;
  double bb = s - *h;
  double e = (*h - (s - bb)) + (x - bb);
  if (e == 0.0) { /* l stays as it is: l + (+0) would turn a -0 l into +0 and lose -0 sums */
    if (!(fabs(s) < GP_XS_F64_HEAD_MAX)) return 0;
    *h = s;
    return 1;
  }
  double t = *l + e;
  double cc = t - *l;
  double f = (*l - (t - cc)) + (e - cc);
  if (f != 0.0 || !(fabs(s) < GP_XS_F64_HEAD_MAX)) return 0;
  *h = s;
  *l = t;
  return 1;
}

/* gp_xs_add1 and gp_xs_add2 by Fast2Sum (Dekker) instead of TwoSum: with a the operand
 * of the larger magnitude and b the other, s = fl(a + b), z = fl(s - a) is exact, and so
 * is the error b - z; s is exact iff z == b. The same decisions and results as the
 * TwoSum forms (both test exactness; an infinite s fails both, a NaN or infinite x
 * too), in fewer FP64 operations: add1 two additions and two compares where TwoSum
 * takes six additions and one (the choice of a and b is a select, not FP64 work).
 * The CUDA kernel's hot loop uses these. */
GP_RT_FN int gp_xs_fast_add1(double *h, double x) {
  const double s = *h + x;
  const int p = fabs(*h) >= fabs(x); /* false for a NaN x: then a = x, z is NaN */
  const double a = p ? *h : x, b = p ? x : *h;
  if (s - a != b) return 0;
  *h = s;
  return 1;
}

GP_RT_FN int gp_xs_fast_add2(double *h, double *l, double x) {
  const double s = *h + x;
  const int p = fabs(*h) >= fabs(x);
  const double a = p ? *h : x, b = p ? x : *h;
  const double z = s - a;
  if (z == b) { /* l stays as it is (gp_xs_add2: a -0 l would turn +0) */
    if (!(fabs(s) < GP_XS_F64_HEAD_MAX)) return 0;
    *h = s;
    return 1;
  }
  const double e = b - z; /* (h + x) - s, exactly; NaN or infinite when s is not finite */
  const double t = *l + e;
  const int q = fabs(*l) >= fabs(e);
  const double c = q ? *l : e, d = q ? e : *l;
  if (t - c != d || !(fabs(s) < GP_XS_F64_HEAD_MAX)) return 0;
  *h = s;
  *l = t;
  return 1;
}

/* The F32 chains of the CUDA kernels: (h, l) += x where h always takes the rounded sum
 * and the addition's exact error, when not zero, goes into l; what l cannot take
 * exactly (the error of l's own addition: 0 but for data spanning ~100 bits) is left for
 * the caller's superaccumulator. h's chain is one FP64 addition an element, and a chain
 * that once took a tiny input is not left failing every later addition (the
 * commit-only-when-exact form is: its h keeps the tiny input's low bits, so each
 * addition that needs one bit more fails again, and on the H200 a normal sample with
 * three such chains ran 30% slower, lognormal data 5x: docs/perf/reduce.md). In two
 * halves so that the kernels keep the second out of line:
 * gp_xs_carry_head: h = fl(h + x); returns nonzero when that was inexact, the error
 * (h + x) - s being *b - *z then (exactly when s is finite; not finite when s is not: a
 * NaN or infinite input, which h then carries; F32 inputs cannot overflow a double). */
GP_RT_FN int gp_xs_carry_head(double *h, double x, double *b, double *z) {
  const double s = *h + x;
  const int p = fabs(*h) >= fabs(x);
  const double a = p ? *h : x;
  *b = p ? x : *h;
  *z = s - a;
  *h = s;
  return *z != *b;
}

/* gp_xs_carry_tail: l += e for a finite e; returns the rest (l + e) - new l, exactly.
 * A non-finite e leaves l as it is and returns 0. */
GP_RT_FN double gp_xs_carry_tail(double *l, double e) {
  if (!(e - e == 0.0)) return 0.0;
  const double t = *l + e;
  const int q = fabs(*l) >= fabs(e);
  const double c = q ? *l : e, d = q ? e : *l;
  *l = t;
  return d - (t - c);
}

/* both halves: the rest, which the caller must put into its superaccumulator */
GP_RT_FN double gp_xs_carry_add(double *h, double *l, double x) {
  double b, z;
  if (!gp_xs_carry_head(h, x, &b, &z)) return 0.0;
  return gp_xs_carry_tail(l, b - z);
}

/* h + l (an exact sum held as two doubles) rounded once to float: the double sum
 * rounded to odd (truncated, its last bit set when inexact), which has enough bits
 * over float's 24 that narrowing it rounds as the exact sum would (a double rounding
 * of h + l could land on a tie between two floats and break it the wrong way). */
GP_RT_FN float gp_xs_narrow_f32(double h, double l) {
  const double s = h + l;
  const double bb = s - h;
  const double e = (h - (s - bb)) + (l - bb); /* TwoSum: (h + l) - s */
  if (e == 0.0 || !(s - s == 0.0)) return (float)s;
  uint64_t u = gp_rt_f64_bits(s); /* s != 0: h + l == 0 would be exact */
  if ((e < 0.0) != (s < 0.0)) u -= 1u; /* |exact| < |s|: one step toward zero */
  return (float)gp_rt_f64_from(u | 1u);
}

/* x (finite, an integer number of 2^lsb units) as three signed 32-bit digits d[0..2]
 * of limbs k, k+1, k+2; returns k, or -1 for x = 0. */
GP_RT_FN int gp_xs_split(double x, int lsb, int64_t d[3]) {
  uint64_t b = gp_rt_f64_bits(x);
  int e = (int)((b >> 52) & 0x7ff);
  uint64_t m = b & 0xfffffffffffffull;
  if (e == 0) e = 1; else m |= 1ull << 52;
  if (m == 0) return -1;
  int p = e - 1075 - lsb; /* bit position of m's lowest bit in units */
  if (p < 0) { m >>= -p; p = 0; } /* only zero bits drop: x is a multiple of the unit */
  int k = p >> 5, r = p & 31;
  int64_t d0 = (int64_t)((m << r) & 0xffffffffull);
  int64_t d1 = (int64_t)((m >> (32 - r)) & 0xffffffffull);
  int64_t d2 = r ? (int64_t)(m >> (64 - r)) : 0;
  if (b >> 63) { d0 = -d0; d1 = -d1; d2 = -d2; }
  d[0] = d0; d[1] = d1; d[2] = d2;
  return k;
}

/* The flag of a non-finite x. */
GP_RT_FN unsigned gp_xs_flag(double x) {
  if (x != x) return GP_XS_NAN;
  return x > 0 ? GP_XS_PINF : GP_XS_NINF;
}

/* A head starts at -0 and stays -0 exactly while every input it took was -0 (IEEE:
 * only -0 + -0 gives -0), so a final head other than -0 flags GP_XS_NOT_NEG0. */
GP_RT_FN unsigned gp_xs_head_flag(double h) {
  return gp_rt_f64_bits(h) != 0x8000000000000000ull ? GP_XS_NOT_NEG0 : 0u;
}

/* Plain (single-threaded) add of any x into acc[0..L] (slot L: flags). */
GP_RT_FN void gp_xs_add_plain(int64_t *acc, int L, int lsb, double x) {
  if (!(x - x == 0.0)) { acc[L] |= (int64_t)gp_xs_flag(x); return; }
  int64_t d[3];
  int k = gp_xs_split(x, lsb, d);
  if (k < 0) return;
  acc[L] |= GP_XS_NOT_NEG0;
  acc[k] = (int64_t)((uint64_t)acc[k] + (uint64_t)d[0]); /* wraps, never UB */
  acc[k + 1] = (int64_t)((uint64_t)acc[k + 1] + (uint64_t)d[1]);
  if (k + 2 < L) acc[k + 2] = (int64_t)((uint64_t)acc[k + 2] + (uint64_t)d[2]);
}

/* Carries propagated: limbs 0..L-2 become digits in [0, 2^32), the top limb signed. */
GP_RT_FN void gp_xs_normalize(int64_t *acc, int L) {
  for (int i = 0; i < L - 1; i++) {
    int64_t c = acc[i] >> 32; /* arithmetic shift: floor division by 2^32 */
    acc[i] -= (int64_t)((uint64_t)c << 32);
    acc[i + 1] = (int64_t)((uint64_t)acc[i + 1] + (uint64_t)c);
  }
}

GP_RT_FN uint64_t gp_xs_digit(const uint32_t *mag, int L, int i) {
  return i >= 0 && i < L ? mag[i] : 0u;
}
/* bits [pos, pos + cnt) of the magnitude (cnt <= 53) */
GP_RT_FN uint64_t gp_xs_bits(const uint32_t *mag, int L, int pos, int cnt) {
  int i = pos >> 5, r = pos & 31;
  uint64_t w = (gp_xs_digit(mag, L, i + 1) << 32 | gp_xs_digit(mag, L, i)) >> r;
  if (r) w |= gp_xs_digit(mag, L, i + 2) << (64 - r);
  return w & ((1ull << cnt) - 1);
}
/* whether any of bits [0, pos) is set */
GP_RT_FN int gp_xs_any_below(const uint32_t *mag, int pos) {
  for (int i = 0; i < (pos >> 5); i++)
    if (mag[i]) return 1;
  return (pos & 31) && (mag[pos >> 5] & ((1u << (pos & 31)) - 1u));
}

/* The normalized accumulator acc[0..L] rounded once to prec bits (24 or 53) and
 * returned as a double (exactly the float result for prec 24, which the caller
 * narrows: a value of 2^128 or more becomes inf there). NaN if a NaN was added or
 * both infinities; an infinity if one kind was; for an exact zero, -0 if every input
 * was -0 (as IEEE addition gives), else +0. */
GP_RT_FN double gp_xs_round(const int64_t *acc, int L, int lsb, int prec) {
  unsigned fl = (unsigned)acc[L];
  if ((fl & GP_XS_NAN) || (fl & (GP_XS_PINF | GP_XS_NINF)) == (GP_XS_PINF | GP_XS_NINF))
    return gp_rt_f64_from(GP_RT_F64_QNAN);
  if (fl & GP_XS_PINF) return gp_rt_f64_from(0x7ff0000000000000ull);
  if (fl & GP_XS_NINF) return gp_rt_f64_from(0xfff0000000000000ull);
  uint32_t mag[GP_XS_MAX_LIMBS];
  const int neg = acc[L - 1] < 0;
  uint64_t carry = 1;
  for (int i = 0; i < L; i++) {
    uint32_t u = (uint32_t)(uint64_t)acc[i];
    if (neg) {
      uint64_t v = (uint64_t)(uint32_t)~u + carry;
      mag[i] = (uint32_t)v;
      carry = v >> 32;
    } else {
      mag[i] = u;
    }
  }
  int top = -1;
  for (int i = L - 1; i >= 0 && top < 0; i--)
    if (mag[i])
      for (int j = 31; j >= 0; j--)
        if ((mag[i] >> j) & 1u) { top = 32 * i + j; break; }
  if (top < 0) return (fl & GP_XS_NOT_NEG0) ? 0.0 : -0.0;
  int shift = top + 1 > prec ? top + 1 - prec : 0;
  uint64_t m = gp_xs_bits(mag, L, shift, prec);
  if (shift > 0) {
    int guard = (int)gp_xs_bits(mag, L, shift - 1, 1);
    int sticky = gp_xs_any_below(mag, shift - 1);
    if (guard && (sticky || (m & 1u))) m++;
  }
  double r = ldexp((double)m, lsb + shift);
  return neg ? -r : r;
}

#endif
