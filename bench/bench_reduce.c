/* `gpuprims bench reduce`: gp_reduce against CUB and thrust on the same device data and
 * stream, and (--ladder) the seed's kernel ladder with the cost each step removes.
 * With the CPU backend it times the CPU implementations (no peers). */
#define _POSIX_C_SOURCE 200809L
#include "harness.h"
#include "suites.h"
#if GP_HAVE_CUDA
#include "peers/cub_reduce.h"
#endif

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LIST 32

typedef struct reduce_arg {
  gp_context *ctx;
  gp_op op;
  gp_dtype t;
  const void *in;
  size_t n;
  void *out;
  gp_reduce_algo algo;
  unsigned two_phase_blocks; /* 0: the chapter's 64 */
#if GP_HAVE_CUDA
  gpb_cub_reduce *peer;
#endif
} reduce_arg;

static int run_ours(void *p, void *stream) {
  reduce_arg *a = (reduce_arg *)p;
  (void)stream; /* the context launches on the harness stream (gpb_open set it) */
  gp_status s = gp_set_two_phase_blocks(a->ctx, a->two_phase_blocks);
  if (s == GP_OK) s = gp_reduce(a->ctx, a->op, a->t, a->in, a->n, a->out, a->algo);
  if (s != GP_OK) {
    fprintf(stderr, "gpuprims bench reduce: gp_reduce(%s, %s, n=%zu, %s) failed (%s): %s\n",
            gp_op_name(a->op), gp_dtype_name(a->t), a->n, gp_reduce_algo_name(a->algo),
            gp_status_string(s), gp_last_error(a->ctx));
    return 1;
  }
  return 0;
}

#if GP_HAVE_CUDA
static int run_cub(void *p, void *stream) {
  reduce_arg *a = (reduce_arg *)p;
  int e = gpb_cub_reduce_run(a->peer, stream);
  if (e) fprintf(stderr, "gpuprims bench reduce: cub::DeviceReduce failed (cudaError %d)\n", e);
  return e != 0;
}

static int run_thrust(void *p, void *stream) {
  reduce_arg *a = (reduce_arg *)p;
  int e = gpb_thrust_reduce_run(a->peer, stream);
  if (e) fprintf(stderr, "gpuprims bench reduce: thrust::reduce failed (cudaError %d)\n", e);
  return e != 0;
}
#endif

/* The last result a case left in `out`, as double (for the cross-check), and exactly. */
static int read_result(gpb_bench *b, gp_dtype t, const void *out, double *v, uint64_t *bits) {
  unsigned char host[8] = {0};
  if (gpb_copy(b, host, out, gp_dtype_size(t))) return 1;
  *bits = 0;
  memcpy(bits, host, gp_dtype_size(t));
  switch (t) {
  case GP_F32: { float f; memcpy(&f, host, 4); *v = f; break; }
  case GP_F64: memcpy(v, host, 8); break;
  case GP_I32: { int32_t x; memcpy(&x, host, 4); *v = (double)x; break; }
  case GP_I64: { int64_t x; memcpy(&x, host, 8); *v = (double)x; break; }
  case GP_U32: { uint32_t x; memcpy(&x, host, 4); *v = (double)x; break; }
  default: { uint64_t x; memcpy(&x, host, 8); *v = (double)x; break; }
  }
  return 0;
}

/* Do two results agree? Integers and MIN/MAX exactly; float sums within rounding. */
static int agree(gp_op op, gp_dtype out_t, double a, uint64_t abits, double b, uint64_t bbits) {
  if (out_t != GP_F32 && out_t != GP_F64) return abits == bbits;
  if (op != GP_SUM) return a == b || (isnan(a) && isnan(b));
  double tol = out_t == GP_F32 ? 1e-4 : 1e-10; /* inputs are in [0, 1): no cancellation */
  return fabs(a - b) <= tol * fabs(b) + 1e-30;
}

static void usage(FILE *f) {
  fprintf(f,
          "usage: gpuprims bench reduce [--dtype f32,...] [--op sum,...] [--n 2^20,2^24,...]\n"
          "                             [--algo auto|all|interleaved,...] [--ladder] [--no-peers]\n"
          "                             [shared options]\n\n"
          "Times gp_reduce on random device data (a hash per element, generated on the GPU),\n"
          "with cub::DeviceReduce and thrust::reduce on the same buffer and stream, and the\n"
          "ratio peer time / our time in our rows (>1: gpuprims is faster).\n"
          "Default: f32 sum, n = 2^18, 2^20, ..., 2^30 (2^26 on the CPU backend), algo auto.\n"
          "  --ladder   the seed's kernel ladder at 2^24 and 2^28 (or --n): interleaved,\n"
          "             sequential, two-phase with 64 blocks, two-phase with a full-GPU grid,\n"
          "             warp-atomic, auto; GB/s each and the cost each step removed\n"
          "  --no-peers skip CUB and thrust\n\n");
  gpb_print_options_help(f);
}

/* One ladder step: its algorithm, grid, and what it removes relative to the one before. */
typedef struct ladder_step {
  const char *label;
  gp_reduce_algo algo;
  int full_grid;
  const char *note;
} ladder_step;

static const ladder_step ladder[] = {
  {"interleaved", GP_REDUCE_INTERLEAVED, 0,
   "baseline (4.1): tid%(2s) leaves every warp divergent"},
  {"sequential", GP_REDUCE_SEQUENTIAL, 0,
   "removes divergence (4.2): tid<s keeps warps uniform"},
  {"two-phase 64 blocks", GP_REDUCE_TWO_PHASE, 0,
   "removes per-block partials (4.3), but 64 blocks idle most SMs"},
  {"two-phase full grid", GP_REDUCE_TWO_PHASE, 1,
   "removes idle SMs: 8 blocks of 256 per SM fill the GPU"},
  {"warp-atomic", GP_REDUCE_WARP_ATOMIC, 0,
   "removes smem tree + 2nd launch (6.24): shuffles, atomics"},
  {"auto", GP_REDUCE_AUTO, 0, "the library's path: wide loads, fixed tree"},
};
#define NLADDER (sizeof ladder / sizeof ladder[0])

int gp_bench_reduce(int argc, char **argv) {
  gpb_options opt;
  gpb_options_default(&opt);
  gp_dtype dtypes[MAX_LIST];
  gp_op ops[MAX_LIST];
  gp_reduce_algo algos[MAX_LIST];
  uint64_t sizes[MAX_LIST];
  int ndt = 0, nops = 0, nalgo = 0, nsizes = 0, do_ladder = 0, peers = 1;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
      usage(stdout);
      return 0;
    }
    int r = gpb_parse_option(&opt, "reduce", argc, argv, &i);
    if (r < 0) return 2;
    if (r > 0) continue;
    if (strcmp(a, "--ladder") == 0) { do_ladder = 1; continue; }
    if (strcmp(a, "--no-peers") == 0) { peers = 0; continue; }
    int is_list = strcmp(a, "--dtype") == 0 || strcmp(a, "--op") == 0 ||
                  strcmp(a, "--n") == 0 || strcmp(a, "--algo") == 0;
    if (!is_list) {
      fprintf(stderr, "gpuprims bench reduce: unknown option '%s' (see --help)\n", a);
      return 2;
    }
    if (i + 1 >= argc) {
      fprintf(stderr, "gpuprims bench reduce: %s needs a value\n", a);
      return 2;
    }
    const char *v = argv[++i];
    if (strcmp(a, "--n") == 0) {
      if (gpb_parse_sizes(v, sizes, MAX_LIST, &nsizes) || nsizes == 0) {
        fprintf(stderr, "gpuprims bench reduce: --n '%s': give sizes like 2^20,2^24,1000000,16M\n", v);
        return 2;
      }
      continue;
    }
    char buf[512];
    snprintf(buf, sizeof buf, "%s", v);
    char *items[MAX_LIST];
    int k = gpb_split_list(buf, items, MAX_LIST);
    for (int j = 0; j < k; j++) {
      int ok = 1;
      if (strcmp(a, "--dtype") == 0) ok = gp_dtype_from_name(items[j], &dtypes[ndt++]) == GP_OK;
      else if (strcmp(a, "--op") == 0) ok = gp_op_from_name(items[j], &ops[nops++]) == GP_OK;
      else if (strcmp(items[j], "all") == 0) {
        for (int g = GP_REDUCE_AUTO; g <= GP_REDUCE_WARP_ATOMIC && nalgo < MAX_LIST; g++)
          algos[nalgo++] = (gp_reduce_algo)g;
      } else if (nalgo < MAX_LIST) {
        ok = gp_reduce_algo_from_name(items[j], &algos[nalgo++]) == GP_OK;
      }
      if (!ok) {
        fprintf(stderr, "gpuprims bench reduce: %s: unknown value '%s'%s\n", a, items[j],
                strcmp(a, "--dtype") == 0 ? " (f32, f64, i32, i64, u32, u64)"
                : strcmp(a, "--op") == 0  ? " (sum, min, max)"
                                          : " (auto, all, interleaved, sequential, two-phase, warp-atomic)");
        return 2;
      }
    }
  }
  if (!ndt) dtypes[ndt++] = GP_F32;
  if (!nops) ops[nops++] = GP_SUM;
  if (!nalgo) algos[nalgo++] = GP_REDUCE_AUTO;

  gpb_bench *b;
  if (gpb_open(&b, "reduce", &opt, argc, argv)) return 1;
  const int cuda = gpb_is_cuda(b);
  const gpb_device *dev = gpb_device_of(b);
  if (!nsizes) {
    if (do_ladder) {
      sizes[nsizes++] = (uint64_t)1 << 24;
      sizes[nsizes++] = (uint64_t)1 << 28;
    } else {
      for (int k = 18; k <= (cuda ? 30 : 26); k += 2) sizes[nsizes++] = (uint64_t)1 << k;
    }
  }
  const char *peer_note = NULL;
#if !GP_HAVE_CUDA
  if (peers) peer_note = "# peers (CUB, thrust): not built (gpuprims was built without CUDA)";
  peers = 0;
#else
  if (peers && !cuda) peer_note = "# peers (CUB, thrust): skipped on the CPU backend";
  if (!cuda) peers = 0;
#endif
  int npeers = peers ? 2 : 0;
  int total = do_ladder ? ndt * nops * nsizes * ((int)NLADDER + npeers)
                        : ndt * nops * nsizes * (nalgo + npeers);
  gpb_set_progress_total(b, total);
  gpb_print_header(b);
  if (peer_note) printf("%s\n", peer_note);

  int rc = 0;
  uint64_t max_n = 0;
  for (int s = 0; s < nsizes; s++) if (sizes[s] > max_n) max_n = sizes[s];
  for (int d = 0; d < ndt && !rc; d++) {
    gp_dtype t = dtypes[d];
    size_t es = gp_dtype_size(t);
    void *in = NULL, *out = NULL;
    if (max_n > SIZE_MAX / es || gpb_alloc(b, (size_t)max_n * es, &in) || gpb_alloc(b, 64, &out) ||
        gpb_fill_random(b, t, in, (size_t)max_n, 0x5EED + (uint64_t)t)) {
      fprintf(stderr, "gpuprims bench reduce: cannot set up %llu elements of %s\n",
              (unsigned long long)max_n, gp_dtype_name(t));
      gpb_free(b, in);
      gpb_free(b, out);
      rc = 1;
      break;
    }
    for (int o = 0; o < nops; o++)
      for (int s = 0; s < nsizes; s++) {
        gp_op op = ops[o];
        gp_dtype out_t = gp_reduce_out_type(op, t);
        reduce_arg arg = {gpb_context(b), op, t, in, (size_t)sizes[s], out, GP_REDUCE_AUTO, 0
#if GP_HAVE_CUDA
                          , NULL
#endif
        };
        double bytes = (double)sizes[s] * (double)es;
        gpb_result peer_res[2];
        int have_peer = 0;
        double peer_v = 0;
        uint64_t peer_bits = 0;
        char name[96];
#if GP_HAVE_CUDA
        if (peers) {
          int e = gpb_cub_reduce_create(&arg.peer, (int)t, (int)op, in, (size_t)sizes[s], out);
          if (e) {
            fprintf(stderr, "gpuprims bench reduce: CUB setup failed (cudaError %d): no peer rows\n", e);
          } else {
            const char *impls[2] = {"cub", "thrust"};
            int (*runs[2])(void *, void *) = {run_cub, run_thrust};
            for (int q = 0; q < 2; q++) {
              snprintf(name, sizeof name, "reduce %s", gp_op_name(op));
              gpb_case c = {impls[q], name, gp_dtype_name(t), NULL, sizes[s], 0, bytes, runs[q], NULL, &arg};
              gpb_time_case(b, &c, &peer_res[q]);
              if (q == 0 && peer_res[0].ok) {
                have_peer = !read_result(b, out_t, out, &peer_v, &peer_bits);
              }
            }
          }
        }
#endif
        int nrun = do_ladder ? (int)NLADDER : nalgo;
        for (int k = 0; k < nrun; k++) {
          char note[96] = "";
          if (do_ladder) {
            arg.algo = ladder[k].algo;
            arg.two_phase_blocks = ladder[k].full_grid
                                       ? (unsigned)((dev->sm_count > 0 ? dev->sm_count : 
                                                     (dev->cpu_threads > 0 ? dev->cpu_threads : 1)) * 8)
                                       : 0;
            snprintf(name, sizeof name, "reduce %s %s", gp_op_name(op), ladder[k].label);
            snprintf(note, sizeof note, "%s", ladder[k].note);
          } else {
            arg.algo = algos[k];
            arg.two_phase_blocks = 0;
            snprintf(name, sizeof name, "reduce %s %s", gp_op_name(op), gp_reduce_algo_name(arg.algo));
          }
          gpb_case c = {"gpuprims", name, gp_dtype_name(t), note, sizes[s], 0, bytes, run_ours, NULL, &arg};
          gpb_result r;
          if (gpb_time_case(b, &c, &r) == 0 && have_peer) {
            double v;
            uint64_t bits;
            if (!read_result(b, out_t, out, &v, &bits) &&
                !agree(op, out_t, v, bits, peer_v, peer_bits)) {
              snprintf(r.note, sizeof r.note, "MISMATCH: %.17g vs cub %.17g", v, peer_v);
              rc = 1;
            }
          }
          if (have_peer) gpb_set_ratio(&r, &peer_res[0]);
          gpb_emit(b, &r);
          if (!r.ok) rc = 1;
        }
        (void)gp_set_two_phase_blocks(gpb_context(b), 0);
#if GP_HAVE_CUDA
        if (arg.peer) {
          gpb_emit(b, &peer_res[0]);
          gpb_emit(b, &peer_res[1]);
          gpb_cub_reduce_destroy(arg.peer);
        }
#endif
        (void)peer_res;
        (void)peer_v;
      }
    gpb_free(b, in);
    gpb_free(b, out);
  }
  int crc = gpb_close(b);
  return rc ? rc : crc;
}
