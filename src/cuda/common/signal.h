/* Raising a host-visible flag from the stream (see signal.cu). */
#ifndef GP_CUDA_COMMON_SIGNAL_H
#define GP_CUDA_COMMON_SIGNAL_H

#include "core/context.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Enqueues a kernel that writes seq to *flag (device view of mapped pinned memory)
 * after all earlier work on the context's stream. */
gp_status gp_cuda_signal(gp_context *ctx, unsigned *flag, unsigned seq);

#ifdef __cplusplus
}
#endif
#endif
