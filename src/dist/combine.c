/* gp_dist_reduce's combine of the ranks' records (combine.h): exact for every op, so the
 * result has the bits of one gp_reduce over the whole array. */
#include "dist/combine.h"
#include "dist/dist.h"
#include "core/exact_sum.h"
#include "core/reduce_tree.h"

#include <string.h>

_Static_assert((GP_XS_F64_LIMBS + 1 + 3) * 8 <= GP_DIST_REC_BYTES,
               "a record slot holds the F64 superaccumulator and the 3-word trailer");

static int is_float_sum(gp_op op, gp_dtype type) {
  return op == GP_SUM && (type == GP_F32 || type == GP_F64);
}

size_t gp_dist_rec_words(gp_op op, gp_dtype type) {
  if (!is_float_sum(op, type)) return 1;
  return (size_t)(type == GP_F32 ? GP_XS_F32_LIMBS : GP_XS_F64_LIMBS) + 1;
}

/* the exact sum of every rank's superaccumulator, rounded once */
static void float_sum(gp_dtype type, const uint64_t *recs, size_t stride, const uint64_t *n,
                      int nranks, void *out) {
  const int L = type == GP_F32 ? GP_XS_F32_LIMBS : GP_XS_F64_LIMBS;
  int64_t acc[GP_XS_MAX_LIMBS + 1];
  uint64_t total = 0;
  memset(acc, 0, sizeof acc);
  for (int r = 0; r < nranks; r++) {
    const uint64_t *rec = recs + (size_t)r * stride;
    total += n[r];
    for (int i = 0; i < L; i++) acc[i] = (int64_t)((uint64_t)acc[i] + rec[i]);
    acc[L] |= (int64_t)rec[L];
  }
  gp_xs_normalize(acc, L);
  if (type == GP_F32) {
    float r = total ? gp_rt_canon_f32((float)gp_xs_round(acc, L, GP_XS_F32_LSB, 24)) : 0.0f;
    memcpy(out, &r, sizeof r);
  } else {
    double r = total ? gp_rt_canon_f64(gp_xs_round(acc, L, GP_XS_F64_LSB, 53)) : 0.0;
    memcpy(out, &r, sizeof r);
  }
}

/* one more value v into the running result x (of `type`, MIN or MAX) */
static uint64_t minmax(gp_op op, gp_dtype type, uint64_t x, uint64_t v) {
  const int mn = op == GP_MIN;
  switch (type) {
  case GP_F32: {
    float a = gp_rt_f32_from((uint32_t)x), b = gp_rt_f32_from((uint32_t)v);
    return gp_rt_f32_bits(mn ? gp_rt_min_f32(a, b) : gp_rt_max_f32(a, b));
  }
  case GP_F64: {
    double a = gp_rt_f64_from(x), b = gp_rt_f64_from(v);
    return gp_rt_f64_bits(mn ? gp_rt_min_f64(a, b) : gp_rt_max_f64(a, b));
  }
  case GP_I32: {
    int32_t a = (int32_t)(uint32_t)x, b = (int32_t)(uint32_t)v;
    return (uint32_t)(mn ? (b < a ? b : a) : (b > a ? b : a));
  }
  case GP_I64: {
    int64_t a = (int64_t)x, b = (int64_t)v;
    return (uint64_t)(mn ? (b < a ? b : a) : (b > a ? b : a));
  }
  default: /* U32 (zero-extended), U64 */
    return mn ? (v < x ? v : x) : (v > x ? v : x);
  }
}

void gp_dist_combine(gp_op op, gp_dtype type, const uint64_t *recs, size_t stride,
                     const uint64_t *n, int nranks, void *out) {
  if (is_float_sum(op, type)) {
    float_sum(type, recs, stride, n, nranks, out);
    return;
  }
  const size_t osize = gp_dtype_size(gp_reduce_out_type(op, type));
  uint64_t x = 0;
  int have = 0;
  for (int r = 0; r < nranks; r++) {
    if (op == GP_SUM) {
      x += recs[(size_t)r * stride]; /* integer SUM: 64-bit wrap-around, as gp_reduce */
    } else if (n[r]) {
      const uint64_t v = recs[(size_t)r * stride];
      x = have ? minmax(op, type, x, v) : v;
      have = 1;
    }
  }
  memcpy(out, &x, osize); /* little-endian: the low bytes are the element */
}
