/* Text arrays: numbers separated by spaces, newlines or commas, '#' comments, a UTF-8
 * BOM skipped; the grammar is documented at GP_FILE_TEXT in gpuprims.h. Integers are
 * parsed exactly (never through double), F32 with strtof (no double rounding), F64 with
 * strtod, after a check of the token's form so both accept the same numbers. */
#define _POSIX_C_SOURCE 200809L
#define _FILE_OFFSET_BITS 64
#include "io/formats.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The token for an error message: at most 40 bytes of it, bytes outside printable
 * ASCII escaped as \xNN (so a BOM or a stray control byte is visible). */
static const char *shown(const char *tok, size_t len, char *buf, size_t cap) {
  size_t k = 0, i = 0;
  for (; i < len && k + 8 < cap && i < 40; i++) {
    unsigned char c = (unsigned char)tok[i];
    if (c >= 0x20 && c < 0x7f) buf[k++] = (char)c;
    else k += (size_t)snprintf(buf + k, cap - k, "\\x%02x", c);
  }
  if (i < len) k += (size_t)snprintf(buf + k, cap - k, "...");
  buf[k] = '\0';
  return buf;
}

static int is_digit(char c) { return c >= '0' && c <= '9'; }
static int is_hex(char c) {
  return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
static int ieq(const char *s, size_t len, const char *word) {
  size_t n = strlen(word);
  if (len != n) return 0;
  for (size_t i = 0; i < n; i++)
    if ((s[i] | 0x20) != word[i]) return 0;
  return 1;
}

/* Integers: [+-] then decimal digits, or 0x / 0X and hex digits. Magnitude into *mag;
 * 0 when the token is not of that form, -1 when it overflows 64 bits. */
static int int_magnitude(const char *t, size_t len, int *neg, uint64_t *mag) {
  size_t i = 0;
  *neg = 0;
  if (i < len && (t[i] == '+' || t[i] == '-')) *neg = t[i++] == '-';
  int hex = len - i > 2 && t[i] == '0' && (t[i + 1] == 'x' || t[i + 1] == 'X');
  if (hex) i += 2;
  if (i == len) return 0;
  uint64_t m = 0;
  int over = 0;
  for (; i < len; i++) {
    unsigned d;
    if (is_digit(t[i])) d = (unsigned)(t[i] - '0');
    else if (hex && is_hex(t[i])) d = (unsigned)((t[i] | 0x20) - 'a' + 10);
    else return 0;
    unsigned base = hex ? 16u : 10u;
    if (m > (UINT64_MAX - d) / base) over = 1;
    else m = m * base + d;
  }
  *mag = m;
  return over ? -1 : 1;
}

/* Floats: [+-] then inf, infinity or nan (any case; no nan(...) payload), or decimal
 * digits with an optional '.' and exponent, or a C99 hex float (0x1.8p3). Returns 1
 * when the token has that form; *nonzero says whether a mantissa digit is not 0. */
static int float_form(const char *t, size_t len, int *nonzero) {
  size_t i = 0;
  *nonzero = 0;
  if (i < len && (t[i] == '+' || t[i] == '-')) i++;
  if (ieq(t + i, len - i, "inf") || ieq(t + i, len - i, "infinity") || ieq(t + i, len - i, "nan")) {
    *nonzero = 1;
    return 1;
  }
  int hex = len - i > 2 && t[i] == '0' && (t[i + 1] == 'x' || t[i + 1] == 'X');
  if (hex) i += 2;
  size_t digits = 0;
  for (; i < len && (hex ? is_hex(t[i]) : is_digit(t[i])); i++, digits++)
    if (t[i] != '0') *nonzero = 1;
  if (i < len && t[i] == '.')
    for (i++; i < len && (hex ? is_hex(t[i]) : is_digit(t[i])); i++, digits++)
      if (t[i] != '0') *nonzero = 1;
  if (!digits) return 0;
  if (i < len && (hex ? (t[i] | 0x20) == 'p' : (t[i] | 0x20) == 'e')) {
    i++;
    if (i < len && (t[i] == '+' || t[i] == '-')) i++;
    size_t e0 = i;
    while (i < len && is_digit(t[i])) i++;
    if (i == e0) return 0;
  }
  return i == len;
}

/* Parses the token t[0..len) as type t into dst. On failure fills why. */
static int parse_number(const char *t, size_t len, gp_dtype type, void *dst, const char **why) {
  char tok[512];
  if (len >= sizeof tok) { *why = "is not a number (too long)"; return 0; }
  memcpy(tok, t, len);
  tok[len] = '\0';
  int nonzero;
  if (type == GP_F32 || type == GP_F64) {
    if (!float_form(tok, len, &nonzero)) {
      *why = "is not a number";
      return 0;
    }
    errno = 0;
    if (type == GP_F32) {
      float v = strtof(tok, NULL);
      if (errno == ERANGE && isinf(v)) { *why = "is out of range for f32 (|x| <= 3.4e38)"; return 0; }
      if (v == 0 && nonzero) { *why = "underflows to 0 in f32 (the smallest is 1.4e-45)"; return 0; }
      memcpy(dst, &v, 4);
    } else {
      double v = strtod(tok, NULL);
      if (errno == ERANGE && isinf(v)) { *why = "is out of range for f64 (|x| <= 1.8e308)"; return 0; }
      if (v == 0 && nonzero) { *why = "underflows to 0 in f64 (the smallest is 4.9e-324)"; return 0; }
      memcpy(dst, &v, 8);
    }
    return 1;
  }
  int neg;
  uint64_t m;
  int r = int_magnitude(tok, len, &neg, &m);
  static const char *not_int[] = {"", "", "is not an integer (the dtype is i32)",
                                  "is not an integer (the dtype is i64)",
                                  "is not an integer (the dtype is u32)",
                                  "is not an integer (the dtype is u64)"};
  static const char *range[] = {"", "", "is out of range for i32", "is out of range for i64",
                                "is out of range for u32", "is out of range for u64"};
  if (r == 0) {
    *why = float_form(tok, len, &nonzero) ? not_int[type] : "is not a number";
    return 0;
  }
  if (neg && m != 0 && (type == GP_U32 || type == GP_U64)) {
    *why = type == GP_U32 ? "is negative (the dtype is u32)" : "is negative (the dtype is u64)";
    return 0;
  }
  uint64_t limit = type == GP_I32 ? (neg ? (uint64_t)1 << 31 : INT32_MAX)
                 : type == GP_I64 ? (neg ? (uint64_t)1 << 63 : INT64_MAX)
                 : type == GP_U32 ? UINT32_MAX : UINT64_MAX;
  if (r < 0 || m > limit) {
    *why = range[type];
    return 0;
  }
  switch (type) {
  case GP_I32: { int32_t w = neg ? (int32_t)(0 - (uint32_t)m) : (int32_t)m; memcpy(dst, &w, 4); break; }
  case GP_I64: { int64_t w = neg ? (int64_t)(0 - m) : (int64_t)m; memcpy(dst, &w, 8); break; }
  case GP_U32: { uint32_t w = (uint32_t)m; memcpy(dst, &w, 4); break; }
  default: memcpy(dst, &m, 8); break;
  }
  return 1;
}

static int is_space(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
}

gp_status gp_text_load(gp_context *ctx, const char *path, FILE *f, gp_dtype t,
                       gp_array *out) {
  size_t esize = gp_dtype_size(t);
  size_t n = 0, cap = 0;
  unsigned char *data = NULL;
  char *line = NULL;
  size_t linecap = 0;
  uint64_t lineno = 0, offset = 0; /* offset: the file's byte where `line` starts */
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
    char *nul = (char *)memchr(line, '\0', (size_t)len);
    if (nul) {
      s = gp_fail(ctx, GP_ERR_PARSE, "%s line %llu, byte %llu: a NUL byte: is this a binary "
                  "file? (give --format raw or npy)", path, (unsigned long long)lineno,
                  (unsigned long long)(offset + (uint64_t)(nul - line)));
      break;
    }
    size_t p = lineno == 1 && len >= 3 && memcmp(line, "\xef\xbb\xbf", 3) == 0 ? 3 : 0;
    size_t end = (size_t)len;
    char *hash = (char *)memchr(line, '#', end);
    if (hash) end = (size_t)(hash - line);
    /* fields: numbers separated by spaces and/or single commas */
    int after_comma = 0, have_field = 0;
    size_t comma = 0;
    for (;;) {
      while (p < end && is_space(line[p])) p++;
      const char *why = NULL;
      size_t tok = p, tl = 0;
      if (p == end) {
        if (after_comma) why = "an empty field after ','", tok = comma;
        else break;
      } else if (line[p] == ',') {
        if (!have_field) why = "an empty field before ','";
        after_comma = 1;
        comma = p;
        have_field = 0;
        p++;
        if (!why) continue;
      } else {
        while (p < end && !is_space(line[p]) && line[p] != ',') p++;
        tl = p - tok;
      }
      if (!why && n == cap) {
        size_t ncap = cap ? cap * 2 : 1024;
        unsigned char *grown = (unsigned char *)realloc(data, ncap * esize);
        if (!grown) {
          s = gp_fail(ctx, GP_ERR_OUT_OF_MEMORY, "%s: no memory for %zu numbers", path, ncap);
          break;
        }
        data = grown;
        cap = ncap;
      }
      if (why) {
        s = gp_fail(ctx, GP_ERR_PARSE, "%s line %llu, byte %llu: %s", path,
                    (unsigned long long)lineno, (unsigned long long)(offset + tok), why);
        break;
      }
      if (!parse_number(line + tok, tl, t, data + n * esize, &why)) {
        char buf[200];
        s = gp_fail(ctx, GP_ERR_PARSE, "%s line %llu, byte %llu: '%s' %s", path,
                    (unsigned long long)lineno, (unsigned long long)(offset + tok),
                    shown(line + tok, tl, buf, sizeof buf), why);
        break;
      }
      n++;
      have_field = 1;
      after_comma = 0;
    }
    if (s != GP_OK) break;
    offset += (uint64_t)len;
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
