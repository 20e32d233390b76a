/* `gpuprims reduce FILE`: sum, min, max, argmin or argmax of a .npy, raw or text file
 * with a chosen algorithm and backend. Prints the result alone on stdout (floats to
 * round-trip precision, integers exactly; argmin/argmax: "INDEX VALUE"), so scripts
 * can use it. */
#include "commands.h"
#include "cli_util.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static void usage(FILE *f) {
  fprintf(f,
          "usage: gpuprims reduce FILE [--op sum|min|max|argmin|argmax] [--algo ALGO]\n"
          "                            [--backend auto|cuda|cpu]\n"
          "                            [--dtype T] [--format npy|raw|text]\n\n"
          "Reduces the numbers in FILE and prints the result: f32 with %%.9g, f64 with %%.17g,\n"
          "integers exactly (integer sums widen to 64 bits and wrap modulo 2^64).\n"
          "  --op       sum (default), min, max, argmin or argmax (argmin/argmax print the\n"
          "             index of the first minimum/maximum and its value; a NaN wins, as\n"
          "             in NumPy; --algo does not apply)\n"
          "  --algo     auto (default), interleaved, sequential, two-phase, warp-atomic\n"
          "  --backend  auto (default: the GPU when usable), cuda or cpu\n"
          "  --dtype    element type of a raw file (required) or a text file (default f64):\n"
          "             f32, f64, i32, i64, u32, u64; a .npy file carries its own\n"
          "  --format   npy, raw or text; default by extension (.npy; .txt/.csv; else raw)\n"
          "FILE '-' is stdin (give --format). '--' ends the options.\n");
  cli_help_footer(f);
}

int cmd_reduce(int argc, char **argv) {
  const char *path = NULL;
  gp_op op = GP_SUM;
  int arg = 0; /* argmin / argmax */
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
                   strcmp(a, "--format") == 0;
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
  switch (out_t) {
  case GP_F32: { float v; memcpy(&v, out, 4); printf("%.9g\n", (double)v); break; }
  case GP_F64: { double v; memcpy(&v, out, 8); printf("%.17g\n", v); break; }
  case GP_I32: { int32_t v; memcpy(&v, out, 4); printf("%" PRId32 "\n", v); break; }
  case GP_I64: { int64_t v; memcpy(&v, out, 8); printf("%" PRId64 "\n", v); break; }
  case GP_U32: { uint32_t v; memcpy(&v, out, 4); printf("%" PRIu32 "\n", v); break; }
  default: { uint64_t v; memcpy(&v, out, 8); printf("%" PRIu64 "\n", v); break; }
  }
  gp_destroy(ctx);
  return 0;
}
