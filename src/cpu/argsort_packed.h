/* Argsort of short runs of 8-byte keys by one 64-bit word a key (src/cpu/argsort_packed.c).
 * Internal; called by gp_cpu_argsort. */
#ifndef GP_CPU_ARGSORT_PACKED_H
#define GP_CPU_ARGSORT_PACKED_H

#include "core/context.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* the longest run gp_cpu_argsort_packed64 takes */
#define GP_PACKED_MAX ((size_t)1 << 16)

/* indices (ib = 4 or 8 bytes each) of the stable argsort of n (1 .. GP_PACKED_MAX) 8-byte
 * keys of key_type in order: the bits gp_cpu_argsort gives. May fail only with
 * GP_ERR_OUT_OF_MEMORY (recorded in ctx; 8-byte indices then hold scratch words). */
gp_status gp_cpu_argsort_packed64(gp_context *ctx, gp_dtype key_type, const void *keys, int ib,
                                  void *indices, size_t n, gp_order order);

#ifdef __cplusplus
}
#endif
#endif
