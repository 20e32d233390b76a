/* gp_reduce_rows / gp_reduce_segments_offsets on the CPU backend: the cases of
 * tests/segments_cases.h (each result equal to gp_reduce of its segment alone) and the
 * argument errors. */
#include "segments_cases.h"

static gp_context *ctx;

static gp_status sc_rows(gp_op op, gp_dtype t, const void *in, size_t nrows, size_t row_len,
                         void *out) {
  gp_status s = gp_reduce_rows(ctx, op, t, in, nrows, row_len, out);
  CHECK_MSG(s == GP_OK, "gp_reduce_rows: %s", gp_last_error(ctx));
  return s;
}
static gp_status sc_offsets(gp_op op, gp_dtype t, const void *in, const uint64_t *offs,
                            size_t nseg, void *out) {
  gp_status s = gp_reduce_segments_offsets(ctx, op, t, in, offs, nseg, out);
  CHECK_MSG(s == GP_OK, "gp_reduce_segments_offsets: %s", gp_last_error(ctx));
  return s;
}

static void test_errors(void) {
  float x[4] = {1, 2, 3, 4}, out[2] = {5, 5};
  uint64_t offs[3] = {0, 3, 2};
  CHECK_STATUS(gp_reduce_segments_offsets(ctx, GP_SUM, GP_F32, x, offs, 2, out),
               GP_ERR_INVALID_ARGUMENT);
  CHECK_ERROR_MENTIONS(ctx, "must not decrease");
  CHECK(out[0] == 5 && out[1] == 5);
  CHECK_STATUS(gp_reduce_segments_offsets(ctx, GP_SUM, GP_F32, x, NULL, 2, out),
               GP_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(gp_reduce_rows(ctx, GP_SUM, GP_F32, x, 2, 2, NULL), GP_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(gp_reduce_rows(ctx, (gp_op)7, GP_F32, x, 2, 2, out), GP_ERR_INVALID_ARGUMENT);
  CHECK_OK(ctx, gp_reduce_rows(ctx, GP_SUM, GP_F32, x, 2, 2, out));
  CHECK(out[0] == 3 && out[1] == 7);
  CHECK_OK(ctx, gp_reduce_rows(ctx, GP_SUM, GP_F32, x, 0, 2, NULL));
}

int main(void) {
  ctx = check_cpu_context();
  sc_cpu = ctx;
  test_errors();
  sc_test_rows();
  sc_test_offsets();
  sc_test_offsets_long();
  sc_test_window();
  gp_destroy(ctx);
  return check_summary("test_reduce_segments");
}
