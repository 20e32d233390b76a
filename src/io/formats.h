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
gp_status gp_text_load(gp_context *ctx, const char *path, FILE *f, gp_dtype t,
                       gp_array *out);
gp_status gp_text_save(gp_context *ctx, const char *path, FILE *f, const gp_array *a);

/* The npy header for a 1-d array of n elements of t: fills buf (at most cap bytes) with
 * magic, version, length and the padded dict; returns its length (0 if cap is short).
 * Exposed for tests. */
size_t gp_npy_header(gp_dtype t, uint64_t n, unsigned char *buf, size_t cap);

#endif
