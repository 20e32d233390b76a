/* CPU backend of gp_topk (src/cpu/topk_cpu.c). Internal. */
#ifndef GP_CPU_TOPK_CPU_H
#define GP_CPU_TOPK_CPU_H

#include "core/context.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The k (1 <= k <= n) largest (GP_DESCENDING) or smallest (GP_ASCENDING) of n host
 * elements, sorted, ties to the lower index; values and/or indices (one may be NULL).
 * Arguments already validated. Returns GP_OK, or GP_ERR_OUT_OF_MEMORY (nothing
 * written) when its buffers do not fit in host memory. */
gp_status gp_cpu_topk(gp_context *ctx, gp_dtype type, const void *in, size_t n, size_t k,
                      gp_order order, void *values, uint64_t *indices);

/* The same for each of `rows` rows of `cols` (k <= cols), side by side on the OpenMP
 * threads: values rows x k, indices rows x k positions within the row. */
gp_status gp_cpu_topk_rows(gp_dtype type, const void *in, size_t rows, size_t cols, size_t k,
                           gp_order order, void *values, uint64_t *indices);
#ifdef __cplusplus
}
#endif
#endif
