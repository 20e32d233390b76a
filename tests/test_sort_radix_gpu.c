/* GP_SORT_RADIX on the GPU against the CPU backend's stable radix sort, bit for bit (keys,
 * and the values' order of pairs since both are stable), plus direct checks (ordered,
 * each value with its key, equal keys in input order): every key type, both orders,
 * keys and pairs with 4- and 8-byte values, sizes around the block, tile and digit
 * boundaries, patterns including keys that differ only in the top digit; gp_argsort
 * against an independent stable qsort; offsets segments (empty, single, huge, offsets[0]
 * above 0) and bad offsets; host and device memory. Exits 77 where no GPU is usable.
 * GP_TEST_QUICK=1 keeps sizes small and one data pattern per size (for compute-sanitizer
 * memcheck), GP_TEST_QUICK=2 fewer still (f32 and u64 keys only: racecheck);
 * GP_TEST_LARGE=1 adds one sort of 2^32 + 5 u32 keys (16 GiB, H200); GP_TEST_LARGE=33 one
 * of 2^33 + 5 (32 GiB of keys, as much again of scratch on the GPU, 32 GiB of host memory). */
#include "check.h"
#include "sort_check.h"
#include "core/context.h"
#include "core/key_codec.h"
#include "cuda/sort/radix_policy.h"
#if GP_HAVE_CUDA
#include "cuda/sort/sort_cuda.h"
#endif

static gp_context *gpu, *cpu;
static int quick; /* 0: everything, 1: memcheck-sized, 2: racecheck-sized */

#define RX_TOPDIGIT SC_PATTERNS /* a pattern of this test: keys differ in the top digit only */
#define RX_NPAT (SC_PATTERNS + 1)
static const char *pat_name(int p) { return p < SC_PATTERNS ? sc_pattern_name[p] : "top-digit"; }

static size_t tile_of(gp_dtype t) {
  return (size_t)GP_RX_THREADS * (gp_dtype_size(t) == 4 ? GP_RX_ITEMS4 : GP_RX_ITEMS8);
}
/* a block's tile in the one-cluster sort (radix_cluster.cuh); it sorts up to
   GP_RX_CL_MAX_BLOCKS of them (4-byte keys alone twice as many, in wider tiles) */
static size_t cl_tile_of(void) { return (size_t)GP_RX_CL_THREADS * GP_RX_CL_ITEMS; }

static void fill(gp_dtype t, int p, void *buf, size_t n) {
  if (p < SC_PATTERNS) {
    sc_fill(t, p, buf, n);
    return;
  }
  /* encoded keys share every bit below the top 8; decoded to the type's raw bits */
  gp_key_class c = gp_key_class_of(t);
  uint64_t low = check_rand64();
  for (size_t i = 0; i < n; i++) {
    uint64_t top = check_rand64() >> 56;
    if (gp_dtype_size(t) == 4) {
      uint32_t e = (uint32_t)(top << 24) | ((uint32_t)low & 0x00FFFFFFu);
      uint32_t u = gp_key32_dec(e, c, 0);
      memcpy((char *)buf + i * 4, &u, 4);
    } else {
      uint64_t e = (top << 56) | (low & 0x00FFFFFFFFFFFFFFull);
      uint64_t u = gp_key64_dec(e, c, 0);
      memcpy((char *)buf + i * 8, &u, 8);
    }
  }
}

/* Device memory from a context of its own (the sorting context's workspace may move). */
static void *dev_alloc(gp_context **owner, size_t bytes) {
  void *p = NULL;
  if (gp_create(owner, GP_BACKEND_CUDA) != GP_OK) return NULL;
  gp_ws_layout lay = {0};
  gp_ws_add(&lay, bytes);
  if (gp_ws_reserve(*owner, &lay, &p) != GP_OK) return NULL;
  return p;
}

/* Sorted pairs whose values were input indices: each value names an input position
 * holding its key, and equal keys (equal bits: the encoding is one to one) keep
 * increasing indices. Returns the first failing rank, or n. */
static size_t stable_pairs(const char *orig, const char *k, gp_dtype vt, const char *v,
                           size_t ks, size_t n) {
  size_t vs = gp_dtype_size(vt), prev = 0;
  for (size_t r = 0; r < n; r++) {
    size_t idx = sc_value_index(vt, v + r * vs);
    if (idx >= n || memcmp(orig + idx * ks, k + r * ks, ks) != 0) return r;
    if (r > 0 && memcmp(k + (r - 1) * ks, k + r * ks, ks) == 0 && idx <= prev) return r;
    prev = idx;
  }
  return n;
}

/* One sort (keys alone: vt < 0) on the GPU with `algo` and on the CPU backend. */
static void cmp_sort(gp_dtype kt, int vt, int p, size_t n, gp_order o, gp_sort_algo algo,
                     int device) {
  size_t ks = gp_dtype_size(kt), vs = vt >= 0 ? gp_dtype_size((gp_dtype)vt) : 4;
  char *k = malloc(n * ks + 8), *kc = malloc(n * ks + 8), *orig = malloc(n * ks + 8);
  char *v = malloc(n * vs + 8), *vc = malloc(n * vs + 8);
  fill(kt, p, k, n);
  for (size_t i = 0; i < n && vt >= 0; i++) sc_index_value((gp_dtype)vt, i, v + i * vs);
  memcpy(kc, k, n * ks);
  memcpy(orig, k, n * ks);
  memcpy(vc, v, n * vs);
  gp_context *own = NULL;
  char *dk = k, *dv = v;
  if (device) {
    dk = dev_alloc(&own, n * ks + n * vs + 512);
    CHECK_MSG(dk != NULL, "device allocation failed");
    if (!dk) goto out;
    dv = dk + ((n * ks + 255) & ~(size_t)255);
    CHECK_OK(own, gp_copy_sync(own, dk, k, n * ks));
    CHECK_OK(own, gp_copy_sync(own, dv, v, n * vs));
  }
  gp_status sg = vt < 0 ? gp_sort(gpu, kt, dk, n, o, algo)
                        : gp_sort_pairs(gpu, kt, dk, (gp_dtype)vt, dv, n, o, algo);
  gp_status sc = vt < 0 ? gp_sort(cpu, kt, kc, n, o, GP_SORT_RADIX)
                        : gp_sort_pairs(cpu, kt, kc, (gp_dtype)vt, vc, n, o, GP_SORT_RADIX);
  CHECK_MSG(sg == GP_OK, "gpu sort: %s", gp_last_error(gpu));
  CHECK_MSG(sc == GP_OK, "cpu sort: %s", gp_last_error(cpu));
  if (device) {
    CHECK_OK(gpu, gp_synchronize(gpu));
    CHECK_OK(own, gp_copy_sync(own, k, dk, n * ks));
    CHECK_OK(own, gp_copy_sync(own, v, dv, n * vs));
  }
  {
    const char *what = vt < 0 ? "keys" : gp_dtype_name((gp_dtype)vt);
    size_t d = sc_first_diff(k, kc, n, ks);
    CHECK_MSG(d == n, "%s/%s %s %s %s n=%zu%s: keys differ from cpu first at %zu",
              gp_dtype_name(kt), what, pat_name(p), o ? "desc" : "asc",
              gp_sort_algo_name(algo), n, device ? " (device)" : "", d);
    CHECK_MSG(sc_ordered(kt, k, n, n ? n : 1, o), "%s %s n=%zu: not ordered",
              gp_dtype_name(kt), pat_name(p), n);
    if (vt >= 0) {
      d = sc_first_diff(v, vc, n, vs);
      CHECK_MSG(d == n, "%s/%s %s %s n=%zu%s: values differ from cpu first at %zu",
                gp_dtype_name(kt), what, pat_name(p), o ? "desc" : "asc", n,
                device ? " (device)" : "", d);
      d = stable_pairs(orig, k, (gp_dtype)vt, v, ks, n);
      CHECK_MSG(d == n, "%s/%s %s %s n=%zu: not stable (or a value left its key) at %zu",
                gp_dtype_name(kt), what, pat_name(p), o ? "desc" : "asc", n, d);
    }
  }
out:
  gp_destroy(own);
  free(k); free(kc); free(orig); free(v); free(vc);
}

/* gp_sort_copy from `in` to `out` on the GPU (where: bit 0 in on the device, bit 1 out)
 * against the CPU backend's gp_sort; `in` must come back unchanged. */
static void cmp_sort_copy(gp_dtype kt, int p, size_t n, gp_order o, gp_sort_algo algo, int where) {
  const size_t ks = gp_dtype_size(kt), bytes = n * ks + 8;
  char *in = malloc(bytes), *out = malloc(bytes), *ref = malloc(bytes), *back = malloc(bytes);
  char *orig = malloc(bytes);
  fill(kt, p, in, n);
  memcpy(ref, in, n * ks);
  memcpy(orig, in, n * ks);
  memset(out, 0x5a, bytes);
  gp_context *own = NULL;
  char *di = in, *dout = out;
  if (where) {
    char *d = dev_alloc(&own, 2 * bytes + 512);
    CHECK_MSG(d != NULL, "device allocation failed");
    if (!d) goto out;
    if (where & 1) {
      di = d;
      CHECK_OK(own, gp_copy_sync(own, di, in, n * ks));
    }
    if (where & 2) {
      dout = d + ((bytes + 255) & ~(size_t)255);
      CHECK_OK(own, gp_copy_sync(own, dout, out, n * ks));
    }
  }
  CHECK_MSG(gp_sort_copy(gpu, kt, di, dout, n, o, algo) == GP_OK, "gp_sort_copy: %s",
            gp_last_error(gpu));
  CHECK_OK(cpu, gp_sort(cpu, kt, ref, n, o, GP_SORT_RADIX));
  CHECK_OK(gpu, gp_synchronize(gpu));
  if (where & 2) CHECK_OK(own, gp_copy_sync(own, out, dout, n * ks));
  if (where & 1) CHECK_OK(own, gp_copy_sync(own, back, di, n * ks));
  else memcpy(back, di, n * ks);
  {
    size_t d = sc_first_diff(out, ref, n, ks);
    CHECK_MSG(d == n, "sort_copy %s %s %s %s n=%zu (in %s, out %s): differs from cpu first at %zu",
              gp_dtype_name(kt), pat_name(p), o ? "desc" : "asc", gp_sort_algo_name(algo), n,
              where & 1 ? "device" : "host", where & 2 ? "device" : "host", d);
    d = sc_first_diff(back, orig, n, ks);
    CHECK_MSG(d == n, "sort_copy %s %s n=%zu: the input changed at %zu", gp_dtype_name(kt),
              pat_name(p), n, d);
  }
out:
  gp_destroy(own);
  free(in); free(out); free(ref); free(back); free(orig);
}

/* ---- argsort ---------------------------------------------------------------------- */
static const char *ref_keys;
static size_t ref_es;
static sc_cmp_fn ref_cmp;
static int ref_desc;
static int ref_order(const void *pa, const void *pb) {
  size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
  int c = ref_cmp(ref_keys + a * ref_es, ref_keys + b * ref_es);
  if (ref_desc) c = -c;
  return c ? c : (a > b) - (a < b); /* ties by input position: stable */
}

static void check_argsort(gp_dtype kt, gp_dtype it, int p, size_t n, gp_order o, int device) {
  size_t ks = gp_dtype_size(kt), is = gp_dtype_size(it);
  char *k = malloc(n * ks + 8), *orig = malloc(n * ks + 8);
  char *ix = malloc(n * is + 8), *ixc = malloc(n * is + 8);
  size_t *ref = malloc(n * sizeof(size_t) + 8);
  fill(kt, p, k, n);
  memcpy(orig, k, n * ks);
  gp_context *own = NULL;
  char *dk = k, *di = ix;
  if (device) {
    dk = dev_alloc(&own, n * ks + n * is + 512);
    CHECK_MSG(dk != NULL, "device allocation failed");
    if (!dk) goto out;
    di = dk + ((n * ks + 255) & ~(size_t)255);
    CHECK_OK(own, gp_copy_sync(own, dk, k, n * ks));
  }
  CHECK_OK(gpu, gp_argsort(gpu, kt, dk, it, di, n, o));
  CHECK_OK(cpu, gp_argsort(cpu, kt, orig, it, ixc, n, o));
  if (device) {
    CHECK_OK(gpu, gp_synchronize(gpu));
    CHECK_OK(own, gp_copy_sync(own, k, dk, n * ks));
    CHECK_OK(own, gp_copy_sync(own, ix, di, n * is));
  }
  CHECK_MSG(memcmp(k, orig, n * ks) == 0, "argsort %s n=%zu: keys changed", gp_dtype_name(kt), n);
  size_t d = sc_first_diff(ix, ixc, n, is);
  CHECK_MSG(d == n, "argsort %s/%s %s %s n=%zu%s: indices differ from cpu first at %zu",
            gp_dtype_name(kt), gp_dtype_name(it), pat_name(p), o ? "desc" : "asc", n,
            device ? " (device)" : "", d);
  for (size_t i = 0; i < n; i++) ref[i] = i;
  ref_keys = orig;
  ref_es = ks;
  ref_cmp = sc_cmp(kt);
  ref_desc = o == GP_DESCENDING;
  qsort(ref, n, sizeof(size_t), ref_order);
  for (d = 0; d < n; d++)
    if (sc_value_index(it, ix + d * is) != ref[d]) break;
  CHECK_MSG(d == n, "argsort %s/%s %s %s n=%zu: differs from the stable reference at %zu",
            gp_dtype_name(kt), gp_dtype_name(it), pat_name(p), o ? "desc" : "asc", n, d);
out:
  gp_destroy(own);
  free(k); free(orig); free(ix); free(ixc); free(ref);
}

/* ---- segments by offsets ---------------------------------------------------------- */
static void check_offsets(const char *name, gp_dtype kt, int vt, const uint64_t *off,
                          size_t nseg, gp_order o, int p, int device) {
  size_t n = nseg ? (size_t)off[nseg] : 0;
  size_t ks = gp_dtype_size(kt), vs = vt >= 0 ? gp_dtype_size((gp_dtype)vt) : 4;
  char *k = malloc(n * ks + 8), *kc = malloc(n * ks + 8), *orig = malloc(n * ks + 8);
  char *v = malloc(n * vs + 8), *vc = malloc(n * vs + 8);
  fill(kt, p, k, n);
  for (size_t i = 0; i < n && vt >= 0; i++) sc_index_value((gp_dtype)vt, i, v + i * vs);
  memcpy(kc, k, n * ks);
  memcpy(orig, k, n * ks);
  memcpy(vc, v, n * vs);
  gp_context *own = NULL;
  char *dk = k, *dv = v;
  const uint64_t *doff = off;
  if (device) {
    size_t ob = (nseg + 1) * 8, kb = (n * ks + 255) & ~(size_t)255;
    size_t vb = (n * vs + 255) & ~(size_t)255;
    dk = dev_alloc(&own, kb + vb + ob + 256);
    CHECK_MSG(dk != NULL, "device allocation failed");
    if (!dk) goto out;
    dv = dk + kb;
    doff = (const uint64_t *)(dv + vb);
    CHECK_OK(own, gp_copy_sync(own, dk, k, n * ks));
    CHECK_OK(own, gp_copy_sync(own, dv, v, n * vs));
    CHECK_OK(own, gp_copy_sync(own, (void *)doff, off, ob));
  }
  if (vt < 0) {
    CHECK_OK(gpu, gp_sort_segments_offsets(gpu, kt, dk, doff, nseg, o));
    CHECK_OK(cpu, gp_sort_segments_offsets(cpu, kt, kc, off, nseg, o));
  } else {
    CHECK_OK(gpu, gp_sort_pairs_segments_offsets(gpu, kt, dk, (gp_dtype)vt, dv, doff, nseg, o));
    CHECK_OK(cpu, gp_sort_pairs_segments_offsets(cpu, kt, kc, (gp_dtype)vt, vc, off, nseg, o));
  }
  if (device) {
    CHECK_OK(gpu, gp_synchronize(gpu));
    CHECK_OK(own, gp_copy_sync(own, k, dk, n * ks));
    CHECK_OK(own, gp_copy_sync(own, v, dv, n * vs));
  }
  {
    size_t d = sc_first_diff(k, kc, n, ks);
    CHECK_MSG(d == n, "offsets %s %s/%s %s %s%s: keys differ from cpu first at %zu", name,
              gp_dtype_name(kt), vt < 0 ? "keys" : gp_dtype_name((gp_dtype)vt), pat_name(p),
              o ? "desc" : "asc", device ? " (device)" : "", d);
    if (vt >= 0) {
      d = sc_first_diff(v, vc, n, vs);
      CHECK_MSG(d == n, "offsets %s %s/%s: values differ from cpu first at %zu", name,
                gp_dtype_name(kt), gp_dtype_name((gp_dtype)vt), d);
    }
    size_t bad = nseg;
    for (size_t s = 0; s < nseg && bad == nseg; s++) {
      size_t len = (size_t)(off[s + 1] - off[s]);
      if (len && !sc_ordered(kt, k + off[s] * ks, len, len, o)) bad = s;
    }
    CHECK_MSG(bad == nseg, "offsets %s %s: segment %zu not ordered", name, gp_dtype_name(kt), bad);
    CHECK_MSG(!nseg || memcmp(k, orig, (size_t)off[0] * ks) == 0,
              "offsets %s: keys below offsets[0] changed", name);
  }
out:
  gp_destroy(own);
  free(k); free(kc); free(orig); free(v); free(vc);
}

/* Offsets from a list of sizes, starting at `start`. */
static uint64_t *offsets_of(const size_t *sizes, size_t nseg, uint64_t start) {
  uint64_t *off = malloc((nseg + 1) * 8);
  off[0] = start;
  for (size_t i = 0; i < nseg; i++) off[i + 1] = off[i] + sizes[i];
  return off;
}

static void check_offsets_suite(void) {
  const size_t T = tile_of(GP_U32), T8 = tile_of(GP_U64);
  const size_t huge = quick ? 3 * T + 1 : ((size_t)1 << 17) + 1;
  const size_t M = GP_RX_MID_THREADS * GP_RX_MID_ITEMS;
  /* mixed: empty, single, around the warp groups (8, 16, 32), the small (256) and middle
     (2048) blocks and the tiles, a huge one */
  size_t mixed[] = {0, 1, 2, 0, 31, 32, 33, 255, 256, 257, M - 1, M, M + 1, T8 - 1, T8,
                    T8 + 1, T - 1, T, T + 1, 3, 0, huge, 7, 0, 8, 9, 15, 16, 17, 4, 12};
  size_t nm = sizeof mixed / sizeof mixed[0];
  uint64_t *off = offsets_of(mixed, nm, 5); /* keys 0..4 belong to no segment */
  for (int kt = 0; kt < GP_DTYPE_COUNT; kt += quick >= 2 ? 5 : 1)
    for (int vt = -1; vt < GP_DTYPE_COUNT; vt += quick ? 7 : 3) {
      gp_order o = (gp_order)((kt + vt + 1) & 1);
      check_offsets("mixed", (gp_dtype)kt, vt, off, nm, o, (kt + vt + 1) % RX_NPAT, 0);
    }
  check_offsets("mixed", GP_F32, GP_U32, off, nm, GP_DESCENDING, SC_SPECIAL, 1);
  check_offsets("mixed", GP_U64, -1, off, nm, GP_ASCENDING, RX_TOPDIGIT, 1);
  free(off);

  /* many small segments of 0..40 keys, and sizes of a power law */
  size_t ns = quick ? 300 : 5000;
  size_t *sz = malloc(ns * sizeof *sz);
  for (size_t i = 0; i < ns; i++) sz[i] = (size_t)(check_rand64() % 41);
  off = offsets_of(sz, ns, 0);
  check_offsets("small", GP_U32, -1, off, ns, GP_ASCENDING, SC_RANDOM, 0);
  check_offsets("small", GP_F64, GP_U32, off, ns, GP_DESCENDING, SC_FEW, 0);
  check_offsets("small", GP_I32, GP_U64, off, ns, GP_ASCENDING, SC_SPECIAL, 1);
  free(off);
  for (size_t i = 0; i < ns; i++) {
    uint64_t r = check_rand64() % 100;
    sz[i] = (size_t)(r < 70 ? 1 + check_rand64() % 8 : r < 97 ? 9 + check_rand64() % 2000
                                                               : 2000 + check_rand64() % (quick ? 10000 : 40000));
  }
  off = offsets_of(sz, quick ? ns : 800, 0);
  check_offsets("power-law", GP_F32, GP_U32, off, quick ? ns : 800, GP_ASCENDING, SC_RANDOM, 0);
  check_offsets("power-law", GP_I64, -1, off, quick ? ns : 800, GP_DESCENDING, SC_SPECIAL, 0);
  free(off);
  free(sz);

  /* many segments above one tile between small ones: 4-byte keys sort those together as
     composites of segment and key (radix.cu, GP_RX_SEG_COMPOSITE_MIN); 8-byte keys one by
     one */
  {
    const size_t nl = quick ? 18 : 40;
    size_t *ls = malloc(2 * nl * sizeof *ls);
    for (size_t i = 0; i < nl; i++) {
      ls[2 * i] = T + 1 + check_rand64() % (quick ? T : 3 * T);
      ls[2 * i + 1] = check_rand64() % 300;
    }
    off = offsets_of(ls, 2 * nl, 3);
    check_offsets("many-large", GP_U32, GP_U32, off, 2 * nl, GP_ASCENDING, SC_RANDOM, 0);
    check_offsets("many-large", GP_F32, -1, off, 2 * nl, GP_DESCENDING, SC_SPECIAL, 1);
    check_offsets("many-large", GP_I32, GP_U64, off, 2 * nl, GP_DESCENDING, SC_FEW, 0);
    check_offsets("many-large", GP_F32, GP_I64, off, 2 * nl, GP_ASCENDING, SC_FEW, 1);
    check_offsets("many-large", GP_U64, GP_U32, off, 2 * nl, GP_ASCENDING, SC_RANDOM, 0);
    free(off);
    free(ls);
  }

  /* above a tile, some within a cluster's reach (radix_cluster.cuh: grouped by the blocks
     they need) and about 16 beyond it (the composites of the rest) */
  if (!quick) {
    const size_t CM = (size_t)GP_RX_CL_THREADS * GP_RX_CL_ITEMS * GP_RX_CL_MAX_BLOCKS, nl = 40;
    size_t *ls = malloc(nl * sizeof *ls);
    for (size_t i = 0; i < nl; i++)
      ls[i] = i % 5 == 4 ? (size_t)(check_rand64() % 100)
              : i % 5 < 2 ? CM - 2 + (size_t)(check_rand64() % 5000)
                          : T + 1 + (size_t)(check_rand64() % CM);
    off = offsets_of(ls, nl, 1);
    check_offsets("cluster-and-rest", GP_U32, -1, off, nl, GP_ASCENDING, SC_RANDOM, 0);
    check_offsets("cluster-and-rest", GP_F32, GP_U32, off, nl, GP_DESCENDING, SC_FEW, 1);
    check_offsets("cluster-and-rest", GP_F64, GP_U64, off, nl, GP_ASCENDING, SC_SPECIAL, 0);
    free(off);
    free(ls);
  }

  /* large segments on both sides of the small-shape boundary, the larger first: the
     scratch of the smaller one is the bigger (test_radix_scratch) */
  if (!quick) {
    const size_t B = (size_t)1 << GP_RX_SMALL_SWEEP_LOG2;
    size_t edge[] = {B + 1, B, 3, B - 1};
    off = offsets_of(edge, 4, 0);
    check_offsets("shape-edge", GP_U32, GP_U32, off, 4, GP_ASCENDING, SC_RANDOM, 0);
    check_offsets("shape-edge", GP_U64, -1, off, 4, GP_DESCENDING, SC_FEW, 0);
    free(off);
  }

  /* one segment of all keys; all segments empty; no segments */
  size_t one[] = {quick ? 2 * T + 3 : ((size_t)1 << 20) + 3};
  off = offsets_of(one, 1, 0);
  check_offsets("one", GP_U32, GP_U32, off, 1, GP_ASCENDING, SC_RANDOM, 0);
  check_offsets("one", GP_F64, -1, off, 1, GP_DESCENDING, SC_SPECIAL, 0);
  free(off);
  size_t empty[] = {0, 0, 0, 0};
  off = offsets_of(empty, 4, 3);
  check_offsets("empty", GP_I32, GP_I64, off, 4, GP_ASCENDING, SC_RANDOM, 0);
  free(off);
  CHECK_OK(gpu, gp_sort_segments_offsets(gpu, GP_U32, NULL, NULL, 0, GP_ASCENDING));
}

/* Bad offsets fail with the index named, before touching keys, values or offsets. */
static void check_bad_offsets(gp_context *ctx, int device) {
  enum { N = 20 };
  uint32_t keys[N], vals[N], k0[N], v0[N];
  for (int i = 0; i < N; i++) keys[i] = (uint32_t)(N - i) * 7u, vals[i] = (uint32_t)i;
  memcpy(k0, keys, sizeof keys);
  memcpy(v0, vals, sizeof vals);
  uint64_t off[] = {0, 5, 10, 7, 20};
  const uint64_t *o = off;
  gp_context *own = NULL;
  if (device) {
    void *d = dev_alloc(&own, sizeof off);
    CHECK_MSG(d != NULL, "device allocation failed");
    if (!d) { gp_destroy(own); return; }
    CHECK_OK(own, gp_copy_sync(own, d, off, sizeof off));
    o = (const uint64_t *)d;
  }
  CHECK_STATUS(gp_sort_segments_offsets(ctx, GP_U32, keys, o, 4, GP_ASCENDING),
               GP_ERR_INVALID_ARGUMENT);
  CHECK_ERROR_MENTIONS(ctx, "offsets[2]");
  CHECK_STATUS(gp_sort_pairs_segments_offsets(ctx, GP_U32, keys, GP_U32, vals, o, 4, GP_DESCENDING),
               GP_ERR_INVALID_ARGUMENT);
  CHECK_ERROR_MENTIONS(ctx, "offsets[2]");
  CHECK_STATUS(gp_sort_segments_offsets(ctx, GP_U32, keys, NULL, 4, GP_ASCENDING),
               GP_ERR_INVALID_ARGUMENT);
  CHECK(memcmp(keys, k0, sizeof keys) == 0);
  CHECK(memcmp(vals, v0, sizeof vals) == 0);
  gp_destroy(own);
}

static void check_bad_input(void) {
  uint32_t keys[8] = {5, 3, 1, 7, 2, 2, 9, 0}, k0[8];
  uint32_t idx[8];
  memcpy(k0, keys, sizeof keys);
  CHECK_STATUS(gp_argsort(gpu, GP_U32, keys, GP_I32, idx, 8, GP_ASCENDING), GP_ERR_INVALID_ARGUMENT);
  CHECK_ERROR_MENTIONS(gpu, "index_type");
  CHECK_STATUS(gp_argsort(gpu, GP_U32, keys, GP_U32, NULL, 8, GP_ASCENDING), GP_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(gp_argsort(gpu, GP_U32, keys, GP_U32, keys, 8, GP_ASCENDING), GP_ERR_INVALID_ARGUMENT);
  CHECK_ERROR_MENTIONS(gpu, "overlap");
  CHECK_STATUS(gp_sort(gpu, GP_U32, keys, 8, GP_ASCENDING, (gp_sort_algo)(GP_SORT_RADIX + 1)),
               GP_ERR_INVALID_ARGUMENT);
  CHECK(memcmp(keys, k0, sizeof keys) == 0);
  uint32_t out[8];
  CHECK_STATUS(gp_sort_copy(gpu, GP_U32, keys, keys + 1, 7, GP_ASCENDING, GP_SORT_AUTO),
               GP_ERR_INVALID_ARGUMENT);
  CHECK_ERROR_MENTIONS(gpu, "overlap");
  CHECK_STATUS(gp_sort_copy(gpu, GP_U32, NULL, out, 8, GP_ASCENDING, GP_SORT_AUTO),
               GP_ERR_INVALID_ARGUMENT);
  CHECK_ERROR_MENTIONS(gpu, "in is NULL");
  CHECK_STATUS(gp_sort_copy(gpu, GP_U32, keys, NULL, 8, GP_ASCENDING, GP_SORT_AUTO),
               GP_ERR_INVALID_ARGUMENT);
  CHECK_ERROR_MENTIONS(gpu, "out is NULL");
  CHECK_STATUS(gp_sort_copy(gpu, GP_U32, keys, out, 8, (gp_order)2, GP_SORT_AUTO),
               GP_ERR_INVALID_ARGUMENT);
  CHECK(memcmp(keys, k0, sizeof keys) == 0);
  CHECK_OK(gpu, gp_sort_copy(gpu, GP_U32, keys, out, 8, GP_DESCENDING, GP_SORT_AUTO));
  CHECK(out[0] == 9 && out[3] == 3 && out[7] == 0);
  CHECK(memcmp(keys, k0, sizeof keys) == 0);
  CHECK_OK(gpu, gp_sort_copy(gpu, GP_U32, keys, keys, 8, GP_ASCENDING, GP_SORT_AUTO)); /* in place */
  CHECK(keys[0] == 0 && keys[4] == 3 && keys[7] == 9);
  memcpy(keys, k0, sizeof keys);
  gp_sort_algo a = GP_SORT_AUTO;
  CHECK_OK(gpu, gp_sort_algo_from_name("radix", &a));
  CHECK(a == GP_SORT_RADIX);
  CHECK(strcmp(gp_sort_algo_name(GP_SORT_RADIX), "radix") == 0);
}

/* 2^32 + 5 u32 keys: key i = i * C mod 2^32 (C odd), so every 32-bit value appears once
   and the first five keys twice; the sorted result is known without a reference. */
static void check_large(int log2n) {
  /* keys i * C (mod 2^32), C odd: every 32-bit value k = 2^(log2n-32) times, and the 5
     values j * C (j < 5) once more */
  const size_t n = ((size_t)1 << log2n) + 5;
  const uint64_t k = (uint64_t)1 << (log2n - 32);
  const uint32_t C = 2654435761u;
  uint32_t *a = malloc(n * 4);
  if (!a) {
    fprintf(stderr, "test_sort_radix_gpu: no host memory for the large sort (skipped)\n");
    return;
  }
  for (size_t i = 0; i < n; i++) a[i] = (uint32_t)i * C;
  CHECK_OK(gpu, gp_sort(gpu, GP_U32, a, n, GP_ASCENDING, GP_SORT_RADIX));
  uint32_t dup[5];
  for (int j = 0; j < 5; j++) dup[j] = (uint32_t)j * C;
  size_t r = 0, bad = n;
  for (uint64_t v = 0; v < ((uint64_t)1 << 32) && bad == n; v++) {
    uint64_t times = k;
    for (int j = 0; j < 5; j++) times += dup[j] == (uint32_t)v;
    for (uint64_t c = 0; c < times; c++, r++)
      if (a[r] != (uint32_t)v) { bad = r; break; }
  }
  CHECK_MSG(bad == n && r == n, "2^%d + 5 keys: wrong at %zu", log2n, bad);
  free(a);
}

/* Device keys filling 55% of the GPU: the radix sort's scratch (as much again) cannot
   fit, so the call fails with GP_ERR_OUT_OF_MEMORY naming the bytes, keys untouched
   (checked at a few written places; the rest is not initialized). */
static void check_oom(void) {
  gp_device_info info;
  if (gp_get_device_info(gpu, &info) != GP_OK || info.global_mem_bytes == 0) return;
  size_t n = (size_t)((double)info.global_mem_bytes * 0.55) / 8;
  gp_context *own = NULL;
  char *d = dev_alloc(&own, n * 8);
  CHECK_MSG(d != NULL, "device allocation of %zu bytes failed", n * 8);
  if (d) {
    const size_t at[] = {0, 1, n / 2, n - 1};
    uint64_t v[4] = {42, 7, 0xFFFFFFFFFFFFFFFFull, 3}, got;
    for (int i = 0; i < 4; i++) CHECK_OK(own, gp_copy_sync(own, d + at[i] * 8, &v[i], 8));
    CHECK_STATUS(gp_sort(gpu, GP_U64, d, n, GP_ASCENDING, GP_SORT_RADIX), GP_ERR_OUT_OF_MEMORY);
    CHECK_ERROR_MENTIONS(gpu, "bytes");
    for (int i = 0; i < 4; i++) {
      CHECK_OK(own, gp_copy_sync(own, &got, d + at[i] * 8, 8));
      CHECK_MSG(got == v[i], "out of memory: key %zu changed", at[i]);
    }
  }
  gp_destroy(own);
}

/* GP_TEST_CLUSTER=1: the one-cluster sort alone, a few sizes each (for compute-sanitizer's
   racecheck, under which the whole suite does not finish): single sorts, argsorts and
   segments by offsets that clusters of 3, 6 and 10 blocks take */
static void check_cluster_only(void) {
  const size_t C = cl_tile_of(), T = tile_of(GP_U32);
  const size_t sizes[] = {2 * C + 1, 3 * C - 1, 9 * C + 7};
  for (size_t i = 0; i < 3; i++) {
    cmp_sort(GP_U32, -1, SC_RANDOM, sizes[i], GP_ASCENDING, GP_SORT_RADIX, 1);
    cmp_sort(GP_F32, GP_U32, SC_FEW, sizes[i], GP_DESCENDING, GP_SORT_RADIX, 0);
    cmp_sort(GP_U64, GP_U64, SC_RANDOM, sizes[i], GP_ASCENDING, GP_SORT_RADIX, 1);
    check_argsort(GP_I32, GP_U64, SC_FEW, sizes[i], (gp_order)(i & 1), 1);
  }
  const size_t segs[] = {T + 1, 5, 2 * T + 3, 0, 3 * C - 7, 300};
  uint64_t *off = offsets_of(segs, 6, 2);
  check_offsets("cluster", GP_U32, -1, off, 6, GP_ASCENDING, SC_RANDOM, 0);
  check_offsets("cluster", GP_F32, GP_U32, off, 6, GP_DESCENDING, SC_FEW, 1);
  check_offsets("cluster", GP_U64, GP_U64, off, 6, GP_ASCENDING, SC_SPECIAL, 0);
  free(off);
}

/* AUTO's small sorts, pairs and argsorts: the whole-GPU rank sort (grid_rank.cu) and the
 * one-cluster rank sort (rank_sort.cu) on sm_90+ (checked to be offered where radix_policy.h
 * says; AUTO asks the whole-GPU one first), the other paths below sm_90 (the sm_89 mode);
 * sizes around the cluster sort's chunks of 64 / 128 / 256 keys and clusters of 8 / 16
 * blocks, and the whole-GPU sort's blocks of 32 .. 8 keys. */
#if GP_HAVE_CUDA
static int grs_range(size_t n, size_t lo, size_t hi) { return n >= 2 && n > lo && n <= hi; }
#endif

static void check_rank_sort(void) {
  const size_t sizes[] = {2, 3, 31, 32, 33, 63, 64, 65, 100, 127, 128, 129, 255, 256, 257,
                          511, 512, 513, 1000, 1023, 1024, 1025, 1500, 2047, 2048, 2049,
                          3000, 4095, 4096};
  const size_t nsz = sizeof sizes / sizeof sizes[0];
  const int vts[] = {GP_U32, GP_F64, GP_I64};
  for (int kt = 0; kt < GP_DTYPE_COUNT; kt++) {
    if (quick >= 2 && kt != GP_F32 && kt != GP_U64) continue;
    for (size_t i = 0; i < nsz; i++) {
      const size_t n = sizes[i];
      if (quick && i % 3 != (size_t)kt % 3 && n != 2048 && n != 4096) continue;
#if GP_HAVE_CUDA
      const int on90 = gpu->info.arch >= 90;
      CHECK_MSG(gp_cuda_rank_sort_takes(gpu, (gp_dtype)kt, 0, 0, n) ==
                    (on90 && n <= ((size_t)1 << GP_RK_KEYS_LOG2)),
                "rank sort of %zu %s keys: taken where it should not be, or not where it should",
                n, gp_dtype_name((gp_dtype)kt));
      CHECK_MSG(gp_cuda_rank_sort_takes(gpu, (gp_dtype)kt, 8, 1, n) ==
                    (on90 && n <= ((size_t)1 << GP_RK_PAIRS_LOG2)),
                "rank argsort of %zu %s keys: taken where it should not be, or not where it should",
                n, gp_dtype_name((gp_dtype)kt));
      CHECK_MSG(gp_cuda_grid_rank_takes(gpu, (gp_dtype)kt, 0, GP_GRS_IN_PLACE, n) ==
                    (on90 && grs_range(n, GP_GRS_KEYS_MIN, GP_GRS_KEYS_MAX)),
                "whole-GPU rank sort of %zu %s keys: offered where it should not be, or not where it should",
                n, gp_dtype_name((gp_dtype)kt));
      CHECK_MSG(gp_cuda_grid_rank_takes(gpu, (gp_dtype)kt, 4, GP_GRS_IN_PLACE, n) ==
                    (on90 && grs_range(n, GP_GRS_PAIRS_MIN, GP_GRS_PAIRS_MAX)),
                "whole-GPU rank sort of %zu %s pairs: offered where it should not be, or not where it should",
                n, gp_dtype_name((gp_dtype)kt));
      CHECK_MSG(gp_cuda_grid_rank_takes(gpu, (gp_dtype)kt, 8, GP_GRS_ARGSORT, n) ==
                    (on90 && grs_range(n, GP_GRS_ARGSORT_MIN, GP_GRS_ARGSORT_MAX)),
                "whole-GPU rank argsort of %zu %s keys: offered where it should not be, or not where it should",
                n, gp_dtype_name((gp_dtype)kt));
      CHECK_MSG(gp_cuda_grid_rank_takes(gpu, (gp_dtype)kt, 0, GP_GRS_COPY, n) ==
                    (on90 && grs_range(n, GP_GRS_COPY_MIN, GP_GRS_COPY_MAX)),
                "whole-GPU rank sort_copy of %zu %s keys: offered where it should not be, or not where it should",
                n, gp_dtype_name((gp_dtype)kt));
#endif
      const int p = (int)((i + (size_t)kt) % RX_NPAT);
      const gp_order o = (gp_order)((i + (size_t)kt) & 1);
      const int dev = (int)((i / 2) & 1);
      cmp_sort((gp_dtype)kt, -1, p, n, o, GP_SORT_AUTO, dev);
      for (int v = 0; v < 3; v++)
        cmp_sort((gp_dtype)kt, vts[v], (p + v + 1) % RX_NPAT, n, (gp_order)(o ^ (v & 1)),
                 GP_SORT_AUTO, dev ^ (v & 1));
      check_argsort((gp_dtype)kt, GP_U32, (p + 4) % RX_NPAT, n, o, dev);
      check_argsort((gp_dtype)kt, GP_U64, (p + 5) % RX_NPAT, n, (gp_order)!o, !dev);
      /* both arrays on the GPU (the rank sort's one launch), and one placement more */
      cmp_sort_copy((gp_dtype)kt, (p + 2) % RX_NPAT, n, (gp_order)!o, GP_SORT_AUTO, 3);
      cmp_sort_copy((gp_dtype)kt, (p + 3) % RX_NPAT, n, o, GP_SORT_AUTO, (int)(i % 3));
    }
    /* every pattern at a 16-block cluster's sizes */
    const size_t big[] = {2048, 3001};
    for (size_t i = 0; i < 2 && !quick; i++)
      for (int p = 0; p < RX_NPAT; p++) {
        cmp_sort((gp_dtype)kt, -1, p, big[i], (gp_order)(p & 1), GP_SORT_AUTO, 1);
        cmp_sort((gp_dtype)kt, GP_U32, p, big[i], (gp_order)!(p & 1), GP_SORT_AUTO, 0);
        check_argsort((gp_dtype)kt, GP_U32, p, big[i], (gp_order)(p & 1), 1);
        cmp_sort_copy((gp_dtype)kt, p, big[i], (gp_order)!(p & 1), GP_SORT_AUTO, 3);
      }
    /* past the rank sort: the one-cluster bitonic sort reading in (to 2^16), then a copy
       on the stream and the sort in place; GP_SORT_BITONIC, GP_SORT_RADIX and host arrays
       take the copy too */
    const size_t far[] = {4097, 5000, 65536, 70001};
    for (size_t i = 0; i < 4; i++) {
      if (quick && i == 2) continue;
      cmp_sort_copy((gp_dtype)kt, (int)(i + (size_t)kt) % RX_NPAT, far[i], (gp_order)(i & 1),
                    GP_SORT_AUTO, 3);
      cmp_sort_copy((gp_dtype)kt, (int)(i + (size_t)kt + 1) % RX_NPAT, far[i], (gp_order)!(i & 1),
                    i & 1 ? GP_SORT_RADIX : GP_SORT_BITONIC, (int)(i % 3 + 1));
    }
    cmp_sort_copy((gp_dtype)kt, SC_SPECIAL, 3000, GP_DESCENDING, GP_SORT_BITONIC, 3);
  }
}

int main(void) {
  gpu = check_gpu_context_or_skip("test_sort_radix_gpu");
  cpu = check_cpu_context();
  check_seed(1212);
  const char *q = getenv("GP_TEST_QUICK"), *l = getenv("GP_TEST_LARGE");
  quick = q ? atoi(q) : 0;
  const char *cl = getenv("GP_TEST_CLUSTER");
  if (cl && atoi(cl) != 0) {
    check_cluster_only();
    gp_destroy(gpu);
    gp_destroy(cpu);
    return check_summary("test_sort_radix_gpu (GP_TEST_CLUSTER)");
  }
  check_bad_input();
  check_rank_sort();
  check_bad_offsets(gpu, 0);
  check_bad_offsets(gpu, 1);
  check_bad_offsets(cpu, 0);

  for (int kt = 0; kt < GP_DTYPE_COUNT; kt++) {
    if (quick >= 2 && kt != GP_F32 && kt != GP_U64) continue;
    const size_t T = tile_of((gp_dtype)kt), S = GP_RX_SMALL_THREADS * GP_RX_SMALL_ITEMS;
    const size_t M = GP_RX_MID_THREADS * GP_RX_MID_ITEMS;
    const size_t C = cl_tile_of(), CM = C * GP_RX_CL_MAX_BLOCKS;
    const size_t sizes[] = {0, 1, 2, 5, 8, 9, 16, 17, 31, 32, 33, S - 1, S, S + 1, 1023, 1025, M, M + 1, T - 1, T, T + 1,
                            C + 1, 2 * C + 1, 2 * T + 1, 3 * C - 1, 9 * C + 7, CM - 1, CM, CM + 1,
                            ((size_t)1 << 17) - 1, ((size_t)1 << 17) + 1,
                            (size_t)1 << 19, ((size_t)1 << 19) + 1, ((size_t)1 << 20) + 3};
    const size_t nsz = sizeof sizes / sizeof sizes[0];
    const int vts[] = {-1, GP_U32, GP_F64, GP_I32, GP_U64}; /* keys, 4- and 8-byte values */
    for (size_t i = 0; i < nsz; i++) {
      size_t n = sizes[i];
      if (quick && n > 2 * T + 1) continue;
      for (int o = 0; o < 2; o++)
        for (int v = 0; v < 5; v++) {
          if (quick && v > 2) continue;
          /* every pattern up to a tile, one rotating pattern above (and in quick runs) */
          for (int p = 0; p < RX_NPAT; p++) {
            if ((quick || n > T + 1) &&
                p != (int)((i + (size_t)o * 3 + (size_t)v + (size_t)kt) % RX_NPAT))
              continue;
            cmp_sort((gp_dtype)kt, vts[v], p, n, (gp_order)o, GP_SORT_RADIX, 0);
          }
        }
    }
    /* AUTO: pairs are stable on every path */
    cmp_sort((gp_dtype)kt, GP_U32, SC_FEW, 1000, GP_ASCENDING, GP_SORT_AUTO, 0);
    cmp_sort((gp_dtype)kt, GP_U64, SC_EQUAL, quick ? 3 * T : 70000, GP_DESCENDING, GP_SORT_AUTO, 0);
    /* AUTO pairs of 4-byte keys from 2049 to 2^12 sort (key, index) composites by bitonic */
    const size_t csz[] = {2, 300, 2048, 2049, 3000, 4096, 4097, (size_t)1 << 13};
    for (size_t i = 0; i < sizeof csz / sizeof csz[0]; i++)
      for (int v = 1; v < 3; v++)
        cmp_sort((gp_dtype)kt, vts[v], (int)((i + (size_t)v + (size_t)kt) % RX_NPAT), csz[i],
                 (gp_order)((i + (size_t)v) & 1), GP_SORT_AUTO, (int)(i & 1));
    cmp_sort((gp_dtype)kt, GP_I64, SC_FEW, (size_t)1 << 16, GP_ASCENDING, GP_SORT_AUTO, 1);
    /* device memory: asynchronous path */
    cmp_sort((gp_dtype)kt, -1, SC_SPECIAL, quick ? 2 * T + 1 : 300001, GP_DESCENDING, GP_SORT_RADIX, 1);
    cmp_sort((gp_dtype)kt, GP_I64, SC_FEW, quick ? 2 * T + 1 : 300001, GP_ASCENDING, GP_SORT_RADIX, 1);
    cmp_sort((gp_dtype)kt, GP_F32, RX_TOPDIGIT, 777, GP_ASCENDING, GP_SORT_RADIX, 1);
  }

  /* argsort: every key type, both index types, around the tile */
  for (int kt = 0; kt < GP_DTYPE_COUNT; kt++) {
    if (quick >= 2 && kt != GP_F32 && kt != GP_U64) continue;
    const size_t T = tile_of((gp_dtype)kt);
    const size_t C = cl_tile_of(), CM = C * GP_RX_CL_MAX_BLOCKS;
    const size_t asz[] = {0, 1, 2, 33, 300, C + 1, T, T + 1, 3 * C, quick ? 2 * T + 5 : CM,
                          quick ? 2 * T + 7 : CM + 1, quick ? 2 * T + 9 : ((size_t)1 << 18) + 7};
    for (size_t i = 0; i < sizeof asz / sizeof asz[0]; i++)
      for (int it = 0; it < 2; it++) {
        int p = (int)((i + (size_t)kt + (size_t)it) % RX_NPAT);
        check_argsort((gp_dtype)kt, it ? GP_U64 : GP_U32, p, asz[i],
                      (gp_order)((i + (size_t)it) & 1), 0);
      }
    check_argsort((gp_dtype)kt, GP_U32, SC_EQUAL, 3 * T, GP_ASCENDING, 0); /* no active pass */
    check_argsort((gp_dtype)kt, GP_U64, SC_FEW, quick ? 2 * T : 100000, GP_DESCENDING, 1);
    /* 4-byte keys from 2049 to 2^12 take the bitonic sort of composites, the radix
       around them */
    check_argsort((gp_dtype)kt, GP_U32, SC_FEW, 2048, GP_ASCENDING, 1);
    check_argsort((gp_dtype)kt, GP_U64, SC_FEW, 2049, GP_DESCENDING, 1);
    check_argsort((gp_dtype)kt, GP_U32, SC_FEW, 4096, GP_DESCENDING, 0);
    check_argsort((gp_dtype)kt, GP_U64, kt % RX_NPAT, 4097, GP_ASCENDING, 0);
    /* past the small sweeps, 8-byte keys with 64-bit indices take the wide one-sweep
       tiles where the GPU has the shared memory (rx_wide_ok; sm_89 mode: the usual
       tiles): a partial last tile of each, quick runs too */
    if (gp_dtype_size((gp_dtype)kt) == 8) {
      const size_t wn = ((size_t)1 << GP_RX_SMALL_SWEEP_LOG2) +
                        (size_t)GP_RX_THREADS * GP_RX_PAIR_ITEMS8_V8_WIDE * 3 + 77;
      check_argsort((gp_dtype)kt, GP_U64, (kt + 1) % RX_NPAT, wn, GP_DESCENDING, 1);
      cmp_sort((gp_dtype)kt, GP_U64, kt % RX_NPAT, wn + 5, GP_ASCENDING, GP_SORT_RADIX, 0);
      cmp_sort((gp_dtype)kt, GP_I64, SC_FEW, wn, GP_DESCENDING, GP_SORT_AUTO, 1);
    }
  }

  check_offsets_suite();

  if (l && atoi(l) != 0) {
    check_oom();
    check_large(atoi(l) >= 33 ? 33 : 32);
  }

  gp_destroy(gpu);
  gp_destroy(cpu);
  return check_summary("test_sort_radix_gpu");
}
