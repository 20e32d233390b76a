/* The trapezoid kernel with f(x) interpreted: nvcc compiles trap_kernel.cuh once per
 * precision in the library (trap_interp_f32.cu, trap_interp_f64.cu) with f evaluated
 * from a small postfix program passed by value as a kernel parameter, so a new
 * expression runs at once, with no NVRTC compile (127-207 ms on the H200 host). Every
 * operation is the one the generated kernel performs (the same CUDA functions, no
 * contraction: both are built with --fmad=false), so the bits are the same; the
 * interpreter costs time per point, which src/api/integrate.c weighs against a compile.
 * Shared by C (the builder) and CUDA (the kernels). */
#ifndef GP_CUDA_INTEGRATE_INTERP_H
#define GP_CUDA_INTEGRATE_INTERP_H

#include "core/context.h"
#include "core/expr.h"
#include "core/integrate.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What fits a program (larger expressions are compiled). A parameter of ~0.5 KB. */
#define GP_INTERP_MAX_CODE 120
#define GP_INTERP_MAX_CONSTS 32
#define GP_INTERP_MAX_STACK 8

/* Rent or buy (src/api/integrate.c): an expression is interpreted until the time the
 * interpreter has cost it over the compiled kernel, the next call's included, would
 * pass a compile's; then it is compiled and runs compiled from then on, so no sequence
 * of calls pays much more than twice what knowing the future would have cost. The
 * model of that extra time, fitted to the H200 (2026-12-02, docs/perf/integrate.md:
 * x^2, 1/(1+x^2), sin(x)^2 and a 21-operation mix at 2^16 .. 2^30 points; the
 * interpreter took 1.2-4.2x the compiled kernel's time): per operation, a latency of
 * GP_INTERP_OP_LAT_* a call plus GP_INTERP_OP_PT_* a point (measured 0.14-0.26 ps in
 * F32 and 0.18-0.49 ps in F64 at 2^30 points; 1.2-1.6 us an operation at 2^16); a first
 * NVRTC compile took 149-242 ms there. */
#ifndef GP_INTERP_COMPILE_S
#define GP_INTERP_COMPILE_S 0.2
#endif
#define GP_INTERP_OP_PT_F32 0.26e-12
#define GP_INTERP_OP_PT_F64 0.49e-12
#define GP_INTERP_OP_LAT_F32 1.3e-6
#define GP_INTERP_OP_LAT_F64 1.6e-6

/* The model's extra seconds of one interpreted call of `points` points. */
static inline double gp_interp_extra_s(int f32, double points, unsigned ncode) {
  return (double)ncode * (f32 ? points * GP_INTERP_OP_PT_F32 + GP_INTERP_OP_LAT_F32
                              : points * GP_INTERP_OP_PT_F64 + GP_INTERP_OP_LAT_F64);
}

/* Operations: push x, push k[arg]; then unary and binary ones on the top of stack. */
enum gp_interp_op {
  GP_IOP_X, GP_IOP_CONST,
  GP_IOP_NEG, GP_IOP_SQUARE, GP_IOP_SIN, GP_IOP_COS, GP_IOP_TAN, GP_IOP_EXP, GP_IOP_LOG,
  GP_IOP_SQRT, GP_IOP_ABS, GP_IOP_FLOOR, GP_IOP_CEIL,
  GP_IOP_ADD, GP_IOP_SUB, GP_IOP_MUL, GP_IOP_DIV, GP_IOP_POW, GP_IOP_MIN, GP_IOP_MAX
};

typedef struct gp_interp_prog {
  double k[GP_INTERP_MAX_CONSTS]; /* constants; F32 uses (float)k[i], as codegen.c does */
  uint32_t ncode;
  uint8_t op[GP_INTERP_MAX_CODE];  /* enum gp_interp_op */
  uint8_t arg[GP_INTERP_MAX_CODE]; /* GP_IOP_CONST: index into k */
} gp_interp_prog;

/* Translates e's postfix program into *p. Returns 0, or -1 when e does not fit (too
 * many operations, constants or stack slots): the caller compiles it instead. */
int gp_interp_build(const gp_expr *e, gp_interp_prog *p);

/* Enqueues the interpreted kernel for `precision` (GP_F32 or GP_F64) with the plan's
 * grid on the context's stream; arguments as gp_codegen_integrate's kernel. */
gp_status gp_cuda_trap_interp_f32(gp_context *ctx, const gp_interp_prog *prog,
                                  const gp_trap_plan *p, double *partials,
                                  unsigned int *counter, double *out);
gp_status gp_cuda_trap_interp_f64(gp_context *ctx, const gp_interp_prog *prog,
                                  const gp_trap_plan *p, double *partials,
                                  unsigned int *counter, double *out);

#ifdef __cplusplus
}
#endif
#endif
