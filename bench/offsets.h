/* Segment offsets for the benchmarks (`gpuprims bench sort --offsets`, `gpuprims bench
 * reduce --offsets`): the same kinds of segment lengths for both, from a fixed seed. */
#ifndef GP_BENCH_OFFSETS_H
#define GP_BENCH_OFFSETS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum { GPB_OFF_UNIFORM, GPB_OFF_POWERLAW, GPB_OFF_TINY, GPB_OFF_ONE, GPB_OFF_LARGE, GPB_OFF_MIX,
       GPB_OFF_KINDS };
/* "uniform", "powerlaw", "tiny", "one", "large", "mix" */
extern const char *gpb_off_names[GPB_OFF_KINDS];
/* The help text's lines on the kinds, each starting with `indent` spaces. */
void gpb_print_offset_kinds(FILE *f, int indent);

/* A comma-separated list of kinds into kinds[] (at most GPB_OFF_KINDS); 1 with a message
 * naming `suite` on stderr for an unknown one. */
int gpb_parse_offset_kinds(const char *suite, const char *list, int *kinds, int *nk);

/* Host offsets of one kind, at most n elements in all (tiny: 2^20 segments of 0..31);
 * returns nseg and *out (malloc'd, nseg + 1 entries; NULL when out of memory). */
size_t gpb_make_offsets(int kind, size_t n, uint64_t **out);

#endif
