/* NVRTC compilation of generated CUDA source, and loading/launching the result through
 * the CUDA runtime's library API (cudaLibraryLoadData, cudaLibraryGetKernel,
 * cudaLaunchKernel), so gpuprims never links the driver library directly. */
#ifndef GP_CUDA_INTEGRATE_JIT_H
#define GP_CUDA_INTEGRATE_JIT_H

#include "core/context.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Compiles `src` with NVRTC for `arch`: "sm_90" gives a CUBIN, "compute_90" PTX. Needs
 * no GPU and no driver. On success returns 0 and *image (malloc'd, NUL-terminated for
 * PTX) / *size; otherwise returns -1 with the NVRTC log (or the failing call) in `log`.
 * Options: C++17, --fmad=false (no contraction, so the CPU backend's bits match),
 * -minimal where NVRTC has it (12.4+), and --Ofast-compile=LEVEL when the environment
 * says GPUPRIMS_JIT_FAST=min|mid|max (another value fails, naming it). */
int gp_nvrtc_compile(const char *src, const char *arch, char **image, size_t *size,
                     char *log, size_t log_len);

/* NVRTC's version and the options gp_nvrtc_compile passes ("nvrtc 13.0 --std=c++17
 * ..."): part of the on-disk cache's key, so a new compiler or new options miss. */
void gp_nvrtc_identity(char *buf, size_t len);

/* The arch string for a device: "sm_XY" when NVRTC supports it, else PTX for the newest
 * compute_XY NVRTC supports that is not newer than the device. */
void gp_nvrtc_arch_for(int cc_major, int cc_minor, char *arch, size_t len);

/* Loads an image (CUBIN or PTX) and looks up kernel `name`. *lib and *kernel are
 * cudaLibrary_t and cudaKernel_t. */
gp_status gp_jit_load(gp_context *ctx, const void *image, const char *name, void **lib,
                      void **kernel);
void gp_jit_unload(void *lib);
/* cudaLaunchKernel of a loaded kernel on the context's stream, 1-d grid and block. */
gp_status gp_jit_launch(gp_context *ctx, void *kernel, unsigned grid, unsigned block,
                        void **args);

#ifdef __cplusplus
}
#endif
#endif
