/* gp_topk_rows on CUDA (src/api/topk.c picks the path):
 *  - k <= GP_CUDA_TOPK_ROWS_SELECT_K: gp_cuda_topk_rows_select, a block of 4 warps per
 *    row, one read of the row. Every lane keeps its best KM composites (core/topk.h's key,
 *    index) sorted in registers (an element is compared with the lane's worst kept and
 *    inserted only when better); each warp then merges its 32 lists k times by a
 *    shuffle-tree minimum (the owner pops its head), the block's 4 results meet in shared
 *    memory and warp 0 merges them the same way. Composites are unique (indices differ),
 *    so ties go to the lower index and the result equals gp_topk of the row.
 *  - larger k, 4-byte types: each element becomes one 64-bit composite (key << 32 | its
 *    position in the row), unique within the row, the rows are sorted as equal segments
 *    of keys alone (gp_sort_segments) and gp_cuda_topk_rows_composite_gather takes each
 *    row's first k.
 *  - larger k, 8-byte types: every (key, index) pair sorted per row
 *    (gp_sort_pairs_segments_offsets), then gp_cuda_topk_rows_gather takes the first k. */
#include "cuda/reduce/reduce_cuda.h"
#include "core/topk.h"

#include <cuda_runtime.h>
#include <stdint.h>

static unsigned gp_tkr_grid(gp_context *ctx, size_t n) {
  size_t g = (n + 255) / 256;
  const size_t cap = (size_t)(ctx->info.sm_count > 0 ? ctx->info.sm_count : 1) * 8;
  if (g > cap) g = cap;
  return (unsigned)(g ? g : 1);
}

#define GP_TKR_WARPS 4
#define GP_TKR_THREADS (GP_TKR_WARPS * 32)
#define GP_TKR_UNROLL 4

template <typename K>
__device__ __forceinline__ bool gp_tkr_less(K a, unsigned ai, K b, unsigned bi) {
  return a < b || (a == b && ai < bi);
}

/* (key, idx), better than the list's last, into the sorted list kk/ii of KM */
template <typename K, int KM>
__device__ __forceinline__ void gp_tkr_insert(K (&kk)[KM], unsigned (&ii)[KM], K key, unsigned idx) {
  bool placed = false;
#pragma unroll
  for (int j = KM - 1; j > 0; j--) {
    if (!placed) {
      if (gp_tkr_less(key, idx, kk[j - 1], ii[j - 1])) {
        kk[j] = kk[j - 1];
        ii[j] = ii[j - 1];
      } else {
        kk[j] = key;
        ii[j] = idx;
        placed = true;
      }
    }
  }
  if (!placed) {
    kk[0] = key;
    ii[0] = idx;
  }
}

template <typename K, int KM>
__device__ __forceinline__ void gp_tkr_offer(K (&kk)[KM], unsigned (&ii)[KM], K key, unsigned idx) {
  if (gp_tkr_less(key, idx, kk[KM - 1], ii[KM - 1])) gp_tkr_insert<K, KM>(kk, ii, key, idx);
}

/* The warp's k best of its lanes' sorted lists, in order, to (ok, oi) by lane 0 (each
 * list loses the heads taken from it). */
template <typename K, int KM>
__device__ __forceinline__ void gp_tkr_warp_merge(K (&kk)[KM], unsigned (&ii)[KM], unsigned k,
                                                  K *ok, unsigned *oi) {
  const unsigned lane = threadIdx.x & 31;
  for (unsigned j = 0; j < k; j++) {
    K bk = kk[0];
    unsigned bi = ii[0];
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) {
      const K xk = __shfl_xor_sync(0xffffffffu, bk, o);
      const unsigned xi = __shfl_xor_sync(0xffffffffu, bi, o);
      if (gp_tkr_less(xk, xi, bk, bi)) {
        bk = xk;
        bi = xi;
      }
    }
    if (kk[0] == bk && ii[0] == bi) { /* the owner (or, past the real ones, every lane) */
#pragma unroll
      for (int q = 0; q < KM - 1; q++) {
        kk[q] = kk[q + 1];
        ii[q] = ii[q + 1];
      }
      kk[KM - 1] = (K)~(K)0;
      ii[KM - 1] = 0xffffffffu;
    }
    if (lane == 0) {
      ok[j] = bk;
      oi[j] = bi;
    }
  }
}

template <typename K, int KM>
__global__ __launch_bounds__(GP_TKR_THREADS) void gp_topk_rows_select_kernel(
    const K *__restrict__ in, size_t rows, size_t cols, unsigned k, gp_key_class c, int largest,
    K *values, unsigned long long *indices) {
  __shared__ K s_key[GP_TKR_WARPS][KM];
  __shared__ unsigned s_idx[GP_TKR_WARPS][KM];
  __shared__ K f_key[KM];
  __shared__ unsigned f_idx[KM];
  const unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  for (size_t r = blockIdx.x; r < rows; r += gridDim.x) {
    const K *row = in + r * cols;
    K kk[KM];
    unsigned ii[KM];
#pragma unroll
    for (int q = 0; q < KM; q++) {
      kk[q] = (K)~(K)0;
      ii[q] = 0xffffffffu;
    }
    size_t e = threadIdx.x;
    for (; e + (GP_TKR_UNROLL - 1) * GP_TKR_THREADS < cols; e += GP_TKR_UNROLL * GP_TKR_THREADS) {
      K x[GP_TKR_UNROLL];
#pragma unroll
      for (int u = 0; u < GP_TKR_UNROLL; u++) x[u] = __ldg(row + e + u * GP_TKR_THREADS);
#pragma unroll
      for (int u = 0; u < GP_TKR_UNROLL; u++)
        gp_tkr_offer<K, KM>(kk, ii, (K)gp_topk_key((uint64_t)x[u], sizeof(K) == 8, c, largest),
                            (unsigned)(e + u * GP_TKR_THREADS));
    }
    for (; e < cols; e += GP_TKR_THREADS)
      gp_tkr_offer<K, KM>(kk, ii, (K)gp_topk_key((uint64_t)__ldg(row + e), sizeof(K) == 8, c, largest),
                          (unsigned)e);
    gp_tkr_warp_merge<K, KM>(kk, ii, k, s_key[warp], s_idx[warp]);
    __syncthreads();
    if (warp == 0) {
#pragma unroll
      for (int q = 0; q < KM; q++) {
        kk[q] = (K)~(K)0;
        ii[q] = 0xffffffffu;
      }
      for (unsigned j = lane; j < GP_TKR_WARPS * k; j += 32) {
        const unsigned w = j / k, q = j - w * k;
        gp_tkr_offer<K, KM>(kk, ii, s_key[w][q], s_idx[w][q]);
      }
      gp_tkr_warp_merge<K, KM>(kk, ii, k, f_key, f_idx);
      __syncwarp();
      for (unsigned j = lane; j < k; j += 32) {
        const unsigned i = f_idx[j];
        if (values) values[r * k + j] = row[i];
        if (indices) indices[r * k + j] = i;
      }
    }
    __syncthreads(); /* the shared lists are free for the next row */
  }
}

template <typename K, int KM>
static gp_status gp_tkr_launch(gp_context *ctx, const void *d_in, size_t rows, size_t cols,
                               size_t k, gp_key_class c, int largest, void *d_values,
                               uint64_t *d_indices) {
  int per_sm = 0;
  cudaError_t e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(
      &per_sm, gp_topk_rows_select_kernel<K, KM>, GP_TKR_THREADS, 0);
  if (e != cudaSuccess || per_sm < 1) per_sm = 1;
  const size_t cap = (size_t)(ctx->info.sm_count > 0 ? ctx->info.sm_count : 1) * (size_t)per_sm;
  const unsigned g = (unsigned)(rows < cap ? rows : cap);
  gp_topk_rows_select_kernel<K, KM><<<g, GP_TKR_THREADS, 0, (cudaStream_t)ctx->stream>>>(
      (const K *)d_in, rows, cols, (unsigned)k, c, largest, (K *)d_values,
      (unsigned long long *)d_indices);
  GP_LAUNCH_CHECK(ctx, "gp_topk_rows_select_kernel", g, GP_TKR_THREADS, 0);
  return GP_OK;
}

template <typename K>
static gp_status gp_tkr_dispatch(gp_context *ctx, const void *d_in, size_t rows, size_t cols,
                                 size_t k, gp_key_class c, int largest, void *d_values,
                                 uint64_t *d_indices) {
  if (k <= 8) return gp_tkr_launch<K, 8>(ctx, d_in, rows, cols, k, c, largest, d_values, d_indices);
  if (k <= 16) return gp_tkr_launch<K, 16>(ctx, d_in, rows, cols, k, c, largest, d_values, d_indices);
  return gp_tkr_launch<K, 32>(ctx, d_in, rows, cols, k, c, largest, d_values, d_indices);
}

extern "C" gp_status gp_cuda_topk_rows_select(gp_context *ctx, gp_dtype type, const void *d_in,
                                              size_t rows, size_t cols, size_t k, int largest,
                                              void *d_values, uint64_t *d_indices) {
  const gp_key_class c = gp_key_class_of(type);
  if (gp_dtype_size(type) == 4)
    return gp_tkr_dispatch<unsigned>(ctx, d_in, rows, cols, k, c, largest, d_values, d_indices);
  return gp_tkr_dispatch<unsigned long long>(ctx, d_in, rows, cols, k, c, largest, d_values,
                                             d_indices);
}

/* Rows: of each row's sorted (key, global index) pairs (rows x cols), the first k; the
 * indices become positions within the row. */
template <typename K>
__global__ void gp_topk_rows_gather_kernel(const K *__restrict__ in, const unsigned long long *idx,
                                           size_t rows, size_t cols, size_t k, K *values,
                                           unsigned long long *indices) {
  const size_t total = rows * k;
  for (size_t j = (size_t)blockIdx.x * blockDim.x + threadIdx.x; j < total;
       j += (size_t)gridDim.x * blockDim.x) {
    const size_t r = j / k;
    const unsigned long long i = idx[r * cols + (j - r * k)];
    if (values) values[j] = in[i];
    if (indices) indices[j] = i - r * cols;
  }
}

extern "C" gp_status gp_cuda_topk_rows_gather(gp_context *ctx, gp_dtype type, const void *d_in,
                                              const uint64_t *d_sorted_idx, size_t rows,
                                              size_t cols, size_t k, void *d_values,
                                              uint64_t *d_indices) {
  const unsigned g = gp_tkr_grid(ctx, rows * k);
  cudaStream_t st = (cudaStream_t)ctx->stream;
  if (gp_dtype_size(type) == 4)
    gp_topk_rows_gather_kernel<unsigned><<<g, 256, 0, st>>>(
        (const unsigned *)d_in, (const unsigned long long *)d_sorted_idx, rows, cols, k,
        (unsigned *)d_values, (unsigned long long *)d_indices);
  else
    gp_topk_rows_gather_kernel<unsigned long long><<<g, 256, 0, st>>>(
        (const unsigned long long *)d_in, (const unsigned long long *)d_sorted_idx, rows, cols,
        k, (unsigned long long *)d_values, (unsigned long long *)d_indices);
  GP_LAUNCH_CHECK(ctx, "gp_topk_rows_gather_kernel", g, 256, 0);
  return GP_OK;
}

/* 4-byte types, larger k: composites (key << 32 | position in the row) */
__global__ void gp_topk_rows_composite_kernel(const unsigned *__restrict__ in, size_t n, size_t cols,
                                              gp_key_class c, int largest,
                                              unsigned long long *comp) {
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (size_t)gridDim.x * blockDim.x)
    comp[i] = (unsigned long long)gp_topk_key((uint64_t)in[i], 0, c, largest) << 32 |
              (unsigned long long)(i % cols);
}

__global__ void gp_topk_rows_composite_gather_kernel(const unsigned *__restrict__ in,
                                                     const unsigned long long *comp, size_t rows,
                                                     size_t cols, size_t k, unsigned *values,
                                                     unsigned long long *indices) {
  const size_t total = rows * k;
  for (size_t j = (size_t)blockIdx.x * blockDim.x + threadIdx.x; j < total;
       j += (size_t)gridDim.x * blockDim.x) {
    const size_t r = j / k;
    const unsigned i = (unsigned)comp[r * cols + (j - r * k)];
    if (values) values[j] = in[r * cols + i];
    if (indices) indices[j] = i;
  }
}


extern "C" gp_status gp_cuda_topk_rows_composite(gp_context *ctx, gp_dtype type, const void *d_in,
                                                 size_t rows, size_t cols, int largest,
                                                 uint64_t *d_comp) {
  const size_t n = rows * cols;
  const unsigned g = gp_tkr_grid(ctx, n);
  gp_topk_rows_composite_kernel<<<g, 256, 0, (cudaStream_t)ctx->stream>>>(
      (const unsigned *)d_in, n, cols, gp_key_class_of(type), largest,
      (unsigned long long *)d_comp);
  GP_LAUNCH_CHECK(ctx, "gp_topk_rows_composite_kernel", g, 256, 0);
  return GP_OK;
}

extern "C" gp_status gp_cuda_topk_rows_composite_gather(gp_context *ctx, const void *d_in,
                                                        const uint64_t *d_comp, size_t rows,
                                                        size_t cols, size_t k, void *d_values,
                                                        uint64_t *d_indices) {
  const unsigned g = gp_tkr_grid(ctx, rows * k);
  gp_topk_rows_composite_gather_kernel<<<g, 256, 0, (cudaStream_t)ctx->stream>>>(
      (const unsigned *)d_in, (const unsigned long long *)d_comp, rows, cols, k,
      (unsigned *)d_values, (unsigned long long *)d_indices);
  GP_LAUNCH_CHECK(ctx, "gp_topk_rows_composite_gather_kernel", g, 256, 0);
  return GP_OK;
}
