/* Text arrays: one number per line; blank lines, surrounding spaces and '#' comments
 * are ignored. Integers are parsed exactly (strtoll/strtoull with range checks, never
 * through double); F32 is parsed with strtof (no double rounding), F64 with strtod. */
#define _POSIX_C_SOURCE 200809L
#define _FILE_OFFSET_BITS 64
#include "io/formats.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A token for an error message: at most 40 characters, quoted by the caller. */
static const char *excerpt(const char *tok, char *buf, size_t cap) {
  size_t n = strlen(tok);
  if (n < cap) return tok;
  memcpy(buf, tok, cap - 4);
  memcpy(buf + cap - 4, "...", 4);
  return buf;
}

/* Parses tok (trimmed, non-empty) as type t into dst. On failure fills why. */
static int parse_number(const char *tok, gp_dtype t, void *dst, const char **why) {
  char *end;
  errno = 0;
  switch (t) {
  case GP_F32: {
    float v = strtof(tok, &end);
    if (end == tok || *end) { *why = "is not a number"; return 0; }
    if (errno == ERANGE && isinf(v)) { *why = "is out of range for f32"; return 0; }
    memcpy(dst, &v, 4);
    return 1;
  }
  case GP_F64: {
    double v = strtod(tok, &end);
    if (end == tok || *end) { *why = "is not a number"; return 0; }
    if (errno == ERANGE && isinf(v)) { *why = "is out of range for f64"; return 0; }
    memcpy(dst, &v, 8);
    return 1;
  }
  case GP_I32: case GP_I64: {
    long long v = strtoll(tok, &end, 10);
    if (end == tok || *end) {
      strtod(tok, &end);
      *why = (end != tok && !*end) ? (t == GP_I32 ? "is not an integer (the dtype is i32)"
                                                   : "is not an integer (the dtype is i64)")
                                   : "is not a number";
      return 0;
    }
    if (errno == ERANGE || (t == GP_I32 && (v < INT32_MIN || v > INT32_MAX))) {
      *why = t == GP_I32 ? "is out of range for i32" : "is out of range for i64";
      return 0;
    }
    if (t == GP_I32) { int32_t w = (int32_t)v; memcpy(dst, &w, 4); }
    else { int64_t w = (int64_t)v; memcpy(dst, &w, 8); }
    return 1;
  }
  case GP_U32: case GP_U64: {
    const char *q = tok;
    if (*q == '+') q++;
    /* strtoull would wrap "-1" to 2^64-1: a sign is refused here */
    if (*q == '-' || *q == ' ' || *q == '\t' || *q == '+') {
      double d = strtod(tok, &end);
      *why = (end != tok && !*end && d < 0) ? (t == GP_U32 ? "is negative (the dtype is u32)"
                                                            : "is negative (the dtype is u64)")
                                            : "is not a number";
      return 0;
    }
    unsigned long long v = strtoull(q, &end, 10);
    if (end == q || *end) {
      strtod(tok, &end);
      *why = (end != tok && !*end) ? (t == GP_U32 ? "is not an integer (the dtype is u32)"
                                                   : "is not an integer (the dtype is u64)")
                                   : "is not a number";
      return 0;
    }
    if (errno == ERANGE || (t == GP_U32 && v > UINT32_MAX)) {
      *why = t == GP_U32 ? "is out of range for u32" : "is out of range for u64";
      return 0;
    }
    if (t == GP_U32) { uint32_t w = (uint32_t)v; memcpy(dst, &w, 4); }
    else { uint64_t w = (uint64_t)v; memcpy(dst, &w, 8); }
    return 1;
  }
  }
  *why = "has an unknown dtype";
  return 0;
}

gp_status gp_text_load(gp_context *ctx, const char *path, FILE *f, gp_dtype t,
                       gp_array *out) {
  size_t esize = gp_dtype_size(t);
  size_t n = 0, cap = 0;
  unsigned char *data = NULL;
  char *line = NULL;
  size_t linecap = 0;
  uint64_t lineno = 0;
  gp_status s = GP_OK;
  for (;;) {
    errno = 0;
    ssize_t len = getline(&line, &linecap, f);
    if (len < 0) {
      if (ferror(f))
        s = gp_fail(ctx, GP_ERR_IO, "%s: read error after line %llu: %s", path,
                    (unsigned long long)lineno, strerror(errno ? errno : EIO));
      break;
    }
    lineno++;
    if (memchr(line, '\0', (size_t)len)) {
      s = gp_fail(ctx, GP_ERR_PARSE, "%s line %llu: contains a NUL byte: is this a binary "
                  "file? (give --format raw or npy)", path, (unsigned long long)lineno);
      break;
    }
    char *hash = strchr(line, '#');
    if (hash) *hash = '\0';
    char *b = line;
    while (*b == ' ' || *b == '\t' || *b == '\r' || *b == '\n' || *b == '\v' || *b == '\f') b++;
    char *e = b + strlen(b);
    while (e > b && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r' || e[-1] == '\n' ||
                     e[-1] == '\v' || e[-1] == '\f'))
      e--;
    *e = '\0';
    if (!*b) continue;
    if (n == cap) {
      size_t ncap = cap ? cap * 2 : 1024;
      unsigned char *grown = (unsigned char *)realloc(data, ncap * esize);
      if (!grown) {
        s = gp_fail(ctx, GP_ERR_OUT_OF_MEMORY, "%s: no memory for %zu numbers", path, ncap);
        break;
      }
      data = grown;
      cap = ncap;
    }
    const char *why = "";
    if (!parse_number(b, t, data + n * esize, &why)) {
      char buf[44];
      s = gp_fail(ctx, GP_ERR_PARSE, "%s line %llu: '%s' %s", path, (unsigned long long)lineno,
                  excerpt(b, buf, sizeof buf), why);
      break;
    }
    n++;
  }
  free(line);
  if (s != GP_OK) {
    free(data);
    return s;
  }
  if (n == 0) {
    free(data);
    data = NULL;
  }
  out->dtype = t;
  out->n = n;
  out->data = data;
  return GP_OK;
}

gp_status gp_text_save(gp_context *ctx, const char *path, FILE *f, const gp_array *a) {
  const unsigned char *p = (const unsigned char *)a->data;
  for (size_t i = 0; i < a->n; i++) {
    int r;
    switch (a->dtype) {
    case GP_F32: { float v; memcpy(&v, p + 4 * i, 4); r = fprintf(f, "%.9g\n", (double)v); break; }
    case GP_F64: { double v; memcpy(&v, p + 8 * i, 8); r = fprintf(f, "%.17g\n", v); break; }
    case GP_I32: { int32_t v; memcpy(&v, p + 4 * i, 4); r = fprintf(f, "%" PRId32 "\n", v); break; }
    case GP_I64: { int64_t v; memcpy(&v, p + 8 * i, 8); r = fprintf(f, "%" PRId64 "\n", v); break; }
    case GP_U32: { uint32_t v; memcpy(&v, p + 4 * i, 4); r = fprintf(f, "%" PRIu32 "\n", v); break; }
    default: { uint64_t v; memcpy(&v, p + 8 * i, 8); r = fprintf(f, "%" PRIu64 "\n", v); break; }
    }
    if (r < 0)
      return gp_fail(ctx, GP_ERR_IO, "%s: write failed at element %zu: %s", path, i,
                     strerror(errno));
  }
  return GP_OK;
}
