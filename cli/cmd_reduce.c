/* `gpuprims reduce FILE`: sum, min, max, argmin or argmax of a .npy, raw or text file
 * with a chosen algorithm and backend. Prints the result alone on stdout (floats to
 * round-trip precision, integers exactly; argmin/argmax: "INDEX VALUE"), so scripts
 * can use it. */
#include "commands.h"
#include "cli_util.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f) {
  fprintf(f,
          "usage: gpuprims reduce FILE [--op sum|min|max|argmin|argmax] [--algo ALGO]\n"
          "                            [--backend auto|cuda|cpu] [--rows N]\n"
          "                            [--dtype T] [--format npy|raw|text]\n\n"
          "Reduces the numbers in FILE and prints the result: f32 with %%.9g, f64 with %%.17g,\n"
          "integers exactly (integer sums widen to 64 bits and wrap modulo 2^64).\n"
          "  --op       sum (default), min, max, argmin or argmax (argmin/argmax print the\n"
          "             index of the first minimum/maximum and its value; a NaN wins, as\n"
          "             in NumPy; --algo does not apply)\n"
          "  --algo     auto (default), interleaved, sequential, two-phase, warp-atomic\n"
          "  --rows     N: the elements are N rows of equal length (row-major); prints one\n"
          "             result per row, each as the whole-array reduce of that row would give\n"
          "  --backend  auto (default: the GPU when usable), cuda or cpu\n"
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

/* --rows N: gp_reduce_rows over N equal rows, one line per row; 0 or 1 (exit code) */
static int print_rows(gp_context *ctx, gp_op op, int arg, const gp_array *arr, uint64_t rows,
                      const char *path) {
  if (arg) {
    cli_error("reduce", "--rows works with sum, min and max, not argmin/argmax");
    return 1;
  }
  if (arr->n % rows != 0) {
    cli_error("reduce", "%s has %zu elements, not a multiple of --rows %" PRIu64, path, arr->n, rows);
    return 1;
  }
  const gp_dtype out_t = gp_reduce_out_type(op, arr->dtype);
  const size_t os = gp_dtype_size(out_t);
  unsigned char *out = (unsigned char *)malloc((size_t)rows * os);
  if (!out) {
    cli_error("reduce", "out of memory for %" PRIu64 " row results", rows);
    return 1;
  }
  gp_status s = gp_reduce_rows(ctx, op, arr->dtype, arr->data, (size_t)rows, arr->n / rows, out);
  if (s != GP_OK) {
    cli_error("reduce", "%s of the rows of %s failed: %s", gp_op_name(op), path, gp_last_error(ctx));
    free(out);
    return 1;
  }
  for (uint64_t r = 0; r < rows; r++) print_value(out_t, out + r * os);
  free(out);
  return 0;
}

int cmd_reduce(int argc, char **argv) {
  const char *path = NULL;
  gp_op op = GP_SUM;
  int arg = 0; /* argmin / argmax */
  uint64_t rows = 0;
  gp_reduce_algo algo = GP_REDUCE_AUTO;
  gp_backend backend = GP_BACKEND_AUTO;
  gp_dtype dtype = (gp_dtype)-1;
  gp_file_format fmt = GP_FILE_AUTO;
  int options = 1;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (options && strcmp(a, "--") == 0) { options = 0; continue; }
    if (options && cli_is_help(a)) { usage(stdout); return 0; }
    if (options && a[0] == '-' && a[1] != '\0') {
      int valued = strcmp(a, "--op") == 0 || strcmp(a, "--algo") == 0 ||
                   strcmp(a, "--backend") == 0 || strcmp(a, "--dtype") == 0 ||
                   strcmp(a, "--format") == 0 || strcmp(a, "--rows") == 0;
      if (!valued) {
        cli_error("reduce", "unknown option '%s' (see gpuprims reduce --help)", a);
        return EXIT_USAGE;
      }
      if (i + 1 >= argc) { cli_error("reduce", "%s needs a value", a); return EXIT_USAGE; }
      const char *v = argv[++i];
      if (strcmp(a, "--op") == 0) {
        arg = strcmp(v, "argmin") == 0 || strcmp(v, "argmax") == 0;
        if (arg) op = v[3] == 'm' && v[4] == 'i' ? GP_MIN : GP_MAX;
        else if (gp_op_from_name(v, &op) != GP_OK) {
          cli_error("reduce", "unknown op '%s': use sum, min, max, argmin or argmax", v);
          return EXIT_USAGE;
        }
      }
      if (strcmp(a, "--algo") == 0 && gp_reduce_algo_from_name(v, &algo) != GP_OK) {
        cli_error("reduce", "unknown algo '%s': use auto, interleaved, sequential, two-phase "
                  "or warp-atomic", v);
        return EXIT_USAGE;
      }
      if (strcmp(a, "--backend") == 0 && !cli_parse_backend("reduce", v, &backend)) return EXIT_USAGE;
      if (strcmp(a, "--dtype") == 0 && gp_dtype_from_name(v, &dtype) != GP_OK) {
        cli_error("reduce", "unknown dtype '%s': use f32, f64, i32, i64, u32 or u64", v);
        return EXIT_USAGE;
      }
      if (strcmp(a, "--rows") == 0 && (!cli_parse_u64(v, &rows) || rows == 0)) {
        cli_error("reduce", "--rows needs a positive number of rows, not '%s'", v);
        return EXIT_USAGE;
      }
      if (strcmp(a, "--format") == 0 && gp_file_format_from_name(v, &fmt) != GP_OK) {
        cli_error("reduce", "unknown format '%s': use npy, raw or text", v);
        return EXIT_USAGE;
      }
      continue;
    }
    if (path) {
      cli_error("reduce", "more than one FILE ('%s' and '%s')", path, a);
      return EXIT_USAGE;
    }
    path = a;
  }
  if (!path) {
    cli_error("reduce", "no FILE given (see gpuprims reduce --help)");
    return EXIT_USAGE;
  }
  gp_context *ctx;
  if (!cli_create("reduce", backend, &ctx)) return 1;
  gp_array arr = {GP_F64, 0, NULL};
  gp_status s = gp_array_load(ctx, cli_path(path, 0), fmt, dtype, &arr);
  if (s != GP_OK) {
    cli_error("reduce", "%s", gp_last_error(ctx));
    gp_destroy(ctx);
    return 1;
  }
  if (rows) {
    int rc = print_rows(ctx, op, arg, &arr, rows, path);
    gp_array_free(&arr);
    gp_destroy(ctx);
    return rc;
  }
  gp_dtype out_t = arg ? arr.dtype : gp_reduce_out_type(op, arr.dtype);
  unsigned char out[8] = {0};
  uint64_t index = 0;
  if (arg) s = gp_argreduce(ctx, op, arr.dtype, arr.data, arr.n, out, &index);
  else s = gp_reduce(ctx, op, arr.dtype, arr.data, arr.n, out, algo);
  gp_array_free(&arr);
  if (s != GP_OK) {
    cli_error("reduce", "%s%s of %s failed: %s", arg ? "arg" : "", gp_op_name(op), path,
              gp_last_error(ctx));
    gp_destroy(ctx);
    return 1;
  }
  if (arg) printf("%" PRIu64 " ", index);
  print_value(out_t, out);
  gp_destroy(ctx);
  return 0;
}
