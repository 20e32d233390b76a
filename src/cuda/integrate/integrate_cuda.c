/* CUDA backend of gp_integrate: the per-context modules (memory, then disk, then
 * NVRTC), the device scratch, and the launches of the generated kernel, the
 * interpreted one and the seed's stages. */
#include "cuda/integrate/integrate_cuda.h"

#include "cuda/integrate/codegen.h"
#include "cuda/integrate/disk_cache.h"
#include "cuda/integrate/interp.h"
#include "cuda/integrate/jit.h"
#include "cuda/integrate/trap_seed.h"

#include <cuda_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A loaded kernel, shared by every expression whose generated source is the same. */
typedef struct gp_jit_module {
  char *source;
  void *lib, *kernel; /* cudaLibrary_t, cudaKernel_t */
  struct gp_jit_module *next;
} gp_jit_module;

/* Device scratch: [8] the seed's float
 * accumulator, [16] the ticket counter, [256..] the partial sums. Zeroed once; the
 * kernels leave the counter and accumulator at 0 when they finish. */
#define SCRATCH_SEED_ACC 8
#define SCRATCH_COUNTER 16
#define SCRATCH_PARTIALS 256
#define SCRATCH_BYTES (SCRATCH_PARTIALS + 8 * GP_TRAP_MAX_BLOCKS)

struct gp_cuda_integrate {
  gp_jit_module *modules;
  void *scratch; /* device memory, SCRATCH_BYTES */
  char arch[32]; /* NVRTC's target for this context's device, "sm_90" */
};

static void unload_all(gp_cuda_integrate *c) {
  for (gp_jit_module *m = c->modules, *next; m; m = next) {
    next = m->next;
    gp_jit_unload(m->lib);
    free(m->source);
    free(m);
  }
  c->modules = NULL;
}

void gp_cuda_integrate_free(gp_cuda_integrate *c) {
  if (!c) return;
  unload_all(c);
  if (c->scratch) (void)cudaFree(c->scratch);
  (void)cudaGetLastError();
  free(c);
}

gp_status gp_cuda_integrate_clear(gp_context *ctx, gp_cuda_integrate *c) {
  if (!c) return GP_OK;
  gp_status s = gp_sync_stream(ctx);
  if (s) return s;
  unload_all(c);
  return GP_OK;
}

/* The state, created and its scratch allocated (and zeroed) on first use. */
static gp_status state_of(gp_context *ctx, gp_cuda_integrate **state) {
  if (!*state) {
    gp_cuda_integrate *c = (gp_cuda_integrate *)calloc(1, sizeof *c);
    if (!c) return gp_fail(ctx, GP_ERR_OUT_OF_MEMORY, "out of host memory for the kernel cache");
    gp_nvrtc_arch_for(ctx->info.cc_major, ctx->info.cc_minor, c->arch, sizeof c->arch);
    *state = c;
  }
  gp_cuda_integrate *c = *state;
  if (c->scratch) return GP_OK;
  void *p = NULL;
  GP_CUDA_TRY(ctx, cudaMalloc(&p, SCRATCH_BYTES));
  cudaError_t e = cudaMemset(p, 0, SCRATCH_BYTES);
  if (e == cudaSuccess) e = cudaDeviceSynchronize();
  if (e != cudaSuccess) {
    (void)cudaFree(p);
    return gp_cuda_status(ctx, (int)e, "cudaMemset (integrate scratch)", __FILE__, __LINE__);
  }
  c->scratch = p;
  return GP_OK;
}

/* The source holds the expression, precision, the plan's constants and the kernel's
 * text; the rest names the compiler, its options and the library. */
char *gp_cuda_integrate_cache_key(const char *src, const char *arch, size_t *len) {
  char nvrtc[256], tail[512];
  gp_nvrtc_identity(nvrtc, sizeof nvrtc);
  const int n = snprintf(tail, sizeof tail, "%c%s%cgpuprims %s%c%s", '\0', arch, '\0',
                         gp_version(), '\0', nvrtc);
  if (n <= 0 || (size_t)n >= sizeof tail) return NULL;
  const size_t slen = strlen(src);
  char *key = (char *)malloc(slen + (size_t)n);
  if (!key) return NULL;
  memcpy(key, src, slen);
  memcpy(key + slen, tail, (size_t)n);
  *len = slen + (size_t)n;
  return key;
}

/* A loaded module for src: from the disk cache when a valid entry is there, else
 * compiled by NVRTC and stored there (a store that fails only costs the next process a
 * compile). */
static gp_status load_module(gp_context *ctx, gp_cuda_integrate *c, const char *src,
                             int compile, void **lib, void **kernel) {
  char dir[4096];
  const int cached = gp_disk_cache_dir(dir, sizeof dir) == 0;
  size_t key_len = 0;
  char *key = cached ? gp_cuda_integrate_cache_key(src, c->arch, &key_len) : NULL;
  void *image = NULL;
  size_t size = 0;
  gp_status s = GP_OK;
  if (key && gp_disk_cache_load(dir, key, key_len, &image, &size) == 0) {
    s = gp_jit_load(ctx, image, GP_CODEGEN_KERNEL_NAME, lib, kernel);
    free(image);
    if (s == GP_OK) {
      free(key);
      return GP_OK;
    }
    /* an entry the driver rejects is compiled afresh and replaced */
    gp_clear_error(ctx);
  }
  if (!compile) { /* the caller runs the interpreter instead */
    free(key);
    *lib = *kernel = NULL;
    return GP_OK;
  }
  char log[GP_ERROR_LEN - 64];
  if (gp_nvrtc_compile(src, c->arch, (char **)&image, &size, log, sizeof log)) {
    free(key);
    return gp_fail(ctx, GP_ERR_CUDA, "compiling the expression's kernel: %s", log);
  }
  s = gp_jit_load(ctx, image, GP_CODEGEN_KERNEL_NAME, lib, kernel);
  if (s == GP_OK && key) (void)gp_disk_cache_store(dir, key, key_len, image, size);
  free(image);
  free(key);
  return s;
}

gp_status gp_cuda_integrate_kernel(gp_context *ctx, gp_cuda_integrate **state,
                                   const gp_expr *e, gp_dtype precision, int compile,
                                   void **kernel, double *compile_s) {
  *compile_s = 0;
  *kernel = NULL;
  gp_status s = state_of(ctx, state);
  if (s) return s;
  gp_cuda_integrate *c = *state;
  char *src = NULL;
  if (gp_codegen_integrate(e, precision, gp_trap_fold(precision), &src))
    return gp_fail(ctx, GP_ERR_OUT_OF_MEMORY, "out of host memory generating CUDA source");
  for (gp_jit_module *m = c->modules; m; m = m->next)
    if (strcmp(m->source, src) == 0) {
      free(src);
      *kernel = m->kernel;
      return GP_OK;
    }
  gp_jit_module *m = (gp_jit_module *)calloc(1, sizeof *m);
  if (!m) {
    free(src);
    return gp_fail(ctx, GP_ERR_OUT_OF_MEMORY, "out of host memory for a compiled module");
  }
  const double t0 = gp_wall_seconds();
  s = load_module(ctx, c, src, compile, &m->lib, &m->kernel);
  if (s || !m->kernel) { /* failed, or nothing cached and no compile asked for */
    free(src);
    free(m);
    return s;
  }
  *compile_s = gp_wall_seconds() - t0;
  m->source = src;
  m->next = c->modules;
  c->modules = m;
  *kernel = m->kernel;
  return GP_OK;
}

gp_status gp_cuda_integrate_launch(gp_context *ctx, gp_cuda_integrate **state, void *kernel,
                                   const gp_trap_plan *p, double *out) {
  gp_status s = state_of(ctx, state);
  if (s) return s;
  char *scr = (char *)(*state)->scratch;
  double *partials = (double *)(scr + SCRATCH_PARTIALS);
  unsigned int *counter = (unsigned int *)(scr + SCRATCH_COUNTER);
  double a = p->a, b = p->b, h = p->h;
  unsigned long long m = p->m, tiles = p->tiles;
  void *args[] = {&a, &b, &h, &m, &tiles, &partials, &counter, &out};
  return gp_jit_launch(ctx, kernel, p->grid, GP_TRAP_THREADS, args);
}

gp_status gp_cuda_integrate_interp(gp_context *ctx, gp_cuda_integrate **state,
                                   const gp_interp_prog *prog, const gp_trap_plan *p,
                                   double *out) {
  gp_status s = state_of(ctx, state);
  if (s) return s;
  char *scr = (char *)(*state)->scratch;
  double *partials = (double *)(scr + SCRATCH_PARTIALS);
  unsigned int *counter = (unsigned int *)(scr + SCRATCH_COUNTER);
  return p->precision == GP_F32 ? gp_cuda_trap_interp_f32(ctx, prog, p, partials, counter, out)
                                : gp_cuda_trap_interp_f64(ctx, prog, p, partials, counter, out);
}

gp_status gp_cuda_integrate_seed(gp_context *ctx, gp_cuda_integrate **state, int stage,
                                 float a, float b, uint64_t n, double *out) {
  gp_status s = state_of(ctx, state);
  if (s) return s;
  char *scr = (char *)(*state)->scratch;
  const float h = (b - a) / (float)n;
  return gp_cuda_trap_seed(ctx, stage, a, b, h, n, (float *)(scr + SCRATCH_SEED_ACC), out);
}
