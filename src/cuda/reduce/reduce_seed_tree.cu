/* Seed 000, sections 4.1 and 4.2: one 256-element tile per block reduced in shared
 * memory, one partial per block, relaunched on the partials until one value remains
 * (the last launch, a single block, writes the result). Both kernels are the
 * chapter's, generalized to every dtype/op; the CPU backend replays them exactly. */
#include "cuda/common/reduce_ops.cuh"
#include "cuda/reduce/reduce_cuda.h"

/* reduce0 of the ladder (4.1, interleaved addressing): at step s the threads with
 * tid % (2*s) == 0 add sdata[tid + s].
 * Costs: the modulo test scatters the active lanes over every warp, so all 8 warps
 * stay divergent (2 issue passes) for the first five steps -- 94 passes per block
 * against 17 for 4.2 -- and `%` itself is a slow integer op. Next: sequential
 * addressing keeps the active threads contiguous. */
template <typename In, typename A, typename Op, typename Out>
__global__ __launch_bounds__(GP_SEED_BLOCK) void gp_reduce_interleaved_kernel(
    const In *__restrict__ in, size_t n, A *__restrict__ partials, Out *final_out) {
  __shared__ A sdata[GP_SEED_BLOCK];
  const Op op;
  const unsigned tid = threadIdx.x;
  const size_t idx = (size_t)blockIdx.x * blockDim.x + tid;
  sdata[tid] = idx < n ? static_cast<A>(in[idx]) : gp_rident<Op, A>::v();
  __syncthreads();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    if (tid % (2 * s) == 0) sdata[tid] = op(sdata[tid], sdata[tid + s]);
    __syncthreads();
  }
  if (tid == 0) {
    if (final_out) *final_out = gp_rfinal<Out>(sdata[0]);
    else partials[blockIdx.x] = sdata[0];
  }
}

/* reduce1 (4.2, sequential addressing): at step s the threads tid < s add
 * sdata[tid + s]; the single active/inactive boundary sits inside at most one warp,
 * 17 issue passes per block.
 * Costs: still one element per thread (half the threads idle from the first step),
 * a __syncthreads per level even once fewer than 32 threads work, and a relaunch per
 * factor of 256 in n. Next: two-phase (4.3) grid-strides so each thread adds many
 * elements first and needs only two launches. */
template <typename In, typename A, typename Op, typename Out>
__global__ __launch_bounds__(GP_SEED_BLOCK) void gp_reduce_sequential_kernel(
    const In *__restrict__ in, size_t n, A *__restrict__ partials, Out *final_out) {
  __shared__ A sdata[GP_SEED_BLOCK];
  const Op op;
  const unsigned tid = threadIdx.x;
  const size_t idx = (size_t)blockIdx.x * blockDim.x + tid;
  sdata[tid] = idx < n ? static_cast<A>(in[idx]) : gp_rident<Op, A>::v();
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s /= 2) {
    if (tid < s) sdata[tid] = op(sdata[tid], sdata[tid + s]);
    __syncthreads();
  }
  if (tid == 0) {
    if (final_out) *final_out = gp_rfinal<Out>(sdata[0]);
    else partials[blockIdx.x] = sdata[0];
  }
}

template <typename In, typename A, typename Op, typename Out>
static gp_status launch_tile(gp_context *ctx, int interleaved, const In *in, size_t count,
                             A *partials, Out *final_out) {
  const size_t blocks = gp_rt_div_up(count, GP_SEED_BLOCK);
  if (blocks > 0x7fffffffu)
    return gp_fail(ctx, GP_ERR_UNSUPPORTED,
                   "n = %zu needs %zu blocks of 256, more than a grid holds: use "
                   "GP_REDUCE_AUTO or GP_REDUCE_TWO_PHASE", count, blocks);
  cudaStream_t st = (cudaStream_t)ctx->stream;
  if (interleaved) {
    gp_reduce_interleaved_kernel<In, A, Op, Out>
        <<<(unsigned)blocks, GP_SEED_BLOCK, 0, st>>>(in, count, partials, final_out);
    GP_LAUNCH_CHECK(ctx, "gp_reduce_interleaved_kernel", blocks, GP_SEED_BLOCK, 0);
  } else {
    gp_reduce_sequential_kernel<In, A, Op, Out>
        <<<(unsigned)blocks, GP_SEED_BLOCK, 0, st>>>(in, count, partials, final_out);
    GP_LAUNCH_CHECK(ctx, "gp_reduce_sequential_kernel", blocks, GP_SEED_BLOCK, 0);
  }
  return GP_OK;
}

template <typename T, typename A, typename Op>
static gp_status run_seed_tree(gp_context *ctx, int interleaved, const void *vin, size_t n,
                               void *scratch, void *vout) {
  typedef typename gp_rout<T, A>::type Out;
  Out *out = static_cast<Out *>(vout);
  A *buf[2] = {static_cast<A *>(scratch),
               reinterpret_cast<A *>(static_cast<char *>(scratch) + gp_cuda_seed_tree_offset_b(n))};
  size_t count = gp_rt_div_up(n, GP_SEED_BLOCK);
  gp_status s = launch_tile<T, A, Op, Out>(ctx, interleaved, static_cast<const T *>(vin), n,
                                           buf[0], count == 1 ? out : (Out *)0);
  if (s != GP_OK || count == 1) return s;
  int cur = 0;
  while (count > 1) { /* relaunch on the partials: ping-pong between the two buffers */
    size_t next = gp_rt_div_up(count, GP_SEED_BLOCK);
    s = launch_tile<A, A, Op, Out>(ctx, interleaved, buf[cur], count, buf[1 - cur],
                                   next == 1 ? out : (Out *)0);
    if (s != GP_OK) return s;
    cur = 1 - cur;
    count = next;
  }
  return GP_OK;
}

extern "C" gp_status gp_cuda_reduce_seed_tree(gp_context *ctx, int interleaved, gp_op op,
                                              gp_dtype type, const void *d_in, size_t n,
                                              void *scratch, void *d_out) {
  GP_REDUCE_DISPATCH(run_seed_tree, float, op, type, ctx, interleaved, d_in, n, scratch, d_out)
  return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT, "unknown dtype %d", (int)type);
}
