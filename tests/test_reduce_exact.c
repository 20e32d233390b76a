/* Correctly rounded F32/F64 SUM (GP_REDUCE_AUTO) on the CPU backend: every result's bits
 * equal the exact sum rounded once (tests/exact_ref.h, an independent big integer), on
 * adversarial data (cancellation, 1e308 + 1 - 1e308, subnormals, exponents over the whole
 * range, overflow, NaN / inf), across sizes and tile boundaries, under permutation and
 * for every OpenMP thread count. tests/test_reduce_exact_gpu.c runs the same on CUDA. */
#include "exact_cases.h"
#include "core/exact_sum.h"

#include <stdlib.h>
#ifdef _OPENMP
#include <omp.h>
#endif

static gp_context *ctx;

static gp_status xc_sum(gp_dtype t, const void *x, size_t n, void *out) {
  gp_status s = gp_reduce(ctx, GP_SUM, t, x, n, out, GP_REDUCE_AUTO);
  CHECK_MSG(s == GP_OK, "gp_reduce: %s", gp_last_error(ctx));
  return s;
}

/* gp_xs_round_f32 (the GPU fold's F32 rounding of a two-double sum) against the
 * independent reference, on random pairs and on ties of two floats nudged either way */
static float ref_round_f32(double h, double l) {
  static xr_acc a;
  memset(&a, 0, sizeof a);
  xr_add(&a, h);
  xr_add(&a, l);
  return (float)xr_round(&a, 24, -149);
}
static void check_round_f32(double h, double l) {
  const float got = gp_xs_round_f32(h, l), want = ref_round_f32(h, l);
  CHECK_MSG(bits32(got) == bits32(want), "gp_xs_round_f32(%a, %a) = %a, want %a", h, l, (double)got,
            (double)want);
}
static void test_round_f32(void) {
  check_seed(99);
  for (int i = 0; i < 200000; i++) {
    const double h = ldexp(check_rand01() - 0.5, (int)(check_rand64() % 280) - 150);
    const double l = ldexp(check_rand01() - 0.5, (int)(check_rand64() % 100) - 60) * h;
    check_round_f32(h, l);
  }
  for (int i = 0; i < 20000; i++) { /* ties: a float plus half its ulp, nudged */
    const float f = ldexpf(1.0f + (float)check_rand01(), (int)(check_rand64() % 250) - 125);
    const double half = 0.5 * ((double)nextafterf(f, INFINITY) - (double)f);
    const double tie = (double)f + half, nudge = ldexp(half, -(int)(check_rand64() % 900) - 1);
    check_round_f32(tie, nudge);
    check_round_f32(tie, -nudge);
    check_round_f32(-tie, nudge);
    check_round_f32(tie, 0.0);
  }
  const double top = (double)FLT_MAX + 0x1p103; /* the tie between FLT_MAX and 2^128 */
  check_round_f32(top, -0x1p-900);
  check_round_f32(top, 0x1p-900);
  check_round_f32(-top, 0x1p-900);
  check_round_f32(0x1p-150, 0x1p-1000);
  check_round_f32(0x1p-150, -0x1p-1000);
  check_round_f32(-0x1p-150, 0x1p-1000);
  check_round_f32(0x1p-150, 0.0);
  CHECK(gp_xs_round_f32(top, -0x1p-900) == FLT_MAX);
  CHECK(isinf(gp_xs_round_f32(top, 0.0)));
}

static void test_threads(void) {
#ifdef _OPENMP
  size_t n = 300001;
  double *d = (double *)malloc(n * sizeof *d);
  float *f = (float *)malloc(n * sizeof *f);
  check_seed(42);
  for (size_t i = 0; i < n; i++) { d[i] = gen_f64(K_WIDE, i, n); f[i] = gen_f32(K_WIDE, i); }
  double want_d = xr_sum_f64(d, n);
  float want_f = xr_sum_f32(f, n);
  const int counts[] = {1, 2, 3, 7};
  for (int k = 0; k < 4; k++) {
    omp_set_num_threads(counts[k]);
    double gd;
    float gf;
    CHECK_OK(ctx, gp_reduce(ctx, GP_SUM, GP_F64, d, n, &gd, GP_REDUCE_AUTO));
    CHECK_OK(ctx, gp_reduce(ctx, GP_SUM, GP_F32, f, n, &gf, GP_REDUCE_AUTO));
    CHECK_MSG(bits64(gd) == canon64(want_d), "%d threads: f64 %.17g vs %.17g", counts[k], gd, want_d);
    CHECK_MSG(bits32(gf) == canon32(want_f), "%d threads: f32 %.9g vs %.9g", counts[k], (double)gf,
              (double)want_f);
  }
  omp_set_num_threads(omp_get_num_procs());
  free(d);
  free(f);
#endif
}

int main(void) {
  ctx = check_cpu_context();
  test_known();
  test_ties();
  test_round_f32();
  test_random();
  test_threads();
  gp_destroy(ctx);
  return check_summary("test_reduce_exact");
}
