/* libFuzzer target: the text loader. The first byte picks the dtype, the rest is the
 * file. Any input may be refused; none may crash or leak, and a parsed integer file
 * must round-trip through gp_array_save's text back to the same values. */
#define _POSIX_C_SOURCE 200809L
#include "fuzz_util.h"
#include "io/formats.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) return 0;
  gp_context *ctx = fuzz_context();
  gp_dtype t = (gp_dtype)(data[0] % GP_DTYPE_COUNT);
  FILE *f = fuzz_stream(data + 1, size - 1);
  if (!f) return 0;
  gp_array a = {t, 0, NULL};
  if (gp_text_load(ctx, "text", f, t, &a) == GP_OK) {
    FUZZ_ASSERT(a.dtype == t && (a.n == 0) == (a.data == NULL));
    /* what it wrote reads back to the same bits (floats print round-trip digits) */
    char *buf = NULL;
    size_t len = 0;
    FILE *w = open_memstream(&buf, &len);
    FUZZ_ASSERT(w && gp_text_save(ctx, "text", w, &a) == GP_OK);
    fclose(w);
    FILE *r = fuzz_stream((const uint8_t *)buf, len);
    gp_array b = {t, 0, NULL};
    if (r) {
      FUZZ_ASSERT(gp_text_load(ctx, "again", r, t, &b) == GP_OK);
      FUZZ_ASSERT(b.n == a.n);
      for (size_t i = 0; i < a.n; i++) { /* NaN payloads are not kept by text */
        double x, y;
        if (t == GP_F32) x = ((float *)a.data)[i], y = ((float *)b.data)[i];
        else if (t == GP_F64) x = ((double *)a.data)[i], y = ((double *)b.data)[i];
        else {
          size_t e = gp_dtype_size(t);
          FUZZ_ASSERT(memcmp((char *)a.data + i * e, (char *)b.data + i * e, e) == 0);
          continue;
        }
        FUZZ_ASSERT((x != x && y != y) || memcmp(&x, &y, sizeof x) == 0);
      }
      gp_array_free(&b);
      fclose(r);
    }
    free(buf);
    gp_array_free(&a);
  }
  fclose(f);
  return 0;
}
