/* Public entry points of the distributed calls (gp_dist_*): handle life cycle, the
 * argument checks of every local entry, the agreement before data moves, the local step
 * on each GPU (gp_reduce / the exact accumulator, gp_sort), then src/dist for the
 * combine, exchange and merge. In a build without NCCL the handle only carries the
 * reason the calls are unsupported. */
#include "dist/dist.h"
#include "dist/combine.h"

#include <stdlib.h>
#include <string.h>

#if GP_HAVE_NCCL
#include "dist/dist_sort.h"
#include "cuda/reduce/reduce_cuda.h"

#include <cuda_runtime_api.h>
#endif

static gp_status new_handle(gp_dist **d) {
  if (!d) return GP_ERR_INVALID_ARGUMENT;
  *d = calloc(1, sizeof **d);
  return *d ? GP_OK : GP_ERR_OUT_OF_MEMORY;
}

#if !GP_HAVE_NCCL
#define GP_NO_NCCL                                                                     \
  "gpuprims was built without NCCL (GP_WITH_NCCL=OFF, nccl.h not found, or no CUDA): " \
  "rebuild with CUDA and NCCL (cmake -DGP_WITH_NCCL=ON, NCCL_HOME=...) for gp_dist_*"
#endif

gp_status gp_dist_create_local(gp_dist **d, int ngpus) {
  gp_status s = new_handle(d);
  if (s != GP_OK) return s;
#if GP_HAVE_NCCL
  if ((s = gp_dist_init_local(*d, ngpus)) != GP_OK) gp_dist_release(*d);
  return s;
#else
  (void)ngpus;
  return gp_dist_fail(*d, GP_ERR_UNSUPPORTED, GP_NO_NCCL);
#endif
}

gp_status gp_dist_create_comm(gp_dist **d, void *nccl_comm, gp_context *ctx) {
  gp_status s = new_handle(d);
  if (s != GP_OK) return s;
#if GP_HAVE_NCCL
  if ((s = gp_dist_init_comm(*d, nccl_comm, ctx)) != GP_OK) gp_dist_release(*d);
  return s;
#else
  (void)nccl_comm;
  (void)ctx;
  return gp_dist_fail(*d, GP_ERR_UNSUPPORTED, GP_NO_NCCL);
#endif
}

gp_status gp_dist_create_file(gp_dist **d, const char *id_path, int rank, int nranks,
                              int device) {
  gp_status s = new_handle(d);
  if (s != GP_OK) return s;
#if GP_HAVE_NCCL
  if ((s = gp_dist_init_file(*d, id_path, rank, nranks, device)) != GP_OK) gp_dist_release(*d);
  return s;
#else
  (void)id_path; (void)rank; (void)nranks; (void)device;
  return gp_dist_fail(*d, GP_ERR_UNSUPPORTED, GP_NO_NCCL);
#endif
}

void gp_dist_destroy(gp_dist *d) {
  if (!d) return;
#if GP_HAVE_NCCL
  gp_dist_release(d);
#endif
  free(d);
}

int gp_dist_local_count(const gp_dist *d) { return d ? d->nlocal : 0; }
int gp_dist_size(const gp_dist *d) { return d ? d->nranks : 0; }
int gp_dist_rank(const gp_dist *d) { return d ? d->rank0 : 0; }
gp_context *gp_dist_context(gp_dist *d, int i) {
  return d && i >= 0 && i < d->nlocal ? d->ctx[i] : NULL;
}
const char *gp_dist_last_error(const gp_dist *d) { return d ? d->error : "d is NULL"; }

/* A handle whose creation failed, or whose communicator was aborted, does nothing. */
static gp_status usable(gp_dist *d) {
  if (!d) return GP_ERR_INVALID_ARGUMENT;
  if (d->broken)
    return gp_dist_fail(d, GP_ERR_CUDA, "the communicator was aborted after an earlier "
                                        "error: destroy this handle and create a new one");
  if (d->nlocal == 0) {
#if GP_HAVE_NCCL
    return gp_dist_fail(d, GP_ERR_INVALID_ARGUMENT,
                        "this handle was not created (gp_dist_create_* failed): destroy it");
#else
    return gp_dist_fail(d, GP_ERR_UNSUPPORTED, GP_NO_NCCL);
#endif
  }
  d->error[0] = '\0';
  return GP_OK;
}

#if GP_HAVE_NCCL
/* Per-call scratch on the host: a status and a count per local entry, every rank's count. */
typedef struct call_state {
  gp_status *st;
  size_t *cnt;
  uint64_t *all_n;
  void **ws;
  int prev_device;
} call_state;

static gp_status begin(gp_dist *d, call_state *c) {
  memset(c, 0, sizeof *c);
  c->st = calloc((size_t)d->nlocal, sizeof *c->st);
  c->cnt = calloc((size_t)d->nlocal, sizeof *c->cnt);
  c->all_n = calloc((size_t)d->nranks, sizeof *c->all_n);
  c->ws = calloc((size_t)d->nlocal, sizeof *c->ws);
  (void)cudaGetDevice(&c->prev_device);
  if (!c->st || !c->cnt || !c->all_n || !c->ws)
    return gp_dist_fail(d, GP_ERR_OUT_OF_MEMORY, "out of host memory");
  return GP_OK;
}

static gp_status end(call_state *c, gp_status s) {
  free(c->st);
  free(c->cnt);
  free(c->all_n);
  free(c->ws);
  (void)cudaSetDevice(c->prev_device);
  return s;
}

/* A shard: NULL only when empty, else device (or managed) memory of the entry's GPU. */
static gp_status check_shard(gp_context *ctx, const void *p, size_t n, const char *what, int i) {
  if (n == 0) return GP_OK;
  if (!p) return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT, "%s[%d] is NULL but n[%d] = %zu", what, i, i, n);
  struct cudaPointerAttributes a;
  if (cudaPointerGetAttributes(&a, p) != cudaSuccess ||
      (a.type != cudaMemoryTypeDevice && a.type != cudaMemoryTypeManaged)) {
    (void)cudaGetLastError();
    return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT,
                   "%s[%d] is host memory: a shard must be device memory of its GPU (%d); "
                   "copy it there first (cudaMalloc + cudaMemcpy)", what, i, ctx->device);
  }
  if (a.type == cudaMemoryTypeDevice && a.device != ctx->device)
    return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT,
                   "%s[%d] is memory of GPU %d, but local entry %d is GPU %d: pass each "
                   "shard on its own GPU", what, i, a.device, i, ctx->device);
  if (n > SIZE_MAX / 16)
    return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT, "n[%d] = %zu is too large to address", i, n);
  return GP_OK;
}

static gp_status check_reduce(gp_dist *d, int i, gp_op op, gp_dtype type,
                              const void *const *in, const size_t *n, const void *out) {
  gp_context *ctx = d->ctx[i];
  if ((unsigned)op > (unsigned)GP_MAX)
    return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT, "unknown op %d: use GP_SUM, GP_MIN or GP_MAX",
                   (int)op);
  gp_status s = gp_check_dtype(ctx, type, "dtype");
  if (s != GP_OK) return s;
  if (!in || !n)
    return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT,
                   "%s is NULL: pass arrays of gp_dist_local_count(d) = %d entries",
                   !in ? "in" : "n", d->nlocal);
  if (!out)
    return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT,
                   "out is NULL: pass host memory for one %s element",
                   gp_dtype_name(gp_reduce_out_type(op, type)));
  return check_shard(ctx, in[i], n[i], "in", i);
}

/* The rank's record: the superaccumulator of its shard (F32/F64 SUM) or its gp_reduce
 * result, zero-padded to `words` >= gp_dist_rec_words(op, type) (a rank with nothing to
 * add leaves zeros). */
static gp_status local_reduce(gp_dist *d, int i, gp_op op, gp_dtype type, const void *in,
                              size_t n, size_t words) {
  gp_context *ctx = d->ctx[i];
  uint64_t *rec = (uint64_t *)d->small[i];
  if (cudaMemsetAsync(rec, 0, words * 8, (cudaStream_t)ctx->stream) != cudaSuccess) {
    (void)cudaGetLastError();
    return gp_fail(ctx, GP_ERR_CUDA, "cudaMemsetAsync of the rank's record failed");
  }
  if (n == 0) return GP_OK;
  if (op == GP_SUM && (type == GP_F32 || type == GP_F64))
    return gp_cuda_sum_exact_acc(ctx, type, in, n, (int64_t *)rec);
  return gp_reduce(ctx, op, type, in, n, rec, GP_REDUCE_AUTO);
}
#endif

gp_status gp_dist_reduce(gp_dist *d, gp_op op, gp_dtype type, const void *const *in,
                         const size_t *n, void *out) {
  gp_status s = usable(d);
#if GP_HAVE_NCCL
  if (s != GP_OK) return s;
  call_state c;
  if ((s = begin(d, &c)) != GP_OK) return end(&c, s);
  for (int i = 0; i < d->nlocal; i++) {
    c.st[i] = check_reduce(d, i, op, type, in, n, out);
    c.cnt[i] = c.st[i] == GP_OK ? n[i] : 0;
  }
  /* one all-gather carries both the agreement and the ranks' partial results: the local
     reductions need no other rank, so a rank whose checks failed just adds nothing. The
     record has the largest size (F64 SUM's) on every rank, whatever its arguments, so
     ranks that disagree on op or type still gather the same bytes and learn it. */
  const size_t words = gp_dist_rec_words(GP_SUM, GP_F64);
  for (int i = 0; i < d->nlocal; i++) {
    if ((s = gp_dist_device(d, i)) != GP_OK) return end(&c, s);
    if (c.st[i] == GP_OK) c.st[i] = local_reduce(d, i, op, type, in[i], c.cnt[i], words);
  }
  s = gp_dist_agree(d, c.st, c.cnt, gp_dist_signature(1, (unsigned)op, (unsigned)type, 0), words,
                    c.all_n);
  if (s != GP_OK) return end(&c, s);
  uint64_t total = 0;
  for (int r = 0; r < d->nranks; r++) total += c.all_n[r];
  if (total == 0 && op != GP_SUM)
    return end(&c, gp_dist_fail(d, GP_ERR_INVALID_ARGUMENT,
                                "%s of n = 0 elements (every shard is empty) has no value: "
                                "pass at least one element on some rank",
                                op == GP_MIN ? "MIN" : "MAX"));
  gp_dist_combine(op, type, d->host, words + 3, c.all_n, d->nranks, out);
  return end(&c, GP_OK);
#else
  (void)op; (void)type; (void)in; (void)n; (void)out;
  return s; /* without NCCL no handle is usable */
#endif
}

#if GP_HAVE_NCCL
static gp_status check_sort(gp_dist *d, int i, gp_dtype kt, void *const *keys, int vt,
                            void *const *values, const size_t *n, gp_order order) {
  gp_context *ctx = d->ctx[i];
  gp_status s = gp_check_dtype(ctx, kt, "key_type");
  if (s != GP_OK) return s;
  if (vt >= 0 && (s = gp_check_dtype(ctx, (gp_dtype)vt, "value_type")) != GP_OK) return s;
  if ((unsigned)order > GP_DESCENDING)
    return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT,
                   "unknown order %d: use GP_ASCENDING or GP_DESCENDING", (int)order);
  if (!keys || !n || (vt >= 0 && !values))
    return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT,
                   "%s is NULL: pass arrays of gp_dist_local_count(d) = %d entries",
                   !keys ? "keys" : !n ? "n" : "values", d->nlocal);
  if ((s = check_shard(ctx, keys[i], n[i], "keys", i)) != GP_OK) return s;
  if (vt < 0) return GP_OK;
  if ((s = check_shard(ctx, values[i], n[i], "values", i)) != GP_OK) return s;
  const char *k = keys[i], *v = values[i];
  const size_t kb = gp_dtype_size(kt), vb = gp_dtype_size((gp_dtype)vt);
  if (n[i] && k < v + n[i] * vb && v < k + n[i] * kb)
    return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT,
                   "keys[%d] and values[%d] overlap: pass two separate arrays", i, i);
  return GP_OK;
}

/* The local sort of entry i, then (more than one rank) its workspace for the exchange. */
static gp_status local_sort(gp_dist *d, int i, gp_dtype kt, void *keys, int vt, void *values,
                            size_t n, gp_order order, void **ws) {
  gp_context *ctx = d->ctx[i];
  gp_status s = vt < 0 ? gp_sort(ctx, kt, keys, n, order, GP_SORT_AUTO)
                       : gp_sort_pairs(ctx, kt, keys, (gp_dtype)vt, values, n, order, GP_SORT_AUTO);
  if (s != GP_OK || d->nranks == 1) return s;
  const int vb = vt < 0 ? 0 : (int)gp_dtype_size((gp_dtype)vt);
  gp_ws_layout l = {gp_dist_sort_ws_bytes(d->nranks, n, (int)gp_dtype_size(kt), vb)};
  if ((s = gp_ws_reserve(ctx, &l, ws)) == GP_ERR_OUT_OF_MEMORY)
    return gp_fail(ctx, s,
                   "the exchange needs %zu bytes of device workspace on GPU %d and they could "
                   "not be allocated: free device memory or spread the keys over more GPUs "
                   "(the shard is left sorted locally)", l.bytes, ctx->device);
  return s;
}
#endif

#if GP_HAVE_NCCL
/* Which path gp_dist_sort takes: GPUPRIMS_DIST_SORT=exact or =partition forces one (for
   tests and measurements); by default keys alone of at least GP_DIST_PSORT_MIN keys in all
   take the partition path, everything else the exact one. The choice is part of the
   call's signature, so ranks started with different settings fail instead of hanging.
   Until the partition path has run on two GPUs the default stays exact (UINT64_MAX). */
#define GP_DIST_PSORT_MIN UINT64_MAX
enum { PATH_AUTO, PATH_EXACT, PATH_PARTITION };
static unsigned path_setting(void) {
  const char *e = getenv("GPUPRIMS_DIST_SORT");
  if (!e) return PATH_AUTO;
  if (strcmp(e, "exact") == 0) return PATH_EXACT;
  if (strcmp(e, "partition") == 0) return PATH_PARTITION;
  return PATH_AUTO;
}

/* The partition path when it applies and every rank has its workspace: GP_OK with *done
   set when it sorted, GP_OK with *done clear to go the exact way (keys untouched). */
static gp_status try_partition(gp_dist *d, call_state *c, gp_dtype kt, void *const *keys,
                               int desc, uint64_t sig, int *done) {
  *done = 0;
  for (int i = 0; i < d->nlocal; i++) {
    gp_status s = gp_dist_device(d, i);
    if (s != GP_OK) return s;
    gp_ws_layout l = {gp_dist_psort_ws_bytes(d->ctx[i], kt, d->nranks, c->cnt[i], c->all_n)};
    c->st[i] = gp_ws_reserve(d->ctx[i], &l, &c->ws[i]);
  }
  /* a rank short of memory sends everyone the exact way, which needs less */
  gp_status s = gp_dist_agree(d, c->st, c->cnt, sig, 0, c->all_n);
  if (s == GP_ERR_OUT_OF_MEMORY) {
    for (int i = 0; i < d->nlocal; i++) c->st[i] = GP_OK;
    return GP_OK;
  }
  if (s != GP_OK) return s;
  int fell_back = 0;
  s = gp_dist_psort(d, kt, keys, c->all_n, desc, c->ws, &fell_back);
  *done = s != GP_OK || !fell_back;
  return s;
}
#endif

static gp_status sort_common(gp_dist *d, gp_dtype kt, void *const *keys, int vt,
                             void *const *values, const size_t *n, gp_order order) {
  gp_status s = usable(d);
#if GP_HAVE_NCCL
  if (s != GP_OK) return s;
  call_state c;
  if ((s = begin(d, &c)) != GP_OK) return end(&c, s);
  for (int i = 0; i < d->nlocal; i++) {
    c.st[i] = check_sort(d, i, kt, keys, vt, values, n, order);
    c.cnt[i] = c.st[i] == GP_OK ? n[i] : 0;
  }
  const unsigned path = path_setting();
  const uint64_t sig = gp_dist_signature(2, (unsigned)order, (unsigned)kt, (unsigned)(vt + 1)) |
                       (uint64_t)path << 32;
  if ((s = gp_dist_agree(d, c.st, c.cnt, sig, 0, c.all_n)) != GP_OK) return end(&c, s);
  const int vb = vt < 0 ? 0 : (int)gp_dtype_size((gp_dtype)vt);
  uint64_t total = 0;
  for (int r = 0; r < d->nranks; r++) total += c.all_n[r];
  if (path != PATH_EXACT && gp_dist_psort_possible(d->nranks, vb) &&
      (path == PATH_PARTITION || total >= GP_DIST_PSORT_MIN)) {
    int done = 0;
    s = try_partition(d, &c, kt, keys, order == GP_DESCENDING, sig, &done);
    if (s != GP_OK || done) return end(&c, s);
    d->error[0] = '\0';
  }
  for (int i = 0; i < d->nlocal; i++) {
    if ((s = gp_dist_device(d, i)) != GP_OK) return end(&c, s);
    c.st[i] = local_sort(d, i, kt, keys[i], vt, vt < 0 ? NULL : values[i], c.cnt[i], order,
                         &c.ws[i]);
  }
  if (d->nranks == 1) {
    s = c.st[0] != GP_OK ? gp_dist_fail_ctx(d, 0, c.st[0]) : gp_dist_wait(d);
    return end(&c, s);
  }
  /* a local failure (out of memory, ...) must reach the other ranks before they exchange */
  if ((s = gp_dist_agree(d, c.st, c.cnt, sig, 0, c.all_n)) != GP_OK) return end(&c, s);
  s = gp_dist_sort_exchange(d, kt, vb, keys, values, c.all_n, order == GP_DESCENDING, c.ws);
  return end(&c, s);
#else
  (void)kt; (void)keys; (void)vt; (void)values; (void)n; (void)order;
  return s; /* without NCCL no handle is usable */
#endif
}

gp_status gp_dist_sort(gp_dist *d, gp_dtype key_type, void *const *keys, const size_t *n,
                       gp_order order) {
  return sort_common(d, key_type, keys, -1, NULL, n, order);
}

gp_status gp_dist_sort_pairs(gp_dist *d, gp_dtype key_type, void *const *keys,
                             gp_dtype value_type, void *const *values, const size_t *n,
                             gp_order order) {
  return sort_common(d, key_type, keys, (int)value_type, values, n, order);
}
