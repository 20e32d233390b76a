/* `gpuprims bench host`: the host side of the public API, timed as a caller sees it
 * (wall clock, back-to-back calls, median): scalar results delivered to host memory
 * against device memory, arrays from pageable and pinned host memory, and the plain
 * cudaMemcpy rates of the link as the reference. Both host-wait modes are measured
 * (GPUPRIMS_HOST_WAIT=sync|spin, one context each). */
#define _POSIX_C_SOURCE 200809L
#include "suites.h"
#include "harness.h"
#include "harness_kernels.h"

#include <gpuprims.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if GP_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

#define MAX_REPS 4096

typedef struct host_opts {
  int reps;
  FILE *json;
  int rows;
} host_opts;

static int cmp_d(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}
static double median(double *t, int n) {
  qsort(t, (size_t)n, sizeof *t, cmp_d);
  return t[n / 2];
}

static void row(host_opts *o, const char *what, const char *mode, double n, double us,
                double gbs) {
  printf("%-34s %-5s %12.0f %12.2f %10.2f\n", what, mode, n, us, gbs);
  if (o->json)
    fprintf(o->json, "%s  {\"case\": \"%s\", \"wait\": \"%s\", \"n\": %.0f, \"median_us\": %.3f, \"gbs\": %.3f}",
            o->rows ? ",\n" : "", what, mode, n, us, gbs);
  o->rows++;
}

#if GP_HAVE_CUDA
/* Median wall time (us) of `reps` back-to-back gp_reduce calls. */
static double time_reduce(gp_context *ctx, gp_op op, gp_dtype t, const void *in, size_t n,
                          void *out, int sync_after, int reps) {
  double ts[MAX_REPS];
  for (int r = -3; r < reps; r++) {
    double t0 = gpb_wall_seconds();
    if (gp_reduce(ctx, op, t, in, n, out, GP_REDUCE_AUTO) != GP_OK) return -1;
    if (sync_after && gp_synchronize(ctx) != GP_OK) return -1;
    if (r >= 0) ts[r] = (gpb_wall_seconds() - t0) * 1e6;
  }
  return median(ts, reps);
}

static int scalar_cases(gp_context *ctx, const char *mode, host_opts *o) {
  const size_t sizes[] = {(size_t)1 << 10, (size_t)1 << 20, (size_t)1 << 22};
  float *d_in = NULL;
  double *d_out = NULL, h_out = 0;
  if (cudaMalloc((void **)&d_in, sizes[2] * sizeof(float)) != cudaSuccess ||
      cudaMalloc((void **)&d_out, sizeof(double)) != cudaSuccess) {
    fprintf(stderr, "bench host: cudaMalloc failed\n");
    return 1;
  }
  (void)cudaMemset(d_in, 0x3c, sizes[2] * sizeof(float));
  for (int i = 0; i < 3; i++) {
    double dev = time_reduce(ctx, GP_SUM, GP_F32, d_in, sizes[i], d_out, 1, o->reps);
    double host = time_reduce(ctx, GP_SUM, GP_F32, d_in, sizes[i], &h_out, 0, o->reps);
    /* MIN: the plain one-launch kernel (no exact fold), the same host path */
    float h_min = 0;
    double hmin = time_reduce(ctx, GP_MIN, GP_F32, d_in, sizes[i], &h_min, 0, o->reps);
    if (dev < 0 || host < 0 || hmin < 0) {
      fprintf(stderr, "bench host: gp_reduce failed: %s\n", gp_last_error(ctx));
      return 1;
    }
    double call = time_reduce(ctx, GP_SUM, GP_F32, d_in, sizes[i], d_out, 0, o->reps);
    if (gp_synchronize(ctx) != GP_OK) return 1;
    row(o, "reduce f32 sum, device, call only", mode, (double)sizes[i], call, 0);
    row(o, "reduce f32 sum, device result", mode, (double)sizes[i], dev, 0);
    row(o, "reduce f32 sum, host result", mode, (double)sizes[i], host, 0);
    row(o, "reduce f32 min, host result", mode, (double)sizes[i], hmin, 0);
  }
  double ts[MAX_REPS], r = 0;
  for (int k = -3; k < o->reps; k++) {
    double t0 = gpb_wall_seconds();
    if (gp_synchronize(ctx) != GP_OK) return 1;
    if (k >= 0) ts[k] = (gpb_wall_seconds() - t0) * 1e6;
  }
  row(o, "gp_synchronize of an idle stream", mode, 0, median(ts, o->reps), 0);
  for (int k = -3; k < o->reps; k++) {
    double t0 = gpb_wall_seconds();
    if (gp_integrate(ctx, "x^2", 0, 1, 1 << 10, &r) != GP_OK) return 1;
    if (k >= 0) ts[k] = (gpb_wall_seconds() - t0) * 1e6;
  }
  row(o, "integrate f64 x^2, host result", mode, 1024, median(ts, o->reps), 0);
  /* floors for the rows above, straight from the runtime: what one pointer-kind query,
   * one stream operation waited for, one empty kernel waited for, and one 4-byte
   * result copy cost */
  cudaStream_t st = 0; /* the context's: gp_create leaves the default stream */
  struct cudaPointerAttributes pa;
  float h_small = 0;
  static const char *const refs[4] = {"ref: cudaPointerGetAttributes",
                                      "ref: 4 B memset + stream sync",
                                      "ref: empty kernel + stream sync",
                                      "ref: 4 B D2H copy + stream sync"};
  for (int c = 0; c < 4; c++) {
    for (int k = -3; k < o->reps; k++) {
      double t0 = gpb_wall_seconds();
      cudaError_t e = c == 0   ? cudaPointerGetAttributes(&pa, d_in)
                      : c == 1 ? cudaMemsetAsync(d_out, 0, 4, st)
                      : c == 2 ? (cudaError_t)gpb_cuda_empty(st)
                               : cudaMemcpyAsync(&h_small, d_in, 4, cudaMemcpyDeviceToHost, st);
      if (e == cudaSuccess && c) e = cudaStreamSynchronize(st);
      if (e != cudaSuccess) return 1;
      if (k >= 0) ts[k] = (gpb_wall_seconds() - t0) * 1e6;
    }
    row(o, refs[c], mode, 0, median(ts, o->reps), 0);
  }
  /* the same empty kernel announcing itself: it sets a flag in mapped host memory and
     the host polls it, no stream wait */
  volatile unsigned *flag_h = NULL;
  unsigned *flag_d = NULL;
  if (cudaHostAlloc((void **)&flag_h, 64, cudaHostAllocMapped) == cudaSuccess &&
      cudaHostGetDevicePointer((void **)&flag_d, (void *)flag_h, 0) == cudaSuccess) {
    *flag_h = 0;
    for (int k = -3; k < o->reps; k++) {
      const unsigned seq = (unsigned)(k + 4);
      double t0 = gpb_wall_seconds();
      if (gpb_cuda_flag(st, flag_d, seq) != 0) return 1;
      while (*flag_h != seq)
        if (gpb_wall_seconds() - t0 > 1.0) return 1; /* the kernel never ran */
      if (k >= 0) ts[k] = (gpb_wall_seconds() - t0) * 1e6;
    }
    row(o, "ref: empty kernel + host polls its flag", mode, 0, median(ts, o->reps), 0);
    if (cudaStreamSynchronize(st) != cudaSuccess) return 1;
  }
  if (flag_h) cudaFreeHost((void *)flag_h);
  cudaFree(d_in);
  cudaFree(d_out);
  return 0;
}

/* Reduce of n f32 from `in` (host memory of some kind) to a host result: GB/s. */
static int array_case(gp_context *ctx, const char *what, const char *mode, const float *in,
                      size_t n, host_opts *o) {
  double ts[16], out;
  int reps = o->reps < 5 ? o->reps : 5;
  for (int r = -1; r < reps; r++) {
    double t0 = gpb_wall_seconds();
    if (gp_reduce(ctx, GP_SUM, GP_F32, in, n, &out, GP_REDUCE_AUTO) != GP_OK) {
      fprintf(stderr, "bench host: %s\n", gp_last_error(ctx));
      return 1;
    }
    if (r >= 0) ts[r] = gpb_wall_seconds() - t0;
  }
  double s = median(ts, reps);
  row(o, what, mode, (double)n, s * 1e6, (double)n * 4 / s / 1e9);
  return 0;
}

static int sort_case(gp_context *ctx, const char *mode, size_t n, host_opts *o) {
  uint32_t *src = (uint32_t *)malloc(n * 4), *keys = (uint32_t *)malloc(n * 4);
  if (!src || !keys) return 1;
  uint64_t x = 88172645463325252ull;
  for (size_t i = 0; i < n; i++) {
    x ^= x << 13; x ^= x >> 7; x ^= x << 17;
    src[i] = (uint32_t)x;
  }
  double ts[16];
  int reps = o->reps < 5 ? o->reps : 5;
  for (int r = -1; r < reps; r++) {
    memcpy(keys, src, n * 4);
    double t0 = gpb_wall_seconds();
    if (gp_sort(ctx, GP_U32, keys, n, GP_ASCENDING, GP_SORT_AUTO) != GP_OK) {
      fprintf(stderr, "bench host: %s\n", gp_last_error(ctx));
      return 1;
    }
    if (r >= 0) ts[r] = gpb_wall_seconds() - t0;
  }
  double s = median(ts, reps);
  row(o, "sort u32 from pageable", mode, (double)n, s * 1e6, (double)n * 8 / s / 1e9);
  free(src);
  free(keys);
  return 0;
}

static int link_cases(host_opts *o, size_t bytes) {
  void *pageable = malloc(bytes), *pinned = NULL, *dev = NULL;
  if (!pageable || cudaMallocHost(&pinned, bytes) != cudaSuccess ||
      cudaMalloc(&dev, bytes) != cudaSuccess)
    return 1;
  memset(pageable, 1, bytes);
  memset(pinned, 1, bytes);
  const void *srcs[2] = {pageable, pinned};
  const char *names[2] = {"cudaMemcpy H2D pageable", "cudaMemcpy H2D pinned"};
  for (int k = 0; k < 2; k++) {
    double ts[8];
    for (int r = -1; r < 5; r++) {
      double t0 = gpb_wall_seconds();
      if (cudaMemcpy(dev, srcs[k], bytes, cudaMemcpyHostToDevice) != cudaSuccess) return 1;
      if (r >= 0) ts[r] = gpb_wall_seconds() - t0;
    }
    double s = median(ts, 5);
    row(o, names[k], "-", (double)bytes, s * 1e6, (double)bytes / s / 1e9);
  }
  free(pageable);
  cudaFreeHost(pinned);
  cudaFree(dev);
  return 0;
}

static int run_mode(const char *mode, size_t big, host_opts *o) {
  setenv("GPUPRIMS_HOST_WAIT", mode, 1);
  gp_context *ctx = NULL;
  if (gp_create(&ctx, GP_BACKEND_CUDA) != GP_OK) {
    fprintf(stderr, "bench host: %s\n", gp_last_error(ctx));
    gp_destroy(ctx);
    return 77;
  }
  int rc = scalar_cases(ctx, mode, o);
  if (!rc && big) {
    float *pageable = (float *)malloc(big * 4), *pinned = NULL;
    if (!pageable || gp_host_alloc(ctx, (void **)&pinned, big * 4) != GP_OK) rc = 1;
    for (size_t i = 0; !rc && i < big; i++) pageable[i] = pinned[i] = (float)(i & 1023);
    if (!rc) rc = array_case(ctx, "reduce f32 from pageable", mode, pageable, big, o);
    if (!rc) rc = array_case(ctx, "reduce f32 from pinned", mode, pinned, big, o);
    free(pageable);
    gp_host_free(ctx, pinned);
    if (!rc) rc = sort_case(ctx, mode, (size_t)1 << 24, o);
  }
  gp_destroy(ctx);
  return rc;
}
#endif

int gp_bench_host(int argc, char **argv) {
  host_opts o = {200, NULL, 0};
  size_t big = (size_t)1 << 28;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--reps") == 0 && i + 1 < argc) {
      o.reps = atoi(argv[++i]);
    } else if (strcmp(argv[i], "--big") == 0 && i + 1 < argc) {
      big = (size_t)strtoull(argv[++i], NULL, 0);
    } else if (strcmp(argv[i], "--json") == 0 && i + 1 < argc) {
      if (!(o.json = fopen(argv[++i], "w"))) {
        fprintf(stderr, "bench host: cannot write %s\n", argv[i]);
        return 1;
      }
    } else {
      printf("usage: gpuprims bench host [--reps N] [--big N] [--json FILE]\n"
             "Wall clock, back-to-back calls, medians: scalar results to host vs device\n"
             "memory (both GPUPRIMS_HOST_WAIT modes; SUM, and MIN for the plain kernel),\n"
             "the runtime's floors under them (an empty kernel, a 4-byte memset and a\n"
             "4-byte copy, each waited for), gp_reduce of --big f32 (default 2^28;\n"
             "0 skips) from pageable and pinned memory, gp_sort of 2^24 u32 from pageable\n"
             "memory, and cudaMemcpy H2D of 1 GiB as the link's reference.\n");
      return strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0 ? 0 : 2;
    }
  }
  if (o.reps < 1) o.reps = 1;
  if (o.reps > MAX_REPS) o.reps = MAX_REPS;
#if GP_HAVE_CUDA
  if (o.json) fprintf(o.json, "{\"suite\": \"host\", \"rows\": [\n");
  printf("%-34s %-5s %12s %12s %10s\n", "case", "wait", "n", "median_us", "GB/s");
  int rc = run_mode("sync", big, &o);
  if (!rc) rc = run_mode("spin", 0, &o);
  if (!rc && big) rc = link_cases(&o, (size_t)1 << 30);
  if (o.json) {
    fprintf(o.json, "\n]}\n");
    fclose(o.json);
  }
  return rc;
#else
  if (o.json) fclose(o.json);
  fprintf(stderr, "bench host: built without CUDA; nothing to measure\n");
  return 77;
#endif
}
