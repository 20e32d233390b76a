/* `gpuprims topk FILE -k K`: the K largest (or --smallest) numbers of a .npy, raw or text
 * file, sorted, ties to the lower index; one "INDEX VALUE" line each on stdout. */
#include "commands.h"
#include "cli_util.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f) {
  fprintf(f,
          "usage: gpuprims topk FILE -k K [--smallest] [--rows N] [--backend auto|cuda|cpu]\n"
          "                               [--dtype T] [--format npy|raw|text]\n\n"
          "Prints the K largest numbers of FILE (or the K smallest with --smallest), sorted,\n"
          "one \"INDEX VALUE\" line each; equal values keep their file order. Floats order\n"
          "as gpuprims sort does (-nan < -inf < ... < -0 < +0 < ... < +inf < +nan).\n"
          "  -k         how many (1 .. the number of elements, or of a row's)\n"
          "  --rows     N: the elements are N rows of equal length (row-major); prints the\n"
          "             top K of each row as \"ROW INDEX VALUE\" lines (INDEX within the row)\n"
          "  --backend  auto (default), cuda or cpu. auto is the CPU: FILE is read into host\n"
          "             memory, and one pass over host memory is bound by the host's memory\n"
          "             on either backend (the GPU must first be sent every byte, which the\n"
          "             host copies to pinned buffers; making a GPU context costs time too).\n"
          "             Both give the same result\n"
          "  --dtype    element type of a raw file (required) or a text file (default f64)\n"
          "  --format   npy, raw or text; default by extension\n");
  cli_help_footer(f);
}

static void print_value(gp_dtype t, const unsigned char *p) {
  switch (t) {
  case GP_F32: { float v; memcpy(&v, p, 4); printf("%.9g\n", (double)v); break; }
  case GP_F64: { double v; memcpy(&v, p, 8); printf("%.17g\n", v); break; }
  case GP_I32: { int32_t v; memcpy(&v, p, 4); printf("%" PRId32 "\n", v); break; }
  case GP_I64: { int64_t v; memcpy(&v, p, 8); printf("%" PRId64 "\n", v); break; }
  case GP_U32: { uint32_t v; memcpy(&v, p, 4); printf("%" PRIu32 "\n", v); break; }
  default: { uint64_t v; memcpy(&v, p, 8); printf("%" PRIu64 "\n", v); break; }
  }
}

int cmd_topk(int argc, char **argv) {
  const char *path = NULL;
  uint64_t k = 0;
  int have_k = 0;
  uint64_t rows = 0;
  gp_order order = GP_DESCENDING;
  gp_backend backend = GP_BACKEND_AUTO;
  gp_dtype dtype = (gp_dtype)-1;
  gp_file_format fmt = GP_FILE_AUTO;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (cli_is_help(a)) { usage(stdout); return 0; }
    if (strcmp(a, "--smallest") == 0) { order = GP_ASCENDING; continue; }
    if (a[0] == '-' && a[1] != '\0') {
      int valued = strcmp(a, "-k") == 0 || strcmp(a, "--backend") == 0 || strcmp(a, "--rows") == 0 ||
                   strcmp(a, "--dtype") == 0 || strcmp(a, "--format") == 0;
      if (!valued) { cli_error("topk", "unknown option '%s' (see gpuprims topk --help)", a); return EXIT_USAGE; }
      if (i + 1 >= argc) { cli_error("topk", "%s needs a value", a); return EXIT_USAGE; }
      const char *v = argv[++i];
      if (strcmp(a, "-k") == 0 && (!cli_parse_u64(v, &k) || k == 0)) {
        cli_error("topk", "-k needs a positive count, not '%s'", v);
        return EXIT_USAGE;
      }
      if (strcmp(a, "-k") == 0) have_k = 1;
      if (strcmp(a, "--rows") == 0 && (!cli_parse_u64(v, &rows) || rows == 0)) {
        cli_error("topk", "--rows needs a positive number of rows, not '%s'", v);
        return EXIT_USAGE;
      }
      if (strcmp(a, "--backend") == 0 && !cli_parse_backend("topk", v, &backend)) return EXIT_USAGE;
      if (strcmp(a, "--dtype") == 0 && gp_dtype_from_name(v, &dtype) != GP_OK) {
        cli_error("topk", "unknown dtype '%s': use f32, f64, i32, i64, u32 or u64", v);
        return EXIT_USAGE;
      }
      if (strcmp(a, "--format") == 0 && gp_file_format_from_name(v, &fmt) != GP_OK) {
        cli_error("topk", "unknown format '%s': use npy, raw or text", v);
        return EXIT_USAGE;
      }
      continue;
    }
    if (path) { cli_error("topk", "more than one FILE ('%s' and '%s')", path, a); return EXIT_USAGE; }
    path = a;
  }
  if (!path || !have_k) {
    cli_error("topk", "%s (see gpuprims topk --help)", path ? "no -k K given" : "no FILE given");
    return EXIT_USAGE;
  }
  gp_context *ctx;
  if (!cli_create("topk", cli_file_job_backend(backend), &ctx)) return 1;
  gp_array arr = {GP_F64, 0, NULL};
  gp_array_mapping *map = NULL;
  gp_status s = gp_array_map(ctx, cli_path(path, 0), fmt, dtype, &arr, &map);
  if (s != GP_OK) {
    cli_error("topk", "%s", gp_last_error(ctx));
    gp_destroy(ctx);
    return 1;
  }
  const size_t es = gp_dtype_size(arr.dtype);
  const uint64_t nr = rows ? rows : 1;
  if (rows && arr.n % rows != 0) {
    cli_error("topk", "%s holds %zu elements, not a multiple of --rows %" PRIu64, path, arr.n, rows);
    gp_array_unmap(map);
    gp_destroy(ctx);
    return 1;
  }
  const size_t cols = (size_t)(arr.n / nr);
  const int fits = k <= cols;
  unsigned char *v = fits ? (unsigned char *)malloc((size_t)(nr * k) * es) : NULL;
  uint64_t *idx = fits ? (uint64_t *)malloc((size_t)(nr * k) * 8) : NULL;
  if (fits && (!v || !idx)) s = GP_ERR_OUT_OF_MEMORY;
  else if (rows) s = gp_topk_rows(ctx, arr.dtype, arr.data, (size_t)rows, cols, (size_t)k, order, v, idx);
  else s = gp_topk(ctx, arr.dtype, arr.data, arr.n, (size_t)k, order, v, idx);
  if (s != GP_OK) {
    cli_error("topk", "top %" PRIu64 " of %s failed: %s", k, path,
              s == GP_ERR_OUT_OF_MEMORY && fits && (!v || !idx) ? "out of host memory"
                                                                  : gp_last_error(ctx));
  } else {
    for (uint64_t r = 0; r < nr; r++)
      for (uint64_t j = 0; j < k; j++) {
        if (rows) printf("%" PRIu64 " ", r);
        printf("%" PRIu64 " ", idx[r * k + j]);
        print_value(arr.dtype, v + (r * k + j) * es);
      }
  }
  free(v);
  free(idx);
  gp_array_unmap(map);
  gp_destroy(ctx);
  return s == GP_OK ? 0 : 1;
}
