/* Blocks of F64 inputs whose exact sum takes two plain double sums (the CPU's correctly
 * rounded SUM, reduce_exact_cpu.c): each input x is split on a grid fixed for the block,
 * x = q + r, and the q's and the r's are summed separately, every addition exact.
 *
 * For a block of n <= 2^k finite inputs with exponent fields fmin .. fmax (zeros aside;
 * a subnormal counts as field 1): every input is an integer number of G = 2^(fmin - 1075)
 * and below 2^(fmax - 1022) in magnitude. With sigma = 2^s, s = fmax - 1022 + k + 1:
 *  - t = fl(sigma + x) lies in (sigma/2, 3 sigma/2), where doubles are multiples of
 *    g = 2^(s - 53); q = t - sigma is exact (Sterbenz) and a multiple of g, and
 *    r = x - q is exact (it is the rounding error of sigma + x), |r| <= g, and a
 *    multiple of G (g >= G);
 *  - the q's: any partial sum is a multiple of g below n (2^(fmax-1022) + g) < sigma =
 *    2^53 g, so it is exact;
 *  - the r's: any partial sum is a multiple of G of at most n g, exact when
 *    n g <= 2^53 G, that is 2k + fmax - fmin <= 52.
 * So a block that passes that test (and has no inf or NaN, and s <= 1023) has the exact
 * sum q_sum + r_sum, both exact doubles, in five operations an input (after a pass for
 * fmin and fmax). Blocks of 1024 standard normal doubles span ~12 binades of the 32
 * allowed. Zeros split into +0 parts: the caller takes the sign of a zero sum from
 * whether an input was nonzero (the returned flag). */
#include "cpu/reduce_cpu.h"
#include "cpu/cpu_features.h"

#include <string.h>
#ifdef GP_CPU_X86
#include <immintrin.h>
#endif

#define XD_MAG 0x7fffffffffffffffull

/* From the largest magnitude's bits hi and the smallest nonzero one's less one, lo (a
 * zero wraps to all ones): 1 with *sigma set when the block passes, 2 when every input
 * is a zero, 0 otherwise. */
static inline int xd_bound(uint64_t lo, uint64_t hi, size_t n, double *sigma) {
  if (hi >= 0x7ff0000000000000ull) return 0; /* inf or NaN */
  if (lo == ~0ull) return 2;
  int fmin = (int)((lo + 1) >> 52), fmax = (int)(hi >> 52);
  fmin = fmin < 1 ? 1 : fmin;
  fmax = fmax < 1 ? 1 : fmax;
  const int k = gp_cpu_ceil_log2(n), s = fmax - 1022 + k + 1;
  if (2 * k + fmax - fmin > 52 || s > 1023) return 0;
  const uint64_t b = (uint64_t)(s + 1023) << 52; /* s >= k - 1020 > -1022: normal */
  memcpy(sigma, &b, 8);
  return 1;
}

static inline void xd_scan1(const double *x, uint64_t *lo, uint64_t *hi) {
  uint64_t u;
  memcpy(&u, x, 8);
  u &= XD_MAG;
  *lo = u - 1 < *lo ? u - 1 : *lo;
  *hi = u > *hi ? u : *hi;
}

static inline void xd_split1(double x, double sigma, double *qs, double *rs) {
  const double q = (sigma + x) - sigma;
  *qs += q;
  *rs += x - q;
}

/* zeros only: their plain sum (its sign is IEEE's); the flag says no input was nonzero */
static int xd_zeros(const double *x, size_t n, double *qs, double *rs) {
  double z = -0.0;
  for (size_t i = 0; i < n; i++) z += x[i];
  *qs = z;
  *rs = -0.0;
  return 2;
}

/* The portable block: 1 (*qs, *rs set, some input nonzero), 2 (zeros only: *qs is their
 * sum, *rs -0), 0 (the block failed the test). */
static int xd_block(const double *x, size_t n, double *qs, double *rs) {
  uint64_t lo = ~0ull, hi = 0;
  for (size_t i = 0; i < n; i++) xd_scan1(x + i, &lo, &hi);
  double sigma;
  const int b = xd_bound(lo, hi, n, &sigma);
  if (b != 1) return b == 2 ? xd_zeros(x, n, qs, rs) : 0;
  double q[4] = {0, 0, 0, 0}, r[4] = {0, 0, 0, 0};
  size_t i = 0;
  for (; i + 4 <= n; i += 4)
    for (int j = 0; j < 4; j++) xd_split1(x[i + j], sigma, &q[j], &r[j]);
  for (; i < n; i++) xd_split1(x[i], sigma, &q[0], &r[0]);
  *qs = (q[0] + q[1]) + (q[2] + q[3]);
  *rs = (r[0] + r[1]) + (r[2] + r[3]);
  return 1;
}

#ifdef GP_CPU_X86
/* AVX-512F: 16 inputs a step in two vectors, the tail in a scalar lane */
GP_CPU_AVX512 static int xd_block_avx512(const double *x, size_t n, double *qs, double *rs) {
  const __m512i mag = _mm512_set1_epi64((long long)XD_MAG), one = _mm512_set1_epi64(1);
  __m512i vlo = _mm512_set1_epi64(-1), vhi = _mm512_setzero_si512();
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m512i u = _mm512_and_si512(_mm512_loadu_si512((const void *)(x + i)), mag);
    vlo = _mm512_min_epu64(vlo, _mm512_sub_epi64(u, one));
    vhi = _mm512_max_epu64(vhi, u);
  }
  uint64_t lo = _mm512_reduce_min_epu64(vlo), hi = _mm512_reduce_max_epu64(vhi);
  for (size_t j = i; j < n; j++) xd_scan1(x + j, &lo, &hi);
  double sigma;
  const int b = xd_bound(lo, hi, n, &sigma);
  if (b != 1) return b == 2 ? xd_zeros(x, n, qs, rs) : 0;
  const __m512d vs = _mm512_set1_pd(sigma);
  __m512d q0 = _mm512_setzero_pd(), q1 = q0, r0 = q0, r1 = q0;
  for (i = 0; i + 16 <= n; i += 16) {
    const __m512d x0 = _mm512_loadu_pd(x + i), x1 = _mm512_loadu_pd(x + i + 8);
    const __m512d a0 = _mm512_sub_pd(_mm512_add_pd(vs, x0), vs);
    const __m512d a1 = _mm512_sub_pd(_mm512_add_pd(vs, x1), vs);
    q0 = _mm512_add_pd(q0, a0);
    q1 = _mm512_add_pd(q1, a1);
    r0 = _mm512_add_pd(r0, _mm512_sub_pd(x0, a0));
    r1 = _mm512_add_pd(r1, _mm512_sub_pd(x1, a1));
  }
  double qt = 0.0, rt = 0.0;
  for (; i < n; i++) xd_split1(x[i], sigma, &qt, &rt);
  *qs = _mm512_reduce_add_pd(_mm512_add_pd(q0, q1)) + qt;
  *rs = _mm512_reduce_add_pd(_mm512_add_pd(r0, r1)) + rt;
  return 1;
}

/* AVX2: 8 inputs a step in two vectors. No unsigned 64-bit min/max: magnitudes are below
 * 2^63, so signed compares order them, and a zero's magnitude is replaced by the largest
 * (it must not be the smallest nonzero). */
GP_CPU_AVX2 static int xd_block_avx2(const double *x, size_t n, double *qs, double *rs) {
  const __m256i mag = _mm256_set1_epi64x((long long)XD_MAG), z = _mm256_setzero_si256();
  __m256i vlo = mag, vhi = z;
  size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    const __m256i u = _mm256_and_si256(_mm256_loadu_si256((const __m256i *)(const void *)(x + i)), mag);
    const __m256i w = _mm256_or_si256(u, _mm256_cmpeq_epi64(u, z)); /* zero -> all ones */
    const __m256i v = _mm256_and_si256(w, mag);                     /* ... -> XD_MAG */
    vlo = _mm256_blendv_epi8(vlo, v, _mm256_cmpgt_epi64(vlo, v));
    vhi = _mm256_blendv_epi8(vhi, u, _mm256_cmpgt_epi64(u, vhi));
  }
  uint64_t l4[4], h4[4];
  _mm256_storeu_si256((__m256i *)(void *)l4, vlo);
  _mm256_storeu_si256((__m256i *)(void *)h4, vhi);
  uint64_t lo = ~0ull, hi = 0;
  for (int j = 0; j < 4; j++) {
    if (l4[j] != XD_MAG && l4[j] - 1 < lo) lo = l4[j] - 1; /* XD_MAG: no nonzero there */
    hi = h4[j] > hi ? h4[j] : hi;
  }
  for (size_t j = i; j < n; j++) xd_scan1(x + j, &lo, &hi);
  double sigma;
  const int b = xd_bound(lo, hi, n, &sigma);
  if (b != 1) return b == 2 ? xd_zeros(x, n, qs, rs) : 0;
  const __m256d vs = _mm256_set1_pd(sigma);
  __m256d q0 = _mm256_setzero_pd(), q1 = q0, r0 = q0, r1 = q0;
  for (i = 0; i + 8 <= n; i += 8) {
    const __m256d x0 = _mm256_loadu_pd(x + i), x1 = _mm256_loadu_pd(x + i + 4);
    const __m256d a0 = _mm256_sub_pd(_mm256_add_pd(vs, x0), vs);
    const __m256d a1 = _mm256_sub_pd(_mm256_add_pd(vs, x1), vs);
    q0 = _mm256_add_pd(q0, a0);
    q1 = _mm256_add_pd(q1, a1);
    r0 = _mm256_add_pd(r0, _mm256_sub_pd(x0, a0));
    r1 = _mm256_add_pd(r1, _mm256_sub_pd(x1, a1));
  }
  double qt = 0.0, rt = 0.0;
  for (; i < n; i++) xd_split1(x[i], sigma, &qt, &rt);
  double a[4], c[4];
  _mm256_storeu_pd(a, _mm256_add_pd(q0, q1));
  _mm256_storeu_pd(c, _mm256_add_pd(r0, r1));
  *qs = ((a[0] + a[1]) + (a[2] + a[3])) + qt;
  *rs = ((c[0] + c[1]) + (c[2] + c[3])) + rt;
  return 1;
}
#endif

int gp_cpu_sum_split_f64(const double *x, size_t n, int avx512, int avx2, double *qs,
                         double *rs) {
  (void)avx512;
  (void)avx2;
#ifdef GP_CPU_X86
  if (avx512) return xd_block_avx512(x, n, qs, rs);
  if (avx2) return xd_block_avx2(x, n, qs, rs);
#endif
  return xd_block(x, n, qs, rs);
}
