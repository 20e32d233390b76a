/* The on-disk kernel cache's file layer (src/cuda/integrate/disk_cache.c), on the CPU:
 * where it lives (GPUPRIMS_CACHE_DIR, XDG_CACHE_HOME, HOME, off), store and load, a
 * miss for another key, truncated, corrupt, padded or foreign files, and writers in
 * several processes at once while a reader loads. Skipped (77) in a build without
 * CUDA, which has no kernels to cache. */
#define _POSIX_C_SOURCE 200809L
#include "check.h"

#if GP_HAVE_CUDA
#include "cuda/integrate/disk_cache.h"

#include <dirent.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char root[256];

static const char *dir_for(const char *env, const char *value, char *buf, size_t len) {
  if (value) setenv(env, value, 1);
  else unsetenv(env);
  return gp_disk_cache_dir(buf, len) == 0 ? buf : NULL;
}

static void check_dirs(void) {
  char buf[512];
  unsetenv("GPUPRIMS_CACHE_DIR");
  setenv("HOME", "/home/someone", 1);
  const char *d = dir_for("XDG_CACHE_HOME", "/xdg/cache", buf, sizeof buf);
  CHECK(d && strcmp(d, "/xdg/cache/gpuprims") == 0);
  d = dir_for("XDG_CACHE_HOME", NULL, buf, sizeof buf);
  CHECK(d && strcmp(d, "/home/someone/.cache/gpuprims") == 0);
  d = dir_for("XDG_CACHE_HOME", "relative/path", buf, sizeof buf); /* the spec ignores it */
  CHECK(d && strcmp(d, "/home/someone/.cache/gpuprims") == 0);
  d = dir_for("GPUPRIMS_CACHE_DIR", "/my/cache", buf, sizeof buf);
  CHECK(d && strcmp(d, "/my/cache") == 0);
  CHECK(dir_for("GPUPRIMS_CACHE_DIR", "off", buf, sizeof buf) == NULL);
  CHECK(dir_for("GPUPRIMS_CACHE_DIR", "", buf, sizeof buf) == NULL);
  unsetenv("GPUPRIMS_CACHE_DIR");
  unsetenv("XDG_CACHE_HOME");
  CHECK(dir_for("HOME", NULL, buf, sizeof buf) == NULL);
  char small[8];
  setenv("GPUPRIMS_CACHE_DIR", "/a/longer/path", 1);
  CHECK(gp_disk_cache_dir(small, sizeof small) == -1);
  unsetenv("GPUPRIMS_CACHE_DIR");
}

static void entry_file(const char *dir, const char *key, char *path, size_t len) {
  char name[64];
  gp_disk_cache_name(key, strlen(key), name, sizeof name);
  snprintf(path, len, "%s/%s", dir, name);
}

static long file_size(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

/* Loads key: 1 when it returns exactly want (want_len bytes), 0 on a miss, -1 when it
 * returns anything else (which must never happen). */
static int load_is(const char *dir, const char *key, const void *want, size_t want_len) {
  void *img = NULL;
  size_t size = 7;
  if (gp_disk_cache_load(dir, key, strlen(key), &img, &size) != 0) {
    CHECK(img == NULL && size == 0);
    return 0;
  }
  const int same = size == want_len && memcmp(img, want, size) == 0;
  free(img);
  return same ? 1 : -1;
}

static void rewrite(const char *path, const unsigned char *bytes, size_t n) {
  FILE *f = fopen(path, "wb");
  CHECK(f != NULL);
  if (!f) return;
  CHECK(fwrite(bytes, 1, n, f) == n);
  fclose(f);
}

static void check_store_load(void) {
  char dir[512], path[600];
  snprintf(dir, sizeof dir, "%s/nested/twice", root); /* store creates both levels */
  const char *key = "source of f\0sm_90";
  const char image[] = "\x7f" "ELF pretend cubin \0 with a zero inside";
  CHECK(load_is(dir, key, image, sizeof image) == 0); /* nothing yet */
  CHECK(gp_disk_cache_store(dir, key, strlen(key), image, sizeof image) == 0);
  CHECK(load_is(dir, key, image, sizeof image) == 1);
  CHECK(load_is(dir, "another key", image, sizeof image) == 0);
  /* a file under this key's name that holds another key: a miss, not its image */
  char other[600];
  entry_file(dir, key, path, sizeof path);
  CHECK(gp_disk_cache_store(dir, "x", 1, image, sizeof image) == 0);
  entry_file(dir, "x", other, sizeof other);
  CHECK(rename(other, path) == 0);
  CHECK(load_is(dir, key, image, sizeof image) == 0);
  /* every truncation, every single flipped byte, and a byte appended: all misses */
  CHECK(gp_disk_cache_store(dir, key, strlen(key), image, sizeof image) == 0);
  const long n = file_size(path);
  CHECK(n > (long)(sizeof image + strlen(key)));
  unsigned char *good = (unsigned char *)malloc((size_t)n + 1);
  FILE *f = fopen(path, "rb");
  CHECK(f && fread(good, 1, (size_t)n, f) == (size_t)n);
  if (f) fclose(f);
  int misses = 0;
  for (long len = 0; len < n; len++) {
    rewrite(path, good, (size_t)len);
    misses += load_is(dir, key, image, sizeof image) == 0;
  }
  CHECK_MSG(misses == n, "%d of %ld truncations were misses", misses, n);
  misses = 0;
  for (long i = 0; i < n; i++) {
    good[i] ^= 0x20;
    rewrite(path, good, (size_t)n);
    misses += load_is(dir, key, image, sizeof image) == 0;
    good[i] ^= 0x20;
  }
  CHECK_MSG(misses == n, "%d of %ld flipped bytes were misses", misses, n);
  good[n] = 0;
  rewrite(path, good, (size_t)n + 1);
  CHECK(load_is(dir, key, image, sizeof image) == 0);
  /* the original bytes load again, and a store repairs a damaged entry */
  rewrite(path, good, (size_t)n);
  CHECK(load_is(dir, key, image, sizeof image) == 1);
  rewrite(path, good, 5);
  CHECK(gp_disk_cache_store(dir, key, strlen(key), image, sizeof image) == 0);
  CHECK(load_is(dir, key, image, sizeof image) == 1);
  free(good);
  /* a folder that cannot be created: the store says so, nothing else happens */
  char blocked[700];
  snprintf(blocked, sizeof blocked, "%s/sub", path); /* under a regular file */
  CHECK(gp_disk_cache_store(blocked, key, strlen(key), image, sizeof image) == -1);
}

/* Writers in 6 processes store different images under one key, 40 times each, while a
 * reader loads it: every load is a miss or one writer's whole image. */
#define WRITERS 6
#define ROUNDS 40
#define IMAGE_BYTES 20000

static void make_image(int w, unsigned char *img) {
  for (int i = 0; i < IMAGE_BYTES; i++) img[i] = (unsigned char)(w * 37 + i * 11);
}

static int which_image(const unsigned char *img, size_t size) {
  unsigned char want[IMAGE_BYTES];
  for (int w = 0; w < WRITERS; w++) {
    make_image(w, want);
    if (size == IMAGE_BYTES && memcmp(img, want, IMAGE_BYTES) == 0) return w;
  }
  return -1;
}

static void check_concurrent(void) {
  char dir[512];
  snprintf(dir, sizeof dir, "%s/concurrent", root);
  const char *key = "one key for every writer";
  pid_t pids[WRITERS + 1];
  for (int w = 0; w <= WRITERS; w++) {
    pids[w] = fork();
    CHECK(pids[w] >= 0);
    if (pids[w] != 0) continue;
    int bad = 0;
    if (w < WRITERS) {
      unsigned char img[IMAGE_BYTES];
      make_image(w, img);
      for (int r = 0; r < ROUNDS; r++)
        bad |= gp_disk_cache_store(dir, key, strlen(key), img, IMAGE_BYTES) != 0;
    } else {
      for (int r = 0; r < WRITERS * ROUNDS; r++) {
        void *img = NULL;
        size_t size = 0;
        if (gp_disk_cache_load(dir, key, strlen(key), &img, &size) == 0)
          bad |= which_image((const unsigned char *)img, size) < 0;
        free(img);
      }
    }
    _exit(bad);
  }
  for (int w = 0; w <= WRITERS; w++) {
    int status = 0;
    CHECK(waitpid(pids[w], &status, 0) == pids[w]);
    CHECK_MSG(WIFEXITED(status) && WEXITSTATUS(status) == 0, "%s %d failed",
              w < WRITERS ? "writer" : "reader", w);
  }
  void *img = NULL;
  size_t size = 0;
  CHECK(gp_disk_cache_load(dir, key, strlen(key), &img, &size) == 0);
  CHECK(img && which_image((const unsigned char *)img, size) >= 0);
  free(img);
  /* the temporary files were all renamed into place: one file is left */
  int files = 0;
  DIR *d = opendir(dir);
  CHECK(d != NULL);
  for (struct dirent *e; d && (e = readdir(d));)
    files += e->d_name[0] != '.';
  if (d) closedir(d);
  CHECK_MSG(files == 1, "%d files in the cache folder", files);
}

static void remove_tree(const char *path) {
  DIR *d = opendir(path);
  if (d) {
    for (struct dirent *e; (e = readdir(d));) {
      if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
      char sub[1024];
      snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
      remove_tree(sub);
    }
    closedir(d);
  }
  remove(path);
}

int main(void) {
  const char *tmp = getenv("TMPDIR");
  snprintf(root, sizeof root, "%s/gp_disk_cache_XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
  CHECK(mkdtemp(root) != NULL);
  check_dirs();
  check_store_load();
  check_concurrent();
  remove_tree(root);
  return check_summary("test_integrate_disk_cache");
}
#else
int main(void) {
  printf("test_integrate_disk_cache: SKIPPED, built without CUDA (no kernels to cache)\n");
  return 77;
}
#endif
