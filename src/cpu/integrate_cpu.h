/* CPU backend of gp_integrate: the trapezoid sum in the plan's order (core/integrate.h). */
#ifndef GP_CPU_INTEGRATE_CPU_H
#define GP_CPU_INTEGRATE_CPU_H

#include "core/integrate.h"

#ifdef __cplusplus
extern "C" {
#endif

/* CPU backend: the whole sum, in the plan's order; *result = h * (S + (f(a)+f(b))/2). */
gp_status gp_cpu_integrate(gp_context *ctx, const gp_expr *e, const gp_trap_plan *p,
                           double *result);

#ifdef __cplusplus
}
#endif
#endif
