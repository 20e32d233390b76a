/* --gpus N|all of `gpuprims sort` and `gpuprims reduce`: the loaded array cut into
 * contiguous shards, one per GPU of this process (gp_dist_create_local). */
#ifndef GP_CLI_DIST_H
#define GP_CLI_DIST_H

#include "gpuprims.h"

/* Where a --gpus or --dist-file command runs: id_file NULL: GPUs 0..gpus-1 of this process
 * (gpus 0: all); else this process is one rank of a launcher's job (RANK, WORLD_SIZE,
 * LOCAL_RANK), meeting the others through id_file. */
typedef struct cli_dist_target {
  int gpus;
  const char *id_file;
} cli_dist_target;

/* Parses the value of --gpus: "all" gives 0 (every visible GPU), else a count >= 1.
 * Prints a usage error and returns 0 on failure. */
int cli_parse_gpus(const char *cmd, const char *s, int *ngpus);
/* Sorts a->data (host memory) with gp_dist_sort: over t->gpus GPUs, the shards n / g
 * elements each (the first n % g one more), the same bits as gp_sort of the whole array;
 * or (t->id_file) as this rank's shard, leaving in a the rank's slice of the sorted
 * concatenation of all ranks' files (as many keys as it had). Returns 0, or 1 after
 * printing why (the library's gp_dist_last_error, or the CUDA runtime's error); a->data
 * is then unspecified. */
int cli_dist_sort(const char *cmd, const cli_dist_target *t, gp_array *a, gp_order order);
/* gp_dist_reduce of a (host memory) over the target as above: all of a, or this rank's
 * shard of the whole; out gets one element of gp_reduce_out_type(op, a->dtype), the bits
 * of gp_reduce (AUTO) of the whole. path names the input in a failure message ("sum of
 * PATH over 2 GPUs failed ..."). Returns 0 or 1 as above. */
int cli_dist_reduce(const char *cmd, const char *path, const cli_dist_target *t, gp_op op,
                    const gp_array *a, void *out);

#endif
