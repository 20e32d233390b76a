/* One load/save pair per array format (npy.c, raw.c, text.c), called by
 * gp_array_load/save in io.c; the file helpers they share are io/file_util.h. */
#ifndef GP_IO_FORMATS_H
#define GP_IO_FORMATS_H

#include "core/context.h"

#include <stdint.h>
#include <stdio.h>

/* Each loader fills *out only on success (out->data malloc'd; NULL when n = 0). size
 * is the file's size, or UINT64_MAX for a stream (a pipe), which is checked as a file
 * is, by reading. */
gp_status gp_npy_load(gp_context *ctx, const char *path, FILE *f, uint64_t size,
                      gp_array *out);
gp_status gp_npy_save(gp_context *ctx, const char *path, FILE *f, const gp_array *a);
gp_status gp_raw_load(gp_context *ctx, const char *path, FILE *f, uint64_t size,
                      gp_dtype t, gp_array *out);
gp_status gp_raw_save(gp_context *ctx, const char *path, FILE *f, const gp_array *a);
/* A raw file's data length in bytes from its size (UINT64_MAX: a stream, refused), checked
 * to be whole elements of t that fit in memory. */
gp_status gp_raw_bytes(gp_context *ctx, const char *path, uint64_t size, gp_dtype t,
                       size_t *bytes);
gp_status gp_text_load(gp_context *ctx, const char *path, FILE *f, gp_dtype t,
                       gp_array *out);
gp_status gp_text_save(gp_context *ctx, const char *path, FILE *f, const gp_array *a);

/* The .npy header at f's start: element type, count, and the data's offset and length in
 * bytes, checked against the file's size (UINT64_MAX: a stream, not checked). f is left
 * at the data. */
gp_status gp_npy_read_header(gp_context *ctx, const char *path, FILE *f, uint64_t size,
                             gp_dtype *t, uint64_t *count, size_t *data_off, size_t *bytes);

/* The argument checks of gp_array_load and gp_array_map (fn names the caller in the
 * message); resolves GP_FILE_AUTO by extension and TEXT's default type. */
gp_status gp_io_load_args(gp_context *ctx, const char *fn, const char *path,
                          gp_file_format *fmt, gp_dtype *raw_dtype, const void *out);
/* Loads the opened file f (its size as gp_io_open_read gives it) in format fmt. */
gp_status gp_io_load_open(gp_context *ctx, const char *path, FILE *f, uint64_t size,
                          gp_file_format fmt, gp_dtype raw_dtype, gp_array *out);

/* The npy header for a 1-d array of n elements of t: fills buf (at most cap bytes) with
 * magic, version, length and the padded dict; returns its length (0 if cap is short).
 * Exposed for tests. */
size_t gp_npy_header(gp_dtype t, uint64_t n, unsigned char *buf, size_t cap);

#endif
