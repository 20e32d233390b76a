/* CUDA backend sorting, checked against the CPU backend bit for bit on keys (sorted
 * keys are unique in the total order) and by property on pairs (GP_SORT_BITONIC may
 * permute the values of equal keys; AUTO pairs are stable, so their values are
 * compared bit for bit too): every dtype, both orders, sizes around every power of two up to
 * 2^20, segments from 1 to 2^17, the seed's grid sort, host and device pointers, and
 * one sort of more than 2^27 keys. GP_TEST_QUICK=1 keeps the kernels' boundary cases
 * and drops the sizes above 2^16 (and every third power of two below), so
 * compute-sanitizer's racecheck and synccheck cover the suite in minutes. Exits 77
 * where no GPU is usable. */
#include "check.h"
#include "sort_check.h"
#include "core/context.h"

static gp_context *gpu, *cpu;
static int quick; /* GP_TEST_QUICK=1 */

/* Device memory for `bytes`, from a context of its own so the sorting context's
 * workspace can grow without moving it. */
static void *dev_alloc(gp_context **owner, size_t bytes) {
  void *p = NULL;
  if (gp_create(owner, GP_BACKEND_CUDA) != GP_OK) return NULL;
  gp_ws_layout lay = {0};
  gp_ws_add(&lay, bytes);
  if (gp_ws_reserve(*owner, &lay, &p) != GP_OK) return NULL;
  return p;
}

static void cmp_keys(gp_dtype t, int p, size_t n, size_t seg, gp_order o, gp_sort_algo algo,
                     int segmented) {
  size_t es = gp_dtype_size(t);
  char *a = (char *)malloc(n * es + 8), *b = (char *)malloc(n * es + 8);
  sc_fill(t, p, a, n);
  memcpy(b, a, n * es);
  gp_status sg, sc;
  if (segmented) {
    sg = gp_sort_segments(gpu, t, a, n, seg, o);
    sc = gp_sort_segments(cpu, t, b, n, seg, o);
  } else {
    sg = gp_sort(gpu, t, a, n, o, algo);
    sc = gp_sort(cpu, t, b, n, o, algo);
  }
  CHECK_MSG(sg == GP_OK, "gpu sort: %s", gp_last_error(gpu));
  CHECK_MSG(sc == GP_OK, "cpu sort: %s", gp_last_error(cpu));
  size_t d = sc_first_diff(a, b, n, es);
  CHECK_MSG(d == n, "%s %s %s %s n=%zu seg=%zu%s: gpu and cpu differ first at %zu",
            gp_dtype_name(t), sc_pattern_name[p], o ? "desc" : "asc",
            gp_sort_algo_name(algo), n, seg, segmented ? " (segments)" : "", d);
  CHECK_MSG(sc_ordered(t, a, n, segmented ? seg : (n ? n : 1), o), "gpu result not ordered");
  free(a);
  free(b);
}

static void check_pairs(gp_dtype kt, gp_dtype vt, int p, size_t n, gp_order o,
                        gp_sort_algo algo) {
  size_t ks = gp_dtype_size(kt), vs = gp_dtype_size(vt);
  char *k = (char *)malloc(n * ks + 8), *orig = (char *)malloc(n * ks + 8);
  char *ref = (char *)malloc(n * ks + 8), *v = (char *)malloc(n * vs + 8);
  char *v2 = (char *)malloc(n * vs + 8), *k2 = (char *)malloc(n * ks + 8);
  sc_fill(kt, p, k, n);
  for (size_t i = 0; i < n; i++) sc_index_value(vt, i, v + i * vs);
  memcpy(orig, k, n * ks);
  memcpy(ref, k, n * ks);
  memcpy(k2, k, n * ks);
  memcpy(v2, v, n * vs);
  CHECK_OK(cpu, gp_sort(cpu, kt, ref, n, o, GP_SORT_AUTO));
  CHECK_OK(gpu, gp_sort_pairs(gpu, kt, k, vt, v, n, o, algo));
  CHECK_MSG(sc_first_diff(k, ref, n, ks) == n, "pairs %s/%s n=%zu %s: keys differ from cpu",
            gp_dtype_name(kt), gp_dtype_name(vt), n, gp_sort_algo_name(algo));
  CHECK_MSG(sc_pairs_kept(kt, orig, k, vt, v, n, n ? n : 1),
            "pairs %s/%s %s n=%zu %s: a value left its key", gp_dtype_name(kt),
            gp_dtype_name(vt), sc_pattern_name[p], n, gp_sort_algo_name(algo));
  if (algo == GP_SORT_BITONIC_SEED || algo == GP_SORT_AUTO) {
    /* seed: the same comparator network on both backends; AUTO: stable on both (radix
       on the GPU); either way the values too, bit for bit */
    CHECK_OK(cpu, gp_sort_pairs(cpu, kt, k2, vt, v2, n, o, algo));
    CHECK_MSG(memcmp(v, v2, n * vs) == 0, "%s pairs %s/%s n=%zu: values differ from cpu",
              gp_sort_algo_name(algo), gp_dtype_name(kt), gp_dtype_name(vt), n);
  }
  free(k); free(orig); free(ref); free(v); free(v2); free(k2);
}

/* Keys and values in device memory: the call is asynchronous; synchronize, copy back. */
static void check_device_pointers(gp_dtype kt, gp_dtype vt, size_t n, gp_order o,
                                  gp_sort_algo algo, size_t seg) {
  size_t ks = gp_dtype_size(kt), vs = gp_dtype_size(vt);
  gp_context *own = NULL;
  char *dk = (char *)dev_alloc(&own, n * ks + n * vs + 512);
  CHECK_MSG(dk != NULL, "device allocation failed");
  if (!dk) { gp_destroy(own); return; }
  char *dv = dk + ((n * ks + 255) & ~(size_t)255);
  char *k = (char *)malloc(n * ks), *ref = (char *)malloc(n * ks);
  char *orig = (char *)malloc(n * ks), *v = (char *)malloc(n * vs);
  sc_fill(kt, SC_SPECIAL, k, n);
  for (size_t i = 0; i < n; i++) sc_index_value(vt, i, v + i * vs);
  memcpy(orig, k, n * ks);
  memcpy(ref, k, n * ks);
  CHECK_OK(own, gp_copy_sync(own, dk, k, n * ks));
  CHECK_OK(own, gp_copy_sync(own, dv, v, n * vs));
  if (seg) {
    CHECK_OK(gpu, gp_sort_segments(gpu, kt, dk, n, seg, o));
    CHECK_OK(cpu, gp_sort_segments(cpu, kt, ref, n, seg, o));
  } else {
    CHECK_OK(gpu, gp_sort_pairs(gpu, kt, dk, vt, dv, n, o, algo));
    CHECK_OK(cpu, gp_sort(cpu, kt, ref, n, o, GP_SORT_AUTO));
  }
  CHECK_OK(gpu, gp_synchronize(gpu));
  CHECK_OK(own, gp_copy_sync(own, k, dk, n * ks));
  CHECK_OK(own, gp_copy_sync(own, v, dv, n * vs));
  CHECK_MSG(sc_first_diff(k, ref, n, ks) == n, "device pointers %s n=%zu seg=%zu: keys differ",
            gp_dtype_name(kt), n, seg);
  if (!seg)
    CHECK_MSG(sc_pairs_kept(kt, orig, k, vt, v, n, n), "device pairs n=%zu: a value left its key", n);
  free(k); free(ref); free(orig); free(v);
  gp_destroy(own);
}

static void check_bad_input(void) {
  enum { N = 100 };
  uint32_t keys[N], vals[N], k0[N], v0[N];
  for (int i = 0; i < N; i++) keys[i] = (uint32_t)(N - i) * 7u, vals[i] = (uint32_t)i;
  memcpy(k0, keys, sizeof keys);
  memcpy(v0, vals, sizeof vals);
  CHECK_STATUS(gp_sort_segments(gpu, GP_U32, keys, N, 64, GP_ASCENDING), GP_ERR_INVALID_ARGUMENT);
  CHECK_ERROR_MENTIONS(gpu, "segment_size = 64");
  CHECK_STATUS(gp_sort_pairs(gpu, GP_U32, keys, GP_U32, NULL, N, GP_ASCENDING, GP_SORT_AUTO),
               GP_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(gp_sort(gpu, (gp_dtype)17, keys, N, GP_ASCENDING, GP_SORT_AUTO), GP_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(gp_sort_pairs(gpu, GP_U32, keys, GP_U32, vals, N, GP_ASCENDING, GP_SORT_BITONIC_SEED),
               GP_ERR_UNSUPPORTED);
  CHECK(memcmp(keys, k0, sizeof keys) == 0);
  CHECK(memcmp(vals, v0, sizeof vals) == 0);
}

int main(void) {
  gpu = check_gpu_context_or_skip("test_sort_gpu");
  cpu = check_cpu_context();
  const char *q = getenv("GP_TEST_QUICK");
  quick = q && strcmp(q, "0") != 0;
  check_seed(777);
  check_bad_input();

  /* sizes 2..3 and 2^k - 1, 2^k, 2^k + 1 up to 2^20, plus a few in between */
  size_t sizes[80];
  int ns = 0;
  sizes[ns++] = 2;
  sizes[ns++] = 3;
  for (int k = 2; k <= 20; k++) {
    if (quick && (k > 16 || (k % 3 != 2 && k != 12 && k != 16))) continue;
    sizes[ns++] = ((size_t)1 << k) - 1;
    sizes[ns++] = (size_t)1 << k;
    sizes[ns++] = ((size_t)1 << k) + 1;
  }
  sizes[ns++] = 1000;
  sizes[ns++] = 3 * 4096 + 17;
  if (!quick) {
    sizes[ns++] = 100003;
    sizes[ns++] = 777777;
  }
  for (int t = 0; t < GP_DTYPE_COUNT; t++)
    for (int o = 0; o < 2; o++)
      for (int i = 0; i < ns; i++) {
        size_t n = sizes[i];
        cmp_keys((gp_dtype)t, (i + t) % SC_PATTERNS, n, n, (gp_order)o, GP_SORT_BITONIC, 0);
        if (n <= 70000 || i % 5 == 0)
          cmp_keys((gp_dtype)t, SC_SPECIAL, n, n, (gp_order)o, GP_SORT_AUTO, 0);
        if (n <= 5000 || i % 7 == 0)
          cmp_keys((gp_dtype)t, (i + o) % SC_PATTERNS, n, n, (gp_order)o, GP_SORT_BITONIC_SEED, 0);
      }
  for (int p = 0; p < SC_PATTERNS && !quick; p++) {
    cmp_keys(GP_F32, p, (size_t)1 << 21, 0, GP_ASCENDING, GP_SORT_BITONIC_SEED, 0);
    cmp_keys(GP_F64, p, ((size_t)1 << 21) + 5, 0, GP_DESCENDING, GP_SORT_BITONIC, 0);
  }

  /* pairs: every key type with every value type */
  const size_t psizes[] = {2, 5, 1000, 2048, 4097, 65536, 300001};
  for (int kt = 0; kt < GP_DTYPE_COUNT; kt++)
    for (int vt = 0; vt < GP_DTYPE_COUNT; vt++)
      for (size_t i = 0; i < sizeof psizes / sizeof psizes[0] - (quick ? 2 : 0); i++) {
        gp_order o = (gp_order)((kt + vt + (int)i) & 1);
        int p = (kt * 6 + vt + (int)i) % SC_PATTERNS;
        check_pairs((gp_dtype)kt, (gp_dtype)vt, p, psizes[i], o, GP_SORT_BITONIC);
        if ((psizes[i] & (psizes[i] - 1)) == 0)
          check_pairs((gp_dtype)kt, (gp_dtype)vt, SC_FEW, psizes[i], o, GP_SORT_BITONIC_SEED);
      }
  if (!quick) {
    check_pairs(GP_U32, GP_U32, SC_FEW, (size_t)1 << 20, GP_ASCENDING, GP_SORT_AUTO);
    check_pairs(GP_F64, GP_F64, SC_SPECIAL, ((size_t)1 << 19) + 3, GP_DESCENDING, GP_SORT_AUTO);
  }

  /* segments: 1 .. 2^17 including sizes that are not powers of two, and size n */
  const size_t segs[] = {1, 2, 3, 7, 31, 32, 33, 64, 100, 1000, 1024, 2047, 2048, 4096,
                         8191, 8192, 8193, 20000, 65536, 65537, 131072};
  for (size_t si = 0; si < sizeof segs / sizeof segs[0] - (quick ? 3 : 0); si++)
    for (int t = 0; t < GP_DTYPE_COUNT; t++) {
      size_t seg = segs[si], nseg = seg > 60000 ? 3 : seg > 5000 ? 9 : 4000 / seg + 5;
      cmp_keys((gp_dtype)t, (int)(si + (size_t)t) % SC_PATTERNS, seg * nseg, seg,
               (gp_order)(t & 1), GP_SORT_AUTO, 1);
    }
  cmp_keys(GP_F32, SC_SPECIAL, 250000, 250000, GP_ASCENDING, GP_SORT_AUTO, 1); /* size n */
  if (!quick) {
    cmp_keys(GP_U32, SC_RANDOM, (size_t)1 << 22, 2, GP_DESCENDING, GP_SORT_AUTO, 1);
    cmp_keys(GP_U32, SC_RANDOM, (size_t)1 << 22, 1 << 16, GP_ASCENDING, GP_SORT_AUTO, 1);
  }

  /* boundaries of the kernels: one cluster of tiles of 512 keys (n <= 2^12, 1 to 8
     blocks) and of 4096 keys (2^12 < n <= 2^16, 2 to 16 blocks), the tile of 4096
     (pairs, 8-byte keys) and 8192 (4-byte keys alone) of the multi-launch path above
     2^16, segments of 2^14 .. 2^16 in clusters of tiles of 8192 */
  {
    const size_t tb[] = {31, 32, 33, 255, 256, 257, 2047, 2048, 2049, 4095, 4096, 4097,
                         8191, 8192, 8193, 16383, 16385, 65535, 65536, 65537};
    for (size_t i = 0; i < sizeof tb / sizeof tb[0]; i++) {
      for (int t = 0; t < GP_DTYPE_COUNT; t++)
        cmp_keys((gp_dtype)t, SC_SPECIAL, tb[i], tb[i], (gp_order)((i + (size_t)t) & 1),
                 GP_SORT_BITONIC, 0);
      cmp_keys(GP_F32, SC_SPECIAL, tb[i], tb[i], GP_DESCENDING, GP_SORT_AUTO, 0);
      cmp_keys(GP_U32, SC_FEW, tb[i], tb[i], GP_ASCENDING, GP_SORT_AUTO, 0);
      check_pairs(GP_F64, GP_U64, SC_SPECIAL, tb[i], GP_DESCENDING, GP_SORT_BITONIC);
      check_pairs(GP_U32, GP_F64, SC_FEW, tb[i], GP_ASCENDING, GP_SORT_AUTO);
      check_pairs(GP_F32, GP_I32, SC_SPECIAL, tb[i], (gp_order)(i & 1), GP_SORT_AUTO);
      check_pairs(GP_I64, GP_I32, SC_RANDOM, tb[i], (gp_order)((i + 1) & 1), GP_SORT_AUTO);
    }
    const size_t tsegs[] = {255, 256, 257, 2047, 2049, 4095, 4097, 8191, 8193,
                            16384, 32767, 32768, 32769, 65535};
    for (size_t i = 0; i < sizeof tsegs / sizeof tsegs[0]; i++) {
      size_t seg = tsegs[i], nseg = seg > 30000 ? 3 : seg > 4000 ? 7 : 11;
      cmp_keys(GP_U32, SC_RANDOM, seg * nseg, seg, (gp_order)(i & 1), GP_SORT_AUTO, 1);
      cmp_keys(GP_F32, SC_SPECIAL, seg * nseg, seg, GP_DESCENDING, GP_SORT_AUTO, 1);
      cmp_keys(GP_F64, SC_SPECIAL, seg * nseg, seg, GP_ASCENDING, GP_SORT_AUTO, 1);
    }
  }

  /* device pointers (asynchronous path) */
  check_device_pointers(GP_F32, GP_U32, 100000, GP_ASCENDING, GP_SORT_AUTO, 0);
  check_device_pointers(GP_I64, GP_F64, 65536, GP_DESCENDING, GP_SORT_BITONIC_SEED, 0);
  check_device_pointers(GP_U64, GP_U64, 12345, GP_ASCENDING, GP_SORT_BITONIC, 0);
  check_device_pointers(GP_F64, GP_U32, 64 * 999, GP_DESCENDING, GP_SORT_AUTO, 64);
  if (!quick)
    check_device_pointers(GP_U32, GP_U32, (size_t)1 << 20, GP_ASCENDING, GP_SORT_AUTO, 1 << 14);

  /* one large sort: more than 2^27 keys */
  if (!quick) {
    size_t n = ((size_t)1 << 27) + 12345;
    uint32_t *a = (uint32_t *)malloc(n * 4), *b = (uint32_t *)malloc(n * 4);
    if (a && b) {
      for (size_t i = 0; i < n; i++) a[i] = (uint32_t)(check_rand64() >> 32);
      memcpy(b, a, n * 4);
      CHECK_OK(gpu, gp_sort(gpu, GP_U32, a, n, GP_ASCENDING, GP_SORT_AUTO));
      CHECK_OK(cpu, gp_sort(cpu, GP_U32, b, n, GP_ASCENDING, GP_SORT_AUTO));
      CHECK_MSG(memcmp(a, b, n * 4) == 0, "n = 2^27 + 12345: gpu and cpu differ");
    }
    free(a);
    free(b);
  }

  gp_destroy(gpu);
  gp_destroy(cpu);
  return check_summary("test_sort_gpu");
}
