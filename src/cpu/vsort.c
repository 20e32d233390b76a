/* Short runs of 4-byte keys sorted in vector registers: a bitonic network on the
 * encoded keys (core/key_codec.h) with AVX-512 min/max and lane permutes, for the CPU
 * backend's row and segment sorts, where a run of a few hundred or thousand keys made
 * the radix sort pay four histogram passes (docs/perf/cpu.md). Keys alone: equal
 * encoded keys are the same bits, so this unstable network gives exactly the stable
 * radix sort's result. Chosen at run time where the CPU has AVX-512F; elsewhere
 * gp_cpu_vsort32_max() is 0 and callers keep the radix sort. */
#include "cpu/vsort.h"
#include "cpu/cpu_features.h"
#include "core/key_codec.h"

#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#ifdef GP_CPU_X86
#include <immintrin.h>
#define VS_TARGET GP_CPU_AVX512
#define VS 16 /* keys per vector */

/* One compare-exchange step inside every vector: lane l meets lane l ^ j (the partner
 * permutation `idx`); the lanes in `hi` keep the larger key. */
VS_TARGET static inline __m512i vs_step(__m512i x, __m512i idx, __mmask16 hi) {
  const __m512i y = _mm512_permutexvar_epi32(idx, x);
  return _mm512_mask_blend_epi32(hi, _mm512_min_epu32(x, y), _mm512_max_epu32(x, y));
}

/* Partner lanes l ^ j as index vectors, and the lanes whose bit j is set (they keep the
 * larger key of a half-cleaner, or of a flip of blocks of 2j). */
#define VS_IDX(j)                                                                           \
  _mm512_setr_epi32(0 ^ (j), 1 ^ (j), 2 ^ (j), 3 ^ (j), 4 ^ (j), 5 ^ (j), 6 ^ (j), 7 ^ (j), \
                    8 ^ (j), 9 ^ (j), 10 ^ (j), 11 ^ (j), 12 ^ (j), 13 ^ (j), 14 ^ (j), 15 ^ (j))
#define VS_HI1 ((__mmask16)0xAAAA)
#define VS_HI2 ((__mmask16)0xCCCC)
#define VS_HI4 ((__mmask16)0xF0F0)
#define VS_HI8 ((__mmask16)0xFF00)

/* The half-cleaners of strides 8, 4, 2, 1 inside one vector. */
VS_TARGET static inline __m512i vs_clean16(__m512i x) {
  x = vs_step(x, VS_IDX(8), VS_HI8);
  x = vs_step(x, VS_IDX(4), VS_HI4);
  x = vs_step(x, VS_IDX(2), VS_HI2);
  return vs_step(x, VS_IDX(1), VS_HI1);
}

/* Sorts one vector ascending: per block size k, a flip (l meets l ^ (k - 1)), then the
 * half-cleaners below k / 2. */
VS_TARGET static inline __m512i vs_sort16(__m512i x) {
  x = vs_step(x, VS_IDX(1), VS_HI1);
  x = vs_step(x, VS_IDX(3), VS_HI2);
  x = vs_step(x, VS_IDX(1), VS_HI1);
  x = vs_step(x, VS_IDX(7), VS_HI4);
  x = vs_step(x, VS_IDX(2), VS_HI2);
  x = vs_step(x, VS_IDX(1), VS_HI1);
  x = vs_step(x, VS_IDX(15), VS_HI8);
  x = vs_step(x, VS_IDX(4), VS_HI4);
  x = vs_step(x, VS_IDX(2), VS_HI2);
  return vs_step(x, VS_IDX(1), VS_HI1);
}

/* Compare-exchange of whole vectors (a keeps the smaller keys), and a flip: a meets b
 * in reversed lane order. */
VS_TARGET static inline void vs_cx(__m512i *a, __m512i *b) {
  const __m512i x = *a;
  *a = _mm512_min_epu32(x, *b);
  *b = _mm512_max_epu32(x, *b);
}
VS_TARGET static inline void vs_flip(__m512i *a, __m512i *b) {
  const __m512i rev = _mm512_setr_epi32(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
  const __m512i x = *a, y = _mm512_permutexvar_epi32(rev, *b);
  *a = _mm512_min_epu32(x, y);
  *b = _mm512_permutexvar_epi32(rev, _mm512_max_epu32(x, y));
}

/* Ascending bitonic sort of a[0 .. n), n a power of two from 16 to GP_VSORT32_MAX, a
 * 64-byte aligned. Blocks of 4 vectors (64 keys) are sorted in registers; each longer
 * merge makes its flip and its half-cleaners of 4 vectors and more as passes over
 * memory (in L1), and finishes each 4 vectors in registers. */
VS_TARGET static void vs_sort_pow2(uint32_t *a, size_t n) {
  const size_t nv = n / VS;
  __m512i *v = (__m512i *)a;
  if (nv < 4) {
    __m512i x0 = vs_sort16(_mm512_load_si512(v));
    if (nv == 2) {
      __m512i x1 = vs_sort16(_mm512_load_si512(v + 1));
      vs_flip(&x0, &x1);
      _mm512_store_si512(v + 1, vs_clean16(x1));
      x0 = vs_clean16(x0);
    }
    _mm512_store_si512(v, x0);
    return;
  }
  for (size_t i = 0; i < nv; i += 4) {
    __m512i x0 = vs_sort16(_mm512_load_si512(v + i)), x1 = vs_sort16(_mm512_load_si512(v + i + 1));
    __m512i x2 = vs_sort16(_mm512_load_si512(v + i + 2)), x3 = vs_sort16(_mm512_load_si512(v + i + 3));
    vs_flip(&x0, &x1);
    vs_flip(&x2, &x3);
    x0 = vs_clean16(x0), x1 = vs_clean16(x1), x2 = vs_clean16(x2), x3 = vs_clean16(x3);
    vs_flip(&x0, &x3);
    vs_flip(&x1, &x2);
    vs_cx(&x0, &x1);
    vs_cx(&x2, &x3);
    _mm512_store_si512(v + i, vs_clean16(x0));
    _mm512_store_si512(v + i + 1, vs_clean16(x1));
    _mm512_store_si512(v + i + 2, vs_clean16(x2));
    _mm512_store_si512(v + i + 3, vs_clean16(x3));
  }
  for (size_t kv = 8; kv <= nv; kv <<= 1) { /* blocks of kv vectors (k = 16 kv keys) */
    for (size_t b = 0; b < nv; b += kv)
      for (size_t i = 0; i < kv / 2; i++) {
        __m512i x = _mm512_load_si512(v + b + i), y = _mm512_load_si512(v + b + kv - 1 - i);
        vs_flip(&x, &y);
        _mm512_store_si512(v + b + i, x);
        _mm512_store_si512(v + b + kv - 1 - i, y);
      }
    for (size_t jv = kv / 4; jv >= 4; jv >>= 1)
      for (size_t b = 0; b < nv; b += 2 * jv)
        for (size_t i = b; i < b + jv; i++) {
          __m512i x = _mm512_load_si512(v + i), y = _mm512_load_si512(v + i + jv);
          vs_cx(&x, &y);
          _mm512_store_si512(v + i, x);
          _mm512_store_si512(v + i + jv, y);
        }
    for (size_t i = 0; i < nv; i += 4) {
      __m512i x0 = _mm512_load_si512(v + i), x1 = _mm512_load_si512(v + i + 1);
      __m512i x2 = _mm512_load_si512(v + i + 2), x3 = _mm512_load_si512(v + i + 3);
      vs_cx(&x0, &x2);
      vs_cx(&x1, &x3);
      vs_cx(&x0, &x1);
      vs_cx(&x2, &x3);
      _mm512_store_si512(v + i, vs_clean16(x0));
      _mm512_store_si512(v + i + 1, vs_clean16(x1));
      _mm512_store_si512(v + i + 2, vs_clean16(x2));
      _mm512_store_si512(v + i + 3, vs_clean16(x3));
    }
  }
}

static int vs_have(void) {
  static atomic_int have = -1; /* -1: not asked yet (every asker finds the same) */
  int h = atomic_load_explicit(&have, memory_order_relaxed);
  if (h < 0) {
    /* GPUPRIMS_CPU_VSORT=0 turns it off (the tests run the radix path that way too) */
    const char *e = getenv("GPUPRIMS_CPU_VSORT");
    h = gp_cpu_avx512() && !(e && strcmp(e, "0") == 0) ? 1 : 0;
    atomic_store_explicit(&have, h, memory_order_relaxed);
  }
  return h;
}

size_t gp_cpu_vsort32_max(void) { return vs_have() ? GP_VSORT32_MAX : 0; }

/* Encoding (core/key_codec.h) 16 keys at a time: float keys flip all bits when negative,
 * else the sign bit; signed keys the sign bit; descending complements. */
VS_TARGET static inline __m512i vs_enc(__m512i u, gp_key_class c, __m512i flip) {
  const __m512i top = _mm512_set1_epi32(INT32_MIN);
  if (c == GP_KEY_FLOAT) u = _mm512_xor_si512(u, _mm512_or_si512(_mm512_srai_epi32(u, 31), top));
  else if (c == GP_KEY_SIGNED) u = _mm512_xor_si512(u, top);
  return _mm512_xor_si512(u, flip);
}
VS_TARGET static inline __m512i vs_dec(__m512i k, gp_key_class c, __m512i flip) {
  const __m512i top = _mm512_set1_epi32(INT32_MIN);
  k = _mm512_xor_si512(k, flip);
  if (c == GP_KEY_FLOAT) /* k ^ (top bit set ? top : all ones) */
    return _mm512_xor_si512(k, _mm512_or_si512(_mm512_andnot_si512(_mm512_srai_epi32(k, 31),
                                                                     _mm512_set1_epi32(-1)), top));
  if (c == GP_KEY_SIGNED) return _mm512_xor_si512(k, top);
  return k;
}
static inline __mmask16 vs_lanes(size_t i, size_t n) {
  return i + VS <= n ? (__mmask16)0xFFFF : i < n ? (__mmask16)((1u << (n - i)) - 1u) : 0;
}

VS_TARGET void gp_cpu_vsort32(uint32_t *keys, size_t n, gp_key_class c, int desc) {
  _Alignas(64) uint32_t buf[GP_VSORT32_MAX];
  size_t p = VS;
  while (p < n) p <<= 1;
  const __m512i flip = _mm512_set1_epi32(desc ? -1 : 0), pad = _mm512_set1_epi32(-1);
  for (size_t i = 0; i < p; i += VS) { /* pads (all ones) sort last */
    const __mmask16 m = vs_lanes(i, n);
    const __m512i u = vs_enc(_mm512_maskz_loadu_epi32(m, keys + i), c, flip);
    _mm512_store_si512(buf + i, _mm512_mask_blend_epi32(m, pad, u));
  }
  vs_sort_pow2(buf, p);
  for (size_t i = 0; i < n; i += VS)
    _mm512_mask_storeu_epi32(keys + i, vs_lanes(i, n), vs_dec(_mm512_load_si512(buf + i), c, flip));
}
#else
size_t gp_cpu_vsort32_max(void) { return 0; }
void gp_cpu_vsort32(uint32_t *keys, size_t n, gp_key_class c, int desc) {
  (void)keys, (void)n, (void)c, (void)desc;
}
#endif
