/* `gpuprims bench reduce`: gp_reduce against CUB and thrust on the same device data and
 * stream, and (--ladder) the seed's kernel ladder with the cost each step removes;
 * gp_argreduce against cub::DeviceReduce::ArgMin/ArgMax (--op argmin,argmax) and
 * gp_reduce_rows against cub::DeviceSegmentedReduce::Sum (--rows LEN,...), and
 * gp_reduce_segments_offsets against the same with begin/end offsets (--offsets KIND,...);
 * with --op argmin,argmax and --rows / --offsets, gp_argreduce_rows and
 * gp_argreduce_segments_offsets against cub::DeviceSegmentedReduce::ArgMin/ArgMax.
 * With the CPU backend it times the CPU implementations (no peers).
 * The cases are a table of steps (the ladder, or one step per --algo) timed for every
 * dtype x op x size. */
#define _POSIX_C_SOURCE 200809L
#include "harness.h"
#include "harness_kernels.h"
#include "offsets.h"
#include "suites.h"
#if GP_HAVE_CUDA
#include "peers/cub_reduce.h"
#endif

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LIST 32

/* One row of ours per dtype x op x size: its label in the case name, algorithm, grid,
 * and the note column (the ladder: what it removes relative to the step before). */
typedef struct reduce_step {
  const char *label;
  gp_reduce_algo algo;
  int full_grid; /* two-phase with 8 blocks per SM (or CPU thread), not the chapter's 64 */
  const char *note;
} reduce_step;

static const reduce_step ladder[] = {
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
  {"auto", GP_REDUCE_AUTO, 0, "the library's path: wide loads; float SUM correctly rounded"},
};
#define NLADDER ((int)(sizeof ladder / sizeof ladder[0]))

/* What the command line asked for. */
typedef struct reduce_plan {
  gp_dtype dtypes[MAX_LIST];
  gp_op ops[MAX_LIST];
  gp_reduce_algo algos[MAX_LIST];
  uint64_t sizes[MAX_LIST];
  gp_op argops[2]; /* --op argmin / argmax: GP_MIN / GP_MAX */
  uint64_t rows[MAX_LIST]; /* --rows: segment lengths */
  int offk[GPB_OFF_KINDS];  /* --offsets: kinds of segment lengths */
  int ndt, nops, nalgo, nsizes, do_ladder, peers, nargs, nrows, noff;
  int query; /* --pointer-query: our rows call gp_reduce, not gp_reduce_device */
  int data;  /* --data: GPB_UNIFORM (the hash's [0, 1)), GPB_NORMAL, ... */
  reduce_step steps[MAX_LIST];
  int nsteps;
} reduce_plan;

typedef struct reduce_arg {
  gp_context *ctx;
  gp_op op;
  gp_dtype t;
  const void *in;
  size_t n;
  void *out;
  gp_reduce_algo algo;
  unsigned two_phase_blocks; /* 0: the chapter's 64 */
  int query;                 /* gp_reduce (two pointer queries) instead of gp_reduce_device */
#if GP_HAVE_CUDA
  gpb_cub_reduce *peer;
#endif
} reduce_arg;

/* What the peers measured for one op x size, and CUB's result for the cross-check. */
typedef struct peer_rows {
  gpb_result res[2]; /* cub, thrust */
  int created;       /* the peer was set up: its rows are emitted */
  int have_result;   /* CUB ran and its result was read */
  double v;
  uint64_t bits;
} peer_rows;

static int run_ours(void *p, void *stream) {
  reduce_arg *a = (reduce_arg *)p;
  (void)stream; /* the context launches on the harness stream (gpb_open set it) */
  gp_status s = gp_set_two_phase_blocks(a->ctx, a->two_phase_blocks);
  if (s == GP_OK)
    s = a->query ? gp_reduce(a->ctx, a->op, a->t, a->in, a->n, a->out, a->algo)
                 : gp_reduce_device(a->ctx, a->op, a->t, a->in, a->n, a->out, a->algo);
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

/* One result of type t in host bytes, as double (for the cross-check), and exactly. */
static void decode_result(gp_dtype t, const unsigned char *host, double *v, uint64_t *bits) {
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
}

/* The last result a case left in `out` (device memory), decoded. */
static int read_result(gpb_bench *b, gp_dtype t, const void *out, double *v, uint64_t *bits) {
  unsigned char host[8] = {0};
  if (gpb_copy(b, host, out, gp_dtype_size(t))) return 1;
  decode_result(t, host, v, bits);
  return 0;
}

/* Do two results agree? Integers and MIN/MAX exactly; float sums within rounding. */
/* --data: names, and each law's mean |x| (for the SUM check's tolerance) */
static const char *data_name[GPB_NDATA] = {"uniform", "normal", "lognormal", "wide"};
static const double data_mean_abs[GPB_NDATA] = {0.5, 0.8, 90.0, 2e7};
static int g_data; /* the run's law (one per run): named in the case, sets the tolerance */

/* A SUM of n inputs against CUB's: uniform data in [0, 1) has no cancellation, so
 * relative agreement; with cancellation (normal, wide) CUB's own rounding error is
 * bounded by the sum of |x| instead, ~ n * mean |x|. */
static int agree(gp_op op, gp_dtype out_t, double a, uint64_t abits, double b, uint64_t bbits,
                 size_t n) {
  if (out_t != GP_F32 && out_t != GP_F64) return abits == bbits;
  if (op != GP_SUM) return a == b || (isnan(a) && isnan(b));
  double tol = out_t == GP_F32 ? 1e-4 : 1e-10;
  double floor = g_data == GPB_UNIFORM ? 1e-30 : tol * 1e-2 * (double)n * data_mean_abs[g_data];
  return fabs(a - b) <= tol * fabs(b) + floor;
}

/* the case name with the data's law when it is not the default */
static void case_name(char *buf, size_t size, const char *what) {
  if (g_data == GPB_UNIFORM) snprintf(buf, size, "%s", what);
  else snprintf(buf, size, "%s [%s]", what, data_name[g_data]);
}

static void usage(FILE *f) {
  fprintf(f,
          "usage: gpuprims bench reduce [--dtype f32,...] [--op sum,...] [--n 2^20,2^24,...]\n"
          "                             [--algo auto|all|interleaved,...] [--ladder] [--no-peers]\n"
          "                             [--rows LEN,...] [--offsets KIND,...] [--pointer-query]\n"
          "                             [--data uniform|normal|lognormal|wide]\n"
          "                             [shared options]\n\n"
          "Times gp_reduce_device on random device data (a hash per element, generated on the GPU),\n"
          "with cub::DeviceReduce and thrust::reduce on the same buffer and stream, and the\n"
          "ratio peer time / our time in our rows (>1: gpuprims is faster).\n"
          "Default: f32 sum, n = 2^18, 2^20, ..., 2^30 (2^26 on the CPU backend), algo auto.\n"
          "  --ladder   the seed's kernel ladder at 2^24 and 2^28 (or --n): interleaved,\n"
          "             sequential, two-phase with 64 blocks, two-phase with a full-GPU grid,\n"
          "             warp-atomic, auto; GB/s each and the cost each step removed\n"
          "  --op       also argmin, argmax: gp_argreduce vs cub::DeviceReduce::ArgMin/ArgMax\n"
          "             (with --rows or --offsets: gp_argreduce_rows / _segments_offsets,\n"
          "             host offsets, vs cub::DeviceSegmentedReduce::ArgMin/ArgMax; not tiny)\n"
          "  --rows     row lengths: gp_reduce_rows over n / LEN rows of each --op (sum, min,\n"
          "             max) vs cub::DeviceSegmentedReduce::Sum (sum only)\n"
          "  --offsets  kinds of segment lengths, n elements in all: gp_reduce_segments_offsets\n"
          "             (offsets, input and output in device memory) of each --op vs\n"
          "             cub::DeviceSegmentedReduce::Sum with begin/end offsets (sum only):\n");
  gpb_print_offset_kinds(f, 13);
  fprintf(f,
          "  --no-peers skip CUB and thrust\n"
          "  --data     the float inputs' law (integers stay hashes): uniform in [0, 1) (24\n"
          "             random bits an f32, 53 an f64; the default), normal, lognormal\n"
          "             (exp(3 z)), wide (z * 2^k, k in -30..30); named in each case. The\n"
          "             exact SUM's speed depends on it; CUB's does not\n"
          "  --pointer-query  our reduce rows call gp_reduce, which asks CUDA where in and out\n"
          "             live (two cudaPointerGetAttributes, ~1 us); by default they call\n"
          "             gp_reduce_device, which takes device pointers as CUB does\n\n");
  gpb_print_options_help(f);
}

/* ---- the command line ---------------------------------------------------------------- */
/* One item of --dtype, --op or --algo into the plan; 0 when it is not a known value. */
static int add_item(reduce_plan *p, const char *opt, const char *item) {
  if (strcmp(opt, "--dtype") == 0)
    return p->ndt < MAX_LIST && gp_dtype_from_name(item, &p->dtypes[p->ndt++]) == GP_OK;
  if (strcmp(opt, "--op") == 0 && (strcmp(item, "argmin") == 0 || strcmp(item, "argmax") == 0)) {
    if (p->nargs < 2) p->argops[p->nargs++] = item[4] == 'i' ? GP_MIN : GP_MAX;
    return 1;
  }
  if (strcmp(opt, "--op") == 0)
    return p->nops < MAX_LIST && gp_op_from_name(item, &p->ops[p->nops++]) == GP_OK;
  if (strcmp(item, "all") == 0) {
    for (int g = GP_REDUCE_AUTO; g <= GP_REDUCE_WARP_ATOMIC && p->nalgo < MAX_LIST; g++)
      p->algos[p->nalgo++] = (gp_reduce_algo)g;
    return 1;
  }
  if (p->nalgo >= MAX_LIST) return 1;
  return gp_reduce_algo_from_name(item, &p->algos[p->nalgo++]) == GP_OK;
}

/* --n, --dtype, --op or --algo with its value v. Returns 0, or 2 (printed) for a bad value. */
static int parse_list(reduce_plan *p, const char *opt, const char *v) {
  if (strcmp(opt, "--offsets") == 0)
    return gpb_parse_offset_kinds("reduce", v, p->offk, &p->noff) ? 2 : 0;
  if (strcmp(opt, "--rows") == 0) {
    if (gpb_parse_sizes(v, p->rows, MAX_LIST, &p->nrows) || p->nrows == 0) {
      fprintf(stderr, "gpuprims bench reduce: --rows '%s': give row lengths like 1,32,1024,2^20\n", v);
      return 2;
    }
    for (int k = 0; k < p->nrows; k++)
      if (p->rows[k] == 0) {
        fprintf(stderr, "gpuprims bench reduce: --rows: a row length must be at least 1\n");
        return 2;
      }
    return 0;
  }
  if (strcmp(opt, "--n") == 0) {
    if (gpb_parse_sizes(v, p->sizes, MAX_LIST, &p->nsizes) || p->nsizes == 0) {
      fprintf(stderr, "gpuprims bench reduce: --n '%s': give sizes like 2^20,2^24,1000000,16M\n", v);
      return 2;
    }
    return 0;
  }
  char buf[512];
  snprintf(buf, sizeof buf, "%s", v);
  char *items[MAX_LIST];
  int k = gpb_split_list(buf, items, MAX_LIST);
  for (int j = 0; j < k; j++) {
    if (add_item(p, opt, items[j])) continue;
    fprintf(stderr, "gpuprims bench reduce: %s: unknown value '%s'%s\n", opt, items[j],
            strcmp(opt, "--dtype") == 0 ? " (f32, f64, i32, i64, u32, u64)"
            : strcmp(opt, "--op") == 0  ? " (sum, min, max, argmin, argmax)"
                                        : " (auto, all, interleaved, sequential, two-phase, warp-atomic)");
    return 2;
  }
  return 0;
}

/* Fills opt and p from argv. Returns -1 to go on, or the exit status (0 after --help). */
static int parse_args(int argc, char **argv, gpb_options *opt, reduce_plan *p) {
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
      usage(stdout);
      return 0;
    }
    int r = gpb_parse_option(opt, "reduce", argc, argv, &i);
    if (r < 0) return 2;
    if (r > 0) continue;
    if (strcmp(a, "--ladder") == 0) { p->do_ladder = 1; continue; }
    if (strcmp(a, "--no-peers") == 0) { p->peers = 0; continue; }
    if (strcmp(a, "--pointer-query") == 0) { p->query = 1; continue; }
    if (strcmp(a, "--data") == 0) {
      int k = 0;
      while (k < GPB_NDATA && (i + 1 >= argc || strcmp(argv[i + 1], data_name[k]) != 0)) k++;
      if (k == GPB_NDATA) {
        fprintf(stderr, "gpuprims bench reduce: --data needs one of uniform, normal, lognormal, wide\n");
        return 2;
      }
      p->data = k;
      i++;
      continue;
    }
    int is_list = strcmp(a, "--dtype") == 0 || strcmp(a, "--op") == 0 ||
                  strcmp(a, "--n") == 0 || strcmp(a, "--algo") == 0 || strcmp(a, "--rows") == 0 ||
                  strcmp(a, "--offsets") == 0;
    if (!is_list) {
      fprintf(stderr, "gpuprims bench reduce: unknown option '%s' (see --help)\n", a);
      return 2;
    }
    if (i + 1 >= argc) {
      fprintf(stderr, "gpuprims bench reduce: %s needs a value\n", a);
      return 2;
    }
    if (parse_list(p, a, argv[++i])) return 2;
  }
  return -1;
}

/* Defaults for what was not asked for, and the table of steps: the ladder, or one step
 * per --algo. Sizes default by backend (the CPU stops at 2^26). */
static void complete_plan(reduce_plan *p, int cuda) {
  if (!p->ndt) p->dtypes[p->ndt++] = GP_F32;
  if (!p->nops && !p->nargs) p->ops[p->nops++] = GP_SUM;
  if (!p->nalgo) p->algos[p->nalgo++] = GP_REDUCE_AUTO;
  if (!p->nsizes) {
    if (p->do_ladder) {
      p->sizes[p->nsizes++] = (uint64_t)1 << 24;
      p->sizes[p->nsizes++] = (uint64_t)1 << 28;
    } else {
      for (int k = 18; k <= (cuda ? 30 : 26); k += 2) p->sizes[p->nsizes++] = (uint64_t)1 << k;
    }
  }
  p->nsteps = 0;
  if (p->do_ladder) {
    for (int k = 0; k < NLADDER; k++) p->steps[p->nsteps++] = ladder[k];
  } else {
    for (int k = 0; k < p->nalgo; k++) {
      reduce_step s = {gp_reduce_algo_name(p->algos[k]), p->algos[k], 0, ""};
      p->steps[p->nsteps++] = s;
    }
  }
}

/* Whether the peers run here; the note printed under the header when they do not. */
static const char *settle_peers(reduce_plan *p, int cuda) {
  const char *note = NULL;
#if !GP_HAVE_CUDA
  (void)cuda;
  if (p->peers) note = "# peers (CUB, thrust): not built (gpuprims was built without CUDA)";
  p->peers = 0;
#else
  if (p->peers && !cuda) note = "# peers (CUB, thrust): skipped on the CPU backend";
  if (!cuda) p->peers = 0;
#endif
  return note;
}

/* ---- the cases -------------------------------------------------------------------------- */
/* Times CUB then thrust on a's buffers into pr (nothing when the peers are off). */
static void time_peers(gpb_bench *b, reduce_arg *a, int peers, double bytes, peer_rows *pr) {
  memset(pr, 0, sizeof *pr);
#if GP_HAVE_CUDA
  if (!peers) return;
  int e = gpb_cub_reduce_create(&a->peer, (int)a->t, (int)a->op, a->in, a->n, a->out);
  if (e) {
    fprintf(stderr, "gpuprims bench reduce: CUB setup failed (cudaError %d): no peer rows\n", e);
    return;
  }
  pr->created = 1;
  const char *impls[2] = {"cub", "thrust"};
  int (*runs[2])(void *, void *) = {run_cub, run_thrust};
  char name[96], what[64];
  snprintf(what, sizeof what, "reduce %s", gp_op_name(a->op));
  case_name(name, sizeof name, what);
  for (int q = 0; q < 2; q++) {
    gpb_case c = {impls[q], name, gp_dtype_name(a->t), NULL, a->n, 0, bytes, runs[q], NULL, a};
    gpb_time_case(b, &c, &pr->res[q]);
    if (q == 0 && pr->res[0].ok)
      pr->have_result = !read_result(b, gp_reduce_out_type(a->op, a->t), a->out, &pr->v, &pr->bits);
  }
#else
  (void)b; (void)a; (void)peers; (void)bytes;
#endif
}

/* Emits the peers' rows after ours and frees the peer. */
static void emit_peers(gpb_bench *b, reduce_arg *a, peer_rows *pr) {
#if GP_HAVE_CUDA
  if (!pr->created) return;
  gpb_emit(b, &pr->res[0]);
  gpb_emit(b, &pr->res[1]);
  gpb_cub_reduce_destroy(a->peer);
  a->peer = NULL;
#else
  (void)b; (void)a; (void)pr;
#endif
}

/* Times one step of ours, checks its result against CUB's and emits the row.
 * Returns 1 when it failed or disagreed. */
static int time_step(gpb_bench *b, reduce_arg *a, const reduce_step *s, double bytes,
                     const peer_rows *pr) {
  const gpb_device *dev = gpb_device_of(b);
  const int units = dev->sm_count > 0 ? dev->sm_count : (dev->cpu_threads > 0 ? dev->cpu_threads : 1);
  a->algo = s->algo;
  a->two_phase_blocks = s->full_grid ? (unsigned)(units * 8) : 0;
  char name[96], what[64];
  snprintf(what, sizeof what, "reduce %s %s", gp_op_name(a->op), s->label);
  case_name(name, sizeof name, what);
  gpb_case c = {"gpuprims", name, gp_dtype_name(a->t), s->note, a->n, 0, bytes, run_ours, NULL, a};
  gpb_result r;
  int rc = 0;
  if (gpb_time_case(b, &c, &r) == 0 && pr->have_result) {
    const gp_dtype out_t = gp_reduce_out_type(a->op, a->t);
    double v;
    uint64_t bits;
    if (!read_result(b, out_t, a->out, &v, &bits) &&
        !agree(a->op, out_t, v, bits, pr->v, pr->bits, a->n)) {
      snprintf(r.note, sizeof r.note, "MISMATCH: %.17g vs cub %.17g", v, pr->v);
      rc = 1;
    }
  }
  if (pr->have_result) gpb_set_ratio(&r, &pr->res[0]);
  gpb_emit(b, &r);
  return rc || !r.ok;
}

/* Every step of ours and the peers for one op x size. Returns 1 if a row failed. */
static int time_op_size(gpb_bench *b, const reduce_plan *p, gp_op op, gp_dtype t,
                        const void *in, void *out, uint64_t n) {
  reduce_arg arg;
  memset(&arg, 0, sizeof arg);
  arg.ctx = gpb_context(b);
  arg.op = op;
  arg.t = t;
  arg.in = in;
  arg.n = (size_t)n;
  arg.out = out;
  arg.query = p->query;
  const double bytes = (double)n * (double)gp_dtype_size(t);
  peer_rows pr;
  time_peers(b, &arg, p->peers, bytes, &pr);
  int rc = 0;
  for (int k = 0; k < p->nsteps; k++) rc |= time_step(b, &arg, &p->steps[k], bytes, &pr);
  (void)gp_set_two_phase_blocks(arg.ctx, 0);
  emit_peers(b, &arg, &pr);
  return rc;
}

/* ---- arg-min / arg-max and rows ---------------------------------------------------- */
typedef struct extra_arg {
  gp_context *ctx;
  gp_op op;
  gp_dtype t;
  const void *in;
  size_t n, row_len, nseg;
  const uint64_t *offsets; /* --offsets: nseg + 1, device (argmin/argmax: host) */
  void *out; /* argreduce: value at +0, index at +8; rows: n / row_len results */
  uint64_t *index; /* argmin/argmax of rows or offsets: nseg indices */
#if GP_HAVE_CUDA
  gpb_cub_arg *arg_peer;
  gpb_cub_seg *seg_peer;
#endif
} extra_arg;

static int run_arg(void *p, void *stream) {
  extra_arg *a = (extra_arg *)p;
  (void)stream;
  gp_status s = gp_argreduce(a->ctx, a->op, a->t, a->in, a->n, a->out, (uint64_t *)((char *)a->out + 8));
  if (s != GP_OK)
    fprintf(stderr, "gpuprims bench reduce: gp_argreduce failed: %s\n", gp_last_error(a->ctx));
  return s != GP_OK;
}
static int run_rows(void *p, void *stream) {
  extra_arg *a = (extra_arg *)p;
  (void)stream;
  gp_status s = gp_reduce_rows(a->ctx, a->op, a->t, a->in, a->n / a->row_len, a->row_len, a->out);
  if (s != GP_OK)
    fprintf(stderr, "gpuprims bench reduce: gp_reduce_rows failed: %s\n", gp_last_error(a->ctx));
  return s != GP_OK;
}
static int run_offsets(void *p, void *stream) {
  extra_arg *a = (extra_arg *)p;
  (void)stream;
  gp_status s = gp_reduce_segments_offsets(a->ctx, a->op, a->t, a->in, a->offsets, a->nseg, a->out);
  if (s != GP_OK)
    fprintf(stderr, "gpuprims bench reduce: gp_reduce_segments_offsets failed: %s\n", gp_last_error(a->ctx));
  return s != GP_OK;
}
static int run_argseg(void *p, void *stream) {
  extra_arg *a = (extra_arg *)p;
  (void)stream;
  gp_status s = a->offsets
                    ? gp_argreduce_segments_offsets(a->ctx, a->op, a->t, a->in, a->offsets,
                                                    a->nseg, a->out, a->index)
                    : gp_argreduce_rows(a->ctx, a->op, a->t, a->in, a->nseg, a->row_len, a->out,
                                        a->index);
  if (s != GP_OK)
    fprintf(stderr, "gpuprims bench reduce: gp_argreduce_%s failed: %s\n",
            a->offsets ? "segments_offsets" : "rows", gp_last_error(a->ctx));
  return s != GP_OK;
}
#if GP_HAVE_CUDA
static int run_cub_arg(void *p, void *stream) {
  int e = gpb_cub_arg_run(((extra_arg *)p)->arg_peer, stream);
  if (e) fprintf(stderr, "gpuprims bench reduce: cub ArgMin/ArgMax failed (cudaError %d)\n", e);
  return e != 0;
}
static int run_cub_seg(void *p, void *stream) {
  int e = gpb_cub_seg_run(((extra_arg *)p)->seg_peer, stream);
  if (e) fprintf(stderr, "gpuprims bench reduce: cub segmented Sum failed (cudaError %d)\n", e);
  return e != 0;
}
#endif

/* gp_argreduce and CUB's on the same input; the indices must agree (no NaN in the data,
 * both return the first occurrence). Returns 1 when a row failed or disagreed. */
static int time_arg(gpb_bench *b, int peers, gp_op op, gp_dtype t, const void *in, void *out,
                    uint64_t n) {
  extra_arg a;
  memset(&a, 0, sizeof a);
  a.ctx = gpb_context(b);
  a.op = op;
  a.t = t;
  a.in = in;
  a.n = (size_t)n;
  a.out = out;
  const double bytes = (double)n * (double)gp_dtype_size(t);
  const char *name = op == GP_MIN ? "reduce argmin" : "reduce argmax";
  gpb_result ours, cub;
  memset(&cub, 0, sizeof cub);
  int have_peer = 0, rc = 0;
  uint64_t peer_idx = 0;
#if GP_HAVE_CUDA
  if (peers && gpb_cub_arg_create(&a.arg_peer, (int)t, op == GP_MAX, in, a.n, (char *)out + 16,
                                  (char *)out + 24) == 0) {
    gpb_case c = {"cub", name, gp_dtype_name(t), NULL, n, 0, bytes, run_cub_arg, NULL, &a};
    have_peer = gpb_time_case(b, &c, &cub) == 0 && cub.ok &&
                gpb_copy(b, &peer_idx, (char *)out + 24, 8) == 0;
  }
#else
  (void)peers;
#endif
  gpb_case c = {"gpuprims", name, gp_dtype_name(t), NULL, n, 0, bytes, run_arg, NULL, &a};
  if (gpb_time_case(b, &c, &ours) == 0 && have_peer) {
    uint64_t idx = 0;
    if (gpb_copy(b, &idx, (char *)out + 8, 8) == 0 && idx != peer_idx) {
      snprintf(ours.note, sizeof ours.note, "MISMATCH: index %llu vs cub %llu",
               (unsigned long long)idx, (unsigned long long)peer_idx);
      rc = 1;
    }
    gpb_set_ratio(&ours, &cub);
  }
  gpb_emit(b, &ours);
#if GP_HAVE_CUDA
  if (a.arg_peer) {
    gpb_emit(b, &cub);
    gpb_cub_arg_destroy(a.arg_peer);
  }
#endif
  return rc || !ours.ok;
}

/* Our segmented row, then CUB's when it ran (its peer freed). */
static void emit_seg(gpb_bench *b, extra_arg *a, const gpb_result *ours, const gpb_result *cub) {
  gpb_emit(b, ours);
#if GP_HAVE_CUDA
  if (a->seg_peer) {
    gpb_emit(b, cub);
    gpb_cub_seg_destroy(a->seg_peer);
    a->seg_peer = NULL;
  }
#else
  (void)a;
  (void)cub;
#endif
}

/* gp_reduce_rows over n / row_len rows, and CUB's segmented sum for SUM; the first
 * row's results must agree within rounding. Returns 1 when a row failed. */
static int time_rows(gpb_bench *b, int peers, gp_op op, gp_dtype t, const void *in, uint64_t n,
                     uint64_t row_len) {
  const size_t nseg = (size_t)(n / row_len);
  const gp_dtype out_t = gp_reduce_out_type(op, t);
  const size_t os = gp_dtype_size(out_t);
  if (nseg == 0) return 0;
  extra_arg a;
  memset(&a, 0, sizeof a);
  a.ctx = gpb_context(b);
  a.op = op;
  a.t = t;
  a.in = in;
  a.n = nseg * (size_t)row_len;
  a.row_len = (size_t)row_len;
  void *peer_out = NULL;
  if (gpb_alloc(b, nseg * os, &a.out) || gpb_alloc(b, nseg * os, &peer_out)) {
    gpb_free(b, a.out);
    return 1;
  }
  const double bytes = (double)a.n * (double)gp_dtype_size(t);
  char name[96], what[64];
  snprintf(what, sizeof what, "rows %s len %llu", gp_op_name(op), (unsigned long long)row_len);
  case_name(name, sizeof name, what);
  gpb_result ours, cub;
  memset(&cub, 0, sizeof cub);
  int have_peer = 0, rc = 0;
#if GP_HAVE_CUDA
  if (peers && op == GP_SUM &&
      gpb_cub_seg_create(&a.seg_peer, (int)t, in, nseg, (size_t)row_len, peer_out) == 0) {
    gpb_case c = {"cub", name, gp_dtype_name(t), NULL, a.n, 0, bytes, run_cub_seg, NULL, &a};
    have_peer = gpb_time_case(b, &c, &cub) == 0 && cub.ok;
  }
#else
  (void)peers;
#endif
  gpb_case c = {"gpuprims", name, gp_dtype_name(t), NULL, a.n, 0, bytes, run_rows, NULL, &a};
  if (gpb_time_case(b, &c, &ours) == 0 && have_peer) {
    double v, pv;
    uint64_t bits, pbits;
    if (!read_result(b, out_t, a.out, &v, &bits) && !read_result(b, out_t, peer_out, &pv, &pbits) &&
        !agree(op, out_t, v, bits, pv, pbits, a.row_len)) {
      snprintf(ours.note, sizeof ours.note, "MISMATCH: row 0 %.17g vs cub %.17g", v, pv);
      rc = 1;
    }
    gpb_set_ratio(&ours, &cub);
  }
  emit_seg(b, &a, &ours, &cub);
  gpb_free(b, a.out);
  gpb_free(b, peer_out);
  return rc || !ours.ok;
}

/* gp_reduce_segments_offsets over segments of one kind, n elements in all, and CUB's
 * segmented sum for SUM on the same device offsets; every segment's results must agree
 * within rounding. Returns 1 when a row failed. */
static int time_offsets(gpb_bench *b, int peers, gp_op op, gp_dtype t, const void *in, uint64_t n,
                        int kind) {
  const gp_dtype out_t = gp_reduce_out_type(op, t);
  const size_t os = gp_dtype_size(out_t);
  uint64_t *h_off = NULL;
  const size_t nseg = gpb_make_offsets(kind, (size_t)n, &h_off);
  extra_arg a;
  memset(&a, 0, sizeof a);
  a.ctx = gpb_context(b);
  a.op = op;
  a.t = t;
  a.in = in;
  a.nseg = nseg;
  void *peer_out = NULL, *d_off = NULL;
  unsigned char *h_ours = (unsigned char *)malloc(nseg * os + 8), *h_peer = (unsigned char *)malloc(nseg * os + 8);
  int rc = 0;
  if (!h_off || !h_ours || !h_peer || nseg == 0 || gpb_alloc(b, (nseg + 1) * 8, &d_off) ||
      gpb_copy(b, d_off, h_off, (nseg + 1) * 8) || gpb_alloc(b, nseg * os, &a.out) ||
      gpb_alloc(b, nseg * os, &peer_out)) {
    fprintf(stderr, "gpuprims bench reduce: cannot set up %s offsets of %llu elements\n",
            gpb_off_names[kind], (unsigned long long)n);
    rc = 1;
    goto done;
  }
  a.offsets = (const uint64_t *)d_off;
  a.n = (size_t)h_off[nseg];
  const double bytes = (double)a.n * (double)gp_dtype_size(t) + (double)(nseg + 1) * 8.0;
  char name[96], what[64], note[64];
  snprintf(what, sizeof what, "offsets %s %s", gp_op_name(op), gpb_off_names[kind]);
  case_name(name, sizeof name, what);
  snprintf(note, sizeof note, "%zu segment%s", nseg, nseg == 1 ? "" : "s");
  gpb_result ours, cub;
  memset(&cub, 0, sizeof cub);
  int have_peer = 0;
#if GP_HAVE_CUDA
  if (peers && op == GP_SUM &&
      gpb_cub_seg_create_offsets(&a.seg_peer, (int)t, in, nseg, h_off, peer_out) == 0) {
    gpb_case c = {"cub", name, gp_dtype_name(t), note, a.n, 0, bytes, run_cub_seg, NULL, &a};
    have_peer = gpb_time_case(b, &c, &cub) == 0 && cub.ok;
  }
#else
  (void)peers;
#endif
  gpb_case c = {"gpuprims", name, gp_dtype_name(t), note, a.n, 0, bytes, run_offsets, NULL, &a};
  if (gpb_time_case(b, &c, &ours) == 0 && have_peer && !gpb_copy(b, h_ours, a.out, nseg * os) &&
      !gpb_copy(b, h_peer, peer_out, nseg * os)) {
    size_t bad = 0, first = 0;
    for (size_t s = 0; s < nseg; s++) {
      double v, pv;
      uint64_t bits, pbits;
      decode_result(out_t, h_ours + s * os, &v, &bits);
      decode_result(out_t, h_peer + s * os, &pv, &pbits);
      if (!agree(op, out_t, v, bits, pv, pbits, (size_t)(h_off[s + 1] - h_off[s])) && bad++ == 0) first = s;
    }
    if (bad) {
      snprintf(ours.note, sizeof ours.note, "MISMATCH: %zu segments (first %zu)", bad, first);
      rc = 1;
    }
    gpb_set_ratio(&ours, &cub);
  }
  emit_seg(b, &a, &ours, &cub);
  rc |= !ours.ok;
done:
  gpb_free(b, a.out);
  gpb_free(b, peer_out);
  gpb_free(b, d_off);
  free(h_off);
  free(h_ours);
  free(h_peer);
  return rc;
}

/* gp_argreduce_rows over n / row_len rows (kind < 0) or gp_argreduce_segments_offsets
 * over segments of one kind (host offsets, as the call takes them), input and outputs in
 * device memory, against cub::DeviceSegmentedReduce::ArgMin/ArgMax on the same input
 * (device offsets); every segment's index must agree (the data has no NaN; both give the
 * first occurrence). Returns 1 when a row failed or disagreed. */
static int time_argseg(gpb_bench *b, int peers, gp_op op, gp_dtype t, const void *in, uint64_t n,
                       uint64_t row_len, int kind) {
  const size_t es = gp_dtype_size(t);
  uint64_t *h_off = NULL;
  size_t nseg;
  if (kind >= 0) {
    nseg = gpb_make_offsets(kind, (size_t)n, &h_off);
  } else {
    nseg = (size_t)(n / row_len);
    h_off = (uint64_t *)malloc((nseg + 1) * 8);
    for (size_t i = 0; h_off && i <= nseg; i++) h_off[i] = i * row_len;
  }
  extra_arg a;
  memset(&a, 0, sizeof a);
  a.ctx = gpb_context(b);
  a.op = op;
  a.t = t;
  a.in = in;
  a.nseg = nseg;
  a.row_len = (size_t)row_len;
  a.offsets = kind >= 0 ? h_off : NULL;
  void *peer_out = NULL;
  const size_t pair = 16; /* room for CUB's KeyValuePair<int, T> of any T */
  uint64_t *h_ours = (uint64_t *)malloc(nseg * 8 + 8);
  unsigned char *h_peer = (unsigned char *)malloc(nseg * pair + 8);
  int rc = 0;
  if (!h_off || !h_ours || !h_peer || nseg == 0 || gpb_alloc(b, nseg * es, &a.out) ||
      gpb_alloc(b, nseg * 8, (void **)&a.index) || gpb_alloc(b, nseg * pair, &peer_out)) {
    fprintf(stderr, "gpuprims bench reduce: cannot set up arg%s segments of %llu elements\n",
            op == GP_MIN ? "min" : "max", (unsigned long long)n);
    rc = 1;
    goto done;
  }
  a.n = (size_t)h_off[nseg];
  const double bytes = (double)a.n * (double)es;
  char name[96], what[64], note[64];
  if (kind >= 0)
    snprintf(what, sizeof what, "offsets arg%s %s", op == GP_MIN ? "min" : "max", gpb_off_names[kind]);
  else
    snprintf(what, sizeof what, "rows arg%s len %llu", op == GP_MIN ? "min" : "max",
             (unsigned long long)row_len);
  case_name(name, sizeof name, what);
  snprintf(note, sizeof note, "%zu segment%s", nseg, nseg == 1 ? "" : "s");
  gpb_result ours, cub;
  memset(&cub, 0, sizeof cub);
  int have_peer = 0;
#if GP_HAVE_CUDA
  if (peers && gpb_cub_segarg_create_offsets(&a.seg_peer, (int)t, op == GP_MAX ? 2 : 1, in, nseg,
                                             h_off, peer_out) == 0) {
    gpb_case c = {"cub", name, gp_dtype_name(t), note, a.n, 0, bytes, run_cub_seg, NULL, &a};
    have_peer = gpb_time_case(b, &c, &cub) == 0 && cub.ok;
  }
#else
  (void)peers;
#endif
  gpb_case c = {"gpuprims", name, gp_dtype_name(t), note, a.n, 0, bytes, run_argseg, NULL, &a};
  if (gpb_time_case(b, &c, &ours) == 0 && have_peer && !gpb_copy(b, h_ours, a.index, nseg * 8) &&
      !gpb_copy(b, h_peer, peer_out, nseg * pair)) {
#if GP_HAVE_CUDA
    const size_t pb = gpb_cub_segarg_pair_bytes((int)t);
#else
    const size_t pb = pair;
#endif
    size_t bad = 0, first = 0;
    for (size_t i = 0; i < nseg; i++) {
      int32_t key;
      memcpy(&key, h_peer + i * pb, 4);
      if (h_ours[i] != (uint64_t)key && bad++ == 0) first = i;
    }
    if (bad) {
      snprintf(ours.note, sizeof ours.note, "MISMATCH: %zu segments (first %zu)", bad, first);
      rc = 1;
    }
    gpb_set_ratio(&ours, &cub);
  }
  emit_seg(b, &a, &ours, &cub);
  rc |= !ours.ok;
done:
  gpb_free(b, a.out);
  gpb_free(b, a.index);
  gpb_free(b, peer_out);
  free(h_off);
  free(h_ours);
  free(h_peer);
  return rc;
}

/* All ops and sizes of one dtype, on one random buffer of the largest size. Returns 1
 * when it could not be set up or a row failed. */
static int time_dtype(gpb_bench *b, const reduce_plan *p, gp_dtype t, uint64_t max_n) {
  const size_t es = gp_dtype_size(t);
  void *in = NULL, *out = NULL;
  if (max_n > SIZE_MAX / es || gpb_alloc(b, (size_t)max_n * es, &in) || gpb_alloc(b, 64, &out) ||
      gpb_fill_dist(b, t, in, (size_t)max_n, 0x5EED + (uint64_t)t, p->data)) {
    fprintf(stderr, "gpuprims bench reduce: cannot set up %llu elements of %s\n",
            (unsigned long long)max_n, gp_dtype_name(t));
    gpb_free(b, in);
    gpb_free(b, out);
    return 1;
  }
  int rc = 0;
  for (int r = 0; r < p->nrows; r++) /* --rows: segmented cases instead of whole-array ones */
    for (int o = 0; o < p->nops; o++)
      for (int s = 0; s < p->nsizes; s++)
        rc |= time_rows(b, p->peers, p->ops[o], t, in, p->sizes[s], p->rows[r]);
  for (int k = 0; k < p->noff; k++) /* --offsets: the same */
    for (int o = 0; o < p->nops; o++)
      for (int s = 0; s < p->nsizes; s++)
        rc |= time_offsets(b, p->peers, p->ops[o], t, in, p->sizes[s], p->offk[k]);
  for (int o = 0; o < p->nops && !p->nrows && !p->noff; o++)
    for (int s = 0; s < p->nsizes; s++) rc |= time_op_size(b, p, p->ops[o], t, in, out, p->sizes[s]);
  for (int o = 0; o < p->nargs; o++) /* argmin/argmax: of rows, of offsets, or whole */
    for (int s = 0; s < p->nsizes; s++) {
      for (int r = 0; r < p->nrows; r++)
        rc |= time_argseg(b, p->peers, p->argops[o], t, in, p->sizes[s], p->rows[r], -1);
      for (int k = 0; k < p->noff; k++)
        if (p->offk[k] != GPB_OFF_TINY) /* its empty segments have no argmin/argmax */
          rc |= time_argseg(b, p->peers, p->argops[o], t, in, p->sizes[s], 0, p->offk[k]);
      if (!p->nrows && !p->noff) rc |= time_arg(b, p->peers, p->argops[o], t, in, out, p->sizes[s]);
    }
  gpb_free(b, in);
  gpb_free(b, out);
  return rc;
}

int gp_bench_reduce(int argc, char **argv) {
  gpb_options opt;
  gpb_options_default(&opt);
  reduce_plan p;
  memset(&p, 0, sizeof p);
  p.peers = 1;
  int r = parse_args(argc, argv, &opt, &p);
  if (r >= 0) return r;
  g_data = p.data;

  gpb_bench *b;
  if (gpb_open(&b, "reduce", &opt, argc, argv)) return 1;
  const int cuda = gpb_is_cuda(b);
  complete_plan(&p, cuda);
  const char *peer_note = settle_peers(&p, cuda);
  const int per_op = p.nrows || p.noff ? (p.nrows + p.noff) * (1 + (p.peers ? 1 : 0))
                                       : p.nsteps + (p.peers ? 2 : 0);
  const int per_arg = (p.nrows || p.noff ? p.nrows + p.noff : 1) * (1 + (p.peers ? 1 : 0));
  gpb_set_progress_total(b, p.ndt * p.nsizes * (p.nops * per_op + p.nargs * per_arg));
  gpb_print_header(b);
  if (peer_note) printf("%s\n", peer_note);

  uint64_t max_n = 0;
  for (int s = 0; s < p.nsizes; s++)
    if (p.sizes[s] > max_n) max_n = p.sizes[s];
  int rc = 0; /* the first dtype with a failed or mismatched row ends the run */
  for (int d = 0; d < p.ndt && !rc; d++) rc = time_dtype(b, &p, p.dtypes[d], max_n);
  int crc = gpb_close(b);
  return rc ? rc : crc;
}
