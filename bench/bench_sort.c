/* `gpuprims bench sort`: gp_sort (--algo: bitonic by default, radix, auto; and the
 * seed's grid bitonic sort) against cub::DeviceRadixSort::SortKeys, gp_sort_pairs
 * (--pairs) and gp_argsort (--argsort) against DeviceRadixSort::SortPairs,
 * gp_sort_segments and gp_sort_segments_offsets (--offsets) against
 * cub::DeviceSegmentedSort, on the same device data and stream; --seed-tables reproduces
 * the seed's Tables 6.18 and 6.19 (CPU qsort, CPU serial bitonic, GPU bitonic at n =
 * 2048 and 2^21). */
#define _POSIX_C_SOURCE 200809L
#include "harness.h"
#include "offsets.h"
#include "suites.h"
#if GP_HAVE_CUDA
#include "peers/cub_sort.h"
#endif

#include <stdlib.h>
#include <string.h>

#define MAX_LIST 32

typedef struct sort_arg {
  gpb_bench *b;
  gp_context *ctx;
  gp_dtype t;
  void *keys;       /* sorted in place */
  const void *src;  /* the unsorted input, restored before every run */
  size_t n, seg;    /* seg 0: a whole sort */
  gp_sort_algo algo;
  gp_order order;
  int vt;           /* pairs: the value type; -1: keys alone */
  int argsort;      /* gp_argsort of src into vals (u32 indices) */
  int copy;         /* gp_sort_copy of src into keys */
  void *vals;       /* pairs: sorted in place; argsort: the indices */
  const void *vsrc; /* pairs: the values, restored before every run */
  const uint64_t *offsets; /* offsets segments (device memory), nseg of them */
  size_t nseg;
#if GP_HAVE_CUDA
  gpb_cub_sort *peer;
#endif
} sort_arg;

static int restore(void *p, void *stream) {
  sort_arg *a = (sort_arg *)p;
  (void)stream;
  if (a->argsort || a->copy) return 0; /* the input is not modified */
  if (a->vt >= 0 && gpb_copy_async(a->b, a->vals, a->vsrc, a->n * gp_dtype_size((gp_dtype)a->vt)))
    return 1;
  return gpb_copy_async(a->b, a->keys, a->src, a->n * gp_dtype_size(a->t));
}

static int run_ours(void *p, void *stream) {
  sort_arg *a = (sort_arg *)p;
  (void)stream; /* the context launches on the harness stream */
  gp_status s;
  if (a->argsort) s = gp_argsort(a->ctx, a->t, a->src, GP_U32, a->vals, a->n, a->order);
  else if (a->copy) s = gp_sort_copy(a->ctx, a->t, a->src, a->keys, a->n, a->order, a->algo);
  else if (a->offsets) s = gp_sort_segments_offsets(a->ctx, a->t, a->keys, a->offsets, a->nseg, a->order);
  else if (a->seg) s = gp_sort_segments(a->ctx, a->t, a->keys, a->n, a->seg, a->order);
  else if (a->vt >= 0)
    s = gp_sort_pairs(a->ctx, a->t, a->keys, (gp_dtype)a->vt, a->vals, a->n, a->order, a->algo);
  else s = gp_sort(a->ctx, a->t, a->keys, a->n, a->order, a->algo);
  if (s != GP_OK) {
    fprintf(stderr, "gpuprims bench sort: %s\n", gp_last_error(a->ctx));
    return 1;
  }
  return 0;
}

#if GP_HAVE_CUDA
static int run_cub(void *p, void *stream) {
  sort_arg *a = (sort_arg *)p;
  int e = gpb_cub_sort_run(a->peer, stream);
  if (e) fprintf(stderr, "gpuprims bench sort: CUB failed (cudaError %d)\n", e);
  return e;
}
#endif

static int cmp_i32(const void *pa, const void *pb) {
  int32_t a = *(const int32_t *)pa, b = *(const int32_t *)pb;
  return (a > b) - (a < b);
}

/* Median wall time of `reps` runs of a host sort of n int32 keys (restored each time). */
static double time_host(gp_context *cpu, int use_qsort, const int32_t *src, int32_t *buf,
                        size_t n, int reps) {
  double t[64];
  if (reps > 64) reps = 64;
  for (int r = 0; r < reps; r++) {
    memcpy(buf, src, n * 4);
    double t0 = gpb_wall_seconds();
    if (use_qsort) qsort(buf, n, 4, cmp_i32);
    else (void)gp_sort(cpu, GP_I32, buf, n, GP_ASCENDING, GP_SORT_BITONIC_SEED);
    t[r] = gpb_wall_seconds() - t0;
  }
  for (int i = 1; i < reps; i++)
    for (int j = i; j > 0 && t[j - 1] > t[j]; j--) { double x = t[j]; t[j] = t[j - 1]; t[j - 1] = x; }
  return t[reps / 2];
}

/* Tables 6.18 and 6.19: CPU qsort, CPU serial bitonic (Program 6.17), GPU bitonic
 * (Program 6.19) on n = 2048 and 2^21 int32 keys. */
static int seed_tables(gpb_bench *b) {
  gp_context *cpu = NULL;
  if (gp_create(&cpu, GP_BACKEND_CPU) != GP_OK) return 1;
  const size_t ns[2] = {2048, (size_t)1 << 21};
  const char *title[2] = {"Table 6.18: small list (n = 2048 int32)",
                          "Table 6.19: large list (n = 2^21 = 2,097,152 int32)"};
  const double seed_ms[2][3] = {{0.116, 1.19, 0.128}, {539.0, 3710.0, 13.1}};
  double res[2][3];
  int rc = 0;
  for (int k = 0; k < 2; k++) {
    size_t n = ns[k];
    int32_t *src = (int32_t *)malloc(n * 4), *buf = (int32_t *)malloc(n * 4);
    void *dk = NULL, *dsrc = NULL;
    if (!src || !buf || gpb_alloc(b, n * 4, &dk) || gpb_alloc(b, n * 4, &dsrc) ||
        gpb_fill_random(b, GP_I32, dsrc, n, 0x6180 + (uint64_t)k) || gpb_copy(b, src, dsrc, n * 4)) {
      free(src); free(buf); gpb_free(b, dk); gpb_free(b, dsrc);
      rc = 1;
      break;
    }
    res[k][0] = time_host(cpu, 1, src, buf, n, k ? 5 : 51);
    res[k][1] = time_host(cpu, 0, src, buf, n, k ? 3 : 51);
    sort_arg a = {b, gpb_context(b), GP_I32, dk, dsrc, n, 0, GP_SORT_BITONIC_SEED, GP_ASCENDING,
                  -1, 0, 0, NULL, NULL, NULL, 0
#if GP_HAVE_CUDA
                  , NULL
#endif
    };
    gpb_case c = {"gpuprims", "sort bitonic-seed", "i32", gpb_is_cuda(b) ? "Program 6.19" : "cpu backend",
                  n, 0, 2.0 * (double)n * 4, run_ours, restore, &a};
    gpb_result r;
    gpb_time_case(b, &c, &r);
    gpb_emit(b, &r);
    res[k][2] = r.ok ? r.median_s : 0;
    /* the GPU result must equal qsort's */
    memcpy(buf, src, n * 4);
    qsort(buf, n, 4, cmp_i32);
    int32_t *got = (int32_t *)malloc(n * 4);
    if (got && !gpb_copy(b, got, dk, n * 4) && memcmp(got, buf, n * 4) != 0) {
      fprintf(stderr, "gpuprims bench sort: seed-table sort at n = %zu disagrees with qsort\n", n);
      rc = 1;
    }
    free(got);
    free(src); free(buf); gpb_free(b, dk); gpb_free(b, dsrc);
  }
  if (rc == 0) {
    const gpb_device *d = gpb_device_of(b);
    gp_device_info ci;
    (void)gp_get_device_info(cpu, &ci);
    printf("\nSeed tables reproduced on this machine (CPU: %s, single thread; %s: %s)\n",
           ci.name, gpb_is_cuda(b) ? "GPU" : "no GPU, CPU backend", d->name);
    for (int k = 0; k < 2; k++) {
      printf("\n%s\n", title[k]);
      printf("  %-34s %14s %14s\n", "", "this machine", "seed (ms)");
      printf("  %-34s %11.4f ms %14.3f\n", "CPU qsort", res[k][0] * 1e3, seed_ms[k][0]);
      printf("  %-34s %11.4f ms %14.3f\n", "CPU serial bitonic (Program 6.17)", res[k][1] * 1e3, seed_ms[k][1]);
      printf("  %-34s %11.4f ms %14.3f\n", "GPU bitonic (Program 6.19)", res[k][2] * 1e3, seed_ms[k][2]);
      if (res[k][2] > 0)
        printf("  ratios: qsort / GPU = %.2fx (seed %.2fx), serial bitonic / GPU = %.2fx (seed %.2fx),\n"
               "          serial bitonic / qsort = %.2fx (seed %.2fx)\n",
               res[k][0] / res[k][2], seed_ms[k][0] / seed_ms[k][2], res[k][1] / res[k][2],
               seed_ms[k][1] / seed_ms[k][2], res[k][1] / res[k][0], seed_ms[k][1] / seed_ms[k][0]);
    }
  }
  gp_destroy(cpu);
  return rc;
}

/* 0, 1, 2, ... (u32) into device memory: the values CUB sorts for an argsort. */
static int fill_iota(gpb_bench *b, uint32_t *d, size_t n) {
  uint32_t *h = (uint32_t *)malloc(n * 4 + 4);
  if (!h) return 1;
  for (size_t i = 0; i < n; i++) h[i] = (uint32_t)i;
  int e = gpb_copy(b, d, h, n * 4);
  free(h);
  return e;
}

static void usage(FILE *f) {
  fprintf(f,
          "usage: gpuprims bench sort [options]\n\n"
          "Times gp_sort (--algo, and the seed's grid bitonic), gp_sort_pairs and gp_argsort\n"
          "against cub::DeviceRadixSort, gp_sort_segments and gp_sort_segments_offsets\n"
          "against cub::DeviceSegmentedSort, on random keys.\n\n"
          "  --sizes LIST      whole-sort sizes (default 2^11,2^16,2^21,2^24)\n"
          "  --algo A          whole sorts: bitonic (default), radix, auto or bitonic-seed\n"
          "  --pairs VT        whole sorts of pairs with random values of VT (gp_sort_pairs\n"
          "                    against DeviceRadixSort::SortPairs)\n"
          "  --argsort         whole sorts are gp_argsort, u32 indices (against SortPairs of\n"
          "                    (key, iota), what torch.argsort runs)\n"
          "  --copy            whole sorts of keys are gp_sort_copy from the input into\n"
          "                    another array (np.sort's form; CUB's SortKeys is one too)\n"
          "  --offsets LIST    offsets segments of --seg-n keys in all (against\n"
          "                    DeviceSegmentedSort with begin/end offsets): uniform (sizes\n"
          "                    1..2048), powerlaw (mostly 1..8, some up to 4096, a few of\n"
          "                    2^20), tiny (segments of 0..31), one (one segment), large\n"
          "                    (8192..32768, each above one tile), mix (large, and 1 in\n"
          "                    200 of 2^20, beyond one cluster)\n"
          "  --segments LIST   segment sizes (default every power of two 2..65536)\n"
          "  --seg-n N         keys in a segmented sort (default 2^24)\n"
          "  --dtype T         key type (default u32)\n"
          "  --desc            descending\n"
          "  --no-seed         skip the seed's grid bitonic rows\n"
          "  --no-segments     skip the segmented sorts\n"
          "  --no-peers        skip CUB\n"
          "  --seed-tables     only reproduce Tables 6.18 and 6.19 (qsort, serial bitonic,\n"
          "                    GPU bitonic at n = 2048 and 2^21)\n");
  gpb_print_options_help(f);
}

/* Copies both results to the host and compares bits (sorted keys are unique). */
static int same_result(gpb_bench *b, const void *x, const void *y, size_t bytes) {
  char *hx = (char *)malloc(bytes ? bytes : 1), *hy = (char *)malloc(bytes ? bytes : 1);
  int same = hx && hy && !gpb_copy(b, hx, x, bytes) && !gpb_copy(b, hy, y, bytes) &&
             memcmp(hx, hy, bytes) == 0;
  free(hx);
  free(hy);
  return same;
}

int gp_bench_sort(int argc, char **argv) {
  gpb_options opt;
  gpb_options_default(&opt);
  uint64_t sizes[MAX_LIST] = {1ull << 11, 1ull << 16, 1ull << 21, 1ull << 24};
  int nsizes = 4;
  uint64_t segs[MAX_LIST];
  int nsegs = 0;
  for (int k = 1; k <= 16; k++) segs[nsegs++] = 1ull << k;
  uint64_t seg_n = 1ull << 24;
  gp_dtype t = GP_U32;
  int desc = 0, do_seed = 1, do_segs = 1, peers = 1, tables = 0, vt = -1, argsort = 0, copy = 0;
  gp_sort_algo algo = GP_SORT_BITONIC;
  const char *offsets_list = NULL;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
      usage(stdout);
      return 0;
    }
    int r = gpb_parse_option(&opt, "sort", argc, argv, &i);
    if (r < 0) return 2;
    if (r > 0) continue;
    const char *a = argv[i];
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (strcmp(a, "--sizes") == 0 || strcmp(a, "--segments") == 0) {
      int is_sizes = a[2] == 's' && a[3] == 'i';
      if (!v || gpb_parse_sizes(v, is_sizes ? sizes : segs, MAX_LIST, is_sizes ? &nsizes : &nsegs)) {
        fprintf(stderr, "gpuprims bench sort: %s needs a list of sizes like 2^20,1000000\n", a);
        return 2;
      }
      i++;
    } else if (strcmp(a, "--seg-n") == 0) {
      int c = 0;
      if (!v || gpb_parse_sizes(v, &seg_n, 1, &c) || c != 1) {
        fprintf(stderr, "gpuprims bench sort: --seg-n needs a size\n");
        return 2;
      }
      i++;
    } else if (strcmp(a, "--dtype") == 0) {
      if (!v || gp_dtype_from_name(v, &t) != GP_OK) {
        fprintf(stderr, "gpuprims bench sort: --dtype needs f32, f64, i32, i64, u32 or u64\n");
        return 2;
      }
      i++;
    } else if (strcmp(a, "--algo") == 0) {
      if (!v || gp_sort_algo_from_name(v, &algo) != GP_OK) {
        fprintf(stderr, "gpuprims bench sort: --algo needs auto, bitonic, bitonic-seed or radix\n");
        return 2;
      }
      i++;
    } else if (strcmp(a, "--pairs") == 0) {
      gp_dtype x;
      if (!v || gp_dtype_from_name(v, &x) != GP_OK) {
        fprintf(stderr, "gpuprims bench sort: --pairs needs a value type (f32, ..., u64)\n");
        return 2;
      }
      vt = (int)x;
      i++;
    } else if (strcmp(a, "--offsets") == 0) {
      if (!v) {
        fprintf(stderr, "gpuprims bench sort: --offsets needs a list like uniform,tiny\n");
        return 2;
      }
      offsets_list = v;
      i++;
    } else if (strcmp(a, "--argsort") == 0) argsort = 1;
    else if (strcmp(a, "--copy") == 0) copy = 1;
    else if (strcmp(a, "--desc") == 0) desc = 1;
    else if (strcmp(a, "--no-seed") == 0) do_seed = 0;
    else if (strcmp(a, "--no-segments") == 0) do_segs = 0;
    else if (strcmp(a, "--no-peers") == 0) peers = 0;
    else if (strcmp(a, "--seed-tables") == 0) tables = 1;
    else {
      fprintf(stderr, "gpuprims bench sort: unknown option '%s' (see --help)\n", a);
      return 2;
    }
  }

  if (copy && (argsort || vt >= 0)) {
    fprintf(stderr, "gpuprims bench sort: --copy sorts keys alone: drop --argsort and --pairs\n");
    return 2;
  }
  gpb_bench *b;
  if (gpb_open(&b, "sort", &opt, argc, argv)) return 1;
  gpb_print_header(b);
  if (tables) {
    gpb_set_progress_total(b, 2);
    int rc = seed_tables(b);
    int crc = gpb_close(b);
    return rc ? rc : crc;
  }
  const int cuda = gpb_is_cuda(b);
#if !GP_HAVE_CUDA
  peers = 0;
#endif
  if (!cuda) peers = 0;
  if (argsort || copy || vt >= 0 || algo == GP_SORT_BITONIC_SEED) do_seed = 0;
  int offk[GPB_OFF_KINDS], noff = 0;
  if (offsets_list && gpb_parse_offset_kinds("sort", offsets_list, offk, &noff)) {
    gpb_close(b);
    return 2;
  }
  int total = 0;
  for (int s = 0; s < nsizes; s++) total += 1 + do_seed + peers;
  if (do_segs) total += nsegs * (1 + peers);
  total += noff * (1 + peers);
  gpb_set_progress_total(b, total);

  size_t es = gp_dtype_size(t);
  size_t vb = argsort ? 4 : vt >= 0 ? gp_dtype_size((gp_dtype)vt) : 0;
  uint64_t max_n = do_segs || noff ? seg_n : 0, max_whole = 0;
  for (int s = 0; s < nsizes; s++) if (sizes[s] > max_whole) max_whole = sizes[s];
  if (max_whole > max_n) max_n = max_whole;
  void *src = NULL, *keys = NULL, *out = NULL, *vals = NULL, *vsrc = NULL, *vout = NULL;
  int bad = gpb_alloc(b, max_n * es, &src) || gpb_alloc(b, max_n * es, &keys) ||
            gpb_alloc(b, max_n * es, &out) || gpb_fill_random(b, t, src, max_n, 0x5027);
  if (!bad && vb)
    bad = gpb_alloc(b, max_whole * vb, &vals) || gpb_alloc(b, max_whole * vb, &vsrc) ||
          gpb_alloc(b, max_whole * vb, &vout) ||
          (argsort ? fill_iota(b, (uint32_t *)vsrc, max_whole)
                   : gpb_fill_random(b, (gp_dtype)vt, vsrc, max_whole, 0x7A15));
  if (bad) {
    gpb_free(b, src); gpb_free(b, keys); gpb_free(b, out);
    gpb_free(b, vals); gpb_free(b, vsrc); gpb_free(b, vout);
    gpb_close(b);
    return 1;
  }
  int rc = 0;
  /* rows: 0 = whole sorts, 1 = fixed segments, 2 = offsets segments */
  for (int mode = 0; mode < 3; mode++) {
    int count = mode == 2 ? noff : mode ? (do_segs ? nsegs : 0) : nsizes;
    for (int s = 0; s < count; s++) {
      size_t n = mode ? (size_t)seg_n : (size_t)sizes[s];
      size_t seg = mode == 1 ? (size_t)segs[s] : 0;
      if (mode == 1 && (seg == 0 || n % seg)) {
        fprintf(stderr, "gpuprims bench sort: --seg-n %zu is not a multiple of segment %zu: skipped\n", n, seg);
        continue;
      }
      sort_arg a = {b, gpb_context(b), t, keys, src, n, seg, algo,
                    desc ? GP_DESCENDING : GP_ASCENDING, mode ? -1 : vt, mode ? 0 : argsort,
                    mode ? 0 : copy, vals, vsrc, NULL, 0
#if GP_HAVE_CUDA
                    , NULL
#endif
      };
      uint64_t *h_off = NULL;
      void *d_off = NULL;
      if (mode == 2) {
        a.nseg = gpb_make_offsets(offk[s], n, &h_off);
        if (!h_off || gpb_alloc(b, (a.nseg + 1) * 8, &d_off) ||
            gpb_copy(b, d_off, h_off, (a.nseg + 1) * 8)) {
          fprintf(stderr, "gpuprims bench sort: no memory for the offsets\n");
          free(h_off);
          gpb_free(b, d_off);
          rc = 1;
          continue;
        }
        a.offsets = (const uint64_t *)d_off;
        a.n = n = (size_t)h_off[a.nseg];
      }
      const int pairs = a.vt >= 0 || a.argsort;
      double bytes = a.argsort ? (double)n * (double)(es + vb)
                               : 2.0 * (double)n * (double)(es + (pairs ? vb : 0));
      char name[96], note[96];
      note[0] = '\0';
      if (mode == 1) snprintf(note, sizeof note, "segments of %zu", seg);
      if (mode == 2) snprintf(note, sizeof note, "%s, %zu segments", gpb_off_names[offk[s]], a.nseg);
      gpb_result peer_res, seed_res;
      int have_peer = 0, have_seed = 0;
#if GP_HAVE_CUDA
      if (peers) {
        int e;
        const char *pname;
        if (pairs) {
          e = gpb_cub_sort_pairs_create(&a.peer, (int)t, src, out, (int)vb, vsrc, vout, n, desc);
          pname = "DeviceRadixSort::SortPairs";
        } else if (mode == 2) {
          e = gpb_cub_sort_offsets_create(&a.peer, (int)t, src, out, n, a.offsets, a.nseg, desc);
          pname = "DeviceSegmentedSort::SortKeys";
        } else {
          e = gpb_cub_sort_create(&a.peer, (int)t, src, out, n, seg, desc);
          pname = seg ? "DeviceSegmentedSort::SortKeys" : "DeviceRadixSort::SortKeys";
        }
        if (e) {
          fprintf(stderr, "gpuprims bench sort: CUB setup failed (cudaError %d): no peer row\n", e);
        } else {
          gpb_case c = {"cub", pname, gp_dtype_name(t), note[0] ? note : NULL, n, 0, bytes,
                        run_cub, NULL, &a};
          have_peer = gpb_time_case(b, &c, &peer_res) == 0;
        }
      }
#endif
      if (!mode && do_seed) {
        sort_arg sa = a;
        sa.algo = GP_SORT_BITONIC_SEED;
        gpb_case c = {"gpuprims", "sort bitonic-seed", gp_dtype_name(t), "Program 6.19", n, 0,
                      bytes, run_ours, restore, &sa};
        have_seed = gpb_time_case(b, &c, &seed_res) == 0;
        if (have_seed && have_peer && !same_result(b, keys, out, n * es)) {
          fprintf(stderr, "gpuprims bench sort: bitonic-seed n = %zu disagrees with CUB\n", n);
          rc = 1;
        }
      }
      if (mode == 2) snprintf(name, sizeof name, "sort_segments_offsets");
      else if (mode == 1) snprintf(name, sizeof name, "sort_segments");
      else if (a.argsort) snprintf(name, sizeof name, "argsort u32");
      else if (pairs) snprintf(name, sizeof name, "sort_pairs %s /%s", gp_sort_algo_name(algo), gp_dtype_name((gp_dtype)vt));
      else if (a.copy) snprintf(name, sizeof name, "sort_copy %s", gp_sort_algo_name(algo));
      else snprintf(name, sizeof name, "sort %s", gp_sort_algo_name(algo));
      gpb_case c = {"gpuprims", name, gp_dtype_name(t), note, n, 0, bytes, run_ours, restore, &a};
      gpb_result r;
      if (gpb_time_case(b, &c, &r) == 0) {
        if (have_seed && r.median_s > 0) {
          size_t l = strlen(r.note);
          snprintf(r.note + l, sizeof r.note - l, "%s%.2fx the seed's", l ? "; " : "",
                   seed_res.median_s / r.median_s);
        }
        /* keys (argsort: indices) and values: both sorts are stable, so the same bits */
        int same = 1;
        if (have_peer && !a.argsort) same = same_result(b, keys, out, n * es);
        if (have_peer && pairs) same = same && same_result(b, vals, vout, n * vb);
        if (!same) {
          fprintf(stderr, "gpuprims bench sort: %s n = %zu disagrees with CUB\n", name, n);
          rc = 1;
        }
      }
      if (have_peer) gpb_set_ratio(&r, &peer_res);
      gpb_emit(b, &r);
      if (have_seed) gpb_emit(b, &seed_res);
#if GP_HAVE_CUDA
      if (a.peer) {
        gpb_emit(b, &peer_res);
        gpb_cub_sort_destroy(a.peer);
      }
#endif
      free(h_off);
      gpb_free(b, d_off);
    }
  }
  gpb_free(b, src);
  gpb_free(b, keys);
  gpb_free(b, out);
  gpb_free(b, vals);
  gpb_free(b, vsrc);
  gpb_free(b, vout);
  int crc = gpb_close(b);
  return rc ? rc : crc;
}
