/* `gpuprims reduce FILE`: sum, min, max, argmin or argmax of a .npy, raw or text file
 * with a chosen algorithm and backend, or over several GPUs of this process (--gpus:
 * gp_dist_reduce, cli_dist.c). Prints the result alone on stdout (floats to round-trip
 * precision, integers exactly; argmin/argmax: "INDEX VALUE"), so scripts can use it. */
#include "commands.h"
#include "cli_dist.h"
#include "cli_util.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f) {
  fprintf(f,
          "usage: gpuprims reduce FILE [--op sum|min|max|argmin|argmax] [--algo ALGO]\n"
          "                            [--backend auto|cuda|cpu] [--rows N]\n"
          "                            [--gpus N|all | --dist-file PATH] [--dtype T]\n"
          "                            [--format npy|raw|text]\n\n"
          "Reduces the numbers in FILE and prints the result: f32 with %%.9g, f64 with %%.17g,\n"
          "integers exactly (integer sums widen to 64 bits and wrap modulo 2^64).\n"
          "  --op       sum (default), min, max, argmin or argmax (argmin/argmax print the\n"
          "             index of the first minimum/maximum and its value; a NaN wins, as\n"
          "             in NumPy; --algo does not apply)\n"
          "  --algo     auto (default), interleaved, sequential, two-phase, warp-atomic\n"
          "  --rows     N: the elements are N rows of equal length (row-major); prints one\n"
          "             result per row, each as the whole-array reduce of that row would give\n"
          "             (argmin/argmax: the index in the row and its value)\n"
          "  --backend  auto (default), cuda or cpu. auto is the CPU: FILE is read into host\n"
          "             memory, and one pass over host memory is bound by the host's memory\n"
          "             on either backend (the GPU must first be sent every byte, which the\n"
          "             host copies to pinned buffers; making a GPU context costs time too).\n"
          "             Both give the same bits. An --algo other than auto runs on the GPU\n"
          "  --gpus     N|all: spread the elements over GPUs 0..N-1 (all: every visible GPU)\n"
          "             of this process, N contiguous shards of near-equal size, reduced as\n"
          "             one array through NCCL (gp_dist_reduce): the same result as one GPU\n"
          "             prints. Needs NCCL (libnccl.so.2); sum, min and max only, and none of\n"
          "             --rows, --algo (other than auto) or --backend cpu\n"
          "  --dist-file PATH: this process is one rank of a job started by a launcher\n"
          "             (torchrun: RANK, WORLD_SIZE, LOCAL_RANK in the environment): FILE is\n"
          "             its shard, and every rank prints the reduction of all ranks' FILEs.\n"
          "             The ranks meet through PATH, a file name new to the run that all of\n"
          "             them see. Same limits as --gpus\n"
          "  --dtype    element type of a raw file (required) or a text file (default f64):\n"
          "             f32, f64, i32, i64, u32, u64; a .npy file carries its own\n"
          "  --format   npy, raw or text; default by extension (.npy; .txt/.csv; else raw)\n"
          "FILE '-' is stdin (give --format). '--' ends the options.\n");
  cli_help_footer(f);
}

static void print_value(gp_dtype t, const void *p) {
  switch (t) {
  case GP_F32: { float v; memcpy(&v, p, 4); printf("%.9g\n", (double)v); break; }
  case GP_F64: { double v; memcpy(&v, p, 8); printf("%.17g\n", v); break; }
  case GP_I32: { int32_t v; memcpy(&v, p, 4); printf("%" PRId32 "\n", v); break; }
  case GP_I64: { int64_t v; memcpy(&v, p, 8); printf("%" PRId64 "\n", v); break; }
  case GP_U32: { uint32_t v; memcpy(&v, p, 4); printf("%" PRIu32 "\n", v); break; }
  default: { uint64_t v; memcpy(&v, p, 8); printf("%" PRIu64 "\n", v); break; }
  }
}

/* --rows N: gp_reduce_rows (gp_argreduce_rows for argmin/argmax: "INDEX VALUE", the
   index in the row) over N equal rows, one line per row; 0 or 1 (exit code) */
static int print_rows(gp_context *ctx, gp_op op, int arg, const gp_array *arr, uint64_t rows,
                      const char *path) {
  if (arr->n % rows != 0) {
    cli_error("reduce", "%s has %zu elements, not a multiple of --rows %" PRIu64, path, arr->n, rows);
    return 1;
  }
  const gp_dtype out_t = arg ? arr->dtype : gp_reduce_out_type(op, arr->dtype);
  const size_t os = gp_dtype_size(out_t);
  unsigned char *out = (unsigned char *)malloc((size_t)rows * os);
  uint64_t *index = arg ? (uint64_t *)malloc((size_t)rows * sizeof *index) : NULL;
  if (!out || (arg && !index)) {
    cli_error("reduce", "out of memory for %" PRIu64 " row results", rows);
    free(out);
    free(index);
    return 1;
  }
  const size_t len = arr->n / rows;
  gp_status s = arg ? gp_argreduce_rows(ctx, op, arr->dtype, arr->data, (size_t)rows, len, out,
                                        index)
                    : gp_reduce_rows(ctx, op, arr->dtype, arr->data, (size_t)rows, len, out);
  if (s != GP_OK) {
    cli_error("reduce", "%s%s of the rows of %s failed: %s", arg ? "arg" : "", gp_op_name(op),
              path, gp_last_error(ctx));
    free(out);
    free(index);
    return 1;
  }
  for (uint64_t r = 0; r < rows; r++) {
    if (arg) printf("%" PRIu64 " ", index[r]);
    print_value(out_t, out + r * os);
  }
  free(out);
  free(index);
  return 0;
}

/* The command line; gpus is -1 without --gpus, 0 for all, else the count; dist_file is
   --dist-file's PATH or NULL. */
typedef struct reduce_opts {
  const char *path, *dist_file;
  gp_op op;
  int arg; /* argmin / argmax */
  int gpus;
  uint64_t rows;
  gp_reduce_algo algo;
  gp_backend backend;
  gp_dtype dtype;
  gp_file_format fmt;
} reduce_opts;

/* The value v of option a (one that takes a value); 0 after a usage error. */
static int parse_value(reduce_opts *o, const char *a, const char *v) {
  if (strcmp(a, "--op") == 0) {
    o->arg = strcmp(v, "argmin") == 0 || strcmp(v, "argmax") == 0;
    if (o->arg) o->op = v[3] == 'm' && v[4] == 'i' ? GP_MIN : GP_MAX;
    else if (gp_op_from_name(v, &o->op) != GP_OK) {
      cli_error("reduce", "unknown op '%s': use sum, min, max, argmin or argmax", v);
      return 0;
    }
  }
  if (strcmp(a, "--algo") == 0 && gp_reduce_algo_from_name(v, &o->algo) != GP_OK) {
    cli_error("reduce", "unknown algo '%s': use auto, interleaved, sequential, two-phase "
              "or warp-atomic", v);
    return 0;
  }
  if (strcmp(a, "--backend") == 0 && !cli_parse_backend("reduce", v, &o->backend)) return 0;
  if (strcmp(a, "--gpus") == 0 && !cli_parse_gpus("reduce", v, &o->gpus)) return 0;
  if (strcmp(a, "--dist-file") == 0) o->dist_file = v;
  if (strcmp(a, "--dtype") == 0 && gp_dtype_from_name(v, &o->dtype) != GP_OK) {
    cli_error("reduce", "unknown dtype '%s': use f32, f64, i32, i64, u32 or u64", v);
    return 0;
  }
  if (strcmp(a, "--rows") == 0 && (!cli_parse_u64(v, &o->rows) || o->rows == 0)) {
    cli_error("reduce", "--rows needs a positive number of rows, not '%s'", v);
    return 0;
  }
  if (strcmp(a, "--format") == 0 && gp_file_format_from_name(v, &o->fmt) != GP_OK) {
    cli_error("reduce", "unknown format '%s': use npy, raw or text", v);
    return 0;
  }
  return 1;
}

/* Fills *o from argv; -1 to go on, else the exit status (0 after --help, 2). */
static int parse(int argc, char **argv, reduce_opts *o) {
  int options = 1;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (options && strcmp(a, "--") == 0) { options = 0; continue; }
    if (options && cli_is_help(a)) { usage(stdout); return 0; }
    if (options && a[0] == '-' && a[1] != '\0') {
      int valued = strcmp(a, "--op") == 0 || strcmp(a, "--algo") == 0 ||
                   strcmp(a, "--backend") == 0 || strcmp(a, "--dtype") == 0 ||
                   strcmp(a, "--format") == 0 || strcmp(a, "--rows") == 0 ||
                   strcmp(a, "--gpus") == 0 || strcmp(a, "--dist-file") == 0;
      if (!valued) {
        cli_error("reduce", "unknown option '%s' (see gpuprims reduce --help)", a);
        return EXIT_USAGE;
      }
      if (i + 1 >= argc) { cli_error("reduce", "%s needs a value", a); return EXIT_USAGE; }
      if (!parse_value(o, a, argv[++i])) return EXIT_USAGE;
      continue;
    }
    if (o->path) {
      cli_error("reduce", "more than one FILE ('%s' and '%s')", o->path, a);
      return EXIT_USAGE;
    }
    o->path = a;
  }
  if (!o->path) {
    cli_error("reduce", "no FILE given (see gpuprims reduce --help)");
    return EXIT_USAGE;
  }
  if (o->gpus >= 0 && o->dist_file) {
    cli_error("reduce", "--gpus (GPUs of this process) and --dist-file (one rank of a "
              "launched job) do not go together");
    return EXIT_USAGE;
  }
  if ((o->gpus >= 0 || o->dist_file) && (o->arg || o->rows || o->algo != GP_REDUCE_AUTO ||
                                         o->backend == GP_BACKEND_CPU)) {
    cli_error("reduce", "%s reduces the whole array with gp_dist_reduce: sum, min or max "
              "only, and none of --rows, --algo (other than auto) or --backend cpu",
              o->dist_file ? "--dist-file" : "--gpus");
    return EXIT_USAGE;
  }
  return -1;
}

/* The whole-array result printed, or why not; 0 or 1. */
static int print_reduction(gp_context *ctx, const reduce_opts *o, const gp_array *arr) {
  gp_dtype out_t = o->arg ? arr->dtype : gp_reduce_out_type(o->op, arr->dtype);
  unsigned char out[8] = {0};
  uint64_t index = 0;
  if (o->gpus >= 0 || o->dist_file) {
    const cli_dist_target t = {o->gpus, o->dist_file};
    if (cli_dist_reduce("reduce", o->path, &t, o->op, arr, out) != 0) return 1;
  } else {
    gp_status s = o->arg ? gp_argreduce(ctx, o->op, arr->dtype, arr->data, arr->n, out, &index)
                         : gp_reduce(ctx, o->op, arr->dtype, arr->data, arr->n, out, o->algo);
    if (s != GP_OK) {
      cli_error("reduce", "%s%s of %s failed: %s", o->arg ? "arg" : "", gp_op_name(o->op),
                o->path, gp_last_error(ctx));
      return 1;
    }
  }
  if (o->arg) printf("%" PRIu64 " ", index);
  print_value(out_t, out);
  return 0;
}

int cmd_reduce(int argc, char **argv) {
  reduce_opts o = {NULL, NULL, GP_SUM, 0, -1, 0, GP_REDUCE_AUTO, GP_BACKEND_AUTO, (gp_dtype)-1,
                   GP_FILE_AUTO};
  int rc = parse(argc, argv, &o);
  if (rc >= 0) return rc;
  /* the file is read (through a CPU context) while the context that reduces it is
   * made; with --gpus or --dist-file that one only prints: no GPU of its own */
  gp_context *io, *ctx;
  const int dist = o.gpus >= 0 || o.dist_file;
  if (!cli_create("reduce", GP_BACKEND_CPU, &io)) return 1;
  cli_ctx_job job;
  const gp_backend b = dist ? GP_BACKEND_CPU
                       : o.algo != GP_REDUCE_AUTO ? o.backend : cli_file_job_backend(o.backend);
  cli_create_start(&job, b);
  gp_array arr = {GP_F64, 0, NULL};
  gp_array_mapping *map = NULL;
  gp_status s = gp_array_map(io, cli_path(o.path, 0), o.fmt, o.dtype, &arr, &map);
  if (s != GP_OK) cli_error("reduce", "%s", gp_last_error(io));
  gp_destroy(io);
  if (!cli_create_finish("reduce", &job, &ctx) || s != GP_OK) {
    gp_array_unmap(map);
    gp_destroy(ctx);
    return 1;
  }
  if (o.rows) rc = print_rows(ctx, o.op, o.arg, &arr, o.rows, o.path);
  else rc = print_reduction(ctx, &o, &arr);
  gp_array_unmap(map);
  gp_destroy(ctx);
  return rc;
}
