/* gp_interp_build (src/cuda/integrate/interp.c), no GPU needed: what fits the
 * interpreted kernel's program and what is refused, and the translation's meaning,
 * checked by running the program here the way trap_interp.cuh runs it (top of stack,
 * binary operations on the slot below it) against the CPU evaluator, bit for bit.
 * Skipped (77) in a build without CUDA, where the interpreter is not built. */
#include "check.h"

#if GP_HAVE_CUDA
#include "core/expr.h"
#include "cuda/integrate/interp.h"

/* the device interpreter's loop, in double, one point */
static double run(const gp_interp_prog *p, double x) {
  double st[GP_INTERP_MAX_STACK], top = 0;
  int d = 0;
  for (uint32_t i = 0; i < p->ncode; i++) {
    const unsigned op = p->op[i];
    if (op <= GP_IOP_CONST) {
      if (i) st[d++] = top;
      top = op == GP_IOP_X ? x : p->k[p->arg[i]];
      continue;
    }
    const double l = op >= GP_IOP_ADD ? st[--d] : 0;
    switch (op) {
    case GP_IOP_NEG: top = -top; break;
    case GP_IOP_SQUARE: top = top * top; break;
    case GP_IOP_SIN: top = sin(top); break;
    case GP_IOP_COS: top = cos(top); break;
    case GP_IOP_TAN: top = tan(top); break;
    case GP_IOP_EXP: top = exp(top); break;
    case GP_IOP_LOG: top = log(top); break;
    case GP_IOP_SQRT: top = sqrt(top); break;
    case GP_IOP_ABS: top = fabs(top); break;
    case GP_IOP_FLOOR: top = floor(top); break;
    case GP_IOP_CEIL: top = ceil(top); break;
    case GP_IOP_ADD: top = l + top; break;
    case GP_IOP_SUB: top = l - top; break;
    case GP_IOP_MUL: top = l * top; break;
    case GP_IOP_DIV: top = l / top; break;
    case GP_IOP_POW: top = pow(l, top); break;
    case GP_IOP_MIN: top = fmin(l, top); break;
    case GP_IOP_MAX: top = fmax(l, top); break;
    default: return NAN;
    }
  }
  return d == 0 ? top : NAN; /* a well-formed program leaves only the top */
}

/* builds text; want: 0 (fits) or -1 (refused) */
static void expect_build(const char *text, int want, gp_interp_prog *p) {
  gp_expr e;
  char err[256];
  if (gp_expr_parse(text, &e, err, sizeof err)) {
    CHECK_MSG(0, "%s: %s", text, err);
    return;
  }
  const int got = gp_interp_build(&e, p);
  CHECK_MSG(got == want, "%s: gp_interp_build gave %d, expected %d (ncode %d, consts %d, "
            "stack %d)", text, got, want, e.ncode, e.nconsts, e.max_stack);
  if (got == 0) {
    for (int i = -20; i <= 20; i++) {
      const double x = 0.37 * i + 0.011;
      const double a = run(p, x), b = gp_expr_eval(&e, x);
      CHECK_MSG(memcmp(&a, &b, sizeof a) == 0 || (isnan(a) && isnan(b)),
                "%s at x = %g: program %.17g, evaluator %.17g", text, x, a, b);
    }
  }
  gp_expr_free(&e);
}

/* "x OP x OP ... x" with k x's, or k distinct constants added */
static char *repeat(int k, const char *first, const char *each) {
  char *s = (char *)malloc((size_t)k * 16 + 16);
  s[0] = '\0';
  for (int i = 0; i < k; i++) {
    char t[32];
    snprintf(t, sizeof t, i ? each : first, i + 2);
    strcat(s, t);
  }
  return s;
}

int main(void) {
  gp_interp_prog p;
  expect_build("x + 1", 0, &p);
  CHECK(p.ncode == 3 && p.op[0] == GP_IOP_X && p.op[1] == GP_IOP_CONST && p.arg[1] == 0 &&
        p.op[2] == GP_IOP_ADD && p.k[0] == 1.0);
  /* operand order of every binary operation, every function, unary minus, squares */
  const char *mix[] = {"x - 3", "3 - x", "x / 7", "7 / x", "pow(x, 2.5)", "2.5 ^ x",
                       "min(x, 1)", "max(2, x)", "-x + x^2", "sin(x) + cos(x) * tan(x)",
                       "exp(-x) - log(abs(x) + 1)", "sqrt(abs(x)) + floor(3*x) - ceil(x/2)",
                       "x - (x/2 - (x/3 - (x/4 - (x/5 - (x/6 - x/7)))))"};
  for (size_t i = 0; i < sizeof mix / sizeof mix[0]; i++) expect_build(mix[i], 0, &p);
  /* the limits: operations, constants, stack slots */
  char *ops_ok = repeat(GP_INTERP_MAX_CODE / 2, "x", " + x");      /* 119 operations */
  char *ops_big = repeat(GP_INTERP_MAX_CODE / 2 + 1, "x", " + x"); /* 121 */
  char *k_ok = repeat(GP_INTERP_MAX_CONSTS, "x + %d", " + %d");     /* 32 constants */
  char *k_big = repeat(GP_INTERP_MAX_CONSTS + 1, "x + %d", " + %d");
  expect_build(ops_ok, 0, &p);
  expect_build(ops_big, -1, &p);
  expect_build(k_ok, 0, &p);
  expect_build(k_big, -1, &p);
  expect_build("x+(x+(x+(x+(x+(x+(x+x))))))", 0, &p);   /* 8 slots */
  expect_build("x+(x+(x+(x+(x+(x+(x+(x+x)))))))", -1, &p); /* 9 */
  free(ops_ok);
  free(ops_big);
  free(k_ok);
  free(k_big);
  /* the rent model grows with points and operations */
  CHECK(gp_interp_extra_s(1, 1e9, 3) > gp_interp_extra_s(1, 1e6, 3));
  CHECK(gp_interp_extra_s(0, 1e6, 6) > gp_interp_extra_s(0, 1e6, 3));
  CHECK(gp_interp_extra_s(0, 1e9, 3) > gp_interp_extra_s(1, 1e9, 3));
  return check_summary("test_integrate_interp_build");
}
#else
int main(void) {
  printf("test_integrate_interp_build: SKIPPED, built without CUDA (no interpreter)\n");
  return 77;
}
#endif
