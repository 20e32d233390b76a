/* CPU backend of gp_argreduce: OpenMP threads over fixed chunks, each keeping the best
 * (key, index) of core/argreduce.h, folded lexicographically; the answer (first index
 * of the winner) does not depend on the thread count. */
#include "cpu/argreduce_cpu.h"
#include "core/argreduce.h"

#include <string.h>

static uint64_t key_at(gp_dtype t, const void *in, size_t i, int mx) {
  switch (t) {
  case GP_F32: { uint32_t u; memcpy(&u, (const char *)in + 4 * i, 4); return gp_arg_key_f32(u, mx); }
  case GP_F64: { uint64_t u; memcpy(&u, (const char *)in + 8 * i, 8); return gp_arg_key_f64(u, mx); }
  case GP_I32: return gp_arg_key_i32(((const int32_t *)in)[i], mx);
  case GP_I64: return gp_arg_key_i64(((const int64_t *)in)[i], mx);
  case GP_U32: return gp_arg_key_u32(((const uint32_t *)in)[i], mx);
  default: return gp_arg_key_u64(((const uint64_t *)in)[i], mx);
  }
}

void gp_cpu_argreduce(gp_op op, gp_dtype type, const void *in, size_t n, void *value_out,
                      uint64_t *index_out) {
  const int mx = op == GP_MAX;
  uint64_t bk = UINT64_MAX, bi = UINT64_MAX;
  const ptrdiff_t nn = (ptrdiff_t)n;
#ifdef _OPENMP
#pragma omp parallel if (n > 65536)
#endif
  {
    uint64_t k1 = UINT64_MAX, i1 = UINT64_MAX;
#ifdef _OPENMP
#pragma omp for schedule(static)
#endif
    for (ptrdiff_t i = 0; i < nn; i++) {
      uint64_t k = key_at(type, in, (size_t)i, mx);
      /* (a 64-bit key may equal the UINT64_MAX start; the index then breaks the tie) */
      if (gp_arg_better(k, (uint64_t)i, k1, i1)) { k1 = k; i1 = (uint64_t)i; }
    }
#ifdef _OPENMP
#pragma omp critical(gp_arg_fold)
#endif
    if (gp_arg_better(k1, i1, bk, bi)) { bk = k1; bi = i1; }
  }
  const size_t es = gp_dtype_size(type);
  memcpy(value_out, (const char *)in + bi * es, es);
  if (type == GP_F32) {
    float f;
    memcpy(&f, value_out, 4);
    f = gp_rt_canon_f32(f);
    memcpy(value_out, &f, 4);
  } else if (type == GP_F64) {
    double d;
    memcpy(&d, value_out, 8);
    d = gp_rt_canon_f64(d);
    memcpy(value_out, &d, 8);
  }
  *index_out = bi;
}
