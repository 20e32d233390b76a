/* Internals of the array file readers and writers (src/io/): the shared file helpers
 * (open with a size, chunked exact reads and writes that report the OS's reason) and
 * one load/save pair per format. gp_array_load/save in io.c dispatch to them. */
#ifndef GP_IO_IO_H
#define GP_IO_IO_H

#include "core/context.h"

#include <stdint.h>
#include <stdio.h>

/* Largest single fread/fwrite: big files go in pieces (and size_t sizes stay exact). */
#define GP_IO_CHUNK ((size_t)64 << 20)

/* Opens path for reading. *size gets the file's size for a regular file; a directory
 * is GP_ERR_IO; for anything else (a pipe) *size is UINT64_MAX (unknown). */
gp_status gp_io_open_read(gp_context *ctx, const char *path, FILE **f, uint64_t *size);
/* Reads exactly `bytes` in chunks. A short read is GP_ERR_FORMAT ("<path>: <what>
 * is truncated ...") at end of file, GP_ERR_IO with strerror otherwise. */
gp_status gp_io_read_exact(gp_context *ctx, FILE *f, const char *path, void *dst,
                           size_t bytes, const char *what);
/* Writes exactly `bytes` in chunks; GP_ERR_IO with strerror on failure. */
gp_status gp_io_write_all(gp_context *ctx, FILE *f, const char *path, const void *src,
                          size_t bytes);
/* n * elem_size without overflow; GP_ERR_FORMAT naming the file when it would overflow. */
gp_status gp_io_bytes(gp_context *ctx, const char *path, uint64_t n, size_t elem_size,
                      size_t *bytes);

/* Each loader fills *out only on success (out->data malloc'd; NULL when n = 0). */
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
