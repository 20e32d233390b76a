/* The interpreted trapezoid kernel (src/cuda/integrate/interp.h) on the GPU (skipped,
 * 77, without one): the same bits as the compiled kernel for every operation, in both
 * precisions, at sizes around a tile and past the block loop; the rent-or-buy choice of
 * GPUPRIMS_JIT=auto seen through gp_integrate_prepare; an expression too large for the
 * interpreter; a bad GPUPRIMS_JIT. The disk cache is off, so "compiled" means NVRTC. */
#define _POSIX_C_SOURCE 200809L
#include "check.h"

#if GP_HAVE_CUDA
#include "cuda/integrate/interp.h"

static gp_context *ctx_with(const char *mode) {
  setenv("GPUPRIMS_JIT", mode, 1);
  gp_context *c = check_gpu_context_or_skip("test_integrate_interp_gpu");
  double r;
  CHECK_OK(c, gp_integrate_ex(c, "x", 0, 1, 10, GP_F64, &r)); /* reads GPUPRIMS_JIT */
  unsetenv("GPUPRIMS_JIT");
  return c;
}

static double integ(gp_context *ctx, const char *expr, double a, double b, uint64_t n,
                    gp_dtype prec) {
  double r = NAN;
  gp_status s = gp_integrate_ex(ctx, expr, a, b, n, prec, &r);
  CHECK_MSG(s == GP_OK, "%s [%g, %g] n=%llu %s: %s: %s", expr, a, b, (unsigned long long)n,
            gp_dtype_name(prec), gp_status_string(s), gp_last_error(ctx));
  return r;
}

/* "x + x + ... + x" with k terms: 2k - 1 operations */
static char *sum_of_x(int k, const char *tail) {
  char *s = (char *)malloc((size_t)k * 4 + strlen(tail) + 1);
  s[0] = '\0';
  for (int i = 0; i < k; i++) strcat(s, i ? " + x" : "x");
  strcat(s, tail);
  return s;
}

int main(void) {
  setenv("GPUPRIMS_CACHE_DIR", "off", 1);
  gp_context *interp = ctx_with("never"), *jit = ctx_with("always");

  /* every operation, constants that round in F32, and mixes: interpreted == compiled */
  const char *exprs[] = {
      "x", "-x + 3", "x^2", "x*x*x - 2*x", "1/(1+x^2)", "x/3 - 7/x", "x + 0.1",
      "sin(x)", "cos(3*x)", "tan(x/4)", "exp(-x^2)", "log(x)", "sqrt(x)", "abs(x - 1.5)",
      "floor(3*x)/4", "ceil(x*2)", "pow(x, 1.5)", "x^0.5", "2^x", "min(x, 2) + max(x, 1.1)",
      "sin(x)*exp(-x/3) + cos(2*x)",
      "sin(x)*exp(-x^2) + floor(3*x)/4 - max(min(x, pi), -e)",
      "x - (x/2 - (x/3 - (x/4 - (x/5 - (x/6 - x/7)))))" /* the stack's 8 slots */};
  const uint64_t ns[] = {1, 2, 3, 2049, 8193, 1000003, (1u << 22) + 7};
  int compared = 0;
  for (size_t e = 0; e < sizeof exprs / sizeof exprs[0]; e++)
    for (int p = 0; p < 2; p++)
      for (size_t k = 0; k < sizeof ns / sizeof ns[0]; k++) {
        const gp_dtype prec = p ? GP_F32 : GP_F64;
        const double a = integ(interp, exprs[e], 0.3, 2.9, ns[k], prec);
        const double b = integ(jit, exprs[e], 0.3, 2.9, ns[k], prec);
        CHECK_MSG(memcmp(&a, &b, sizeof a) == 0, "%s %s n=%llu: interpreted %.17g compiled %.17g",
                  exprs[e], gp_dtype_name(prec), (unsigned long long)ns[k], a, b);
        compared++;
      }
  printf("interpreted == compiled: %d integrals\n", compared);

  /* too large for the interpreter (operations, stack): compiled even with never */
  char *big = sum_of_x(GP_INTERP_MAX_CODE / 2 + 1, "");
  double t = -1;
  CHECK_NEAR(integ(interp, big, 0, 1, 1000, GP_F64), (GP_INTERP_MAX_CODE / 2 + 1) * 0.5, 0, 1e-13);
  CHECK_OK(interp, gp_integrate_prepare(interp, big, GP_F64, &t));
  CHECK_MSG(t == 0, "prepare of a compiled expression took %g s", t);
  const char *deep = "x+(x+(x+(x+(x+(x+(x+(x+(x+x))))))))"; /* 10 slots */
  CHECK_NEAR(integ(interp, deep, 0, 1, 1000, GP_F64), 5.0, 0, 1e-13);
  CHECK_OK(interp, gp_integrate_prepare(interp, deep, GP_F64, &t));
  CHECK_MSG(t == 0, "prepare of a compiled expression took %g s", t);
  /* never: prepare interprets and compiles nothing */
  CHECK_OK(interp, gp_integrate_prepare(interp, "x^3 + 1", GP_F64, &t));
  CHECK_MSG(t == 0, "never: prepare spent %g s compiling", t);
  CHECK_NEAR(integ(interp, "x^3 + 1", 0, 2, 1000, GP_F64), 6.0, 0, 1e-5);

  /* auto: a small call interprets (a later prepare compiles: t > 0); a call whose
     points x operations pass the budget compiles (a later prepare finds it: t == 0);
     both give the interpreter's bits */
  gp_context *aut = ctx_with("auto");
  char *e1 = sum_of_x(50, ""), *e2 = sum_of_x(50, " + 1");
  const double e1_small = integ(aut, e1, 0, 1, 1000, GP_F64);
  CHECK_OK(aut, gp_integrate_prepare(aut, e1, GP_F64, &t));
  CHECK_MSG(t > 0, "auto: %s was compiled before prepare asked", "e1");
  CHECK(memcmp(&e1_small, &(double){integ(interp, e1, 0, 1, 1000, GP_F64)}, sizeof t) == 0);
  uint64_t n_buy = 1000; /* e2: 50 x's, a constant and 50 additions */
  while (gp_interp_extra_s(0, (double)n_buy, 101) <= GP_INTERP_COMPILE_S) n_buy += n_buy / 4;
  const double e2_big = integ(aut, e2, 0, 1, n_buy, GP_F64);
  CHECK_OK(aut, gp_integrate_prepare(aut, e2, GP_F64, &t));
  CHECK_MSG(t == 0, "auto: a call of %llu points did not compile (prepare took %g s)",
            (unsigned long long)n_buy, t);
  CHECK(memcmp(&e2_big, &(double){integ(interp, e2, 0, 1, n_buy, GP_F64)}, sizeof t) == 0);
  CHECK_NEAR(e2_big, 26.0, 0, 1e-12);

  /* a bad mode: an error naming it; fixing the variable fixes the context */
  setenv("GPUPRIMS_JIT", "sometimes", 1);
  gp_context *bad = check_gpu_context_or_skip("test_integrate_interp_gpu");
  double r = 7;
  CHECK_STATUS(gp_integrate_ex(bad, "x", 0, 1, 10, GP_F64, &r), GP_ERR_INVALID_ARGUMENT);
  CHECK_ERROR_MENTIONS(bad, "GPUPRIMS_JIT=sometimes");
  CHECK(r == 7);
  unsetenv("GPUPRIMS_JIT");
  CHECK_NEAR(integ(bad, "x", 0, 1, 10, GP_F64), 0.5, 0, 1e-15);

  free(big);
  free(e1);
  free(e2);
  gp_destroy(bad);
  gp_destroy(aut);
  gp_destroy(jit);
  gp_destroy(interp);
  return check_summary("test_integrate_interp_gpu");
}
#else
int main(void) {
  printf("test_integrate_interp_gpu: SKIPPED, built without CUDA\n");
  return 77;
}
#endif
