/* libFuzzer target: the expression parser and a small CPU integration. The input is
 * the expression text (at most 256 bytes). Any text may be refused with GP_ERR_PARSE
 * and a message; none may crash, and a sum that succeeds is finite and the same bits
 * on a second run. */
#define _POSIX_C_SOURCE 200809L
#include "fuzz_util.h"

#include <math.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > 256) return 0;
  char expr[257];
  memcpy(expr, data, size);
  expr[size] = '\0';
  gp_context *ctx = fuzz_context();
  double v;
  gp_status s = gp_expr_value(ctx, expr, 0.5, &v);
  FUZZ_ASSERT(s == GP_OK || gp_last_error(ctx)[0]); /* a refusal says why */
  for (int p = 0; p < 2; p++) {
    gp_dtype prec = p ? GP_F32 : GP_F64;
    double r1 = 0, r2 = 0;
    s = gp_integrate_ex(ctx, expr, -1.5, 2.0, 64, prec, &r1);
    if (s != GP_OK) continue;
    FUZZ_ASSERT(isfinite(r1));
    FUZZ_ASSERT(gp_integrate_ex(ctx, expr, -1.5, 2.0, 64, prec, &r2) == GP_OK);
    FUZZ_ASSERT(memcmp(&r1, &r2, sizeof r1) == 0);
  }
  return 0;
}
