/* gp_integrate on the CUDA backend (skipped, 77, without a GPU): closed forms, bitwise
 * agreement with the CPU backend where f uses only correctly rounded operations (and
 * agreement to rounding for sin/exp), F32 and F64, device-memory results, the
 * expression cache, errors, and the seed's three stages against the closed form. */
#include "check.h"

/* The CUDA runtime, declared weak so this file builds (and skips) without CUDA. */
int cudaMalloc(void **p, size_t bytes) __attribute__((weak));
int cudaFree(void *p) __attribute__((weak));
int cudaMemcpy(void *dst, const void *src, size_t bytes, int kind) __attribute__((weak));
#define cudaSuccess 0
#define cudaMemcpyDeviceToHost 2

static const double PI = 3.14159265358979323846;
static const double E = 2.71828182845904523536;

static double integ(gp_context *ctx, const char *expr, double a, double b, uint64_t n,
                    gp_dtype prec) {
  double r = NAN;
  gp_status s = gp_integrate_ex(ctx, expr, a, b, n, prec, &r);
  CHECK_MSG(s == GP_OK, "%s [%g, %g] n=%llu %s (%s): %s: %s", expr, a, b,
            (unsigned long long)n, gp_dtype_name(prec), gp_backend_name(gp_backend_of(ctx)),
            gp_status_string(s), gp_last_error(ctx));
  return r;
}

int main(void) {
  gp_context *gpu = check_gpu_context_or_skip("test_integrate_gpu");
  gp_context *cpu = check_cpu_context();
  const uint64_t ns[] = {1, 2, 3, 100, 2047, 2048, 2049, 2050, 4097, 1000003, 1u << 20,
                         (1u << 22) + 7 /* > GP_TRAP_MAX_BLOCKS tiles: blocks loop */};
  for (size_t k = 0; k < sizeof ns / sizeof ns[0]; k++) {
    const uint64_t n = ns[k];
    /* closed forms, as in test_integrate_cpu */
    {
      const double a = -0.5, b = 2.0, h = (b - a) / n;
      const double want = (b * b * b - a * a * a) / 3 + (b - a) * h * h / 6;
      CHECK_NEAR(integ(gpu, "x^2", a, b, n, GP_F64), want, 0, 1e-13);
      CHECK_NEAR(integ(gpu, "x^2", a, b, n, GP_F32), want, 0, n < 1000 ? 1e-6 : 2e-5);
    }
    if (n >= 2) {
      const double h = PI / n;
      CHECK_NEAR(integ(gpu, "sin(x)", 0, PI, n, GP_F64), h / tan(h / 2), 1e-15, 1e-13);
      CHECK_NEAR(integ(gpu, "sin(x)", 0, PI, n, GP_F32), h / tan(h / 2), 2e-6, 2e-5);
    }
    {
      const double h = 1.0 / n, em1 = expm1(h);
      const double want = (E - 1) * (h / 2) * (2 + em1) / em1;
      CHECK_NEAR(integ(gpu, "exp(x)", 0, 1, n, GP_F64), want, 0, 1e-13);
      CHECK_NEAR(integ(gpu, "exp(x)", 0, 1, n, GP_F32), want, 0, 2e-5);
    }
    if (n >= 4) {
      const double h = 1.0 / n;
      const double t = integ(gpu, "1/(1+x^2)", 0, 1, n, GP_F64);
      CHECK_NEAR(t - atan(1.0), -h * h / 24, 1e-15 + h * h * h * h * h * h, 0);
    }
    /* the backends: same bits where f is correctly rounded, else to rounding */
    const char *exact_ops[] = {"x^2", "1/(1+x^2)", "sqrt(abs(x)) + floor(3*x) - max(x, 0.5)*x"};
    for (int p = 0; p < 2; p++) {
      const gp_dtype prec = p ? GP_F32 : GP_F64;
      for (int e = 0; e < 3; e++) {
        double g = integ(gpu, exact_ops[e], -1.25, 3.5, n, prec);
        double c = integ(cpu, exact_ops[e], -1.25, 3.5, n, prec);
        CHECK_MSG(memcmp(&g, &c, sizeof g) == 0, "%s %s n=%llu: GPU %.17g CPU %.17g",
                  exact_ops[e], gp_dtype_name(prec), (unsigned long long)n, g, c);
      }
      double g = integ(gpu, "sin(x)*exp(-x/3) + cos(2*x)", -1.25, 3.5, n, prec);
      double c = integ(cpu, "sin(x)*exp(-x/3) + cos(2*x)", -1.25, 3.5, n, prec);
      CHECK_NEAR(g, c, p ? 1e-6 : 1e-14, p ? 1e-6 : 1e-14);
    }
  }
  /* determinism run to run; b < a; n = 0; non-finite; parse errors */
  const uint64_t big = (1ull << 28) + 3;
  double r1 = integ(gpu, "sin(x)^2", 0, 10, big, GP_F32), r2 = integ(gpu, "sin(x)^2", 0, 10, big, GP_F32);
  CHECK(memcmp(&r1, &r2, sizeof r1) == 0);
  CHECK_NEAR(r1, 5 - sin(20.0) / 4, 0, 1e-5);
  CHECK_NEAR(integ(gpu, "exp(x)", 1, 0, 1000, GP_F64), -integ(gpu, "exp(x)", 0, 1, 1000, GP_F64), 0, 1e-14);
  double r = 7.0;
  CHECK_STATUS(gp_integrate(gpu, "x", 0, 1, 0, &r), GP_ERR_INVALID_ARGUMENT);
  CHECK_ERROR_MENTIONS(gpu, "n = 0");
  CHECK_STATUS(gp_integrate(gpu, "1/x^2", -1, 1, 4, &r), GP_ERR_INVALID_ARGUMENT);
  CHECK_ERROR_MENTIONS(gpu, "not finite (+inf)");
  CHECK_STATUS(gp_integrate(gpu, "x); system(\"rm -rf /\"); (x", 0, 1, 10, &r), GP_ERR_PARSE);
  CHECK_ERROR_MENTIONS(gpu, "unexpected ')' at column 2");
  CHECK(r == 7.0);
  /* the counter was reset by the last kernel: a call after an error still works */
  CHECK_NEAR(integ(gpu, "x", 0, 2, 5000, GP_F64), 2.0, 0, 1e-15);

  /* cache: the second prepare of the same expression compiles nothing */
  double t1 = -1, t2 = -1;
  CHECK_OK(gpu, gp_integrate_prepare(gpu, "cos(x) + 2*x^2 - 1", GP_F64, &t1));
  CHECK_OK(gpu, gp_integrate_prepare(gpu, "cos(x) + 2*x^2 - 1", GP_F64, &t2));
  CHECK(t1 > 0 && t2 == 0);
  CHECK_OK(gpu, gp_integrate_prepare(gpu, "cos(x)+2*x^2-1", GP_F64, &t2)); /* same tree */
  CHECK(t2 == 0);
  CHECK_OK(gpu, gp_integrate_prepare(gpu, "cos(x) + 2*x^2 - 1", GP_F32, &t2)); /* new kernel */
  CHECK(t2 > 0);

  /* device-memory result: asynchronous, then read back */
  double *d = NULL;
  if (cudaMalloc && cudaMalloc((void **)&d, 2 * sizeof(double)) == cudaSuccess) {
    CHECK_OK(gpu, gp_integrate_ex(gpu, "x^3", 0, 2, 1u << 22, GP_F64, d + 1));
    CHECK_OK(gpu, gp_synchronize(gpu));
    double v = 0;
    CHECK(cudaMemcpy(&v, d + 1, sizeof v, cudaMemcpyDeviceToHost) == cudaSuccess);
    CHECK_NEAR(v, integ(cpu, "x^3", 0, 2, 1u << 22, GP_F64), 0, 0); /* same bits */
    for (int stage = 1; stage <= 3; stage++) {
      CHECK_OK(gpu, gp_trap_seed(gpu, stage, 0.0f, 3.0f, 1u << 20, d));
      CHECK_OK(gpu, gp_synchronize(gpu));
      CHECK(cudaMemcpy(&v, d, sizeof v, cudaMemcpyDeviceToHost) == cudaSuccess);
      CHECK_NEAR(v, 9.0, 0, 1e-3);
    }
    /* gp_integrate_device (no pointer query): back-to-back launches sharing the ticket
       counter, single-block and looping grids, the same bits as the CPU backend */
    const uint64_t dn[] = {1, 3, 4097, 1u << 20, (1u << 22) + 7};
    for (size_t k = 0; k < sizeof dn / sizeof dn[0]; k++) {
      CHECK_OK(gpu, gp_integrate_device(gpu, "1/(1+x^2)", -1.25, 3.5, dn[k], GP_F64, d));
      CHECK_OK(gpu, gp_integrate_device(gpu, "1/(1+x^2)", -1.25, 3.5, dn[k], GP_F32, d + 1));
      CHECK_OK(gpu, gp_synchronize(gpu));
      double w[2] = {0, 0};
      CHECK(cudaMemcpy(w, d, sizeof w, cudaMemcpyDeviceToHost) == cudaSuccess);
      const double c64 = integ(cpu, "1/(1+x^2)", -1.25, 3.5, dn[k], GP_F64);
      const double c32 = integ(cpu, "1/(1+x^2)", -1.25, 3.5, dn[k], GP_F32);
      CHECK_MSG(memcmp(&w[0], &c64, sizeof c64) == 0 && memcmp(&w[1], &c32, sizeof c32) == 0,
                "gp_integrate_device n=%llu: GPU %.17g %.17g CPU %.17g %.17g",
                (unsigned long long)dn[k], w[0], w[1], c64, c32);
    }
    cudaFree(d);
  } else {
    CHECK_MSG(0, "cudaMalloc is not linked or failed");
  }
  /* the seed's stages, host result: x^2 over [0, 3] is 9; float sums of 2^20 terms */
  for (int stage = 1; stage <= 3; stage++) {
    const uint64_t sn[] = {1, 2, 33, 1025, 1u << 20, (1u << 24) + 1};
    for (size_t k = 0; k < sizeof sn / sizeof sn[0]; k++) {
      double v = NAN;
      CHECK_OK(gpu, gp_trap_seed(gpu, stage, 0.0f, 3.0f, sn[k], &v));
      const double h = 3.0 / sn[k];
      CHECK_NEAR(v, 9.0 + 3 * h * h / 6, 0, sn[k] > (1u << 20) ? 3e-2 : sn[k] > 100000 ? 2e-3 : 1e-5);
    }
  }
  CHECK_STATUS(gp_trap_seed(gpu, 4, 0, 1, 10, &r), GP_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(gp_trap_seed(gpu, 1, 0, 1, 0, &r), GP_ERR_INVALID_ARGUMENT);
  gp_destroy(cpu);
  gp_destroy(gpu);
  return check_summary("test_integrate_gpu");
}
