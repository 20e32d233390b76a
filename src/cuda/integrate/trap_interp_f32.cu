/* The interpreted trapezoid kernel, F32 evaluation (trap_interp.cuh). */
#define GP_INTERP_F32 1
#define GP_TRAP_KERNEL_NAME gp_trap_interp_kernel_f32
#define GP_INTERP_LAUNCHER gp_cuda_trap_interp_f32
#include "cuda/integrate/trap_interp.cuh"
