/* gp_argreduce on the CUDA backend: tests/argreduce_cases.h against a plain loop, each
 * case run from host memory and from device memory (aligned or not, device outputs),
 * which must agree; then a large array against the CPU backend. Exits 77 where no GPU
 * is usable. */
#if GP_HAVE_CUDA
#include "argreduce_cases.h"
#include <cuda_runtime_api.h>

static gp_context *gpu, *cpu;
static unsigned char *d_buf;
static void *d_val;
static uint64_t *d_idx;
static size_t d_cap;

#include "cuda_check.h"

static gp_status ac_run(gp_op op, gp_dtype t, const void *x, size_t n, void *value,
                        uint64_t *index) {
  const size_t es = gp_dtype_size(t);
  gp_status s = gp_argreduce(gpu, op, t, x, n, value, index);
  CHECK_MSG(s == GP_OK, "gp_argreduce (host memory): %s", gp_last_error(gpu));
  if (s != GP_OK || (n + 1) * es > d_cap) return s;
  const size_t off = ((uintptr_t)x % 16) ? es : 0;
  CUDA_OK(cudaMemcpy(d_buf + off, x, n * es, cudaMemcpyHostToDevice));
  CUDA_OK(cudaMemset(d_val, 0xAB, 8));
  CUDA_OK(cudaMemset(d_idx, 0xAB, 8));
  gp_status s2 = gp_argreduce(gpu, op, t, d_buf + off, n, d_val, d_idx);
  if (s2 == GP_OK) s2 = gp_synchronize(gpu);
  CHECK_MSG(s2 == GP_OK, "gp_argreduce (device memory): %s", gp_last_error(gpu));
  unsigned char v[8];
  uint64_t i;
  CUDA_OK(cudaMemcpy(v, d_val, es, cudaMemcpyDeviceToHost));
  CUDA_OK(cudaMemcpy(&i, d_idx, 8, cudaMemcpyDeviceToHost));
  CHECK_MSG(i == *index && memcmp(v, value, es) == 0,
            "%s n=%zu: device-memory run gives index %llu, host-memory run %llu",
            gp_dtype_name(t), n, (unsigned long long)i, (unsigned long long)*index);
  return s;
}

static void test_large(void) {
  const size_t n = ((size_t)1 << 27) + 9;
  float *x = (float *)malloc(n * sizeof *x);
  check_seed(11);
  for (size_t i = 0; i < n; i++) x[i] = (float)(check_rand64() % 1000000);
  for (int op = GP_MIN; op <= GP_MAX; op++) {
    uint64_t a, b;
    float va, vb;
    CHECK_OK(cpu, gp_argreduce(cpu, (gp_op)op, GP_F32, x, n, &va, &a));
    for (int rep = 0; rep < 3; rep++) {
      CHECK_OK(gpu, gp_argreduce(gpu, (gp_op)op, GP_F32, x, n, &vb, &b));
      CHECK_EQ_U64(b, a);
      CHECK(va == vb);
    }
  }
  free(x);
}

int main(void) {
  gpu = check_gpu_context_or_skip("test_argreduce_gpu");
  cpu = check_cpu_context();
  d_cap = ((size_t)1 << 21) * 8 + 64;
  CUDA_OK(cudaMalloc((void **)&d_buf, d_cap));
  CUDA_OK(cudaMalloc(&d_val, 16));
  CUDA_OK(cudaMalloc((void **)&d_idx, 16));
  ac_test_matrix();
  test_large();
  { /* gp_argreduce_rows has no GPU kernel yet: a CUDA context says so */
    float x[6] = {1, 5, 2, 9, 9, 0};
    uint64_t i[2];
    uint64_t off[3] = {0, 3, 6};
    CHECK_STATUS(gp_argreduce_rows(gpu, GP_MAX, GP_F32, x, 2, 3, NULL, i), GP_ERR_UNSUPPORTED);
    CHECK_ERROR_MENTIONS(gpu, "CPU backend");
    CHECK_STATUS(gp_argreduce_segments_offsets(gpu, GP_MAX, GP_F32, x, off, 2, NULL, i),
                 GP_ERR_UNSUPPORTED);
    CHECK_ERROR_MENTIONS(gpu, "CPU backend");
  }
  cudaFree(d_buf);
  cudaFree(d_val);
  cudaFree(d_idx);
  gp_destroy(cpu);
  gp_destroy(gpu);
  return check_summary("test_argreduce_gpu");
}
#else
#include "check.h"
int main(void) {
  gp_context *ctx = check_gpu_context_or_skip("test_argreduce_gpu");
  gp_destroy(ctx);
  return 0;
}
#endif
