/* Blocks of a kernel that the context's GPU holds at once (the grid of a kernel that
 * loops over its input), for the reductions' launchers, and the grid of a simple
 * grid-stride kernel. The per-SM occupancy is asked once per kernel and device:
 * `per_sm` is the caller's cache, one static array per kernel instantiation, one int
 * per device ordinal (0 = not asked yet; ordinals from GP_RESIDENT_MAX_DEVICES on ask
 * every call). Threads that race store the same value; the atomics keep that defined.
 * A failed query counts as one block per SM. smem: the dynamic shared memory a block
 * the kernel is launched with. */
#ifndef GP_CUDA_COMMON_RESIDENT_CUH
#define GP_CUDA_COMMON_RESIDENT_CUH

#include <cuda_runtime.h>

#include "core/context.h"

#define GP_RESIDENT_MAX_DEVICES 64

template <typename Kernel>
static unsigned gp_resident_blocks(gp_context *ctx, Kernel kernel, int threads, int *per_sm,
                                   size_t smem = 0) {
  const int dev = (unsigned)ctx->device < GP_RESIDENT_MAX_DEVICES ? ctx->device : -1;
  int b = dev >= 0 ? __atomic_load_n(&per_sm[dev], __ATOMIC_RELAXED) : 0;
  if (b == 0) {
    if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&b, kernel, threads, smem) != cudaSuccess ||
        b < 1) {
      (void)cudaGetLastError();
      b = 1;
    }
    if (dev >= 0) __atomic_store_n(&per_sm[dev], b, __ATOMIC_RELAXED);
  }
  return (unsigned)b * (unsigned)(ctx->info.sm_count > 0 ? ctx->info.sm_count : 1);
}

/* The grid of a grid-stride kernel over n items: one item a thread (`threads` a block),
 * at most `per_sm` blocks a SM, at least one block. */
static inline unsigned gp_stride_grid(const gp_context *ctx, size_t n, unsigned threads,
                                      unsigned per_sm) {
  size_t g = (n + threads - 1) / threads;
  const size_t cap = (size_t)(ctx->info.sm_count > 0 ? ctx->info.sm_count : 1) * per_sm;
  if (g > cap) g = cap;
  return (unsigned)(g ? g : 1);
}

#endif
