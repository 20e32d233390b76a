/* gp_topk_rows (largest k, values and indices) of rows x cols random keys of one dtype
 * on the CPU backend: the best of REPS calls, wall clock, ns a row.
 *   gcc -O2 -o probe probe_topk_rows.c -Iinclude -L<lib dir> -lgpuprims -Wl,-rpath,<lib dir>
 *   ./probe ROWS COLS K DTYPE [REPS]   (DTYPE f32, f64, i64) */
#include <gpuprims.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e9 + t.tv_nsec;
}
int main(int argc, char **argv) {
  if (argc < 5) return 2;
  size_t rows = strtoull(argv[1], 0, 10), cols = strtoull(argv[2], 0, 10), k = strtoull(argv[3], 0, 10);
  gp_dtype t = !strcmp(argv[4], "f32") ? GP_F32 : !strcmp(argv[4], "i64") ? GP_I64 : GP_F64;
  int reps = argc > 5 ? atoi(argv[5]) : 10;
  gp_context *c;
  if (gp_create(&c, GP_BACKEND_CPU)) return 1;
  const size_t n = rows * cols, es = gp_dtype_size(t);
  unsigned char *a = malloc(n * es), *v = malloc(rows * k * es);
  uint64_t *ix = malloc(rows * k * 8);
  srand(1);
  for (size_t i = 0; i < n; i++) {
    double d = (double)rand() / RAND_MAX - 0.5;
    int64_t q = ((int64_t)rand() << 33) ^ ((int64_t)rand() << 10) ^ rand();
    if (t == GP_F32) { float f = (float)d; memcpy(a + 4 * i, &f, 4); }
    else if (t == GP_F64) memcpy(a + 8 * i, &d, 8);
    else memcpy(a + 8 * i, &q, 8);
  }
  double best = 1e30;
  for (int r = 0; r < reps; r++) {
    double t0 = now();
    if (gp_topk_rows(c, t, a, rows, cols, k, GP_DESCENDING, v, ix)) { printf("%s\n", gp_last_error(c)); return 1; }
    double tt = now() - t0;
    if (tt < best) best = tt;
  }
  printf("topk%zu rows %s %zu x %zu: %.1f us (%.1f ns/row)\n", k, argv[4], rows, cols, best / 1e3, best / rows);
  gp_destroy(c);
  return 0;
}
