/* gp_argreduce on the CPU backend: tests/argreduce_cases.h against a plain loop, the
 * argument errors, NULL outputs, and thread-count invariance. */
#include "argreduce_cases.h"

#ifdef _OPENMP
#include <omp.h>
#endif

static gp_context *ctx;

static gp_status ac_run(gp_op op, gp_dtype t, const void *x, size_t n, void *value,
                        uint64_t *index) {
  gp_status s = gp_argreduce(ctx, op, t, x, n, value, index);
  CHECK_MSG(s == GP_OK, "gp_argreduce: %s", gp_last_error(ctx));
  return s;
}

static void test_errors(void) {
  float x[3] = {1, 2, 3}, v;
  uint64_t i = 99;
  CHECK_STATUS(gp_argreduce(ctx, GP_SUM, GP_F32, x, 3, &v, &i), GP_ERR_INVALID_ARGUMENT);
  CHECK_ERROR_MENTIONS(ctx, "GP_MIN");
  CHECK_STATUS(gp_argreduce(ctx, GP_MAX, GP_F32, x, 0, &v, &i), GP_ERR_INVALID_ARGUMENT);
  CHECK_ERROR_MENTIONS(ctx, "n = 0");
  CHECK_STATUS(gp_argreduce(ctx, GP_MAX, GP_F32, x, 3, NULL, NULL), GP_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(gp_argreduce(ctx, GP_MAX, GP_F32, NULL, 3, &v, &i), GP_ERR_INVALID_ARGUMENT);
  CHECK(i == 99);
  CHECK_OK(ctx, gp_argreduce(ctx, GP_MAX, GP_F32, x, 3, NULL, &i));
  CHECK(i == 2);
  CHECK_OK(ctx, gp_argreduce(ctx, GP_MIN, GP_F32, x, 3, &v, NULL));
  CHECK(v == 1.0f);
}

static void test_threads(void) {
#ifdef _OPENMP
  const size_t n = 500003;
  int32_t *x = (int32_t *)malloc(n * sizeof *x);
  check_seed(5);
  for (size_t i = 0; i < n; i++) x[i] = (int32_t)(check_rand64() % 50);
  size_t want_min = ac_ref(GP_MIN, GP_I32, x, n), want_max = ac_ref(GP_MAX, GP_I32, x, n);
  const int counts[] = {1, 2, 5};
  for (int k = 0; k < 3; k++) {
    omp_set_num_threads(counts[k]);
    uint64_t a, b;
    CHECK_OK(ctx, gp_argreduce(ctx, GP_MIN, GP_I32, x, n, NULL, &a));
    CHECK_OK(ctx, gp_argreduce(ctx, GP_MAX, GP_I32, x, n, NULL, &b));
    CHECK_EQ_U64(a, want_min);
    CHECK_EQ_U64(b, want_max);
  }
  omp_set_num_threads(omp_get_num_procs());
  free(x);
#endif
}

int main(void) {
  ctx = check_cpu_context();
  test_errors();
  ac_test_matrix();
  test_threads();
  gp_destroy(ctx);
  return check_summary("test_argreduce");
}
