/* The split integrate JIT on the GPU (skipped, 77, without one, or where this build
 * holds no prebuilt kernel for the GPU): for expressions with and without library
 * functions, in F32 and F64, over sizes from one trapezoid to looping grids, the kernel
 * linked from the expression's part and the prebuilt kernel gives the same bits as the
 * whole kernel (GPUPRIMS_JIT_SPLIT=0). Each result comes from a fresh context with the
 * disk cache off, so each path compiles its own kernel. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include "check.h"

#if GP_HAVE_CUDA
#include "core/context.h"
#include "cuda/integrate/jit.h"
#include "cuda/integrate/jit_split.h"

#define NEXPR 6
#define NSIZES 6
static const char *const exprs[NEXPR] = {
    "x^2", "sin(x)^2", "exp(-x^2) * cos(3*x) + sqrt(x + 1)", "1/(1+x^2)",
    "pow(abs(x), 1.5) + log(x + 3) - tan(x / 4)", "sin(x)*exp(-x/3) + cos(2*x)"};
static const uint64_t sizes[NSIZES] = {1, 3, 2049, 1000003, 1u << 20,
                                       (1u << 22) + 7 /* > 1024 tiles: blocks loop */};

/* every (expression, precision, size) result of one fresh context */
static void run_all(double out[NEXPR][2][NSIZES]) {
  gp_context *ctx = check_gpu_context_or_skip("test_integrate_gpu_split");
  for (int e = 0; e < NEXPR; e++)
    for (int p = 0; p < 2; p++)
      for (int k = 0; k < NSIZES; k++) {
        const gp_dtype prec = p ? GP_F32 : GP_F64;
        out[e][p][k] = NAN;
        gp_status s = gp_integrate_ex(ctx, exprs[e], -0.75, 3.5, sizes[k], prec, &out[e][p][k]);
        CHECK_MSG(s == GP_OK, "%s %s n=%llu: %s", exprs[e], gp_dtype_name(prec),
                  (unsigned long long)sizes[k], gp_last_error(ctx));
      }
  gp_destroy(ctx);
}

int main(void) {
  gp_context *ctx = check_gpu_context_or_skip("test_integrate_gpu_split");
  char arch[32], why[256];
  gp_nvrtc_arch_for(ctx->info.cc_major, ctx->info.cc_minor, arch, sizeof arch);
  gp_destroy(ctx);
  if (!gp_jit_split_usable(arch, why, sizeof why)) {
    printf("test_integrate_gpu_split: SKIPPED, the split JIT cannot serve %s: %s\n", arch, why);
    return 77;
  }
  setenv("GPUPRIMS_CACHE_DIR", "off", 1);
  static double split[NEXPR][2][NSIZES], whole[NEXPR][2][NSIZES];
  run_all(split);
  setenv("GPUPRIMS_JIT_SPLIT", "0", 1);
  run_all(whole);
  for (int e = 0; e < NEXPR; e++)
    for (int p = 0; p < 2; p++)
      for (int k = 0; k < NSIZES; k++)
        CHECK_MSG(memcmp(&split[e][p][k], &whole[e][p][k], sizeof(double)) == 0 &&
                      !isnan(split[e][p][k]),
                  "%s %s n=%llu: split %.17g, whole %.17g", exprs[e], p ? "f32" : "f64",
                  (unsigned long long)sizes[k], split[e][p][k], whole[e][p][k]);
  return check_summary("test_integrate_gpu_split");
}
#else
int main(void) {
  printf("test_integrate_gpu_split: SKIPPED, built without CUDA\n");
  return 77;
}
#endif
