/* CPU backend of the correctly rounded F32/F64 SUM (GP_REDUCE_AUTO): the expansion +
 * superaccumulator of src/core/exact_sum.h, OpenMP threads over fixed chunks, each
 * thread's exact integer folded into one, rounded once. The result is the exact sum
 * rounded, so it equals the CUDA backend's bits whatever either one's order. */
#include "cpu/reduce_cpu.h"
#include "cpu/cpu_features.h"
#include "core/exact_sum.h"

#include <math.h>
#include <string.h>
#ifdef GP_CPU_X86
#include <immintrin.h>
#endif

/* Each chunk starts fresh expansions and ends with a normalized accumulator, so no
 * limb ever holds more than ~3 x 2^16 deferred digits. */
#define GP_XS_CPU_CHUNK ((size_t)1 << 16)

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

/* gp_cpu_sum_exact tries plain expansions below this many inputs: on the 2-core
 * AVX2 box (2026-12-01) they cost ~3.7 ns an input, the vector path ~0.5 ns an input
 * plus ~250 ns a call (its lanes' flush, normalization and rounding) */
#define GP_XS_TRY_MAX 64

/* chunks [c0, c1) of the n inputs added into acc (not normalized) */
static void sum_chunks(gp_dtype type, const void *in, size_t n, size_t c0, size_t c1,
                       int avx512, int avx2, int64_t *acc) {
  const size_t esize = type == GP_F32 ? 4 : 8;
  (void)avx512;
  (void)avx2;
  for (size_t c = c0; c < c1; c++) {
    size_t lo = c * GP_XS_CPU_CHUNK, cnt = n - lo < GP_XS_CPU_CHUNK ? n - lo : GP_XS_CPU_CHUNK;
    const char *p = (const char *)in + lo * esize;
#ifdef GP_CPU_X86
    if (avx512) chunk_vec_avx512(type, p, cnt, acc);
    else if (avx2) chunk_vec_avx2(type, p, cnt, acc);
    else
#endif
    if (type == GP_F32) chunk_f32((const float *)p, cnt, acc);
    else chunk_f64((const double *)p, cnt, acc);
  }
}

void gp_cpu_sum_exact_acc(gp_dtype type, const void *in, size_t n, int64_t *acc) {
  const int L = type == GP_F32 ? GP_XS_F32_LIMBS : GP_XS_F64_LIMBS;
  const size_t nchunks = (n + GP_XS_CPU_CHUNK - 1) / GP_XS_CPU_CHUNK;
  memset(acc, 0, (size_t)(L + 1) * sizeof *acc);
  const int avx512 = gp_cpu_avx512(), avx2 = gp_cpu_avx2();
  if (nchunks <= 1) { /* no OpenMP region and lock for one chunk (e.g. a row of rows) */
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
  if (n < GP_XS_TRY_MAX && sum_try_expansions(type, in, n, out)) return GP_OK;
  int64_t acc[GP_XS_MAX_LIMBS + 1];
  gp_cpu_sum_exact_acc(type, in, n, acc);
  round_out(type, acc, out);
  return GP_OK;
}
