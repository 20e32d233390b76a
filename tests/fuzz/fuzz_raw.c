/* libFuzzer target: the raw loader by path. The first byte picks the dtype, the rest
 * is the file: it loads exactly when its size is a multiple of the element size, and
 * then holds the same bytes. */
#define _POSIX_C_SOURCE 200809L
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) return 0;
  gp_context *ctx = fuzz_context();
  gp_dtype t = (gp_dtype)(data[0] % GP_DTYPE_COUNT);
  gp_array a = {t, 0, NULL};
  gp_status s = gp_array_load(ctx, fuzz_file(data + 1, size - 1), GP_FILE_RAW, t, &a);
  size_t e = gp_dtype_size(t);
  FUZZ_ASSERT((s == GP_OK) == ((size - 1) % e == 0));
  if (s == GP_OK) {
    FUZZ_ASSERT(a.n * e == size - 1 && (a.n == 0 || memcmp(a.data, data + 1, size - 1) == 0));
    gp_array_free(&a);
  }
  return 0;
}
