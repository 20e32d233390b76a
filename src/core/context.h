/* The context's private layout and the helpers every layer uses to fail with a
 * message (gp_fail), check CUDA calls (GP_CUDA_TRY) and take workspace memory.
 * Internal: included by src/ and by tests of internals, never by the CLI. */
#ifndef GP_CORE_CONTEXT_H
#define GP_CORE_CONTEXT_H

#include "gpuprims.h"
#include <stdarg.h>

#ifdef __cplusplus
extern "C" {
#endif

#define GP_ERROR_LEN 1024

struct gp_jit_cache; /* integrate: parsed and compiled expressions, owned by src/api/integrate.c */
struct gp_host_io;   /* result slot and staging ring: core/host_io.h */

struct gp_context {
  gp_backend backend;           /* CUDA or CPU, never AUTO once created */
  char error[GP_ERROR_LEN];
  void *stream;                 /* cudaStream_t; NULL = default stream */
  int device;                   /* CUDA device ordinal */
  gp_device_info info;
  size_t smem_block;            /* shared memory a block may opt into (0 on the CPU); lowered
                                   with info.arch by GPUPRIMS_FORCE_ARCH */
  int debug_sync;               /* GPUPRIMS_DEBUG_SYNC=1: synchronize after each launch */
  /* device workspace: grown when a call needs more, reused across calls */
  void *ws;
  size_t ws_bytes;
  struct gp_host_io *host_io;   /* created on first use */
  /* small pinned host buffer for results copied back to host memory */
  void *pinned;
  size_t pinned_bytes;
  unsigned two_phase_blocks;    /* 0: the chapter's 64 */
  /* GP_REDUCE_AUTO on CUDA (src/cuda/reduce/reduce_auto.cu): this context's ticket
   * counters (device memory, allocated on first use), the next one to take, and the
   * tests' forced grid (0: automatic) */
  void *reduce_tickets;
  unsigned reduce_ticket_next;
  unsigned reduce_force_grid;
  struct gp_jit_cache *jit;
  void (*jit_free)(struct gp_jit_cache *); /* set by whoever creates jit */
  /* the CPU radix sort's host scratch (src/cpu/radix_cpu.c), kept between calls up to
   * GP_CPU_SCRATCH_KEEP bytes so repeated sorts do not fault in fresh pages each time */
  void *cpu_scratch;
  size_t cpu_scratch_bytes;
  /* the CUDA runtime said this process has no driver or no device (gp_mem_kind_of):
   * every pointer is host memory, asked no more (a CPU context's small calls) */
  int no_cuda;
};

/* Records a printf-style message and returns `status`. Every failure goes through it. */
gp_status gp_fail(gp_context *ctx, gp_status status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
void gp_clear_error(gp_context *ctx);

/* Checks a cudaError_t (passed as int so C files need no CUDA header). On failure
 * records "<what> failed: <cuda error> (<file>:<line>)" and returns GP_ERR_CUDA, or
 * GP_ERR_OUT_OF_MEMORY for an allocation failure. */
gp_status gp_cuda_status(gp_context *ctx, int cuda_err, const char *what,
                         const char *file, int line);
#define GP_CUDA_TRY(ctx, call)                                                  \
  do {                                                                          \
    gp_status gp_s_ = gp_cuda_status((ctx), (int)(call), #call, __FILE__, __LINE__); \
    if (gp_s_ != GP_OK) return gp_s_;                                           \
  } while (0)
/* After a kernel launch: cudaPeekAtLastError, and with GPUPRIMS_DEBUG_SYNC=1 also a
 * stream synchronize, so a faulting kernel is named. A failure records the launch as
 * "kernel<<<grid, block, smem>>> failed: ..." (x dimensions; smem in bytes). */
gp_status gp_cuda_launched(gp_context *ctx, const char *kernel, unsigned grid, unsigned block,
                           size_t smem, const char *file, int line);
#define GP_LAUNCH_CHECK(ctx, kernel, grid, block, smem)                         \
  do {                                                                          \
    gp_status gp_s_ = gp_cuda_launched((ctx), (kernel), (unsigned)(grid),       \
                                       (unsigned)(block), (size_t)(smem),       \
                                       __FILE__, __LINE__);                     \
    if (gp_s_ != GP_OK) return gp_s_;                                           \
  } while (0)

/* ---- device workspace ----------------------------------------------------------
 * A call plans its device scratch up front with a layout, reserves it once, then
 * carves it. Reserving may free and reallocate (synchronizing), so pointers from an
 * earlier reserve are invalid after the next one. */
typedef struct gp_ws_layout { size_t bytes; } gp_ws_layout;
/* Adds a region of `bytes` (256-byte aligned) and returns its offset. */
size_t gp_ws_add(gp_ws_layout *layout, size_t bytes);
/* Ensures the workspace holds layout->bytes and sets *base to it. */
gp_status gp_ws_reserve(gp_context *ctx, const gp_ws_layout *layout, void **base);
/* A pinned host buffer of at least `bytes` for results (grown when needed). */
gp_status gp_pinned(gp_context *ctx, size_t bytes, void **p);

/* ---- where a pointer lives -------------------------------------------------- */
typedef enum gp_mem_kind { GP_MEM_HOST, GP_MEM_DEVICE, GP_MEM_MANAGED } gp_mem_kind;
/* Host memory (pageable or pinned) is GP_MEM_HOST; without CUDA everything is host. */
gp_mem_kind gp_mem_kind_of(gp_context *ctx, const void *p);
/* For the CPU backend: fails with a message naming `what` when p is device memory. */
gp_status gp_require_host(gp_context *ctx, const void *p, const char *what);

/* Common argument checks; each records a message naming the argument. */
gp_status gp_check_ctx(gp_context *ctx);
gp_status gp_check_dtype(gp_context *ctx, gp_dtype t, const char *what);
gp_status gp_check_ptr(gp_context *ctx, const void *p, size_t n, const char *what);

/* Copies between host and device on the context's stream (cudaMemcpyAsync with
 * cudaMemcpyDefault); gp_copy_sync also waits. */
gp_status gp_copy(gp_context *ctx, void *dst, const void *src, size_t bytes);
gp_status gp_copy_sync(gp_context *ctx, void *dst, const void *src, size_t bytes);
/* Waits for the context's stream without touching the recorded error. */
gp_status gp_sync_stream(gp_context *ctx);

/* Seconds on the monotonic clock, for host-side work only (NVRTC compiles, CPU
 * timings); GPU work is timed with CUDA events. */
double gp_wall_seconds(void);

#ifdef __cplusplus
}
#endif
#endif
