/* The CPU backend's parallel stable radix sort (radix_cpu.c): what gp_cpu_sort runs for
 * every algo but the seed's GP_SORT_BITONIC_SEED. gp_cpu_argsort and
 * gp_cpu_sort_offsets (cpu/sort_cpu.h) are defined there too. */
#ifndef GP_CPU_RADIX_CPU_H
#define GP_CPU_RADIX_CPU_H

#include "core/context.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Sorts nseg segments of seg keys each in place (host memory, arguments validated),
 * stable, values (value_bytes 0, 4 or 8) moving along; the same bits for any thread
 * count. May fail only with GP_ERR_OUT_OF_MEMORY, before touching the data. */
gp_status gp_cpu_radix_sort(gp_context *ctx, gp_dtype key_type, void *keys, int value_bytes,
                            void *values, size_t nseg, size_t seg, gp_order order);

#ifdef __cplusplus
}
#endif
#endif
