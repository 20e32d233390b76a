/* CPU backend of gp_topk. Every element becomes its (key, index) of core/topk.h (the
 * answer is the k smallest pairs, sorted, ties to the lower index).
 *  - k <= n / TK_SELECT_DIV and k <= TK_SELECT_MAX: each OpenMP thread scans a
 *    contiguous chunk keeping its k best pairs in a buffer of 2k (best_of), the
 *    threads' pairs are selected down to k, sorted, and gathered. One read of the
 *    input: an element costs its key and one compare unless it beats the bar.
 *  - larger k: the stable argsort of the whole input (radix_cpu.c), its first k. */
#include "cpu/topk_cpu.h"
#include "cpu/sort_cpu.h"
#include "cpu/vsort.h"
#include "cpu/cpu_features.h"
#include "core/topk.h"

#include <stdlib.h>
#include <string.h>
#ifdef GP_CPU_X86
#include <immintrin.h>
#endif
#ifdef _OPENMP
#include <omp.h>
#endif

#define TK_SELECT_DIV 16
#define TK_SELECT_MAX ((size_t)1 << 16) /* each thread's buffer: at most 2 MiB */
#define TK_PAR_MIN ((size_t)1 << 16)  /* below this many elements, one thread */
/* rows of 4-byte keys up to this long are sorted whole (see gp_cpu_topk_rows) */
#define TK_ROW_SORT_MAX 256
/* rows of 8-byte keys up to this long go by ranks where there is AVX-512 (rank_row) */
#define TK_ROW_RANK_MAX 64

typedef struct topk_pair {
  uint64_t key, idx;
} topk_pair;

static int pair_worse(const topk_pair *a, const topk_pair *b) {
  return a->key > b->key || (a->key == b->key && a->idx > b->idx);
}

static int cmp_pair(const void *a, const void *b) {
  const topk_pair *x = (const topk_pair *)a, *y = (const topk_pair *)b;
  return pair_worse(x, y) - pair_worse(y, x);
}

/* a[0..m) in order: insertion for the short lists of rows and small k (qsort's calls
 * through a pointer cost more than the whole sort there), qsort beyond */
#define TK_INSERTION_MAX 32
static void sort_pairs(topk_pair *a, size_t m) {
  if (m > TK_INSERTION_MAX) {
    qsort(a, m, sizeof *a, cmp_pair);
    return;
  }
  for (size_t i = 1; i < m; i++) {
    const topk_pair x = a[i];
    size_t j = i;
    for (; j > 0 && pair_worse(&a[j - 1], &x); j--) a[j] = a[j - 1];
    a[j] = x;
  }
}

static void swap_pairs(topk_pair *a, size_t i, size_t j) {
  const topk_pair t = a[i];
  a[i] = a[j];
  a[j] = t;
}

/* Reorders a[0..m) (pairs all distinct: their indices differ) so that a[0..k) are its k
 * best, in any order, 1 <= k <= m: quickselect, median-of-three pivots. */
static void select_best(topk_pair *a, size_t m, size_t k) {
  size_t lo = 0, hi = m - 1; /* the k-th best lies in [lo, hi] */
  while (lo < hi) {
    const size_t mid = lo + (hi - lo) / 2;
    if (pair_worse(&a[lo], &a[mid])) swap_pairs(a, lo, mid);
    if (pair_worse(&a[mid], &a[hi])) swap_pairs(a, mid, hi);
    if (pair_worse(&a[lo], &a[mid])) swap_pairs(a, lo, mid);
    const topk_pair piv = a[mid];
    size_t i = lo, j = hi; /* Hoare: [lo, i) not worse than piv, (j, hi] not better */
    for (;;) {
      while (pair_worse(&piv, &a[i])) i++;
      while (pair_worse(&a[j], &piv)) j--;
      if (i >= j) break;
      swap_pairs(a, i, j);
      i++;
      j--;
    }
    /* now [lo, j] holds the best j - lo + 1 of [lo, hi] (j < hi) */
    if (k - 1 <= j) hi = j;
    else lo = j + 1;
  }
}

/* The k best pairs of [lo, hi) into buf (room for 2k), unordered; returns how many
 * (min(k, hi - lo)). Elements better than the k-th best kept so far are appended; when
 * the buffer is full the best k are selected and the worst of them becomes the bar, so
 * each element costs O(1) amortized even on sorted input. A thread sees its indices in
 * increasing order, so only a strictly smaller key than the bar can be better. */
static inline __attribute__((always_inline)) size_t
best_of(const char *in, size_t lo, size_t hi, size_t k, size_t es, gp_key_class c, int largest,
        topk_pair *buf) {
  size_t m = 0;
  uint64_t bar = UINT64_MAX;
  int barred = 0; /* whether bar holds a kept key (before: everything enters) */
  for (size_t i = lo; i < hi; i++) {
    uint64_t bits = 0;
    memcpy(&bits, in + i * es, es);
    const uint64_t key = gp_topk_key(bits, es == 8, c, largest);
    if (barred && key >= bar) continue;
    buf[m++] = (topk_pair){key, i};
    if (m == 2 * k) {
      select_best(buf, m, k);
      m = k;
      bar = buf[0].key;
      for (size_t j = 1; j < k; j++)
        if (buf[j].key > bar) bar = buf[j].key;
      barred = 1;
    }
  }
  if (m > k) {
    select_best(buf, m, k);
    m = k;
  }
  return m;
}
static size_t best_of4(const char *in, size_t lo, size_t hi, size_t k, gp_key_class c,
                       int largest, topk_pair *buf) {
  return best_of(in, lo, hi, k, 4, c, largest, buf);
}
static size_t best_of8(const char *in, size_t lo, size_t hi, size_t k, gp_key_class c,
                       int largest, topk_pair *buf) {
  return best_of(in, lo, hi, k, 8, c, largest, buf);
}

/* values / indices (either may be NULL) of the elements at ix[0..k) */
static void gather(const char *in, size_t es, const uint64_t *ix, size_t k, void *values,
                   uint64_t *indices) {
  for (size_t j = 0; j < k; j++) {
    if (values) memcpy((char *)values + j * es, in + ix[j] * es, es);
    if (indices) indices[j] = ix[j];
  }
}

static gp_status topk_select(gp_dtype type, const char *in, size_t n, size_t k,
                             gp_order order, void *values, uint64_t *indices) {
  const size_t es = gp_dtype_size(type);
  const gp_key_class c = gp_key_class_of(type);
  const int largest = order == GP_DESCENDING;
  int nt = 1;
#ifdef _OPENMP
  if (n >= TK_PAR_MIN) nt = omp_get_max_threads();
#endif
  if ((size_t)nt > n / k) nt = (int)(n / k); /* every thread's chunk holds k or more */
  if (nt < 1) nt = 1;
  topk_pair *buf = (topk_pair *)malloc((size_t)nt * 2 * k * sizeof *buf);
  size_t *got = (size_t *)calloc((size_t)nt, sizeof *got);
  uint64_t *ix = (uint64_t *)malloc(k * sizeof *ix);
  if (!buf || !got || !ix) {
    free(buf);
    free(got);
    free(ix);
    return GP_ERR_OUT_OF_MEMORY;
  }
#ifdef _OPENMP
#pragma omp parallel for num_threads(nt) schedule(static, 1) if (nt > 1)
#endif
  for (int t = 0; t < nt; t++) {
    const size_t q = n / (size_t)nt, r = n % (size_t)nt, u = (size_t)t;
    const size_t lo = q * u + (u < r ? u : r), hi = lo + q + (u < r);
    topk_pair *b = buf + u * 2 * k;
    got[t] = es == 4 ? best_of4(in, lo, hi, k, c, largest, b) : best_of8(in, lo, hi, k, c, largest, b);
  }
  size_t m = 0; /* the threads' pairs side by side */
  for (int t = 0; t < nt; t++) {
    memmove(buf + m, buf + (size_t)t * 2 * k, got[t] * sizeof *buf);
    m += got[t];
  }
  select_best(buf, m, k);
  sort_pairs(buf, k);
  for (size_t j = 0; j < k; j++) ix[j] = buf[j].idx;
  gather(in, es, ix, k, values, indices);
  free(buf);
  free(got);
  free(ix);
  return GP_OK;
}

gp_status gp_cpu_topk(gp_context *ctx, gp_dtype type, const void *in, size_t n, size_t k,
                      gp_order order, void *values, uint64_t *indices) {
  const char *p = (const char *)in;
  if (k <= n / TK_SELECT_DIV && k <= TK_SELECT_MAX)
    return topk_select(type, p, n, k, order, values, indices);
  /* the stable argsort in the wanted order: its first k are the answer (same total
   * order as core/topk.h's keys, ties in input order) */
  uint64_t *ix = (uint64_t *)malloc(n * sizeof *ix);
  if (!ix) return GP_ERR_OUT_OF_MEMORY;
  gp_status s = gp_cpu_argsort(ctx, type, in, GP_U64, ix, n, order);
  if (s == GP_OK) gather(p, gp_dtype_size(type), ix, k, values, indices);
  free(ix);
  return s;
}

#ifdef GP_CPU_X86
/* The k best of a short row of 8-byte keys by rank (AVX-512): element i's place in the
 * answer is the number of keys below its key plus the equal keys before it (ties to the
 * lower index), so each of the k best lands in x at its rank: per element, two compares
 * a vector of 8 keys and their popcounts, no branch (one thread, rows of 16 / 32 / 64
 * doubles, k = 8: 271 / 534 / 797 -> 72 / 197 / 687 ns a row, where best_of's select, its
 * sort and their mispredicted branches took most; m^2 compares catch up with it past
 * 64). */
GP_CPU_AVX512 static void rank_row(const char *row, size_t m, size_t k, gp_key_class c,
                                   int largest, uint64_t *x) {
  /* the keys encoded a vector at a time (core/key_codec.h's gp_key64_enc as
     u ^ (sign(u) & a) ^ b), padded with all ones (never below, never before) */
  const __m512i a = _mm512_set1_epi64(c == GP_KEY_FLOAT ? 0x7fffffffffffffffll : 0);
  const uint64_t top = c == GP_KEY_UNSIGNED ? 0 : 0x8000000000000000ull;
  const __m512i b = _mm512_set1_epi64((long long)(top ^ (largest ? ~0ull : 0)));
  const size_t nv = (m + 7) / 8;
  __m512i kv[TK_ROW_RANK_MAX / 8];
  for (size_t v = 0; v < TK_ROW_RANK_MAX / 8; v++) kv[v] = _mm512_set1_epi64(-1);
  uint64_t at[TK_ROW_RANK_MAX + 1]; /* the ranks' elements; the last slot takes the rest */
  for (size_t v = 0; v < nv; v++) {
    const __mmask8 in = (__mmask8)(m - 8 * v >= 8 ? 0xFFu : (1u << (m - 8 * v)) - 1u);
    const __m512i u = _mm512_maskz_loadu_epi64(in, row + 64 * v);
    const __m512i s = _mm512_and_si512(_mm512_srai_epi64(u, 63), a);
    const __m512i e = _mm512_xor_si512(_mm512_xor_si512(u, s), b);
    kv[v] = _mm512_mask_blend_epi64(in, _mm512_set1_epi64(-1), e);
  }
  for (size_t w = 0; w < nv; w++) { /* element i = 8 w + l */
    _Alignas(64) uint64_t lane[8];
    _mm512_store_si512((void *)lane, kv[w]);
    for (size_t l = 0, i = 8 * w; l < 8 && i < m; l++, i++) {
      const __m512i ki = _mm512_set1_epi64((long long)lane[l]);
      unsigned r = 0;
      for (size_t v = 0; v < nv; v++) {
        const unsigned before = v < w ? 0xFFu : v > w ? 0u : (1u << l) - 1u;
        r += (unsigned)__builtin_popcount(_mm512_cmplt_epu64_mask(kv[v], ki)) +
             (unsigned)__builtin_popcount(_mm512_cmpeq_epu64_mask(kv[v], ki) & before);
      }
      at[r < k ? r : k] = i; /* no branch: r < k half the time, unpredictably */
    }
  }
  memcpy(x, at, k * sizeof *x);
}
#endif

gp_status gp_cpu_topk_rows(gp_dtype type, const void *in, size_t rows, size_t cols, size_t k,
                           gp_order order, void *values, uint64_t *indices) {
  const size_t es = gp_dtype_size(type);
  const gp_key_class c = gp_key_class_of(type);
  const int largest = order == GP_DESCENDING;
  int nt = 1;
#ifdef _OPENMP
  nt = omp_get_max_threads();
#endif
  if ((size_t)nt > rows) nt = (int)rows;
  /* short rows of 4-byte keys: each row's key:index words sorted whole
     (gp_cpu_vsort_key_index32), its first k taken: ties to the lower index as in
     best_of; the per-thread buffer holds a row of words */
  const int comp = es == 4 && cols <= TK_ROW_SORT_MAX && cols <= gp_cpu_vsort64_max();
  /* 8-byte keys: by ranks (rank_row) unless k is a small share of the row, where the
     buffered select takes few keys past its bar (one thread, 32 doubles, k = 1: 89 ns a
     row, ranks 185; 48 doubles, k = 4: 363, ranks 424; k = 8: 687, ranks 429) */
  const int rank = es == 8 && cols <= TK_ROW_RANK_MAX && k * 16 > cols &&
                   (cols <= 32 || k >= 8) && gp_cpu_avx512();
  const size_t per = comp && cols > 2 * k ? (cols + 1) / 2 : 2 * k; /* pairs: 16 bytes */
  topk_pair *buf = (topk_pair *)malloc((size_t)nt * per * sizeof *buf);
  uint64_t *ix = (uint64_t *)malloc((size_t)nt * k * sizeof *ix);
  if (!buf || !ix) {
    free(buf);
    free(ix);
    return GP_ERR_OUT_OF_MEMORY;
  }
  const long long nr = (long long)rows;
#ifdef _OPENMP
#pragma omp parallel for num_threads(nt) schedule(static) if (nt > 1)
#endif
  for (long long r = 0; r < nr; r++) {
    int t = 0;
#ifdef _OPENMP
    t = omp_get_thread_num();
#endif
    topk_pair *b = buf + (size_t)t * per;
    uint64_t *x = ix + (size_t)t * k;
    const char *row = (const char *)in + (size_t)r * cols * es;
    size_t m = k;
    if (comp) { /* gp_topk_key of 4-byte keys is gp_key32_enc with desc = largest */
      uint64_t *w = (uint64_t *)(void *)b;
      gp_cpu_vsort_key_index32((const uint32_t *)(const void *)row, cols, c, largest, w);
      for (size_t j = 0; j < k; j++) x[j] = w[j] & 0xffffffffu;
#ifdef GP_CPU_X86
    } else if (rank) {
      rank_row(row, cols, k, c, largest, x);
#endif
    } else {
      m = es == 4 ? best_of4(row, 0, cols, k, c, largest, b)
                  : best_of8(row, 0, cols, k, c, largest, b);
      sort_pairs(b, m);
      for (size_t j = 0; j < m; j++) x[j] = b[j].idx;
    }
    gather(row, es, x, m, values ? (char *)values + (size_t)r * k * es : NULL,
           indices ? indices + (size_t)r * k : NULL);
  }
  free(buf);
  free(ix);
  return GP_OK;
}
