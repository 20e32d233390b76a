/* Measured peak memory bandwidth of the GPU: the figure "% of peak" in the benchmarks
 * and `gpuprims info` is relative to. A read-only kernel (what a reduction can at best
 * reach) and a device-to-device cudaMemcpy, each the median of several event-timed runs
 * over a buffer several times the L2, so the cache cannot serve it. */
#include "cuda/common/bandwidth.h"

#include <cuda_runtime.h>
#include <stdint.h>
#include <stdlib.h>

#define BW_THREADS 256
#define BW_RUNS 9

/* Streams the buffer once with 16-byte loads, 4 independent loads in flight per thread
 * per iteration (memory-level parallelism is what saturates HBM); the XOR of everything
 * is written only when it equals a constant it practically never does, which keeps the
 * loads alive at the cost of one compare. Cost: n * 16 bytes of DRAM reads, nothing
 * else of note. */
__global__ void __launch_bounds__(BW_THREADS)
gp_bw_read_kernel(const uint4 *__restrict__ p, size_t n, unsigned *sink) {
  size_t stride = (size_t)gridDim.x * blockDim.x;
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  unsigned acc = 0;
  for (; i + 3 * stride < n; i += 4 * stride) {
    uint4 a = p[i], b = p[i + stride], c = p[i + 2 * stride], d = p[i + 3 * stride];
    acc ^= a.x ^ a.y ^ a.z ^ a.w ^ b.x ^ b.y ^ b.z ^ b.w;
    acc ^= c.x ^ c.y ^ c.z ^ c.w ^ d.x ^ d.y ^ d.z ^ d.w;
  }
  for (; i < n; i += stride) {
    uint4 a = p[i];
    acc ^= a.x ^ a.y ^ a.z ^ a.w;
  }
  if (acc == 0x9E3779B9u) sink[0] = acc;
}

static int cmp_float(const void *a, const void *b) {
  float x = *(const float *)a, y = *(const float *)b;
  return (x > y) - (x < y);
}

/* Times `runs` executions of either the read kernel (copy = 0) or the copy and returns
 * the median milliseconds. */
static gp_status time_runs(gp_context *ctx, int copy, void *buf, size_t bytes, unsigned *sink,
                           int blocks, float *median_ms) {
  cudaStream_t st = (cudaStream_t)ctx->stream;
  cudaEvent_t e0, e1;
  GP_CUDA_TRY(ctx, cudaEventCreate(&e0));
  gp_status s = gp_cuda_status(ctx, (int)cudaEventCreate(&e1), "cudaEventCreate", __FILE__, __LINE__);
  if (s) { cudaEventDestroy(e0); return s; }
  float ms[BW_RUNS];
  size_t half = bytes / 2;
  for (int r = -1; r < BW_RUNS && s == GP_OK; r++) { /* r = -1: warm-up */
    s = gp_cuda_status(ctx, (int)cudaEventRecord(e0, st), "cudaEventRecord", __FILE__, __LINE__);
    if (s) break;
    if (copy) {
      s = gp_cuda_status(ctx, (int)cudaMemcpyAsync((char *)buf + half, buf, half,
                                                   cudaMemcpyDeviceToDevice, st),
                         "cudaMemcpyAsync", __FILE__, __LINE__);
    } else {
      gp_bw_read_kernel<<<blocks, BW_THREADS, 0, st>>>((const uint4 *)buf, bytes / 16, sink);
      s = gp_cuda_launched(ctx, "gp_bw_read_kernel", blocks, BW_THREADS, 0, __FILE__, __LINE__);
    }
    if (s) break;
    s = gp_cuda_status(ctx, (int)cudaEventRecord(e1, st), "cudaEventRecord", __FILE__, __LINE__);
    if (s) break;
    s = gp_cuda_status(ctx, (int)cudaEventSynchronize(e1), "cudaEventSynchronize", __FILE__, __LINE__);
    if (s) break;
    if (r >= 0)
      s = gp_cuda_status(ctx, (int)cudaEventElapsedTime(&ms[r], e0, e1), "cudaEventElapsedTime",
                         __FILE__, __LINE__);
  }
  cudaEventDestroy(e0);
  cudaEventDestroy(e1);
  if (s) return s;
  qsort(ms, BW_RUNS, sizeof ms[0], cmp_float);
  *median_ms = ms[BW_RUNS / 2];
  return GP_OK;
}

extern "C" gp_status gp_cuda_measure_bandwidth(gp_context *ctx, double *read_gbs,
                                               double *copy_gbs) {
  size_t free_b = 0, total_b = 0;
  GP_CUDA_TRY(ctx, cudaMemGetInfo(&free_b, &total_b));
  /* at least 8x L2 and 512 MiB, at most 1 GiB... unless L2 is huge, and never more than
   * half the free memory */
  size_t bytes = (size_t)512 << 20;
  if (ctx->info.l2_bytes * 8 > bytes) bytes = ctx->info.l2_bytes * 8;
  if (bytes > free_b / 2) bytes = free_b / 2;
  bytes &= ~(size_t)((1 << 20) - 1);
  if (bytes < ((size_t)16 << 20))
    return gp_fail(ctx, GP_ERR_OUT_OF_MEMORY,
                   "too little free GPU memory (%zu bytes) to measure bandwidth: free some", free_b);
  void *buf = NULL;
  GP_CUDA_TRY(ctx, cudaMalloc(&buf, bytes + 256));
  unsigned *sink = (unsigned *)((char *)buf + bytes);
  cudaStream_t st = (cudaStream_t)ctx->stream;
  gp_status s = gp_cuda_status(ctx, (int)cudaMemsetAsync(buf, 0x5A, bytes + 256, st),
                               "cudaMemsetAsync", __FILE__, __LINE__);
  int blocks = (ctx->info.sm_count > 0 ? ctx->info.sm_count : 80) * (2048 / BW_THREADS);
  float ms = 0;
  if (s == GP_OK && read_gbs) {
    s = time_runs(ctx, 0, buf, bytes, sink, blocks, &ms);
    if (s == GP_OK) *read_gbs = (double)bytes / (ms * 1e-3) / 1e9;
  }
  if (s == GP_OK && copy_gbs) {
    s = time_runs(ctx, 1, buf, bytes, sink, blocks, &ms);
    if (s == GP_OK) *copy_gbs = (double)bytes / (ms * 1e-3) / 1e9; /* half read + half written */
  }
  cudaError_t fe = cudaFree(buf);
  if (s == GP_OK && fe != cudaSuccess)
    s = gp_cuda_status(ctx, (int)fe, "cudaFree", __FILE__, __LINE__);
  return s;
}
