/* Correctly rounded F32/F64 SUM (GP_REDUCE_AUTO) on the CPU backend: every result's bits
 * equal the exact sum rounded once (tests/exact_ref.h, an independent big integer), on
 * adversarial data (cancellation, 1e308 + 1 - 1e308, subnormals, exponents over the whole
 * range, overflow, NaN / inf), across sizes and tile boundaries, under permutation and
 * for every OpenMP thread count. tests/test_reduce_exact_gpu.c runs the same on CUDA. */
#include "exact_cases.h"

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
  test_random();
  test_threads();
  gp_destroy(ctx);
  return check_summary("test_reduce_exact");
}
