/* trap_kernel.cuh stamped with f(x) interpreted from a gp_interp_prog (interp.h), the
 * program a __grid_constant__ parameter (no copy per thread). The includer sets
 * GP_INTERP_F32 (1 or 0), GP_TRAP_KERNEL_NAME and GP_INTERP_LAUNCHER.
 * A thread's 32 points run the program in passes of GP_IG points: each operation is
 * decoded once a pass and applied to GP_IG values in registers (the top of the stack;
 * the slots below it are in local memory), so decoding costs 1/GP_IG a point and the
 * points give each other's latency cover. Each operation is the generated kernel's
 * (codegen.c: the same functions, --fmad=false): the same bits. The library functions
 * are called out of line (inlined 32 times they would make the kernel large). */
#include "cuda/integrate/interp.h"
#include "cuda/common/warp_reduce.cuh"

#include <cuda_runtime.h>

#define GP_THREADS GP_TRAP_THREADS
#define GP_ITEMS GP_TRAP_ITEMS
#define GP_TILE GP_TRAP_TILE
#define GP_IG 8 /* points a pass evaluates; divides GP_ITEMS */
#if GP_INTERP_F32
#define GP_FOLD GP_TRAP_FOLD_F32
typedef float gp_real;
#define GP_IFN(name) name##f /* sinf, fabsf, fminf, ... */
#define GP_IX(j, xb, h) fmaf((float)(j), h, xb) /* trap_kernel.cuh's GP_X */
#else
#define GP_FOLD 1
typedef double gp_real;
#define GP_IFN(name) name
#define GP_IX(j, xb, h) fma((double)(j), h, xb)
#endif

#define GP_I_CALL1(name)                                                                \
  static __device__ __noinline__ gp_real gp_i_##name(const gp_real a) { return GP_IFN(name)(a); }
GP_I_CALL1(sin)
GP_I_CALL1(cos)
GP_I_CALL1(tan)
GP_I_CALL1(exp)
GP_I_CALL1(log)
static __device__ __noinline__ gp_real gp_i_pow(const gp_real a, const gp_real b) {
  return GP_IFN(pow)(a, b);
}

/* one operation applied to the GP_IG values of a pass */
#define GP_I_EACH(expr)                                                                 \
  do {                                                                                  \
    _Pragma("unroll") for (int j = 0; j < GP_IG; j++) v[j] = (expr);                    \
  } while (0)

/* v[0 .. GP_IG) = f(x_{j0 + j}), x_j = GP_IX(j, xb, h); st: the slots below the top */
static __device__ __forceinline__ void gp_interp_pass(const gp_interp_prog *p, gp_real *v,
                                                      const gp_real xb, const gp_real h,
                                                      const int j0,
                                                      gp_real (*st)[GP_IG]) {
  int d = 0;
  const unsigned n = p->ncode;
  for (unsigned i = 0; i < n; i++) {
    const unsigned op = p->op[i];
    if (op <= GP_IOP_CONST) { /* push: the old top (if any) goes below */
      if (i) {
#pragma unroll
        for (int j = 0; j < GP_IG; j++) st[d][j] = v[j];
        d++;
      }
      if (op == GP_IOP_X) {
        GP_I_EACH(GP_IX(j0 + j, xb, h));
      } else {
        const gp_real k = (gp_real)p->k[p->arg[i]];
        GP_I_EACH(k);
      }
      continue;
    }
    if (op >= GP_IOP_ADD) d--; /* binary: st[d] is the left operand */
    switch (op) {
    case GP_IOP_NEG: GP_I_EACH(-v[j]); break;
    case GP_IOP_SQUARE: GP_I_EACH(v[j] * v[j]); break;
    case GP_IOP_SIN: GP_I_EACH(gp_i_sin(v[j])); break;
    case GP_IOP_COS: GP_I_EACH(gp_i_cos(v[j])); break;
    case GP_IOP_TAN: GP_I_EACH(gp_i_tan(v[j])); break;
    case GP_IOP_EXP: GP_I_EACH(gp_i_exp(v[j])); break;
    case GP_IOP_LOG: GP_I_EACH(gp_i_log(v[j])); break;
    case GP_IOP_SQRT: GP_I_EACH(GP_IFN(sqrt)(v[j])); break;
    case GP_IOP_ABS: GP_I_EACH(GP_IFN(fabs)(v[j])); break;
    case GP_IOP_FLOOR: GP_I_EACH(GP_IFN(floor)(v[j])); break;
    case GP_IOP_CEIL: GP_I_EACH(GP_IFN(ceil)(v[j])); break;
    case GP_IOP_ADD: GP_I_EACH(st[d][j] + v[j]); break;
    case GP_IOP_SUB: GP_I_EACH(st[d][j] - v[j]); break;
    case GP_IOP_MUL: GP_I_EACH(st[d][j] * v[j]); break;
    case GP_IOP_DIV: GP_I_EACH(st[d][j] / v[j]); break;
    case GP_IOP_POW: GP_I_EACH(gp_i_pow(st[d][j], v[j])); break;
    case GP_IOP_MIN: GP_I_EACH(GP_IFN(fmin)(st[d][j], v[j])); break;
    case GP_IOP_MAX: GP_I_EACH(GP_IFN(fmax)(st[d][j], v[j])); break;
    default: break;
    }
  }
}

/* all GP_ITEMS points of a thread's run, GP_IG at a time */
static __device__ __forceinline__ void gp_interp_all(const gp_interp_prog *p, gp_real *v,
                                                     const gp_real xb, const gp_real h) {
  gp_real st[GP_INTERP_MAX_STACK][GP_IG];
#pragma unroll
  for (int g = 0; g < GP_ITEMS / GP_IG; g++) gp_interp_pass(p, v + g * GP_IG, xb, h, g * GP_IG, st);
}

/* one point (the kernel's two ends, in the last block) */
static __device__ __noinline__ gp_real gp_interp_f(const gp_interp_prog *p, const gp_real x) {
  gp_real v[GP_IG];
  gp_real st[GP_INTERP_MAX_STACK][GP_IG];
  gp_interp_pass(p, v, x, (gp_real)0, 0, st); /* x_j = j * 0 + x */
  return v[0];
}

/* trap_kernel.cuh's switch; as a macro it hides the enum constant GP_F32 from here on,
   which nothing below uses */
#define GP_F32 GP_INTERP_F32
#define gp_f(v) gp_interp_f(&prog, (v))
#if GP_INTERP_F32
#define GP_F_ALL(v) gp_interp_all(&prog, v, xbf, hf)
#else
#define GP_F_ALL(v) gp_interp_all(&prog, v, xb, h)
#endif
#define GP_TRAP_EXTRA_PARAMS , const __grid_constant__ gp_interp_prog prog
#include "cuda/integrate/trap_kernel.cuh"

extern "C" gp_status GP_INTERP_LAUNCHER(gp_context *ctx, const gp_interp_prog *prog,
                                        const gp_trap_plan *p, double *partials,
                                        unsigned int *counter, double *out) {
  GP_TRAP_KERNEL_NAME<<<p->grid, GP_THREADS, 0, (cudaStream_t)ctx->stream>>>(
      p->a, p->b, p->h, p->m, p->tiles, partials, counter, out, *prog);
  GP_LAUNCH_CHECK(ctx, "gp_trap_interp", p->grid, GP_THREADS, 0);
  return GP_OK;
}
