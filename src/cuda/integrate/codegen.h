/* Expression tree -> CUDA C++ source of the trapezoid kernel that NVRTC compiles.
 * Only the tree reaches the source: numbers as hex-float literals, x, and a fixed set
 * of operator and function spellings; the expression's text never does. */
#ifndef GP_CUDA_INTEGRATE_CODEGEN_H
#define GP_CUDA_INTEGRATE_CODEGEN_H

#include "core/expr.h"
#include "gpuprims.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define GP_CODEGEN_KERNEL_NAME "gp_integrate_kernel"

/* Writes the kernel's source into a malloc'd string (*src; free() it). `fold` is the
 * number of a thread's consecutive F32 values added in float before the F64 add (1 or a
 * divisor of GP_TRAP_ITEMS; ignored for F64). Kernel signature (extern "C"):
 *   gp_integrate_kernel(double a, double b, double h, unsigned long long m,
 *                       unsigned long long tiles, double *partials,
 *                       unsigned int *counter, double *out)
 * launched with GP_TRAP_THREADS threads and the plan's grid. Returns 0, or -1 when out
 * of memory. */
int gp_codegen_integrate(const gp_expr *e, gp_dtype precision, int fold, char **src);

#ifdef __cplusplus
}
#endif
#endif
