/* One width of the vector sort (cpu/vsort.c includes this file once per key width):
 * the bitonic merges across vectors, and the driver that encodes, pads, sorts and
 * decodes a run. The width supplies VW(name) (a suffix), VW_KT (the key), VW_L (keys a
 * vector), VW_MASK, and VW_MIN / VW_MAX / VW_PERM / VW_BLEND / VW_SET1 / VW_MLOADZ /
 * VW_MSTORE (the lane-width intrinsics), VW_SIGN (a lane's sign bit copied through it),
 * VW_TOP (the sign bit), VW_REV (lanes reversed), VW(sort1) and VW(clean1) (a vector
 * sorted, and a vector's half-cleaners), VW_MAX_N and VW_PUBLIC. */

/* core/key_codec.h's encoding, a vector at a time: float keys flip all bits when
 * negative, else the sign bit; signed keys the sign bit; descending complements. */
VS_TARGET static inline __m512i VW(enc)(__m512i u, gp_key_class c, __m512i flip) {
  const __m512i top = VW_SET1(VW_TOP);
  if (c == GP_KEY_FLOAT) u = _mm512_xor_si512(u, _mm512_or_si512(VW_SIGN(u), top));
  else if (c == GP_KEY_SIGNED) u = _mm512_xor_si512(u, top);
  return _mm512_xor_si512(u, flip);
}
VS_TARGET static inline __m512i VW(dec)(__m512i k, gp_key_class c, __m512i flip) {
  const __m512i top = VW_SET1(VW_TOP);
  k = _mm512_xor_si512(k, flip);
  if (c == GP_KEY_FLOAT) /* k ^ (sign bit set ? top : all ones) */
    return _mm512_xor_si512(k, _mm512_or_si512(_mm512_andnot_si512(VW_SIGN(k), VW_SET1(-1)), top));
  if (c == GP_KEY_SIGNED) return _mm512_xor_si512(k, top);
  return k;
}

/* Compare-exchange of whole vectors (a keeps the smaller keys), and a flip: a meets b
 * in reversed lane order. */
VS_TARGET static inline void VW(cx)(__m512i *a, __m512i *b) {
  const __m512i x = *a;
  *a = VW_MIN(x, *b);
  *b = VW_MAX(x, *b);
}
VS_TARGET static inline void VW(flip)(__m512i *a, __m512i *b) {
  const __m512i x = *a, y = VW_PERM(VW_REV, *b);
  *a = VW_MIN(x, y);
  *b = VW_PERM(VW_REV, VW_MAX(x, y));
}
/* The last steps of a merge of 4 vectors whose halves are bitonic: half-cleaners of 1
 * vector, then inside each vector; stored at v. */
VS_TARGET static inline void VW(finish4)(__m512i *v, __m512i x0, __m512i x1, __m512i x2,
                                         __m512i x3) {
  VW(cx)(&x0, &x1);
  VW(cx)(&x2, &x3);
  _mm512_store_si512(v, VW(clean1)(x0));
  _mm512_store_si512(v + 1, VW(clean1)(x1));
  _mm512_store_si512(v + 2, VW(clean1)(x2));
  _mm512_store_si512(v + 3, VW(clean1)(x3));
}

/* Ascending bitonic sort of a[0 .. n), n a power of two from VW_L to VW_MAX_N, a 64-byte
 * aligned. Blocks of 4 vectors are sorted in registers; each longer merge makes its flip
 * and its half-cleaners of 4 vectors and more as passes over memory (in L1), and
 * finishes each 4 vectors in registers. */
VS_TARGET static void VW(sort_pow2)(VW_KT *a, size_t n) {
  const size_t nv = n / VW_L;
  __m512i *v = (__m512i *)a;
  if (nv < 4) {
    __m512i x0 = VW(sort1)(_mm512_load_si512(v));
    if (nv == 2) {
      __m512i x1 = VW(sort1)(_mm512_load_si512(v + 1));
      VW(flip)(&x0, &x1);
      _mm512_store_si512(v + 1, VW(clean1)(x1));
      x0 = VW(clean1)(x0);
    }
    _mm512_store_si512(v, x0);
    return;
  }
  for (size_t i = 0; i < nv; i += 4) {
    __m512i x0 = VW(sort1)(_mm512_load_si512(v + i)), x1 = VW(sort1)(_mm512_load_si512(v + i + 1));
    __m512i x2 = VW(sort1)(_mm512_load_si512(v + i + 2)), x3 = VW(sort1)(_mm512_load_si512(v + i + 3));
    VW(flip)(&x0, &x1);
    VW(flip)(&x2, &x3);
    x0 = VW(clean1)(x0), x1 = VW(clean1)(x1), x2 = VW(clean1)(x2), x3 = VW(clean1)(x3);
    VW(flip)(&x0, &x3);
    VW(flip)(&x1, &x2);
    VW(finish4)(v + i, x0, x1, x2, x3);
  }
  for (size_t kv = 8; kv <= nv; kv <<= 1) { /* blocks of kv vectors */
    for (size_t b = 0; b < nv; b += kv)
      for (size_t i = 0; i < kv / 2; i++) {
        __m512i x = _mm512_load_si512(v + b + i), y = _mm512_load_si512(v + b + kv - 1 - i);
        VW(flip)(&x, &y);
        _mm512_store_si512(v + b + i, x);
        _mm512_store_si512(v + b + kv - 1 - i, y);
      }
    for (size_t jv = kv / 4; jv >= 4; jv >>= 1) /* strides of 2 and 1 vector: below */
      for (size_t b = 0; b < nv; b += 2 * jv)
        for (size_t i = b; i < b + jv; i++) {
          __m512i x = _mm512_load_si512(v + i), y = _mm512_load_si512(v + i + jv);
          VW(cx)(&x, &y);
          _mm512_store_si512(v + i, x);
          _mm512_store_si512(v + i + jv, y);
        }
    for (size_t i = 0; i < nv; i += 4) {
      __m512i x0 = _mm512_load_si512(v + i), x1 = _mm512_load_si512(v + i + 1);
      __m512i x2 = _mm512_load_si512(v + i + 2), x3 = _mm512_load_si512(v + i + 3);
      VW(cx)(&x0, &x2);
      VW(cx)(&x1, &x3);
      VW(finish4)(v + i, x0, x1, x2, x3);
    }
  }
}

static inline VW_MASK VW(lanes)(size_t i, size_t n) {
  return i + VW_L <= n ? (VW_MASK)~0u : i < n ? (VW_MASK)((1u << (n - i)) - 1u) : (VW_MASK)0;
}

VS_TARGET void VW_PUBLIC(VW_KT *keys, size_t n, gp_key_class c, int desc) {
  _Alignas(64) VW_KT buf[VW_MAX_N];
  size_t p = VW_L;
  while (p < n) p <<= 1;
  const __m512i flip = VW_SET1(desc ? -1 : 0), pad = VW_SET1(-1);
  for (size_t i = 0; i < p; i += VW_L) { /* pads (all ones) sort last */
    const VW_MASK m = VW(lanes)(i, n);
    const __m512i u = VW(enc)(VW_MLOADZ(m, keys + i), c, flip);
    _mm512_store_si512(buf + i, VW_BLEND(m, pad, u));
  }
  VW(sort_pow2)(buf, p);
  for (size_t i = 0; i < n; i += VW_L)
    VW_MSTORE(keys + i, VW(lanes)(i, n), VW(dec)(_mm512_load_si512(buf + i), c, flip));
}
