/* Status names, error recording and CUDA error translation. */
#include "core/context.h"

#include <stdio.h>
#include <string.h>
#if GP_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

const char *gp_status_string(gp_status s) {
  switch (s) {
  case GP_OK: return "GP_OK";
  case GP_ERR_INVALID_ARGUMENT: return "GP_ERR_INVALID_ARGUMENT";
  case GP_ERR_UNSUPPORTED: return "GP_ERR_UNSUPPORTED";
  case GP_ERR_NO_DEVICE: return "GP_ERR_NO_DEVICE";
  case GP_ERR_OUT_OF_MEMORY: return "GP_ERR_OUT_OF_MEMORY";
  case GP_ERR_CUDA: return "GP_ERR_CUDA";
  case GP_ERR_IO: return "GP_ERR_IO";
  case GP_ERR_FORMAT: return "GP_ERR_FORMAT";
  case GP_ERR_PARSE: return "GP_ERR_PARSE";
  }
  return "unknown status";
}

gp_status gp_fail(gp_context *ctx, gp_status status, const char *fmt, ...) {
  if (ctx) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ctx->error, sizeof ctx->error, fmt, ap);
    va_end(ap);
  }
  return status;
}

void gp_clear_error(gp_context *ctx) {
  if (ctx) ctx->error[0] = '\0';
}

const char *gp_last_error(const gp_context *ctx) {
  if (!ctx) return "no context (gp_create failed or was not called)";
  return ctx->error;
}

gp_status gp_cuda_status(gp_context *ctx, int cuda_err, const char *what,
                         const char *file, int line) {
#if GP_HAVE_CUDA
  cudaError_t e = (cudaError_t)cuda_err;
  if (e == cudaSuccess) return GP_OK;
  const char *base = strrchr(file, '/');
  base = base ? base + 1 : file;
  if (e == cudaErrorMemoryAllocation) {
    (void)cudaGetLastError(); /* allocation errors are not sticky: clear it */
    return gp_fail(ctx, GP_ERR_OUT_OF_MEMORY,
                   "out of GPU memory in %s (%s:%d): free device memory or process "
                   "the data in smaller pieces", what, base, line);
  }
  return gp_fail(ctx, GP_ERR_CUDA, "%s failed: %s (%s) (%s:%d)", what,
                 cudaGetErrorString(e), cudaGetErrorName(e), base, line);
#else
  (void)what; (void)file; (void)line;
  if (cuda_err == 0) return GP_OK;
  return gp_fail(ctx, GP_ERR_UNSUPPORTED, "gpuprims was built without CUDA");
#endif
}

gp_status gp_cuda_launched(gp_context *ctx, const char *kernel, unsigned grid, unsigned block,
                           size_t smem, const char *file, int line) {
#if GP_HAVE_CUDA
  int e = (int)cudaPeekAtLastError();
  if (e == (int)cudaSuccess && ctx->debug_sync)
    e = (int)cudaStreamSynchronize((cudaStream_t)ctx->stream);
  if (e == (int)cudaSuccess) return GP_OK;
  char what[160];
  snprintf(what, sizeof what, "%s<<<%u, %u, %zu>>>", kernel, grid, block, smem);
  return gp_cuda_status(ctx, e, what, file, line);
#else
  (void)kernel; (void)grid; (void)block; (void)smem; (void)file; (void)line;
  return gp_fail(ctx, GP_ERR_UNSUPPORTED, "gpuprims was built without CUDA");
#endif
}
