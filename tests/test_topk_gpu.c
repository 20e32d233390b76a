/* gp_topk on the CUDA backend: tests/topk_cases.h against an insertion reference (each
 * call also made with input and outputs in device memory, which must agree), and a
 * large array against the CPU backend. Exits 77 where no GPU is usable. */
#if GP_HAVE_CUDA
#include "topk_cases.h"
#include <cuda_runtime_api.h>

static gp_context *gpu, *cpu;

#include "cuda_check.h"

static gp_status tk_run(gp_dtype t, const void *x, size_t n, size_t k, gp_order order,
                        void *values, uint64_t *indices) {
  const size_t es = gp_dtype_size(t);
  gp_status s = gp_topk(gpu, t, x, n, k, order, values, indices);
  CHECK_MSG(s == GP_OK, "gp_topk: %s", gp_last_error(gpu));
  if (s != GP_OK) return s;
  void *d_x, *d_v;
  uint64_t *d_i;
  CUDA_OK(cudaMalloc(&d_x, n * es));
  CUDA_OK(cudaMalloc(&d_v, k * es));
  CUDA_OK(cudaMalloc((void **)&d_i, k * 8));
  CUDA_OK(cudaMemcpy(d_x, x, n * es, cudaMemcpyHostToDevice));
  gp_status s2 = gp_topk(gpu, t, d_x, n, k, order, d_v, d_i);
  CHECK_MSG(s2 == GP_OK, "gp_topk (device memory): %s", gp_last_error(gpu));
  unsigned char *v = (unsigned char *)malloc(k * es);
  uint64_t *i = (uint64_t *)malloc(k * 8);
  CUDA_OK(cudaMemcpy(v, d_v, k * es, cudaMemcpyDeviceToHost));
  CUDA_OK(cudaMemcpy(i, d_i, k * 8, cudaMemcpyDeviceToHost));
  CHECK_MSG(memcmp(v, values, k * es) == 0 && memcmp(i, indices, k * 8) == 0,
            "topk %s n=%zu k=%zu: device-memory run differs", gp_dtype_name(t), n, k);
  free(v);
  free(i);
  cudaFree(d_x);
  cudaFree(d_v);
  cudaFree(d_i);
  return s;
}

static void test_large(void) {
  const size_t n = ((size_t)1 << 24) + 3, k = 1024;
  float *x = (float *)malloc(n * sizeof *x);
  check_seed(3);
  for (size_t i = 0; i < n; i++) x[i] = (float)(check_rand64() % 100000);
  float *v1 = (float *)malloc(k * 4), *v2 = (float *)malloc(k * 4);
  uint64_t *i1 = (uint64_t *)malloc(k * 8), *i2 = (uint64_t *)malloc(k * 8);
  CHECK_OK(cpu, gp_topk(cpu, GP_F32, x, n, k, GP_DESCENDING, v1, i1));
  CHECK_OK(gpu, gp_topk(gpu, GP_F32, x, n, k, GP_DESCENDING, v2, i2));
  CHECK(memcmp(v1, v2, k * 4) == 0 && memcmp(i1, i2, k * 8) == 0);
  free(x);
  free(v1);
  free(v2);
  free(i1);
  free(i2);
}

int main(void) {
  gpu = check_gpu_context_or_skip("test_topk_gpu");
  cpu = check_cpu_context();
  tk_test_matrix();
  test_large();
  gp_destroy(cpu);
  gp_destroy(gpu);
  return check_summary("test_topk_gpu");
}
#else
#include "check.h"
int main(void) {
  gp_context *ctx = check_gpu_context_or_skip("test_topk_gpu");
  gp_destroy(ctx);
  return 0;
}
#endif
