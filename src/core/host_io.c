/* The context's host-side transfer machinery: the mapped result slot, its flag, and
 * the pinned staging ring (see core/host_io.h for the contract). */
#define _POSIX_C_SOURCE 200809L
#include "core/host_io.h"

#include <stdlib.h>
#include <string.h>
#if GP_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif
#ifdef _OPENMP
#include <omp.h>
#endif

struct gp_host_io {
  char *slot_host;          /* 128 bytes mapped pinned: [0, 64) result, [64] flag */
  char *slot_dev;
  unsigned seq;             /* last sequence number handed out */
  gp_host_wait wait;
  size_t chunk;             /* GP_STAGE_CHUNK unless overridden */
  int threads;              /* GP_STAGE_MAX_THREADS unless overridden */
  void *ring[GP_STAGE_SLOTS]; /* pinned, GP_STAGE_CHUNK each */
  void *ready[GP_STAGE_SLOTS]; /* cudaEvent_t: the copy that last used the buffer */
};

#define FLAG_OFFSET 64

static gp_status get_io(gp_context *ctx, struct gp_host_io **out) {
  if (!ctx->host_io) {
    struct gp_host_io *io = (struct gp_host_io *)calloc(1, sizeof *io);
    if (!io) return gp_fail(ctx, GP_ERR_OUT_OF_MEMORY, "out of host memory (%zu bytes)", sizeof *io);
    const char *w = getenv("GPUPRIMS_HOST_WAIT");
    io->wait = (w && strcmp(w, "spin") == 0) ? GP_WAIT_SPIN : GP_WAIT_SYNC;
    const char *c = getenv("GPUPRIMS_STAGE_CHUNK_MB"), *t = getenv("GPUPRIMS_STAGE_THREADS");
    io->chunk = c && atoi(c) > 0 ? (size_t)atoi(c) << 20 : GP_STAGE_CHUNK;
    io->threads = t && atoi(t) > 0 ? atoi(t) : GP_STAGE_MAX_THREADS;
    ctx->host_io = io;
  }
  *out = ctx->host_io;
  return GP_OK;
}

gp_host_wait gp_host_wait_mode(gp_context *ctx) {
  struct gp_host_io *io = NULL;
  return get_io(ctx, &io) == GP_OK ? io->wait : GP_WAIT_SYNC;
}

#if GP_HAVE_CUDA
static gp_status ensure_slot(gp_context *ctx, struct gp_host_io *io) {
  if (io->slot_host) return GP_OK;
  void *h = NULL, *d = NULL;
  GP_CUDA_TRY(ctx, cudaHostAlloc(&h, 128, cudaHostAllocMapped | cudaHostAllocPortable));
  cudaError_t e = cudaHostGetDevicePointer(&d, h, 0);
  if (e != cudaSuccess) {
    (void)cudaFreeHost(h);
    return gp_cuda_status(ctx, (int)e, "cudaHostGetDevicePointer (result slot)", __FILE__, __LINE__);
  }
  memset(h, 0, 128);
  io->slot_host = (char *)h;
  io->slot_dev = (char *)d;
  return GP_OK;
}
#endif

gp_status gp_result_slot(gp_context *ctx, void **host, void **dev) {
  *host = *dev = NULL;
#if GP_HAVE_CUDA
  struct gp_host_io *io = NULL;
  gp_status s = get_io(ctx, &io);
  if (s == GP_OK) s = ensure_slot(ctx, io);
  if (s) return s;
  *host = io->slot_host;
  *dev = io->slot_dev;
  return GP_OK;
#else
  return gp_fail(ctx, GP_ERR_UNSUPPORTED, "gpuprims was built without CUDA");
#endif
}

gp_status gp_result_flag(gp_context *ctx, volatile unsigned **host, unsigned **dev,
                         unsigned *seq) {
  void *h, *d;
  gp_status s = gp_result_slot(ctx, &h, &d);
  if (s) return s;
  struct gp_host_io *io = ctx->host_io;
  *host = (volatile unsigned *)(io->slot_host + FLAG_OFFSET);
  *dev = (unsigned *)(io->slot_dev + FLAG_OFFSET);
  *seq = ++io->seq;
  return GP_OK;
}

/* ---- the staging ring ------------------------------------------------------------ */

#if GP_HAVE_CUDA
/* memcpy of one chunk by up to `threads` threads (at least 1 MiB each). */
static void par_copy(void *dst, const void *src, size_t bytes, int threads) {
#ifdef _OPENMP
  int parts = (int)(bytes / ((size_t)1 << 20));
  if (parts > threads) parts = threads;
  if (parts > omp_get_max_threads()) parts = omp_get_max_threads();
  if (parts > 1) {
#pragma omp parallel for num_threads(parts) schedule(static)
    for (int t = 0; t < parts; t++) {
      size_t lo = bytes * (size_t)t / (size_t)parts, hi = bytes * (size_t)(t + 1) / (size_t)parts;
      memcpy((char *)dst + lo, (const char *)src + lo, hi - lo);
    }
    return;
  }
#else
  (void)threads;
#endif
  memcpy(dst, src, bytes);
}

static gp_status ensure_ring(gp_context *ctx, struct gp_host_io *io) {
  for (int i = 0; i < GP_STAGE_SLOTS; i++) {
    if (io->ring[i]) continue;
    GP_CUDA_TRY(ctx, cudaMallocHost(&io->ring[i], io->chunk));
    cudaEvent_t ev;
    GP_CUDA_TRY(ctx, cudaEventCreateWithFlags(&ev, cudaEventDisableTiming));
    io->ready[i] = ev;
  }
  return GP_OK;
}

static int is_pinned(const void *p) {
  struct cudaPointerAttributes a;
  if (cudaPointerGetAttributes(&a, p) != cudaSuccess) {
    (void)cudaGetLastError();
    return 0;
  }
  return a.type == cudaMemoryTypeHost;
}
#endif

gp_status gp_stage_in(gp_context *ctx, void *dev, const void *host, size_t bytes) {
#if GP_HAVE_CUDA
  cudaStream_t st = (cudaStream_t)ctx->stream;
  if (bytes <= GP_STAGE_DIRECT_MAX || is_pinned(host)) {
    GP_CUDA_TRY(ctx, cudaMemcpyAsync(dev, host, bytes, cudaMemcpyHostToDevice, st));
    return GP_OK;
  }
  struct gp_host_io *io = NULL;
  gp_status s = get_io(ctx, &io);
  if (s == GP_OK) s = ensure_ring(ctx, io);
  if (s) return s;
  const size_t chunk = io->chunk;
  for (size_t off = 0, k = 0; off < bytes; off += chunk, k++) {
    const int slot = (int)(k % GP_STAGE_SLOTS);
    const size_t len = bytes - off < chunk ? bytes - off : chunk;
    /* the buffer is free once the copy that last read it has finished */
    GP_CUDA_TRY(ctx, cudaEventSynchronize((cudaEvent_t)io->ready[slot]));
    par_copy(io->ring[slot], (const char *)host + off, len, io->threads);
    GP_CUDA_TRY(ctx, cudaMemcpyAsync((char *)dev + off, io->ring[slot], len,
                                     cudaMemcpyHostToDevice, st));
    GP_CUDA_TRY(ctx, cudaEventRecord((cudaEvent_t)io->ready[slot], st));
  }
  return GP_OK;
#else
  (void)dev; (void)host; (void)bytes;
  return gp_fail(ctx, GP_ERR_UNSUPPORTED, "gpuprims was built without CUDA");
#endif
}

gp_status gp_stage_out(gp_context *ctx, void *host, const void *dev, size_t bytes) {
#if GP_HAVE_CUDA
  cudaStream_t st = (cudaStream_t)ctx->stream;
  if (bytes <= GP_STAGE_DIRECT_MAX || is_pinned(host)) {
    GP_CUDA_TRY(ctx, cudaMemcpyAsync(host, dev, bytes, cudaMemcpyDeviceToHost, st));
    return gp_sync_stream(ctx);
  }
  struct gp_host_io *io = NULL;
  gp_status s = get_io(ctx, &io);
  if (s == GP_OK) s = ensure_ring(ctx, io);
  if (s) return s;
  /* keep GP_STAGE_SLOTS - 1 chunks on the link while the host drains the oldest */
  const size_t chunk = io->chunk, chunks = (bytes + chunk - 1) / chunk;
  size_t issued = 0;
  for (size_t k = 0; k < chunks; k++) {
    for (; issued < chunks && issued < k + GP_STAGE_SLOTS; issued++) {
      const int slot = (int)(issued % GP_STAGE_SLOTS);
      const size_t off = issued * chunk;
      const size_t len = bytes - off < chunk ? bytes - off : chunk;
      GP_CUDA_TRY(ctx, cudaMemcpyAsync(io->ring[slot], (const char *)dev + off, len,
                                       cudaMemcpyDeviceToHost, st));
      GP_CUDA_TRY(ctx, cudaEventRecord((cudaEvent_t)io->ready[slot], st));
    }
    const int slot = (int)(k % GP_STAGE_SLOTS);
    const size_t off = k * chunk;
    const size_t len = bytes - off < chunk ? bytes - off : chunk;
    GP_CUDA_TRY(ctx, cudaEventSynchronize((cudaEvent_t)io->ready[slot]));
    par_copy((char *)host + off, io->ring[slot], len, io->threads);
  }
  return GP_OK;
#else
  (void)host; (void)dev; (void)bytes;
  return gp_fail(ctx, GP_ERR_UNSUPPORTED, "gpuprims was built without CUDA");
#endif
}

void gp_host_io_free(gp_context *ctx) {
  struct gp_host_io *io = ctx->host_io;
  if (!io) return;
#if GP_HAVE_CUDA
  for (int i = 0; i < GP_STAGE_SLOTS; i++) {
    if (io->ring[i]) (void)cudaFreeHost(io->ring[i]);
    if (io->ready[i]) (void)cudaEventDestroy((cudaEvent_t)io->ready[i]);
  }
  if (io->slot_host) (void)cudaFreeHost(io->slot_host);
  (void)cudaGetLastError();
#endif
  free(io);
  ctx->host_io = NULL;
}
