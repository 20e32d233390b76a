/* Raw binary arrays: the elements' bytes with no header (native little-endian order).
 * The element type comes from the caller, so the only check possible is the size. */
#define _POSIX_C_SOURCE 200809L
#define _FILE_OFFSET_BITS 64
#include "io/file_util.h"
#include "io/formats.h"

#include <stdlib.h>
#include <string.h>

gp_status gp_raw_bytes(gp_context *ctx, const char *path, uint64_t size, gp_dtype t,
                       size_t *bytes) {
  const size_t esize = gp_dtype_size(t);
  if (size == UINT64_MAX)
    return gp_fail(ctx, GP_ERR_IO, "%s: not a regular file: a raw array needs a file whose "
                   "size is known", path);
  if (size % esize != 0)
    return gp_fail(ctx, GP_ERR_FORMAT,
                   "%s: holds %llu bytes, not a multiple of %zu (the size of %s): is the "
                   "--dtype right?", path, (unsigned long long)size, esize, gp_dtype_name(t));
  if (size > SIZE_MAX)
    return gp_fail(ctx, GP_ERR_FORMAT, "%s: %llu bytes do not fit in memory", path,
                   (unsigned long long)size);
  *bytes = (size_t)size;
  return GP_OK;
}

gp_status gp_raw_load(gp_context *ctx, const char *path, FILE *f, uint64_t size,
                      gp_dtype t, gp_array *out) {
  const size_t esize = gp_dtype_size(t);
  size_t bytes;
  gp_status s0 = gp_raw_bytes(ctx, path, size, t, &bytes);
  if (s0) return s0;
  void *data = NULL;
  if (bytes) {
    data = malloc(bytes);
    if (!data)
      return gp_fail(ctx, GP_ERR_OUT_OF_MEMORY, "%s: cannot allocate %zu bytes", path, bytes);
    gp_status s = gp_io_read_body(ctx, f, path, data, bytes, 1, "the array data");
    if (s) { free(data); return s; }
  }
  out->dtype = t;
  out->n = bytes / esize;
  out->data = data;
  return GP_OK;
}

gp_status gp_raw_save(gp_context *ctx, const char *path, FILE *f, const gp_array *a) {
  return gp_io_write_all(ctx, f, path, a->data, a->n * gp_dtype_size(a->dtype));
}
