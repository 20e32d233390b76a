/* `gpuprims bench integrate` (alias `bench trap`, the name the rows and docs keep): the
 * trapezoidal rule.
 *  --stages  seed 003's Table 6.10 reproduced: stage 1 (atomicAdd per thread), stage 2
 *            (32-thread blocks, warp sum), stage 3 (Program 6.15, 1024-thread blocks),
 *            each with its speed-up over stage 1, beside a serial CPU loop.
 *  default   gp_integrate_ex (NVRTC-compiled expression, F32 and F64 evaluation, F64
 *            sums) against thrust::transform_reduce over a counting iterator (x^2, F32).
 * Our calls write the result to device memory through gp_integrate_device (gp_integrate_ex
 * minus the per-call pointer query; asynchronous: one kernel launch, no copy); thrust's
 * transform_reduce returns to the host, which is part of its cost. The NVRTC compile is
 * done before timing and reported in its own column. */
#define _POSIX_C_SOURCE 200809L
#include "harness.h"
#include "suites.h"
#if GP_HAVE_CUDA
#include "peers/thrust_trap.h"
#endif

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SIZES 16

/* The rows of one Table 6.10: the serial loop (row 0) and the seed's three stages. */
static const struct {
  const char *version, *desc;
} table_6_10[4] = {
  {"serial CPU", "serial CPU loop, float, one core"},
  {"original (stage 1)", "naive: atomicAdd per thread"},
  {"32-thread blocks", "32-thread blocks: warp sum, atomicAdd per block"},
  {"1024-thread blocks", "1024-thread blocks: multi-warp (Program 6.15)"},
};

/* What the command line asked for. */
typedef struct integ_plan {
  const char *suite; /* "integrate" or "trap": the name it was called by */
  int stages, peers;
  uint64_t sizes[MAX_SIZES];
  int nsizes;
  const char *expr;
  double lo, hi;
  gp_dtype precs[2];
  int nprecs;
} integ_plan;

typedef struct trap_arg {
  gp_context *ctx;
  const char *suite;
  const char *expr;
  double a, b;
  uint64_t n;
  gp_dtype prec;
  int stage;      /* 1..3: gp_trap_seed; 0: gp_integrate_ex */
  double *d_result;
  double host_result; /* thrust's */
} trap_arg;

static int run_ours(void *p, void *stream) {
  trap_arg *a = (trap_arg *)p;
  (void)stream; /* the context launches on the harness stream (gpb_open set it) */
  gp_status s = a->stage ? gp_trap_seed(a->ctx, a->stage, (float)a->a, (float)a->b, a->n, a->d_result)
                         : gp_integrate_device(a->ctx, a->expr, a->a, a->b, a->n, a->prec, a->d_result);
  if (s != GP_OK) {
    fprintf(stderr, "gpuprims bench %s: %s failed (%s): %s\n", a->suite,
            a->stage ? "gp_trap_seed" : "gp_integrate_device", gp_status_string(s),
            gp_last_error(a->ctx));
    return 1;
  }
  return 0;
}

#if GP_HAVE_CUDA
static int run_thrust(void *p, void *stream) {
  trap_arg *a = (trap_arg *)p;
  int e = gpb_thrust_trap_run((float)a->a, (float)a->b, a->n, stream, &a->host_result);
  if (e) fprintf(stderr, "gpuprims bench %s: thrust::transform_reduce failed (cudaError %d)\n", a->suite, e);
  return e != 0;
}
#endif

/* The seed's serial Trap: float, one core. */
static float serial_trap(float a, float b, uint64_t n) {
  const float h = (b - a) / (float)n;
  float approx = 0.5f * (a * a + b * b);
  for (uint64_t i = 1; i < n; i++) {
    const float x = a + (float)i * h;
    approx += x * x;
  }
  return approx * h;
}

/* Median of a few runs of the serial loop, into a result row. */
static void time_serial(gpb_bench *b, float lo, float hi, uint64_t n, gpb_result *r) {
  memset(r, 0, sizeof *r);
  snprintf(r->impl, sizeof r->impl, "cpu-serial");
  snprintf(r->name, sizeof r->name, "trap serial CPU loop (x^2)");
  snprintf(r->dtype, sizeof r->dtype, "f32");
  r->n = n;
  r->elements = (double)n;
  double t[7];
  int k = 0;
  const double cap = gpb_options_of(b)->max_time_s, start = gpb_wall_seconds();
  volatile float sink = 0;
  while (k < 7 && (k < 3 || gpb_wall_seconds() - start < cap)) {
    const double t0 = gpb_wall_seconds();
    sink = serial_trap(lo, hi, n);
    t[k++] = gpb_wall_seconds() - t0;
  }
  (void)sink;
  for (int i = 1; i < k; i++)
    for (int j = i; j > 0 && t[j] < t[j - 1]; j--) {
      double x = t[j]; t[j] = t[j - 1]; t[j - 1] = x;
    }
  r->ok = 1;
  r->samples = k;
  r->median_s = t[k / 2];
  r->min_s = t[0];
  r->max_s = t[k - 1];
  r->mean_s = r->median_s;
  r->elem_per_s = (double)n / r->median_s;
  snprintf(r->note, sizeof r->note, "T = %.7g (wall clock)", (double)sink);
}

static void usage(FILE *f, const char *suite) {
  fprintf(f,
          "usage: gpuprims bench %s [--stages] [--sizes LIST] [--expr EXPR]\n"
          "%*s[--precision f32,f64] [--no-peers] [shared options]\n\n"
          "  --stages        seed 003 Table 6.10: the three stages (f(x) = x^2, float) and a\n"
          "                  serial CPU loop, with speed-ups (sizes default 2^20,2^24,2^28)\n"
          "  --sizes LIST    trapezoids, e.g. 2^20,2^28 (default 2^20,2^24,2^28)\n"
          "  --expr EXPR     the integrand of the gp_integrate_ex rows (default x^2)\n"
          "  --precision L   f32, f64 or both (default f32,f64)\n"
          "  --a A --b B     the interval (default [0, 1])\n"
          "  --no-peers      skip thrust\n\n"
          "Our rows call gp_integrate_device: the result goes to device memory (one launch,\n"
          "asynchronous, no pointer query); the NVRTC compile (gp_integrate_prepare)\n"
          "happens before timing and is shown as compile_ms in the note. With\n"
          "GPUPRIMS_JIT=never nothing is compiled: the rows time the interpreted kernel.\n\n",
          suite, (int)(strlen("usage: gpuprims bench  ") + strlen(suite)), "");
  gpb_print_options_help(f);
}

/* ---- the command line ---------------------------------------------------------------- */
/* --precision's list into p. Returns 0, or 2 for a bad list. */
static int parse_precisions(integ_plan *p, char *list) {
  char *items[4];
  int k = gpb_split_list(list, items, 4);
  p->nprecs = 0;
  for (int j = 0; j < k && p->nprecs < 2; j++) {
    gp_dtype t;
    if (gp_dtype_from_name(items[j], &t) || (t != GP_F32 && t != GP_F64)) {
      fprintf(stderr, "gpuprims bench %s: --precision '%s': use f32, f64 or both\n", p->suite, items[j]);
      return 2;
    }
    p->precs[p->nprecs++] = t;
  }
  return p->nprecs ? 0 : 2;
}

/* One of the suite's options that take a value (argv[*i], its value after it). Returns 0
 * when it took it, 1 when argv[*i] is not one of them, 2 (printed) for a bad value. */
static int parse_valued(integ_plan *p, int argc, char **argv, int *i) {
  const char *a = argv[*i];
  if (*i + 1 >= argc) return 1;
  if (strcmp(a, "--sizes") == 0) {
    if (gpb_parse_sizes(argv[++*i], p->sizes, MAX_SIZES, &p->nsizes) || p->nsizes == 0) {
      fprintf(stderr, "gpuprims bench %s: bad --sizes '%s'\n", p->suite, argv[*i]);
      return 2;
    }
  } else if (strcmp(a, "--expr") == 0) {
    p->expr = argv[++*i];
  } else if (strcmp(a, "--a") == 0 || strcmp(a, "--b") == 0) {
    char *end;
    double v = strtod(argv[++*i], &end);
    if (*end || !isfinite(v)) {
      fprintf(stderr, "gpuprims bench %s: %s '%s' is not a number\n", p->suite, a, argv[*i]);
      return 2;
    }
    if (a[2] == 'a') p->lo = v; else p->hi = v;
  } else if (strcmp(a, "--precision") == 0) {
    return parse_precisions(p, argv[++*i]);
  } else {
    return 1;
  }
  return 0;
}

/* Fills opt and p from argv. Returns -1 to go on, or the exit status (0 after --help). */
static int parse_args(int argc, char **argv, gpb_options *opt, integ_plan *p) {
  for (int i = 1; i < argc; i++) {
    int r = gpb_parse_option(opt, p->suite, argc, argv, &i);
    if (r < 0) return 2;
    if (r > 0) continue;
    const char *a = argv[i];
    if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
      usage(stdout, p->suite);
      return 0;
    }
    if (strcmp(a, "--stages") == 0) { p->stages = 1; continue; }
    if (strcmp(a, "--no-peers") == 0) { p->peers = 0; continue; }
    r = parse_valued(p, argc, argv, &i);
    if (r == 2) return 2;
    if (r == 1) {
      fprintf(stderr, "gpuprims bench %s: unknown option '%s' (gpuprims bench %s --help)\n",
              p->suite, a, p->suite);
      return 2;
    }
  }
  return -1;
}

/* ---- --stages: Table 6.10 ------------------------------------------------------------- */
/* The table under the rows of one size: each version's median and speed-ups. */
static void print_table_6_10(gpb_bench *b, const integ_plan *p, uint64_t n, const gpb_result *rows,
                             int nrows) {
  char nb[32];
  const double lo = p->lo, hi = p->hi, exact = (hi * hi * hi - lo * lo * lo) / 3;
  printf("\n# Table 6.10 (seed 003) on %s: n = %s (%llu), f(x) = x^2 over [%g, %g], exact %.7g\n",
         gpb_device_of(b)->name, gpb_format_n(n, nb, sizeof nb), (unsigned long long)n, lo, hi,
         exact);
  printf("# %-20s %-48s %12s %14s %14s\n", "version", "description", "median", "vs original",
         "vs serial CPU");
  for (int k = 0; k < nrows; k++) {
    char t[32], s1[32] = "-", s0[32] = "-";
    if (!rows[k].ok) {
      printf("# %-20s %-48s %12s\n", table_6_10[k].version, table_6_10[k].desc, "FAILED");
      continue;
    }
    double ms = rows[k].median_s * 1e3;
    snprintf(t, sizeof t, ms < 1 ? "%.1f us" : "%.3f ms", ms < 1 ? ms * 1e3 : ms);
    if (k >= 1 && rows[1].ok) snprintf(s1, sizeof s1, "%.1fx", rows[1].median_s / rows[k].median_s);
    if (rows[0].ok) snprintf(s0, sizeof s0, "%.1fx", rows[0].median_s / rows[k].median_s);
    printf("# %-20s %-48s %12s %14s %14s\n", table_6_10[k].version, table_6_10[k].desc, t, s1, s0);
  }
  printf("\n");
}

/* The serial loop and (on CUDA) the three stages at every size, each size followed by
 * its table. Returns 1 if a stage failed. */
static int time_stages(gpb_bench *b, const integ_plan *p, double *d_result) {
  const int cuda = gpb_is_cuda(b);
  int failed = 0;
  if (!cuda) printf("# --stages: the seed's stages are CUDA kernels; on the CPU backend only the serial loop runs\n");
  for (int s = 0; s < p->nsizes; s++) {
    const uint64_t n = p->sizes[s];
    gpb_result rows[4];
    time_serial(b, (float)p->lo, (float)p->hi, n, &rows[0]);
    gpb_emit(b, &rows[0]);
    for (int st = 1; st <= 3 && cuda; st++) {
      trap_arg arg = {gpb_context(b), p->suite, "x^2", p->lo, p->hi, n, GP_F32, st, d_result, 0};
      char name[96];
      snprintf(name, sizeof name, "trap seed stage %d", st);
      gpb_case c = {.impl = "gpuprims", .name = name, .dtype = "f32", .note = table_6_10[st].desc,
                    .n = n, .bytes = 0, .run = run_ours, .arg = &arg};
      failed |= gpb_time_case(b, &c, &rows[st]);
      double v = NAN;
      if (rows[st].ok && gpb_copy(b, &v, d_result, sizeof v) == 0)
        snprintf(rows[st].note, sizeof rows[st].note, "T = %.7g", v);
      gpb_emit(b, &rows[st]);
    }
    print_table_6_10(b, p, n, rows, cuda ? 4 : 1);
  }
  return failed;
}

/* ---- default: gp_integrate_device against thrust -------------------------------------- */
/* thrust's row for size n (x^2 only), timed when the peers run. Returns 1 when it has one. */
static int time_thrust(gpb_bench *b, const integ_plan *p, uint64_t n, gpb_result *row, int *failed) {
#if GP_HAVE_CUDA
  if (!p->peers || strcmp(p->expr, "x^2") != 0) return 0;
  trap_arg arg = {gpb_context(b), p->suite, p->expr, p->lo, p->hi, n, GP_F32, 0, NULL, 0};
  gpb_case c = {.impl = "thrust", .name = "trap transform_reduce (x^2)", .dtype = "f32",
                .n = n, .bytes = 0, .run = run_thrust, .arg = &arg};
  *failed |= gpb_time_case(b, &c, row);
  snprintf(row->note, sizeof row->note, "T = %.9g (float sum)", arg.host_result);
  return row->ok;
#else
  (void)b; (void)p; (void)n; (void)row; (void)failed;
  return 0;
#endif
}

/* Our row for size n at one precision (compiled first, outside the timing), with the
 * ratio to thrust's row when there is one. Returns 0, or the exit status when the
 * expression cannot be compiled (2 for a parse error). */
static int time_ours(gpb_bench *b, const integ_plan *p, uint64_t n, gp_dtype prec, double *d_result,
                     const gpb_result *thrust_row, int *failed) {
  gp_context *ctx = gpb_context(b);
  double compile_s = 0;
  gp_status st = gp_integrate_prepare(ctx, p->expr, prec, &compile_s);
  if (st != GP_OK) {
    fprintf(stderr, "gpuprims bench %s: '%s': %s\n", p->suite, p->expr, gp_last_error(ctx));
    return st == GP_ERR_PARSE ? 2 : 1;
  }
  trap_arg arg = {ctx, p->suite, p->expr, p->lo, p->hi, n, prec, 0, d_result, 0};
  char name[96];
  snprintf(name, sizeof name, "trap integrate %.60s", p->expr);
  gpb_case c = {.impl = "gpuprims", .name = name, .dtype = gp_dtype_name(prec), .n = n,
                .bytes = 0, .run = run_ours, .arg = &arg};
  gpb_result r;
  *failed |= gpb_time_case(b, &c, &r);
  double v = NAN;
  if (r.ok && gpb_copy(b, &v, d_result, sizeof v) == 0)
    snprintf(r.note, sizeof r.note, "T = %.12g, compile_ms %.1f", v, compile_s * 1e3);
  if (thrust_row && prec == GP_F32) gpb_set_ratio(&r, thrust_row);
  gpb_emit(b, &r);
  return 0;
}

/* Every size: thrust, then ours at each precision, thrust's row last. Returns 0 or 1
 * (rows failed), or the exit status of a compile error. */
static int time_integrate(gpb_bench *b, const integ_plan *p, double *d_result) {
  int failed = 0;
  for (int s = 0; s < p->nsizes; s++) {
    const uint64_t n = p->sizes[s];
    gpb_result thrust_row;
    const int have_thrust = time_thrust(b, p, n, &thrust_row, &failed);
    for (int k = 0; k < p->nprecs; k++) {
      int rc = time_ours(b, p, n, p->precs[k], d_result, have_thrust ? &thrust_row : NULL, &failed);
      if (rc) return rc;
    }
    if (have_thrust) gpb_emit(b, &thrust_row);
  }
  return failed;
}

/* argv[0] is the name the suite was called by: "integrate" or its alias "trap". */
int gp_bench_integrate(int argc, char **argv) {
  gpb_options opt;
  gpb_options_default(&opt);
  integ_plan p = {.suite = argc > 0 && strcmp(argv[0], "trap") == 0 ? "trap" : "integrate",
                  .peers = 1, .sizes = {1u << 20, 1u << 24, 1u << 28}, .nsizes = 3,
                  .expr = "x^2", .lo = 0, .hi = 1, .precs = {GP_F32, GP_F64}, .nprecs = 2};
  int r = parse_args(argc, argv, &opt, &p);
  if (r >= 0) return r;

  gpb_bench *b;
  if (gpb_open(&b, p.suite, &opt, argc, argv)) return 1;
  const int cuda = gpb_is_cuda(b);
  double *d_result = NULL;
  if (gpb_alloc(b, sizeof(double), (void **)&d_result)) {
    gpb_close(b);
    return 1;
  }
#if !GP_HAVE_CUDA
  p.peers = 0;
#endif
  if (!cuda) p.peers = 0;
  const int per_size = p.stages ? (cuda ? 3 : 0) : p.nprecs + (p.peers && strcmp(p.expr, "x^2") == 0);
  gpb_set_progress_total(b, p.nsizes * per_size);
  gpb_print_header(b);
  if (p.stages) {
    int failed = time_stages(b, &p, d_result);
    gpb_free(b, d_result);
    return gpb_close(b) | failed;
  }
  int rc = time_integrate(b, &p, d_result);
  gpb_free(b, d_result);
  int crc = gpb_close(b);
  return rc > 1 ? rc : (crc | rc);
}
