/* The one definition of arg-min / arg-max (gp_argreduce), shared by the CUDA kernel
 * (src/cuda/reduce/argreduce.cu) and the CPU backend (src/cpu/argreduce_cpu.c): each
 * element becomes a 64-bit key whose smallest value wins, and (key, index) pairs are
 * compared lexicographically, so the first occurrence wins ties and any tree or thread
 * count gives the same answer. NumPy's rules: a NaN beats everything (key 0, so the
 * first NaN wins), and -0 == +0. */
#ifndef GP_CORE_ARGREDUCE_H
#define GP_CORE_ARGREDUCE_H

#include <stdint.h>

#include "core/key_codec.h"
#include "core/reduce_tree.h"

/* keys: smaller wins; is_max complements the order. 0 is reserved for float NaN, and
 * no non-NaN float maps there (gp_key_f32/f64 keep the NaNs at both ends). */
GP_RT_FN uint64_t gp_arg_key_f32(uint32_t u, int is_max) {
  if (gp_rt_f32_isnan(u)) return 0;
  if ((u & 0x7fffffffu) == 0) u = 0; /* -0 ties with +0 */
  uint32_t k = gp_key_f32(u);
  return is_max ? (uint32_t)~k : k;
}
GP_RT_FN uint64_t gp_arg_key_f64(uint64_t u, int is_max) {
  if (gp_rt_f64_isnan(u)) return 0;
  if ((u & 0x7fffffffffffffffull) == 0) u = 0;
  uint64_t k = gp_key_f64(u);
  return is_max ? ~k : k;
}
GP_RT_FN uint64_t gp_arg_key_i32(int32_t x, int is_max) {
  uint32_t k = (uint32_t)x ^ 0x80000000u;
  return is_max ? (uint32_t)~k : k;
}
GP_RT_FN uint64_t gp_arg_key_i64(int64_t x, int is_max) {
  uint64_t k = (uint64_t)x ^ 0x8000000000000000ull;
  return is_max ? ~k : k;
}
GP_RT_FN uint64_t gp_arg_key_u32(uint32_t x, int is_max) { return is_max ? (uint32_t)~x : x; }
GP_RT_FN uint64_t gp_arg_key_u64(uint64_t x, int is_max) { return is_max ? ~x : x; }

/* whether (ka, ia) beats (kb, ib) */
GP_RT_FN int gp_arg_better(uint64_t ka, uint64_t ia, uint64_t kb, uint64_t ib) {
  return ka < kb || (ka == kb && ia < ib);
}

#endif
