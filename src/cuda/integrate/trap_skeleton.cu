/* The integrate kernel without the expression (trap_kernel.cuh with GP_TRAP_SPLIT 2),
 * and the library functions an expression may call: cmake/trap_skeleton.cmake compiles
 * this with -rdc into a fatbin of relocatable CUBINs, one per GPU architecture of the
 * build, and embeds that in the library; jit_split.c links it to each expression's
 * NVRTC-compiled part with nvJitLink. */
#include "core/integrate.h"

#define GP_TRAP_SPLIT 2
#define GP_THREADS GP_TRAP_THREADS
#define GP_ITEMS GP_TRAP_ITEMS
#define GP_TILE GP_TRAP_TILE

#include "cuda/integrate/trap_kernel.cuh"

/* gp_m_<name>: codegen.c's prebuilt_math functions, in both precisions, so that NVRTC
 * compiles an expression's arithmetic but never the library's sin or pow (the same
 * options as NVRTC's: the same bits) */
#define GP_M1(T, name) \
  extern "C" __device__ T gp_m_##name(const T x) { return name(x); }
#define GP_M2(T, name) \
  extern "C" __device__ T gp_m_##name(const T x, const T y) { return name(x, y); }
GP_M1(float, sinf)
GP_M1(float, cosf)
GP_M1(float, tanf)
GP_M1(float, expf)
GP_M1(float, logf)
GP_M2(float, powf)
GP_M1(double, sin)
GP_M1(double, cos)
GP_M1(double, tan)
GP_M1(double, exp)
GP_M1(double, log)
GP_M2(double, pow)
