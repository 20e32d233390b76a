/* `gpuprims sort IN OUT`: sorts the keys of a .npy, raw or text file (whole, or in
 * segments of N) with gp_sort / gp_sort_segments and writes them to OUT, or with
 * --argsort writes the stable sorting permutation (gp_argsort, u64 indices); with
 * --gpus, over several GPUs of this process, or with --dist-file as one rank of a launched
 * job (gp_dist_sort, cli_dist.c). */
#define _POSIX_C_SOURCE 200809L
#include "cli_dist.h"
#include "cli_util.h"
#include "commands.h"

#include <stdio.h>
#include <stdlib.h>
#include <stdarg.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void usage(FILE *f) {
  fprintf(f,
          "usage: gpuprims sort IN OUT [--desc] [--algo auto|bitonic|bitonic-seed|radix]\n"
          "                            [--segment N] [--argsort] [--backend auto|cuda|cpu]\n"
          "                            [--gpus N|all | --dist-file PATH] [--dtype T]\n"
          "                            [--format F] [--out-format F] [-v] [--progress]\n\n"
          "Sorts the numbers in IN and writes them to OUT (same type). Floats sort in the\n"
          "total order -NaN < -inf < ... < -0 < +0 < ... < +inf < +NaN.\n\n"
          "  --desc        descending (default ascending)\n"
          "  --algo        auto (default), bitonic, bitonic-seed (the seed's grid sort,\n"
          "                Program 6.19) or radix (stable LSD radix sort)\n"
          "  --argsort     write, instead of the sorted keys, the stable permutation that\n"
          "                sorts them: OUT[r] is the input position of the key of rank r\n"
          "                (u64; equal keys keep their input order; --algo does not apply)\n"
          "  --segment N   sort each run of N consecutive keys on its own; the count must\n"
          "                be a multiple of N (--algo does not apply)\n"
          "  --backend     auto (default: the GPU when usable), cuda or cpu\n"
          "  --gpus N|all  spread the keys over GPUs 0..N-1 (all: every visible GPU) of this\n"
          "                process, N contiguous shards of near-equal size, and sort them\n"
          "                as one array through NCCL (gp_dist_sort): the same OUT as one\n"
          "                GPU gives. Needs NCCL (libnccl.so.2); takes none of --segment,\n"
          "                --argsort, --algo (other than auto) or --backend cpu\n"
          "  --dist-file PATH  this process is one rank of a job started by a launcher\n"
          "                (torchrun: RANK, WORLD_SIZE, LOCAL_RANK in the environment): IN is\n"
          "                its shard, OUT gets its slice of the sorted concatenation of all\n"
          "                ranks' INs (rank order), as many keys as IN. The ranks meet through\n"
          "                PATH, a file name new to the run that all of them see (rank 0\n"
          "                writes NCCL's id there and removes it). Same refusals as --gpus\n"
          "  --dtype       element type of a raw file (required) or a text file (default f64):\n"
          "                f32, f64, i32, i64, u32, u64\n"
          "  --format      format of IN: npy, raw or text; default by extension\n"
          "                (.npy; .txt/.csv; anything else raw)\n"
          "  --out-format  format of OUT; default by its extension\n"
          "  -v, --verbose print on stderr the wall time of each step: reading IN (the\n"
          "                GPU context is made meanwhile), sorting, writing OUT (flushed\n"
          "                to disk with fsync before the rename)\n"
          "  --progress    show the step under way on stderr (reading, starting the GPU,\n"
          "                sorting, writing); by default shown when stderr is a terminal\n"
          "                and IN is a file of 256 MiB or more\n\n"
          "IN '-' is stdin (give --format), OUT '-' is stdout; '--' ends the options.\n"
          "OUT is replaced only once complete: a temporary file beside it is renamed over\n"
          "it, so IN may be OUT and a failed write never loses what OUT held; a symlink\n"
          "OUT replaces its target; a device or pipe is written in place.\n");
  cli_help_footer(f);
}

/* The command line; gpus is -1 without --gpus, 0 for all, else the count; dist_file is
   --dist-file's PATH or NULL. */
typedef struct sort_opts {
  const char *paths[2];
  int desc, have_seg, argsort, gpus;
  const char *dist_file;
  gp_sort_algo algo;
  gp_backend backend;
  gp_dtype dtype;
  gp_file_format fmt, out_fmt;
  uint64_t seg;
  int verbose, progress;
} sort_opts;

/* The value v of option a (one that takes a value); 0 after a usage error. */
static int parse_value(sort_opts *o, const char *a, const char *v) {
  if (strcmp(a, "--algo") == 0 && gp_sort_algo_from_name(v, &o->algo) != GP_OK) {
    cli_error("sort", "unknown algo '%s': use auto, bitonic, bitonic-seed or radix", v);
    return 0;
  }
  if (strcmp(a, "--segment") == 0) {
    if (!cli_parse_u64(v, &o->seg) || o->seg == 0) {
      cli_error("sort", "--segment needs a positive integer, got '%s'", v);
      return 0;
    }
    o->have_seg = 1;
  }
  if (strcmp(a, "--gpus") == 0 && !cli_parse_gpus("sort", v, &o->gpus)) return 0;
  if (strcmp(a, "--dist-file") == 0) o->dist_file = v;
  if (strcmp(a, "--backend") == 0 && !cli_parse_backend("sort", v, &o->backend)) return 0;
  if (strcmp(a, "--dtype") == 0 && gp_dtype_from_name(v, &o->dtype) != GP_OK) {
    cli_error("sort", "unknown dtype '%s': use f32, f64, i32, i64, u32 or u64", v);
    return 0;
  }
  if ((strcmp(a, "--format") == 0 && gp_file_format_from_name(v, &o->fmt) != GP_OK) ||
      (strcmp(a, "--out-format") == 0 && gp_file_format_from_name(v, &o->out_fmt) != GP_OK)) {
    cli_error("sort", "unknown format '%s': use npy, raw or text", v);
    return 0;
  }
  return 1;
}

/* Fills *o from argv; -1 to go on, else the exit status (0 after --help, 2). */
static int parse(int argc, char **argv, sort_opts *o) {
  int npaths = 0, options = 1;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (options && strcmp(a, "--") == 0) {
      options = 0;
      continue;
    }
    if (!options) goto path;
    if (cli_is_help(a)) {
      usage(stdout);
      return 0;
    }
    if (strcmp(a, "--desc") == 0) {
      o->desc = 1;
      continue;
    }
    if (strcmp(a, "--argsort") == 0) {
      o->argsort = 1;
      continue;
    }
    if (strcmp(a, "-v") == 0 || strcmp(a, "--verbose") == 0) {
      o->verbose = 1;
      continue;
    }
    if (strcmp(a, "--progress") == 0) {
      o->progress = 1;
      continue;
    }
    if (a[0] == '-' && a[1] != '\0') {
      int valued = strcmp(a, "--algo") == 0 || strcmp(a, "--segment") == 0 ||
                   strcmp(a, "--backend") == 0 || strcmp(a, "--dtype") == 0 ||
                   strcmp(a, "--format") == 0 || strcmp(a, "--out-format") == 0 ||
                   strcmp(a, "--gpus") == 0 || strcmp(a, "--dist-file") == 0;
      if (!valued) {
        cli_error("sort", "unknown option '%s' (see gpuprims sort --help)", a);
        return EXIT_USAGE;
      }
      if (i + 1 >= argc) {
        cli_error("sort", "%s needs a value (see gpuprims sort --help)", a);
        return EXIT_USAGE;
      }
      if (!parse_value(o, a, argv[++i])) return EXIT_USAGE;
      continue;
    }
  path:
    if (npaths == 2) {
      cli_error("sort", "too many arguments: '%s' (usage: gpuprims sort IN OUT)", a);
      return EXIT_USAGE;
    }
    o->paths[npaths++] = a;
  }
  if (npaths < 2) {
    cli_error("sort", "need IN and OUT files (see gpuprims sort --help)");
    return EXIT_USAGE;
  }
  return -1;
}

/* Options that do not go together; 0 after a usage error. */
static int check(const sort_opts *o) {
  if (o->have_seg && o->algo != GP_SORT_AUTO) {
    cli_error("sort", "--algo does not apply with --segment");
    return 0;
  }
  if (o->argsort && (o->have_seg || o->algo != GP_SORT_AUTO)) {
    cli_error("sort", "--argsort takes neither --segment nor --algo");
    return 0;
  }
  if (o->gpus >= 0 && o->dist_file) {
    cli_error("sort", "--gpus (GPUs of this process) and --dist-file (one rank of a launched "
              "job) do not go together");
    return 0;
  }
  if ((o->gpus >= 0 || o->dist_file) && (o->have_seg || o->argsort || o->algo != GP_SORT_AUTO ||
                                         o->backend == GP_BACKEND_CPU)) {
    cli_error("sort", "%s sorts the whole array with gp_dist_sort: it takes none of "
              "--segment, --argsort, --algo (other than auto) or --backend cpu",
              o->dist_file ? "--dist-file" : "--gpus");
    return 0;
  }
  return 1;
}

/* Inputs from this size up take about a second or more: on a terminal each step is
   shown as it starts. */
#define SORT_PROGRESS_BYTES ((long long)256 << 20)

static int want_progress(const sort_opts *o) {
  if (o->progress) return 1;
  struct stat st;
  return isatty(STDERR_FILENO) && strcmp(o->paths[0], "-") != 0 &&
         stat(o->paths[0], &st) == 0 && S_ISREG(st.st_mode) &&
         (long long)st.st_size >= SORT_PROGRESS_BYTES;
}

/* The step under way, on one line of stderr (NULL: clear the line). */
static void show_step(int on, const char *fmt, ...) {
  if (!on) return;
  char line[160] = "";
  if (fmt) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
  }
  fprintf(stderr, "\r%-78s%s", line, fmt ? "" : "\r");
  fflush(stderr);
}

/* Sorts arr (or writes the permutation to idx) as the options say; 0 or 1. */
static int sort_array(gp_context *ctx, const sort_opts *o, gp_array *arr, gp_array *idx) {
  gp_order order = o->desc ? GP_DESCENDING : GP_ASCENDING;
  gp_status s;
  if (o->gpus >= 0 || o->dist_file) {
    const cli_dist_target t = {o->gpus, o->dist_file};
    return cli_dist_sort("sort", &t, arr, order);
  }
  if (o->argsort && arr->n > 0 && !(idx->data = malloc(arr->n * sizeof(uint64_t)))) {
    cli_error("sort", "no memory for %zu indices", arr->n);
    return 1;
  }
  if (o->argsort) s = gp_argsort(ctx, arr->dtype, arr->data, GP_U64, idx->data, arr->n, order);
  else if (o->have_seg)
    s = gp_sort_segments(ctx, arr->dtype, arr->data, arr->n, (size_t)o->seg, order);
  else s = gp_sort(ctx, arr->dtype, arr->data, arr->n, order, o->algo);
  if (s != GP_OK) cli_fail("sort", ctx, "sorting", s);
  return s == GP_OK ? 0 : 1;
}

int cmd_sort(int argc, char **argv) {
  sort_opts o = {{NULL, NULL}, 0, 0, 0, -1, NULL, GP_SORT_AUTO, GP_BACKEND_AUTO, (gp_dtype)-1,
                 GP_FILE_AUTO, GP_FILE_AUTO, 0, 0, 0};
  int rc = parse(argc, argv, &o);
  if (rc >= 0) return rc;
  if (!check(&o)) return EXIT_USAGE;
  /* the input is read (through a CPU context) while the context that sorts it is
   * made; with --gpus or --dist-file that one only writes the output file */
  gp_context *io, *ctx;
  const int dist = o.gpus >= 0 || o.dist_file;
  const double t0 = cli_wall();
  const int steps = want_progress(&o);
  if (!cli_create("sort", GP_BACKEND_CPU, &io)) return 1;
  cli_ctx_job job;
  cli_create_start(&job, dist ? GP_BACKEND_CPU : o.backend);
  gp_array arr = {GP_F64, 0, NULL};
  show_step(steps, "gpuprims sort: reading %s ...", o.paths[0]);
  gp_status s = gp_array_load(io, cli_path(o.paths[0], 0), o.fmt, o.dtype, &arr);
  if (s != GP_OK) cli_fail("sort", io, "reading the input", s);
  gp_destroy(io);
  const double t1 = cli_wall();
  if (s == GP_OK && o.backend != GP_BACKEND_CPU && !dist)
    show_step(steps, "gpuprims sort: %zu keys read; starting the GPU ...", arr.n);
  if (!cli_create_finish("sort", &job, &ctx) || s != GP_OK) {
    show_step(steps, NULL);
    gp_array_free(&arr);
    gp_destroy(ctx);
    return 1;
  }
  const double t2 = cli_wall();
  gp_array idx = {GP_U64, arr.n, NULL};
  show_step(steps, "gpuprims sort: sorting %zu keys (%s) ...", arr.n,
            dist ? "GPUs through NCCL" : gp_backend_name(gp_backend_of(ctx)));
  rc = sort_array(ctx, &o, &arr, &idx);
  const double t3 = cli_wall();
  if (rc == 0) show_step(steps, "gpuprims sort: writing %s ...", o.paths[1]);
  if (rc == 0 && cli_save("sort", ctx, o.paths[1], o.out_fmt, o.argsort ? &idx : &arr) != GP_OK)
    rc = 1;
  show_step(steps, NULL);
  if (o.verbose && rc == 0)
    fprintf(stderr,
            "gpuprims sort: %zu keys: read %.3f s, context ready %.3f s later, sort %.3f s "
            "(%s), write %.3f s\n",
            arr.n, t1 - t0, t2 - t1, t3 - t2,
            dist ? "GPUs through NCCL" : gp_backend_name(gp_backend_of(ctx)),
            cli_wall() - t3);
  free(idx.data);
  gp_array_free(&arr);
  gp_destroy(ctx);
  return rc;
}
