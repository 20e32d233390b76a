/* Public sorting entry points: gp_sort, gp_sort_pairs, gp_sort_segments, gp_argsort and
 * the offsets segments. Every argument is checked before any data is touched; then the
 * CPU backend sorts in place, or the CUDA backend sorts device data in place (async) or
 * stages host data through the context workspace (synchronous). AUTO's choice between
 * the one-cluster rank sort, bitonic and radix is here (crossover constants in
 * cuda/sort/radix_policy.h). */
#include "core/context.h"
#include "core/host_io.h"
#include "cpu/sort_cpu.h"
#if GP_HAVE_CUDA
#include "cuda/sort/radix_policy.h"
#include "cuda/sort/sort_cuda.h"
#endif

#include <stdlib.h>
#include <string.h>

/* Do the byte ranges [a, a + ab) and [b, b + bb) share a byte? (empty ranges never do) */
static int overlap(const void *a, size_t ab, const void *b, size_t bb) {
  const char *x = (const char *)a, *y = (const char *)b;
  return ab && bb && x < y + bb && y < x + ab;
}

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
  if ((unsigned)algo > GP_SORT_RADIX)
    return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT,
                   "unknown sort algo %d: use GP_SORT_AUTO, GP_SORT_BITONIC, "
                   "GP_SORT_BITONIC_SEED or GP_SORT_RADIX", (int)algo);
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
  if (vt >= 0 && keys && values && overlap(keys, n * kb, values, n * gp_dtype_size((gp_dtype)vt)))
    return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT, "keys and values overlap: pass two separate arrays");
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
/* A workspace reservation that fails for lack of memory says how much was needed. */
static gp_status reserve(gp_context *ctx, const gp_ws_layout *lay, void **ws, const char *what) {
  gp_status s = gp_ws_reserve(ctx, lay, ws);
  if (s == GP_ERR_OUT_OF_MEMORY)
    return gp_fail(ctx, s,
                   "%s needs %zu bytes of device workspace and the GPU could not allocate "
                   "them (%s); the data is untouched: free device memory, sort fewer keys, "
                   "or use the CPU backend", what, lay->bytes, gp_last_error(ctx));
  return s;
}

/* GPU AUTO: pairs by radix (the bitonic network is not stable) past use_composite's
   sizes; keys alone by bitonic for segments and for single sorts up to the measured
   crossover. */
static int use_radix(size_t kb, size_t n, size_t seg, int vb, gp_sort_algo algo) {
  if (algo == GP_SORT_RADIX) return 1;
  if (algo != GP_SORT_AUTO) return 0;
  if (vb) return seg == n;
  return seg == n && n > ((size_t)1 << (kb == 8 ? GP_RX_AUTO_LOG2_KEYS8 : GP_RX_AUTO_LOG2_KEYS));
}

/* GPU AUTO: stable pairs of 4-byte keys from above the radix middle block up to the
   measured crossover by the bitonic sort of (key, index) composites */
static int use_composite(size_t kb, size_t n, size_t seg, int vb, gp_sort_algo algo) {
  return algo == GP_SORT_AUTO && vb && kb == 4 && seg == n &&
         n > (size_t)GP_RX_MID_THREADS * GP_RX_MID_ITEMS &&
         n <= ((size_t)1 << GP_RX_PAIRS_BITONIC_LOG2);
}

/* src: where staged host keys are read from (NULL: keys; gp_sort_copy passes its input so
   that a host-to-host sorted copy is staged in once, with no host copy first) */
static gp_status cuda_sort(gp_context *ctx, gp_dtype kt, void *keys, int vb, void *values,
                           size_t n, size_t seg, gp_order order, gp_sort_algo algo,
                           const void *src) {
  size_t kb = gp_dtype_size(kt);
  int desc = order == GP_DESCENDING;
  const gp_mem_kind kk = gp_mem_kind_of(ctx, keys);
  const gp_mem_kind kv = vb ? gp_mem_kind_of(ctx, values) : GP_MEM_DEVICE;
  const int stage_k = kk == GP_MEM_HOST, stage_v = kv == GP_MEM_HOST;
  /* managed memory is sorted where it is, but the host may read it on return */
  const int wait = kk == GP_MEM_MANAGED || kv == GP_MEM_MANAGED;
  int seed = algo == GP_SORT_BITONIC_SEED && seg == n;
  /* AUTO's small single sorts: the whole GPU or one cluster ranks them (stable), ahead
     of the rest */
  const int grs = algo == GP_SORT_AUTO && seg == n && gp_cuda_grid_rank_takes(ctx, kt, vb, GP_GRS_IN_PLACE, n);
  const int rank = !grs && algo == GP_SORT_AUTO && seg == n && gp_cuda_rank_sort_takes(ctx, kt, vb, 0, n);
  const int comp = !grs && !rank && use_composite(kb, n, seg, vb, algo);
  int radix = !grs && !rank && !comp && use_radix(kb, n, seg, vb, algo);
  gp_ws_layout lay = {0};
  size_t ok_ = stage_k ? gp_ws_add(&lay, n * kb) : 0;
  size_t ov_ = stage_v ? gp_ws_add(&lay, n * (size_t)vb) : 0;
  size_t scratch = grs     ? gp_cuda_grid_rank_scratch(kt, vb, n)
                   : seed  ? gp_cuda_bitonic_seed_scratch(kt, n)
                   : comp  ? gp_cuda_composite_pairs_scratch(vb, n)
                   : radix ? gp_cuda_radix_scratch(kt, vb, n)
                           : 0;
  size_t os_ = scratch ? gp_ws_add(&lay, scratch) : 0;
  void *ws = NULL;
  if (stage_k || stage_v || scratch) {
    gp_status s = reserve(ctx, &lay, &ws, "this sort");
    if (s) return s;
  }
  void *dk = stage_k ? (char *)ws + ok_ : keys;
  void *dv = stage_v ? (char *)ws + ov_ : values;
  void *sc = scratch ? (char *)ws + os_ : NULL;
  gp_status s;
  if (stage_k && (s = gp_stage_in(ctx, dk, src ? src : keys, n * kb))) return s;
  if (stage_v && (s = gp_stage_in(ctx, dv, values, n * (size_t)vb))) return s;
  if (grs)
    s = gp_cuda_grid_rank_sort(ctx, kt, dk, vb, dv, n, desc, sc);
  else if (rank)
    s = gp_cuda_rank_sort(ctx, kt, dk, vb, dv, n, desc);
  else if (seed)
    s = gp_cuda_bitonic_seed_sort(ctx, kt, dk, vb, dv, n, desc, sc);
  else if (comp)
    s = gp_cuda_composite_pairs(ctx, kt, dk, vb, dv, n, desc, sc);
  else if (radix)
    s = gp_cuda_radix_sort(ctx, kt, dk, vb, dv, n, desc, sc);
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
  return cuda_sort(ctx, kt, keys, vb, vb ? values : NULL, n, seg, order, algo, NULL);
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

/* ---- a sorted copy ------------------------------------------------------------------ */
gp_status gp_sort_copy(gp_context *ctx, gp_dtype key_type, const void *in, void *out, size_t n,
                       gp_order order, gp_sort_algo algo) {
  gp_status s = gp_check_ctx(ctx);
  if (s) return s;
  if (in == out) return gp_sort(ctx, key_type, out, n, order, algo);
  if (n > 0 && !out) return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT, "out is NULL but n = %zu", n);
  if ((s = check_args(ctx, key_type, out, -1, NULL, n, n ? n : 1, order, algo))) return s;
  if (n > 0 && !in) return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT, "in is NULL but n = %zu", n);
  const size_t bytes = n * gp_dtype_size(key_type);
  if (overlap(in, bytes, out, bytes))
    return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT,
                   "in and out overlap: pass two separate arrays, or the same array "
                   "twice to sort it in place");
  if (n == 0) return GP_OK;
  if (ctx->backend == GP_BACKEND_CPU) {
    if ((s = gp_require_host(ctx, in, "in")) || (s = gp_require_host(ctx, out, "out"))) return s;
    memcpy(out, in, bytes);
    return sort_common(ctx, key_type, out, -1, NULL, n, n, order, algo);
  }
#if GP_HAVE_CUDA
  const gp_mem_kind ki = gp_mem_kind_of(ctx, in), ko = gp_mem_kind_of(ctx, out);
  const int in_host = ki == GP_MEM_HOST, out_host = ko == GP_MEM_HOST;
  /* managed memory: the host may touch it on return, as after gp_sort */
  const int wait = ki == GP_MEM_MANAGED || ko == GP_MEM_MANAGED;
  /* both on the GPU: where AUTO (or the caller) picks them, the whole-GPU rank sort and
     the one-cluster bitonic sort read in and write out in one launch */
  if (!in_host && !out_host) {
    const int desc = order == GP_DESCENDING;
    int done = 0;
    if (algo == GP_SORT_AUTO && gp_cuda_grid_rank_takes(ctx, key_type, 0, GP_GRS_COPY, n)) {
      s = gp_cuda_grid_rank_sort_copy(ctx, key_type, in, out, n, desc);
      done = 1;
    } else if ((algo == GP_SORT_AUTO || algo == GP_SORT_BITONIC) &&
               !use_radix(gp_dtype_size(key_type), n, n, 0, algo)) {
      s = gp_cuda_bitonic_sort_copy(ctx, key_type, in, out, n, desc, &done);
    }
    if (s) {
      (void)gp_sync_stream(ctx);
      return s;
    }
    if (done) return wait ? gp_sync_stream(ctx) : GP_OK;
  }
  /* both in host memory: staged in from in, sorted on the GPU, staged out to out */
  if (in_host && out_host) return n > 1 ? cuda_sort(ctx, key_type, out, 0, NULL, n, n, order, algo, in)
                                        : gp_copy_sync(ctx, out, in, bytes);
  /* elsewhere a copy on the stream, then the sort in place; host memory on one side is
     copied before the call sorts (and stages) out */
  s = in_host || out_host ? gp_copy_sync(ctx, out, in, bytes) : gp_copy(ctx, out, in, bytes);
  if (s || (s = sort_common(ctx, key_type, out, -1, NULL, n, n, order, algo))) return s;
  return wait ? gp_sync_stream(ctx) : GP_OK;
#else
  return gp_fail(ctx, GP_ERR_UNSUPPORTED, "gpuprims was built without CUDA");
#endif
}

/* ---- argsort ------------------------------------------------------------------------ */
gp_status gp_argsort(gp_context *ctx, gp_dtype key_type, const void *keys,
                     gp_dtype index_type, void *indices, size_t n, gp_order order) {
  gp_status s = gp_check_ctx(ctx);
  if (s) return s;
  if ((s = gp_check_dtype(ctx, key_type, "key_type"))) return s;
  if (index_type != GP_U32 && index_type != GP_U64)
    return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT,
                   "index_type must be GP_U32 or GP_U64 (got %d)", (int)index_type);
  if ((unsigned)order > GP_DESCENDING)
    return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT,
                   "unknown order %d: use GP_ASCENDING or GP_DESCENDING", (int)order);
  if (n > 0 && !keys) return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT, "keys is NULL but n = %zu", n);
  if (n > 0 && !indices)
    return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT, "indices is NULL but n = %zu", n);
  if (n > SIZE_MAX / 16)
    return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT, "n = %zu is too large to address", n);
  if (index_type == GP_U32 && (uint64_t)n > ((uint64_t)1 << 32))
    return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT,
                   "GP_U32 indices address at most 2^32 keys (n = %zu): use GP_U64", n);
  size_t kb = gp_dtype_size(key_type), ib = gp_dtype_size(index_type);
  if (overlap(keys, n * kb, indices, n * ib))
    return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT, "keys and indices overlap: pass two separate arrays");
  if (ctx->backend == GP_BACKEND_CPU) {
    if (n == 0) return GP_OK;
    if ((s = gp_require_host(ctx, keys, "keys"))) return s;
    if ((s = gp_require_host(ctx, indices, "indices"))) return s;
    return gp_cpu_argsort(ctx, key_type, keys, index_type, indices, n, order);
  }
#if GP_HAVE_CUDA
  if (n == 0) return GP_OK;
  int stage_k = gp_mem_kind_of(ctx, keys) == GP_MEM_HOST;
  int stage_i = gp_mem_kind_of(ctx, indices) == GP_MEM_HOST;
  const int grs = gp_cuda_grid_rank_takes(ctx, key_type, (int)ib, GP_GRS_ARGSORT, n);
  const int rank = !grs && gp_cuda_rank_sort_takes(ctx, key_type, (int)ib, 1, n);
  size_t scratch = grs || rank ? 0 : gp_cuda_radix_argsort_scratch(key_type, (int)ib, n);
  gp_ws_layout lay = {0};
  size_t ok_ = stage_k ? gp_ws_add(&lay, n * kb) : 0;
  size_t oi_ = stage_i ? gp_ws_add(&lay, n * ib) : 0;
  size_t os_ = scratch ? gp_ws_add(&lay, scratch) : 0;
  void *ws = NULL;
  if (stage_k || stage_i || scratch) {
    if ((s = reserve(ctx, &lay, &ws, "this argsort"))) return s;
  }
  const void *dk = stage_k ? (char *)ws + ok_ : keys;
  void *di = stage_i ? (char *)ws + oi_ : indices;
  if (stage_k && (s = gp_copy(ctx, (char *)ws + ok_, keys, n * kb))) return s;
  s = grs    ? gp_cuda_grid_rank_argsort(ctx, key_type, dk, (int)ib, di, n, order == GP_DESCENDING)
      : rank ? gp_cuda_rank_argsort(ctx, key_type, dk, (int)ib, di, n, order == GP_DESCENDING)
             : gp_cuda_radix_argsort(ctx, key_type, dk, (int)ib, di, n, order == GP_DESCENDING,
                                     scratch ? (char *)ws + os_ : NULL);
  if (s) {
    (void)gp_sync_stream(ctx);
    return s;
  }
  if (stage_i && (s = gp_copy(ctx, indices, di, n * ib))) return s;
  if (stage_k || stage_i) return gp_sync_stream(ctx);
  return GP_OK;
#else
  return gp_fail(ctx, GP_ERR_UNSUPPORTED, "gpuprims was built without CUDA");
#endif
}

/* ---- segments by offsets ---------------------------------------------------------- */
static gp_status bad_offsets(gp_context *ctx, uint64_t i, uint64_t a, uint64_t b) {
  return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT,
                 "offsets must be non-decreasing: offsets[%llu] = %llu > offsets[%llu] = %llu",
                 (unsigned long long)i, (unsigned long long)a, (unsigned long long)i + 1,
                 (unsigned long long)b);
}

static gp_status check_n(gp_context *ctx, uint64_t n, size_t nseg) {
  if (n > SIZE_MAX / 16)
    return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT,
                   "offsets[%zu] = %llu keys is too large to address", nseg, (unsigned long long)n);
  return GP_OK;
}

#if GP_HAVE_CUDA
static gp_status cuda_offsets(gp_context *ctx, gp_dtype kt, void *keys, int vb, void *values,
                              const uint64_t *offsets, size_t nseg, const gp_cuda_seg_summary *sum,
                              const uint64_t *large, int desc) {
  size_t kb = gp_dtype_size(kt), n = (size_t)sum->n;
  int stage_k = gp_mem_kind_of(ctx, keys) == GP_MEM_HOST;
  int stage_v = vb && gp_mem_kind_of(ctx, values) == GP_MEM_HOST;
  int stage_o = gp_mem_kind_of(ctx, offsets) == GP_MEM_HOST;
  size_t scratch = gp_cuda_radix_segments_scratch(kt, vb, nseg, sum);
  gp_ws_layout lay = {0};
  size_t ok_ = stage_k ? gp_ws_add(&lay, n * kb) : 0;
  size_t ov_ = stage_v ? gp_ws_add(&lay, n * (size_t)vb) : 0;
  size_t oo_ = stage_o ? gp_ws_add(&lay, (nseg + 1) * sizeof(uint64_t)) : 0;
  size_t os_ = scratch ? gp_ws_add(&lay, scratch) : 0;
  void *ws = NULL;
  gp_status s;
  if ((s = reserve(ctx, &lay, &ws, "this segmented sort"))) return s;
  void *dk = stage_k ? (char *)ws + ok_ : keys;
  void *dv = stage_v ? (char *)ws + ov_ : values;
  const uint64_t *doff = stage_o ? (const uint64_t *)((char *)ws + oo_) : offsets;
  if (stage_k && (s = gp_copy(ctx, dk, keys, n * kb))) return s;
  if (stage_v && (s = gp_copy(ctx, dv, values, n * (size_t)vb))) return s;
  if (stage_o && (s = gp_copy(ctx, (void *)doff, offsets, (nseg + 1) * sizeof(uint64_t))))
    return s;
  s = gp_cuda_radix_segments(ctx, kt, dk, vb, dv, doff, nseg, sum, large, desc,
                             scratch ? (char *)ws + os_ : NULL);
  if (s) {
    (void)gp_sync_stream(ctx);
    return s;
  }
  if (stage_k && (s = gp_copy(ctx, keys, dk, n * kb))) return s;
  if (stage_v && (s = gp_copy(ctx, values, dv, n * (size_t)vb))) return s;
  /* host offsets were copied from: wait before the caller may change them */
  if (stage_k || stage_v || stage_o) return gp_sync_stream(ctx);
  return GP_OK;
}

/* Reads the offsets where they live (a kernel for device offsets), checks them and the
   keys and values against n = offsets[nseg], then sorts. */
static gp_status cuda_offsets_checked(gp_context *ctx, gp_dtype kt, void *keys, int vt,
                                      void *values, const uint64_t *offsets, size_t nseg,
                                      gp_order order) {
  int on_device = gp_mem_kind_of(ctx, offsets) != GP_MEM_HOST;
  gp_cuda_seg_summary sum;
  uint64_t *large = NULL;
  const int vb = vt >= 0 ? (int)gp_dtype_size((gp_dtype)vt) : 0;
  gp_status s = gp_cuda_radix_summarize(ctx, kt, vb, offsets, on_device, nseg, &sum, &large);
  if (s) return s;
  if (sum.first_bad != UINT64_MAX) {
    uint64_t pair[2];
    if (on_device) {
      if ((s = gp_copy_sync(ctx, pair, offsets + sum.first_bad, sizeof pair))) return s;
    } else {
      pair[0] = offsets[sum.first_bad];
      pair[1] = offsets[sum.first_bad + 1];
    }
    return bad_offsets(ctx, sum.first_bad, pair[0], pair[1]);
  }
  if (!(s = check_n(ctx, sum.n, nseg)) &&
      !(s = check_args(ctx, kt, keys, vt, values, (size_t)sum.n, sum.n ? (size_t)sum.n : 1,
                       order, GP_SORT_RADIX)) &&
      sum.n > 0) {
    s = cuda_offsets(ctx, kt, keys, vb, vb ? values : NULL, offsets, nseg, &sum, large,
                     order == GP_DESCENDING);
  }
  free(large);
  return s;
}
#endif

static gp_status offsets_common(gp_context *ctx, gp_dtype kt, void *keys, int vt, void *values,
                                const uint64_t *offsets, size_t nseg, gp_order order) {
  gp_status s = gp_check_ctx(ctx);
  if (s) return s;
  if ((s = gp_check_dtype(ctx, kt, "key_type"))) return s;
  if (vt >= 0 && (s = gp_check_dtype(ctx, (gp_dtype)vt, "value_type"))) return s;
  if ((unsigned)order > GP_DESCENDING)
    return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT,
                   "unknown order %d: use GP_ASCENDING or GP_DESCENDING", (int)order);
  if (nseg == 0) return GP_OK;
  if (!offsets)
    return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT, "offsets is NULL but nseg = %zu", nseg);
  if (nseg > SIZE_MAX / 16)
    return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT, "nseg = %zu is too large to address", nseg);
  if (ctx->backend == GP_BACKEND_CPU) {
    if ((s = gp_require_host(ctx, offsets, "offsets"))) return s;
    for (size_t i = 0; i < nseg; i++)
      if (offsets[i + 1] < offsets[i]) return bad_offsets(ctx, i, offsets[i], offsets[i + 1]);
    size_t n = (size_t)offsets[nseg];
    if ((s = check_n(ctx, offsets[nseg], nseg))) return s;
    if ((s = check_args(ctx, kt, keys, vt, values, n, n ? n : 1, order, GP_SORT_RADIX))) return s;
    if (n == 0) return GP_OK;
    int vb = vt >= 0 ? (int)gp_dtype_size((gp_dtype)vt) : 0;
    if ((s = gp_require_host(ctx, keys, "keys"))) return s;
    if (vb && (s = gp_require_host(ctx, values, "values"))) return s;
    return gp_cpu_sort_offsets(ctx, kt, keys, vb, vb ? values : NULL, offsets, nseg, order);
  }
#if GP_HAVE_CUDA
  return cuda_offsets_checked(ctx, kt, keys, vt, values, offsets, nseg, order);
#else
  return gp_fail(ctx, GP_ERR_UNSUPPORTED, "gpuprims was built without CUDA");
#endif
}

gp_status gp_sort_segments_offsets(gp_context *ctx, gp_dtype key_type, void *keys,
                                   const uint64_t *offsets, size_t nseg, gp_order order) {
  return offsets_common(ctx, key_type, keys, -1, NULL, offsets, nseg, order);
}

gp_status gp_sort_pairs_segments_offsets(gp_context *ctx, gp_dtype key_type, void *keys,
                                         gp_dtype value_type, void *values,
                                         const uint64_t *offsets, size_t nseg,
                                         gp_order order) {
  return offsets_common(ctx, key_type, keys, (int)value_type, values, offsets, nseg, order);
}
