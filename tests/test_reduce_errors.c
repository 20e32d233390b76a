/* gp_reduce's argument checks: every invalid call returns the right status, leaves the
 * caller's output untouched, and says in its message what was wrong. The CPU backend
 * refusing GPU device memory is checked where a GPU is usable. */
#include "check.h"

#include <stdint.h>
#if GP_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

#define OUT_SENTINEL 0x5a5a5a5a5a5a5a5aull

static void expect_fail(gp_context *ctx, gp_status got, gp_status want, const char *needle,
                        uint64_t out, const char *what) {
  CHECK_MSG(got == want, "%s: returned %s, expected %s", what, gp_status_string(got),
            gp_status_string(want));
  CHECK_MSG(strstr(gp_last_error(ctx), needle) != NULL,
            "%s: gp_last_error = \"%s\" does not mention \"%s\"", what, gp_last_error(ctx), needle);
  CHECK_MSG(out == OUT_SENTINEL, "%s: out was written (%#llx)", what, (unsigned long long)out);
}

static void check_backend(gp_context *ctx, const char *name) {
  float data[4] = {1, 2, 3, 4};
  uint64_t out = OUT_SENTINEL;
  printf("%s backend\n", name);

  CHECK_STATUS(gp_reduce(NULL, GP_SUM, GP_F32, data, 4, &out, GP_REDUCE_AUTO),
               GP_ERR_INVALID_ARGUMENT);
  CHECK(out == OUT_SENTINEL);

  out = OUT_SENTINEL;
  expect_fail(ctx, gp_reduce(ctx, GP_SUM, GP_F32, NULL, 4, &out, GP_REDUCE_AUTO),
              GP_ERR_INVALID_ARGUMENT, "in is NULL but n = 4", out, "NULL in");
  expect_fail(ctx, gp_reduce(ctx, GP_SUM, GP_F32, data, 4, NULL, GP_REDUCE_AUTO),
              GP_ERR_INVALID_ARGUMENT, "out is NULL", out, "NULL out");
  expect_fail(ctx, gp_reduce(ctx, GP_SUM, (gp_dtype)17, data, 4, &out, GP_REDUCE_AUTO),
              GP_ERR_INVALID_ARGUMENT, "unknown dtype 17", out, "bad dtype");
  expect_fail(ctx, gp_reduce(ctx, (gp_op)9, GP_F32, data, 4, &out, GP_REDUCE_AUTO),
              GP_ERR_INVALID_ARGUMENT, "unknown op 9", out, "bad op");
  expect_fail(ctx, gp_reduce(ctx, (gp_op)-1, GP_F32, data, 4, &out, GP_REDUCE_AUTO),
              GP_ERR_INVALID_ARGUMENT, "unknown op -1", out, "negative op");
  expect_fail(ctx, gp_reduce(ctx, GP_SUM, GP_F32, data, 4, &out, (gp_reduce_algo)42),
              GP_ERR_INVALID_ARGUMENT, "unknown reduce algorithm 42", out, "bad algo");
  expect_fail(ctx, gp_reduce(ctx, GP_MIN, GP_F32, data, 0, &out, GP_REDUCE_AUTO),
              GP_ERR_INVALID_ARGUMENT, "MIN of n = 0 elements has no value", out, "MIN of 0");
  expect_fail(ctx, gp_reduce(ctx, GP_MAX, GP_I64, NULL, 0, &out, GP_REDUCE_SEQUENTIAL),
              GP_ERR_INVALID_ARGUMENT, "MAX of n = 0 elements has no value", out, "MAX of 0");

  /* a failed call does not stick: the next good call works and clears the message */
  float r = 0;
  CHECK_OK(ctx, gp_reduce(ctx, GP_SUM, GP_F32, data, 4, &r, GP_REDUCE_AUTO));
  CHECK(r == 10.0f);
  CHECK(strcmp(gp_last_error(ctx), "") == 0);
  /* SUM of nothing is fine and needs no input */
  double z = 1;
  CHECK_OK(ctx, gp_reduce(ctx, GP_SUM, GP_F64, NULL, 0, &z, GP_REDUCE_TWO_PHASE));
  CHECK(z == 0.0 && !signbit(z));
  /* gp_set_two_phase_blocks rejects absurd grids */
  CHECK_STATUS(gp_set_two_phase_blocks(ctx, (1u << 24) + 1), GP_ERR_INVALID_ARGUMENT);
  CHECK_ERROR_MENTIONS(ctx, "two-phase blocks");
  CHECK_OK(ctx, gp_set_two_phase_blocks(ctx, 0));
}

int main(void) {
  gp_context *cpu = check_cpu_context();
  check_backend(cpu, "cpu");

#if GP_HAVE_CUDA
  /* the CPU backend cannot read device memory: it says so instead of crashing */
  void *dev = NULL;
  if (cudaMalloc(&dev, 64) == cudaSuccess) {
    uint64_t out = OUT_SENTINEL;
    expect_fail(cpu, gp_reduce(cpu, GP_SUM, GP_F32, dev, 4, &out, GP_REDUCE_AUTO),
                GP_ERR_INVALID_ARGUMENT, "in is GPU device memory", out, "CPU backend, device in");
    float host[2] = {1, 2};
    CHECK_STATUS(gp_reduce(cpu, GP_SUM, GP_F32, host, 2, dev, GP_REDUCE_AUTO),
                 GP_ERR_INVALID_ARGUMENT);
    CHECK_ERROR_MENTIONS(cpu, "out is GPU device memory");
    cudaFree(dev);
  } else {
    (void)cudaGetLastError();
    printf("no GPU: skipping the device-memory check of the CPU backend\n");
  }
  gp_context *gpu = NULL;
  if (gp_create(&gpu, GP_BACKEND_CUDA) == GP_OK) check_backend(gpu, "cuda");
  gp_destroy(gpu);
#endif
  gp_destroy(cpu);
  return check_summary("test_reduce_errors");
}
