/* The one definition of gp_topk's order, shared by the CUDA kernels
 * (src/cuda/reduce/topk.cu) and the CPU backend (src/cpu/topk_cpu.c): each element
 * becomes an unsigned key of its width (core/key_codec.h: the library's total order,
 * -NaN < -inf < ... < -0 < +0 < ... < +inf < +NaN), complemented for the k largest, so
 * the answer is the k smallest (key, index) pairs: sorted, ties to the lower index. */
#ifndef GP_CORE_TOPK_H
#define GP_CORE_TOPK_H

#include "core/key_codec.h"

/* bits: the element's bits (4- or 8-byte types: wide = 0 or 1) */
GP_KC_FN uint64_t gp_topk_key(uint64_t bits, int wide, gp_key_class c, int largest) {
  if (!wide) return gp_key32_enc((uint32_t)bits, c, largest);
  return gp_key64_enc(bits, c, largest);
}

#endif
