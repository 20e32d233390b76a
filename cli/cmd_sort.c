/* `gpuprims sort IN OUT`: sorts the keys of a .npy, raw or text file (whole, or in
 * segments of N) with gp_sort / gp_sort_segments and writes them to OUT, or with
 * --argsort writes the stable sorting permutation (gp_argsort, u64 indices). */
#include "cli_util.h"
#include "commands.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f) {
  fprintf(f,
          "usage: gpuprims sort IN OUT [--desc] [--algo auto|bitonic|bitonic-seed|radix]\n"
          "                            [--segment N] [--argsort] [--backend auto|cuda|cpu]\n"
          "                            [--dtype T] [--format F] [--out-format F]\n\n"
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
          "  --dtype       element type of a raw file (required) or a text file (default f64):\n"
          "                f32, f64, i32, i64, u32, u64\n"
          "  --format      format of IN: npy, raw or text; default by extension\n"
          "                (.npy; .txt/.csv; anything else raw)\n"
          "  --out-format  format of OUT; default by its extension\n\n"
          "IN '-' is stdin (give --format), OUT '-' is stdout; '--' ends the options.\n"
          "OUT is replaced only once complete: a temporary file beside it is renamed over\n"
          "it, so IN may be OUT and a failed write never loses what OUT held; a symlink\n"
          "OUT replaces its target; a device or pipe is written in place.\n");
  cli_help_footer(f);
}

int cmd_sort(int argc, char **argv) {
  const char *paths[2] = {NULL, NULL};
  int npaths = 0, desc = 0, have_seg = 0, argsort = 0;
  gp_sort_algo algo = GP_SORT_AUTO;
  gp_backend backend = GP_BACKEND_AUTO;
  gp_dtype dtype = (gp_dtype)-1;
  gp_file_format fmt = GP_FILE_AUTO, out_fmt = GP_FILE_AUTO;
  uint64_t seg = 0;
  int options = 1;
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
      desc = 1;
      continue;
    }
    if (strcmp(a, "--argsort") == 0) {
      argsort = 1;
      continue;
    }
    if (a[0] == '-' && a[1] != '\0') {
      int valued = strcmp(a, "--algo") == 0 || strcmp(a, "--segment") == 0 ||
                   strcmp(a, "--backend") == 0 || strcmp(a, "--dtype") == 0 ||
                   strcmp(a, "--format") == 0 || strcmp(a, "--out-format") == 0;
      if (!valued) {
        cli_error("sort", "unknown option '%s' (see gpuprims sort --help)", a);
        return EXIT_USAGE;
      }
      if (i + 1 >= argc) {
        cli_error("sort", "%s needs a value (see gpuprims sort --help)", a);
        return EXIT_USAGE;
      }
      const char *v = argv[++i];
      if (strcmp(a, "--algo") == 0 && gp_sort_algo_from_name(v, &algo) != GP_OK) {
        cli_error("sort", "unknown algo '%s': use auto, bitonic, bitonic-seed or radix", v);
        return EXIT_USAGE;
      }
      if (strcmp(a, "--segment") == 0) {
        if (!cli_parse_u64(v, &seg) || seg == 0) {
          cli_error("sort", "--segment needs a positive integer, got '%s'", v);
          return EXIT_USAGE;
        }
        have_seg = 1;
      }
      if (strcmp(a, "--backend") == 0 && !cli_parse_backend("sort", v, &backend)) return EXIT_USAGE;
      if (strcmp(a, "--dtype") == 0 && gp_dtype_from_name(v, &dtype) != GP_OK) {
        cli_error("sort", "unknown dtype '%s': use f32, f64, i32, i64, u32 or u64", v);
        return EXIT_USAGE;
      }
      if ((strcmp(a, "--format") == 0 && gp_file_format_from_name(v, &fmt) != GP_OK) ||
          (strcmp(a, "--out-format") == 0 && gp_file_format_from_name(v, &out_fmt) != GP_OK)) {
        cli_error("sort", "unknown format '%s': use npy, raw or text", v);
        return EXIT_USAGE;
      }
      continue;
    }
  path:
    if (npaths == 2) {
      cli_error("sort", "too many arguments: '%s' (usage: gpuprims sort IN OUT)", a);
      return EXIT_USAGE;
    }
    paths[npaths++] = a;
  }
  if (npaths < 2) {
    cli_error("sort", "need IN and OUT files (see gpuprims sort --help)");
    return EXIT_USAGE;
  }
  if (have_seg && algo != GP_SORT_AUTO) {
    cli_error("sort", "--algo does not apply with --segment");
    return EXIT_USAGE;
  }
  if (argsort && (have_seg || algo != GP_SORT_AUTO)) {
    cli_error("sort", "--argsort takes neither --segment nor --algo");
    return EXIT_USAGE;
  }
  gp_context *ctx;
  if (!cli_create("sort", backend, &ctx)) return 1;
  gp_array arr = {GP_F64, 0, NULL};
  gp_status s = gp_array_load(ctx, cli_path(paths[0], 0), fmt, dtype, &arr);
  if (s != GP_OK) {
    cli_fail("sort", ctx, "reading the input", s);
    gp_destroy(ctx);
    return 1;
  }
  gp_order order = desc ? GP_DESCENDING : GP_ASCENDING;
  gp_array idx = {GP_U64, arr.n, NULL};
  if (argsort && arr.n > 0 && !(idx.data = malloc(arr.n * sizeof(uint64_t)))) {
    cli_error("sort", "no memory for %zu indices", arr.n);
    gp_array_free(&arr);
    gp_destroy(ctx);
    return 1;
  }
  if (argsort) s = gp_argsort(ctx, arr.dtype, arr.data, GP_U64, idx.data, arr.n, order);
  else if (have_seg) s = gp_sort_segments(ctx, arr.dtype, arr.data, arr.n, (size_t)seg, order);
  else s = gp_sort(ctx, arr.dtype, arr.data, arr.n, order, algo);
  if (s == GP_OK) {
    s = cli_save("sort", ctx, paths[1], out_fmt, argsort ? &idx : &arr);
  } else {
    cli_fail("sort", ctx, "sorting", s);
  }
  free(idx.data);
  gp_array_free(&arr);
  gp_destroy(ctx);
  return s == GP_OK ? 0 : 1;
}
