/* CPU backend of the correctly rounded F32/F64 SUM (GP_REDUCE_AUTO): the expansion +
 * superaccumulator of src/core/exact_sum.h, OpenMP threads over fixed chunks, each
 * thread's exact integer folded into one, rounded once. F32 goes first by blocks whose
 * exponent range proves a plain double sum exact (xb_block: one addition an input, no
 * exactness test), F64 by blocks split on a grid into two such sums (sum_split_f64.c);
 * the blocks that fail take the expansions. The result is the exact
 * sum rounded, so it equals the CUDA backend's bits whatever either one's order. */
#include "cpu/reduce_cpu.h"
#include "cpu/cpu_features.h"
#include "core/exact_sum.h"

#include <math.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif
#ifdef GP_CPU_X86
#include <immintrin.h>
#endif

/* Each chunk starts fresh expansions and ends with a normalized accumulator, so no
 * limb ever holds more than ~3 x 2^14 deferred digits; the threads share the chunks, so
 * two threads start at 2^14 + 1 inputs (f64 2^16 on a 2-core Xeon: 20.1 -> 12.0 us;
 * chunks of 2^16 kept one thread up to 2^16). */
#define GP_XS_CPU_CHUNK ((size_t)1 << 14)

/* Lanes: independent expansions, so consecutive inputs' TwoSum chains overlap and the
 * compiler can put a block of them in vector registers. A block whose every step was
 * exact commits at once; a block with an inexact step (rare) commits the exact steps
 * and sends the other inputs to the accumulator, lane by lane as gp_xs_add1/add2 would.
 * Which inputs take which path never changes the exact sum, so the bits are the same. */
#define GP_XS_CPU_LANES 8

/* Chunks whose vector runs were redone (an inexact step) more than this many times go
 * on by dense runs (data spread over many binades, where most runs are). The scalar
 * blocks switch once more than 256 inputs, and a quarter of those seen, went to the
 * accumulator: without vector lanes a dense block costs more than the few inputs of
 * lognormal data that go there (2-core AVX2 box, GPUPRIMS_CPU_ISA=scalar). */
#define GP_XS_CPU_DENSE_AFTER 4

static inline double xs_two_sum1(double a, double b, double *err) {
  const double s = a + b, bb = s - a;
  *err = (a - (s - bb)) + (b - bb);
  return s;
}

/* One input into a dense lane (h, l, lo): h takes it, TwoSum's error is carried into l
 * and l's into lo; lo's own error, when not zero, goes to the accumulator. A NaN or
 * infinite input, or one that would take h past GP_XS_F64_HEAD_MAX, goes there whole. A
 * zero error can turn a -0 l or lo into +0: harmless, only h's sign of zero is read. */
static inline void xs_dense1(double *h, double *l, double *lo, double v, int64_t *acc, int L,
                             int lsb) {
  if (!(v - v == 0.0) || !(fabs(*h + v) < GP_XS_F64_HEAD_MAX)) {
    gp_xs_add_plain(acc, L, lsb, v);
    return;
  }
  double e, f, g;
  *h = xs_two_sum1(*h, v, &e);
  *l = xs_two_sum1(*l, e, &f);
  *lo = xs_two_sum1(*lo, f, &g);
  if (g != 0.0) gp_xs_add_plain(acc, L, lsb, g);
}

/* Blocks of GP_XS_CPU_LANES inputs from x[i] into dense lanes (xs_dense1), from where
 * the plain blocks stopped to the last whole block; returns where it stopped. A block
 * whose every lo took its part exactly (and, for F64, kept h below GP_XS_F64_HEAD_MAX)
 * commits at once, else it is redone input by input. */
static size_t dense_blocks(const void *x, int f32, size_t i, size_t n, double *h, double *l,
                           double *lo, int64_t *acc, int L, int lsb) {
  for (; i + GP_XS_CPU_LANES <= n; i += GP_XS_CPU_LANES) {
    double s[GP_XS_CPU_LANES], t[GP_XS_CPU_LANES], u[GP_XS_CPU_LANES];
    int bad = 0;
    for (int c = 0; c < GP_XS_CPU_LANES; c++) {
      const double v = f32 ? (double)((const float *)x)[i + c] : ((const double *)x)[i + c];
      double e, f, g;
      s[c] = xs_two_sum1(h[c], v, &e);
      t[c] = xs_two_sum1(l[c], e, &f);
      u[c] = xs_two_sum1(lo[c], f, &g);
      bad |= (g != 0.0) | !(fabs(s[c]) < GP_XS_F64_HEAD_MAX); /* NaN g, s: not finite */
    }
    if (!bad) {
      for (int c = 0; c < GP_XS_CPU_LANES; c++) { h[c] = s[c]; l[c] = t[c]; lo[c] = u[c]; }
      continue;
    }
    for (int c = 0; c < GP_XS_CPU_LANES; c++)
      xs_dense1(&h[c], &l[c], &lo[c],
                f32 ? (double)((const float *)x)[i + c] : ((const double *)x)[i + c], acc, L, lsb);
  }
  return i;
}

static void chunk_f32(const float *x, size_t n, int64_t *acc) {
  const int L = GP_XS_F32_LIMBS, lsb = GP_XS_F32_LSB;
  double h[GP_XS_CPU_LANES], l[GP_XS_CPU_LANES], lo[GP_XS_CPU_LANES];
  for (int c = 0; c < GP_XS_CPU_LANES; c++) h[c] = l[c] = lo[c] = -0.0;
  size_t i = 0;
  size_t redone = 0; /* inputs sent to the accumulator */
  for (; i + GP_XS_CPU_LANES <= n; i += GP_XS_CPU_LANES) {
    double s[GP_XS_CPU_LANES], e[GP_XS_CPU_LANES];
    int bad = 0;
    for (int c = 0; c < GP_XS_CPU_LANES; c++) {
      const double v = (double)x[i + c];
      s[c] = h[c] + v;
      const double bb = s[c] - h[c];
      e[c] = (h[c] - (s[c] - bb)) + (v - bb);
      bad |= e[c] != 0.0; /* NaN and inf inputs give a NaN e: not exact either */
    }
    if (!bad) {
      for (int c = 0; c < GP_XS_CPU_LANES; c++) h[c] = s[c];
      continue;
    }
    for (int c = 0; c < GP_XS_CPU_LANES; c++) {
      if (e[c] == 0.0) h[c] = s[c];
      else { gp_xs_add_plain(acc, L, lsb, (double)x[i + c]); redone++; }
    }
    if (redone > 256 && 4 * redone > i) {
      i = dense_blocks(x, 1, i + GP_XS_CPU_LANES, n, h, l, lo, acc, L, lsb);
      break;
    }
  }
  for (; i < n; i++) {
    const double v = (double)x[i];
    if (!gp_xs_add1(&h[0], v)) gp_xs_add_plain(acc, L, lsb, v);
  }
  for (int c = 0; c < GP_XS_CPU_LANES; c++) {
    gp_xs_add_plain(acc, L, lsb, h[c]);
    gp_xs_add_plain(acc, L, lsb, l[c]);
    gp_xs_add_plain(acc, L, lsb, lo[c]);
    acc[L] |= gp_xs_head_flag(h[c]);
  }
  gp_xs_normalize(acc, L);
}

static void chunk_f64(const double *x, size_t n, int64_t *acc) {
  const int L = GP_XS_F64_LIMBS, lsb = GP_XS_F64_LSB;
  double h[GP_XS_CPU_LANES], l[GP_XS_CPU_LANES], lo[GP_XS_CPU_LANES];
  for (int c = 0; c < GP_XS_CPU_LANES; c++) h[c] = l[c] = lo[c] = -0.0;
  size_t i = 0;
  size_t redone = 0; /* inputs sent to the accumulator */
  for (; i + GP_XS_CPU_LANES <= n; i += GP_XS_CPU_LANES) {
    double s[GP_XS_CPU_LANES], e[GP_XS_CPU_LANES];
    int bad = 0;
    for (int c = 0; c < GP_XS_CPU_LANES; c++) { /* gp_xs_add2's fast case: e == 0 */
      const double v = x[i + c];
      s[c] = h[c] + v;
      const double bb = s[c] - h[c];
      e[c] = (h[c] - (s[c] - bb)) + (v - bb);
      bad |= (e[c] != 0.0) | !(fabs(s[c]) < GP_XS_F64_HEAD_MAX);
    }
    if (!bad) {
      for (int c = 0; c < GP_XS_CPU_LANES; c++) h[c] = s[c];
      continue;
    }
    for (int c = 0; c < GP_XS_CPU_LANES; c++)
      if (!gp_xs_add2(&h[c], &l[c], x[i + c])) { gp_xs_add_plain(acc, L, lsb, x[i + c]); redone++; }
    if (redone > 256 && 4 * redone > i) {
      i = dense_blocks(x, 0, i + GP_XS_CPU_LANES, n, h, l, lo, acc, L, lsb);
      break;
    }
  }
  for (; i < n; i++)
    if (!gp_xs_add2(&h[0], &l[0], x[i])) gp_xs_add_plain(acc, L, lsb, x[i]);
  for (int c = 0; c < GP_XS_CPU_LANES; c++) {
    gp_xs_add_plain(acc, L, lsb, h[c]);
    gp_xs_add_plain(acc, L, lsb, l[c]);
    gp_xs_add_plain(acc, L, lsb, lo[c]);
    acc[L] |= gp_xs_head_flag(h[c]);
  }
  gp_xs_normalize(acc, L);
}

#ifdef GP_CPU_X86
/* The same expansions in vector lanes, 16 of them (reduce_exact_vec.h, once per
 * instruction set): a block of 16 inputs whose TwoSum steps were all exact (and, for
 * F64, kept the heads below GP_XS_F64_HEAD_MAX) commits at once; otherwise the exact
 * lanes commit and each other input goes to the accumulator on its own, as the scalar
 * code does. Intrinsics: every operation rounds as written (no contraction). */
#define GP_XS_V 16
#define GP_XS_RUN 16 /* steps taken as if exact before a run is checked (see xs_lanes) */
static inline double xs_at(const void *x, int f32, size_t i) {
  return f32 ? (double)((const float *)x)[i] : ((const double *)x)[i];
}

/* AVX-512F: two vectors of 8 */
GP_CPU_AVX512 static inline __mmask8 xs512_big(__m512d s) {
  const __m512d a = _mm512_castsi512_pd(
      _mm512_and_si512(_mm512_castpd_si512(s), _mm512_set1_epi64(0x7fffffffffffffffll)));
  return _mm512_cmp_pd_mask(a, _mm512_set1_pd(GP_XS_F64_HEAD_MAX), _CMP_NLT_UQ);
}
GP_CPU_AVX512 static inline __m512d xs512_load(const void *x, int f32, size_t i) {
  return f32 ? _mm512_cvtps_pd(_mm256_loadu_ps((const float *)x + i))
             : _mm512_loadu_pd((const double *)x + i);
}
#define XS_ATTR GP_CPU_AVX512
#define XS_NAME(n) n##_avx512
#define XS_VEC __m512d
#define XS_W 8
#define XS_NV 2
#define XS_MASK __mmask8
#define XS_MOR(a, b) ((__mmask8)((a) | (b)))
#define XS_MBITS(m) ((unsigned)(m))
#define XS_MNONE ((__mmask8)0)
#define XS_ADD _mm512_add_pd
#define XS_SUB _mm512_sub_pd
#define XS_NEQ0(e) _mm512_cmp_pd_mask((e), _mm512_setzero_pd(), _CMP_NEQ_UQ)
#define XS_BIG xs512_big
#define XS_BLEND(m, s, h) _mm512_mask_blend_pd((m), (s), (h))
#define XS_LOADX xs512_load
#define XS_LOADU _mm512_loadu_pd
#define XS_STOREU _mm512_storeu_pd
#include "cpu/reduce_exact_vec.h"

/* AVX2: four vectors of 4; masks are compare results, one all-ones double per lane */
GP_CPU_AVX2 static inline __m256d xs256_big(__m256d s) {
  const __m256d a = _mm256_and_pd(s, _mm256_castsi256_pd(_mm256_set1_epi64x(0x7fffffffffffffffll)));
  return _mm256_cmp_pd(a, _mm256_set1_pd(GP_XS_F64_HEAD_MAX), _CMP_NLT_UQ);
}
GP_CPU_AVX2 static inline __m256d xs256_load(const void *x, int f32, size_t i) {
  return f32 ? _mm256_cvtps_pd(_mm_loadu_ps((const float *)x + i))
             : _mm256_loadu_pd((const double *)x + i);
}
#define XS_ATTR GP_CPU_AVX2
#define XS_NAME(n) n##_avx2
#define XS_VEC __m256d
#define XS_W 4
#define XS_NV 4
#define XS_MASK __m256d
#define XS_MOR _mm256_or_pd
#define XS_MBITS(m) ((unsigned)_mm256_movemask_pd(m))
#define XS_MNONE _mm256_setzero_pd()
#define XS_ADD _mm256_add_pd
#define XS_SUB _mm256_sub_pd
#define XS_NEQ0(e) _mm256_cmp_pd((e), _mm256_setzero_pd(), _CMP_NEQ_UQ)
#define XS_BIG xs256_big
#define XS_BLEND(m, s, h) _mm256_blendv_pd((s), (h), (m))
#define XS_LOADX xs256_load
#define XS_LOADU _mm256_loadu_pd
#define XS_STOREU _mm256_storeu_pd
#include "cpu/reduce_exact_vec.h"
#endif

/* ---- F32 blocks whose plain double sum is exact ----------------------------------------
 * A float is an integer number of 2^(f - 150) where f is its exponent field (1 for
 * subnormals), and below 2^(f - 126) in magnitude. So for n floats of fields fmin ..
 * fmax (zeros aside), every partial sum, in any order, is a multiple of 2^(fmin - 150)
 * below n 2^(fmax - 126): a double holds it exactly when ceil(log2 n) + fmax - fmin <= 29.
 * A block that passes that test is summed by plain double additions (one per input, no
 * exactness test) and its sum, exact, goes to the accumulator as one value; a block of
 * wider range (or with inf or NaN) takes the expansions above. Same exact sum, same bits.
 * Ordinary data passes: a block of 2048 standard normal floats spans ~13 binades of the
 * 18 the test allows. */
#define GP_XB_BLOCK 2048
/* chunks whose blocks failed the test this many times go on by the expansions alone */
#define GP_XB_FAILS_MAX 2

/* The test on a block's smallest nonzero and largest magnitudes (bits of |x|, less one
 * for the smallest so that zeros wrap to the top and drop out): 1 when the plain sum of
 * the n inputs is exact, 0 for inf or NaN or too wide a range. */
static inline int xb_bound_ok(uint32_t lo, uint32_t hi, size_t n) {
  if (hi >= 0x7f800000u) return 0; /* inf or NaN */
  if (lo == 0xffffffffu) return 1; /* zeros only */
  int fmin = (int)((lo + 1u) >> 23), fmax = (int)(hi >> 23);
  fmin = fmin < 1 ? 1 : fmin;
  fmax = fmax < 1 ? 1 : fmax;
  return gp_cpu_ceil_log2(n) + fmax - fmin <= 29;
}

/* one input into a scalar lane (s, lo, hi) */
static inline void xb_scalar1(const float *x, double *s, uint32_t *lo, uint32_t *hi) {
  uint32_t u;
  memcpy(&u, x, 4);
  u &= 0x7fffffffu;
  *s += (double)*x;
  *lo = u - 1u < *lo ? u - 1u : *lo; /* a zero wraps to the top: ignored */
  *hi = u > *hi ? u : *hi;
}

/* The exact sum of x[0..n), n <= GP_XB_BLOCK, into *sum when the test above passes (1),
 * else 0. Every lane starts at -0, so *sum is -0 exactly when every input was -0, as
 * IEEE addition gives; the order of the additions is free (they are all exact). */
static int xb_block(const float *x, size_t n, double *sum) {
  double s[4] = {-0.0, -0.0, -0.0, -0.0};
  uint32_t lo = 0xffffffffu, hi = 0;
  size_t i = 0;
  for (; i + 4 <= n; i += 4)
    for (int j = 0; j < 4; j++) xb_scalar1(x + i + j, &s[j], &lo, &hi);
  for (; i < n; i++) xb_scalar1(x + i, &s[0], &lo, &hi);
  if (!xb_bound_ok(lo, hi, n)) return 0;
  *sum = (s[0] + s[1]) + (s[2] + s[3]);
  return 1;
}

#ifdef GP_CPU_X86
/* AVX-512F: 32 inputs a step into four vectors of 8 double lanes (one add's latency
 * per vector and step), the tail in a scalar lane */
GP_CPU_AVX512 static inline void xb_step_avx512(const float *x, __m512d *a, __m512d *b,
                                                __m512i *lo, __m512i *hi) {
  const __m512 v = _mm512_loadu_ps(x);
  const __m256 vh = _mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(v), 1));
  *a = _mm512_add_pd(*a, _mm512_cvtps_pd(_mm512_castps512_ps256(v)));
  *b = _mm512_add_pd(*b, _mm512_cvtps_pd(vh));
  const __m512i u = _mm512_and_si512(_mm512_castps_si512(v), _mm512_set1_epi32(0x7fffffff));
  *lo = _mm512_min_epu32(*lo, _mm512_sub_epi32(u, _mm512_set1_epi32(1)));
  *hi = _mm512_max_epu32(*hi, u);
}
GP_CPU_AVX512 static int xb_block_avx512(const float *x, size_t n, double *sum) {
  __m512d s0 = _mm512_set1_pd(-0.0), s1 = s0, s2 = s0, s3 = s0;
  __m512i lo = _mm512_set1_epi32(-1), hi = _mm512_setzero_si512();
  size_t i = 0;
  for (; i + 32 <= n; i += 32) {
    xb_step_avx512(x + i, &s0, &s1, &lo, &hi);
    xb_step_avx512(x + i + 16, &s2, &s3, &lo, &hi);
  }
  if (i + 16 <= n) {
    xb_step_avx512(x + i, &s0, &s1, &lo, &hi);
    i += 16;
  }
  double st = -0.0;
  uint32_t l = _mm512_reduce_min_epu32(lo), h = _mm512_reduce_max_epu32(hi);
  for (; i < n; i++) xb_scalar1(x + i, &st, &l, &h);
  if (!xb_bound_ok(l, h, n)) return 0;
  *sum = _mm512_reduce_add_pd(_mm512_add_pd(_mm512_add_pd(s0, s1), _mm512_add_pd(s2, s3))) + st;
  return 1;
}

/* AVX2: 16 inputs a step into four vectors of 4 double lanes */
GP_CPU_AVX2 static uint32_t xb_min8_avx2(__m256i v) {
  __m128i m = _mm_min_epu32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
  m = _mm_min_epu32(m, _mm_shuffle_epi32(m, 0x4e));
  m = _mm_min_epu32(m, _mm_shuffle_epi32(m, 0xb1));
  return (uint32_t)_mm_cvtsi128_si32(m);
}
GP_CPU_AVX2 static uint32_t xb_max8_avx2(__m256i v) {
  __m128i m = _mm_max_epu32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
  m = _mm_max_epu32(m, _mm_shuffle_epi32(m, 0x4e));
  m = _mm_max_epu32(m, _mm_shuffle_epi32(m, 0xb1));
  return (uint32_t)_mm_cvtsi128_si32(m);
}
GP_CPU_AVX2 static inline void xb_step_avx2(const float *x, __m256d *a, __m256d *b,
                                            __m256i *lo, __m256i *hi) {
  const __m256 v = _mm256_loadu_ps(x);
  *a = _mm256_add_pd(*a, _mm256_cvtps_pd(_mm256_castps256_ps128(v)));
  *b = _mm256_add_pd(*b, _mm256_cvtps_pd(_mm256_extractf128_ps(v, 1)));
  const __m256i u = _mm256_and_si256(_mm256_castps_si256(v), _mm256_set1_epi32(0x7fffffff));
  *lo = _mm256_min_epu32(*lo, _mm256_sub_epi32(u, _mm256_set1_epi32(1)));
  *hi = _mm256_max_epu32(*hi, u);
}
GP_CPU_AVX2 static int xb_block_avx2(const float *x, size_t n, double *sum) {
  __m256d s0 = _mm256_set1_pd(-0.0), s1 = s0, s2 = s0, s3 = s0;
  __m256i lo = _mm256_set1_epi32(-1), hi = _mm256_setzero_si256();
  size_t i = 0;
  for (; i + 16 <= n; i += 16) {
    xb_step_avx2(x + i, &s0, &s1, &lo, &hi);
    xb_step_avx2(x + i + 8, &s2, &s3, &lo, &hi);
  }
  if (i + 8 <= n) {
    xb_step_avx2(x + i, &s0, &s1, &lo, &hi);
    i += 8;
  }
  double st = -0.0;
  uint32_t l = xb_min8_avx2(lo), h = xb_max8_avx2(hi);
  for (; i < n; i++) xb_scalar1(x + i, &st, &l, &h);
  if (!xb_bound_ok(l, h, n)) return 0;
  double q[4];
  _mm256_storeu_pd(q, _mm256_add_pd(_mm256_add_pd(s0, s1), _mm256_add_pd(s2, s3)));
  *sum = ((q[0] + q[1]) + (q[2] + q[3])) + st;
  return 1;
}
#endif

static int xb_try(const float *x, size_t n, int avx512, int avx2, double *sum) {
  (void)avx512;
  (void)avx2;
#ifdef GP_CPU_X86
  if (avx512) return xb_block_avx512(x, n, sum);
  if (avx2) return xb_block_avx2(x, n, sum);
#endif
  return xb_block(x, n, sum);
}

/* gp_cpu_sum_exact tries plain expansions below this many inputs: on the 2-core
 * AVX2 box (2026-12-01) they cost ~3.7 ns an input, the vector path ~0.5 ns an input
 * plus ~250 ns a call (its lanes' flush, normalization and rounding) */
#define GP_XS_TRY_MAX 64

/* cnt inputs at p by the expansions (normalized into acc) */
static void chunk_expansions(gp_dtype type, const char *p, size_t cnt, int avx512, int avx2,
                             int64_t *acc) {
  (void)avx512;
  (void)avx2;
#ifdef GP_CPU_X86
  if (avx512) chunk_vec_avx512(type, p, cnt, acc);
  else if (avx2) chunk_vec_avx2(type, p, cnt, acc);
  else
#endif
  if (type == GP_F32) chunk_f32((const float *)p, cnt, acc);
  else chunk_f64((const double *)p, cnt, acc);
}

/* A block's exact sum as q + r, both exact doubles, by the plain sums above (F32:
 * xb_try, r = -0; F64: the split of sum_split_f64.c): 1 when some input is not -0, 2
 * when all are -0 (F64: zeros, q their IEEE sum), 0 when the block does not pass. */
static size_t block_len(gp_dtype type) { return type == GP_F32 ? GP_XB_BLOCK : GP_XD_BLOCK; }
static int block_sum(gp_dtype type, const char *p, size_t len, int avx512, int avx2, double *q,
                     double *r) {
  if (type == GP_F64) return gp_cpu_sum_split_f64((const double *)p, len, avx512, avx2, q, r);
  *r = -0.0;
  if (!xb_try((const float *)p, len, avx512, avx2, q)) return 0;
  return gp_xs_head_flag(*q) ? 1 : 2;
}

/* A chunk by blocks (block_sum), the blocks that fail by the expansions; after
 * GP_XB_FAILS_MAX failures the rest by the expansions at once. */
static void chunk_blocks(gp_dtype type, const char *p, size_t cnt, int avx512, int avx2,
                         int64_t *acc) {
  const int f32 = type == GP_F32, L = f32 ? GP_XS_F32_LIMBS : GP_XS_F64_LIMBS;
  const int lsb = f32 ? GP_XS_F32_LSB : GP_XS_F64_LSB;
  const size_t es = f32 ? 4 : 8, blk = block_len(type);
  size_t i = 0;
  int fails = 0;
  while (i < cnt) {
    const size_t len = cnt - i < blk ? cnt - i : blk;
    double q, r;
    const int b = block_sum(type, p + i * es, len, avx512, avx2, &q, &r);
    if (b) {
      gp_xs_add_plain(acc, L, lsb, q);
      gp_xs_add_plain(acc, L, lsb, r);
      acc[L] |= b == 1 ? GP_XS_NOT_NEG0 : gp_xs_head_flag(q);
    } else if (++fails > GP_XB_FAILS_MAX) {
      break;
    } else {
      chunk_expansions(type, p + i * es, len, avx512, avx2, acc);
    }
    i += len;
  }
  if (i < cnt) chunk_expansions(type, p + i * es, cnt - i, avx512, avx2, acc);
  gp_xs_normalize(acc, L);
}

/* chunks [c0, c1) of the n inputs added into acc (not normalized) */
static void sum_chunks(gp_dtype type, const void *in, size_t n, size_t c0, size_t c1,
                       int avx512, int avx2, int64_t *acc) {
  const size_t esize = type == GP_F32 ? 4 : 8;
  const unsigned csr = gp_cpu_ieee_begin();
  for (size_t c = c0; c < c1; c++) {
    size_t lo = c * GP_XS_CPU_CHUNK, cnt = n - lo < GP_XS_CPU_CHUNK ? n - lo : GP_XS_CPU_CHUNK;
    const char *p = (const char *)in + lo * esize;
    chunk_blocks(type, p, cnt, avx512, avx2, acc);
  }
  gp_cpu_ieee_end(csr);
}

static int in_parallel(void) {
#ifdef _OPENMP
  return omp_in_parallel();
#else
  return 0;
#endif
}

void gp_cpu_sum_exact_acc(gp_dtype type, const void *in, size_t n, int64_t *acc) {
  const int L = type == GP_F32 ? GP_XS_F32_LIMBS : GP_XS_F64_LIMBS;
  const size_t nchunks = (n + GP_XS_CPU_CHUNK - 1) / GP_XS_CPU_CHUNK;
  memset(acc, 0, (size_t)(L + 1) * sizeof *acc);
  const int avx512 = gp_cpu_avx512(), avx2 = gp_cpu_avx2();
  if (nchunks <= 1 || in_parallel()) { /* no OpenMP region and lock for one chunk (e.g. a
                                            row of rows) or inside a team (the segments') */
    sum_chunks(type, in, n, 0, nchunks, avx512, avx2, acc);
    gp_xs_normalize(acc, L);
    return;
  }
#ifdef _OPENMP
#pragma omp parallel
#endif
  {
    int64_t mine[GP_XS_MAX_LIMBS + 1];
    memset(mine, 0, sizeof mine);
#ifdef _OPENMP
#pragma omp for schedule(static)
#endif
    for (size_t c = 0; c < nchunks; c++) sum_chunks(type, in, n, c, c + 1, avx512, avx2, mine);
#ifdef _OPENMP
#pragma omp critical(gp_xs_fold)
#endif
    {
      for (int i = 0; i < L; i++) acc[i] = (int64_t)((uint64_t)acc[i] + (uint64_t)mine[i]);
      acc[L] |= mine[L];
      gp_xs_normalize(acc, L);
    }
  }
}

/* the normalized accumulator rounded once into out (F32 or F64) */
static void round_out(gp_dtype type, const int64_t *acc, void *out) {
  if (type == GP_F32) {
    float r = gp_rt_canon_f32((float)gp_xs_round(acc, GP_XS_F32_LIMBS, GP_XS_F32_LSB, 24));
    memcpy(out, &r, sizeof r);
  } else {
    double r = gp_rt_canon_f64(gp_xs_round(acc, GP_XS_F64_LIMBS, GP_XS_F64_LSB, 53));
    memcpy(out, &r, sizeof r);
  }
}

/* Short inputs: four interleaved TwoSum expansions (a double each for F32, a head and a
 * tail for F64), merged at the end; returns 1 with *out set when every step was exact
 * (the usual data), 0 (out untouched) when an input or a merge did not fit them, or was
 * NaN or infinite. The same finish as the GPU's lane groups (reduce_segments.cu). */
static int sum_try_expansions(gp_dtype type, const void *in, size_t n, void *out) {
  double h[4] = {-0.0, -0.0, -0.0, -0.0}, l[4] = {-0.0, -0.0, -0.0, -0.0};
  size_t i = 0;
  if (type == GP_F32) {
    const float *x = (const float *)in;
    for (; i + 4 <= n; i += 4)
      if (!(gp_xs_add1(&h[0], x[i]) & gp_xs_add1(&h[1], x[i + 1]) & gp_xs_add1(&h[2], x[i + 2]) &
            gp_xs_add1(&h[3], x[i + 3])))
        return 0;
    for (; i < n; i++)
      if (!gp_xs_add1(&h[0], x[i])) return 0;
    if (!(gp_xs_add1(&h[0], h[1]) && gp_xs_add1(&h[2], h[3]) && gp_xs_add1(&h[0], h[2])))
      return 0;
    const float r = gp_rt_canon_f32((float)h[0]);
    memcpy(out, &r, sizeof r);
    return 1;
  }
  const double *x = (const double *)in;
  for (; i + 4 <= n; i += 4)
    if (!(gp_xs_add2(&h[0], &l[0], x[i]) & gp_xs_add2(&h[1], &l[1], x[i + 1]) &
          gp_xs_add2(&h[2], &l[2], x[i + 2]) & gp_xs_add2(&h[3], &l[3], x[i + 3])))
      return 0;
  for (; i < n; i++)
    if (!gp_xs_add2(&h[0], &l[0], x[i])) return 0;
  for (int j = 1; j < 4; j++)
    if (!(gp_xs_add2(&h[0], &l[0], h[j]) && gp_xs_add2(&h[0], &l[0], l[j]))) return 0;
  const double r =
      gp_rt_canon_f64(gp_rt_f64_bits(h[0]) == 0x8000000000000000ull ? h[0] : h[0] + l[0]);
  memcpy(out, &r, sizeof r);
  return 1;
}

gp_status gp_cpu_sum_exact(gp_dtype type, const void *in, size_t n, void *out) {
  const unsigned csr = gp_cpu_ieee_begin(); /* sum_chunks sets each worker's own */
  double q, r;
  int b;
  if (n <= block_len(type) && /* one block: no accumulator to round */
      (b = block_sum(type, (const char *)in, n, gp_cpu_avx512(), gp_cpu_avx2(), &q, &r))) {
    /* the exact sum is q + r: one addition rounds it once (+0 for an exact zero of
       inputs not all -0; zeros alone: q is their IEEE sum); F32: q is exact, r -0, and
       the narrowing rounds once; no overflow (F64: |q| < 2^1023), no NaN */
    const double d = b == 1 ? q + r : q;
    if (type == GP_F32) {
      const float f = (float)d;
      memcpy(out, &f, sizeof f);
    } else {
      memcpy(out, &d, sizeof d);
    }
  } else if (!(n < GP_XS_TRY_MAX && sum_try_expansions(type, in, n, out))) {
    int64_t acc[GP_XS_MAX_LIMBS + 1];
    gp_cpu_sum_exact_acc(type, in, n, acc);
    round_out(type, acc, out);
  }
  gp_cpu_ieee_end(csr);
  return GP_OK;
}
