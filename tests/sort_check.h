/* Shared by the sort tests: data generators (random, special floats, all-equal,
 * presorted, reversed, few distinct values) and the three property checks (ordered,
 * same multiset, pairs kept together) against an independent qsort reference whose
 * comparator is IEEE 754 totalOrder written from its definition (not the library's
 * bit transform). */
#ifndef GP_TESTS_SORT_CHECK_H
#define GP_TESTS_SORT_CHECK_H

#include "check.h"

#include <stdint.h>

/* ---- the independent reference order ----------------------------------------------- */
static inline int sc_total_f32(const void *pa, const void *pb) {
  uint32_t a, b;
  memcpy(&a, pa, 4);
  memcpy(&b, pb, 4);
  int sa = (int)(a >> 31), sb = (int)(b >> 31);
  if (sa != sb) return sa ? -1 : 1; /* any negative (incl. -0, -NaN) below any positive */
  uint32_t ma = a & 0x7FFFFFFFu, mb = b & 0x7FFFFFFFu; /* magnitude order = bit order */
  if (ma == mb) return 0;
  int less = ma < mb;
  return sa ? (less ? 1 : -1) : (less ? -1 : 1);
}
static inline int sc_total_f64(const void *pa, const void *pb) {
  uint64_t a, b;
  memcpy(&a, pa, 8);
  memcpy(&b, pb, 8);
  int sa = (int)(a >> 63), sb = (int)(b >> 63);
  if (sa != sb) return sa ? -1 : 1;
  uint64_t m = 0x7FFFFFFFFFFFFFFFull, ma = a & m, mb = b & m;
  if (ma == mb) return 0;
  int less = ma < mb;
  return sa ? (less ? 1 : -1) : (less ? -1 : 1);
}
#define SC_INT_CMP(NAME, T)                                                     \
  static inline int NAME(const void *pa, const void *pb) {                             \
    T a, b;                                                                     \
    memcpy(&a, pa, sizeof a);                                                   \
    memcpy(&b, pb, sizeof b);                                                   \
    return (a > b) - (a < b);                                                   \
  }
SC_INT_CMP(sc_cmp_i32, int32_t)
SC_INT_CMP(sc_cmp_i64, int64_t)
SC_INT_CMP(sc_cmp_u32, uint32_t)
SC_INT_CMP(sc_cmp_u64, uint64_t)

typedef int (*sc_cmp_fn)(const void *, const void *);
static inline sc_cmp_fn sc_cmp(gp_dtype t) {
  switch (t) {
  case GP_F32: return sc_total_f32;
  case GP_F64: return sc_total_f64;
  case GP_I32: return sc_cmp_i32;
  case GP_I64: return sc_cmp_i64;
  case GP_U32: return sc_cmp_u32;
  case GP_U64: return sc_cmp_u64;
  }
  return NULL;
}

/* ---- data ------------------------------------------------------------------------ */
enum { SC_RANDOM, SC_SPECIAL, SC_EQUAL, SC_SORTED, SC_REVERSED, SC_FEW, SC_PATTERNS };
static const char *sc_pattern_name[] = {"random", "special", "all-equal", "presorted",
                                         "reversed", "few-distinct"};

static const uint32_t sc_special32[] = {
    0x7FC00000u, 0xFFC00000u, 0x7F800001u, 0xFFBFFFFFu, /* +NaN, -NaN, signalling ones */
    0x7F800000u, 0xFF800000u, 0x00000000u, 0x80000000u, /* +inf, -inf, +0, -0 */
    0x00000001u, 0x80000001u, 0x3F800000u, 0xBF800000u, /* denormals, +-1 */
    0x7F7FFFFFu, 0xFF7FFFFFu, 0xFFFFFFFFu, 0x7FFFFFFFu}; /* +-max, NaN with all bits */
static const uint64_t sc_special64[] = {
    0x7FF8000000000000ull, 0xFFF8000000000000ull, 0x7FF0000000000001ull,
    0xFFF0000000000001ull, 0x7FF0000000000000ull, 0xFFF0000000000000ull, 0ull,
    0x8000000000000000ull, 1ull, 0x8000000000000001ull, 0x3FF0000000000000ull,
    0xBFF0000000000000ull, 0xFFFFFFFFFFFFFFFFull, 0x7FFFFFFFFFFFFFFFull};

/* One random element of type t (floats: random finite values of both signs). */
static inline void sc_rand_elem(gp_dtype t, void *dst) {
  uint64_t r = check_rand64();
  if (t == GP_F32) {
    float f = (float)((check_rand01() - 0.5) * 2000.0);
    memcpy(dst, &f, 4);
  } else if (t == GP_F64) {
    double d = (check_rand01() - 0.5) * 2e6;
    memcpy(dst, &d, 8);
  } else if (gp_dtype_size(t) == 4) {
    uint32_t u = (uint32_t)(r >> 32);
    memcpy(dst, &u, 4);
  } else {
    memcpy(dst, &r, 8);
  }
}

/* Fills n keys of t with pattern p. */
static inline void sc_fill(gp_dtype t, int p, void *buf, size_t n) {
  size_t es = gp_dtype_size(t);
  char *b = (char *)buf;
  for (size_t i = 0; i < n; i++) {
    char *e = b + i * es;
    switch (p) {
    case SC_SPECIAL:
      if (check_rand64() % 2) {
        sc_rand_elem(t, e);
      } else if (t == GP_F32) {
        memcpy(e, &sc_special32[check_rand64() % 16], 4);
      } else if (t == GP_F64) {
        memcpy(e, &sc_special64[check_rand64() % 14], 8);
      } else if (es == 4) { /* extremes of integers */
        uint32_t v[] = {0, 1, 0x7FFFFFFFu, 0x80000000u, 0xFFFFFFFFu};
        memcpy(e, &v[check_rand64() % 5], 4);
      } else {
        uint64_t v[] = {0, 1, 0x7FFFFFFFFFFFFFFFull, 0x8000000000000000ull, ~0ull};
        memcpy(e, &v[check_rand64() % 5], 8);
      }
      break;
    case SC_EQUAL:
      if (i == 0) sc_rand_elem(t, e);
      else memcpy(e, b, es);
      break;
    case SC_FEW: {
      uint64_t r = check_rand64() % 5;
      if (t == GP_F32) { float f = (float)r - 2.0f; memcpy(e, &f, 4); }
      else if (t == GP_F64) { double d = (double)r - 2.0; memcpy(e, &d, 8); }
      else if (es == 4) { uint32_t u = (uint32_t)r; memcpy(e, &u, 4); }
      else memcpy(e, &r, 8);
      break;
    }
    default:
      sc_rand_elem(t, e);
    }
  }
  if (p == SC_SORTED || p == SC_REVERSED) {
    qsort(buf, n, es, sc_cmp(t));
    if (p == SC_REVERSED)
      for (size_t i = 0; i < n / 2; i++) {
        char tmp[8];
        memcpy(tmp, b + i * es, es);
        memcpy(b + i * es, b + (n - 1 - i) * es, es);
        memcpy(b + (n - 1 - i) * es, tmp, es);
      }
  }
}

/* The expected result: each segment sorted by the reference comparator (reversed for
 * descending). Distinct bit patterns are distinct in the total order, so the sorted
 * keys are unique bit for bit. */
static inline void sc_reference(gp_dtype t, void *buf, size_t n, size_t seg, gp_order order) {
  size_t es = gp_dtype_size(t);
  if (seg == 0) return;
  for (size_t s = 0; s < n; s += seg) {
    char *b = (char *)buf + s * es;
    qsort(b, seg, es, sc_cmp(t));
    if (order == GP_DESCENDING)
      for (size_t i = 0; i < seg / 2; i++) {
        char tmp[8];
        memcpy(tmp, b + i * es, es);
        memcpy(b + i * es, b + (seg - 1 - i) * es, es);
        memcpy(b + (seg - 1 - i) * es, tmp, es);
      }
  }
}

/* Index of the first element where a and b differ in bits, or n. */
static inline size_t sc_first_diff(const void *a, const void *b, size_t n, size_t es) {
  if (memcmp(a, b, n * es) == 0) return n;
  for (size_t i = 0; i < n; i++)
    if (memcmp((const char *)a + i * es, (const char *)b + i * es, es) != 0) return i;
  return n;
}

/* Ordered within each segment (checked with the reference comparator directly). */
static inline int sc_ordered(gp_dtype t, const void *buf, size_t n, size_t seg, gp_order order) {
  size_t es = gp_dtype_size(t);
  sc_cmp_fn cmp = sc_cmp(t);
  for (size_t i = 1; i < n; i++) {
    if (i % seg == 0) continue;
    int c = cmp((const char *)buf + (i - 1) * es, (const char *)buf + i * es);
    if (order == GP_ASCENDING ? c > 0 : c < 0) return 0;
  }
  return 1;
}

/* Value i (the original index of a key) in value type vt; exact for every index the
 * tests use (F32 is exact below 2^24). */
static inline void sc_index_value(gp_dtype vt, size_t i, void *dst) {
  switch (vt) {
  case GP_F32: { float f = (float)i; memcpy(dst, &f, 4); break; }
  case GP_F64: { double d = (double)i; memcpy(dst, &d, 8); break; }
  case GP_I32: case GP_U32: { uint32_t u = (uint32_t)i; memcpy(dst, &u, 4); break; }
  default: { uint64_t u = (uint64_t)i; memcpy(dst, &u, 8); break; }
  }
}
static inline size_t sc_value_index(gp_dtype vt, const void *src) {
  switch (vt) {
  case GP_F32: { float f; memcpy(&f, src, 4); return (f >= 0 && f < 1e9f) ? (size_t)f : (size_t)-1; }
  case GP_F64: { double d; memcpy(&d, src, 8); return (d >= 0 && d < 1e18) ? (size_t)d : (size_t)-1; }
  case GP_I32: case GP_U32: { uint32_t u; memcpy(&u, src, 4); return u; }
  default: { uint64_t u; memcpy(&u, src, 8); return (size_t)u; }
  }
}

/* Pairs: every value is an original index, used once, and out_keys[i] has the bits of
 * orig_keys[value]; and the index stays inside its segment. Returns 1 if all hold. */
static inline int sc_pairs_kept(gp_dtype kt, const void *orig_keys, const void *out_keys,
                         gp_dtype vt, const void *vals, size_t n, size_t seg) {
  size_t ks = gp_dtype_size(kt), vs = gp_dtype_size(vt);
  unsigned char *seen = (unsigned char *)calloc(n ? n : 1, 1);
  int ok = 1;
  for (size_t i = 0; i < n && ok; i++) {
    size_t j = sc_value_index(vt, (const char *)vals + i * vs);
    if (j >= n || seen[j] || j / seg != i / seg) { ok = 0; break; }
    seen[j] = 1;
    if (memcmp((const char *)orig_keys + j * ks, (const char *)out_keys + i * ks, ks) != 0)
      ok = 0;
  }
  free(seen);
  return ok;
}

#endif
