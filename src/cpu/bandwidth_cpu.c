/* CPU backend of gp_measure_bandwidth: a host read loop and memcpy timed with a
 * monotonic wall clock, which is right here since CPU code is synchronous. */
#define _POSIX_C_SOURCE 200809L
#include "cpu/bandwidth_cpu.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#define CPU_RUNS 5

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* XOR of every 8-byte word, in parallel; volatile sink keeps the loads. */
static volatile uint64_t cpu_sink;
static void cpu_read(const uint64_t *p, size_t n) {
  uint64_t acc = 0;
#ifdef _OPENMP
#pragma omp parallel for reduction(^ : acc) schedule(static)
#endif
  for (size_t i = 0; i < n; i++) acc ^= p[i];
  cpu_sink = acc;
}

static void cpu_copy(unsigned char *dst, const unsigned char *src, size_t bytes) {
#ifdef _OPENMP
  int parts = omp_get_max_threads();
#pragma omp parallel for schedule(static)
  for (int t = 0; t < parts; t++) {
    size_t lo = bytes * (size_t)t / (size_t)parts, hi = bytes * (size_t)(t + 1) / (size_t)parts;
    memcpy(dst + lo, src + lo, hi - lo);
  }
#else
  memcpy(dst, src, bytes);
#endif
}

gp_status gp_cpu_measure_bandwidth(gp_context *ctx, double *read_gbs, double *copy_gbs) {
  size_t bytes = (size_t)256 << 20;
  if (ctx->info.global_mem_bytes && bytes > ctx->info.global_mem_bytes / 8)
    bytes = ctx->info.global_mem_bytes / 8;
  bytes &= ~(size_t)4095;
  if (bytes < 4096) bytes = 4096;
  unsigned char *buf = (unsigned char *)malloc(bytes);
  if (!buf)
    return gp_fail(ctx, GP_ERR_OUT_OF_MEMORY,
                   "cannot allocate %zu bytes of host memory to measure bandwidth", bytes);
  memset(buf, 0x5A, bytes); /* touch every page before timing */
  double t[CPU_RUNS];
  if (read_gbs) {
    cpu_read((const uint64_t *)buf, bytes / 8); /* warm-up */
    for (int r = 0; r < CPU_RUNS; r++) {
      double t0 = gp_wall_seconds();
      cpu_read((const uint64_t *)buf, bytes / 8);
      t[r] = gp_wall_seconds() - t0;
    }
    qsort(t, CPU_RUNS, sizeof t[0], cmp_double);
    *read_gbs = t[CPU_RUNS / 2] > 0 ? (double)bytes / t[CPU_RUNS / 2] / 1e9 : 0;
  }
  if (copy_gbs) {
    size_t half = bytes / 2;
    cpu_copy(buf + half, buf, half);
    for (int r = 0; r < CPU_RUNS; r++) {
      double t0 = gp_wall_seconds();
      cpu_copy(buf + half, buf, half);
      t[r] = gp_wall_seconds() - t0;
    }
    qsort(t, CPU_RUNS, sizeof t[0], cmp_double);
    *copy_gbs = t[CPU_RUNS / 2] > 0 ? (double)(2 * half) / t[CPU_RUNS / 2] / 1e9 : 0;
  }
  free(buf);
  return GP_OK;
}

