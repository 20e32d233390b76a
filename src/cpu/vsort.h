/* Short runs of 4- and 8-byte keys sorted in vector registers (a bitonic network), for
 * the CPU backend's segment and row sorts of keys alone (vsort.c, vsort_impl.h). */
#ifndef GP_CPU_VSORT_H
#define GP_CPU_VSORT_H

#include "core/key_codec.h"

#include <stddef.h>
#include <stdint.h>

/* the longest runs the vector sorts take */
#define GP_VSORT32_MAX 2048
#define GP_VSORT64_MAX 1024

/* The longest run gp_cpu_vsort32 takes on this CPU: GP_VSORT32_MAX with AVX-512F or
 * AVX2, else 0 (no vector sort: use the radix sort). */
size_t gp_cpu_vsort32_max(void);

/* Sorts n <= gp_cpu_vsort32_max() raw 4-byte keys of class c in place, in the library's
 * order (descending when desc): the same bits as the stable radix sort. */
void gp_cpu_vsort32(uint32_t *keys, size_t n, gp_key_class c, int desc);

/* The same for 8-byte keys, n <= gp_cpu_vsort64_max() (GP_VSORT64_MAX with AVX-512F,
 * else 0). */
size_t gp_cpu_vsort64_max(void);
void gp_cpu_vsort64(uint64_t *keys, size_t n, gp_key_class c, int desc);

/* The stable order of n <= gp_cpu_vsort64_max() 4-byte keys of class c (descending when
 * desc): w[i] = encoded key i << 32 | i, sorted by gp_cpu_vsort64. The words are
 * distinct, so ties go to the lower index; the low halves are the indices (the CPU's
 * short argsorts and top-k of short rows). */
void gp_cpu_vsort_key_index32(const uint32_t *keys, size_t n, gp_key_class c, int desc,
                              uint64_t *w);

#endif
