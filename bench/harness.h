/* The benchmark harness every suite (bench_reduce.c, bench_sort.c, bench_integrate.c) uses:
 * NVBench-like methodology (L2 flushed before each sample, warm-up, sampling until the
 * noise is below 0.5% or a time cap), a table on stdout, the same rows as JSON.
 *
 * How a suite uses it (see bench_reduce.c for a complete one):
 *
 *   gpb_options opt; gpb_options_default(&opt);
 *   for (int i = 1; i < argc; i++) {
 *     int r = gpb_parse_option(&opt, "sort", argc, argv, &i);  // --json, --max-time, ...
 *     if (r < 0) return 2;                                      // usage error, printed
 *     if (r > 0) continue;                                      // a shared option
 *     ... the suite's own options ...
 *   }
 *   gpb_bench *b;
 *   if (gpb_open(&b, "sort", &opt, argc, argv)) return 1;       // context, stream, peak BW
 *   gpb_print_header(b);                                        // device header + columns
 *   gpb_set_progress_total(b, ncases);
 *   void *keys; gpb_alloc(b, bytes, &keys); gpb_fill_random(b, GP_F32, keys, n, 1);
 *   gpb_case c = {.impl = "gpuprims", .name = "sort auto", .dtype = "f32", .n = n,
 *                 .bytes = 2.0 * bytes, .run = my_run, .setup = my_restore, .arg = &st};
 *   gpb_result ours, cub;
 *   gpb_time_case(b, &c, &ours);                                // prints progress
 *   ... time the peer into `cub` the same way ...
 *   gpb_set_ratio(&ours, &cub);                                 // cub time / our time
 *   gpb_emit(b, &ours); gpb_emit(b, &cub);                      // table row + JSON row
 *   gpb_free(b, keys);
 *   return gpb_close(b);                                        // writes --json FILE
 *
 * On the CUDA backend the callback only enqueues work on the stream it is given and the
 * harness times it with CUDA events recorded on that stream; a gpuprims call inside a
 * callback runs on that stream because gpb_open makes it the context's stream
 * (gp_set_stream), and with device pointers it is asynchronous. On the CPU backend
 * (--backend cpu, or a machine without a GPU under AUTO) the same callbacks are called
 * with stream = NULL and timed with a monotonic wall clock: CPU calls are synchronous.
 *
 * This header is plain C and needs no CUDA header. Functions returning int return 0 on
 * success; on failure they print "gpuprims bench <suite>: ..." to stderr and return 1. */
#ifndef GP_BENCH_HARNESS_H
#define GP_BENCH_HARNESS_H

#include "gpuprims.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- options shared by every suite ------------------------------------------------ */
typedef struct gpb_options {
  gp_backend backend;    /* --backend auto|cuda|cpu (default auto) */
  double max_time_s;     /* --max-time S: cap on the time one case keeps sampling (1.5) */
  double target_noise;   /* --noise X: stop sampling once stdev/mean < X (0.005 = 0.5%) */
  int min_samples;       /* --min-samples N: never fewer (10) */
  int max_samples;       /* --max-samples N: never more (100000) */
  int warmup;            /* --warmup N: untimed runs before sampling (2) */
  int flush_l2;          /* 1; --no-flush makes 0 (hot-cache figures) */
  int quiet;             /* --quiet: no progress lines on stderr */
  const char *json_path; /* --json FILE: also write the rows as JSON; NULL: don't */
} gpb_options;

void gpb_options_default(gpb_options *o);
/* Looks at argv[*i]. If it is one of the shared options above, consumes it (and its
 * value, advancing *i) and returns 1; if it is not, returns 0 and leaves *i; if it is
 * but its value is bad or missing, prints a one-line usage error naming `suite` and
 * returns -1 (the suite should exit 2). */
int gpb_parse_option(gpb_options *o, const char *suite, int argc, char **argv, int *i);
/* Prints the shared options' help lines (for a suite's --help). */
void gpb_print_options_help(FILE *f);
/* Parses a comma-separated list of sizes ("2^20,2^24,1000000,16M") into v[0..*count),
 * at most `max` of them. Returns 0, or -1 (nothing printed) on a bad entry. */
int gpb_parse_sizes(const char *s, uint64_t *v, int max, int *count);
/* Splits a comma-separated list in place: returns the number of items (at most max),
 * item pointers into `s` (which it modifies). */
int gpb_split_list(char *s, char **items, int max);

/* ---- the device the suite measures --------------------------------------------------- */
typedef struct gpb_device {
  int is_cuda;              /* 1: CUDA backend, 0: CPU backend */
  char backend_note[256];   /* why this backend (e.g. "cpu (no usable CUDA GPU: ...)") */
  char name[256];
  int sm_count, cc_major, cc_minor; /* 0 on the CPU */
  int cpu_threads;          /* 0 on CUDA */
  double sm_clock_mhz;      /* 0 if unknown */
  double mem_clock_mhz;     /* 0 if unknown */
  int mem_bus_bits;         /* 0 if unknown */
  size_t global_mem_bytes;
  size_t l2_bytes;          /* 0 if unknown */
  double theoretical_gbs;   /* 2 * mem clock * bus width / 8 (DDR); 0 if unknown */
  double peak_read_gbs;     /* measured by gp_measure_bandwidth: the "% of peak" base */
  double peak_copy_gbs;     /* measured device-to-device copy, read + write counted */
} gpb_device;

typedef struct gpb_bench gpb_bench;

/* Creates the context (options->backend), a non-blocking CUDA stream made the context's
 * stream, the L2 flush buffer (2x L2), and measures the peak read bandwidth. argc/argv
 * (the suite's) go into the JSON as the command line. Prints why and returns 1 when
 * something fails. */
int gpb_open(gpb_bench **b, const char *suite, const gpb_options *o, int argc, char **argv);
/* Writes the JSON file when --json was given (returns 1 if that fails), frees all. */
int gpb_close(gpb_bench *b);
gp_context *gpb_context(gpb_bench *b);
const gpb_device *gpb_device_of(const gpb_bench *b);
const gpb_options *gpb_options_of(const gpb_bench *b);
int gpb_is_cuda(const gpb_bench *b);

/* ---- memory for the cases ---------------------------------------------------------------
 * Device memory on the CUDA backend, host memory (64-byte aligned) on the CPU backend,
 * so one suite serves both. */
int gpb_alloc(gpb_bench *b, size_t bytes, void **p);
void gpb_free(gpb_bench *b, void *p);           /* NULL is a no-op */
/* Fills n elements of type t with hash-derived pseudo-random values, deterministic in
 * (seed, index), generated where the memory lives (a device kernel on CUDA). Floats are
 * uniform in [0, 1); integers are uniform over the type's full range, except I32/U32 for
 * which the suite may want small values: see gpb_fill_random_range. Synchronizes. */
int gpb_fill_random(gpb_bench *b, gp_dtype t, void *p, size_t n, uint64_t seed);
/* Float data of another law (GPB_NORMAL, GPB_LOGNORMAL, GPB_WIDE: harness_kernels.h);
 * GPB_UNIFORM and integer types: gpb_fill_random. Synchronizes. */
int gpb_fill_dist(gpb_bench *b, gp_dtype t, void *p, size_t n, uint64_t seed, int kind);
/* As gpb_fill_random, integers uniform in [0, range) (range 0: full range); floats
 * uniform in [0, range) (range 0: [0, 1)). */
int gpb_fill_random_range(gpb_bench *b, gp_dtype t, void *p, size_t n, uint64_t seed,
                          uint64_t range);
/* Copies bytes between any two buffers (cudaMemcpyDefault) and waits. */
int gpb_copy(gpb_bench *b, void *dst, const void *src, size_t bytes);
/* Enqueues a copy on the harness stream without waiting (for a case's setup callback
 * that restores an input, e.g. unsorted keys). Synchronous memcpy on the CPU. */
int gpb_copy_async(gpb_bench *b, void *dst, const void *src, size_t bytes);
/* Waits for the harness stream. */
int gpb_sync(gpb_bench *b);

/* ---- one case ----------------------------------------------------------------------- */
typedef struct gpb_case {
  const char *impl;  /* who runs it: "gpuprims", "cub", "thrust", ... */
  const char *name;  /* what runs: "reduce sum auto", "sort bitonic", ... */
  const char *dtype; /* "f32", ... (or "" when not meaningful) */
  const char *note;  /* an extra column, e.g. the cost a ladder step removed; may be NULL */
  uint64_t n;        /* problem size, printed as 2^k when a power of two */
  double elements;   /* elements processed per run, for elements/s (0: use n) */
  double bytes;      /* bytes that must move to/from memory per run, for GB/s */
  /* Enqueues ONE execution on `stream` (cudaStream_t; NULL on the CPU backend) and
   * returns 0, or prints why to stderr and returns nonzero (the case is then reported
   * as failed and the suite goes on). It must not synchronize the stream on CUDA. */
  int (*run)(void *arg, void *stream);
  /* Optional (NULL: none): called before every run, warm-up and timed, outside the
   * timed region and before the L2 flush, e.g. to restore the input of an in-place sort
   * (gpb_copy_async). Same return convention. */
  int (*setup)(void *arg, void *stream);
  void *arg;
} gpb_case;

/* What gpb_time_case measured. Times in seconds. */
typedef struct gpb_result {
  char impl[32], name[96], dtype[16], note[96];
  uint64_t n;
  double elements, bytes;
  int ok;              /* 0: the case failed (error holds why) */
  char error[256];
  int samples;         /* timed samples taken */
  int l2_flushed;      /* each sample started with a flushed L2 */
  int time_capped;     /* stopped by --max-time before the noise target */
  double median_s, mean_s, min_s, max_s;
  double noise;        /* relative standard deviation of the samples (stdev / mean) */
  double elem_per_s;   /* elements / median */
  double gbs;          /* bytes / median / 1e9 */
  double pct_peak;     /* 100 * gbs / device peak_read_gbs (0 if no peak) */
  double ratio;        /* peer median / our median (>1: we are faster); 0: none */
  char ratio_to[32];   /* the peer's impl name for `ratio` */
} gpb_result;

/* Times one case: setup + flush + warm-up runs, then samples (setup, flush L2, start
 * event, run, stop event, wait) until noise < target_noise with at least min_samples,
 * or max_time_s has passed, or max_samples. Prints a progress line on stderr. Returns 0
 * when the case ran (r->ok = 1), 1 when it failed (r->ok = 0, r->error says why; the
 * row still prints as FAILED). */
int gpb_time_case(gpb_bench *b, const gpb_case *c, gpb_result *r);
/* Seconds on the monotonic clock (host-side timings: CPU baselines, time caps). */
double gpb_wall_seconds(void);
/* ours->ratio = peer->median_s / ours->median_s and ours->ratio_to = peer->impl (when
 * both ran). */
void gpb_set_ratio(gpb_result *ours, const gpb_result *peer);
/* How many cases the suite will time, for the "[i/total]" progress lines. */
void gpb_set_progress_total(gpb_bench *b, int total);

/* ---- output ------------------------------------------------------------------------- */
/* Device header (name, SMs, clocks, L2, theoretical and measured peak) and the column
 * header of the table, on stdout. */
void gpb_print_header(gpb_bench *b);
/* One table row on stdout. */
void gpb_print_row(gpb_bench *b, const gpb_result *r);
/* Keeps the row for the JSON file. */
int gpb_record(gpb_bench *b, const gpb_result *r);
/* gpb_print_row + gpb_record. */
void gpb_emit(gpb_bench *b, const gpb_result *r);
/* Formats n as "2^k" for powers of two, else decimal, into buf; returns buf. */
const char *gpb_format_n(uint64_t n, char *buf, size_t size);

#ifdef __cplusplus
}
#endif
#endif
