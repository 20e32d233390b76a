/* gp_argreduce on the CUDA backend: tests/argreduce_cases.h against a plain loop, each
 * case run from host memory and from device memory (aligned or not, device outputs),
 * which must agree; then a large array against the CPU backend. gp_argreduce_rows and
 * gp_argreduce_segments_offsets (every dtype and pattern, short rows, split long rows
 * and segments, one huge row) against the CPU backend and the plain loop, from host and
 * device memory. GP_TEST_QUICK=1 (for compute-sanitizer) leaves out the 2^27-element
 * case. Exits 77 where no GPU is usable. */
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

/* One per-segment call (offsets NULL: nseg rows of len) on the GPU, against the CPU
 * backend's answers and each segment's plain-loop index: from host memory, with each
 * output alone, and from device memory (the input 16-byte aligned, or one element past
 * it when `shift`; outputs on the device). */
static int seg_case(gp_op op, gp_dtype t, const unsigned char *x, const uint64_t *off,
                    size_t nseg, size_t len, int shift, const char *what) {
  const size_t es = gp_dtype_size(t), total = off ? (size_t)off[nseg] : nseg * len;
  unsigned char *ve = malloc(nseg * es), *vg = malloc(nseg * es);
  uint64_t *ie = malloc(nseg * 8), *ig = malloc(nseg * 8);
  int bad = 0;
#define SEG_CALL(ctx, in, v, i)                                                          \
  (off ? gp_argreduce_segments_offsets(ctx, op, t, in, off, nseg, v, i)                 \
       : gp_argreduce_rows(ctx, op, t, in, nseg, len, v, i))
  CHECK_OK(cpu, SEG_CALL(cpu, x, ve, ie));
  for (size_t s = 0; s < nseg && !bad; s++) {
    const size_t b = off ? (size_t)off[s] : s * len, n = off ? (size_t)(off[s + 1] - b) : len;
    if (ie[s] != ac_ref(op, t, x + b * es, n)) {
      CHECK_MSG(0, "%s: the CPU backend's segment %zu differs from the plain loop", what, s);
      bad = 1;
    }
  }
  memset(vg, 0xAB, nseg * es);
  memset(ig, 0xAB, nseg * 8);
  CHECK_OK(gpu, SEG_CALL(gpu, x, vg, ig));
  for (size_t s = 0; s < nseg && !bad; s++)
    if (ig[s] != ie[s] || memcmp(vg + s * es, ve + s * es, es)) {
      CHECK_MSG(0, "%s (host memory): segment %zu gives index %llu, want %llu", what, s,
                (unsigned long long)ig[s], (unsigned long long)ie[s]);
      bad = 1;
    }
  memset(ig, 0xAB, nseg * 8);
  CHECK_OK(gpu, SEG_CALL(gpu, x, NULL, ig));
  if (!bad && memcmp(ig, ie, nseg * 8)) {
    CHECK_MSG(0, "%s (index alone) differs", what);
    bad = 1;
  }
  memset(vg, 0xAB, nseg * es);
  CHECK_OK(gpu, SEG_CALL(gpu, x, vg, NULL));
  if (!bad && memcmp(vg, ve, nseg * es)) {
    CHECK_MSG(0, "%s (value alone) differs", what);
    bad = 1;
  }
  const size_t lead = shift ? es : 0;
  if (!bad && (total + 1) * es + nseg * (es + 8) <= d_cap) {
    unsigned char *d_x = d_buf, *d_v = d_buf + ((total + 1) * es + 15) / 16 * 16;
    uint64_t *d_i = (uint64_t *)(d_v + (nseg * es + 15) / 16 * 16);
    CUDA_OK(cudaMemcpy(d_x + lead, x, total * es, cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemset(d_v, 0xAB, nseg * es));
    CUDA_OK(cudaMemset(d_i, 0xAB, nseg * 8));
    CHECK_OK(gpu, SEG_CALL(gpu, d_x + lead, d_v, d_i));
    CHECK_OK(gpu, gp_synchronize(gpu));
    CUDA_OK(cudaMemcpy(vg, d_v, nseg * es, cudaMemcpyDeviceToHost));
    CUDA_OK(cudaMemcpy(ig, d_i, nseg * 8, cudaMemcpyDeviceToHost));
    if (memcmp(ig, ie, nseg * 8) || memcmp(vg, ve, nseg * es)) {
      CHECK_MSG(0, "%s (device memory%s) differs", what, shift ? ", shifted" : "");
      bad = 1;
    }
  }
#undef SEG_CALL
  free(ve);
  free(vg);
  free(ie);
  free(ig);
  return bad;
}

/* gp_argreduce_rows: rows from 1 element (a lane a row) to a warp's, split rows (two
 * chunks and more), one huge row (the device-wide kernel), many short rows (the grid
 * loops), every dtype, pattern (each row its own) and op. */
static void test_rows(void) {
  static const struct { size_t len, rows; } cs[] = {
      {1, 301}, {2, 77}, {3, 1000}, {7, 65}, {16, 129}, {31, 40}, {33, 40}, {64, 300},
      {100, 37}, {257, 37}, {1000, 37}, {2048, 9}, {4099, 9}, {16384, 3}, {50001, 2},
      {(1u << 20) + 5, 1}};
  int fails = 0;
  for (size_t c = 0; c < sizeof cs / sizeof *cs && fails < 5; c++)
    for (int ti = 0; ti < 6; ti++)
      for (int pat = 0; pat < AP_KINDS; pat++) {
        const gp_dtype t = ac_types[ti];
        const size_t len = cs[c].len, rows = cs[c].rows, es = gp_dtype_size(t);
        if (len > 100000 && pat != AP_RANDOM && pat != AP_NAN && pat != AP_TIES) continue;
        unsigned char *x = malloc(rows * len * es);
        check_seed(500 + 31 * c + (uint64_t)pat);
        for (size_t r = 0; r < rows; r++) ac_fill(t, x + r * len * es, len, (pat + (int)r) % AP_KINDS);
        for (int o = 0; o < 2; o++) {
          char what[160];
          snprintf(what, sizeof what, "argreduce_rows %s %s %zu x %zu %s", o ? "max" : "min",
                   gp_dtype_name(t), rows, len, ac_pat_name[pat]);
          fails += seg_case(o ? GP_MAX : GP_MIN, t, x, NULL, rows, len, (pat + o) % 2, what);
        }
        free(x);
      }
  { /* 600000 rows of 2: more rows than lanes in the grid */
    const size_t rows = 600000, len = 2;
    float *x = malloc(rows * len * sizeof *x);
    check_seed(9);
    ac_fill(GP_F32, x, rows * len, AP_TIES);
    fails += seg_case(GP_MAX, GP_F32, (unsigned char *)x, NULL, rows, len, 0, "argreduce_rows 600000 x 2");
    free(x);
  }
}

/* gp_argreduce_segments_offsets: mixed lengths after a lead (a lane, a group and a warp
 * a segment side by side, segments of 2 chunks and far more among them), every dtype,
 * pattern and op; all segments long; one huge segment; device offsets. */
static void test_offsets(void) {
  enum { NSEG = 700 };
  static uint64_t off[NSEG + 1];
  off[0] = 3; /* a lead the segments skip */
  check_seed(78);
  for (size_t i = 0; i < NSEG; i++) {
    const uint64_t r = check_rand64();
    off[i + 1] = off[i] + 1 +
                 (i % 97 == 5 ? 16384 + r % 70000 : r % 9 == 0 ? r % 3000 : r % 40);
  }
  int fails = 0;
  for (int ti = 0; ti < 6 && fails < 5; ti++)
    for (int pat = 0; pat < AP_KINDS; pat++) {
      const gp_dtype t = ac_types[ti];
      const size_t es = gp_dtype_size(t), total = (size_t)off[NSEG];
      unsigned char *x = malloc(total * es);
      for (size_t i = 0; i < NSEG; i++)
        ac_fill(t, x + off[i] * es, (size_t)(off[i + 1] - off[i]), (pat + (int)i) % AP_KINDS);
      for (int o = 0; o < 2; o++) {
        char what[160];
        snprintf(what, sizeof what, "argreduce_segments_offsets %s %s %s (mixed)",
                 o ? "max" : "min", gp_dtype_name(t), ac_pat_name[pat]);
        fails += seg_case(o ? GP_MAX : GP_MIN, t, x, off, NSEG, 0, (pat + o) % 2, what);
      }
      free(x);
    }
  { /* every segment long (no short kernel), then one huge segment */
    uint64_t o3[4] = {1, 20000, 60001, 100000}, o1[2] = {5, (1u << 20) + 11};
    double *x = malloc(((1u << 20) + 11) * sizeof *x);
    check_seed(79);
    ac_fill(GP_F64, x, (1u << 20) + 11, AP_RANDOM);
    fails += seg_case(GP_MIN, GP_F64, (unsigned char *)x, o3, 3, 0, 0, "offsets, all long");
    fails += seg_case(GP_MAX, GP_F64, (unsigned char *)x, o1, 1, 0, 1, "offsets, one huge");
    free(x);
  }
  { /* offsets in device memory: copied to the host (checked there), same answers */
    float x[6] = {1, 9, 3, 4, 4, 0};
    uint64_t h[4] = {0, 2, 5, 6}, dec[3] = {0, 4, 3}, *d_off = NULL, i[3] = {7, 7, 7};
    CUDA_OK(cudaMalloc((void **)&d_off, sizeof h));
    CUDA_OK(cudaMemcpy(d_off, h, sizeof h, cudaMemcpyHostToDevice));
    CHECK_OK(gpu, gp_argreduce_segments_offsets(gpu, GP_MAX, GP_F32, x, d_off, 3, NULL, i));
    CHECK(i[0] == 1 && i[1] == 1 && i[2] == 0);
    CUDA_OK(cudaMemcpy(d_off, dec, sizeof dec, cudaMemcpyHostToDevice));
    CHECK_STATUS(gp_argreduce_segments_offsets(gpu, GP_MAX, GP_F32, x, d_off, 2, NULL, i),
                 GP_ERR_INVALID_ARGUMENT);
    CHECK_ERROR_MENTIONS(gpu, "must not decrease");
    CHECK_STATUS(gp_argreduce_segments_offsets(cpu, GP_MAX, GP_F32, x, d_off, 2, NULL, i),
                 GP_ERR_INVALID_ARGUMENT); /* the CPU backend cannot read them */
    cudaFree(d_off);
  }
}

int main(void) {
  gpu = check_gpu_context_or_skip("test_argreduce_gpu");
  cpu = check_cpu_context();
  d_cap = ((size_t)1 << 21) * 8 + 64;
  CUDA_OK(cudaMalloc((void **)&d_buf, d_cap));
  CUDA_OK(cudaMalloc(&d_val, 16));
  CUDA_OK(cudaMalloc((void **)&d_idx, 16));
  const char *q = getenv("GP_TEST_QUICK"); /* =1, for compute-sanitizer: no 2^27 case */
  ac_test_matrix();
  if (!q || strcmp(q, "1") != 0) test_large();
  test_rows();
  test_offsets();
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
