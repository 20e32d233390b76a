/* jit_compile_bench EXPR f32|f64 [warm] [cuda]: the wall time of one NVRTC compile of
 * the integrate kernel for EXPR to an sm_90 CUBIN, as the first gp_integrate of a
 * process runs it (the library's source and options; GPUPRIMS_JIT_FAST honoured).
 * Needs NVRTC, no GPU. Prints "compile_ms=T cubin_bytes=N cpu_ms=T faults=N" (the
 * process's CPU time, all threads, and major page faults during the compile: a wall
 * time far above the CPU time is waiting, not compiling).
 *   warm  first compiles an empty kernel (the process's one-time NVRTC start), timed
 *         apart: "... empty_ms=T empty_cpu_ms=T empty_faults=N"
 *   cuda  creates a CUDA context first, as gp_integrate's caller has (a GPU needed),
 *         timed apart: "... context_ms=T"
 * scripts/jit_compile_times.sh runs it over expressions, precisions and
 * GPUPRIMS_JIT_FAST levels, one fresh process per sample. */
#define _POSIX_C_SOURCE 200809L
#include "cuda/integrate/jit.h"
#include "gpuprims.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

static double cpu_ms(long *majflt) {
  struct rusage u;
  getrusage(RUSAGE_SELF, &u);
  *majflt = u.ru_majflt;
  return (double)(u.ru_utime.tv_sec + u.ru_stime.tv_sec) * 1e3 +
         (double)(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e3;
}

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

int main(int argc, char **argv) {
  int warm = 0, cuda = 0, bad = argc < 3 || (strcmp(argv[2], "f32") && strcmp(argv[2], "f64"));
  for (int i = 3; i < argc; i++) {
    if (strcmp(argv[i], "warm") == 0) warm = 1;
    else if (strcmp(argv[i], "cuda") == 0) cuda = 1;
    else bad = 1;
  }
  if (bad) {
    fprintf(stderr, "usage: %s EXPR f32|f64 [warm] [cuda]\n", argv[0]);
    return 2;
  }
  const gp_dtype prec = strcmp(argv[2], "f32") == 0 ? GP_F32 : GP_F64;
  gp_context *ctx = NULL;
  const double c0 = now_ms();
  if (gp_create(&ctx, cuda ? GP_BACKEND_CUDA : GP_BACKEND_CPU) != GP_OK) {
    fprintf(stderr, "gp_create: %s\n", gp_last_error(ctx));
    return 1;
  }
  const double context_ms = now_ms() - c0;
  size_t need = 0;
  char *src = NULL;
  if (gp_integrate_source(ctx, argv[1], prec, NULL, 0, &need) != GP_OK ||
      !(src = (char *)malloc(need)) ||
      gp_integrate_source(ctx, argv[1], prec, src, need, NULL) != GP_OK) {
    fprintf(stderr, "%s\n", src ? gp_last_error(ctx) : "out of memory");
    return 1;
  }
  char log[4096], *img = NULL;
  size_t size = 0;
  double empty_ms = 0, empty_cpu = 0;
  long ef0 = 0, ef1 = 0;
  if (warm) {
    const double ec0 = cpu_ms(&ef0);
    const double w0 = now_ms();
    if (gp_nvrtc_compile("extern \"C\" __global__ void k() {}", "sm_90", &img, &size, log,
                         sizeof log)) {
      fprintf(stderr, "%s\n", log);
      return 1;
    }
    free(img);
    img = NULL;
    empty_ms = now_ms() - w0;
    empty_cpu = cpu_ms(&ef1) - ec0;
  }
  long f0, f1;
  const double u0 = cpu_ms(&f0);
  const double t0 = now_ms();
  const int rc = gp_nvrtc_compile(src, "sm_90", &img, &size, log, sizeof log);
  const double t1 = now_ms();
  if (rc) {
    fprintf(stderr, "%s\n", log);
    return 1;
  }
  const double u1 = cpu_ms(&f1);
  printf("compile_ms=%.1f cubin_bytes=%zu cpu_ms=%.1f faults=%ld", t1 - t0, size, u1 - u0,
         f1 - f0);
  if (warm)
    printf(" empty_ms=%.1f empty_cpu_ms=%.1f empty_faults=%ld", empty_ms, empty_cpu, ef1 - ef0);
  if (cuda) printf(" context_ms=%.1f", context_ms);
  printf("\n");
  free(img);
  free(src);
  gp_destroy(ctx);
  return 0;
}
