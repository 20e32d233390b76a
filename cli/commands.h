/* The gpuprims command's subcommands. Each takes its own argv (argv[0] is the
 * subcommand name) and returns the process exit status: 0 success, 1 failure,
 * 2 usage error. Subcommands use the public API (gpuprims.h) only, and the CUDA
 * runtime where the API has no call for it (--gpus places its shards: cli_dist.c). */
#ifndef GP_CLI_COMMANDS_H
#define GP_CLI_COMMANDS_H

int cmd_info(int argc, char **argv);
int cmd_reduce(int argc, char **argv);
int cmd_topk(int argc, char **argv);
int cmd_sort(int argc, char **argv);
int cmd_integrate(int argc, char **argv);
int cmd_model(int argc, char **argv);
int cmd_bench(int argc, char **argv);

#endif
