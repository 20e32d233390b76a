/* `gpuprims integrate 'EXPR' A B [-n N] [--precision f32|f64] [--backend ...]`: the
 * trapezoidal-rule integral of an expression in x, printed with 17 digits; --source
 * prints the CUDA source generated for the expression instead. Bounds and steps that
 * the precision cannot represent are refused or warned about, a sum that is not
 * finite is explained, and a long run shows its progress on a terminal. */
#define _POSIX_C_SOURCE 200809L
#include "commands.h"
#include "cli_util.h"

#include <float.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char *CMD = "integrate";

static void usage(FILE *f) {
  fprintf(f,
          "usage: gpuprims integrate 'EXPR' A B [-n N] [--precision f32|f64]\n"
          "                          [--backend auto|cuda|cpu] [--compile] [--source] [-v]\n\n"
          "Trapezoidal-rule integral of EXPR over [A, B] with N trapezoids (default 2^20);\n"
          "prints the value. B < A gives the negative integral.\n\n"
          "EXPR is an expression in x: numbers, + - * / ^ (right-associative; -x^2 is\n"
          "-(x^2)), parentheses, pi, e, and sin cos tan exp log sqrt abs floor ceil (one\n"
          "argument), pow min max (two). Quote it for the shell: 'sin(x)^2 + 1'.\n\n"
          "  -n N               trapezoids, 1 .. 2^40 (accepts 2^K, 16M, ...)\n"
          "  --precision P      f64 (default) or f32: how x and f(x) are evaluated; f32\n"
          "                     adds each thread's 32 values in float, all else in double\n"
          "  --backend B        auto (default: CUDA if a GPU is usable), cuda or cpu\n"
          "  --compile          compile EXPR with NVRTC before the run (CUDA), instead of\n"
          "                     leaving the choice to the library (below)\n"
          "  --source           print the CUDA source generated for EXPR and exit\n"
          "  -v, --verbose      also print n, h, precision, backend, the run's wall time\n"
          "                     (call_ms) and, with --compile, the compile's (compile_ms)\n\n"
          "On CUDA a new EXPR runs at once in a kernel built into gpuprims that interprets\n"
          "it; gpuprims compiles it with NVRTC (from its parse tree, never its text; 0.1-0.3\n"
          "s) when the points to evaluate make that pay, and keeps compiled kernels on disk\n"
          "(GPUPRIMS_CACHE_DIR). Both give the same bits. Results are deterministic; see\n"
          "gpuprims.h for the summation order.\n"
          "An EXPR that starts with '-' is taken as EXPR when it is not an option\n"
          "('-x^2'); after '--' every argument is EXPR, A or B.\n\n"
          "A and B must be finite (in f32, within +-3.4e38). A warning (exit 0) says when\n"
          "a bound or h = (B - A)/N is not representable in the precision (it rounds to 0,\n"
          "or the nodes a + i*h collapse), since the printed value is then not the\n"
          "integral. A sum that is not finite is an error that says whether f is infinite\n"
          "or undefined at a node, or the sum overflows.\n"
          "On a terminal, a run expected to take over 2 s shows its progress on stderr;\n"
          "Ctrl-C stops it (exit 130; the library call itself cannot be cancelled, so the\n"
          "process ends there).\n");
  cli_help_footer(f);
}

/* An interval end: a number, or a constant expression such as pi/2 or -e. */
static int eval_constant(const char *text, double *v, int report) {
  if (cli_parse_double(text, v)) {
    if (report && !isfinite(*v))
      cli_error(CMD, "interval end '%s' is not finite: the trapezoidal rule needs a finite "
                "interval [A, B]", text);
    return isfinite(*v);
  }
  gp_context *c = NULL;
  int ok = 0;
  if (gp_create(&c, GP_BACKEND_CPU) == GP_OK) {
    gp_status s = gp_expr_value(c, text, NAN, v); /* x = NaN: a bound may not use x */
    ok = s == GP_OK && isfinite(*v);
    if (report && s != GP_OK)
      cli_error(CMD, "interval end '%s': %s", text, gp_last_error(c));
    else if (report && !ok)
      cli_error(CMD, "interval end '%s' is not a finite constant (it may not use x)", text);
  }
  gp_destroy(c);
  return ok;
}
static int is_constant(const char *text) {
  double v;
  return eval_constant(text, &v, 0);
}
static int parse_bound(const char *text, double *v) { return eval_constant(text, v, 1); }

/* Parses as an expression in x: an EXPR that starts with '-' ('-x^2'), not an option. */
static int is_expression(const char *text) {
  gp_context *c = NULL;
  double v;
  int ok = gp_create(&c, GP_BACKEND_CPU) == GP_OK && gp_expr_value(c, text, 1.0, &v) == GP_OK;
  gp_destroy(c);
  return ok;
}

/* Refuses bounds the precision cannot hold; warns when a bound or the step rounds to
 * nothing, or the nodes a + i*h cannot be told apart. Returns 0 after an error. */
static int check_representable(double a, double b, uint64_t n, gp_dtype prec) {
  const int f32 = prec == GP_F32;
  const char *pn = f32 ? "f32" : "f64";
  if (f32 && (fabs(a) > FLT_MAX || fabs(b) > FLT_MAX)) {
    cli_error(CMD, "--precision f32: the bound %.17g is outside the range of f32 (|x| <= "
              "%.8g): use --precision f64", fabs(a) > FLT_MAX ? a : b, (double)FLT_MAX);
    return 0;
  }
  const double h = (b - a) / (double)n;
  const double ap = f32 ? (double)(float)a : a, bp = f32 ? (double)(float)b : b;
  const double hp = f32 ? (double)(float)h : h;
  if ((a != 0 && ap == 0) || (b != 0 && bp == 0))
    cli_warn(CMD, "the bound %.17g rounds to 0 in %s (it underflows): the result is not the "
             "integral; use --precision f64 or scale the problem", a != 0 && ap == 0 ? a : b, pn);
  else if (h != 0 && hp == 0)
    cli_warn(CMD, "h = (B - A)/n = %.3g rounds to 0 in %s: every node is A and the result is "
             "not the integral; use --precision f64 or a smaller n", h, pn);
  else if (h != 0) {
    const double big = fabs(ap) > fabs(bp) ? ap : bp;
    const double next = f32 ? (double)nextafterf((float)big, INFINITY) : nextafter(big, INFINITY);
    if (fabs(hp) < next - big)
      cli_warn(CMD, "h = %.3g is below the spacing of %s values near %.6g (%.3g): nodes "
               "a + i*h round onto each other and the result is not the trapezoid sum "
               "asked for; use --precision f64 or a smaller n", h, pn, big, next - big);
  }
  return 1;
}

/* After a sum that is not finite: looks at f on 1025 of the nodes (in the precision)
 * to say whether f itself is infinite or undefined there, or the sum overflowed. */
static void explain_not_finite(const char *expr, double a, double b, uint64_t n, gp_dtype prec) {
  gp_context *c = NULL;
  if (gp_create(&c, GP_BACKEND_CPU) != GP_OK) {
    gp_destroy(c);
    return;
  }
  const int f32 = prec == GP_F32;
  const double h = (b - a) / (double)n;
  double fmax = 0, xmax = a;
  for (uint64_t k = 0; k <= 1024; k++) {
    uint64_t i = n <= 1024 ? (k <= n ? k : n) : (uint64_t)((double)n * (double)k / 1024.0);
    double x = i == n ? b : a + (double)i * h, f;
    if (f32) x = (double)(float)x;
    if (gp_expr_value(c, expr, x, &f) != GP_OK) break;
    if (f32 && isfinite(f) && fabs(f) > FLT_MAX) {
      cli_error(CMD, "f(x) = %.6g at the node x = %.9g is beyond the range of f32 (%.8g): "
                "use --precision f64", f, x, (double)FLT_MAX);
      gp_destroy(c);
      return;
    }
    if (!isfinite(f)) {
      cli_error(CMD, "f(x) is %s at the node x = %.17g: f is infinite or undefined there; "
                "change A, B or n so that no node hits it", isnan(f) ? "undefined (nan)" : "infinite", x);
      gp_destroy(c);
      return;
    }
    if (fabs(f) >= fmax) fmax = fabs(f), xmax = x;
  }
  gp_destroy(c);
  cli_error(CMD, "the trapezoid sum overflows: f is finite at the nodes sampled, but reaches "
            "|f| = %.6g (at x = %.9g) and n = %llu nodes of such values exceed the largest "
            "double (%.6g); integrate a scaled f (e.g. '(%s)/1e300') and scale back", fmax,
            xmax, (unsigned long long)n, DBL_MAX, expr);
}

/* Progress on stderr for a long run (a thread, so the call itself is untouched). */
typedef struct progress {
  pthread_mutex_t lock;
  pthread_cond_t done_cv;
  int done;
  double start, estimate;
} progress;

static void *show_progress(void *arg) {
  progress *p = (progress *)arg;
  pthread_mutex_lock(&p->lock);
  while (!p->done) {
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_nsec += 500000000L;
    if (until.tv_nsec >= 1000000000L) until.tv_sec++, until.tv_nsec -= 1000000000L;
    pthread_cond_timedwait(&p->done_cv, &p->lock, &until);
    if (p->done) break;
    double t = cli_wall() - p->start;
    fprintf(stderr, "\rintegrating: %.0f s of about %.0f s (%.0f%%, estimated; Ctrl-C stops)  ",
            t, p->estimate, t < p->estimate ? 100.0 * t / p->estimate : 99.0);
  }
  fprintf(stderr, "\r%72s\r", "");
  pthread_mutex_unlock(&p->lock);
  return NULL;
}

/* The integral, with progress shown when stderr is a terminal and a timed run of 2^22
 * points (after a warm-up run that starts the threads) predicts more than 2 s. */
static gp_status integrate_with_progress(gp_context *ctx, const char *expr, double lo,
                                         double hi, uint64_t n, gp_dtype prec, double *r) {
  const uint64_t n0 = (uint64_t)1 << 22;
  double estimate = 0, tmp;
  if (n > 16 * n0 && isatty(STDERR_FILENO) &&
      gp_integrate_ex(ctx, expr, lo, hi, n0 / 16, prec, &tmp) == GP_OK) {
    double t0 = cli_wall();
    if (gp_integrate_ex(ctx, expr, lo, hi, n0, prec, &tmp) == GP_OK)
      estimate = (cli_wall() - t0) * (double)(n / n0);
  }
  if (estimate < 2.0) return gp_integrate_ex(ctx, expr, lo, hi, n, prec, r);
  progress p = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, cli_wall(), estimate};
  pthread_t th;
  int have_thread = pthread_create(&th, NULL, show_progress, &p) == 0;
  gp_status s = gp_integrate_ex(ctx, expr, lo, hi, n, prec, r);
  if (have_thread) {
    pthread_mutex_lock(&p.lock);
    p.done = 1;
    pthread_cond_signal(&p.done_cv);
    pthread_mutex_unlock(&p.lock);
    pthread_join(th, NULL);
  }
  return s;
}

int cmd_integrate(int argc, char **argv) {
  const char *pos[3];
  int npos = 0, source = 0, verbose = 0, compile = 0;
  uint64_t n = 1u << 20;
  gp_dtype prec = GP_F64;
  gp_backend backend = GP_BACKEND_AUTO;
  int options = 1;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (options && strcmp(a, "--") == 0) {
      options = 0;
      continue;
    }
    if (options && cli_is_help(a)) {
      usage(stdout);
      return 0;
    }
    if (!options) {
      if (npos == 3) {
        cli_error(CMD, "too many arguments at '%s': expected 'EXPR' A B", a);
        return EXIT_USAGE;
      }
      pos[npos++] = a;
    } else if (strcmp(a, "-n") == 0 || strcmp(a, "--precision") == 0 || strcmp(a, "--backend") == 0) {
      if (i + 1 >= argc) {
        cli_error(CMD, "%s needs a value (gpuprims integrate --help)", a);
        return EXIT_USAGE;
      }
      const char *v = argv[++i];
      if (a[1] == 'n') {
        if (!cli_parse_u64(v, &n)) {
          cli_error(CMD, "-n '%s' is not a count (e.g. 1000000, 2^20, 16M)", v);
          return EXIT_USAGE;
        }
      } else if (a[2] == 'p') {
        if (gp_dtype_from_name(v, &prec) != GP_OK || (prec != GP_F32 && prec != GP_F64)) {
          cli_error(CMD, "--precision '%s': use f32 or f64", v);
          return EXIT_USAGE;
        }
      } else if (!cli_parse_backend(CMD, v, &backend)) {
        return EXIT_USAGE;
      }
    } else if (strcmp(a, "--source") == 0) {
      source = 1;
    } else if (strcmp(a, "--compile") == 0) {
      compile = 1;
    } else if (strcmp(a, "-v") == 0 || strcmp(a, "--verbose") == 0) {
      verbose = 1;
    } else if (a[0] == '-' && a[1] != '\0' && !(a[1] >= '0' && a[1] <= '9') && a[1] != '.' &&
               !(npos >= 1 && is_constant(a)) && !(npos == 0 && is_expression(a))) {
      /* "-pi" is a bound and "-x^2" an EXPR; "-q" an unknown option */
      cli_error(CMD, "unknown option '%s' (gpuprims integrate --help)", a);
      return EXIT_USAGE;
    } else {
      if (npos == 3) {
        cli_error(CMD, "too many arguments at '%s': expected 'EXPR' A B", a);
        return EXIT_USAGE;
      }
      pos[npos++] = a;
    }
  }
  if (npos != 3 && !(source && npos >= 1)) {
    cli_error(CMD, "expected 'EXPR' A B (gpuprims integrate --help)");
    return EXIT_USAGE;
  }
  double lo = 0, hi = 0;
  if (npos == 3 && (!parse_bound(pos[1], &lo) || !parse_bound(pos[2], &hi))) return EXIT_USAGE;
  if (npos == 3 && !source && !check_representable(lo, hi, n, prec)) return EXIT_USAGE;
  gp_context *ctx;
  if (!cli_create(CMD, backend, &ctx)) return 1;
  gp_status s;
  if (source) {
    size_t need = 0;
    s = gp_integrate_source(ctx, pos[0], prec, NULL, 0, &need);
    char *buf = s == GP_OK ? (char *)malloc(need) : NULL;
    if (s == GP_OK && !buf) {
      cli_error(CMD, "out of memory");
      gp_destroy(ctx);
      return 1;
    }
    if (s == GP_OK) s = gp_integrate_source(ctx, pos[0], prec, buf, need, NULL);
    if (s != GP_OK) {
      cli_fail(CMD, ctx, "generating the source", s);
      free(buf);
      gp_destroy(ctx);
      return s == GP_ERR_PARSE ? EXIT_USAGE : 1;
    }
    fputs(buf, stdout);
    free(buf);
    gp_destroy(ctx);
    return 0;
  }
  double compile_s = 0, r = 0;
  s = compile ? gp_integrate_prepare(ctx, pos[0], prec, &compile_s) : GP_OK;
  const double t0 = cli_wall();
  if (s == GP_OK) s = integrate_with_progress(ctx, pos[0], lo, hi, n, prec, &r);
  const double call_s = cli_wall() - t0;
  if (s == GP_ERR_INVALID_ARGUMENT && strstr(gp_last_error(ctx), "not finite")) {
    explain_not_finite(pos[0], lo, hi, n, prec);
    gp_destroy(ctx);
    return 1;
  }
  if (s != GP_OK) {
    cli_fail(CMD, ctx, "integrate", s);
    gp_destroy(ctx);
    return s == GP_ERR_PARSE ? EXIT_USAGE : 1;
  }
  if (verbose) {
    printf("expr %s\ninterval [%.17g, %.17g]\nn %llu\nh %.17g\nprecision %s\nbackend %s\n",
           pos[0], lo, hi, (unsigned long long)n, (hi - lo) / (double)n, gp_dtype_name(prec),
           gp_backend_name(gp_backend_of(ctx)));
    if (compile) printf("compile_ms %.3f\n", compile_s * 1e3);
    printf("call_ms %.3f\nresult ", call_s * 1e3);
  }
  printf("%.17g\n", r);
  gp_destroy(ctx);
  return 0;
}
