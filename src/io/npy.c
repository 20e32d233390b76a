/* NumPy .npy reader and writer: versions 1.0, 2.0 and 3.0, the six gpuprims dtypes,
 * C order, any rank (flattened). The header is a Python dict literal; it is parsed here
 * with a small strict parser (any key order, either quote, trailing commas) so that a
 * malformed or truncated file fails with a message naming the file and the problem. */
#define _POSIX_C_SOURCE 200809L
#define _FILE_OFFSET_BITS 64
#include "io/file_util.h"
#include "io/formats.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static const unsigned char npy_magic[6] = {0x93, 'N', 'U', 'M', 'P', 'Y'};

/* Header length limits: numpy itself refuses headers over 10000 bytes by default; take
 * up to 1 MiB so odd-but-valid files load, and refuse absurd lengths before allocating. */
#define NPY_MAX_HEADER ((size_t)1 << 20)
#define NPY_STREAM_STEP ((size_t)16 << 20) /* a stream's first buffer; it doubles after */

static const char *npy_descr(gp_dtype t) {
  switch (t) {
  case GP_F32: return "<f4";
  case GP_F64: return "<f8";
  case GP_I32: return "<i4";
  case GP_I64: return "<i8";
  case GP_U32: return "<u4";
  case GP_U64: return "<u8";
  }
  return "";
}

/* ---- header dict parser ------------------------------------------------------------ */
typedef struct npy_parser {
  gp_context *ctx;
  const char *path;
  const char *s;
  size_t len, pos;
} npy_parser;

static void skip_ws(npy_parser *p) {
  while (p->pos < p->len && (p->s[p->pos] == ' ' || p->s[p->pos] == '\t' ||
                             p->s[p->pos] == '\n' || p->s[p->pos] == '\r'))
    p->pos++;
}

static gp_status bad(npy_parser *p, const char *what) {
  char near[48];
  size_t k = 0;
  for (size_t i = p->pos; i < p->len && k < 24; i++, k++) {
    unsigned char c = (unsigned char)p->s[i];
    near[k] = isprint(c) ? (char)c : '?';
  }
  near[k] = '\0';
  return gp_fail(p->ctx, GP_ERR_FORMAT,
                 "%s: malformed .npy header: %s at byte %zu of the header (near \"%s\")",
                 p->path, what, p->pos, p->pos < p->len ? near : "<end of header>");
}

/* A quoted string ('...' or "...") into buf. */
static gp_status parse_string(npy_parser *p, char *buf, size_t cap) {
  if (p->pos >= p->len || (p->s[p->pos] != '\'' && p->s[p->pos] != '"'))
    return bad(p, "expected a quoted string");
  char q = p->s[p->pos++];
  size_t k = 0;
  while (p->pos < p->len && p->s[p->pos] != q) {
    if (p->s[p->pos] == '\\' || k + 1 >= cap) return bad(p, "unexpected string contents");
    buf[k++] = p->s[p->pos++];
  }
  if (p->pos >= p->len) return bad(p, "unterminated string");
  p->pos++;
  buf[k] = '\0';
  return GP_OK;
}

static int match_word(npy_parser *p, const char *w) {
  size_t n = strlen(w);
  if (p->len - p->pos < n || memcmp(p->s + p->pos, w, n) != 0) return 0;
  if (p->pos + n < p->len && (isalnum((unsigned char)p->s[p->pos + n]) || p->s[p->pos + n] == '_'))
    return 0;
  p->pos += n;
  return 1;
}

/* (d0, d1, ...) -> *count = product; rank for the Fortran-order check. As NumPy: a
 * tuple (one dimension needs its comma: (3,)), and the product of the dimensions other
 * than 0 must fit in 63 bits even when another dimension is 0 ("array is too big"). */
static gp_status parse_shape(npy_parser *p, uint64_t *count, int *dims_over_1) {
  if (p->pos >= p->len || p->s[p->pos] != '(') return bad(p, "expected '(' to open the shape");
  p->pos++;
  uint64_t prod = 1;
  int over = 0, overflow = 0, zero = 0, ndims = 0, comma = 0;
  for (;;) {
    skip_ws(p);
    if (p->pos < p->len && p->s[p->pos] == ')') { p->pos++; break; }
    if (p->pos >= p->len || !isdigit((unsigned char)p->s[p->pos]))
      return bad(p, "expected a non-negative integer dimension in the shape");
    uint64_t d = 0;
    while (p->pos < p->len && isdigit((unsigned char)p->s[p->pos])) {
      unsigned digit = (unsigned)(p->s[p->pos++] - '0');
      if (d > (UINT64_MAX - digit) / 10) return bad(p, "a shape dimension is too large");
      d = d * 10 + digit;
    }
    if (p->pos < p->len && p->s[p->pos] == 'L') p->pos++; /* Python 2 long */
    ndims++;
    comma = 0;
    if (d > 1) over++;
    if (d == 0) zero = 1;
    else if (prod > (UINT64_MAX >> 1) / d) overflow = 1;
    else prod *= d;
    skip_ws(p);
    if (p->pos < p->len && p->s[p->pos] == ',') { p->pos++; comma = 1; continue; }
    if (p->pos < p->len && p->s[p->pos] == ')') { p->pos++; break; }
    return bad(p, "expected ',' or ')' in the shape");
  }
  if (ndims == 1 && !comma)
    return bad(p, "the shape is not a tuple: one dimension is written (n,), with the comma");
  if (overflow)
    return gp_fail(p->ctx, GP_ERR_FORMAT, "%s: malformed .npy header: the shape's element "
                   "count overflows 63 bits%s (NumPy refuses it too)", p->path,
                   zero ? ", counting only the dimensions that are not 0" : "");
  *count = zero ? 0 : prod;
  *dims_over_1 = over;
  return GP_OK;
}

/* Parses the header dict; fills dtype, count and fortran order. */
static gp_status parse_header(npy_parser *p, gp_dtype *t, uint64_t *count) {
  char descr[64] = "";
  int have_descr = 0, have_fortran = 0, have_shape = 0, fortran = 0, dims_over_1 = 0;
  gp_status s;
  skip_ws(p);
  if (p->pos >= p->len || p->s[p->pos] != '{') return bad(p, "expected '{' to open the dict");
  p->pos++;
  for (;;) {
    skip_ws(p);
    if (p->pos < p->len && p->s[p->pos] == '}') { p->pos++; break; }
    char key[32];
    if ((s = parse_string(p, key, sizeof key))) return s;
    skip_ws(p);
    if (p->pos >= p->len || p->s[p->pos] != ':') return bad(p, "expected ':' after a key");
    p->pos++;
    skip_ws(p);
    if (strcmp(key, "descr") == 0) {
      if (have_descr) return bad(p, "'descr' given twice");
      if (p->pos < p->len && p->s[p->pos] == '[')
        return gp_fail(p->ctx, GP_ERR_UNSUPPORTED,
                       "%s: structured .npy dtypes (a list of fields) are not supported: "
                       "save a plain array of f4, f8, i4, i8, u4 or u8", p->path);
      if ((s = parse_string(p, descr, sizeof descr))) return s;
      have_descr = 1;
    } else if (strcmp(key, "fortran_order") == 0) {
      if (have_fortran) return bad(p, "'fortran_order' given twice");
      if (match_word(p, "True")) fortran = 1;
      else if (match_word(p, "False")) fortran = 0;
      else return bad(p, "'fortran_order' must be True or False");
      have_fortran = 1;
    } else if (strcmp(key, "shape") == 0) {
      if (have_shape) return bad(p, "'shape' given twice");
      if ((s = parse_shape(p, count, &dims_over_1))) return s;
      have_shape = 1;
    } else {
      return gp_fail(p->ctx, GP_ERR_FORMAT,
                     "%s: malformed .npy header: unexpected key '%s' (a .npy header has "
                     "exactly 'descr', 'fortran_order' and 'shape')", p->path, key);
    }
    skip_ws(p);
    if (p->pos < p->len && p->s[p->pos] == ',') { p->pos++; continue; }
    if (p->pos < p->len && p->s[p->pos] == '}') { p->pos++; break; }
    return bad(p, "expected ',' or '}' after a value");
  }
  skip_ws(p);
  while (p->pos < p->len && p->s[p->pos] == '\0') p->pos++; /* some writers pad with NUL */
  if (p->pos != p->len) return bad(p, "unexpected text after the dict");
  if (!have_descr || !have_fortran || !have_shape)
    return gp_fail(p->ctx, GP_ERR_FORMAT, "%s: malformed .npy header: the key '%s' is missing",
                   p->path, !have_descr ? "descr" : !have_fortran ? "fortran_order" : "shape");

  /* dtype: '<' or '=' (native, little-endian on every machine gpuprims runs on) or '|' */
  if (strlen(descr) < 2)
    return gp_fail(p->ctx, GP_ERR_FORMAT, "%s: malformed .npy header: descr '%s' is not a "
                   "dtype", p->path, descr);
  char order = descr[0];
  const char *code = descr + 1;
  if (order != '<' && order != '>' && order != '=' && order != '|')
    return gp_fail(p->ctx, GP_ERR_FORMAT, "%s: malformed .npy header: descr '%s' has no "
                   "byte-order character ('<%s'): a .npy file always states it", p->path,
                   descr, descr);
  static const struct { const char *code; gp_dtype t; } table[] = {
    {"f4", GP_F32}, {"f8", GP_F64}, {"i4", GP_I32}, {"i8", GP_I64}, {"u4", GP_U32}, {"u8", GP_U64},
  };
  int found = -1;
  for (int i = 0; i < 6; i++)
    if (strcmp(code, table[i].code) == 0) found = i;
  if (found < 0)
    return gp_fail(p->ctx, GP_ERR_UNSUPPORTED,
                   "%s: .npy dtype '%s' is not supported: gpuprims takes '<f4', '<f8', '<i4', "
                   "'<i8', '<u4' and '<u8' (convert with a.astype('<f4') and so on)",
                   p->path, descr);
  if (order == '>')
    return gp_fail(p->ctx, GP_ERR_UNSUPPORTED,
                   "%s: .npy dtype '%s' is big-endian: gpuprims reads little-endian data; "
                   "convert with a.astype('<%s')", p->path, descr, code);
  if (fortran && dims_over_1 > 1)
    return gp_fail(p->ctx, GP_ERR_UNSUPPORTED,
                   "%s: the array is in Fortran (column-major) order: gpuprims reads C "
                   "order; save np.ascontiguousarray(a) instead", p->path);
  *t = table[found].t;
  return GP_OK;
}

gp_status gp_npy_read_header(gp_context *ctx, const char *path, FILE *f, uint64_t size,
                             gp_dtype *t_out, uint64_t *count_out, size_t *off_out,
                             size_t *bytes_out) {
  unsigned char pre[12];
  size_t got = fread(pre, 1, 8, f);
  if (got < 8 || memcmp(pre, npy_magic, 6) != 0) {
    if (got >= 6 && memcmp(pre, npy_magic, 6) == 0)
      return gp_fail(ctx, GP_ERR_FORMAT, "%s: truncated .npy file: it ends inside the "
                     "version bytes (%zu bytes long)", path, got);
    return gp_fail(ctx, GP_ERR_FORMAT,
                   "%s: not a .npy file: it does not start with the magic \"\\x93NUMPY\"%s",
                   path, got < 6 ? " (the file is shorter than 6 bytes)" : "");
  }
  unsigned major = pre[6], minor = pre[7];
  size_t lenbytes;
  if (major == 1 && minor == 0) lenbytes = 2;
  else if ((major == 2 || major == 3) && minor == 0) lenbytes = 4;
  else
    return gp_fail(ctx, GP_ERR_UNSUPPORTED,
                   "%s: .npy format version %u.%u is not supported (gpuprims reads 1.0, "
                   "2.0 and 3.0)", path, major, minor);
  gp_status s = gp_io_read_exact(ctx, f, path, pre + 8, lenbytes, "the .npy header length");
  if (s) return s;
  size_t hlen = lenbytes == 2 ? (size_t)pre[8] | (size_t)pre[9] << 8
                              : (size_t)pre[8] | (size_t)pre[9] << 8 |
                                    (size_t)pre[10] << 16 | (size_t)pre[11] << 24;
  size_t data_off = 8 + lenbytes + hlen;
  if (hlen > NPY_MAX_HEADER)
    return gp_fail(ctx, GP_ERR_FORMAT, "%s: malformed .npy file: header length %zu is "
                   "implausibly large (over %zu bytes)", path, hlen, NPY_MAX_HEADER);
  if (size != UINT64_MAX && size < data_off)
    return gp_fail(ctx, GP_ERR_FORMAT, "%s: truncated .npy file: the header says it is "
                   "%zu bytes long but the file has only %llu bytes", path, hlen,
                   (unsigned long long)(size - 8 - lenbytes));
  char *h = (char *)malloc(hlen + 1);
  if (!h) return gp_fail(ctx, GP_ERR_OUT_OF_MEMORY, "%s: no memory for a %zu-byte header", path, hlen);
  s = gp_io_read_exact(ctx, f, path, h, hlen, "the .npy header");
  if (s) { free(h); return s; }
  h[hlen] = '\0';
  npy_parser p = {ctx, path, h, hlen, 0};
  gp_dtype t = GP_F32;
  uint64_t count = 0;
  s = parse_header(&p, &t, &count);
  free(h);
  if (s) return s;

  size_t esize = gp_dtype_size(t), bytes;
  s = gp_io_bytes(ctx, path, count, esize, &bytes);
  if (s) return s;
  if (size != UINT64_MAX) {
    uint64_t have = size - data_off;
    if (have != (uint64_t)bytes)
      return gp_fail(ctx, GP_ERR_FORMAT,
                     "%s: header says %llu elements of %s (%zu bytes) but the file holds "
                     "%llu bytes of data%s", path, (unsigned long long)count,
                     gp_dtype_name(t), bytes, (unsigned long long)have,
                     have < bytes ? " (truncated?)" : " (extra bytes after the array)");
  }
  *t_out = t;
  *count_out = count;
  *off_out = data_off;
  *bytes_out = bytes;
  return GP_OK;
}

gp_status gp_npy_load(gp_context *ctx, const char *path, FILE *f, uint64_t size,
                      gp_array *out) {
  gp_dtype t;
  uint64_t count;
  size_t data_off, bytes;
  gp_status s = gp_npy_read_header(ctx, path, f, size, &t, &count, &data_off, &bytes);
  if (s) return s;
  void *data = NULL;
  if (bytes) {
    /* a file's size was checked above; a stream's is not known, so its buffer grows with
     * what arrives (doubling from NPY_STREAM_STEP) and a header that promises more than
     * the stream holds fails at the end of the data, not in a malloc of its size */
    size_t cap = size != UINT64_MAX || bytes < NPY_STREAM_STEP ? bytes : NPY_STREAM_STEP;
    size_t got = 0;
    for (;;) {
      void *grown = realloc(data, cap);
      if (!grown) {
        free(data);
        return gp_fail(ctx, GP_ERR_OUT_OF_MEMORY, "%s: cannot allocate %zu bytes for %llu "
                       "elements", path, bytes, (unsigned long long)count);
      }
      data = grown;
      s = gp_io_read_body(ctx, f, path, (char *)data + got, cap - got, size != UINT64_MAX,
                          "the array data");
      if (s) { free(data); return s; }
      got = cap;
      if (got == bytes) break;
      cap = bytes - cap < cap ? bytes : 2 * cap;
    }
  }
  if (size == UINT64_MAX) { /* a stream: the same check as a file's size, by reading */
    s = gp_io_expect_eof(ctx, f, path, "extra bytes after the array (the header says "
                         "fewer elements than the stream holds)");
    if (s) { free(data); return s; }
  }
  out->dtype = t;
  out->n = (size_t)count;
  out->data = data;
  return GP_OK;
}

size_t gp_npy_header(gp_dtype t, uint64_t n, unsigned char *buf, size_t cap) {
  char dict[160];
  int dl = snprintf(dict, sizeof dict, "{'descr': '%s', 'fortran_order': False, 'shape': (%llu,), }",
                    npy_descr(t), (unsigned long long)n);
  if (dl < 0) return 0;
  /* version 1.0 when the padded header fits in 16 bits of length, else 2.0; the total
   * (magic + version + length + dict + padding + '\n') is a multiple of 64 */
  size_t lenbytes = 2;
  size_t total = 10 + (size_t)dl + 1;
  total = (total + 63) / 64 * 64;
  if (total - 10 > 65535) {
    lenbytes = 4;
    total = (12 + (size_t)dl + 1 + 63) / 64 * 64;
  }
  if (total > cap) return 0;
  size_t hlen = total - 8 - lenbytes;
  memcpy(buf, npy_magic, 6);
  buf[6] = lenbytes == 2 ? 1 : 2;
  buf[7] = 0;
  for (size_t i = 0; i < lenbytes; i++) buf[8 + i] = (unsigned char)(hlen >> (8 * i));
  unsigned char *d = buf + 8 + lenbytes;
  memcpy(d, dict, (size_t)dl);
  memset(d + dl, ' ', hlen - (size_t)dl - 1);
  d[hlen - 1] = '\n';
  return total;
}

gp_status gp_npy_save(gp_context *ctx, const char *path, FILE *f, const gp_array *a) {
  unsigned char head[256];
  size_t hl = gp_npy_header(a->dtype, a->n, head, sizeof head);
  if (!hl) return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT, "%s: cannot build a .npy header", path);
  gp_status s = gp_io_write_all(ctx, f, path, head, hl);
  if (s) return s;
  return gp_io_write_all(ctx, f, path, a->data, a->n * gp_dtype_size(a->dtype));
}
