/* CPU backend sorting through the API on a CPU context: gp_sort / gp_sort_pairs /
 * gp_sort_segments (every algo), gp_argsort and the offset segments, on every dtype,
 * both orders, sizes around every power of two and the radix sort's cut-overs, special
 * floats and adversarial patterns, checked as ordered + same multiset (bits equal to a
 * qsort reference) + pairs kept + the exact stable permutation (a qsort on (key, input
 * index)); the same bits with 1 and 2 threads; the seed's serial bitonic sort (Program
 * 6.17); bad input leaves data untouched. */
#include "check.h"
#include "sort_check.h"
#include "cpu/sort_cpu.h"
#include "cpu/vqsort.h"

#ifdef _OPENMP
#include <omp.h>
#endif

static gp_context *ctx;

/* ---- the stable reference: qsort on (key, input index) ---------------------------- */
typedef struct { uint64_t bits; size_t idx; } sr_rec;
static sc_cmp_fn sr_cmp;
static int sr_desc;
static int sr_compare(const void *pa, const void *pb) {
  const sr_rec *a = (const sr_rec *)pa, *b = (const sr_rec *)pb;
  int c = sr_cmp(&a->bits, &b->bits);
  if (sr_desc) c = -c;
  if (c) return c;
  return (a->idx > b->idx) - (a->idx < b->idx);
}
/* perm[r] = input position of the key of rank r in the stable sort of keys[0..n). */
static void stable_perm(gp_dtype t, const void *keys, size_t n, gp_order order, size_t *perm) {
  size_t es = gp_dtype_size(t);
  sr_rec *r = (sr_rec *)malloc((n ? n : 1) * sizeof *r);
  for (size_t i = 0; i < n; i++) {
    r[i].bits = 0;
    memcpy(&r[i].bits, (const char *)keys + i * es, es); /* little-endian: low bytes */
    r[i].idx = i;
  }
  sr_cmp = sc_cmp(t);
  sr_desc = order == GP_DESCENDING;
  qsort(r, n, sizeof *r, sr_compare);
  for (size_t i = 0; i < n; i++) perm[i] = r[i].idx;
  free(r);
}
static size_t index_at(gp_dtype it, const void *ix, size_t i) {
  return it == GP_U32 ? ((const uint32_t *)ix)[i] : (size_t)((const uint64_t *)ix)[i];
}

/* gp_argsort gives exactly the stable permutation and leaves the keys alone. */
static void check_argsort(gp_dtype t, int p, size_t n, gp_dtype it, gp_order order) {
  size_t es = gp_dtype_size(t), is = gp_dtype_size(it);
  char *keys = (char *)malloc(n * es + 8), *orig = (char *)malloc(n * es + 8);
  char *ix = (char *)malloc(n * is + 8);
  size_t *perm = (size_t *)malloc((n + 1) * sizeof *perm);
  sc_fill(t, p, keys, n);
  memcpy(orig, keys, n * es);
  stable_perm(t, keys, n, order, perm);
  gp_status s = gp_argsort(ctx, t, keys, it, ix, n, order);
  CHECK_MSG(s == GP_OK, "argsort: %s", gp_last_error(ctx));
  size_t bad = n;
  for (size_t i = 0; i < n && bad == n; i++)
    if (index_at(it, ix, i) != perm[i]) bad = i;
  CHECK_MSG(bad == n, "argsort %s %s %s idx %s n=%zu: first wrong rank %zu",
            gp_dtype_name(t), sc_pattern_name[p], order ? "desc" : "asc",
            gp_dtype_name(it), n, bad);
  CHECK_MSG(memcmp(keys, orig, n * es) == 0, "argsort %s n=%zu changed the keys",
            gp_dtype_name(t), n);
  free(keys); free(orig); free(ix); free(perm);
}

/* Pairs with index values: the values come out as exactly the stable permutation. */
static void check_pairs_stable(gp_dtype kt, int vb, int p, size_t n, gp_order order) {
  size_t es = gp_dtype_size(kt);
  gp_dtype vt = vb == 4 ? GP_U32 : GP_U64;
  char *keys = (char *)malloc(n * es + 8), *vals = (char *)malloc(n * (size_t)vb + 8);
  size_t *perm = (size_t *)malloc((n + 1) * sizeof *perm);
  sc_fill(kt, p, keys, n);
  for (size_t i = 0; i < n; i++) sc_index_value(vt, i, vals + i * (size_t)vb);
  stable_perm(kt, keys, n, order, perm);
  CHECK_OK(ctx, gp_sort_pairs(ctx, kt, keys, vt, vals, n, order, GP_SORT_AUTO));
  size_t bad = n;
  for (size_t i = 0; i < n && bad == n; i++)
    if (index_at(vt, vals, i) != perm[i]) bad = i;
  CHECK_MSG(bad == n, "pairs %s %s %s values %d B n=%zu: not stable from rank %zu",
            gp_dtype_name(kt), sc_pattern_name[p], order ? "desc" : "asc", vb, n, bad);
  free(keys); free(vals); free(perm);
}

/* gp_sort_segments_offsets (gp_sort_pairs_segments_offsets with values) over segments of the given lengths, laid after `lead` untouched
 * keys and followed by 5 more: keys and index values match the per-segment stable
 * permutation, and the keys outside every segment keep their bits. */
static void check_offsets(gp_dtype t, int p, int vb, const size_t *lens, size_t nseg,
                          gp_order order) {
  size_t es = gp_dtype_size(t), lead = 3, n = lead + 5;
  for (size_t i = 0; i < nseg; i++) n += lens[i];
  uint64_t *off = (uint64_t *)malloc((nseg + 1) * sizeof *off);
  off[0] = lead;
  for (size_t i = 0; i < nseg; i++) off[i + 1] = off[i] + lens[i];
  char *keys = (char *)malloc(n * es), *orig = (char *)malloc(n * es);
  char *vals = vb ? (char *)malloc(n * (size_t)vb) : NULL;
  size_t *perm = (size_t *)malloc(n * sizeof *perm);
  gp_dtype vt = vb == 8 ? GP_U64 : GP_U32;
  sc_fill(t, p, keys, n);
  memcpy(orig, keys, n * es);
  for (size_t i = 0; vals && i < n; i++) sc_index_value(vt, i, vals + i * (size_t)vb);
  if (vb)
    CHECK_OK(ctx, gp_sort_pairs_segments_offsets(ctx, t, keys, vt, vals, off, nseg, order));
  else
    CHECK_OK(ctx, gp_sort_segments_offsets(ctx, t, keys, off, nseg, order));
  int ok = memcmp(keys, orig, lead * es) == 0 &&
           memcmp(keys + off[nseg] * es, orig + off[nseg] * es, 5 * es) == 0;
  for (size_t s = 0; s < nseg && ok; s++) {
    stable_perm(t, orig + off[s] * es, lens[s], order, perm);
    for (size_t i = 0; i < lens[s] && ok; i++) {
      size_t src = (size_t)off[s] + perm[i], dst = (size_t)off[s] + i;
      ok = memcmp(keys + dst * es, orig + src * es, es) == 0 &&
           (!vals || index_at(vt, vals, dst) == src);
    }
  }
  CHECK_MSG(ok, "offsets %s %s %s values %d B, %zu segments: wrong", gp_dtype_name(t),
            sc_pattern_name[p], order ? "desc" : "asc", vb, nseg);
  free(off); free(keys); free(orig); free(vals); free(perm);
}

/* Offset segments: empty, single, small, around the cut-overs, one huge; a lone segment
 * that does not start at 0. */
static void check_offsets_matrix(void) {
  const size_t mixed[] = {0, 1, 0, 2, 17, 0, 63, 64, 65, 255, 256, 257, 1000, 0, 1,
                          4096, 3, 70000, 5, 0};
  const size_t huge[] = {2, 300000, 0, 1};
  const size_t empty[] = {0, 0, 0};
  const size_t one_short[] = {100}, one_long[] = {3000}; /* one segment, after a lead */
  for (int t = 0; t < GP_DTYPE_COUNT; t++)
    for (int o = 0; o < 2; o++) {
      check_offsets((gp_dtype)t, SC_RANDOM, 0, one_short, 1, (gp_order)o);
      check_offsets((gp_dtype)t, SC_SPECIAL, 0, one_long, 1, (gp_order)o);
      check_offsets((gp_dtype)t, SC_FEW, 4, one_short, 1, (gp_order)o);
    }
  for (int t = 0; t < GP_DTYPE_COUNT; t++)
    for (int o = 0; o < 2; o++)
      for (int vb = 0; vb <= 8; vb += 4) {
        int p = (t + o + vb) % SC_PATTERNS;
        check_offsets((gp_dtype)t, p, vb, mixed, sizeof mixed / sizeof *mixed, (gp_order)o);
        check_offsets((gp_dtype)t, SC_SPECIAL, vb, mixed, sizeof mixed / sizeof *mixed,
                      (gp_order)o);
      }
  check_offsets(GP_F32, SC_SPECIAL, 4, huge, 4, GP_ASCENDING);
  check_offsets(GP_I64, SC_FEW, 8, huge, 4, GP_DESCENDING);
  check_offsets(GP_U32, SC_RANDOM, 0, huge, 4, GP_ASCENDING);
  check_offsets(GP_U64, SC_RANDOM, 4, empty, 3, GP_ASCENDING);
  check_offsets(GP_F64, SC_RANDOM, 8, empty, 0, GP_DESCENDING);
}

/* Argsort and stable pairs: every type, around the cut-overs and digit boundaries. */
static void check_argsort_matrix(void) {
  const size_t sizes[] = {0, 1, 2, 3, 31, 32, 33, 63, 64, 65, 255, 256, 257, 1023, 1024, 1025, 2047, 2048,
                          2049, 4095, 4096, 4097, 65535, 65536, 65537, 300001};
  const size_t ns = sizeof sizes / sizeof *sizes;
  for (int t = 0; t < GP_DTYPE_COUNT; t++)
    for (size_t i = 0; i < ns; i++)
      for (int o = 0; o < 2; o++) {
        size_t n = sizes[i];
        int p = (int)((i + (size_t)t) % SC_PATTERNS);
        check_argsort((gp_dtype)t, p, n, (i & 1) ? GP_U64 : GP_U32, (gp_order)o);
        if (t == GP_F32 || t == GP_F64)
          check_argsort((gp_dtype)t, SC_SPECIAL, n, GP_U32, (gp_order)o);
        check_pairs_stable((gp_dtype)t, (i & 1) ? 8 : 4, SC_FEW, n, (gp_order)o);
        check_pairs_stable((gp_dtype)t, (i & 1) ? 4 : 8, p, n, (gp_order)o);
      }
  for (int t = 0; t < GP_DTYPE_COUNT; t++)
    for (int p = 0; p < SC_PATTERNS; p++)
      check_argsort((gp_dtype)t, p, 5000, GP_U64, (gp_order)(p & 1));
  check_argsort(GP_F32, SC_SPECIAL, ((size_t)1 << 21) + 3, GP_U32, GP_DESCENDING);
  check_argsort(GP_U64, SC_FEW, (size_t)1 << 20, GP_U64, GP_ASCENDING);
  check_pairs_stable(GP_U32, 4, SC_RANDOM, ((size_t)1 << 21) + 1, GP_ASCENDING);
  check_pairs_stable(GP_F64, 8, SC_SPECIAL, ((size_t)1 << 20) - 1, GP_DESCENDING);
}

/* n keys of t, filled by the caller (left sorted): gp_argsort, gp_sort_pairs with index
 * values and gp_sort against the stable reference; what names the keys in messages. */
static void check_stable_order(gp_dtype t, char *keys, size_t n, gp_order order,
                               const char *what) {
  size_t es = gp_dtype_size(t);
  char *orig = (char *)malloc(n * es);
  uint64_t *ix = (uint64_t *)malloc(n * 8), *vals = (uint64_t *)malloc(n * 8);
  size_t *perm = (size_t *)malloc(n * sizeof *perm);
  for (size_t i = 0; i < n; i++) vals[i] = i;
  memcpy(orig, keys, n * es);
  stable_perm(t, keys, n, order, perm);
  CHECK_OK(ctx, gp_argsort(ctx, t, keys, GP_U64, ix, n, order));
  CHECK_OK(ctx, gp_sort_pairs(ctx, t, keys, GP_U64, vals, n, order, GP_SORT_AUTO));
  int ok = 1;
  for (size_t i = 0; i < n && ok; i++)
    ok = ix[i] == perm[i] && vals[i] == perm[i] &&
         memcmp(keys + i * es, orig + perm[i] * es, es) == 0;
  CHECK_MSG(ok, "%s %s %s n=%zu: not the stable order", what, gp_dtype_name(t),
            order ? "desc" : "asc", n);
  memcpy(keys, orig, n * es);
  CHECK_OK(ctx, gp_sort(ctx, t, keys, n, order, GP_SORT_AUTO));
  ok = 1;
  for (size_t i = 0; i < n && ok; i++) ok = memcmp(keys + i * es, orig + perm[i] * es, es) == 0;
  CHECK_MSG(ok, "%s %s %s n=%zu: gp_sort keys out of order", what, gp_dtype_name(t),
            order ? "desc" : "asc", n);
  free(orig); free(ix); free(vals); free(perm);
}

/* Skewed keys: most share their top bits and differ below (one bucket of the first MSD
 * pass holds most keys, and is split again by all threads), or a fifth are one value
 * (equal: a bucket above the cache size that no digit splits), the rest random; keys,
 * pairs and argsort against the stable reference. */
static void check_skewed(gp_dtype t, size_t n, gp_order order, int equal) {
  size_t es = gp_dtype_size(t);
  char *keys = (char *)malloc(n * es);
  for (size_t i = 0; i < n; i++) {
    uint64_t r = check_rand64(), u = (r % 10 < (equal ? 2u : 7u)) ? (0x5A3ull << 52) | (equal ? 0 : r >> 20) : r;
    if (es == 4) {
      uint32_t x = (uint32_t)(u >> 32);
      memcpy(keys + i * 4, &x, 4);
    } else {
      memcpy(keys + i * 8, &u, 8);
    }
  }
  check_stable_order(t, keys, n, order, equal ? "skewed (equal)" : "skewed");
  free(keys);
}

/* Floats as data has them: most keys share a few exponents (a sum of uniforms, near
 * normal, scaled by 2^-20 .. 2^20 in some keys so the exponents spread a little too),
 * so the first pass of a large sort maps the top bits onto buckets (radix_cpu_impl.h,
 * par_mapped); keys, pairs and argsort against the stable reference. positive: their
 * absolute values, whose encoded keys share the top bit, so par_mapped's window is not
 * the top one that varying counted and it counts its own. */
static void check_normal(gp_dtype t, size_t n, gp_order order, int positive) {
  size_t es = gp_dtype_size(t);
  char *keys = (char *)malloc(n * es);
  for (size_t i = 0; i < n; i++) {
    double x = check_rand01() + check_rand01() + check_rand01() - 1.5;
    if (i % 7 == 0) x = ldexp(x, (int)(check_rand64() % 41) - 20);
    if (positive) x = fabs(x);
    if (es == 4) {
      float f = (float)x;
      memcpy(keys + i * 4, &f, 4);
    } else {
      memcpy(keys + i * 8, &x, 8);
    }
  }
  check_stable_order(t, keys, n, order, positive ? "near-normal, positive" : "near-normal");
  free(keys);
}

/* 8-byte keys in clusters of 1 .. 40 that share all but their lowest 6 bits (mixed
 * signs: no top bit common to every key), shuffled: the packed argsort
 * (cpu/argsort_packed.c) drops a key's lowest bits for its index and must re-sort each
 * such cluster by the whole key; keys, pairs and argsort against the stable reference. */
static void check_low_bits(gp_dtype t, size_t n, gp_order order) {
  uint64_t *keys = (uint64_t *)malloc(n * 8);
  unsigned g = 1;
  for (size_t i = 0; i < n; g = g % 40 + 1) {
    const uint64_t top = check_rand64() & ~0x3Full;
    for (unsigned j = 0; j < g && i < n; j++) keys[i++] = top | (check_rand64() & 0x3F);
  }
  for (size_t i = n; i > 1; i--) { /* Fisher-Yates */
    const size_t j = (size_t)(check_rand64() % i);
    const uint64_t x = keys[i - 1];
    keys[i - 1] = keys[j];
    keys[j] = x;
  }
  check_stable_order(t, (char *)keys, n, order, "clusters in the low bits");
  free(keys);
}

/* The same bits with one thread and with two: keys, pairs, argsort and segments. */
static void check_thread_independence(void) {
#ifdef _OPENMP
  const size_t n = ((size_t)1 << 21) + 5, seg = 1000, nseg = 700;
  const gp_dtype types[] = {GP_U32, GP_F32, GP_I64, GP_F64};
  const int threads0 = omp_get_max_threads();
  for (int ti = 0; ti < 4; ti++) {
    gp_dtype t = types[ti];
    size_t es = gp_dtype_size(t);
    char *orig = (char *)malloc(n * es), *out[2], *ix[2], *vals[2];
    sc_fill(t, ti & 1 ? SC_SPECIAL : SC_FEW, orig, n);
    for (int r = 0; r < 2; r++) {
      omp_set_num_threads(r + 1);
      out[r] = (char *)malloc(n * es);
      ix[r] = (char *)malloc(n * 8);
      vals[r] = (char *)malloc(n * 4);
      memcpy(out[r], orig, n * es);
      for (size_t i = 0; i < n; i++) ((uint32_t *)vals[r])[i] = (uint32_t)i;
      CHECK_OK(ctx, gp_sort_pairs(ctx, t, out[r], GP_U32, vals[r], n, GP_ASCENDING, GP_SORT_AUTO));
      CHECK_OK(ctx, gp_argsort(ctx, t, orig, GP_U64, ix[r], n, GP_DESCENDING));
    }
    CHECK_MSG(memcmp(out[0], out[1], n * es) == 0 && memcmp(vals[0], vals[1], n * 4) == 0,
              "pairs %s: 1 and 2 threads differ", gp_dtype_name(t));
    CHECK_MSG(memcmp(ix[0], ix[1], n * 8) == 0, "argsort %s: 1 and 2 threads differ",
              gp_dtype_name(t));
    for (int r = 0; r < 2; r++) {
      omp_set_num_threads(r + 1);
      memcpy(out[r], orig, seg * nseg * es);
      CHECK_OK(ctx, gp_sort_segments(ctx, t, out[r], seg * nseg, seg, GP_DESCENDING));
    }
    CHECK_MSG(memcmp(out[0], out[1], seg * nseg * es) == 0,
              "segments %s: 1 and 2 threads differ", gp_dtype_name(t));
    for (int r = 0; r < 2; r++) free(out[r]), free(ix[r]), free(vals[r]);
    free(orig);
  }
  omp_set_num_threads(threads0);
#endif
}

/* Sorts n keys of t (pattern p) with algo and checks against the reference. */
static void check_sort(gp_dtype t, int p, size_t n, gp_order order, gp_sort_algo algo) {
  size_t es = gp_dtype_size(t);
  char *keys = (char *)malloc(n * es + 8), *ref = (char *)malloc(n * es + 8);
  sc_fill(t, p, keys, n);
  memcpy(ref, keys, n * es);
  sc_reference(t, ref, n, n ? n : 1, order);
  gp_status s = gp_sort(ctx, t, keys, n, order, algo);
  CHECK_MSG(s == GP_OK, "gp_sort %s n=%zu: %s", gp_dtype_name(t), n, gp_last_error(ctx));
  size_t d = sc_first_diff(keys, ref, n, es);
  CHECK_MSG(d == n, "gp_sort %s %s %s %s n=%zu: first difference at %zu", gp_dtype_name(t),
            sc_pattern_name[p], order ? "desc" : "asc", gp_sort_algo_name(algo), n, d);
  CHECK_MSG(sc_ordered(t, keys, n, n ? n : 1, order), "not ordered: %s n=%zu",
            gp_dtype_name(t), n);
  free(keys);
  free(ref);
}

/* The vector quicksort (cpu/vqsort.h) on the inputs that steer its partitions: most keys
 * the least one (a pivot with nothing below it), all keys the greatest (no key above the
 * pivot's successor), two values, an organ pipe; with the introsort bound and with 0, 1
 * and 3 partition steps before heapsort (only adversarial inputs reach it otherwise); one
 * and two threads. Against the qsort reference, bit for bit. */
enum { VQ_LEAST, VQ_GREATEST, VQ_TWO, VQ_PIPE, VQ_RANDOM, VQ_KINDS };
static void vq_fill(gp_dtype t, int kind, char *b, size_t n) {
  const size_t es = gp_dtype_size(t);
  char lo[8], hi[8];
  sc_rand_elem(t, lo);
  sc_rand_elem(t, hi);
  if (kind == VQ_GREATEST) memset(hi, 0xFF, 8); /* the largest U32/U64, a NaN of floats */
  for (size_t i = 0; i < n; i++) {
    char *e = b + i * es;
    if (kind == VQ_LEAST) {
      if (check_rand64() % 10) memcpy(e, lo, es);
      else sc_rand_elem(t, e);
    } else if (kind == VQ_GREATEST) {
      memcpy(e, hi, es);
    } else if (kind == VQ_TWO) {
      memcpy(e, check_rand64() % 2 ? hi : lo, es);
    } else if (kind == VQ_PIPE) {
      const uint64_t v = i < n / 2 ? i : n - i;
      memcpy(e, &v, es); /* little-endian: the low bytes */
    } else {
      sc_rand_elem(t, e);
    }
  }
}
static void check_vqsort(void) {
  if (!gp_cpu_vqsort_ok(4)) {
    printf("test_sort_cpu: no AVX-512 (or GPUPRIMS_CPU_VQSORT=0): the vector quicksort's "
           "own checks do not apply here\n");
    return;
  }
  const size_t ns[] = {513, 600, 4099, 20000, 70001};
  const int depths[] = {-1, 0, 1, 3};
  for (int t = 0; t < GP_DTYPE_COUNT; t++)
    for (int kind = 0; kind < VQ_KINDS; kind++)
      for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++)
        for (int d = 0; d < 4; d++) {
          const gp_dtype dt = (gp_dtype)t;
          const size_t n = ns[i], es = gp_dtype_size(dt);
          const gp_order o = (gp_order)((i + (size_t)d) & 1);
          const int threads = 1 + (int)((i + (size_t)kind) & 1);
          char *k = (char *)malloc(n * es), *ref = (char *)malloc(n * es);
          vq_fill(dt, kind, k, n);
          memcpy(ref, k, n * es);
          sc_reference(dt, ref, n, n, o);
          gp_cpu_vqsort_depth(k, es, n, gp_key_class_of(dt), o == GP_DESCENDING, threads,
                              depths[d]);
          const size_t at = sc_first_diff(k, ref, n, es);
          CHECK_MSG(at == n, "vqsort %s kind %d n=%zu %s depth %d threads %d: first "
                    "difference at %zu", gp_dtype_name(dt), kind, n, o ? "desc" : "asc",
                    depths[d], threads, at);
          free(k);
          free(ref);
        }
}

/* gp_sort_copy: out sorted against the reference, in untouched, bad arguments refused */
static void check_sort_copy(gp_dtype t, int p, size_t n, gp_order order) {
  size_t es = gp_dtype_size(t);
  char *in = (char *)malloc(n * es + 8), *orig = (char *)malloc(n * es + 8);
  char *out = (char *)malloc(n * es + 8), *ref = (char *)malloc(n * es + 8);
  sc_fill(t, p, in, n);
  memcpy(orig, in, n * es);
  memcpy(ref, in, n * es);
  sc_reference(t, ref, n, n ? n : 1, order);
  gp_status s = gp_sort_copy(ctx, t, in, out, n, order, GP_SORT_AUTO);
  CHECK_MSG(s == GP_OK, "gp_sort_copy %s n=%zu: %s", gp_dtype_name(t), n, gp_last_error(ctx));
  CHECK_MSG(sc_first_diff(out, ref, n, es) == n, "gp_sort_copy %s %s n=%zu: out differs",
            gp_dtype_name(t), sc_pattern_name[p], n);
  CHECK_MSG(sc_first_diff(in, orig, n, es) == n, "gp_sort_copy %s n=%zu: in changed",
            gp_dtype_name(t), n);
  if (n > 1) {
    CHECK_STATUS(gp_sort_copy(ctx, t, in, in + es, n - 1, order, GP_SORT_AUTO),
                 GP_ERR_INVALID_ARGUMENT);
    CHECK_ERROR_MENTIONS(ctx, "overlap");
    CHECK_STATUS(gp_sort_copy(ctx, t, NULL, out, n, order, GP_SORT_AUTO), GP_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(gp_sort_copy(ctx, t, in, out, n, order, (gp_sort_algo)9), GP_ERR_INVALID_ARGUMENT);
  }
  free(in); free(orig); free(out); free(ref);
}

static void check_pairs(gp_dtype kt, gp_dtype vt, int p, size_t n, gp_order order,
                        gp_sort_algo algo) {
  size_t ks = gp_dtype_size(kt), vs = gp_dtype_size(vt);
  char *keys = (char *)malloc(n * ks + 8), *orig = (char *)malloc(n * ks + 8);
  char *ref = (char *)malloc(n * ks + 8), *vals = (char *)malloc(n * vs + 8);
  sc_fill(kt, p, keys, n);
  for (size_t i = 0; i < n; i++) sc_index_value(vt, i, vals + i * vs);
  memcpy(orig, keys, n * ks);
  memcpy(ref, keys, n * ks);
  sc_reference(kt, ref, n, n ? n : 1, order);
  gp_status s = gp_sort_pairs(ctx, kt, keys, vt, vals, n, order, algo);
  CHECK_MSG(s == GP_OK, "gp_sort_pairs: %s", gp_last_error(ctx));
  CHECK_MSG(sc_first_diff(keys, ref, n, ks) == n, "pairs keys %s/%s %s n=%zu %s differ",
            gp_dtype_name(kt), gp_dtype_name(vt), sc_pattern_name[p], n,
            gp_sort_algo_name(algo));
  CHECK_MSG(sc_pairs_kept(kt, orig, keys, vt, vals, n, n ? n : 1),
            "pairs %s/%s %s n=%zu: a value left its key", gp_dtype_name(kt),
            gp_dtype_name(vt), sc_pattern_name[p], n);
  free(keys); free(orig); free(ref); free(vals);
}

static void check_segments(gp_dtype t, int p, size_t seg, size_t nseg, gp_order order) {
  size_t es = gp_dtype_size(t), n = seg * nseg;
  char *keys = (char *)malloc(n * es + 8), *ref = (char *)malloc(n * es + 8);
  sc_fill(t, p, keys, n);
  memcpy(ref, keys, n * es);
  sc_reference(t, ref, n, seg, order);
  CHECK_OK(ctx, gp_sort_segments(ctx, t, keys, n, seg, order));
  size_t d = sc_first_diff(keys, ref, n, es);
  CHECK_MSG(d == n, "segments %s %s seg=%zu nseg=%zu %s: first difference at %zu",
            gp_dtype_name(t), sc_pattern_name[p], seg, nseg, order ? "desc" : "asc", d);
  free(keys);
  free(ref);
}

/* Program 6.17 on the four-element list of Table 6.11. */
static void check_table_6_11(void) {
  uint32_t list[4] = {40, 20, 10, 30};
  gp_cpu_bitonic_serial_u32(list, NULL, 0, 4);
  CHECK(list[0] == 10 && list[1] == 20 && list[2] == 30 && list[3] == 40);
  CHECK(gp_insert_zero(5, 1) == 9);   /* 101 -> 1001 */
  CHECK(gp_insert_zero(3, 0) == 6);   /* 11 -> 110 */
  CHECK(gp_which_bit(8) == 3);
  CHECK(gp_which_bit(1) == 0);
  /* the transform is a bijection that preserves order, and decodes back */
  for (int i = 0; i < 16; i++) {
    uint32_t u = sc_special32[i];
    CHECK(gp_key32_dec(gp_key32_enc(u, GP_KEY_FLOAT, 0), GP_KEY_FLOAT, 0) == u);
    CHECK(gp_key32_dec(gp_key32_enc(u, GP_KEY_FLOAT, 1), GP_KEY_FLOAT, 1) == u);
    for (int j = 0; j < 16; j++) {
      int c = sc_total_f32(&sc_special32[i], &sc_special32[j]);
      uint32_t a = gp_key32_enc(sc_special32[i], GP_KEY_FLOAT, 0);
      uint32_t b = gp_key32_enc(sc_special32[j], GP_KEY_FLOAT, 0);
      CHECK(c == ((a > b) - (a < b)));
    }
  }
}

/* gp_key_code_of + gp_key32/64_coded (the top-k rows kernel's branch-free keys) equal
 * gp_key32/64_enc for every class and direction: the special values, each top and low
 * bit pattern, and random bits. */
static void check_key_code(void) {
  for (int c = GP_KEY_UNSIGNED; c <= GP_KEY_FLOAT; c++)
    for (int desc = 0; desc < 2; desc++) {
      const gp_key_code q32 = gp_key_code_of((gp_key_class)c, desc, 0);
      const gp_key_code q64 = gp_key_code_of((gp_key_class)c, desc, 1);
      for (int i = 0; i < 16 + 4096; i++) {
        const uint32_t u = i < 16 ? sc_special32[i] : (uint32_t)check_rand64();
        CHECK(gp_key32_coded(u, q32) == gp_key32_enc(u, (gp_key_class)c, desc));
      }
      for (int i = 0; i < 14 + 4096; i++) {
        const uint64_t u = i < 14 ? sc_special64[i] : check_rand64();
        CHECK(gp_key64_coded(u, q64) == gp_key64_enc(u, (gp_key_class)c, desc));
      }
      const uint32_t e32[] = {0, 1, 0x7fffffffu, 0x80000000u, 0x80000001u, 0xffffffffu};
      const uint64_t e64[] = {0, 1, 0x7fffffffffffffffull, 0x8000000000000000ull,
                              0x8000000000000001ull, ~0ull};
      for (int i = 0; i < 6; i++) {
        CHECK(gp_key32_coded(e32[i], q32) == gp_key32_enc(e32[i], (gp_key_class)c, desc));
        CHECK(gp_key64_coded(e64[i], q64) == gp_key64_enc(e64[i], (gp_key_class)c, desc));
      }
    }
}

/* A failed call leaves keys and values exactly as they were. */
static void check_bad_input(void) {
  enum { N = 100 };
  uint32_t keys[N], vals[N], k0[N], v0[N];
  for (int i = 0; i < N; i++) keys[i] = (uint32_t)(N - i), vals[i] = (uint32_t)i;
  memcpy(k0, keys, sizeof keys);
  memcpy(v0, vals, sizeof vals);

  CHECK_STATUS(gp_sort_segments(ctx, GP_U32, keys, N, 64, GP_ASCENDING), GP_ERR_INVALID_ARGUMENT);
  CHECK_ERROR_MENTIONS(ctx, "n = 100");
  CHECK_ERROR_MENTIONS(ctx, "segment_size = 64");
  CHECK_STATUS(gp_sort_segments(ctx, GP_U32, keys, N, 0, GP_ASCENDING), GP_ERR_INVALID_ARGUMENT);
  CHECK_ERROR_MENTIONS(ctx, "segment_size");
  CHECK_STATUS(gp_sort(ctx, GP_U32, NULL, N, GP_ASCENDING, GP_SORT_AUTO), GP_ERR_INVALID_ARGUMENT);
  CHECK_ERROR_MENTIONS(ctx, "keys is NULL");
  CHECK_STATUS(gp_sort_pairs(ctx, GP_U32, keys, GP_U32, NULL, N, GP_ASCENDING, GP_SORT_AUTO),
               GP_ERR_INVALID_ARGUMENT);
  CHECK_ERROR_MENTIONS(ctx, "values is NULL");
  CHECK_STATUS(gp_sort(ctx, (gp_dtype)6, keys, N, GP_ASCENDING, GP_SORT_AUTO), GP_ERR_INVALID_ARGUMENT);
  CHECK_ERROR_MENTIONS(ctx, "key_type");
  CHECK_STATUS(gp_sort(ctx, (gp_dtype)-1, keys, N, GP_ASCENDING, GP_SORT_AUTO), GP_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(gp_sort_pairs(ctx, GP_U32, keys, (gp_dtype)9, vals, N, GP_ASCENDING, GP_SORT_AUTO),
               GP_ERR_INVALID_ARGUMENT);
  CHECK_ERROR_MENTIONS(ctx, "value_type");
  CHECK_STATUS(gp_sort(ctx, GP_U32, keys, N, (gp_order)2, GP_SORT_AUTO), GP_ERR_INVALID_ARGUMENT);
  CHECK_ERROR_MENTIONS(ctx, "order");
  CHECK_STATUS(gp_sort(ctx, GP_U32, keys, N, GP_ASCENDING, (gp_sort_algo)(GP_SORT_RADIX + 1)),
               GP_ERR_INVALID_ARGUMENT);
  CHECK_ERROR_MENTIONS(ctx, "algo");
  CHECK_STATUS(gp_sort_pairs(ctx, GP_U32, keys, GP_U32, vals, N, GP_ASCENDING, GP_SORT_BITONIC_SEED),
               GP_ERR_UNSUPPORTED);
  CHECK_ERROR_MENTIONS(ctx, "power-of-two");
  CHECK_STATUS(gp_sort_pairs(ctx, GP_U32, keys, GP_U32, keys + 10, 50, GP_ASCENDING, GP_SORT_AUTO),
               GP_ERR_INVALID_ARGUMENT);
  CHECK_ERROR_MENTIONS(ctx, "overlap");
  CHECK_STATUS(gp_argsort(ctx, GP_U32, keys, GP_U32, keys + 10, 50, GP_ASCENDING),
               GP_ERR_INVALID_ARGUMENT);
  CHECK_ERROR_MENTIONS(ctx, "keys and indices overlap");
  CHECK_STATUS(gp_sort(NULL, GP_U32, keys, N, GP_ASCENDING, GP_SORT_AUTO), GP_ERR_INVALID_ARGUMENT);
  CHECK(memcmp(keys, k0, sizeof keys) == 0);
  CHECK(memcmp(vals, v0, sizeof vals) == 0);
  /* adjacent halves of one array do not overlap: accepted */
  CHECK_OK(ctx, gp_sort_pairs(ctx, GP_U32, keys, GP_U32, keys + N / 2, N / 2, GP_ASCENDING, GP_SORT_AUTO));

  /* n = 0 with NULL pointers is fine; a good call clears the last error */
  CHECK_OK(ctx, gp_sort(ctx, GP_F32, NULL, 0, GP_ASCENDING, GP_SORT_AUTO));
  CHECK_OK(ctx, gp_sort_pairs(ctx, GP_F32, NULL, GP_U64, NULL, 0, GP_DESCENDING, GP_SORT_BITONIC));
  CHECK_OK(ctx, gp_sort_segments(ctx, GP_F32, NULL, 0, 5, GP_ASCENDING));
  CHECK(strcmp(gp_last_error(ctx), "") == 0);
}

int main(void) {
  ctx = check_cpu_context();
  check_seed(12345);
  check_table_6_11();
  check_key_code();
  check_bad_input();

  /* sizes: 0..3, and 2^k - 1, 2^k, 2^k + 1 up to 2^16 */
  size_t sizes[64];
  int ns = 0;
  for (size_t n = 0; n <= 3; n++) sizes[ns++] = n;
  for (int k = 2; k <= 16; k++) {
    sizes[ns++] = ((size_t)1 << k) - 1;
    sizes[ns++] = (size_t)1 << k;
    sizes[ns++] = ((size_t)1 << k) + 1;
  }
  const gp_sort_algo algos[] = {GP_SORT_AUTO, GP_SORT_BITONIC, GP_SORT_BITONIC_SEED,
                                GP_SORT_RADIX};
  for (int t = 0; t < GP_DTYPE_COUNT; t++)
    for (int o = 0; o < 2; o++)
      for (int i = 0; i < ns; i++) {
        size_t n = sizes[i];
        int p = (int)((size_t)i % SC_PATTERNS);
        check_sort((gp_dtype)t, SC_RANDOM, n, (gp_order)o, GP_SORT_AUTO);
        check_sort((gp_dtype)t, p, n, (gp_order)o, algos[i % 4]);
        if (t == GP_F32 || t == GP_F64) check_sort((gp_dtype)t, SC_SPECIAL, n, (gp_order)o, GP_SORT_BITONIC);
        if (n <= 4096) check_sort((gp_dtype)t, SC_SPECIAL, n, (gp_order)o, GP_SORT_BITONIC_SEED);
      }
  /* every pattern on every dtype */
  for (int t = 0; t < GP_DTYPE_COUNT; t++)
    for (int p = 0; p < SC_PATTERNS; p++)
      for (int o = 0; o < 2; o++)
        for (int a = 0; a < 4; a++) {
          check_sort((gp_dtype)t, p, 1000, (gp_order)o, algos[a]);
          check_sort((gp_dtype)t, p, 1024, (gp_order)o, algos[a]);
        }
  /* a few large ones, and the seed's serial sort at 2^20 */
  check_sort(GP_U32, SC_RANDOM, ((size_t)1 << 20) - 3, GP_ASCENDING, GP_SORT_AUTO);
  check_sort(GP_F32, SC_SPECIAL, (size_t)1 << 20, GP_DESCENDING, GP_SORT_BITONIC);
  check_sort(GP_F64, SC_SPECIAL, ((size_t)1 << 19) + 7, GP_ASCENDING, GP_SORT_AUTO);
  check_sort(GP_I64, SC_FEW, (size_t)1 << 18, GP_DESCENDING, GP_SORT_AUTO);
  check_sort(GP_I32, SC_RANDOM, (size_t)1 << 20, GP_ASCENDING, GP_SORT_BITONIC_SEED);
  check_sort(GP_F32, SC_SPECIAL, ((size_t)1 << 17) + 1, GP_ASCENDING, GP_SORT_BITONIC_SEED);

  for (int t = 0; t < GP_DTYPE_COUNT; t++)
    for (size_t n = 0; n < 3000; n = n * 3 + 1)
      check_sort_copy((gp_dtype)t, (int)((n + (size_t)t) % SC_PATTERNS), n, (gp_order)(n & 1));

  /* pairs: every key type with every value type */
  for (int kt = 0; kt < GP_DTYPE_COUNT; kt++)
    for (int vt = 0; vt < GP_DTYPE_COUNT; vt++)
      for (int o = 0; o < 2; o++) {
        int p = (kt + vt + o) % SC_PATTERNS;
        check_pairs((gp_dtype)kt, (gp_dtype)vt, p, 3000, (gp_order)o, GP_SORT_AUTO);
        check_pairs((gp_dtype)kt, (gp_dtype)vt, SC_FEW, 4096, (gp_order)o, GP_SORT_BITONIC);
        check_pairs((gp_dtype)kt, (gp_dtype)vt, SC_SPECIAL, 2048, (gp_order)o, GP_SORT_BITONIC_SEED);
        check_pairs((gp_dtype)kt, (gp_dtype)vt, SC_EQUAL, 17, (gp_order)o, GP_SORT_AUTO);
      }
  for (int i = 0; i < ns; i++) {
    check_pairs(GP_F32, GP_U32, SC_SPECIAL, sizes[i], (gp_order)(i & 1), GP_SORT_BITONIC);
    check_pairs(GP_U64, GP_F64, SC_FEW, sizes[i], (gp_order)(i & 1), GP_SORT_AUTO);
  }
  check_pairs(GP_F64, GP_I64, SC_SPECIAL, ((size_t)1 << 20) + 1, GP_DESCENDING, GP_SORT_AUTO);

  /* segments: sizes 1, 2, 3, 7, 64, 1000, and one segment of size n */
  const size_t segs[] = {1, 2, 3, 7, 64, 1000, 4096, 65536};
  for (int t = 0; t < GP_DTYPE_COUNT; t++)
    for (size_t si = 0; si < sizeof segs / sizeof segs[0]; si++)
      for (int o = 0; o < 2; o++) {
        size_t seg = segs[si], nseg = seg >= 4096 ? 3 : 37;
        check_segments((gp_dtype)t, (int)((si + (size_t)t) % SC_PATTERNS), seg, nseg, (gp_order)o);
        check_segments((gp_dtype)t, SC_SPECIAL, seg, 1, (gp_order)o);
      }
  check_segments(GP_F32, SC_SPECIAL, 5000, 1, GP_ASCENDING); /* segment size = n */
  check_segments(GP_U32, SC_RANDOM, 2, 1 << 16, GP_DESCENDING);

  check_argsort_matrix();
  for (int t = 0; t < GP_DTYPE_COUNT; t++)
    for (int e = 0; e < 2; e++) {
      check_skewed((gp_dtype)t, ((size_t)1 << 20) + 11, (gp_order)(t & 1), e);
      check_skewed((gp_dtype)t, 200000, (gp_order)(e ^ (t & 1)), e);
    }
  {
    const size_t lows[] = {33, 64, 1000, 1024, 1025, 5000, 65536, 65537};
    const gp_dtype w8[] = {GP_F64, GP_I64, GP_U64};
    for (size_t i = 0; i < sizeof lows / sizeof lows[0]; i++)
      for (int t = 0; t < 3; t++) check_low_bits(w8[t], lows[i], (gp_order)((i + (size_t)t) & 1));
  }
  check_normal(GP_F32, ((size_t)1 << 21) + 7, GP_ASCENDING, 0);
  check_normal(GP_F32, ((size_t)1 << 20), GP_DESCENDING, 0);
  check_normal(GP_F64, ((size_t)1 << 21) + 1, GP_DESCENDING, 0);
  check_normal(GP_F32, ((size_t)1 << 21) + 3, GP_DESCENDING, 1);
  check_normal(GP_F64, ((size_t)1 << 20) + 9, GP_ASCENDING, 1);
  check_offsets_matrix();
  check_thread_independence();
  check_vqsort();

  gp_destroy(ctx);
  return check_summary("test_sort_cpu");
}
