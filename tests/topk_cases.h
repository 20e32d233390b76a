/* gp_topk cases shared by tests/test_topk.c (CPU) and tests/test_topk_gpu.c: every
 * dtype, both orders, k from 1 to n, ties, NaN / -0 / inf, against an insertion-based
 * reference written here with its own comparison (no key encoding). The including test
 * defines tk_run. */
#ifndef GP_TESTS_TOPK_CASES_H
#define GP_TESTS_TOPK_CASES_H

#include "check.h"

#include <stdint.h>
#include <stdlib.h>

static gp_status tk_run(gp_dtype t, const void *x, size_t n, size_t k, gp_order order,
                        void *values, uint64_t *indices);

/* a float's rank class in the total order: -NaN < finite/inf < +NaN; -0 < +0 */
static int tk_less_f(double a, double b) {
  int ca = isnan(a) ? (signbit(a) ? 0 : 2) : 1, cb = isnan(b) ? (signbit(b) ? 0 : 2) : 1;
  if (ca != cb) return ca < cb;
  if (ca != 1) return 0;
  if (a == 0 && b == 0) return signbit(a) && !signbit(b);
  return a < b;
}
/* element i strictly before element j in the wanted order (ties: neither) */
static int tk_before(gp_dtype t, const void *x, size_t i, size_t j, gp_order order) {
  size_t a = order == GP_DESCENDING ? j : i, b = order == GP_DESCENDING ? i : j;
  switch (t) {
  case GP_F32: return tk_less_f(((const float *)x)[a], ((const float *)x)[b]);
  case GP_F64: return tk_less_f(((const double *)x)[a], ((const double *)x)[b]);
  case GP_I32: return ((const int32_t *)x)[a] < ((const int32_t *)x)[b];
  case GP_I64: return ((const int64_t *)x)[a] < ((const int64_t *)x)[b];
  case GP_U32: return ((const uint32_t *)x)[a] < ((const uint32_t *)x)[b];
  default: return ((const uint64_t *)x)[a] < ((const uint64_t *)x)[b];
  }
}
/* the first k indices in order: insertion, a later equal element goes after */
static void tk_ref(gp_dtype t, const void *x, size_t n, size_t k, gp_order order, uint64_t *best) {
  size_t m = 0;
  for (size_t i = 0; i < n; i++) {
    size_t pos = m;
    while (pos > 0 && tk_before(t, x, i, (size_t)best[pos - 1], order)) pos--;
    if (pos >= k) continue;
    size_t end = m < k ? m : k - 1;
    for (size_t q = end; q > pos; q--) best[q] = best[q - 1];
    best[pos] = i;
    if (m < k) m++;
  }
}

static void tk_fill(gp_dtype t, void *x, size_t n, int pat) {
  for (size_t i = 0; i < n; i++) {
    uint64_t r = check_rand64();
    int64_t v = pat == 0 ? (int64_t)(r % 2000001) - 1000000 : (int64_t)(r % 5) - 2; /* pat 1: ties */
    switch (t) {
    case GP_F32: ((float *)x)[i] = (float)v * 0.5f; break;
    case GP_F64: ((double *)x)[i] = (double)v * 0.25; break;
    case GP_I32: ((int32_t *)x)[i] = (int32_t)v; break;
    case GP_I64: ((int64_t *)x)[i] = v * 1000000007; break;
    case GP_U32: ((uint32_t *)x)[i] = (uint32_t)(v + 2); break;
    default: ((uint64_t *)x)[i] = (uint64_t)(v + 2) << 40; break;
    }
  }
  if (pat == 2 && n >= 8) { /* specials */
    if (t == GP_F32) { float *f = (float *)x; f[1] = NAN; f[3] = -NAN; f[4] = -0.0f; f[5] = 0.0f; f[6] = INFINITY; f[7] = -INFINITY; }
    if (t == GP_F64) { double *d = (double *)x; d[2] = -NAN; d[3] = NAN; d[4] = 0.0; d[6] = -0.0; d[0] = -INFINITY; d[7] = INFINITY; }
  }
}

static void tk_test_matrix(void) {
  const gp_dtype types[] = {GP_F32, GP_F64, GP_I32, GP_I64, GP_U32, GP_U64};
  const size_t ns[] = {1, 8, 33, 1000, 5000};
  unsigned char *x = (unsigned char *)malloc(5000 * 8), *v = (unsigned char *)malloc(5000 * 8);
  uint64_t *idx = (uint64_t *)malloc(5000 * 8), *want = (uint64_t *)malloc(5000 * 8);
  for (int ti = 0; ti < 6; ti++)
    for (size_t ni = 0; ni < 5; ni++)
      for (int pat = 0; pat < 3; pat++) {
        const size_t n = ns[ni], es = gp_dtype_size(types[ti]);
        const size_t ks[] = {1, 2, 16, n / 3 + 1, n};
        check_seed(900 + (uint64_t)ti * 7 + ni * 3 + (uint64_t)pat);
        tk_fill(types[ti], x, n, pat);
        for (int oi = 0; oi < 2; oi++)
          for (int kk = 0; kk < 5; kk++) {
            const size_t k = ks[kk] < n ? ks[kk] : n;
            const gp_order order = oi ? GP_DESCENDING : GP_ASCENDING;
            if (tk_run(types[ti], x, n, k, order, v, idx) != GP_OK) continue;
            tk_ref(types[ti], x, n, k, order, want);
            size_t bad = 0;
            for (size_t j = 0; j < k; j++)
              bad += idx[j] != want[j] || memcmp(v + j * es, x + want[j] * es, es) != 0;
            CHECK_MSG(bad == 0, "topk %s n=%zu k=%zu %s pattern %d: %zu of %zu wrong (first: %llu vs %llu)",
                      gp_dtype_name(types[ti]), n, k, oi ? "largest" : "smallest", pat, bad, k,
                      (unsigned long long)idx[0], (unsigned long long)want[0]);
          }
      }
  free(x);
  free(v);
  free(idx);
  free(want);
}

#endif
