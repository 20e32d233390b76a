/* Shared helpers of the gpuprims subcommands: messages, number parsing, contexts,
 * the --help footer, JSON strings, and the signal handling around output files. */
#define _POSIX_C_SOURCE 200809L
#include "cli_util.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

void cli_error(const char *cmd, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "gpuprims %s: ", cmd);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
}

int cli_is_help(const char *s) {
  return strcmp(s, "-h") == 0 || strcmp(s, "--help") == 0;
}

int cli_parse_backend(const char *cmd, const char *s, gp_backend *b) {
  if (strcmp(s, "auto") == 0) *b = GP_BACKEND_AUTO;
  else if (strcmp(s, "cuda") == 0 || strcmp(s, "gpu") == 0) *b = GP_BACKEND_CUDA;
  else if (strcmp(s, "cpu") == 0) *b = GP_BACKEND_CPU;
  else {
    cli_error(cmd, "unknown backend '%s': use auto, cuda or cpu", s);
    return 0;
  }
  return 1;
}

int cli_parse_u64(const char *s, uint64_t *v) {
  if (!s || !*s) return 0;
  if (s[0] == '2' && s[1] == '^') {
    char *end;
    errno = 0;
    unsigned long e = strtoul(s + 2, &end, 10);
    if (errno || *end || end == s + 2 || e > 63) return 0;
    *v = (uint64_t)1 << e;
    return 1;
  }
  if (*s == '-') return 0;
  char *end;
  errno = 0;
  unsigned long long x = strtoull(s, &end, 10);
  if (errno || end == s) return 0;
  uint64_t mul = 1;
  if (*end == 'k' || *end == 'K') mul = 1ull << 10, end++;
  else if (*end == 'M') mul = 1ull << 20, end++;
  else if (*end == 'G') mul = 1ull << 30, end++;
  if (*end) return 0;
  if (x > UINT64_MAX / mul) return 0;
  *v = (uint64_t)x * mul;
  return 1;
}

int cli_parse_double(const char *s, double *v) {
  if (!s || !*s) return 0;
  char *end;
  errno = 0;
  double x = strtod(s, &end);
  if (errno == ERANGE || *end || end == s) return 0;
  *v = x;
  return 1;
}

gp_backend cli_file_job_backend(gp_backend requested) {
  return requested == GP_BACKEND_AUTO ? GP_BACKEND_CPU : requested;
}

int cli_create(const char *cmd, gp_backend b, gp_context **ctx) {
  gp_status s = gp_create(ctx, b);
  if (s == GP_OK) return 1;
  cli_error(cmd, "cannot create a %s context: %s", gp_backend_name(b), gp_last_error(*ctx));
  gp_destroy(*ctx);
  *ctx = NULL;
  return 0;
}

static void *create_job(void *arg) {
  cli_ctx_job *j = (cli_ctx_job *)arg;
  j->status = gp_create(&j->ctx, j->backend);
  return NULL;
}

void cli_create_start(cli_ctx_job *j, gp_backend b) {
  memset(j, 0, sizeof *j);
  j->backend = b;
  pthread_t *t = b == GP_BACKEND_CPU ? NULL : (pthread_t *)malloc(sizeof *t);
  if (t && pthread_create(t, NULL, create_job, j) == 0) {
    j->threaded = 1;
    j->thread = t;
    return;
  }
  free(t);
  create_job(j); /* a CPU context, or no thread to be had: here and now */
}

int cli_create_finish(const char *cmd, cli_ctx_job *j, gp_context **ctx) {
  if (j->threaded) {
    pthread_join(*(pthread_t *)j->thread, NULL);
    free(j->thread);
    j->thread = NULL;
    j->threaded = 0;
  }
  *ctx = j->ctx;
  if (j->status == GP_OK) return 1;
  cli_error(cmd, "cannot create a %s context: %s", gp_backend_name(j->backend),
            gp_last_error(j->ctx));
  gp_destroy(j->ctx);
  *ctx = j->ctx = NULL;
  return 0;
}

void cli_fail(const char *cmd, gp_context *ctx, const char *what, gp_status s) {
  const char *msg = gp_last_error(ctx);
  cli_error(cmd, "%s failed (%s): %s", what, gp_status_string(s),
            (msg && *msg) ? msg : "no further detail");
}

void cli_warn(const char *cmd, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "gpuprims %s: warning: ", cmd);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
}

void cli_help_footer(FILE *f) {
  fprintf(f,
          "\nsizes: a whole number, 2^K, or a binary suffix: 16k = 2^14, 16M = 2^24,\n"
          "       16G = 2^34 (k/M/G are 1024, 1024^2, 1024^3)\n"
          "exit status: 0 success; 1 the operation failed (a file, the device, the data:\n"
          "             the message says which); 2 usage error (bad option or value);\n"
          "             130 interrupted by Ctrl-C (no output file is left half written)\n");
}

void cli_json_str(const char *s) {
  putchar('"');
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\') printf("\\%c", c);
    else if (c < 0x20) printf("\\u%04x", c);
    else putchar(c);
  }
  putchar('"');
}

/* Set while an output file is being written; a Ctrl-C then only marks itself pending. */
static volatile sig_atomic_t saving, interrupted;

static void on_sigint(int sig) {
  (void)sig;
  if (saving) {
    interrupted = 1;
    return;
  }
  static const char msg[] = "\ngpuprims: interrupted\n";
  ssize_t w = write(STDERR_FILENO, msg, sizeof msg - 1);
  (void)w;
  _exit(EXIT_INTERRUPTED);
}

void cli_signals_init(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sigemptyset(&sa.sa_mask);
  sa.sa_handler = SIG_IGN;
  sigaction(SIGPIPE, &sa, NULL); /* a closed pipe: EPIPE, reported */
  sigaction(SIGXFSZ, &sa, NULL); /* over `ulimit -f`: EFBIG, reported */
  sa.sa_handler = on_sigint;
  sigaction(SIGINT, &sa, NULL);
}

const char *cli_path(const char *path, int for_output) {
  if (strcmp(path, "-") != 0) return path;
  return for_output ? "/dev/stdout" : "/dev/stdin";
}

gp_status cli_save(const char *cmd, gp_context *ctx, const char *path, gp_file_format fmt,
                   const gp_array *a) {
  saving = 1;
  gp_status s = gp_array_save(ctx, cli_path(path, 1), fmt, a);
  saving = 0;
  if (s != GP_OK) cli_fail(cmd, ctx, "writing the output", s);
  if (interrupted) {
    fprintf(stderr, "\ngpuprims: interrupted%s\n",
            s == GP_OK ? " (after the output was complete)" : "");
    exit(EXIT_INTERRUPTED);
  }
  return s;
}

double cli_wall(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}
