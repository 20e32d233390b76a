/* gpuprims: the command-line tool over the public API. Dispatches to subcommands. */
#include "commands.h"
#include "cli_util.h"

#include <stdio.h>
#include <string.h>

static const struct {
  const char *name;
  int (*run)(int, char **);
  const char *summary;
} commands[] = {
  {"info", cmd_info, "the backend in use, the GPU, and its measured read bandwidth"},
  {"reduce", cmd_reduce, "sum, min, max, argmin or argmax of a .npy, raw or text file"},
  {"topk", cmd_topk, "the k largest (or smallest) numbers of a file, with their indices"},
  {"sort", cmd_sort, "sort a file (keys, optionally in segments)"},
  {"integrate", cmd_integrate, "trapezoidal-rule integral of an expression in x"},
  {"model", cmd_model, "cost models: warp divergence, bank conflicts, span"},
  {"bench", cmd_bench, "benchmarks (reduce, sort, trap) against CUB and Thrust"},
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

static void usage(FILE *f) {
  fprintf(f,
          "usage: gpuprims <command> [options]   (gpuprims <command> --help for more)\n\n"
          "GPU parallel primitives (reduction, trapezoidal integration, bitonic sort)\n"
          "with CUDA and CPU backends, and the cost models that explain them.\n\n"
          "commands:\n");
  for (size_t i = 0; i < NCOMMANDS; i++)
    fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
  fprintf(f, "\n  --version  print the version and the backends compiled in\n");
  cli_help_footer(f);
}

int main(int argc, char **argv) {
  cli_signals_init();
  if (argc < 2) {
    usage(stderr);
    return EXIT_USAGE;
  }
  if (cli_is_help(argv[1]) || strcmp(argv[1], "help") == 0) {
    usage(stdout);
    return 0;
  }
  if (strcmp(argv[1], "--version") == 0) {
    printf("gpuprims %s\n", gp_version());
    return 0;
  }
  for (size_t i = 0; i < NCOMMANDS; i++)
    if (strcmp(argv[1], commands[i].name) == 0) return commands[i].run(argc - 1, argv + 1);
  fprintf(stderr, "gpuprims: unknown command '%s'\n\n", argv[1]);
  usage(stderr);
  return EXIT_USAGE;
}
