/* Helpers shared by the subcommands: option parsing, error reporting, contexts. */
#ifndef GP_CLI_UTIL_H
#define GP_CLI_UTIL_H

#include "gpuprims.h"
#include <stdint.h>

#define EXIT_USAGE 2

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
/* Prints "gpuprims <cmd>: <what>: <gp_last_error>" for a failed call. */
void cli_fail(const char *cmd, gp_context *ctx, const char *what, gp_status s);

#endif
