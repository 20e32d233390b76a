/* The three stages of seed 003's trapezoidal rule (6.24, Program 6.15, Table 6.10),
 * f(x) = x^2 in float: launchers callable from C. */
#ifndef GP_CUDA_INTEGRATE_TRAP_SEED_H
#define GP_CUDA_INTEGRATE_TRAP_SEED_H

#include "core/context.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Enqueues stage 1, 2 or 3 on `stream`: adds f(x_i), 0 < i < n, x_i = a + i h, into
 * *acc (a float that must be 0 on entry), then a one-thread kernel writes
 * *out = (*acc + (f(a) + f(b)) / 2) * h in double and resets *acc to 0, on the
 * context's stream. Fails (GP_ERR_CUDA, naming the launch) on the first launch error. */
gp_status gp_cuda_trap_seed(gp_context *ctx, int stage, float a, float b, float h, uint64_t n,
                            float *acc, double *out);

#ifdef __cplusplus
}
#endif
#endif
