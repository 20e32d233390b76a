/* gp_reduce on the CUDA backend against the CPU backend, bit for bit, over the
 * DESIGN.md matrix (every algorithm; WARP_ATOMIC float sums within a tolerance, since
 * their atomic order varies): host, device, managed and misaligned pointers, repeated
 * runs, AUTO's independence of the grid size, and one array of more than 2^32
 * elements (GP_TEST_LARGE=0 skips it); gp_reduce_device on the misaligned device runs and
 * on managed memory, and its host-pointer check under GPUPRIMS_DEBUG_SYNC=1. GP_TEST_QUICK=1 runs the same cases at sizes up
 * to ~2^20 and without the 2^32 case, so compute-sanitizer's racecheck and synccheck
 * cover the suite in minutes. Exits 77 where no GPU is usable. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include "check.h"

#include <stdint.h>
#include <stdlib.h>
#if GP_HAVE_CUDA
#include "reduce_testutil.h"
#include "core/reduce_tree.h"
#include <cuda_runtime_api.h>
#include "cuda/reduce/reduce_cuda.h"
#endif

#if GP_HAVE_CUDA
static gp_context *gpu, *cpu;
static int quick; /* GP_TEST_QUICK=1 */
static unsigned char *d_buf; /* device input buffer, 16-byte aligned (cudaMalloc) */
static void *d_out;
static size_t d_cap;

#include "cuda_check.h"

/* where the GPU run reads its input and writes its output */
enum { MEM_HOST, MEM_DEVICE, MEM_DEVICE_MISALIGNED, MEM_KINDS };
static const char *mem_name[] = {"host", "device", "device+1"};

/* Runs the GPU reduction of host `data` with the input in `mem`; returns out bits. */
static int gpu_run(gp_op op, gp_dtype t, const void *data, size_t n, gp_reduce_algo algo,
                   int mem, uint64_t *bits) {
  size_t es = gp_dtype_size(t), osz = gp_dtype_size(gp_reduce_out_type(op, t));
  unsigned char out[8] = {0};
  gp_status s;
  if (mem == MEM_HOST) {
    s = gp_reduce(gpu, op, t, data, n, out, algo);
  } else {
    unsigned char *p = d_buf + (mem == MEM_DEVICE_MISALIGNED ? es : 0);
    CUDA_OK(cudaMemcpy(p, data, n * es, cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemset(d_out, 0xAB, 8));
    /* asynchronous; the misaligned runs through gp_reduce_device (no pointer query) */
    s = mem == MEM_DEVICE ? gp_reduce(gpu, op, t, p, n, d_out, algo)
                          : gp_reduce_device(gpu, op, t, p, n, d_out, algo);
    if (s == GP_OK) s = gp_synchronize(gpu);
    CUDA_OK(cudaMemcpy(out, d_out, osz, cudaMemcpyDeviceToHost));
  }
  CHECK_MSG(s == GP_OK, "gpu %s %s %s n=%zu (%s): %s", gp_op_name(op), gp_dtype_name(t),
            gp_reduce_algo_name(algo), n, mem_name[mem], gp_last_error(gpu));
  *bits = rt_out_bits(op, t, out);
  return s == GP_OK;
}

static void compare_case(gp_dtype t, size_t n, int pat, const void *data, int mem) {
  for (size_t oi = 0; oi < 3; oi++) {
    gp_op op = rt_ops[oi];
    if (n == 0 && op != GP_SUM) continue;
    for (size_t ai = 0; ai < 5; ai++) {
      gp_reduce_algo algo = rt_algos[ai];
      unsigned char cout[8];
      CHECK_OK(cpu, gp_reduce(cpu, op, t, data, n, cout, algo));
      uint64_t want = rt_out_bits(op, t, cout), got;
      if (!gpu_run(op, t, data, n, algo, mem, &got)) continue;
      int is_float = t == GP_F32 || t == GP_F64;
      if (algo == GP_REDUCE_WARP_ATOMIC && op == GP_SUM && is_float && want != got) {
        /* atomic order varies: only a tolerance against the reference */
        rt_ref ref = rt_reference(op, t, data, n);
        double g;
        if (t == GP_F32) { float f; uint32_t u = (uint32_t)got; memcpy(&f, &u, 4); g = f; }
        else memcpy(&g, &got, 8);
        double tol = rt_sum_tol(t, algo, n, GP_TWO_PHASE_DEFAULT_BLOCKS, &ref);
        CHECK_MSG(ref.any_nan ? isnan(g) : fabs(g - (double)ref.sum) <= tol,
                  "warp-atomic sum %s n=%zu %s: %.17g vs %.17Lg", gp_dtype_name(t), n,
                  rt_pat_name[pat], g, ref.sum);
        continue;
      }
      CHECK_MSG(got == want, "%s %s %s n=%zu %s (%s): gpu %#llx != cpu %#llx", gp_op_name(op),
                gp_dtype_name(t), gp_reduce_algo_name(algo), n, rt_pat_name[pat],
                mem_name[mem], (unsigned long long)got, (unsigned long long)want);
    }
  }
}

static void test_matrix(void) {
  size_t sizes[80];
  size_t ns = 0;
  const size_t fixed[] = {0, 1, 2, 3, 31, 32, 33, 255, 256, 257, 1023, 1024, 1025, 2047,
                          2049, 4095, 4096, 4097, 12305};
  for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++) sizes[ns++] = fixed[i];
  for (unsigned k = 13; k <= (quick ? 16u : 22u); k += 3) {
    size_t p = (size_t)1 << k;
    sizes[ns++] = p - 1; sizes[ns++] = p; sizes[ns++] = p + 1;
  }
  check_seed(4242);
  for (int i = 0; i < (quick ? 2 : 5); i++)
    sizes[ns++] = 1 + (size_t)(check_rand64() % (quick ? 300000 : 3000000));
  unsigned char *buf = (unsigned char *)malloc(d_cap);
  for (size_t ti = 0; ti < 6; ti++) {
    gp_dtype t = rt_types[ti];
    for (size_t si = 0; si < ns; si++) {
      size_t n = sizes[si];
      for (int pat = 0; pat < PAT_COUNT; pat++) {
        if ((n > 70000 || quick) && pat != PAT_RANDOM && pat != (int)(si % PAT_COUNT)) continue;
        rt_fill(buf, t, n, pat, 5000 + si * 11 + (size_t)pat);
        int mem = (int)((si + (size_t)pat + ti) % MEM_KINDS);
        compare_case(t, n, pat, buf, mem);
      }
    }
  }
  free(buf);
}

/* NaN / inf / -0 on the GPU give the same canonical bits as on the CPU. */
static void test_specials(void) {
  const size_t sizes[] = {1, 300, 5000, 100003};
  for (size_t si = 0; si < 4; si++) {
    size_t n = sizes[si];
    float *f = (float *)malloc(n * sizeof *f);
    double *d = (double *)malloc(n * sizeof *d);
    for (int kind = 0; kind < 4; kind++) {
      for (size_t i = 0; i < n; i++) {
        f[i] = (float)(i % 11) - 5.0f;
        d[i] = f[i];
      }
      size_t at = n / 3;
      uint32_t nan32 = 0xffc00001u;
      uint64_t nan64 = 0xfff8000000000001ull;
      switch (kind) {
      case 0: memcpy(&f[at], &nan32, 4); memcpy(&d[at], &nan64, 8); break;
      case 1: f[at] = INFINITY; d[at] = -INFINITY; break;
      case 2: f[at] = INFINITY; f[n - 1] = -INFINITY; d[at] = INFINITY; d[0] = -INFINITY; break;
      default:
        for (size_t i = 0; i < n; i++) {
          f[i] = (i % 3) ? -0.0f : 0.0f;
          d[i] = (i % 2) ? 0.0 : -0.0;
        }
      }
      for (int mem = 0; mem < MEM_KINDS; mem++) {
        compare_case(GP_F32, n, PAT_CONST, f, mem);
        compare_case(GP_F64, n, PAT_CONST, d, mem);
      }
    }
    free(f);
    free(d);
  }
}

/* AUTO: same bits for every physical grid, for any two_phase_blocks setting, and on
 * every run; device memory in and out. */
static void test_grid_invariance_and_repeats(void) {
  const size_t ns[] = {1, 4097, 1000003, ((size_t)1 << 22) + 5, ((size_t)1 << 24) + 77};
  const size_t nk = quick ? 3 : 5, maxn = ns[nk - 1];
  float *f = (float *)malloc(maxn * sizeof *f);
  double *d = (double *)malloc(maxn * sizeof *d);
  check_seed(31337);
  for (size_t i = 0; i < maxn; i++) {
    f[i] = (float)((check_rand01() - 0.4) * ldexp(1.0, (int)(check_rand64() % 20)));
    d[i] = (check_rand01() - 0.4) * ldexp(1.0, (int)(check_rand64() % 40));
  }
  const unsigned grids[] = {0, 1, 7, 64, 132, 1000, 1024};
  const unsigned tp_blocks[] = {64, 1024, 8};
  for (size_t k = 0; k < nk; k++) {
    size_t n = ns[k];
    for (int is64 = 0; is64 < 2; is64++) {
      gp_dtype t = is64 ? GP_F64 : GP_F32;
      const void *data = is64 ? (const void *)d : (const void *)f;
      unsigned char cout[8];
      CHECK_OK(cpu, gp_reduce(cpu, GP_SUM, t, data, n, cout, GP_REDUCE_AUTO));
      uint64_t want = rt_out_bits(GP_SUM, t, cout), got;
      for (size_t g = 0; g < sizeof grids / sizeof grids[0]; g++) {
        gp_cuda_reduce_auto_force_grid(gpu, grids[g]);
        for (int rep = 0; rep < 2; rep++) {
          if (!gpu_run(GP_SUM, t, data, n, GP_REDUCE_AUTO, rep ? MEM_DEVICE_MISALIGNED : MEM_DEVICE,
                       &got))
            continue;
          CHECK_MSG(got == want, "auto %s n=%zu grid %u (run %d): %#llx != cpu %#llx",
                    gp_dtype_name(t), n, grids[g], rep, (unsigned long long)got,
                    (unsigned long long)want);
        }
      }
      gp_cuda_reduce_auto_force_grid(gpu, 0);
      for (size_t b = 0; b < 3; b++) {
        CHECK_OK(gpu, gp_set_two_phase_blocks(gpu, tp_blocks[b]));
        CHECK_OK(cpu, gp_set_two_phase_blocks(cpu, tp_blocks[b]));
        if (gpu_run(GP_SUM, t, data, n, GP_REDUCE_AUTO, MEM_HOST, &got))
          CHECK_MSG(got == want, "auto with two_phase_blocks %u differs", tp_blocks[b]);
        /* TWO_PHASE honours the setting on both backends, bit for bit */
        CHECK_OK(cpu, gp_reduce(cpu, GP_SUM, t, data, n, cout, GP_REDUCE_TWO_PHASE));
        uint64_t tp_want = rt_out_bits(GP_SUM, t, cout);
        for (int rep = 0; rep < 2; rep++)
          if (gpu_run(GP_SUM, t, data, n, GP_REDUCE_TWO_PHASE, MEM_DEVICE, &got))
            CHECK_MSG(got == tp_want, "two-phase %u blocks n=%zu: %#llx != %#llx", tp_blocks[b],
                      n, (unsigned long long)got, (unsigned long long)tp_want);
      }
      CHECK_OK(gpu, gp_set_two_phase_blocks(gpu, 0));
      CHECK_OK(cpu, gp_set_two_phase_blocks(cpu, 0));
      /* every named algorithm: same bits on repeated runs (warp-atomic: integers only) */
      for (size_t ai = 1; ai < 4; ai++) {
        uint64_t first = 0;
        for (int rep = 0; rep < 3; rep++) {
          if (!gpu_run(GP_SUM, t, data, n, rt_algos[ai], MEM_DEVICE, &got)) break;
          if (rep == 0) first = got;
          CHECK_MSG(got == first, "%s n=%zu run %d differs", gp_reduce_algo_name(rt_algos[ai]), n, rep);
        }
      }
    }
  }
  free(f);
  free(d);
}

/* Managed memory for input and output; a stream of our own. */
static void test_managed_and_stream(void) {
  size_t n = 123457;
  double *m_in = NULL, *m_out = NULL;
  if (cudaMallocManaged((void **)&m_in, n * sizeof *m_in, cudaMemAttachGlobal) != cudaSuccess ||
      cudaMallocManaged((void **)&m_out, sizeof *m_out, cudaMemAttachGlobal) != cudaSuccess) {
    (void)cudaGetLastError();
    printf("managed memory unavailable: skipped\n");
    return;
  }
  for (size_t i = 0; i < n; i++) m_in[i] = (double)(i % 1000) * 0.001 - 0.3;
  for (size_t ai = 0; ai < 5; ai++) {
    double want;
    CHECK_OK(cpu, gp_reduce(cpu, GP_MAX, GP_F64, m_in, n, &want, rt_algos[ai]));
    *m_out = -1;
    CHECK_OK(gpu, gp_reduce(gpu, GP_MAX, GP_F64, m_in, n, m_out, rt_algos[ai]));
    CHECK_OK(gpu, gp_synchronize(gpu));
    CHECK(*m_out == want);
    CHECK_OK(cpu, gp_reduce(cpu, GP_SUM, GP_F64, m_in, n, &want, GP_REDUCE_AUTO));
    CHECK_OK(gpu, gp_reduce(gpu, GP_SUM, GP_F64, m_in, n, m_out, GP_REDUCE_AUTO));
    CHECK_OK(gpu, gp_synchronize(gpu));
    CHECK(rt_f64_bits(*m_out) == rt_f64_bits(want));
  }
  cudaStream_t st;
  CUDA_OK(cudaStreamCreate(&st));
  CHECK_OK(gpu, gp_set_stream(gpu, st));
  double h = 0, want = 0;
  CHECK_OK(cpu, gp_reduce(cpu, GP_SUM, GP_F64, m_in, n, &want, GP_REDUCE_AUTO));
  CHECK_OK(gpu, gp_reduce(gpu, GP_SUM, GP_F64, m_in, n, &h, GP_REDUCE_AUTO));
  CHECK(rt_f64_bits(h) == rt_f64_bits(want));
  CHECK_OK(gpu, gp_set_stream(gpu, NULL));
  CUDA_OK(cudaStreamDestroy(st));
  cudaFree(m_in);
  cudaFree(m_out);
}

/* gp_reduce_device: managed memory, and under GPUPRIMS_DEBUG_SYNC=1 (set before the
 * context is created) a host pointer for in or out is refused, naming it. */
static void test_device_api(void) {
  const size_t n = 100003;
  double *m = NULL, want = 0, h = 0;
  if (cudaMallocManaged((void **)&m, (n + 1) * sizeof *m, cudaMemAttachGlobal) != cudaSuccess) {
    (void)cudaGetLastError();
    printf("managed memory unavailable: gp_reduce_device's managed case skipped\n");
  } else {
    for (size_t i = 0; i < n; i++) m[i] = (double)(i % 977) * 0.37 - 41.0;
    CHECK_OK(cpu, gp_reduce(cpu, GP_SUM, GP_F64, m, n, &want, GP_REDUCE_AUTO));
    CHECK_OK(gpu, gp_reduce_device(gpu, GP_SUM, GP_F64, m, n, m + n, GP_REDUCE_AUTO));
    CHECK_OK(gpu, gp_synchronize(gpu));
    CHECK(rt_f64_bits(m[n]) == rt_f64_bits(want));
  }
  setenv("GPUPRIMS_DEBUG_SYNC", "1", 1);
  gp_context *dbg = NULL;
  gp_status s = gp_create(&dbg, GP_BACKEND_CUDA);
  unsetenv("GPUPRIMS_DEBUG_SYNC");
  CHECK_MSG(s == GP_OK, "debug context: %s", gp_last_error(dbg));
  if (s == GP_OK) {
    CUDA_OK(cudaMemset(d_buf, 0, 64 * sizeof(double)));
    s = gp_reduce_device(dbg, GP_SUM, GP_F64, d_buf, 64, &h, GP_REDUCE_AUTO);
    CHECK_MSG(s == GP_ERR_INVALID_ARGUMENT && strstr(gp_last_error(dbg), "out ("),
              "host out: %s", gp_last_error(dbg));
    s = gp_reduce_device(dbg, GP_SUM, GP_F64, &want, 1, d_out, GP_REDUCE_AUTO);
    CHECK_MSG(s == GP_ERR_INVALID_ARGUMENT && strstr(gp_last_error(dbg), "in ("),
              "host in: %s", gp_last_error(dbg));
    CHECK_OK(dbg, gp_reduce_device(dbg, GP_SUM, GP_F64, d_buf, 64, d_out, GP_REDUCE_AUTO));
  }
  gp_destroy(dbg);
  if (m) cudaFree(m);
}

/* More than 2^32 elements: U32 bytes all 0x01, filled on the device. */
static void test_large(void) {
  const char *env = getenv("GP_TEST_LARGE");
  if ((env && strcmp(env, "0") == 0) || quick) {
    printf("GP_TEST_LARGE=0 or GP_TEST_QUICK=1: skipping the > 2^32-element case\n");
    return;
  }
  size_t n = ((size_t)1 << 32) + 3;
  unsigned char *big = NULL;
  if (cudaMalloc((void **)&big, (n + 1) * 4) != cudaSuccess) {
    (void)cudaGetLastError();
    printf("cannot allocate %zu bytes: skipping the > 2^32-element case\n", (n + 1) * 4);
    return;
  }
  CUDA_OK(cudaMemset(big, 0x01, (n + 1) * 4));
  const uint64_t v = 0x01010101u;
  const gp_reduce_algo algos[] = {GP_REDUCE_AUTO, GP_REDUCE_SEQUENTIAL, GP_REDUCE_TWO_PHASE,
                                  GP_REDUCE_WARP_ATOMIC};
  for (size_t ai = 0; ai < 4; ai++) {
    uint64_t sum = 0;
    CHECK_OK(gpu, gp_reduce(gpu, GP_SUM, GP_U32, big, n, &sum, algos[ai]));
    CHECK_MSG(sum == (uint64_t)n * v, "%s: sum of 2^32+3 elements = %llu, expected %llu",
              gp_reduce_algo_name(algos[ai]), (unsigned long long)sum,
              (unsigned long long)((uint64_t)n * v));
  }
  /* misaligned, and the last element distinct so it must be read */
  uint32_t last = 0x7fffffffu;
  CUDA_OK(cudaMemcpy(big + n * 4, &last, 4, cudaMemcpyHostToDevice));
  uint32_t mx = 0;
  CHECK_OK(gpu, gp_reduce(gpu, GP_MAX, GP_U32, big + 4, n, &mx, GP_REDUCE_AUTO));
  CHECK_EQ_U64(mx, last);
  int64_t isum = 0;
  CHECK_OK(gpu, gp_reduce(gpu, GP_SUM, GP_I32, big + 4, n, &isum, GP_REDUCE_AUTO));
  CHECK_EQ_I64(isum, (int64_t)((uint64_t)(n - 1) * v + last));
  cudaFree(big);
}

/* Float MIN/MAX on AUTO run on order-preserving integer keys (reduce_tree.h): same bits
 * as the CPU for NaNs of either sign and payload anywhere (first, last, in the partial
 * tile), -0 vs +0 as the extreme, +-inf, subnormals, over several tiles per virtual
 * block and every forced grid (a small grid runs many virtual blocks per block, which
 * exercises the prefetch of the next virtual block's first tile). */
static void test_minmax_keys(void) {
  const size_t ns[] = {5, 4097, 70001, 1000003, ((size_t)1 << 22) + 5};
  const size_t nk = quick ? 3 : 5, maxn = ns[nk - 1];
  float *f = (float *)malloc(maxn * sizeof *f);
  double *d = (double *)malloc(maxn * sizeof *d);
  const unsigned grids[] = {0, 1, 3, 132, 1024};
  for (size_t k = 0; k < nk; k++) {
    size_t n = ns[k];
    for (int kind = 0; kind < 6; kind++) {
      check_seed(4242 + (uint64_t)kind * 17 + k);
      for (size_t i = 0; i < n; i++) {
        double r = (check_rand01() - 0.5) * ldexp(1.0, (int)(check_rand64() % 60) - 30);
        f[i] = (float)r;
        d[i] = r;
      }
      size_t at = (size_t)(check_rand64() % n);
      switch (kind) {
      case 0: break; /* plain random */
      case 1: { /* a positive quiet NaN with a payload, somewhere */
        uint32_t q32 = 0x7fc01234u;
        uint64_t q64 = 0x7ff8000000001234ull;
        memcpy(&f[at], &q32, 4);
        memcpy(&d[at], &q64, 8);
        break;
      }
      case 2: { /* signalling-pattern NaNs of both signs in the last element and first */
        uint32_t s32 = 0x7f800001u, t32 = 0xff800003u;
        uint64_t s64 = 0x7ff0000000000001ull, t64 = 0xfff0000000000003ull;
        memcpy(&f[n - 1], &s32, 4); memcpy(&d[n - 1], &s64, 8);
        memcpy(&f[0], &t32, 4); memcpy(&d[0], &t64, 8);
        break;
      }
      case 3: /* zeros of both signs and positives: MIN = -0 (one -0, late) */
      case 4: /* zeros of both signs and negatives: MAX = +0 (one +0, late) */
        for (size_t i = 0; i < n; i++) {
          f[i] = kind == 3 ? (i % 5 ? 1.5f : 0.0f) : (i % 5 ? -1.5f : -0.0f);
          d[i] = f[i];
        }
        f[n - 1 - at / 2] = kind == 3 ? -0.0f : 0.0f;
        d[at] = kind == 3 ? -0.0 : 0.0;
        break;
      default: /* +-inf and subnormals at the extremes */
        f[at] = -INFINITY; d[n - 1] = INFINITY;
        f[n - 1] = 1e-45f; d[0] = -4.9e-324;
      }
      for (int is64 = 0; is64 < 2; is64++) {
        gp_dtype t = is64 ? GP_F64 : GP_F32;
        const void *data = is64 ? (const void *)d : (const void *)f;
        for (int oi = 1; oi <= 2; oi++) {
          gp_op op = oi == 1 ? GP_MIN : GP_MAX;
          unsigned char cout[8];
          CHECK_OK(cpu, gp_reduce(cpu, op, t, data, n, cout, GP_REDUCE_AUTO));
          uint64_t want = rt_out_bits(op, t, cout), got;
          for (size_t g = 0; g < sizeof grids / sizeof grids[0]; g++) {
            gp_cuda_reduce_auto_force_grid(gpu, grids[g]);
            for (int mem = MEM_DEVICE; mem <= MEM_DEVICE_MISALIGNED; mem++)
              if (gpu_run(op, t, data, n, GP_REDUCE_AUTO, mem, &got))
                CHECK_MSG(got == want, "keyed %s %s n=%zu kind %d grid %u %s: %#llx != cpu %#llx",
                          gp_op_name(op), gp_dtype_name(t), n, kind, grids[g], mem_name[mem],
                          (unsigned long long)got, (unsigned long long)want);
          }
          gp_cuda_reduce_auto_force_grid(gpu, 0);
        }
      }
    }
  }
  free(f);
  free(d);
}

int main(void) {
  gpu = check_gpu_context_or_skip("test_reduce_gpu");
  cpu = check_cpu_context();
  const char *q = getenv("GP_TEST_QUICK");
  quick = q && strcmp(q, "0") != 0;
  d_cap = ((size_t)1 << 25) * 8 + 64;
  CUDA_OK(cudaMalloc((void **)&d_buf, d_cap));
  CUDA_OK(cudaMalloc(&d_out, 16));
  test_specials();
  test_minmax_keys();
  test_grid_invariance_and_repeats();
  test_managed_and_stream();
  test_device_api();
  test_matrix();
  test_large();
  cudaFree(d_buf);
  cudaFree(d_out);
  gp_destroy(cpu);
  gp_destroy(gpu);
  return check_summary("test_reduce_gpu");
}
#else
int main(void) {
  gp_context *ctx = check_gpu_context_or_skip("test_reduce_gpu");
  gp_destroy(ctx);
  return 0;
}
#endif
