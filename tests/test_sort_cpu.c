/* CPU backend sorting: gp_sort / gp_sort_pairs / gp_sort_segments on every dtype, both
 * orders, sizes around every power of two, special floats and adversarial patterns,
 * checked as ordered + same multiset (bits equal to a qsort reference) + pairs kept;
 * the seed's serial bitonic sort (Program 6.17); bad input leaves data untouched. */
#include "check.h"
#include "sort_check.h"
#include "cpu/sort_cpu.h"

static gp_context *ctx;

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
  CHECK_STATUS(gp_sort(ctx, GP_U32, keys, N, GP_ASCENDING, (gp_sort_algo)3), GP_ERR_INVALID_ARGUMENT);
  CHECK_ERROR_MENTIONS(ctx, "algo");
  CHECK_STATUS(gp_sort_pairs(ctx, GP_U32, keys, GP_U32, vals, N, GP_ASCENDING, GP_SORT_BITONIC_SEED),
               GP_ERR_UNSUPPORTED);
  CHECK_ERROR_MENTIONS(ctx, "power-of-two");
  CHECK_STATUS(gp_sort_pairs(ctx, GP_U32, keys, GP_U32, keys + 10, 50, GP_ASCENDING, GP_SORT_AUTO),
               GP_ERR_INVALID_ARGUMENT);
  CHECK_ERROR_MENTIONS(ctx, "overlap");
  CHECK_STATUS(gp_sort(NULL, GP_U32, keys, N, GP_ASCENDING, GP_SORT_AUTO), GP_ERR_INVALID_ARGUMENT);
  CHECK(memcmp(keys, k0, sizeof keys) == 0);
  CHECK(memcmp(vals, v0, sizeof vals) == 0);

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
  const gp_sort_algo algos[] = {GP_SORT_AUTO, GP_SORT_BITONIC, GP_SORT_BITONIC_SEED};
  for (int t = 0; t < GP_DTYPE_COUNT; t++)
    for (int o = 0; o < 2; o++)
      for (int i = 0; i < ns; i++) {
        size_t n = sizes[i];
        int p = (int)((size_t)i % SC_PATTERNS);
        check_sort((gp_dtype)t, SC_RANDOM, n, (gp_order)o, GP_SORT_AUTO);
        check_sort((gp_dtype)t, p, n, (gp_order)o, algos[i % 3]);
        if (t == GP_F32 || t == GP_F64) check_sort((gp_dtype)t, SC_SPECIAL, n, (gp_order)o, GP_SORT_BITONIC);
        if (n <= 4096) check_sort((gp_dtype)t, SC_SPECIAL, n, (gp_order)o, GP_SORT_BITONIC_SEED);
      }
  /* every pattern on every dtype */
  for (int t = 0; t < GP_DTYPE_COUNT; t++)
    for (int p = 0; p < SC_PATTERNS; p++)
      for (int o = 0; o < 2; o++)
        for (int a = 0; a < 3; a++) {
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

  gp_destroy(ctx);
  return check_summary("test_sort_cpu");
}
