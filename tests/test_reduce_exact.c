/* Correctly rounded F32/F64 SUM (GP_REDUCE_AUTO) on the CPU backend: every result's bits
 * equal the exact sum rounded once (tests/exact_ref.h, an independent big integer), on
 * adversarial data (cancellation, 1e308 + 1 - 1e308, subnormals, exponents over the whole
 * range, overflow, NaN / inf), across sizes and tile boundaries, under permutation and
 * for every OpenMP thread count. tests/test_reduce_exact_gpu.c runs the same on CUDA. */
#include "exact_cases.h"
#include "core/exact_sum.h"

#include <stdlib.h>
#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>
#endif
#ifdef _OPENMP
#include <omp.h>
#endif

static gp_context *ctx;

static gp_status xc_sum(gp_dtype t, const void *x, size_t n, void *out) {
  gp_status s = gp_reduce(ctx, GP_SUM, t, x, n, out, GP_REDUCE_AUTO);
  CHECK_MSG(s == GP_OK, "gp_reduce: %s", gp_last_error(ctx));
  return s;
}

static void test_threads(void) {
#ifdef _OPENMP
  size_t n = 300001;
  double *d = (double *)malloc(n * sizeof *d);
  float *f = (float *)malloc(n * sizeof *f);
  check_seed(42);
  for (size_t i = 0; i < n; i++) { d[i] = gen_f64(K_WIDE, i, n); f[i] = gen_f32(K_WIDE, i); }
  double want_d = xr_sum_f64(d, n);
  float want_f = xr_sum_f32(f, n);
  const int counts[] = {1, 2, 3, 7};
  for (int k = 0; k < 4; k++) {
    omp_set_num_threads(counts[k]);
    double gd;
    float gf;
    CHECK_OK(ctx, gp_reduce(ctx, GP_SUM, GP_F64, d, n, &gd, GP_REDUCE_AUTO));
    CHECK_OK(ctx, gp_reduce(ctx, GP_SUM, GP_F32, f, n, &gf, GP_REDUCE_AUTO));
    CHECK_MSG(bits64(gd) == canon64(want_d), "%d threads: f64 %.17g vs %.17g", counts[k], gd, want_d);
    CHECK_MSG(bits32(gf) == canon32(want_f), "%d threads: f32 %.9g vs %.9g", counts[k], (double)gf,
              (double)want_f);
  }
  omp_set_num_threads(omp_get_num_procs());
  free(d);
  free(f);
#endif
}

/* gp_xs_fast_add1/add2 (Fast2Sum, the CUDA kernels' form) decide and produce exactly
 * what gp_xs_add1/add2 (TwoSum) do: every pair of operands drawn from the kinds above,
 * both orders, with heads and tails of every kind, plus zeros, infinities, NaN and sums
 * that overflow. */
static double fa_operand(uint64_t r) {
  static const double special[] = {0.0, -0.0, INFINITY, -INFINITY, NAN, 1e300, -1e300,
                                   0x1p1023, -0x1p1023, 0x1p-1074, -0x1p-1074, 1.0, -1.0};
  const size_t nsp = sizeof special / sizeof special[0];
  if (r % 7 == 0) return special[(r / 7) % nsp];
  return gen_f64((int)(r % K_NKINDS), (size_t)(r >> 8), 1);
}

static void test_fast_add(void) {
  check_seed(7);
  unsigned long bad1 = 0, bad2 = 0;
  for (int i = 0; i < 2000000; i++) {
    double h = fa_operand(check_rand64()), x = fa_operand(check_rand64());
    double l = (i & 1) ? fa_operand(check_rand64()) : ldexp(h, -60);
    if (!(fabs(h) < GP_XS_F64_HEAD_MAX) || !isfinite(l)) l = -0.0; /* as the kernels keep them */
    if (i % 3 == 0) x = (double)(float)x; /* F32 inputs, as gp_xs_add1 gets them */
    double h1 = h, h1f = h;
    const int r1 = gp_xs_add1(&h1, x), r1f = gp_xs_fast_add1(&h1f, x);
    if (r1 != r1f || bits64(h1) != bits64(h1f)) bad1++;
    double h2 = h, l2 = l, h2f = h, l2f = l;
    const int r2 = gp_xs_add2(&h2, &l2, x), r2f = gp_xs_fast_add2(&h2f, &l2f, x);
    if (r2 != r2f || bits64(h2) != bits64(h2f) || bits64(l2) != bits64(l2f)) bad2++;
  }
  CHECK_MSG(bad1 == 0, "gp_xs_fast_add1 differs from gp_xs_add1 on %lu of 2000000 pairs", bad1);
  CHECK_MSG(bad2 == 0, "gp_xs_fast_add2 differs from gp_xs_add2 on %lu of 2000000 triples", bad2);
}

/* exact sum of k doubles rounded to (prec, min_exp): the reference's view of h + l + ... */
static double exact_of(const double *x, int k, int prec, int min_exp) {
  static xr_acc a;
  memset(&a, 0, sizeof a);
  for (int i = 0; i < k; i++) xr_add(&a, x[i]);
  return xr_round(&a, prec, min_exp);
}

/* gp_xs_carry_add (the CUDA F32 chains' step): h always becomes fl(h + x); with finite
 * operands h + l + the returned rest equals the old h + l + x exactly; with a non-finite
 * one l is untouched and nothing is returned. */
static void test_carry_add(void) {
  check_seed(11);
  unsigned long bad = 0, badh = 0, badnf = 0, rests = 0;
  for (int i = 0; i < 2000000; i++) {
    double h = fa_operand(check_rand64()), x = fa_operand(check_rand64());
    double l = (i & 1) ? ldexp(fa_operand(check_rand64()), -200) : ldexp(h, -60);
    if (i % 3 == 0) x = (double)(float)x;
    if (i % 5 == 0) h = (double)(float)h;
    if (!isfinite(l) || fabs(l) > 0x1p800) l = -0.0;
    const double h0 = h, l0 = l;
    const double f = gp_xs_carry_add(&h, &l, x);
    if (bits64(h) != bits64(h0 + x)) badh++;
    if (!isfinite(h0 + x)) {
      if (f != 0.0 || bits64(l) != bits64(l0)) badnf++;
      continue;
    }
    rests += f != 0.0;
    const double parts[6] = {h0, l0, x, -h, -l, -f};
    if (exact_of(parts, 6, 53, -1074) != 0.0) bad++;
  }
  CHECK_MSG(badh == 0, "gp_xs_carry_add: h is not fl(h + x) on %lu of 2000000", badh);
  CHECK_MSG(bad == 0, "gp_xs_carry_add: h + l + rest differs from h + l + x on %lu of 2000000", bad);
  CHECK_MSG(badnf == 0, "gp_xs_carry_add: a non-finite sum touched l or left a rest on %lu", badnf);
  CHECK_MSG(rests > 1000, "test data too tame: only %lu rests", rests);
  /* a chain that took a tiny input goes on taking ordinary ones without rests */
  double h = 0x1p-40, l = -0.0;
  unsigned long chain_rests = 0;
  for (int i = 0; i < 1000; i++) chain_rests += gp_xs_carry_add(&h, &l, 1.0 + ldexp(i, -20)) != 0.0;
  CHECK_MSG(chain_rests == 0, "a chain with a tiny input left %lu rests", chain_rests);
}

/* gp_xs_narrow_f32(h, l) is h + l rounded once to float: float ties (a double's
 * rounding would meet them) nudged by tails of either sign, and random pairs. */
static void test_narrow(void) {
  check_seed(12);
  unsigned long bad = 0;
  for (int i = 0; i < 1000000; i++) {
    const float a = gen_f32((int)(check_rand64() % K_NKINDS), (size_t)i);
    if (!isfinite(a)) continue;
    double h, l;
    const int e = ilogbf(a == 0.0f ? 1.0f : a);
    const double half_ulp = ldexp(1.0, (e < -126 ? -126 : e) - 24);
    switch (i % 4) {
    case 0: h = (double)a + half_ulp; l = ldexp(fa_operand(check_rand64()) , -(int)(check_rand64() % 200)); break;
    case 1: h = (double)a + half_ulp; l = (check_rand64() & 1 ? 1 : -1) * ldexp(half_ulp, -30 - (int)(check_rand64() % 60)); break;
    case 2: h = (double)a; l = (double)gen_f32(K_UNIFORM, 0) * ldexp(half_ulp, -(int)(check_rand64() % 80)); break;
    default: h = fa_operand(check_rand64()); l = fa_operand(check_rand64()); break;
    }
    if (!isfinite(h) || !isfinite(l) || !isfinite(h + l)) continue;
    const double parts[2] = {h, l};
    const float want = (float)exact_of(parts, 2, 24, -149);
    const float got = gp_xs_narrow_f32(h, l);
    if (bits32(got) != bits32(want)) {
      if (bad < 5) fprintf(stderr, "narrow(%a, %a) = %a, want %a\n", h, l, (double)got, (double)want);
      bad++;
    }
  }
  CHECK_MSG(bad == 0, "gp_xs_narrow_f32 differs from the exact rounding on %lu pairs", bad);
}

/* A float with exponent field f (1..254) and a random 24-bit significand whose top and
 * bottom bits are set (the widest a value of that binade can be), random sign when
 * mixed, else positive. */
static float edge_value(int f, int mixed) {
  const uint32_t m = (uint32_t)(check_rand64() & 0x7fffffu) | 0x400001u;
  const uint32_t u = ((uint32_t)f << 23) | m | (mixed && (check_rand64() & 1) ? 0x80000000u : 0u);
  float x;
  memcpy(&x, &u, 4);
  return x;
}

static int ceil_log2(size_t n) {
  int k = 0;
  while (((size_t)1 << k) < n) k++;
  return k;
}

/* The CPU sums F32 blocks of up to 2048 by plain double additions when ceil(log2 n) +
 * fmax - fmin <= 29 (reduce_exact_cpu.c, xb_block_body). Data right at that bound and one
 * and two binades past it, the widest significands, mostly one sign so the partial sums
 * grow: past the bound a plain double sum would round, so a test off by one fails here.
 * Also subnormals (field 0 counts as 1), zeros among the values, blocks that fail
 * among blocks that pass (more than the chunk's allowance), and the sign of an exact
 * zero across blocks. */
static void test_bounded_blocks(void) {
  const size_t sizes[] = {1, 2, 3, 16, 17, 100, 1000, 2047, 2048, 2049, 4099, 65536 + 2048 + 5};
  float *x = (float *)malloc(sizeof(float) * (65536 + 2048 + 5));
  for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++) {
    const size_t n = sizes[si];
    const int k = ceil_log2(n < 2048 ? n : 2048);
    for (int extra = 0; extra <= 2; extra++)
      for (int mixed = 0; mixed <= 1; mixed++)
        for (int sub = 0; sub <= 1; sub++) {
          const int range = 29 - k + extra;
          const int fmin = sub ? 1 : 40, fmax = fmin + range;
          for (size_t i = 0; i < n; i++) {
            if (i % 5 == 2) x[i] = edge_value(fmin, 1);
            else if (i % 11 == 7) x[i] = (i & 1) ? 0.0f : -0.0f;
            else x[i] = edge_value(fmax, mixed);
            if (sub && i % 5 == 2) { /* a subnormal: field 0, the same unit as field 1 */
              uint32_t u;
              memcpy(&u, &x[i], 4);
              u &= 0x807fffffu;
              memcpy(&x[i], &u, 4);
            }
          }
          char what[96];
          snprintf(what, sizeof what, "bounded n=%zu range=%d mixed=%d subnormal=%d", n, range,
                   mixed, sub);
          check_f32(x, n, what);
        }
  }
  /* One binade past the bound a plain double sum can round where the float result
   * sees it: n = 2^k values, n - 2 of field fmax summing to T = 2^P + 2^(P-24) (a float
   * tie, P = fmin - 97), and two of field fmin = fmax - (30 - k) adding 2^(P-53). The
   * exact sum is above the tie (rounds up); a double holding T + 2^(P-53) needs 54 bits,
   * rounds it to T (even), which then rounds down: one float off. */
  for (int k = 3; k <= 11; k++) {
    const size_t m = (size_t)1 << k;
    const int fmin = 60, fmax = fmin + 30 - k, P = fmin - 97;
    const double T = ldexp(1.0, P) + ldexp(1.0, P - 24), grain = ldexp(1.0, fmax - 150);
    const double v = floor(T / (double)(m - 2) / grain) * grain;
    for (size_t i = 0; i < m - 3; i++) x[i] = (float)v;
    x[m - 3] = (float)(T - (double)(m - 3) * v);
    x[m - 2] = ldexpf(1.0f + ldexpf(1.0f, -23), fmin - 127);
    x[m - 1] = -ldexpf(1.0f, fmin - 127);
    uint32_t u0, u1;
    memcpy(&u0, &x[0], 4);
    memcpy(&u1, &x[m - 3], 4);
    CHECK_MSG((int)(u0 >> 23) == fmax && (int)(u1 >> 23) == fmax, "tie case k=%d: fields %u %u",
              k, u0 >> 23, u1 >> 23);
    char what[64];
    snprintf(what, sizeof what, "bounded: a tie one binade past the bound, n=%zu", m);
    check_f32(x, m, what);
    shuffle(x, m, 4);
    check_f32(x, m, what);
  }
  /* blocks that pass and fail in one chunk: every third block spans 60 binades */
  const size_t n = 65536 + 2048 + 5;
  for (size_t i = 0; i < n; i++) {
    const int wide = (i / 2048) % 3 == 1;
    x[i] = edge_value(wide && i % 2 ? 30 : 90, 1);
  }
  check_f32(x, n, "bounded: wide blocks among narrow ones");
  /* -0 throughout is -0; one +0 or a cancelling pair in a later block makes it +0 */
  for (size_t i = 0; i < 5000; i++) x[i] = -0.0f;
  check_f32(x, 5000, "bounded: all -0");
  x[4500] = 0.0f;
  check_f32(x, 5000, "bounded: -0 and one +0");
  x[4500] = -0.0f;
  x[3000] = 1.5f;
  x[3001] = -1.5f;
  check_f32(x, 5000, "bounded: -0 and a cancelling pair");
  free(x);
}

/* A double of exponent field f (1..2046) whose significand has its top and bottom bits
 * set and random bits between; positive unless mixed (then a random sign). */
static double edge_double(int f, int mixed) {
  const uint64_t m = (check_rand64() & 0xfffffffffffffull) | 0x8000000000001ull;
  const uint64_t u = ((uint64_t)f << 52) | m | (mixed && (check_rand64() & 1) ? 1ull << 63 : 0);
  double x;
  memcpy(&x, &u, 8);
  return x;
}

/* The CPU splits F64 blocks of n <= 1024 on a grid and sums the two parts plainly when
 * 2 ceil(log2 n) + fmax - fmin <= 52 (src/cpu/sum_split_f64.c). At that bound and one and
 * two binades past it (the expansions then): the widest significands, the largest
 * binade's values mostly of one sign so the parts' sums grow; and values built so that
 * every small input leaves the largest remainder the grid allows (g - G: their sum then
 * comes within 2^k G of the 2^53 G a double holds). Subnormals, zeros, huge values
 * (the grid's sigma would pass 2^1023), blocks that fail among blocks that pass, and
 * the sign of a zero sum. */
static void test_split_blocks(void) {
  const size_t sizes[] = {1, 2, 3, 4, 16, 17, 100, 1000, 1023, 1024, 1025, 4099, 65536 + 1029};
  const size_t nmax = 65536 + 1029;
  double *x = (double *)malloc(nmax * sizeof *x);
  for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++) {
    const size_t n = sizes[si];
    const int k = ceil_log2(n < 1024 ? n : 1024);
    for (int extra = 0; extra <= 2; extra++)
      for (int mixed = 0; mixed <= 1; mixed++)
        for (int sub = 0; sub <= 1; sub++) {
          const int range = 52 - 2 * k + extra;
          const int fmin = sub ? 1 : 600, fmax = fmin + range;
          for (size_t i = 0; i < n; i++) {
            if (i % 5 == 2) x[i] = edge_double(fmin, 1);
            else if (i % 11 == 7) x[i] = (i & 1) ? 0.0 : -0.0;
            else x[i] = edge_double(fmax, mixed);
            if (sub && i % 5 == 2) { /* a subnormal: field 0, the unit of field 1 */
              uint64_t u;
              memcpy(&u, &x[i], 8);
              u &= 0x800fffffffffffffull;
              memcpy(&x[i], &u, 8);
            }
          }
          char what[96];
          snprintf(what, sizeof what, "split n=%zu range=%d mixed=%d subnormal=%d", n, range,
                   mixed, sub);
          check_f64(x, n, what);
        }
  }
  /* the largest remainders: one input 2^(fmax-1023) fixes the grid, the others are
     2^52 G + g - G (field fmin), each leaving r = g - G */
  for (int k = 2; k <= 10; k++) {
    const size_t m = (size_t)1 << k;
    for (int extra = 0; extra <= 1; extra++) {
      const int range = 52 - 2 * k + extra, fmin = 500, fmax = fmin + range;
      const int s = fmax - 1022 + k + 1;
      const double G = ldexp(1.0, fmin - 1075), g = ldexp(1.0, s - 53);
      x[0] = ldexp(1.0, fmax - 1023);
      for (size_t i = 1; i < m; i++) x[i] = ldexp(1.0, 52) * G + (g - G);
      char what[80];
      snprintf(what, sizeof what, "split: largest remainders, n=%zu range=%d", m, range);
      check_f64(x, m, what);
      shuffle(x, m, 8);
      check_f64(x, m, what);
    }
  }
  /* One binade past the bound (n = 4: 2k + range = 53), where a split sum would round:
   * B = 2^101 G fixes the grid (g = 2^52 G), three inputs in [g, 2g) leave remainders
   * -(g - G), -(g - G) and -(g - 2^48 G + G), whose sum, an odd 54-bit multiple of G,
   * a double rounds by G; the exact total is B + 3g + 2^48 G + G, a unit of B's binade
   * (2^49 G) and a half above B + 3g, plus G: rounded up, where the split sum's total
   * lands on the half and ties down to even. The library must take the expansions. */
  {
    const int fmin = 500;
    const double G = ldexp(1.0, fmin - 1075), g = ldexp(1.0, fmin - 1023);
    double t[4] = {ldexp(1.0, fmin + 49 - 1023), g + G, g + G, g + ldexp(1.0, 48) * G - G};
    check_f64(t, 4, "split: a tie one binade past the bound");
    const double u[4] = {t[3], t[0], t[2], t[1]};
    check_f64(u, 4, "split: a tie one binade past the bound, permuted");
  }
  /* huge values: sigma would pass 2^1023 */
  for (size_t i = 0; i < 1000; i++) x[i] = edge_double(2046 - (int)(i % 3), 1);
  check_f64(x, 1000, "split: near overflow");
  /* blocks that pass and fail in one chunk: every third block spans 200 binades */
  for (size_t i = 0; i < nmax; i++) {
    const int wide = (i / 1024) % 3 == 1;
    x[i] = edge_double(wide && i % 2 ? 700 : 900, 1);
  }
  check_f64(x, nmax, "split: wide blocks among narrow ones");
  /* -0 throughout is -0; one +0, or a cancelling pair, in a later block makes it +0 */
  for (size_t i = 0; i < 3000; i++) x[i] = -0.0;
  check_f64(x, 3000, "split: all -0");
  check_f64(x, 700, "split: all -0, one block");
  x[2500] = 0.0;
  check_f64(x, 3000, "split: -0 and one +0");
  x[2500] = -0.0;
  x[2000] = 1.5;
  x[2001] = -1.5;
  check_f64(x, 3000, "split: -0 and a cancelling pair");
  x[10] = 0.25;
  x[11] = -0.25;
  check_f64(x, 700, "split: one block, -0 and a cancelling pair");
  free(x);
}

/* The caller's thread with x86's DAZ and FTZ set (subnormals read and written as zero,
 * as under torch.set_flush_denormal(True)): the sums of subnormal data still equal the
 * exact sum rounded once (the library clears both flags for its own float work, on
 * every thread, and puts the caller's back). The references are computed first, with
 * IEEE arithmetic; under the flags only bits are compared. */
static void test_flush_modes(void) {
#if defined(__x86_64__) || defined(__i386__)
  const size_t sizes[] = {3, 100, 2048, 5000, 300001};
  const size_t nmax = 300001;
  float *f = (float *)malloc(nmax * sizeof *f);
  double *d = (double *)malloc(nmax * sizeof *d);
  check_seed(77);
  for (size_t i = 0; i < nmax; i++) {
    f[i] = gen_f32(K_SUBNORMAL, i);
    d[i] = gen_f64(K_SUBNORMAL, i, nmax);
  }
  for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++) {
    const size_t n = sizes[si];
    const uint32_t want_f = canon32(xr_sum_f32(f, n));
    const uint64_t want_d = canon64(xr_sum_f64(d, n));
    const unsigned csr = _mm_getcsr();
    _mm_setcsr(csr | 0x8040u);
    float gf;
    double gd;
    const gp_status sf = gp_reduce(ctx, GP_SUM, GP_F32, f, n, &gf, GP_REDUCE_AUTO);
    const gp_status sd = gp_reduce(ctx, GP_SUM, GP_F64, d, n, &gd, GP_REDUCE_AUTO);
    const unsigned after = _mm_getcsr();
    _mm_setcsr(csr);
    CHECK_MSG(sf == GP_OK && sd == GP_OK, "DAZ/FTZ n=%zu: %s", n, gp_last_error(ctx));
    CHECK_MSG(bits32(gf) == want_f, "DAZ/FTZ f32 n=%zu: %08x, want %08x", n, bits32(gf), want_f);
    CHECK_MSG(bits64(gd) == want_d, "DAZ/FTZ f64 n=%zu: %016llx, want %016llx", n,
              (unsigned long long)bits64(gd), (unsigned long long)want_d);
    CHECK_MSG((after & 0x8040u) == 0x8040u, "DAZ/FTZ n=%zu: the caller's MXCSR was not restored", n);
  }
  free(f);
  free(d);
#endif
}

int main(void) {
  ctx = check_cpu_context();
  test_fast_add();
  test_carry_add();
  test_narrow();
  test_known();
  test_ties();
  test_random();
  test_dense();
  test_threads();
  test_bounded_blocks();
  test_split_blocks();
  test_flush_modes();
  gp_destroy(ctx);
  return check_summary("test_reduce_exact");
}
