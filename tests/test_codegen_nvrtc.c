/* The CUDA source generated for every construct of the expression language compiles
 * with NVRTC to PTX for compute_90 (and once to an sm_90 CUBIN), in both precisions,
 * and the PTX holds the kernel entry. NVRTC needs no GPU and no driver, so this runs in
 * CI; it is skipped (77) only in a build without CUDA. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include "check.h"
#if GP_HAVE_CUDA
#include "cuda/integrate/jit.h"
#endif

/* The source through the public gp_integrate_source, then NVRTC as the runtime calls it.
 * Returns 0 with the image, or -1 with the parse or NVRTC error in log. */
static int nvrtc_check(gp_context *ctx, const char *expr, gp_dtype prec, const char *arch,
                       char **img, size_t *size, char *log, size_t log_len) {
  *img = NULL;
  *size = 0;
  size_t need = 0;
  if (gp_integrate_source(ctx, expr, prec, NULL, 0, &need) != GP_OK) {
    snprintf(log, log_len, "%s", gp_last_error(ctx));
    return -1;
  }
  char *src = (char *)malloc(need);
  CHECK(src != NULL);
  CHECK_OK(ctx, gp_integrate_source(ctx, expr, prec, src, need, NULL));
#if GP_HAVE_CUDA
  int rc = gp_nvrtc_compile(src, arch, img, size, log, log_len);
#else
  int rc = -1; /* not reached: gp_integrate_source fails without CUDA */
  (void)arch;
#endif
  free(src);
  return rc;
}

static int compile(gp_context *ctx, const char *expr, gp_dtype prec, const char *arch,
                   char **img, size_t *size) {
  char log[4096];
  int rc = nvrtc_check(ctx, expr, prec, arch, img, size, log, sizeof log);
  CHECK_MSG(rc == 0, "'%s' (%s, %s) did not compile: %s", expr, gp_dtype_name(prec), arch, log);
  return rc;
}

int main(void) {
  gp_context *ctx = check_cpu_context();
  if (gp_integrate_source(ctx, "x", GP_F64, NULL, 0, NULL) == GP_ERR_UNSUPPORTED) {
    printf("test_codegen_nvrtc: SKIPPED, %s\n", gp_last_error(ctx));
    gp_destroy(ctx);
    return 77;
  }
  const char *constructs[] = {
      "x", "42", "0.5", "1e-3", "2.5E+2", "pi", "e", "x + 1", "x - 1", "x * 3", "x / 3",
      "-x", "x ^ 2", "x ^ 3", "x ^ 0.5", "2 ^ x", "-x^2", "(x + 1) * (x - 1)",
      "sin(x)", "cos(x)", "tan(x)", "exp(x)", "log(x)", "sqrt(x)", "abs(x)",
      "floor(x)", "ceil(x)", "pow(x, 1.5)", "min(x, 0.5)", "max(x, 0.5)",
      "1/(1+x^2)", "sin(x)*exp(-x^2) + floor(3*x)/4 - max(min(x, pi), -e)",
      "((((((((((x))))))))))", "x+x+x+x+x+x+x+x+x+x+x+x+x+x+x+x+x+x+x+x+x+x+x+x+x+x",
      "1.7976931348623157e308 * 0 + 4.9e-324 + x"};
  const int n = (int)(sizeof constructs / sizeof constructs[0]);
  for (int i = 0; i < n; i++)
    for (int p = 0; p < 2; p++) {
      const gp_dtype prec = p ? GP_F32 : GP_F64;
      char *ptx = NULL;
      size_t size = 0;
      if (compile(ctx, constructs[i], prec, "compute_90", &ptx, &size) == 0) {
        CHECK_MSG(strstr(ptx, ".entry gp_integrate_kernel") != NULL,
                  "'%s': the PTX has no gp_integrate_kernel entry", constructs[i]);
        CHECK(strstr(ptx, ".target sm_90") != NULL);
        CHECK(strlen(ptx) + 0 <= size);
        /* F64 evaluation of x^2 needs F64 arithmetic; F32 sums still go through F64 */
        CHECK(strstr(ptx, "add.f64") != NULL || strstr(ptx, "add.rn.f64") != NULL);
      }
      free(ptx);
    }
  /* the CUBIN path the runtime takes on an sm_90 device */
  char *cubin = NULL;
  size_t size = 0;
  if (compile(ctx, "sin(x) + x^2", GP_F64, "sm_90", &cubin, &size) == 0) {
    CHECK(size > 4 && memcmp(cubin, "\x7f" "ELF", 4) == 0);
  }
  free(cubin);
  /* the text never reaches NVRTC: these fail in the parser, before any source exists */
  const char *attacks[] = {"x); system(\"rm -rf /\"); (x", "x /* */", "x\n#include <x>",
                           "__nv_sin(x)", "x;asm(\"exit;\")", "sin\\(x)", "x'"};
  for (size_t i = 0; i < sizeof attacks / sizeof attacks[0]; i++) {
    char *img = NULL;
    char log[1024];
    int rc = nvrtc_check(ctx, attacks[i], GP_F64, "compute_90", &img, &size, log, sizeof log);
    CHECK_MSG(rc == -1 && img == NULL && strstr(log, "column") != NULL,
              "'%s': rc %d, log %s", attacks[i], rc, log);
    free(img);
  }
  /* a literal with many digits reaches the source as an exact hex float, not as text */
  char src[65536];
  CHECK_OK(ctx, gp_integrate_source(ctx, "x * 0.1000000000000000055511151231257827", GP_F64,
                                    src, sizeof src, NULL));
  CHECK(strstr(src, "0x1.999999999999ap-4") != NULL);
  CHECK(strstr(src, "0.1000") == NULL);
  /* f with a libm call, or long, is one function the unrolled loop calls (compiled
     once); short arithmetic stays inline */
  const char *called[] = {"sin(x)^2", "exp(-x)", "x ^ 3", "1/x + 1/(x+1)", "sqrt(x) + sqrt(x+1)"};
  const char *inlined[] = {"x^2", "1/(1+x^2)", "sqrt(x)", "abs(x) + floor(x) * ceil(x) - min(x, 1)"};
  for (size_t i = 0; i < sizeof called / sizeof called[0]; i++) {
    CHECK_OK(ctx, gp_integrate_source(ctx, called[i], GP_F32, src, sizeof src, NULL));
    CHECK_MSG(strstr(src, "__noinline__ gp_real gp_f(") != NULL, "'%s' is inlined", called[i]);
  }
  for (size_t i = 0; i < sizeof inlined / sizeof inlined[0]; i++) {
    CHECK_OK(ctx, gp_integrate_source(ctx, inlined[i], GP_F64, src, sizeof src, NULL));
    CHECK_MSG(strstr(src, "__forceinline__ gp_real gp_f(") != NULL, "'%s' is called", inlined[i]);
  }
#if GP_HAVE_CUDA
  /* GPUPRIMS_JIT_FAST=LEVEL adds NVRTC's --Ofast-compile=LEVEL, which the cache key names;
     another value fails, naming it */
  {
    char id0[512], id1[512], log[1024];
    unsetenv("GPUPRIMS_JIT_FAST");
    gp_nvrtc_identity(id0, sizeof id0);
    setenv("GPUPRIMS_JIT_FAST", "max", 1);
    gp_nvrtc_identity(id1, sizeof id1);
    CHECK_MSG(strstr(id0, "Ofast") == NULL && strstr(id1, " --Ofast-compile=max") != NULL,
              "identities '%s' / '%s'", id0, id1);
    char *img = NULL;
    if (compile(ctx, "sin(x)^2", GP_F32, "sm_90", &img, &size) == 0)
      CHECK(size > 4 && memcmp(img, "\x7f" "ELF", 4) == 0);
    free(img);
    img = NULL;
    setenv("GPUPRIMS_JIT_FAST", "fastest", 1);
    int rc = nvrtc_check(ctx, "x", GP_F64, "compute_90", &img, &size, log, sizeof log);
    CHECK_MSG(rc == -1 && img == NULL && strstr(log, "GPUPRIMS_JIT_FAST='fastest'") != NULL,
              "rc %d, log %s", rc, log);
    free(img);
    unsetenv("GPUPRIMS_JIT_FAST");
  }
#endif
  gp_destroy(ctx);
  return check_summary("test_codegen_nvrtc");
}
