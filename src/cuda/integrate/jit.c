/* NVRTC -> CUBIN/PTX -> cudaLibraryLoadData -> cudaLibraryGetKernel -> cudaLaunchKernel.
 * Only the runtime API and NVRTC: a machine without a driver can still compile (CI
 * checks the generated source this way) and the binary starts without libcuda. */
#include "cuda/integrate/jit.h"

#include <cuda_runtime_api.h>
#include <nvrtc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Besides the architecture: no contraction and IEEE division, square root and denormals,
 * so the CPU backend's bits match. */
static const char *const OPTIONS[] = {"--std=c++17", "--fmad=false", "--prec-div=true",
                                      "--prec-sqrt=true", "--ftz=false"};
#define NOPTIONS ((int)(sizeof OPTIONS / sizeof OPTIONS[0]))

/* NVRTC 12.4+: -minimal leaves out the runtime API declarations, textures and other
 * built-in header parts that the generated source (no #include; math functions and
 * intrinsics only) never uses. The CUBIN comes out byte for byte the same; the empty
 * kernel's compile drops from 53 to 37 ms of CPU (dev box, 2026-12-01). */
static int use_minimal(void) {
  int major = 0, minor = 0;
  return nvrtcVersion(&major, &minor) == NVRTC_SUCCESS &&
         (major > 12 || (major == 12 && minor >= 4));
}

/* GPUPRIMS_JIT_FAST=min|mid|max: NVRTC's --Ofast-compile (12.8+) at that level, which
 * trades the kernel's optimization for compile time (docs/perf/host.md); unset, empty or
 * 0: off. *bad is set for any other value. */
static const char *fast_option(int *bad) {
  static const char *const levels[] = {"min", "mid", "max"};
  static const char *const opts[] = {"--Ofast-compile=min", "--Ofast-compile=mid",
                                     "--Ofast-compile=max"};
  const char *e = getenv("GPUPRIMS_JIT_FAST");
  *bad = 0;
  if (!e || !e[0] || strcmp(e, "0") == 0) return NULL;
  for (int i = 0; i < 3; i++)
    if (strcmp(e, levels[i]) == 0) return opts[i];
  *bad = 1;
  return NULL;
}

int gp_nvrtc_compile(const char *src, const char *arch, char **image, size_t *size,
                     char *log, size_t log_len) {
  *image = NULL;
  *size = 0;
  if (log_len) log[0] = '\0';
  int bad;
  const char *fast = fast_option(&bad);
  if (bad) {
    snprintf(log, log_len, "GPUPRIMS_JIT_FAST='%s' is not min, mid, max or 0: fix or unset it",
             getenv("GPUPRIMS_JIT_FAST"));
    return -1;
  }
  nvrtcProgram prog;
  nvrtcResult r = nvrtcCreateProgram(&prog, src, "gp_integrate.cu", 0, NULL, NULL);
  if (r != NVRTC_SUCCESS) {
    snprintf(log, log_len, "nvrtcCreateProgram failed: %s", nvrtcGetErrorString(r));
    return -1;
  }
  char archopt[64];
  snprintf(archopt, sizeof archopt, "--gpu-architecture=%s", arch);
  const char *opts[3 + NOPTIONS] = {archopt};
  int nopts = 1;
  for (int i = 0; i < NOPTIONS; i++) opts[nopts++] = OPTIONS[i];
  if (use_minimal()) opts[nopts++] = "-minimal";
  if (fast) opts[nopts++] = fast;
  r = nvrtcCompileProgram(prog, nopts, opts);
  if (r != NVRTC_SUCCESS) {
    size_t n = 0;
    int w = snprintf(log, log_len, "NVRTC (%s) failed: %s: ", arch, nvrtcGetErrorString(r));
    if (nvrtcGetProgramLogSize(prog, &n) == NVRTC_SUCCESS && n > 1 && w > 0 &&
        (size_t)w < log_len) {
      char *full = (char *)malloc(n);
      if (full && nvrtcGetProgramLog(prog, full) == NVRTC_SUCCESS)
        snprintf(log + w, log_len - (size_t)w, "%s", full);
      free(full);
    }
    nvrtcDestroyProgram(&prog);
    return -1;
  }
  const int cubin = strncmp(arch, "sm_", 3) == 0;
  size_t n = 0;
  r = cubin ? nvrtcGetCUBINSize(prog, &n) : nvrtcGetPTXSize(prog, &n);
  char *img = r == NVRTC_SUCCESS ? (char *)malloc(n + 1) : NULL;
  if (img) r = cubin ? nvrtcGetCUBIN(prog, img) : nvrtcGetPTX(prog, img);
  nvrtcDestroyProgram(&prog);
  if (r != NVRTC_SUCCESS || !img) {
    free(img);
    snprintf(log, log_len, "NVRTC: cannot read the compiled %s: %s", cubin ? "CUBIN" : "PTX",
             r != NVRTC_SUCCESS ? nvrtcGetErrorString(r) : "out of memory");
    return -1;
  }
  img[n] = '\0';
  *image = img;
  *size = n;
  return 0;
}

void gp_nvrtc_identity(char *buf, size_t len) {
  int major = 0, minor = 0;
  if (nvrtcVersion(&major, &minor) != NVRTC_SUCCESS) major = minor = -1;
  int n = snprintf(buf, len, "nvrtc %d.%d", major, minor);
  for (int i = 0; i < NOPTIONS && n > 0 && (size_t)n < len; i++)
    n += snprintf(buf + n, len - (size_t)n, " %s", OPTIONS[i]);
  if (use_minimal() && n > 0 && (size_t)n < len)
    n += snprintf(buf + n, len - (size_t)n, " -minimal");
  int bad;
  const char *fast = fast_option(&bad);
  if (fast && n > 0 && (size_t)n < len) (void)snprintf(buf + n, len - (size_t)n, " %s", fast);
}

void gp_nvrtc_arch_for(int cc_major, int cc_minor, char *arch, size_t len) {
  const int want = cc_major * 10 + cc_minor;
  int count = 0, best = 0, exact = 0;
  if (nvrtcGetNumSupportedArchs(&count) == NVRTC_SUCCESS && count > 0 && count < 1024) {
    int *archs = (int *)malloc(sizeof(int) * (size_t)count);
    if (archs && nvrtcGetSupportedArchs(archs) == NVRTC_SUCCESS)
      for (int i = 0; i < count; i++) {
        if (archs[i] == want) exact = 1;
        if (archs[i] <= want && archs[i] > best) best = archs[i];
      }
    free(archs);
  }
  if (exact || best == 0)
    snprintf(arch, len, "sm_%d", want);
  else
    snprintf(arch, len, "compute_%d", best);
}

gp_status gp_jit_load(gp_context *ctx, const void *image, const char *name, void **lib,
                      void **kernel) {
  cudaLibrary_t l = NULL;
  cudaKernel_t k = NULL;
  GP_CUDA_TRY(ctx, cudaLibraryLoadData(&l, image, NULL, NULL, 0, NULL, NULL, 0));
  cudaError_t e = cudaLibraryGetKernel(&k, l, name);
  if (e != cudaSuccess) {
    (void)cudaLibraryUnload(l);
    return gp_cuda_status(ctx, (int)e, "cudaLibraryGetKernel", __FILE__, __LINE__);
  }
  *lib = (void *)l;
  *kernel = (void *)k;
  return GP_OK;
}

void gp_jit_unload(void *lib) {
  if (lib) (void)cudaLibraryUnload((cudaLibrary_t)lib);
  (void)cudaGetLastError();
}

gp_status gp_jit_launch(gp_context *ctx, void *kernel, unsigned grid, unsigned block,
                        void **args) {
  dim3 g = {grid, 1, 1}, b = {block, 1, 1};
  /* a cudaKernel_t passes as the function pointer (CUDA 12+) */
  GP_CUDA_TRY(ctx, cudaLaunchKernel((const void *)kernel, g, b, args, 0,
                                    (cudaStream_t)ctx->stream));
  GP_LAUNCH_CHECK(ctx, "gp_integrate_kernel (NVRTC)", grid, block, 0);
  return GP_OK;
}
