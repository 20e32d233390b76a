/* CPU backend of gp_reduce_rows / gp_reduce_segments_offsets: OpenMP threads over the
 * segments, each reduced by gp_cpu_reduce (AUTO) exactly as gp_reduce would reduce it
 * alone, so the bits match it (and the CUDA backend) by construction. (The AUTO
 * reductions open no OpenMP region for inputs of one chunk, so short segments pay no
 * nested region or lock.) */
#include "cpu/reduce_cpu.h"

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define GP_SEG_GRAB 16384

/* MIN/MAX of an empty segment: the identity (+inf / -inf, the type's max / min) */
static void empty_value(gp_op op, gp_dtype type, void *o) {
  const int mx = op == GP_MAX;
  switch (type) {
  case GP_F32: { float v = mx ? -(float)INFINITY : (float)INFINITY; memcpy(o, &v, 4); break; }
  case GP_F64: { double v = mx ? -(double)INFINITY : (double)INFINITY; memcpy(o, &v, 8); break; }
  case GP_I32: { int32_t v = mx ? INT32_MIN : INT32_MAX; memcpy(o, &v, 4); break; }
  case GP_I64: { int64_t v = mx ? INT64_MIN : INT64_MAX; memcpy(o, &v, 8); break; }
  case GP_U32: { uint32_t v = mx ? 0 : UINT32_MAX; memcpy(o, &v, 4); break; }
  case GP_U64: { uint64_t v = mx ? 0 : UINT64_MAX; memcpy(o, &v, 8); break; }
  }
}

gp_status gp_cpu_reduce_segments(gp_context *ctx, gp_op op, gp_dtype type, const void *in,
                                 const uint64_t *offsets, size_t row_len, size_t nseg, void *out,
                                 unsigned two_phase_blocks) {
  const size_t es = gp_dtype_size(type), osize = gp_dtype_size(gp_reduce_out_type(op, type));
  const ptrdiff_t ns = (ptrdiff_t)nseg;
  int failed = 0;
  /* a thread takes segments of about GP_SEG_GRAB elements at a time (at least 16) */
  const size_t avg = offsets ? (size_t)(offsets[nseg] - offsets[0]) / (nseg ? nseg : 1) : row_len;
  const int grab = avg * 16 >= GP_SEG_GRAB ? 16 : (int)(GP_SEG_GRAB / (avg ? avg : 1));
  (void)grab; /* without OpenMP */
#ifdef _OPENMP
#pragma omp parallel for schedule(dynamic, grab) if (nseg > 1)
#endif
  for (ptrdiff_t s = 0; s < ns; s++) {
    const size_t b = offsets ? offsets[s] : (size_t)s * row_len;
    const size_t e = offsets ? offsets[s + 1] : (size_t)(s + 1) * row_len;
    char *o = (char *)out + (size_t)s * osize;
    if (b == e) {
      if (op == GP_SUM) memset(o, 0, osize);
      else empty_value(op, type, o);
    } else if (gp_cpu_reduce(ctx, op, type, (const char *)in + b * es, e - b, o, GP_REDUCE_AUTO,
                             two_phase_blocks) != GP_OK) {
#ifdef _OPENMP
#pragma omp atomic write
#endif
      failed = 1;
    }
  }
  return failed ? GP_ERR_OUT_OF_MEMORY : GP_OK; /* gp_cpu_reduce recorded the message */
}
