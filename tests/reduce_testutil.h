/* Shared by the reduction tests: the DESIGN.md matrix (sizes, data patterns), test data
 * generation, and independent references (exact unsigned 64-bit integer sums, long
 * double float sums with an error bound per algorithm, plain MIN/MAX loops with the
 * NaN / -0 rules written out again here). */
#ifndef GP_TESTS_REDUCE_TESTUTIL_H
#define GP_TESTS_REDUCE_TESTUTIL_H

#include "check.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

static const gp_dtype rt_types[] = {GP_F32, GP_F64, GP_I32, GP_I64, GP_U32, GP_U64};
static const gp_op rt_ops[] = {GP_SUM, GP_MIN, GP_MAX};
static const gp_reduce_algo rt_algos[] = {GP_REDUCE_AUTO, GP_REDUCE_INTERLEAVED,
                                          GP_REDUCE_SEQUENTIAL, GP_REDUCE_TWO_PHASE,
                                          GP_REDUCE_WARP_ATOMIC};

enum { PAT_RANDOM, PAT_CONST, PAT_SORTED, PAT_REVERSED, PAT_DUPS, PAT_COUNT };
static const char *rt_pat_name[] = {"random", "constant", "sorted", "reversed", "duplicates"};

/* Fills n elements of type t with the pattern (deterministic for a given seed). */
static inline void rt_fill(void *buf, gp_dtype t, size_t n, int pat, uint64_t seed) {
  check_seed(seed);
  for (size_t i = 0; i < n; i++) {
    double d; /* float value */
    int64_t k; /* integer value (random draws use the full 64 bits below) */
    uint64_t r = check_rand64();
    switch (pat) {
    case PAT_CONST: d = 1.25; k = 7; break;
    case PAT_SORTED: d = (double)i * 0.5 - (double)n * 0.25; k = (int64_t)i * 3 - (int64_t)n; break;
    case PAT_REVERSED: d = (double)(n - i) * 0.5 - (double)n * 0.25; k = (int64_t)(n - i) * 3 - (int64_t)n; break;
    case PAT_DUPS: d = (double)((int)(r % 7) - 3) * 0.75; k = (int64_t)(r % 5) - 2; break;
    default:
      /* mixed signs and magnitudes so the order of additions matters */
      d = (check_rand01() * 2.0 - 1.0) * ldexp(1.0, (int)(r % 20) - 4);
      k = (int64_t)r;
      break;
    }
    switch (t) {
    case GP_F32: ((float *)buf)[i] = (float)d; break;
    case GP_F64: ((double *)buf)[i] = d; break;
    case GP_I32: ((int32_t *)buf)[i] = (int32_t)(uint32_t)(uint64_t)k; break;
    case GP_I64: ((int64_t *)buf)[i] = k; break;
    case GP_U32: ((uint32_t *)buf)[i] = (uint32_t)(uint64_t)k; break;
    case GP_U64: ((uint64_t *)buf)[i] = (uint64_t)k; break;
    }
  }
}

/* ---- float MIN/MAX reference: written independently of src/core/reduce_tree.h ---- */
static inline double rt_minmax_f(double a, double b, int is_max) {
  if (a < b) return is_max ? b : a;
  if (b < a) return is_max ? a : b;
  /* equal: only +-0 can differ; min prefers -0, max prefers +0 */
  if (is_max) return signbit(a) ? b : a;
  return signbit(a) ? a : b;
}

/* The reference result as the out type's bits (uint64; 4-byte types in the low bits),
 * plus for float SUM the long double value and the sum of |x|. */
typedef struct rt_ref {
  uint64_t bits;
  long double sum;
  long double sum_abs;
  int any_nan;
} rt_ref;

static inline uint64_t rt_f32_bits(float x) { uint32_t u; memcpy(&u, &x, 4); return u; }
static inline uint64_t rt_f64_bits(double x) { uint64_t u; memcpy(&u, &x, 8); return u; }

static inline rt_ref rt_reference(gp_op op, gp_dtype t, const void *buf, size_t n) {
  rt_ref r;
  memset(&r, 0, sizeof r);
  if (t == GP_F32 || t == GP_F64) {
    int is_max = op == GP_MAX;
    double m = 0;
    for (size_t i = 0; i < n; i++) {
      double x = t == GP_F32 ? (double)((const float *)buf)[i] : ((const double *)buf)[i];
      if (isnan(x)) r.any_nan = 1;
      r.sum += (long double)x;
      r.sum_abs += fabsl((long double)x);
      m = i == 0 ? x : rt_minmax_f(m, x, is_max);
    }
    if (op == GP_SUM) {
      /* only meaningful for special-value checks; sums use the tolerance path */
      if (t == GP_F32) r.bits = rt_f32_bits((float)r.sum);
      else r.bits = rt_f64_bits((double)r.sum);
      if (r.any_nan || isnan(r.sum)) r.bits = t == GP_F32 ? 0x7fc00000u : 0x7ff8000000000000ull;
    } else if (r.any_nan) {
      r.bits = t == GP_F32 ? 0x7fc00000u : 0x7ff8000000000000ull;
    } else {
      r.bits = t == GP_F32 ? rt_f32_bits((float)m) : rt_f64_bits(m);
    }
    return r;
  }
  /* integers */
  uint64_t s = 0;
  int64_t smin = INT64_MAX, smax = INT64_MIN;
  uint64_t umin = UINT64_MAX, umax = 0;
  for (size_t i = 0; i < n; i++) {
    int64_t sv = 0;
    uint64_t uv = 0;
    switch (t) {
    case GP_I32: sv = ((const int32_t *)buf)[i]; uv = (uint64_t)sv; break;
    case GP_I64: sv = ((const int64_t *)buf)[i]; uv = (uint64_t)sv; break;
    case GP_U32: uv = ((const uint32_t *)buf)[i]; break;
    default: uv = ((const uint64_t *)buf)[i]; break;
    }
    s += uv;
    if (sv < smin) smin = sv;
    if (sv > smax) smax = sv;
    if (uv < umin) umin = uv;
    if (uv > umax) umax = uv;
  }
  int is_signed = t == GP_I32 || t == GP_I64;
  if (op == GP_SUM) r.bits = s;
  else if (is_signed) r.bits = (uint64_t)(op == GP_MIN ? smin : smax);
  else r.bits = op == GP_MIN ? umin : umax;
  if (t == GP_I32 && op != GP_SUM) r.bits &= 0xffffffffu;
  return r;
}

/* Reads the result written by gp_reduce as bits (out type). */
static inline uint64_t rt_out_bits(gp_op op, gp_dtype t, const void *out) {
  size_t sz = gp_dtype_size(gp_reduce_out_type(op, t));
  if (sz == 4) { uint32_t u; memcpy(&u, out, 4); return u; }
  uint64_t u; memcpy(&u, out, 8); return u;
}

static inline double rt_out_double(gp_op op, gp_dtype t, const void *out) {
  if (gp_reduce_out_type(op, t) == GP_F32) { float f; memcpy(&f, out, 4); return f; }
  double d; memcpy(&d, out, 8); return d;
}

static inline unsigned rt_log2ceil(size_t n) { unsigned k = 0; while (((size_t)1 << k) < n) k++; return k; }

/* An error bound for a float SUM by `algo`: (longest chain of additions) x eps of the
 * accumulator x sum |x|, plus the final rounding for AUTO F32 (accumulated in F64). */
static inline double rt_sum_tol(gp_dtype t, gp_reduce_algo algo, size_t n, unsigned two_phase_blocks,
                         const rt_ref *r) {
  double eps = t == GP_F32 ? FLT_EPSILON : DBL_EPSILON;
  double depth;
  switch (algo) {
  case GP_REDUCE_INTERLEAVED:
  case GP_REDUCE_SEQUENTIAL: depth = rt_log2ceil(n) + 2; break;
  case GP_REDUCE_TWO_PHASE:
    depth = (double)(n / ((size_t)two_phase_blocks * 256) + 1) + 8 + rt_log2ceil(two_phase_blocks) + 2;
    break;
  case GP_REDUCE_WARP_ATOMIC: {
    size_t g = (n + 1023) / 1024;
    if (g > 1024) g = 1024;
    if (g < 1) g = 1;
    depth = (double)(n / (g * 1024) + 1) + 10 + (double)g + 2;
    break;
  }
  default: {
    depth = (double)(n / 1024 + 1) + 20; /* generous: per-lane chains + trees */
    if (t == GP_F32) return DBL_EPSILON * depth * (double)r->sum_abs + FLT_EPSILON * fabs((double)r->sum);
    break;
  }
  }
  return eps * depth * (double)r->sum_abs + 1e-300;
}

#endif
