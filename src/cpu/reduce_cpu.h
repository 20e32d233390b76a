/* CPU backend of gp_reduce: every algorithm of gp_reduce_algo, each following its
 * GPU kernel's order of operations (src/core/reduce_tree.h) so results match the CUDA
 * backend bit for bit. Internal; called by src/core/reduce.c after validation. */
#ifndef GP_CPU_REDUCE_CPU_H
#define GP_CPU_REDUCE_CPU_H

#include "core/context.h"

#ifdef __cplusplus
extern "C" {
#endif

/* in: n host elements of `type` (n may be 0 for SUM); out: one element of
 * gp_reduce_out_type(op, type). Arguments are already validated. two_phase_blocks is
 * the phase-1 grid of GP_REDUCE_TWO_PHASE (never 0 here). */
gp_status gp_cpu_reduce(gp_context *ctx, gp_op op, gp_dtype type, const void *in, size_t n,
                        void *out, gp_reduce_algo algo, unsigned two_phase_blocks);

/* GP_REDUCE_AUTO's F32/F64 SUM: the exact sum of in[0..n) rounded once to `type`
 * (src/cpu/reduce_exact_cpu.c). type is GP_F32 or GP_F64. */
gp_status gp_cpu_sum_exact(gp_dtype type, const void *in, size_t n, void *out);
/* GP_REDUCE_AUTO's integer SUM (I32, I64, U32, U64): the sum modulo 2^64 of in[0..n),
 * 32-bit types widened by their sign first, written as 8 bytes to out
 * (src/cpu/sum_int_cpu.c). */
void gp_cpu_sum_int(gp_dtype type, const void *in, size_t n, void *out);
/* acc[0..L] (L = GP_XS_F32_LIMBS or GP_XS_F64_LIMBS, then the flags) = the exact sum of
 * in[0..n) as a normalized superaccumulator (core/exact_sum.h), before the rounding. */
void gp_cpu_sum_exact_acc(gp_dtype type, const void *in, size_t n, int64_t *acc);

/* the smallest k with 2^k >= n (the exactness tests of the F32 and F64 blocks) */
static inline int gp_cpu_ceil_log2(size_t n) {
  int k = 0;
  while (((size_t)1 << k) < n) k++;
  return k;
}

/* F64 blocks split on a grid so that their exact sum is two plain double sums
 * (src/cpu/sum_split_f64.c, which proves it): for x[0..n), n <= GP_XD_BLOCK, returns 1
 * with the exact sum = *qs + *rs (both exact doubles, some input nonzero), 2 when every
 * input is a zero (*qs their IEEE sum, *rs = -0), 0 when the block does not pass (inf,
 * NaN, or too wide a range of exponents: take the expansions). */
#define GP_XD_BLOCK 1024
int gp_cpu_sum_split_f64(const double *x, size_t n, int avx512, int avx2, double *qs,
                         double *rs);

/* gp_reduce_rows / gp_reduce_segments_offsets (src/cpu/reduce_segments_cpu.c): segment s
 * is offsets[s] .. offsets[s+1] (validated), or s*row_len .. (s+1)*row_len when offsets
 * is NULL; out gets nseg elements of gp_reduce_out_type(op, type), each the bits
 * gp_reduce (AUTO) gives for that segment; an empty one gives 0 (SUM) or the identity. */
gp_status gp_cpu_reduce_segments(gp_context *ctx, gp_op op, gp_dtype type, const void *in,
                                 const uint64_t *offsets, size_t row_len, size_t nseg, void *out,
                                 unsigned two_phase_blocks);

#ifdef __cplusplus
}
#endif
#endif
