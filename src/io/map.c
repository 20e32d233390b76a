/* gp_array_map / gp_array_unmap: a regular .npy or raw file's data mapped read-only
 * (mmap, MAP_PRIVATE, populated at once from the page cache), everything else loaded as
 * gp_array_load loads it; the handle says which to undo. */
#define _DEFAULT_SOURCE /* MAP_POPULATE */
#define _FILE_OFFSET_BITS 64
#include "io/file_util.h"
#include "io/formats.h"

#include <stdint.h>
#include <stdlib.h>
#if defined(__unix__) || defined(__APPLE__)
#include <sys/mman.h>
#define GP_IO_CAN_MAP 1
#endif
#ifndef MAP_POPULATE
#define MAP_POPULATE 0
#endif

struct gp_array_mapping {
  void *base;  /* the mapping (NULL: none) */
  size_t len;  /* its length */
  void *owned; /* data loaded instead (malloc'd), or NULL */
};

/* Maps the whole file (len bytes) read-only; NULL when the system will not. */
static void *map_file(FILE *f, size_t len) {
#ifdef GP_IO_CAN_MAP
  void *p = mmap(NULL, len, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fileno(f), 0);
  return p == MAP_FAILED ? NULL : p;
#else
  (void)f;
  (void)len;
  return NULL;
#endif
}

/* The data's place in a regular file of fmt: offset, bytes and element count, from the
 * .npy header or the raw file's size (the same checks as the loaders make). */
static gp_status locate(gp_context *ctx, const char *path, FILE *f, uint64_t size,
                        gp_file_format fmt, gp_dtype *t, size_t *off, size_t *bytes) {
  if (fmt == GP_FILE_NPY) {
    uint64_t count;
    return gp_npy_read_header(ctx, path, f, size, t, &count, off, bytes);
  }
  *off = 0;
  return gp_raw_bytes(ctx, path, size, *t, bytes);
}

gp_status gp_array_map(gp_context *ctx, const char *path, gp_file_format fmt,
                       gp_dtype raw_dtype, gp_array *out, gp_array_mapping **mapping) {
  gp_status s = gp_io_load_args(ctx, "gp_array_map", path, &fmt, &raw_dtype, out);
  if (s) return s;
  if (!mapping)
    return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT, "gp_array_map: mapping is NULL");
  gp_array_mapping *m = (gp_array_mapping *)calloc(1, sizeof *m);
  if (!m) return gp_fail(ctx, GP_ERR_OUT_OF_MEMORY, "gp_array_map: no memory for a handle");
  FILE *f;
  uint64_t size;
  s = gp_io_open_read(ctx, path, &f, &size);
  if (s) {
    free(m);
    return s;
  }
  gp_array a = {raw_dtype, 0, NULL};
  int mapped = 0;
  if (size != UINT64_MAX && fmt != GP_FILE_TEXT) {
    size_t off = 0, bytes = 0;
    s = locate(ctx, path, f, size, fmt, &a.dtype, &off, &bytes);
    const size_t esize = gp_dtype_size(a.dtype);
    /* an empty array needs no mapping; a misaligned one (a .npy header not padded to
       the element size) is loaded, so the data keep their natural alignment */
    if (s == GP_OK && bytes > 0 && off % esize == 0) {
      m->base = map_file(f, (size_t)size);
      if (m->base) {
        m->len = (size_t)size;
        a.n = bytes / esize;
        a.data = (char *)m->base + off;
        mapped = 1;
      }
    } else if (s == GP_OK && bytes == 0) {
      mapped = 1; /* {dtype, 0, NULL} */
    }
    if (s == GP_OK && !mapped) s = fseeko(f, 0, SEEK_SET) == 0 ? GP_OK
                                   : gp_fail(ctx, GP_ERR_IO, "%s: cannot seek back to its "
                                             "start to read it", path);
  }
  if (s == GP_OK && !mapped) {
    a.dtype = raw_dtype;
    s = gp_io_load_open(ctx, path, f, size, fmt, raw_dtype, &a);
    m->owned = a.data;
  }
  fclose(f);
  if (s) {
    free(m);
    return s;
  }
  *out = a;
  *mapping = m;
  return GP_OK;
}

void gp_array_unmap(gp_array_mapping *m) {
  if (!m) return;
#ifdef GP_IO_CAN_MAP
  if (m->base) (void)munmap(m->base, m->len);
#endif
  free(m->owned);
  free(m);
}
