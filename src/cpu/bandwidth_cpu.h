/* CPU backend of gp_measure_bandwidth (host read and copy rates, GB/s). */
#ifndef GP_CPU_BANDWIDTH_CPU_H
#define GP_CPU_BANDWIDTH_CPU_H

#include "core/context.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Either pointer may be NULL (that figure is skipped). */
gp_status gp_cpu_measure_bandwidth(gp_context *ctx, double *read_gbs, double *copy_gbs);

#ifdef __cplusplus
}
#endif
#endif
