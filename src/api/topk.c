/* gp_topk: argument checks with messages, the backend choice, and on CUDA the choice
 * between the radix select (k <= n / GP_CUDA_TOPK_SELECT_DIV: select the k pairs, sort
 * those; everything in the context workspace) and the full sort of all n pairs (its
 * arrays in one allocation of its own, since gp_sort_pairs uses the workspace), and the
 * copies of the k results to wherever the caller wants them. */
#include "core/context.h"
#include "cpu/topk_cpu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if GP_HAVE_CUDA
#include <cuda_runtime_api.h>
#include "cuda/reduce/reduce_cuda.h"
#include "cuda/reduce/topk_cuda.h"
#include "cuda/sort/sort_cuda.h"
#endif

#if GP_HAVE_CUDA
/* Copies the k results (device: keys decoded to values in place, indices) out. */
static gp_status topk_copy_out(gp_context *ctx, size_t es, size_t k, const void *d_val,
                               const uint64_t *d_idx, void *values, uint64_t *indices) {
  cudaStream_t st = (cudaStream_t)ctx->stream;
  if (values) {
    cudaError_t e = cudaMemcpyAsync(values, d_val, k * es, cudaMemcpyDefault, st);
    if (e != cudaSuccess) return gp_cuda_status(ctx, (int)e, "copying gp_topk's values", __FILE__, __LINE__);
  }
  if (indices) {
    cudaError_t e = cudaMemcpyAsync(indices, d_idx, k * 8, cudaMemcpyDefault, st);
    if (e != cudaSuccess) return gp_cuda_status(ctx, (int)e, "copying gp_topk's indices", __FILE__, __LINE__);
  }
  return GP_OK;
}

/* Radix select of the k pairs (unordered), then two stable radix sorts of those k: by
 * index, then by key, which leaves them by key with ties by index; the keys are decoded
 * to values in place. Everything lives in the context workspace, reserved once (reused
 * by later calls: a fresh allocation of the scratch on every call cost more than the
 * select itself), with the sorts' scratch in it too, so no later reservation moves it.
 * Memory: the select's scratch (gp_cuda_topk_select_scratch_bytes: 560 MB for 2^28
 * f32), k * (size + 8) and the sorts' scratch, + n * size when the input is staged from
 * the host. Measured on the H200 (2^28 f32, 2026-12-01): 0.80-0.85 ms on normal data,
 * 1.14-1.18 ms on uniform [0,1), for k = 16 and 1024 (torch.topk: ~5 ms). */
static gp_status topk_cuda_select(gp_context *ctx, gp_dtype type, const void *in, size_t n,
                                  size_t k, gp_order order, void *values, uint64_t *indices) {
  const size_t es = gp_dtype_size(type);
  const gp_dtype kt = es == 4 ? GP_U32 : GP_U64;
  const int stage = gp_mem_kind_of(ctx, in) == GP_MEM_HOST;
  const int largest = order == GP_DESCENDING;
  const size_t sort1 = gp_cuda_radix_scratch(GP_U64, (int)es, k); /* by index */
  const size_t sort2 = gp_cuda_radix_scratch(kt, 8, k);           /* by key */
  gp_ws_layout lay = {0};
  const size_t o_scr = gp_ws_add(&lay, gp_cuda_topk_select_scratch_bytes(ctx, type, n));
  const size_t o_key = gp_ws_add(&lay, k * es);
  const size_t o_idx = gp_ws_add(&lay, k * 8);
  const size_t o_sort = gp_ws_add(&lay, sort1 > sort2 ? sort1 : sort2);
  const size_t o_in = stage ? gp_ws_add(&lay, n * es) : 0;
  void *ws = NULL;
  gp_status s = gp_ws_reserve(ctx, &lay, &ws);
  if (s == GP_ERR_OUT_OF_MEMORY) {
    char why[256]; /* the allocation's message, copied out of the buffer gp_fail writes */
    snprintf(why, sizeof why, "%s", gp_last_error(ctx));
    return gp_fail(ctx, s,
                   "gp_topk (n = %zu, k = %zu) needs %zu bytes of device workspace and the GPU "
                   "could not allocate them (%s): free device memory or use the CPU backend",
                   n, k, lay.bytes, why);
  }
  if (s != GP_OK) return s;
  char *w = (char *)ws;
  const void *d_in = in;
  void *d_key = w + o_key;
  uint64_t *d_idx = (uint64_t *)(w + o_idx);
  if (stage) {
    cudaError_t e = cudaMemcpyAsync(w + o_in, in, n * es, cudaMemcpyHostToDevice, (cudaStream_t)ctx->stream);
    if (e != cudaSuccess) s = gp_cuda_status(ctx, (int)e, "staging gp_topk's input", __FILE__, __LINE__);
    d_in = w + o_in;
  }
  if (s == GP_OK) s = gp_cuda_topk_select(ctx, type, d_in, n, k, largest, w + o_scr, d_key, d_idx);
  if (s == GP_OK) s = gp_cuda_radix_sort(ctx, GP_U64, d_idx, (int)es, d_key, k, 0, w + o_sort);
  if (s == GP_OK) s = gp_cuda_radix_sort(ctx, kt, d_key, 8, d_idx, k, 0, w + o_sort);
  if (s == GP_OK) s = gp_cuda_topk_decode(ctx, type, largest, d_key, k);
  if (s == GP_OK) s = topk_copy_out(ctx, es, k, d_key, d_idx, values, indices);
  /* the select's count of pairs written (the scratch's first 8 bytes), checked below */
  void *pin = NULL;
  if (s == GP_OK) s = gp_pinned(ctx, sizeof(uint64_t), &pin);
  if (s == GP_OK) {
    cudaError_t e = cudaMemcpyAsync(pin, w + o_scr, sizeof(uint64_t), cudaMemcpyDeviceToHost,
                                    (cudaStream_t)ctx->stream);
    if (e != cudaSuccess) s = gp_cuda_status(ctx, (int)e, "reading gp_topk's count", __FILE__, __LINE__);
  }
  gp_status s2 = gp_sync_stream(ctx);
  if (s != GP_OK) return s;
  if (s2 != GP_OK) return s2;
  uint64_t found;
  memcpy(&found, pin, sizeof found);
  if (found != (uint64_t)k)
    return gp_fail(ctx, GP_ERR_CUDA,
                   "gp_topk's radix select found %llu of the k = %zu elements of n = %zu (an "
                   "internal error: the results are wrong; please report it with the input)",
                   (unsigned long long)found, k, n);
  return GP_OK;
}

/* Above the cut-over: every (key, index) pair of the n elements, sorted (gp_sort_pairs,
 * stable: equal keys keep the lower index first), the first k gathered. Memory: about
 * n * (size + 16) bytes, plus the sort's workspace. */
static gp_status topk_cuda_sort(gp_context *ctx, gp_dtype type, const void *in, size_t n,
                                size_t k, gp_order order, void *values, uint64_t *indices) {
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
  if (s == GP_OK)
    s = topk_copy_out(ctx, es, k, blk + off_val, (const uint64_t *)(blk + off_kidx), values, indices);
  (void)cudaFreeAsync(blk, st);
  gp_status s2 = gp_sync_stream(ctx);
  return s != GP_OK ? s : s2;
}

/* Rows, small k (k <= GP_CUDA_TOPK_ROWS_SELECT_K): 1-4 warps per row select in one read
 * (topk_rows.cu), straight into `values` and `indices` when both are in device memory (or
 * NULL); otherwise through the context workspace (rows * k * (size + 8) bytes), which also
 * holds the input when it is staged from the host. The workspace is kept by the context:
 * a stream-ordered allocation per call went back to the driver at the closing
 * synchronization and cost more than the kernel (H200, 16384 x 1024 f32, k = 8: ~300 us a
 * call from Python, of which the kernel took 71). */
static gp_status topk_rows_cuda_select(gp_context *ctx, gp_dtype type, const void *in,
                                       size_t rows, size_t cols, size_t k, gp_order order,
                                       void *values, uint64_t *indices) {
  const size_t es = gp_dtype_size(type), n = rows * cols;
  const int stage = gp_mem_kind_of(ctx, in) == GP_MEM_HOST;
  const int direct = (!values || gp_mem_kind_of(ctx, values) != GP_MEM_HOST) &&
                     (!indices || gp_mem_kind_of(ctx, indices) != GP_MEM_HOST);
  gp_ws_layout lay = {0};
  const size_t o_val = direct ? 0 : gp_ws_add(&lay, rows * k * es);
  const size_t o_idx = direct ? 0 : gp_ws_add(&lay, rows * k * 8);
  const size_t o_in = stage ? gp_ws_add(&lay, n * es) : 0;
  char *w = NULL;
  if (lay.bytes) {
    gp_status s = gp_ws_reserve(ctx, &lay, (void **)&w);
    if (s != GP_OK) return s;
  }
  gp_status s = GP_OK;
  const void *d_in = in;
  if (stage) {
    cudaError_t e = cudaMemcpyAsync(w + o_in, in, n * es, cudaMemcpyHostToDevice,
                                    (cudaStream_t)ctx->stream);
    if (e != cudaSuccess) s = gp_cuda_status(ctx, (int)e, "staging gp_topk_rows' input", __FILE__, __LINE__);
    d_in = w + o_in;
  }
  void *d_val = direct ? values : (values ? w + o_val : NULL);
  uint64_t *d_idx = direct ? indices : (indices ? (uint64_t *)(w + o_idx) : NULL);
  if (s == GP_OK)
    s = gp_cuda_topk_rows_select(ctx, type, d_in, rows, cols, k, order == GP_DESCENDING, d_val,
                                 d_idx);
  if (s == GP_OK && !direct) s = topk_copy_out(ctx, es, rows * k, d_val, d_idx, values, indices);
  /* device memory in and out: asynchronous on the context's stream (DESIGN.md's rule;
   * the closing wait left the GPU idle until the caller's next launch) */
  if (s == GP_OK && direct && !stage) return GP_OK;
  gp_status s2 = gp_sync_stream(ctx);
  return s != GP_OK ? s : s2;
}

/* Rows, larger k: 4-byte types sort one 64-bit composite (key, position in the row) per
 * element as equal segments of keys alone (composites are unique, so ties go to the lower
 * position); 8-byte types sort every (key, index) pair per row
 * (gp_sort_pairs_segments_offsets, stable). Then the first k of each row are gathered.
 * Memory: about rows * cols * (size + 16) bytes, plus the sort's workspace. */
static gp_status topk_rows_cuda(gp_context *ctx, gp_dtype type, const void *in, size_t rows,
                                size_t cols, size_t k, gp_order order, void *values,
                                uint64_t *indices) {
  if (k <= GP_CUDA_TOPK_ROWS_SELECT_K && cols < ((size_t)1 << 31))
    return topk_rows_cuda_select(ctx, type, in, rows, cols, k, order, values, indices);
  const size_t es = gp_dtype_size(type), n = rows * cols;
  const int stage = gp_mem_kind_of(ctx, in) == GP_MEM_HOST;
  const size_t off_idx = (n * es + 255) & ~(size_t)255;
  const size_t off_in = off_idx + ((n * 8 + 255) & ~(size_t)255);
  const size_t off_val = off_in + (stage ? ((n * es + 255) & ~(size_t)255) : 0);
  const size_t off_kidx = off_val + ((rows * k * es + 255) & ~(size_t)255);
  const size_t bytes = off_kidx + rows * k * 8;
  cudaStream_t st = (cudaStream_t)ctx->stream;
  char *blk = NULL;
  GP_CUDA_TRY(ctx, cudaMallocAsync((void **)&blk, bytes, st));
  uint64_t *offs = NULL; /* the pairs sort's row offsets (8-byte types) */
  gp_status s = GP_OK;
  const void *d_in = in;
  if (stage) {
    cudaError_t e = cudaMemcpyAsync(blk + off_in, in, n * es, cudaMemcpyHostToDevice, st);
    if (e != cudaSuccess) s = gp_cuda_status(ctx, (int)e, "staging gp_topk_rows' input", __FILE__, __LINE__);
    d_in = blk + off_in;
  }
  if (es == 4 && cols <= UINT32_MAX) { /* a 64-bit composite per element, keys alone */
    uint64_t *comp = (uint64_t *)(blk + off_idx);
    if (s == GP_OK) s = gp_cuda_topk_rows_composite(ctx, type, d_in, rows, cols, order == GP_DESCENDING, comp);
    if (s == GP_OK) s = gp_sort_segments(ctx, GP_U64, comp, n, cols, GP_ASCENDING);
    if (s == GP_OK)
      s = gp_cuda_topk_rows_composite_gather(ctx, d_in, comp, rows, cols, k, blk + off_val,
                                             (uint64_t *)(blk + off_kidx));
  } else {
    if (s == GP_OK && !(offs = (uint64_t *)malloc((rows + 1) * sizeof *offs)))
      s = gp_fail(ctx, GP_ERR_OUT_OF_MEMORY, "gp_topk_rows: no host memory for %zu row "
                  "offsets", rows + 1);
    for (size_t r = 0; s == GP_OK && r <= rows; r++) offs[r] = (uint64_t)(r * cols);
    if (s == GP_OK)
      s = gp_cuda_topk_encode(ctx, type, d_in, n, order == GP_DESCENDING, blk, (uint64_t *)(blk + off_idx));
    if (s == GP_OK)
      s = gp_sort_pairs_segments_offsets(ctx, GP_U64, blk, GP_U64, blk + off_idx, offs, rows,
                                         GP_ASCENDING);
    if (s == GP_OK)
      s = gp_cuda_topk_rows_gather(ctx, type, d_in, (const uint64_t *)(blk + off_idx), rows, cols,
                                   k, blk + off_val, (uint64_t *)(blk + off_kidx));
  }
  if (s == GP_OK)
    s = topk_copy_out(ctx, es, rows * k, blk + off_val, (const uint64_t *)(blk + off_kidx), values,
                      indices);
  (void)cudaFreeAsync(blk, st);
  gp_status s2 = gp_sync_stream(ctx);
  free(offs);
  return s != GP_OK ? s : s2;
}

static gp_status topk_cuda(gp_context *ctx, gp_dtype type, const void *in, size_t n, size_t k,
                           gp_order order, void *values, uint64_t *indices) {
  if (k <= n / GP_CUDA_TOPK_SELECT_DIV)
    return topk_cuda_select(ctx, type, in, n, k, order, values, indices);
  return topk_cuda_sort(ctx, type, in, n, k, order, values, indices);
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
  if (gp_cpu_topk(ctx, type, in, n, k, order, values, indices) != GP_OK)
    return gp_fail(ctx, GP_ERR_OUT_OF_MEMORY,
                   "out of host memory for gp_topk of %zu elements (k = %zu) on the CPU "
                   "backend (k <= n / 16 needs 32 bytes per thread per k, larger k a "
                   "stable argsort of all n): free memory or pass a smaller k", n, k);
  return GP_OK;
}

gp_status gp_topk_rows(gp_context *ctx, gp_dtype type, const void *in, size_t rows, size_t cols,
                       size_t k, gp_order order, void *values, uint64_t *indices) {
  gp_status s = gp_check_ctx(ctx);
  if (s != GP_OK) return s;
  if ((s = gp_check_dtype(ctx, type, "dtype"))) return s;
  if (order != GP_ASCENDING && order != GP_DESCENDING)
    return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT,
                   "unknown order %d: use GP_DESCENDING (the k largest) or GP_ASCENDING (the k "
                   "smallest)", (int)order);
  if (k == 0 || k > cols)
    return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT,
                   "k = %zu with rows of %zu: pass 1 <= k <= cols", k, cols);
  if (rows != 0 && cols > SIZE_MAX / 32 / rows)
    return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT,
                   "%zu rows of %zu elements do not fit in memory", rows, cols);
  if (rows == 0) return GP_OK;
  if ((s = gp_check_ptr(ctx, in, rows * cols, "in"))) return s;
  if (!values && !indices)
    return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT,
                   "values and indices are both NULL: pass at least one");
#if GP_HAVE_CUDA
  if (ctx->backend == GP_BACKEND_CUDA)
    return topk_rows_cuda(ctx, type, in, rows, cols, k, order, values, indices);
#endif
  if ((s = gp_require_host(ctx, in, "in"))) return s;
  if (values && (s = gp_require_host(ctx, values, "values"))) return s;
  if (indices && (s = gp_require_host(ctx, indices, "indices"))) return s;
  if (gp_cpu_topk_rows(type, in, rows, cols, k, order, values, indices) != GP_OK)
    return gp_fail(ctx, GP_ERR_OUT_OF_MEMORY,
                   "out of host memory for gp_topk_rows (k = %zu: 32 bytes per thread per "
                   "k): free memory or pass a smaller k", k);
  return GP_OK;
}
