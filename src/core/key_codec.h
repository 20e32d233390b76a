/* The one order-preserving key encoding, for the CPU backend, every sort kernel and the
 * float MIN/MAX keys of the reductions: a key maps to an unsigned integer of its width
 * whose unsigned order is the library's total order (-NaN < -inf < ... < -0 < +0 < ...
 * < +inf < +NaN for floats); descending complements it. Plain C11 that nvcc also
 * compiles (host and device), in the style of core/reduce_tree.h. Also the seed's
 * bitonic index helpers (Program 6.17's Insert_zero and Which_bit), written once. */
#ifndef GP_CORE_KEY_CODEC_H
#define GP_CORE_KEY_CODEC_H

#include "gpuprims.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __CUDACC__
#define GP_KC_FN static inline __host__ __device__
#else
#define GP_KC_FN static inline
#endif

/* How a key type's bits are turned into an unsigned order. */
typedef enum gp_key_class {
  GP_KEY_UNSIGNED = 0, /* U32, U64: the bits already are the order */
  GP_KEY_SIGNED = 1,   /* I32, I64: flip the sign bit */
  GP_KEY_FLOAT = 2     /* F32, F64: all bits when negative, else the sign bit */
} gp_key_class;

GP_KC_FN gp_key_class gp_key_class_of(gp_dtype t) {
  return (t == GP_F32 || t == GP_F64)   ? GP_KEY_FLOAT
         : (t == GP_I32 || t == GP_I64) ? GP_KEY_SIGNED
                                        : GP_KEY_UNSIGNED;
}

/* Ascending float keys, branch-free: u ^ (negative ? all ones : top bit). */
GP_KC_FN uint32_t gp_key_f32(uint32_t u) { return u ^ ((0u - (u >> 31)) | 0x80000000u); }
GP_KC_FN uint64_t gp_key_f64(uint64_t u) {
  return u ^ ((0ull - (u >> 63)) | 0x8000000000000000ull);
}
/* Inverse of gp_key_f32/f64. */
GP_KC_FN uint32_t gp_unkey_f32(uint32_t k) { return (k >> 31) ? k ^ 0x80000000u : ~k; }
GP_KC_FN uint64_t gp_unkey_f64(uint64_t k) {
  return (k >> 63) ? k ^ 0x8000000000000000ull : ~k;
}

GP_KC_FN uint32_t gp_key32_enc(uint32_t u, gp_key_class c, int desc) {
  if (c == GP_KEY_FLOAT) u = gp_key_f32(u);
  else if (c == GP_KEY_SIGNED) u ^= 0x80000000u;
  return desc ? ~u : u;
}
GP_KC_FN uint32_t gp_key32_dec(uint32_t u, gp_key_class c, int desc) {
  if (desc) u = ~u;
  if (c == GP_KEY_FLOAT) u = gp_unkey_f32(u);
  else if (c == GP_KEY_SIGNED) u ^= 0x80000000u;
  return u;
}
GP_KC_FN uint64_t gp_key64_enc(uint64_t u, gp_key_class c, int desc) {
  if (c == GP_KEY_FLOAT) u = gp_key_f64(u);
  else if (c == GP_KEY_SIGNED) u ^= 0x8000000000000000ull;
  return desc ? ~u : u;
}
GP_KC_FN uint64_t gp_key64_dec(uint64_t u, gp_key_class c, int desc) {
  if (desc) u = ~u;
  if (c == GP_KEY_FLOAT) u = gp_unkey_f64(u);
  else if (c == GP_KEY_SIGNED) u ^= 0x8000000000000000ull;
  return u;
}

/* gp_key32_enc / gp_key64_enc with the class and direction folded into two constants,
 * for loops that encode many keys of one type (topk_rows.cu): enc(u) = u ^ (u's top bit
 * spread & a) ^ b, three operations and no branch (floats: all bits flipped when
 * negative, else the top bit; signed: the top bit; descending: every bit flipped too).
 * wide: 8-byte keys. Equal to gp_key32_enc / gp_key64_enc for every u (test_sort_cpu). */
typedef struct gp_key_code {
  uint64_t a, b;
} gp_key_code;
GP_KC_FN gp_key_code gp_key_code_of(gp_key_class c, int desc, int wide) {
  const uint64_t top = wide ? 0x8000000000000000ull : 0x80000000ull;
  const uint64_t all = wide ? ~0ull : 0xffffffffull;
  gp_key_code q;
  q.a = c == GP_KEY_FLOAT ? top - 1 : 0;
  q.b = (c == GP_KEY_UNSIGNED ? 0 : top) ^ (desc ? all : 0);
  return q;
}
GP_KC_FN uint32_t gp_key32_coded(uint32_t u, gp_key_code q) {
  return u ^ ((0u - (u >> 31)) & (uint32_t)q.a) ^ (uint32_t)q.b;
}
GP_KC_FN uint64_t gp_key64_coded(uint64_t u, gp_key_code q) {
  return u ^ ((0ull - (u >> 63)) & q.a) ^ q.b;
}

/* ---- Program 6.17's index helpers ------------------------------------------------ */
/* Inserts a 0 bit at position `which_bit` of th (the bits at and above it move up). */
GP_KC_FN uint64_t gp_insert_zero(uint64_t th, unsigned which_bit) {
  const uint64_t low = th & ((1ull << which_bit) - 1);
  return ((th >> which_bit) << (which_bit + 1)) | low;
}
/* log2 of a power of two. */
GP_KC_FN unsigned gp_which_bit(uint64_t stage) {
#ifdef __CUDA_ARCH__
  return (unsigned)(63 - __clzll((long long)stage));
#else
  unsigned b = 0;
  while ((1ull << b) < stage) b++;
  return b;
#endif
}

#ifdef __CUDACC__
/* The kernels are stamped per key width: one name for both. */
GP_KC_FN uint32_t gp_key_enc(uint32_t u, gp_key_class c, int desc) { return gp_key32_enc(u, c, desc); }
GP_KC_FN unsigned long long gp_key_enc(unsigned long long u, gp_key_class c, int desc) {
  return gp_key64_enc(u, c, desc);
}
GP_KC_FN uint32_t gp_key_coded(uint32_t u, gp_key_code q) { return gp_key32_coded(u, q); }
GP_KC_FN unsigned long long gp_key_coded(unsigned long long u, gp_key_code q) {
  return gp_key64_coded(u, q);
}
GP_KC_FN uint32_t gp_key_dec(uint32_t u, gp_key_class c, int desc) { return gp_key32_dec(u, c, desc); }
GP_KC_FN unsigned long long gp_key_dec(unsigned long long u, gp_key_class c, int desc) {
  return gp_key64_dec(u, c, desc);
}
#endif

#endif
