/* Public sorting entry points: gp_sort, gp_sort_pairs, gp_sort_segments. Every
 * argument is checked before any data is touched; then the CPU backend sorts in place,
 * or the CUDA backend sorts device data in place (async) or stages host data through
 * the context workspace (synchronous). */
#include "core/context.h"
#include "core/host_io.h"
#include "cpu/sort_cpu.h"
#if GP_HAVE_CUDA
#include "cuda/sort/sort_cuda.h"
#endif

#include <string.h>

/* Checks everything that does not depend on where the data lives. value_type < 0:
 * keys only. */
static gp_status check_args(gp_context *ctx, gp_dtype kt, const void *keys, int vt,
                            const void *values, size_t n, size_t seg, gp_order order,
                            gp_sort_algo algo) {
  gp_status s = gp_check_dtype(ctx, kt, "key_type");
  if (s) return s;
  if (vt >= 0 && (s = gp_check_dtype(ctx, (gp_dtype)vt, "value_type"))) return s;
  if ((unsigned)order > GP_DESCENDING)
    return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT,
                   "unknown order %d: use GP_ASCENDING or GP_DESCENDING", (int)order);
  if ((unsigned)algo > GP_SORT_BITONIC_SEED)
    return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT,
                   "unknown sort algo %d: use GP_SORT_AUTO, GP_SORT_BITONIC or "
                   "GP_SORT_BITONIC_SEED", (int)algo);
  if (!keys && n > 0)
    return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT, "keys is NULL but n = %zu", n);
  if (vt >= 0 && !values && n > 0)
    return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT,
                   "values is NULL but n = %zu and value_type = %s: pass the values "
                   "array, or call gp_sort for keys alone", n, gp_dtype_name((gp_dtype)vt));
  if (seg == 0)
    return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT,
                   "segment_size is 0: it must be at least 1 (n = %zu)", n);
  if (n % seg != 0)
    return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT,
                   "n must be a multiple of segment_size (n = %zu, segment_size = %zu)",
                   n, seg);
  size_t kb = gp_dtype_size(kt);
  if (n > SIZE_MAX / 16)
    return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT, "n = %zu is too large to address", n);
  if (vt >= 0 && keys && values && n > 0) {
    size_t vb = gp_dtype_size((gp_dtype)vt);
    const char *k = (const char *)keys, *v = (const char *)values;
    if (k < v + n * vb && v < k + n * kb)
      return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT,
                     "keys and values overlap: pass two separate arrays");
  }
  /* the seed's network pads a non-power-of-two n with the largest key; a real key equal
     to it would be indistinguishable from padding, which is harmless for keys but would
     lose values, so pairs take a power of two */
  if (algo == GP_SORT_BITONIC_SEED && vt >= 0 && n > 1 && (n & (n - 1)) != 0)
    return gp_fail(ctx, GP_ERR_UNSUPPORTED,
                   "GP_SORT_BITONIC_SEED sorts pairs only for a power-of-two n (n = %zu): "
                   "use GP_SORT_BITONIC or GP_SORT_AUTO", n);
  return GP_OK;
}

#if GP_HAVE_CUDA
static gp_status cuda_sort(gp_context *ctx, gp_dtype kt, void *keys, int vb, void *values,
                           size_t n, size_t seg, gp_order order, gp_sort_algo algo) {
  size_t kb = gp_dtype_size(kt);
  int desc = order == GP_DESCENDING;
  const gp_mem_kind kk = gp_mem_kind_of(ctx, keys);
  const gp_mem_kind kv = vb ? gp_mem_kind_of(ctx, values) : GP_MEM_DEVICE;
  const int stage_k = kk == GP_MEM_HOST, stage_v = kv == GP_MEM_HOST;
  /* managed memory is sorted where it is, but the host may read it on return */
  const int wait = kk == GP_MEM_MANAGED || kv == GP_MEM_MANAGED;
  int seed = algo == GP_SORT_BITONIC_SEED && seg == n;
  gp_ws_layout lay = {0};
  size_t ok_ = stage_k ? gp_ws_add(&lay, n * kb) : 0;
  size_t ov_ = stage_v ? gp_ws_add(&lay, n * (size_t)vb) : 0;
  size_t scratch = seed ? gp_cuda_bitonic_seed_scratch(kt, n) : 0;
  size_t os_ = scratch ? gp_ws_add(&lay, scratch) : 0;
  void *ws = NULL;
  if (stage_k || stage_v || scratch) {
    gp_status s = gp_ws_reserve(ctx, &lay, &ws);
    if (s) return s;
  }
  void *dk = stage_k ? (char *)ws + ok_ : keys;
  void *dv = stage_v ? (char *)ws + ov_ : values;
  gp_status s;
  if (stage_k && (s = gp_stage_in(ctx, dk, keys, n * kb))) return s;
  if (stage_v && (s = gp_stage_in(ctx, dv, values, n * (size_t)vb))) return s;
  if (seed)
    s = gp_cuda_bitonic_seed_sort(ctx, kt, dk, vb, dv, n, desc, scratch ? (char *)ws + os_ : NULL);
  else
    s = gp_cuda_bitonic_sort(ctx, kt, dk, vb, dv, n / seg, seg, desc);
  if (s) {
    (void)gp_sync_stream(ctx); /* leave nothing in flight that writes host memory */
    return s;
  }
  if (stage_k && (s = gp_stage_out(ctx, keys, dk, n * kb))) return s;
  if (stage_v && (s = gp_stage_out(ctx, values, dv, n * (size_t)vb))) return s;
  return wait ? gp_sync_stream(ctx) : GP_OK;
}
#endif

static gp_status sort_common(gp_context *ctx, gp_dtype kt, void *keys, int vt,
                             void *values, size_t n, size_t seg, gp_order order,
                             gp_sort_algo algo) {
  gp_status s = check_args(ctx, kt, keys, vt, values, n, seg, order, algo);
  if (s) return s;
  int vb = vt >= 0 ? (int)gp_dtype_size((gp_dtype)vt) : 0;
  if (ctx->backend == GP_BACKEND_CPU) {
    if (n > 0) {
      if ((s = gp_require_host(ctx, keys, "keys"))) return s;
      if (vb && (s = gp_require_host(ctx, values, "values"))) return s;
    }
    if (n <= 1 || seg <= 1) return GP_OK;
    return gp_cpu_sort(ctx, kt, keys, vb, vb ? values : NULL, n / seg, seg, order, algo);
  }
#if GP_HAVE_CUDA
  if (n <= 1 || seg <= 1) return GP_OK;
  return cuda_sort(ctx, kt, keys, vb, vb ? values : NULL, n, seg, order, algo);
#else
  return gp_fail(ctx, GP_ERR_UNSUPPORTED, "gpuprims was built without CUDA");
#endif
}

gp_status gp_sort(gp_context *ctx, gp_dtype key_type, void *keys, size_t n,
                  gp_order order, gp_sort_algo algo) {
  gp_status s = gp_check_ctx(ctx);
  if (s) return s;
  return sort_common(ctx, key_type, keys, -1, NULL, n, n ? n : 1, order, algo);
}

gp_status gp_sort_pairs(gp_context *ctx, gp_dtype key_type, void *keys,
                        gp_dtype value_type, void *values, size_t n, gp_order order,
                        gp_sort_algo algo) {
  gp_status s = gp_check_ctx(ctx);
  if (s) return s;
  if ((unsigned)value_type >= GP_DTYPE_COUNT) return gp_check_dtype(ctx, value_type, "value_type");
  return sort_common(ctx, key_type, keys, (int)value_type, values, n, n ? n : 1, order, algo);
}

gp_status gp_sort_segments(gp_context *ctx, gp_dtype key_type, void *keys, size_t n,
                           size_t segment_size, gp_order order) {
  gp_status s = gp_check_ctx(ctx);
  if (s) return s;
  return sort_common(ctx, key_type, keys, -1, NULL, n, segment_size, order, GP_SORT_AUTO);
}
