/* Seed 003, 6.24 / Program 6.15 / Table 6.10: the trapezoidal rule sped up in stages.
 *   stage 1  every thread atomicAdds its f(x_i) into one float: n - 1 atomics that all
 *            serialize on one address. Stage 2 removes 31 of every 32.
 *   stage 2  32-thread blocks: a warp sum with shuffles, one atomicAdd per block; but
 *            a 32-thread block leaves the SM's block slots, not its warps, as the limit.
 *            Stage 3 removes that (and 31 of every 32 remaining atomics).
 *   stage 3  Program 6.15: 1024-thread blocks; each warp sums in shared memory
 *            (Shared_mem_sum), lane 0s store warp_sum_arr, __syncthreads, warp 0 sums
 *            warp_sum_arr, one atomicAdd per block.
 * f(x) = x^2 in float, points 0 < i < n; the endpoints are added by the finishing
 * kernel. Grids beyond 2^31 - 1 blocks loop grid-stride (n up to 2^40). */
#include "cuda/integrate/trap_seed.h"
#include "cuda/common/warp_reduce.cuh"

#include <cuda_runtime.h>

#define MAX_BLKSZ 1024
#define WARPSZ 32

static __device__ __forceinline__ float f(float x) { return x * x; }

/* x_i as the seed computes it: float arithmetic on a float index */
static __device__ __forceinline__ float seed_x(float a, float h, unsigned long long i) {
  return a + (float)i * h;
}

/* Cost: one atomicAdd per point, all on one address. */
__global__ void __launch_bounds__(256) trap_stage1(float a, float h, unsigned long long n,
                                                   float *trap_p) {
  const unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;
  for (unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
       i < n; i += stride)
    if (0 < i) atomicAdd(trap_p, f(seed_x(a, h, i)));
}

/* Cost: a 5-step shuffle tree per warp, one atomicAdd per 32 points. */
__global__ void __launch_bounds__(WARPSZ) trap_stage2(float a, float h, unsigned long long n,
                                                      float *trap_p) {
  const unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;
  float my = 0.0f;
  for (unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
       i < n; i += stride)
    if (0 < i) my += f(seed_x(a, h, i));
  const float blk = gp_warp_reduce(my, gp_op_sum());
  if (threadIdx.x == 0) atomicAdd(trap_p, blk);
}

/* Program 6.15's warp sum in shared memory: a tree over the warp's 32 slots. The
 * printed version relies on lockstep warps; __syncwarp makes it correct on Volta+. */
static __device__ __forceinline__ float Shared_mem_sum(float *shared_vals) {
  const int my_lane = threadIdx.x % warpSize;
  for (int s = warpSize / 2; s > 0; s /= 2) {
    if (my_lane < s) shared_vals[my_lane] += shared_vals[my_lane + s];
    __syncwarp();
  }
  return shared_vals[0];
}

/* Program 6.15. Cost: per warp a 5-step shared-memory tree (conflict-free: contiguous
 * slots), one __syncthreads, warp 0's tree over 32 warp sums, one atomicAdd per block
 * of 1024 points. */
__global__ void __launch_bounds__(MAX_BLKSZ) trap_stage3(float a, float h,
                                                        unsigned long long n, float *trap_p) {
  __shared__ float thread_calcs[MAX_BLKSZ];
  __shared__ float warp_sum_arr[WARPSZ];
  const int my_warp = threadIdx.x / warpSize;
  const int my_lane = threadIdx.x % warpSize;
  float *shared_vals = thread_calcs + my_warp * warpSize;
  float blk_result = 0.0f;

  /* 1. this thread's trapezoid heights (one per pass; one pass unless n > 2^41) */
  const unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;
  float mine = 0.0f;
  for (unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
       i < n; i += stride)
    if (0 < i) mine += f(seed_x(a, h, i));
  shared_vals[my_lane] = mine;
  __syncwarp();

  /* 2. intra-warp reduction */
  const float my_result = Shared_mem_sum(shared_vals);
  if (my_lane == 0) warp_sum_arr[my_warp] = my_result;

  /* 3. block barrier */
  __syncthreads();

  /* 4. warp 0 sums the warp sums */
  if (my_warp == 0) {
    if (threadIdx.x >= blockDim.x / warpSize) warp_sum_arr[threadIdx.x] = 0.0f;
    __syncwarp();
    blk_result = Shared_mem_sum(warp_sum_arr);
  }

  /* 5. one atomicAdd per block */
  if (threadIdx.x == 0) atomicAdd(trap_p, blk_result);
}

/* One thread: the endpoints, times h, into a double; resets the accumulator so the
 * next call needs no memset. */
__global__ void trap_finish(float a, float b, float h, float *trap_p, double *out) {
  const float t = *trap_p + 0.5f * (f(a) + f(b));
  *out = (double)(t * h);
  *trap_p = 0.0f;
}

extern "C" gp_status gp_cuda_trap_seed(gp_context *ctx, int stage, float a, float b,
                                       float h, uint64_t n, float *acc, double *out) {
  cudaStream_t s = (cudaStream_t)ctx->stream;
  const unsigned block = stage == 1 ? 256u : stage == 2 ? (unsigned)WARPSZ : (unsigned)MAX_BLKSZ;
  unsigned long long blocks = (n + block - 1) / block;
  const unsigned long long max_blocks = 0x7fffffffull;
  if (blocks > max_blocks) blocks = max_blocks;
  if (blocks == 0) blocks = 1;
  switch (stage) {
  case 1:
    trap_stage1<<<(unsigned)blocks, block, 0, s>>>(a, h, n, acc);
    GP_LAUNCH_CHECK(ctx, "trap_stage1", blocks, block, 0);
    break;
  case 2:
    trap_stage2<<<(unsigned)blocks, block, 0, s>>>(a, h, n, acc);
    GP_LAUNCH_CHECK(ctx, "trap_stage2", blocks, block, 0);
    break;
  default:
    trap_stage3<<<(unsigned)blocks, block, 0, s>>>(a, h, n, acc);
    GP_LAUNCH_CHECK(ctx, "trap_stage3", blocks, block, 0);
    break;
  }
  trap_finish<<<1, 1, 0, s>>>(a, b, h, acc, out);
  GP_LAUNCH_CHECK(ctx, "trap_finish", 1, 1, 0);
  return GP_OK;
}
