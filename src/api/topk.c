/* gp_topk: argument checks with messages, the backend choice, and on CUDA the temporary
 * key / index arrays (their own allocation: gp_sort_pairs uses the context workspace)
 * and the copies of the k results to wherever the caller wants them. */
#include "core/context.h"
#include "cpu/topk_cpu.h"

#include <string.h>
#if GP_HAVE_CUDA
#include <cuda_runtime_api.h>
#include "cuda/reduce/reduce_cuda.h"
#endif

#if GP_HAVE_CUDA
static gp_status topk_cuda(gp_context *ctx, gp_dtype type, const void *in, size_t n, size_t k,
                           gp_order order, void *values, uint64_t *indices) {
  const size_t es = gp_dtype_size(type);
  const int stage = gp_mem_kind_of(ctx, in) == GP_MEM_HOST;
  /* one block: keys (n x es), indices (n x 8), staged input, k results */
  const size_t off_idx = (n * es + 255) & ~(size_t)255;
  const size_t off_in = off_idx + ((n * 8 + 255) & ~(size_t)255);
  const size_t off_val = off_in + (stage ? ((n * es + 255) & ~(size_t)255) : 0);
  const size_t off_kidx = off_val + ((k * es + 255) & ~(size_t)255);
  const size_t bytes = off_kidx + k * 8;
  cudaStream_t st = (cudaStream_t)ctx->stream;
  char *blk = NULL;
  GP_CUDA_TRY(ctx, cudaMallocAsync((void **)&blk, bytes, st));
  gp_status s = GP_OK;
  const void *d_in = in;
  if (stage) {
    cudaError_t e = cudaMemcpyAsync(blk + off_in, in, n * es, cudaMemcpyHostToDevice, st);
    if (e != cudaSuccess) s = gp_cuda_status(ctx, (int)e, "staging gp_topk's input", __FILE__, __LINE__);
    d_in = blk + off_in;
  }
  if (s == GP_OK)
    s = gp_cuda_topk_encode(ctx, type, d_in, n, order == GP_DESCENDING, blk, (uint64_t *)(blk + off_idx));
  if (s == GP_OK)
    s = gp_sort_pairs(ctx, es == 4 ? GP_U32 : GP_U64, blk, GP_U64, blk + off_idx, n, GP_ASCENDING,
                      GP_SORT_AUTO);
  if (s == GP_OK)
    s = gp_cuda_topk_gather(ctx, type, d_in, (const uint64_t *)(blk + off_idx), k, blk + off_val,
                            (uint64_t *)(blk + off_kidx));
  if (s == GP_OK && values) {
    cudaError_t e = cudaMemcpyAsync(values, blk + off_val, k * es, cudaMemcpyDefault, st);
    if (e != cudaSuccess) s = gp_cuda_status(ctx, (int)e, "copying gp_topk's values", __FILE__, __LINE__);
  }
  if (s == GP_OK && indices) {
    cudaError_t e = cudaMemcpyAsync(indices, blk + off_kidx, k * 8, cudaMemcpyDefault, st);
    if (e != cudaSuccess) s = gp_cuda_status(ctx, (int)e, "copying gp_topk's indices", __FILE__, __LINE__);
  }
  (void)cudaFreeAsync(blk, st);
  gp_status s2 = gp_sync_stream(ctx);
  return s != GP_OK ? s : s2;
}
#endif

gp_status gp_topk(gp_context *ctx, gp_dtype type, const void *in, size_t n, size_t k,
                  gp_order order, void *values, uint64_t *indices) {
  gp_status s = gp_check_ctx(ctx);
  if (s != GP_OK) return s;
  if ((s = gp_check_dtype(ctx, type, "dtype"))) return s;
  if (order != GP_ASCENDING && order != GP_DESCENDING)
    return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT,
                   "unknown order %d: use GP_DESCENDING (the k largest) or GP_ASCENDING (the k "
                   "smallest)", (int)order);
  if (k == 0 || k > n)
    return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT,
                   "k = %zu with n = %zu: pass 1 <= k <= n", k, n);
  if (n > SIZE_MAX / 32)
    return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT, "n = %zu elements does not fit in memory", n);
  if ((s = gp_check_ptr(ctx, in, n, "in"))) return s;
  if (!values && !indices)
    return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT,
                   "values and indices are both NULL: pass at least one");
#if GP_HAVE_CUDA
  if (ctx->backend == GP_BACKEND_CUDA) return topk_cuda(ctx, type, in, n, k, order, values, indices);
#endif
  if ((s = gp_require_host(ctx, in, "in"))) return s;
  if (values && (s = gp_require_host(ctx, values, "values"))) return s;
  if (indices && (s = gp_require_host(ctx, indices, "indices"))) return s;
  if (gp_cpu_topk(type, in, n, k, order, values, indices) != 0)
    return gp_fail(ctx, GP_ERR_OUT_OF_MEMORY,
                   "out of host memory for gp_topk's %zu (key, index) pairs", n);
  return GP_OK;
}
