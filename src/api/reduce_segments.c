/* gp_reduce_rows and gp_reduce_segments_offsets: argument and offsets checks with
 * messages, the backend choice, staging of host arrays, and the choice between the
 * segmented kernels and, for one huge row, a device-wide reduction. */
#include "core/context.h"
#include "core/host_io.h"
#include "core/reduce_tree.h"
#include "cpu/reduce_cpu.h"

#include <string.h>
#if GP_HAVE_CUDA
#include <cuda_runtime_api.h>
#include "cuda/reduce/reduce_cuda.h"
#endif

/* one row at least this long is one device-wide gp_reduce; several long rows are split
 * into chunks by the segmented kernel (a gp_reduce per row pays each one's tail) */
#define GP_ROWS_WIDE_LEN ((size_t)1 << 20)

static gp_status check_common(gp_context *ctx, gp_op op, gp_dtype type, size_t nseg,
                              const void *out) {
  if ((unsigned)op > (unsigned)GP_MAX)
    return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT,
                   "unknown op %d: use GP_SUM, GP_MIN or GP_MAX", (int)op);
  gp_status s = gp_check_dtype(ctx, type, "dtype");
  if (s != GP_OK) return s;
  if (nseg > 0 && !out)
    return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT,
                   "out is NULL: pass room for %zu %s results (one per segment)", nseg,
                   gp_dtype_name(gp_reduce_out_type(op, type)));
  return GP_OK;
}

#if GP_HAVE_CUDA
static gp_status segments_cuda(gp_context *ctx, gp_op op, gp_dtype type, const void *in,
                               const uint64_t *offsets, size_t row_len, size_t nseg,
                               size_t total, void *out) {
  const size_t es = gp_dtype_size(type), osize = gp_dtype_size(gp_reduce_out_type(op, type));
  const gp_mem_kind kin = total ? gp_mem_kind_of(ctx, in) : GP_MEM_DEVICE;
  const gp_mem_kind koff = offsets ? gp_mem_kind_of(ctx, offsets) : GP_MEM_DEVICE;
  const gp_mem_kind kout = gp_mem_kind_of(ctx, out);
  const int async = kin == GP_MEM_DEVICE && koff == GP_MEM_DEVICE && kout == GP_MEM_DEVICE;
  const int wide = !offsets && row_len >= GP_ROWS_WIDE_LEN && nseg == 1;

  gp_ws_layout layout = {0};
  const size_t off_in = kin == GP_MEM_HOST ? gp_ws_add(&layout, total * es) : 0;
  const size_t off_offs = koff == GP_MEM_HOST ? gp_ws_add(&layout, (nseg + 1) * 8) : 0;
  const size_t off_out = kout == GP_MEM_HOST ? gp_ws_add(&layout, nseg * osize) : 0;
  const size_t scr = wide ? gp_cuda_reduce_scratch_bytes(GP_REDUCE_AUTO, type, row_len, 0)
                          : gp_cuda_reduce_segments_scratch_bytes(op, type, offsets, row_len, nseg);
  const size_t off_scr = scr ? gp_ws_add(&layout, scr) : 0;
  void *base = NULL;
  gp_status s = gp_ws_reserve(ctx, &layout, &base);
  if (s != GP_OK) return s;
  char *ws = (char *)base;
  const char *d_in = (const char *)in;
  const uint64_t *d_off = offsets;
  char *d_out = kout == GP_MEM_HOST ? ws + off_out : (char *)out;
  if (kin == GP_MEM_HOST) {
    if ((s = gp_stage_in(ctx, ws + off_in, in, total * es))) return s;
    d_in = ws + off_in;
  }
  if (koff == GP_MEM_HOST) {
    if ((s = gp_stage_in(ctx, ws + off_offs, offsets, (nseg + 1) * 8))) return s;
    d_off = (const uint64_t *)(ws + off_offs);
  }
  if (wide)
    s = gp_cuda_reduce(ctx, GP_REDUCE_AUTO, op, type, d_in, row_len, ws + off_scr, d_out,
                       GP_TWO_PHASE_DEFAULT_BLOCKS);
  else
    s = gp_cuda_reduce_segments(ctx, op, type, d_in, d_off, row_len, nseg,
                                (double)total / (double)nseg, scr ? ws + off_scr : NULL, d_out);
  if (s != GP_OK) return s;
  if (kout == GP_MEM_HOST) return gp_stage_out(ctx, out, d_out, nseg * osize);
  return async ? GP_OK : gp_sync_stream(ctx);
}
#endif

static gp_status run(gp_context *ctx, gp_op op, gp_dtype type, const void *in,
                     const uint64_t *offsets, size_t row_len, size_t nseg, size_t total,
                     void *out) {
  if (nseg == 0) return GP_OK;
  gp_status s = total ? gp_check_ptr(ctx, in, total, "in") : GP_OK;
  if (s != GP_OK) return s;
#if GP_HAVE_CUDA
  if (ctx->backend == GP_BACKEND_CUDA)
    return segments_cuda(ctx, op, type, in, offsets, row_len, nseg, total, out);
#endif
  if (total && (s = gp_require_host(ctx, in, "in"))) return s;
  if ((s = gp_require_host(ctx, out, "out"))) return s;
  const unsigned blocks = ctx->two_phase_blocks ? ctx->two_phase_blocks
                                                : GP_TWO_PHASE_DEFAULT_BLOCKS;
  return gp_cpu_reduce_segments(ctx, op, type, in, offsets, row_len, nseg, out, blocks);
}

gp_status gp_reduce_rows(gp_context *ctx, gp_op op, gp_dtype type, const void *in, size_t nrows,
                         size_t row_len, void *out) {
  gp_status s = gp_check_ctx(ctx);
  if (s != GP_OK) return s;
  if ((s = check_common(ctx, op, type, nrows, out))) return s;
  if (row_len && nrows > SIZE_MAX / 8 / row_len)
    return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT,
                   "nrows x row_len = %zu x %zu elements does not fit in memory", nrows, row_len);
  return run(ctx, op, type, in, NULL, row_len, nrows, nrows * row_len, out);
}

gp_status gp_reduce_segments_offsets(gp_context *ctx, gp_op op, gp_dtype type, const void *in,
                                     const uint64_t *offsets, size_t nseg, void *out) {
  gp_status s = gp_check_ctx(ctx);
  if (s != GP_OK) return s;
  if ((s = check_common(ctx, op, type, nseg, out))) return s;
  if (nseg == 0) return GP_OK;
  if (!offsets)
    return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT,
                   "offsets is NULL: pass nseg + 1 = %zu uint64 offsets", nseg + 1);
  if (nseg > SIZE_MAX / 16)
    return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT, "nseg = %zu segments does not fit in memory", nseg);
  uint64_t first = 0, last = 0;
  if (gp_mem_kind_of(ctx, offsets) == GP_MEM_HOST) { /* host offsets are checked in full */
    for (size_t i = 0; i < nseg; i++)
      if (offsets[i + 1] < offsets[i])
        return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT,
                       "offsets must not decrease: offsets[%zu] = %llu > offsets[%zu] = %llu",
                       i, (unsigned long long)offsets[i], i + 1,
                       (unsigned long long)offsets[i + 1]);
    first = offsets[0];
    last = offsets[nseg];
  } else {
#if GP_HAVE_CUDA
    GP_CUDA_TRY(ctx, cudaMemcpy(&first, offsets, 8, cudaMemcpyDefault));
    GP_CUDA_TRY(ctx, cudaMemcpy(&last, offsets + nseg, 8, cudaMemcpyDefault));
#endif
    if (last < first)
      return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT,
                     "offsets must not decrease: offsets[0] = %llu > offsets[%zu] = %llu",
                     (unsigned long long)first, nseg, (unsigned long long)last);
  }
  if (last > SIZE_MAX / 8)
    return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT,
                   "offsets[nseg] = %llu elements does not fit in memory", (unsigned long long)last);
  return run(ctx, op, type, in, offsets, 0, nseg, (size_t)last, out);
}
