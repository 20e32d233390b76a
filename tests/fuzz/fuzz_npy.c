/* libFuzzer target: the .npy loader, by path (a regular file of known size) and as a
 * stream (size unknown, as a pipe). Any input may be refused; none may crash, leak or
 * hang, and a loaded array must be as large as its file says. */
#define _POSIX_C_SOURCE 200809L
#include "fuzz_util.h"
#include "io/formats.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  gp_context *ctx = fuzz_context();
  gp_array a = {GP_F32, 0, NULL};
  if (gp_array_load(ctx, fuzz_file(data, size), GP_FILE_NPY, GP_F32, &a) == GP_OK) {
    FUZZ_ASSERT(a.n * gp_dtype_size(a.dtype) <= size);
    gp_array_free(&a);
  }
  FILE *f = fuzz_stream(data, size);
  if (f) {
    if (gp_npy_load(ctx, "stream", f, UINT64_MAX, &a) == GP_OK) {
      FUZZ_ASSERT(a.n * gp_dtype_size(a.dtype) <= size);
      gp_array_free(&a);
    }
    fclose(f);
  }
  return 0;
}
