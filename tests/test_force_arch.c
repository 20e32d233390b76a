/* GPUPRIMS_FORCE_ARCH: a bad value fails gp_create (AUTO and CUDA) with a message naming
 * the variable; a good one lowers gp_device_info.arch on a GPU (never raises it) and
 * leaves the compute capability as the device's; the CPU backend ignores it. */
#define _POSIX_C_SOURCE 200809L
#include "check.h"

/* arch of an AUTO context under GPUPRIMS_FORCE_ARCH=value; -1 if gp_create failed */
static int arch_under(const char *value, gp_device_info *info, gp_status *st) {
  setenv("GPUPRIMS_FORCE_ARCH", value, 1);
  gp_context *ctx = NULL;
  *st = gp_create(&ctx, GP_BACKEND_AUTO);
  int arch = -1;
  if (*st == GP_OK && gp_get_device_info(ctx, info) == GP_OK) arch = info->arch;
  if (*st != GP_OK) CHECK_ERROR_MENTIONS(ctx, "GPUPRIMS_FORCE_ARCH");
  gp_destroy(ctx);
  return arch;
}

int main(void) {
  const char *saved = getenv("GPUPRIMS_FORCE_ARCH");
  char keep[64] = "";
  if (saved) snprintf(keep, sizeof keep, "%s", saved);
  unsetenv("GPUPRIMS_FORCE_ARCH");

  gp_context *ctx = NULL;
  CHECK_OK(ctx, gp_create(&ctx, GP_BACKEND_AUTO));
  gp_device_info real;
  CHECK_OK(ctx, gp_get_device_info(ctx, &real));
  const int gpu = gp_backend_of(ctx) == GP_BACKEND_CUDA;
  gp_destroy(ctx);
  if (gpu) CHECK_EQ_I64(real.arch, real.cc_major * 10 + real.cc_minor);
  else CHECK_EQ_I64(real.arch, 0);

  gp_device_info info;
  gp_status st;
  const char *bad[] = {"abc", "8.0", "sm_80", "5", "80x"};
  for (int i = 0; i < 5; i++) {
    const int arch = arch_under(bad[i], &info, &st);
#if GP_HAVE_CUDA
    CHECK_MSG(st == GP_ERR_INVALID_ARGUMENT && arch == -1, "GPUPRIMS_FORCE_ARCH=%s: %s", bad[i],
              gp_status_string(st));
#else
    CHECK_MSG(st == GP_OK && arch == 0, "GPUPRIMS_FORCE_ARCH=%s without CUDA: ignored", bad[i]);
#endif
  }
  /* the CPU backend never looks at it */
  setenv("GPUPRIMS_FORCE_ARCH", "abc", 1);
  gp_context *cpu = NULL;
  CHECK_OK(cpu, gp_create(&cpu, GP_BACKEND_CPU));
  gp_destroy(cpu);

  int arch = arch_under("75", &info, &st);
  CHECK_MSG(st == GP_OK, "GPUPRIMS_FORCE_ARCH=75: %s", gp_status_string(st));
  if (gpu) {
    CHECK_EQ_I64(arch, real.arch < 75 ? real.arch : 75);
    CHECK_EQ_I64(info.cc_major, real.cc_major); /* the device is still what it is */
    CHECK_EQ_I64(info.cc_minor, real.cc_minor);
    CHECK_EQ_I64(arch_under("999", &info, &st), real.arch); /* never raised */
    CHECK_EQ_I64(arch_under("", &info, &st), real.arch);    /* empty: not set */
  } else {
    CHECK_EQ_I64(arch, 0);
  }

  if (saved) setenv("GPUPRIMS_FORCE_ARCH", keep, 1);
  else unsetenv("GPUPRIMS_FORCE_ARCH");
  return check_summary("test_force_arch");
}
