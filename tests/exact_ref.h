/* An independent exact reference for float sums, written for the tests (it shares no
 * code with src/core/exact_sum.h): a 2560-bit two's-complement integer of 2^-1074 units
 * updated with full carry propagation per element, then rounded to 24 or 53 bits by
 * comparing the dropped bits with one half. NaN/inf and the sign of an exact zero as
 * IEEE addition gives them; n = 0 gives +0 (gp_reduce's contract). */
#ifndef GP_TESTS_EXACT_REF_H
#define GP_TESTS_EXACT_REF_H

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#define XR_DIGITS 80 /* 32-bit digits */

typedef struct {
  uint32_t d[XR_DIGITS];
  int nan, pinf, ninf, not_neg0; /* not_neg0: some input was not -0 */
} xr_acc;

/* acc += sign * (m << pos) */
static void xr_add_shifted(xr_acc *a, uint64_t m, int pos, int negative) {
  uint32_t add[XR_DIGITS];
  memset(add, 0, sizeof add);
  for (int b = 0; b < 64; b++)
    if ((m >> b) & 1u) add[(pos + b) / 32] |= 1u << ((pos + b) % 32);
  if (negative) { /* two's complement of add */
    uint64_t c = 1;
    for (int i = 0; i < XR_DIGITS; i++) {
      uint64_t v = (uint64_t)(uint32_t)~add[i] + c;
      add[i] = (uint32_t)v;
      c = v >> 32;
    }
  }
  uint64_t c = 0;
  for (int i = 0; i < XR_DIGITS; i++) {
    uint64_t v = (uint64_t)a->d[i] + add[i] + c;
    a->d[i] = (uint32_t)v;
    c = v >> 32;
  }
}

static void xr_add(xr_acc *a, double x) {
  if (isnan(x)) { a->nan = 1; return; }
  if (isinf(x)) { if (x > 0) a->pinf = 1; else a->ninf = 1; return; }
  if (!(x == 0 && signbit(x))) a->not_neg0 = 1;
  if (x == 0) return;
  int e;
  double f = frexp(fabs(x), &e);            /* |x| = f * 2^e, f in [0.5, 1) */
  uint64_t m = (uint64_t)ldexp(f, 53);       /* exact: at most 53 significant bits */
  int pos = e - 53 + 1074;                    /* |x| = m * 2^(pos - 1074) */
  while (pos < 0) { m >>= 1; pos++; }         /* only zero bits (x is a multiple of 2^-1074) */
  xr_add_shifted(a, m, pos, x < 0);
}

static int xr_bit(const uint32_t *mag, int q) { return q >= 0 ? (int)((mag[q / 32] >> (q % 32)) & 1u) : 0; }

/* The exact sum rounded to nearest-even with `prec` bits and smallest unit 2^min_exp. */
static double xr_round(const xr_acc *a, int prec, int min_exp) {
  if (a->nan || (a->pinf && a->ninf)) return NAN;
  if (a->pinf) return INFINITY;
  if (a->ninf) return -INFINITY;
  uint32_t mag[XR_DIGITS];
  int neg = (a->d[XR_DIGITS - 1] >> 31) & 1;
  memcpy(mag, a->d, sizeof mag);
  if (neg) {
    uint64_t c = 1;
    for (int i = 0; i < XR_DIGITS; i++) {
      uint64_t v = (uint64_t)(uint32_t)~mag[i] + c;
      mag[i] = (uint32_t)v;
      c = v >> 32;
    }
  }
  int top = -1;
  for (int q = 32 * XR_DIGITS - 1; q >= 0; q--)
    if (xr_bit(mag, q)) { top = q; break; }
  if (top < 0) return a->not_neg0 ? 0.0 : -0.0; /* IEEE: only -0 + -0 is -0 */
  int low = top + 1 - prec;                /* lowest kept bit, in 2^-1074 units */
  if (low < min_exp + 1074) low = min_exp + 1074;
  if (low < 0) low = 0;
  double kept = 0;
  for (int q = top; q >= low; q--)
    if (xr_bit(mag, q)) kept += ldexp(1.0, q - 1074); /* exact: prec bits at most */
  int up = 0;
  if (low > 0 && xr_bit(mag, low - 1)) {  /* dropped part >= half: compare with half */
    int rest = 0;
    for (int q = low - 2; q >= 0 && !rest; q--) rest = xr_bit(mag, q);
    up = rest || xr_bit(mag, low);         /* above half, or a tie with an odd kept part */
  }
  if (up) kept += ldexp(1.0, low - 1074);  /* may carry to 2^1024 = inf: correct */
  return neg ? -kept : kept;
}

static double xr_sum_f64(const double *x, size_t n) {
  static xr_acc a;
  memset(&a, 0, sizeof a);
  for (size_t i = 0; i < n; i++) xr_add(&a, x[i]);
  return n ? xr_round(&a, 53, -1074) : 0.0;
}
static float xr_sum_f32(const float *x, size_t n) {
  static xr_acc a;
  memset(&a, 0, sizeof a);
  for (size_t i = 0; i < n; i++) xr_add(&a, (double)x[i]);
  return n ? (float)xr_round(&a, 24, -149) : 0.0f; /* exact as a double; 2^128 and up become inf */
}

#endif
