/* On-disk cache of compiled integrate kernels. An entry is one file:
 *   header (magic "GPKCACH1", key length, image length, FNV-1a 64 of key and image)
 *   the key bytes, then the image bytes.
 * The whole key is stored and compared, so a hash collision is a miss, not a wrong
 * kernel; the lengths and checksum catch a truncated or damaged file. */
#define _POSIX_C_SOURCE 200809L
#include "cuda/integrate/disk_cache.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAGIC "GPKCACH1"
#define MAX_IMAGE (64u << 20) /* an entry larger than this is not ours */

typedef struct entry_header {
  char magic[8];
  uint64_t key_len, image_len, checksum;
} entry_header;

static uint64_t fnv1a(uint64_t h, const void *p, size_t n) {
  const unsigned char *b = (const unsigned char *)p;
  for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 0x100000001b3ull;
  return h;
}
#define FNV_BASIS 0xcbf29ce484222325ull

int gp_disk_cache_dir(char *dir, size_t len) {
  const char *env = getenv("GPUPRIMS_CACHE_DIR");
  int n;
  if (env) {
    if (env[0] == '\0' || strcmp(env, "off") == 0) return -1;
    n = snprintf(dir, len, "%s", env);
  } else if ((env = getenv("XDG_CACHE_HOME")) && env[0] == '/') {
    n = snprintf(dir, len, "%s/gpuprims", env);
  } else if ((env = getenv("HOME")) && env[0] != '\0') {
    n = snprintf(dir, len, "%s/.cache/gpuprims", env);
  } else {
    return -1;
  }
  return n > 0 && (size_t)n < len ? 0 : -1;
}

void gp_disk_cache_name(const void *key, size_t key_len, char *name, size_t len) {
  snprintf(name, len, "%016llx.gpk", (unsigned long long)fnv1a(FNV_BASIS, key, key_len));
}

static int entry_path(const char *dir, const void *key, size_t key_len, char *path,
                      size_t len) {
  char name[32];
  gp_disk_cache_name(key, key_len, name, sizeof name);
  const int n = snprintf(path, len, "%s/%s", dir, name);
  return n > 0 && (size_t)n < len ? 0 : -1;
}

int gp_disk_cache_load(const char *dir, const void *key, size_t key_len, void **image,
                       size_t *size) {
  *image = NULL;
  *size = 0;
  char path[4096];
  if (entry_path(dir, key, key_len, path, sizeof path)) return -1;
  FILE *f = fopen(path, "rb");
  if (!f) return -1;
  entry_header h;
  char *kbuf = NULL, *img = NULL;
  int ok = fread(&h, sizeof h, 1, f) == 1 && memcmp(h.magic, MAGIC, 8) == 0 &&
           h.key_len == key_len && h.image_len > 0 && h.image_len <= MAX_IMAGE;
  if (ok) {
    kbuf = (char *)malloc(key_len ? key_len : 1);
    img = (char *)malloc((size_t)h.image_len + 1);
    ok = kbuf && img && fread(kbuf, 1, key_len, f) == key_len &&
         memcmp(kbuf, key, key_len) == 0 &&
         fread(img, 1, (size_t)h.image_len, f) == (size_t)h.image_len &&
         fgetc(f) == EOF; /* a longer file is not this entry either */
  }
  if (ok) ok = fnv1a(fnv1a(FNV_BASIS, key, key_len), img, (size_t)h.image_len) == h.checksum;
  fclose(f);
  free(kbuf);
  if (!ok) {
    free(img);
    return -1;
  }
  img[h.image_len] = '\0'; /* a PTX image is then a C string */
  *image = img;
  *size = (size_t)h.image_len;
  return 0;
}

/* mkdir -p, private to the user (the cache holds code the library will load). */
static int make_dirs(const char *dir) {
  char p[4096];
  const int n = snprintf(p, sizeof p, "%s", dir);
  if (n <= 0 || (size_t)n >= sizeof p) return -1;
  for (char *s = p + 1; *s; s++)
    if (*s == '/') {
      *s = '\0';
      if (mkdir(p, 0700) != 0 && errno != EEXIST) return -1;
      *s = '/';
    }
  return mkdir(p, 0700) != 0 && errno != EEXIST ? -1 : 0;
}

int gp_disk_cache_store(const char *dir, const void *key, size_t key_len, const void *image,
                        size_t size) {
  if (size == 0 || size > MAX_IMAGE || make_dirs(dir)) return -1;
  char path[4096], tmp[4200];
  if (entry_path(dir, key, key_len, path, sizeof path)) return -1;
  /* a file no other writer (thread or process) uses: mkstemp creates it exclusively */
  const int n = snprintf(tmp, sizeof tmp, "%s.tmp.XXXXXX", path);
  if (n <= 0 || (size_t)n >= sizeof tmp) return -1;
  const int fd = mkstemp(tmp);
  if (fd < 0) return -1;
  FILE *f = fdopen(fd, "wb");
  if (!f) {
    close(fd);
    remove(tmp);
    return -1;
  }
  entry_header h;
  memcpy(h.magic, MAGIC, 8);
  h.key_len = key_len;
  h.image_len = size;
  h.checksum = fnv1a(fnv1a(FNV_BASIS, key, key_len), image, size);
  int ok = fwrite(&h, sizeof h, 1, f) == 1 && fwrite(key, 1, key_len, f) == key_len &&
           fwrite(image, 1, size, f) == size;
  ok = fclose(f) == 0 && ok;
  if (ok) ok = rename(tmp, path) == 0;
  if (!ok) remove(tmp);
  return ok ? 0 : -1;
}
