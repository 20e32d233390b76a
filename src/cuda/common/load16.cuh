/* 16-byte global loads of read-only input, for the streaming reductions: how a kernel
 * loads is a template argument (GP_LOAD_SCALAR: a misaligned input, element by element
 * in the caller; GP_LOAD_VEC: 16-byte read-only loads; GP_LOAD_NOALLOC: 16-byte loads
 * that skip L1 allocation); gp_load_mode picks it by the input's alignment and size. */
#ifndef GP_CUDA_COMMON_LOAD16_CUH
#define GP_CUDA_COMMON_LOAD16_CUH

#include <cuda_runtime.h>
#include <stddef.h>
#include <stdint.h>

#define GP_LOAD_SCALAR 0
#define GP_LOAD_VEC 1
#define GP_LOAD_NOALLOC 2

/* Inputs of up to this many bytes load with no_allocate. Measured on the H200
 * (2026-12-02, docs/perf/reduce.md, ninth session): the exact F32 SUM 2^22..2^24 2-10%
 * faster, F64 2^22..2^23 5-9%, argmin/argmax 2^24..2^25 8-10%, F32 MIN/MAX 2^25 and F64
 * 2^24 5%; at 128 MB 5-6% faster, at 256 MB the exact SUM 3% slower. */
#ifndef GP_NOALLOC_MAX_BYTES
#define GP_NOALLOC_MAX_BYTES ((size_t)128 << 20)
#endif

/* The load mode for `bytes` of input at `in` (host side: which kernel to launch). */
static inline int gp_load_mode(const void *in, size_t bytes) {
  if ((uintptr_t)in % 16 != 0) return GP_LOAD_SCALAR;
  return bytes <= GP_NOALLOC_MAX_BYTES ? GP_LOAD_NOALLOC : GP_LOAD_VEC;
}

template <int MODE> __device__ __forceinline__ uint4 gp_ld16(const uint4 *p) {
  if (MODE == GP_LOAD_NOALLOC) {
    uint4 r;
    asm volatile("ld.global.nc.L1::no_allocate.v4.u32 {%0, %1, %2, %3}, [%4];"
                 : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w) : "l"(p));
    return r;
  }
  return __ldg(p);
}

#endif
