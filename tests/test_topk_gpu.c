/* gp_topk on the CUDA backend: tests/topk_cases.h against an insertion reference (each
 * call also made with input and outputs in device memory, which must agree); then the
 * radix select's branches on larger arrays (every dtype and order, k from 1 past the
 * cut-over to n, thousands of ties at the k-th key, constant data, NaN/-0/inf, keys whose
 * top bits all agree, a bucket that ends exactly at k, uniform [0,1) floats, host, device
 * and misaligned device input), each result checked against the CPU backend bit for bit
 * and by an O(n) check of its own (tk_verify: no key encoding). Exits 77 where no GPU is
 * usable. The select's prefilter (n >= GP_CUDA_TOPK_PRE_MIN_N) is checked directly too:
 * the path it took, its fallbacks, and every dtype at its smallest n. */
#if GP_HAVE_CUDA
#include "topk_cases.h"
#include "cuda/reduce/topk_cuda.h" /* GP_CUDA_TOPK_SELECT_DIV: k is tested on both sides */
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

/* ---- the radix select's branches ---------------------------------------------------- */

/* Element i before j in the wanted order: integers by tk_before (topk_cases.h); floats by
 * IEEE 754 totalOrder on their bits written as sign and magnitude, which also orders
 * NaNs by payload, as the library's total order does (tk_before holds all NaNs of one
 * sign equal, right only for the canonical NaNs of the small cases). No key encoding. */
static int tk_tot_before(gp_dtype t, const void *x, size_t i, size_t j, gp_order order) {
  if (t != GP_F32 && t != GP_F64) return tk_before(t, x, i, j, order);
  const size_t a = order == GP_DESCENDING ? j : i, b = order == GP_DESCENDING ? i : j;
  uint64_t p, q, sign;
  if (t == GP_F32) {
    p = ((const uint32_t *)x)[a];
    q = ((const uint32_t *)x)[b];
    sign = (uint64_t)1 << 31;
  } else {
    p = ((const uint64_t *)x)[a];
    q = ((const uint64_t *)x)[b];
    sign = (uint64_t)1 << 63;
  }
  if ((p & sign) != (q & sign)) return (p & sign) != 0; /* negative first */
  return (p & sign) ? p > q : p < q;                    /* larger magnitude is lower when negative */
}

/* One result on its own terms (tk_tot_before, no key encoding): k distinct indices
 * below n, each value the input's bits, in the wanted order with equal elements by
 * index, and no element left out before the last one taken (or equal to it with a
 * lower index). */
static int tk_verify(gp_dtype t, const void *x, size_t n, size_t k, gp_order order,
                     const unsigned char *v, const uint64_t *idx) {
  const size_t es = gp_dtype_size(t);
  unsigned char *taken = (unsigned char *)calloc(n, 1);
  int ok = taken != NULL;
  for (size_t j = 0; ok && j < k; j++) {
    ok = idx[j] < n && !taken[idx[j]] && memcmp(v + j * es, (const char *)x + idx[j] * es, es) == 0;
    if (ok) taken[idx[j]] = 1;
    if (ok && j > 0) {
      const size_t p = (size_t)idx[j - 1], q = (size_t)idx[j];
      ok = !tk_tot_before(t, x, q, p, order) && (tk_tot_before(t, x, p, q, order) || p < q);
    }
  }
  const size_t last = ok ? (size_t)idx[k - 1] : 0;
  for (size_t i = 0; ok && i < n; i++)
    if (!taken[i]) ok = !tk_tot_before(t, x, i, last, order) && (tk_tot_before(t, x, last, i, order) || i > last);
  free(taken);
  return ok;
}

static int tk_calls; /* GPU calls checked */

/* gp_topk on the GPU of x (host memory), and of a device copy (at offset `shift`
 * elements: 1 gives an input that is not 16-byte aligned), for every k of ks (each
 * <= n), both orders, against the CPU backend's largest k (whose first k are the answer
 * for a smaller k) and tk_verify. */
static void tk_big(const char *name, gp_dtype t, const void *x, size_t n, const size_t *ks,
                   int nk, int shift) {
  const size_t es = gp_dtype_size(t);
  size_t kmax = 0;
  for (int i = 0; i < nk; i++) kmax = ks[i] > kmax ? ks[i] : kmax;
  unsigned char *vref = (unsigned char *)malloc(kmax * es), *v = (unsigned char *)malloc(kmax * es);
  uint64_t *iref = (uint64_t *)malloc(kmax * 8), *ix = (uint64_t *)malloc(kmax * 8);
  char *d_buf = NULL;
  CUDA_OK(cudaMalloc((void **)&d_buf, (n + (size_t)shift) * es));
  void *d_x = d_buf + (size_t)shift * es;
  CUDA_OK(cudaMemcpy(d_x, x, n * es, cudaMemcpyHostToDevice));
  unsigned char *d_v = NULL;
  uint64_t *d_i = NULL;
  CUDA_OK(cudaMalloc((void **)&d_v, kmax * es));
  CUDA_OK(cudaMalloc((void **)&d_i, kmax * 8));
  for (int oi = 0; oi < 2; oi++) {
    const gp_order order = oi ? GP_DESCENDING : GP_ASCENDING;
    const char *on = oi ? "largest" : "smallest";
    CHECK_OK(cpu, gp_topk(cpu, t, x, n, kmax, order, vref, iref));
    for (int ki = 0; ki < nk; ki++) {
      const size_t k = ks[ki];
      for (int dev = 0; dev < 2; dev++) {
        memset(v, 0xA5, k * es);
        memset(ix, 0xA5, k * 8);
        gp_status s;
        if (dev) {
          s = gp_topk(gpu, t, d_x, n, k, order, d_v, d_i);
          if (s == GP_OK) {
            CUDA_OK(cudaMemcpy(v, d_v, k * es, cudaMemcpyDeviceToHost));
            CUDA_OK(cudaMemcpy(ix, d_i, k * 8, cudaMemcpyDeviceToHost));
          }
        } else {
          s = gp_topk(gpu, t, x, n, k, order, v, ix);
        }
        CHECK_MSG(s == GP_OK, "%s %s n=%zu k=%zu %s (%s input): %s", name, gp_dtype_name(t), n, k, on,
                  dev ? "device" : "host", gp_last_error(gpu));
        if (s != GP_OK) continue;
        tk_calls++;
        size_t bad = 0, first = k;
        for (size_t j = 0; j < k; j++)
          if (ix[j] != iref[j] || memcmp(v + j * es, vref + j * es, es) != 0) {
            if (first == k) first = j;
            bad++;
          }
        CHECK_MSG(bad == 0, "%s %s n=%zu k=%zu %s (%s input%s): %zu of %zu differ from the CPU "
                  "backend, first at %zu: index %llu vs %llu", name, gp_dtype_name(t), n, k, on,
                  dev ? "device" : "host", dev && shift ? ", misaligned" : "", bad, k, first,
                  (unsigned long long)(first < k ? ix[first] : 0),
                  (unsigned long long)(first < k ? iref[first] : 0));
        CHECK_MSG(tk_verify(t, x, n, k, order, v, ix), "%s %s n=%zu k=%zu %s (%s input): "
                  "tk_verify failed", name, gp_dtype_name(t), n, k, on, dev ? "device" : "host");
      }
    }
  }
  cudaFree(d_buf);
  cudaFree(d_v);
  cudaFree(d_i);
  free(vref);
  free(v);
  free(iref);
  free(ix);
}

/* value v (an integer pattern) as element i of type t */
static void tk_put(gp_dtype t, void *x, size_t i, int64_t v) {
  switch (t) {
  case GP_F32: ((float *)x)[i] = (float)v; break;
  case GP_F64: ((double *)x)[i] = (double)v * 0.5; break;
  case GP_I32: ((int32_t *)x)[i] = (int32_t)v; break;
  case GP_I64: ((int64_t *)x)[i] = v * 3; break;
  case GP_U32: ((uint32_t *)x)[i] = (uint32_t)(v + 1000); break;
  default: ((uint64_t *)x)[i] = (uint64_t)(v + 1000); break;
  }
}
/* raw bits as element i */
static void tk_put_bits(gp_dtype t, void *x, size_t i, uint64_t b) {
  if (gp_dtype_size(t) == 4) ((uint32_t *)x)[i] = (uint32_t)b;
  else ((uint64_t *)x)[i] = b;
}

static void test_select_branches(void) {
  const gp_dtype types[] = {GP_F32, GP_F64, GP_I32, GP_I64, GP_U32, GP_U64};
  const size_t n = 300007; /* odd, prime: no tile or vector divides it */
  const size_t ks[] = {1, 16, 1024, 4096, n / GP_CUDA_TOPK_SELECT_DIV, n / GP_CUDA_TOPK_SELECT_DIV + 1, n};
  unsigned char *x = (unsigned char *)malloc(n * 8);
  for (int ti = 0; ti < 6; ti++) {
    const gp_dtype t = types[ti];
    const size_t es = gp_dtype_size(t);
    const int wide = es == 8;
    check_seed(4100 + (uint64_t)ti);
    /* random bits: floats get NaNs of both signs, infinities and subnormals too */
    for (size_t i = 0; i < n; i++) tk_put_bits(t, x, i, check_rand64());
    tk_big("random bits", t, x, n, ks, 7, 0);
    /* values 0..99 (signed: -50..49): the k-th key repeats ~3000 times */
    for (size_t i = 0; i < n; i++) tk_put(t, x, i, (int64_t)(check_rand64() % 100) - (t == GP_U32 || t == GP_U64 ? 0 : 50));
    tk_big("100 values", t, x, n, ks, 7, 1);
    /* values 0..2: ties fill whole digits */
    for (size_t i = 0; i < n; i++) tk_put(t, x, i, (int64_t)(check_rand64() % 3));
    tk_big("3 values", t, x, n, ks, 6, 0);
    /* every key equal */
    for (size_t i = 0; i < n; i++) tk_put(t, x, i, -7);
    tk_big("constant", t, x, n, ks, 7, 0);
    /* the top 44 (64-bit) or 20 (32-bit) bits of every key agree: the first rounds keep
       every element as a candidate, later ones copy the few left */
    for (size_t i = 0; i < n; i++) {
      const uint64_t r = check_rand64();
      tk_put_bits(t, x, i, wide ? 0x3FF0123456700000ull | (r & 0xFFFFF) : 0x3F812000u | (uint32_t)(r & 0xFFF));
    }
    tk_big("top bits agree", t, x, n, ks, 6, 1);
    /* specials: NaN of both signs, +-inf, -0 and +0 (floats), extremes (integers) among
       random values, with many of each */
    for (size_t i = 0; i < n; i++) {
      const uint64_t r = check_rand64();
      const int c = (int)(r % 8);
      if (t == GP_F32) {
        const float sp[] = {NAN, -NAN, INFINITY, -INFINITY, -0.0f, 0.0f};
        ((float *)x)[i] = c < 6 ? sp[c] : (float)((int64_t)(r >> 40) - (1 << 23)) * 0.001f;
      } else if (t == GP_F64) {
        const double sp[] = {NAN, -NAN, INFINITY, -INFINITY, -0.0, 0.0};
        ((double *)x)[i] = c < 6 ? sp[c] : (double)((int64_t)(r >> 20) - ((int64_t)1 << 43)) * 1e-6;
      } else {
        const uint64_t sp[] = {0, ~0ull, wide ? 0x8000000000000000ull : 0x80000000u,
                               wide ? 0x7FFFFFFFFFFFFFFFull : 0x7FFFFFFFu, 1, 2};
        tk_put_bits(t, x, i, c < 6 ? sp[c] : r >> 3);
      }
    }
    tk_big("specials", t, x, n, ks, 7, 0);
  }
  /* a first-digit bucket that ends exactly at k: element i is (i % 8192) in the top 13
     bits, so the 2 smallest buckets hold exactly k elements (and the 2 largest) */
  for (int wide = 0; wide < 2; wide++) {
    const gp_dtype t = wide ? GP_U64 : GP_U32;
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
      tk_put_bits(t, x, i, (uint64_t)(i % 8192) << (wide ? 51 : 19));
      k += i % 8192 < 2;
    }
    const size_t kb[] = {k, k - 1, k + 1};
    tk_big("bucket ends at k", t, x, n, kb, 3, 0);
  }
  free(x);
}

/* Uniform [0,1) (torch.rand's 24-bit f32 grid, and f64 of 53 bits): the first digit leaves
 * 1/32 of the data in the top bucket (the case the candidate buffers are for). */
static void test_uniform(void) {
  const size_t n = ((size_t)1 << 22) + 5;
  const size_t ks[] = {1, 16, 1024, 4096};
  float *f = (float *)malloc(n * sizeof *f);
  double *d = (double *)malloc(n * sizeof *d);
  check_seed(77);
  for (size_t i = 0; i < n; i++) {
    const uint64_t r = check_rand64();
    f[i] = (float)(r >> 40) * 0x1.0p-24f;
    d[i] = (double)(r >> 11) * 0x1.0p-53;
  }
  tk_big("uniform [0,1)", GP_F32, f, n, ks, 4, 0);
  tk_big("uniform [0,1)", GP_F64, d, n, ks, 4, 0);
  free(f);
  free(d);
}

/* The select's prefilter (topk_cuda.h), called directly: the path the rounds took (the
 * scratch's second 8 bytes) for data where it holds the answer, where the sample's
 * threshold keeps fewer than k (its elements are the smallest: the "trap"), and where it
 * keeps too many (constant data; the trap in the other order); each through gp_topk
 * against the CPU backend too. */
static size_t tk_pre_slots(gp_dtype t, const void *d_x, size_t n, size_t k, int largest,
                           uint64_t *nout) {
  const size_t es = gp_dtype_size(t);
  void *scr = NULL, *d_k = NULL;
  uint64_t *d_i = NULL, head[2] = {0, 0};
  CUDA_OK(cudaMalloc(&scr, gp_cuda_topk_select_scratch_bytes(gpu, t, n)));
  CUDA_OK(cudaMalloc(&d_k, k * es));
  CUDA_OK(cudaMalloc((void **)&d_i, k * 8));
  CHECK_OK(gpu, gp_cuda_topk_select(gpu, t, d_x, n, k, largest, scr, d_k, d_i));
  CUDA_OK(cudaDeviceSynchronize());
  CUDA_OK(cudaMemcpy(head, scr, sizeof head, cudaMemcpyDeviceToHost));
  cudaFree(scr);
  cudaFree(d_k);
  cudaFree(d_i);
  *nout = head[0];
  return (size_t)head[1];
}

static void test_prefilter(void) {
  const size_t n = ((size_t)1 << 22) + 5, M = GP_CUDA_TOPK_SAMPLE;
  float *f = (float *)malloc(n * sizeof *f);
  float *d_f = NULL;
  CUDA_OK(cudaMalloc((void **)&d_f, n * sizeof *f));
  uint64_t nout = 0;
  size_t slots;
  CHECK(gp_cuda_topk_pre_rank(n, 16) >= 0 && gp_cuda_topk_pre_rank(n, 1024) >= 0 &&
        gp_cuda_topk_pre_rank(n, n / 16) < 0 && gp_cuda_topk_pre_rank(1000, 1) < 0);

  check_seed(91);
  for (size_t i = 0; i < n; i++) f[i] = (float)(check_rand64() >> 40) * 0x1.0p-24f;
  CUDA_OK(cudaMemcpy(d_f, f, n * sizeof *f, cudaMemcpyHostToDevice));
  for (int largest = 0; largest < 2; largest++) {
    slots = tk_pre_slots(GP_F32, d_f, n, 1024, largest, &nout);
    CHECK_MSG(nout == 1024 && slots >= 1024 && slots < n / 16,
              "uniform, k = 1024, largest %d: prefilter slots %zu (want 1024 .. n/16), %llu found",
              largest, slots, (unsigned long long)nout);
  }

  /* the trap: the sampled elements hold 0 .. M-1, every other one 1e6 and more */
  for (size_t i = 0; i < n; i++) f[i] = 1e6f + (float)(i % 1000);
  for (size_t j = 0; j < M; j++) f[(uint64_t)j * n / M] = (float)j;
  CUDA_OK(cudaMemcpy(d_f, f, n * sizeof *f, cudaMemcpyHostToDevice));
  const int r16 = gp_cuda_topk_pre_rank(n, 16), r1k = gp_cuda_topk_pre_rank(n, 1024);
  slots = tk_pre_slots(GP_F32, d_f, n, 16, 0, &nout);
  CHECK_MSG(nout == 16 && slots >= (size_t)r16 + 1 && slots < n / 16,
            "trap, k = 16: prefilter slots %zu (its %d candidates), %llu found", slots, r16 + 1,
            (unsigned long long)nout);
  CHECK_MSG(r1k + 1 < 1024, "the trap keeps %d < k = 1024", r1k + 1);
  slots = tk_pre_slots(GP_F32, d_f, n, 1024, 0, &nout);
  CHECK_MSG(nout == 1024 && slots == 0, "trap, k = 1024: slots %zu (want 0: too few), %llu found",
            slots, (unsigned long long)nout);
  slots = tk_pre_slots(GP_F32, d_f, n, 16, 1, &nout);
  CHECK_MSG(nout == 16 && slots == 0, "trap, largest: slots %zu (want 0: too many), %llu found",
            slots, (unsigned long long)nout);
  const size_t ks[] = {1, 16, 1024, 4096};
  tk_big("sample trap", GP_F32, f, n, ks, 4, 1);

  for (size_t i = 0; i < n; i++) f[i] = 2.5f;
  CUDA_OK(cudaMemcpy(d_f, f, n * sizeof *f, cudaMemcpyHostToDevice));
  slots = tk_pre_slots(GP_F32, d_f, n, 16, 0, &nout);
  CHECK_MSG(nout == 16 && slots == 0, "constant: slots %zu (want 0: too many), %llu found", slots,
            (unsigned long long)nout);
  cudaFree(d_f);
  free(f);

  /* every dtype at the prefilter's smallest n: random bits (floats: NaNs of both signs,
     infinities, subnormals), then 100 values (the threshold's key repeats) */
  const gp_dtype types[] = {GP_F32, GP_F64, GP_I32, GP_I64, GP_U32, GP_U64};
  const size_t m = GP_CUDA_TOPK_PRE_MIN_N + 3;
  const size_t km[] = {1, 16, 1024};
  CHECK(gp_cuda_topk_pre_rank(m, 1024) >= 0);
  unsigned char *x = (unsigned char *)malloc(m * 8);
  for (int ti = 0; ti < 6; ti++) {
    check_seed(9100 + (uint64_t)ti);
    for (size_t i = 0; i < m; i++) tk_put_bits(types[ti], x, i, check_rand64());
    tk_big("prefilter, random bits", types[ti], x, m, km, 3, ti & 1);
    for (size_t i = 0; i < m; i++) tk_put(types[ti], x, i, (int64_t)(check_rand64() % 100));
    tk_big("prefilter, 100 values", types[ti], x, m, km, 3, 0);
  }
  free(x);
}

/* One output array alone (values or indices NULL) on the select path. */
static void test_one_output(void) {
  const size_t n = 100003, k = 100;
  int32_t *x = (int32_t *)malloc(n * 4), v[100], v2[100];
  uint64_t i1[100], i2[100];
  check_seed(5);
  for (size_t i = 0; i < n; i++) x[i] = (int32_t)(check_rand64() % 1000);
  CHECK_OK(gpu, gp_topk(gpu, GP_I32, x, n, k, GP_DESCENDING, v, i1));
  CHECK_OK(gpu, gp_topk(gpu, GP_I32, x, n, k, GP_DESCENDING, v2, NULL));
  CHECK_OK(gpu, gp_topk(gpu, GP_I32, x, n, k, GP_DESCENDING, NULL, i2));
  CHECK(memcmp(v, v2, sizeof v) == 0 && memcmp(i1, i2, sizeof i1) == 0);
  CHECK(v[0] == 999 && v[k - 1] <= v[0]);
  free(x);
}

int main(void) {
  gpu = check_gpu_context_or_skip("test_topk_gpu");
  cpu = check_cpu_context();
  tk_test_matrix();
  test_large();
  test_one_output();
  test_select_branches();
  test_uniform();
  test_prefilter();
  printf("test_topk_gpu: %d GPU results checked on larger arrays\n", tk_calls);
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
