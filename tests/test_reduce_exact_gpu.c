/* Correctly rounded F32/F64 SUM (GP_REDUCE_AUTO) on the CUDA backend: the cases of
 * tests/exact_cases.h checked bit for bit against the exact reference, each run from
 * host memory, from device memory (aligned and misaligned) and with forced grids (1
 * block, a few, more than the tiles), all of which must give the same bits; then
 * large arrays against the CPU backend (itself checked by test_reduce_exact). Exits 77
 * where no GPU is usable. GP_TEST_QUICK=1 (for compute-sanitizer) stops at 2^17
 * elements: no 2^20 random cases, no large arrays. */
#if GP_HAVE_CUDA
#include "exact_cases.h"
#include "window_ties.h"
#include <cuda_runtime_api.h>
#include "cuda/reduce/reduce_cuda.h"

static gp_context *gpu, *cpu;
static unsigned char *d_buf;
static void *d_out;
static size_t d_cap;

#include "cuda_check.h"

static uint64_t out_bits(gp_dtype t, const void *p) {
  uint64_t u = 0;
  memcpy(&u, p, gp_dtype_size(t));
  return u;
}

static gp_status xc_sum(gp_dtype t, const void *x, size_t n, void *out) {
  const size_t es = gp_dtype_size(t);
  gp_status s = gp_reduce(gpu, GP_SUM, t, x, n, out, GP_REDUCE_AUTO);
  CHECK_MSG(s == GP_OK, "gp_reduce (host memory): %s", gp_last_error(gpu));
  if (s != GP_OK || (n + 1) * es > d_cap) return s;
  const uint64_t want = out_bits(t, out);
  const unsigned grids[] = {0, 1, 3, 100000};
  for (int mis = 0; mis < 2; mis++) {
    unsigned char *p = d_buf + (mis ? es : 0);
    if (n) CUDA_OK(cudaMemcpy(p, x, n * es, cudaMemcpyHostToDevice));
    for (size_t g = 0; g < sizeof grids / sizeof grids[0]; g++) {
      gp_cuda_reduce_auto_force_grid(gpu, grids[g]);
      CUDA_OK(cudaMemset(d_out, 0xAB, 8));
      gp_status s2 = gp_reduce(gpu, GP_SUM, t, p, n, d_out, GP_REDUCE_AUTO);
      if (s2 == GP_OK) s2 = gp_synchronize(gpu);
      CHECK_MSG(s2 == GP_OK, "gp_reduce (device memory): %s", gp_last_error(gpu));
      unsigned char got[8];
      CUDA_OK(cudaMemcpy(got, d_out, es, cudaMemcpyDeviceToHost));
      CHECK_MSG(out_bits(t, got) == want, "%s n=%zu %s grid %u: %#llx, host-memory run %#llx",
                gp_dtype_name(t), n, mis ? "misaligned" : "aligned", grids[g],
                (unsigned long long)out_bits(t, got), (unsigned long long)want);
    }
    gp_cuda_reduce_auto_force_grid(gpu, 0);
  }
  return s;
}

/* large arrays: GPU vs CPU backend, and repeated runs */
static void test_large(void) {
  const size_t n = ((size_t)1 << 26) + 5;
  double *d = (double *)malloc(n * sizeof *d);
  float *f = (float *)malloc(n * sizeof *f);
  check_seed(2026);
  for (size_t i = 0; i < n; i++) {
    d[i] = (check_rand01() - 0.5) * ldexp(1.0, (int)(check_rand64() % 64) - 32);
    f[i] = (float)d[i];
  }
  for (int is64 = 0; is64 < 2; is64++) {
    gp_dtype t = is64 ? GP_F64 : GP_F32;
    const void *x = is64 ? (const void *)d : (const void *)f;
    unsigned char want[8], got[8];
    CHECK_OK(cpu, gp_reduce(cpu, GP_SUM, t, x, n, want, GP_REDUCE_AUTO));
    for (int rep = 0; rep < 3; rep++) {
      CHECK_OK(gpu, gp_reduce(gpu, GP_SUM, t, x, n, got, GP_REDUCE_AUTO));
      CHECK_MSG(out_bits(t, got) == out_bits(t, want), "large %s run %d: %#llx vs cpu %#llx",
                gp_dtype_name(t), rep, (unsigned long long)out_bits(t, got),
                (unsigned long long)out_bits(t, want));
    }
  }
  free(d);
  free(f);
}

/* F64 grids of more records than the last block keeps in registers (1024), and of more
 * than its window holds (3 g values above 8192: exact merges instead), forced on an input
 * that has the tiles for them; each against the CPU backend's bits. Kinds: cancelling
 * values 2^-32..2^32, exponents spread over +-600 (blocks the window refuses), -0 alone
 * (the sum is -0 through every record), and +-0 mixed (+0). */
static void test_grids(void) {
  const size_t n = (size_t)3100 * 2048 + 17;
  double *x = (double *)malloc(n * sizeof *x), *dx = NULL;
  CHECK_MSG(x != NULL, "test_grids: malloc");
  if (!x) return;
  CUDA_OK(cudaMalloc((void **)&dx, n * sizeof *x));
  const unsigned grids[] = {0, 700, 1100, 2800, 4096};
  check_seed(77);
  for (int kind = 0; kind < 4; kind++) {
    for (size_t i = 0; i < n; i++) {
      const double u = check_rand01() - 0.5;
      x[i] = kind == 0 ? u * ldexp(1.0, (int)(check_rand64() % 64) - 32)
           : kind == 1 ? u * ldexp(1.0, (int)(check_rand64() % 1200) - 600)
           : kind == 2 ? -0.0
                       : (check_rand64() & 1 ? 0.0 : -0.0);
    }
    unsigned char want[8], got[8];
    CHECK_OK(cpu, gp_reduce(cpu, GP_SUM, GP_F64, x, n, want, GP_REDUCE_AUTO));
    CUDA_OK(cudaMemcpy(dx, x, n * sizeof *x, cudaMemcpyHostToDevice));
    for (size_t g = 0; g < sizeof grids / sizeof grids[0]; g++) {
      gp_cuda_reduce_auto_force_grid(gpu, grids[g]);
      gp_status s = gp_reduce(gpu, GP_SUM, GP_F64, dx, n, d_out, GP_REDUCE_AUTO);
      if (s == GP_OK) s = gp_synchronize(gpu);
      CHECK_MSG(s == GP_OK, "grids kind %d grid %u: %s", kind, grids[g], gp_last_error(gpu));
      CUDA_OK(cudaMemcpy(got, d_out, 8, cudaMemcpyDeviceToHost));
      CHECK_MSG(out_bits(GP_F64, got) == out_bits(GP_F64, want),
                "grids kind %d grid %u: %#llx vs cpu %#llx", kind, grids[g],
                (unsigned long long)out_bits(GP_F64, got), (unsigned long long)out_bits(GP_F64, want));
    }
    gp_cuda_reduce_auto_force_grid(gpu, 0);
  }
  cudaFree(dx);
  free(x);
}

/* F32 sums whose exact value is a tie that one inexact addition breaks (window_ties.h):
 * on grids of 1, 7 and 64 blocks each thread's heads take hundreds of inputs and pass
 * 2^23, where the tiny terms' last bits no longer fit a window of plain additions (a
 * kernel that added past src/cuda/reduce/xs_window.cuh's window, 3 bits too wide, failed
 * here in s22-final); also on the automatic grid. Each against the exact reference. */
static void test_window(void) {
  const size_t n = ((size_t)1 << 20) + 5;
  float *x = (float *)malloc(n * sizeof *x), *dx = NULL;
  CHECK_MSG(x != NULL, "test_window: malloc");
  if (!x) return;
  CUDA_OK(cudaMalloc((void **)&dx, n * sizeof *x));
  const unsigned grids[] = {0, 1, 7, 64};
  for (int run = 0; run < 4; run++) {
    check_seed(91 + (uint64_t)run);
    const uint64_t b = 0, e = n;
    window_ties(x, &b, &e, 1, 20, -7);
    const float want = xr_sum_f32(x, n);
    CUDA_OK(cudaMemcpy(dx, x, n * sizeof *x, cudaMemcpyHostToDevice));
    for (size_t g = 0; g < sizeof grids / sizeof grids[0]; g++) {
      float got = 0.0f;
      gp_cuda_reduce_auto_force_grid(gpu, grids[g]);
      gp_status s = gp_reduce(gpu, GP_SUM, GP_F32, dx, n, d_out, GP_REDUCE_AUTO);
      if (s == GP_OK) s = gp_synchronize(gpu);
      CHECK_MSG(s == GP_OK, "window run %d grid %u: %s", run, grids[g], gp_last_error(gpu));
      CUDA_OK(cudaMemcpy(&got, d_out, sizeof got, cudaMemcpyDeviceToHost));
      CHECK_MSG(bits32(got) == bits32(want), "window run %d grid %u: %.9g (%#x) vs exact %.9g (%#x)",
                run, grids[g], (double)got, bits32(got), (double)want, bits32(want));
    }
    gp_cuda_reduce_auto_force_grid(gpu, 0);
  }
  cudaFree(dx);
  free(x);
}

int main(void) {
  gpu = check_gpu_context_or_skip("test_reduce_exact_gpu");
  cpu = check_cpu_context();
  d_cap = ((size_t)1 << 21) * 8;
  CUDA_OK(cudaMalloc((void **)&d_buf, d_cap));
  CUDA_OK(cudaMalloc(&d_out, 16));
  const char *q = getenv("GP_TEST_QUICK");
  const int quick = q && strcmp(q, "0") != 0;
  if (quick) xc_max_n = (size_t)1 << 17;
  test_known();
  test_ties();
  test_random();
  test_grids();
  test_window();
  test_dense();
  if (!quick) test_large();
  cudaFree(d_buf);
  cudaFree(d_out);
  gp_destroy(cpu);
  gp_destroy(gpu);
  return check_summary("test_reduce_exact_gpu");
}
#else
#include "check.h"
int main(void) {
  gp_context *ctx = check_gpu_context_or_skip("test_reduce_exact_gpu");
  gp_destroy(ctx);
  return 0;
}
#endif
