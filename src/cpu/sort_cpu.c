/* CPU sorting backend: keys are mapped to order-preserving unsigned integers in place,
 * sorted (the seed's serial bitonic sort of Program 6.17, or a stable LSD radix sort),
 * and mapped back. Segments are independent sorts run in parallel with OpenMP. */
#include "cpu/sort_cpu.h"

#include <stdlib.h>
#ifdef _OPENMP
#include <omp.h>
#endif

/* ---- Program 6.17: serial bitonic sort ------------------------------------------ */
#define GP_SWAP_(T, a, b) do { T t_ = (a); (a) = (b); (b) = t_; } while (0)

/* Compare_swap(list, e1, e2, dec): increasing pairs put the smaller key at e1,
 * decreasing ones the larger; equal keys never move. */
#define GP_DEFINE_SERIAL_BITONIC(NAME, KT)                                            \
  void NAME(KT *list, void *vals, int value_bytes, size_t n) {                        \
    uint32_t *v32 = (uint32_t *)vals;                                                 \
    uint64_t *v64 = (uint64_t *)vals;                                                 \
    for (size_t bf_sz = 2; bf_sz <= n; bf_sz *= 2) {                                  \
      for (size_t stage = bf_sz / 2; stage > 0; stage /= 2) {                         \
        unsigned which_bit = gp_which_bit(stage);                             \
        for (size_t th = 0; th < n / 2; th++) {                                       \
          size_t my_elt1 = gp_insert_zero(th, which_bit);                     \
          size_t my_elt2 = my_elt1 ^ stage;                                           \
          int dec = (my_elt1 & bf_sz) != 0;                                           \
          KT a = list[my_elt1], b = list[my_elt2];                                    \
          if (dec ? (a < b) : (a > b)) {                                              \
            list[my_elt1] = b;                                                        \
            list[my_elt2] = a;                                                        \
            if (value_bytes == 4) GP_SWAP_(uint32_t, v32[my_elt1], v32[my_elt2]);     \
            else if (value_bytes == 8) GP_SWAP_(uint64_t, v64[my_elt1], v64[my_elt2]); \
          }                                                                           \
        }                                                                             \
      }                                                                               \
    }                                                                                 \
  }
GP_DEFINE_SERIAL_BITONIC(gp_cpu_bitonic_serial_u32, uint32_t)
GP_DEFINE_SERIAL_BITONIC(gp_cpu_bitonic_serial_u64, uint64_t)

/* ---- stable LSD radix sort (8-bit digits) ---------------------------------------
 * One counting pass builds every digit's histogram; a digit whose keys all fall in
 * one bucket is skipped. tk/tv are scratch of n elements. Values ride along. */
#define GP_DEFINE_RADIX(NAME, KT, VT, HASV)                                            \
  static void NAME(KT *k, VT *v, KT *tk, VT *tv, size_t n) {                           \
    enum { DIGITS = (int)sizeof(KT) };                                                 \
    size_t count[sizeof(KT)][256];                                                     \
    memset(count, 0, sizeof count);                                                    \
    for (size_t i = 0; i < n; i++) {                                                   \
      KT x = k[i];                                                                     \
      for (int d = 0; d < DIGITS; d++) count[d][(x >> (8 * d)) & 0xFF]++;              \
    }                                                                                  \
    KT *src = k, *dst = tk;                                                            \
    VT *vsrc = v, *vdst = tv;                                                          \
    for (int d = 0; d < DIGITS; d++) {                                                 \
      size_t *c = count[d];                                                            \
      int trivial = 0;                                                                 \
      for (int b = 0; b < 256; b++)                                                    \
        if (c[b] == n) { trivial = 1; break; }                                         \
      if (trivial) continue;                                                           \
      size_t sum = 0;                                                                  \
      for (int b = 0; b < 256; b++) { size_t t = c[b]; c[b] = sum; sum += t; }         \
      for (size_t i = 0; i < n; i++) {                                                 \
        size_t p = c[(src[i] >> (8 * d)) & 0xFF]++;                                    \
        dst[p] = src[i];                                                               \
        if (HASV) vdst[p] = vsrc[i];                                                   \
      }                                                                                \
      KT *tkp = src; src = dst; dst = tkp;                                             \
      VT *tvp = vsrc; vsrc = vdst; vdst = tvp;                                         \
    }                                                                                  \
    if (src != k) {                                                                    \
      memcpy(k, src, n * sizeof(KT));                                                  \
      if (HASV) memcpy(v, vsrc, n * sizeof(VT));                                       \
    }                                                                                  \
  }                                                                                    \
  /* stable insertion sort for tiny segments */                                       \
  static void NAME##_small(KT *k, VT *v, size_t n) {                                   \
    for (size_t i = 1; i < n; i++) {                                                   \
      KT x = k[i];                                                                     \
      VT y = HASV ? v[i] : (VT)0;                                                      \
      size_t j = i;                                                                    \
      while (j > 0 && k[j - 1] > x) {                                                  \
        k[j] = k[j - 1];                                                               \
        if (HASV) v[j] = v[j - 1];                                                     \
        j--;                                                                           \
      }                                                                                \
      k[j] = x;                                                                        \
      if (HASV) v[j] = y;                                                              \
    }                                                                                  \
  }
GP_DEFINE_RADIX(radix_k32, uint32_t, uint32_t, 0)
GP_DEFINE_RADIX(radix_k32_v32, uint32_t, uint32_t, 1)
GP_DEFINE_RADIX(radix_k32_v64, uint32_t, uint64_t, 1)
GP_DEFINE_RADIX(radix_k64, uint64_t, uint32_t, 0)
GP_DEFINE_RADIX(radix_k64_v32, uint64_t, uint32_t, 1)
GP_DEFINE_RADIX(radix_k64_v64, uint64_t, uint64_t, 1)

#define GP_SMALL_SEGMENT 64 /* insertion sort below this: cheaper than 256-bucket passes */

/* Sorts one segment of already-transformed keys; scratch holds seg keys and values. */
static void sort_one(int kb, int vb, void *k, void *v, void *tk, void *tv, size_t n) {
  int small = n < GP_SMALL_SEGMENT;
  if (kb == 4) {
    if (vb == 0) { if (small) radix_k32_small(k, NULL, n); else radix_k32(k, NULL, tk, NULL, n); }
    else if (vb == 4) { if (small) radix_k32_v32_small(k, v, n); else radix_k32_v32(k, v, tk, tv, n); }
    else { if (small) radix_k32_v64_small(k, v, n); else radix_k32_v64(k, v, tk, tv, n); }
  } else {
    if (vb == 0) { if (small) radix_k64_small(k, NULL, n); else radix_k64(k, NULL, tk, NULL, n); }
    else if (vb == 4) { if (small) radix_k64_v32_small(k, v, n); else radix_k64_v32(k, v, tk, tv, n); }
    else { if (small) radix_k64_v64_small(k, v, n); else radix_k64_v64(k, v, tk, tv, n); }
  }
}

static void encode(gp_dtype t, int desc, void *keys, size_t n) {
  const gp_key_class c = gp_key_class_of(t);
  if (gp_dtype_size(t) == 4) {
    uint32_t *k = (uint32_t *)keys;
    for (size_t i = 0; i < n; i++) k[i] = gp_key32_enc(k[i], c, desc);
  } else {
    uint64_t *k = (uint64_t *)keys;
    for (size_t i = 0; i < n; i++) k[i] = gp_key64_enc(k[i], c, desc);
  }
}
static void decode(gp_dtype t, int desc, void *keys, size_t n) {
  const gp_key_class c = gp_key_class_of(t);
  if (gp_dtype_size(t) == 4) {
    uint32_t *k = (uint32_t *)keys;
    for (size_t i = 0; i < n; i++) k[i] = gp_key32_dec(k[i], c, desc);
  } else {
    uint64_t *k = (uint64_t *)keys;
    for (size_t i = 0; i < n; i++) k[i] = gp_key64_dec(k[i], c, desc);
  }
}

static size_t next_pow2(size_t n) {
  size_t p = 1;
  while (p < n) p *= 2;
  return p;
}

/* GP_SORT_BITONIC_SEED: Program 6.17 over the whole array. A non-power-of-two n (keys
 * only) is padded to the next power of two with the largest transformed key, which
 * sorts to the end, exactly as the GPU version does. */
static gp_status sort_seed(gp_context *ctx, gp_dtype kt, void *keys, int vb, void *vals,
                           size_t n, int desc) {
  size_t kb = gp_dtype_size(kt), p = next_pow2(n);
  void *buf = keys;
  if (p != n) {
    buf = malloc(p * kb);
    if (!buf)
      return gp_fail(ctx, GP_ERR_OUT_OF_MEMORY,
                     "cannot allocate %zu bytes of host scratch for the bitonic sort", p * kb);
  }
  encode(kt, desc, keys, n);
  if (buf != keys) {
    memcpy(buf, keys, n * kb);
    memset((char *)buf + n * kb, 0xFF, (p - n) * kb);
  }
  if (kb == 4) gp_cpu_bitonic_serial_u32((uint32_t *)buf, vals, vb, p);
  else gp_cpu_bitonic_serial_u64((uint64_t *)buf, vals, vb, p);
  if (buf != keys) {
    memcpy(keys, buf, n * kb);
    free(buf);
  }
  decode(kt, desc, keys, n);
  return GP_OK;
}

gp_status gp_cpu_sort(gp_context *ctx, gp_dtype kt, void *keys, int vb, void *values,
                      size_t nseg, size_t seg, gp_order order, gp_sort_algo algo) {
  int desc = order == GP_DESCENDING;
  size_t kb = gp_dtype_size(kt), n = nseg * seg;
  if (n <= 1 || seg <= 1) return GP_OK; /* nothing moves */
  if (algo == GP_SORT_BITONIC_SEED && nseg == 1)
    return sort_seed(ctx, kt, keys, vb, values, n, desc);

  int workers = 1;
#ifdef _OPENMP
  workers = omp_get_max_threads();
#endif
  if ((size_t)workers > nseg) workers = (int)nseg;
  if (workers < 1) workers = 1;
  void *tk = NULL, *tv = NULL;
  if (seg >= GP_SMALL_SEGMENT) {
    size_t kbytes = (size_t)workers * seg * kb, vbytes = (size_t)workers * seg * (size_t)vb;
    tk = malloc(kbytes);
    tv = vb ? malloc(vbytes) : NULL;
    if (!tk || (vb && !tv)) {
      free(tk);
      free(tv);
      return gp_fail(ctx, GP_ERR_OUT_OF_MEMORY,
                     "cannot allocate %zu bytes of host scratch for the radix sort",
                     kbytes + vbytes);
    }
  }
  encode(kt, desc, keys, n);
  long long ns = (long long)nseg;
#ifdef _OPENMP
#pragma omp parallel for num_threads(workers) schedule(static) if (workers > 1)
#endif
  for (long long s = 0; s < ns; s++) {
    int w = 0;
#ifdef _OPENMP
    w = omp_get_thread_num();
#endif
    size_t off = (size_t)s * seg;
    char *k = (char *)keys + off * kb;
    char *v = vb ? (char *)values + off * (size_t)vb : NULL;
    char *sk = tk ? (char *)tk + (size_t)w * seg * kb : NULL;
    char *sv = tv ? (char *)tv + (size_t)w * seg * (size_t)vb : NULL;
    sort_one((int)kb, vb, k, v, sk, sv, seg);
  }
  decode(kt, desc, keys, n);
  free(tk);
  free(tv);
  return GP_OK;
}

static gp_status no_scratch(gp_context *ctx, size_t bytes) {
  return gp_fail(ctx, GP_ERR_OUT_OF_MEMORY,
                 "cannot allocate %zu bytes of host scratch for the radix sort", bytes);
}

gp_status gp_cpu_argsort(gp_context *ctx, gp_dtype kt, const void *keys, gp_dtype it,
                         void *indices, size_t n, gp_order order) {
  if (n == 0) return GP_OK;
  size_t kb = gp_dtype_size(kt), ib = gp_dtype_size(it);
  char *k = (char *)malloc(n * kb), *tk = (char *)malloc(n * kb), *tv = (char *)malloc(n * ib);
  if (!k || !tk || !tv) {
    free(k);
    free(tk);
    free(tv);
    return no_scratch(ctx, n * (2 * kb + ib));
  }
  memcpy(k, keys, n * kb);
  if (ib == 4)
    for (size_t i = 0; i < n; i++) ((uint32_t *)indices)[i] = (uint32_t)i;
  else
    for (size_t i = 0; i < n; i++) ((uint64_t *)indices)[i] = (uint64_t)i;
  encode(kt, order == GP_DESCENDING, k, n);
  sort_one((int)kb, (int)ib, k, indices, tk, tv, n);
  free(k);
  free(tk);
  free(tv);
  return GP_OK;
}

gp_status gp_cpu_sort_offsets(gp_context *ctx, gp_dtype kt, void *keys, int vb,
                              void *values, const uint64_t *offsets, size_t nseg,
                              gp_order order) {
  int desc = order == GP_DESCENDING;
  size_t kb = gp_dtype_size(kt), longest = 0;
  for (size_t i = 0; i < nseg; i++) {
    size_t len = (size_t)(offsets[i + 1] - offsets[i]);
    if (len > longest) longest = len;
  }
  if (longest <= 1) return GP_OK;
  int workers = 1;
#ifdef _OPENMP
  workers = omp_get_max_threads();
#endif
  size_t kbytes = (size_t)workers * longest * kb, vbytes = (size_t)workers * longest * (size_t)vb;
  char *tk = (char *)malloc(kbytes), *tv = vb ? (char *)malloc(vbytes) : NULL;
  if (!tk || (vb && !tv)) {
    free(tk);
    free(tv);
    return no_scratch(ctx, kbytes + vbytes);
  }
  long long ns = (long long)nseg;
#ifdef _OPENMP
#pragma omp parallel for num_threads(workers) schedule(dynamic, 1) if (workers > 1)
#endif
  for (long long s = 0; s < ns; s++) {
    int w = 0;
#ifdef _OPENMP
    w = omp_get_thread_num();
#endif
    size_t off = (size_t)offsets[s], len = (size_t)(offsets[s + 1] - offsets[s]);
    if (len <= 1) continue;
    char *k = (char *)keys + off * kb;
    char *v = vb ? (char *)values + off * (size_t)vb : NULL;
    encode(kt, desc, k, len);
    sort_one((int)kb, vb, k, v, tk + (size_t)w * longest * kb,
             tv ? tv + (size_t)w * longest * (size_t)vb : NULL, len);
    decode(kt, desc, k, len);
  }
  free(tk);
  free(tv);
  return GP_OK;
}
