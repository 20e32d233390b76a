/* Context life cycle: backend choice (AUTO takes a usable GPU, else the CPU), device
 * description, stream, synchronization. */
#define _POSIX_C_SOURCE 200809L
#include "core/context.h"
#include "core/host_io.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#if GP_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif
#ifdef _OPENMP
#include <omp.h>
#endif

#define GP_STR_(x) #x
#define GP_STR(x) GP_STR_(x)
#define GP_VERSION_STRING \
  GP_STR(GP_VERSION_MAJOR) "." GP_STR(GP_VERSION_MINOR) "." GP_STR(GP_VERSION_PATCH)

const char *gp_version(void) {
#if GP_HAVE_CUDA
  return GP_VERSION_STRING " (cuda + cpu)";
#else
  return GP_VERSION_STRING " (cpu only: built without CUDA)";
#endif
}

int gp_version_number(void) { return GP_VERSION_NUMBER; }

static void cpu_info(gp_device_info *info) {
  memset(info, 0, sizeof *info);
  snprintf(info->name, sizeof info->name, "CPU");
  FILE *f = fopen("/proc/cpuinfo", "r");
  if (f) {
    char line[512];
    while (fgets(line, sizeof line, f)) {
      if (strncmp(line, "model name", 10) == 0) {
        char *colon = strchr(line, ':');
        if (colon) {
          colon++;
          while (*colon == ' ') colon++;
          colon[strcspn(colon, "\n")] = '\0';
          snprintf(info->name, sizeof info->name, "%s", colon);
        }
        break;
      }
    }
    fclose(f);
  }
#ifdef _OPENMP
  info->threads = omp_get_max_threads();
#else
  info->threads = 1;
#endif
  long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  if (pages > 0 && page > 0) info->global_mem_bytes = (size_t)pages * (size_t)page;
}

#if GP_HAVE_CUDA
/* GPUPRIMS_FORCE_ARCH=80 (major * 10 + minor) makes the kernels take the paths of that
 * compute capability where it is below the device's: an sm_90 GPU then runs every
 * fallback that older GPUs need (no thread-block clusters, smaller shared-memory tiles,
 * blocks within that GPU's shared memory: smem_of_arch), so one GPU tests them all. It
 * never raises the arch: newer paths need the hardware. */
static gp_status forced_arch(gp_context *ctx, int *arch) {
  const char *env = getenv("GPUPRIMS_FORCE_ARCH");
  *arch = 0;
  if (!env || !env[0]) return GP_OK;
  char *end = NULL;
  long v = strtol(env, &end, 10);
  if (*end != '\0' || v < 10 || v > 999)
    return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT,
                   "GPUPRIMS_FORCE_ARCH='%s' is not a compute capability written major * 10 "
                   "+ minor (such as 75, 80 or 86): fix it or unset it", env);
  *arch = (int)v;
  return GP_OK;
}

/* GP_OK when a GPU is usable; otherwise a message saying why not. */
static gp_status cuda_open(gp_context *ctx) {
  int count = 0;
  cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess || count == 0) {
    (void)cudaGetLastError();
    return gp_fail(ctx, GP_ERR_NO_DEVICE,
                   "no usable CUDA GPU (%s): use the CPU backend (--backend cpu) or run "
                   "on a machine with an NVIDIA GPU and driver",
                   e != cudaSuccess ? cudaGetErrorString(e) : "no devices found");
  }
  GP_CUDA_TRY(ctx, cudaGetDevice(&ctx->device));
  GP_CUDA_TRY(ctx, cudaFree(0)); /* create the primary context now, not mid-call */
  struct cudaDeviceProp p;
  GP_CUDA_TRY(ctx, cudaGetDeviceProperties(&p, ctx->device));
  gp_device_info *info = &ctx->info;
  memset(info, 0, sizeof *info);
  snprintf(info->name, sizeof info->name, "%s", p.name);
  info->cc_major = p.major;
  info->cc_minor = p.minor;
  info->sm_count = p.multiProcessorCount;
  info->global_mem_bytes = p.totalGlobalMem;
  info->l2_bytes = (size_t)p.l2CacheSize;
  int clock_khz = 0, bus = 0;
  (void)cudaDeviceGetAttribute(&clock_khz, cudaDevAttrMemoryClockRate, ctx->device);
  (void)cudaDeviceGetAttribute(&bus, cudaDevAttrGlobalMemoryBusWidth, ctx->device);
  (void)cudaGetLastError();
  info->mem_clock_khz = clock_khz;
  info->mem_bus_bits = bus;
  info->arch = p.major * 10 + p.minor;
  int smem = 0;
  if (cudaDeviceGetAttribute(&smem, cudaDevAttrMaxSharedMemoryPerBlockOptin, ctx->device) !=
      cudaSuccess)
    smem = (int)p.sharedMemPerBlock;
  (void)cudaGetLastError();
  ctx->smem_block = smem > 0 ? (size_t)smem : 48 * 1024;
  return GP_OK;
}

/* The shared memory a block may opt into on a compute capability (CUDA programming
 * guide, "Technical Specifications per Compute Capability"); 0 where not listed. */
static size_t smem_of_arch(int arch) {
  switch (arch) {
  case 75: return 64 * 1024;
  case 80: case 87: return 163 * 1024;
  case 86: case 89: case 120: case 121: return 99 * 1024;
  case 90: case 100: case 103: return 227 * 1024;
  default: return 0;
  }
}
#endif

gp_status gp_create(gp_context **out, gp_backend backend) {
  if (!out) return GP_ERR_INVALID_ARGUMENT;
  gp_context *ctx = (gp_context *)calloc(1, sizeof *ctx);
  *out = ctx;
  if (!ctx) return GP_ERR_OUT_OF_MEMORY;
  const char *dbg = getenv("GPUPRIMS_DEBUG_SYNC");
  ctx->debug_sync = dbg && dbg[0] && strcmp(dbg, "0") != 0;
  ctx->backend = GP_BACKEND_CPU;
  cpu_info(&ctx->info);
  switch (backend) {
  case GP_BACKEND_CPU:
    return GP_OK;
  case GP_BACKEND_AUTO:
  case GP_BACKEND_CUDA: {
#if GP_HAVE_CUDA
    int forced;
    gp_status s = forced_arch(ctx, &forced); /* a bad value fails AUTO too, GPU or not */
    if (s != GP_OK) return s;
    s = cuda_open(ctx);
    if (s == GP_OK) {
      ctx->backend = GP_BACKEND_CUDA;
      if (forced && forced < ctx->info.arch) {
        ctx->info.arch = forced;
        const size_t smem = smem_of_arch(forced);
        if (smem && smem < ctx->smem_block) ctx->smem_block = smem;
      }
      return GP_OK;
    }
    if (backend == GP_BACKEND_CUDA) return s;
    gp_clear_error(ctx);
    return GP_OK; /* AUTO: fall back to the CPU */
#else
    if (backend == GP_BACKEND_AUTO) return GP_OK;
    return gp_fail(ctx, GP_ERR_UNSUPPORTED,
                   "gpuprims was built without CUDA: use the CPU backend, or rebuild "
                   "where the CUDA toolkit (nvcc) is installed");
#endif
  }
  }
  return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT,
                 "unknown backend %d: use GP_BACKEND_AUTO, GP_BACKEND_CUDA or GP_BACKEND_CPU",
                 (int)backend);
}

void gp_destroy(gp_context *ctx) {
  if (!ctx) return;
  if (ctx->jit && ctx->jit_free) ctx->jit_free(ctx->jit);
  free(ctx->cpu_scratch);
#if GP_HAVE_CUDA
  if (ctx->backend == GP_BACKEND_CUDA) {
    (void)cudaStreamSynchronize((cudaStream_t)ctx->stream);
    if (ctx->ws) (void)cudaFree(ctx->ws);
    if (ctx->reduce_tickets) (void)cudaFree(ctx->reduce_tickets);
    if (ctx->pinned) (void)cudaFreeHost(ctx->pinned);
    gp_host_io_free(ctx);
    (void)cudaGetLastError();
  }
#endif
  free(ctx);
}

gp_backend gp_backend_of(const gp_context *ctx) {
  return ctx ? ctx->backend : GP_BACKEND_AUTO;
}

gp_status gp_check_ctx(gp_context *ctx) {
  if (!ctx) return GP_ERR_INVALID_ARGUMENT;
  gp_clear_error(ctx);
  return GP_OK;
}

gp_status gp_set_stream(gp_context *ctx, void *stream) {
  gp_status s = gp_check_ctx(ctx);
  if (s != GP_OK) return s;
  if (ctx->backend != GP_BACKEND_CUDA && stream != NULL)
    return gp_fail(ctx, GP_ERR_UNSUPPORTED,
                   "the CPU backend has no streams: pass NULL, or create a CUDA context");
  ctx->stream = stream;
  return GP_OK;
}

gp_status gp_synchronize(gp_context *ctx) {
  gp_status s = gp_check_ctx(ctx);
  if (s != GP_OK) return s;
  return gp_sync_stream(ctx);
}

gp_status gp_sync_stream(gp_context *ctx) {
  (void)ctx;
#if GP_HAVE_CUDA
  if (ctx->backend == GP_BACKEND_CUDA)
    GP_CUDA_TRY(ctx, cudaStreamSynchronize((cudaStream_t)ctx->stream));
#endif
  return GP_OK;
}

gp_status gp_get_device_info(gp_context *ctx, gp_device_info *info) {
  gp_status s = gp_check_ctx(ctx);
  if (s != GP_OK) return s;
  if (!info) return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT, "info is NULL");
  *info = ctx->info;
  return GP_OK;
}

gp_status gp_set_two_phase_blocks(gp_context *ctx, unsigned blocks) {
  gp_status s = gp_check_ctx(ctx);
  if (s != GP_OK) return s;
  if (blocks > (1u << 24))
    return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT,
                   "two-phase blocks = %u is more than 2^24: pick 0 (the chapter's 64) "
                   "or a smaller grid", blocks);
  ctx->two_phase_blocks = blocks;
  return GP_OK;
}

double gp_wall_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}
