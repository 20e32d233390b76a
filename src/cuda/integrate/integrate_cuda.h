/* CUDA backend of gp_integrate: per context, the kernels compiled for expressions (one
 * loaded module per distinct generated source, found in the on-disk cache or compiled
 * by NVRTC), the device scratch, and the launches of the generated kernel and of the
 * seed's trapezoid stages. src/api/integrate.c owns the parsing and the results. */
#ifndef GP_CUDA_INTEGRATE_INTEGRATE_CUDA_H
#define GP_CUDA_INTEGRATE_INTEGRATE_CUDA_H

#include "core/integrate.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gp_cuda_integrate gp_cuda_integrate;
struct gp_interp_prog; /* interp.h */

/* Frees the modules and the scratch (NULL is a no-op). */
void gp_cuda_integrate_free(gp_cuda_integrate *c);

/* The kernel (a cudaKernel_t) for e evaluated in `precision`: a module this context
 * loaded before from the same source, else the on-disk cache (disk_cache.h), else,
 * when `compile` says so, NVRTC (then stored in the disk cache); without `compile` a
 * miss leaves *kernel NULL (the caller interprets). Creates *state and its device
 * scratch on first use, so the first launch allocates nothing. *compile_s gets the
 * seconds spent compiling or loading (0 when a loaded module served). The kernel stays
 * valid until gp_cuda_integrate_clear or _free. */
gp_status gp_cuda_integrate_kernel(gp_context *ctx, gp_cuda_integrate **state,
                                   const gp_expr *e, gp_dtype precision, int compile,
                                   void **kernel, double *compile_s);

/* The on-disk cache's key for a generated source compiled for arch: everything the
 * image depends on (malloc'd, *len bytes; free() it). NULL when out of memory. */
char *gp_cuda_integrate_cache_key(const char *src, const char *arch, size_t *len);

/* Unloads every module after waiting for the context's stream (a kernel in flight may
 * use one): bounds memory when a context sees many expressions. */
gp_status gp_cuda_integrate_clear(gp_context *ctx, gp_cuda_integrate *c);

/* Enqueues `kernel` with the plan's grid on the context's stream. The result goes to
 * `out`: device, managed or mapped pinned memory (the context's result slot). */
gp_status gp_cuda_integrate_launch(gp_context *ctx, gp_cuda_integrate **state, void *kernel,
                                   const gp_trap_plan *p, double *out);

/* Enqueues the interpreted kernel (interp.h) of `prog` with the plan's grid and
 * precision; the result goes to `out` as for gp_cuda_integrate_launch. */
gp_status gp_cuda_integrate_interp(gp_context *ctx, gp_cuda_integrate **state,
                                   const struct gp_interp_prog *prog, const gp_trap_plan *p,
                                   double *out);

/* Enqueues the seed's stage (1..3) of f(x) = x^2 over [a, b] with n trapezoids; the
 * result goes to `out` as for gp_cuda_integrate_launch. */
gp_status gp_cuda_integrate_seed(gp_context *ctx, gp_cuda_integrate **state, int stage,
                                 float a, float b, uint64_t n, double *out);

#ifdef __cplusplus
}
#endif
#endif
