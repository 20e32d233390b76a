/* gp_topk on CUDA, the simple correct version: every element's key of core/topk.h and
 * its index are written out, sorted as pairs by gp_sort_pairs (stable, so equal keys
 * keep the lower index first), and the first k gathered. O(sort of n); a radix-select
 * threshold pass would leave only the candidates to sort. */
#include "cuda/reduce/reduce_cuda.h"
#include "core/topk.h"

#include <cuda_runtime.h>
#include <stdint.h>

#define GP_TOPK_THREADS 256u

template <typename K>
__global__ void gp_topk_encode_kernel(const K *__restrict__ in, size_t n, gp_key_class c, int largest,
                                      K *keys, unsigned long long *idx) {
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
    keys[i] = (K)gp_topk_key((uint64_t)in[i], sizeof(K) == 8, c, largest);
    idx[i] = i;
  }
}

template <typename K>
__global__ void gp_topk_gather_kernel(const K *__restrict__ in, const unsigned long long *idx, size_t k,
                                      K *values, unsigned long long *indices) {
  for (size_t j = (size_t)blockIdx.x * blockDim.x + threadIdx.x; j < k; j += (size_t)gridDim.x * blockDim.x) {
    const unsigned long long i = idx[j];
    if (values) values[j] = in[i];
    if (indices) indices[j] = i;
  }
}

static unsigned gp_topk_grid(gp_context *ctx, size_t n) {
  size_t g = (n + GP_TOPK_THREADS - 1) / GP_TOPK_THREADS;
  const size_t cap = (size_t)(ctx->info.sm_count > 0 ? ctx->info.sm_count : 1) * 8;
  if (g > cap) g = cap;
  return (unsigned)(g ? g : 1);
}

extern "C" gp_status gp_cuda_topk_encode(gp_context *ctx, gp_dtype type, const void *d_in, size_t n,
                                         int largest, void *d_keys, uint64_t *d_idx) {
  const unsigned g = gp_topk_grid(ctx, n);
  cudaStream_t st = (cudaStream_t)ctx->stream;
  const gp_key_class c = gp_key_class_of(type);
  if (gp_dtype_size(type) == 4)
    gp_topk_encode_kernel<unsigned><<<g, GP_TOPK_THREADS, 0, st>>>(
        (const unsigned *)d_in, n, c, largest, (unsigned *)d_keys, (unsigned long long *)d_idx);
  else
    gp_topk_encode_kernel<unsigned long long><<<g, GP_TOPK_THREADS, 0, st>>>(
        (const unsigned long long *)d_in, n, c, largest, (unsigned long long *)d_keys,
        (unsigned long long *)d_idx);
  GP_LAUNCH_CHECK(ctx, "gp_topk_encode_kernel", g, GP_TOPK_THREADS, 0);
  return GP_OK;
}

extern "C" gp_status gp_cuda_topk_gather(gp_context *ctx, gp_dtype type, const void *d_in,
                                         const uint64_t *d_sorted_idx, size_t k, void *d_values,
                                         uint64_t *d_indices) {
  const unsigned g = gp_topk_grid(ctx, k);
  cudaStream_t st = (cudaStream_t)ctx->stream;
  if (gp_dtype_size(type) == 4)
    gp_topk_gather_kernel<unsigned><<<g, GP_TOPK_THREADS, 0, st>>>(
        (const unsigned *)d_in, (const unsigned long long *)d_sorted_idx, k, (unsigned *)d_values,
        (unsigned long long *)d_indices);
  else
    gp_topk_gather_kernel<unsigned long long><<<g, GP_TOPK_THREADS, 0, st>>>(
        (const unsigned long long *)d_in, (const unsigned long long *)d_sorted_idx, k,
        (unsigned long long *)d_values, (unsigned long long *)d_indices);
  GP_LAUNCH_CHECK(ctx, "gp_topk_gather_kernel", g, GP_TOPK_THREADS, 0);
  return GP_OK;
}
