/* A vectorized quicksort of keys alone (AVX-512F): partitions by vector compares and
 * compresses, short ranges by the bitonic networks of cpu/vsort.h. For one array or row
 * of keys alone longer than the networks take; keys alone have one sorted order (equal
 * encoded keys are the same bits), so this unstable sort gives the stable radix sort's
 * bits. Where scattering radix digits is slow (a Xeon of the development machines:
 * 6 ns a key for a plain 8-bit LSD sort of 2^12 .. 2^16 keys) it is 1.3-3.8x faster than
 * the radix sort from 2^12 to 2^24 keys (docs/perf/cpu.md). */
#ifndef GP_CPU_VQSORT_H
#define GP_CPU_VQSORT_H

#include "core/key_codec.h"

#include <stddef.h>
#include <stdint.h>

/* Whether gp_cpu_vqsort sorts keys of kb bytes (4 or 8) on this CPU: AVX-512F, and not
 * turned off by GPUPRIMS_CPU_VQSORT=0 (which the tests use to run the radix path too). */
int gp_cpu_vqsort_ok(size_t kb);

/* Sorts n raw keys of kb bytes (4 or 8) and class c in place, in the library's order
 * (descending when desc), with up to nthreads OpenMP threads (1: no OpenMP region).
 * Only where gp_cpu_vqsort_ok(kb). */
void gp_cpu_vqsort(void *keys, size_t kb, size_t n, gp_key_class c, int desc, int nthreads);

/* The same with at most `depth` partition steps on any path before the rest goes to
 * heapsort (depth < 0: introsort's 2 log2(n) + 4, as gp_cpu_vqsort; the tests use 0 and
 * 1 to run the heapsort, which only adversarial inputs reach). */
void gp_cpu_vqsort_depth(void *keys, size_t kb, size_t n, gp_key_class c, int desc,
                         int nthreads, int depth);

#endif
