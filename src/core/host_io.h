/* Moving data between the caller's host memory and the GPU at the link's speed:
 * a mapped pinned slot that kernels write scalar results into (no copy), and a ring
 * of pinned staging buffers through which pageable arrays are copied by several host
 * threads while earlier chunks are on the link. Owned by the context (ctx->host_io),
 * created on first use. Internal to src/. */
#ifndef GP_CORE_HOST_IO_H
#define GP_CORE_HOST_IO_H

#include "core/context.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Chunks of the pageable pipeline: GP_STAGE_SLOTS pinned buffers of GP_STAGE_CHUNK
 * bytes (pinned once per context that ever stages more than GP_STAGE_DIRECT_MAX).
 * Below GP_STAGE_DIRECT_MAX a plain cudaMemcpyAsync is cheaper than the pipeline.
 * GP_STAGE_MAX_THREADS host threads copy one chunk between pageable and pinned memory.
 * For tuning runs only, GPUPRIMS_STAGE_CHUNK_MB and GPUPRIMS_STAGE_THREADS override
 * the chunk size and thread count (read once per context). */
#define GP_STAGE_CHUNK ((size_t)8 << 20)
#define GP_STAGE_SLOTS 4
#define GP_STAGE_DIRECT_MAX ((size_t)1 << 20)
#define GP_STAGE_MAX_THREADS 8

/* How a host waits for a scalar result (GPUPRIMS_HOST_WAIT=sync|spin, read at first
 * use): SYNC waits on the stream; SPIN polls a flag a one-thread kernel writes after
 * the result, for at most GP_SPIN_MAX_US, then waits on the stream. */
typedef enum gp_host_wait { GP_WAIT_SYNC, GP_WAIT_SPIN } gp_host_wait;
#define GP_SPIN_MAX_US 200.0

/* The result slot: 64 bytes of mapped pinned memory. *dev is the address kernels write
 * to, *host the same bytes seen from the host. A call owns it until it returns. */
gp_status gp_result_slot(gp_context *ctx, void **host, void **dev);
/* The flag word next to the slot (host and device views) and the next sequence number
 * a signal must write; gp_host_wait_mode tells whether to use them. */
gp_status gp_result_flag(gp_context *ctx, volatile unsigned **host, unsigned **dev,
                         unsigned *seq);
gp_host_wait gp_host_wait_mode(gp_context *ctx);

/* Copies `bytes` of caller host memory (pageable or pinned) to device memory, enqueued
 * on the context's stream. Returns when the host source is no longer needed (the
 * copy may still be in flight). Pinned sources and small copies go straight to
 * cudaMemcpyAsync; larger pageable ones go through the pinned ring. */
gp_status gp_stage_in(gp_context *ctx, void *dev, const void *host, size_t bytes);
/* Copies device memory to caller host memory after the work already enqueued on the
 * stream; returns when the host destination holds the data. */
gp_status gp_stage_out(gp_context *ctx, void *host, const void *dev, size_t bytes);

/* Frees what gp_result_slot and the staging ring allocated (gp_destroy calls it). */
void gp_host_io_free(gp_context *ctx);

#ifdef __cplusplus
}
#endif
#endif
