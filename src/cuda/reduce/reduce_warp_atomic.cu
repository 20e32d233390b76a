/* Seed 003, section 6.24 (Program 6.15's structure, applied to an array): 1024-thread
 * blocks, a warp shuffle-down reduction, per-warp sums in shared warp_sum_arr[32],
 * warp 0 reduces those, and thread 0 does ONE atomic per block into the result.
 * Float SUM bits depend on the order the blocks' atomics land in (varies per run);
 * integer SUM and all MIN/MAX are exact. */
#include "cuda/common/reduce_ops.cuh"
#include "cuda/reduce/reduce_cuda.h"

template <typename A, typename Op>
__global__ void gp_reduce_warp_atomic_init_kernel(A *acc) { *acc = gp_rident<Op, A>::v(); }

/* Costs: scalar 4/8-byte loads (one element per thread up to n = 2^20, then a
 * grid-stride), and one atomic per block on a single address, serialized in L2 --
 * cheap at 1024 blocks but it makes float sums order-dependent, so the result is not
 * reproducible. Plus two tiny launches (initialize the target, convert the result).
 * Next: AUTO keeps the shuffles but loads 16-byte vectors with several in flight,
 * writes per-block partials instead of atomics, and lets the last block to finish
 * combine them in a fixed order: one launch, same bits every run. */
template <typename T, typename A, typename Op>
__global__ __launch_bounds__(GP_WA_BLOCK) void gp_reduce_warp_atomic_kernel(
    const T *__restrict__ in, size_t n, A *acc_out) {
  __shared__ A warp_sum_arr[GP_WARP_SIZE];
  const Op op;
  const unsigned my_warp = threadIdx.x / GP_WARP_SIZE;
  const unsigned my_lane = threadIdx.x % GP_WARP_SIZE;
  const size_t stride = (size_t)blockDim.x * gridDim.x;
  A v = gp_rident<Op, A>::v();
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    v = op(v, static_cast<A>(in[i]));
  /* 1. intra-warp reduction (shuffle-down tree) */
  A my_result = gp_warp_reduce(v, op);
  if (my_lane == 0) warp_sum_arr[my_warp] = my_result;
  /* 2. every warp's sum is in shared memory */
  __syncthreads();
  /* 3. warp 0 aggregates the warp sums; 4. thread 0 does one atomic per block */
  if (my_warp == 0) {
    A w = my_lane < blockDim.x / GP_WARP_SIZE ? warp_sum_arr[my_lane] : gp_rident<Op, A>::v();
    A blk_result = gp_warp_reduce(w, op);
    if (my_lane == 0) gp_ratomic(op, acc_out, blk_result);
  }
}

template <typename A, typename Out>
__global__ void gp_reduce_warp_atomic_final_kernel(const A *acc, Out *out) {
  *out = gp_rfinal<Out>(*acc);
}

template <typename T, typename A, typename Op>
static gp_status run_warp_atomic(gp_context *ctx, const void *vin, size_t n, void *scratch,
                                 void *vout) {
  typedef typename gp_rout<T, A>::type Out;
  cudaStream_t st = (cudaStream_t)ctx->stream;
  A *acc = static_cast<A *>(scratch);
  gp_reduce_warp_atomic_init_kernel<A, Op><<<1, 1, 0, st>>>(acc);
  GP_LAUNCH_CHECK(ctx, "gp_reduce_warp_atomic_init_kernel", 1, 1, 0);
  gp_reduce_warp_atomic_kernel<T, A, Op>
      <<<gp_rt_wa_blocks(n), GP_WA_BLOCK, 0, st>>>(static_cast<const T *>(vin), n, acc);
  GP_LAUNCH_CHECK(ctx, "gp_reduce_warp_atomic_kernel", gp_rt_wa_blocks(n), GP_WA_BLOCK, 0);
  gp_reduce_warp_atomic_final_kernel<A, Out><<<1, 1, 0, st>>>(acc, static_cast<Out *>(vout));
  GP_LAUNCH_CHECK(ctx, "gp_reduce_warp_atomic_final_kernel", 1, 1, 0);
  return GP_OK;
}

extern "C" gp_status gp_cuda_reduce_warp_atomic(gp_context *ctx, gp_op op, gp_dtype type,
                                                const void *d_in, size_t n, void *scratch,
                                                void *d_out) {
  GP_REDUCE_DISPATCH(run_warp_atomic, float, op, type, ctx, d_in, n, scratch, d_out)
  return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT, "unknown dtype %d", (int)type);
}
