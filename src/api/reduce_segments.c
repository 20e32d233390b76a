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
/* Where a call's arrays are, and their device views once staged. */
typedef struct seg_io {
  gp_mem_kind kin, koff, kout;
  const char *d_in;
  const uint64_t *d_off;
  char *d_out;
} seg_io;

/* Workspace for the staged host arrays and `scr` scratch bytes; stages the inputs. */
static gp_status seg_stage(gp_context *ctx, seg_io *io, const void *in, size_t in_bytes,
                           const uint64_t *offsets, size_t nseg, void *out, size_t out_bytes,
                           size_t scr, char **scratch) {
  gp_ws_layout layout = {0};
  const size_t off_in = io->kin == GP_MEM_HOST ? gp_ws_add(&layout, in_bytes) : 0;
  const size_t off_offs = io->koff == GP_MEM_HOST ? gp_ws_add(&layout, (nseg + 1) * 8) : 0;
  const size_t off_out = io->kout == GP_MEM_HOST ? gp_ws_add(&layout, out_bytes) : 0;
  const size_t off_scr = scr ? gp_ws_add(&layout, scr) : 0;
  void *base = NULL;
  gp_status s = gp_ws_reserve(ctx, &layout, &base);
  if (s != GP_OK) return s;
  char *ws = (char *)base;
  io->d_in = (const char *)in;
  io->d_off = offsets;
  io->d_out = io->kout == GP_MEM_HOST ? ws + off_out : (char *)out;
  *scratch = scr ? ws + off_scr : NULL;
  if (io->kin == GP_MEM_HOST) {
    if ((s = gp_stage_in(ctx, ws + off_in, in, in_bytes))) return s;
    io->d_in = ws + off_in;
  }
  if (io->koff == GP_MEM_HOST) {
    if ((s = gp_stage_in(ctx, ws + off_offs, offsets, (nseg + 1) * 8))) return s;
    io->d_off = (const uint64_t *)(ws + off_offs);
  }
  return GP_OK;
}

/* The results back to the caller: copied out of the workspace, or left on the stream
 * when every array is device memory. */
static gp_status seg_deliver(gp_context *ctx, const seg_io *io, void *out, size_t out_bytes) {
  if (io->kout == GP_MEM_HOST) return gp_stage_out(ctx, out, io->d_out, out_bytes);
  const int async = io->kin == GP_MEM_DEVICE && io->koff == GP_MEM_DEVICE && io->kout == GP_MEM_DEVICE;
  return async ? GP_OK : gp_sync_stream(ctx);
}

static gp_status rows_cuda(gp_context *ctx, gp_op op, gp_dtype type, const void *in,
                           size_t row_len, size_t nseg, void *out) {
  const size_t total = row_len * nseg, es = gp_dtype_size(type);
  const size_t out_bytes = nseg * gp_dtype_size(gp_reduce_out_type(op, type));
  seg_io io = {total ? gp_mem_kind_of(ctx, in) : GP_MEM_DEVICE, GP_MEM_DEVICE,
               gp_mem_kind_of(ctx, out), NULL, NULL, NULL};
  const int wide = row_len >= GP_ROWS_WIDE_LEN && nseg == 1;
  const size_t scr = wide ? gp_cuda_reduce_scratch_bytes(GP_REDUCE_AUTO, type, row_len, 0)
                          : gp_cuda_reduce_rows_scratch_bytes(op, type, row_len, nseg);
  char *scratch = NULL;
  gp_status s = seg_stage(ctx, &io, in, total * es, NULL, nseg, out, out_bytes, scr, &scratch);
  if (s != GP_OK) return s;
  if (wide)
    s = gp_cuda_reduce(ctx, GP_REDUCE_AUTO, op, type, io.d_in, row_len, scratch, io.d_out,
                       GP_TWO_PHASE_DEFAULT_BLOCKS);
  else
    s = gp_cuda_reduce_rows(ctx, op, type, io.d_in, row_len, nseg, scratch, io.d_out);
  if (s != GP_OK) return s;
  return seg_deliver(ctx, &io, out, out_bytes);
}

/* total: offsets[nseg] when the host read it (in is host memory), else unused; spans:
 * whether a segment may be long (gp_cuda_reduce_offsets). */
static gp_status offsets_cuda(gp_context *ctx, gp_op op, gp_dtype type, const void *in,
                              seg_io io, const uint64_t *offsets, size_t nseg, size_t total,
                              int spans, void *out) {
  const size_t out_bytes = nseg * gp_dtype_size(gp_reduce_out_type(op, type));
  char *scratch = NULL;
  gp_status s = seg_stage(ctx, &io, in, total * gp_dtype_size(type), offsets, nseg, out,
                          out_bytes, gp_cuda_reduce_offsets_scratch_bytes(op, type, spans),
                          &scratch);
  if (s != GP_OK) return s;
  s = gp_cuda_reduce_offsets(ctx, op, type, io.d_in, io.d_off, nseg, spans, scratch, io.d_out);
  if (s != GP_OK) return s;
  return seg_deliver(ctx, &io, out, out_bytes);
}
#endif

/* The CPU backend's segments (rows: offsets NULL), from host memory. */
static gp_status run_cpu(gp_context *ctx, gp_op op, gp_dtype type, const void *in,
                         const uint64_t *offsets, size_t row_len, size_t nseg, size_t total,
                         void *out) {
  gp_status s;
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
  if (nrows == 0) return GP_OK;
  const size_t total = nrows * row_len;
  if (total && (s = gp_check_ptr(ctx, in, total, "in"))) return s;
#if GP_HAVE_CUDA
  if (ctx->backend == GP_BACKEND_CUDA) return rows_cuda(ctx, op, type, in, row_len, nrows, out);
#endif
  return run_cpu(ctx, op, type, in, NULL, row_len, nrows, total, out);
}

/* offsets[0] and offsets[nseg] of device offsets, read in the context's stream order. */
static gp_status read_ends(gp_context *ctx, const uint64_t *offsets, size_t nseg,
                           uint64_t *first, uint64_t *last) {
#if GP_HAVE_CUDA
  if (ctx->backend == GP_BACKEND_CUDA) {
    GP_CUDA_TRY(ctx, cudaMemcpyAsync(first, offsets, 8, cudaMemcpyDefault, (cudaStream_t)ctx->stream));
    GP_CUDA_TRY(ctx, cudaMemcpyAsync(last, offsets + nseg, 8, cudaMemcpyDefault,
                                     (cudaStream_t)ctx->stream));
    return gp_sync_stream(ctx);
  }
  GP_CUDA_TRY(ctx, cudaMemcpy(first, offsets, 8, cudaMemcpyDefault));
  GP_CUDA_TRY(ctx, cudaMemcpy(last, offsets + nseg, 8, cudaMemcpyDefault));
#else
  (void)ctx;
  *first = offsets[0];
  *last = offsets[nseg];
#endif
  return GP_OK;
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
  const gp_mem_kind koff = gp_mem_kind_of(ctx, offsets);
#if GP_HAVE_CUDA
  seg_io io = {GP_MEM_HOST, koff, GP_MEM_HOST, NULL, NULL, NULL};
  if (ctx->backend == GP_BACKEND_CUDA) {
    io.kin = in ? gp_mem_kind_of(ctx, in) : GP_MEM_HOST;
    io.kout = gp_mem_kind_of(ctx, out);
    /* offsets and input on the GPU: nothing is read back, the kernels find the ends */
    if (koff != GP_MEM_HOST && io.kin != GP_MEM_HOST)
      return offsets_cuda(ctx, op, type, in, io, offsets, nseg, 0, 1, out);
  }
#endif
  uint64_t first = 0, last = 0;
  if (koff == GP_MEM_HOST) { /* host offsets are checked in full */
    for (size_t i = 0; i < nseg; i++)
      if (offsets[i + 1] < offsets[i])
        return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT,
                       "offsets must not decrease: offsets[%zu] = %llu > offsets[%zu] = %llu",
                       i, (unsigned long long)offsets[i], i + 1,
                       (unsigned long long)offsets[i + 1]);
    first = offsets[0];
    last = offsets[nseg];
  } else {
    if ((s = read_ends(ctx, offsets, nseg, &first, &last))) return s;
    if (last < first)
      return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT,
                     "offsets must not decrease: offsets[0] = %llu > offsets[%zu] = %llu",
                     (unsigned long long)first, nseg, (unsigned long long)last);
  }
  if (last > SIZE_MAX / 8)
    return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT,
                   "offsets[nseg] = %llu elements does not fit in memory", (unsigned long long)last);
  const size_t total = (size_t)last;
  if (total && (s = gp_check_ptr(ctx, in, total, "in"))) return s;
#if GP_HAVE_CUDA
  if (ctx->backend == GP_BACKEND_CUDA) {
    if (!total) io.kin = GP_MEM_DEVICE; /* nothing to stage */
    const int spans = koff == GP_MEM_HOST ? gp_cuda_reduce_offsets_long(type, offsets, nseg) : 1;
    return offsets_cuda(ctx, op, type, in, io, offsets, nseg, total, spans, out);
  }
#endif
  return run_cpu(ctx, op, type, in, offsets, 0, nseg, total, out);
}
