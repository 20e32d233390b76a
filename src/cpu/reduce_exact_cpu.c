/* CPU backend of the correctly rounded F32/F64 SUM (GP_REDUCE_AUTO): the expansion +
 * superaccumulator of src/core/exact_sum.h, OpenMP threads over fixed chunks, each
 * thread's exact integer folded into one, rounded once. The result is the exact sum
 * rounded, so it equals the CUDA backend's bits whatever either one's order. */
#include "cpu/reduce_cpu.h"
#include "core/exact_sum.h"

#include <math.h>
#include <string.h>

/* Each chunk starts fresh expansions and ends with a normalized accumulator, so no
 * limb ever holds more than ~3 x 2^16 deferred digits. */
#define GP_XS_CPU_CHUNK ((size_t)1 << 16)

/* Lanes: independent expansions, so consecutive inputs' TwoSum chains overlap and the
 * compiler can put a block of them in vector registers. A block whose every step was
 * exact commits at once; a block with an inexact step (rare) commits the exact steps
 * and sends the other inputs to the accumulator, lane by lane as gp_xs_add1/add2 would.
 * Which inputs take which path never changes the exact sum, so the bits are the same. */
#define GP_XS_CPU_LANES 8
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(__SANITIZE_ADDRESS__)
#define GP_XS_CPU_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define GP_XS_CPU_CLONES
#endif

GP_XS_CPU_CLONES static void chunk_f32(const float *x, size_t n, int64_t *acc) {
  const int L = GP_XS_F32_LIMBS, lsb = GP_XS_F32_LSB;
  double h[GP_XS_CPU_LANES];
  for (int c = 0; c < GP_XS_CPU_LANES; c++) h[c] = -0.0;
  size_t i = 0;
  for (; i + GP_XS_CPU_LANES <= n; i += GP_XS_CPU_LANES) {
    double s[GP_XS_CPU_LANES], e[GP_XS_CPU_LANES];
    int bad = 0;
    for (int c = 0; c < GP_XS_CPU_LANES; c++) {
      const double v = (double)x[i + c];
      s[c] = h[c] + v;
      const double bb = s[c] - h[c];
      e[c] = (h[c] - (s[c] - bb)) + (v - bb);
      bad |= e[c] != 0.0; /* NaN and inf inputs give a NaN e: not exact either */
    }
    if (!bad) {
      for (int c = 0; c < GP_XS_CPU_LANES; c++) h[c] = s[c];
      continue;
    }
    for (int c = 0; c < GP_XS_CPU_LANES; c++) {
      if (e[c] == 0.0) h[c] = s[c];
      else gp_xs_add_plain(acc, L, lsb, (double)x[i + c]);
    }
  }
  for (; i < n; i++) {
    const double v = (double)x[i];
    if (!gp_xs_add1(&h[0], v)) gp_xs_add_plain(acc, L, lsb, v);
  }
  for (int c = 0; c < GP_XS_CPU_LANES; c++) {
    gp_xs_add_plain(acc, L, lsb, h[c]);
    acc[L] |= gp_xs_head_flag(h[c]);
  }
  gp_xs_normalize(acc, L);
}

GP_XS_CPU_CLONES static void chunk_f64(const double *x, size_t n, int64_t *acc) {
  const int L = GP_XS_F64_LIMBS, lsb = GP_XS_F64_LSB;
  double h[GP_XS_CPU_LANES], l[GP_XS_CPU_LANES];
  for (int c = 0; c < GP_XS_CPU_LANES; c++) h[c] = l[c] = -0.0;
  size_t i = 0;
  for (; i + GP_XS_CPU_LANES <= n; i += GP_XS_CPU_LANES) {
    double s[GP_XS_CPU_LANES], e[GP_XS_CPU_LANES];
    int bad = 0;
    for (int c = 0; c < GP_XS_CPU_LANES; c++) { /* gp_xs_add2's fast case: e == 0 */
      const double v = x[i + c];
      s[c] = h[c] + v;
      const double bb = s[c] - h[c];
      e[c] = (h[c] - (s[c] - bb)) + (v - bb);
      bad |= (e[c] != 0.0) | !(fabs(s[c]) < GP_XS_F64_HEAD_MAX);
    }
    if (!bad) {
      for (int c = 0; c < GP_XS_CPU_LANES; c++) h[c] = s[c];
      continue;
    }
    for (int c = 0; c < GP_XS_CPU_LANES; c++)
      if (!gp_xs_add2(&h[c], &l[c], x[i + c])) gp_xs_add_plain(acc, L, lsb, x[i + c]);
  }
  for (; i < n; i++)
    if (!gp_xs_add2(&h[0], &l[0], x[i])) gp_xs_add_plain(acc, L, lsb, x[i]);
  for (int c = 0; c < GP_XS_CPU_LANES; c++) {
    gp_xs_add_plain(acc, L, lsb, h[c]);
    gp_xs_add_plain(acc, L, lsb, l[c]);
    acc[L] |= gp_xs_head_flag(h[c]);
  }
  gp_xs_normalize(acc, L);
}

void gp_cpu_sum_exact_acc(gp_dtype type, const void *in, size_t n, int64_t *acc) {
  const int L = type == GP_F32 ? GP_XS_F32_LIMBS : GP_XS_F64_LIMBS;
  const size_t esize = type == GP_F32 ? 4 : 8;
  const size_t nchunks = (n + GP_XS_CPU_CHUNK - 1) / GP_XS_CPU_CHUNK;
  memset(acc, 0, (size_t)(L + 1) * sizeof *acc);
#ifdef _OPENMP
#pragma omp parallel if (nchunks > 1)
#endif
  {
    int64_t mine[GP_XS_MAX_LIMBS + 1];
    memset(mine, 0, sizeof mine);
#ifdef _OPENMP
#pragma omp for schedule(static)
#endif
    for (size_t c = 0; c < nchunks; c++) {
      size_t lo = c * GP_XS_CPU_CHUNK, cnt = n - lo < GP_XS_CPU_CHUNK ? n - lo : GP_XS_CPU_CHUNK;
      const char *p = (const char *)in + lo * esize;
      if (type == GP_F32) chunk_f32((const float *)p, cnt, mine);
      else chunk_f64((const double *)p, cnt, mine);
    }
#ifdef _OPENMP
#pragma omp critical(gp_xs_fold)
#endif
    {
      for (int i = 0; i < L; i++) acc[i] = (int64_t)((uint64_t)acc[i] + (uint64_t)mine[i]);
      acc[L] |= mine[L];
      gp_xs_normalize(acc, L);
    }
  }
}

gp_status gp_cpu_sum_exact(gp_dtype type, const void *in, size_t n, void *out) {
  int64_t acc[GP_XS_MAX_LIMBS + 1];
  gp_cpu_sum_exact_acc(type, in, n, acc);
  if (type == GP_F32) {
    float r = gp_rt_canon_f32((float)gp_xs_round(acc, GP_XS_F32_LIMBS, GP_XS_F32_LSB, 24));
    memcpy(out, &r, sizeof r);
  } else {
    double r = gp_rt_canon_f64(gp_xs_round(acc, GP_XS_F64_LIMBS, GP_XS_F64_LSB, 53));
    memcpy(out, &r, sizeof r);
  }
  return GP_OK;
}
