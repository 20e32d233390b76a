/* gp_topk on the CPU backend: tests/topk_cases.h against an insertion reference, and
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

int main(void) {
  ctx = check_cpu_context();
  test_errors();
  tk_test_matrix();
  gp_destroy(ctx);
  return check_summary("test_topk");
}
