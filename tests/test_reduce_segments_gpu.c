/* gp_reduce_rows / gp_reduce_segments_offsets on the CUDA backend: the cases of
 * tests/segments_cases.h, each result equal to the CPU backend's gp_reduce of its
 * segment alone; every call is made from host memory and again with input, offsets and
 * output in device memory (offsets: also device offsets with host input and output),
 * which must agree. Exits 77 where no GPU is usable. */
#if GP_HAVE_CUDA
#include "segments_cases.h"
#include <cuda_runtime_api.h>

static gp_context *gpu;

#include "cuda_check.h"

/* the same call on device copies; its output must equal host_out */
static void device_run(gp_op op, gp_dtype t, const void *in, size_t n, const uint64_t *offs,
                       size_t nrows, size_t row_len, size_t nseg, const void *host_out) {
  const size_t es = gp_dtype_size(t), os = gp_dtype_size(gp_reduce_out_type(op, t));
  void *d_in = NULL, *d_out = NULL;
  uint64_t *d_offs = NULL;
  CUDA_OK(cudaMalloc(&d_in, n * es + 16));
  CUDA_OK(cudaMalloc(&d_out, nseg * os + 16));
  CUDA_OK(cudaMemcpy(d_in, in, n * es, cudaMemcpyHostToDevice));
  gp_status s;
  if (offs) {
    CUDA_OK(cudaMalloc((void **)&d_offs, (nseg + 1) * 8));
    CUDA_OK(cudaMemcpy(d_offs, offs, (nseg + 1) * 8, cudaMemcpyHostToDevice));
    s = gp_reduce_segments_offsets(gpu, op, t, d_in, d_offs, nseg, d_out);
  } else {
    s = gp_reduce_rows(gpu, op, t, d_in, nrows, row_len, d_out);
  }
  if (s == GP_OK) s = gp_synchronize(gpu);
  CHECK_MSG(s == GP_OK, "device-memory run: %s", gp_last_error(gpu));
  unsigned char *got = (unsigned char *)malloc(nseg * os + 1);
  CUDA_OK(cudaMemcpy(got, d_out, nseg * os, cudaMemcpyDeviceToHost));
  CHECK_MSG(memcmp(got, host_out, nseg * os) == 0, "%s %s: device-memory run differs from host-memory run",
            gp_op_name(op), gp_dtype_name(t));
  if (offs) { /* device offsets with host input and output: the host reads their ends */
    memset(got, 0xCD, nseg * os);
    s = gp_reduce_segments_offsets(gpu, op, t, in, d_offs, nseg, got);
    CHECK_MSG(s == GP_OK, "device offsets, host arrays: %s", gp_last_error(gpu));
    CHECK_MSG(memcmp(got, host_out, nseg * os) == 0,
              "%s %s: device offsets with host arrays differ from the host-memory run",
              gp_op_name(op), gp_dtype_name(t));
  }
  free(got);
  cudaFree(d_in);
  cudaFree(d_out);
  cudaFree(d_offs);
}

static gp_status sc_rows(gp_op op, gp_dtype t, const void *in, size_t nrows, size_t row_len,
                         void *out) {
  gp_status s = gp_reduce_rows(gpu, op, t, in, nrows, row_len, out);
  CHECK_MSG(s == GP_OK, "gp_reduce_rows: %s", gp_last_error(gpu));
  if (s == GP_OK && nrows > 0) device_run(op, t, in, nrows * row_len, NULL, nrows, row_len, nrows, out);
  return s;
}
static gp_status sc_offsets(gp_op op, gp_dtype t, const void *in, const uint64_t *offs,
                            size_t nseg, void *out) {
  gp_status s = gp_reduce_segments_offsets(gpu, op, t, in, offs, nseg, out);
  CHECK_MSG(s == GP_OK, "gp_reduce_segments_offsets: %s", gp_last_error(gpu));
  if (s == GP_OK && nseg > 0) device_run(op, t, in, offs[nseg], offs, 0, 0, nseg, out);
  return s;
}

int main(void) {
  gpu = check_gpu_context_or_skip("test_reduce_segments_gpu");
  sc_cpu = check_cpu_context();
  sc_test_rows();
  sc_test_offsets();
  sc_test_offsets_long();
  sc_test_window();
  gp_destroy(sc_cpu);
  gp_destroy(gpu);
  return check_summary("test_reduce_segments_gpu");
}
#else
#include "check.h"
int main(void) {
  gp_context *ctx = check_gpu_context_or_skip("test_reduce_segments_gpu");
  gp_destroy(ctx);
  return 0;
}
#endif
