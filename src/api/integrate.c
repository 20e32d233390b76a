/* gp_integrate and friends: argument checks, the per-context cache of parsed
 * expressions (each with its kernel on CUDA), the choice of backend and the delivery of
 * results; plus gp_trap_seed, the seed's three stages. */
#define _POSIX_C_SOURCE 200809L
#include "core/integrate.h"
#include "cpu/integrate_cpu.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if GP_HAVE_CUDA
#include "cuda/integrate/codegen.h"
#include "cuda/integrate/integrate_cuda.h"
#include "cuda/integrate/interp.h"
#include "api/deliver.h"
#include "core/host_io.h"
#endif

/* One (text, precision) the context has seen: its parsed form and, on CUDA, its
 * compiled kernel or its program for the interpreted one. */
typedef struct gp_jit_entry {
  char *text;
  gp_dtype precision;
  gp_expr expr;
  void *kernel; /* cudaKernel_t; NULL on the CPU backend and until compiled */
#if GP_HAVE_CUDA
  gp_interp_prog *prog; /* NULL when the expression does not fit the interpreter */
  double rent;          /* seconds the interpreter has cost it (GP_INTERP_COMPILE_S) */
#endif
  struct gp_jit_entry *next;
} gp_jit_entry;

#define GP_JIT_MAX_ENTRIES 256

/* When a CUDA context compiles an expression (GPUPRIMS_JIT, read once per context):
 * AUTO interprets it until the interpreter's extra time would pass a compile's
 * (interp.h), ALWAYS compiles at first use, NEVER interprets wherever the program fits. */
typedef enum { GP_JIT_AUTO, GP_JIT_ALWAYS, GP_JIT_NEVER } gp_jit_mode;

struct gp_jit_cache {
  gp_jit_entry *entries;
  gp_jit_entry *last; /* the entry the last call used: repeated calls skip the list */
  int nentries;
  gp_jit_mode mode;
#if GP_HAVE_CUDA
  gp_cuda_integrate *cuda; /* the compiled kernels and the device scratch */
#endif
};

static void entries_clear(struct gp_jit_cache *c) {
  for (gp_jit_entry *e = c->entries, *next; e; e = next) {
    next = e->next;
    free(e->text);
    gp_expr_free(&e->expr);
#if GP_HAVE_CUDA
    free(e->prog);
#endif
    free(e);
  }
  c->entries = NULL;
  c->last = NULL;
  c->nentries = 0;
}

static void cache_free(struct gp_jit_cache *c) {
  if (!c) return;
  entries_clear(c);
#if GP_HAVE_CUDA
  gp_cuda_integrate_free(c->cuda);
#endif
  free(c);
}

static gp_status get_cache(gp_context *ctx, struct gp_jit_cache **out) {
  if (!ctx->jit) {
    const char *m = getenv("GPUPRIMS_JIT");
    gp_jit_mode mode = GP_JIT_AUTO;
    if (m && *m && strcmp(m, "auto") != 0) {
      if (strcmp(m, "always") == 0) mode = GP_JIT_ALWAYS;
      else if (strcmp(m, "never") == 0) mode = GP_JIT_NEVER;
      else
        return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT,
                       "GPUPRIMS_JIT=%.64s: use auto (the default), always or never", m);
    }
    struct gp_jit_cache *c = (struct gp_jit_cache *)calloc(1, sizeof *c);
    if (!c) return gp_fail(ctx, GP_ERR_OUT_OF_MEMORY, "out of host memory for the expression cache");
    c->mode = mode;
    ctx->jit = c;
    ctx->jit_free = cache_free;
  }
  *out = ctx->jit;
  return GP_OK;
}

/* Bounded memory: past GP_JIT_MAX_ENTRIES the context forgets every expression once
 * (and on CUDA unloads the kernels, after the stream drains). */
static gp_status make_room(gp_context *ctx, struct gp_jit_cache *c) {
  if (c->nentries < GP_JIT_MAX_ENTRIES) return GP_OK;
#if GP_HAVE_CUDA
  gp_status s = gp_cuda_integrate_clear(ctx, c->cuda);
  if (s) return s;
#else
  (void)ctx;
#endif
  entries_clear(c);
  return GP_OK;
}

static void entry_free(gp_jit_entry *en) {
  gp_expr_free(&en->expr);
#if GP_HAVE_CUDA
  free(en->prog);
#endif
  free(en->text);
  free(en);
}

#if GP_HAVE_CUDA
/* Gets en's compiled kernel: from the context's modules or the disk cache, and with
 * `compile` from NVRTC too (*compile_s: seconds spent). Without it en->kernel may stay
 * NULL: en runs interpreted. */
static gp_status get_kernel(gp_context *ctx, struct gp_jit_cache *c, gp_jit_entry *en,
                            int compile, double *compile_s) {
  if (en->kernel) return GP_OK;
  if (!compile && en->prog && c->mode == GP_JIT_NEVER) return GP_OK; /* not even the disk's */
  return gp_cuda_integrate_kernel(ctx, &c->cuda, &en->expr, en->precision,
                                  compile || !en->prog || c->mode == GP_JIT_ALWAYS,
                                  &en->kernel, compile_s);
}
#endif

/* Finds or creates the cache entry for (text, precision): parses (GP_ERR_PARSE with the
 * column on failure) and, on CUDA, gets its program for the interpreter and a compiled
 * kernel when one is at hand or `compile` asks for one (*compile_s: seconds spent). */
static gp_status lookup(gp_context *ctx, const char *text, gp_dtype precision, int compile,
                        gp_jit_entry **out, double *compile_s) {
  *compile_s = 0;
  struct gp_jit_cache *c = NULL;
  gp_status s = get_cache(ctx, &c);
  if (s) return s;
  gp_jit_entry *found = c->last;
  if (!found || found->precision != precision || strcmp(found->text, text) != 0)
    for (found = c->entries; found; found = found->next)
      if (found->precision == precision && strcmp(found->text, text) == 0) break;
  if (found) {
    *out = c->last = found;
#if GP_HAVE_CUDA
    if (compile && ctx->backend == GP_BACKEND_CUDA)
      return get_kernel(ctx, c, found, c->mode != GP_JIT_NEVER, compile_s);
#endif
    return GP_OK;
  }
  gp_jit_entry *en = (gp_jit_entry *)calloc(1, sizeof *en);
  char err[512];
  if (!en || !(en->text = strdup(text))) {
    free(en);
    return gp_fail(ctx, GP_ERR_OUT_OF_MEMORY, "out of host memory for the expression cache");
  }
  en->precision = precision;
  if (gp_expr_parse(text, &en->expr, err, sizeof err)) {
    entry_free(en);
    return gp_fail(ctx, GP_ERR_PARSE, "expression: %s", err);
  }
  s = make_room(ctx, c);
#if GP_HAVE_CUDA
  if (s == GP_OK && ctx->backend == GP_BACKEND_CUDA) {
    if (c->mode != GP_JIT_ALWAYS) {
      en->prog = (gp_interp_prog *)malloc(sizeof *en->prog);
      if (!en->prog) s = gp_fail(ctx, GP_ERR_OUT_OF_MEMORY, "out of host memory for the expression cache");
      else if (gp_interp_build(&en->expr, en->prog)) {
        free(en->prog);
        en->prog = NULL;
      }
    }
    if (s == GP_OK) s = get_kernel(ctx, c, en, compile && c->mode != GP_JIT_NEVER, compile_s);
  }
#endif
  if (s) {
    entry_free(en);
    return s;
  }
  en->next = c->entries;
  c->entries = en;
  c->nentries++;
  *out = c->last = en;
  return GP_OK;
}

static gp_status check_args(gp_context *ctx, const char *expr, double a, double b,
                            uint64_t n, gp_dtype precision) {
  if (!expr) return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT, "expr is NULL: pass an expression in x, e.g. \"x^2\"");
  if (precision != GP_F32 && precision != GP_F64) {
    if ((unsigned)precision < GP_DTYPE_COUNT)
      return gp_fail(ctx, GP_ERR_UNSUPPORTED,
                     "precision %s: integration evaluates in GP_F32 or GP_F64",
                     gp_dtype_name(precision));
    return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT,
                   "unknown precision %d: use GP_F32 or GP_F64", (int)precision);
  }
  if (!isfinite(a) || !isfinite(b))
    return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT,
                   "the interval must be finite (a = %g, b = %g)", a, b);
  if (n == 0)
    return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT,
                   "n = 0 trapezoids: n must be at least 1");
  if (n > GP_TRAP_MAX_N)
    return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT,
                   "n = %llu trapezoids is more than 2^40 (%llu)", (unsigned long long)n,
                   (unsigned long long)GP_TRAP_MAX_N);
  if (!isfinite(b - a))
    return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT,
                   "b - a overflows (a = %g, b = %g): use a narrower interval", a, b);
  return GP_OK;
}

static gp_status not_finite(gp_context *ctx, const char *expr, double r, double a, double b) {
  return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT,
                 "the trapezoid sum of '%.200s' over [%g, %g] is not finite (%s): f is "
                 "infinite or undefined at a sample point (e.g. 1/x with x = 0 a node, log "
                 "or sqrt of a negative number); change [a, b] or n so no node hits it",
                 expr, a, b, isnan(r) ? "nan" : r > 0 ? "+inf" : "-inf");
}

/* gp_integrate_ex and gp_integrate_device. device_result: the caller says result is
 * device (or managed) memory, so the CUDA path skips cudaPointerGetAttributes (~0.5 us
 * of host time per call, on the GPU's critical path when it is idle). */
static gp_status integrate(gp_context *ctx, const char *expr, double a, double b,
                           uint64_t n, gp_dtype precision, double *result,
                           int device_result) {
  gp_status s = gp_check_ctx(ctx);
  if (s) return s;
  (void)device_result; /* only the CUDA path uses it */
  if (!result) return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT, "result is NULL");
  s = check_args(ctx, expr, a, b, n, precision);
  if (s) return s;
  gp_jit_entry *en;
  double compile_s = 0;
  s = lookup(ctx, expr, precision, 0, &en, &compile_s);
  if (s) return s;
  gp_trap_plan p;
  gp_trap_plan_make(&p, a, b, n, precision);
#if GP_HAVE_CUDA
  if (ctx->backend == GP_BACKEND_CUDA) {
    gp_mem_kind kind = GP_MEM_DEVICE;
    if (!device_result || ctx->debug_sync) kind = gp_mem_kind_of(ctx, result);
    if (device_result && kind == GP_MEM_HOST)
      return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT,
                     "gp_integrate_device: result (%p) is host memory: pass device memory, "
                     "or call gp_integrate_ex", (void *)result);
    struct gp_jit_cache *c = ctx->jit;
    if (!en->kernel) { /* rent (interpret) or buy (compile): interp.h */
      const double cost =
          gp_interp_extra_s(precision == GP_F32, (double)p.m + 2.0, en->prog->ncode);
      if (c->mode != GP_JIT_NEVER && en->rent + cost > GP_INTERP_COMPILE_S) {
        if ((s = get_kernel(ctx, c, en, 1, &compile_s))) return s;
      } else {
        en->rent += cost;
      }
    }
    double *out = result;
    void *slot_host;
    if (kind == GP_MEM_HOST && (s = gp_result_slot(ctx, &slot_host, (void **)&out))) return s;
    s = en->kernel ? gp_cuda_integrate_launch(ctx, &c->cuda, en->kernel, &p, out)
                   : gp_cuda_integrate_interp(ctx, &c->cuda, en->prog, &p, out);
    if (s || kind != GP_MEM_HOST) return s;
    double r;
    s = gp_deliver_scalar(ctx, &r, sizeof r);
    if (s) return s;
    if (!isfinite(r)) return not_finite(ctx, expr, r, a, b);
    *result = r;
    return GP_OK;
  }
#endif
  s = gp_require_host(ctx, result, "result");
  if (s) return s;
  double r;
  s = gp_cpu_integrate(ctx, &en->expr, &p, &r);
  if (s) return s;
  if (!isfinite(r)) return not_finite(ctx, expr, r, a, b);
  *result = r;
  return GP_OK;
}

gp_status gp_integrate_ex(gp_context *ctx, const char *expr, double a, double b,
                          uint64_t n, gp_dtype precision, double *result) {
  return integrate(ctx, expr, a, b, n, precision, result, 0);
}

gp_status gp_integrate_device(gp_context *ctx, const char *expr, double a, double b,
                              uint64_t n, gp_dtype precision, double *result) {
  return integrate(ctx, expr, a, b, n, precision, result, 1);
}

gp_status gp_integrate(gp_context *ctx, const char *expr, double a, double b, uint64_t n,
                       double *result) {
  return gp_integrate_ex(ctx, expr, a, b, n, GP_F64, result);
}

gp_status gp_integrate_prepare(gp_context *ctx, const char *expr, gp_dtype precision,
                               double *compile_seconds) {
  gp_status s = gp_check_ctx(ctx);
  if (s) return s;
  s = check_args(ctx, expr, 0.0, 1.0, 1, precision);
  if (s) return s;
  gp_jit_entry *en;
  double compile_s = 0;
  const double t0 = gp_wall_seconds();
  s = lookup(ctx, expr, precision, 1, &en, &compile_s);
  if (s) return s;
#if GP_HAVE_CUDA
  if (ctx->backend == GP_BACKEND_CUDA) { /* lookup also allocated the scratch */
    if (compile_seconds) *compile_seconds = compile_s;
    return GP_OK;
  }
#endif
  if (compile_seconds) *compile_seconds = gp_wall_seconds() - t0;
  return GP_OK;
}

gp_status gp_integrate_source(gp_context *ctx, const char *expr, gp_dtype precision,
                              char *buf, size_t size, size_t *needed) {
  gp_status s = gp_check_ctx(ctx);
  if (s) return s;
  s = check_args(ctx, expr, 0.0, 1.0, 1, precision);
  if (s) return s;
#if GP_HAVE_CUDA
  gp_expr e;
  char err[512];
  if (gp_expr_parse(expr, &e, err, sizeof err))
    return gp_fail(ctx, GP_ERR_PARSE, "expression: %s", err);
  char *src = NULL;
  int rc = gp_codegen_integrate(&e, precision, gp_trap_fold(precision), &src);
  gp_expr_free(&e);
  if (rc) return gp_fail(ctx, GP_ERR_OUT_OF_MEMORY, "out of host memory generating CUDA source");
  const size_t len = strlen(src) + 1;
  if (needed) *needed = len;
  if (buf && size) {
    const size_t k = len < size ? len : size;
    memcpy(buf, src, k - 1);
    buf[k - 1] = '\0';
  }
  free(src);
  return GP_OK;
#else
  (void)buf; (void)size; (void)needed;
  return gp_fail(ctx, GP_ERR_UNSUPPORTED,
                 "gpuprims was built without CUDA, so it generates no CUDA source");
#endif
}

gp_status gp_trap_seed(gp_context *ctx, int stage, float a, float b, uint64_t n,
                       double *result) {
  gp_status s = gp_check_ctx(ctx);
  if (s) return s;
  if (!result) return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT, "result is NULL");
  if (stage < 1 || stage > 3)
    return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT,
                   "stage %d: the seed's stages are 1 (atomicAdd per thread), 2 (32-thread "
                   "blocks, warp sum) and 3 (1024-thread blocks, Program 6.15)", stage);
  if (!isfinite(a) || !isfinite(b))
    return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT, "the interval must be finite (a = %g, b = %g)",
                   (double)a, (double)b);
  if (n == 0 || n > GP_TRAP_MAX_N)
    return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT,
                   "n = %llu trapezoids: n must be 1 .. 2^40", (unsigned long long)n);
#if GP_HAVE_CUDA
  if (ctx->backend == GP_BACKEND_CUDA) {
    struct gp_jit_cache *c = NULL;
    s = get_cache(ctx, &c);
    if (s) return s;
    const gp_mem_kind kind = gp_mem_kind_of(ctx, result);
    double *out = result;
    void *slot_host;
    if (kind == GP_MEM_HOST && (s = gp_result_slot(ctx, &slot_host, (void **)&out))) return s;
    s = gp_cuda_integrate_seed(ctx, &c->cuda, stage, a, b, n, out);
    if (s || kind != GP_MEM_HOST) return s;
    return gp_deliver_scalar(ctx, result, sizeof *result);
  }
#endif
  return gp_fail(ctx, GP_ERR_UNSUPPORTED,
                 "the seed's trapezoid stages are CUDA kernels: create a CUDA context "
                 "(gp_integrate_ex is the integrator on the CPU backend)");
}

gp_status gp_expr_value(gp_context *ctx, const char *expr, double x, double *value) {
  gp_status s = gp_check_ctx(ctx);
  if (s) return s;
  if (!expr) return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT, "expr is NULL");
  if (!value) return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT, "value is NULL");
  gp_expr e;
  char err[512];
  if (gp_expr_parse(expr, &e, err, sizeof err))
    return gp_fail(ctx, GP_ERR_PARSE, "expression: %s", err);
  *value = gp_expr_eval(&e, x);
  gp_expr_free(&e);
  return GP_OK;
}
