/* Argsort of up to GP_PACKED_MAX 8-byte keys by sorting one 64-bit word per key: the
 * encoded key (core/key_codec.h) shifted left past the bits that every key shares, its
 * lowest b bits replaced by the key's index (b = ceil(log2 n)). The words sort as keys
 * alone (the vector network up to gp_cpu_vsort64_max(), else the keys-only radix sort),
 * which order them by (key's top bits, index); keys that share those top bits but differ
 * below them (the b bits dropped, only where the keys' varying bits exceed 64 - b) come
 * out as a run of equal tops in index order, and each such run is re-sorted by
 * (key, index). Equal keys keep their input order, as the stable radix argsort does, so
 * the indices are the same. The radix argsort moves 8-byte values with the keys and
 * takes no vector network: one thread, 1024 doubles 13.6-16.3 -> 5.4 us with AVX-512,
 * 13.7 -> 12.7 us with AVX2 alone (the keys-only radix sort on the words). */
#include "cpu/argsort_packed.h"
#include "cpu/radix_cpu.h"
#include "cpu/reduce_cpu.h"
#include "cpu/vsort.h"
#include "core/key_codec.h"

#include <stdlib.h>

/* the order of words x and y of one run: by their keys, then their indices */
static inline int pk_less(uint64_t x, uint64_t y, const uint64_t *k, gp_key_class c, int desc,
                          uint64_t mask) {
  const uint64_t kx = gp_key64_enc(k[x & mask], c, desc), ky = gp_key64_enc(k[y & mask], c, desc);
  return kx < ky || (kx == ky && (x & mask) < (y & mask));
}

/* the heap below w[p] within w[0..end) restored (a max-heap in pk_less's order) */
static void pk_sift(uint64_t *w, size_t p, size_t end, const uint64_t *k, gp_key_class c,
                    int desc, uint64_t mask) {
  for (size_t ch; (ch = 2 * p + 1) < end; p = ch) {
    if (ch + 1 < end && pk_less(w[ch], w[ch + 1], k, c, desc, mask)) ch++;
    if (!pk_less(w[p], w[ch], k, c, desc, mask)) return;
    const uint64_t t = w[p];
    w[p] = w[ch];
    w[ch] = t;
  }
}

/* w[0..m): one run of equal tops, re-sorted by (key, index) where the keys differ: a
 * heapsort in place (no memory to ask for; a run is long only for keys that agree but
 * in their lowest bits, e.g. 1.0 + i ulp beside a negative key, where an insertion sort
 * would take m^2 steps) */
static void pk_fix_run(uint64_t *w, size_t m, const uint64_t *k, gp_key_class c, int desc,
                       uint64_t mask) {
  const uint64_t k0 = gp_key64_enc(k[w[0] & mask], c, desc);
  size_t j = 1;
  while (j < m && gp_key64_enc(k[w[j] & mask], c, desc) == k0) j++;
  if (j == m) return; /* equal keys: in index order already */
  for (size_t r = m / 2; r-- > 0;) pk_sift(w, r, m, k, c, desc, mask);
  for (size_t end = m; --end > 0;) {
    const uint64_t t = w[0];
    w[0] = w[end];
    w[end] = t;
    pk_sift(w, 0, end, k, c, desc, mask);
  }
}

gp_status gp_cpu_argsort_packed64(gp_context *ctx, gp_dtype kt, const void *keys, int ib,
                                  void *indices, size_t n, gp_order order) {
  const uint64_t *k = (const uint64_t *)keys;
  const gp_key_class c = gp_key_class_of(kt);
  const int desc = order == GP_DESCENDING;
  const int b = gp_cpu_ceil_log2(n);
  const uint64_t mask = ((uint64_t)1 << b) - 1;
  uint64_t local[GP_VSORT64_MAX];
  const size_t vmax = gp_cpu_vsort64_max();
  uint64_t *w = ib == 8 ? (uint64_t *)indices
                        : n <= GP_VSORT64_MAX ? local : (uint64_t *)malloc(n * sizeof *w);
  if (!w)
    return gp_fail(ctx, GP_ERR_OUT_OF_MEMORY,
                   "cannot allocate %zu bytes of host scratch for the argsort", n * sizeof *w);
  /* the encoded keys, and the bits that vary among them: those above the highest are
     shifted out */
  uint64_t diff = 0;
  for (size_t i = 0; i < n; i++) {
    w[i] = gp_key64_enc(k[i], c, desc);
    diff |= w[i] ^ w[0];
  }
  const int s = diff ? __builtin_clzll(diff) : 0;
  for (size_t i = 0; i < n; i++) w[i] = ((w[i] << s) & ~mask) | i;
  gp_status st = GP_OK;
  if (n <= vmax) gp_cpu_vsort64(w, n, GP_KEY_UNSIGNED, 0);
  else st = gp_cpu_radix_sort(ctx, GP_U64, w, 0, NULL, 1, n, GP_ASCENDING);
  if (st == GP_OK && s < b) /* bits were dropped: runs of equal tops may need the keys */
    for (size_t i = 0; i + 1 < n;) {
      size_t j = i + 1;
      while (j < n && ((w[j] ^ w[i]) & ~mask) == 0) j++;
      if (j - i > 1) pk_fix_run(w + i, j - i, k, c, desc, mask);
      i = j;
    }
  if (st == GP_OK) {
    if (ib == 8)
      for (size_t i = 0; i < n; i++) w[i] &= mask;
    else
      for (size_t i = 0; i < n; i++) ((uint32_t *)indices)[i] = (uint32_t)(w[i] & mask);
  }
  if (w != local && w != indices) free(w);
  return st;
}
