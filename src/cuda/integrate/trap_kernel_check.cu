/* trap_kernel.cuh stamped with f(x) = x in F32 and the plan's constants, so nvcc checks
 * the generated kernel's fixed part as code in every build (CMakeLists.txt builds this
 * object and links it nowhere; NVRTC compiles the real kernels, one per expression). */
#include "core/integrate.h"

#define GP_F32 1
#define GP_THREADS GP_TRAP_THREADS
#define GP_ITEMS GP_TRAP_ITEMS
#define GP_TILE GP_TRAP_TILE
#define GP_FOLD GP_TRAP_FOLD_F32
typedef float gp_real;
static __device__ __forceinline__ gp_real gp_f(const gp_real x) { return x; }

#include "cuda/integrate/trap_kernel.cuh"
