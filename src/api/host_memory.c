/* gp_host_alloc / gp_host_free: pinned host memory for callers (core/host_io.c
 * recognizes it and copies from it directly). */
#define _POSIX_C_SOURCE 200809L
#include "core/context.h"

#include <stdlib.h>
#if GP_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

gp_status gp_host_alloc(gp_context *ctx, void **p, size_t bytes) {
  gp_status s = gp_check_ctx(ctx);
  if (s) return s;
  if (!p) return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT, "p is NULL: pass the address of a pointer");
  *p = NULL;
  if (bytes == 0) bytes = 1;
#if GP_HAVE_CUDA
  if (ctx->backend == GP_BACKEND_CUDA) {
    cudaError_t e = cudaMallocHost(p, bytes);
    if (e != cudaSuccess) {
      *p = NULL;
      (void)cudaGetLastError();
      return gp_fail(ctx, GP_ERR_OUT_OF_MEMORY,
                     "cannot pin %zu bytes of host memory (%s): pin less, or use ordinary "
                     "memory (the library stages it, more slowly)", bytes, cudaGetErrorString(e));
    }
    return GP_OK;
  }
#endif
  if (posix_memalign(p, 4096, bytes) != 0) {
    *p = NULL;
    return gp_fail(ctx, GP_ERR_OUT_OF_MEMORY, "cannot allocate %zu bytes of host memory", bytes);
  }
  return GP_OK;
}

gp_status gp_host_free(gp_context *ctx, void *p) {
  gp_status s = gp_check_ctx(ctx);
  if (s || !p) return s;
#if GP_HAVE_CUDA
  if (ctx->backend == GP_BACKEND_CUDA) {
    GP_CUDA_TRY(ctx, cudaFreeHost(p));
    return GP_OK;
  }
#endif
  free(p);
  return GP_OK;
}
