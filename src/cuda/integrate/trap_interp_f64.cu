/* The interpreted trapezoid kernel, F64 evaluation (trap_interp.cuh). */
#define GP_INTERP_F32 0
#define GP_TRAP_KERNEL_NAME gp_trap_interp_kernel_f64
#define GP_INTERP_LAUNCHER gp_cuda_trap_interp_f64
#include "cuda/integrate/trap_interp.cuh"
