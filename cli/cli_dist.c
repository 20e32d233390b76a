/* --gpus N|all: the array a command loaded into host memory, cut into g contiguous shards
 * (n / g elements each, the first n % g one more), one on each GPU of this process
 * (gp_dist_create_local: GPU i holds entry i), and sorted or reduced there by
 * gp_dist_sort / gp_dist_reduce. --dist-file PATH: this process is one rank started by a
 * launcher (gp_dist_create_file), its file the rank's shard, on GPU LOCAL_RANK. The
 * public API allocates no device memory, so the shards are placed with the CUDA runtime,
 * which the command links through the static library (as the bench suites do). Without CUDA there is no gp_dist to reach: the library's
 * gp_dist_create_local says so, and that message is what the user sees. */
#include "cli_dist.h"
#include "cli_util.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if GP_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

int cli_parse_gpus(const char *cmd, const char *s, int *ngpus) {
  uint64_t v;
  if (strcmp(s, "all") == 0) {
    *ngpus = 0;
    return 1;
  }
  if (cli_parse_u64(s, &v) && v >= 1 && v <= INT_MAX) {
    *ngpus = (int)v;
    return 1;
  }
  cli_error(cmd, "--gpus needs a number of GPUs (1 or more) or 'all', not '%s'", s);
  return 0;
}

/* gp_dist_create_* failed (no NCCL, no GPU, fewer GPUs than asked, no launcher): its words. */
static int create_failed(const char *cmd, const cli_dist_target *t, gp_status s, const gp_dist *d) {
  const char *why = d ? gp_dist_last_error(d) : "out of host memory";
  if (t->id_file) {
    cli_error(cmd, "--dist-file: cannot join the other ranks through NCCL (%s): %s",
              gp_status_string(s), why);
    return 0;
  }
  char asked[32];
  if (t->gpus > 0) snprintf(asked, sizeof asked, "%d", t->gpus);
  else snprintf(asked, sizeof asked, "all");
  cli_error(cmd, "--gpus %s: cannot drive the GPUs through NCCL (%s): %s", asked,
            gp_status_string(s), why);
  return 0;
}

#if GP_HAVE_CUDA
/* One array spread over the handle's GPUs: entry i holds cnt[i] elements at dev[i]. */
typedef struct shards {
  gp_dist *d;
  int g;
  int gpu0;  /* GPU of entry 0: 0, or this rank's LOCAL_RANK (--dist-file); entry i on gpu0 + i */
  size_t es; /* bytes per element */
  size_t *cnt;
  void **dev;
} shards;

static int cuda_ok(const char *cmd, int gpu, cudaError_t e, const char *what) {
  if (e == cudaSuccess) return 1;
  (void)cudaGetLastError();
  cli_error(cmd, "GPU %d: %s failed: %s", gpu, what, cudaGetErrorString(e));
  return 0;
}

/* Shard i (cnt[i] > 0 elements at host) into new device memory of GPU i. */
static int upload(const char *cmd, shards *s, int i, const void *host) {
  const size_t bytes = s->cnt[i] * s->es;
  char what[64];
  snprintf(what, sizeof what, "cudaMalloc of %zu bytes for its shard", bytes);
  void *p = NULL;
  const int gpu = s->gpu0 + i;
  if (!cuda_ok(cmd, gpu, cudaSetDevice(gpu), "cudaSetDevice") ||
      !cuda_ok(cmd, gpu, cudaMalloc(&p, bytes), what))
    return 0;
  s->dev[i] = p; /* only memory that was allocated is freed */
  return cuda_ok(cmd, gpu, cudaMemcpy(p, host, bytes, cudaMemcpyHostToDevice),
                 "copying its shard to the GPU");
}

/* Shard i (cnt[i] > 0 elements) from GPU i back to host. */
static int download(const char *cmd, const shards *s, int i, void *host) {
  const int gpu = s->gpu0 + i;
  return cuda_ok(cmd, gpu, cudaSetDevice(gpu), "cudaSetDevice") &&
         cuda_ok(cmd, gpu, cudaMemcpy(host, s->dev[i], s->cnt[i] * s->es, cudaMemcpyDeviceToHost),
                 "copying its shard back");
}

/* The handle and the shards, copied from a->data; 0 after printing why not. With --dist-file
   this process is one rank (gp_dist_create_file from the launcher's environment) and a is
   its whole shard. */
static int open_shards(const char *cmd, const cli_dist_target *t, const gp_array *a, shards *s) {
  memset(s, 0, sizeof *s);
  gp_status st = t->id_file ? gp_dist_create_file(&s->d, t->id_file, -1, -1, -1)
                            : gp_dist_create_local(&s->d, t->gpus);
  if (st != GP_OK) return create_failed(cmd, t, st, s->d);
  /* the library read LOCAL_RANK and found it valid */
  s->gpu0 = t->id_file ? atoi(getenv("LOCAL_RANK")) : 0;
  s->g = gp_dist_local_count(s->d);
  s->es = gp_dtype_size(a->dtype);
  s->cnt = calloc((size_t)s->g, sizeof *s->cnt);
  s->dev = calloc((size_t)s->g, sizeof *s->dev);
  if (!s->cnt || !s->dev) {
    cli_error(cmd, "out of host memory for %d shards", s->g);
    return 0;
  }
  size_t off = 0;
  for (int i = 0; i < s->g; i++) {
    s->cnt[i] = a->n / (size_t)s->g + ((size_t)i < a->n % (size_t)s->g);
    if (s->cnt[i] > 0 && !upload(cmd, s, i, (const char *)a->data + off * s->es)) return 0;
    off += s->cnt[i];
  }
  return 1;
}

static void close_shards(shards *s) {
  for (int i = 0; s->dev && i < s->g; i++)
    if (s->dev[i] && cudaSetDevice(s->gpu0 + i) == cudaSuccess) (void)cudaFree(s->dev[i]);
  free(s->cnt);
  free(s->dev);
  gp_dist_destroy(s->d);
}

/* A gp_dist call failed: "WHAT[ of PATH] over G GPUs failed", its words; returns 0. */
static int dist_failed(const char *cmd, const char *what, const char *path, const shards *s,
                       gp_status st) {
  cli_error(cmd, "%s%s%s over %d GPUs failed (%s): %s", what, path ? " of " : "",
            path ? path : "", gp_dist_size(s->d), gp_status_string(st), gp_dist_last_error(s->d));
  return 0;
}

int cli_dist_sort(const char *cmd, const cli_dist_target *t, gp_array *a, gp_order order) {
  shards s;
  int ok = open_shards(cmd, t, a, &s);
  if (ok) {
    gp_status st = gp_dist_sort(s.d, a->dtype, s.dev, s.cnt, order);
    ok = st == GP_OK || dist_failed(cmd, "sorting", NULL, &s, st);
  }
  size_t off = 0;
  for (int i = 0; ok && i < s.g; i++) {
    if (s.cnt[i] > 0) ok = download(cmd, &s, i, (char *)a->data + off * s.es);
    off += s.cnt[i];
  }
  close_shards(&s);
  return ok ? 0 : 1;
}

int cli_dist_reduce(const char *cmd, const char *path, const cli_dist_target *t, gp_op op,
                    const gp_array *a, void *out) {
  shards s;
  int ok = open_shards(cmd, t, a, &s);
  if (ok) {
    gp_status st = gp_dist_reduce(s.d, op, a->dtype, (const void *const *)s.dev, s.cnt, out);
    ok = st == GP_OK || dist_failed(cmd, gp_op_name(op), path, &s, st);
  }
  close_shards(&s);
  return ok ? 0 : 1;
}
#else
/* Built without CUDA: gp_dist_create_* fail, saying why. */
static int no_dist(const char *cmd, const cli_dist_target *t) {
  gp_dist *d = NULL;
  gp_status s = t->id_file ? gp_dist_create_file(&d, t->id_file, -1, -1, -1)
                           : gp_dist_create_local(&d, t->gpus);
  create_failed(cmd, t, s, d);
  gp_dist_destroy(d);
  return 1;
}

int cli_dist_sort(const char *cmd, const cli_dist_target *t, gp_array *a, gp_order order) {
  (void)a;
  (void)order;
  return no_dist(cmd, t);
}

int cli_dist_reduce(const char *cmd, const char *path, const cli_dist_target *t, gp_op op,
                    const gp_array *a, void *out) {
  (void)path;
  (void)op;
  (void)a;
  (void)out;
  return no_dist(cmd, t);
}
#endif
