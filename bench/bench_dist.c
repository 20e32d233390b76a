/* `gpuprims bench dist`: gp_dist_sort and gp_dist_reduce over G GPUs of one process
 * (gp_dist_create_local) against one GPU on the same data: gp_sort and CUB's
 * DeviceRadixSort::SortKeys for n u32 keys, gp_reduce for the SUM of n f32.
 * The distributed calls are synchronous, so every row is host wall time around a call
 * that starts with idle GPUs and returns with its result complete (the one-GPU rows
 * synchronize too); inputs are restored before each sample, outside the timing. Medians
 * of --samples runs. Results are checked: the sorted shards must equal one GPU's sorted
 * array cut at the same counts, and the reduce bits must be equal.
 * --big: only a sort of n keys filled on each GPU (no one-GPU copy: for 2^34 keys over 2
 * GPUs), checked by order within and across shards and by the key sum before and after. */
#define _POSIX_C_SOURCE 200809L
#include "suites.h"
#include "gpuprims.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if GP_HAVE_CUDA
#include "harness_kernels.h"
#include "peers/cub_sort.h"
#include <cuda_runtime_api.h>
#include <time.h>

#define MAXG 16

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}
static int cmp_d(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}
static double median(double *t, int k) {
  qsort(t, (size_t)k, sizeof *t, cmp_d);
  return k % 2 ? t[k / 2] : 0.5 * (t[k / 2 - 1] + t[k / 2]);
}
#define CU(call)                                                                           \
  do {                                                                                     \
    cudaError_t e_ = (call);                                                               \
    if (e_ != cudaSuccess) {                                                               \
      fprintf(stderr, "gpuprims bench dist: %s: %s\n", #call, cudaGetErrorString(e_));     \
      return 1;                                                                            \
    }                                                                                      \
  } while (0)
#define GP(d, call)                                                                        \
  do {                                                                                     \
    if ((call) != GP_OK) {                                                                 \
      fprintf(stderr, "gpuprims bench dist: %s: %s\n", #call, gp_dist_last_error(d));      \
      return 1;                                                                            \
    }                                                                                      \
  } while (0)
#define GPC(c, call)                                                                       \
  do {                                                                                     \
    if ((call) != GP_OK) {                                                                 \
      fprintf(stderr, "gpuprims bench dist: %s: %s\n", #call, gp_last_error(c));           \
      return 1;                                                                            \
    }                                                                                      \
  } while (0)

static void row(const char *what, int gpus, size_t n, double sec, double base) {
  printf("%-28s %4d %14zu %10.3f ms %9.2f Gkeys/s %7.2fx\n", what, gpus, n, sec * 1e3,
         (double)n / sec * 1e-9, base > 0 ? base / sec : 1.0);
  fflush(stdout);
}

typedef struct shards {
  int g;
  size_t cnt[MAXG], off[MAXG + 1];
  void *cur[MAXG], *orig[MAXG];
} shards;

/* the global array `src` on GPU 0 cut into g shards, each copied to its GPU twice */
static int make_shards(shards *s, int g, const void *src, size_t n, size_t es) {
  s->g = g;
  s->off[0] = 0;
  for (int i = 0; i < g; i++) {
    s->cnt[i] = n / (size_t)g + ((size_t)i < n % (size_t)g);
    s->off[i + 1] = s->off[i] + s->cnt[i];
    CU(cudaSetDevice(i));
    CU(cudaMalloc(&s->cur[i], s->cnt[i] * es + 16));
    CU(cudaMalloc(&s->orig[i], s->cnt[i] * es + 16));
    CU(cudaMemcpy(s->orig[i], (const char *)src + s->off[i] * es, s->cnt[i] * es, cudaMemcpyDefault));
  }
  return 0;
}
/* (a device-to-device cudaMemcpy returns before the copy is done: wait for it, or the
   timed call that follows would include it) */
static int restore(shards *s, size_t es) {
  for (int i = 0; i < s->g; i++) {
    CU(cudaSetDevice(i));
    CU(cudaMemcpy(s->cur[i], s->orig[i], s->cnt[i] * es, cudaMemcpyDeviceToDevice));
    CU(cudaDeviceSynchronize());
  }
  return 0;
}
static void free_shards(shards *s) {
  for (int i = 0; i < s->g; i++) {
    cudaSetDevice(i);
    cudaFree(s->cur[i]);
    cudaFree(s->orig[i]);
  }
}

static int bench_sort(gp_dist *d, gp_context *c0, int g, size_t n, int samples) {
  const size_t bytes = n * 4;
  void *orig, *keys, *out;
  double t[64], t1, tc, tg = 0;
  CU(cudaSetDevice(0));
  CU(cudaMalloc(&orig, bytes));
  CU(cudaMalloc(&keys, bytes));
  if (gpb_cuda_fill(orig, GP_U32, n, 1, 0, NULL)) return 1;
  CU(cudaDeviceSynchronize());
  for (int k = 0; k < samples; k++) { /* one GPU: gp_sort */
    CU(cudaMemcpy(keys, orig, bytes, cudaMemcpyDeviceToDevice));
    CU(cudaDeviceSynchronize());
    double a = now();
    GPC(c0, gp_sort(c0, GP_U32, keys, n, GP_ASCENDING, GP_SORT_AUTO));
    GPC(c0, gp_synchronize(c0));
    t[k] = now() - a;
  }
  t1 = median(t, samples);
  CU(cudaMalloc(&out, bytes));
  gpb_cub_sort *cub = NULL;
  if (gpb_cub_sort_create(&cub, GP_U32, orig, out, n, 0, 0)) return 1;
  for (int k = 0; k < samples; k++) { /* one GPU: CUB, out of place */
    CU(cudaDeviceSynchronize());
    double a = now();
    if (gpb_cub_sort_run(cub, NULL)) return 1;
    CU(cudaDeviceSynchronize());
    t[k] = now() - a;
  }
  tc = median(t, samples);
  gpb_cub_sort_destroy(cub);
  CU(cudaFree(out));
  shards s;
  if (make_shards(&s, g, orig, n, 4)) return 1;
  /* each path of gp_dist_sort (GPUPRIMS_DIST_SORT), the default last: its output is checked */
  static const char *paths[] = {"exact", "partition", NULL};
  double tp[2];
  for (int p = 0; p < 3; p++) {
    if (paths[p]) setenv("GPUPRIMS_DIST_SORT", paths[p], 1);
    else unsetenv("GPUPRIMS_DIST_SORT");
    for (int k = 0; k < samples; k++) {
      if (restore(&s, 4)) return 1;
      double a = now();
      GP(d, gp_dist_sort(d, GP_U32, s.cur, s.cnt, GP_ASCENDING));
      t[k] = now() - a;
    }
    if (paths[p]) tp[p] = median(t, samples);
    else tg = median(t, samples);
  }
  /* check: the shards equal one GPU's sorted keys cut at the same counts */
  uint32_t *h1 = malloc(bytes), *hg = malloc(bytes);
  if (!h1 || !hg) return fprintf(stderr, "gpuprims bench dist: no host memory to check\n"), 1;
  CU(cudaSetDevice(0));
  CU(cudaMemcpy(h1, keys, bytes, cudaMemcpyDeviceToHost));
  for (int i = 0; i < g; i++)
    CU(cudaMemcpy(hg + s.off[i], s.cur[i], s.cnt[i] * 4, cudaMemcpyDefault));
  const int same = memcmp(h1, hg, bytes) == 0;
  free(h1);
  free(hg);
  free_shards(&s);
  CU(cudaSetDevice(0));
  CU(cudaFree(keys));
  CU(cudaFree(orig));
  row("sort u32: gp_sort", 1, n, t1, t1);
  row("sort u32: cub SortKeys", 1, n, tc, t1);
  row("sort u32: dist, exact path", g, n, tp[0], t1);
  row("sort u32: dist, partition", g, n, tp[1], t1);
  row("sort u32: gp_dist_sort", g, n, tg, t1);
  printf("%-28s vs CUB one GPU: %.2fx; shards equal one GPU's sort: %s\n", "", tc / tg,
         same ? "yes" : "NO");
  return same ? 0 : 1;
}

static int bench_reduce(gp_dist *d, gp_context *c0, int g, size_t n, int samples) {
  void *x;
  float one = 0, many = 0;
  double t[64], t1, tg;
  CU(cudaSetDevice(0));
  CU(cudaMalloc(&x, n * 4));
  if (gpb_cuda_fill(x, GP_F32, n, 2, 0, NULL)) return 1;
  CU(cudaDeviceSynchronize());
  for (int k = 0; k < samples; k++) {
    double a = now();
    GPC(c0, gp_reduce(c0, GP_SUM, GP_F32, x, n, &one, GP_REDUCE_AUTO));
    t[k] = now() - a;
  }
  t1 = median(t, samples);
  shards s;
  if (make_shards(&s, g, x, n, 4)) return 1;
  for (int k = 0; k < samples; k++) {
    double a = now();
    GP(d, gp_dist_reduce(d, GP_SUM, GP_F32, (const void *const *)s.orig, s.cnt, &many));
    t[k] = now() - a;
  }
  tg = median(t, samples);
  free_shards(&s);
  CU(cudaSetDevice(0));
  CU(cudaFree(x));
  const int same = memcmp(&one, &many, 4) == 0;
  row("reduce f32 sum: gp_reduce", 1, n, t1, t1);
  row("reduce f32 sum: gp_dist_reduce", g, n, tg, t1);
  printf("%-28s bits equal one GPU: %s (%.9g vs %.9g)\n", "", same ? "yes" : "NO", (double)one,
         (double)many);
  return same ? 0 : 1;
}

/* --big: a sort filled on each GPU, checked by order and by the key sum */
static int bench_big(gp_dist *d, int g, size_t n) {
  shards s;
  s.g = g;
  s.off[0] = 0;
  for (int i = 0; i < g; i++) {
    s.cnt[i] = n / (size_t)g + ((size_t)i < n % (size_t)g);
    s.off[i + 1] = s.off[i] + s.cnt[i];
    CU(cudaSetDevice(i));
    CU(cudaMalloc(&s.cur[i], s.cnt[i] * 4 + 16));
    if (gpb_cuda_fill(s.cur[i], GP_U32, s.cnt[i], 100 + (uint64_t)i, 0, NULL)) return 1;
    CU(cudaDeviceSynchronize());
  }
  uint64_t before = 0, after = 0;
  GP(d, gp_dist_reduce(d, GP_SUM, GP_U32, (const void *const *)s.cur, s.cnt, &before));
  double a = now();
  GP(d, gp_dist_sort(d, GP_U32, s.cur, s.cnt, GP_ASCENDING));
  const double tg = now() - a;
  GP(d, gp_dist_reduce(d, GP_SUM, GP_U32, (const void *const *)s.cur, s.cnt, &after));
  /* order within and across shards, read back 256 Mi keys at a time */
  const size_t chunk = (size_t)1 << 28;
  uint32_t *h = malloc(chunk * 4), last = 0;
  size_t bad = 0;
  if (!h) return fprintf(stderr, "gpuprims bench dist: no host memory to check\n"), 1;
  for (int i = 0; i < g; i++) {
    CU(cudaSetDevice(i));
    for (size_t o = 0; o < s.cnt[i]; o += chunk) {
      const size_t m = s.cnt[i] - o < chunk ? s.cnt[i] - o : chunk;
      CU(cudaMemcpy(h, (uint32_t *)s.cur[i] + o, m * 4, cudaMemcpyDeviceToHost));
      for (size_t j = 0; j < m; j++) {
        bad += h[j] < last;
        last = h[j];
      }
    }
    cudaFree(s.cur[i]);
  }
  free(h);
  row("big sort u32: gp_dist_sort", g, n, tg, tg);
  printf("%-28s ordered: %s (%zu descents); key sum kept: %s\n", "", bad ? "NO" : "yes", bad,
         before == after ? "yes" : "NO");
  return bad || before != after;
}

int gp_bench_dist(int argc, char **argv) {
  size_t n = (size_t)1 << 31;
  int g = 2, samples = 5, big = 0;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--n") == 0 && i + 1 < argc) n = strtoull(argv[++i], NULL, 0);
    else if (strcmp(argv[i], "--log2n") == 0 && i + 1 < argc) n = (size_t)1 << atoi(argv[++i]);
    else if (strcmp(argv[i], "--gpus") == 0 && i + 1 < argc) g = atoi(argv[++i]);
    else if (strcmp(argv[i], "--samples") == 0 && i + 1 < argc) samples = atoi(argv[++i]);
    else if (strcmp(argv[i], "--big") == 0) big = 1;
    else {
      printf("usage: gpuprims bench dist [--n N | --log2n K] [--gpus G] [--samples S] [--big]\n"
             "  n u32 keys sorted and n f32 summed over G GPUs of this process (gp_dist_*)\n"
             "  against one GPU (gp_sort, CUB SortKeys, gp_reduce); defaults 2^31, 2, 5.\n"
             "  --big: only the G-GPU sort, data made on each GPU, checked by order and sum.\n");
      return strcmp(argv[i], "--help") == 0 ? 0 : 2;
    }
  }
  if (g < 1 || g > MAXG || samples < 1 || samples > 64 || n < (size_t)g) {
    fprintf(stderr, "gpuprims bench dist: need 1 <= gpus <= %d, 1 <= samples <= 64, n >= gpus\n", MAXG);
    return 2;
  }
  gp_dist *d = NULL;
  if (gp_dist_create_local(&d, g) != GP_OK) {
    fprintf(stderr, "gpuprims bench dist: %s\n", gp_dist_last_error(d));
    gp_dist_destroy(d);
    return 1;
  }
  printf("%-28s %4s %14s %13s %16s %8s\n", "case", "gpus", "n", "median", "rate", "speedup");
  int rc;
  if (big) {
    rc = bench_big(d, g, n);
  } else {
    gp_context *c0 = NULL;
    CU(cudaSetDevice(0));
    if (gp_create(&c0, GP_BACKEND_CUDA) != GP_OK) {
      fprintf(stderr, "gpuprims bench dist: %s\n", gp_last_error(c0));
      gp_destroy(c0);
      gp_dist_destroy(d);
      return 1;
    }
    rc = bench_sort(d, c0, g, n, samples);
    rc |= bench_reduce(d, c0, g, n, samples);
    gp_destroy(c0);
  }
  gp_dist_destroy(d);
  return rc;
}
#else
int gp_bench_dist(int argc, char **argv) {
  (void)argc;
  (void)argv;
  fprintf(stderr, "gpuprims bench dist: needs a build with CUDA and NCCL\n");
  return 1;
}
#endif
