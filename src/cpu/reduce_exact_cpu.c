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
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(__SANITIZE_ADDRESS__)
#define GP_XS_CPU_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define GP_XS_CPU_CLONES
#endif

GP_XS_CPU_CLONES static void chunk_f32(const float *x, size_t n, int64_t *acc) {
  const int L = GP_XS_F32_LIMBS, lsb = GP_XS_F32_LSB;
  double h[GP_XS_CPU_LANES];
  for (int c = 0; c < GP_XS_CPU_LANES; c++) h[c] = -0.0;
  size_t i = 0;
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
      else gp_xs_add_plain(acc, L, lsb, (double)x[i + c]);
    }
  }
  for (; i < n; i++) {
    const double v = (double)x[i];
    if (!gp_xs_add1(&h[0], v)) gp_xs_add_plain(acc, L, lsb, v);
  }
  for (int c = 0; c < GP_XS_CPU_LANES; c++) {
    gp_xs_add_plain(acc, L, lsb, h[c]);
    acc[L] |= gp_xs_head_flag(h[c]);
  }
  gp_xs_normalize(acc, L);
}

GP_XS_CPU_CLONES static void chunk_f64(const double *x, size_t n, int64_t *acc) {
  const int L = GP_XS_F64_LIMBS, lsb = GP_XS_F64_LSB;
  double h[GP_XS_CPU_LANES], l[GP_XS_CPU_LANES];
  for (int c = 0; c < GP_XS_CPU_LANES; c++) h[c] = l[c] = -0.0;
  size_t i = 0;
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
      if (!gp_xs_add2(&h[c], &l[c], x[i + c])) gp_xs_add_plain(acc, L, lsb, x[i + c]);
  }
  for (; i < n; i++)
    if (!gp_xs_add2(&h[0], &l[0], x[i])) gp_xs_add_plain(acc, L, lsb, x[i]);
  for (int c = 0; c < GP_XS_CPU_LANES; c++) {
    gp_xs_add_plain(acc, L, lsb, h[c]);
    gp_xs_add_plain(acc, L, lsb, l[c]);
    acc[L] |= gp_xs_head_flag(h[c]);
  }
  gp_xs_normalize(acc, L);
}

#ifdef GP_CPU_X86
/* The same expansions with AVX-512, 16 lanes in two vectors (the lane count never
 * changes the exact sum): a block of 16 inputs whose TwoSum steps were all exact (and,
 * for F64, kept the heads below GP_XS_F64_HEAD_MAX) commits at once; otherwise the
 * exact lanes commit and each other input goes to the accumulator on its own, as the
 * scalar code does. Intrinsics: every operation rounds as written (no contraction). */
#define GP_XS_V 16
GP_CPU_AVX512 static inline __mmask8 xs_inexact(__m512d h, __m512d v, __m512d *s) {
  const __m512d t = _mm512_add_pd(h, v);
  const __m512d bb = _mm512_sub_pd(t, h);
  const __m512d e = _mm512_add_pd(_mm512_sub_pd(h, _mm512_sub_pd(t, bb)), _mm512_sub_pd(v, bb));
  *s = t;
  return _mm512_cmp_pd_mask(e, _mm512_setzero_pd(), _CMP_NEQ_UQ); /* NaN e: inexact */
}
GP_CPU_AVX512 static inline __mmask8 xs_too_big(__m512d s) {
  const __m512d a = _mm512_castsi512_pd(
      _mm512_and_si512(_mm512_castpd_si512(s), _mm512_set1_epi64(0x7fffffffffffffffll)));
  return _mm512_cmp_pd_mask(a, _mm512_set1_pd(GP_XS_F64_HEAD_MAX), _CMP_NLT_UQ);
}

/* The inputs as doubles, 8 from x[i] (F32 widened, exactly). */
GP_CPU_AVX512 static inline __m512d xs_load8(const void *x, int f32, size_t i) {
  return f32 ? _mm512_cvtps_pd(_mm256_loadu_ps((const float *)x + i))
             : _mm512_loadu_pd((const double *)x + i);
}
static inline double xs_at(const void *x, int f32, size_t i) {
  return f32 ? (double)((const float *)x)[i] : ((const double *)x)[i];
}

/* 16 inputs from x[i] into the lanes (h0, h1): the exact lanes (for F64 also keeping the
 * head below GP_XS_F64_HEAD_MAX) take s; each other input goes on as the scalar code
 * sends it: F32 to the accumulator, F64 through gp_xs_add2's low word first (h, l: the
 * lanes in memory, for that). */
GP_CPU_AVX512 static inline void xs_step(const void *x, int f32, size_t i, __m512d *h0,
                                         __m512d *h1, double *h, double *l, int64_t *acc) {
  __m512d s0, s1;
  __mmask8 m0 = xs_inexact(*h0, xs_load8(x, f32, i), &s0);
  __mmask8 m1 = xs_inexact(*h1, xs_load8(x, f32, i + 8), &s1);
  if (!f32) {
    m0 |= xs_too_big(s0);
    m1 |= xs_too_big(s1);
  }
  *h0 = _mm512_mask_blend_pd(m0, s0, *h0);
  *h1 = _mm512_mask_blend_pd(m1, s1, *h1);
  const unsigned m = m0 | (unsigned)m1 << 8;
  if (m == 0) return;
  const int L = f32 ? GP_XS_F32_LIMBS : GP_XS_F64_LIMBS, lsb = f32 ? GP_XS_F32_LSB : GP_XS_F64_LSB;
  _mm512_storeu_pd(h, *h0);
  _mm512_storeu_pd(h + 8, *h1);
  for (int c = 0; c < GP_XS_V; c++) {
    const double v = xs_at(x, f32, i + (size_t)c);
    if ((m >> c) & 1 && (f32 || !gp_xs_add2(&h[c], &l[c], v))) gp_xs_add_plain(acc, L, lsb, v);
  }
  *h0 = _mm512_loadu_pd(h);
  *h1 = _mm512_loadu_pd(h + 8);
}

/* Runs of GP_XS_RUN steps are first taken as if every addition were exact, so the lanes'
 * only loop-carried dependence is one add (the exactness test would put the whole TwoSum
 * on it); a run where one was not is redone from its start step by step. */
#define GP_XS_RUN 16

/* The lanes (h, l)[0..16) over x[0..n); returns how many inputs they took (a multiple
 * of 16). f32 is a constant at each call, so each width gets its own loop. */
GP_CPU_AVX512 static inline size_t xs_lanes(const void *x, int f32, size_t n, double *h,
                                            double *l, int64_t *acc) {
  __m512d h0 = _mm512_loadu_pd(h), h1 = _mm512_loadu_pd(h + 8);
  size_t i = 0;
  for (; i + GP_XS_V * GP_XS_RUN <= n; i += GP_XS_V * GP_XS_RUN) {
    const __m512d c0 = h0, c1 = h1;
    __mmask8 bad = 0;
    for (size_t j = i; j < i + GP_XS_V * GP_XS_RUN; j += GP_XS_V) {
      __m512d s0, s1;
      bad |= xs_inexact(h0, xs_load8(x, f32, j), &s0);
      bad |= xs_inexact(h1, xs_load8(x, f32, j + 8), &s1);
      if (!f32) bad |= xs_too_big(s0) | xs_too_big(s1);
      h0 = s0;
      h1 = s1;
    }
    if (!bad) continue;
    h0 = c0;
    h1 = c1;
    for (size_t j = i; j < i + GP_XS_V * GP_XS_RUN; j += GP_XS_V)
      xs_step(x, f32, j, &h0, &h1, h, l, acc);
  }
  for (; i + GP_XS_V <= n; i += GP_XS_V) xs_step(x, f32, i, &h0, &h1, h, l, acc);
  _mm512_storeu_pd(h, h0);
  _mm512_storeu_pd(h + 8, h1);
  return i;
}

/* One chunk with the vector lanes first, the scalar tail after; the lanes' expansions
 * go to the accumulator at the end, as in chunk_f32/chunk_f64. */
GP_CPU_AVX512 static void chunk_avx512(gp_dtype type, const void *p, size_t n, int64_t *acc) {
  double h[GP_XS_V], l[GP_XS_V];
  for (int c = 0; c < GP_XS_V; c++) h[c] = l[c] = -0.0;
  const int f32 = type == GP_F32;
  const int L = f32 ? GP_XS_F32_LIMBS : GP_XS_F64_LIMBS, lsb = f32 ? GP_XS_F32_LSB : GP_XS_F64_LSB;
  size_t i = f32 ? xs_lanes(p, 1, n, h, l, acc) : xs_lanes(p, 0, n, h, l, acc);
  for (; i < n; i++) {
    const double v = xs_at(p, f32, i);
    if (!(f32 ? gp_xs_add1(&h[0], v) : gp_xs_add2(&h[0], &l[0], v)))
      gp_xs_add_plain(acc, L, lsb, v);
  }
  for (int c = 0; c < GP_XS_V; c++) {
    gp_xs_add_plain(acc, L, lsb, h[c]);
    if (!f32) gp_xs_add_plain(acc, L, lsb, l[c]);
    acc[L] |= gp_xs_head_flag(h[c]);
  }
  gp_xs_normalize(acc, L);
}
#endif

void gp_cpu_sum_exact_acc(gp_dtype type, const void *in, size_t n, int64_t *acc) {
  const int L = type == GP_F32 ? GP_XS_F32_LIMBS : GP_XS_F64_LIMBS;
  const size_t esize = type == GP_F32 ? 4 : 8;
  const size_t nchunks = (n + GP_XS_CPU_CHUNK - 1) / GP_XS_CPU_CHUNK;
  memset(acc, 0, (size_t)(L + 1) * sizeof *acc);
  const int avx512 = gp_cpu_avx512();
  (void)avx512;
#ifdef _OPENMP
#pragma omp parallel if (nchunks > 1)
#endif
  {
    int64_t mine[GP_XS_MAX_LIMBS + 1];
    memset(mine, 0, sizeof mine);
#ifdef _OPENMP
#pragma omp for schedule(static)
#endif
    for (size_t c = 0; c < nchunks; c++) {
      size_t lo = c * GP_XS_CPU_CHUNK, cnt = n - lo < GP_XS_CPU_CHUNK ? n - lo : GP_XS_CPU_CHUNK;
      const char *p = (const char *)in + lo * esize;
#ifdef GP_CPU_X86
      if (avx512) chunk_avx512(type, p, cnt, mine);
      else
#endif
      if (type == GP_F32) chunk_f32((const float *)p, cnt, mine);
      else chunk_f64((const double *)p, cnt, mine);
    }
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

gp_status gp_cpu_sum_exact(gp_dtype type, const void *in, size_t n, void *out) {
  int64_t acc[GP_XS_MAX_LIMBS + 1];
  gp_cpu_sum_exact_acc(type, in, n, acc);
  if (type == GP_F32) {
    float r = gp_rt_canon_f32((float)gp_xs_round(acc, GP_XS_F32_LIMBS, GP_XS_F32_LSB, 24));
    memcpy(out, &r, sizeof r);
  } else {
    double r = gp_rt_canon_f64(gp_xs_round(acc, GP_XS_F64_LIMBS, GP_XS_F64_LSB, 53));
    memcpy(out, &r, sizeof r);
  }
  return GP_OK;
}
