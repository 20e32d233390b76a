/* The threading contract of gpuprims.h: 16 host threads, each with its own context (and,
 * on CUDA, its own stream), run reduce, sort, sort_pairs, segments and integrate at once
 * for a few seconds, starting with the first (JIT) compile of the same expression on
 * every context together; every result must be bit-exact against a single-threaded
 * run. The CPU backend runs everywhere; the CUDA part then exits 77 where no GPU is
 * usable. GP_TEST_SECONDS sets the duration per backend (default 3). */
#define _POSIX_C_SOURCE 200809L
#include "check.h"

#include <pthread.h>
#include <time.h>
#if GP_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

#define NTHREADS 16
#define NRED 4
#define NSORT 3
static const char *EXPR = "sin(3*x)^2 + x/(1 + x^2) - exp(-x)*sqrt(x)";

/* The inputs every thread reads (shared, never written once the threads start). */
static size_t red_n[NRED] = {1, 1000, 100003, 1 << 20};
static double *in_f64;
static float *in_f32;
static int32_t *in_i32;
static size_t sort_n[NSORT] = {1000, 5000, 1 << 16};
#define SEG_N 8192
#define SEG_SIZE 512

/* Everything one round computes, compared byte for byte. */
typedef struct results {
  unsigned char red[NRED][4][8];   /* per size: f64 sum, f32 sum, i32 sum, f64 max */
  uint64_t sort_hash[NSORT];       /* FNV-1a of the sorted keys */
  uint64_t pairs_hash;             /* keys and values of gp_sort_pairs */
  uint64_t seg_hash;
  double integ[2];                 /* F64 and F32 precision */
} results;

static uint64_t fnv(const void *p, size_t bytes, uint64_t h) {
  const unsigned char *c = (const unsigned char *)p;
  for (size_t i = 0; i < bytes; i++) h = (h ^ c[i]) * 0x100000001b3ull;
  return h;
}

/* One round on ctx; returns 0 and an error text in *err on a failed call. */
static int round_on(gp_context *ctx, results *r, char *err, size_t errlen) {
  memset(r, 0, sizeof *r);
#define TRY(call)                                                                   \
  do {                                                                              \
    gp_status s_ = (call);                                                          \
    if (s_ != GP_OK) {                                                              \
      snprintf(err, errlen, "%s: %s: %s", #call, gp_status_string(s_), gp_last_error(ctx)); \
      return 0;                                                                     \
    }                                                                               \
  } while (0)
  for (int k = 0; k < NRED; k++) {
    TRY(gp_reduce(ctx, GP_SUM, GP_F64, in_f64, red_n[k], r->red[k][0], GP_REDUCE_AUTO));
    TRY(gp_reduce(ctx, GP_SUM, GP_F32, in_f32, red_n[k], r->red[k][1], GP_REDUCE_AUTO));
    TRY(gp_reduce(ctx, GP_SUM, GP_I32, in_i32, red_n[k], r->red[k][2], GP_REDUCE_AUTO));
    TRY(gp_reduce(ctx, GP_MAX, GP_F64, in_f64, red_n[k], r->red[k][3], GP_REDUCE_AUTO));
  }
  size_t maxn = sort_n[NSORT - 1] > SEG_N ? sort_n[NSORT - 1] : SEG_N;
  float *keys = (float *)malloc(maxn * sizeof *keys);
  int32_t *vals = (int32_t *)malloc(maxn * sizeof *vals);
  if (!keys || !vals) {
    free(keys);
    free(vals);
    snprintf(err, errlen, "out of host memory");
    return 0;
  }
  int ok = 0;
  for (int k = 0; k < NSORT; k++) {
    memcpy(keys, in_f32, sort_n[k] * sizeof *keys);
    if (gp_sort(ctx, GP_F32, keys, sort_n[k], k == 1 ? GP_DESCENDING : GP_ASCENDING,
                k == 0 ? GP_SORT_BITONIC_SEED : GP_SORT_AUTO) != GP_OK)
      goto fail;
    r->sort_hash[k] = fnv(keys, sort_n[k] * sizeof *keys, 0xcbf29ce484222325ull);
  }
  memcpy(keys, in_f32, 5000 * sizeof *keys);
  for (int i = 0; i < 5000; i++) vals[i] = i;
  if (gp_sort_pairs(ctx, GP_F32, keys, GP_I32, vals, 5000, GP_ASCENDING, GP_SORT_AUTO) != GP_OK)
    goto fail;
  r->pairs_hash = fnv(vals, 5000 * sizeof *vals, fnv(keys, 5000 * sizeof *keys, 0xcbf29ce484222325ull));
  memcpy(keys, in_f32, SEG_N * sizeof *keys);
  if (gp_sort_segments(ctx, GP_F32, keys, SEG_N, SEG_SIZE, GP_ASCENDING) != GP_OK) goto fail;
  r->seg_hash = fnv(keys, SEG_N * sizeof *keys, 0xcbf29ce484222325ull);
  if (gp_integrate_ex(ctx, EXPR, 0.25, 3.5, (uint64_t)1 << 16, GP_F64, &r->integ[0]) != GP_OK ||
      gp_integrate_ex(ctx, EXPR, 0.25, 3.5, (uint64_t)1 << 16, GP_F32, &r->integ[1]) != GP_OK)
    goto fail;
  ok = 1;
fail:
  if (!ok) snprintf(err, errlen, "sort or integrate: %s", gp_last_error(ctx));
  free(keys);
  free(vals);
  return ok;
#undef TRY
}

typedef struct worker {
  gp_backend backend;
  const results *want;
  double seconds;
  pthread_barrier_t *start;
  int rounds, mismatches, failed;
  char err[600];
} worker;

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void *work(void *arg) {
  worker *w = (worker *)arg;
  gp_context *ctx = NULL;
  void *stream = NULL;
  if (gp_create(&ctx, w->backend) != GP_OK) {
    snprintf(w->err, sizeof w->err, "gp_create: %s", gp_last_error(ctx));
    w->failed = 1;
  }
#if GP_HAVE_CUDA
  if (!w->failed && w->backend == GP_BACKEND_CUDA) {
    cudaStream_t st;
    if (cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking) != cudaSuccess ||
        gp_set_stream(ctx, st) != GP_OK) {
      snprintf(w->err, sizeof w->err, "cannot create a stream");
      w->failed = 1;
    } else {
      stream = st;
    }
  }
#endif
  /* every thread's first round starts together: 16 first compiles of EXPR at once */
  pthread_barrier_wait(w->start);
  double end = now() + w->seconds;
  while (!w->failed && (w->rounds < 2 || now() < end)) {
    results got;
    if (!round_on(ctx, &got, w->err, sizeof w->err)) {
      w->failed = 1;
      break;
    }
    if (memcmp(&got, w->want, sizeof got) != 0) w->mismatches++;
    w->rounds++;
  }
  gp_destroy(ctx);
#if GP_HAVE_CUDA
  if (stream) cudaStreamDestroy((cudaStream_t)stream);
#endif
  (void)stream;
  return NULL;
}

/* The single-threaded reference, then NTHREADS threads; 0 if the backend is unusable. */
static int run_backend(gp_backend b, double seconds) {
  gp_context *ctx = NULL;
  if (gp_create(&ctx, b) != GP_OK) {
    printf("test_threads: %s backend not usable: %s\n", gp_backend_name(b), gp_last_error(ctx));
    gp_destroy(ctx);
    return 0;
  }
  results want;
  char err[600];
  int ok = round_on(ctx, &want, err, sizeof err);
  CHECK_MSG(ok, "single-threaded reference on %s: %s", gp_backend_name(b), err);
  gp_destroy(ctx);
  if (!ok) return 1;

  pthread_barrier_t start;
  pthread_barrier_init(&start, NULL, NTHREADS);
  worker w[NTHREADS];
  pthread_t th[NTHREADS];
  for (int i = 0; i < NTHREADS; i++) {
    memset(&w[i], 0, sizeof w[i]);
    w[i].backend = b;
    w[i].want = &want;
    w[i].seconds = seconds;
    w[i].start = &start;
    CHECK(pthread_create(&th[i], NULL, work, &w[i]) == 0);
  }
  int rounds = 0;
  for (int i = 0; i < NTHREADS; i++) {
    pthread_join(th[i], NULL);
    CHECK_MSG(!w[i].failed, "%s thread %d failed after %d rounds: %s", gp_backend_name(b), i,
              w[i].rounds, w[i].err);
    CHECK_MSG(w[i].mismatches == 0, "%s thread %d: %d of %d rounds differ from the "
              "single-threaded run", gp_backend_name(b), i, w[i].mismatches, w[i].rounds);
    rounds += w[i].rounds;
  }
  pthread_barrier_destroy(&start);
  printf("test_threads: %s: %d threads, %d rounds, all bit-exact: %s\n", gp_backend_name(b),
         NTHREADS, rounds, check_failed_ ? "no" : "yes");
  return 1;
}

int main(void) {
  const char *env = getenv("GP_TEST_SECONDS");
  double seconds = env ? atof(env) : 3.0;
  size_t n = red_n[NRED - 1];
  in_f64 = (double *)malloc(n * sizeof *in_f64);
  in_f32 = (float *)malloc(n * sizeof *in_f32);
  in_i32 = (int32_t *)malloc(n * sizeof *in_i32);
  if (!in_f64 || !in_f32 || !in_i32) return 1;
  check_seed(11);
  for (size_t i = 0; i < n; i++) {
    in_f64[i] = (check_rand01() - 0.5) * 1e3;
    in_f32[i] = (float)(check_rand01() * 2 - 1);
    in_i32[i] = (int32_t)(check_rand64() >> 33) - (1 << 30);
  }
  run_backend(GP_BACKEND_CPU, seconds);
  int skipped = 0;
#if GP_HAVE_CUDA
  if (!check_failed_) skipped = !run_backend(GP_BACKEND_CUDA, seconds);
#endif
  free(in_f64);
  free(in_f32);
  free(in_i32);
  int rc = check_summary("test_threads");
  return rc ? rc : skipped ? 77 : 0;
}
