/* gp_argsort (8-byte indices) of n random keys of one dtype on the CPU backend: best of
 * 5 loops of back-to-back calls, wall clock, ns a call.
 *   gcc -O2 -o probe probe_argsort.c -Iinclude -L<lib dir> -lgpuprims -Wl,-rpath,<lib dir>
 *   ./probe N DTYPE [PATTERN]  (DTYPE f64, i64, u64, f32; PATTERN 0 random normal-ish,
 *                              1 small integers 0..n/4, 2 doubles near 1 differing in the
 *                              last bits) */
#include <gpuprims.h>
#include <math.h>
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
  size_t n = argc > 1 ? strtoull(argv[1], 0, 10) : 1024;
  const char *dt = argc > 2 ? argv[2] : "f64";
  int pat = argc > 3 ? atoi(argv[3]) : 0;
  gp_dtype t = !strcmp(dt, "f32") ? GP_F32 : !strcmp(dt, "i64") ? GP_I64 : !strcmp(dt, "u64") ? GP_U64 : GP_F64;
  gp_context *c;
  if (gp_create(&c, GP_BACKEND_CPU)) return 1;
  unsigned char *a = malloc(n * 8);
  uint64_t *ix = malloc(n * 8);
  srand(1);
  for (size_t i = 0; i < n; i++) {
    double d = pat == 1 ? (double)(rand() % (n / 4 + 1)) : pat == 2 ? 1.0 + ldexp((double)(rand() % 1024), -52)
                                                                    : ((double)rand() / RAND_MAX - 0.5) * 100;
    int64_t v = pat == 1 ? rand() % (n / 4 + 1) : ((int64_t)rand() << 33) ^ ((int64_t)rand() << 10) ^ rand();
    if (t == GP_F64) memcpy(a + 8 * i, &d, 8);
    else if (t == GP_F32) { float f = (float)d; memcpy(a + 4 * i, &f, 4); }
    else memcpy(a + 8 * i, &v, 8);
  }
  const int reps = n > 4096 ? (int)(20000000 / n) + 10 : 20000;
  double best = 1e30;
  for (int rr = 0; rr < 5; rr++) {
    double t0 = now();
    for (int i = 0; i < reps; i++)
      if (gp_argsort(c, t, a, GP_U64, ix, n, GP_ASCENDING)) { printf("err %s\n", gp_last_error(c)); return 1; }
    double tt = (now() - t0) / reps;
    if (tt < best) best = tt;
  }
  printf("argsort %s pattern %d n=%-8zu %10.1f ns\n", dt, pat, n, best);
  gp_destroy(c);
  return 0;
}
