/* Shared by the libFuzzer targets: one CPU context per process, the input as a file
 * (rewritten in place each run) or as a stream, and an assertion that aborts (libFuzzer
 * saves the input that made it fail). */
#ifndef GP_FUZZ_UTIL_H
#define GP_FUZZ_UTIL_H

#include "gpuprims.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define FUZZ_ASSERT(c)                                                              \
  do {                                                                              \
    if (!(c)) {                                                                     \
      fprintf(stderr, "%s:%d: fuzz assertion failed: %s\n", __FILE__, __LINE__, #c); \
      abort();                                                                      \
    }                                                                               \
  } while (0)

static gp_context *fuzz_ctx_;
static inline gp_context *fuzz_context(void) {
  if (!fuzz_ctx_) FUZZ_ASSERT(gp_create(&fuzz_ctx_, GP_BACKEND_CPU) == GP_OK);
  return fuzz_ctx_;
}

/* The input written to this process's file (removed at exit); returns its path. */
static char fuzz_path_[64];
static void fuzz_remove_file_(void) { unlink(fuzz_path_); }
static inline const char *fuzz_file(const uint8_t *data, size_t size) {
  if (!fuzz_path_[0]) {
    snprintf(fuzz_path_, sizeof fuzz_path_, "/tmp/gpuprims-fuzz-%ld", (long)getpid());
    atexit(fuzz_remove_file_);
  }
  FILE *f = fopen(fuzz_path_, "wb");
  FUZZ_ASSERT(f);
  FUZZ_ASSERT(size == 0 || fwrite(data, 1, size, f) == size);
  fclose(f);
  return fuzz_path_;
}

/* The input as a read-only stream (NULL for an empty input, which fmemopen refuses). */
static inline FILE *fuzz_stream(const uint8_t *data, size_t size) {
  return size ? fmemopen((void *)data, size, "rb") : NULL;
}

#endif
