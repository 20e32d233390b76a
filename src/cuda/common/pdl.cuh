/* Programmatic dependent launch (sm_90+): a kernel launched with
 * cudaLaunchAttributeProgrammaticStreamSerialization may start while the stream's
 * previous kernel is still running, once every block of that kernel has called
 * gp_pdl_trigger (or exited); its blocks then sit on the SMs the previous kernel leaves
 * and gp_pdl_wait returns when that kernel has completed and its memory is visible. So
 * the launch and the ramp-up of the next kernel overlap the tail of the previous one.
 * A kernel that calls gp_pdl_wait before touching global memory is ordered as if it had
 * been launched the ordinary way, transitively: what its predecessor waited for is
 * complete too. Both instructions do nothing in an ordinary launch or before sm_90.
 * Used by the radix sort's passes and the offsets reduce's span kernel. */
#ifndef GP_CUDA_COMMON_PDL_CUH
#define GP_CUDA_COMMON_PDL_CUH

#include <cuda_runtime.h>

/* let the next kernel of the stream launch, if it was launched as a dependent */
__device__ __forceinline__ void gp_pdl_trigger() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}

/* wait until the kernels this one depends on have completed, memory included */
__device__ __forceinline__ void gp_pdl_wait() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}

/* Launches fn<<<grid, block, smem, stream>>>(args...) (args: a pointer to each
 * argument, of the kernel's exact parameter types), as a programmatic dependent of the
 * stream's previous kernel when pdl is nonzero (only on sm_90+ devices: the caller
 * checks the arch). A launch failure is also the runtime's last error, so
 * GP_LAUNCH_CHECK after this call reports it with the kernel's name. */
static inline cudaError_t gp_launch_pdl(const void *fn, unsigned grid, unsigned block,
                                        size_t smem, cudaStream_t stream, void **args,
                                        int pdl) {
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(grid, 1, 1);
  cfg.blockDim = dim3(block, 1, 1);
  cfg.dynamicSmemBytes = smem;
  cfg.stream = stream;
  cudaLaunchAttribute at;
  at.id = cudaLaunchAttributeProgrammaticStreamSerialization;
  at.val.programmaticStreamSerializationAllowed = 1;
  cfg.attrs = pdl ? &at : NULL;
  cfg.numAttrs = pdl ? 1 : 0;
  return cudaLaunchKernelExC(&cfg, fn, args);
}

#endif
