/* The on-disk kernel cache end to end on the GPU (skipped, 77, without one): a fresh
 * context compiles and stores, the next one loads what was stored (shown by planting
 * another expression's kernel under the key), a damaged entry is compiled afresh and
 * replaced, and GPUPRIMS_CACHE_DIR=off writes nothing. */
#define _POSIX_C_SOURCE 200809L
#include "check.h"

#if GP_HAVE_CUDA
#include "core/context.h"
#include "cuda/integrate/disk_cache.h"
#include "cuda/integrate/integrate_cuda.h"
#include "cuda/integrate/jit.h"

#include <dirent.h>
#include <unistd.h>

static char root[256];

static int count_files(const char *dir) {
  int n = 0;
  DIR *d = opendir(dir);
  for (struct dirent *e; d && (e = readdir(d));) n += e->d_name[0] != '.';
  if (d) closedir(d);
  return n;
}

/* The integral of expr over [0, 1] with 1000 trapezoids in a new context, so only the
 * disk cache (not the context's modules) can supply the kernel. */
static double fresh_integral(const char *expr) {
  gp_context *ctx = check_gpu_context_or_skip("test_integrate_gpu_cache");
  double r = NAN;
  CHECK_OK(ctx, gp_integrate_ex(ctx, expr, 0, 1, 1000, GP_F64, &r));
  gp_destroy(ctx);
  return r;
}

/* The generated source of expr, and the cache key the runtime uses for it on this GPU. */
static char *key_of(gp_context *ctx, const char *expr, char **src, char *arch, size_t alen,
                    size_t *key_len) {
  size_t need = 0;
  CHECK_OK(ctx, gp_integrate_source(ctx, expr, GP_F64, NULL, 0, &need));
  *src = (char *)malloc(need);
  CHECK_OK(ctx, gp_integrate_source(ctx, expr, GP_F64, *src, need, NULL));
  gp_nvrtc_arch_for(ctx->info.cc_major, ctx->info.cc_minor, arch, alen);
  return gp_cuda_integrate_cache_key(*src, arch, key_len);
}

int main(void) {
  gp_context *ctx = check_gpu_context_or_skip("test_integrate_gpu_cache");
  const char *tmp = getenv("TMPDIR");
  snprintf(root, sizeof root, "%s/gp_gpu_cache_XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
  CHECK(mkdtemp(root) != NULL);
  setenv("GPUPRIMS_CACHE_DIR", root, 1);
  /* every context compiles at first use (the default, auto, interprets small calls
     and compiles nothing: checked below with the planted entry) */
  setenv("GPUPRIMS_JIT", "always", 1);

  /* the first context compiles and stores one entry; the second gets the same bits */
  const double first = fresh_integral("x");
  CHECK_NEAR(first, 0.5, 0, 1e-15);
  CHECK_MSG(count_files(root) == 1, "%d files after the first compile", count_files(root));
  const double again = fresh_integral("x");
  CHECK(memcmp(&first, &again, sizeof first) == 0);
  CHECK(count_files(root) == 1);

  /* plant the kernel of x + 1 under the key of x: a new context integrates x + 1, so
     it loaded the entry rather than compiling */
  char *src_x = NULL, *src_x1 = NULL, arch[32];
  size_t key_len = 0, key1_len = 0;
  char *key = key_of(ctx, "x", &src_x, arch, sizeof arch, &key_len);
  char *key1 = key_of(ctx, "x + 1", &src_x1, arch, sizeof arch, &key1_len);
  CHECK(key && key1);
  char *image = NULL, log[4096];
  size_t size = 0;
  CHECK_MSG(gp_nvrtc_compile(src_x1, arch, &image, &size, log, sizeof log) == 0, "%s", log);
  CHECK(gp_disk_cache_store(root, key, key_len, image, size) == 0);
  CHECK_NEAR(fresh_integral("x"), 1.5, 0, 1e-15);
  /* auto takes a kernel the cache holds rather than interpreting */
  setenv("GPUPRIMS_JIT", "auto", 1);
  CHECK_NEAR(fresh_integral("x"), 1.5, 0, 1e-15);
  setenv("GPUPRIMS_JIT", "always", 1);

  /* a truncated entry is a miss: compiled afresh (0.5 again) and stored whole */
  char name[64], path[512];
  gp_disk_cache_name(key, key_len, name, sizeof name);
  snprintf(path, sizeof path, "%s/%s", root, name);
  CHECK(truncate(path, 40) == 0);
  const double repaired = fresh_integral("x");
  CHECK(memcmp(&repaired, &first, sizeof first) == 0);
  void *back = NULL;
  size_t back_size = 0;
  CHECK(gp_disk_cache_load(root, key, key_len, &back, &back_size) == 0);
  free(back);

  /* F32 is another entry; off writes nothing */
  double r32 = NAN;
  CHECK_OK(ctx, gp_integrate_ex(ctx, "x", 0, 1, 1000, GP_F32, &r32));
  CHECK(count_files(root) == 2);
  CHECK(remove(path) == 0);
  setenv("GPUPRIMS_CACHE_DIR", "off", 1);
  CHECK_NEAR(fresh_integral("x"), 0.5, 0, 1e-15);
  CHECK(count_files(root) == 1);

  free(image);
  free(key);
  free(key1);
  free(src_x);
  free(src_x1);
  DIR *d = opendir(root);
  for (struct dirent *e; d && (e = readdir(d));) {
    if (e->d_name[0] == '.') continue;
    snprintf(path, sizeof path, "%s/%s", root, e->d_name);
    remove(path);
  }
  if (d) closedir(d);
  remove(root);
  gp_destroy(ctx);
  return check_summary("test_integrate_gpu_cache");
}
#else
int main(void) {
  printf("test_integrate_gpu_cache: SKIPPED, built without CUDA\n");
  return 77;
}
#endif
