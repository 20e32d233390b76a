/* CPU sorting backend: the seed's serial bitonic sort of Program 6.17 on keys mapped to
 * order-preserving unsigned integers in place (and mapped back), and the dispatch of
 * every other sort to the parallel radix sort of radix_cpu.c. */
#include "cpu/radix_cpu.h"
#include "cpu/sort_cpu.h"

#include <stdlib.h>

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
  if (nseg * seg <= 1 || seg <= 1) return GP_OK; /* nothing moves */
  if (algo == GP_SORT_BITONIC_SEED && nseg == 1)
    return sort_seed(ctx, kt, keys, vb, values, seg, order == GP_DESCENDING);
  return gp_cpu_radix_sort(ctx, kt, keys, vb, values, nseg, seg, order);
}
