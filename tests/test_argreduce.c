/* gp_argreduce on the CPU backend: tests/argreduce_cases.h against a plain loop, the
 * argument errors, NULL outputs, and thread-count invariance; gp_argreduce_rows and
 * gp_argreduce_segments_offsets against gp_argreduce of each row or segment. */
#include "argreduce_cases.h"

#ifdef _OPENMP
#include <omp.h>
#endif
#include <math.h>
#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>
#endif

static gp_context *ctx;

static gp_status ac_run(gp_op op, gp_dtype t, const void *x, size_t n, void *value,
                        uint64_t *index) {
  gp_status s = gp_argreduce(ctx, op, t, x, n, value, index);
  CHECK_MSG(s == GP_OK, "gp_argreduce: %s", gp_last_error(ctx));
  return s;
}

static void test_errors(void) {
  float x[3] = {1, 2, 3}, v;
  uint64_t i = 99;
  CHECK_STATUS(gp_argreduce(ctx, GP_SUM, GP_F32, x, 3, &v, &i), GP_ERR_INVALID_ARGUMENT);
  CHECK_ERROR_MENTIONS(ctx, "GP_MIN");
  CHECK_STATUS(gp_argreduce(ctx, GP_MAX, GP_F32, x, 0, &v, &i), GP_ERR_INVALID_ARGUMENT);
  CHECK_ERROR_MENTIONS(ctx, "n = 0");
  CHECK_STATUS(gp_argreduce(ctx, GP_MAX, GP_F32, x, 3, NULL, NULL), GP_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(gp_argreduce(ctx, GP_MAX, GP_F32, NULL, 3, &v, &i), GP_ERR_INVALID_ARGUMENT);
  CHECK(i == 99);
  CHECK_OK(ctx, gp_argreduce(ctx, GP_MAX, GP_F32, x, 3, NULL, &i));
  CHECK(i == 2);
  CHECK_OK(ctx, gp_argreduce(ctx, GP_MIN, GP_F32, x, 3, &v, NULL));
  CHECK(v == 1.0f);
}

static void test_threads(void) {
#ifdef _OPENMP
  const size_t n = 500003;
  int32_t *x = (int32_t *)malloc(n * sizeof *x);
  check_seed(5);
  for (size_t i = 0; i < n; i++) x[i] = (int32_t)(check_rand64() % 50);
  size_t want_min = ac_ref(GP_MIN, GP_I32, x, n), want_max = ac_ref(GP_MAX, GP_I32, x, n);
  const int counts[] = {1, 2, 5};
  for (int k = 0; k < 3; k++) {
    omp_set_num_threads(counts[k]);
    uint64_t a, b;
    CHECK_OK(ctx, gp_argreduce(ctx, GP_MIN, GP_I32, x, n, NULL, &a));
    CHECK_OK(ctx, gp_argreduce(ctx, GP_MAX, GP_I32, x, n, NULL, &b));
    CHECK_EQ_U64(a, want_min);
    CHECK_EQ_U64(b, want_max);
  }
  omp_set_num_threads(omp_get_num_procs());
  free(x);
#endif
}

/* One planted winner (or two: the first must win) at chosen positions, across the
 * vector batches and the 65536-element OpenMP chunks, with 1, 2 and 7 threads: NaN
 * first / middle / last, -0 vs +0 ties, integer extremes, descending data (every batch
 * improves), and constant data. */
static void plant(gp_dtype t, void *x, size_t i, int what) {
  /* what: 0 = the type's lowest, 1 = its highest, 2 = NaN (floats), 3 = -0, 4 = +0 */
  switch (t) {
  case GP_F32: { float v = what == 0 ? -INFINITY : what == 1 ? INFINITY : what == 2 ? -NAN : what == 3 ? -0.0f : 0.0f; ((float *)x)[i] = v; break; }
  case GP_F64: { double v = what == 0 ? -INFINITY : what == 1 ? INFINITY : what == 2 ? NAN : what == 3 ? -0.0 : 0.0; ((double *)x)[i] = v; break; }
  case GP_I32: ((int32_t *)x)[i] = what == 0 ? INT32_MIN : what == 1 ? INT32_MAX : 0; break;
  case GP_I64: ((int64_t *)x)[i] = what == 0 ? INT64_MIN : what == 1 ? INT64_MAX : 0; break;
  case GP_U32: ((uint32_t *)x)[i] = what == 0 ? 0 : what == 1 ? UINT32_MAX : 0; break;
  default: ((uint64_t *)x)[i] = what == 0 ? 0 : what == 1 ? UINT64_MAX : 0; break;
  }
}

static void test_positions(void) {
  const size_t sizes[] = {1, 5, 16, 17, 64, 65, 200, 65536 + 100, 3 * 65536 + 17};
  const size_t ns = sizeof sizes / sizeof sizes[0];
  unsigned char *x = (unsigned char *)malloc(sizes[ns - 1] * 8);
#ifdef _OPENMP
  const int counts[] = {1, 2, 7};
  const int nc = 3;
#else
  const int nc = 1;
#endif
  for (int c = 0; c < nc; c++) {
#ifdef _OPENMP
    omp_set_num_threads(counts[c]);
#endif
    for (size_t ti = 0; ti < 6; ti++)
      for (size_t si = 0; si < ns; si++) {
        const gp_dtype t = ac_types[ti];
        const size_t n = sizes[si];
        const size_t pos[] = {0, 1, 15, 16, 63, 64, n / 2, 65535, 65536, 65537, n - 2, n - 1};
        for (int what = 0; what < 5; what++)
          for (size_t pi = 0; pi < sizeof pos / sizeof pos[0]; pi++)
            for (int two = 0; two < 2; two++) {
              const size_t p = pos[pi];
              if (p >= n) continue;
              check_seed(1000 + si * 31 + pi);
              ac_fill(t, x, n, AP_RANDOM);
              plant(t, x, p, what);
              if (two) plant(t, x, n - 1 - (n - 1 - p) / 3, what == 3 ? 4 : what);
              char tag[64];
              snprintf(tag, sizeof tag, "planted %d at %zu%s", what, p, two ? " twice" : "");
              ac_check(GP_MIN, t, x, n, tag);
              ac_check(GP_MAX, t, x, n, tag);
            }
        for (int pat = AP_TIES; pat <= AP_DESC; pat++) {
          check_seed(2000 + si);
          ac_fill(t, x, n, pat);
          ac_check(GP_MIN, t, x, n, ac_pat_name[pat]);
          ac_check(GP_MAX, t, x, n, ac_pat_name[pat]);
        }
      }
  }
#ifdef _OPENMP
  omp_set_num_threads(omp_get_num_procs());
#endif
  free(x);
}

/* Subnormal floats under the caller's DAZ (x86: subnormal inputs read as zero) still
 * rank by their bits: the largest and smallest of 5000 subnormals, planted after the
 * first 2048-element block, and the first of two equal ones. */
static void test_flush_modes(void) {
#if defined(__x86_64__) || defined(__i386__)
  const size_t n = 5000;
  float *f = (float *)malloc(n * sizeof *f);
  for (size_t i = 0; i < n; i++) f[i] = ldexpf(1.0f + (float)(i % 7), -140);
  f[4000] = ldexpf(100.0f, -140);
  f[4500] = ldexpf(100.0f, -140);
  f[3000] = ldexpf(0.5f, -140);
  const unsigned csr = _mm_getcsr();
  _mm_setcsr(csr | 0x8040u);
  uint64_t mx = 0, mn = 0;
  const gp_status a = gp_argreduce(ctx, GP_MAX, GP_F32, f, n, NULL, &mx);
  const gp_status b = gp_argreduce(ctx, GP_MIN, GP_F32, f, n, NULL, &mn);
  _mm_setcsr(csr);
  CHECK_MSG(a == GP_OK && b == GP_OK, "DAZ argreduce: %s", gp_last_error(ctx));
  CHECK_EQ_U64(mx, 4000);
  CHECK_EQ_U64(mn, 3000);
  free(f);
#endif
}

/* gp_argreduce_rows: each row's value and index are gp_argreduce's of that row alone
 * (and the plain loop's), every dtype and pattern, rows from 1 element to past a vector
 * block, NaN / ties in rows; NULL outputs; the argument errors. */
static void test_rows(void) {
  static const size_t lens[] = {1, 2, 7, 16, 33, 2048, 2049, 5000};
  for (int ti = 0; ti < 6; ti++)
    for (size_t li = 0; li < sizeof lens / sizeof *lens; li++)
      for (int pat = 0; pat < AP_KINDS; pat++) {
        const gp_dtype t = ac_types[ti];
        const size_t len = lens[li], rows = len >= 2048 ? 5 : 37, es = gp_dtype_size(t);
        unsigned char *x = (unsigned char *)malloc(rows * len * es);
        unsigned char *v = (unsigned char *)malloc(rows * es);
        uint64_t *ix = (uint64_t *)malloc(rows * 8);
        check_seed(1000 + 17 * li + (uint64_t)pat);
        for (size_t r = 0; r < rows; r++) ac_fill(t, x + r * len * es, len, (pat + (int)r) % AP_KINDS);
        for (int o = 0; o < 2; o++) {
          const gp_op op = o ? GP_MAX : GP_MIN;
          CHECK_OK(ctx, gp_argreduce_rows(ctx, op, t, x, rows, len, v, ix));
          size_t bad = rows;
          for (size_t r = 0; r < rows && bad == rows; r++) {
            unsigned char w[8];
            uint64_t wi = 0;
            CHECK_OK(ctx, gp_argreduce(ctx, op, t, x + r * len * es, len, w, &wi));
            if (ix[r] != wi || ix[r] != ac_ref(op, t, x + r * len * es, len) ||
                memcmp(v + r * es, w, es) != 0)
              bad = r;
          }
          CHECK_MSG(bad == rows, "argreduce_rows %s %s len %zu %s: row %zu differs",
                    o ? "max" : "min", gp_dtype_name(t), len, ac_pat_name[pat], bad);
        }
        free(x);
        free(v);
        free(ix);
      }
  /* NULL outputs, nrows = 0, and the errors */
  float x[6] = {1, 5, 2, 9, 9, 0}, v[2] = {0, 0};
  uint64_t i[2] = {7, 7};
  CHECK_OK(ctx, gp_argreduce_rows(ctx, GP_MAX, GP_F32, x, 2, 3, NULL, i));
  CHECK(i[0] == 1 && i[1] == 0);
  CHECK_OK(ctx, gp_argreduce_rows(ctx, GP_MIN, GP_F32, x, 2, 3, v, NULL));
  CHECK(v[0] == 1.0f && v[1] == 0.0f);
  CHECK_OK(ctx, gp_argreduce_rows(ctx, GP_MIN, GP_F32, NULL, 0, 3, NULL, NULL));
  CHECK_STATUS(gp_argreduce_rows(ctx, GP_MAX, GP_F32, x, 2, 0, v, i), GP_ERR_INVALID_ARGUMENT);
  CHECK_ERROR_MENTIONS(ctx, "row_len >= 1");
  CHECK_STATUS(gp_argreduce_rows(ctx, GP_SUM, GP_F32, x, 2, 3, v, i), GP_ERR_INVALID_ARGUMENT);
  CHECK_ERROR_MENTIONS(ctx, "GP_MIN");
  CHECK_STATUS(gp_argreduce_rows(ctx, GP_SUM, GP_F32, x, 0, 3, v, i), GP_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(gp_argreduce_rows(ctx, GP_MAX, GP_F32, x, 2, 3, NULL, NULL), GP_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(gp_argreduce_rows(ctx, GP_MAX, GP_F32, NULL, 2, 3, v, i), GP_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(gp_argreduce_rows(ctx, GP_MAX, GP_F32, x, SIZE_MAX / 4, 3, v, i),
               GP_ERR_INVALID_ARGUMENT);
  CHECK_ERROR_MENTIONS(ctx, "does not fit");
}

/* gp_argreduce_segments_offsets: segments of mixed lengths (1 .. past a vector block and
 * a chunk) after a lead, each against gp_argreduce of the segment alone; the errors
 * (decreasing, empty, NULL offsets). */
static void test_offsets(void) {
  const size_t nseg = 200;
  uint64_t off[201];
  off[0] = 3; /* a lead the segments skip */
  check_seed(77);
  for (size_t i = 0; i < nseg; i++) {
    const uint64_t r = check_rand64();
    off[i + 1] = off[i] + 1 + (i % 50 == 7 ? 70000 : r % 9 == 0 ? r % 3000 : r % 40);
  }
  for (int ti = 0; ti < 6; ti++)
    for (int pat = 0; pat < AP_KINDS; pat++) {
      const gp_dtype t = ac_types[ti];
      const size_t es = gp_dtype_size(t), total = (size_t)off[nseg];
      unsigned char *x = (unsigned char *)malloc(total * es), *v = (unsigned char *)malloc(nseg * es);
      uint64_t *ix = (uint64_t *)malloc(nseg * 8);
      for (size_t i = 0; i < nseg; i++) ac_fill(t, x + off[i] * es, (size_t)(off[i + 1] - off[i]), (pat + (int)i) % AP_KINDS);
      for (int o = 0; o < 2; o++) {
        const gp_op op = o ? GP_MAX : GP_MIN;
        CHECK_OK(ctx, gp_argreduce_segments_offsets(ctx, op, t, x, off, nseg, v, ix));
        size_t bad = nseg;
        for (size_t i = 0; i < nseg && bad == nseg; i++) {
          unsigned char w[8];
          uint64_t wi = 0;
          const size_t len = (size_t)(off[i + 1] - off[i]);
          CHECK_OK(ctx, gp_argreduce(ctx, op, t, x + off[i] * es, len, w, &wi));
          if (ix[i] != wi || memcmp(v + i * es, w, es) != 0) bad = i;
        }
        CHECK_MSG(bad == nseg, "argreduce_segments_offsets %s %s %s: segment %zu differs",
                  o ? "max" : "min", gp_dtype_name(t), ac_pat_name[pat], bad);
      }
      free(x);
      free(v);
      free(ix);
    }
  float x[6] = {1, 5, 2, 9, 9, 0};
  uint64_t i[3] = {7, 7, 7}, o1[4] = {0, 2, 5, 6}, dec[3] = {0, 4, 3}, emp[3] = {0, 3, 3};
  CHECK_OK(ctx, gp_argreduce_segments_offsets(ctx, GP_MAX, GP_F32, x, o1, 3, NULL, i));
  CHECK(i[0] == 1 && i[1] == 1 && i[2] == 0);
  CHECK_OK(ctx, gp_argreduce_segments_offsets(ctx, GP_MAX, GP_F32, x, NULL, 0, NULL, NULL));
  CHECK_STATUS(gp_argreduce_segments_offsets(ctx, GP_MAX, GP_F32, x, dec, 2, NULL, i),
               GP_ERR_INVALID_ARGUMENT);
  CHECK_ERROR_MENTIONS(ctx, "must not decrease");
  CHECK_STATUS(gp_argreduce_segments_offsets(ctx, GP_MIN, GP_F32, x, emp, 2, NULL, i),
               GP_ERR_INVALID_ARGUMENT);
  CHECK_ERROR_MENTIONS(ctx, "segment 1");
  CHECK_STATUS(gp_argreduce_segments_offsets(ctx, GP_MIN, GP_F32, x, NULL, 2, NULL, i),
               GP_ERR_INVALID_ARGUMENT);
  CHECK_ERROR_MENTIONS(ctx, "offsets is NULL");
  CHECK_STATUS(gp_argreduce_segments_offsets(ctx, GP_SUM, GP_F32, x, o1, 3, NULL, i),
               GP_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(gp_argreduce_segments_offsets(ctx, GP_MIN, GP_F32, x, o1, 3, NULL, NULL),
               GP_ERR_INVALID_ARGUMENT);
}

int main(void) {
  ctx = check_cpu_context();
  test_rows();
  test_offsets();
  test_errors();
  test_flush_modes();
  ac_test_matrix();
  test_threads();
  test_positions();
  gp_destroy(ctx);
  return check_summary("test_argreduce");
}
