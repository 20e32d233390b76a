/* `gpuprims bench reduce|sort|integrate|host|dist ...` (`trap`: integrate's older name):
 * dispatches to the benchmark suites in bench/ (linked in when the build has
 * GP_BUILD_BENCH; their harness is bench/harness.h). */
#define _POSIX_C_SOURCE 200809L
#include "commands.h"
#include "cli_util.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
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
           "  host       results to host memory and arrays from host memory (wall clock)\n"
          "  dist       gp_dist_sort / gp_dist_reduce over several GPUs vs one (wall clock)\n\n"
          "Each sample starts with a flushed L2, is timed with CUDA events on one stream, and\n"
          "sampling stops at 0.5%% noise or --max-time; --json FILE writes the rows\n"
          "(checked before the first sample: its folder must exist and be writable).\n");
  cli_help_footer(f);
}

#if GP_HAVE_BENCH
/* --json FILE must be writable before minutes of sampling, not after. */
static int json_output_ok(int argc, char **argv) {
  for (int i = 1; i + 1 < argc; i++) {
    if (strcmp(argv[i], "--json") != 0) continue;
    const char *path = argv[i + 1];
    char dir[4096];
    const char *slash = strrchr(path, '/');
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) + (slash == path) : 1,
             slash ? path : ".");
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode) || access(dir, W_OK | X_OK) != 0) {
      cli_error("bench", "--json %s: cannot write in the folder '%s': %s", path, dir,
                errno ? strerror(errno) : "not a folder");
      return 0;
    }
    if (stat(path, &st) == 0 && (S_ISDIR(st.st_mode) || access(path, W_OK) != 0)) {
      cli_error("bench", "--json %s: %s", path,
                S_ISDIR(st.st_mode) ? "is a directory" : strerror(errno));
      return 0;
    }
  }
  return 1;
}
#endif

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
      strcmp(suite, "integrate") != 0 && strcmp(suite, "trap") != 0 && strcmp(suite, "host") != 0 &&
      strcmp(suite, "dist") != 0) {
    cli_error("bench", "unknown suite '%s': use reduce, sort, integrate (or trap), host or dist",
              suite);
    return EXIT_USAGE;
  }
#if GP_HAVE_BENCH
  errno = 0;
  if (!json_output_ok(argc, argv)) return 1;
  if (strcmp(suite, "reduce") == 0) return gp_bench_reduce(argc - 1, argv + 1);
  if (strcmp(suite, "sort") == 0) return gp_bench_sort(argc - 1, argv + 1);
  if (strcmp(suite, "host") == 0) return gp_bench_host(argc - 1, argv + 1);
  if (strcmp(suite, "dist") == 0) return gp_bench_dist(argc - 1, argv + 1);
  return gp_bench_integrate(argc - 1, argv + 1); /* argv[1]: "integrate" or "trap" */
#else
  cli_error("bench", "the benchmark suites were not built (configure with -DGP_BUILD_BENCH=ON)");
  return 1;
#endif
}
