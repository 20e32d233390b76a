/* `gpuprims bench reduce|sort|integrate ...` (`trap`: integrate's older name): dispatches
 * to the benchmark suites in bench/ (linked in when the build has GP_BUILD_BENCH; their
 * harness is bench/harness.h). */
#include "commands.h"
#include "cli_util.h"

#include <stdio.h>
#include <string.h>
#if GP_HAVE_BENCH
#include "../bench/suites.h"
#endif

static void usage(FILE *f) {
  fprintf(f,
          "usage: gpuprims bench <suite> [options]   (gpuprims bench <suite> --help for more)\n\n"
          "suites:\n"
          "  reduce     gp_reduce vs cub::DeviceReduce and thrust::reduce; --ladder: the seed's\n"
          "             kernel ladder with the cost each step removes\n"
          "  sort       gp_sort vs the peers\n"
          "  integrate  gp_integrate (trapezoidal rule); `trap` is the same suite\n"
           "  host       results to host memory and arrays from host memory (wall clock)\n\n"
          "Each sample starts with a flushed L2, is timed with CUDA events on one stream, and\n"
          "sampling stops at 0.5%% noise or --max-time; --json FILE writes the rows.\n");
}

int cmd_bench(int argc, char **argv) {
  if (argc < 2) {
    usage(stderr);
    return EXIT_USAGE;
  }
  if (cli_is_help(argv[1])) {
    usage(stdout);
    return 0;
  }
  const char *suite = argv[1];
  if (strcmp(suite, "reduce") != 0 && strcmp(suite, "sort") != 0 &&
      strcmp(suite, "integrate") != 0 && strcmp(suite, "trap") != 0 && strcmp(suite, "host") != 0) {
    cli_error("bench", "unknown suite '%s': use reduce, sort, integrate (or trap) or host", suite);
    return EXIT_USAGE;
  }
#if GP_HAVE_BENCH
  if (strcmp(suite, "reduce") == 0) return gp_bench_reduce(argc - 1, argv + 1);
  if (strcmp(suite, "sort") == 0) return gp_bench_sort(argc - 1, argv + 1);
  if (strcmp(suite, "host") == 0) return gp_bench_host(argc - 1, argv + 1);
  return gp_bench_integrate(argc - 1, argv + 1); /* argv[1]: "integrate" or "trap" */
#else
  cli_error("bench", "the benchmark suites were not built (configure with -DGP_BUILD_BENCH=ON)");
  return 1;
#endif
}
