/* Every kernel family once, at moderate sizes, CUDA against the CPU backend: small
 * enough to run under compute-sanitizer's memcheck, racecheck and synccheck
 * (scripts/gpu_check.sh sanitize). The full matrices live in test_reduce_gpu,
 * test_sort_gpu and test_integrate_gpu. Exits 77 where no GPU is usable. */
#include "check.h"

static void fill_f32(float *v, size_t n) {
  for (size_t i = 0; i < n; i++) v[i] = (float)(check_rand01() * 2.0 - 1.0);
}

static void check_reduce(gp_context *gpu, gp_context *cpu) {
  const size_t sizes[] = {1, 255, 257, 4097, 100003};
  for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
    size_t n = sizes[si];
    float *v = malloc(n * sizeof *v);
    fill_f32(v, n);
    for (int a = GP_REDUCE_AUTO; a <= GP_REDUCE_WARP_ATOMIC; a++) {
      for (int op = GP_SUM; op <= GP_MAX; op++) {
        float g = 0, c = 0;
        CHECK_OK(gpu, gp_reduce(gpu, (gp_op)op, GP_F32, v, n, &g, (gp_reduce_algo)a));
        CHECK_OK(cpu, gp_reduce(cpu, (gp_op)op, GP_F32, v, n, &c, (gp_reduce_algo)a));
        if (a == GP_REDUCE_WARP_ATOMIC && op == GP_SUM)
          CHECK_NEAR(g, c, 1e-4, 1e-5); /* atomic order varies: documented */
        else
          CHECK_MSG(memcmp(&g, &c, sizeof g) == 0, "reduce %s %s n=%zu: gpu %.9g cpu %.9g",
                    gp_reduce_algo_name((gp_reduce_algo)a), gp_op_name((gp_op)op), n, g, c);
      }
    }
    int32_t *iv = malloc(n * sizeof *iv);
    int64_t exact = 0;
    for (size_t i = 0; i < n; i++) iv[i] = (int32_t)(check_rand64() >> 33) - (1 << 29), exact += iv[i];
    for (int a = GP_REDUCE_AUTO; a <= GP_REDUCE_WARP_ATOMIC; a++) {
      int64_t g = 0;
      CHECK_OK(gpu, gp_reduce(gpu, GP_SUM, GP_I32, iv, n, &g, (gp_reduce_algo)a));
      CHECK_EQ_I64(g, exact);
    }
    free(iv);
    free(v);
  }
}

static int is_sorted_u32(const uint32_t *k, size_t n) {
  for (size_t i = 1; i < n; i++)
    if (k[i - 1] > k[i]) return 0;
  return 1;
}

static void check_sort(gp_context *gpu, gp_context *cpu) {
  /* one cluster of 1-8 tiles of 512 (1000, 2048), of 2 and 16 tiles of 4096 (5000,
     40000), the multi-launch path (70001); segments of 16384: clusters of tiles of 8192 */
  const size_t sizes[] = {1, 2, 1000, 2048, 5000, 40000, 2 * 16384, 70001};
  for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
    size_t n = sizes[si];
    uint32_t *k = malloc(n * 4), *g = malloc(n * 4), *c = malloc(n * 4), *val = malloc(n * 4);
    for (size_t i = 0; i < n; i++) k[i] = (uint32_t)check_rand64();
    for (int algo = GP_SORT_AUTO; algo <= GP_SORT_BITONIC_SEED; algo++) {
      memcpy(g, k, n * 4);
      memcpy(c, k, n * 4);
      CHECK_OK(gpu, gp_sort(gpu, GP_U32, g, n, GP_ASCENDING, (gp_sort_algo)algo));
      CHECK_OK(cpu, gp_sort(cpu, GP_U32, c, n, GP_ASCENDING, (gp_sort_algo)algo));
      CHECK_MSG(memcmp(g, c, n * 4) == 0, "sort %s n=%zu differs from the CPU backend",
                gp_sort_algo_name((gp_sort_algo)algo), n);
      CHECK(is_sorted_u32(g, n));
    }
    /* pairs: values are the original positions, so each must still point at its key */
    memcpy(g, k, n * 4);
    for (size_t i = 0; i < n; i++) val[i] = (uint32_t)i;
    CHECK_OK(gpu, gp_sort_pairs(gpu, GP_U32, g, GP_U32, val, n, GP_DESCENDING, GP_SORT_AUTO));
    int kept = 1;
    for (size_t i = 0; i < n; i++) kept &= val[i] < n && k[val[i]] == g[i];
    CHECK_MSG(kept, "sort_pairs n=%zu: a value left its key", n);
    /* segments */
    size_t seg = n == 2 * 16384 ? 16384 : n >= 1000 ? 1000 : n;
    if (n % seg == 0) {
      memcpy(g, k, n * 4);
      memcpy(c, k, n * 4);
      CHECK_OK(gpu, gp_sort_segments(gpu, GP_U32, g, n, seg, GP_ASCENDING));
      CHECK_OK(cpu, gp_sort_segments(cpu, GP_U32, c, n, seg, GP_ASCENDING));
      CHECK_MSG(memcmp(g, c, n * 4) == 0, "sort_segments n=%zu seg=%zu differs", n, seg);
    }
    free(k); free(g); free(c); free(val);
  }
}

static void check_integrate(gp_context *gpu, gp_context *cpu) {
  double g = 0, c = 0;
  CHECK_OK(gpu, gp_integrate(gpu, "x^2", 0, 3, 100000, &g));
  CHECK_OK(cpu, gp_integrate(cpu, "x^2", 0, 3, 100000, &c));
  CHECK_NEAR(g, c, 0, 1e-14);
  /* trapezoid of x^2 over [0,3] with h = 3/n: exactly 9 + 27 h^2 / 6 / ... derive:
     T - I = (b - a) h^2 f'' / 12 = 3 h^2 * 2 / 12 = h^2 / 2 */
  double h = 3.0 / 100000;
  CHECK_NEAR(g, 9.0 + h * h / 2, 1e-12, 1e-12);
  for (int stage = 1; stage <= 3; stage++) {
    double r = 0;
    CHECK_OK(gpu, gp_trap_seed(gpu, stage, 0.0f, 3.0f, 4096, &r));
    CHECK_NEAR(r, 9.0, 1e-3, 1e-4);
  }
}

int main(void) {
  gp_context *gpu = check_gpu_context_or_skip("test_gpu_kernels");
  gp_context *cpu = check_cpu_context();
  check_seed(7);
  check_reduce(gpu, cpu);
  check_sort(gpu, cpu);
  check_integrate(gpu, cpu);
  gp_destroy(gpu);
  gp_destroy(cpu);
  return check_summary("test_gpu_kernels");
}
