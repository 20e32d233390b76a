/* 16-byte global loads of read-only input, for the streaming reductions: how a kernel
 * loads is a template argument (GP_LOAD_SCALAR: a misaligned input, element by element
 * in the caller; GP_LOAD_VEC: 16-byte read-only loads; GP_LOAD_NOALLOC: 16-byte loads
 * that skip L1 allocation). Measured on an H200 (F32 SUM, L2 flushed,
 * docs/perf/reduce.md): no_allocate is ~10% faster at 16-64 MB of input and ~5% slower
 * from 256 MB up, so the callers pick by size. */
#ifndef GP_CUDA_COMMON_LOAD16_CUH
#define GP_CUDA_COMMON_LOAD16_CUH

#include <cuda_runtime.h>

#define GP_LOAD_SCALAR 0
#define GP_LOAD_VEC 1
#define GP_LOAD_NOALLOC 2

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
