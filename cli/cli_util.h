/* Helpers shared by the subcommands: option parsing, error reporting, contexts. */
#ifndef GP_CLI_UTIL_H
#define GP_CLI_UTIL_H

#include "gpuprims.h"
#include <stdint.h>
#include <stdio.h>

#define EXIT_USAGE 2
#define EXIT_INTERRUPTED 130 /* as a shell reports a process ended by SIGINT */

/* Prints "gpuprims <cmd>: <message>" to stderr. */
void cli_error(const char *cmd, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* True when s is "-h" or "--help". */
int cli_is_help(const char *s);
/* Parses "auto", "cuda" or "cpu"; prints a usage error and returns 0 on failure. */
int cli_parse_backend(const char *cmd, const char *s, gp_backend *b);
/* Parses an unsigned integer with optional k/M/G suffix (powers of 1024) or "2^N". */
int cli_parse_u64(const char *s, uint64_t *v);
int cli_parse_double(const char *s, double *v);
/* Creates a context or prints why not (returns 0). */
int cli_create(const char *cmd, gp_backend b, gp_context **ctx);
/* The backend of a one-pass job over a file (reduce, topk): `auto` is the CPU. The file
 * is in host memory, where a one-pass reduction is bound by the host's memory on either
 * backend: the GPU must first be sent every byte, which the host copies into pinned
 * buffers (a read and a write of each), and a GPU context costs time to create
 * (docs/perf/host.md). Every such op gives the same bits on both backends (exact or
 * correctly rounded). */
gp_backend cli_file_job_backend(gp_backend requested);
/* A context created on a second thread while the command reads its input: a CUDA
 * context and the library's kernels take ~0.3 s to load in a new process (H200 host,
 * 2026-12-01), about as long as reading a 1 GiB file, so the two overlap. A CPU context
 * is made at once, on the caller's thread. */
typedef struct cli_ctx_job {
  gp_backend backend;
  gp_context *ctx;
  gp_status status;
  int threaded;
  void *thread; /* pthread_t, when threaded */
} cli_ctx_job;
void cli_create_start(cli_ctx_job *j, gp_backend b);
/* Waits for the context; prints why it could not be made (returns 0, *ctx NULL). */
int cli_create_finish(const char *cmd, cli_ctx_job *j, gp_context **ctx);
/* Prints "gpuprims <cmd>: <what>: <gp_last_error>" for a failed call. */
void cli_fail(const char *cmd, gp_context *ctx, const char *what, gp_status s);
/* Prints "gpuprims <cmd>: warning: <message>" to stderr. */
void cli_warn(const char *cmd, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* The lines every --help ends with: size suffixes and exit codes. */
void cli_help_footer(FILE *f);
/* s as a JSON string literal (quotes, escapes) on stdout. */
void cli_json_str(const char *s);

/* Signals for the whole command, set once by main: a write that fails (a full disk,
 * `ulimit -f`, a closed pipe) is an error message, not a silent death, and Ctrl-C
 * ends the process at once (exit 130) except while an output file is being
 * committed, which then finishes (or is rolled back) first. */
void cli_signals_init(void);
/* Seconds on the monotonic clock (for differences: step times, progress). */
double cli_wall(void);
/* "-" is stdin (for_output = 0) or stdout (1); any other path is itself. */
const char *cli_path(const char *path, int for_output);
/* gp_array_save with Ctrl-C held off until the file is complete or rolled back.
 * Returns GP_OK or the failure (reported as "<cmd>: writing the output failed ...");
 * exits 130 when Ctrl-C came meanwhile. */
gp_status cli_save(const char *cmd, gp_context *ctx, const char *path, gp_file_format fmt,
                   const gp_array *a);

#endif
