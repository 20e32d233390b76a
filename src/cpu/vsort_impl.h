/* One width and instruction set of the vector sort (cpu/vsort.c includes this file once
 * per instance): the bitonic merges across vectors, and the driver that encodes, pads,
 * sorts and decodes a run. The instance supplies VW(name) (a suffix), VW_TARGET (the
 * functions' target attribute), VW_VEC (a vector), VW_KT (the key), VW_L (keys a
 * vector), VW_MASK and VW_LANES(i, n) (the lanes of keys i .. i + VW_L below n), and
 * VW_MIN / VW_MAX / VW_PERM(idx, x) / VW_BLEND(m, a, b) (m ? b : a) / VW_SET1 /
 * VW_MLOADZ / VW_MSTORE / VW_XOR / VW_OR / VW_ANDNOT / VW_LOAD / VW_STORE (the
 * intrinsics), VW_SIGN (a lane's sign bit copied through it), VW_TOP (the sign bit),
 * VW_REV (lanes reversed), VW(sort1) and VW(clean1) (a vector sorted, and a vector's
 * half-cleaners), VW(sort_cols) (VW_COLS vectors in memory each sorted, faster than
 * sort1 each), VW_MAX_N and VW_PUBLIC (the driver's name). The per-instance macros
 * are undefined at the end; the instruction set's (VW_XOR .. VW_STORE) stay. */

/* core/key_codec.h's encoding, a vector at a time: float keys flip all bits when
 * negative, else the sign bit; signed keys the sign bit; descending complements. */
VW_TARGET static inline VW_VEC VW(enc)(VW_VEC u, gp_key_class c, VW_VEC flip) {
  const VW_VEC top = VW_SET1(VW_TOP);
  if (c == GP_KEY_FLOAT) u = VW_XOR(u, VW_OR(VW_SIGN(u), top));
  else if (c == GP_KEY_SIGNED) u = VW_XOR(u, top);
  return VW_XOR(u, flip);
}
VW_TARGET static inline VW_VEC VW(dec)(VW_VEC k, gp_key_class c, VW_VEC flip) {
  const VW_VEC top = VW_SET1(VW_TOP);
  k = VW_XOR(k, flip);
  if (c == GP_KEY_FLOAT) /* k ^ (sign bit set ? top : all ones) */
    return VW_XOR(k, VW_OR(VW_ANDNOT(VW_SIGN(k), VW_SET1(-1)), top));
  if (c == GP_KEY_SIGNED) return VW_XOR(k, top);
  return k;
}

/* Compare-exchange of whole vectors (a keeps the smaller keys), and a flip: a meets b
 * in reversed lane order. */
VW_TARGET static inline void VW(cx)(VW_VEC *a, VW_VEC *b) {
  const VW_VEC x = *a;
  *a = VW_MIN(x, *b);
  *b = VW_MAX(x, *b);
}
VW_TARGET static inline void VW(flip)(VW_VEC *a, VW_VEC *b) {
  const VW_VEC x = *a, y = VW_PERM(VW_REV, *b);
  *a = VW_MIN(x, y);
  *b = VW_PERM(VW_REV, VW_MAX(x, y));
}
/* The last steps of a merge of 4 vectors whose halves are bitonic: half-cleaners of 1
 * vector, then inside each vector; stored at v. */
VW_TARGET static inline void VW(finish4)(VW_VEC *v, VW_VEC x0, VW_VEC x1, VW_VEC x2,
                                         VW_VEC x3) {
  VW(cx)(&x0, &x1);
  VW(cx)(&x2, &x3);
  VW_STORE(v, VW(clean1)(x0));
  VW_STORE(v + 1, VW(clean1)(x1));
  VW_STORE(v + 2, VW(clean1)(x2));
  VW_STORE(v + 3, VW(clean1)(x3));
}

/* Ascending bitonic sort of a[0 .. n), n a power of two from VW_L to VW_MAX_N, a aligned
 * to a vector. Blocks of 4 vectors are sorted in registers; each longer merge makes its flip
 * and its half-cleaners of 4 vectors and more as passes over memory (in L1), and
 * finishes each 4 vectors in registers. */
VW_TARGET static void VW(sort_pow2)(VW_KT *a, size_t n) {
  const size_t nv = n / VW_L;
  VW_VEC *v = (VW_VEC *)a;
  if (nv < 4) {
    VW_VEC x0 = VW(sort1)(VW_LOAD(v));
    if (nv == 2) {
      VW_VEC x1 = VW(sort1)(VW_LOAD(v + 1));
      VW(flip)(&x0, &x1);
      VW_STORE(v + 1, VW(clean1)(x1));
      x0 = VW(clean1)(x0);
    }
    VW_STORE(v, x0);
    return;
  }
  /* every vector sorted: by blocks of VW_COLS vectors (a column network and a transpose)
     where there are that many, else one by one (sort1) */
  const int cols = nv >= VW_COLS;
  if (cols)
    for (size_t i = 0; i < nv; i += VW_COLS) VW(sort_cols)(v + i);
  for (size_t i = 0; i < nv; i += 4) {
    VW_VEC x0 = VW_LOAD(v + i), x1 = VW_LOAD(v + i + 1);
    VW_VEC x2 = VW_LOAD(v + i + 2), x3 = VW_LOAD(v + i + 3);
    if (!cols) x0 = VW(sort1)(x0), x1 = VW(sort1)(x1), x2 = VW(sort1)(x2), x3 = VW(sort1)(x3);
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
        VW_VEC x = VW_LOAD(v + b + i), y = VW_LOAD(v + b + kv - 1 - i);
        VW(flip)(&x, &y);
        VW_STORE(v + b + i, x);
        VW_STORE(v + b + kv - 1 - i, y);
      }
    for (size_t jv = kv / 4; jv >= 4; jv >>= 1) /* strides of 2 and 1 vector: below */
      for (size_t b = 0; b < nv; b += 2 * jv)
        for (size_t i = b; i < b + jv; i++) {
          VW_VEC x = VW_LOAD(v + i), y = VW_LOAD(v + i + jv);
          VW(cx)(&x, &y);
          VW_STORE(v + i, x);
          VW_STORE(v + i + jv, y);
        }
    for (size_t i = 0; i < nv; i += 4) {
      VW_VEC x0 = VW_LOAD(v + i), x1 = VW_LOAD(v + i + 1);
      VW_VEC x2 = VW_LOAD(v + i + 2), x3 = VW_LOAD(v + i + 3);
      VW(cx)(&x0, &x2);
      VW(cx)(&x1, &x3);
      VW(finish4)(v + i, x0, x1, x2, x3);
    }
  }
}

VW_TARGET static void VW_PUBLIC(VW_KT *keys, size_t n, gp_key_class c, int desc) {
  _Alignas(64) VW_KT buf[VW_MAX_N];
  size_t p = VW_L;
  while (p < n) p <<= 1;
  const VW_VEC flip = VW_SET1(desc ? -1 : 0), pad = VW_SET1(-1);
  for (size_t i = 0; i < p; i += VW_L) { /* pads (all ones) sort last */
    const VW_MASK m = VW_LANES(i, n);
    const VW_VEC u = VW(enc)(VW_MLOADZ(m, keys + i), c, flip);
    VW_STORE(buf + i, VW_BLEND(m, pad, u));
  }
  VW(sort_pow2)(buf, p);
  for (size_t i = 0; i < n; i += VW_L)
    VW_MSTORE(keys + i, VW_LANES(i, n), VW(dec)(VW_LOAD(buf + i), c, flip));
}

#undef VW
#undef VW_TARGET
#undef VW_VEC
#undef VW_KT
#undef VW_L
#undef VW_MASK
#undef VW_LANES
#undef VW_MIN
#undef VW_MAX
#undef VW_PERM
#undef VW_BLEND
#undef VW_SET1
#undef VW_SIGN
#undef VW_TOP
#undef VW_MLOADZ
#undef VW_MSTORE
#undef VW_REV
#undef VW_MAX_N
#undef VW_PUBLIC
#undef VW_COLS
