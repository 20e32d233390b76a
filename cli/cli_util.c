/* Shared helpers of the gpuprims subcommands. */
#include "cli_util.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void cli_error(const char *cmd, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "gpuprims %s: ", cmd);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
}

int cli_is_help(const char *s) {
  return strcmp(s, "-h") == 0 || strcmp(s, "--help") == 0;
}

int cli_parse_backend(const char *cmd, const char *s, gp_backend *b) {
  if (strcmp(s, "auto") == 0) *b = GP_BACKEND_AUTO;
  else if (strcmp(s, "cuda") == 0 || strcmp(s, "gpu") == 0) *b = GP_BACKEND_CUDA;
  else if (strcmp(s, "cpu") == 0) *b = GP_BACKEND_CPU;
  else {
    cli_error(cmd, "unknown backend '%s': use auto, cuda or cpu", s);
    return 0;
  }
  return 1;
}

int cli_parse_u64(const char *s, uint64_t *v) {
  if (!s || !*s) return 0;
  if (s[0] == '2' && s[1] == '^') {
    char *end;
    errno = 0;
    unsigned long e = strtoul(s + 2, &end, 10);
    if (errno || *end || end == s + 2 || e > 63) return 0;
    *v = (uint64_t)1 << e;
    return 1;
  }
  if (*s == '-') return 0;
  char *end;
  errno = 0;
  unsigned long long x = strtoull(s, &end, 10);
  if (errno || end == s) return 0;
  uint64_t mul = 1;
  if (*end == 'k' || *end == 'K') mul = 1ull << 10, end++;
  else if (*end == 'M') mul = 1ull << 20, end++;
  else if (*end == 'G') mul = 1ull << 30, end++;
  if (*end) return 0;
  if (x > UINT64_MAX / mul) return 0;
  *v = (uint64_t)x * mul;
  return 1;
}

int cli_parse_double(const char *s, double *v) {
  if (!s || !*s) return 0;
  char *end;
  errno = 0;
  double x = strtod(s, &end);
  if (errno == ERANGE || *end || end == s) return 0;
  *v = x;
  return 1;
}

int cli_create(const char *cmd, gp_backend b, gp_context **ctx) {
  gp_status s = gp_create(ctx, b);
  if (s == GP_OK) return 1;
  cli_error(cmd, "cannot create a %s context: %s", gp_backend_name(b), gp_last_error(*ctx));
  gp_destroy(*ctx);
  *ctx = NULL;
  return 0;
}

void cli_fail(const char *cmd, gp_context *ctx, const char *what, gp_status s) {
  const char *msg = gp_last_error(ctx);
  cli_error(cmd, "%s failed (%s): %s", what, gp_status_string(s),
            (msg && *msg) ? msg : "no further detail");
}
