/* File IO: .npy / raw / text round trips of every dtype, handcrafted .npy headers
 * (versions 1.0, 2.0, 3.0, any rank, malformed and truncated ones), text edge cases
 * (exact 64-bit integers, comments, ranges), IO errors, and failures that leave the
 * caller's array untouched. Host only: runs everywhere. */
#define _POSIX_C_SOURCE 200809L
#define _FILE_OFFSET_BITS 64
#include "check.h"
#include "io/formats.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char dir[256];
static char pathbuf[512];

static const char *tmp(const char *name) {
  snprintf(pathbuf, sizeof pathbuf, "%s/%s", dir, name);
  return pathbuf;
}

static void write_bytes(const char *path, const void *p, size_t n) {
  FILE *f = fopen(path, "wb");
  if (!f) { perror(path); exit(1); }
  if (n && fwrite(p, 1, n, f) != n) { perror(path); exit(1); }
  fclose(f);
}

static void write_text(const char *path, const char *s) { write_bytes(path, s, strlen(s)); }

/* A .npy file by hand: magic, version, header dict (padded to 64 with spaces + '\n'
 * unless pad = 0), then data. */
static size_t write_npy(const char *path, int major, const char *dict, int pad,
                      const void *data, size_t data_bytes) {
  unsigned char buf[4096];
  size_t lenbytes = major == 1 ? 2 : 4;
  size_t dl = strlen(dict);
  size_t hlen = dl;
  if (pad) {
    size_t total = (8 + lenbytes + dl + 1 + 63) / 64 * 64;
    hlen = total - 8 - lenbytes;
  }
  memcpy(buf, "\x93NUMPY", 6);
  buf[6] = (unsigned char)major;
  buf[7] = 0;
  for (size_t i = 0; i < lenbytes; i++) buf[8 + i] = (unsigned char)(hlen >> (8 * i));
  memcpy(buf + 8 + lenbytes, dict, dl);
  if (pad) {
    memset(buf + 8 + lenbytes + dl, ' ', hlen - dl - 1);
    buf[8 + lenbytes + hlen - 1] = '\n';
  }
  size_t head = 8 + lenbytes + hlen;
  FILE *f = fopen(path, "wb");
  if (!f) { perror(path); exit(1); }
  fwrite(buf, 1, head, f);
  if (data_bytes) fwrite(data, 1, data_bytes, f);
  fclose(f);
  return head;
}

/* Fills n elements of t with random values plus the edge values of the type. */
static void fill(gp_dtype t, void *p, size_t n) {
  for (size_t i = 0; i < n; i++) {
    uint64_t r = check_rand64();
    switch (t) {
    case GP_F32: {
      static const float edge[] = {0.0f, -0.0f, 1.0f / 0.0f, -1.0f / 0.0f, 1e-45f, 3.4028235e38f,
                                   -1.17549435e-38f, 0.1f};
      float v = i < 8 ? edge[i] : (float)((check_rand01() - 0.5) * 1e6);
      if (i >= 8 && (r & 3) == 0) { uint32_t bits = (uint32_t)r; memcpy(&v, &bits, 4); if (isnan(v)) v = 2.5f; }
      ((float *)p)[i] = v;
      break;
    }
    case GP_F64: {
      static const double edge[] = {0.0, -0.0, 1.0 / 0.0, -1.0 / 0.0, 4.9e-324, 1.7976931348623157e308,
                                    -2.2250738585072014e-308, 0.1};
      double v = i < 8 ? edge[i] : (check_rand01() - 0.5) * 1e300;
      if (i >= 8 && (r & 3) == 0) { memcpy(&v, &r, 8); if (isnan(v)) v = 2.5; }
      ((double *)p)[i] = v;
      break;
    }
    case GP_I32: ((int32_t *)p)[i] = i == 0 ? INT32_MIN : i == 1 ? INT32_MAX : (int32_t)(uint32_t)r; break;
    case GP_I64: ((int64_t *)p)[i] = i == 0 ? INT64_MIN : i == 1 ? INT64_MAX : (int64_t)r; break;
    case GP_U32: ((uint32_t *)p)[i] = i == 0 ? 0 : i == 1 ? UINT32_MAX : (uint32_t)r; break;
    case GP_U64: ((uint64_t *)p)[i] = i == 0 ? 0 : i == 1 ? UINT64_MAX : r; break;
    }
  }
}

static void test_round_trips(gp_context *ctx) {
  static const size_t sizes[] = {0, 1, 7, 1000, 70001};
  static const struct { gp_file_format f; const char *ext; } fmts[] = {
    {GP_FILE_NPY, "npy"}, {GP_FILE_RAW, "bin"}, {GP_FILE_TEXT, "txt"}, {GP_FILE_AUTO, "npy"},
    {GP_FILE_AUTO, "csv"}, {GP_FILE_AUTO, "raw"}};
  for (int t = 0; t < GP_DTYPE_COUNT; t++)
    for (size_t fi = 0; fi < sizeof fmts / sizeof fmts[0]; fi++)
      for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
        size_t n = sizes[si], es = gp_dtype_size((gp_dtype)t);
        void *src = malloc(n * es + 1);
        fill((gp_dtype)t, src, n);
        char name[64];
        snprintf(name, sizeof name, "rt_%s_%zu.%s", gp_dtype_name((gp_dtype)t), n, fmts[fi].ext);
        const char *path = tmp(name);
        gp_array a = {(gp_dtype)t, n, n ? src : NULL};
        CHECK_OK(ctx, gp_array_save(ctx, path, fmts[fi].f, &a));
        gp_array b = {GP_F32, 0, NULL};
        CHECK_OK(ctx, gp_array_load(ctx, path, fmts[fi].f, (gp_dtype)t, &b));
        CHECK_MSG(b.dtype == (gp_dtype)t && b.n == n, "%s: dtype %s n %zu", path,
                  gp_dtype_name(b.dtype), b.n);
        if (b.n == n && n) CHECK_MSG(memcmp(b.data, src, n * es) == 0, "%s: data differs", path);
        if (n == 0) CHECK(b.data == NULL);
        gp_array_free(&b);
        CHECK(b.data == NULL && b.n == 0);
        free(src);
      }
  /* a .npy carries its dtype: raw_dtype is ignored */
  int64_t v[3] = {-1, 0, 1};
  gp_array a = {GP_I64, 3, v}, b;
  CHECK_OK(ctx, gp_array_save(ctx, tmp("i64.npy"), GP_FILE_AUTO, &a));
  CHECK_OK(ctx, gp_array_load(ctx, tmp("i64.npy"), GP_FILE_AUTO, GP_F32, &b));
  CHECK(b.dtype == GP_I64 && b.n == 3 && memcmp(b.data, v, sizeof v) == 0);
  gp_array_free(&b);
  /* the writer's header: version 1.0, total a multiple of 64, ends in '\n' */
  unsigned char h[256];
  size_t hl = gp_npy_header(GP_F64, (uint64_t)1 << 40, h, sizeof h);
  CHECK(hl > 0 && hl % 64 == 0 && h[6] == 1 && h[hl - 1] == '\n');
  CHECK(hl == 10 + ((size_t)h[8] | (size_t)h[9] << 8));
  h[hl - 1] = '\0';
  CHECK(strstr((const char *)h + 10, "'shape': (1099511627776,)") != NULL);
  /* NaN survives the binary formats bit for bit and the text format as NaN */
  double nan_in[2] = {NAN, -NAN};
  gp_array na = {GP_F64, 2, nan_in};
  CHECK_OK(ctx, gp_array_save(ctx, tmp("nan.txt"), GP_FILE_AUTO, &na));
  CHECK_OK(ctx, gp_array_load(ctx, tmp("nan.txt"), GP_FILE_AUTO, GP_F64, &b));
  CHECK(b.n == 2 && isnan(((double *)b.data)[0]) && isnan(((double *)b.data)[1]));
  gp_array_free(&b);
}

/* Expects load to fail with `status` and a message containing needle; *out untouched. */
#define EXPECT_LOAD_FAIL(path, fmt, dt, status, needle)                         \
  do {                                                                          \
    gp_array out_ = {GP_U32, 12345, (void *)&sentinel};                         \
    CHECK_STATUS(gp_array_load(ctx, (path), (fmt), (dt), &out_), (status));     \
    CHECK_ERROR_MENTIONS(ctx, (needle));                                        \
    CHECK(out_.dtype == GP_U32 && out_.n == 12345 && out_.data == &sentinel);   \
  } while (0)

static int sentinel;

/* A new pipe (name in the test folder) that a background cat feeds with file; its path. */
static const char *pipe_from(const char *file, const char *name) {
  static char fifo[512];
  char src[512], cmd[1200];
  snprintf(src, sizeof src, "%s", file); /* tmp() reuses one buffer */
  snprintf(fifo, sizeof fifo, "%s", tmp(name));
  snprintf(cmd, sizeof cmd, "cat '%s' > '%s' &", src, fifo);
  CHECK(mkfifo(fifo, 0600) == 0);
  CHECK(system(cmd) == 0);
  return fifo;
}

static void test_npy_headers(gp_context *ctx) {
  float f6[6] = {1, 2, 3, 4, 5, 6};
  gp_array a;
  /* any rank; 0-d is one element; key order and quotes free; trailing comma optional */
  write_npy(tmp("r2.npy"), 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", 1, f6, 24);
  CHECK_OK(ctx, gp_array_load(ctx, tmp("r2.npy"), GP_FILE_AUTO, (gp_dtype)-1, &a));
  CHECK(a.dtype == GP_F32 && a.n == 6 && memcmp(a.data, f6, 24) == 0);
  gp_array_free(&a);
  write_npy(tmp("r0.npy"), 1, "{\"shape\":(),\"fortran_order\":False,\"descr\":\"<f4\"}", 1, f6, 4);
  CHECK_OK(ctx, gp_array_load(ctx, tmp("r0.npy"), GP_FILE_NPY, (gp_dtype)-1, &a));
  CHECK(a.n == 1 && ((float *)a.data)[0] == 1.0f);
  gp_array_free(&a);
  write_npy(tmp("r3.npy"), 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (1, 3, 2)}", 0, f6, 24);
  CHECK_OK(ctx, gp_array_load(ctx, tmp("r3.npy"), GP_FILE_NPY, (gp_dtype)-1, &a));
  CHECK(a.n == 6);
  gp_array_free(&a);
  write_npy(tmp("z.npy"), 1, "{'descr': '<u8', 'fortran_order': False, 'shape': (4, 0, 3), }", 1, NULL, 0);
  CHECK_OK(ctx, gp_array_load(ctx, tmp("z.npy"), GP_FILE_NPY, (gp_dtype)-1, &a));
  CHECK(a.n == 0 && a.dtype == GP_U64 && a.data == NULL);
  gp_array_free(&a);
  write_npy(tmp("long.npy"), 1, "{'descr': '=i4', 'fortran_order': False, 'shape': (6L,), }", 1, f6, 24);
  CHECK_OK(ctx, gp_array_load(ctx, tmp("long.npy"), GP_FILE_NPY, (gp_dtype)-1, &a));
  CHECK(a.n == 6 && a.dtype == GP_I32);
  gp_array_free(&a);
  /* versions 2.0 and 3.0 (4-byte header length), written by hand */
  for (int v = 2; v <= 3; v++) {
    double d[3] = {0.5, -1.5, 2.25};
    write_npy(tmp("v23.npy"), v, "{'descr': '<f8', 'fortran_order': False, 'shape': (3,), }", 1, d, 24);
    CHECK_OK(ctx, gp_array_load(ctx, tmp("v23.npy"), GP_FILE_NPY, (gp_dtype)-1, &a));
    CHECK_MSG(a.n == 3 && a.dtype == GP_F64 && memcmp(a.data, d, 24) == 0, "version %d.0", v);
    gp_array_free(&a);
  }
  /* Fortran order: refused when it changes the element order, fine for one dimension */
  write_npy(tmp("fo.npy"), 1, "{'descr': '<f4', 'fortran_order': True, 'shape': (2, 3), }", 1, f6, 24);
  EXPECT_LOAD_FAIL(tmp("fo.npy"), GP_FILE_NPY, GP_F32, GP_ERR_UNSUPPORTED, "Fortran");
  write_npy(tmp("fo1.npy"), 1, "{'descr': '<f4', 'fortran_order': True, 'shape': (1, 6), }", 1, f6, 24);
  CHECK_OK(ctx, gp_array_load(ctx, tmp("fo1.npy"), GP_FILE_NPY, (gp_dtype)-1, &a));
  CHECK(a.n == 6 && memcmp(a.data, f6, 24) == 0);
  gp_array_free(&a);
  /* dtypes gpuprims does not take */
  write_npy(tmp("be.npy"), 1, "{'descr': '>f4', 'fortran_order': False, 'shape': (6,), }", 1, f6, 24);
  EXPECT_LOAD_FAIL(tmp("be.npy"), GP_FILE_NPY, GP_F32, GP_ERR_UNSUPPORTED, "big-endian");
  write_npy(tmp("f2.npy"), 1, "{'descr': '<f2', 'fortran_order': False, 'shape': (6,), }", 1, f6, 12);
  EXPECT_LOAD_FAIL(tmp("f2.npy"), GP_FILE_NPY, GP_F32, GP_ERR_UNSUPPORTED, "'<f2' is not supported");
  write_npy(tmp("u1.npy"), 1, "{'descr': '|u1', 'fortran_order': False, 'shape': (6,), }", 1, f6, 6);
  EXPECT_LOAD_FAIL(tmp("u1.npy"), GP_FILE_NPY, GP_F32, GP_ERR_UNSUPPORTED, "'|u1'");
  write_npy(tmp("st.npy"), 1, "{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (6,), }", 1, f6, 24);
  EXPECT_LOAD_FAIL(tmp("st.npy"), GP_FILE_NPY, GP_F32, GP_ERR_UNSUPPORTED, "structured");
  /* malformed headers: each names the file and the problem */
  static const struct { const char *dict; const char *needle; } badh[] = {
    {"{'descr': '<f4', 'fortran_order': False}", "'shape' is missing"},
    {"{'descr': '<f4', 'shape': (6,)}", "'fortran_order' is missing"},
    {"{'descr': '<f4', 'fortran_order': False, 'shape': (6,), 'x': 1}", "unexpected key 'x'"},
    {"{'descr': '<f4', 'fortran_order': Maybe, 'shape': (6,)}", "True or False"},
    {"{'descr': '<f4, 'fortran_order': False, 'shape': (6,)}", "malformed"},
    {"{'descr': '<f4', 'fortran_order': False, 'shape': (-6,)}", "non-negative integer"},
    {"{'descr': '<f4', 'fortran_order': False, 'shape': (6,) 'x'}", "expected ',' or '}'"},
    {"{'descr': '<f4', 'fortran_order': False, 'shape': (6;)}", "',' or ')'"},
    {"['descr', '<f4']", "expected '{'"},
    {"{'descr': '<f4', 'fortran_order': False, 'shape': (6,)} junk", "after the dict"},
    {"{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (6,)}", "twice"},
    {"{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999999,)}", "too large"},
    {"{'descr': '<f4', 'fortran_order': False, 'shape': (4294967296, 4294967296, 2)}", "overflows"},
    {"{'descr': '<f4', 'fortran_order': False, 'shape': (4294967296, 0, 4294967296)}",
     "overflows 63 bits, counting only the dimensions that are not 0"},
    {"{'descr': '<f4', 'fortran_order': False, 'shape': (3037000500, 3037000500)}", "overflows"},
    {"{'descr': 'f4', 'fortran_order': False, 'shape': (6,)}", "no byte-order character ('<f4')"},
    {"{'descr': '<f4', 'fortran_order': False, 'shape': (6)}", "not a tuple"},
    {"", "expected '{'"},
  };
  for (size_t i = 0; i < sizeof badh / sizeof badh[0]; i++) {
    write_npy(tmp("bad.npy"), 1, badh[i].dict, 1, f6, 24);
    EXPECT_LOAD_FAIL(tmp("bad.npy"), GP_FILE_NPY, GP_F32, GP_ERR_FORMAT, badh[i].needle);
    CHECK_ERROR_MENTIONS(ctx, "bad.npy");
  }
  /* data size against the header */
  write_npy(tmp("short.npy"), 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (1000,), }", 1, f6, 12);
  EXPECT_LOAD_FAIL(tmp("short.npy"), GP_FILE_AUTO, GP_F32, GP_ERR_FORMAT,
                   "header says 1000 elements of f32 (4000 bytes) but the file holds 12 bytes of data");
  CHECK_ERROR_MENTIONS(ctx, "short.npy");
  /* the same through a pipe (size unknown): extra bytes are found by reading */
  write_npy(tmp("extra.npy"), 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (0,), }", 1, f6, 24);
  {
    const char *fifo = pipe_from(tmp("extra.npy"), "fifo.npy");
    EXPECT_LOAD_FAIL(fifo, GP_FILE_NPY, GP_F32, GP_ERR_FORMAT, "extra bytes after the array");
    unlink(fifo);
  }
  /* a pipe whose header promises 4 TiB over 24 bytes: truncated, without a 4 TiB malloc
   * (the buffer grows with what arrives) */
  write_npy(tmp("huge.npy"), 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (1099511627776,), }",
            1, f6, 24);
  {
    const char *fifo = pipe_from(tmp("huge.npy"), "fifo2.npy");
    EXPECT_LOAD_FAIL(fifo, GP_FILE_NPY, GP_F32, GP_ERR_FORMAT, "truncated");
    unlink(fifo);
  }
  write_npy(tmp("long2.npy"), 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (5,), }", 1, f6, 24);
  EXPECT_LOAD_FAIL(tmp("long2.npy"), GP_FILE_AUTO, GP_F32, GP_ERR_FORMAT, "extra bytes");
  /* magic, version, truncation inside the preamble and the header */
  write_bytes(tmp("empty.npy"), "", 0);
  EXPECT_LOAD_FAIL(tmp("empty.npy"), GP_FILE_AUTO, GP_F32, GP_ERR_FORMAT, "not a .npy file");
  write_text(tmp("text.npy"), "1\n2\n3\n4\n5\n6\n7\n8\n");
  EXPECT_LOAD_FAIL(tmp("text.npy"), GP_FILE_AUTO, GP_F32, GP_ERR_FORMAT, "magic");
  write_bytes(tmp("v.npy"), "\x93NUMPY\x01", 7);
  EXPECT_LOAD_FAIL(tmp("v.npy"), GP_FILE_AUTO, GP_F32, GP_ERR_FORMAT, "truncated");
  write_bytes(tmp("v4.npy"), "\x93NUMPY\x04\x00\x10\x00\x00\x00{}", 14);
  EXPECT_LOAD_FAIL(tmp("v4.npy"), GP_FILE_AUTO, GP_F32, GP_ERR_UNSUPPORTED, "version 4.0");
  write_bytes(tmp("v11.npy"), "\x93NUMPY\x01\x01\x02\x00{}", 12);
  EXPECT_LOAD_FAIL(tmp("v11.npy"), GP_FILE_AUTO, GP_F32, GP_ERR_UNSUPPORTED, "version 1.1");
  write_bytes(tmp("hl.npy"), "\x93NUMPY\x01\x00\x76", 9);
  EXPECT_LOAD_FAIL(tmp("hl.npy"), GP_FILE_AUTO, GP_F32, GP_ERR_FORMAT, "header length");
  write_bytes(tmp("ht.npy"), "\x93NUMPY\x01\x00\x76\x00{'descr'", 17);
  EXPECT_LOAD_FAIL(tmp("ht.npy"), GP_FILE_AUTO, GP_F32, GP_ERR_FORMAT, "truncated");
  write_bytes(tmp("huge.npy"), "\x93NUMPY\x02\x00\xff\xff\xff\x7f{", 13);
  EXPECT_LOAD_FAIL(tmp("huge.npy"), GP_FILE_AUTO, GP_F32, GP_ERR_FORMAT, "implausibly large");
  /* every truncation of a valid file fails cleanly */
  float d5[5] = {1, 2, 3, 4, 5};
  gp_array a5 = {GP_F32, 5, d5};
  CHECK_OK(ctx, gp_array_save(ctx, tmp("full.npy"), GP_FILE_NPY, &a5));
  unsigned char whole[256];
  FILE *f = fopen(tmp("full.npy"), "rb");
  size_t wl = fread(whole, 1, sizeof whole, f);
  fclose(f);
  CHECK(wl > 20 && (wl - 20) % 64 == 0);
  for (size_t cut = 0; cut < wl; cut++) {
    write_bytes(tmp("cut.npy"), whole, cut);
    gp_array out = {GP_U32, 12345, &sentinel};
    gp_status s = gp_array_load(ctx, tmp("cut.npy"), GP_FILE_NPY, GP_F32, &out);
    CHECK_MSG(s == GP_ERR_FORMAT, "cut at %zu: %s (%s)", cut, gp_status_string(s), gp_last_error(ctx));
    CHECK(out.n == 12345 && out.data == &sentinel);
  }
}

/* Files over 4 GiB: the size checks use 64-bit sizes (a sparse file, no memory used).
 * With GP_TEST_BIG=1 a 4 GiB + 8 byte raw file is also loaded in full. */
static void test_big(gp_context *ctx) {
  uint64_t n = ((uint64_t)1 << 30) + 1; /* f32: 4 GiB + 4 bytes of data */
  char dict[128];
  snprintf(dict, sizeof dict, "{'descr': '<f4', 'fortran_order': False, 'shape': (%llu,), }",
           (unsigned long long)n);
  size_t head = write_npy(tmp("big.npy"), 1, dict, 1, NULL, 0);
  if (truncate(tmp("big.npy"), (off_t)head + ((off_t)1 << 32)) != 0) {
    printf("test_io: sparse 4 GiB file not possible here (%s): big-file check skipped\n", strerror(errno));
  } else {
    EXPECT_LOAD_FAIL(tmp("big.npy"), GP_FILE_NPY, GP_F32, GP_ERR_FORMAT,
                     "header says 1073741825 elements of f32 (4294967300 bytes) but the file "
                     "holds 4294967296 bytes of data");
  }
  remove(tmp("big.npy"));
  write_bytes(tmp("big.bin"), "", 0);
  if (truncate(tmp("big.bin"), ((off_t)1 << 32) + 3) == 0)
    EXPECT_LOAD_FAIL(tmp("big.bin"), GP_FILE_RAW, GP_F64, GP_ERR_FORMAT,
                     "holds 4294967299 bytes, not a multiple of 8");
  const char *big = getenv("GP_TEST_BIG");
  if (big && strcmp(big, "1") == 0 && truncate(tmp("big.bin"), ((off_t)1 << 32) + 8) == 0) {
    gp_array a;
    CHECK_OK(ctx, gp_array_load(ctx, tmp("big.bin"), GP_FILE_RAW, GP_U64, &a));
    CHECK_EQ_U64(a.n, ((uint64_t)1 << 29) + 1);
    if (a.data) CHECK(((uint64_t *)a.data)[a.n - 1] == 0);
    gp_array_free(&a);
  }
  remove(tmp("big.bin"));
}

/* Bodies of GP_IO_PAR_MIN bytes and more are read in parallel pieces (pread): a 40 MiB +
 * 12 byte array of u32 (the last piece short), each element its own index, through
 * .npy and raw, must come back whole and in place. */
static void test_parallel_body(gp_context *ctx) {
  const size_t n = ((size_t)10 << 20) + 3;
  gp_array a = {GP_U32, n, malloc(n * 4)};
  CHECK(a.data != NULL);
  if (!a.data) return;
  for (size_t i = 0; i < n; i++) ((uint32_t *)a.data)[i] = (uint32_t)(i * 2654435761u);
  const gp_file_format fmts[2] = {GP_FILE_NPY, GP_FILE_RAW};
  for (int k = 0; k < 2; k++) {
    const char *path = k ? tmp("par.bin") : tmp("par.npy");
    CHECK_OK(ctx, gp_array_save(ctx, path, fmts[k], &a));
    gp_array b = {GP_F64, 0, NULL};
    CHECK_OK(ctx, gp_array_load(ctx, path, fmts[k], GP_U32, &b));
    CHECK(b.dtype == GP_U32 && b.n == n);
    size_t bad = n;
    for (size_t i = 0; b.data && b.n == n && i < n && bad == n; i++)
      if (((uint32_t *)b.data)[i] != (uint32_t)(i * 2654435761u)) bad = i;
    CHECK_MSG(bad == n, "%s: element %zu differs after a parallel read", path, bad);
    gp_array_free(&b);
    remove(path);
  }
  gp_array_free(&a);
}

static void test_raw(gp_context *ctx) {
  write_bytes(tmp("odd.bin"), "0123456789abc", 13);
  EXPECT_LOAD_FAIL(tmp("odd.bin"), GP_FILE_RAW, GP_F32, GP_ERR_FORMAT, "13 bytes, not a multiple of 4");
  EXPECT_LOAD_FAIL(tmp("odd.bin"), GP_FILE_AUTO, (gp_dtype)-1, GP_ERR_INVALID_ARGUMENT, "--dtype");
  write_bytes(tmp("e.bin"), "", 0);
  gp_array a = {GP_F32, 1, &sentinel};
  CHECK_OK(ctx, gp_array_load(ctx, tmp("e.bin"), GP_FILE_RAW, GP_I64, &a));
  CHECK(a.n == 0 && a.data == NULL && a.dtype == GP_I64);
  write_bytes(tmp("twelve.dat"), "\x01\x00\x00\x00\x02\x00\x00\x00\xff\xff\xff\xff", 12);
  CHECK_OK(ctx, gp_array_load(ctx, tmp("twelve.dat"), GP_FILE_AUTO, GP_I32, &a));
  CHECK(a.n == 3 && ((int32_t *)a.data)[0] == 1 && ((int32_t *)a.data)[2] == -1);
  gp_array_free(&a);
}

static void test_text(gp_context *ctx) {
  gp_array a;
  /* comments, blank lines, spaces, CRLF; default dtype f64 */
  write_text(tmp("t1.txt"), "# header\n\n  1.5  \r\n-2 # trailing comment\n\t+3e2\n#\n\n-0\n0x1p-2\n");
  CHECK_OK(ctx, gp_array_load(ctx, tmp("t1.txt"), GP_FILE_AUTO, (gp_dtype)-1, &a));
  CHECK(a.dtype == GP_F64 && a.n == 5);
  if (a.n == 5) {
    double *d = (double *)a.data;
    CHECK(d[0] == 1.5 && d[1] == -2 && d[2] == 300 && d[3] == 0 && signbit(d[3]) && d[4] == 0.25);
  }
  gp_array_free(&a);
  /* no trailing newline; empty file; only comments */
  write_text(tmp("t2.txt"), "7\n8");
  CHECK_OK(ctx, gp_array_load(ctx, tmp("t2.txt"), GP_FILE_TEXT, GP_I32, &a));
  CHECK(a.n == 2 && ((int32_t *)a.data)[1] == 8);
  gp_array_free(&a);
  write_text(tmp("t3.txt"), "");
  CHECK_OK(ctx, gp_array_load(ctx, tmp("t3.txt"), GP_FILE_TEXT, GP_F32, &a));
  CHECK(a.n == 0 && a.data == NULL);
  write_text(tmp("t4.csv"), "# nothing\n\n   \n# here\n");
  CHECK_OK(ctx, gp_array_load(ctx, tmp("t4.csv"), GP_FILE_AUTO, GP_U64, &a));
  CHECK(a.n == 0 && a.dtype == GP_U64);
  /* 64-bit integers exactly (a double round trip would lose the low bits) */
  write_text(tmp("i64.txt"), "9223372036854775807\n-9223372036854775808\n9007199254740993\n");
  CHECK_OK(ctx, gp_array_load(ctx, tmp("i64.txt"), GP_FILE_TEXT, GP_I64, &a));
  if (a.n == 3) {
    int64_t *v = (int64_t *)a.data;
    CHECK(v[0] == INT64_MAX && v[1] == INT64_MIN && v[2] == 9007199254740993LL);
  }
  gp_array_free(&a);
  write_text(tmp("u64.txt"), "18446744073709551615\n+18446744073709551614\n0\n");
  CHECK_OK(ctx, gp_array_load(ctx, tmp("u64.txt"), GP_FILE_TEXT, GP_U64, &a));
  if (a.n == 3) {
    uint64_t *v = (uint64_t *)a.data;
    CHECK(v[0] == UINT64_MAX && v[1] == UINT64_MAX - 1 && v[2] == 0);
  }
  gp_array_free(&a);
  /* F32 parsed directly: just above the halfway point between 1 and 1 + 2^-23, which a
   * parse through double would round to the halfway point and then down to 1.0 */
  write_text(tmp("f32.txt"), "1.00000005960464477539062500001\n3.4028235e38\n0e-46\n");
  CHECK_OK(ctx, gp_array_load(ctx, tmp("f32.txt"), GP_FILE_TEXT, GP_F32, &a));
  if (a.n == 3) {
    uint32_t bits;
    memcpy(&bits, a.data, 4);
    CHECK_MSG(bits == 0x3f800001u, "bits %08x", bits);
    CHECK(((float *)a.data)[1] == 3.4028235e38f && ((float *)a.data)[2] == 0.0f);
  }
  gp_array_free(&a);
  write_text(tmp("sp.txt"), "nan\ninf\n-inf\n-nan\n1e-320\n");
  CHECK_OK(ctx, gp_array_load(ctx, tmp("sp.txt"), GP_FILE_TEXT, GP_F64, &a));
  if (a.n == 5) {
    double *d = (double *)a.data;
    CHECK(isnan(d[0]) && isinf(d[1]) && d[1] > 0 && isinf(d[2]) && d[2] < 0 && isnan(d[3]));
    CHECK(d[4] > 0 && d[4] < 1e-300);
  }
  gp_array_free(&a);
  /* the grammar (GP_FILE_TEXT): a BOM, commas and spaces between numbers, hex
   * integers, -0 as an unsigned, subnormals, inf/nan in any case */
  write_text(tmp("g.csv"), "\xef\xbb\xbf" "1,2,3\n 4 , 5\t6 # c\n0x10, -0x7fffffff ,-0\n");
  CHECK_OK(ctx, gp_array_load(ctx, tmp("g.csv"), GP_FILE_AUTO, GP_I32, &a));
  if (a.n == 9) {
    const int32_t want[9] = {1, 2, 3, 4, 5, 6, 16, -0x7fffffff, 0};
    CHECK(memcmp(a.data, want, sizeof want) == 0);
  } else {
    CHECK_EQ_U64(a.n, 9);
  }
  gp_array_free(&a);
  write_text(tmp("g.txt"), "-0\n0xFFFFFFFFFFFFFFFF +0x0\n");
  CHECK_OK(ctx, gp_array_load(ctx, tmp("g.txt"), GP_FILE_TEXT, GP_U64, &a));
  CHECK(a.n == 3 && ((uint64_t *)a.data)[0] == 0 && ((uint64_t *)a.data)[1] == UINT64_MAX &&
        ((uint64_t *)a.data)[2] == 0);
  gp_array_free(&a);
  write_text(tmp("g2.txt"), "1e-45, 0x1.8p1, -INF, NaN, Infinity, -0.0\n");
  CHECK_OK(ctx, gp_array_load(ctx, tmp("g2.txt"), GP_FILE_TEXT, GP_F32, &a));
  if (a.n == 6) {
    float *v = (float *)a.data;
    CHECK(v[0] > 0 && v[0] < 2e-45 && v[1] == 3.0f && isinf(v[2]) && v[2] < 0 && isnan(v[3]) &&
          isinf(v[4]) && v[5] == 0 && signbit(v[5]));
  } else {
    CHECK_EQ_U64(a.n, 6);
  }
  gp_array_free(&a);
  /* bad lines name the file, the line, the byte and the token */
  write_text(tmp("bad.txt"), "1\n2\n\n# c\n5\n6\nabc\n8\n");
  EXPECT_LOAD_FAIL(tmp("bad.txt"), GP_FILE_AUTO, (gp_dtype)-1, GP_ERR_PARSE,
                   "bad.txt line 7, byte 13: 'abc' is not a number");
  static const struct { const char *text; gp_dtype t; const char *needle; } bad[] = {
    {"1\n2147483648\n", GP_I32, "line 2, byte 2: '2147483648' is out of range for i32"},
    {"-2147483649\n", GP_I32, "out of range for i32"},
    {"9223372036854775808\n", GP_I64, "out of range for i64"},
    {"18446744073709551616\n", GP_U64, "out of range for u64"},
    {"4294967296\n", GP_U32, "out of range for u32"},
    {"-1\n", GP_U64, "'-1' is negative"},
    {"-1\n", GP_U32, "is negative"},
    {"1.5\n", GP_I32, "'1.5' is not an integer"},
    {"1e3\n", GP_I64, "is not an integer"},
    {"12abc\n", GP_U32, "'12abc' is not a number"},
    {"1 2x\n", GP_F64, "byte 2: '2x' is not a number"},
    {"1,\n", GP_F64, "byte 1: an empty field after ','"},
    {"1,,2\n", GP_F64, "byte 2: an empty field before ','"},
    {",1\n", GP_F64, "byte 0: an empty field before ','"},
    {"\xef\xbb\xbf\xef\xbb\xbf" "1\n", GP_F64, "'\\xef\\xbb\\xbf1' is not a number"},
    {"1\x01\n", GP_I32, "'1\\x01' is not a number"},
    {"nan(123)\n", GP_F64, "'nan(123)' is not a number"},
    {"1e-400\n", GP_F64, "'1e-400' underflows to 0 in f64"},
    {"1e-46\n", GP_F32, "'1e-46' underflows to 0 in f32"},
    {"0x1p-1100\n", GP_F64, "underflows to 0 in f64"},
    {"0x\n", GP_I32, "'0x' is not a number"},
    {"0x100000000\n", GP_U32, "out of range for u32"},
    {"0x10000000000000000\n", GP_U64, "out of range for u64"},
    {"-0x80000001\n", GP_I32, "out of range for i32"},
    {"1.\n", GP_U32, "is not an integer (the dtype is u32)"},
    {"1e\n", GP_F64, "'1e' is not a number"},
    {".\n", GP_F64, "'.' is not a number"},
    {"infinit\n", GP_F32, "is not a number"},
    {"1e999\n", GP_F64, "out of range for f64"},
    {"1e39\n", GP_F32, "out of range for f32"},
    {"- 1\n", GP_I64, "is not a number"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    write_text(tmp("b.txt"), bad[i].text);
    EXPECT_LOAD_FAIL(tmp("b.txt"), GP_FILE_TEXT, bad[i].t, GP_ERR_PARSE, bad[i].needle);
  }
  write_bytes(tmp("nul.txt"), "1\n\0\x01\x02\n", 6);
  EXPECT_LOAD_FAIL(tmp("nul.txt"), GP_FILE_TEXT, GP_F64, GP_ERR_PARSE, "line 2");
  /* a long token is shortened in the message */
  char longline[300];
  memset(longline, 'x', 299);
  longline[299] = '\0';
  write_text(tmp("long.txt"), longline);
  EXPECT_LOAD_FAIL(tmp("long.txt"), GP_FILE_TEXT, GP_F64, GP_ERR_PARSE, "...' is not a number");
}

static void test_errors(gp_context *ctx) {
  EXPECT_LOAD_FAIL(tmp("does-not-exist.npy"), GP_FILE_AUTO, GP_F32, GP_ERR_IO, "No such file");
  CHECK_ERROR_MENTIONS(ctx, "does-not-exist.npy");
  EXPECT_LOAD_FAIL(dir, GP_FILE_TEXT, GP_F32, GP_ERR_IO, "directory");
  EXPECT_LOAD_FAIL(tmp("x.npy"), (gp_file_format)9, GP_F32, GP_ERR_INVALID_ARGUMENT, "unknown file format");
  gp_array a = {GP_F32, 1, NULL};
  CHECK_STATUS(gp_array_load(ctx, NULL, GP_FILE_AUTO, GP_F32, &a), GP_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(gp_array_load(ctx, tmp("x"), GP_FILE_AUTO, GP_F32, NULL), GP_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(gp_array_load(NULL, tmp("x"), GP_FILE_AUTO, GP_F32, &a), GP_ERR_INVALID_ARGUMENT);
  float v = 1;
  gp_array ok = {GP_F32, 1, &v};
  CHECK_STATUS(gp_array_save(ctx, "/nonexistent-dir-gpuprims/x.npy", GP_FILE_AUTO, &ok), GP_ERR_IO);
  CHECK_ERROR_MENTIONS(ctx, "No such file");
  gp_array nulldata = {GP_F32, 3, NULL};
  CHECK_STATUS(gp_array_save(ctx, tmp("n.npy"), GP_FILE_AUTO, &nulldata), GP_ERR_INVALID_ARGUMENT);
  gp_array baddt = {(gp_dtype)17, 1, &v};
  CHECK_STATUS(gp_array_save(ctx, tmp("n.npy"), GP_FILE_AUTO, &baddt), GP_ERR_INVALID_ARGUMENT);
  if (access("/dev/full", W_OK) == 0) {
    float big[4096] = {0};
    gp_array full = {GP_F32, 4096, big};
    CHECK_STATUS(gp_array_save(ctx, "/dev/full", GP_FILE_RAW, &full), GP_ERR_IO);
    CHECK_ERROR_MENTIONS(ctx, "No space");
  }
  gp_array_free(NULL);
  /* format names */
  for (int f = GP_FILE_AUTO; f <= GP_FILE_TEXT; f++) {
    gp_file_format back;
    CHECK_OK(ctx, gp_file_format_from_name(gp_file_format_name((gp_file_format)f), &back));
    CHECK(back == (gp_file_format)f);
  }
  gp_file_format ff;
  CHECK_STATUS(gp_file_format_from_name("hdf5", &ff), GP_ERR_PARSE);
}

/* Temporary files gp_array_save left behind in the test folder. */
static int leftover_tmp_files(void) {
  DIR *d = opendir(dir);
  int n = 0;
  struct dirent *e;
  while (d && (e = readdir(d)))
    if (strstr(e->d_name, ".gp-tmp-")) n++;
  if (d) closedir(d);
  return n;
}

static int same_bytes(const char *a, const char *b) {
  FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
  int same = fa && fb;
  while (same) {
    int ca = fgetc(fa), cb = fgetc(fb);
    same = ca == cb;
    if (ca == EOF) break;
  }
  if (fa) fclose(fa);
  if (fb) fclose(fb);
  return same;
}

/* Item 1 of issue 11: a failed save never removes or truncates what was there. */
static void test_safe_output(gp_context *ctx) {
  enum { N = 1 << 17 };
  double *big = (double *)malloc(N * sizeof *big);
  for (size_t i = 0; i < N; i++) big[i] = (double)i;
  double small_v[3] = {3, 1, 2};
  gp_array bigarr = {GP_F64, N, big}, small = {GP_F64, 3, small_v}, back = {GP_F64, 0, NULL};

  /* replace an existing file: new contents, its mode kept, no temporary left */
  CHECK_OK(ctx, gp_array_save(ctx, tmp("keep.npy"), GP_FILE_AUTO, &small));
  CHECK(chmod(tmp("keep.npy"), 0640) == 0);
  CHECK_OK(ctx, gp_array_save(ctx, tmp("keep.npy"), GP_FILE_AUTO, &bigarr));
  struct stat st;
  CHECK(stat(tmp("keep.npy"), &st) == 0 && (st.st_mode & 0777) == 0640);
  CHECK_OK(ctx, gp_array_load(ctx, tmp("keep.npy"), GP_FILE_AUTO, GP_F64, &back));
  CHECK_EQ_U64(back.n, N);
  gp_array_free(&back);
  CHECK_EQ_I64(leftover_tmp_files(), 0);

  /* "File too large" half way through (RLIMIT_FSIZE, as `ulimit -f` does): the old
   * file is intact and no temporary is left. In a child, so the limit stays there. */
  CHECK_OK(ctx, gp_array_save(ctx, tmp("orig.npy"), GP_FILE_AUTO, &small));
  CHECK_OK(ctx, gp_array_save(ctx, tmp("same.npy"), GP_FILE_AUTO, &small));
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) {
    signal(SIGXFSZ, SIG_IGN);
    struct rlimit rl = {64 << 10, 64 << 10};
    if (setrlimit(RLIMIT_FSIZE, &rl) != 0) _exit(3);
    gp_status s = gp_array_save(ctx, tmp("same.npy"), GP_FILE_AUTO, &bigarr);
    _exit(s == GP_ERR_IO && strstr(gp_last_error(ctx), "File too large") ? 0 : 4);
  }
  int wst = 0;
  CHECK(pid > 0 && waitpid(pid, &wst, 0) == pid);
  CHECK_MSG(WIFEXITED(wst) && WEXITSTATUS(wst) == 0, "RLIMIT_FSIZE child: status %d", wst);
  CHECK_MSG(same_bytes(tmp("same.npy"), tmp("orig.npy")), "same.npy changed by a failed save");
  CHECK_EQ_I64(leftover_tmp_files(), 0);

  /* a symlink: the link stays a link, its target gets the new contents */
  CHECK_OK(ctx, gp_array_save(ctx, tmp("target.npy"), GP_FILE_AUTO, &small));
  CHECK(symlink("target.npy", tmp("link.npy")) == 0);
  CHECK_OK(ctx, gp_array_save(ctx, tmp("link.npy"), GP_FILE_AUTO, &bigarr));
  CHECK(lstat(tmp("link.npy"), &st) == 0 && S_ISLNK(st.st_mode));
  CHECK_OK(ctx, gp_array_load(ctx, tmp("target.npy"), GP_FILE_AUTO, GP_F64, &back));
  CHECK_EQ_U64(back.n, N);
  gp_array_free(&back);
  /* a dangling symlink (relative, through a second link) creates its target */
  CHECK(symlink("link3.npy", tmp("link2.npy")) == 0);
  CHECK(symlink("new-target.npy", tmp("link3.npy")) == 0);
  CHECK_OK(ctx, gp_array_save(ctx, tmp("link2.npy"), GP_FILE_AUTO, &small));
  CHECK(lstat(tmp("link2.npy"), &st) == 0 && S_ISLNK(st.st_mode));
  CHECK(lstat(tmp("new-target.npy"), &st) == 0 && S_ISREG(st.st_mode));
  /* a loop of links is an error that says so */
  CHECK(symlink("loop-b.npy", tmp("loop-a.npy")) == 0);
  CHECK(symlink("loop-a.npy", tmp("loop-b.npy")) == 0);
  CHECK_STATUS(gp_array_save(ctx, tmp("loop-a.npy"), GP_FILE_AUTO, &small), GP_ERR_IO);
  CHECK_ERROR_MENTIONS(ctx, "symbolic links");
  /* a failed save through a link leaves the target whole */
  CHECK_OK(ctx, gp_array_save(ctx, tmp("target.npy"), GP_FILE_AUTO, &small));
  fflush(NULL);
  pid = fork();
  if (pid == 0) {
    signal(SIGXFSZ, SIG_IGN);
    struct rlimit rl = {64 << 10, 64 << 10};
    if (setrlimit(RLIMIT_FSIZE, &rl) != 0) _exit(3);
    _exit(gp_array_save(ctx, tmp("link.npy"), GP_FILE_AUTO, &bigarr) == GP_ERR_IO ? 0 : 4);
  }
  CHECK(pid > 0 && waitpid(pid, &wst, 0) == pid);
  CHECK(WIFEXITED(wst) && WEXITSTATUS(wst) == 0);
  CHECK(lstat(tmp("link.npy"), &st) == 0 && S_ISLNK(st.st_mode));
  CHECK_MSG(same_bytes(tmp("target.npy"), tmp("orig.npy")), "link target changed by a failed save");
  CHECK_EQ_I64(leftover_tmp_files(), 0);

  /* a read-only file is refused, not replaced (root may write anything) */
  if (geteuid() != 0) {
    CHECK(chmod(tmp("orig.npy"), 0444) == 0);
    CHECK_STATUS(gp_array_save(ctx, tmp("orig.npy"), GP_FILE_AUTO, &bigarr), GP_ERR_IO);
    CHECK_ERROR_MENTIONS(ctx, "Permission denied");
    CHECK(same_bytes(tmp("orig.npy"), tmp("same.npy")));
  }

  /* a device that fails stays a device */
  if (access("/dev/full", W_OK) == 0) {
    CHECK_STATUS(gp_array_save(ctx, "/dev/full", GP_FILE_NPY, &bigarr), GP_ERR_IO);
    CHECK(stat("/dev/full", &st) == 0 && S_ISCHR(st.st_mode));
  }
  /* a pipe whose reader goes away: written in place, the FIFO is still there */
  CHECK(mkfifo(tmp("fifo"), 0600) == 0);
  fflush(NULL);
  pid = fork();
  if (pid == 0) { /* reads 100 bytes, then closes */
    char buf[100];
    FILE *f = fopen(tmp("fifo"), "rb");
    _exit(f && fread(buf, 1, sizeof buf, f) == sizeof buf ? 0 : 5);
  }
  void (*old)(int) = signal(SIGPIPE, SIG_IGN);
  CHECK_STATUS(gp_array_save(ctx, tmp("fifo"), GP_FILE_RAW, &bigarr), GP_ERR_IO);
  CHECK_ERROR_MENTIONS(ctx, "Broken pipe");
  signal(SIGPIPE, old);
  CHECK(pid > 0 && waitpid(pid, &wst, 0) == pid && WIFEXITED(wst) && WEXITSTATUS(wst) == 0);
  CHECK(lstat(tmp("fifo"), &st) == 0 && S_ISFIFO(st.st_mode));
  /* a directory is an error that names it */
  CHECK_STATUS(gp_array_save(ctx, dir, GP_FILE_NPY, &small), GP_ERR_IO);
  CHECK_ERROR_MENTIONS(ctx, "directory");
  CHECK_EQ_I64(leftover_tmp_files(), 0);
  free(big);
}

/* A body of GP_IO_PAR_MIN bytes or more is handed to the disk chunk by chunk as it is
 * written (sync_file_range on Linux): past RLIMIT_FSIZE the save still reports "File
 * too large", the old file stays whole and no temporary is left. */
static void test_large_write_limit(gp_context *ctx) {
  const size_t n = ((size_t)5 << 20) + 1; /* 40 MiB of f64 */
  double *v = (double *)malloc(n * sizeof *v);
  CHECK(v != NULL);
  if (!v) return;
  for (size_t i = 0; i < n; i++) v[i] = (double)i;
  double small_v[3] = {3, 1, 2};
  gp_array big = {GP_F64, n, v}, small = {GP_F64, 3, small_v};
  CHECK_OK(ctx, gp_array_save(ctx, tmp("mref.npy"), GP_FILE_AUTO, &small));
  CHECK_OK(ctx, gp_array_save(ctx, tmp("mfull.npy"), GP_FILE_AUTO, &small));
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) {
    signal(SIGXFSZ, SIG_IGN);
    struct rlimit rl = {1 << 20, 1 << 20};
    if (setrlimit(RLIMIT_FSIZE, &rl) != 0) _exit(3);
    gp_status s = gp_array_save(ctx, tmp("mfull.npy"), GP_FILE_AUTO, &big);
    _exit(s == GP_ERR_IO && strstr(gp_last_error(ctx), "File too large") ? 0 : 4);
  }
  int wst = 0;
  CHECK(pid > 0 && waitpid(pid, &wst, 0) == pid);
  CHECK_MSG(WIFEXITED(wst) && WEXITSTATUS(wst) == 0, "RLIMIT_FSIZE child (40 MiB): status %d", wst);
  CHECK_MSG(same_bytes(tmp("mfull.npy"), tmp("mref.npy")), "mfull.npy changed by a failed save");
  CHECK_EQ_I64(leftover_tmp_files(), 0);
  remove(tmp("mfull.npy"));
  remove(tmp("mref.npy"));
  free(v);
}

int main(void) {
  snprintf(dir, sizeof dir, "%s/gpuprims_test_io_XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
  if (!mkdtemp(dir)) { perror("mkdtemp"); return 1; }
  gp_context *ctx = check_cpu_context();
  test_round_trips(ctx);
  test_npy_headers(ctx);
  test_raw(ctx);
  test_text(ctx);
  test_errors(ctx);
  test_big(ctx);
  test_parallel_body(ctx);
  test_safe_output(ctx);
  test_large_write_limit(ctx);
  gp_destroy(ctx);
  char cmd[600];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", dir);
  return check_summary("test_io");
}
