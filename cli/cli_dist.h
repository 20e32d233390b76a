/* --gpus N|all of `gpuprims sort` and `gpuprims reduce`: the loaded array cut into
 * contiguous shards, one per GPU of this process (gp_dist_create_local). */
#ifndef GP_CLI_DIST_H
#define GP_CLI_DIST_H

#include "gpuprims.h"

/* Parses the value of --gpus: "all" gives 0 (every visible GPU), else a count >= 1.
 * Prints a usage error and returns 0 on failure. */
int cli_parse_gpus(const char *cmd, const char *s, int *ngpus);
/* Sorts a->data (host memory) with gp_dist_sort over ngpus GPUs (0: all), the shards
 * n / g elements each (the first n % g one more), and copies the result back: the same
 * bits as gp_sort of the whole array. Returns 0, or 1 after printing why (the library's
 * gp_dist_last_error, or the CUDA runtime's error); a->data is then unspecified. */
int cli_dist_sort(const char *cmd, int ngpus, gp_array *a, gp_order order);
/* gp_dist_reduce of a (host memory) over ngpus GPUs (0: all), sharded as above; out gets
 * one element of gp_reduce_out_type(op, a->dtype), the bits of gp_reduce (AUTO). path
 * names the input in a failure message ("sum of PATH over 2 GPUs failed ..."). Returns 0
 * or 1 as above. */
int cli_dist_reduce(const char *cmd, const char *path, int ngpus, gp_op op, const gp_array *a,
                    void *out);

#endif
