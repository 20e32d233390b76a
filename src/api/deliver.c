/* gp_deliver_scalar: the wait for a host scalar result. SYNC waits on the stream
 * (cudaStreamSynchronize, which spins or yields as the device's schedule flags say);
 * SPIN enqueues a flag-raising kernel and polls the flag for at most GP_SPIN_MAX_US
 * before falling back to the stream wait. Chosen by measurement: docs/perf/host.md. */
#include "api/deliver.h"
#include "core/host_io.h"
#if GP_HAVE_CUDA
#include "cuda/common/signal.h"
#endif

#include <stdatomic.h>
#include <string.h>

gp_status gp_deliver_scalar(gp_context *ctx, void *dst, size_t bytes) {
#if GP_HAVE_CUDA
  void *host = NULL, *dev = NULL;
  gp_status s = gp_result_slot(ctx, &host, &dev);
  if (s) return s;
  int done = 0;
  if (gp_host_wait_mode(ctx) == GP_WAIT_SPIN) {
    volatile unsigned *flag_host;
    unsigned *flag_dev, seq;
    if ((s = gp_result_flag(ctx, &flag_host, &flag_dev, &seq))) return s;
    if ((s = gp_cuda_signal(ctx, flag_dev, seq))) return s;
    const double t0 = gp_wall_seconds();
    while (!(done = *flag_host == seq) && gp_wall_seconds() - t0 < GP_SPIN_MAX_US * 1e-6) {
    }
    atomic_thread_fence(memory_order_acquire);
  }
  if (!done && (s = gp_sync_stream(ctx))) return s;
  memcpy(dst, host, bytes);
  return GP_OK;
#else
  (void)dst; (void)bytes;
  return gp_fail(ctx, GP_ERR_UNSUPPORTED, "gpuprims was built without CUDA");
#endif
}
