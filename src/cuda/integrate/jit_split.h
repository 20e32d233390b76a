/* The split integrate JIT: the kernel without its expression is compiled at build time
 * (trap_skeleton.cu, -rdc, one relocatable CUBIN per GPU target of the build, embedded);
 * per expression NVRTC compiles only the expression's part (codegen part 1, -rdc) and
 * nvJitLink (loaded with dlopen on first use) links the two. A first compile then costs
 * about a third of the whole kernel's (docs/perf/host.md). Where the split cannot run
 * (no prebuilt kernel for the GPU, no nvJitLink, GPUPRIMS_JIT_SPLIT=0) the caller
 * compiles the whole kernel: the results are bit for bit the same either way. */
#ifndef GP_CUDA_INTEGRATE_JIT_SPLIT_H
#define GP_CUDA_INTEGRATE_JIT_SPLIT_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* 1 when the split JIT can serve `arch` ("sm_90"): GPUPRIMS_JIT_SPLIT is not "0", the
 * library holds a prebuilt kernel for that architecture and nvJitLink loads; else 0,
 * with the reason in why (may be NULL). */
int gp_jit_split_usable(const char *arch, char *why, size_t why_len);

/* Links `part` (the expression's -rdc CUBIN from gp_nvrtc_compile) with the prebuilt
 * kernel for arch. Returns 0 with *image (malloc'd CUBIN; free() it) and *size, or -1
 * with nvJitLink's error in log. */
int gp_jit_split_link(const void *part, size_t part_size, const char *arch, char **image,
                      size_t *size, char *log, size_t log_len);

/* The architectures the library holds a prebuilt kernel for ("sm_80 sm_90"), or "" */
void gp_jit_split_archs(char *buf, size_t len);

#ifdef __cplusplus
}
#endif
#endif
