/* gp_dist_sort's partition path (keys alone, 2 .. 65 ranks), which hides the exchange
 * behind a local sort instead of running it after one:
 *   1. every rank samples its unsorted shard (in proportion to its count), the samples
 *      are all-gathered and sorted, and splitters picked at the ranks' cumulative counts;
 *   2. each rank partitions its shard into one bucket per rank (its own bucket last) by
 *      (encoded key, global position), so equal keys split like any others;
 *   3. the buckets cross with grouped ncclSend/ncclRecv on the rank's stream while a
 *      second stream (the handle's helper context) sorts the rank's own bucket;
 *   4. the received keys are sorted and merged with the own bucket: rank r now holds the
 *      r-th run of the global order, m_r keys, close to but not exactly n_r;
 *   5. a second small exchange moves the ends between neighbours so that every rank
 *      holds exactly n_r keys, in the caller's buffer.
 * The bucket sizes follow the samples, so they are checked against the receive capacity
 * (n_r plus a margin) on every rank alike; past it the caller falls back to the exact
 * path (dist_sort.c) with the shard untouched. */
#if GP_HAVE_NCCL
#include "dist/dist_sort.h"
#include "dist/nccl_lib.h"
#include "cuda/sort/sort_cuda.h"
#include "core/psort_math.h"

#include <cuda_runtime_api.h>
#include <stdlib.h>
#include <string.h>

/* One entry's workspace, carved from its base. */
typedef struct ps_parts {
  char *pq;              /* n + cap keys: the partitioned shard, then the received keys */
  char *sc;              /* radix scratch of the local sorts; then the merged run */
  void *ms, *pscratch;   /* merge and partition scratch */
  uint64_t *own_k, *own_p, *all_k, *all_p; /* samples: this rank's, everyone's */
  uint64_t *bcount, *bmat; /* this rank's bucket sizes, every rank's (p x p) */
} ps_parts;

static uint64_t ps_max(uint64_t a, uint64_t b) { return a > b ? a : b; }

static size_t ps_carve(ps_parts *w, char *base, gp_context *ctx, gp_dtype kt, int p, size_t n,
                       uint64_t total, uint64_t slots) {
  const size_t kb = gp_dtype_size(kt), cap = gp_ps_cap(n, total, p), sall = (size_t)p * slots;
  size_t sc = gp_cuda_radix_scratch_upto(kt, 0, cap); /* the own bucket's and the received */
  sc = ps_max(sc, cap * kb);
  sc = ps_max(sc, gp_cuda_radix_scratch(GP_U64, 8, sall));
  gp_ws_layout l = {0};
  const size_t o_pq = gp_ws_add(&l, (n + cap) * kb), o_sc = gp_ws_add(&l, sc);
  const size_t o_ms = gp_ws_add(&l, gp_cuda_merge_scratch(cap));
  const size_t o_ps = gp_ws_add(&l, gp_cuda_dist_partition_scratch(ctx, p, n));
  const size_t o_ok = gp_ws_add(&l, slots * 8), o_op = gp_ws_add(&l, slots * 8);
  const size_t o_ak = gp_ws_add(&l, sall * 8), o_ap = gp_ws_add(&l, sall * 8);
  const size_t o_bc = gp_ws_add(&l, (size_t)p * 8), o_bm = gp_ws_add(&l, (size_t)p * p * 8);
  if (w) {
    w->pq = base + o_pq;
    w->sc = base + o_sc;
    w->ms = base + o_ms;
    w->pscratch = base + o_ps;
    w->own_k = (uint64_t *)(base + o_ok);
    w->own_p = (uint64_t *)(base + o_op);
    w->all_k = (uint64_t *)(base + o_ak);
    w->all_p = (uint64_t *)(base + o_ap);
    w->bcount = (uint64_t *)(base + o_bc);
    w->bmat = (uint64_t *)(base + o_bm);
  }
  return l.bytes;
}

size_t gp_dist_psort_ws_bytes(gp_context *ctx, gp_dtype kt, int nranks, size_t n,
                              const uint64_t *all_n) {
  gp_ps_plan pl;
  gp_ps_make_plan(&pl, nranks, all_n);
  return ps_carve(NULL, NULL, ctx, kt, nranks, n, pl.total, pl.slots);
}

int gp_dist_psort_possible(int nranks, int vb) {
  return vb == 0 && nranks >= 2 && nranks <= GP_PS_MAX_RANKS;
}

/* Fails with the helper context's message for local entry i. */
static gp_status aux_fail(gp_dist *d, int i, gp_status s) {
  return gp_dist_fail(d, s, "rank %d (local GPU entry %d, helper stream): %s", d->rank0 + i, i,
                      gp_last_error(d->aux[i]));
}

static gp_status cu(gp_dist *d, cudaError_t e, int i, const char *what) {
  if (e == cudaSuccess) return GP_OK;
  (void)cudaGetLastError();
  return gp_dist_fail(d, GP_ERR_CUDA, "rank %d: %s failed: %s", d->rank0 + i, what,
                      cudaGetErrorString(e));
}

/* The helper contexts: one per local entry, on its GPU, with a stream of the lowest
   priority, so that NCCL's kernels on the main stream get the SMs they ask for first. */
static gp_status ensure_aux(gp_dist *d) {
  for (int i = 0; i < d->nlocal; i++) {
    if (d->aux[i]) continue;
    gp_status s = gp_dist_device(d, i);
    if (s != GP_OK) return s;
    gp_context *c = NULL;
    if ((s = gp_create(&c, GP_BACKEND_CUDA)) != GP_OK) {
      s = gp_dist_fail(d, s, "rank %d: no helper context: %s", d->rank0 + i,
                       c ? gp_last_error(c) : "out of host memory");
      gp_destroy(c);
      return s;
    }
    int lo = 0, hi = 0;
    cudaStream_t st = NULL;
    (void)cudaDeviceGetStreamPriorityRange(&lo, &hi);
    if ((s = cu(d, cudaStreamCreateWithPriority(&st, cudaStreamNonBlocking, lo), i,
                "cudaStreamCreateWithPriority")) != GP_OK) {
      gp_destroy(c);
      return s;
    }
    (void)gp_set_stream(c, st);
    d->aux[i] = c;
  }
  return GP_OK;
}

/* Sends the keys of global positions [a0, a0 + na) held at src to the ranks whose slices
   they fall in (slice of rank j: [start[j], start[j] + all_n[j])), and receives into dst
   the keys of this rank's slice held by others (rank j held [held[j], held[j] + m[j]));
   own overlap is a copy. Called inside a group. */
static gp_status rebalance_one(gp_dist *d, int i, size_t kb, const char *src, char *dst,
                               const uint64_t *held, const uint64_t *m, const uint64_t *start,
                               const uint64_t *all_n) {
  const gp_nccl_lib *L = d->nccl;
  const int p = d->nranks, me = d->rank0 + i;
  const ncclDataType_t kd = kb == 4 ? ncclUint32 : ncclUint64;
  ncclComm_t comm = (ncclComm_t)d->comm[i];
  cudaStream_t st = (cudaStream_t)d->ctx[i]->stream;
  for (int j = 0; j < p; j++) {
    uint64_t lo, len = gp_ps_overlap(held[me], m[me], start[j], all_n[j], &lo); /* mine, j's */
    gp_status s = GP_OK;
    if (j == me) {
      if (len)
        s = cu(d, cudaMemcpyAsync(dst + (lo - start[me]) * kb, src + (lo - held[me]) * kb,
                                  len * kb, cudaMemcpyDeviceToDevice, st), i,
               "copying the rank's own keys");
      if (s != GP_OK) return s;
      continue;
    }
    if (len)
      s = gp_dist_nccl_status(d, L->send(src + (lo - held[me]) * kb, len, kd, j, comm, st),
                              "ncclSend (rebalance)");
    len = gp_ps_overlap(held[j], m[j], start[me], all_n[me], &lo); /* j's, mine */
    if (s == GP_OK && len)
      s = gp_dist_nccl_status(d, L->recv(dst + (lo - start[me]) * kb, len, kd, j, comm, st),
                              "ncclRecv (rebalance)");
    if (s != GP_OK) return s;
  }
  return GP_OK;
}

/* Sends bucket j (in pq, buckets in rank order with mine last) to every rank j and
   receives theirs back to back (rank order) at pq + n keys. Called inside a group. */
static gp_status exchange_one(gp_dist *d, int i, size_t kb, const ps_parts *w, size_t n,
                              const uint64_t *bmat) {
  const gp_nccl_lib *L = d->nccl;
  const int p = d->nranks, me = d->rank0 + i;
  const ncclDataType_t kd = kb == 4 ? ncclUint32 : ncclUint64;
  ncclComm_t comm = (ncclComm_t)d->comm[i];
  cudaStream_t st = (cudaStream_t)d->ctx[i]->stream;
  uint64_t soff = 0, roff = 0;
  for (int j = 0; j < p; j++) {
    if (j == me) continue;
    const uint64_t ns = bmat[(size_t)me * p + j], nr = bmat[(size_t)j * p + me];
    gp_status s = GP_OK;
    if (ns) s = gp_dist_nccl_status(d, L->send(w->pq + soff * kb, ns, kd, j, comm, st), "ncclSend (buckets)");
    if (s == GP_OK && nr)
      s = gp_dist_nccl_status(d, L->recv(w->pq + (n + roff) * kb, nr, kd, j, comm, st), "ncclRecv (buckets)");
    if (s != GP_OK) return s;
    soff += ns;
    roff += nr;
  }
  return GP_OK;
}

typedef struct ps_call {
  ps_parts *w;
  cudaEvent_t *ev; /* [nlocal * 3]: partitioned, exchanged, merged */
  uint64_t *bmat, *m, *held, *start; /* host: p x p, then p each */
} ps_call;

static gp_status ps_alloc(gp_dist *d, ps_call *c) {
  const size_t p = (size_t)d->nranks;
  c->w = calloc((size_t)d->nlocal, sizeof *c->w);
  c->ev = calloc((size_t)d->nlocal * 3, sizeof *c->ev);
  c->bmat = malloc((p * p + 3 * p) * sizeof *c->bmat);
  if (!c->w || !c->ev || !c->bmat) return gp_dist_fail(d, GP_ERR_OUT_OF_MEMORY, "out of host memory");
  c->m = c->bmat + p * p;
  c->held = c->m + p;
  c->start = c->held + p;
  for (int i = 0; i < d->nlocal; i++) {
    gp_status s = gp_dist_device(d, i);
    for (int k = 0; k < 3 && s == GP_OK; k++)
      s = cu(d, cudaEventCreateWithFlags(&c->ev[i * 3 + k], cudaEventDisableTiming), i,
             "cudaEventCreateWithFlags");
    if (s != GP_OK) return s;
  }
  return GP_OK;
}

static void ps_free(gp_dist *d, ps_call *c) {
  if (c->ev)
    for (int i = 0; i < d->nlocal * 3; i++)
      if (c->ev[i]) {
        (void)cudaSetDevice(d->ctx[i / 3]->device);
        (void)cudaEventDestroy(c->ev[i]);
      }
  free(c->w);
  free(c->ev);
  free(c->bmat);
}

/* The global position of rank r's first key. */
static uint64_t first_position(const uint64_t *all_n, int r) {
  uint64_t g = 0;
  for (int k = 0; k < r; k++) g += all_n[k];
  return g;
}

/* Steps 1-2 on every entry, then the bucket sizes on the host (a wait). */
static gp_status ps_partition(gp_dist *d, gp_dtype kt, void *const *keys, const uint64_t *all_n,
                              int desc, const gp_ps_plan *pl, ps_call *c) {
  const int p = d->nranks;
  gp_status s = GP_OK;
  void **src = malloc((size_t)d->nlocal * 2 * sizeof *src);
  if (!src) return gp_dist_fail(d, GP_ERR_OUT_OF_MEMORY, "out of host memory");
  void **dst = src + d->nlocal;
  for (int i = 0; i < d->nlocal && s == GP_OK; i++) {
    const int me = d->rank0 + i;
    if ((s = gp_dist_device(d, i)) != GP_OK) break;
    s = gp_cuda_dist_sample(d->ctx[i], kt, keys[i], all_n[me],
                            gp_ps_rank_samples(pl, all_n[me]), pl->slots,
                            first_position(all_n, me), desc, c->w[i].own_k, c->w[i].own_p);
    if (s != GP_OK) s = gp_dist_fail_ctx(d, i, s);
  }
  for (int half = 0; half < 2 && s == GP_OK; half++) {
    for (int i = 0; i < d->nlocal; i++) {
      src[i] = half ? c->w[i].own_p : c->w[i].own_k;
      dst[i] = half ? c->w[i].all_p : c->w[i].all_k;
    }
    s = gp_dist_allgather(d, src, dst, pl->slots * 8);
  }
  for (int i = 0; i < d->nlocal && s == GP_OK; i++) {
    const int me = d->rank0 + i;
    ps_parts *w = &c->w[i];
    if ((s = gp_dist_device(d, i)) != GP_OK) break;
    s = gp_cuda_radix_sort(d->ctx[i], GP_U64, w->all_k, 8, w->all_p, (size_t)p * pl->slots, 0,
                           w->sc);
    if (s == GP_OK)
      s = gp_cuda_dist_partition(d->ctx[i], kt, keys[i], all_n[me], first_position(all_n, me), desc, p, me, w->all_k,
                                 w->all_p, (size_t)p * pl->slots, pl->pick, w->pq, w->bcount,
                                 w->pscratch);
    if (s != GP_OK) {
      s = gp_dist_fail_ctx(d, i, s);
      break;
    }
    s = cu(d, cudaEventRecord(c->ev[i * 3], (cudaStream_t)d->ctx[i]->stream), i, "cudaEventRecord");
  }
  for (int i = 0; i < d->nlocal; i++) {
    src[i] = c->w[i].bcount;
    dst[i] = c->w[i].bmat;
  }
  if (s == GP_OK) s = gp_dist_allgather(d, src, dst, (size_t)p * 8);
  if (s == GP_OK) s = gp_dist_wait(d);
  if (s == GP_OK && (s = gp_dist_device(d, 0)) == GP_OK)
    s = cu(d, cudaMemcpy(c->bmat, c->w[0].bmat, (size_t)p * p * 8, cudaMemcpyDeviceToHost), 0,
           "copying the bucket sizes");
  free(src);
  return s;
}

gp_status gp_dist_psort(gp_dist *d, gp_dtype kt, void *const *keys, const uint64_t *all_n,
                        int desc, void *const *ws, int *fell_back) {
  const int p = d->nranks;
  const size_t kb = gp_dtype_size(kt);
  *fell_back = 0;
  gp_ps_plan pl;
  gp_ps_make_plan(&pl, p, all_n);
  ps_call c;
  memset(&c, 0, sizeof c);
  gp_status s = ensure_aux(d);
  if (s == GP_OK) s = ps_alloc(d, &c);
  for (int i = 0; i < d->nlocal && s == GP_OK; i++)
    ps_carve(&c.w[i], ws[i], d->ctx[i], kt, p, all_n[d->rank0 + i], pl.total, pl.slots);
  if (s == GP_OK) s = ps_partition(d, kt, keys, all_n, desc, &pl, &c);
  if (s != GP_OK) {
    ps_free(d, &c);
    return s;
  }
  /* every rank sees the same matrix: received keys against capacity, held ranges */
  uint64_t at = 0, tgt = 0;
  for (int r = 0; r < p; r++) {
    c.m[r] = 0;
    for (int j = 0; j < p; j++) c.m[r] += c.bmat[(size_t)j * p + r];
    if (c.m[r] > gp_ps_cap(all_n[r], pl.total, p)) *fell_back = 1;
    c.held[r] = at;
    c.start[r] = tgt;
    at += c.m[r];
    tgt += all_n[r];
  }
  if (*fell_back) {
    ps_free(d, &c);
    return GP_OK;
  }
  /* step 3: the exchange on the main streams, the own bucket's sort on the helpers */
  s = gp_dist_nccl_status(d, d->nccl->group_start(), "ncclGroupStart");
  if (s == GP_OK) {
    for (int i = 0; i < d->nlocal && s == GP_OK; i++)
      if ((s = gp_dist_device(d, i)) == GP_OK)
        s = exchange_one(d, i, kb, &c.w[i], all_n[d->rank0 + i], c.bmat);
    gp_status e = gp_dist_nccl_status(d, d->nccl->group_end(), "ncclGroupEnd (buckets)");
    if (s == GP_OK) s = e;
  }
  for (int i = 0; i < d->nlocal && s == GP_OK; i++) {
    const int me = d->rank0 + i;
    const uint64_t n = all_n[me], kept = c.bmat[(size_t)me * p + me], got = c.m[me] - kept;
    cudaStream_t main_st = (cudaStream_t)d->ctx[i]->stream, aux_st = (cudaStream_t)d->aux[i]->stream;
    cudaEvent_t *ev = &c.ev[i * 3];
    char *run = c.w[i].pq + (n - kept) * kb; /* own bucket, the received keys right after */
    if ((s = gp_dist_device(d, i)) != GP_OK) break;
    if ((s = cu(d, cudaStreamWaitEvent(aux_st, ev[0], 0), i, "cudaStreamWaitEvent")) != GP_OK ||
        (s = cu(d, cudaEventRecord(ev[1], main_st), i, "cudaEventRecord")) != GP_OK)
      break;
    /* step 4 on the helper: own bucket, then (after the exchange) the received keys, merge */
    s = gp_cuda_radix_sort(d->aux[i], kt, run, 0, NULL, kept, desc, c.w[i].sc);
    if (s == GP_OK && (s = cu(d, cudaStreamWaitEvent(aux_st, ev[1], 0), i, "cudaStreamWaitEvent")) == GP_OK)
      s = gp_cuda_radix_sort(d->aux[i], kt, run + kept * kb, 0, NULL, got, desc, c.w[i].sc);
    if (s == GP_OK)
      s = gp_cuda_merge(d->aux[i], kt, 0, desc, run, NULL, kept, got, c.w[i].sc, NULL, c.w[i].ms);
    if (s != GP_OK) {
      s = aux_fail(d, i, s);
      break;
    }
    if ((s = cu(d, cudaEventRecord(ev[2], aux_st), i, "cudaEventRecord")) != GP_OK ||
        (s = cu(d, cudaStreamWaitEvent(main_st, ev[2], 0), i, "cudaStreamWaitEvent")) != GP_OK)
      break;
  }
  /* step 5: every rank's run to the slices of the caller's counts */
  if (s == GP_OK) s = gp_dist_nccl_status(d, d->nccl->group_start(), "ncclGroupStart");
  if (s == GP_OK) {
    for (int i = 0; i < d->nlocal && s == GP_OK; i++)
      if ((s = gp_dist_device(d, i)) == GP_OK)
        s = rebalance_one(d, i, kb, c.w[i].sc, keys[i], c.held, c.m, c.start, all_n);
    gp_status e = gp_dist_nccl_status(d, d->nccl->group_end(), "ncclGroupEnd (rebalance)");
    if (s == GP_OK) s = e;
  }
  if (s == GP_OK) s = gp_dist_wait(d);
  ps_free(d, &c);
  return s;
}
#else
typedef int gp_dist_psort_needs_nccl; /* ISO C: a translation unit is not empty */
#endif
