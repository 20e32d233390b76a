/* CPU backend of gp_argreduce (src/cpu/argreduce_cpu.c). Internal. */
#ifndef GP_CPU_ARGREDUCE_CPU_H
#define GP_CPU_ARGREDUCE_CPU_H

#include "core/context.h"

#ifdef __cplusplus
extern "C" {
#endif

/* n >= 1 host elements; op GP_MIN or GP_MAX; arguments already validated. */
void gp_cpu_argreduce(gp_op op, gp_dtype type, const void *in, size_t n, void *value_out,
                      uint64_t *index_out);
/* gp_argreduce_rows: nrows >= 1 host rows of row_len >= 1 elements, each row's answer
 * (gp_cpu_argreduce of the row alone) into value_out[r] and index_out[r] (either may be
 * NULL); arguments already validated. */
void gp_cpu_argreduce_rows(gp_op op, gp_dtype type, const void *in, size_t nrows,
                           size_t row_len, void *value_out, uint64_t *index_out);
/* The same for segments offsets[s] .. offsets[s+1] (nseg + 1 host offsets, validated:
 * not decreasing, no empty segment). */
void gp_cpu_argreduce_offsets(gp_op op, gp_dtype type, const void *in, const uint64_t *offsets,
                              size_t nseg, void *value_out, uint64_t *index_out);

#ifdef __cplusplus
}
#endif
#endif
