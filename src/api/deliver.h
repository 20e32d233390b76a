/* Delivering a scalar result that a kernel wrote into the context's mapped result
 * slot (core/host_io.h) to the caller's host memory: the one place that waits for it. */
#ifndef GP_API_DELIVER_H
#define GP_API_DELIVER_H

#include "core/context.h"

/* Waits until the work enqueued on the context's stream has written the result slot,
 * then copies its first `bytes` bytes to dst (host memory). */
gp_status gp_deliver_scalar(gp_context *ctx, void *dst, size_t bytes);

#endif
