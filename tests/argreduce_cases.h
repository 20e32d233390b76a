/* gp_argreduce cases shared by tests/test_argreduce.c (CPU) and test_argreduce_gpu.c:
 * every dtype, MIN and MAX, sizes across block and vector boundaries, data with many
 * ties, constant, sorted both ways, NaN at chosen places, -0 / +0, infinities and
 * integer extremes, each against a plain loop written here (NumPy's rules: the first
 * NaN wins, ties go to the lowest index). The including test defines ac_run. */
#ifndef GP_TESTS_ARGREDUCE_CASES_H
#define GP_TESTS_ARGREDUCE_CASES_H

#include "check.h"

#include <stdint.h>
#include <stdlib.h>

static gp_status ac_run(gp_op op, gp_dtype t, const void *x, size_t n, void *value,
                        uint64_t *index);

static const gp_dtype ac_types[] = {GP_F32, GP_F64, GP_I32, GP_I64, GP_U32, GP_U64};

/* the reference: first NaN, else the first strict improvement */
static size_t ac_ref(gp_op op, gp_dtype t, const void *x, size_t n) {
  if (t == GP_F32 || t == GP_F64) {
    for (size_t i = 0; i < n; i++) {
      double v = t == GP_F32 ? (double)((const float *)x)[i] : ((const double *)x)[i];
      if (isnan(v)) return i;
    }
  }
  size_t best = 0;
  for (size_t i = 1; i < n; i++) {
    int better;
    switch (t) {
    case GP_F32: { float a = ((const float *)x)[i], b = ((const float *)x)[best]; better = op == GP_MIN ? a < b : a > b; break; }
    case GP_F64: { double a = ((const double *)x)[i], b = ((const double *)x)[best]; better = op == GP_MIN ? a < b : a > b; break; }
    case GP_I32: { int32_t a = ((const int32_t *)x)[i], b = ((const int32_t *)x)[best]; better = op == GP_MIN ? a < b : a > b; break; }
    case GP_I64: { int64_t a = ((const int64_t *)x)[i], b = ((const int64_t *)x)[best]; better = op == GP_MIN ? a < b : a > b; break; }
    case GP_U32: { uint32_t a = ((const uint32_t *)x)[i], b = ((const uint32_t *)x)[best]; better = op == GP_MIN ? a < b : a > b; break; }
    default: { uint64_t a = ((const uint64_t *)x)[i], b = ((const uint64_t *)x)[best]; better = op == GP_MIN ? a < b : a > b; break; }
    }
    if (better) best = i;
  }
  return best;
}

enum { AP_RANDOM, AP_TIES, AP_CONST, AP_ASC, AP_DESC, AP_NAN, AP_ZEROS, AP_EXTREME, AP_KINDS };
static const char *ac_pat_name[] = {"random", "ties", "constant", "ascending", "descending",
                                    "nan", "signed zeros", "extremes"};

static void ac_fill(gp_dtype t, void *x, size_t n, int pat) {
  for (size_t i = 0; i < n; i++) {
    uint64_t r = check_rand64();
    double v;
    switch (pat) {
    case AP_RANDOM: v = (double)(int64_t)(r % 2000001) - 1000000.0; break;
    case AP_TIES: v = (double)(r % 4); break;
    case AP_CONST: v = 7; break;
    case AP_ASC: v = (double)i; break;
    case AP_DESC: v = (double)(n - i); break;
    default: v = (double)(r % 100); break;
    }
    switch (t) {
    case GP_F32: ((float *)x)[i] = (float)v; break;
    case GP_F64: ((double *)x)[i] = v; break;
    case GP_I32: ((int32_t *)x)[i] = (int32_t)v; break;
    case GP_I64: ((int64_t *)x)[i] = (int64_t)v * 1000003; break;
    case GP_U32: ((uint32_t *)x)[i] = (uint32_t)(v < 0 ? -v : v); break;
    default: ((uint64_t *)x)[i] = (uint64_t)(v < 0 ? -v : v) << 20; break;
    }
  }
  if (n == 0) return;
  size_t a = n / 3, b = (2 * n) / 3 + (n > 2);
  if (b >= n) b = n - 1;
  if (pat == AP_NAN && (t == GP_F32 || t == GP_F64)) { /* two NaNs: the first must win */
    if (t == GP_F32) { ((float *)x)[a] = NAN; ((float *)x)[b] = -NAN; }
    else { ((double *)x)[a] = -NAN; ((double *)x)[b] = NAN; }
  }
  if (pat == AP_ZEROS && (t == GP_F32 || t == GP_F64)) { /* the extremes are -0 and +0 */
    for (size_t i = 0; i < n; i++) {
      int neg = (check_rand64() & 1) != 0;
      if (t == GP_F32) ((float *)x)[i] = neg ? -0.0f : 0.0f;
      else ((double *)x)[i] = neg ? -0.0 : 0.0;
    }
  }
  if (pat == AP_EXTREME) {
    switch (t) {
    case GP_F32: ((float *)x)[a] = -INFINITY; ((float *)x)[b] = INFINITY; break;
    case GP_F64: ((double *)x)[a] = INFINITY; ((double *)x)[b] = -INFINITY; break;
    case GP_I32: ((int32_t *)x)[a] = INT32_MIN; ((int32_t *)x)[b] = INT32_MAX; break;
    case GP_I64: ((int64_t *)x)[a] = INT64_MAX; ((int64_t *)x)[b] = INT64_MIN; break;
    case GP_U32: ((uint32_t *)x)[a] = UINT32_MAX; ((uint32_t *)x)[b] = 0; break;
    default: ((uint64_t *)x)[a] = 0; ((uint64_t *)x)[b] = UINT64_MAX; break;
    }
  }
}

static void ac_check(gp_op op, gp_dtype t, const void *x, size_t n, const char *what) {
  const size_t es = gp_dtype_size(t);
  unsigned char v[8] = {0};
  uint64_t idx = UINT64_MAX;
  if (ac_run(op, t, x, n, v, &idx) != GP_OK) return;
  size_t want = ac_ref(op, t, x, n);
  CHECK_MSG(idx == want, "arg%s %s n=%zu %s: index %llu, want %zu", op == GP_MIN ? "min" : "max",
            gp_dtype_name(t), n, what, (unsigned long long)idx, want);
  unsigned char w[8] = {0};
  memcpy(w, (const char *)x + want * es, es);
  if (t == GP_F32) { float f; memcpy(&f, w, 4); if (isnan(f)) { uint32_t q = 0x7fc00000u; memcpy(w, &q, 4); } }
  if (t == GP_F64) { double d; memcpy(&d, w, 8); if (isnan(d)) { uint64_t q = 0x7ff8000000000000ull; memcpy(w, &q, 8); } }
  CHECK_MSG(memcmp(v, w, es) == 0, "arg%s %s n=%zu %s: value bits differ from in[%zu]",
            op == GP_MIN ? "min" : "max", gp_dtype_name(t), n, what, want);
}

static void ac_test_matrix(void) {
  const size_t sizes[] = {1, 2, 3, 31, 33, 1000, 4097, 65537, ((size_t)1 << 20) + 3};
  const size_t ns = sizeof sizes / sizeof sizes[0];
  unsigned char *buf = (unsigned char *)malloc((sizes[ns - 1] + 1) * 8);
  for (size_t ti = 0; ti < 6; ti++)
    for (size_t si = 0; si < ns; si++)
      for (int pat = 0; pat < AP_KINDS; pat++)
        for (int mis = 0; mis < 2; mis++) {
          gp_dtype t = ac_types[ti];
          if (sizes[si] > 70000 && pat != AP_RANDOM && pat != AP_NAN) continue;
          void *x = buf + (mis ? gp_dtype_size(t) : 0);
          check_seed(77 + si * 13 + (uint64_t)pat);
          ac_fill(t, x, sizes[si], pat);
          ac_check(GP_MIN, t, x, sizes[si], ac_pat_name[pat]);
          ac_check(GP_MAX, t, x, sizes[si], ac_pat_name[pat]);
        }
  free(buf);
}

#endif
