/* The integrate kernel without the expression (trap_kernel.cuh with GP_TRAP_SPLIT 2):
 * cmake/trap_skeleton.cmake compiles this with -rdc into a fatbin of relocatable CUBINs, one per GPU architecture of the
 * build, and embeds that in the library; jit_split.c links it to each expression's
 * NVRTC-compiled part with nvJitLink. */
#include "core/integrate.h"

#define GP_TRAP_SPLIT 2
#define GP_THREADS GP_TRAP_THREADS

#include "cuda/integrate/trap_kernel.cuh"

