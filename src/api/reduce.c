/* gp_reduce: argument checks with messages, the backend choice, staging of host input
 * into the CUDA workspace, and delivery of the one result element to host or device
 * memory. The algorithms live in src/cpu/reduce*.c and src/cuda/reduce/. */
#include "core/context.h"
#include "core/reduce_tree.h"
#include "core/host_io.h"
#include "api/deliver.h"
#include "cpu/reduce_cpu.h"

#include <string.h>
#if GP_HAVE_CUDA
#include <cuda_runtime_api.h>
#include "cuda/reduce/reduce_cuda.h"
#endif

static gp_status check_args(gp_context *ctx, gp_op op, gp_dtype type, const void *in, size_t n,
                            void *out, gp_reduce_algo algo) {
  if ((unsigned)op > (unsigned)GP_MAX)
    return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT,
                   "unknown op %d: use GP_SUM, GP_MIN or GP_MAX", (int)op);
  gp_status s = gp_check_dtype(ctx, type, "dtype");
  if (s != GP_OK) return s;
  if ((unsigned)algo > (unsigned)GP_REDUCE_WARP_ATOMIC)
    return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT,
                   "unknown reduce algorithm %d: use GP_REDUCE_AUTO, GP_REDUCE_INTERLEAVED, "
                   "GP_REDUCE_SEQUENTIAL, GP_REDUCE_TWO_PHASE or GP_REDUCE_WARP_ATOMIC",
                   (int)algo);
  s = gp_check_ptr(ctx, in, n, "in");
  if (s != GP_OK) return s;
  if (!out)
    return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT,
                   "out is NULL: pass a pointer to one %s element for the result",
                   gp_dtype_name(gp_reduce_out_type(op, type)));
  if (n == 0 && op != GP_SUM)
    return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT,
                   "%s of n = 0 elements has no value: pass n >= 1 (only SUM of an empty "
                   "array is defined, as 0)", op == GP_MIN ? "MIN" : "MAX");
  if (n > SIZE_MAX / 8)
    return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT, "n = %zu elements does not fit in memory", n);
  return GP_OK;
}

#if GP_HAVE_CUDA
/* device: the caller says in and out are device memory (gp_reduce_device): no pointer
 * query unless GPUPRIMS_DEBUG_SYNC=1, which checks the claim */
static gp_status reduce_cuda(gp_context *ctx, gp_op op, gp_dtype type, const void *in, size_t n,
                             void *out, gp_reduce_algo algo, unsigned two_phase_blocks,
                             int device) {
  const size_t esize = gp_dtype_size(type);
  const size_t osize = gp_dtype_size(gp_reduce_out_type(op, type));
  const int query = !device || ctx->debug_sync;
  const gp_mem_kind kin = n && query ? gp_mem_kind_of(ctx, in) : GP_MEM_DEVICE;
  const gp_mem_kind kout = query ? gp_mem_kind_of(ctx, out) : GP_MEM_DEVICE;
  if (device && (kin == GP_MEM_HOST || kout == GP_MEM_HOST))
    return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT,
                   "gp_reduce_device: %s (%p) is host memory: pass device memory, or call "
                   "gp_reduce", kin == GP_MEM_HOST ? "in" : "out",
                   kin == GP_MEM_HOST ? in : (const void *)out);
  const int in_dev = kin != GP_MEM_HOST, out_dev = kout != GP_MEM_HOST;
  /* async only when both are plain device memory; otherwise the caller expects the
   * result readable from the host when we return */
  const int async = kin == GP_MEM_DEVICE && kout == GP_MEM_DEVICE;
  cudaStream_t stream = (cudaStream_t)ctx->stream;

  if (n == 0) { /* SUM of nothing: 0 of the out type */
    if (out_dev) {
      GP_CUDA_TRY(ctx, cudaMemsetAsync(out, 0, osize, stream));
      return async ? GP_OK : gp_sync_stream(ctx);
    }
    memset(out, 0, osize);
    return GP_OK;
  }

  /* plan all device scratch once: staged input and the algorithm's partials; a host
   * result goes straight into the context's mapped result slot */
  gp_ws_layout layout = {0};
  size_t off_stage = 0;
  if (!in_dev) off_stage = gp_ws_add(&layout, n * esize);
  size_t off_scratch = gp_ws_add(&layout, gp_cuda_reduce_scratch_bytes(algo, type, n,
                                                                       two_phase_blocks));
  void *base = NULL;
  gp_status s = gp_ws_reserve(ctx, &layout, &base);
  if (s != GP_OK) return s;
  char *ws = (char *)base;

  const void *d_in = in;
  if (!in_dev) {
    s = gp_stage_in(ctx, ws + off_stage, in, n * esize);
    if (s != GP_OK) return s;
    d_in = ws + off_stage;
  }
  void *d_out = out, *slot_host = NULL;
  if (!out_dev && (s = gp_result_slot(ctx, &slot_host, &d_out))) return s;
  s = gp_cuda_reduce(ctx, algo, op, type, d_in, n, ws + off_scratch, d_out, two_phase_blocks);
  if (s != GP_OK) return s;
  if (out_dev) return async ? GP_OK : gp_sync_stream(ctx);
  return gp_deliver_scalar(ctx, out, osize);
}
#endif

static gp_status reduce(gp_context *ctx, gp_op op, gp_dtype type, const void *in, size_t n,
                        void *out, gp_reduce_algo algo, int device) {
  gp_status s = gp_check_ctx(ctx);
  if (s != GP_OK) return s;
  s = check_args(ctx, op, type, in, n, out, algo);
  if (s != GP_OK) return s;
  const unsigned blocks = ctx->two_phase_blocks ? ctx->two_phase_blocks
                                                : GP_TWO_PHASE_DEFAULT_BLOCKS;
#if GP_HAVE_CUDA
  if (ctx->backend == GP_BACKEND_CUDA)
    return reduce_cuda(ctx, op, type, in, n, out, algo, blocks, device);
#endif
  (void)device;
  if (n > 0) {
    s = gp_require_host(ctx, in, "in");
    if (s != GP_OK) return s;
  }
  s = gp_require_host(ctx, out, "out");
  if (s != GP_OK) return s;
  if (n == 0) {
    memset(out, 0, gp_dtype_size(gp_reduce_out_type(op, type)));
    return GP_OK;
  }
  return gp_cpu_reduce(ctx, op, type, in, n, out, algo, blocks);
}

gp_status gp_reduce(gp_context *ctx, gp_op op, gp_dtype type, const void *in, size_t n,
                    void *out, gp_reduce_algo algo) {
  return reduce(ctx, op, type, in, n, out, algo, 0);
}

gp_status gp_reduce_device(gp_context *ctx, gp_op op, gp_dtype type, const void *in, size_t n,
                           void *out, gp_reduce_algo algo) {
  return reduce(ctx, op, type, in, n, out, algo, 1);
}
