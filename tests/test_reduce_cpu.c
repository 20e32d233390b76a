/* gp_reduce on the CPU backend: the DESIGN.md matrix (sizes, dtypes, ops, algorithms,
 * data patterns, NaN / inf / -0, misaligned pointers) against independent references,
 * plus bit-exact checks that each named algorithm follows its kernel's order of
 * operations (naive simulations of the chapters' loops written here), that AUTO's float
 * SUM is the exact sum rounded once, and that OpenMP thread counts change no bit. */
#include "check.h"
#include "reduce_testutil.h"
#include "exact_ref.h"
#include "core/reduce_tree.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>
#endif
#ifdef _OPENMP
#include <omp.h>
#endif

static gp_context *ctx;

/* ---- the matrix ---------------------------------------------------------------- */
static void check_case(gp_dtype t, size_t n, int pat, const void *data, const char *tag) {
  for (size_t oi = 0; oi < 3; oi++) {
    gp_op op = rt_ops[oi];
    if (n == 0 && op != GP_SUM) continue;
    rt_ref ref = rt_reference(op, t, data, n);
    for (size_t ai = 0; ai < 5; ai++) {
      gp_reduce_algo algo = rt_algos[ai];
      unsigned char out[8];
      memset(out, 0xAB, sizeof out);
      gp_status s = gp_reduce(ctx, op, t, data, n, out, algo);
      CHECK_MSG(s == GP_OK, "%s %s %s n=%zu %s %s: %s", tag, gp_op_name(op), gp_dtype_name(t), n,
                rt_pat_name[pat], gp_reduce_algo_name(algo), gp_last_error(ctx));
      if (s != GP_OK) continue;
      uint64_t got = rt_out_bits(op, t, out);
      int is_float = t == GP_F32 || t == GP_F64;
      if (op == GP_SUM && is_float && !ref.any_nan) {
        double g = rt_out_double(op, t, out);
        double tol = rt_sum_tol(t, algo, n, GP_TWO_PHASE_DEFAULT_BLOCKS, &ref);
        CHECK_MSG(fabs(g - (double)ref.sum) <= tol,
                  "%s sum %s n=%zu %s %s: %.17g vs reference %.17Lg (tol %.3g)", tag,
                  gp_dtype_name(t), n, rt_pat_name[pat], gp_reduce_algo_name(algo), g, ref.sum,
                  tol);
      } else {
        CHECK_MSG(got == ref.bits, "%s %s %s n=%zu %s %s: bits %#llx vs reference %#llx", tag,
                  gp_op_name(op), gp_dtype_name(t), n, rt_pat_name[pat],
                  gp_reduce_algo_name(algo), (unsigned long long)got,
                  (unsigned long long)ref.bits);
      }
    }
  }
}

static void test_matrix(void) {
  size_t sizes[64];
  size_t ns = 0;
  const size_t fixed[] = {0, 1, 2, 3, 31, 32, 33, 255, 256, 257, 1023, 1024, 1025};
  for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++) sizes[ns++] = fixed[i];
  for (unsigned k = 11; k <= 20; k += 3) { /* powers of two and neighbours */
    size_t p = (size_t)1 << k;
    sizes[ns++] = p - 1; sizes[ns++] = p; sizes[ns++] = p + 1;
  }
  sizes[ns++] = 4096 * 3 + 17; /* AUTO: several F32 tiles plus a partial one */
  check_seed(12345);
  for (int i = 0; i < 4; i++) sizes[ns++] = 1 + (size_t)(check_rand64() % 300000);
  size_t maxn = 0;
  for (size_t i = 0; i < ns; i++) if (sizes[i] > maxn) maxn = sizes[i];
  unsigned char *buf = (unsigned char *)malloc((maxn + 2) * 8);
  for (size_t ti = 0; ti < 6; ti++) {
    gp_dtype t = rt_types[ti];
    size_t es = gp_dtype_size(t);
    for (size_t si = 0; si < ns; si++) {
      size_t n = sizes[si];
      for (int pat = 0; pat < PAT_COUNT; pat++) {
        if (n > 70000 && pat != PAT_RANDOM && pat != (int)(si % PAT_COUNT)) continue;
        /* misaligned for odd sizes: one element past an aligned buffer */
        unsigned char *data = buf + ((si & 1) ? es : 0);
        rt_fill(data, t, n, pat, 1000 + si * 7 + (size_t)pat);
        check_case(t, n, pat, data, (si & 1) ? "misaligned" : "aligned");
      }
    }
  }
  free(buf);
}

/* ---- NaN, infinities, signed zeros --------------------------------------------- */
static void reduce_all_algos_bits(gp_op op, gp_dtype t, const void *data, size_t n,
                                  uint64_t expect, const char *what) {
  for (size_t ai = 0; ai < 5; ai++) {
    unsigned char out[8];
    CHECK_OK(ctx, gp_reduce(ctx, op, t, data, n, out, rt_algos[ai]));
    uint64_t got = rt_out_bits(op, t, out);
    CHECK_MSG(got == expect, "%s: %s %s %s n=%zu gives %#llx, expected %#llx", what,
              gp_op_name(op), gp_dtype_name(t), gp_reduce_algo_name(rt_algos[ai]), n,
              (unsigned long long)got, (unsigned long long)expect);
  }
}

static void test_specials(void) {
  const size_t sizes[] = {1, 5, 256, 1000, 5000, 70001};
  for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
    size_t n = sizes[si];
    float *f = (float *)malloc(n * sizeof *f);
    double *d = (double *)malloc(n * sizeof *d);
    size_t positions[] = {0, n / 2, n - 1};
    for (size_t pi = 0; pi < 3; pi++) {
      for (size_t i = 0; i < n; i++) { f[i] = (float)(i % 13) - 6.0f; d[i] = f[i]; }
      /* a NaN anywhere (with a sign bit and payload, to check canonicalization) */
      uint32_t nan32 = 0xffc01234u;
      uint64_t nan64 = 0xfff8000000001234ull;
      memcpy(&f[positions[pi]], &nan32, 4);
      memcpy(&d[positions[pi]], &nan64, 8);
      for (size_t oi = 0; oi < 3; oi++) {
        reduce_all_algos_bits(rt_ops[oi], GP_F32, f, n, 0x7fc00000u, "NaN f32");
        reduce_all_algos_bits(rt_ops[oi], GP_F64, d, n, 0x7ff8000000000000ull, "NaN f64");
      }
      /* +inf alone: SUM and MAX are +inf; with -inf as well SUM is NaN */
      for (size_t i = 0; i < n; i++) { f[i] = (float)(i % 13) - 6.0f; d[i] = f[i]; }
      f[positions[pi]] = INFINITY;
      d[positions[pi]] = INFINITY;
      reduce_all_algos_bits(GP_SUM, GP_F32, f, n, 0x7f800000u, "+inf f32");
      reduce_all_algos_bits(GP_MAX, GP_F32, f, n, 0x7f800000u, "+inf f32");
      reduce_all_algos_bits(GP_SUM, GP_F64, d, n, 0x7ff0000000000000ull, "+inf f64");
      if (n > 1) {
        size_t other = positions[pi] == 0 ? n - 1 : 0;
        f[other] = -INFINITY;
        d[other] = -INFINITY;
        reduce_all_algos_bits(GP_SUM, GP_F32, f, n, 0x7fc00000u, "inf-inf f32");
        reduce_all_algos_bits(GP_SUM, GP_F64, d, n, 0x7ff8000000000000ull, "inf-inf f64");
        reduce_all_algos_bits(GP_MIN, GP_F32, f, n, 0xff800000u, "-inf f32");
        reduce_all_algos_bits(GP_MAX, GP_F64, d, n, 0x7ff0000000000000ull, "+inf f64");
      }
    }
    /* signed zeros: min(-0, +0) = -0 and max = +0 whatever the order */
    for (int order = 0; order < 2; order++) {
      for (size_t i = 0; i < n; i++) {
        int neg = ((i & 1) == (size_t)order);
        f[i] = neg ? -0.0f : 0.0f;
        d[i] = neg ? -0.0 : 0.0;
      }
      if (n > 1) {
        reduce_all_algos_bits(GP_MIN, GP_F32, f, n, 0x80000000u, "-0/+0 min f32");
        reduce_all_algos_bits(GP_MAX, GP_F32, f, n, 0x00000000u, "-0/+0 max f32");
        reduce_all_algos_bits(GP_MIN, GP_F64, d, n, 0x8000000000000000ull, "-0/+0 min f64");
        reduce_all_algos_bits(GP_MAX, GP_F64, d, n, 0, "-0/+0 max f64");
        reduce_all_algos_bits(GP_SUM, GP_F32, f, n, 0, "-0 + +0 f32");
      }
    }
    /* all -0: the IEEE sum is -0 (the padding identity is -0, so no +0 sneaks in) */
    for (size_t i = 0; i < n; i++) { f[i] = -0.0f; d[i] = -0.0; }
    reduce_all_algos_bits(GP_SUM, GP_F32, f, n, 0x80000000u, "all -0 f32");
    reduce_all_algos_bits(GP_SUM, GP_F64, d, n, 0x8000000000000000ull, "all -0 f64");
    free(f);
    free(d);
  }
  /* SUM of n = 0 is +0 of the out type, and `in` may be NULL */
  for (size_t ti = 0; ti < 6; ti++) {
    uint64_t out = ~0ull;
    CHECK_OK(ctx, gp_reduce(ctx, GP_SUM, rt_types[ti], NULL, 0, &out, GP_REDUCE_AUTO));
    size_t osz = gp_dtype_size(gp_reduce_out_type(GP_SUM, rt_types[ti]));
    CHECK_MSG(osz == 8 ? out == 0 : (out & 0xffffffffu) == 0 && (out >> 32) == 0xffffffffu,
              "SUM of n = 0 (%s) wrote %#llx", gp_dtype_name(rt_types[ti]),
              (unsigned long long)out);
  }
  /* integer wrap-around and widening */
  {
    int32_t a[3] = {INT32_MAX, INT32_MAX, INT32_MIN};
    for (size_t ai = 0; ai < 5; ai++) {
      int64_t out = 0;
      CHECK_OK(ctx, gp_reduce(ctx, GP_SUM, GP_I32, a, 3, &out, rt_algos[ai]));
      CHECK_EQ_I64(out, (int64_t)INT32_MAX - 1); /* widened: no 32-bit overflow */
    }
    uint64_t u[2] = {UINT64_MAX, 5};
    for (size_t ai = 0; ai < 5; ai++) {
      uint64_t out = 0;
      CHECK_OK(ctx, gp_reduce(ctx, GP_SUM, GP_U64, u, 2, &out, rt_algos[ai]));
      CHECK_EQ_U64(out, 4); /* wraps modulo 2^64 */
    }
  }
}

/* ---- the chapters' loops, written out naively: bit-exact ------------------------- */
/* seed 000 4.1, simulate_reduce_interleaved, as printed in the chapter */
static float sim_interleaved(float *sdata, int block_size) {
  for (int s = 1; s < block_size; s *= 2)
    for (int tid = 0; tid < block_size; tid++)
      if (tid % (2 * s) == 0 && tid + s < block_size) sdata[tid] += sdata[tid + s];
  return sdata[0];
}
/* seed 000 4.2, simulate_reduce_sequential */
static float sim_sequential(float *sdata, int block_size) {
  for (int s = block_size / 2; s > 0; s /= 2)
    for (int tid = 0; tid < block_size; tid++)
      if (tid < s) sdata[tid] += sdata[tid + s];
  return sdata[0];
}
/* the multi-block kernel + relaunch loop of 4.1/4.2 (padding with 0 as the chapter) */
static float sim_seed_tree(const float *in, size_t n, int interleaved) {
  size_t count = n;
  float *cur = (float *)malloc(n * sizeof *cur);
  memcpy(cur, in, n * sizeof *cur);
  while (1) {
    size_t blocks = (count + 255) / 256;
    float *next = (float *)malloc(blocks * sizeof *next);
    for (size_t b = 0; b < blocks; b++) {
      float s[256];
      for (int t = 0; t < 256; t++) s[t] = b * 256 + t < count ? cur[b * 256 + t] : 0.0f;
      next[b] = interleaved ? sim_interleaved(s, 256) : sim_sequential(s, 256);
    }
    free(cur);
    cur = next;
    count = blocks;
    if (count == 1) break;
  }
  float r = cur[0];
  free(cur);
  return r;
}
/* 4.3 simulate_phase1 / simulate_phase2, with phase 2 grid-striding over the partials */
static float sim_two_phase(const float *in, size_t n, int num_blocks) {
  int stride = num_blocks * 256;
  float *partials = (float *)malloc((size_t)num_blocks * sizeof *partials);
  for (int block = 0; block < num_blocks; block++) {
    float sdata[256];
    for (int tid = 0; tid < 256; tid++) {
      int idx = block * 256 + tid;
      float acc = 0.0f;
      for (size_t i = (size_t)idx; i < n; i += (size_t)stride) acc += in[i];
      sdata[tid] = acc;
    }
    for (int s = 128; s > 0; s /= 2)
      for (int tid = 0; tid < s; tid++) sdata[tid] += sdata[tid + s];
    partials[block] = sdata[0];
  }
  float sdata[256];
  for (int tid = 0; tid < 256; tid++) {
    float acc = 0.0f;
    for (int i = tid; i < num_blocks; i += 256) acc += partials[i];
    sdata[tid] = acc;
  }
  for (int s = 128; s > 0; s /= 2)
    for (int tid = 0; tid < s; tid++) sdata[tid] += sdata[tid + s];
  free(partials);
  return sdata[0];
}
/* __shfl_down_sync(mask, v, o): every lane reads lane l+o, or keeps its own value when
 * l+o is past the warp; all 32 lanes update at once. */
static float sim_shfl_tree_f(float *lane) {
  for (int o = 16; o > 0; o /= 2) {
    float got[32];
    for (int l = 0; l < 32; l++) got[l] = l + o < 32 ? lane[l + o] : lane[l];
    for (int l = 0; l < 32; l++) lane[l] = lane[l] + got[l];
  }
  return lane[0];
}
/* Program 6.15 for one 1024-thread block, one element per thread */
static float sim_warp_block(const float *in, size_t n) {
  float warp_sum_arr[32];
  for (int w = 0; w < 32; w++) {
    float lane[32];
    for (int l = 0; l < 32; l++) lane[l] = (size_t)(w * 32 + l) < n ? in[w * 32 + l] : -0.0f;
    warp_sum_arr[w] = sim_shfl_tree_f(lane);
  }
  return sim_shfl_tree_f(warp_sum_arr);
}

static void test_kernel_order(void) {
  /* values of many magnitudes: different addition orders give different bits */
  size_t big = 300000;
  float *f = (float *)malloc(big * sizeof *f);
  double *d = (double *)malloc(big * sizeof *d);
  check_seed(777);
  for (size_t i = 0; i < big; i++) {
    f[i] = (float)((check_rand01() - 0.3) * ldexp(1.0, (int)(check_rand64() % 12) - 4));
    d[i] = (check_rand01() - 0.3) * ldexp(1.0, (int)(check_rand64() % 40) - 8);
  }
  float out;
  /* one 256-element block: the chapter's tree exactly */
  float tile[256];
  memcpy(tile, f, sizeof tile);
  float want = sim_interleaved(tile, 256);
  CHECK_OK(ctx, gp_reduce(ctx, GP_SUM, GP_F32, f, 256, &out, GP_REDUCE_INTERLEAVED));
  CHECK_MSG(rt_f32_bits(out) == rt_f32_bits(want), "interleaved 256: %.9g vs chapter %.9g", out, want);
  memcpy(tile, f, sizeof tile);
  want = sim_sequential(tile, 256);
  CHECK_OK(ctx, gp_reduce(ctx, GP_SUM, GP_F32, f, 256, &out, GP_REDUCE_SEQUENTIAL));
  CHECK_MSG(rt_f32_bits(out) == rt_f32_bits(want), "sequential 256: %.9g vs chapter %.9g", out, want);
  /* the two trees really differ on this data, so the checks above can fail */
  {
    float t1[256], t2[256];
    memcpy(t1, f, sizeof t1);
    memcpy(t2, f, sizeof t2);
    CHECK_MSG(rt_f32_bits(sim_interleaved(t1, 256)) != rt_f32_bits(sim_sequential(t2, 256)),
              "test data too tame: both trees agree");
  }
  /* several blocks and relaunches */
  const size_t ns[] = {257, 65536, 65537, 100000, 300000};
  for (size_t k = 0; k < sizeof ns / sizeof ns[0]; k++) {
    for (int inter = 0; inter < 2; inter++) {
      want = sim_seed_tree(f, ns[k], inter);
      CHECK_OK(ctx, gp_reduce(ctx, GP_SUM, GP_F32, f, ns[k], &out,
                              inter ? GP_REDUCE_INTERLEAVED : GP_REDUCE_SEQUENTIAL));
      CHECK_MSG(rt_f32_bits(out) == rt_f32_bits(want), "%s n=%zu: %.9g vs simulation %.9g",
                inter ? "interleaved" : "sequential", ns[k], out, want);
    }
  }
  /* two-phase: the chapter's 64 blocks, then 1024 blocks (phase 2 grid-strides) */
  const unsigned grids[] = {64, 1024, 7};
  for (size_t g = 0; g < 3; g++) {
    CHECK_OK(ctx, gp_set_two_phase_blocks(ctx, grids[g]));
    for (size_t k = 0; k < sizeof ns / sizeof ns[0]; k++) {
      want = sim_two_phase(f, ns[k], (int)grids[g]);
      CHECK_OK(ctx, gp_reduce(ctx, GP_SUM, GP_F32, f, ns[k], &out, GP_REDUCE_TWO_PHASE));
      CHECK_MSG(rt_f32_bits(out) == rt_f32_bits(want), "two-phase %u blocks n=%zu: %.9g vs %.9g",
                grids[g], ns[k], out, want);
    }
  }
  CHECK_OK(ctx, gp_set_two_phase_blocks(ctx, 0));
  /* warp-atomic, one block of 1024 threads: warp shuffle trees, one atomic onto -0 */
  const size_t wn[] = {1, 33, 1000, 1024};
  for (size_t k = 0; k < 4; k++) {
    want = -0.0f + sim_warp_block(f, wn[k]);
    CHECK_OK(ctx, gp_reduce(ctx, GP_SUM, GP_F32, f, wn[k], &out, GP_REDUCE_WARP_ATOMIC));
    CHECK_MSG(rt_f32_bits(out) == rt_f32_bits(want), "warp-atomic n=%zu: %.9g vs %.9g", wn[k],
              out, want);
  }
  /* AUTO's float SUM: the exact sum rounded once (tests/exact_ref.h) */
  const size_t an[] = {1, 7, 1024, 4095, 4096, 4097, 4096 * 3 + 17, 100000, 300000};
  for (size_t k = 0; k < sizeof an / sizeof an[0]; k++) {
    float wf = xr_sum_f32(f, an[k]);
    CHECK_OK(ctx, gp_reduce(ctx, GP_SUM, GP_F32, f, an[k], &out, GP_REDUCE_AUTO));
    CHECK_MSG(rt_f32_bits(out) == rt_f32_bits(wf), "auto f32 n=%zu: %.9g vs exact %.9g", an[k],
              out, wf);
    double wd = xr_sum_f64(d, an[k]), od;
    CHECK_OK(ctx, gp_reduce(ctx, GP_SUM, GP_F64, d, an[k], &od, GP_REDUCE_AUTO));
    CHECK_MSG(rt_f64_bits(od) == rt_f64_bits(wd), "auto f64 n=%zu: %.17g vs exact %.17g", an[k],
              od, wd);
  }
  free(f);
  free(d);
}

/* ---- more than 1024 virtual blocks' worth and thread-count invariance ------------ */
static void test_threads_and_large(void) {
  size_t n = ((size_t)1 << 22) + 300001; /* > 1056 F32 tiles: V = 1056, a partial tile */
  float *f = (float *)malloc(n * sizeof *f);
  double *d = (double *)malloc(n * sizeof *d);
  check_seed(99);
  for (size_t i = 0; i < n; i++) {
    f[i] = (float)((check_rand01() - 0.5) * ldexp(1.0, (int)(check_rand64() % 16)));
    d[i] = f[i] * 1.0000001;
  }
  float f_ref = xr_sum_f32(f, n);
  double d_ref = xr_sum_f64(d, n);
  float tp_ref = 0, wa_ref = 0;
  int nthreads[] = {1, 2, 3, 8};
  for (int k = 0; k < 4; k++) {
#ifdef _OPENMP
    omp_set_num_threads(nthreads[k]);
#else
    if (k > 0) break;
#endif
    float of, tp, wa;
    double od;
    CHECK_OK(ctx, gp_reduce(ctx, GP_SUM, GP_F32, f, n, &of, GP_REDUCE_AUTO));
    CHECK_OK(ctx, gp_reduce(ctx, GP_SUM, GP_F64, d, n, &od, GP_REDUCE_AUTO));
    CHECK_OK(ctx, gp_reduce(ctx, GP_SUM, GP_F32, f, n, &tp, GP_REDUCE_TWO_PHASE));
    CHECK_OK(ctx, gp_reduce(ctx, GP_SUM, GP_F32, f, n, &wa, GP_REDUCE_WARP_ATOMIC));
    CHECK_MSG(rt_f32_bits(of) == rt_f32_bits(f_ref), "auto f32 with %d threads: %.9g vs %.9g",
              nthreads[k], of, f_ref);
    CHECK_MSG(rt_f64_bits(od) == rt_f64_bits(d_ref), "auto f64 with %d threads: %.17g vs %.17g",
              nthreads[k], od, d_ref);
    if (k == 0) { tp_ref = tp; wa_ref = wa; }
    CHECK(rt_f32_bits(tp) == rt_f32_bits(tp_ref));
    CHECK(rt_f32_bits(wa) == rt_f32_bits(wa_ref));
  }
#ifdef _OPENMP
  omp_set_num_threads(omp_get_num_procs());
#endif
  free(f);
  free(d);
}

/* ---- MIN/MAX keys (reduce_tree.h) ---------------------------------------------------
 * The CUDA AUTO kernel reduces float MIN/MAX as unsigned min/max over
 * gp_rt_*_minkey/maxkey and decodes once. Here: for every pair of special values and
 * for random mixes (NaNs of both signs and any payload, +-0, +-inf, subnormals, the
 * largest finite values), min/max over keys, decoded, has the bits of the fold with
 * gp_rt_min/max_*, the reference semantics the CPU backend uses. */
static uint32_t key_f32_special(unsigned i) {
  static const uint32_t sp[] = {0x00000000u, 0x80000000u, 0x7f800000u, 0xff800000u,
                                0x7fc00000u, 0xffc00000u, 0x7f800001u, 0xff800001u,
                                0x7fffffffu, 0xffffffffu, 0x00000001u, 0x80000001u,
                                0x007fffffu, 0x807fffffu, 0x7f7fffffu, 0xff7fffffu,
                                0x3f800000u, 0xbf800000u, 0x00800000u, 0x80800000u};
  return sp[i % (sizeof sp / sizeof sp[0])];
}
static uint64_t key_f64_special(unsigned i) {
  static const uint64_t sp[] = {
      0x0000000000000000ull, 0x8000000000000000ull, 0x7ff0000000000000ull,
      0xfff0000000000000ull, 0x7ff8000000000000ull, 0xfff8000000000000ull,
      0x7ff0000000000001ull, 0xfff0000000000001ull, 0x7fffffffffffffffull,
      0xffffffffffffffffull, 0x0000000000000001ull, 0x8000000000000001ull,
      0x000fffffffffffffull, 0x800fffffffffffffull, 0x7fefffffffffffffull,
      0xffefffffffffffffull, 0x3ff0000000000000ull, 0xbff0000000000000ull,
      0x0010000000000000ull, 0x8010000000000000ull};
  return sp[i % (sizeof sp / sizeof sp[0])];
}
#define KEY_NSPECIAL 20u

/* element i of a random mix: mostly random bit patterns (which include NaNs), some
 * specials; nan_free drops NaNs so the key path's non-NaN answers are checked too */
static uint32_t key_f32_rand(int nan_free) {
  for (;;) {
    uint64_t r = check_rand64();
    uint32_t u = (r & 3) == 0 ? key_f32_special((unsigned)(r >> 8)) : (uint32_t)(r >> 32);
    if (!nan_free || !gp_rt_f32_isnan(u)) return u;
  }
}
static uint64_t key_f64_rand(int nan_free) {
  for (;;) {
    uint64_t r = check_rand64();
    uint64_t u = (r & 3) == 0 ? key_f64_special((unsigned)(r >> 8)) : check_rand64();
    if (!nan_free || !gp_rt_f64_isnan(u)) return u;
  }
}

static void test_minmax_keys(void) {
  /* identities decode to +inf (MIN) and -inf (MAX) */
  CHECK_EQ_U64(gp_rt_f32_bits(gp_rt_f32_from_minkey(0xffffffffu)), 0x7f800000u);
  CHECK_EQ_U64(gp_rt_f32_bits(gp_rt_f32_from_maxkey(0u)), 0xff800000u);
  CHECK_EQ_U64(gp_rt_f64_bits(gp_rt_f64_from_minkey(~0ull)), 0x7ff0000000000000ull);
  CHECK_EQ_U64(gp_rt_f64_bits(gp_rt_f64_from_maxkey(0ull)), 0xfff0000000000000ull);
  for (unsigned i = 0; i < KEY_NSPECIAL; i++) {
    uint32_t a32 = key_f32_special(i);
    uint64_t a64 = key_f64_special(i);
    /* the branch-free key against the textbook form, and its inverse */
    CHECK_EQ_U64(gp_key_f32(a32), (a32 >> 31) ? ~a32 : a32 | 0x80000000u);
    CHECK_EQ_U64(gp_key_f64(a64), (a64 >> 63) ? ~a64 : a64 | 0x8000000000000000ull);
    CHECK_EQ_U64(gp_unkey_f32(gp_key_f32(a32)), a32);
    CHECK_EQ_U64(gp_unkey_f64(gp_key_f64(a64)), a64);
    for (unsigned j = 0; j < KEY_NSPECIAL; j++) {
      uint32_t b32 = key_f32_special(j);
      uint64_t b64 = key_f64_special(j);
      float fa = gp_rt_f32_from(a32), fb = gp_rt_f32_from(b32);
      double da = gp_rt_f64_from(a64), db = gp_rt_f64_from(b64);
      uint32_t k;
      uint64_t k64;
      k = gp_rt_f32_minkey(a32) < gp_rt_f32_minkey(b32) ? gp_rt_f32_minkey(a32) : gp_rt_f32_minkey(b32);
      CHECK_MSG(gp_rt_f32_bits(gp_rt_f32_from_minkey(k)) == gp_rt_f32_bits(gp_rt_min_f32(fa, fb)),
                "f32 minkey(%#x, %#x)", a32, b32);
      k = gp_rt_f32_maxkey(a32) > gp_rt_f32_maxkey(b32) ? gp_rt_f32_maxkey(a32) : gp_rt_f32_maxkey(b32);
      CHECK_MSG(gp_rt_f32_bits(gp_rt_f32_from_maxkey(k)) == gp_rt_f32_bits(gp_rt_max_f32(fa, fb)),
                "f32 maxkey(%#x, %#x)", a32, b32);
      k64 = gp_rt_f64_minkey(a64) < gp_rt_f64_minkey(b64) ? gp_rt_f64_minkey(a64) : gp_rt_f64_minkey(b64);
      CHECK_MSG(gp_rt_f64_bits(gp_rt_f64_from_minkey(k64)) == gp_rt_f64_bits(gp_rt_min_f64(da, db)),
                "f64 minkey(%#llx, %#llx)", (unsigned long long)a64, (unsigned long long)b64);
      k64 = gp_rt_f64_maxkey(a64) > gp_rt_f64_maxkey(b64) ? gp_rt_f64_maxkey(a64) : gp_rt_f64_maxkey(b64);
      CHECK_MSG(gp_rt_f64_bits(gp_rt_f64_from_maxkey(k64)) == gp_rt_f64_bits(gp_rt_max_f64(da, db)),
                "f64 maxkey(%#llx, %#llx)", (unsigned long long)a64, (unsigned long long)b64);
    }
  }
  check_seed(77);
  for (unsigned trial = 0; trial < 4000; trial++) {
    const int nan_free = trial % 2;
    const unsigned len = 1 + (unsigned)(check_rand64() % 40);
    uint32_t kmin32 = 0xffffffffu, kmax32 = 0u;
    uint64_t kmin64 = ~0ull, kmax64 = 0ull;
    float rmin32 = gp_rt_f32_from(0x7f800000u), rmax32 = gp_rt_f32_from(0xff800000u);
    double rmin64 = gp_rt_f64_from(0x7ff0000000000000ull), rmax64 = gp_rt_f64_from(0xfff0000000000000ull);
    for (unsigned i = 0; i < len; i++) {
      uint32_t u = key_f32_rand(nan_free);
      uint64_t w = key_f64_rand(nan_free);
      uint32_t a = gp_rt_f32_minkey(u), b = gp_rt_f32_maxkey(u);
      uint64_t c = gp_rt_f64_minkey(w), d = gp_rt_f64_maxkey(w);
      if (a < kmin32) kmin32 = a;
      if (b > kmax32) kmax32 = b;
      if (c < kmin64) kmin64 = c;
      if (d > kmax64) kmax64 = d;
      rmin32 = gp_rt_min_f32(rmin32, gp_rt_f32_from(u));
      rmax32 = gp_rt_max_f32(rmax32, gp_rt_f32_from(u));
      rmin64 = gp_rt_min_f64(rmin64, gp_rt_f64_from(w));
      rmax64 = gp_rt_max_f64(rmax64, gp_rt_f64_from(w));
    }
    CHECK_EQ_U64(gp_rt_f32_bits(gp_rt_f32_from_minkey(kmin32)), gp_rt_f32_bits(rmin32));
    CHECK_EQ_U64(gp_rt_f32_bits(gp_rt_f32_from_maxkey(kmax32)), gp_rt_f32_bits(rmax32));
    CHECK_EQ_U64(gp_rt_f64_bits(gp_rt_f64_from_minkey(kmin64)), gp_rt_f64_bits(rmin64));
    CHECK_EQ_U64(gp_rt_f64_bits(gp_rt_f64_from_maxkey(kmax64)), gp_rt_f64_bits(rmax64));
  }
}

/* ---- AUTO MIN/MAX (cpu/minmax_cpu.c) against a plain fold --------------------------
 * Every dtype; sizes around the 32/16-element vector steps and the 65536-element OpenMP
 * chunks; NaNs (several payloads, either sign) first / middle / last or twice, -0 / +0
 * mixes, integer extremes, constant data; 1, 2 and 7 threads. The reference folds with
 * core/reduce_tree.h's scalar rules (floats) or < / > (integers). */
static uint64_t mm_ref(gp_op op, gp_dtype t, const void *x, size_t n) {
  const int mx = op == GP_MAX;
  switch (t) {
  case GP_F32: {
    float r = ((const float *)x)[0];
    for (size_t i = 1; i < n; i++)
      r = mx ? gp_rt_max_f32(r, ((const float *)x)[i]) : gp_rt_min_f32(r, ((const float *)x)[i]);
    return rt_f32_bits(gp_rt_canon_f32(r));
  }
  case GP_F64: {
    double r = ((const double *)x)[0];
    for (size_t i = 1; i < n; i++)
      r = mx ? gp_rt_max_f64(r, ((const double *)x)[i]) : gp_rt_min_f64(r, ((const double *)x)[i]);
    return rt_f64_bits(gp_rt_canon_f64(r));
  }
#define MM_INT(T)                                                                      \
  {                                                                                    \
    T r = ((const T *)x)[0];                                                           \
    for (size_t i = 1; i < n; i++) {                                                   \
      T v = ((const T *)x)[i];                                                         \
      if (mx ? v > r : v < r) r = v;                                                   \
    }                                                                                  \
    uint64_t b = 0;                                                                    \
    memcpy(&b, &r, sizeof r);                                                          \
    return b;                                                                          \
  }
  case GP_I32: MM_INT(int32_t)
  case GP_I64: MM_INT(int64_t)
  case GP_U32: MM_INT(uint32_t)
  default: MM_INT(uint64_t)
#undef MM_INT
  }
}

static void mm_fill(gp_dtype t, void *x, size_t n, int pat, uint64_t seed) {
  check_seed(seed);
  const int f32 = t == GP_F32, f64 = t == GP_F64;
  static const uint32_t nan32[] = {0x7fc00000u, 0xffc00000u, 0x7f800001u, 0xffbfffffu};
  static const uint64_t nan64[] = {0x7ff8000000000000ull, 0xfff8000000000000ull,
                                   0x7ff0000000000001ull, 0xfff7ffffffffffffull};
  for (size_t i = 0; i < n; i++) {
    uint64_t r = check_rand64();
    if (pat == 3) r = 0x5a5a5a5a5a5a5a5aull; /* constant */
    if (f32) { float v = (float)((int64_t)(r % 2000001) - 1000000) * 0.25f; if (pat == 2) v = (r & 1) ? -0.0f : 0.0f; ((float *)x)[i] = v; }
    else if (f64) { double v = (double)((int64_t)(r % 2000001) - 1000000) * 0.25; if (pat == 2) v = (r & 1) ? -0.0 : 0.0; ((double *)x)[i] = v; }
    else memcpy((char *)x + i * gp_dtype_size(t), &r, gp_dtype_size(t)); /* full-range bits */
  }
  if (pat == 1 && (f32 || f64)) { /* NaNs at first / middle / last / two places */
    size_t at[2] = {(size_t)(check_rand64() % 4), (size_t)(check_rand64() % n)};
    at[0] = at[0] == 0 ? 0 : at[0] == 1 ? n - 1 : at[0] == 2 ? n / 2 : at[1];
    for (int k = 0; k < 2; k++) {
      const unsigned w = (unsigned)(check_rand64() % 4);
      if (f32) memcpy((char *)x + 4 * at[k], &nan32[w], 4);
      else memcpy((char *)x + 8 * at[k], &nan64[w], 8);
    }
  }
  if (pat == 4 && !f32 && !f64) { /* the integer extremes at random places */
    uint64_t lo = 0, hi = ~0ull;
    if (t == GP_I32) { lo = 0x80000000u; hi = 0x7fffffffu; }
    if (t == GP_I64) { lo = 0x8000000000000000ull; hi = 0x7fffffffffffffffull; }
    memcpy((char *)x + gp_dtype_size(t) * (check_rand64() % n), &lo, gp_dtype_size(t));
    memcpy((char *)x + gp_dtype_size(t) * (check_rand64() % n), &hi, gp_dtype_size(t));
  }
}

static void test_minmax_auto(void) {
  static const gp_dtype types[] = {GP_F32, GP_F64, GP_I32, GP_I64, GP_U32, GP_U64};
  const size_t sizes[] = {1, 2, 7, 15, 16, 17, 31, 32, 33, 100, 65536, 65537, 3 * 65536 + 45};
  const size_t ns = sizeof sizes / sizeof sizes[0];
  unsigned char *buf = (unsigned char *)malloc(sizes[ns - 1] * 8 + 8);
#ifdef _OPENMP
  const int counts[] = {1, 2, 7};
  const int nc = 3;
#else
  const int nc = 1;
#endif
  for (int c = 0; c < nc; c++) {
#ifdef _OPENMP
    omp_set_num_threads(counts[c]);
#endif
    for (int ti = 0; ti < 6; ti++)
      for (size_t si = 0; si < ns; si++)
        for (int pat = 0; pat < 5; pat++)
          for (int rep = 0; rep < (pat == 1 ? 6 : 1); rep++) {
            const gp_dtype t = types[ti];
            const size_t n = sizes[si], es = gp_dtype_size(t);
            void *x = buf + (rep & 1 ? es : 0); /* misaligned by one element */
            mm_fill(t, x, n, pat, 500 + si * 7 + (uint64_t)pat * 1000 + (uint64_t)rep);
            for (int o = 0; o < 2; o++) {
              const gp_op op = o ? GP_MAX : GP_MIN;
              unsigned char out[8];
              memset(out, 0xAB, sizeof out);
              CHECK_OK(ctx, gp_reduce(ctx, op, t, x, n, out, GP_REDUCE_AUTO));
              uint64_t got = 0;
              memcpy(&got, out, es);
              const uint64_t want = mm_ref(op, t, x, n);
              CHECK_MSG(got == want, "auto %s %s n=%zu pattern %d rep %d threads %d: %#llx vs %#llx",
                        gp_op_name(op), gp_dtype_name(t), n, pat, rep, nc > 1 ? c : 0,
                        (unsigned long long)got, (unsigned long long)want);
            }
          }
  }
#ifdef _OPENMP
  omp_set_num_threads(omp_get_num_procs());
#endif
  free(buf);
}

/* gp_reduce_device on the CPU backend is gp_reduce: host pointers, the same bits */
static void test_device_api(void) {
  double x[5] = {1e16, 1.0, -1e16, 0.5, 3.25}, a = 0, b = 0;
  CHECK_OK(ctx, gp_reduce(ctx, GP_SUM, GP_F64, x, 5, &a, GP_REDUCE_AUTO));
  CHECK_OK(ctx, gp_reduce_device(ctx, GP_SUM, GP_F64, x, 5, &b, GP_REDUCE_AUTO));
  CHECK(a == 4.75 && b == a);
}

/* MIN/MAX of subnormal floats under the caller's DAZ (x86: subnormal inputs read as
 * zero by float compares) still follow the bits: 5000 of them, the extremes planted
 * past the first vectors, f32 and f64. */
static void test_flush_modes(void) {
#if defined(__x86_64__) || defined(__i386__)
  const size_t n = 5000;
  float *f = (float *)malloc(n * sizeof *f);
  double *d = (double *)malloc(n * sizeof *d);
  for (size_t i = 0; i < n; i++) {
    f[i] = ldexpf(1.0f + (float)(i % 7), -140);
    d[i] = ldexp(1.0 + (double)(i % 7), -1060);
  }
  f[4000] = ldexpf(100.0f, -140);
  f[3000] = ldexpf(0.5f, -140);
  d[4001] = ldexp(100.0, -1060);
  d[3001] = ldexp(0.5, -1060);
  uint32_t want_fmax, want_fmin;
  uint64_t want_dmax, want_dmin;
  memcpy(&want_fmax, &f[4000], 4);
  memcpy(&want_fmin, &f[3000], 4);
  memcpy(&want_dmax, &d[4001], 8);
  memcpy(&want_dmin, &d[3001], 8);
  const unsigned csr = _mm_getcsr();
  _mm_setcsr(csr | 0x8040u);
  uint32_t fmax = 0, fmin = 0;
  uint64_t dmax = 0, dmin = 0;
  gp_status s = gp_reduce(ctx, GP_MAX, GP_F32, f, n, &fmax, GP_REDUCE_AUTO);
  s |= gp_reduce(ctx, GP_MIN, GP_F32, f, n, &fmin, GP_REDUCE_AUTO);
  s |= gp_reduce(ctx, GP_MAX, GP_F64, d, n, &dmax, GP_REDUCE_AUTO);
  s |= gp_reduce(ctx, GP_MIN, GP_F64, d, n, &dmin, GP_REDUCE_AUTO);
  _mm_setcsr(csr);
  CHECK_MSG(s == GP_OK, "DAZ min/max: %s", gp_last_error(ctx));
  CHECK_EQ_U64(fmax, want_fmax);
  CHECK_EQ_U64(fmin, want_fmin);
  CHECK_EQ_U64(dmax, want_dmax);
  CHECK_EQ_U64(dmin, want_dmin);
  free(f);
  free(d);
#endif
}

int main(void) {
  ctx = check_cpu_context();
  test_device_api();
  test_minmax_keys();
  test_kernel_order();
  test_specials();
  test_threads_and_large();
  test_minmax_auto();
  test_flush_modes();
  test_matrix();
  gp_destroy(ctx);
  return check_summary("test_reduce_cpu");
}
