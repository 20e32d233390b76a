/* gp_array_load / gp_array_save: argument checks and the format choice (by extension
 * for GP_FILE_AUTO); the formats are in npy.c, raw.c and text.c, the file helpers they
 * share (and safe output files) in file_util.c. */
#define _POSIX_C_SOURCE 200809L
#define _FILE_OFFSET_BITS 64
#include "io/file_util.h"
#include "io/formats.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

const char *gp_file_format_name(gp_file_format f) {
  switch (f) {
  case GP_FILE_AUTO: return "auto";
  case GP_FILE_NPY: return "npy";
  case GP_FILE_RAW: return "raw";
  case GP_FILE_TEXT: return "text";
  }
  return "?";
}

gp_status gp_file_format_from_name(const char *name, gp_file_format *f) {
  if (!name || !f) return GP_ERR_INVALID_ARGUMENT;
  for (int i = GP_FILE_AUTO; i <= GP_FILE_TEXT; i++)
    if (strcmp(name, gp_file_format_name((gp_file_format)i)) == 0) {
      *f = (gp_file_format)i;
      return GP_OK;
    }
  if (strcmp(name, "txt") == 0 || strcmp(name, "csv") == 0) { *f = GP_FILE_TEXT; return GP_OK; }
  if (strcmp(name, "bin") == 0) { *f = GP_FILE_RAW; return GP_OK; }
  return GP_ERR_PARSE;
}

static gp_file_format by_extension(const char *path) {
  const char *slash = strrchr(path, '/');
  const char *dot = strrchr(slash ? slash : path, '.');
  if (!dot) return GP_FILE_RAW;
  if (strcasecmp(dot, ".npy") == 0) return GP_FILE_NPY;
  if (strcasecmp(dot, ".txt") == 0 || strcasecmp(dot, ".csv") == 0) return GP_FILE_TEXT;
  return GP_FILE_RAW;
}

gp_status gp_io_load_args(gp_context *ctx, const char *fn, const char *path,
                          gp_file_format *fmt, gp_dtype *raw_dtype, const void *out) {
  gp_status s = gp_check_ctx(ctx);
  if (s) return s;
  if (!path || !out)
    return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT, "%s: %s is NULL", fn, !path ? "path" : "out");
  if ((unsigned)*fmt > GP_FILE_TEXT)
    return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT,
                   "unknown file format %d: use GP_FILE_AUTO, _NPY, _RAW or _TEXT", (int)*fmt);
  if (*fmt == GP_FILE_AUTO) *fmt = by_extension(path);
  int have_dtype = (unsigned)*raw_dtype < GP_DTYPE_COUNT;
  if (*fmt == GP_FILE_RAW && !have_dtype)
    return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT,
                   "%s: a raw file has no header, so its element type must be given "
                   "(--dtype f32|f64|i32|i64|u32|u64), or save it as .npy", path);
  if (*fmt == GP_FILE_TEXT && !have_dtype) *raw_dtype = GP_F64;
  return GP_OK;
}

gp_status gp_io_load_open(gp_context *ctx, const char *path, FILE *f, uint64_t size,
                          gp_file_format fmt, gp_dtype raw_dtype, gp_array *out) {
  gp_array a = {raw_dtype, 0, NULL};
  gp_status s;
  switch (fmt) {
  case GP_FILE_NPY: s = gp_npy_load(ctx, path, f, size, &a); break;
  case GP_FILE_RAW: s = gp_raw_load(ctx, path, f, size, raw_dtype, &a); break;
  default: s = gp_text_load(ctx, path, f, raw_dtype, &a); break;
  }
  if (s == GP_OK) *out = a;
  return s;
}

gp_status gp_array_load(gp_context *ctx, const char *path, gp_file_format fmt,
                        gp_dtype raw_dtype, gp_array *out) {
  gp_status s = gp_io_load_args(ctx, "gp_array_load", path, &fmt, &raw_dtype, out);
  if (s) return s;
  FILE *f;
  uint64_t size;
  s = gp_io_open_read(ctx, path, &f, &size);
  if (s) return s;
  s = gp_io_load_open(ctx, path, f, size, fmt, raw_dtype, out);
  fclose(f);
  return s;
}

gp_status gp_array_save(gp_context *ctx, const char *path, gp_file_format fmt,
                        const gp_array *a) {
  gp_status s = gp_check_ctx(ctx);
  if (s) return s;
  if (!path || !a)
    return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT, "gp_array_save: %s is NULL",
                   !path ? "path" : "the array");
  if ((unsigned)fmt > GP_FILE_TEXT)
    return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT,
                   "unknown file format %d: use GP_FILE_AUTO, _NPY, _RAW or _TEXT", (int)fmt);
  s = gp_check_dtype(ctx, a->dtype, "array dtype");
  if (s) return s;
  s = gp_check_ptr(ctx, a->data, a->n, "array data");
  if (s) return s;
  if (a->n > SIZE_MAX / gp_dtype_size(a->dtype))
    return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT, "%s: n = %zu elements of %s do not fit "
                   "in memory", path, a->n, gp_dtype_name(a->dtype));
  s = gp_require_host(ctx, a->data, "the array's data");
  if (s) return s;
  if (fmt == GP_FILE_AUTO) fmt = by_extension(path);

  gp_io_out o;
  s = gp_io_out_open(ctx, path, &o);
  if (s) return s;
  switch (fmt) {
  case GP_FILE_NPY: s = gp_npy_save(ctx, path, o.f, a); break;
  case GP_FILE_RAW: s = gp_raw_save(ctx, path, o.f, a); break;
  default: s = gp_text_save(ctx, path, o.f, a); break;
  }
  if (s) {
    gp_io_out_abort(&o);
    return s;
  }
  return gp_io_out_commit(ctx, &o);
}

void gp_array_free(gp_array *a) {
  if (!a) return;
  free(a->data);
  a->data = NULL;
  a->n = 0;
}
