/* The correctly rounded SUM cases shared by tests/test_reduce_exact.c (CPU) and
 * tests/test_reduce_exact_gpu.c (CUDA): hand-made cases with known answers and random
 * data of several kinds, each checked bit for bit against tests/exact_ref.h and under
 * permutation. The including test defines xc_sum (gp_reduce AUTO SUM on its backend). */
#ifndef GP_TESTS_EXACT_CASES_H
#define GP_TESTS_EXACT_CASES_H

#include "check.h"
#include "exact_ref.h"

#include <stdlib.h>

static gp_status xc_sum(gp_dtype t, const void *x, size_t n, void *out);

static uint64_t bits64(double x) { uint64_t u; memcpy(&u, &x, 8); return u; }
static uint32_t bits32(float x) { uint32_t u; memcpy(&u, &x, 4); return u; }
static uint64_t canon64(double x) { return isnan(x) ? 0x7ff8000000000000ull : bits64(x); }
static uint32_t canon32(float x) { return isnan(x) ? 0x7fc00000u : bits32(x); }

static void check_f64(const double *x, size_t n, const char *what) {
  double got = 1234.5, want = xr_sum_f64(x, n);
  CHECK(xc_sum(GP_F64, x, n, &got) == GP_OK);
  CHECK_MSG(bits64(got) == canon64(want), "f64 %s n=%zu: %.17g (%#llx) vs exact %.17g (%#llx)", what,
            n, got, (unsigned long long)bits64(got), want, (unsigned long long)canon64(want));
}
static void check_f32(const float *x, size_t n, const char *what) {
  float got = 1234.5f, want = xr_sum_f32(x, n);
  CHECK(xc_sum(GP_F32, x, n, &got) == GP_OK);
  CHECK_MSG(bits32(got) == canon32(want), "f32 %s n=%zu: %.9g (%#x) vs exact %.9g (%#x)", what, n,
            (double)got, bits32(got), (double)want, canon32(want));
}

/* hand-made cases whose answers are known independently of both implementations */
static void test_known(void) {
  double d[8];
  float f[8];
  d[0] = 1e308; d[1] = 1.0; d[2] = -1e308;
  check_f64(d, 3, "1e308 + 1 - 1e308");
  {
    double got;
    CHECK(xc_sum(GP_F64, d, 3, &got) == GP_OK);
    CHECK_MSG(got == 1.0, "1e308 + 1 - 1e308 = %.17g, want 1", got); /* a plain sum says 0 */
  }
  d[0] = DBL_MAX; d[1] = DBL_MAX; d[2] = -DBL_MAX;
  check_f64(d, 3, "max + max - max (exact sum finite)");
  d[0] = 1e308; d[1] = 1e308;
  check_f64(d, 2, "overflow");
  {
    double got;
    CHECK(xc_sum(GP_F64, d, 2, &got) == GP_OK);
    CHECK(isinf(got) && got > 0);
  }
  d[0] = -1e308; d[1] = -1e308; d[2] = 5;
  check_f64(d, 3, "negative overflow");
  d[0] = 1.0; d[1] = ldexp(1.0, -53);
  check_f64(d, 2, "tie to even (down)");
  d[2] = ldexp(1.0, -1074);
  check_f64(d, 3, "just above the tie (sticky subnormal)");
  {
    double got;
    CHECK(xc_sum(GP_F64, d, 3, &got) == GP_OK);
    CHECK_MSG(got == 1.0 + ldexp(1.0, -52), "1 + 2^-53 + 2^-1074 = %.17g", got);
  }
  d[0] = 1.0 + ldexp(1.0, -52); d[1] = ldexp(1.0, -53);
  check_f64(d, 2, "tie to even (up)");
  d[0] = ldexp(1.0, -1074); d[1] = ldexp(1.0, -1074); d[2] = -ldexp(1.0, -1073) * 0.75;
  check_f64(d, 2, "subnormals");
  d[0] = INFINITY; d[1] = 1.0;
  check_f64(d, 2, "inf + 1");
  d[1] = -INFINITY;
  check_f64(d, 2, "inf - inf");
  d[0] = NAN; d[1] = INFINITY;
  check_f64(d, 2, "nan + inf");
  d[0] = -INFINITY; d[1] = -1e308; d[2] = -1e308;
  check_f64(d, 3, "-inf + overflow");
  d[0] = -0.0; d[1] = -0.0;
  check_f64(d, 2, "-0 + -0 = -0");
  d[2] = 0.0;
  check_f64(d, 3, "-0 + -0 + 0 = +0");
  d[0] = 3.0; d[1] = -3.0;
  check_f64(d, 2, "3 - 3 = +0");
  check_f64(d, 0, "empty");

  f[0] = FLT_MAX; f[1] = FLT_MAX; f[2] = -FLT_MAX;
  check_f32(f, 3, "max + max - max");
  f[0] = FLT_MAX; f[1] = FLT_MAX;
  check_f32(f, 2, "overflow");
  f[0] = FLT_MAX; f[1] = ldexpf(1.0f, 103); /* exactly half an ulp above: ties to even = inf */
  check_f32(f, 2, "overflow by rounding");
  f[0] = 1e30f; f[1] = 1.0f; f[2] = -1e30f;
  check_f32(f, 3, "1e30 + 1 - 1e30");
  {
    float got;
    CHECK(xc_sum(GP_F32, f, 3, &got) == GP_OK);
    CHECK_MSG(got == 1.0f, "1e30 + 1 - 1e30 = %.9g, want 1", (double)got);
  }
  f[0] = ldexpf(1.0f, -149); f[1] = 1.0f; f[2] = -1.0f;
  check_f32(f, 3, "subnormal survives");
  f[0] = NAN; f[1] = 1.0f;
  check_f32(f, 2, "nan");
  f[0] = INFINITY; f[1] = -INFINITY;
  check_f32(f, 2, "inf - inf");
  f[0] = -INFINITY; f[1] = FLT_MAX;
  check_f32(f, 2, "-inf + max");
  f[0] = 1.0f; f[1] = ldexpf(1.0f, -24); f[2] = ldexpf(1.0f, -149);
  check_f32(f, 3, "f32 sticky");
}

/* Ties: three parts a + b + c whose exact sum is a tie of two outputs (a + b) nudged by c,
 * placed far apart (other tiles, blocks and lanes) in an array of zeros, so that the GPU
 * folds them from different places: the fold's two doubles must still round once, and a
 * rest wider than a double (F64 2^-110) goes through the superaccumulator. */
static void test_ties(void) {
  static const struct { double a, b, c; const char *what; } c64[] = {
    {1.0, 0x1p-53, 0x1p-100, "tie + 2^-100"}, {1.0, 0x1p-53, -0x1p-100, "tie - 2^-100"},
    {1.0, 0x1p-53, 0x1p-110, "tie + 2^-110"}, {1.0, 0x1p-53, -0x1p-110, "tie - 2^-110"},
    {1.0, 0x1p-53, 0x1p-1074, "tie + 2^-1074"}, {1.0 + 0x1p-52, 0x1p-53, 0.0, "tie to even (up)"},
  };
  static const struct { float a, b, c; const char *what; } c32[] = {
    {1.0f, 0x1p-24f, 0x1p-60f, "tie + 2^-60"}, {1.0f, 0x1p-24f, -0x1p-60f, "tie - 2^-60"},
    {1.0f, 0x1p-24f, 0.0f, "tie to even (down)"}, {1.0f + 0x1p-23f, 0x1p-24f, 0.0f, "tie to even (up)"},
    {1.0f, 0x1p-24f, 0x1p-110f, "tie + 2^-110"}, {1.0f, 0x1p-24f, -0x1p-110f, "tie - 2^-110"},
    {1.0f, 0x1p-24f, 0x1p-140f, "tie + 2^-140"},
    {FLT_MAX, 0x1p103f, -0x1p50f, "just below the overflow tie"},
    {FLT_MAX, 0x1p103f, 0x1p50f, "just above the overflow tie"},
  };
  const size_t n = 3 * 4096 + 17;
  const size_t at[2][3] = {{0, n / 2, n - 1}, {n - 1, 0, 2 * 4096 + 5}};
  double *d = (double *)calloc(n, sizeof *d);
  float *f = (float *)calloc(n, sizeof *f);
  char what[96];
  for (int sign = 0; sign < 2; sign++)
    for (int p = 0; p < 2; p++) {
      const double sg = sign ? -1.0 : 1.0;
      for (size_t k = 0; k < sizeof c64 / sizeof c64[0]; k++) {
        d[at[p][0]] = sg * c64[k].a; d[at[p][1]] = sg * c64[k].b; d[at[p][2]] = sg * c64[k].c;
        snprintf(what, sizeof what, "%s%s (placement %d)", sign ? "-" : "", c64[k].what, p);
        check_f64(d, n, what);
        d[at[p][0]] = d[at[p][1]] = d[at[p][2]] = 0.0;
      }
      for (size_t k = 0; k < sizeof c32 / sizeof c32[0]; k++) {
        f[at[p][0]] = (float)sg * c32[k].a; f[at[p][1]] = (float)sg * c32[k].b;
        f[at[p][2]] = (float)sg * c32[k].c;
        snprintf(what, sizeof what, "%s%s (placement %d)", sign ? "-" : "", c32[k].what, p);
        check_f32(f, n, what);
        f[at[p][0]] = f[at[p][1]] = f[at[p][2]] = 0.0f;
      }
    }
  free(d);
  free(f);
}

/* random data of several kinds; each size also checked shuffled (same bits) */
enum { K_UNIFORM, K_WIDE, K_CANCEL, K_SUBNORMAL, K_HUGE, K_SPAN, K_NKINDS };
static const char *kind_name[] = {"uniform", "whole exponent range", "cancellation", "subnormal",
                                  "near overflow", "exponents 7 apart"};

static double gen_f64(int kind, size_t i, size_t n) {
  double s = (check_rand64() & 1) ? -1.0 : 1.0;
  switch (kind) {
  case K_UNIFORM: return check_rand01() - 0.25;
  case K_WIDE: return s * ldexp(1.0 + check_rand01(), (int)(check_rand64() % 2098) - 1074);
  case K_SUBNORMAL: return s * ldexp((double)(check_rand64() >> 12), -1074);
  case K_HUGE: return s * ldexp(1.0 + check_rand01(), 1020 + (int)(check_rand64() % 4));
  /* sums wider than two doubles, every part within 113 bits of the largest */
  case K_SPAN: return (check_rand01() - 0.25) * ldexp(1.0, 7 * (int)(i % 8));
  default: /* cancellation: pairs +-v with a small remainder */
    (void)n;
    return (i & 1) ? -ldexp(1.0, 60) : ldexp(1.0, 60) + (double)(check_rand64() % 8);
  }
}
static float gen_f32(int kind, size_t i) {
  float s = (check_rand64() & 1) ? -1.0f : 1.0f;
  switch (kind) {
  case K_UNIFORM: return (float)(check_rand01() - 0.25);
  case K_WIDE: return s * ldexpf(1.0f + (float)check_rand01(), (int)(check_rand64() % 277) - 149);
  case K_SUBNORMAL: return s * ldexpf((float)(check_rand64() >> 41), -149);
  case K_HUGE: return s * ldexpf(1.0f + (float)check_rand01(), 124 + (int)(check_rand64() % 4));
  case K_SPAN: return ldexpf((float)(check_rand01() - 0.25), 7 * (int)(i % 8));
  default: return (i & 1) ? -1e30f : 1e30f + (float)(check_rand64() % 8) * 1e23f;
  }
}

static void shuffle(void *x, size_t n, size_t es) {
  unsigned char tmp[8];
  for (size_t i = n; i > 1; i--) {
    size_t j = check_rand64() % i;
    memcpy(tmp, (char *)x + (i - 1) * es, es);
    memcpy((char *)x + (i - 1) * es, (char *)x + j * es, es);
    memcpy((char *)x + j * es, tmp, es);
  }
}

/* Data spread over 64 binades, which sends most steps of the expansions out of line
 * until the backend switches to its dense steps (the GPU's warps after a tile, the
 * CPU's lanes after a few runs), then, late in the array, an infinity, both
 * infinities, a NaN, values near the type's overflow that cancel, or that do not: each
 * checked against the exact reference. */
static void test_dense(void) {
  const size_t n = ((size_t)1 << 17) + 3;
  double *d = (double *)malloc(n * sizeof *d);
  float *f = (float *)malloc(n * sizeof *f);
  CHECK_MSG(d && f, "test_dense: malloc");
  if (!d || !f) { free(d); free(f); return; }
  static const char *what[] = {"dense", "dense, +inf", "dense, +inf and -inf", "dense, NaN",
                               "dense, near overflow, cancelling", "dense, near overflow, beyond the range",
                               "dense, a tie decided by a tiny part"};
  for (int c = 0; c < 7; c++) {
    check_seed(500 + (uint64_t)c);
    for (size_t i = 0; i < n; i++)
      d[i] = (check_rand01() - 0.5) * ldexp(1.0, (int)(check_rand64() % 64) - 32);
    if (c == 6) { /* the second half cancels the first; what is left: 1, half an ulp of 1
                     (a tie) and a tiny part the lanes can only hold outside their three
                     parts (the accumulator), which decides it upward */
      const size_t m = (n - 3) / 2;
      for (size_t i = 0; i < m; i++) d[2 * m - 1 - i] = -d[i];
      d[2 * m] = d[2 * m + 1] = d[2 * m + 2] = 0.0;
    }
    for (size_t i = 0; i < n; i++) f[i] = (float)d[i];
    if (c == 6) {
      const size_t m = (n - 3) / 2, p[3] = {m + m / 2, m + m / 2 + 1000, m + m / 2 + 2001};
      const double dv[3] = {1.0, ldexp(1.0, -53), ldexp(1.0, -1000)};
      const float fv[3] = {1.0f, ldexpf(1.0f, -24), ldexpf(1.0f, -140)};
      for (int k = 0; k < 3; k++) {
        d[p[k]] = dv[k]; d[2 * m - 1 - p[k]] = 0.0;
        f[p[k]] = fv[k]; f[2 * m - 1 - p[k]] = 0.0f;
      }
    }
    const size_t at = n - n / 4 + (size_t)c * 977;
    if (c == 1 || c == 2) { d[at] = INFINITY; f[at] = INFINITY; }
    if (c == 2) { d[at + 4099] = -INFINITY; f[at + 4099] = -INFINITY; }
    if (c == 3) { d[at] = NAN; f[at] = NAN; }
    for (int k = 0; (c == 4 || c == 5) && k < 64; k++) {
      const double sg = c == 4 && (k & 1) ? -1.0 : 1.0;
      d[at + 37 * (size_t)k] = sg * ldexp(1.5, 1022);
      f[at + 37 * (size_t)k] = (float)sg * ldexpf(1.5f, 126);
    }
    check_f64(d, n, what[c]);
    check_f32(f, n, what[c]);
    if (c == 6) /* the case is what it says: without the tiny part it would round to 1 */
      CHECK(xr_sum_f64(d, n) == nextafter(1.0, 2.0) && xr_sum_f32(f, n) == nextafterf(1.0f, 2.0f));
  }
  free(d);
  free(f);
}

/* the largest n test_random takes; a caller lowers it for quick runs (sanitizers) */
static size_t xc_max_n = (size_t)1 << 21;

static void test_random(void) {
  const size_t sizes[] = {1, 2, 31, 33, 1000, 2047, 2048, 4095, 4096, 4097, 6143, 6144, 6145, 8191, 8192, 8193, 16385, 65537, ((size_t)1 << 20) + 3};
  const size_t nsizes = sizeof sizes / sizeof sizes[0];
  double *d = (double *)malloc(sizes[nsizes - 1] * sizeof *d);
  float *f = (float *)malloc(sizes[nsizes - 1] * sizeof *f);
  for (int kind = 0; kind < K_NKINDS; kind++)
    for (size_t k = 0; k < nsizes; k++) {
      size_t n = sizes[k];
      if (n > 70000 && kind != K_UNIFORM && kind != K_WIDE) continue; /* reference is slow */
      if (n > xc_max_n) continue;
      check_seed(1000 + (uint64_t)kind * 31 + k);
      for (size_t i = 0; i < n; i++) { d[i] = gen_f64(kind, i, n); f[i] = gen_f32(kind, i); }
      check_f64(d, n, kind_name[kind]);
      check_f32(f, n, kind_name[kind]);
      double d0, d1;
      float f0, f1;
      CHECK(xc_sum(GP_F64, d, n, &d0) == GP_OK);
      CHECK(xc_sum(GP_F32, f, n, &f0) == GP_OK);
      shuffle(d, n, 8);
      shuffle(f, n, 4);
      CHECK(xc_sum(GP_F64, d, n, &d1) == GP_OK);
      CHECK(xc_sum(GP_F32, f, n, &f1) == GP_OK);
      CHECK_MSG(bits64(d0) == bits64(d1), "f64 %s n=%zu: shuffled %.17g != %.17g", kind_name[kind], n, d1, d0);
      CHECK_MSG(bits32(f0) == bits32(f1), "f32 %s n=%zu: shuffled %.9g != %.9g", kind_name[kind], n,
                (double)f1, (double)f0);
    }
  /* the inputs above really need exactness: a plain left-to-right sum differs */
  check_seed(7);
  const size_t n = 4097;
  double plain = 0;
  for (size_t i = 0; i < n; i++) {
    d[i] = gen_f64(K_UNIFORM, i, n) * ldexp(1.0, (int)(i % 60));
    plain += d[i];
  }
  CHECK_MSG(bits64(plain) != bits64(xr_sum_f64(d, n)),
            "test data too tame: the plain sum is already correctly rounded");
  free(d);
  free(f);
}

#endif
