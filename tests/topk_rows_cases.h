/* gp_topk_rows cases shared by test_topk_rows (CPU) and test_topk_rows_gpu: every dtype
 * and order, rows of 1 .. 9000 elements (CUDA splits the long ones over 2 or 4 warps;
 * 1024 and 4096: whole register chunks of the select, one and two a warp), k from 1 to
 * the whole row (CUDA's select lists of 32, 64 and 128 and the sorts above),
 * data with many ties (and NaN, -0, inf for floats); each call's rows checked against
 * gp_topk of that row alone on the reference (CPU) context, bit for bit. */
#ifndef GP_TEST_TOPK_ROWS_CASES_H
#define GP_TEST_TOPK_ROWS_CASES_H
#include "check.h"

#include <math.h>
#include <stdint.h>

/* n elements of t: values from a small range (ties), and for floats a few specials */
static void tr_fill(gp_dtype t, void *p, size_t n, int range) {
  for (size_t i = 0; i < n; i++) {
    const int64_t v = (int64_t)(check_rand64() % (uint64_t)range) - range / 3;
    switch (t) {
    case GP_F32: ((float *)p)[i] = (float)v * 0.5f; break;
    case GP_F64: ((double *)p)[i] = (double)v * 0.25; break;
    case GP_I32: ((int32_t *)p)[i] = (int32_t)v; break;
    case GP_I64: ((int64_t *)p)[i] = v * 1000000007LL; break;
    case GP_U32: ((uint32_t *)p)[i] = (uint32_t)v; break;
    default: ((uint64_t *)p)[i] = (uint64_t)v; break;
    }
  }
  if ((t == GP_F32 || t == GP_F64) && n >= 8)
    for (int j = 0; j < 4; j++) {
      const size_t i = check_rand64() % n;
      const double sp[4] = {NAN, -0.0, INFINITY, -INFINITY};
      if (t == GP_F32) ((float *)p)[i] = (float)sp[j];
      else ((double *)p)[i] = sp[j];
    }
}

/* gp_topk_rows on ctx against gp_topk per row on ref; returns the number of rows checked */
static size_t tr_check(gp_context *ctx, gp_context *ref, gp_dtype t, const void *x, size_t rows,
                       size_t cols, size_t k, gp_order order) {
  const size_t es = gp_dtype_size(t);
  unsigned char *v = (unsigned char *)malloc(rows * k * es + 1);
  uint64_t *ix = (uint64_t *)malloc(rows * k * 8 + 8);
  unsigned char *rv = (unsigned char *)malloc(k * es);
  uint64_t *ri = (uint64_t *)malloc(k * 8);
  gp_status s = gp_topk_rows(ctx, t, x, rows, cols, k, order, v, ix);
  CHECK_MSG(s == GP_OK, "gp_topk_rows %s %zu x %zu k=%zu: %s", gp_dtype_name(t), rows, cols, k,
            gp_last_error(ctx));
  size_t bad = 0;
  for (size_t r = 0; s == GP_OK && r < rows; r++) {
    CHECK_OK(ref, gp_topk(ref, t, (const char *)x + r * cols * es, cols, k, order, rv, ri));
    if (memcmp(rv, v + r * k * es, k * es) != 0 || memcmp(ri, ix + r * k, k * 8) != 0) bad++;
  }
  CHECK_MSG(bad == 0, "gp_topk_rows %s %zu x %zu k=%zu %s: %zu rows differ from gp_topk",
            gp_dtype_name(t), rows, cols, k, order == GP_ASCENDING ? "smallest" : "largest", bad);
  free(v);
  free(ix);
  free(rv);
  free(ri);
  return rows;
}

static size_t tr_matrix(gp_context *ctx, gp_context *ref) {
  static const size_t shapes[][2] = {{1, 1},     {7, 5},    {300, 64}, {33, 1000},
                                     {2000, 17}, {5, 9000}, {3, 2500}, {64, 1024},
                                     {40, 4096}};
  size_t checked = 0;
  check_seed(11);
  for (int t = 0; t < GP_DTYPE_COUNT; t++)
    for (size_t si = 0; si < sizeof shapes / sizeof shapes[0]; si++) {
      const size_t rows = shapes[si][0], cols = shapes[si][1];
      void *x = malloc(rows * cols * gp_dtype_size((gp_dtype)t));
      tr_fill((gp_dtype)t, x, rows * cols, si % 2 ? 9 : 100000);
      const size_t ks[] = {1, 3, 33, 65, 128, cols / 2, cols};
      for (size_t ki = 0; ki < sizeof ks / sizeof ks[0]; ki++) {
        int seen = ks[ki] == 0 || ks[ki] > cols;
        for (size_t kj = 0; kj < ki; kj++) seen |= ks[kj] == ks[ki];
        if (seen) continue;
        checked += tr_check(ctx, ref, (gp_dtype)t, x, rows, cols, ks[ki], GP_DESCENDING);
        checked += tr_check(ctx, ref, (gp_dtype)t, x, rows, cols, ks[ki], GP_ASCENDING);
      }
      free(x);
    }
  return checked;
}

/* argument errors: each names what is wrong */
static void tr_errors(gp_context *ctx) {
  float x[6] = {1, 2, 3, 4, 5, 6}, v[6];
  uint64_t ix[6];
  CHECK_STATUS(gp_topk_rows(ctx, GP_F32, x, 2, 3, 0, GP_DESCENDING, v, ix), GP_ERR_INVALID_ARGUMENT);
  CHECK_ERROR_MENTIONS(ctx, "1 <= k <= cols");
  CHECK_STATUS(gp_topk_rows(ctx, GP_F32, x, 2, 3, 4, GP_DESCENDING, v, ix), GP_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(gp_topk_rows(ctx, GP_F32, x, 2, 3, 1, GP_DESCENDING, NULL, NULL), GP_ERR_INVALID_ARGUMENT);
  CHECK_ERROR_MENTIONS(ctx, "both NULL");
  CHECK_STATUS(gp_topk_rows(ctx, GP_F32, x, 2, 3, 1, (gp_order)7, v, ix), GP_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(gp_topk_rows(ctx, GP_F32, NULL, 2, 3, 1, GP_DESCENDING, v, ix), GP_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(gp_topk_rows(ctx, GP_F32, x, SIZE_MAX / 4, 8, 1, GP_DESCENDING, v, ix),
               GP_ERR_INVALID_ARGUMENT);
  CHECK_ERROR_MENTIONS(ctx, "do not fit");
  CHECK_OK(ctx, gp_topk_rows(ctx, GP_F32, x, 0, 3, 1, GP_DESCENDING, v, ix)); /* no rows */
  /* one output is enough */
  CHECK_OK(ctx, gp_topk_rows(ctx, GP_F32, x, 2, 3, 2, GP_DESCENDING, NULL, ix));
  CHECK(ix[0] == 2 && ix[1] == 1 && ix[2] == 2 && ix[3] == 1);
  CHECK_OK(ctx, gp_topk_rows(ctx, GP_F32, x, 2, 3, 2, GP_ASCENDING, v, NULL));
  CHECK(v[0] == 1 && v[1] == 2 && v[2] == 4 && v[3] == 5);
}
#endif
