/* The CUDA half of gp_measure_bandwidth (src/core/bandwidth.c dispatches here). */
#ifndef GP_CUDA_COMMON_BANDWIDTH_H
#define GP_CUDA_COMMON_BANDWIDTH_H

#include "core/context.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Peak read (16-byte loads over a buffer >= 8x L2) and device-to-device copy bandwidth
 * in GB/s, medians of several runs timed with CUDA events on the context's stream.
 * Either output may be NULL. Synchronizes. */
gp_status gp_cuda_measure_bandwidth(gp_context *ctx, double *read_gbs, double *copy_gbs);

#ifdef __cplusplus
}
#endif
#endif
