/* C interface of the CUDA sorting kernels (src/cuda/sort/bitonic.cu and
 * bitonic_seed.cu). Arguments arrive validated and in device (or managed) memory;
 * every launch is asynchronous on ctx->stream. */
#ifndef GP_CUDA_SORT_SORT_CUDA_H
#define GP_CUDA_SORT_SORT_CUDA_H

#include "core/context.h"

#ifdef __cplusplus
extern "C" {
#endif

/* GP_SORT_BITONIC: nseg segments of seg keys each (nseg = 1 for a plain sort), any
 * seg >= 1, keys of key_type, values of value_bytes (0, 4 or 8) moving along. Sorts in
 * place, no scratch. */
gp_status gp_cuda_bitonic_sort(gp_context *ctx, gp_dtype key_type, void *keys,
                               int value_bytes, void *values, size_t nseg, size_t seg,
                               int desc);

/* GP_SORT_BITONIC_SEED (Program 6.19, th_per_blk = 1024). A non-power-of-two n is
 * padded with the largest key into `scratch`, which must hold
 * gp_cuda_bitonic_seed_scratch(key_type, n) bytes (0 for a power of two); pairs need
 * a power-of-two n (checked by the caller). */
size_t gp_cuda_bitonic_seed_scratch(gp_dtype key_type, size_t n);
gp_status gp_cuda_bitonic_seed_sort(gp_context *ctx, gp_dtype key_type, void *keys,
                                    int value_bytes, void *values, size_t n, int desc,
                                    void *scratch);

#ifdef __cplusplus
}
#endif
#endif
