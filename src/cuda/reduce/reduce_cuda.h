/* CUDA backend of gp_reduce: one entry per algorithm (one .cu file each), the scratch
 * each needs, and the dispatch src/core/reduce.c calls. Internal; C-callable. */
#ifndef GP_CUDA_REDUCE_H
#define GP_CUDA_REDUCE_H

#include "core/context.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Device scratch (bytes) that gp_cuda_reduce needs for this call. */
size_t gp_cuda_reduce_scratch_bytes(gp_reduce_algo algo, gp_dtype type, size_t n,
                                    unsigned two_phase_blocks);

/* Reduces n >= 1 elements at device-accessible d_in into one element of
 * gp_reduce_out_type(op, type) at device-accessible d_out, on ctx's stream, without
 * synchronizing. scratch: gp_cuda_reduce_scratch_bytes() bytes of device memory,
 * 256-byte aligned. Arguments are already validated. */
gp_status gp_cuda_reduce(gp_context *ctx, gp_reduce_algo algo, gp_op op, gp_dtype type,
                         const void *d_in, size_t n, void *scratch, void *d_out,
                         unsigned two_phase_blocks);

/* The per-algorithm entries (same contract). */
gp_status gp_cuda_reduce_seed_tree(gp_context *ctx, int interleaved, gp_op op, gp_dtype type,
                                   const void *d_in, size_t n, void *scratch, void *d_out);
gp_status gp_cuda_reduce_two_phase(gp_context *ctx, gp_op op, gp_dtype type, const void *d_in,
                                   size_t n, void *scratch, void *d_out, unsigned blocks);
gp_status gp_cuda_reduce_warp_atomic(gp_context *ctx, gp_op op, gp_dtype type,
                                     const void *d_in, size_t n, void *scratch, void *d_out);
gp_status gp_cuda_reduce_auto(gp_context *ctx, gp_op op, gp_dtype type, const void *d_in,
                              size_t n, void *scratch, void *d_out);

/* GP_REDUCE_AUTO's F32/F64 SUM (reduce_exact.cu): the exact sum rounded once, same
 * contract as above (type is GP_F32 or GP_F64; scratch: gp_cuda_sum_exact_scratch_bytes
 * bytes of device memory for the blocks' records, which gp_cuda_reduce_scratch_bytes
 * includes for AUTO on F32 and F64). */
size_t gp_cuda_sum_exact_scratch_bytes(gp_dtype type, size_t n);
gp_status gp_cuda_sum_exact(gp_context *ctx, gp_dtype type, const void *d_in, size_t n,
                            void *scratch, void *d_out);
/* The same kernel, stopping short of the rounding: d_acc (device, L + 1 words: GP_XS_F32_LIMBS
 * or GP_XS_F64_LIMBS of core/exact_sum.h, then the flags) gets the normalized
 * superaccumulator of the n >= 1 inputs, which gp_dist_reduce adds across ranks. Async. */
gp_status gp_cuda_sum_exact_acc(gp_context *ctx, gp_dtype type, const void *d_in, size_t n,
                                int64_t *d_acc);

/* gp_argreduce (argreduce.cu): index and value of the first minimum (op GP_MIN) or
 * maximum (GP_MAX) of n >= 1 elements at d_in, into device-accessible d_value (one
 * element) and d_index; scratch: gp_cuda_argreduce_scratch_bytes() bytes. Async. */
size_t gp_cuda_argreduce_scratch_bytes(void);
gp_status gp_cuda_argreduce(gp_context *ctx, gp_op op, gp_dtype type, const void *d_in, size_t n,
                            void *scratch, void *d_value, uint64_t *d_index);

/* gp_argreduce_rows (argreduce_segments.cu): each of nrows >= 1 rows of row_len >= 1
 * elements at d_in gets its first minimum (GP_MIN) or maximum (GP_MAX): the value into
 * d_value[row] and the position within the row into d_index[row] (device-accessible,
 * either may be NULL). scratch: gp_cuda_argreduce_rows_scratch_bytes() bytes. Async. */
size_t gp_cuda_argreduce_rows_scratch_bytes(size_t row_len, size_t nrows);
gp_status gp_cuda_argreduce_rows(gp_context *ctx, gp_op op, gp_dtype type, const void *d_in,
                                 size_t row_len, size_t nrows, void *scratch, void *d_value,
                                 uint64_t *d_index);
/* gp_argreduce_segments_offsets (argreduce_segments.cu), from host offsets h_off[0 ..
 * nseg] (checked: increasing, no empty segment). The plan splits long segments into
 * chunks: gp_cuda_argreduce_offsets_plan fills *plan and returns how many uint64 words
 * it needs (0: none), gp_cuda_argreduce_offsets_plan_fill writes them (host memory),
 * which the caller copies to the device (d_words). Then gp_cuda_argreduce_offsets, with
 * the offsets on the device (d_off) and gp_cuda_argreduce_offsets_scratch_bytes of
 * scratch, writes each segment's value and position as gp_cuda_argreduce_rows. Async. */
typedef struct gp_cuda_argseg_plan {
  uint64_t long_len; /* segments at least this long are split into chunks */
  size_t ntasks;     /* their chunks */
  size_t nlong;      /* how many they are */
  size_t short_avg;  /* the mean length of the others */
} gp_cuda_argseg_plan;
size_t gp_cuda_argreduce_offsets_plan(const uint64_t *h_off, size_t nseg, gp_cuda_argseg_plan *plan);
void gp_cuda_argreduce_offsets_plan_fill(const uint64_t *h_off, size_t nseg,
                                         const gp_cuda_argseg_plan *plan, uint64_t *words);
size_t gp_cuda_argreduce_offsets_scratch_bytes(const gp_cuda_argseg_plan *plan);
gp_status gp_cuda_argreduce_offsets(gp_context *ctx, gp_op op, gp_dtype type, const void *d_in,
                                    const uint64_t *d_off, size_t nseg,
                                    const gp_cuda_argseg_plan *plan, const uint64_t *d_words,
                                    void *scratch, void *d_value, uint64_t *d_index);

/* gp_reduce_rows (reduce_segments.cu): nrows results of gp_reduce_out_type(op, type)
 * into d_out, row s being d_in[s * row_len .. (s + 1) * row_len). Async. */
gp_status gp_cuda_reduce_rows(gp_context *ctx, gp_op op, gp_dtype type, const void *d_in,
                              size_t row_len, size_t nrows, void *scratch, void *d_out);
/* Scratch (device, 256-byte aligned) gp_cuda_reduce_rows needs: long rows too few to
 * fill the GPU are split into chunks whose records it holds; else 0. */
size_t gp_cuda_reduce_rows_scratch_bytes(gp_op op, gp_dtype type, size_t row_len, size_t nrows);

/* gp_reduce_segments_offsets (reduce_offsets.cu): nseg results into d_out, segment s
 * being d_in[d_off[s] .. d_off[s+1]) (device-accessible offsets, read only on the GPU).
 * spans 0: no segment is long (gp_cuda_reduce_offsets_long of the same offsets said so),
 * so the span kernel is not launched and no scratch is needed; 1: there may be long
 * segments. Async. */
gp_status gp_cuda_reduce_offsets(gp_context *ctx, gp_op op, gp_dtype type, const void *d_in,
                                 const uint64_t *d_off, size_t nseg, int spans, void *scratch,
                                 void *d_out);
size_t gp_cuda_reduce_offsets_scratch_bytes(gp_op op, gp_dtype type, int spans);
/* 1 when host offsets h_off[0 .. nseg] (checked: not decreasing) hold a segment that
 * gp_cuda_reduce_offsets splits into spans, else 0. */
int gp_cuda_reduce_offsets_long(gp_dtype type, const uint64_t *h_off, size_t nseg);

/* gp_topk (topk.cu): keys (core/topk.h; 4- or 8-byte, as the type) and indices 0..n-1
 * of n elements at d_in; then, after the pairs are sorted, values (may be NULL) and
 * indices (may be NULL) of the first k. Async. */
gp_status gp_cuda_topk_encode(gp_context *ctx, gp_dtype type, const void *d_in, size_t n,
                              int largest, void *d_keys, uint64_t *d_idx);
gp_status gp_cuda_topk_gather(gp_context *ctx, gp_dtype type, const void *d_in,
                              const uint64_t *d_sorted_idx, size_t k, void *d_values,
                              uint64_t *d_indices);
/* gp_topk_rows (topk_rows.cu) for 1 <= k <= GP_CUDA_TOPK_ROWS_SELECT_K and cols < 2^31: a
 * warp (or 2 or 4, for long rows) per row selects its k best in one read, to rows x k
 * values and positions within the row (either may be NULL) in device memory. Async. */
#define GP_CUDA_TOPK_ROWS_SELECT_K 128
gp_status gp_cuda_topk_rows_select(gp_context *ctx, gp_dtype type, const void *d_in, size_t rows,
                                   size_t cols, size_t k, int largest, void *d_values,
                                   uint64_t *d_indices);
/* gp_topk_rows, larger k, 4-byte types (topk_rows.cu): d_comp gets each element's 64-bit
 * composite (core/topk.h key << 32 | position in the row, cols <= 2^32); after each row
 * is sorted (gp_sort_segments, U64), the first k of each row to rows x k values and
 * positions (either may be NULL). Async. */
gp_status gp_cuda_topk_rows_composite(gp_context *ctx, gp_dtype type, const void *d_in,
                                      size_t rows, size_t cols, int largest, uint64_t *d_comp);
gp_status gp_cuda_topk_rows_composite_gather(gp_context *ctx, const void *d_in,
                                             const uint64_t *d_comp, size_t rows, size_t cols,
                                             size_t k, void *d_values, uint64_t *d_indices);
/* Rows: d_sorted_idx holds rows x cols global positions, each row's sorted; the first k of
 * each row are gathered to rows x k values and positions within the row. Async. */
gp_status gp_cuda_topk_rows_gather(gp_context *ctx, gp_dtype type, const void *d_in,
                                   const uint64_t *d_sorted_idx, size_t rows, size_t cols,
                                   size_t k, void *d_values, uint64_t *d_indices);

/* The context's next ticket counter and exact-sum accumulator (acc may be NULL), both
 * zero; the kernel that takes them leaves them zero again (reduce_auto.cu). */
gp_status gp_cuda_reduce_next_slot(gp_context *ctx, unsigned **ticket, unsigned long long **acc);

/* Tests only: forces the AUTO kernel's physical grid on ctx to `grid` blocks (clamped
 * to the number of virtual blocks, or of tiles for the exact float SUM; 0 = the automatic
 * choice) to show the bits do not
 * depend on it. */
void gp_cuda_reduce_auto_force_grid(gp_context *ctx, unsigned grid);

/* Scratch layout of the seed tree (INTERLEAVED/SEQUENTIAL): two ping-pong partial
 * buffers of 8-byte slots; the second starts at this offset. */
static inline size_t gp_cuda_seed_tree_offset_b(size_t n) {
  size_t nb = n / 256 + (n % 256 != 0);
  return ((nb * 8) + 255) & ~(size_t)255;
}

#ifdef __cplusplus
}
#endif
#endif
