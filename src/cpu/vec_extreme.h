/* One lane-wise max (mx) or min of two AVX2 vectors in the elements' own domain, and the
 * lanes where either is a float NaN: the value blocks of min/max (minmax_cpu.c) and
 * arg-min/max (argreduce_cpu.c). kind: GP_VX_F32, _I32, _U32 (4-byte lanes), _F64, _I64,
 * _U64 (8-byte lanes; AVX2 has no 64-bit integer max: a compare and a blend, the
 * unsigned compare on sign-flipped copies); kind and mx are constants at each inlined
 * call; gp_vx512_* the same on AVX-512 vectors of 64-bit integers. Include after
 * cpu/cpu_features.h, stdint.h and immintrin.h. */
#ifndef GP_CPU_VEC_EXTREME_H
#define GP_CPU_VEC_EXTREME_H

#ifdef GP_CPU_X86
enum { GP_VX_F32, GP_VX_I32, GP_VX_U32, GP_VX_F64, GP_VX_I64, GP_VX_U64 };

/* The elements of es bytes at p before the first 64-byte boundary, for the callers'
 * scalar or keyed loops, so that the vector loads after them never straddle a cache line
 * (a float array NumPy made 16 bytes off: max of 2^16 f32 8.5 us, 6.0 aligned, on a
 * 2-core Xeon); 0 for short runs (n < 256) and for elements not aligned to their size. */
static inline size_t gp_vx_head(const char *p, size_t es, size_t n) {
  const size_t mis = (size_t)((uintptr_t)p & 63);
  return n >= 256 && mis && mis % es == 0 ? (64 - mis) / es : 0;
}

GP_CPU_AVX2 static inline __m256i gp_vx_ext(__m256i x, __m256i y, const int kind, const int mx) {
  if (kind == GP_VX_F32) {
    const __m256 a = _mm256_castsi256_ps(x), b = _mm256_castsi256_ps(y);
    return _mm256_castps_si256(mx ? _mm256_max_ps(a, b) : _mm256_min_ps(a, b));
  }
  if (kind == GP_VX_I32) return mx ? _mm256_max_epi32(x, y) : _mm256_min_epi32(x, y);
  if (kind == GP_VX_U32) return mx ? _mm256_max_epu32(x, y) : _mm256_min_epu32(x, y);
  if (kind == GP_VX_I64 || kind == GP_VX_U64) {
    const __m256i f = _mm256_set1_epi64x(kind == GP_VX_U64 ? (long long)0x8000000000000000ull : 0);
    const __m256i xs = _mm256_xor_si256(x, f), ys = _mm256_xor_si256(y, f);
    /* take y where y > x (max) or x > y (min) */
    return _mm256_blendv_epi8(x, y, mx ? _mm256_cmpgt_epi64(ys, xs) : _mm256_cmpgt_epi64(xs, ys));
  }
  const __m256d a = _mm256_castsi256_pd(x), b = _mm256_castsi256_pd(y);
  return _mm256_castpd_si256(mx ? _mm256_max_pd(a, b) : _mm256_min_pd(a, b));
}

/* all-ones in the 4-byte (F32) or 8-byte (F64) lanes where x or y is a NaN */
GP_CPU_AVX2 static inline __m256 gp_vx_nan(__m256i x, __m256i y, const int kind) {
  if (kind == GP_VX_F32)
    return _mm256_cmp_ps(_mm256_castsi256_ps(x), _mm256_castsi256_ps(y), _CMP_UNORD_Q);
  return _mm256_castpd_ps(
      _mm256_cmp_pd(_mm256_castsi256_pd(x), _mm256_castsi256_pd(y), _CMP_UNORD_Q));
}

/* The extreme of nv >= 4 vectors at q, in every lane (four accumulators, then a
 * butterfly across the lanes); for floats *nan says whether any element was a NaN (the
 * vector is then meaningless). The value blocks of min/max and arg-min/max. */
GP_CPU_AVX2 __attribute__((always_inline)) static inline __m256i
gp_vx_run(const __m256i *q, size_t nv, const int kind, const int mx, int *nan) {
  const int isf = kind == GP_VX_F32 || kind == GP_VX_F64;
  __m256i m0 = _mm256_loadu_si256(q), m1 = _mm256_loadu_si256(q + 1),
          m2 = _mm256_loadu_si256(q + 2), m3 = _mm256_loadu_si256(q + 3);
  __m256 nn = isf ? _mm256_or_ps(gp_vx_nan(m0, m1, kind), gp_vx_nan(m2, m3, kind))
                  : _mm256_setzero_ps();
  size_t j = 4;
  for (; j + 4 <= nv; j += 4) {
    const __m256i x0 = _mm256_loadu_si256(q + j), x1 = _mm256_loadu_si256(q + j + 1),
                  x2 = _mm256_loadu_si256(q + j + 2), x3 = _mm256_loadu_si256(q + j + 3);
    m0 = gp_vx_ext(m0, x0, kind, mx);
    m1 = gp_vx_ext(m1, x1, kind, mx);
    m2 = gp_vx_ext(m2, x2, kind, mx);
    m3 = gp_vx_ext(m3, x3, kind, mx);
    if (isf) nn = _mm256_or_ps(nn, _mm256_or_ps(gp_vx_nan(x0, x1, kind), gp_vx_nan(x2, x3, kind)));
  }
  for (; j < nv; j++) {
    const __m256i x = _mm256_loadu_si256(q + j);
    m0 = gp_vx_ext(m0, x, kind, mx);
    if (isf) nn = _mm256_or_ps(nn, gp_vx_nan(x, x, kind));
  }
  *nan = isf && _mm256_movemask_ps(nn);
  __m256i m = gp_vx_ext(gp_vx_ext(m0, m1, kind, mx), gp_vx_ext(m2, m3, kind, mx), kind, mx);
  m = gp_vx_ext(m, _mm256_permute2x128_si256(m, m, 1), kind, mx);
  m = gp_vx_ext(m, _mm256_shuffle_epi32(m, 0x4e), kind, mx);
  if (kind < GP_VX_F64) m = gp_vx_ext(m, _mm256_shuffle_epi32(m, 0xb1), kind, mx);
  return m;
}

/* AVX-512, for the 64-bit integer kinds only (AVX2 has no 64-bit integer max; for the
 * other kinds the 64-byte vectors were no faster on Zen 4, and the NaN test through
 * mask registers made floats slower: argmax of 2^20 floats from Python 29.6 -> 44.3 us) */
GP_CPU_AVX512 static inline __m512i gp_vx512_ext(__m512i x, __m512i y, const int kind,
                                                 const int mx) {
  if (kind == GP_VX_I64) return mx ? _mm512_max_epi64(x, y) : _mm512_min_epi64(x, y);
  return mx ? _mm512_max_epu64(x, y) : _mm512_min_epu64(x, y);
}

/* the lane-wise extreme of nv >= 4 vectors at q (four accumulators) */
GP_CPU_AVX512 __attribute__((always_inline)) static inline __m512i
gp_vx512_run(const char *q, size_t nv, const int kind, const int mx) {
  __m512i m0 = _mm512_loadu_si512(q), m1 = _mm512_loadu_si512(q + 64),
          m2 = _mm512_loadu_si512(q + 128), m3 = _mm512_loadu_si512(q + 192);
  size_t j = 4;
  for (; j + 4 <= nv; j += 4) {
    const char *r = q + 64 * j;
    m0 = gp_vx512_ext(m0, _mm512_loadu_si512(r), kind, mx);
    m1 = gp_vx512_ext(m1, _mm512_loadu_si512(r + 64), kind, mx);
    m2 = gp_vx512_ext(m2, _mm512_loadu_si512(r + 128), kind, mx);
    m3 = gp_vx512_ext(m3, _mm512_loadu_si512(r + 192), kind, mx);
  }
  for (; j < nv; j++) m0 = gp_vx512_ext(m0, _mm512_loadu_si512(q + 64 * j), kind, mx);
  return gp_vx512_ext(gp_vx512_ext(m0, m1, kind, mx), gp_vx512_ext(m2, m3, kind, mx), kind, mx);
}

/* the extreme of m's eight lanes (by halves: 256, 128, then 64 bits) */
GP_CPU_AVX512 static inline uint64_t gp_vx512_fold(__m512i m, const int kind, const int mx) {
  m = gp_vx512_ext(m, _mm512_shuffle_i64x2(m, m, 0x4e), kind, mx);
  m = gp_vx512_ext(m, _mm512_shuffle_i64x2(m, m, 0xb1), kind, mx);
  m = gp_vx512_ext(m, _mm512_shuffle_epi32(m, (_MM_PERM_ENUM)0x4e), kind, mx);
  return (uint64_t)_mm_cvtsi128_si64(_mm512_castsi512_si128(m));
}
#endif

#endif
