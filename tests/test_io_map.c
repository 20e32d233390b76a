/* gp_array_map: the same array as gp_array_load for every dtype and format (mapped or,
 * for text and pipes, loaded), a misaligned .npy body loaded aligned, the loader's
 * errors with *out and *mapping untouched, and a mapping that outlives the file's
 * replacement. Host only: runs everywhere. */
#define _POSIX_C_SOURCE 200809L
#define _FILE_OFFSET_BITS 64
#include "check.h"

#include <stdint.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[256];
static char pathbuf[512];

static const char *tmp(const char *name) {
  snprintf(pathbuf, sizeof pathbuf, "%s/%s", dir, name);
  return pathbuf;
}

static int sentinel;

/* map and load of path agree: dtype, n and bytes */
static void expect_same(gp_context *ctx, const char *path, gp_file_format fmt, gp_dtype t) {
  gp_array a = {GP_F32, 0, NULL}, b = {GP_F32, 0, NULL};
  gp_array_mapping *m = NULL;
  CHECK_OK(ctx, gp_array_load(ctx, path, fmt, t, &a));
  CHECK_OK(ctx, gp_array_map(ctx, path, fmt, t, &b, &m));
  CHECK(m != NULL);
  CHECK_MSG(a.dtype == b.dtype && a.n == b.n, "%s: map gives %s x %zu, load %s x %zu", path,
            gp_dtype_name(b.dtype), b.n, gp_dtype_name(a.dtype), a.n);
  if (a.n == b.n && a.n)
    CHECK_MSG(memcmp(a.data, b.data, a.n * gp_dtype_size(a.dtype)) == 0, "%s: data differ", path);
  if (b.n == 0) CHECK(b.data == NULL);
  if (b.n) CHECK_MSG((uintptr_t)b.data % gp_dtype_size(b.dtype) == 0, "%s: misaligned data", path);
  gp_array_free(&a);
  gp_array_unmap(m);
}

static void test_formats(gp_context *ctx) {
  static const size_t sizes[] = {0, 1, 7, 70001};
  static const char *exts[] = {"npy", "bin", "txt"};
  for (int t = 0; t < GP_DTYPE_COUNT; t++)
    for (int e = 0; e < 3; e++)
      for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
        const size_t n = sizes[si], es = gp_dtype_size((gp_dtype)t);
        unsigned char *src = (unsigned char *)malloc(n * es + 1);
        for (size_t i = 0; i < n * es; i++) src[i] = (unsigned char)(i * 131 + 7 * (size_t)t);
        if (t == GP_F32 || t == GP_F64) /* text must read back: no NaN payloads */
          for (size_t i = 0; i < n; i++) {
            if (t == GP_F32) ((float *)src)[i] = (float)i * 0.5f - 3.0f;
            else ((double *)src)[i] = (double)i * 0.25 - 7.0;
          }
        char name[64];
        snprintf(name, sizeof name, "m_%s_%zu.%s", gp_dtype_name((gp_dtype)t), n, exts[e]);
        gp_array a = {(gp_dtype)t, n, n ? src : NULL};
        CHECK_OK(ctx, gp_array_save(ctx, tmp(name), GP_FILE_AUTO, &a));
        expect_same(ctx, tmp(name), GP_FILE_AUTO, (gp_dtype)t);
        free(src);
      }
}

/* A .npy by hand with a header of exactly hlen bytes (no padding to 64). */
static void write_npy_raw_header(const char *path, const char *dict, size_t hlen,
                                 const void *data, size_t bytes) {
  unsigned char head[256];
  memcpy(head, "\x93NUMPY\x01\x00", 8);
  head[8] = (unsigned char)hlen;
  head[9] = (unsigned char)(hlen >> 8);
  memset(head + 10, ' ', hlen);
  memcpy(head + 10, dict, strlen(dict));
  head[10 + hlen - 1] = '\n';
  FILE *f = fopen(path, "wb");
  CHECK(f != NULL);
  if (!f) return;
  CHECK(fwrite(head, 1, 10 + hlen, f) == 10 + hlen && fwrite(data, 1, bytes, f) == bytes);
  fclose(f);
}

static void test_misaligned(gp_context *ctx) {
  double v[5] = {1.5, -2, 3e300, 0, 7};
  /* data at offset 10 + 61 = 71: not a multiple of 8, so it is loaded, aligned */
  write_npy_raw_header(tmp("odd.npy"), "{'descr': '<f8', 'fortran_order': False, 'shape': (5,), }",
                       61, v, sizeof v);
  gp_array b;
  gp_array_mapping *m = NULL;
  CHECK_OK(ctx, gp_array_map(ctx, tmp("odd.npy"), GP_FILE_AUTO, (gp_dtype)-1, &b, &m));
  CHECK(b.dtype == GP_F64 && b.n == 5 && (uintptr_t)b.data % 8 == 0 &&
        memcmp(b.data, v, sizeof v) == 0);
  gp_array_unmap(m);
}

#define EXPECT_MAP_FAIL(path, fmt, dt, status, needle)                                \
  do {                                                                                \
    gp_array out_ = {GP_U32, 12345, (void *)&sentinel};                               \
    gp_array_mapping *m_ = (gp_array_mapping *)&sentinel;                             \
    CHECK_STATUS(gp_array_map(ctx, (path), (fmt), (dt), &out_, &m_), (status));       \
    CHECK_ERROR_MENTIONS(ctx, (needle));                                              \
    CHECK(out_.dtype == GP_U32 && out_.n == 12345 && out_.data == &sentinel);         \
    CHECK(m_ == (gp_array_mapping *)&sentinel);                                       \
  } while (0)

static void test_errors(gp_context *ctx) {
  float f3[3] = {1, 2, 3};
  write_npy_raw_header(tmp("short.npy"), "{'descr': '<f4', 'fortran_order': False, 'shape': (9,), }",
                       118, f3, sizeof f3);
  EXPECT_MAP_FAIL(tmp("short.npy"), GP_FILE_AUTO, (gp_dtype)-1, GP_ERR_FORMAT,
                  "header says 9 elements of f32 (36 bytes) but the file holds 12 bytes");
  EXPECT_MAP_FAIL(tmp("absent.npy"), GP_FILE_AUTO, (gp_dtype)-1, GP_ERR_IO, "absent.npy");
  gp_array a = {GP_U32, 3, f3};
  CHECK_OK(ctx, gp_array_save(ctx, tmp("three.bin"), GP_FILE_RAW, &a));
  EXPECT_MAP_FAIL(tmp("three.bin"), GP_FILE_AUTO, (gp_dtype)-1, GP_ERR_INVALID_ARGUMENT, "--dtype");
  EXPECT_MAP_FAIL(tmp("three.bin"), GP_FILE_RAW, GP_F64, GP_ERR_FORMAT, "not a multiple of 8");
  EXPECT_MAP_FAIL(dir, GP_FILE_NPY, (gp_dtype)-1, GP_ERR_IO, "directory");
  gp_array out = {GP_U32, 1, NULL};
  CHECK_STATUS(gp_array_map(ctx, tmp("three.bin"), GP_FILE_RAW, GP_U32, &out, NULL),
               GP_ERR_INVALID_ARGUMENT);
  CHECK_ERROR_MENTIONS(ctx, "mapping is NULL");
  gp_array_unmap(NULL); /* a no-op */
}

/* a pipe has no size: loaded, not mapped */
static void test_pipe(gp_context *ctx) {
  uint64_t v[4] = {1, 2, UINT64_MAX, 0};
  gp_array a = {GP_U64, 4, v}, b;
  CHECK_OK(ctx, gp_array_save(ctx, tmp("p.npy"), GP_FILE_NPY, &a));
  char src[512], fifo[512], cmd[1200];
  snprintf(src, sizeof src, "%s", tmp("p.npy"));
  snprintf(fifo, sizeof fifo, "%s", tmp("fifo"));
  snprintf(cmd, sizeof cmd, "cat '%s' > '%s' &", src, fifo);
  CHECK(mkfifo(fifo, 0600) == 0);
  CHECK(system(cmd) == 0);
  gp_array_mapping *m = NULL;
  CHECK_OK(ctx, gp_array_map(ctx, fifo, GP_FILE_NPY, (gp_dtype)-1, &b, &m));
  CHECK(b.dtype == GP_U64 && b.n == 4 && memcmp(b.data, v, sizeof v) == 0);
  gp_array_unmap(m);
  unlink(fifo);
}

/* gp_array_save replaces the file by rename: a mapping keeps the old contents */
static void test_replaced(gp_context *ctx) {
  enum { N = 100000 };
  int32_t *v = (int32_t *)malloc(N * sizeof *v);
  for (int i = 0; i < N; i++) v[i] = i;
  gp_array a = {GP_I32, N, v}, b;
  CHECK_OK(ctx, gp_array_save(ctx, tmp("r.npy"), GP_FILE_NPY, &a));
  gp_array_mapping *m = NULL;
  CHECK_OK(ctx, gp_array_map(ctx, tmp("r.npy"), GP_FILE_NPY, (gp_dtype)-1, &b, &m));
  for (int i = 0; i < N; i++) v[i] = -i;
  CHECK_OK(ctx, gp_array_save(ctx, tmp("r.npy"), GP_FILE_NPY, &a));
  int same = b.n == N;
  for (int i = 0; same && i < N; i++) same = ((const int32_t *)b.data)[i] == i;
  CHECK_MSG(same, "the mapping changed when the file was replaced");
  gp_array_unmap(m);
  free(v);
}

int main(void) {
  snprintf(dir, sizeof dir, "%s/gpuprims_test_io_map_XXXXXX",
           getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
  if (!mkdtemp(dir)) { perror("mkdtemp"); return 1; }
  gp_context *ctx = check_cpu_context();
  test_formats(ctx);
  test_misaligned(ctx);
  test_errors(ctx);
  test_pipe(ctx);
  test_replaced(ctx);
  gp_destroy(ctx);
  char cmd[600];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", dir);
  return check_summary("test_io_map");
}
