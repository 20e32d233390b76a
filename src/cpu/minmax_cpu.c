/* GP_REDUCE_AUTO's MIN / MAX on the CPU: every element becomes an unsigned key as wide
 * as itself, k = ((u ^ (sign(u) & A)) ^ B) + C, whose plain unsigned minimum decodes to
 * the library's MIN or MAX (core/reduce_tree.h's minkey/maxkey for floats: the NaNs land
 * below every other key, so no NaN branch). The seed algorithms' tree emulation
 * (cpu/reduce_cpu_stamp.h) did a branchy float compare per element and ran at 0.4x
 * np.min; one vector min per 8 (4) elements keeps up with memory. */
#include "cpu/minmax_cpu.h"
#include "cpu/cpu_features.h"
#include "core/reduce_tree.h"

#include <stdint.h>
#include <string.h>
#ifdef GP_CPU_X86
#include <immintrin.h>
#endif
#include "cpu/vec_extreme.h"

#define GP_MM_CHUNK 65536u /* elements per OpenMP work item; one item runs on one thread */
#define GP_MM_TOP64 0x8000000000000000ull

/* A, B, C of the key for each (type, op):
 *  F32 MIN: A = 0x7fffffff, B = 0x80000000, C = OFF: key_f32(u) + OFF (= minkey)
 *  F32 MAX: A = 0x7fffffff, B = 0x7fffffff, C = OFF: ~key_f32(u) + OFF = ~(maxkey)
 *  I32: A = 0, C = 0, B = 0x80000000 (MIN) or 0x7fffffff (MAX); U32: B = 0 or ~0.
 * Integers decode as m ^ B; 64-bit types likewise. */
typedef struct mm_key {
  uint64_t a, b, c;
} mm_key;

static mm_key key_of(gp_op op, gp_dtype t) {
  const int mx = op == GP_MAX;
  mm_key k = {0, 0, 0};
  switch (t) {
  case GP_F32: k.a = 0x7fffffffu; k.b = mx ? 0x7fffffffu : 0x80000000u; k.c = GP_RT_F32_KEY_OFF; break;
  case GP_I32: k.b = mx ? 0x7fffffffu : 0x80000000u; break;
  case GP_U32: k.b = mx ? 0xffffffffu : 0u; break;
  case GP_F64:
    k.a = ~GP_MM_TOP64;
    k.b = mx ? ~GP_MM_TOP64 : GP_MM_TOP64;
    k.c = GP_RT_F64_KEY_OFF;
    break;
  case GP_I64: k.b = mx ? ~GP_MM_TOP64 : GP_MM_TOP64; break;
  default: k.b = mx ? ~0ull : 0ull; break;
  }
  return k;
}

/* the key of element bits u */
static inline uint32_t mm_key32(uint32_t u, uint32_t a, uint32_t b, uint32_t c) {
  return ((u ^ ((0u - (u >> 31)) & a)) ^ b) + c;
}
static inline uint64_t mm_key64(uint64_t u, uint64_t a, uint64_t b, uint64_t c) {
  return ((u ^ ((0ull - (u >> 63)) & a)) ^ b) + c;
}

/* ---- portable loops (the compiler vectorizes them where it can) ---- */
static uint32_t min32_scalar(const char *p, size_t n, uint32_t a, uint32_t b, uint32_t c,
                             uint32_t m) {
  for (size_t i = 0; i < n; i++) {
    uint32_t u;
    memcpy(&u, p + 4 * i, 4);
    const uint32_t k = mm_key32(u, a, b, c);
    m = k < m ? k : m;
  }
  return m;
}
static uint64_t min64_scalar(const char *p, size_t n, uint64_t a, uint64_t b, uint64_t c,
                             uint64_t m) {
  for (size_t i = 0; i < n; i++) {
    uint64_t u;
    memcpy(&u, p + 8 * i, 8);
    const uint64_t k = mm_key64(u, a, b, c);
    m = k < m ? k : m;
  }
  return m;
}

#ifdef GP_CPU_X86
/* AVX2: four independent accumulators of 8 (4) keys; 64-bit keys are compared signed
 * (AVX2 has no unsigned 64-bit compare), so C carries the sign flip: k ^ TOP = k + TOP. */
GP_CPU_AVX2 static inline __m256i key32_avx2(__m256i x, __m256i a, __m256i b, __m256i c) {
  const __m256i s = _mm256_and_si256(_mm256_srai_epi32(x, 31), a);
  return _mm256_add_epi32(_mm256_xor_si256(_mm256_xor_si256(x, s), b), c);
}
GP_CPU_AVX2 static uint32_t min32_avx2(const char *p, size_t n, uint32_t a, uint32_t b,
                                       uint32_t c, uint32_t m) {
  const __m256i va = _mm256_set1_epi32((int)a), vb = _mm256_set1_epi32((int)b),
                vc = _mm256_set1_epi32((int)c);
  __m256i m0 = _mm256_set1_epi32((int)m), m1 = m0, m2 = m0, m3 = m0;
  size_t i = 0;
  for (; i + 32 <= n; i += 32) {
    const __m256i *q = (const __m256i *)(const void *)(p + 4 * i);
    m0 = _mm256_min_epu32(m0, key32_avx2(_mm256_loadu_si256(q + 0), va, vb, vc));
    m1 = _mm256_min_epu32(m1, key32_avx2(_mm256_loadu_si256(q + 1), va, vb, vc));
    m2 = _mm256_min_epu32(m2, key32_avx2(_mm256_loadu_si256(q + 2), va, vb, vc));
    m3 = _mm256_min_epu32(m3, key32_avx2(_mm256_loadu_si256(q + 3), va, vb, vc));
  }
  m0 = _mm256_min_epu32(_mm256_min_epu32(m0, m1), _mm256_min_epu32(m2, m3));
  __m128i h = _mm_min_epu32(_mm256_castsi256_si128(m0), _mm256_extracti128_si256(m0, 1));
  h = _mm_min_epu32(h, _mm_shuffle_epi32(h, 0x4e));
  h = _mm_min_epu32(h, _mm_shuffle_epi32(h, 0xb1));
  return min32_scalar(p + 4 * i, n - i, a, b, c, (uint32_t)_mm_cvtsi128_si32(h));
}

GP_CPU_AVX2 static inline __m256i key64_avx2(__m256i x, __m256i a, __m256i b, __m256i c) {
  const __m256i s = _mm256_and_si256(_mm256_cmpgt_epi64(_mm256_setzero_si256(), x), a);
  return _mm256_add_epi64(_mm256_xor_si256(_mm256_xor_si256(x, s), b), c);
}
GP_CPU_AVX2 static inline __m256i smin64_avx2(__m256i m, __m256i k) {
  return _mm256_blendv_epi8(m, k, _mm256_cmpgt_epi64(m, k));
}
GP_CPU_AVX2 static uint64_t min64_avx2(const char *p, size_t n, uint64_t a, uint64_t b,
                                       uint64_t c, uint64_t m) {
  const __m256i va = _mm256_set1_epi64x((long long)a), vb = _mm256_set1_epi64x((long long)b),
                vc = _mm256_set1_epi64x((long long)(c + GP_MM_TOP64));
  __m256i m0 = _mm256_set1_epi64x((long long)(m ^ GP_MM_TOP64)), m1 = m0, m2 = m0, m3 = m0;
  size_t i = 0;
  for (; i + 16 <= n; i += 16) {
    const __m256i *q = (const __m256i *)(const void *)(p + 8 * i);
    m0 = smin64_avx2(m0, key64_avx2(_mm256_loadu_si256(q + 0), va, vb, vc));
    m1 = smin64_avx2(m1, key64_avx2(_mm256_loadu_si256(q + 1), va, vb, vc));
    m2 = smin64_avx2(m2, key64_avx2(_mm256_loadu_si256(q + 2), va, vb, vc));
    m3 = smin64_avx2(m3, key64_avx2(_mm256_loadu_si256(q + 3), va, vb, vc));
  }
  m0 = smin64_avx2(smin64_avx2(m0, m1), smin64_avx2(m2, m3));
  int64_t l[4];
  _mm256_storeu_si256((__m256i *)(void *)l, m0);
  for (int j = 1; j < 4; j++) l[0] = l[j] < l[0] ? l[j] : l[0];
  return min64_scalar(p + 8 * i, n - i, a, b, c, (uint64_t)l[0] ^ GP_MM_TOP64);
}
#endif

#ifdef GP_CPU_X86
/* Value domain: the largest (smallest) element by one max (min) per vector in the
 * element's own domain, floats also OR-ing a NaN test, then its key (about twice the
 * keys' speed: 4096 f32 254 -> 171 ns). Returns 0 (and the caller takes the keys) for a
 * float NaN or a zero extreme: a NaN result, and the sign of a zero (-0 below +0), are
 * the keys' to decide; float max/min order neither. kind: GP_VX_* (vec_extreme.h).
 * value_finish folds elements [from, n) into the vectors' extreme r and makes the
 * NaN and zero tests. */
__attribute__((always_inline)) static inline int value_finish(const char *p, size_t from,
                                                              size_t n, const int kind,
                                                              const int mx, uint64_t r,
                                                              uint64_t *v) {
  const int isf = kind == GP_VX_F32 || kind == GP_VX_F64, w8 = kind >= GP_VX_F64;
  for (size_t i = from; i < n; i++) {
    uint64_t u = 0;
    memcpy(&u, p + i * (w8 ? 8 : 4), w8 ? 8 : 4);
    int better;
    if (kind == GP_VX_F32) {
      float a, b;
      memcpy(&a, &u, 4);
      memcpy(&b, &r, 4);
      if (a != a) return 0;
      better = mx ? a > b : a < b;
    } else if (kind == GP_VX_F64) {
      double a, b;
      memcpy(&a, &u, 8);
      memcpy(&b, &r, 8);
      if (a != a) return 0;
      better = mx ? a > b : a < b;
    } else if (kind == GP_VX_I32) {
      better = mx ? (int32_t)u > (int32_t)r : (int32_t)u < (int32_t)r;
    } else if (kind == GP_VX_I64) {
      better = mx ? (int64_t)u > (int64_t)r : (int64_t)u < (int64_t)r;
    } else if (kind == GP_VX_U64) {
      better = mx ? u > r : u < r;
    } else {
      better = mx ? (uint32_t)u > (uint32_t)r : (uint32_t)u < (uint32_t)r;
    }
    if (better) r = u;
  }
  if (isf && (w8 ? (r << 1) == 0 : (uint32_t)(r << 1) == 0)) return 0; /* a zero */
  *v = r;
  return 1;
}

GP_CPU_AVX2 __attribute__((always_inline)) static inline int
value_avx2_body(const char *p, size_t n, const int kind, const int mx, uint64_t *v) {
  const int w8 = kind >= GP_VX_F64;
  const size_t per = w8 ? 4 : 8, nv = n / per; /* elements a vector, whole vectors */
  if (nv < 4) return 0;
  int nan;
  const __m256i m = gp_vx_run((const __m256i *)(const void *)p, nv, kind, mx, &nan);
  if (nan) return 0;
  const uint64_t r = w8 ? (uint64_t)_mm256_extract_epi64(m, 0) : (uint32_t)_mm256_cvtsi256_si32(m);
  return value_finish(p, nv * per, n, kind, mx, r, v);
}

/* AVX-512, 64-bit integers (GP_VX_I64, GP_VX_U64): the same with 64-byte vectors */
GP_CPU_AVX512 __attribute__((always_inline)) static inline int
value_avx512_body(const char *p, size_t n, const int kind, const int mx, uint64_t *v) {
  const size_t nv = n / 8;
  if (nv < 4) return 0;
  const __m512i m = gp_vx512_run(p, nv, kind, mx);
  return value_finish(p, nv * 8, n, kind, mx, gp_vx512_fold(m, kind, mx), v);
}

/* the value domain's entry: one stamp of the body per (kind, op) */
GP_CPU_AVX2 static int value_avx2(const char *p, size_t n, int kind, int mx, uint64_t *v) {
  switch (kind * 2 + mx) {
  case 0: return value_avx2_body(p, n, GP_VX_F32, 0, v);
  case 1: return value_avx2_body(p, n, GP_VX_F32, 1, v);
  case 2: return value_avx2_body(p, n, GP_VX_I32, 0, v);
  case 3: return value_avx2_body(p, n, GP_VX_I32, 1, v);
  case 4: return value_avx2_body(p, n, GP_VX_U32, 0, v);
  case 5: return value_avx2_body(p, n, GP_VX_U32, 1, v);
  case 6: return value_avx2_body(p, n, GP_VX_F64, 0, v);
  case 7: return value_avx2_body(p, n, GP_VX_F64, 1, v);
  case 8: return value_avx2_body(p, n, GP_VX_I64, 0, v);
  case 9: return value_avx2_body(p, n, GP_VX_I64, 1, v);
  case 10: return value_avx2_body(p, n, GP_VX_U64, 0, v);
  default: return value_avx2_body(p, n, GP_VX_U64, 1, v);
  }
}
/* kind: GP_VX_I64 or GP_VX_U64 */
GP_CPU_AVX512 static int value_avx512(const char *p, size_t n, int kind, int mx, uint64_t *v) {
  if (kind == GP_VX_I64) return mx ? value_avx512_body(p, n, GP_VX_I64, 1, v)
                                   : value_avx512_body(p, n, GP_VX_I64, 0, v);
  return mx ? value_avx512_body(p, n, GP_VX_U64, 1, v) : value_avx512_body(p, n, GP_VX_U64, 0, v);
}
#endif

/* the minimum of mine and the keys of cnt elements at p; kind (GP_VX_*) and mx pick
 * the value domain, tried first */
static uint64_t chunk_min_body(const char *p, size_t cnt, int w8, int isa, const mm_key *k,
                               int kind, int mx, uint64_t mine) {
  const int avx2 = isa >= 1;
  (void)avx2;
  (void)kind;
  (void)mx;
#ifdef GP_CPU_X86
  uint64_t v;
  /* Under a caller's DAZ a subnormal extreme reads as zero (max and min return +0
     then): the zero test sends such a chunk to the keys too (test_reduce_cpu). */
  const int int64 = kind == GP_VX_I64 || kind == GP_VX_U64;
  if (isa == 2 && int64 ? value_avx512(p, cnt, kind, mx, &v)
                        : avx2 && value_avx2(p, cnt, kind, mx, &v)) {
    const uint64_t key = w8 ? mm_key64(v, k->a, k->b, k->c)
                            : mm_key32((uint32_t)v, (uint32_t)k->a, (uint32_t)k->b, (uint32_t)k->c);
    return key < mine ? key : mine;
  }
#endif
  if (w8) {
#ifdef GP_CPU_X86
    if (avx2) return min64_avx2(p, cnt, k->a, k->b, k->c, mine);
#endif
    return min64_scalar(p, cnt, k->a, k->b, k->c, mine);
  }
#ifdef GP_CPU_X86
  if (avx2) return min32_avx2(p, cnt, (uint32_t)k->a, (uint32_t)k->b, (uint32_t)k->c, (uint32_t)mine);
#endif
  return min32_scalar(p, cnt, (uint32_t)k->a, (uint32_t)k->b, (uint32_t)k->c, (uint32_t)mine);
}

/* the same, the head before the first 64-byte boundary (gp_vx_head) by keys where the
 * vectors follow */
static uint64_t chunk_min(const char *p, size_t cnt, int w8, int isa, const mm_key *k,
                          int kind, int mx, uint64_t mine) {
#ifdef GP_CPU_X86
  const size_t es = w8 ? 8 : 4, h = isa >= 1 ? gp_vx_head(p, es, cnt) : 0;
  if (h) {
    mine = chunk_min_body(p, h, w8, 0, k, kind, mx, mine);
    p += h * es;
    cnt -= h;
  }
#endif
  return chunk_min_body(p, cnt, w8, isa, k, kind, mx, mine);
}

void gp_cpu_minmax(gp_op op, gp_dtype type, const void *in, size_t n, void *out) {
  const mm_key k = key_of(op, type);
  const int w8 = gp_dtype_size(type) == 8, mx = op == GP_MAX;
  const size_t es = w8 ? 8 : 4, nchunks = (n + GP_MM_CHUNK - 1) / GP_MM_CHUNK;
  const int isa = gp_cpu_avx512() ? 2 : gp_cpu_avx2() ? 1 : 0;
  const int kind = type == GP_F32 ? GP_VX_F32 : type == GP_I32 ? GP_VX_I32
                   : type == GP_U32 ? GP_VX_U32 : type == GP_F64 ? GP_VX_F64
                   : type == GP_I64 ? GP_VX_I64 : GP_VX_U64;
  uint64_t best = ~0ull; /* the identity of unsigned min, either width */
  if (nchunks <= 1) { /* no OpenMP region and lock for one chunk (e.g. a row of rows) */
    best = chunk_min((const char *)in, n, w8, isa, &k, kind, mx, best);
  } else {
    const ptrdiff_t nc = (ptrdiff_t)nchunks;
#ifdef _OPENMP
#pragma omp parallel
#endif
    {
      uint64_t mine = ~0ull;
#ifdef _OPENMP
#pragma omp for schedule(static)
#endif
      for (ptrdiff_t ci = 0; ci < nc; ci++) {
        const size_t lo = (size_t)ci * GP_MM_CHUNK, cnt = n - lo < GP_MM_CHUNK ? n - lo : GP_MM_CHUNK;
        mine = chunk_min((const char *)in + lo * es, cnt, w8, isa, &k, kind, mx, mine);
      }
#ifdef _OPENMP
#pragma omp critical(gp_mm_fold)
#endif
      if (mine < best) best = mine;
    }
  }
  switch (type) {
  case GP_F32: {
    const uint32_t m = (uint32_t)best;
    const float f = mx ? gp_rt_f32_from_maxkey(~m) : gp_rt_f32_from_minkey(m);
    memcpy(out, &f, 4);
    break;
  }
  case GP_F64: {
    const double d = mx ? gp_rt_f64_from_maxkey(~best) : gp_rt_f64_from_minkey(best);
    memcpy(out, &d, 8);
    break;
  }
  case GP_I32:
  case GP_U32: {
    const uint32_t v = (uint32_t)best ^ (uint32_t)k.b;
    memcpy(out, &v, 4);
    break;
  }
  default: {
    const uint64_t v = best ^ k.b;
    memcpy(out, &v, 8);
    break;
  }
  }
}
