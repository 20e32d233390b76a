/* The expression language of gp_integrate: precedence and associativity, every
 * function and constant, errors with columns, unknown names, text that tries to inject
 * code, and the CPU evaluators (array and single point, F64 and F32) against libm. */
#include "check.h"
#include "core/expr.h"

#include <float.h>

static double ev(const char *text, double x) {
  gp_expr e;
  char err[512];
  if (gp_expr_parse(text, &e, err, sizeof err)) {
    CHECK_MSG(0, "'%s' did not parse: %s", text, err);
    return NAN;
  }
  double r = gp_expr_eval(&e, x);
  gp_expr_free(&e);
  return r;
}

static float evf(const char *text, float x) {
  gp_expr e;
  char err[512];
  if (gp_expr_parse(text, &e, err, sizeof err)) {
    CHECK_MSG(0, "'%s' did not parse: %s", text, err);
    return NAN;
  }
  float r = gp_expr_eval_f(&e, x);
  gp_expr_free(&e);
  return r;
}

/* Same bits (NaN matches NaN). */
#define CHECK_BITS(got, want)                                                         \
  do {                                                                                \
    double g_ = (got), w_ = (want);                                                   \
    CHECK_MSG((isnan(g_) && isnan(w_)) || memcmp(&g_, &w_, sizeof g_) == 0,           \
              "%s = %.17g, expected %s = %.17g", #got, g_, #want, w_);               \
  } while (0)

static void check_error(const char *text, const char *needle) {
  gp_expr e;
  char err[512];
  int rc = gp_expr_parse(text, &e, err, sizeof err);
  CHECK_MSG(rc != 0, "'%s' parsed but should not", text);
  CHECK_MSG(strstr(err, needle) != NULL, "'%s': error \"%s\" does not mention \"%s\"", text,
            err, needle);
  CHECK(e.root == -1 && e.nodes == NULL && e.code == NULL);
  gp_expr_free(&e);
}

static void check_print(const char *text, const char *want) {
  gp_expr e;
  char err[512], buf[1024];
  if (gp_expr_parse(text, &e, err, sizeof err)) {
    CHECK_MSG(0, "'%s' did not parse: %s", text, err);
    return;
  }
  CHECK(gp_expr_print(&e, buf, sizeof buf) == 0);
  CHECK_MSG(strcmp(buf, want) == 0, "'%s' printed as '%s', expected '%s'", text, buf, want);
  gp_expr_free(&e);
}

static void test_precedence(void) {
  CHECK_BITS(ev("1 + 2 * 3", 0), 7.0);
  CHECK_BITS(ev("(1 + 2) * 3", 0), 9.0);
  CHECK_BITS(ev("10 - 4 - 3", 0), 3.0);          /* left-associative */
  CHECK_BITS(ev("64 / 4 / 2", 0), 8.0);
  CHECK_BITS(ev("2 ^ 3 ^ 2", 0), 512.0);         /* right-associative: 2^(3^2) */
  CHECK_BITS(ev("-x^2", 3), -9.0);               /* -(x^2) */
  CHECK_BITS(ev("(-x)^2", 3), 9.0);
  CHECK_BITS(ev("2^-1", 0), 0.5);                /* unary minus in the exponent */
  CHECK_BITS(ev("--x", 2), 2.0);
  CHECK_BITS(ev("+x", 2), 2.0);
  CHECK_BITS(ev("2*-x", 3), -6.0);
  CHECK_BITS(ev("x^2^0.5", 4), pow(4, pow(2, 0.5)));
  CHECK_BITS(ev("1 - -1", 0), 2.0);
  CHECK_BITS(ev("2 * x ^ 2 + 1", 3), 19.0);
  CHECK_BITS(ev("1.5e2 + .5 + 2.", 0), 152.5);
  CHECK_BITS(ev("1E-2", 0), 0.01);
  CHECK_BITS(ev("  x\t*\n2 ", 5), 10.0);
  check_print("-x^2", "(-(x^2))");
  check_print("2^3^2", "(2^(3^2))");
  check_print("x-1-2", "((x-1)-2)");
  check_print("pow(x, 3) + min(x, 1)*max(2,x)", "((x^3)+(min(x,1)*max(2,x)))");
}

static void test_functions(void) {
  const double xs[] = {-2.5, -1, -0.3, 0, 0.25, 1, 2.75, 10};
  for (size_t k = 0; k < sizeof xs / sizeof xs[0]; k++) {
    double x = xs[k];
    CHECK_BITS(ev("sin(x)", x), sin(x));
    CHECK_BITS(ev("cos(x)", x), cos(x));
    CHECK_BITS(ev("tan(x)", x), tan(x));
    CHECK_BITS(ev("exp(x)", x), exp(x));
    CHECK_BITS(ev("log(x)", x), log(x));
    CHECK_BITS(ev("sqrt(x)", x), sqrt(x));
    CHECK_BITS(ev("abs(x)", x), fabs(x));
    CHECK_BITS(ev("floor(x)", x), floor(x));
    CHECK_BITS(ev("ceil(x)", x), ceil(x));
    CHECK_BITS(ev("pow(x, 3)", x), pow(x, 3));
    CHECK_BITS(ev("x ^ 1.5", x), pow(x, 1.5));
    CHECK_BITS(ev("x ^ 2", x), x * x);
    CHECK_BITS(ev("min(x, 0.5)", x), fmin(x, 0.5));
    CHECK_BITS(ev("max(x, 0.5)", x), fmax(x, 0.5));
    CHECK_BITS(ev("x * pi + e", x), x * 3.14159265358979323846 + 2.71828182845904523536);
    CHECK_BITS(ev("1 / (1 + x^2)", x), 1 / (1 + x * x));
    float xf = (float)x;
    CHECK_BITS(evf("sin(x)", xf), sinf(xf));
    CHECK_BITS(evf("exp(x) * 3", xf), expf(xf) * 3.0f);
    CHECK_BITS(evf("x^2", xf), xf * xf);
    CHECK_BITS(evf("pow(x, 0.5) + pi", xf), powf(xf, 0.5f) + (float)3.14159265358979323846);
    CHECK_BITS(evf("max(x, 1) / min(x, -1)", xf), fmaxf(xf, 1.0f) / fminf(xf, -1.0f));
  }
  CHECK_BITS(ev("pi", 0), 3.14159265358979323846);
  CHECK_BITS(ev("e", 0), 2.71828182845904523536);
  CHECK(isnan(ev("max(x, 1) * 0 + sqrt(-1)", 0)));
  CHECK_BITS(ev("1/x", 0), INFINITY);
}

/* The array evaluator gives the same bits as the one-point one. */
static void test_eval_many(void) {
  const char *texts[] = {"x^2", "sin(x)*exp(-x^2) + floor(3*x)/4", "pow(abs(x), 0.3) - max(x, e)",
                         "1/(1+x^2)", "sqrt(abs(cos(x))) * tan(x/10) + log(2 + x^2)"};
  enum { N = 777 };
  static double x[N], out[N], stack[64 * N];
  static float xf[N], outf[N], stackf[64 * N];
  for (int i = 0; i < N; i++) {
    x[i] = -5 + 10 * check_rand01();
    xf[i] = (float)x[i];
  }
  for (size_t k = 0; k < sizeof texts / sizeof texts[0]; k++) {
    gp_expr e;
    char err[256];
    if (gp_expr_parse(texts[k], &e, err, sizeof err)) {
      CHECK_MSG(0, "%s: %s", texts[k], err);
      continue;
    }
    CHECK(e.max_stack >= 1 && e.max_stack <= 64);
    gp_expr_eval_many(&e, x, out, N, stack);
    gp_expr_eval_many_f(&e, xf, outf, N, stackf);
    int bad = 0, badf = 0;
    for (int i = 0; i < N; i++) {
      double r = gp_expr_eval(&e, x[i]);
      float rf = gp_expr_eval_f(&e, xf[i]);
      if (memcmp(&r, &out[i], sizeof r) != 0) bad++;
      if (memcmp(&rf, &outf[i], sizeof rf) != 0) badf++;
    }
    CHECK_MSG(bad == 0 && badf == 0, "%s: %d / %d F64 and F32 mismatches", texts[k], bad, badf);
    gp_expr_free(&e);
  }
  /* an independent check of one formula */
  gp_expr e;
  char err[256];
  CHECK(gp_expr_parse("sin(x)*exp(-x^2) + floor(3*x)/4", &e, err, sizeof err) == 0);
  gp_expr_eval_many(&e, x, out, N, stack);
  int bad = 0;
  for (int i = 0; i < N; i++) {
    double w = sin(x[i]) * exp(-(x[i] * x[i])) + floor(3 * x[i]) / 4;
    if (memcmp(&w, &out[i], sizeof w) != 0) bad++;
  }
  CHECK_MSG(bad == 0, "%d mismatches against the hand-written formula", bad);
  gp_expr_free(&e);
}

static void test_errors(void) {
  check_error("(x + 1))", "unexpected ')' at column 8");
  check_error("sin(x))", "unexpected ')' at column 7");
  check_error("x +", "unexpected end of input at column 4");
  check_error("", "empty expression");
  check_error("   ", "empty expression");
  check_error("x * * 2", "unexpected '*' at column 5");
  check_error("(x + 1", "expected ')' but found end of input at column 7");
  check_error("foo(x)", "unknown name 'foo' at column 1");
  check_error("x + y", "unknown name 'y' at column 5");
  check_error("X", "unknown name 'X'");            /* case matters */
  check_error("sinh(x)", "unknown name 'sinh'");
  check_error("sin x", "function 'sin' at column 1 needs '('");
  check_error("sin", "needs '('");
  check_error("pow(x)", "takes 2 arguments");
  check_error("sin(x, 2)", "takes 1 argument");
  check_error("min(1, 2, 3)", "takes 2 arguments");
  check_error("2x", "unexpected 'x' at column 2");
  check_error("2e", "unexpected 'e' at column 2");
  check_error("1e999", "out of range");
  check_error("x $ 2", "unexpected character '$' at column 3");
  check_error("x % 2", "unexpected character '%' at column 3");
  check_error("x()", "unexpected '(' at column 2");
  check_error("()", "unexpected ')' at column 2");
  check_error("1,2", "unexpected ',' at column 2");
  check_error("x = 2", "unexpected character '='");
  /* nesting and size limits */
  char deep[1200];
  size_t k = 0;
  for (int i = 0; i < 400; i++) deep[k++] = '(';
  deep[k++] = 'x';
  for (int i = 0; i < 400; i++) deep[k++] = ')';
  deep[k] = '\0';
  check_error(deep, "nested too deeply");
  char negs[600];
  memset(negs, '-', 500);
  negs[500] = 'x';
  negs[501] = '\0';
  check_error(negs, "nested too deeply");
  char *longtext = (char *)malloc(GP_EXPR_MAX_LEN + 10);
  memset(longtext, ' ', GP_EXPR_MAX_LEN + 8);
  longtext[0] = 'x';
  longtext[GP_EXPR_MAX_LEN + 8] = '\0';
  check_error(longtext, "too long");
  free(longtext);
  /* a long but legal expression: 1000 terms */
  char *sum = (char *)malloc(4096);
  k = 0;
  for (int i = 0; i < 1000; i++) {
    sum[k++] = 'x';
    sum[k++] = i < 999 ? '+' : '\0';
  }
  CHECK_BITS(ev(sum, 1.0), 1000.0);
  free(sum);
}

/* Text that would be code if it were pasted into CUDA source: the tokenizer or the
 * parser refuses all of it, and nothing is left to generate. */
static void test_injection(void) {
  check_error("x); system(\"rm -rf /\"); (x", "unexpected ')' at column 2");
  check_error("x /* */", "unexpected '*' at column 4");
  check_error("x // comment", "unexpected '/' at column 4");
  check_error("x; return 0", "unexpected character ';' at column 2");
  check_error("sin\"(x)", "unexpected character '\"'");
  check_error("x\\n", "unexpected character '\\'");
  check_error("x'", "unexpected character '''");
  check_error("#include <stdio.h>", "unexpected character '#' at column 1");
  check_error("x ? 1 : 2", "unexpected character '?'");
  check_error("x[0]", "unexpected character '['");
  check_error("asm(\"trap;\")", "unknown name 'asm'");
  check_error("printf(x)", "unknown name 'printf'");
  check_error("__syncthreads()", "unknown name '__syncthreads'");
  check_error("x\n#define x 2", "unexpected character '#' at column 3");
  check_error("x\x01", "unexpected byte 0x01 at column 2");
  check_error("x \xc3\xa9", "unexpected byte 0xc3 at column 3");
  check_error("sin(x) ) ; exit(1) ; (", "unexpected ')' at column 8");
}

/* gp_expr_value: the public evaluator the CLI uses for interval ends. */
static void test_expr_value(void) {
  gp_context *ctx = check_cpu_context();
  double v = 0;
  CHECK_OK(ctx, gp_expr_value(ctx, "pi/2", 0.0, &v));
  CHECK(v == 3.14159265358979323846 / 2);
  CHECK_OK(ctx, gp_expr_value(ctx, "-e", 0.0, &v));
  CHECK(v == -2.71828182845904523536);
  CHECK_OK(ctx, gp_expr_value(ctx, "x^2 + 1", 3.0, &v));
  CHECK(v == 10.0);
  CHECK_OK(ctx, gp_expr_value(ctx, "x + 1", NAN, &v)); /* not finite: returned as it is */
  CHECK(isnan(v));
  CHECK_STATUS(gp_expr_value(ctx, "pi)", 0.0, &v), GP_ERR_PARSE);
  CHECK_ERROR_MENTIONS(ctx, "column 3");
  CHECK_STATUS(gp_expr_value(ctx, NULL, 0.0, &v), GP_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(gp_expr_value(ctx, "1", 0.0, NULL), GP_ERR_INVALID_ARGUMENT);
  gp_destroy(ctx);
}

int main(void) {
  test_precedence();
  test_functions();
  test_eval_many();
  test_errors();
  test_injection();
  test_expr_value();
  return check_summary("test_expr");
}
