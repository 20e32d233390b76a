/* The benchmark harness (see harness.h): device header, L2 flush, warm-up, adaptive
 * sampling timed with CUDA events on one stream (wall clock on the CPU backend),
 * statistics, the table on stdout and the JSON file. */
#define _POSIX_C_SOURCE 200809L
#include "harness.h"
#include "harness_kernels.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#if GP_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

struct gpb_bench {
  char suite[32];
  gpb_options opt;
  gp_context *ctx;
  void *stream;         /* cudaStream_t owned by the harness; NULL on the CPU */
  gpb_device dev;
  void *flush_buf;      /* device (CUDA) or host (CPU) buffer written before each sample */
  size_t flush_bytes;
  int progress_i, progress_total;
  gpb_result *rows;
  int nrows, cap;
  char cmdline[2048];
  char date[64];
  double *samples;      /* scratch for one case */
  int samples_cap;
};

static int write_json(gpb_bench *b);
static void berr(const char *suite, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static void berr(const char *suite, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "gpuprims bench %s: ", suite);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
}

double gpb_wall_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ---- options ------------------------------------------------------------------------ */
void gpb_options_default(gpb_options *o) {
  memset(o, 0, sizeof *o);
  o->backend = GP_BACKEND_AUTO;
  o->max_time_s = 1.5;
  o->target_noise = 0.005;
  o->min_samples = 10;
  o->max_samples = 100000;
  o->warmup = 2;
  o->flush_l2 = 1;
}

void gpb_print_options_help(FILE *f) {
  fprintf(f,
          "shared options:\n"
          "  --backend auto|cuda|cpu  where to run (auto: the GPU when usable)\n"
          "  --json FILE              also write the rows (+ device, command, date) as JSON\n"
          "  --max-time S             stop sampling a case after S seconds (default 1.5)\n"
          "  --noise X                stop once stdev/mean < X (default 0.005 = 0.5%%)\n"
          "  --min-samples N          at least N timed samples (default 10)\n"
          "  --max-samples N          at most N timed samples (default 100000)\n"
          "  --warmup N               untimed runs before sampling (default 2)\n"
          "  --no-flush               do not flush L2 before each sample (hot-cache figures)\n"
          "  --quiet                  no progress lines on stderr\n");
}

static int parse_int(const char *s, int lo, int hi, int *v) {
  char *end;
  errno = 0;
  long x = strtol(s, &end, 10);
  if (errno || *end || end == s || x < lo || x > hi) return 0;
  *v = (int)x;
  return 1;
}

int gpb_parse_option(gpb_options *o, const char *suite, int argc, char **argv, int *i) {
  const char *a = argv[*i];
  static const char *valued[] = {"--backend", "--json", "--max-time", "--noise",
                                 "--min-samples", "--max-samples", "--warmup"};
  int is_valued = 0;
  for (size_t k = 0; k < sizeof valued / sizeof valued[0]; k++)
    if (strcmp(a, valued[k]) == 0) is_valued = 1;
  if (!is_valued) {
    if (strcmp(a, "--no-flush") == 0) { o->flush_l2 = 0; return 1; }
    if (strcmp(a, "--quiet") == 0) { o->quiet = 1; return 1; }
    return 0;
  }
  if (*i + 1 >= argc) {
    berr(suite, "%s needs a value", a);
    return -1;
  }
  const char *v = argv[++*i];
  char *end;
  if (strcmp(a, "--backend") == 0) {
    if (strcmp(v, "auto") == 0) o->backend = GP_BACKEND_AUTO;
    else if (strcmp(v, "cuda") == 0 || strcmp(v, "gpu") == 0) o->backend = GP_BACKEND_CUDA;
    else if (strcmp(v, "cpu") == 0) o->backend = GP_BACKEND_CPU;
    else { berr(suite, "unknown backend '%s': use auto, cuda or cpu", v); return -1; }
  } else if (strcmp(a, "--json") == 0) {
    o->json_path = v;
  } else if (strcmp(a, "--max-time") == 0 || strcmp(a, "--noise") == 0) {
    errno = 0;
    double x = strtod(v, &end);
    if (errno || *end || end == v || !(x > 0) || x > 1e6) {
      berr(suite, "%s '%s': give a positive number", a, v);
      return -1;
    }
    if (a[2] == 'm') o->max_time_s = x; else o->target_noise = x;
  } else {
    int x;
    if (!parse_int(v, strcmp(a, "--warmup") == 0 ? 0 : 1, 100000000, &x)) {
      berr(suite, "%s '%s': give a whole number%s", a, v,
           strcmp(a, "--warmup") == 0 ? "" : " >= 1");
      return -1;
    }
    if (strcmp(a, "--warmup") == 0) o->warmup = x;
    else if (strcmp(a, "--min-samples") == 0) o->min_samples = x;
    else o->max_samples = x;
  }
  return 1;
}

int gpb_split_list(char *s, char **items, int max) {
  int k = 0;
  char *p = s;
  while (k < max) {
    items[k++] = p;
    char *c = strchr(p, ',');
    if (!c) break;
    *c = '\0';
    p = c + 1;
  }
  return k;
}

int gpb_parse_sizes(const char *s, uint64_t *v, int max, int *count) {
  char buf[1024];
  if (strlen(s) >= sizeof buf) return -1;
  strcpy(buf, s);
  char *items[64];
  int k = gpb_split_list(buf, items, max < 64 ? max : 64);
  for (int i = 0; i < k; i++) {
    const char *t = items[i];
    uint64_t x;
    char *end;
    errno = 0;
    if (t[0] == '2' && t[1] == '^') {
      unsigned long e = strtoul(t + 2, &end, 10);
      if (errno || *end || end == t + 2 || e > 62) return -1;
      x = (uint64_t)1 << e;
    } else {
      if (!*t || *t == '-') return -1;
      unsigned long long y = strtoull(t, &end, 10);
      if (errno || end == t) return -1;
      uint64_t mul = 1;
      if (*end == 'k' || *end == 'K') mul = 1ull << 10, end++;
      else if (*end == 'M') mul = 1ull << 20, end++;
      else if (*end == 'G') mul = 1ull << 30, end++;
      if (*end || y > UINT64_MAX / mul) return -1;
      x = y * mul;
    }
    v[i] = x;
  }
  *count = k;
  return 0;
}

/* ---- open / close ---------------------------------------------------------------------- */
static void describe_device(gpb_bench *b) {
  gpb_device *d = &b->dev;
  gp_device_info info;
  memset(&info, 0, sizeof info);
  (void)gp_get_device_info(b->ctx, &info);
  d->is_cuda = gp_backend_of(b->ctx) == GP_BACKEND_CUDA;
  snprintf(d->name, sizeof d->name, "%s", info.name);
  d->sm_count = info.sm_count;
  d->cc_major = info.cc_major;
  d->cc_minor = info.cc_minor;
  d->cpu_threads = info.threads;
  d->mem_clock_mhz = info.mem_clock_khz / 1000.0;
  d->mem_bus_bits = info.mem_bus_bits;
  d->global_mem_bytes = info.global_mem_bytes;
  d->l2_bytes = info.l2_bytes;
  /* DDR/HBM: two transfers per clock */
  if (info.mem_clock_khz > 0 && info.mem_bus_bits > 0)
    d->theoretical_gbs = 2.0 * info.mem_clock_khz * 1e3 * (info.mem_bus_bits / 8.0) / 1e9;
#if GP_HAVE_CUDA
  if (d->is_cuda) {
    int dev = 0, khz = 0;
    if (cudaGetDevice(&dev) == cudaSuccess &&
        cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, dev) == cudaSuccess)
      d->sm_clock_mhz = khz / 1000.0;
    (void)cudaGetLastError();
  }
#endif
}

/* The command line and the UTC date, for the header and the JSON. */
static void stamp_run(gpb_bench *b, int argc, char **argv) {
  size_t used = (size_t)snprintf(b->cmdline, sizeof b->cmdline, "gpuprims bench");
  for (int i = 0; i < argc && used < sizeof b->cmdline; i++)
    used += (size_t)snprintf(b->cmdline + used, sizeof b->cmdline - used, " %s", argv[i]);
  time_t t = time(NULL);
  struct tm tmv;
  gmtime_r(&t, &tmv);
  strftime(b->date, sizeof b->date, "%Y-%m-%dT%H:%M:%SZ", &tmv);
}

/* Why this backend: "cuda", "cpu (asked for)", or the CPU with the reason AUTO found no
 * usable GPU (the library's advice after it dropped). */
static void note_backend(gpb_bench *b, gp_backend asked) {
  char *note = b->dev.backend_note;
  const size_t size = sizeof b->dev.backend_note;
  if (b->dev.is_cuda) {
    snprintf(note, size, "cuda");
  } else if (asked == GP_BACKEND_CPU) {
    snprintf(note, size, "cpu (asked for)");
  } else {
    gp_context *probe = NULL;
    (void)gp_create(&probe, GP_BACKEND_CUDA);
    snprintf(note, size, "cpu (%s)", probe ? gp_last_error(probe) : "no CUDA context possible");
    char *advice = strstr(note, ": use "); /* keep the reason, drop the advice */
    if (advice) { advice[0] = ')'; advice[1] = '\0'; }
    gp_destroy(probe);
  }
}

int gpb_open(gpb_bench **out, const char *suite, const gpb_options *o, int argc, char **argv) {
  *out = NULL;
  gpb_bench *b = (gpb_bench *)calloc(1, sizeof *b);
  if (!b) { berr(suite, "out of memory"); return 1; }
  snprintf(b->suite, sizeof b->suite, "%s", suite);
  b->opt = *o;
  if (b->opt.min_samples > b->opt.max_samples) b->opt.max_samples = b->opt.min_samples;
  stamp_run(b, argc, argv);

  gp_status s = gp_create(&b->ctx, o->backend);
  if (s != GP_OK) {
    berr(suite, "cannot create a %s context: %s", gp_backend_name(o->backend),
         gp_last_error(b->ctx));
    gp_destroy(b->ctx);
    free(b);
    return 1;
  }
  describe_device(b);
  note_backend(b, o->backend);

#if GP_HAVE_CUDA
  if (b->dev.is_cuda) {
    cudaStream_t st;
    if (cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking) != cudaSuccess) {
      berr(suite, "cudaStreamCreate failed: %s", cudaGetErrorString(cudaGetLastError()));
      gpb_close(b);
      return 1;
    }
    b->stream = st;
    if (gp_set_stream(b->ctx, st) != GP_OK) {
      berr(suite, "gp_set_stream failed: %s", gp_last_error(b->ctx));
      gpb_close(b);
      return 1;
    }
    b->flush_bytes = b->dev.l2_bytes ? 2 * b->dev.l2_bytes : ((size_t)128 << 20);
    if (b->opt.flush_l2 && cudaMalloc(&b->flush_buf, b->flush_bytes) != cudaSuccess) {
      berr(suite, "cannot allocate the %zu-byte L2 flush buffer: %s", b->flush_bytes,
           cudaGetErrorString(cudaGetLastError()));
      gpb_close(b);
      return 1;
    }
  }
#endif
  if (!b->dev.is_cuda) {
    /* a CPU's last-level cache is at most a few hundred MiB on today's servers; writing
     * 64 MiB evicts most of a typical one */
    b->flush_bytes = (size_t)64 << 20;
    if (b->opt.flush_l2 && !(b->flush_buf = malloc(b->flush_bytes))) {
      berr(suite, "cannot allocate the flush buffer");
      gpb_close(b);
      return 1;
    }
  }
  if (gp_measure_bandwidth(b->ctx, &b->dev.peak_read_gbs, &b->dev.peak_copy_gbs) != GP_OK) {
    berr(suite, "measuring the peak bandwidth failed: %s (%% of peak will be 0)",
         gp_last_error(b->ctx));
    b->dev.peak_read_gbs = b->dev.peak_copy_gbs = 0;
  }
  *out = b;
  return 0;
}

int gpb_close(gpb_bench *b) {
  if (!b) return 0;
  int rc = 0;
  if (b->opt.json_path && b->ctx) rc = write_json(b);
#if GP_HAVE_CUDA
  if (b->dev.is_cuda) {
    if (b->stream) cudaStreamSynchronize((cudaStream_t)b->stream);
    if (b->flush_buf) cudaFree(b->flush_buf);
    b->flush_buf = NULL;
  }
#endif
  if (b->ctx) (void)gp_set_stream(b->ctx, NULL);
#if GP_HAVE_CUDA
  if (b->stream) cudaStreamDestroy((cudaStream_t)b->stream);
  (void)cudaGetLastError();
#endif
  if (!b->dev.is_cuda) free(b->flush_buf);
  gp_destroy(b->ctx);
  free(b->rows);
  free(b->samples);
  free(b);
  return rc;
}

gp_context *gpb_context(gpb_bench *b) { return b->ctx; }
const gpb_device *gpb_device_of(const gpb_bench *b) { return &b->dev; }
const gpb_options *gpb_options_of(const gpb_bench *b) { return &b->opt; }
int gpb_is_cuda(const gpb_bench *b) { return b->dev.is_cuda; }

/* ---- memory ------------------------------------------------------------------------------ */
int gpb_alloc(gpb_bench *b, size_t bytes, void **p) {
  *p = NULL;
  size_t want = bytes ? bytes : 1;
#if GP_HAVE_CUDA
  if (b->dev.is_cuda) {
    cudaError_t e = cudaMalloc(p, want);
    if (e != cudaSuccess) {
      (void)cudaGetLastError();
      *p = NULL;
      berr(b->suite, "cannot allocate %zu bytes of GPU memory: %s", bytes, cudaGetErrorString(e));
      return 1;
    }
    return 0;
  }
#endif
  want = (want + 63) / 64 * 64;
  *p = aligned_alloc(64, want);
  if (!*p) {
    berr(b->suite, "cannot allocate %zu bytes of host memory", bytes);
    return 1;
  }
  return 0;
}

void gpb_free(gpb_bench *b, void *p) {
  if (!p) return;
#if GP_HAVE_CUDA
  if (b->dev.is_cuda) {
    cudaFree(p);
    return;
  }
#endif
  (void)b;
  free(p);
}

#if GP_HAVE_CUDA
/* 0, or 1 with the message, for a GPU fill that returned cudaError_t e */
static int fill_status(gpb_bench *b, size_t n, int e) {
  if (!e) return 0;
  berr(b->suite, "filling %zu elements on the GPU failed: %s", n, cudaGetErrorString((cudaError_t)e));
  return 1;
}
#endif

int gpb_fill_random_range(gpb_bench *b, gp_dtype t, void *p, size_t n, uint64_t seed,
                          uint64_t range) {
  if ((unsigned)t >= GP_DTYPE_COUNT) { berr(b->suite, "fill: unknown dtype %d", (int)t); return 1; }
#if GP_HAVE_CUDA
  if (b->dev.is_cuda) {
    return fill_status(b, n, gpb_cuda_fill(p, (int)t, n, seed, range, b->stream));
  }
#endif
  for (size_t i = 0; i < n; i++) {
    uint64_t h = gpb_hash64(seed, i);
    switch (t) {
    case GP_F32: { float v = (float)(h >> 40) * 0x1.0p-24f; ((float *)p)[i] = range ? v * (float)range : v; break; }
    case GP_F64: { double v = (double)(h >> 11) * 0x1.0p-53; ((double *)p)[i] = range ? v * (double)range : v; break; }
    case GP_I32: case GP_U32: ((uint32_t *)p)[i] = (uint32_t)(range ? h % range : h); break;
    default: ((uint64_t *)p)[i] = range ? h % range : h; break;
    }
  }
  return 0;
}

int gpb_fill_random(gpb_bench *b, gp_dtype t, void *p, size_t n, uint64_t seed) {
  return gpb_fill_random_range(b, t, p, n, seed, 0);
}

int gpb_fill_dist(gpb_bench *b, gp_dtype t, void *p, size_t n, uint64_t seed, int kind) {
  if (kind == GPB_UNIFORM || (t != GP_F32 && t != GP_F64)) return gpb_fill_random(b, t, p, n, seed);
#if GP_HAVE_CUDA
  if (b->dev.is_cuda) {
    return fill_status(b, n, gpb_cuda_fill_dist(p, t == GP_F32 ? 0 : 1, n, seed, kind, b->stream));
  }
#endif
  for (size_t i = 0; i < n; i++) {
    const double v = gpb_dist_value(kind, seed, i);
    if (t == GP_F32) ((float *)p)[i] = (float)v;
    else ((double *)p)[i] = v;
  }
  return 0;
}

int gpb_copy_async(gpb_bench *b, void *dst, const void *src, size_t bytes) {
  if (!bytes) return 0;
#if GP_HAVE_CUDA
  if (b->dev.is_cuda) {
    cudaError_t e = cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDefault, (cudaStream_t)b->stream);
    if (e != cudaSuccess) {
      (void)cudaGetLastError();
      berr(b->suite, "copy of %zu bytes failed: %s", bytes, cudaGetErrorString(e));
      return 1;
    }
    return 0;
  }
#endif
  (void)b;
  memmove(dst, src, bytes);
  return 0;
}

int gpb_sync(gpb_bench *b) {
#if GP_HAVE_CUDA
  if (b->dev.is_cuda) {
    cudaError_t e = cudaStreamSynchronize((cudaStream_t)b->stream);
    if (e != cudaSuccess) {
      berr(b->suite, "stream synchronize failed: %s", cudaGetErrorString(e));
      return 1;
    }
  }
#endif
  (void)b;
  return 0;
}

int gpb_copy(gpb_bench *b, void *dst, const void *src, size_t bytes) {
  if (gpb_copy_async(b, dst, src, bytes)) return 1;
  return gpb_sync(b);
}

/* ---- timing ---------------------------------------------------------------------------------- */
static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static void stats(const double *s, int k, double *scratch, gpb_result *r) {
  double sum = 0, mn = s[0], mx = s[0];
  for (int i = 0; i < k; i++) {
    sum += s[i];
    if (s[i] < mn) mn = s[i];
    if (s[i] > mx) mx = s[i];
  }
  double mean = sum / k, var = 0;
  for (int i = 0; i < k; i++) var += (s[i] - mean) * (s[i] - mean);
  var = k > 1 ? var / (k - 1) : 0;
  memcpy(scratch, s, (size_t)k * sizeof *s);
  qsort(scratch, (size_t)k, sizeof *scratch, cmp_double);
  r->median_s = k % 2 ? scratch[k / 2] : 0.5 * (scratch[k / 2 - 1] + scratch[k / 2]);
  r->mean_s = mean;
  r->min_s = mn;
  r->max_s = mx;
  r->noise = mean > 0 ? sqrt(var) / mean : 0;
}

void gpb_set_progress_total(gpb_bench *b, int total) {
  b->progress_total = total;
  b->progress_i = 0;
}

const char *gpb_format_n(uint64_t n, char *buf, size_t size) {
  if (n && (n & (n - 1)) == 0) {
    int k = 0;
    while (((uint64_t)1 << k) != n) k++;
    snprintf(buf, size, "2^%d", k);
  } else {
    snprintf(buf, size, "%llu", (unsigned long long)n);
  }
  return buf;
}

static void fail_case(gpb_result *r, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static void fail_case(gpb_result *r, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(r->error, sizeof r->error, fmt, ap);
  va_end(ap);
  r->ok = 0;
}

/* One sample: setup, flush, timed run. Returns 0 and the seconds, or 1 (r->error). */
static int one_sample(gpb_bench *b, const gpb_case *c, gpb_result *r, int timed, int k,
                      double *sec, void *ev0, void *ev1) {
  if (c->setup && c->setup(c->arg, b->stream)) {
    fail_case(r, "setup failed");
    return 1;
  }
#if GP_HAVE_CUDA
  if (b->dev.is_cuda) {
    cudaStream_t st = (cudaStream_t)b->stream;
    cudaError_t e = cudaSuccess;
    if (b->opt.flush_l2 && b->flush_buf)
      e = cudaMemsetAsync(b->flush_buf, k & 0xff, b->flush_bytes, st);
    if (e == cudaSuccess && timed) e = cudaEventRecord((cudaEvent_t)ev0, st);
    if (e != cudaSuccess) {
      fail_case(r, "CUDA error before the run: %s", cudaGetErrorString(e));
      return 1;
    }
    if (c->run(c->arg, st)) {
      fail_case(r, "the run failed (see above)");
      return 1;
    }
    e = cudaPeekAtLastError();
    if (e == cudaSuccess && timed) e = cudaEventRecord((cudaEvent_t)ev1, st);
    if (e == cudaSuccess) e = timed ? cudaEventSynchronize((cudaEvent_t)ev1) : cudaStreamSynchronize(st);
    float ms = 0;
    if (e == cudaSuccess && timed) e = cudaEventElapsedTime(&ms, (cudaEvent_t)ev0, (cudaEvent_t)ev1);
    if (e != cudaSuccess) {
      fail_case(r, "CUDA error in or after the run: %s", cudaGetErrorString(e));
      return 1;
    }
    *sec = ms * 1e-3;
    return 0;
  }
#endif
  (void)ev0; (void)ev1;
  if (b->opt.flush_l2 && b->flush_buf) memset(b->flush_buf, k & 0xff, b->flush_bytes);
  double t0 = gpb_wall_seconds();
  if (c->run(c->arg, NULL)) {
    fail_case(r, "the run failed (see above)");
    return 1;
  }
  *sec = gpb_wall_seconds() - t0;
  (void)timed;
  return 0;
}

/* Fills r with the case's labels and prints the "[i/total] case ..." progress line. */
static void begin_case(gpb_bench *b, const gpb_case *c, gpb_result *r) {
  memset(r, 0, sizeof *r);
  snprintf(r->impl, sizeof r->impl, "%s", c->impl ? c->impl : "");
  snprintf(r->name, sizeof r->name, "%s", c->name ? c->name : "");
  snprintf(r->dtype, sizeof r->dtype, "%s", c->dtype ? c->dtype : "");
  snprintf(r->note, sizeof r->note, "%s", c->note ? c->note : "");
  r->n = c->n;
  r->elements = c->elements > 0 ? c->elements : (double)c->n;
  r->bytes = c->bytes;
  r->ok = 1;
  r->l2_flushed = b->opt.flush_l2 && b->flush_buf;
  b->progress_i++;
  if (!b->opt.quiet) {
    char nb[32];
    if (b->progress_total > 0) fprintf(stderr, "[%d/%d] ", b->progress_i, b->progress_total);
    fprintf(stderr, "%s %s n=%s (%s) ...\n", r->name, r->dtype,
            gpb_format_n(r->n, nb, sizeof nb), r->impl);
  }
}

/* The start and stop events of a sample on CUDA (both NULL on the CPU). Returns 1 with
 * r->error set when they cannot be made. */
static int create_events(gpb_bench *b, gpb_result *r, void **ev0, void **ev1) {
  *ev0 = *ev1 = NULL;
#if GP_HAVE_CUDA
  if (b->dev.is_cuda) {
    cudaEvent_t e0, e1;
    if (cudaEventCreate(&e0) != cudaSuccess) {
      fail_case(r, "cudaEventCreate failed");
      return 1;
    }
    if (cudaEventCreate(&e1) != cudaSuccess) {
      cudaEventDestroy(e0);
      fail_case(r, "cudaEventCreate failed");
      return 1;
    }
    *ev0 = e0;
    *ev1 = e1;
  }
#else
  (void)b; (void)r;
#endif
  return 0;
}

static void destroy_events(void *ev0, void *ev1) {
#if GP_HAVE_CUDA
  if (ev0) cudaEventDestroy((cudaEvent_t)ev0);
  if (ev1) cudaEventDestroy((cudaEvent_t)ev1);
#else
  (void)ev0; (void)ev1;
#endif
}

/* Room for min(max_samples, 1024) samples, each with a scratch slot for stats(). */
static void reserve_samples(gpb_bench *b) {
  if (b->samples_cap >= b->opt.max_samples) return;
  int cap = b->opt.max_samples < 1024 ? b->opt.max_samples : 1024;
  if (cap < b->samples_cap) cap = b->samples_cap;
  free(b->samples);
  b->samples = (double *)malloc(2 * (size_t)cap * sizeof(double));
  b->samples_cap = b->samples ? cap : 0;
}

/* Timed samples until the noise target (with at least min_samples), max_samples or the
 * time cap. Returns 0 with the count in *count, or 1 (r->error says why). */
static int take_samples(gpb_bench *b, const gpb_case *c, gpb_result *r, void *ev0, void *ev1,
                        int *count) {
  double t_start = gpb_wall_seconds(), sec;
  int k = 0;
  for (;;) {
    if (k == b->samples_cap) { /* grow (up to max_samples) */
      int cap = b->samples_cap * 2 > b->opt.max_samples ? b->opt.max_samples : b->samples_cap * 2;
      double *grown = (double *)realloc(b->samples, 2 * (size_t)cap * sizeof(double));
      if (!grown) { fail_case(r, "out of memory for samples"); return 1; }
      b->samples = grown;
      b->samples_cap = cap;
    }
    if (one_sample(b, c, r, 1, k, &sec, ev0, ev1)) return 1;
    b->samples[k++] = sec;
    *count = k;
    if (k >= b->opt.min_samples) {
      stats(b->samples, k, b->samples + b->samples_cap, r);
      if (r->noise < b->opt.target_noise) return 0;
      if (k >= b->opt.max_samples) return 0;
      if (gpb_wall_seconds() - t_start > b->opt.max_time_s) { r->time_capped = 1; return 0; }
    }
  }
}

int gpb_time_case(gpb_bench *b, const gpb_case *c, gpb_result *r) {
  begin_case(b, c, r);
  if (!c->run) {
    fail_case(r, "no run callback");
    return 1;
  }
  void *ev0, *ev1;
  if (create_events(b, r, &ev0, &ev1)) return 1;
  int rc = 0, k = 0;
  double sec;
  for (int w = 0; w < b->opt.warmup && !rc; w++)
    rc = one_sample(b, c, r, 0, w, &sec, ev0, ev1);
  reserve_samples(b);
  if (!rc) rc = take_samples(b, c, r, ev0, ev1, &k);
  destroy_events(ev0, ev1);
  if (rc) {
#if GP_HAVE_CUDA
    if (b->dev.is_cuda) {
      cudaStreamSynchronize((cudaStream_t)b->stream);
      (void)cudaGetLastError();
    }
#endif
    if (!b->opt.quiet) fprintf(stderr, "  FAILED: %s\n", r->error);
    return 1;
  }
  r->samples = k;
  stats(b->samples, k, b->samples + b->samples_cap, r);
  if (r->median_s > 0) {
    r->elem_per_s = r->elements / r->median_s;
    r->gbs = r->bytes / r->median_s / 1e9;
    if (b->dev.peak_read_gbs > 0) r->pct_peak = 100.0 * r->gbs / b->dev.peak_read_gbs;
  }
  return 0;
}

void gpb_set_ratio(gpb_result *ours, const gpb_result *peer) {
  if (!ours->ok || !peer->ok || !(ours->median_s > 0)) return;
  ours->ratio = peer->median_s / ours->median_s;
  snprintf(ours->ratio_to, sizeof ours->ratio_to, "%s", peer->impl);
}

/* ---- table ----------------------------------------------------------------------------------- */
static const char *fmt_time(double s, char *buf, size_t size) {
  if (s < 1e-3) snprintf(buf, size, "%.2f us", s * 1e6);
  else if (s < 1) snprintf(buf, size, "%.3f ms", s * 1e3);
  else snprintf(buf, size, "%.3f s", s);
  return buf;
}

static const char *fmt_si(double v, char *buf, size_t size) {
  if (v >= 1e12) snprintf(buf, size, "%.2fT", v / 1e12);
  else if (v >= 1e9) snprintf(buf, size, "%.2fG", v / 1e9);
  else if (v >= 1e6) snprintf(buf, size, "%.2fM", v / 1e6);
  else if (v >= 1e3) snprintf(buf, size, "%.2fk", v / 1e3);
  else snprintf(buf, size, "%.2f", v);
  return buf;
}

static const char *fmt_bytes(double v, char *buf, size_t size) {
  if (v >= 1024.0 * 1024 * 1024) snprintf(buf, size, "%.2f GiB", v / (1024.0 * 1024 * 1024));
  else if (v >= 1024.0 * 1024) snprintf(buf, size, "%.2f MiB", v / (1024.0 * 1024));
  else if (v >= 1024.0) snprintf(buf, size, "%.2f KiB", v / 1024.0);
  else snprintf(buf, size, "%.0f B", v);
  return buf;
}

void gpb_print_header(gpb_bench *b) {
  const gpb_device *d = &b->dev;
  char t1[32], t2[32];
  printf("# gpuprims %s -- bench %s -- %s\n", gp_version(), b->suite, b->date);
  if (d->is_cuda) {
    printf("# device: %s, %d SMs, compute capability %d.%d", d->name, d->sm_count, d->cc_major,
           d->cc_minor);
    if (d->sm_clock_mhz > 0) printf(", SM clock %.0f MHz", d->sm_clock_mhz);
    printf("\n# memory: %s", fmt_bytes((double)d->global_mem_bytes, t1, sizeof t1));
    if (d->mem_clock_mhz > 0) printf(", clock %.0f MHz x %d-bit bus", d->mem_clock_mhz, d->mem_bus_bits);
    printf(", L2 %s\n", fmt_bytes((double)d->l2_bytes, t2, sizeof t2));
    printf("# peak bandwidth: measured read %.1f GB/s, copy %.1f GB/s", d->peak_read_gbs, d->peak_copy_gbs);
    if (d->theoretical_gbs > 0)
      printf(", theoretical %.1f GB/s (read = %.0f%% of it)", d->theoretical_gbs,
             100.0 * d->peak_read_gbs / d->theoretical_gbs);
    printf("\n");
  } else {
    printf("# backend: %s\n# device: %s, %d threads, memory %s\n", d->backend_note, d->name,
           d->cpu_threads, fmt_bytes((double)d->global_mem_bytes, t1, sizeof t1));
    printf("# peak bandwidth (host, wall clock): read %.1f GB/s, copy %.1f GB/s\n",
           d->peak_read_gbs, d->peak_copy_gbs);
  }
  printf("# method: %s, %d warm-up run(s), samples until noise (stdev/mean) < %.2f%% "
         "(at least %d) or %.2g s per case; time = median of the samples (%s)\n",
         b->opt.flush_l2 ? (d->is_cuda ? "L2 flushed before each sample" : "caches flushed before each sample")
                         : "no cache flush (hot)",
         b->opt.warmup, 100.0 * b->opt.target_noise, b->opt.min_samples, b->opt.max_time_s,
         d->is_cuda ? "CUDA events on one stream" : "wall clock, synchronous CPU calls");
  printf("# %% peak = GB/s over the measured peak read bandwidth; ratio = peer time / our "
         "time (>1: gpuprims is faster)\n");
  printf("%-9s %-32s %-5s %8s %10s %7s %11s %7s %9s %9s %6s %-14s %s\n", "impl", "case",
         "dtype", "n", "bytes", "samples", d->is_cuda ? "GPU time" : "CPU time", "noise",
         "elem/s", "GB/s", "%peak", "ratio", "note");
  fflush(stdout);
}

void gpb_print_row(gpb_bench *b, const gpb_result *r) {
  (void)b;
  char nb[32], by[32], tm[32], es[32], ratio[48];
  gpb_format_n(r->n, nb, sizeof nb);
  fmt_bytes(r->bytes, by, sizeof by);
  if (!r->ok) {
    printf("%-9s %-32s %-5s %8s %10s FAILED: %s\n", r->impl, r->name, r->dtype, nb, by, r->error);
    fflush(stdout);
    return;
  }
  if (r->ratio > 0) snprintf(ratio, sizeof ratio, "%.3fx %s", r->ratio, r->ratio_to);
  else snprintf(ratio, sizeof ratio, "-");
  printf("%-9s %-32s %-5s %8s %10s %7d %11s %6.2f%% %9s %9.1f %5.1f%% %-14s %s%s\n", r->impl,
         r->name, r->dtype, nb, by, r->samples, fmt_time(r->median_s, tm, sizeof tm),
         100.0 * r->noise, fmt_si(r->elem_per_s, es, sizeof es), r->gbs, r->pct_peak, ratio,
         r->note, r->time_capped ? " (time cap)" : "");
  fflush(stdout);
}

int gpb_record(gpb_bench *b, const gpb_result *r) {
  if (b->nrows == b->cap) {
    int cap = b->cap ? 2 * b->cap : 64;
    gpb_result *g = (gpb_result *)realloc(b->rows, (size_t)cap * sizeof *g);
    if (!g) return 1;
    b->rows = g;
    b->cap = cap;
  }
  b->rows[b->nrows++] = *r;
  return 0;
}

void gpb_emit(gpb_bench *b, const gpb_result *r) {
  gpb_print_row(b, r);
  if (gpb_record(b, r)) berr(b->suite, "out of memory keeping a JSON row");
}

/* ---- JSON ----------------------------------------------------------------------------------- */
static void json_str(FILE *f, const char *s) {
  fputc('"', f);
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\') fprintf(f, "\\%c", c);
    else if (c == '\n') fputs("\\n", f);
    else if (c < 0x20) fprintf(f, "\\u%04x", c);
    else fputc(c, f);
  }
  fputc('"', f);
}

static void json_num(FILE *f, double v) {
  if (isfinite(v)) fprintf(f, "%.9g", v);
  else fputs("null", f);
}

/* "device": {...}: what gpb_print_header shows, as numbers. */
static void json_device(FILE *f, const gpb_device *d) {
  fprintf(f, ",\n  \"device\": {\"backend\": ");
  json_str(f, d->is_cuda ? "cuda" : "cpu");
  fprintf(f, ", \"backend_note\": ");
  json_str(f, d->backend_note);
  fprintf(f, ", \"name\": ");
  json_str(f, d->name);
  fprintf(f, ", \"sm_count\": %d, \"compute_capability\": \"%d.%d\", \"cpu_threads\": %d, "
             "\"sm_clock_mhz\": ", d->sm_count, d->cc_major, d->cc_minor, d->cpu_threads);
  json_num(f, d->sm_clock_mhz);
  fprintf(f, ", \"mem_clock_mhz\": ");
  json_num(f, d->mem_clock_mhz);
  fprintf(f, ", \"mem_bus_bits\": %d, \"global_mem_bytes\": %zu, \"l2_bytes\": %zu, "
             "\"theoretical_gbs\": ", d->mem_bus_bits, d->global_mem_bytes, d->l2_bytes);
  json_num(f, d->theoretical_gbs);
  fprintf(f, ", \"peak_read_gbs\": ");
  json_num(f, d->peak_read_gbs);
  fprintf(f, ", \"peak_copy_gbs\": ");
  json_num(f, d->peak_copy_gbs);
  fputc('}', f);
}

/* "method": {...}: flush, warm-up and stopping rules, the timer. */
static void json_method(FILE *f, const gpb_bench *b) {
  fprintf(f, ",\n  \"method\": {\"l2_flush\": %s, \"flush_bytes\": %zu, \"warmup\": %d, "
             "\"target_noise\": ", b->opt.flush_l2 ? "true" : "false",
          b->opt.flush_l2 ? b->flush_bytes : (size_t)0, b->opt.warmup);
  json_num(f, b->opt.target_noise);
  fprintf(f, ", \"min_samples\": %d, \"max_samples\": %d, \"max_time_s\": ",
          b->opt.min_samples, b->opt.max_samples);
  json_num(f, b->opt.max_time_s);
  fprintf(f, ", \"timer\": ");
  json_str(f, b->dev.is_cuda ? "cuda events" : "wall clock");
  fputc('}', f);
}

/* The statistics of a row that ran. */
static void json_timing(FILE *f, const gpb_result *r) {
  fprintf(f, ", \"samples\": %d, \"median_s\": ", r->samples);
  json_num(f, r->median_s);
  fprintf(f, ", \"mean_s\": ");
  json_num(f, r->mean_s);
  fprintf(f, ", \"min_s\": ");
  json_num(f, r->min_s);
  fprintf(f, ", \"max_s\": ");
  json_num(f, r->max_s);
  fprintf(f, ", \"noise\": ");
  json_num(f, r->noise);
  fprintf(f, ", \"elem_per_s\": ");
  json_num(f, r->elem_per_s);
  fprintf(f, ", \"gbs\": ");
  json_num(f, r->gbs);
  fprintf(f, ", \"pct_peak\": ");
  json_num(f, r->pct_peak);
  fprintf(f, ", \"time_capped\": %s, \"l2_flushed\": %s", r->time_capped ? "true" : "false",
          r->l2_flushed ? "true" : "false");
  if (r->ratio > 0) {
    fprintf(f, ", \"ratio\": ");
    json_num(f, r->ratio);
    fprintf(f, ", \"ratio_to\": ");
    json_str(f, r->ratio_to);
  }
}

/* One element of "rows". */
static void json_row(FILE *f, const gpb_result *r) {
  fprintf(f, "{\"impl\": ");
  json_str(f, r->impl);
  fprintf(f, ", \"case\": ");
  json_str(f, r->name);
  fprintf(f, ", \"dtype\": ");
  json_str(f, r->dtype);
  fprintf(f, ", \"n\": %llu, \"bytes\": ", (unsigned long long)r->n);
  json_num(f, r->bytes);
  fprintf(f, ", \"elements\": ");
  json_num(f, r->elements);
  fprintf(f, ", \"ok\": %s", r->ok ? "true" : "false");
  if (!r->ok) {
    fprintf(f, ", \"error\": ");
    json_str(f, r->error);
  } else {
    json_timing(f, r);
  }
  if (r->note[0]) {
    fprintf(f, ", \"note\": ");
    json_str(f, r->note);
  }
  fputc('}', f);
}

static int write_json(gpb_bench *b) {
  FILE *f = fopen(b->opt.json_path, "w");
  if (!f) {
    berr(b->suite, "%s: cannot create: %s", b->opt.json_path, strerror(errno));
    return 1;
  }
  fprintf(f, "{\n  \"suite\": ");
  json_str(f, b->suite);
  fprintf(f, ",\n  \"command\": ");
  json_str(f, b->cmdline);
  fprintf(f, ",\n  \"date\": ");
  json_str(f, b->date);
  fprintf(f, ",\n  \"gpuprims_version\": ");
  json_str(f, gp_version());
  json_device(f, &b->dev);
  json_method(f, b);
  fprintf(f, ",\n  \"rows\": [");
  for (int i = 0; i < b->nrows; i++) {
    fprintf(f, "%s\n    ", i ? "," : "");
    json_row(f, &b->rows[i]);
  }
  fprintf(f, "\n  ]\n}\n");
  int bad = ferror(f);
  if (fclose(f) != 0 || bad) {
    berr(b->suite, "%s: write failed: %s", b->opt.json_path, strerror(errno));
    return 1;
  }
  if (!b->opt.quiet) fprintf(stderr, "wrote %s (%d rows)\n", b->opt.json_path, b->nrows);
  return 0;
}
