/* Short runs of 8-byte keys sorted in vector registers: cpu/vsort.c's bitonic network
 * with 8 keys a vector (AVX-512 min/max of unsigned 64-bit lanes), for row and segment
 * sorts of 8-byte keys alone, where the radix sort paid eight 8-bit passes for a run of
 * a thousand keys. Same switch as the 4-byte network (gp_cpu_vsort32_max). */
#include "cpu/vsort.h"
#include "cpu/cpu_features.h"
#include "core/key_codec.h"

#include <stdint.h>

#ifdef GP_CPU_X86
#include <immintrin.h>
#define V8_TARGET GP_CPU_AVX512
#define V8 8 /* keys per vector */

/* Lane l meets lane l ^ j (idx); the lanes in `hi` keep the larger key. */
V8_TARGET static inline __m512i v8_step(__m512i x, __m512i idx, __mmask8 hi) {
  const __m512i y = _mm512_permutexvar_epi64(idx, x);
  return _mm512_mask_blend_epi64(hi, _mm512_min_epu64(x, y), _mm512_max_epu64(x, y));
}
#define V8_IDX(j) \
  _mm512_setr_epi64(0 ^ (j), 1 ^ (j), 2 ^ (j), 3 ^ (j), 4 ^ (j), 5 ^ (j), 6 ^ (j), 7 ^ (j))
#define V8_HI1 ((__mmask8)0xAA)
#define V8_HI2 ((__mmask8)0xCC)
#define V8_HI4 ((__mmask8)0xF0)

/* The half-cleaners of strides 4, 2, 1 inside one vector. */
V8_TARGET static inline __m512i v8_clean(__m512i x) {
  x = v8_step(x, V8_IDX(4), V8_HI4);
  x = v8_step(x, V8_IDX(2), V8_HI2);
  return v8_step(x, V8_IDX(1), V8_HI1);
}
/* One vector sorted ascending (flips, then half-cleaners, per block size). */
V8_TARGET static inline __m512i v8_sort(__m512i x) {
  x = v8_step(x, V8_IDX(1), V8_HI1);
  x = v8_step(x, V8_IDX(3), V8_HI2);
  x = v8_step(x, V8_IDX(1), V8_HI1);
  x = v8_step(x, V8_IDX(7), V8_HI4);
  x = v8_step(x, V8_IDX(2), V8_HI2);
  return v8_step(x, V8_IDX(1), V8_HI1);
}
V8_TARGET static inline void v8_cx(__m512i *a, __m512i *b) {
  const __m512i x = *a;
  *a = _mm512_min_epu64(x, *b);
  *b = _mm512_max_epu64(x, *b);
}
/* a meets b in reversed lane order */
V8_TARGET static inline void v8_flip(__m512i *a, __m512i *b) {
  const __m512i rev = _mm512_setr_epi64(7, 6, 5, 4, 3, 2, 1, 0);
  const __m512i x = *a, y = _mm512_permutexvar_epi64(rev, *b);
  *a = _mm512_min_epu64(x, y);
  *b = _mm512_permutexvar_epi64(rev, _mm512_max_epu64(x, y));
}

/* Ascending bitonic sort of a[0 .. n), n a power of two from 8 to GP_VSORT64_MAX, a
 * 64-byte aligned: blocks of 4 vectors in registers, longer merges as in cpu/vsort.c. */
V8_TARGET static void v8_sort_pow2(uint64_t *a, size_t n) {
  const size_t nv = n / V8;
  __m512i *v = (__m512i *)a;
  if (nv < 4) {
    __m512i x0 = v8_sort(_mm512_load_si512(v));
    if (nv == 2) {
      __m512i x1 = v8_sort(_mm512_load_si512(v + 1));
      v8_flip(&x0, &x1);
      _mm512_store_si512(v + 1, v8_clean(x1));
      x0 = v8_clean(x0);
    }
    _mm512_store_si512(v, x0);
    return;
  }
  for (size_t i = 0; i < nv; i += 4) {
    __m512i x0 = v8_sort(_mm512_load_si512(v + i)), x1 = v8_sort(_mm512_load_si512(v + i + 1));
    __m512i x2 = v8_sort(_mm512_load_si512(v + i + 2)), x3 = v8_sort(_mm512_load_si512(v + i + 3));
    v8_flip(&x0, &x1);
    v8_flip(&x2, &x3);
    x0 = v8_clean(x0), x1 = v8_clean(x1), x2 = v8_clean(x2), x3 = v8_clean(x3);
    v8_flip(&x0, &x3);
    v8_flip(&x1, &x2);
    v8_cx(&x0, &x1);
    v8_cx(&x2, &x3);
    _mm512_store_si512(v + i, v8_clean(x0));
    _mm512_store_si512(v + i + 1, v8_clean(x1));
    _mm512_store_si512(v + i + 2, v8_clean(x2));
    _mm512_store_si512(v + i + 3, v8_clean(x3));
  }
  for (size_t kv = 8; kv <= nv; kv <<= 1) { /* blocks of kv vectors */
    for (size_t b = 0; b < nv; b += kv)
      for (size_t i = 0; i < kv / 2; i++) {
        __m512i x = _mm512_load_si512(v + b + i), y = _mm512_load_si512(v + b + kv - 1 - i);
        v8_flip(&x, &y);
        _mm512_store_si512(v + b + i, x);
        _mm512_store_si512(v + b + kv - 1 - i, y);
      }
    for (size_t jv = kv / 4; jv >= 4; jv >>= 1)
      for (size_t b = 0; b < nv; b += 2 * jv)
        for (size_t i = b; i < b + jv; i++) {
          __m512i x = _mm512_load_si512(v + i), y = _mm512_load_si512(v + i + jv);
          v8_cx(&x, &y);
          _mm512_store_si512(v + i, x);
          _mm512_store_si512(v + i + jv, y);
        }
    for (size_t i = 0; i < nv; i += 4) {
      __m512i x0 = _mm512_load_si512(v + i), x1 = _mm512_load_si512(v + i + 1);
      __m512i x2 = _mm512_load_si512(v + i + 2), x3 = _mm512_load_si512(v + i + 3);
      v8_cx(&x0, &x2);
      v8_cx(&x1, &x3);
      v8_cx(&x0, &x1);
      v8_cx(&x2, &x3);
      _mm512_store_si512(v + i, v8_clean(x0));
      _mm512_store_si512(v + i + 1, v8_clean(x1));
      _mm512_store_si512(v + i + 2, v8_clean(x2));
      _mm512_store_si512(v + i + 3, v8_clean(x3));
    }
  }
}

/* The encoding of core/key_codec.h, 8 keys at a time. */
V8_TARGET static inline __m512i v8_enc(__m512i u, gp_key_class c, __m512i flip) {
  const __m512i top = _mm512_set1_epi64(INT64_MIN);
  if (c == GP_KEY_FLOAT) u = _mm512_xor_si512(u, _mm512_or_si512(_mm512_srai_epi64(u, 63), top));
  else if (c == GP_KEY_SIGNED) u = _mm512_xor_si512(u, top);
  return _mm512_xor_si512(u, flip);
}
V8_TARGET static inline __m512i v8_dec(__m512i k, gp_key_class c, __m512i flip) {
  const __m512i top = _mm512_set1_epi64(INT64_MIN);
  k = _mm512_xor_si512(k, flip);
  if (c == GP_KEY_FLOAT) /* k ^ (top bit set ? top : all ones) */
    return _mm512_xor_si512(k, _mm512_or_si512(_mm512_andnot_si512(_mm512_srai_epi64(k, 63),
                                                                     _mm512_set1_epi64(-1)), top));
  if (c == GP_KEY_SIGNED) return _mm512_xor_si512(k, top);
  return k;
}
static inline __mmask8 v8_lanes(size_t i, size_t n) {
  return i + V8 <= n ? (__mmask8)0xFF : i < n ? (__mmask8)((1u << (n - i)) - 1u) : 0;
}

size_t gp_cpu_vsort64_max(void) { return gp_cpu_vsort32_max() ? GP_VSORT64_MAX : 0; }

V8_TARGET void gp_cpu_vsort64(uint64_t *keys, size_t n, gp_key_class c, int desc) {
  _Alignas(64) uint64_t buf[GP_VSORT64_MAX];
  size_t p = V8;
  while (p < n) p <<= 1;
  const __m512i flip = _mm512_set1_epi64(desc ? -1 : 0), pad = _mm512_set1_epi64(-1);
  for (size_t i = 0; i < p; i += V8) { /* pads (all ones) sort last */
    const __mmask8 m = v8_lanes(i, n);
    const __m512i u = v8_enc(_mm512_maskz_loadu_epi64(m, keys + i), c, flip);
    _mm512_store_si512(buf + i, _mm512_mask_blend_epi64(m, pad, u));
  }
  v8_sort_pow2(buf, p);
  for (size_t i = 0; i < n; i += V8)
    _mm512_mask_storeu_epi64(keys + i, v8_lanes(i, n), v8_dec(_mm512_load_si512(buf + i), c, flip));
}
#else
size_t gp_cpu_vsort64_max(void) { return 0; }
void gp_cpu_vsort64(uint64_t *keys, size_t n, gp_key_class c, int desc) {
  (void)keys, (void)n, (void)c, (void)desc;
}
#endif
