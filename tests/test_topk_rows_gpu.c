/* gp_topk_rows on the CUDA backend: tests/topk_rows_cases.h against the CPU backend's
 * gp_topk per row, bit for bit; host and device memory give the same; the argument
 * errors. Exits 77 where no GPU is usable. */
#if GP_HAVE_CUDA
#include "topk_rows_cases.h"
#include <cuda_runtime_api.h>

#include "cuda_check.h"

/* 4096 rows of 1000 f32 in device memory, outputs in device memory: as from host memory
 * (k = 8 .. 128: the warp select; 129 and 300: the segmented sort), on the legacy stream
 * and on a non-blocking stream of the caller's */
static void tr_device(gp_context *gpu, size_t k) {
  const size_t rows = 4096, cols = 1000, n = rows * cols;
  float *x = (float *)malloc(n * 4), *v1 = (float *)malloc(rows * k * 4),
        *v2 = (float *)malloc(rows * k * 4);
  uint64_t *i1 = (uint64_t *)malloc(rows * k * 8), *i2 = (uint64_t *)malloc(rows * k * 8);
  check_seed(5);
  tr_fill(GP_F32, x, n, 5000);
  CHECK_OK(gpu, gp_topk_rows(gpu, GP_F32, x, rows, cols, k, GP_DESCENDING, v1, i1));
  void *dx, *dv, *di;
  CUDA_OK(cudaMalloc(&dx, n * 4));
  CUDA_OK(cudaMalloc(&dv, rows * k * 4));
  CUDA_OK(cudaMalloc(&di, rows * k * 8));
  CUDA_OK(cudaMemcpy(dx, x, n * 4, cudaMemcpyHostToDevice));
  CHECK_OK(gpu, gp_topk_rows(gpu, GP_F32, dx, rows, cols, k, GP_DESCENDING, dv, (uint64_t *)di));
  CUDA_OK(cudaMemcpy(v2, dv, rows * k * 4, cudaMemcpyDeviceToHost));
  CUDA_OK(cudaMemcpy(i2, di, rows * k * 8, cudaMemcpyDeviceToHost));
  CHECK(memcmp(v1, v2, rows * k * 4) == 0 && memcmp(i1, i2, rows * k * 8) == 0);
  /* on a stream of the caller's that does not wait for the legacy stream: the call may
   * return before its result is written (k <= 128), gp_synchronize waits for it */
  cudaStream_t st;
  CUDA_OK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
  CUDA_OK(cudaMemset(dv, 0xff, rows * k * 4));
  CUDA_OK(cudaMemset(di, 0xff, rows * k * 8));
  CUDA_OK(cudaDeviceSynchronize());
  CHECK_OK(gpu, gp_set_stream(gpu, st));
  CHECK_OK(gpu, gp_topk_rows(gpu, GP_F32, dx, rows, cols, k, GP_DESCENDING, dv, (uint64_t *)di));
  CHECK_OK(gpu, gp_synchronize(gpu));
  CHECK_OK(gpu, gp_set_stream(gpu, NULL));
  CUDA_OK(cudaMemcpy(v2, dv, rows * k * 4, cudaMemcpyDeviceToHost));
  CUDA_OK(cudaMemcpy(i2, di, rows * k * 8, cudaMemcpyDeviceToHost));
  CHECK(memcmp(v1, v2, rows * k * 4) == 0 && memcmp(i1, i2, rows * k * 8) == 0);
  CUDA_OK(cudaStreamDestroy(st));
  cudaFree(dx);
  cudaFree(dv);
  cudaFree(di);
  free(x);
  free(v1);
  free(v2);
  free(i1);
  free(i2);
}

static int tr_cmp_f32(const void *a, const void *b) {
  const float x = *(const float *)a, y = *(const float *)b;
  return (x > y) - (x < y);
}

/* rows sorted ascending: for the largest, every element beats the ones before it (the
 * select's batch merges); for the smallest, none after the first few does */
static void tr_rising(gp_context *gpu, gp_context *cpu) {
  const size_t rows = 512, cols = 3000;
  float *x = (float *)malloc(rows * cols * 4);
  check_seed(9);
  for (size_t i = 0; i < rows * cols; i++) x[i] = (float)(check_rand64() % 100000) * 0.25f;
  for (size_t r = 0; r < rows; r++) qsort(x + r * cols, cols, 4, tr_cmp_f32);
  static const size_t ks[] = {1, 8, 32, 33, 64, 100, 128};
  for (size_t i = 0; i < sizeof ks / sizeof ks[0]; i++) {
    tr_check(gpu, cpu, GP_F32, x, rows, cols, ks[i], GP_DESCENDING);
    tr_check(gpu, cpu, GP_F32, x, rows, cols, ks[i], GP_ASCENDING);
  }
  free(x);
}

int main(void) {
  gp_context *gpu = check_gpu_context_or_skip("test_topk_rows_gpu");
  gp_context *cpu = check_cpu_context();
  const size_t rows = tr_matrix(gpu, cpu);
  static const size_t dk[] = {8, 32, 37, 64, 100, 128, 129, 300};
  for (size_t i = 0; i < sizeof dk / sizeof dk[0]; i++) tr_device(gpu, dk[i]);
  tr_rising(gpu, cpu);
  /* the CPU backend agrees on a large shape too (not under GP_TEST_QUICK: sanitizers) */
  if (!getenv("GP_TEST_QUICK")) {
    const size_t rows = 1024, cols = 16384;
    float *x = (float *)malloc(rows * cols * 4);
    check_seed(8);
    tr_fill(GP_F32, x, rows * cols, 1 << 20);
    tr_check(gpu, cpu, GP_F32, x, rows, cols, 16, GP_DESCENDING);
    tr_check(gpu, cpu, GP_F32, x, rows, cols, 128, GP_ASCENDING);
    free(x);
  }
  tr_errors(gpu);
  printf("test_topk_rows_gpu: %zu rows checked\n", rows);
  gp_destroy(cpu);
  gp_destroy(gpu);
  return check_summary("test_topk_rows_gpu");
}
#else
#include "check.h"
int main(void) {
  gp_context *ctx = check_gpu_context_or_skip("test_topk_rows_gpu");
  gp_destroy(ctx);
  return 0;
}
#endif
