/* gp_argreduce: argument checks with messages, the backend choice, staging of host input,
 * and delivery of the value and index to host or device memory; gp_argreduce_rows and
 * gp_argreduce_segments_offsets. The algorithms live in src/cpu/argreduce_cpu.c,
 * src/cuda/reduce/argreduce.cu and src/cuda/reduce/argreduce_segments.cu. */
#include "core/context.h"
#include "core/host_io.h"
#include "api/deliver.h"
#include "cpu/argreduce_cpu.h"

#include <stdlib.h>
#include <string.h>
#if GP_HAVE_CUDA
#include <cuda_runtime_api.h>
#include "cuda/reduce/reduce_cuda.h"
#endif

static gp_status check_args(gp_context *ctx, gp_op op, gp_dtype type, const void *in, size_t n,
                            const void *value_out, const uint64_t *index_out) {
  if (op != GP_MIN && op != GP_MAX)
    return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT,
                   "gp_argreduce: op %d is not an arg-reduction: use GP_MIN (argmin) or GP_MAX "
                   "(argmax)", (int)op);
  gp_status s = gp_check_dtype(ctx, type, "dtype");
  if (s != GP_OK) return s;
  if (n == 0)
    return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT,
                   "arg%s of n = 0 elements has no answer: pass n >= 1",
                   op == GP_MIN ? "min" : "max");
  if (n > SIZE_MAX / 8)
    return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT, "n = %zu elements does not fit in memory", n);
  s = gp_check_ptr(ctx, in, n, "in");
  if (s != GP_OK) return s;
  if (!value_out && !index_out)
    return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT,
                   "value_out and index_out are both NULL: pass at least one");
  return GP_OK;
}

#if GP_HAVE_CUDA
static gp_status argreduce_cuda(gp_context *ctx, gp_op op, gp_dtype type, const void *in,
                                size_t n, void *value_out, uint64_t *index_out) {
  const size_t es = gp_dtype_size(type);
  const gp_mem_kind kin = gp_mem_kind_of(ctx, in);
  const int v_dev = value_out && gp_mem_kind_of(ctx, value_out) != GP_MEM_HOST;
  const int i_dev = index_out && gp_mem_kind_of(ctx, index_out) != GP_MEM_HOST;
  const int v_plain = !value_out || gp_mem_kind_of(ctx, value_out) == GP_MEM_DEVICE;
  const int i_plain = !index_out || gp_mem_kind_of(ctx, index_out) == GP_MEM_DEVICE;
  const int async = kin == GP_MEM_DEVICE && v_plain && i_plain;

  gp_ws_layout layout = {0};
  size_t off_stage = 0;
  if (kin == GP_MEM_HOST) off_stage = gp_ws_add(&layout, n * es);
  const size_t off_scratch = gp_ws_add(&layout, gp_cuda_argreduce_scratch_bytes());
  void *base = NULL;
  gp_status s = gp_ws_reserve(ctx, &layout, &base);
  if (s != GP_OK) return s;
  char *ws = (char *)base;
  const void *d_in = in;
  if (kin == GP_MEM_HOST) {
    if ((s = gp_stage_in(ctx, ws + off_stage, in, n * es))) return s;
    d_in = ws + off_stage;
  }
  /* results the caller wants on the host (or not at all) land in the mapped slot:
   * the value at byte 0, the index at byte 8 */
  void *slot_host = NULL, *slot_dev = NULL;
  if ((!v_dev || !i_dev) && (s = gp_result_slot(ctx, &slot_host, &slot_dev))) return s;
  void *d_value = v_dev ? value_out : slot_dev;
  uint64_t *d_index = i_dev ? index_out : (uint64_t *)((char *)slot_dev + 8);
  s = gp_cuda_argreduce(ctx, op, type, d_in, n, ws + off_scratch, d_value, d_index);
  if (s != GP_OK) return s;
  if (v_dev && i_dev) return async ? GP_OK : gp_sync_stream(ctx);
  unsigned char host[16];
  if ((s = gp_deliver_scalar(ctx, host, sizeof host))) return s;
  if (value_out && !v_dev) memcpy(value_out, host, es);
  if (index_out && !i_dev) memcpy(index_out, host + 8, 8);
  return GP_OK;
}
#endif

gp_status gp_argreduce(gp_context *ctx, gp_op op, gp_dtype type, const void *in, size_t n,
                       void *value_out, uint64_t *index_out) {
  gp_status s = gp_check_ctx(ctx);
  if (s != GP_OK) return s;
  s = check_args(ctx, op, type, in, n, value_out, index_out);
  if (s != GP_OK) return s;
#if GP_HAVE_CUDA
  if (ctx->backend == GP_BACKEND_CUDA)
    return argreduce_cuda(ctx, op, type, in, n, value_out, index_out);
#endif
  if ((s = gp_require_host(ctx, in, "in"))) return s;
  if (value_out && (s = gp_require_host(ctx, value_out, "value_out"))) return s;
  if (index_out && (s = gp_require_host(ctx, index_out, "index_out"))) return s;
  unsigned char v[8];
  uint64_t i;
  gp_cpu_argreduce(op, type, in, n, v, &i);
  if (value_out) memcpy(value_out, v, gp_dtype_size(type));
  if (index_out) *index_out = i;
  return GP_OK;
}

/* The checks both per-segment calls share: op, dtype, and (with segments to answer)
 * the outputs. */
static gp_status check_seg_args(gp_context *ctx, gp_op op, gp_dtype type, size_t nseg,
                                const void *value_out, const uint64_t *index_out) {
  if (op != GP_MIN && op != GP_MAX)
    return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT,
                   "op %d is not an arg-reduction: use GP_MIN (argmin) or GP_MAX (argmax)",
                   (int)op);
  gp_status s = gp_check_dtype(ctx, type, "dtype");
  if (s != GP_OK) return s;
  if (nseg && !value_out && !index_out)
    return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT,
                   "value_out and index_out are both NULL: pass at least one");
  return GP_OK;
}

#if GP_HAVE_CUDA
/* One row (or segment) this long is one device-wide gp_argreduce. */
#define GP_ARGSEG_WIDE_LEN ((size_t)1 << 20)

/* The CUDA backend's per-segment arg-reductions: rows (offsets NULL) or host offsets
 * (checked), total = the elements `in` holds. Host arrays are staged through the
 * workspace with the offsets and the plan of long segments; results meant for the host
 * come back by copy. Asynchronous when `in` and both outputs are device memory. */
static gp_status seg_cuda(gp_context *ctx, gp_op op, gp_dtype type, const void *in, size_t total,
                          const uint64_t *offsets, size_t row_len, size_t nseg, void *value_out,
                          uint64_t *index_out) {
  const size_t es = gp_dtype_size(type);
  const gp_mem_kind kin = gp_mem_kind_of(ctx, in);
  const gp_mem_kind kv = value_out ? gp_mem_kind_of(ctx, value_out) : GP_MEM_DEVICE;
  const gp_mem_kind ki = index_out ? gp_mem_kind_of(ctx, index_out) : GP_MEM_DEVICE;
  gp_cuda_argseg_plan plan = {0};
  size_t words = 0, scr;
  if (offsets) {
    words = gp_cuda_argreduce_offsets_plan(offsets, nseg, &plan);
    scr = gp_cuda_argreduce_offsets_scratch_bytes(&plan);
  } else {
    scr = gp_cuda_argreduce_rows_scratch_bytes(row_len, nseg);
  }
  gp_ws_layout layout = {0};
  const size_t o_in = kin == GP_MEM_HOST ? gp_ws_add(&layout, total * es) : 0;
  const size_t o_off = offsets ? gp_ws_add(&layout, (nseg + 1) * 8) : 0;
  const size_t o_words = words ? gp_ws_add(&layout, words * 8) : 0;
  const size_t o_v = value_out && kv == GP_MEM_HOST ? gp_ws_add(&layout, nseg * es) : 0;
  const size_t o_i = index_out && ki == GP_MEM_HOST ? gp_ws_add(&layout, nseg * 8) : 0;
  const size_t o_scr = scr ? gp_ws_add(&layout, scr) : 0;
  void *base = NULL;
  gp_status s = gp_ws_reserve(ctx, &layout, &base);
  if (s != GP_OK) return s;
  char *ws = (char *)base;
  const void *d_in = in;
  if (kin == GP_MEM_HOST) {
    if ((s = gp_stage_in(ctx, ws + o_in, in, total * es))) return s;
    d_in = ws + o_in;
  }
  void *d_v = value_out && kv == GP_MEM_HOST ? ws + o_v : value_out;
  uint64_t *d_i = index_out && ki == GP_MEM_HOST ? (uint64_t *)(ws + o_i) : index_out;
  if (offsets) {
    if ((s = gp_stage_in(ctx, ws + o_off, offsets, (nseg + 1) * 8))) return s;
    if (words) {
      uint64_t *h = malloc(words * 8);
      if (!h)
        return gp_fail(ctx, GP_ERR_OUT_OF_MEMORY,
                       "no host memory for the plan of %zu long segments (%zu bytes)",
                       plan.nlong, words * 8);
      gp_cuda_argreduce_offsets_plan_fill(offsets, nseg, &plan, h);
      s = gp_stage_in(ctx, ws + o_words, h, words * 8);
      free(h);
      if (s != GP_OK) return s;
    }
    s = gp_cuda_argreduce_offsets(ctx, op, type, d_in, (const uint64_t *)(ws + o_off), nseg,
                                  &plan, (const uint64_t *)(ws + o_words), ws + o_scr, d_v, d_i);
  } else {
    s = gp_cuda_argreduce_rows(ctx, op, type, d_in, row_len, nseg, ws + o_scr, d_v, d_i);
  }
  if (s != GP_OK) return s;
  if (value_out && kv == GP_MEM_HOST && (s = gp_stage_out(ctx, value_out, d_v, nseg * es)))
    return s;
  if (index_out && ki == GP_MEM_HOST && (s = gp_stage_out(ctx, index_out, d_i, nseg * 8)))
    return s;
  if (kv == GP_MEM_HOST || ki == GP_MEM_HOST) return GP_OK; /* gp_stage_out waited */
  const int async = kin == GP_MEM_DEVICE && kv == GP_MEM_DEVICE && ki == GP_MEM_DEVICE;
  return async ? GP_OK : gp_sync_stream(ctx);
}
#endif

/* Host arrays, for the CPU backend. */
static gp_status seg_host(gp_context *ctx, const void *in, const void *value_out,
                          const uint64_t *index_out) {
  gp_status s;
  if ((s = gp_require_host(ctx, in, "in"))) return s;
  if (value_out && (s = gp_require_host(ctx, value_out, "value_out"))) return s;
  if (index_out && (s = gp_require_host(ctx, index_out, "index_out"))) return s;
  return GP_OK;
}

gp_status gp_argreduce_rows(gp_context *ctx, gp_op op, gp_dtype type, const void *in,
                            size_t nrows, size_t row_len, void *value_out, uint64_t *index_out) {
  gp_status s = gp_check_ctx(ctx);
  if (s != GP_OK) return s;
  if ((s = check_seg_args(ctx, op, type, nrows, value_out, index_out))) return s;
  if (nrows == 0) return GP_OK; /* nothing to answer */
  if (row_len == 0)
    return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT,
                   "arg%s of rows of 0 elements has no answer: pass row_len >= 1",
                   op == GP_MIN ? "min" : "max");
  if (nrows > SIZE_MAX / 8 / row_len)
    return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT,
                   "nrows x row_len = %zu x %zu elements does not fit in memory", nrows, row_len);
  if ((s = gp_check_ptr(ctx, in, nrows * row_len, "in"))) return s;
#if GP_HAVE_CUDA
  if (ctx->backend == GP_BACKEND_CUDA) {
    if (nrows == 1 && row_len >= GP_ARGSEG_WIDE_LEN)
      return gp_argreduce(ctx, op, type, in, row_len, value_out, index_out);
    return seg_cuda(ctx, op, type, in, nrows * row_len, NULL, row_len, nrows, value_out, index_out);
  }
#endif
  if ((s = seg_host(ctx, in, value_out, index_out))) return s;
  gp_cpu_argreduce_rows(op, type, in, nrows, row_len, value_out, index_out);
  return GP_OK;
}

/* gp_argreduce_segments_offsets with the offsets in host memory. */
static gp_status segments_run(gp_context *ctx, gp_op op, gp_dtype type, const void *in,
                              const uint64_t *offsets, size_t nseg, void *value_out,
                              uint64_t *index_out) {
  gp_status s;
  for (size_t i = 0; i < nseg; i++) {
    if (offsets[i + 1] < offsets[i])
      return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT,
                     "offsets must not decrease: offsets[%zu] = %llu > offsets[%zu] = %llu", i,
                     (unsigned long long)offsets[i], i + 1, (unsigned long long)offsets[i + 1]);
    if (offsets[i + 1] == offsets[i])
      return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT,
                     "segment %zu (offsets[%zu] = offsets[%zu] = %llu) is empty: arg%s of 0 "
                     "elements has no answer", i, i, i + 1, (unsigned long long)offsets[i],
                     op == GP_MIN ? "min" : "max");
  }
  if (offsets[nseg] > SIZE_MAX / 8)
    return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT, "offsets[nseg] = %llu elements does not fit in memory",
                   (unsigned long long)offsets[nseg]);
  if ((s = gp_check_ptr(ctx, in, (size_t)offsets[nseg], "in"))) return s;
#if GP_HAVE_CUDA
  if (ctx->backend == GP_BACKEND_CUDA) {
    if (nseg == 1 && offsets[1] - offsets[0] >= GP_ARGSEG_WIDE_LEN)
      return gp_argreduce(ctx, op, type, (const char *)in + offsets[0] * gp_dtype_size(type),
                          (size_t)(offsets[1] - offsets[0]), value_out, index_out);
    return seg_cuda(ctx, op, type, in, (size_t)offsets[nseg], offsets, 0, nseg, value_out,
                    index_out);
  }
#endif
  if ((s = seg_host(ctx, in, value_out, index_out))) return s;
  gp_cpu_argreduce_offsets(op, type, in, offsets, nseg, value_out, index_out);
  return GP_OK;
}

gp_status gp_argreduce_segments_offsets(gp_context *ctx, gp_op op, gp_dtype type,
                                        const void *in, const uint64_t *offsets, size_t nseg,
                                        void *value_out, uint64_t *index_out) {
  gp_status s = gp_check_ctx(ctx);
  if (s != GP_OK) return s;
  if ((s = check_seg_args(ctx, op, type, nseg, value_out, index_out))) return s;
  if (nseg == 0) return GP_OK; /* nothing to answer */
  if (!offsets)
    return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT,
                   "offsets is NULL: pass nseg + 1 = %zu uint64 offsets", nseg + 1);
  if (nseg > SIZE_MAX / 16)
    return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT, "nseg = %zu segments does not fit in memory", nseg);
  if (gp_mem_kind_of(ctx, offsets) != GP_MEM_DEVICE)
    return segments_run(ctx, op, type, in, offsets, nseg, value_out, index_out);
  if (ctx->backend != GP_BACKEND_CUDA) return gp_require_host(ctx, offsets, "offsets");
  /* device offsets: read on the host (the plan balances long and short segments), after
     the work already on the context's stream */
  uint64_t *h = malloc((nseg + 1) * 8);
  if (!h)
    return gp_fail(ctx, GP_ERR_OUT_OF_MEMORY, "no host memory for a copy of the %zu offsets",
                   nseg + 1);
  s = gp_copy_sync(ctx, h, offsets, (nseg + 1) * 8);
  if (s == GP_OK) s = segments_run(ctx, op, type, in, h, nseg, value_out, index_out);
  free(h);
  return s;
}
