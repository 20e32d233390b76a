/* File helpers every array format shares (src/io/): open for reading with the size,
 * chunked exact reads and writes that report the OS's reason, and safe output files
 * (a temporary file in the target's folder, renamed over it only when complete). */
#ifndef GP_IO_FILE_UTIL_H
#define GP_IO_FILE_UTIL_H

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
/* The array body: like gp_io_read_exact, but from a regular file of known size with
 * `bytes` >= GP_IO_PAR_MIN it reads pieces of GP_IO_PAR_PIECE with pread on several
 * threads (OpenMP), which also spreads the first-touch page faults of a fresh `dst`
 * (2026-12-01: a 1 GiB .npy took 0.4 s through one fread on the H200 host), then
 * leaves f positioned after the body. Same messages as gp_io_read_exact. */
#define GP_IO_PAR_MIN ((size_t)32 << 20)
#define GP_IO_PAR_PIECE ((size_t)8 << 20)
gp_status gp_io_read_body(gp_context *ctx, FILE *f, const char *path, void *dst,
                          size_t bytes, int regular, const char *what);
/* After the last expected byte: GP_ERR_FORMAT when f has more ("<what>"), so a pipe is
 * checked as a file of known size is. */
gp_status gp_io_expect_eof(gp_context *ctx, FILE *f, const char *path, const char *what);
/* Writes exactly `bytes` in chunks; GP_ERR_IO with strerror on failure. On Linux each
 * GP_IO_CHUNK of a regular file's body of at least GP_IO_PAR_MIN bytes is handed to the
 * disk as soon as it is written (sync_file_range(SYNC_FILE_RANGE_WRITE)), so
 * gp_io_out_commit's fsync waits for the last one only: on the H200 host (ext4,
 * 2026-12-02, docs/perf/host.md) `gpuprims sort`'s write of 512 MiB / 1 GiB took
 * 0.40 / 0.87 s against 0.51 / 1.23 s (medians of 4). Writing through a shared mapping
 * by several threads was measured too and gained nothing over it. */
#ifndef GP_IO_EARLY_WRITEBACK
#define GP_IO_EARLY_WRITEBACK 1
#endif
gp_status gp_io_write_all(gp_context *ctx, FILE *f, const char *path, const void *src,
                          size_t bytes);
/* n * elem_size without overflow; GP_ERR_FORMAT naming the file when it would overflow. */
gp_status gp_io_bytes(gp_context *ctx, const char *path, uint64_t n, size_t elem_size,
                      size_t *bytes);

/* An output file being written. A regular file (or a new path) is written to a
 * temporary file beside its target and renamed over it by gp_io_out_commit, so the
 * old contents stay whole until the new ones are (fsync'd) on disk; a symlink is
 * followed and its final target replaced. Anything that is not a regular file (a
 * device, a pipe, /dev/stdout and the other /dev/ and /proc/ paths) is written in
 * place and never removed. */
typedef struct gp_io_out {
  FILE *f;
  const char *path; /* as the caller gave it, for messages */
  char *target;     /* the path renamed over; NULL when written in place */
  char *tmp;        /* the temporary file; NULL when written in place */
} gp_io_out;
gp_status gp_io_out_open(gp_context *ctx, const char *path, gp_io_out *o);
/* Flushes and closes; for a temporary file also fsyncs it, renames it over the target
 * and fsyncs the folder. On failure the temporary file is removed and the target is
 * as it was. */
gp_status gp_io_out_commit(gp_context *ctx, gp_io_out *o);
/* Closes and removes the temporary file (never the target). */
void gp_io_out_abort(gp_io_out *o);

#endif
