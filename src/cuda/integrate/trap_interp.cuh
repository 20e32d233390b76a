/* trap_kernel.cuh stamped with f(x) interpreted from a gp_interp_prog (interp.h), the
 * program a __grid_constant__ parameter (read through the constant cache, no copy per
 * thread). The includer sets GP_INTERP_F32 (1 or 0), GP_TRAP_KERNEL_NAME and
 * GP_INTERP_LAUNCHER. f is one out-of-line function: the kernel's 32 points a thread
 * call it, each running the program with the top of the stack in a register. Each
 * operation is the generated kernel's (codegen.c: the same functions, --fmad=false). */
#include "cuda/integrate/interp.h"
#include "cuda/common/warp_reduce.cuh"

#include <cuda_runtime.h>

#define GP_THREADS GP_TRAP_THREADS
#define GP_ITEMS GP_TRAP_ITEMS
#define GP_TILE GP_TRAP_TILE
#if GP_INTERP_F32
#define GP_FOLD GP_TRAP_FOLD_F32
typedef float gp_real;
#define GP_IFN(name) name##f /* sinf, fabsf, fminf, ... */
#else
#define GP_FOLD 1
typedef double gp_real;
#define GP_IFN(name) name
#endif

static __device__ __noinline__ gp_real gp_interp_f(const gp_interp_prog *p, const gp_real x) {
  gp_real st[GP_INTERP_MAX_STACK]; /* below the top; slot 0 holds nothing used */
  int d = 0;
  gp_real top = (gp_real)0;
  const unsigned n = p->ncode;
  for (unsigned i = 0; i < n; i++) {
    const unsigned op = p->op[i];
    if (op <= GP_IOP_CONST) {
      st[d++] = top;
      top = op == GP_IOP_X ? x : (gp_real)p->k[p->arg[i]];
      continue;
    }
    const gp_real l = op >= GP_IOP_ADD ? st[--d] : (gp_real)0;
    switch (op) {
    case GP_IOP_NEG: top = -top; break;
    case GP_IOP_SQUARE: top = top * top; break;
    case GP_IOP_SIN: top = GP_IFN(sin)(top); break;
    case GP_IOP_COS: top = GP_IFN(cos)(top); break;
    case GP_IOP_TAN: top = GP_IFN(tan)(top); break;
    case GP_IOP_EXP: top = GP_IFN(exp)(top); break;
    case GP_IOP_LOG: top = GP_IFN(log)(top); break;
    case GP_IOP_SQRT: top = GP_IFN(sqrt)(top); break;
    case GP_IOP_ABS: top = GP_IFN(fabs)(top); break;
    case GP_IOP_FLOOR: top = GP_IFN(floor)(top); break;
    case GP_IOP_CEIL: top = GP_IFN(ceil)(top); break;
    case GP_IOP_ADD: top = l + top; break;
    case GP_IOP_SUB: top = l - top; break;
    case GP_IOP_MUL: top = l * top; break;
    case GP_IOP_DIV: top = l / top; break;
    case GP_IOP_POW: top = GP_IFN(pow)(l, top); break;
    case GP_IOP_MIN: top = GP_IFN(fmin)(l, top); break;
    case GP_IOP_MAX: top = GP_IFN(fmax)(l, top); break;
    default: break;
    }
  }
  return top;
}

/* trap_kernel.cuh's switch; as a macro it hides the enum constant GP_F32 from here on,
   which nothing below uses */
#define GP_F32 GP_INTERP_F32
#define gp_f(v) gp_interp_f(&prog, (v))
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
