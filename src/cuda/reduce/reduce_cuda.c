/* Dispatch from gp_reduce_algo to the CUDA reduction files, and the scratch sizes
 * they need (all partial buffers use 8-byte slots, enough for every accumulator). */
#include "cuda/reduce/reduce_cuda.h"
#include "core/reduce_tree.h"

size_t gp_cuda_reduce_scratch_bytes(gp_reduce_algo algo, gp_dtype type, size_t n,
                                    unsigned two_phase_blocks) {
  switch (algo) {
  case GP_REDUCE_INTERLEAVED:
  case GP_REDUCE_SEQUENTIAL: {
    size_t nb2 = gp_rt_div_up(gp_rt_div_up(n, GP_SEED_BLOCK), GP_SEED_BLOCK);
    return gp_cuda_seed_tree_offset_b(n) + 8 * (nb2 ? nb2 : 1);
  }
  case GP_REDUCE_TWO_PHASE: return 8 * (size_t)two_phase_blocks;
  case GP_REDUCE_WARP_ATOMIC: return 8;
  case GP_REDUCE_AUTO: break;
  }
  const size_t partials = 8 * (size_t)gp_rt_auto_vblocks(n, gp_dtype_size(type));
  if (type != GP_F32 && type != GP_F64) return partials;
  const size_t recs = gp_cuda_sum_exact_scratch_bytes(type, n); /* the exact SUM's */
  return recs > partials ? recs : partials;
}

gp_status gp_cuda_reduce(gp_context *ctx, gp_reduce_algo algo, gp_op op, gp_dtype type,
                         const void *d_in, size_t n, void *scratch, void *d_out,
                         unsigned two_phase_blocks) {
  switch (algo) {
  case GP_REDUCE_INTERLEAVED:
    return gp_cuda_reduce_seed_tree(ctx, 1, op, type, d_in, n, scratch, d_out);
  case GP_REDUCE_SEQUENTIAL:
    return gp_cuda_reduce_seed_tree(ctx, 0, op, type, d_in, n, scratch, d_out);
  case GP_REDUCE_TWO_PHASE:
    return gp_cuda_reduce_two_phase(ctx, op, type, d_in, n, scratch, d_out, two_phase_blocks);
  case GP_REDUCE_WARP_ATOMIC:
    return gp_cuda_reduce_warp_atomic(ctx, op, type, d_in, n, scratch, d_out);
  case GP_REDUCE_AUTO: break;
  }
  return gp_cuda_reduce_auto(ctx, op, type, d_in, n, scratch, d_out);
}
