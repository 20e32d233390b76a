/* jit_compile_bench EXPR f32|f64 [ARCH [warm]]: the wall time of one compile of the integrate
 * kernel for EXPR to an ARCH (default sm_90) CUBIN, as the first gp_integrate of a
 * process runs it (the library's source, options and path: the split JIT unless
 * GPUPRIMS_JIT_SPLIT=0 or the build has no prebuilt kernel for ARCH; GPUPRIMS_JIT_FAST
 * honoured). Needs NVRTC, no GPU. Prints "compile_ms=T cubin_bytes=N split=0|1". With
 * "warm", first loads nvJitLink and compiles an empty kernel (the process's one-time
 * NVRTC start), timed apart: "... load_ms=T empty_ms=T".
 * scripts/jit_compile_times.sh runs it over expressions, precisions and settings, one
 * fresh process per sample. */
#define _POSIX_C_SOURCE 200809L
#include "core/expr.h"
#include "cuda/integrate/integrate_cuda.h"
#include "cuda/integrate/jit.h"
#include "cuda/integrate/jit_split.h"
#include "gpuprims.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

int main(int argc, char **argv) {
  if (argc < 3 || argc > 5 || (strcmp(argv[2], "f32") && strcmp(argv[2], "f64")) ||
      (argc == 5 && strcmp(argv[4], "warm"))) {
    fprintf(stderr, "usage: %s EXPR f32|f64 [ARCH [warm]]\n", argv[0]);
    return 2;
  }
  const gp_dtype prec = strcmp(argv[2], "f32") == 0 ? GP_F32 : GP_F64;
  gp_context *ctx = NULL;
  if (gp_create(&ctx, GP_BACKEND_CPU) != GP_OK) {
    fprintf(stderr, "gp_create: %s\n", gp_last_error(ctx));
    return 1;
  }
  size_t need = 0;
  char *src = NULL;
  if (gp_integrate_source(ctx, argv[1], prec, NULL, 0, &need) != GP_OK ||
      !(src = (char *)malloc(need)) ||
      gp_integrate_source(ctx, argv[1], prec, src, need, NULL) != GP_OK) {
    fprintf(stderr, "%s\n", src ? gp_last_error(ctx) : "out of memory");
    return 1;
  }
  gp_expr e;
  char log[4096];
  if (gp_expr_parse(argv[1], &e, log, sizeof log)) {
    fprintf(stderr, "%s\n", log);
    return 1;
  }
  const char *arch = argc > 3 ? argv[3] : "sm_90";
  double load_ms = 0, empty_ms = 0;
  if (argc == 5) {
    const double w0 = now_ms();
    (void)gp_jit_split_usable(arch, NULL, 0);
    const double w1 = now_ms();
    char *empty = NULL;
    size_t esize = 0;
    if (gp_nvrtc_compile("extern \"C\" __global__ void k() {}", arch, 0, &empty, &esize, log,
                         sizeof log)) {
      fprintf(stderr, "%s\n", log);
      return 1;
    }
    free(empty);
    load_ms = w1 - w0;
    empty_ms = now_ms() - w1;
  }
  void *img = NULL;
  size_t size = 0;
  int split = 0;
  const double t0 = now_ms();
  const int rc = gp_cuda_integrate_compile(arch, &e, prec, src, &img, &size, &split, log,
                                           sizeof log);
  const double t1 = now_ms();
  if (rc) {
    fprintf(stderr, "%s\n", log);
    return 1;
  }
  printf("compile_ms=%.1f cubin_bytes=%zu split=%d", t1 - t0, size, split);
  if (argc == 5) printf(" load_ms=%.1f empty_ms=%.1f", load_ms, empty_ms);
  printf("\n");
  free(img);
  gp_expr_free(&e);
  free(src);
  gp_destroy(ctx);
  return 0;
}
