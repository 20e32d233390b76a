/* gp_topk on the CPU backend: tests/topk_cases.h against an insertion reference, large
 * inputs (the threads' heaps, the argsort path, ascending data) against a full sort, and
 * the argument errors. */
#include "topk_cases.h"

static gp_context *ctx;

static gp_status tk_run(gp_dtype t, const void *x, size_t n, size_t k, gp_order order,
                        void *values, uint64_t *indices) {
  gp_status s = gp_topk(ctx, t, x, n, k, order, values, indices);
  CHECK_MSG(s == GP_OK, "gp_topk: %s", gp_last_error(ctx));
  return s;
}

static void test_errors(void) {
  float x[3] = {1, 2, 3}, v[3];
  uint64_t i[3];
  CHECK_STATUS(gp_topk(ctx, GP_F32, x, 3, 0, GP_DESCENDING, v, i), GP_ERR_INVALID_ARGUMENT);
  CHECK_ERROR_MENTIONS(ctx, "1 <= k <= n");
  CHECK_STATUS(gp_topk(ctx, GP_F32, x, 3, 4, GP_DESCENDING, v, i), GP_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(gp_topk(ctx, GP_F32, x, 3, 2, (gp_order)5, v, i), GP_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(gp_topk(ctx, GP_F32, x, 3, 2, GP_DESCENDING, NULL, NULL), GP_ERR_INVALID_ARGUMENT);
  CHECK_OK(ctx, gp_topk(ctx, GP_F32, x, 3, 2, GP_DESCENDING, v, NULL));
  CHECK(v[0] == 3 && v[1] == 2);
  CHECK_OK(ctx, gp_topk(ctx, GP_F32, x, 3, 2, GP_ASCENDING, NULL, i));
  CHECK(i[0] == 0 && i[1] == 1);
}

/* qsort comparator of positions: tk_before's order, then the lower index */
static gp_dtype big_t;
static const void *big_x;
static gp_order big_order;
static int cmp_pos(const void *a, const void *b) {
  const size_t i = *(const uint64_t *)a, j = *(const uint64_t *)b;
  if (tk_before(big_t, big_x, i, j, big_order)) return -1;
  if (tk_before(big_t, big_x, j, i, big_order)) return 1;
  return i < j ? -1 : (i > j);
}

/* Inputs large enough for the threads' heaps (n >= 2^16) and for the argsort path
 * (k > n / 16), against a full sort of the positions with the matrix's own order. */
static void test_large(void) {
  const size_t n = 300007;
  const size_t ks[] = {1, 16, 1024, 4096, n / 16, n / 16 + 1, n};
  const gp_dtype types[] = {GP_F32, GP_I64, GP_U32, GP_F64};
  unsigned char *x = (unsigned char *)malloc(n * 8), *v = (unsigned char *)malloc(n * 8);
  uint64_t *idx = (uint64_t *)malloc(n * 8), *want = (uint64_t *)malloc(n * 8);
  for (int ti = 0; ti < 4; ti++)
    for (int pat = 0; pat < 3; pat++) {
      const size_t es = gp_dtype_size(types[ti]);
      check_seed(4200 + (uint64_t)ti * 3 + (uint64_t)pat);
      tk_fill(types[ti], x, n, pat);
      if (pat == 2) /* ascending data: every element enters a heap that keeps the largest */
        for (size_t i = 0; i < n; i++) {
          if (types[ti] == GP_F32) ((float *)x)[i] = (float)i;
          else if (types[ti] == GP_F64) ((double *)x)[i] = (double)i;
          else if (types[ti] == GP_I64) ((int64_t *)x)[i] = (int64_t)i - 150000;
          else ((uint32_t *)x)[i] = (uint32_t)i;
        }
      for (int oi = 0; oi < 2; oi++) {
        big_t = types[ti], big_x = x, big_order = oi ? GP_DESCENDING : GP_ASCENDING;
        for (size_t i = 0; i < n; i++) want[i] = i;
        qsort(want, n, 8, cmp_pos);
        for (int kk = 0; kk < 7; kk++) {
          const size_t k = ks[kk];
          if (tk_run(types[ti], x, n, k, big_order, v, idx) != GP_OK) continue;
          size_t bad = 0;
          for (size_t j = 0; j < k; j++)
            bad += idx[j] != want[j] || memcmp(v + j * es, x + want[j] * es, es) != 0;
          CHECK_MSG(bad == 0, "topk %s n=%zu k=%zu %s pattern %d: %zu of %zu wrong",
                    gp_dtype_name(types[ti]), n, k, oi ? "largest" : "smallest", pat, bad, k);
        }
      }
    }
  free(x);
  free(v);
  free(idx);
  free(want);
}

int main(void) {
  ctx = check_cpu_context();
  test_errors();
  tk_test_matrix();
  test_large();
  gp_destroy(ctx);
  return check_summary("test_topk");
}
