/* gp_dist_* on real GPUs through NCCL: every result compared bit for bit with one GPU's
 * gp_sort / gp_sort_pairs / gp_reduce over the concatenated shards.
 *   test_dist_gpu p1      one GPU through gp_dist_create_local(1): exactly gp_sort/gp_reduce
 *   test_dist_gpu local2  one process driving GPUs 0 and 1 (ncclCommInitAll); the sorts
 *                         once by default and once with GPUPRIMS_DIST_SORT=partition
 *   test_dist_gpu procs2  two processes, one GPU each (ncclGetUniqueId through a file,
 *                         ncclCommInitRank, gp_dist_create_comm), killed after
 *                         $GP_TEST_DIST_LIMIT seconds (300), including a bad argument on
 *                         one rank and mismatched calls
 *   test_dist_gpu         all that the machine allows; exit 77 when a part was skipped
 * Shardings are skewed on purpose (all on one rank, one key on one rank, cubic weights),
 * data includes all-equal, presorted, reversed, few distinct keys and special floats.
 * Without NCCL (or without CUDA) the build still runs the UNSUPPORTED checks. */
#define _POSIX_C_SOURCE 200809L /* fork, mkdtemp, setenv, nanosleep */
#include "check.h"

#if GP_HAVE_NCCL
#include "sort_check.h"

#include <cuda_runtime_api.h>
#include <nccl.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#endif

#if !GP_HAVE_NCCL
int main(void) {
  gp_dist *d = NULL;
  CHECK_STATUS(gp_dist_create_local(&d, 2), GP_ERR_UNSUPPORTED);
  CHECK(d != NULL && strstr(gp_dist_last_error(d), "NCCL") != NULL);
  size_t n = 1;
  float x = 1, out = 0;
  const void *in[1] = {&x};
  CHECK_STATUS(gp_dist_reduce(d, GP_SUM, GP_F32, in, &n, &out), GP_ERR_UNSUPPORTED);
  CHECK(strstr(gp_dist_last_error(d), "NCCL") != NULL);
  gp_dist_destroy(d);
  CHECK_STATUS(gp_dist_create_comm(&d, NULL, NULL), GP_ERR_UNSUPPORTED);
  gp_dist_destroy(d);
  CHECK_STATUS(gp_dist_create_file(&d, "/tmp/gp_id", 0, 1, 0), GP_ERR_UNSUPPORTED);
  CHECK(strstr(gp_dist_last_error(d), "NCCL") != NULL);
  gp_dist_destroy(d);
  gp_dist_destroy(NULL);
  return check_summary("test_dist_gpu (no NCCL: UNSUPPORTED)");
}
#else

#define DCHECK_OK(d, call)                                                          \
  CHECK_REPORT_((call) == GP_OK, "%s failed: %s", #call, gp_dist_last_error(d))
#include "cuda_check.h"

/* ---- shards ----------------------------------------------------------------------- */
enum { SH_EVEN, SH_FIRST, SH_LAST, SH_ONE, SH_CUBIC, SH_COUNT };
static const char *sh_name[] = {"even", "all-on-first", "all-on-last", "one-on-first", "cubic"};

static void shard_counts(int how, int p, size_t n, size_t *cnt) {
  size_t left = n;
  for (int r = 0; r < p; r++) cnt[r] = 0;
  switch (how) {
  case SH_FIRST: cnt[0] = n; return;
  case SH_LAST: cnt[p - 1] = n; return;
  case SH_ONE:
    cnt[0] = n ? 1 : 0;
    for (int r = 1; r < p; r++) cnt[r] = (n - cnt[0]) / (size_t)(p - 1);
    break;
  case SH_CUBIC: {
    double w = 0;
    for (int r = 0; r < p; r++) w += (double)(r + 1) * (r + 1) * (r + 1);
    for (int r = 0; r < p; r++) cnt[r] = (size_t)((double)n * (r + 1) * (r + 1) * (r + 1) / w);
    break;
  }
  default:
    for (int r = 0; r < p; r++) cnt[r] = n / (size_t)p;
  }
  for (int r = 0; r < p; r++) left -= cnt[r];
  cnt[p - 1] += left;
}

/* bytes copied to a new buffer on GPU dev (NULL for 0 bytes) */
static void *dev_put(int dev, const void *host, size_t bytes) {
  void *p = NULL;
  if (!bytes) return NULL;
  CUDA_OK(cudaSetDevice(dev));
  CUDA_OK(cudaMalloc(&p, bytes));
  CUDA_OK(cudaMemcpy(p, host, bytes, cudaMemcpyHostToDevice)); /* no wait: the handle's
     streams are ordered after the legacy stream (gpuprims.h), which this checks */
  return p;
}
static void dev_get(int dev, void *host, const void *p, size_t bytes) {
  if (!bytes) return;
  CUDA_OK(cudaSetDevice(dev));
  CUDA_OK(cudaMemcpy(host, p, bytes, cudaMemcpyDeviceToHost));
}
static void dev_free(int dev, void *p) {
  if (!p) return;
  CUDA_OK(cudaSetDevice(dev));
  CUDA_OK(cudaFree(p));
}

/* The one-GPU reference on ref (device `dev`): gp_sort / gp_sort_pairs of all n keys. */
static void reference_sort(gp_context *ref, int dev, gp_dtype kt, void *keys, int vt,
                           void *vals, size_t n, gp_order order) {
  const size_t kb = gp_dtype_size(kt), vb = vt >= 0 ? gp_dtype_size((gp_dtype)vt) : 0;
  void *dk = dev_put(dev, keys, n * kb), *dv = vt >= 0 ? dev_put(dev, vals, n * vb) : NULL;
  CUDA_OK(cudaSetDevice(dev));
  if (vt < 0) CHECK_OK(ref, gp_sort(ref, kt, dk, n, order, GP_SORT_AUTO));
  else CHECK_OK(ref, gp_sort_pairs(ref, kt, dk, (gp_dtype)vt, dv, n, order, GP_SORT_AUTO));
  CHECK_OK(ref, gp_synchronize(ref));
  dev_get(dev, keys, dk, n * kb);
  if (vt >= 0) dev_get(dev, vals, dv, n * vb);
  dev_free(dev, dk);
  dev_free(dev, dv);
}

/* ---- one sort through the handle, checked -------------------------------------------
 * The ranks this process drives are local entries 0..nlocal-1 = ranks rank0.. ; every
 * process generates the same full array (same seed) and keeps its own shards. */
typedef struct world {
  gp_dist *d;
  int p, nlocal, rank0;
  int dev[8];       /* GPU of each local entry */
  gp_context *ref;  /* context for the one-GPU reference */
  int ref_dev;
} world;

static void run_sort(world *w, gp_dtype kt, int vt, int pattern, size_t n, int how,
                     gp_order order) {
  const size_t kb = gp_dtype_size(kt), vb = vt >= 0 ? gp_dtype_size((gp_dtype)vt) : 0;
  size_t cnt[8], off[9];
  shard_counts(how, w->p, n, cnt);
  off[0] = 0;
  for (int r = 0; r < w->p; r++) off[r + 1] = off[r] + cnt[r];
  char *keys = malloc(n * kb + 8), *vals = malloc(n * (vb ? vb : 1) + 8);
  char *got_k = malloc(n * kb + 8), *got_v = malloc(n * (vb ? vb : 1) + 8);
  check_seed(1000 + n * 7 + (size_t)pattern * 13 + (size_t)kt);
  sc_fill(kt, pattern, keys, n);
  for (size_t i = 0; i < n && vt >= 0; i++) sc_index_value((gp_dtype)vt, i, vals + i * vb);
  void *dk[8], *dv[8];
  size_t ln[8];
  for (int i = 0; i < w->nlocal; i++) {
    const int r = w->rank0 + i;
    ln[i] = cnt[r];
    dk[i] = dev_put(w->dev[i], keys + off[r] * kb, cnt[r] * kb);
    dv[i] = vt >= 0 ? dev_put(w->dev[i], vals + off[r] * vb, cnt[r] * vb) : NULL;
  }
  gp_status s = vt < 0 ? gp_dist_sort(w->d, kt, dk, ln, order)
                       : gp_dist_sort_pairs(w->d, kt, dk, (gp_dtype)vt, dv, ln, order);
  CHECK_MSG(s == GP_OK, "sort %s%s%s %s n=%zu %s %s: %s", gp_dtype_name(kt), vt >= 0 ? "+" : "",
            vt >= 0 ? gp_dtype_name((gp_dtype)vt) : "", sc_pattern_name[pattern], n, sh_name[how],
            order == GP_ASCENDING ? "asc" : "desc", gp_dist_last_error(w->d));
  for (int i = 0; i < w->nlocal; i++) {
    const int r = w->rank0 + i;
    dev_get(w->dev[i], got_k + off[r] * kb, dk[i], cnt[r] * kb);
    if (vt >= 0) dev_get(w->dev[i], got_v + off[r] * vb, dv[i], cnt[r] * vb);
    dev_free(w->dev[i], dk[i]);
    dev_free(w->dev[i], dv[i]);
  }
  reference_sort(w->ref, w->ref_dev, kt, keys, vt, vals, n, order);
  for (int i = 0; i < w->nlocal && s == GP_OK; i++) {
    const int r = w->rank0 + i;
    size_t k = sc_first_diff(got_k + off[r] * kb, keys + off[r] * kb, cnt[r], kb);
    size_t v = vt >= 0 ? sc_first_diff(got_v + off[r] * vb, vals + off[r] * vb, cnt[r], vb) : cnt[r];
    CHECK_MSG(k == cnt[r] && v == cnt[r],
              "sort %s%s %s n=%zu %s %s: rank %d differs from one GPU at its %s %zu",
              gp_dtype_name(kt), vt >= 0 ? "+values" : "", sc_pattern_name[pattern], n,
              sh_name[how], order == GP_ASCENDING ? "asc" : "desc", r,
              k < cnt[r] ? "key" : "value", k < cnt[r] ? k : v);
  }
  free(keys);
  free(vals);
  free(got_k);
  free(got_v);
}

static void run_reduce(world *w, gp_op op, gp_dtype t, int pattern, size_t n, int how) {
  const size_t es = gp_dtype_size(t), os = gp_dtype_size(gp_reduce_out_type(op, t));
  size_t cnt[8], off[9];
  shard_counts(how, w->p, n, cnt);
  off[0] = 0;
  for (int r = 0; r < w->p; r++) off[r + 1] = off[r] + cnt[r];
  char *x = malloc(n * es + 8);
  check_seed(7 + n * 3 + (size_t)pattern * 5 + (size_t)t);
  sc_fill(t, pattern, x, n);
  if (t == GP_F64 && pattern == SC_RANDOM && n > 2) { /* cancellation across shards */
    double big = 0x1p80, nbig = -0x1p80;
    memcpy(x, &big, 8);
    memcpy(x + (n - 1) * 8, &nbig, 8);
  }
  const void *din[8];
  size_t ln[8];
  for (int i = 0; i < w->nlocal; i++) {
    const int r = w->rank0 + i;
    ln[i] = cnt[r];
    din[i] = dev_put(w->dev[i], x + off[r] * es, cnt[r] * es);
  }
  uint64_t got = 0, want = 0;
  gp_status s = gp_dist_reduce(w->d, op, t, din, ln, &got);
  for (int i = 0; i < w->nlocal; i++) dev_free(w->dev[i], (void *)din[i]);
  void *dx = dev_put(w->ref_dev, x, n * es);
  CUDA_OK(cudaSetDevice(w->ref_dev));
  gp_status rs = gp_reduce(w->ref, op, t, dx, n, &want, GP_REDUCE_AUTO);
  dev_free(w->ref_dev, dx);
  CHECK_MSG(s == rs, "reduce %s %s %s n=%zu %s: status %s, one GPU %s (%s)", gp_op_name(op),
            gp_dtype_name(t), sc_pattern_name[pattern], n, sh_name[how], gp_status_string(s),
            gp_status_string(rs), gp_dist_last_error(w->d));
  CHECK_MSG(s != GP_OK || memcmp(&got, &want, os) == 0,
            "reduce %s %s %s n=%zu %s: bits %#llx, one GPU %#llx", gp_op_name(op),
            gp_dtype_name(t), sc_pattern_name[pattern], n, sh_name[how],
            (unsigned long long)got, (unsigned long long)want);
  free(x);
}

/* Every key type, order, pattern and sharding; pairs; every reduction. */
static void run_matrix(world *w) {
  const size_t sizes[] = {0, 1, 3, 5000, 70001, ((size_t)1 << 20) + 3};
  const int nsizes = (int)(sizeof sizes / sizeof sizes[0]);
  const int nsh = w->p == 1 ? 1 : SH_COUNT;
  for (int si = 0; si < nsizes; si++)
    for (int kt = 0; kt < GP_DTYPE_COUNT; kt++)
      for (int pat = 0; pat < SC_PATTERNS; pat++) {
        if (sizes[si] > 100000 && pat != SC_RANDOM && pat != SC_FEW) continue;
        for (int how = 0; how < nsh; how++)
          for (int o = 0; o < 2; o++) run_sort(w, (gp_dtype)kt, -1, pat, sizes[si], how, (gp_order)o);
        if (pat == SC_RANDOM || pat == SC_FEW || pat == SC_EQUAL)
          for (int how = 0; how < nsh; how++) {
            run_sort(w, (gp_dtype)kt, GP_U32, pat, sizes[si], how, GP_ASCENDING);
            run_sort(w, (gp_dtype)kt, GP_U64, pat, sizes[si], how, GP_DESCENDING);
          }
        if (pat == SC_RANDOM || pat == SC_SPECIAL || pat == SC_EQUAL)
          for (int op = 0; op < 3; op++)
            for (int how = 0; how < nsh; how++) run_reduce(w, (gp_op)op, (gp_dtype)kt, pat, sizes[si], how);
      }
}

/* Bad arguments on one entry of a one-process handle: every entry fails, naming it, and
 * the handle still works afterwards. */
static void run_bad_local(world *w) {
  const int last = w->nlocal - 1;
  void *dk[8];
  size_t n[8];
  uint32_t host[4] = {4, 3, 2, 1};
  for (int i = 0; i < w->nlocal; i++) {
    n[i] = 4;
    dk[i] = dev_put(w->dev[i], host, sizeof host);
  }
  void *keep = dk[last];
  dk[last] = NULL;
  CHECK_STATUS(gp_dist_sort(w->d, GP_U32, dk, n, GP_ASCENDING), GP_ERR_INVALID_ARGUMENT);
  char want[32];
  snprintf(want, sizeof want, "rank %d", last);
  CHECK_MSG(strstr(gp_dist_last_error(w->d), want) != NULL, "\"%s\" does not name %s",
            gp_dist_last_error(w->d), want);
  dk[last] = host;
  CHECK_STATUS(gp_dist_sort(w->d, GP_U32, dk, n, GP_ASCENDING), GP_ERR_INVALID_ARGUMENT);
  CHECK(strstr(gp_dist_last_error(w->d), "host memory") != NULL);
  if (w->nlocal > 1) { /* a shard on the wrong GPU */
    dk[last] = dk[0];
    CHECK_STATUS(gp_dist_sort(w->d, GP_U32, dk, n, GP_ASCENDING), GP_ERR_INVALID_ARGUMENT);
    CHECK(strstr(gp_dist_last_error(w->d), "GPU") != NULL);
  }
  dk[last] = keep;
  CHECK_STATUS(gp_dist_sort(w->d, (gp_dtype)99, dk, n, GP_ASCENDING), GP_ERR_INVALID_ARGUMENT);
  size_t zero[8] = {0};
  uint32_t out32;
  CHECK_STATUS(gp_dist_reduce(w->d, GP_MIN, GP_U32, (const void *const *)dk, zero, &out32),
               GP_ERR_INVALID_ARGUMENT);
  CHECK(strstr(gp_dist_last_error(w->d), "n = 0") != NULL);
  uint64_t sum = 0;
  DCHECK_OK(w->d, gp_dist_reduce(w->d, GP_SUM, GP_U32, (const void *const *)dk, n, &sum));
  CHECK_EQ_U64(sum, 10 * (uint64_t)w->nlocal);
  for (int i = 0; i < w->nlocal; i++) dev_free(w->dev[i], dk[i]);
}

static int run_local(int p) {
  world w = {0};
  w.p = p;
  gp_status s = gp_dist_create_local(&w.d, p);
  CHECK_MSG(s == GP_OK, "gp_dist_create_local(%d): %s", p, gp_dist_last_error(w.d));
  if (s != GP_OK) {
    gp_dist_destroy(w.d);
    return 1;
  }
  w.nlocal = gp_dist_local_count(w.d);
  CHECK(w.nlocal == p && gp_dist_size(w.d) == p && gp_dist_rank(w.d) == 0);
  CHECK(gp_dist_context(w.d, p) == NULL);
  for (int i = 0; i < p; i++) w.dev[i] = i;
  w.ref = gp_dist_context(w.d, 0);
  w.ref_dev = 0;
  run_matrix(&w);
  if (p > 1) {
    /* keys alone again through the partition path (by default only from 2^22 keys), and
       one sort that large by default */
    setenv("GPUPRIMS_DIST_SORT", "partition", 1);
    run_matrix(&w);
    unsetenv("GPUPRIMS_DIST_SORT");
    for (int how = 0; how < SH_COUNT; how++)
      run_sort(&w, how % 2 ? GP_F32 : GP_U64, -1, SC_RANDOM, ((size_t)1 << 22) + 17, how,
               (gp_order)(how % 2));
  }
  run_bad_local(&w);
  gp_dist_destroy(w.d);
  return 0;
}

/* ---- two processes -------------------------------------------------------------------- */
static int child(int rank, int p, const char *idfile) {
  setenv("GPUPRIMS_DIST_TIMEOUT", "60", 1);
  CUDA_OK(cudaSetDevice(rank));
  gp_context *ctx = NULL;
  if (gp_create(&ctx, GP_BACKEND_CUDA) != GP_OK) {
    fprintf(stderr, "rank %d: %s\n", rank, gp_last_error(ctx));
    return 1;
  }
  ncclUniqueId id;
  if (rank == 0) {
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp", idfile);
    FILE *f = fopen(tmp, "wb");
    if (ncclGetUniqueId(&id) != ncclSuccess || !f || fwrite(&id, sizeof id, 1, f) != 1) return 1;
    fclose(f);
    if (rename(tmp, idfile) != 0) return 1;
  } else {
    FILE *f = NULL;
    for (int t = 0; t < 6000 && !f; t++) { /* up to 60 s for rank 0 to write it */
      f = fopen(idfile, "rb");
      if (!f) {
        struct timespec ts = {0, 10000000};
        nanosleep(&ts, NULL);
      }
    }
    if (!f || fread(&id, sizeof id, 1, f) != 1) return 1;
    fclose(f);
  }
  ncclComm_t comm;
  if (ncclCommInitRank(&comm, p, id, rank) != ncclSuccess) return 1;
  world w = {0};
  w.p = p;
  gp_status s = gp_dist_create_comm(&w.d, comm, ctx);
  CHECK_MSG(s == GP_OK, "rank %d: gp_dist_create_comm: %s", rank, gp_dist_last_error(w.d));
  if (s != GP_OK) return check_summary("test_dist_gpu procs2 (child)");
  w.nlocal = 1;
  w.rank0 = rank;
  w.dev[0] = rank;
  w.ref = ctx;
  w.ref_dev = rank;
  CHECK(gp_dist_local_count(w.d) == 1 && gp_dist_size(w.d) == p && gp_dist_rank(w.d) == rank);
  const size_t big = ((size_t)1 << 20) + 5;
  for (int how = 0; how < SH_COUNT; how++) {
    run_sort(&w, GP_U32, -1, SC_RANDOM, big, how, GP_ASCENDING);
    run_sort(&w, GP_F64, GP_U32, SC_FEW, big, how, GP_DESCENDING);
    run_sort(&w, GP_F32, -1, SC_SPECIAL, 70001, how, GP_ASCENDING);
    run_sort(&w, GP_I64, GP_U64, SC_EQUAL, 70001, how, GP_ASCENDING);
    run_reduce(&w, GP_SUM, GP_F32, SC_RANDOM, big, how);
    run_reduce(&w, GP_SUM, GP_F64, SC_RANDOM, big, how);
    run_reduce(&w, GP_MIN, GP_F32, SC_SPECIAL, 70001, how);
    run_reduce(&w, GP_SUM, GP_I32, SC_RANDOM, big, how);
    /* keys alone through the partition path: by default from 2^22 keys, and forced */
    run_sort(&w, GP_I32, -1, SC_FEW, ((size_t)1 << 22) + 3, how, GP_DESCENDING);
    setenv("GPUPRIMS_DIST_SORT", "partition", 1);
    run_sort(&w, GP_F64, -1, SC_SPECIAL, 70001, how, GP_ASCENDING);
    run_sort(&w, GP_U32, -1, SC_EQUAL, big, how, GP_DESCENDING);
    unsetenv("GPUPRIMS_DIST_SORT");
  }
  /* rank 1 passes host memory: both ranks fail, neither hangs, rank 0 names rank 1 */
  uint32_t host[4] = {4, 3, 2, 1};
  size_t n4 = 4;
  void *dk = dev_put(rank, host, sizeof host);
  void *mine = rank == 1 ? (void *)host : dk;
  CHECK_STATUS(gp_dist_sort(w.d, GP_U32, &mine, &n4, GP_ASCENDING), GP_ERR_INVALID_ARGUMENT);
  CHECK_MSG(strstr(gp_dist_last_error(w.d), "rank 1") != NULL, "rank %d: \"%s\" does not name rank 1",
            rank, gp_dist_last_error(w.d));
  /* the ranks make different calls: both fail */
  gp_status m = gp_dist_sort(w.d, rank == 0 ? GP_U32 : GP_I32, &dk, &n4, GP_ASCENDING);
  CHECK_MSG(m == GP_ERR_INVALID_ARGUMENT && strstr(gp_dist_last_error(w.d), "different call"),
            "rank %d: mismatched calls gave %s: %s", rank, gp_status_string(m), gp_dist_last_error(w.d));
  /* and the handle still works */
  uint64_t sum = 0;
  const void *in = dk;
  DCHECK_OK(w.d, gp_dist_reduce(w.d, GP_SUM, GP_U32, &in, &n4, &sum));
  CHECK_EQ_U64(sum, 10 * (uint64_t)p);
  dev_free(rank, dk);
  gp_dist_destroy(w.d);
  ncclCommDestroy(comm);
  gp_destroy(ctx);
  char name[64];
  snprintf(name, sizeof name, "test_dist_gpu procs2 (rank %d)", rank);
  return check_summary(name);
}

/* Starts `p` copies of this program as ranks (exec: no CUDA state crosses the fork) and
 * waits at most `limit` seconds for them. */
static int run_procs(int p, int limit) {
  char dir[] = "/tmp/gp_dist_XXXXXX", idfile[64], rs[16], ps[16];
  if (!mkdtemp(dir)) return 1;
  snprintf(idfile, sizeof idfile, "%s/id", dir);
  snprintf(ps, sizeof ps, "%d", p);
  pid_t pid[8];
  for (int r = 0; r < p; r++) {
    snprintf(rs, sizeof rs, "%d", r);
    pid[r] = fork();
    if (pid[r] == 0) {
      execl("/proc/self/exe", "test_dist_gpu", "child", rs, ps, idfile, (char *)NULL);
      _exit(127);
    }
  }
  int failed = 0, left = p, status;
  const time_t t0 = time(NULL);
  while (left > 0 && time(NULL) - t0 < limit) {
    for (int r = 0; r < p; r++)
      if (pid[r] > 0 && waitpid(pid[r], &status, WNOHANG) == pid[r]) {
        CHECK_MSG(WIFEXITED(status) && WEXITSTATUS(status) == 0, "rank %d exited with %d", r,
                  WIFEXITED(status) ? WEXITSTATUS(status) : -1);
        failed |= !(WIFEXITED(status) && WEXITSTATUS(status) == 0);
        pid[r] = 0;
        left--;
      }
    struct timespec ts = {0, 50000000};
    nanosleep(&ts, NULL);
  }
  for (int r = 0; r < p; r++)
    if (pid[r] > 0) { /* a hang: the contract says no rank may wait for ever */
      CHECK_MSG(0, "rank %d still running after %d s: killed", r, limit);
      kill(pid[r], SIGKILL);
      waitpid(pid[r], &status, 0);
      failed = 1;
    }
  remove(idfile);
  rmdir(dir);
  return failed;
}

/* gp_dist_create_file's refusals, before any communication (no GPU needed for most):
 * a missing or bad launcher variable is named; an existing id file is refused by rank 0. */
static void check_create_file_errors(void) {
  static const char *vars[] = {"RANK", "WORLD_SIZE", "LOCAL_RANK"};
  char *saved[3];
  for (int v = 0; v < 3; v++) {
    const char *e = getenv(vars[v]);
    saved[v] = e ? strdup(e) : NULL;
    unsetenv(vars[v]);
  }
  gp_dist *d = NULL;
  gp_status s = gp_dist_create_file(&d, "/tmp/gp_test_no_id", -1, 2, 0);
  CHECK_MSG(s == GP_ERR_UNSUPPORTED || (s == GP_ERR_INVALID_ARGUMENT &&
                                        strstr(gp_dist_last_error(d), "RANK is not set")),
            "create_file without RANK: %s \"%s\"", gp_status_string(s), gp_dist_last_error(d));
  gp_dist_destroy(d);
  setenv("RANK", "1", 1);
  setenv("WORLD_SIZE", "two", 1);
  s = gp_dist_create_file(&d, "/tmp/gp_test_no_id", -1, -1, 0);
  CHECK_MSG(s == GP_ERR_UNSUPPORTED || (s == GP_ERR_INVALID_ARGUMENT &&
                                        strstr(gp_dist_last_error(d), "WORLD_SIZE is 'two'")),
            "create_file with WORLD_SIZE=two: %s \"%s\"", gp_status_string(s),
            gp_dist_last_error(d));
  gp_dist_destroy(d);
  s = gp_dist_create_file(&d, "/tmp/gp_test_no_id", 2, 2, 0);
  CHECK_MSG(s == GP_ERR_UNSUPPORTED || s == GP_ERR_INVALID_ARGUMENT,
            "create_file rank 2 of 2: %s \"%s\"", gp_status_string(s), gp_dist_last_error(d));
  gp_dist_destroy(d);
  s = gp_dist_create_file(&d, "", 0, 1, 0);
  CHECK_MSG(s == GP_ERR_UNSUPPORTED || s == GP_ERR_INVALID_ARGUMENT,
            "create_file with an empty path: %s", gp_status_string(s));
  gp_dist_destroy(d);
  int count = 0;
  if (cudaGetDeviceCount(&count) == cudaSuccess && count > 0) {
    /* a stale id file: rank 0 fails at once instead of handing out an old id */
    char path[] = "/tmp/gp_test_idXXXXXX";
    const int fd = mkstemp(path);
    CHECK(fd >= 0);
    if (fd >= 0) close(fd);
    s = gp_dist_create_file(&d, path, 0, 2, 0);
    CHECK_MSG(s == GP_ERR_INVALID_ARGUMENT && strstr(gp_dist_last_error(d), "already exists"),
              "create_file over an existing id file: %s \"%s\"", gp_status_string(s),
              gp_dist_last_error(d));
    gp_dist_destroy(d);
    remove(path);
    /* one rank alone: the whole protocol (write, read back by no one, init, remove) */
    char p1[] = "/tmp/gp_test_id1XXXXXX";
    CHECK(mkdtemp(p1) != NULL);
    char idf[64];
    snprintf(idf, sizeof idf, "%s/id", p1);
    s = gp_dist_create_file(&d, idf, 0, 1, 0);
    CHECK_MSG(s == GP_OK, "create_file, one rank: %s", gp_dist_last_error(d));
    CHECK(access(idf, F_OK) != 0); /* removed once every rank joined */
    if (s == GP_OK) {
      uint32_t host[3] = {3, 1, 2};
      size_t n = 3;
      void *k = dev_put(0, host, sizeof host);
      DCHECK_OK(d, gp_dist_sort(d, GP_U32, &k, &n, GP_ASCENDING));
      dev_get(0, host, k, sizeof host);
      CHECK(host[0] == 1 && host[1] == 2 && host[2] == 3);
      dev_free(0, k);
    }
    gp_dist_destroy(d);
    rmdir(p1);
  }
  for (int v = 0; v < 3; v++) {
    if (saved[v]) setenv(vars[v], saved[v], 1);
    else unsetenv(vars[v]);
    free(saved[v]);
  }
}

int main(int argc, char **argv) {
  if (argc == 5 && strcmp(argv[1], "child") == 0)
    return child(atoi(argv[2]), atoi(argv[3]), argv[4]);
  const char *part = argc > 1 ? argv[1] : "all";
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    gp_dist *d = NULL;
    gp_status s = gp_dist_create_local(&d, 2);
    CHECK_MSG((s == GP_ERR_NO_DEVICE || s == GP_ERR_UNSUPPORTED) && *gp_dist_last_error(d),
              "no GPU: create_local gave %s \"%s\"", gp_status_string(s), gp_dist_last_error(d));
    gp_dist_destroy(d);
    check_create_file_errors();
    if (check_failed_) return check_summary("test_dist_gpu");
    printf("test_dist_gpu: SKIPPED, no usable GPU (create_local: %s)\n", gp_status_string(s));
    return 77;
  }
  int skipped = 0;
  const int all = strcmp(part, "all") == 0;
  if (all || strcmp(part, "p1") == 0) check_create_file_errors();
  if (all || strcmp(part, "p1") == 0) run_local(1);
  if (all || strcmp(part, "local2") == 0) {
    if (count >= 2) run_local(2);
    else skipped = 1;
  }
  if (all || strcmp(part, "procs2") == 0) {
    const char *lim = getenv("GP_TEST_DIST_LIMIT"); /* seconds for the two processes */
    if (count >= 2) run_procs(2, lim && atoi(lim) > 0 ? atoi(lim) : 300);
    else skipped = 1;
  }
  int rc = check_summary("test_dist_gpu");
  if (rc == 0 && skipped) {
    printf("test_dist_gpu: parts needing 2 GPUs SKIPPED (%d visible)\n", count);
    return 77;
  }
  return rc;
}
#endif
