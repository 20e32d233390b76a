/* Short runs of keys alone sorted in vector registers: a bitonic network on the encoded
 * keys (core/key_codec.h) with vector min/max and lane permutes, for the CPU backend's
 * row and segment sorts, where a run of a few hundred or thousand keys made the radix
 * sort pay a histogram pass per 8-bit digit (docs/perf/cpu.md). AVX-512F: 16 4-byte or
 * 8 8-byte keys a vector; AVX2: 8 4-byte keys a vector (AVX2 has no unsigned 64-bit
 * min/max, so 8-byte keys keep the radix sort there). Keys alone: equal encoded keys are
 * the same bits, so this unstable network gives exactly the stable radix sort's result.
 * Chosen at run time by what the CPU has (cpu/cpu_features.h); elsewhere the *_max()
 * functions give 0 and callers keep the radix sort. The AVX-512 merges and driver are
 * vsort_impl.h, once per width; AVX2 has its own (below: 8x8 blocks sorted in registers,
 * in-lane shuffles, encode and decode fused into the first and last passes). */
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
/* One compare-exchange step inside every vector: lane l meets its partner's lane in y
 * (x permuted); the lanes in `hi` keep the larger key. */
GP_CPU_AVX512 static inline __m512i vs_step_k32(__m512i x, __m512i y, __mmask16 hi) {
  return _mm512_mask_blend_epi32(hi, _mm512_min_epu32(x, y), _mm512_max_epu32(x, y));
}
/* Partner lanes l ^ j: strides 1 and 2 by in-lane shuffles, 4 and 8 by 128-bit lane
 * shuffles (immediates: no index vector, shorter latency than a full permute); the flips
 * (j = 3, 7, 15) by a permute. `hi`: the lanes whose bit j is set (they keep the larger
 * key of a half-cleaner, or of a flip of blocks of 2j). */
#define VS32_IDX(j)                                                                         \
  _mm512_setr_epi32(0 ^ (j), 1 ^ (j), 2 ^ (j), 3 ^ (j), 4 ^ (j), 5 ^ (j), 6 ^ (j), 7 ^ (j), \
                    8 ^ (j), 9 ^ (j), 10 ^ (j), 11 ^ (j), 12 ^ (j), 13 ^ (j), 14 ^ (j), 15 ^ (j))
#define VS32_F(x, j, hi) vs_step_k32(x, _mm512_permutexvar_epi32(VS32_IDX(j), x), (__mmask16)(hi))
#define VS32_S1(x) vs_step_k32(x, _mm512_shuffle_epi32(x, (_MM_PERM_ENUM)0xB1), 0xAAAA)
#define VS32_S2(x) vs_step_k32(x, _mm512_shuffle_epi32(x, (_MM_PERM_ENUM)0x4E), 0xCCCC)
#define VS32_S4(x) vs_step_k32(x, _mm512_shuffle_i32x4(x, x, 0xB1), 0xF0F0)
#define VS32_S8(x) vs_step_k32(x, _mm512_shuffle_i32x4(x, x, 0x4E), 0xFF00)
/* The half-cleaners of strides 8, 4, 2, 1 inside one vector. */
GP_CPU_AVX512 static inline __m512i vs_clean1_k32(__m512i x) {
  x = VS32_S8(x);
  x = VS32_S4(x);
  x = VS32_S2(x);
  return VS32_S1(x);
}
/* One vector sorted ascending: per block size k, a flip (l meets l ^ (k - 1)), then the
 * half-cleaners below k / 2. */
GP_CPU_AVX512 static inline __m512i vs_sort1_k32(__m512i x) {
  x = VS32_S1(x);
  x = VS32_F(x, 3, 0xCCCC);
  x = VS32_S1(x);
  x = VS32_F(x, 7, 0xF0F0);
  x = VS32_S2(x);
  x = VS32_S1(x);
  x = VS32_F(x, 15, 0xFF00);
  x = VS32_S4(x);
  x = VS32_S2(x);
  return VS32_S1(x);
}

/* Compare-exchange of whole vectors (a keeps the smaller keys): the column networks */
GP_CPU_AVX512 static inline __attribute__((always_inline)) void vs_cx32(__m512i *a, __m512i *b) {
  const __m512i x = *a;
  *a = _mm512_min_epu32(x, *b);
  *b = _mm512_max_epu32(x, *b);
}
#define VS_CX32(a, b) vs_cx32(&(a), &(b))
/* 16 vectors at v each sorted: the 16 columns sorted across the vectors by Batcher's
 * odd-even merge network (63 comparators, min/max only), then a 16 x 16 transpose (each
 * vector now a column in row order). ~12 ops a vector where sort1 takes 40. */
GP_CPU_AVX512 static inline void vs_sort_cols_k32(__m512i *v) {
  __m512i r[16];
  for (int j = 0; j < 16; j++) r[j] = _mm512_load_si512((const void *)(v + j));
  for (int j = 0; j < 16; j += 2) VS_CX32(r[j], r[j + 1]);
  for (int j = 0; j < 16; j += 4) VS_CX32(r[j], r[j + 2]), VS_CX32(r[j + 1], r[j + 3]);
  for (int j = 0; j < 16; j += 8) {
    VS_CX32(r[j + 1], r[j + 2]), VS_CX32(r[j + 5], r[j + 6]);
    VS_CX32(r[j], r[j + 4]), VS_CX32(r[j + 3], r[j + 7]);
    VS_CX32(r[j + 2], r[j + 6]), VS_CX32(r[j + 1], r[j + 5]);
    VS_CX32(r[j + 2], r[j + 4]), VS_CX32(r[j + 3], r[j + 5]);
    VS_CX32(r[j + 1], r[j + 2]), VS_CX32(r[j + 3], r[j + 4]), VS_CX32(r[j + 5], r[j + 6]);
  }
  VS_CX32(r[0], r[8]), VS_CX32(r[7], r[15]);
  VS_CX32(r[4], r[12]), VS_CX32(r[2], r[10]), VS_CX32(r[6], r[14]);
  VS_CX32(r[1], r[9]), VS_CX32(r[5], r[13]), VS_CX32(r[3], r[11]);
  VS_CX32(r[4], r[8]), VS_CX32(r[6], r[10]), VS_CX32(r[5], r[9]), VS_CX32(r[7], r[11]);
  VS_CX32(r[2], r[4]), VS_CX32(r[6], r[8]), VS_CX32(r[10], r[12]);
  VS_CX32(r[3], r[5]), VS_CX32(r[7], r[9]), VS_CX32(r[11], r[13]);
  for (int j = 1; j < 15; j += 2) VS_CX32(r[j], r[j + 1]);
  /* transpose: 32-bit pairs, 64-bit pairs, then 128-bit lanes twice */
  __m512i t[16], u[16];
  for (int j = 0; j < 16; j += 2) {
    t[j] = _mm512_unpacklo_epi32(r[j], r[j + 1]);
    t[j + 1] = _mm512_unpackhi_epi32(r[j], r[j + 1]);
  }
  for (int j = 0; j < 16; j += 4) {
    u[j] = _mm512_unpacklo_epi64(t[j], t[j + 2]);
    u[j + 1] = _mm512_unpackhi_epi64(t[j], t[j + 2]);
    u[j + 2] = _mm512_unpacklo_epi64(t[j + 1], t[j + 3]);
    u[j + 3] = _mm512_unpackhi_epi64(t[j + 1], t[j + 3]);
  }
  /* u[4g + c], 128-bit lane l: rows 4g .. 4g + 3 of column 4l + c */
  for (int h = 0; h < 16; h += 8)
    for (int c = 0; c < 4; c++) {
      t[h + c] = _mm512_shuffle_i32x4(u[h + c], u[h + 4 + c], 0x88);
      t[h + 4 + c] = _mm512_shuffle_i32x4(u[h + c], u[h + 4 + c], 0xDD);
    }
  for (int c = 0; c < 8; c++) {
    _mm512_store_si512((void *)(v + c), _mm512_shuffle_i32x4(t[c], t[8 + c], 0x88));
    _mm512_store_si512((void *)(v + 8 + c), _mm512_shuffle_i32x4(t[c], t[8 + c], 0xDD));
  }
}
#define VW_COLS 16

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
/* max(x, y) = x ^ y ^ min(x, y): the 512-bit 64-bit min and max share one port on the
 * Xeons measured (the 32-bit ones take two), so a compare-exchange spends one of them
 * and two XORs that go to either port. 2-core Xeon (model 207), 2026-12-05: the network
 * 15-25% faster at 32 .. 1024 keys (1.94 against 2.42 ns a key at 64, 2.93 against 3.59
 * at 256); the same for 4-byte keys was 5-30% slower. */
GP_CPU_AVX512 static inline __m512i vs_max64(__m512i x, __m512i y) {
  return _mm512_xor_si512(_mm512_xor_si512(x, y), _mm512_min_epu64(x, y));
}
GP_CPU_AVX512 static inline __m512i vs_step_k64(__m512i x, __m512i y, __mmask8 hi) {
  const __m512i m = _mm512_min_epu64(x, y);
  return _mm512_mask_xor_epi64(m, hi, _mm512_xor_si512(x, y), m);
}
#define VS64_IDX(j) \
  _mm512_setr_epi64(0 ^ (j), 1 ^ (j), 2 ^ (j), 3 ^ (j), 4 ^ (j), 5 ^ (j), 6 ^ (j), 7 ^ (j))
#define VS64_F(x, j, hi) vs_step_k64(x, _mm512_permutexvar_epi64(VS64_IDX(j), x), (__mmask8)(hi))
#define VS64_S1(x) vs_step_k64(x, _mm512_shuffle_epi32(x, (_MM_PERM_ENUM)0x4E), 0xAA)
#define VS64_S2(x) vs_step_k64(x, _mm512_shuffle_i64x2(x, x, 0xB1), 0xCC)
#define VS64_S4(x) vs_step_k64(x, _mm512_shuffle_i64x2(x, x, 0x4E), 0xF0)
GP_CPU_AVX512 static inline __m512i vs_clean1_k64(__m512i x) {
  x = VS64_S4(x);
  x = VS64_S2(x);
  return VS64_S1(x);
}
GP_CPU_AVX512 static inline __m512i vs_sort1_k64(__m512i x) {
  x = VS64_S1(x);
  x = VS64_F(x, 3, 0xCC);
  x = VS64_S1(x);
  x = VS64_F(x, 7, 0xF0);
  x = VS64_S2(x);
  return VS64_S1(x);
}

GP_CPU_AVX512 static inline __attribute__((always_inline)) void vs_cx64(__m512i *a, __m512i *b) {
  const __m512i x = *a;
  *a = _mm512_min_epu64(x, *b);
  *b = vs_max64(x, *b); /* its min is the one above (one instruction) */
}
#define VS_CX64(a, b) vs_cx64(&(a), &(b))
/* 8 vectors at v each sorted: the columns by Batcher's 19-comparator network, then an
 * 8 x 8 transpose of 64-bit lanes. */
GP_CPU_AVX512 static inline void vs_sort_cols_k64(__m512i *v) {
  __m512i r[8], t[8], u[8];
  for (int j = 0; j < 8; j++) r[j] = _mm512_load_si512((const void *)(v + j));
  for (int j = 0; j < 8; j += 2) VS_CX64(r[j], r[j + 1]);
  for (int j = 0; j < 8; j += 4) VS_CX64(r[j], r[j + 2]), VS_CX64(r[j + 1], r[j + 3]);
  VS_CX64(r[1], r[2]), VS_CX64(r[5], r[6]), VS_CX64(r[0], r[4]), VS_CX64(r[3], r[7]);
  VS_CX64(r[2], r[6]), VS_CX64(r[1], r[5]);
  VS_CX64(r[2], r[4]), VS_CX64(r[3], r[5]);
  VS_CX64(r[1], r[2]), VS_CX64(r[3], r[4]), VS_CX64(r[5], r[6]);
  for (int j = 0; j < 8; j += 2) {
    t[j] = _mm512_unpacklo_epi64(r[j], r[j + 1]);
    t[j + 1] = _mm512_unpackhi_epi64(r[j], r[j + 1]);
  }
  /* t[2g + c], 128-bit lane l: rows 2g, 2g + 1 of column 2l + c */
  for (int h = 0; h < 8; h += 4)
    for (int c = 0; c < 2; c++) {
      u[h + c] = _mm512_shuffle_i64x2(t[h + c], t[h + 2 + c], 0x88);
      u[h + 2 + c] = _mm512_shuffle_i64x2(t[h + c], t[h + 2 + c], 0xDD);
    }
  for (int c = 0; c < 4; c++) {
    _mm512_store_si512((void *)(v + c), _mm512_shuffle_i64x2(u[c], u[4 + c], 0x88));
    _mm512_store_si512((void *)(v + 4 + c), _mm512_shuffle_i64x2(u[c], u[4 + c], 0xDD));
  }
}
#define VW_COLS 8

#define VW(name) vs_##name##_k64
#define VW_TARGET GP_CPU_AVX512
#define VW_VEC __m512i
#define VW_KT uint64_t
#define VW_L 8
#define VW_MASK __mmask8
#define VW_LANES(i, n) ((__mmask8)vs_lanes_bits(i, n, 8))
#define VW_MIN _mm512_min_epu64
#define VW_MAX vs_max64
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

/* ---- 4-byte keys with AVX2, 8 a vector ----------------------------------------------
 * Its own network, not vsort_impl.h's: a run is padded to p = 64 .. 2048 keys (a power of
 * two, pads all ones) and worked in blocks of 64 keys, 8 vectors held in registers.
 *  - First pass, per block: the 8 columns sorted across the 8 vectors by the optimal
 *    19-comparator network (min/max only, no shuffles), an 8x8 transpose (each vector
 *    now a sorted run of 8), then the merges to 16, 32 and 64 keys in registers. Sorting
 *    each vector alone took 6 shuffle + 18 min/max/blend ops a vector; this ~8.
 *  - Each longer merge: its flip and its strides of 64 keys and more as passes over the
 *    buffer (L1; up to two strides a pass), then the strides below 64 in registers.
 *  - Strides 4, 2, 1 inside a vector shuffle with immediates (vpermq, vpshufd: no index
 *    vector, vpshufd in-lane) and blend with an immediate; only a flip's reversal takes vpermd,
 *    and a flip's upper half is kept unreversed (still bitonic), so once per 2 vectors.
 *  - The encode rides on the first pass's loads and the decode on the last pass's stores.
 * The AVX-512 instance keeps vsort_impl.h. */
#define VS8_MIN _mm256_min_epu32
#define VS8_MAX _mm256_max_epu32
#define VS8_INL GP_CPU_AVX2 static inline __attribute__((always_inline))
/* compare-exchange of whole vectors: a keeps the smaller keys */
VS8_INL void vs8_cx(__m256i *a, __m256i *b) {
  const __m256i x = *a;
  *a = VS8_MIN(x, *b);
  *b = VS8_MAX(x, *b);
}
#define VS8_CX(a, b) vs8_cx(&(a), &(b))

VS8_INL __m256i vs8_rev(__m256i x) {
  return _mm256_permutevar8x32_epi32(x, _mm256_setr_epi32(7, 6, 5, 4, 3, 2, 1, 0));
}
/* the half-cleaners of strides 4, 2, 1 inside a bitonic vector */
VS8_INL __m256i vs8_clean(__m256i x) {
  __m256i y = _mm256_permute4x64_epi64(x, 0x4E); /* lane l ^ 4 */
  x = _mm256_blend_epi32(VS8_MIN(x, y), VS8_MAX(x, y), 0xF0);
  y = _mm256_shuffle_epi32(x, 0x4E); /* l ^ 2 */
  x = _mm256_blend_epi32(VS8_MIN(x, y), VS8_MAX(x, y), 0xCC);
  y = _mm256_shuffle_epi32(x, 0xB1); /* l ^ 1 */
  return _mm256_blend_epi32(VS8_MIN(x, y), VS8_MAX(x, y), 0xAA);
}
/* core/key_codec.h's encoding, branch-free for every class and order:
   k = u ^ (sign(u) & m7) ^ tf, m7 = 0x7FFFFFFF for floats (else 0), tf = top ^ flip (top:
   the sign bit for floats and signed keys, else 0; flip: all ones when descending). k's
   sign bit ^ tf's is u's, so u = w ^ (sign(w) & m7) with w = k ^ tf. */
typedef struct vs8_codec {
  __m256i m7, tf;
} vs8_codec;
VS8_INL __m256i vs8_enc(__m256i u, vs8_codec cd) {
  return _mm256_xor_si256(_mm256_xor_si256(u, cd.tf),
                          _mm256_and_si256(_mm256_srai_epi32(u, 31), cd.m7));
}
VS8_INL __m256i vs8_dec(__m256i k, vs8_codec cd) {
  const __m256i w = _mm256_xor_si256(k, cd.tf);
  return _mm256_xor_si256(w, _mm256_and_si256(_mm256_srai_epi32(w, 31), cd.m7));
}
/* the lanes of keys i .. i + 8 below n, as a vector mask (all ones in a lane) */
VS8_INL __m256i vs8_lanes(size_t i, size_t n) {
  const int left = i >= n ? 0 : n - i > 8 ? 8 : (int)(n - i);
  return _mm256_cmpgt_epi32(_mm256_set1_epi32(left), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
}
/* 8 vectors of keys i .. i + 64 encoded (pads all ones), and stored decoded */
VS8_INL void vs8_load_enc(__m256i r[8], const uint32_t *keys, size_t i, size_t n,
                          vs8_codec cd) {
  if (i + 64 <= n) {
    for (int j = 0; j < 8; j++)
      r[j] = vs8_enc(_mm256_loadu_si256((const __m256i *)(keys + i + 8 * j)), cd);
    return;
  }
  for (int j = 0; j < 8; j++) {
    const __m256i m = vs8_lanes(i + 8 * j, n);
    const __m256i u = vs8_enc(_mm256_maskload_epi32((const int *)(keys + i + 8 * j), m), cd);
    r[j] = _mm256_blendv_epi8(_mm256_set1_epi32(-1), u, m);
  }
}
VS8_INL void vs8_store_dec(uint32_t *keys, size_t i, size_t n, const __m256i r[8],
                           vs8_codec cd) {
  if (i + 64 <= n) {
    for (int j = 0; j < 8; j++)
      _mm256_storeu_si256((__m256i *)(keys + i + 8 * j), vs8_dec(r[j], cd));
    return;
  }
  for (int j = 0; j < 8 && i + 8 * j < n; j++)
    _mm256_maskstore_epi32((int *)(keys + i + 8 * j), vs8_lanes(i + 8 * j, n),
                           vs8_dec(r[j], cd));
}
/* 64 keys in 8 vectors sorted (key 8 j + l in lane l of r[j]) */
VS8_INL void vs8_sort64(__m256i r[8]) {
  /* columns: Knuth's 19-comparator network for 8 inputs */
  VS8_CX(r[0], r[2]), VS8_CX(r[1], r[3]), VS8_CX(r[4], r[6]), VS8_CX(r[5], r[7]);
  VS8_CX(r[0], r[4]), VS8_CX(r[1], r[5]), VS8_CX(r[2], r[6]), VS8_CX(r[3], r[7]);
  VS8_CX(r[0], r[1]), VS8_CX(r[2], r[3]), VS8_CX(r[4], r[5]), VS8_CX(r[6], r[7]);
  VS8_CX(r[2], r[4]), VS8_CX(r[3], r[5]);
  VS8_CX(r[1], r[4]), VS8_CX(r[3], r[6]);
  VS8_CX(r[1], r[2]), VS8_CX(r[3], r[4]), VS8_CX(r[5], r[6]);
  /* transpose: column l becomes a vector (which one does not matter: each is a sorted run) */
  const __m256i t0 = _mm256_unpacklo_epi32(r[0], r[1]), t1 = _mm256_unpackhi_epi32(r[0], r[1]);
  const __m256i t2 = _mm256_unpacklo_epi32(r[2], r[3]), t3 = _mm256_unpackhi_epi32(r[2], r[3]);
  const __m256i t4 = _mm256_unpacklo_epi32(r[4], r[5]), t5 = _mm256_unpackhi_epi32(r[4], r[5]);
  const __m256i t6 = _mm256_unpacklo_epi32(r[6], r[7]), t7 = _mm256_unpackhi_epi32(r[6], r[7]);
  const __m256i u0 = _mm256_unpacklo_epi64(t0, t2), u1 = _mm256_unpackhi_epi64(t0, t2);
  const __m256i u2 = _mm256_unpacklo_epi64(t1, t3), u3 = _mm256_unpackhi_epi64(t1, t3);
  const __m256i u4 = _mm256_unpacklo_epi64(t4, t6), u5 = _mm256_unpackhi_epi64(t4, t6);
  const __m256i u6 = _mm256_unpacklo_epi64(t5, t7), u7 = _mm256_unpackhi_epi64(t5, t7);
  r[0] = _mm256_permute2x128_si256(u0, u4, 0x20), r[1] = _mm256_permute2x128_si256(u1, u5, 0x20);
  r[2] = _mm256_permute2x128_si256(u2, u6, 0x20), r[3] = _mm256_permute2x128_si256(u3, u7, 0x20);
  r[4] = _mm256_permute2x128_si256(u0, u4, 0x31), r[5] = _mm256_permute2x128_si256(u1, u5, 0x31);
  r[6] = _mm256_permute2x128_si256(u2, u6, 0x31), r[7] = _mm256_permute2x128_si256(u3, u7, 0x31);
  /* runs of 16: each pair meets reversed (the upper half stays unreversed: bitonic) */
  for (int j = 0; j < 8; j += 2) {
    const __m256i b = vs8_rev(r[j + 1]);
    r[j + 1] = VS8_MAX(r[j], b), r[j] = VS8_MIN(r[j], b);
  }
  for (int j = 0; j < 8; j++) r[j] = vs8_clean(r[j]);
  /* runs of 32: r0 r1 meet r3 r2 reversed, then stride 8 */
  for (int j = 0; j < 8; j += 4) {
    const __m256i a = vs8_rev(r[j + 3]), b = vs8_rev(r[j + 2]);
    r[j + 2] = VS8_MAX(r[j], a), r[j] = VS8_MIN(r[j], a);
    r[j + 3] = VS8_MAX(r[j + 1], b), r[j + 1] = VS8_MIN(r[j + 1], b);
    VS8_CX(r[j], r[j + 1]), VS8_CX(r[j + 2], r[j + 3]);
  }
  for (int j = 0; j < 8; j++) r[j] = vs8_clean(r[j]);
  /* 64: r0..r3 meet r7..r4 reversed, then strides 16 and 8 */
  {
    const __m256i a0 = vs8_rev(r[7]), a1 = vs8_rev(r[6]), a2 = vs8_rev(r[5]), a3 = vs8_rev(r[4]);
    r[4] = VS8_MAX(r[0], a0), r[0] = VS8_MIN(r[0], a0);
    r[5] = VS8_MAX(r[1], a1), r[1] = VS8_MIN(r[1], a1);
    r[6] = VS8_MAX(r[2], a2), r[2] = VS8_MIN(r[2], a2);
    r[7] = VS8_MAX(r[3], a3), r[3] = VS8_MIN(r[3], a3);
  }
  VS8_CX(r[0], r[2]), VS8_CX(r[1], r[3]), VS8_CX(r[4], r[6]), VS8_CX(r[5], r[7]);
  VS8_CX(r[0], r[1]), VS8_CX(r[2], r[3]), VS8_CX(r[4], r[5]), VS8_CX(r[6], r[7]);
  for (int j = 0; j < 8; j++) r[j] = vs8_clean(r[j]);
}
/* The strides 32, 16, 8 and those inside vectors of a bitonic block of 64 keys. */
VS8_INL void vs8_finish64(__m256i r[8]) {
  VS8_CX(r[0], r[4]), VS8_CX(r[1], r[5]), VS8_CX(r[2], r[6]), VS8_CX(r[3], r[7]);
  VS8_CX(r[0], r[2]), VS8_CX(r[1], r[3]), VS8_CX(r[4], r[6]), VS8_CX(r[5], r[7]);
  VS8_CX(r[0], r[1]), VS8_CX(r[2], r[3]), VS8_CX(r[4], r[5]), VS8_CX(r[6], r[7]);
  for (int j = 0; j < 8; j++) r[j] = vs8_clean(r[j]);
}
/* 8 vectors of a finished block stored back to v, or decoded to keys i .. when out. */
VS8_INL void vs8_put(__m256i *v, const __m256i r[8], uint32_t *out, size_t i, size_t n,
                     vs8_codec cd) {
  if (out) vs8_store_dec(out, i, n, r, cd);
  else
    for (int j = 0; j < 8; j++) _mm256_store_si256(v + j, r[j]);
}
/* The end of a merge at the blocks of 64 keys from v: one block (its stride 64 done), or
   two (the stride 64 between them still to do), stored back or decoded to keys i .. */
VS8_INL void vs8_finish(__m256i *v, int two, uint32_t *out, size_t i, size_t n,
                        vs8_codec cd) {
  __m256i r[8];
  for (int j = 0; j < 8; j++) r[j] = _mm256_load_si256(v + j);
  if (two) {
    __m256i s[8];
    for (int j = 0; j < 8; j++) {
      s[j] = _mm256_load_si256(v + 8 + j);
      VS8_CX(r[j], s[j]);
    }
    vs8_finish64(s);
    vs8_put(v + 8, s, out, i + 64, n, cd);
  }
  vs8_finish64(r);
  vs8_put(v, r, out, i, n, cd);
}

/* Sorts n <= GP_VSORT32_MAX keys of class c (descending when desc) in place. */
GP_CPU_AVX2 static void vs_sort_k32x8(uint32_t *keys, size_t n, gp_key_class c, int desc) {
  _Alignas(64) uint32_t buf[GP_VSORT32_MAX];
  __m256i *v = (__m256i *)buf;
  const uint32_t top = c == GP_KEY_UNSIGNED ? 0u : 0x80000000u;
  const vs8_codec cd = {_mm256_set1_epi32(c == GP_KEY_FLOAT ? 0x7FFFFFFF : 0),
                        _mm256_set1_epi32((int)(top ^ (desc ? 0xFFFFFFFFu : 0u)))};
  size_t p = 64;
  while (p < n) p <<= 1;
  const size_t nv = p / 8;
  for (size_t i = 0; i < p; i += 64) { /* blocks of 64 */
    __m256i r[8];
    vs8_load_enc(r, keys, i, n, cd);
    vs8_sort64(r);
    if (p == 64) {
      vs8_store_dec(keys, 0, n, r, cd);
      return;
    }
    for (int j = 0; j < 8; j++) _mm256_store_si256(v + i / 8 + j, r[j]);
  }
  for (size_t kv = 16; kv <= nv; kv <<= 1) { /* merges of blocks of kv vectors */
    for (size_t b = 0; b < nv; b += kv) /* the flip: A_i meets B reversed */
      for (size_t i = 0; i < kv / 4; i++) {
        __m256i *A = v + b, *B = v + b + kv / 2;
        const size_t j = kv / 2 - 1 - i;
        const __m256i ai = _mm256_load_si256(A + i), aj = _mm256_load_si256(A + j);
        const __m256i ri = vs8_rev(_mm256_load_si256(B + j));
        const __m256i rj = vs8_rev(_mm256_load_si256(B + i));
        _mm256_store_si256(A + i, VS8_MIN(ai, ri));
        _mm256_store_si256(B + i, VS8_MAX(ai, ri));
        _mm256_store_si256(A + j, VS8_MIN(aj, rj));
        _mm256_store_si256(B + j, VS8_MAX(aj, rj));
      }
    size_t jv = kv / 4; /* strides of jv vectors down to 16, two a pass */
    for (; jv >= 32; jv >>= 2)
      for (size_t b = 0; b < nv; b += 2 * jv)
        for (size_t i = b; i < b + jv / 2; i++) {
          __m256i x0 = _mm256_load_si256(v + i), x1 = _mm256_load_si256(v + i + jv / 2);
          __m256i x2 = _mm256_load_si256(v + i + jv), x3 = _mm256_load_si256(v + i + jv + jv / 2);
          VS8_CX(x0, x2), VS8_CX(x1, x3), VS8_CX(x0, x1), VS8_CX(x2, x3);
          _mm256_store_si256(v + i, x0), _mm256_store_si256(v + i + jv / 2, x1);
          _mm256_store_si256(v + i + jv, x2), _mm256_store_si256(v + i + jv + jv / 2, x3);
        }
    if (jv == 16)
      for (size_t b = 0; b < nv; b += 32)
        for (size_t i = b; i < b + 16; i++) {
          __m256i x = _mm256_load_si256(v + i), y = _mm256_load_si256(v + i + 16);
          VS8_CX(x, y);
          _mm256_store_si256(v + i, x), _mm256_store_si256(v + i + 16, y);
        }
    /* stride 8 vectors (64 keys) with the registers' strides when kv >= 32 */
    uint32_t *out = kv == nv ? keys : NULL;
    const int two = kv >= 32;
    for (size_t i = 0; i < nv; i += two ? 16 : 8) vs8_finish(v + i, two, out, i * 8, n, cd);
  }
}
#undef VS8_INL
#undef VS8_CX
#undef VS8_MIN
#undef VS8_MAX

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

void gp_cpu_vsort_key_index32(const uint32_t *keys, size_t n, gp_key_class c, int desc,
                              uint64_t *w) {
  for (size_t i = 0; i < n; i++) w[i] = (uint64_t)gp_key32_enc(keys[i], c, desc) << 32 | i;
  gp_cpu_vsort64(w, n, GP_KEY_UNSIGNED, 0);
}
