/* A one-thread kernel that raises a flag in mapped host memory once everything before
 * it on the stream has finished: the host polls the flag instead of waiting on the
 * stream (GPUPRIMS_HOST_WAIT=spin, src/api/deliver.c). */
#include "cuda/common/signal.h"

#include <cuda_runtime.h>

__global__ void gp_signal_kernel(unsigned *flag, unsigned seq) {
  __threadfence_system();
  *(volatile unsigned *)flag = seq;
}

extern "C" gp_status gp_cuda_signal(gp_context *ctx, unsigned *flag, unsigned seq) {
  gp_signal_kernel<<<1, 1, 0, (cudaStream_t)ctx->stream>>>(flag, seq);
  GP_LAUNCH_CHECK(ctx, "gp_signal_kernel", 1, 1, 0);
  return GP_OK;
}
