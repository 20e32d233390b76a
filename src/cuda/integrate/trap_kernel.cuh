/* The trapezoid kernel that NVRTC compiles for each expression: the tiled sum of
 * src/core/integrate.h, the block tree of warp_reduce.cuh and the last-block-done combine.
 * The includer defines gp_real, gp_f(x), GP_F32, GP_THREADS, GP_ITEMS, GP_TILE and
 * GP_FOLD (codegen.c emits them in front of this file's text, embedded at build time),
 * and may name the kernel (GP_TRAP_KERNEL_NAME) and add parameters after `out`
 * (GP_TRAP_EXTRA_PARAMS): trap_interp.cuh stamps it with an interpreted f, which nvcc
 * compiles into the library. The CPU backend (src/cpu/integrate_cpu.c) replays its
 * order of operations bit for bit. */
#ifndef GP_CUDA_INTEGRATE_TRAP_KERNEL_CUH
#define GP_CUDA_INTEGRATE_TRAP_KERNEL_CUH

#ifndef GP_CUDA_COMMON_WARP_REDUCE_CUH /* NVRTC: codegen puts that file's text in front */
#include "cuda/common/warp_reduce.cuh"
#endif

/* The x of point j of a thread's run: the same formula the CPU backend uses. */
#if GP_F32
#define GP_X(j) fmaf((float)(j), hf, xbf)
#else
#define GP_X(j) fma((double)(j), h, xb)
#endif

/* Cost: per point one fma for x, f, and an F64 add (F32: one per GP_FOLD points);
 * per block one block tree and one ticket atomic; the last block also reads G
 * partials. One launch, nothing stored but G doubles: no memset, no host sync. */
#ifndef GP_TRAP_KERNEL_NAME
#define GP_TRAP_KERNEL_NAME gp_integrate_kernel
#endif
#ifndef GP_TRAP_EXTRA_PARAMS
#define GP_TRAP_EXTRA_PARAMS
#endif
extern "C" __global__ void __launch_bounds__(GP_THREADS) GP_TRAP_KERNEL_NAME(
    const double a, const double b, const double h, const unsigned long long m,
    const unsigned long long tiles, double *partials, unsigned int *counter,
    double *out GP_TRAP_EXTRA_PARAMS) {
  __shared__ double warp_sums[GP_WARP_SIZE];
  const unsigned int t = threadIdx.x;
  const unsigned int G = gridDim.x;
#if GP_F32
  const float hf = (float)h;
#endif
  /* after a cold L2 the ticket's line and this block's partial come from DRAM:
     start those misses now so they overlap the evaluation, not the ticket */
  if (t == 0) {
    asm volatile("prefetch.L2 [%0];" :: "l"(counter));
    asm volatile("prefetch.L2 [%0];" :: "l"(partials + blockIdx.x));
  }
  double acc = 0.0;
  for (unsigned long long tile = blockIdx.x; tile < tiles; tile += G) {
    const unsigned long long k0 = tile * GP_TILE + (unsigned long long)t * GP_ITEMS;
    const double xb = fma((double)(k0 + 1ull), h, a);
#if GP_F32
    const float xbf = (float)xb;
#endif
    /* one copy of the unrolled evaluation: the grid's last, partial tile evaluates
       f past the end too and zeroes those values after, rather than a second
       unrolled copy with a test per point (that copy was a quarter of NVRTC's time:
       32 more calls or inlined f's to optimize; the full tiles skip the zeroing on
       one branch as before, and every kept value is the same f(x)) */
    gp_real v[GP_ITEMS];
#ifdef GP_F_ALL /* the interpreter (trap_interp.cuh): v[j] = f(GP_X(j)) for every j */
    GP_F_ALL(v);
#else
#pragma unroll
    for (int j = 0; j < GP_ITEMS; j++) v[j] = gp_f(GP_X(j));
#endif
    if (k0 + GP_ITEMS > m) {
#pragma unroll
      for (int j = 0; j < GP_ITEMS; j++)
        if (k0 + (unsigned long long)j >= m) v[j] = (gp_real)0;
    }
    /* each GP_FOLD-run of values: a pairwise tree in the evaluation precision
       (short dependency chains), then one F64 add per run */
#pragma unroll
    for (int w = 1; w < GP_FOLD; w *= 2)
#pragma unroll
      for (int j = 0; j < GP_ITEMS; j += 2 * w) v[j] = v[j] + v[j + w];
#pragma unroll
    for (int j0 = 0; j0 < GP_ITEMS; j0 += GP_FOLD) acc += (double)v[j0];
  }
  /* the block's sum (gp_block_reduce's tree); after it only warp 0 has work, so the
     others leave */
  const unsigned int lane = t % GP_WARP_SIZE, warp = t / GP_WARP_SIZE;
  const double bsum = gp_block_reduce_to_warp0(acc, gp_op_sum(), 0.0, warp_sums);
  if (warp != 0) return;
  /* lane 0 stores the partial, so its ticket is a release (orders that store) and an
     acquire (in the last block: orders every block's partial before the reads
     below, which __syncwarp hands to the other lanes); lighter than two fence.sc
     (__threadfence) on the critical path */
  unsigned int last = 0u;
  if (lane == 0) {
    partials[blockIdx.x] = bsum;
    unsigned int ticket;
    asm volatile("atom.acq_rel.gpu.add.u32 %0, [%1], %2;"
                 : "=r"(ticket) : "l"(counter), "r"(1u) : "memory");
    last = ticket == G - 1;
  }
  if (!__shfl_sync(GP_FULL_MASK, last, 0)) return;
  __syncwarp();
  /* the last block's warp 0 combines the partials in a fixed order (lane l adds
     l, l + 32, ...; then the shuffle-down tree) and resets the ticket */
  double s = 0.0;
  for (unsigned int k0 = lane; k0 < G; k0 += 8 * GP_WARP_SIZE) {
    /* eight loads in flight, then the adds in order (one L2 round trip, not eight) */
    double x[8];
#pragma unroll
    for (int j = 0; j < 8; j++) {
      const unsigned int k = k0 + j * GP_WARP_SIZE;
      x[j] = k < G ? ((volatile const double *)partials)[k] : 0.0;
    }
#pragma unroll
    for (int j = 0; j < 8; j++)
      if (k0 + j * GP_WARP_SIZE < G) s += x[j];
  }
  s = gp_warp_reduce(s, gp_op_sum());
  if (lane == 0) {
    const double fa = (double)gp_f((gp_real)a), fb = (double)gp_f((gp_real)b);
    *out = (s + 0.5 * (fa + fb)) * h;
    *counter = 0u;
  }
}

#endif
