/* gp_integrate on the CPU backend: closed forms of the trapezoid sum itself (x^2,
 * sin over [0, pi], exp) and the Euler-Maclaurin error of 1/(1+x^2) against atan, the
 * trapezoid error bound, a naive long-double reference at sizes around the tile edges,
 * b < a, n = 0 and 1, non-finite sums, parse errors, and bits that do not depend on
 * the OpenMP thread count. */
#include "check.h"

#include <float.h>
#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>
#endif
#ifdef _OPENMP
#include <omp.h>
#endif

static const double PI = 3.14159265358979323846;
static const double E = 2.71828182845904523536;

/* The trapezoid sum with x_i = a + i h in long double, summed naively: independent of
 * the library's order and x formula. */
static long double naive(double (*f)(double), double a, double b, uint64_t n) {
  long double h = ((long double)b - a) / n, s = 0.5L * ((long double)f(a) + f(b));
  for (uint64_t i = 1; i < n; i++) s += f((double)(a + (long double)i * h));
  return s * h;
}
static double sq(double x) { return x * x; }
static double runge(double x) { return 1 / (1 + x * x); }
static double wavy(double x) { return sin(3 * x) * exp(-x / 4) + floor(x) / 8; }

static double integ(gp_context *ctx, const char *expr, double a, double b, uint64_t n,
                    gp_dtype prec) {
  double r = NAN;
  gp_status s = gp_integrate_ex(ctx, expr, a, b, n, prec, &r);
  CHECK_MSG(s == GP_OK, "%s over [%g, %g], n = %llu, %s: %s: %s", expr, a, b,
            (unsigned long long)n, gp_dtype_name(prec), gp_status_string(s), gp_last_error(ctx));
  return r;
}

static void test_closed_forms(gp_context *ctx) {
  const uint64_t ns[] = {1, 2, 3, 7, 100, 2047, 2048, 2049, 2050, 4097, 1000003,
                         (1u << 20), (1u << 22) + 5};
  for (size_t k = 0; k < sizeof ns / sizeof ns[0]; k++) {
    const uint64_t n = ns[k];
    /* x^2: f'' = 2, so T = I + (b - a) h^2 / 6 exactly */
    {
      const double a = -0.5, b = 2.0, h = (b - a) / n;
      const double want = (b * b * b - a * a * a) / 3 + (b - a) * h * h / 6;
      CHECK_NEAR(integ(ctx, "x^2", a, b, n, GP_F64), want, 0, 1e-13);
      CHECK_NEAR(integ(ctx, "x^2", a, b, n, GP_F32), want, 0, n < 1000 ? 1e-6 : 2e-5);
      /* the same function written other ways */
      CHECK_NEAR(integ(ctx, "x*x", a, b, n, GP_F64), want, 0, 1e-13);
      CHECK_NEAR(integ(ctx, "pow(x, 2)", a, b, n, GP_F64), want, 0, 1e-13);
    }
    if (n >= 2) {
      /* sin over [0, pi]: sum sin(i h) = cot(h/2), so T = h cot(h/2); |T - 2| <= pi h^2/12 */
      const double h = PI / n, want = h / tan(h / 2);
      const double t = integ(ctx, "sin(x)", 0, PI, n, GP_F64);
      CHECK_NEAR(t, want, 1e-15, 1e-13);
      CHECK(fabs(t - 2) <= PI * h * h / 12 * (1 + 1e-9) + 1e-14);
      CHECK_NEAR(integ(ctx, "sin(x)", 0, PI, n, GP_F32), want, 2e-6, 2e-5);
    }
    {
      /* exp over [0, 1]: a geometric series, T = (e - 1) (h/2) (e^h + 1) / (e^h - 1) */
      const double h = 1.0 / n, em1 = expm1(h);
      const double want = (E - 1) * (h / 2) * (2 + em1) / em1;
      const double t = integ(ctx, "exp(x)", 0, 1, n, GP_F64);
      CHECK_NEAR(t, want, 0, 1e-13);
      CHECK(t - (E - 1) >= 0 && t - (E - 1) <= h * h / 12 * E * (1 + 1e-9) + 1e-14);
      CHECK_NEAR(integ(ctx, "exp(x)", 0, 1, n, GP_F32), want, 0, 2e-5);
    }
    if (n >= 4) {
      /* 1/(1+x^2) over [0, 1] = atan(1): f'(1) - f'(0) = -1/2 and f'''(0) = f'''(1) = 0,
       * so T - pi/4 = -h^2/24 + O(h^6); and |T - I| <= h^2 max|f''| / 12 = h^2 / 6 */
      const double h = 1.0 / n, I = atan(1.0);
      const double t = integ(ctx, "1/(1+x^2)", 0, 1, n, GP_F64);
      CHECK(fabs(t - I) <= h * h / 6 + 1e-15);
      CHECK_NEAR(t - I, -h * h / 24, 1e-15 + h * h * h * h * h * h, 0);
      CHECK_NEAR(integ(ctx, "1/(1+x^2)", 0, 1, n, GP_F32), I - h * h / 24, 1e-6, 2e-5);
    }
    if (n <= 5000000) {
      CHECK_NEAR(integ(ctx, "x^2", -0.5, 2.0, n, GP_F64), (double)naive(sq, -0.5, 2.0, n), 0, 1e-13);
      CHECK_NEAR(integ(ctx, "1/(1+x^2)", -3, 7, n, GP_F64), (double)naive(runge, -3, 7, n), 0, 1e-13);
      CHECK_NEAR(integ(ctx, "sin(3*x)*exp(-x/4) + floor(x)/8", -2, 9, n, GP_F64),
                 (double)naive(wavy, -2, 9, n), 1e-13, 1e-12);
    }
  }
}

static void test_orientation_and_edges(gp_context *ctx) {
  /* b < a gives the negative integral */
  const double fwd = integ(ctx, "exp(x)", 0, 1, 12345, GP_F64);
  const double back = integ(ctx, "exp(x)", 1, 0, 12345, GP_F64);
  CHECK_NEAR(back, -fwd, 0, 1e-14);
  CHECK(back < 0);
  CHECK_NEAR(integ(ctx, "x^2", 3, -1, 1000, GP_F32), -(27.0 + 1) / 3, 0, 1e-5);
  /* a = b: zero */
  CHECK(integ(ctx, "x^2 + 1", 2, 2, 1000, GP_F64) == 0.0);
  /* n = 1: (b - a) (f(a) + f(b)) / 2, exactly */
  CHECK(integ(ctx, "x^2", 1, 3, 1, GP_F64) == 2 * (1 + 9) / 2.0);
  /* a constant: exact for every n */
  CHECK_NEAR(integ(ctx, "pi", -1, 1, 777777, GP_F64), 2 * PI, 0, 1e-14);
  /* a linear function: the trapezoid rule is exact */
  CHECK_NEAR(integ(ctx, "3*x - 1", 0, 4, 99999, GP_F64), 20.0, 0, 1e-13);
  /* gp_integrate is gp_integrate_ex with F64, bit for bit */
  double r1, r2;
  CHECK_OK(ctx, gp_integrate(ctx, "cos(x)^3", -1, 2, 100001, &r1));
  CHECK_OK(ctx, gp_integrate_ex(ctx, "cos(x)^3", -1, 2, 100001, GP_F64, &r2));
  CHECK(memcmp(&r1, &r2, sizeof r1) == 0);
  /* gp_integrate_device on the CPU backend: a host result, gp_integrate_ex's bits */
  CHECK_OK(ctx, gp_integrate_device(ctx, "cos(x)^3", -1, 2, 100001, GP_F64, &r2));
  CHECK(memcmp(&r1, &r2, sizeof r1) == 0);
  /* the cache's last-entry shortcut: same text, other precision, other text in the same
     buffer (changed in place) all get their own entry */
  {
    char text[8] = "x^2";
    double q[4], again;
    CHECK_OK(ctx, gp_integrate_ex(ctx, text, 0, 3, 1001, GP_F64, &q[0]));
    CHECK_OK(ctx, gp_integrate_ex(ctx, text, 0, 3, 1001, GP_F32, &q[1]));
    text[2] = '3';
    CHECK_OK(ctx, gp_integrate_ex(ctx, text, 0, 3, 1001, GP_F64, &q[2]));
    CHECK_OK(ctx, gp_integrate_ex(ctx, "x^2", 0, 3, 1001, GP_F64, &q[3]));
    const double h = 3.0 / 1001;
    CHECK_NEAR(q[0], 9 + 3 * h * h / 6, 0, 1e-14);
    CHECK_NEAR(q[1], q[0], 0, 1e-6);
    CHECK(memcmp(&q[1], &q[0], sizeof q[0]) != 0); /* F32 evaluation differs in low bits */
    CHECK_NEAR(q[2], 81.0 / 4 + 3 * 3 * h * h / 4, 0, 1e-13); /* x^3: T = I + (b-a)h^2 f''avg/12 */
    CHECK(memcmp(&q[3], &q[0], sizeof q[0]) == 0);
    CHECK_OK(ctx, gp_integrate_ex(ctx, text, 0, 3, 1001, GP_F64, &again));
    CHECK(memcmp(&again, &q[2], sizeof again) == 0);
  }
  /* a large n is fine (and the sum stays accurate) */
  const uint64_t big = (1ull << 25) + 3;
  const double h = 2.0 / big;
  CHECK_NEAR(integ(ctx, "x^2", 0, 2, big, GP_F64), 8.0 / 3 + 2 * h * h / 6, 0, 1e-14);
}

static void test_errors(gp_context *ctx) {
  double r = 12345.0;
  CHECK_STATUS(gp_integrate(ctx, "x^2", 0, 1, 0, &r), GP_ERR_INVALID_ARGUMENT);
  CHECK_ERROR_MENTIONS(ctx, "n = 0");
  CHECK_STATUS(gp_integrate(ctx, "x^2", 0, 1, (1ull << 40) + 1, &r), GP_ERR_INVALID_ARGUMENT);
  CHECK_ERROR_MENTIONS(ctx, "2^40");
  CHECK_STATUS(gp_integrate(ctx, "x^2", 0, INFINITY, 10, &r), GP_ERR_INVALID_ARGUMENT);
  CHECK_ERROR_MENTIONS(ctx, "finite");
  CHECK_STATUS(gp_integrate(ctx, "x^2", NAN, 1, 10, &r), GP_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(gp_integrate(ctx, "x^2", -1.5e308, 1.5e308, 10, &r), GP_ERR_INVALID_ARGUMENT);
  CHECK_ERROR_MENTIONS(ctx, "overflows");
  CHECK_STATUS(gp_integrate(ctx, NULL, 0, 1, 10, &r), GP_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(gp_integrate(ctx, "x", 0, 1, 10, NULL), GP_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(gp_integrate_ex(ctx, "x", 0, 1, 10, GP_I32, &r), GP_ERR_UNSUPPORTED);
  CHECK_STATUS(gp_integrate_ex(ctx, "x", 0, 1, 10, (gp_dtype)99, &r), GP_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(gp_integrate(ctx, "sin(x))", 0, 1, 10, &r), GP_ERR_PARSE);
  CHECK_ERROR_MENTIONS(ctx, "unexpected ')' at column 7");
  CHECK_STATUS(gp_integrate(ctx, "sinh(x)", 0, 1, 10, &r), GP_ERR_PARSE);
  CHECK_ERROR_MENTIONS(ctx, "unknown name 'sinh'");
  CHECK_STATUS(gp_integrate(ctx, "x); system(\"rm -rf /\"); (x", 0, 1, 10, &r), GP_ERR_PARSE);
  CHECK_ERROR_MENTIONS(ctx, "unexpected ')' at column 2");
  /* non-finite sums: 1/x with x = 0 a node, log(0), sqrt of negatives */
  CHECK_STATUS(gp_integrate(ctx, "1/x", -1, 1, 2, &r), GP_ERR_INVALID_ARGUMENT);
  CHECK_ERROR_MENTIONS(ctx, "not finite");
  CHECK_ERROR_MENTIONS(ctx, "1/x");
  CHECK_STATUS(gp_integrate(ctx, "1/x^2", -1, 1, 4, &r), GP_ERR_INVALID_ARGUMENT);
  CHECK_ERROR_MENTIONS(ctx, "not finite (+inf)");
  CHECK_STATUS(gp_integrate(ctx, "x/x", -1, 1, 2, &r), GP_ERR_INVALID_ARGUMENT);
  CHECK_ERROR_MENTIONS(ctx, "not finite (nan)");
  CHECK_STATUS(gp_integrate(ctx, "log(x)", 0, 1, 1000, &r), GP_ERR_INVALID_ARGUMENT);
  CHECK_ERROR_MENTIONS(ctx, "-inf");
  CHECK_STATUS(gp_integrate_ex(ctx, "sqrt(x - 2)", 0, 1, 10, GP_F32, &r), GP_ERR_INVALID_ARGUMENT);
  CHECK_ERROR_MENTIONS(ctx, "nan");
  CHECK_STATUS(gp_integrate(ctx, "exp(x)", 0, 1000, 10, &r), GP_ERR_INVALID_ARGUMENT);
  CHECK_ERROR_MENTIONS(ctx, "+inf");
  CHECK(r == 12345.0); /* failed calls left the result alone */
  /* 1/x over [-1, 1] with no node at 0 (odd n) is finite: the halves cancel to 0 */
  CHECK_OK(ctx, gp_integrate(ctx, "1/x", -1, 1, 1001, &r));
  CHECK_NEAR(r, 0.0, 1e-12, 0);
  /* a failed call clears, a good call leaves no error */
  CHECK(gp_last_error(ctx)[0] == '\0');
}

static void test_determinism(gp_context *ctx) {
  const char *exprs[] = {"x^2", "sin(x)*exp(-x^2)", "1/(1+x^2)"};
  const uint64_t n = (1u << 21) + 77;
  for (size_t k = 0; k < 3; k++)
    for (int p = 0; p < 2; p++) {
      gp_dtype prec = p ? GP_F32 : GP_F64;
      double ref = integ(ctx, exprs[k], -1.25, 3.5, n, prec), again;
      again = integ(ctx, exprs[k], -1.25, 3.5, n, prec);
      CHECK(memcmp(&ref, &again, sizeof ref) == 0);
#ifdef _OPENMP
      const int threads[] = {1, 2, 3, 7};
      const int before = omp_get_max_threads();
      for (int t = 0; t < 4; t++) {
        omp_set_num_threads(threads[t]);
        double r = integ(ctx, exprs[k], -1.25, 3.5, n, prec);
        CHECK_MSG(memcmp(&ref, &r, sizeof r) == 0, "%s %s with %d threads: %.17g vs %.17g",
                  exprs[k], gp_dtype_name(prec), threads[t], r, ref);
      }
      omp_set_num_threads(before);
#endif
    }
}

/* Subnormal integrands under the caller's DAZ and FTZ (x86 MXCSR: e.g.
 * torch.set_flush_denormal(True), -ffast-math): the same bits as without them, as the
 * GPU gives (its F64 and, without fast math, F32 arithmetic keep subnormals); with the
 * flags in force the values would read and round to 0. */
static void test_flush_modes(gp_context *ctx) {
#if defined(__x86_64__) || defined(__i386__)
  const char *exprs[] = {"x*1e-310", "x*1e-40"};
  for (int p = 0; p < 2; p++) {
    const gp_dtype prec = p ? GP_F32 : GP_F64;
    const double want = integ(ctx, exprs[p], 0.25, 1.0, 100001, prec);
    const unsigned csr = _mm_getcsr();
    _mm_setcsr(csr | 0x8040u);
    double got = 0;
    const gp_status s = gp_integrate_ex(ctx, exprs[p], 0.25, 1.0, 100001, prec, &got);
    _mm_setcsr(csr);
    CHECK_OK(ctx, s);
    CHECK_MSG(want != 0.0 && memcmp(&got, &want, sizeof got) == 0,
              "%s %s under DAZ/FTZ: %.17g, without: %.17g", exprs[p], gp_dtype_name(prec), got,
              want);
  }
#else
  (void)ctx;
#endif
}

static void test_prepare_and_source(gp_context *ctx) {
  double t = -1;
  double r;
  CHECK_STATUS(gp_trap_seed(ctx, 3, 0, 1, 100, &r), GP_ERR_UNSUPPORTED);
  CHECK_OK(ctx, gp_integrate_prepare(ctx, "sqrt(x)", GP_F64, &t));
  CHECK(t >= 0);
  CHECK_STATUS(gp_integrate_prepare(ctx, "sqrt(", GP_F64, &t), GP_ERR_PARSE);
  CHECK_ERROR_MENTIONS(ctx, "end of input");
  /* many distinct expressions: the cache stays bounded and answers stay right */
  for (int i = 0; i < 300; i++) {
    char e[64];
    snprintf(e, sizeof e, "x + %d", i);
    CHECK_NEAR(integ(ctx, e, 0, 1, 10, GP_F64), 0.5 + i, 0, 1e-14);
  }
  size_t need = 0;
  if (strstr(gp_version(), "cpu only")) {
    CHECK_STATUS(gp_integrate_source(ctx, "x", GP_F64, NULL, 0, NULL), GP_ERR_UNSUPPORTED);
    return;
  }
  CHECK_OK(ctx, gp_integrate_source(ctx, "sin(x) + 1", GP_F32, NULL, 0, &need));
  char *buf = (char *)malloc(need);
  CHECK_OK(ctx, gp_integrate_source(ctx, "sin(x) + 1", GP_F32, buf, need, NULL));
  CHECK(strstr(buf, "gp_integrate_kernel") != NULL);
  CHECK(strstr(buf, "sinf(") != NULL);
  CHECK(strlen(buf) + 1 == need);
  free(buf);
}

int main(void) {
  gp_context *ctx = check_cpu_context();
  test_closed_forms(ctx);
  test_orientation_and_edges(ctx);
  test_errors(ctx);
  test_determinism(ctx);
  test_flush_modes(ctx);
  test_prepare_and_source(ctx);
  gp_destroy(ctx);
  return check_summary("test_integrate_cpu");
}
