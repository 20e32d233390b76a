/* Warp- and block-level reduction building blocks (seed 003, 6.24: shuffles within a
 * warp, per-warp results in shared memory, then one warp again).
 * Self-contained device code with no #include, so NVRTC-compiled kernels (src/cuda/
 * integrate) embed this same file. The order of operations is fixed (a butterfly-free
 * shuffle-down tree), so results are deterministic. */
#ifndef GP_CUDA_COMMON_WARP_REDUCE_CUH
#define GP_CUDA_COMMON_WARP_REDUCE_CUH

#define GP_WARP_SIZE 32
#define GP_FULL_MASK 0xffffffffu

struct gp_op_sum { template <typename T> __device__ __forceinline__ T operator()(T a, T b) const { return a + b; } };

/* Lane 0 gets op over the 32 lanes' values, combined as the shuffle-down tree
 * (offsets 16, 8, 4, 2, 1); other lanes get partial values. */
template <typename T, typename Op>
__device__ __forceinline__ T gp_warp_reduce(T v, Op op) {
#pragma unroll
  for (int offset = GP_WARP_SIZE / 2; offset > 0; offset /= 2)
    v = op(v, __shfl_down_sync(GP_FULL_MASK, v, offset));
  return v;
}

/* The first half of gp_block_reduce: each warp reduces, lane 0 of each warp writes to
 * `warp_sums` (GP_WARP_SIZE slots of shared memory), one __syncthreads, then warp 0
 * reduces those, padding missing warps with `identity`. Lane 0 of warp 0 gets op over
 * the block; the other warps get `identity` and may return, since no barrier follows
 * (a kernel whose block total is needed by one warp alone ends this way). Every thread
 * of the block must call it. */
template <typename T, typename Op>
__device__ __forceinline__ T gp_block_reduce_to_warp0(T v, Op op, T identity, T *warp_sums) {
  const int lane = threadIdx.x % GP_WARP_SIZE;
  const int warp = threadIdx.x / GP_WARP_SIZE;
  const int nwarps = (blockDim.x + GP_WARP_SIZE - 1) / GP_WARP_SIZE;
  v = gp_warp_reduce(v, op);
  if (lane == 0) warp_sums[warp] = v;
  __syncthreads();
  T r = identity;
  if (warp == 0) {
    r = (lane < nwarps) ? warp_sums[lane] : identity;
    r = gp_warp_reduce(r, op);
  }
  return r;
}

/* Thread 0 gets op over the block's values (gp_block_reduce_to_warp0, then a second
 * __syncthreads so `warp_sums` may be reused afterwards). Every thread of the block
 * must call it. */
template <typename T, typename Op>
__device__ __forceinline__ T gp_block_reduce(T v, Op op, T identity, T *warp_sums) {
  const T r = gp_block_reduce_to_warp0(v, op, identity, warp_sums);
  __syncthreads();
  return r;
}

#endif
