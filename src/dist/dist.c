/* The distributed handle: NCCL communicators (built here, or the caller's), one context
 * per local GPU, small device buffers for records, and the shared steps of every call:
 * agreement on the outcome across ranks, small all-gathers, and waiting on the ranks'
 * streams while watching NCCL for asynchronous errors (dist.h). */
#define _POSIX_C_SOURCE 200809L /* nanosleep */
#include "dist/dist.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

gp_status gp_dist_fail(gp_dist *d, gp_status status, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(d->error, sizeof d->error, fmt, ap);
  va_end(ap);
  return status;
}

gp_status gp_dist_fail_ctx(gp_dist *d, int i, gp_status status) {
  return gp_dist_fail(d, status, "rank %d (local GPU entry %d): %s", d->rank0 + i, i,
                      gp_last_error(d->ctx[i]));
}

#if GP_HAVE_NCCL
#include "dist/nccl_lib.h"

#include <cuda_runtime_api.h>
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

gp_status gp_dist_nccl_status(gp_dist *d, int result, const char *what) {
  if (result == ncclSuccess) return GP_OK;
  const char *last = d->nccl->get_last_error ? d->nccl->get_last_error(NULL) : "";
  return gp_dist_fail(d, GP_ERR_CUDA, "%s failed: %s%s%s", what,
                      d->nccl->get_error_string((ncclResult_t)result), *last ? ": " : "",
                      last);
}

static gp_status cuda_status(gp_dist *d, cudaError_t e, const char *what) {
  if (e == cudaSuccess) return GP_OK;
  (void)cudaGetLastError();
  return gp_dist_fail(d, e == cudaErrorMemoryAllocation ? GP_ERR_OUT_OF_MEMORY : GP_ERR_CUDA,
                      "%s failed: %s", what, cudaGetErrorString(e));
}

gp_status gp_dist_device(gp_dist *d, int i) {
  return cuda_status(d, cudaSetDevice(d->ctx[i]->device), "cudaSetDevice");
}

static gp_status load(gp_dist *d) {
  char why[512];
  d->nccl = gp_nccl_load(why, sizeof why);
  if (!d->nccl) return gp_dist_fail(d, GP_ERR_UNSUPPORTED, "%s", why);
  return GP_OK;
}

static gp_status alloc_arrays(gp_dist *d, int nlocal) {
  d->nlocal = nlocal;
  d->ctx = calloc((size_t)nlocal, sizeof *d->ctx);
  d->aux = calloc((size_t)nlocal, sizeof *d->aux);
  d->comm = calloc((size_t)nlocal, sizeof *d->comm);
  d->small = calloc((size_t)nlocal, sizeof *d->small);
  d->gathered = calloc((size_t)nlocal, sizeof *d->gathered);
  if (!d->ctx || !d->aux || !d->comm || !d->small || !d->gathered)
    return gp_dist_fail(d, GP_ERR_OUT_OF_MEMORY, "out of host memory for %d GPU entries", nlocal);
  return GP_OK;
}

/* Device buffers for records: one own record and nranks gathered ones per entry. */
static gp_status alloc_small(gp_dist *d) {
  d->small_bytes = (size_t)(d->nranks + 1) * GP_DIST_REC_BYTES;
  d->host = malloc(d->small_bytes);
  if (!d->host) return gp_dist_fail(d, GP_ERR_OUT_OF_MEMORY, "out of host memory");
  for (int i = 0; i < d->nlocal; i++) {
    gp_status s = gp_dist_device(d, i);
    if (s == GP_OK)
      s = cuda_status(d, cudaMalloc(&d->small[i], d->small_bytes), "cudaMalloc (records)");
    if (s != GP_OK) return s;
    d->gathered[i] = (char *)d->small[i] + GP_DIST_REC_BYTES;
  }
  return GP_OK;
}

gp_status gp_dist_init_local(gp_dist *d, int ngpus) {
  gp_status s = load(d);
  if (s != GP_OK) return s;
  int count = 0, prev = 0;
  cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess || count == 0) {
    (void)cudaGetLastError();
    return gp_dist_fail(d, GP_ERR_NO_DEVICE, "no usable GPU (%s)",
                        e != cudaSuccess ? cudaGetErrorString(e) : "none found");
  }
  if (ngpus <= 0) ngpus = count;
  if (ngpus > count)
    return gp_dist_fail(d, GP_ERR_INVALID_ARGUMENT,
                        "asked for %d GPUs but %d are visible: pass ngpus <= %d (or 0 for all)",
                        ngpus, count, count);
  if ((s = alloc_arrays(d, ngpus)) != GP_OK) return s;
  d->nranks = ngpus;
  d->owns = 1;
  (void)cudaGetDevice(&prev);
  int *devs = malloc((size_t)ngpus * sizeof *devs);
  if (!devs) return gp_dist_fail(d, GP_ERR_OUT_OF_MEMORY, "out of host memory");
  for (int i = 0; i < ngpus && s == GP_OK; i++) {
    devs[i] = i;
    s = cuda_status(d, cudaSetDevice(i), "cudaSetDevice");
    if (s != GP_OK) break;
    /* a context on GPU i with a stream of its own; a blocking one, so a call waits for
       what the caller left on the legacy default stream (a cudaMemcpy from pageable
       memory may return before its copy lands): the caller never sees this stream */
    if ((s = gp_create(&d->ctx[i], GP_BACKEND_CUDA)) != GP_OK) {
      s = d->ctx[i] ? gp_dist_fail_ctx(d, i, s)
                    : gp_dist_fail(d, s, "GPU %d: no memory for a context", i);
      break;
    }
    cudaStream_t st;
    s = cuda_status(d, cudaStreamCreate(&st), "cudaStreamCreate");
    if (s != GP_OK) break;
    if ((s = gp_set_stream(d->ctx[i], st)) != GP_OK) {
      (void)cudaStreamDestroy(st);
      s = gp_dist_fail_ctx(d, i, s);
    }
  }
  if (s == GP_OK) s = alloc_small(d);
  if (s == GP_OK)
    s = gp_dist_nccl_status(d, d->nccl->comm_init_all((ncclComm_t *)d->comm, ngpus, devs),
                            "ncclCommInitAll");
  free(devs);
  (void)cudaSetDevice(prev);
  return s;
}

gp_status gp_dist_init_comm(gp_dist *d, void *nccl_comm, gp_context *ctx) {
  gp_status s = load(d);
  if (s != GP_OK) return s;
  if (!nccl_comm) return gp_dist_fail(d, GP_ERR_INVALID_ARGUMENT, "nccl_comm is NULL: pass your ncclComm_t");
  if (!ctx || ctx->backend != GP_BACKEND_CUDA)
    return gp_dist_fail(d, GP_ERR_INVALID_ARGUMENT,
                        "ctx must be a CUDA context (gp_create with GP_BACKEND_CUDA) on the "
                        "communicator's GPU");
  if ((s = alloc_arrays(d, 1)) != GP_OK) return s;
  ncclComm_t comm = (ncclComm_t)nccl_comm;
  int dev = -1;
  if ((s = gp_dist_nccl_status(d, d->nccl->comm_count(comm, &d->nranks), "ncclCommCount")) ||
      (s = gp_dist_nccl_status(d, d->nccl->comm_user_rank(comm, &d->rank0), "ncclCommUserRank")) ||
      (s = gp_dist_nccl_status(d, d->nccl->comm_cu_device(comm, &dev), "ncclCommCuDevice")))
    return s;
  if (dev != ctx->device)
    return gp_dist_fail(d, GP_ERR_INVALID_ARGUMENT,
                        "ctx is on GPU %d but the communicator on GPU %d: create the context "
                        "with GPU %d current (cudaSetDevice)", ctx->device, dev, dev);
  d->ctx[0] = ctx;
  d->comm[0] = nccl_comm;
  int prev = 0;
  (void)cudaGetDevice(&prev);
  s = alloc_small(d);
  (void)cudaSetDevice(prev);
  return s;
}

/* An int from the environment (the launcher's RANK, WORLD_SIZE, LOCAL_RANK) when the
   caller passed a negative value; fails saying which variable is missing or bad. */
static gp_status from_env(gp_dist *d, int *v, const char *name, const char *arg) {
  if (*v >= 0) return GP_OK;
  const char *e = getenv(name);
  char *end = NULL;
  long x = e ? strtol(e, &end, 10) : -1;
  if (!e || !*e || *end || x < 0 || x > 1 << 20)
    return gp_dist_fail(d, GP_ERR_INVALID_ARGUMENT,
                        "%s is %s%s%s: pass %s, or run under a launcher that sets %s (torchrun, "
                        "mpirun with it exported)", name, e ? "'" : "not set", e ? e : "",
                        e ? "', not a count" : "", arg, name);
  *v = (int)x;
  return GP_OK;
}

static double timeout_seconds(void) {
  const char *env = getenv("GPUPRIMS_DIST_TIMEOUT");
  const double t = env ? atof(env) : 0.0;
  return t > 0 ? t : 300.0;
}

/* Rank 0: a new unique id into `path` (whole: a temporary file renamed into place). */
static gp_status write_id(gp_dist *d, const char *path, const ncclUniqueId *id) {
  if (access(path, F_OK) == 0)
    return gp_dist_fail(d, GP_ERR_INVALID_ARGUMENT,
                        "the id file '%s' already exists (left by an earlier run?): remove it "
                        "or pass a path new to this run, the same on every rank", path);
  char tmp[4096];
  if (snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid()) >= (int)sizeof tmp)
    return gp_dist_fail(d, GP_ERR_INVALID_ARGUMENT, "the id file path is too long");
  FILE *f = fopen(tmp, "wb");
  const int written = f && fwrite(id, sizeof *id, 1, f) == 1;
  const int closed = f && fclose(f) == 0;
  if (!written || !closed || rename(tmp, path) != 0) {
    (void)remove(tmp);
    return gp_dist_fail(d, GP_ERR_IO, "cannot write the NCCL id to '%s' (%s): pass a path "
                        "in a writable directory that every rank sees", path, strerror(errno));
  }
  return GP_OK;
}

/* Other ranks: wait for rank 0's file and read the id. */
static gp_status read_id(gp_dist *d, const char *path, ncclUniqueId *id) {
  const double limit = timeout_seconds(), t0 = gp_wall_seconds();
  for (;;) {
    FILE *f = fopen(path, "rb");
    if (f) {
      const int ok = fread(id, sizeof *id, 1, f) == 1;
      fclose(f);
      if (ok) return GP_OK;
    }
    if (gp_wall_seconds() - t0 > limit)
      return gp_dist_fail(d, GP_ERR_CUDA,
                          "rank %d waited %g s for rank 0 to write the NCCL id to '%s': is "
                          "rank 0 running, with the same path, on a file system both see? "
                          "(GPUPRIMS_DIST_TIMEOUT sets the wait)", d->rank0, limit, path);
    struct timespec ts = {0, 10000000};
    nanosleep(&ts, NULL);
  }
}

gp_status gp_dist_init_file(gp_dist *d, const char *id_path, int rank, int nranks, int device) {
  gp_status s = load(d);
  if (s != GP_OK) return s;
  if (!id_path || !*id_path)
    return gp_dist_fail(d, GP_ERR_INVALID_ARGUMENT,
                        "id_path is empty: pass a file name new to this run that every rank sees");
  if ((s = from_env(d, &rank, "RANK", "rank")) != GP_OK ||
      (s = from_env(d, &nranks, "WORLD_SIZE", "nranks")) != GP_OK ||
      (s = from_env(d, &device, "LOCAL_RANK", "device")) != GP_OK)
    return s;
  if (nranks < 1 || rank >= nranks)
    return gp_dist_fail(d, GP_ERR_INVALID_ARGUMENT,
                        "rank %d of %d ranks: need 0 <= rank < nranks", rank, nranks);
  int count = 0;
  cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess || count == 0) {
    (void)cudaGetLastError();
    return gp_dist_fail(d, GP_ERR_NO_DEVICE, "rank %d: no usable GPU (%s)", rank,
                        e != cudaSuccess ? cudaGetErrorString(e) : "none found");
  }
  if (device >= count)
    return gp_dist_fail(d, GP_ERR_INVALID_ARGUMENT,
                        "rank %d asks for GPU %d but %d are visible: pass a device below %d "
                        "(LOCAL_RANK)", rank, device, count, count);
  if ((s = alloc_arrays(d, 1)) != GP_OK) return s;
  d->nranks = nranks;
  d->rank0 = rank;
  d->owns = 1;
  int prev = 0;
  (void)cudaGetDevice(&prev);
  if ((s = cuda_status(d, cudaSetDevice(device), "cudaSetDevice")) != GP_OK) return s;
  if ((s = gp_create(&d->ctx[0], GP_BACKEND_CUDA)) != GP_OK) {
    s = d->ctx[0] ? gp_dist_fail_ctx(d, 0, s) : gp_dist_fail(d, s, "no memory for a context");
  } else {
    cudaStream_t st;
    s = cuda_status(d, cudaStreamCreate(&st), "cudaStreamCreate");
    if (s == GP_OK && (s = gp_set_stream(d->ctx[0], st)) != GP_OK) {
      (void)cudaStreamDestroy(st);
      s = gp_dist_fail_ctx(d, 0, s);
    }
  }
  if (s == GP_OK) s = alloc_small(d);
  ncclUniqueId id;
  if (s == GP_OK && rank == 0) {
    s = gp_dist_nccl_status(d, d->nccl->get_unique_id(&id), "ncclGetUniqueId");
    if (s == GP_OK) s = write_id(d, id_path, &id);
  } else if (s == GP_OK) {
    s = read_id(d, id_path, &id);
  }
  if (s == GP_OK)
    s = gp_dist_nccl_status(d, d->nccl->comm_init_rank((ncclComm_t *)&d->comm[0], nranks, id, rank),
                            "ncclCommInitRank");
  if (rank == 0 && s == GP_OK) (void)remove(id_path); /* every rank has read it */
  (void)cudaSetDevice(prev);
  return s;
}

void gp_dist_release(gp_dist *d) {
  int prev = 0;
  (void)cudaGetDevice(&prev);
  for (int i = 0; i < d->nlocal; i++) {
    if (d->ctx && d->ctx[i]) (void)cudaSetDevice(d->ctx[i]->device);
    if (d->small && d->small[i]) (void)cudaFree(d->small[i]);
    if (d->aux && d->aux[i]) {
      void *st = d->aux[i]->stream;
      gp_destroy(d->aux[i]);
      if (st) (void)cudaStreamDestroy((cudaStream_t)st);
    }
    if (!d->owns) continue;
    if (d->comm[i]) (void)d->nccl->comm_destroy((ncclComm_t)d->comm[i]);
    if (d->ctx[i]) {
      void *st = d->ctx[i]->stream;
      gp_destroy(d->ctx[i]);
      if (st) (void)cudaStreamDestroy((cudaStream_t)st);
    }
  }
  (void)cudaGetLastError();
  (void)cudaSetDevice(prev);
  free(d->ctx);
  free(d->aux);
  free(d->comm);
  free(d->small);
  free(d->gathered);
  free(d->host);
  d->ctx = NULL;
  d->aux = NULL;
  d->comm = NULL;
  d->small = NULL;
  d->gathered = NULL;
  d->host = NULL;
  d->nlocal = 0;
}

uint64_t gp_dist_signature(unsigned kind, unsigned a, unsigned b, unsigned c) {
  return (uint64_t)kind | (uint64_t)a << 8 | (uint64_t)b << 16 | (uint64_t)c << 24;
}

gp_status gp_dist_allgather(gp_dist *d, void *const *src, void *const *dst, size_t bytes) {
  const gp_nccl_lib *L = d->nccl;
  gp_status s = gp_dist_nccl_status(d, L->group_start(), "ncclGroupStart");
  if (s != GP_OK) return s;
  for (int i = 0; i < d->nlocal && s == GP_OK; i++)
    s = gp_dist_nccl_status(d, L->all_gather(src[i], dst[i], bytes / 8, ncclUint64,
                                             (ncclComm_t)d->comm[i],
                                             (cudaStream_t)d->ctx[i]->stream), "ncclAllGather");
  gp_status e = gp_dist_nccl_status(d, L->group_end(), "ncclGroupEnd (all-gather)");
  return s != GP_OK ? s : e;
}

gp_status gp_dist_allreduce_u64(gp_dist *d, void *const *buf, size_t count) {
  const gp_nccl_lib *L = d->nccl;
  gp_status s = gp_dist_nccl_status(d, L->group_start(), "ncclGroupStart");
  if (s != GP_OK) return s;
  for (int i = 0; i < d->nlocal && s == GP_OK; i++)
    s = gp_dist_nccl_status(d, L->all_reduce(buf[i], buf[i], count, ncclUint64, ncclSum,
                                             (ncclComm_t)d->comm[i],
                                             (cudaStream_t)d->ctx[i]->stream), "ncclAllReduce");
  gp_status e = gp_dist_nccl_status(d, L->group_end(), "ncclGroupEnd (all-reduce)");
  return s != GP_OK ? s : e;
}

static void abort_all(gp_dist *d) {
  for (int i = 0; i < d->nlocal; i++)
    if (d->comm[i]) {
      (void)d->nccl->comm_abort((ncclComm_t)d->comm[i]);
      d->comm[i] = NULL;
    }
  d->broken = 1;
}

gp_status gp_dist_wait(gp_dist *d) {
  const char *env = getenv("GPUPRIMS_DIST_TIMEOUT");
  const double limit = env ? atof(env) : 0.0;
  const double t0 = gp_wall_seconds();
  for (int i = 0; i < d->nlocal; i++) {
    gp_status s = gp_dist_device(d, i);
    if (s != GP_OK) return s;
    for (unsigned spins = 0;; spins++) {
      cudaError_t e = cudaStreamQuery((cudaStream_t)d->ctx[i]->stream);
      if (e == cudaSuccess) break;
      if (e != cudaErrorNotReady) return cuda_status(d, e, "waiting for the rank's stream");
      ncclResult_t ae = ncclSuccess;
      if (d->nccl->comm_get_async_error((ncclComm_t)d->comm[i], &ae) != ncclSuccess ||
          (ae != ncclSuccess && ae != ncclInProgress)) {
        const char *why = d->nccl->get_error_string(ae);
        abort_all(d);
        return gp_dist_fail(d, GP_ERR_CUDA,
                            "NCCL reported an error on rank %d (%s): a peer may have died; "
                            "the communicator is aborted, destroy this handle",
                            d->rank0 + i, why);
      }
      if (limit > 0 && gp_wall_seconds() - t0 > limit) {
        abort_all(d);
        return gp_dist_fail(d, GP_ERR_CUDA,
                            "rank %d waited more than GPUPRIMS_DIST_TIMEOUT = %g s for the "
                            "other ranks (one may have died, or not made the same call): the "
                            "communicator is aborted, destroy this handle",
                            d->rank0 + i, limit);
      }
      if (spins > 1000) { /* past the first ~ms, poll gently */
        struct timespec ts = {0, 20000};
        nanosleep(&ts, NULL);
      } else {
        sched_yield();
      }
    }
  }
  return GP_OK;
}

/* Waits, then copies every rank's record of `bytes` from entry 0's gathered buffer. */
static gp_status fetch(gp_dist *d, size_t bytes) {
  gp_status s = gp_dist_wait(d);
  if (s == GP_OK && (s = gp_dist_device(d, 0)) == GP_OK)
    s = cuda_status(d, cudaMemcpy(d->host, d->gathered[0], (size_t)d->nranks * bytes,
                                  cudaMemcpyDeviceToHost), "cudaMemcpy (gathered records)");
  return s;
}

gp_status gp_dist_agree(gp_dist *d, const gp_status *status, const size_t *n, uint64_t sig,
                        size_t words, uint64_t *all_n) {
  const size_t rw = words + 3;
  gp_status s = GP_OK;
  for (int i = 0; i < d->nlocal && s == GP_OK; i++) {
    uint64_t tr[3] = {(uint64_t)status[i], (uint64_t)n[i], sig};
    if ((s = gp_dist_device(d, i)) == GP_OK) /* pageable source: staged before return */
      s = cuda_status(d, cudaMemcpyAsync((uint64_t *)d->small[i] + words, tr, sizeof tr,
                                         cudaMemcpyHostToDevice,
                                         (cudaStream_t)d->ctx[i]->stream), "cudaMemcpyAsync");
  }
  if (s == GP_OK) s = gp_dist_allgather(d, d->small, d->gathered, rw * sizeof(uint64_t));
  if (s == GP_OK) s = fetch(d, rw * sizeof(uint64_t));
  if (s != GP_OK) return s;
  for (int r = 0; r < d->nranks; r++) {
    const uint64_t *tr = d->host + rw * (size_t)r + words;
    all_n[r] = tr[1];
    if (tr[0] != GP_OK) {
      const int i = r - d->rank0;
      if (i >= 0 && i < d->nlocal) return gp_dist_fail_ctx(d, i, (gp_status)tr[0]);
      return gp_dist_fail(d, (gp_status)tr[0],
                          "rank %d failed (%s); its own error says why; no data moved "
                          "between the ranks", r, gp_status_string((gp_status)tr[0]));
    }
    if (tr[2] != sig)
      return gp_dist_fail(d, GP_ERR_INVALID_ARGUMENT,
                          "rank %d made a different call (signature %#llx) than rank %d "
                          "(%#llx): every rank must call the same gp_dist function with the "
                          "same op, types and order", r, (unsigned long long)tr[2],
                          d->rank0, (unsigned long long)sig);
  }
  return GP_OK;
}
#endif
