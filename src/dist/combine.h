/* The host side of gp_dist_reduce: what each rank contributes (a record of u64 words) and
 * how the gathered records combine into the one result, with the same bits as gp_reduce
 * (GP_REDUCE_AUTO) over the concatenated shards. Needs no NCCL (tests/test_dist_combine.c
 * checks it on the CPU). Internal. */
#ifndef GP_DIST_COMBINE_H
#define GP_DIST_COMBINE_H

#include "gpuprims.h"

#include <stddef.h>
#include <stdint.h>

/* Words of one rank's record: the normalized superaccumulator (limbs, then flags; see
 * core/exact_sum.h) for F32/F64 SUM, else 1: the rank's gp_reduce result in the low bytes
 * (element of gp_reduce_out_type), zero-padded. */
size_t gp_dist_rec_words(gp_op op, gp_dtype type);

/* Combines the records of nranks ranks (rank r's at recs + r * stride words); rank r's shard had
 * n[r] elements and is skipped by MIN/MAX when empty (some rank must have n[r] > 0 for
 * MIN/MAX). Writes one element of gp_reduce_out_type(op, type) to out (host). Integer SUM
 * adds mod 2^64; MIN/MAX use the library's NaN and -0 rules; float SUM adds the limbs as
 * integers, ORs the flags and rounds once; an empty whole array sums to +0. */
void gp_dist_combine(gp_op op, gp_dtype type, const uint64_t *recs, size_t stride,
                     const uint64_t *n, int nranks, void *out);

#endif
