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

/* Tests only: forces the AUTO kernel's physical grid on ctx to `grid` blocks (clamped
 * to the number of virtual blocks; 0 = the automatic choice) to show the bits do not
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
