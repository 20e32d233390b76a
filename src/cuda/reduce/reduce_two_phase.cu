/* Seed 000, section 4.3: two-phase reduction. Phase 1 grid-strides over `blocks`
 * blocks of 256 (ctx->two_phase_blocks, default the chapter's 64) and reduces each
 * block with the sequential tree; phase 2 is one block of 256 that grid-strides over
 * however many partials there are (the fix for the chapter's self-check question 6,
 * where more than 256 partials were silently dropped), then the same tree. */
#include "cuda/common/reduce_ops.cuh"
#include "cuda/reduce/reduce_cuda.h"

/* reduce2 of the ladder (phase 1): each thread first folds n / (blocks*256)
 * elements into a register, so the shared-memory tree runs once per block rather
 * than once per 256 elements.
 * Costs: one 4- or 8-byte load per thread per iteration (few bytes in flight, far
 * from HBM bandwidth), a fixed 64-block grid that fills half of an H200's SMs, a tree
 * with a __syncthreads per level, and a second launch for phase 2. Next: the warp
 * kernel (seed 003) replaces the bottom five tree levels with shuffles. */
template <typename T, typename A, typename Op>
__global__ __launch_bounds__(GP_SEED_BLOCK) void gp_reduce_two_phase1_kernel(
    const T *__restrict__ in, size_t n, A *__restrict__ partials) {
  __shared__ A sdata[GP_SEED_BLOCK];
  const Op op;
  const unsigned tid = threadIdx.x;
  const size_t stride = (size_t)blockDim.x * gridDim.x;
  A acc = gp_rident<Op, A>::v();
  for (size_t i = (size_t)blockIdx.x * blockDim.x + tid; i < n; i += stride)
    acc = op(acc, static_cast<A>(in[i]));
  sdata[tid] = acc;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s /= 2) {
    if (tid < s) sdata[tid] = op(sdata[tid], sdata[tid + s]);
    __syncthreads();
  }
  if (tid == 0) partials[blockIdx.x] = sdata[0];
}

/* Phase 2: one block of 256 grid-strides over all `count` partials, then the tree.
 * Costs: a whole launch (a few microseconds) for a few hundred bytes of work. */
template <typename A, typename Op, typename Out>
__global__ __launch_bounds__(GP_SEED_BLOCK) void gp_reduce_two_phase2_kernel(
    const A *__restrict__ partials, unsigned count, Out *out) {
  __shared__ A sdata[GP_SEED_BLOCK];
  const Op op;
  const unsigned tid = threadIdx.x;
  A acc = gp_rident<Op, A>::v();
  for (unsigned i = tid; i < count; i += blockDim.x) acc = op(acc, partials[i]);
  sdata[tid] = acc;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s /= 2) {
    if (tid < s) sdata[tid] = op(sdata[tid], sdata[tid + s]);
    __syncthreads();
  }
  if (tid == 0) *out = gp_rfinal<Out>(sdata[0]);
}

template <typename T, typename A, typename Op>
static gp_status run_two_phase(gp_context *ctx, const void *vin, size_t n, void *scratch,
                               void *vout, unsigned blocks) {
  typedef typename gp_rout<T, A>::type Out;
  cudaStream_t st = (cudaStream_t)ctx->stream;
  A *partials = static_cast<A *>(scratch);
  gp_reduce_two_phase1_kernel<T, A, Op>
      <<<blocks, GP_SEED_BLOCK, 0, st>>>(static_cast<const T *>(vin), n, partials);
  GP_LAUNCH_CHECK(ctx, "gp_reduce_two_phase1_kernel", blocks, GP_SEED_BLOCK, 0);
  gp_reduce_two_phase2_kernel<A, Op, Out>
      <<<1, GP_SEED_BLOCK, 0, st>>>(partials, blocks, static_cast<Out *>(vout));
  GP_LAUNCH_CHECK(ctx, "gp_reduce_two_phase2_kernel", 1, GP_SEED_BLOCK, 0);
  return GP_OK;
}

extern "C" gp_status gp_cuda_reduce_two_phase(gp_context *ctx, gp_op op, gp_dtype type,
                                              const void *d_in, size_t n, void *scratch,
                                              void *d_out, unsigned blocks) {
  GP_REDUCE_DISPATCH(run_two_phase, float, op, type, ctx, d_in, n, scratch, d_out, blocks)
  return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT, "unknown dtype %d", (int)type);
}
