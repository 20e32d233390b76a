/* gp_reduce (SUM, MAX) and gp_argreduce (MAX) of n random elements of each dtype on the
 * CPU backend: best of 5 loops of back-to-back calls, wall clock, ns a call.
 *   gcc -O2 -o probe probe_types.c -Iinclude -L<lib dir> -lgpuprims -Wl,-rpath,<lib dir>
 *   ./probe N */
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
  size_t n = argc > 1 ? strtoull(argv[1], 0, 10) : 65536;
  gp_context *c;
  if (gp_create(&c, GP_BACKEND_CPU)) return 1;
  unsigned char *a = malloc(n * 8);
  srand(1);
  static const gp_dtype ts[] = {GP_F32, GP_F64, GP_I32, GP_I64, GP_U32, GP_U64};
  for (int ti = 0; ti < 6; ti++) {
    const gp_dtype t = ts[ti];
    for (size_t i = 0; i < n; i++) {
      double d = (double)rand() / RAND_MAX - 0.5;
      uint64_t u = ((uint64_t)rand() << 40) ^ ((uint64_t)rand() << 20) ^ (uint64_t)rand();
      if (t == GP_F32) { float f = (float)d; memcpy(a + 4 * i, &f, 4); }
      else if (t == GP_F64) memcpy(a + 8 * i, &d, 8);
      else memcpy(a + gp_dtype_size(t) * i, &u, gp_dtype_size(t));
    }
    for (int w = 0; w < 3; w++) {
      const int reps = n > 4096 ? (int)(20000000 / n) + 10 : 200000;
      double best = 1e30;
      for (int rr = 0; rr < 5; rr++) {
        double t0 = now();
        for (int i = 0; i < reps; i++) {
          unsigned char out[8];
          uint64_t idx;
          gp_status s = w == 0 ? gp_reduce(c, GP_SUM, t, a, n, out, GP_REDUCE_AUTO)
                        : w == 1 ? gp_reduce(c, GP_MAX, t, a, n, out, GP_REDUCE_AUTO)
                                 : gp_argreduce(c, GP_MAX, t, a, n, NULL, &idx);
          if (s) { printf("err %s\n", gp_last_error(c)); return 1; }
        }
        double tt = (now() - t0) / reps;
        if (tt < best) best = tt;
      }
      printf("%-6s %-4s n=%-9zu %10.1f ns\n", w == 0 ? "sum" : w == 1 ? "max" : "argmax",
             gp_dtype_name(t), n, best);
    }
  }
  gp_destroy(c);
  return 0;
}
