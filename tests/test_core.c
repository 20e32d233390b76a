/* Core: context creation and backends, status strings, dtype names, bad arguments. */
#include "check.h"

int main(void) {
  gp_context *ctx = check_cpu_context();
  CHECK(gp_backend_of(ctx) == GP_BACKEND_CPU);
  CHECK(strcmp(gp_last_error(ctx), "") == 0);

  /* status strings name every status */
  for (int s = GP_OK; s <= GP_ERR_PARSE; s++)
    CHECK(strncmp(gp_status_string((gp_status)s), "GP_", 3) == 0);
  CHECK(strcmp(gp_status_string((gp_status)99), "unknown status") == 0);

  /* dtypes round-trip through their names */
  for (int t = 0; t < GP_DTYPE_COUNT; t++) {
    gp_dtype back;
    CHECK_OK(ctx, gp_dtype_from_name(gp_dtype_name((gp_dtype)t), &back));
    CHECK(back == (gp_dtype)t);
    CHECK(gp_dtype_size((gp_dtype)t) == 4 || gp_dtype_size((gp_dtype)t) == 8);
  }
  gp_dtype t;
  CHECK_STATUS(gp_dtype_from_name("f16", &t), GP_ERR_PARSE);
  CHECK(gp_dtype_size((gp_dtype)42) == 0);
  CHECK(gp_reduce_out_type(GP_SUM, GP_I32) == GP_I64);
  CHECK(gp_reduce_out_type(GP_SUM, GP_U32) == GP_U64);
  CHECK(gp_reduce_out_type(GP_MAX, GP_I32) == GP_I32);

  /* bad backends and contexts */
  gp_context *bad = NULL;
  CHECK_STATUS(gp_create(&bad, (gp_backend)7), GP_ERR_INVALID_ARGUMENT);
  CHECK_ERROR_MENTIONS(bad, "unknown backend");
  gp_destroy(bad);
  gp_destroy(NULL); /* a no-op */
  CHECK_STATUS(gp_create(NULL, GP_BACKEND_CPU), GP_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(gp_set_stream(ctx, (void *)0x1), GP_ERR_UNSUPPORTED);
  CHECK_ERROR_MENTIONS(ctx, "CPU backend");
  CHECK_OK(ctx, gp_set_stream(ctx, NULL));
  CHECK_OK(ctx, gp_synchronize(ctx));
  CHECK_STATUS(gp_synchronize(NULL), GP_ERR_INVALID_ARGUMENT);

  /* AUTO always gives a working context: CUDA where a GPU is usable, else CPU */
  gp_context *autoc = NULL;
  CHECK_OK(autoc, gp_create(&autoc, GP_BACKEND_AUTO));
  CHECK(gp_backend_of(autoc) == GP_BACKEND_CUDA || gp_backend_of(autoc) == GP_BACKEND_CPU);
  gp_device_info info;
  CHECK_OK(autoc, gp_get_device_info(autoc, &info));
  CHECK(info.name[0] != '\0');
  CHECK_STATUS(gp_get_device_info(autoc, NULL), GP_ERR_INVALID_ARGUMENT);
  gp_destroy(autoc);

  /* CUDA where there is none says why */
  gp_context *cuda = NULL;
  gp_status s = gp_create(&cuda, GP_BACKEND_CUDA);
  if (s != GP_OK) {
    CHECK(s == GP_ERR_NO_DEVICE || s == GP_ERR_UNSUPPORTED);
    CHECK(strlen(gp_last_error(cuda)) > 10);
  } else {
    CHECK(gp_backend_of(cuda) == GP_BACKEND_CUDA);
  }
  gp_destroy(cuda);

  gp_destroy(ctx);
  return check_summary("test_core");
}
