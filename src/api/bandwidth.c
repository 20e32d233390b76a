/* gp_measure_bandwidth: the peak memory bandwidth benchmarks are judged against.
 * CUDA: src/cuda/common/bandwidth.cu (event-timed kernels); CPU: src/cpu/bandwidth_cpu.c. */
#include "core/context.h"
#include "cpu/bandwidth_cpu.h"
#if GP_HAVE_CUDA
#include "cuda/common/bandwidth.h"
#endif

gp_status gp_measure_bandwidth(gp_context *ctx, double *read_gbs, double *copy_gbs) {
  gp_status s = gp_check_ctx(ctx);
  if (s) return s;
  double r = 0, c = 0;
#if GP_HAVE_CUDA
  if (ctx->backend == GP_BACKEND_CUDA)
    s = gp_cuda_measure_bandwidth(ctx, read_gbs ? &r : NULL, copy_gbs ? &c : NULL);
  else
#endif
    s = gp_cpu_measure_bandwidth(ctx, read_gbs ? &r : NULL, copy_gbs ? &c : NULL);
  if (s) return s;
  if (read_gbs) *read_gbs = r;
  if (copy_gbs) *copy_gbs = c;
  return GP_OK;
}
