/* Device workspace (planned by a layout, reserved once per call, reused), pinned
 * result buffer, pointer kinds and host/device copies. */
#include "core/context.h"

#include <stdint.h>
#include <string.h>
#if GP_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

size_t gp_ws_add(gp_ws_layout *layout, size_t bytes) {
  size_t off = (layout->bytes + 255) & ~(size_t)255;
  layout->bytes = off + bytes;
  return off;
}

gp_status gp_ws_reserve(gp_context *ctx, const gp_ws_layout *layout, void **base) {
  *base = NULL;
#if GP_HAVE_CUDA
  size_t need = layout->bytes ? layout->bytes : 256;
  if (ctx->ws_bytes < need) {
    if (ctx->ws) {
      /* cudaFree waits for work that may still use the old buffer */
      GP_CUDA_TRY(ctx, cudaFree(ctx->ws));
      ctx->ws = NULL;
      ctx->ws_bytes = 0;
    }
    size_t grow = need + need / 4; /* headroom so slowly growing sizes don't realloc */
    if (cudaMalloc(&ctx->ws, grow) != cudaSuccess) {
      (void)cudaGetLastError();
      ctx->ws = NULL;
      GP_CUDA_TRY(ctx, cudaMalloc(&ctx->ws, need));
      grow = need;
    }
    ctx->ws_bytes = grow;
  }
  *base = ctx->ws;
  return GP_OK;
#else
  (void)layout;
  return gp_fail(ctx, GP_ERR_UNSUPPORTED, "gpuprims was built without CUDA");
#endif
}

gp_status gp_pinned(gp_context *ctx, size_t bytes, void **p) {
  *p = NULL;
#if GP_HAVE_CUDA
  if (ctx->pinned_bytes < bytes) {
    if (ctx->pinned) {
      GP_CUDA_TRY(ctx, cudaFreeHost(ctx->pinned));
      ctx->pinned = NULL;
      ctx->pinned_bytes = 0;
    }
    size_t want = bytes < 4096 ? 4096 : bytes;
    GP_CUDA_TRY(ctx, cudaMallocHost(&ctx->pinned, want));
    ctx->pinned_bytes = want;
  }
  *p = ctx->pinned;
  return GP_OK;
#else
  (void)bytes;
  return gp_fail(ctx, GP_ERR_UNSUPPORTED, "gpuprims was built without CUDA");
#endif
}

gp_mem_kind gp_mem_kind_of(gp_context *ctx, const void *p) {
#if GP_HAVE_CUDA
  if (!p || ctx->no_cuda) return GP_MEM_HOST;
  struct cudaPointerAttributes a;
  const cudaError_t e = cudaPointerGetAttributes(&a, p);
  if (e != cudaSuccess) {
    (void)cudaGetLastError(); /* no driver, or an unregistered pointer: host memory */
    /* no driver or no device is for the life of the process: no device memory can
       exist, so later calls skip the query (~0.1 us each, two or three a call) */
    if (e == cudaErrorInsufficientDriver || e == cudaErrorNoDevice) ctx->no_cuda = 1;
    return GP_MEM_HOST;
  }
  switch (a.type) {
  case cudaMemoryTypeDevice: return GP_MEM_DEVICE;
  case cudaMemoryTypeManaged: return GP_MEM_MANAGED;
  default: return GP_MEM_HOST;
  }
#else
  (void)ctx; (void)p;
  return GP_MEM_HOST;
#endif
}

gp_status gp_require_host(gp_context *ctx, const void *p, const char *what) {
  if (gp_mem_kind_of(ctx, p) == GP_MEM_DEVICE)
    return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT,
                   "%s is GPU device memory, which the CPU backend cannot read: use a CUDA "
                   "context, or copy the data to host memory", what);
  return GP_OK;
}

gp_status gp_check_dtype(gp_context *ctx, gp_dtype t, const char *what) {
  if ((unsigned)t >= GP_DTYPE_COUNT)
    return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT,
                   "unknown %s %d: use one of GP_F32, GP_F64, GP_I32, GP_I64, GP_U32, GP_U64",
                   what, (int)t);
  return GP_OK;
}

gp_status gp_check_ptr(gp_context *ctx, const void *p, size_t n, const char *what) {
  if (!p && n > 0)
    return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT, "%s is NULL but n = %zu", what, n);
  return GP_OK;
}

gp_status gp_copy(gp_context *ctx, void *dst, const void *src, size_t bytes) {
  (void)ctx;
  if (bytes == 0) return GP_OK;
#if GP_HAVE_CUDA
  if (ctx->backend == GP_BACKEND_CUDA) {
    GP_CUDA_TRY(ctx, cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDefault,
                                     (cudaStream_t)ctx->stream));
    return GP_OK;
  }
#endif
  memmove(dst, src, bytes);
  return GP_OK;
}

gp_status gp_copy_sync(gp_context *ctx, void *dst, const void *src, size_t bytes) {
  gp_status s = gp_copy(ctx, dst, src, bytes);
  if (s != GP_OK) return s;
  return gp_sync_stream(ctx);
}
