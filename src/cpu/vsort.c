/* Short runs of keys alone sorted in vector registers: a bitonic network on the encoded
 * keys (core/key_codec.h) with vector min/max and lane permutes, for the CPU backend's
 * row and segment sorts, where a run of a few hundred or thousand keys made the radix
 * sort pay a histogram pass per 8-bit digit (docs/perf/cpu.md). AVX-512F: 16 4-byte or
 * 8 8-byte keys a vector; AVX2: 8 4-byte keys a vector (AVX2 has no unsigned 64-bit
 * min/max, so 8-byte keys keep the radix sort there). Keys alone: equal encoded keys are
 * the same bits, so this unstable network gives exactly the stable radix sort's result.
 * Chosen at run time by what the CPU has (cpu/cpu_features.h); elsewhere the *_max()
 * functions give 0 and callers keep the radix sort. The merges and the driver are
 * vsort_impl.h, once per width and instruction set. */
#include "cpu/vsort.h"
#include "cpu/cpu_features.h"
#include "core/key_codec.h"

#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#ifdef GP_CPU_X86
#include <immintrin.h>

/* 2: AVX-512F, 1: AVX2, 0: none (or GPUPRIMS_CPU_VSORT=0, which the tests use to run the
   radix path too) */
static int vs_have(void) {
  static atomic_int have = -1; /* -1: not asked yet (every asker finds the same) */
  int h = atomic_load_explicit(&have, memory_order_relaxed);
  if (h < 0) {
    const char *e = getenv("GPUPRIMS_CPU_VSORT");
    h = e && strcmp(e, "0") == 0 ? 0 : gp_cpu_avx512() ? 2 : gp_cpu_avx2() ? 1 : 0;
    atomic_store_explicit(&have, h, memory_order_relaxed);
  }
  return h;
}
size_t gp_cpu_vsort32_max(void) { return vs_have() ? GP_VSORT32_MAX : 0; }
size_t gp_cpu_vsort64_max(void) { return vs_have() == 2 ? GP_VSORT64_MAX : 0; }

/* the lanes of keys i .. i + l below n, as a bit mask */
static inline unsigned vs_lanes_bits(size_t i, size_t n, unsigned l) {
  return i + l <= n ? (1u << l) - 1u : i < n ? (1u << (n - i)) - 1u : 0u;
}
#define VW_XOR _mm512_xor_si512
#define VW_OR _mm512_or_si512
#define VW_ANDNOT _mm512_andnot_si512
#define VW_LOAD(p) _mm512_load_si512((const void *)(p))
#define VW_STORE(p, v) _mm512_store_si512((void *)(p), (v))

/* ---- 4-byte keys, 16 a vector ------------------------------------------------------- */
/* One compare-exchange step inside every vector: lane l meets lane l ^ j (the partner
 * permutation `idx`); the lanes in `hi` keep the larger key. */
GP_CPU_AVX512 static inline __m512i vs_step_k32(__m512i x, __m512i idx, __mmask16 hi) {
  const __m512i y = _mm512_permutexvar_epi32(idx, x);
  return _mm512_mask_blend_epi32(hi, _mm512_min_epu32(x, y), _mm512_max_epu32(x, y));
}
/* Partner lanes l ^ j as index vectors, and the lanes whose bit j is set (they keep the
 * larger key of a half-cleaner, or of a flip of blocks of 2j). */
#define VS32_IDX(j)                                                                         \
  _mm512_setr_epi32(0 ^ (j), 1 ^ (j), 2 ^ (j), 3 ^ (j), 4 ^ (j), 5 ^ (j), 6 ^ (j), 7 ^ (j), \
                    8 ^ (j), 9 ^ (j), 10 ^ (j), 11 ^ (j), 12 ^ (j), 13 ^ (j), 14 ^ (j), 15 ^ (j))
#define VS32_S(x, j, hi) vs_step_k32(x, VS32_IDX(j), (__mmask16)(hi))
/* The half-cleaners of strides 8, 4, 2, 1 inside one vector. */
GP_CPU_AVX512 static inline __m512i vs_clean1_k32(__m512i x) {
  x = VS32_S(x, 8, 0xFF00);
  x = VS32_S(x, 4, 0xF0F0);
  x = VS32_S(x, 2, 0xCCCC);
  return VS32_S(x, 1, 0xAAAA);
}
/* One vector sorted ascending: per block size k, a flip (l meets l ^ (k - 1)), then the
 * half-cleaners below k / 2. */
GP_CPU_AVX512 static inline __m512i vs_sort1_k32(__m512i x) {
  x = VS32_S(x, 1, 0xAAAA);
  x = VS32_S(x, 3, 0xCCCC);
  x = VS32_S(x, 1, 0xAAAA);
  x = VS32_S(x, 7, 0xF0F0);
  x = VS32_S(x, 2, 0xCCCC);
  x = VS32_S(x, 1, 0xAAAA);
  x = VS32_S(x, 15, 0xFF00);
  x = VS32_S(x, 4, 0xF0F0);
  x = VS32_S(x, 2, 0xCCCC);
  return VS32_S(x, 1, 0xAAAA);
}

#define VW(name) vs_##name##_k32
#define VW_TARGET GP_CPU_AVX512
#define VW_VEC __m512i
#define VW_KT uint32_t
#define VW_L 16
#define VW_MASK __mmask16
#define VW_LANES(i, n) ((__mmask16)vs_lanes_bits(i, n, 16))
#define VW_MIN _mm512_min_epu32
#define VW_MAX _mm512_max_epu32
#define VW_PERM _mm512_permutexvar_epi32
#define VW_BLEND _mm512_mask_blend_epi32
#define VW_SET1 _mm512_set1_epi32
#define VW_SIGN(x) _mm512_srai_epi32(x, 31)
#define VW_TOP INT32_MIN
#define VW_MLOADZ _mm512_maskz_loadu_epi32
#define VW_MSTORE _mm512_mask_storeu_epi32
#define VW_REV _mm512_setr_epi32(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0)
#define VW_MAX_N GP_VSORT32_MAX
#define VW_PUBLIC vs_sort_k32
#include "cpu/vsort_impl.h"

/* ---- 8-byte keys, 8 a vector (the same network, lanes of unsigned 64 bits) ---------- */
GP_CPU_AVX512 static inline __m512i vs_step_k64(__m512i x, __m512i idx, __mmask8 hi) {
  const __m512i y = _mm512_permutexvar_epi64(idx, x);
  return _mm512_mask_blend_epi64(hi, _mm512_min_epu64(x, y), _mm512_max_epu64(x, y));
}
#define VS64_IDX(j) \
  _mm512_setr_epi64(0 ^ (j), 1 ^ (j), 2 ^ (j), 3 ^ (j), 4 ^ (j), 5 ^ (j), 6 ^ (j), 7 ^ (j))
#define VS64_S(x, j, hi) vs_step_k64(x, VS64_IDX(j), (__mmask8)(hi))
GP_CPU_AVX512 static inline __m512i vs_clean1_k64(__m512i x) {
  x = VS64_S(x, 4, 0xF0);
  x = VS64_S(x, 2, 0xCC);
  return VS64_S(x, 1, 0xAA);
}
GP_CPU_AVX512 static inline __m512i vs_sort1_k64(__m512i x) {
  x = VS64_S(x, 1, 0xAA);
  x = VS64_S(x, 3, 0xCC);
  x = VS64_S(x, 1, 0xAA);
  x = VS64_S(x, 7, 0xF0);
  x = VS64_S(x, 2, 0xCC);
  return VS64_S(x, 1, 0xAA);
}

#define VW(name) vs_##name##_k64
#define VW_TARGET GP_CPU_AVX512
#define VW_VEC __m512i
#define VW_KT uint64_t
#define VW_L 8
#define VW_MASK __mmask8
#define VW_LANES(i, n) ((__mmask8)vs_lanes_bits(i, n, 8))
#define VW_MIN _mm512_min_epu64
#define VW_MAX _mm512_max_epu64
#define VW_PERM _mm512_permutexvar_epi64
#define VW_BLEND _mm512_mask_blend_epi64
#define VW_SET1 _mm512_set1_epi64
#define VW_SIGN(x) _mm512_srai_epi64(x, 63)
#define VW_TOP INT64_MIN
#define VW_MLOADZ _mm512_maskz_loadu_epi64
#define VW_MSTORE _mm512_mask_storeu_epi64
#define VW_REV _mm512_setr_epi64(7, 6, 5, 4, 3, 2, 1, 0)
#define VW_MAX_N GP_VSORT64_MAX
#define VW_PUBLIC vs_sort_k64
#include "cpu/vsort_impl.h"
#undef VW_XOR
#undef VW_OR
#undef VW_ANDNOT
#undef VW_LOAD
#undef VW_STORE

/* ---- 4-byte keys with AVX2, 8 a vector ---------------------------------------------- */
GP_CPU_AVX2 static inline __m256i vs_min8(__m256i a, __m256i b) { return _mm256_min_epu32(a, b); }
GP_CPU_AVX2 static inline __m256i vs_max8(__m256i a, __m256i b) { return _mm256_max_epu32(a, b); }
#define VS8_IDX(j) \
  _mm256_setr_epi32(0 ^ (j), 1 ^ (j), 2 ^ (j), 3 ^ (j), 4 ^ (j), 5 ^ (j), 6 ^ (j), 7 ^ (j))
/* lane l meets lane l ^ j; the lanes in HI (an immediate) keep the larger key */
#define VS8_S(x, j, HI)                                                                      \
  _mm256_blend_epi32(vs_min8((x), _mm256_permutevar8x32_epi32((x), VS8_IDX(j))),             \
                     vs_max8((x), _mm256_permutevar8x32_epi32((x), VS8_IDX(j))), (HI))
GP_CPU_AVX2 static inline __m256i vs_clean1_k32x8(__m256i x) {
  x = VS8_S(x, 4, 0xF0);
  x = VS8_S(x, 2, 0xCC);
  return VS8_S(x, 1, 0xAA);
}
GP_CPU_AVX2 static inline __m256i vs_sort1_k32x8(__m256i x) {
  x = VS8_S(x, 1, 0xAA);
  x = VS8_S(x, 3, 0xCC);
  x = VS8_S(x, 1, 0xAA);
  x = VS8_S(x, 7, 0xF0);
  x = VS8_S(x, 2, 0xCC);
  return VS8_S(x, 1, 0xAA);
}
/* the lanes of keys i .. i + 8 below n, as a vector mask (all ones in a lane) */
GP_CPU_AVX2 static inline __m256i vs_lanes8(size_t i, size_t n) {
  const int left = i >= n ? 0 : n - i > 8 ? 8 : (int)(n - i);
  return _mm256_cmpgt_epi32(_mm256_set1_epi32(left), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
}
#define VW(name) vs_##name##_k32x8
#define VW_TARGET GP_CPU_AVX2
#define VW_VEC __m256i
#define VW_KT uint32_t
#define VW_L 8
#define VW_MASK __m256i
#define VW_LANES(i, n) vs_lanes8(i, n)
#define VW_MIN vs_min8
#define VW_MAX vs_max8
#define VW_PERM(idx, x) _mm256_permutevar8x32_epi32((x), (idx))
#define VW_BLEND(m, a, b) _mm256_blendv_epi8((a), (b), (m))
#define VW_SET1 _mm256_set1_epi32
#define VW_SIGN(x) _mm256_srai_epi32(x, 31)
#define VW_TOP INT32_MIN
#define VW_MLOADZ(m, p) _mm256_maskload_epi32((const int *)(p), (m))
#define VW_MSTORE(p, m, v) _mm256_maskstore_epi32((int *)(p), (m), (v))
#define VW_XOR _mm256_xor_si256
#define VW_OR _mm256_or_si256
#define VW_ANDNOT _mm256_andnot_si256
#define VW_LOAD(p) _mm256_load_si256((const __m256i *)(p))
#define VW_STORE(p, v) _mm256_store_si256((__m256i *)(p), (v))
#define VW_REV _mm256_setr_epi32(7, 6, 5, 4, 3, 2, 1, 0)
#define VW_MAX_N GP_VSORT32_MAX
#define VW_PUBLIC vs_sort_k32x8
#include "cpu/vsort_impl.h"

void gp_cpu_vsort32(uint32_t *keys, size_t n, gp_key_class c, int desc) {
  if (vs_have() == 2) vs_sort_k32(keys, n, c, desc);
  else vs_sort_k32x8(keys, n, c, desc);
}
void gp_cpu_vsort64(uint64_t *keys, size_t n, gp_key_class c, int desc) {
  vs_sort_k64(keys, n, c, desc);
}
#else
size_t gp_cpu_vsort32_max(void) { return 0; }
size_t gp_cpu_vsort64_max(void) { return 0; }
void gp_cpu_vsort32(uint32_t *keys, size_t n, gp_key_class c, int desc) {
  (void)keys, (void)n, (void)c, (void)desc;
}
void gp_cpu_vsort64(uint64_t *keys, size_t n, gp_key_class c, int desc) {
  (void)keys, (void)n, (void)c, (void)desc;
}
#endif
