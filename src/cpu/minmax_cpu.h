/* GP_REDUCE_AUTO's MIN / MAX on the CPU backend (src/cpu/minmax_cpu.c): one unsigned
 * min over order-preserving keys, vectorized (AVX2 chosen at run time), OpenMP over
 * fixed chunks. Internal; called by gp_cpu_reduce. */
#ifndef GP_CPU_MINMAX_CPU_H
#define GP_CPU_MINMAX_CPU_H

#include "core/context.h"

#ifdef __cplusplus
extern "C" {
#endif

/* op GP_MIN or GP_MAX; in: n >= 1 host elements of `type`; out: one element of `type`
 * with the bits of core/reduce_tree.h's gp_rt_min_* / gp_rt_max_* (or <, > for
 * integers) folded over the input: a float NaN anywhere gives the canonical quiet NaN,
 * min(-0, +0) = -0 and max(-0, +0) = +0. MIN/MAX are order-independent, so the bits
 * equal every seed algorithm's and the CUDA backend's, for any thread count. */
void gp_cpu_minmax(gp_op op, gp_dtype type, const void *in, size_t n, void *out);

#ifdef __cplusplus
}
#endif
#endif
