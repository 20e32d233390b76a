/* `gpuprims integrate 'EXPR' A B [-n N] [--precision f32|f64] [--backend ...]`: the
 * trapezoidal-rule integral of an expression in x, printed with 17 digits; --source
 * prints the CUDA source generated for the expression instead. */
#include "commands.h"
#include "cli_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *CMD = "integrate";

static void usage(FILE *f) {
  fprintf(f,
          "usage: gpuprims integrate 'EXPR' A B [-n N] [--precision f32|f64]\n"
          "                          [--backend auto|cuda|cpu] [--source] [-v]\n\n"
          "Trapezoidal-rule integral of EXPR over [A, B] with N trapezoids (default 2^20);\n"
          "prints the value. B < A gives the negative integral.\n\n"
          "EXPR is an expression in x: numbers, + - * / ^ (right-associative; -x^2 is\n"
          "-(x^2)), parentheses, pi, e, and sin cos tan exp log sqrt abs floor ceil (one\n"
          "argument), pow min max (two). Quote it for the shell: 'sin(x)^2 + 1'.\n\n"
          "  -n N               trapezoids, 1 .. 2^40 (accepts 2^K, 16M, ...)\n"
          "  --precision P      f64 (default) or f32: how x and f(x) are evaluated; f32\n"
          "                     adds each thread's 32 values in float, all else in double\n"
          "  --backend B        auto (default: CUDA if a GPU is usable), cuda or cpu\n"
          "  --source           print the CUDA source generated for EXPR and exit\n"
          "  -v, --verbose      also print n, h, precision, backend and compile time\n\n"
          "On CUDA the expression is compiled once by NVRTC (from its parse tree, never its\n"
          "text). Results are deterministic; see gpuprims.h for the summation order.\n");
}

/* An interval end: a number, or a constant expression such as pi/2 or -e. */
static int eval_constant(const char *text, double *v, int report) {
  if (cli_parse_double(text, v)) return isfinite(*v);
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

int cmd_integrate(int argc, char **argv) {
  const char *pos[3];
  int npos = 0, source = 0, verbose = 0;
  uint64_t n = 1u << 20;
  gp_dtype prec = GP_F64;
  gp_backend backend = GP_BACKEND_AUTO;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (cli_is_help(a)) {
      usage(stdout);
      return 0;
    }
    if (strcmp(a, "-n") == 0 || strcmp(a, "--precision") == 0 || strcmp(a, "--backend") == 0) {
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
    } else if (strcmp(a, "-v") == 0 || strcmp(a, "--verbose") == 0) {
      verbose = 1;
    } else if (a[0] == '-' && a[1] != '\0' && !(a[1] >= '0' && a[1] <= '9') && a[1] != '.' &&
               !(npos >= 1 && is_constant(a))) { /* "-pi" is a bound, "-x" an option */
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
  s = gp_integrate_prepare(ctx, pos[0], prec, &compile_s);
  if (s == GP_OK) s = gp_integrate_ex(ctx, pos[0], lo, hi, n, prec, &r);
  if (s != GP_OK) {
    cli_fail(CMD, ctx, "integrate", s);
    gp_destroy(ctx);
    return s == GP_ERR_PARSE ? EXIT_USAGE : 1;
  }
  if (verbose)
    printf("expr %s\ninterval [%.17g, %.17g]\nn %llu\nh %.17g\nprecision %s\nbackend %s\n"
           "compile_ms %.3f\nresult ",
           pos[0], lo, hi, (unsigned long long)n, (hi - lo) / (double)n, gp_dtype_name(prec),
           gp_backend_name(gp_backend_of(ctx)), compile_s * 1e3);
  printf("%.17g\n", r);
  gp_destroy(ctx);
  return 0;
}
