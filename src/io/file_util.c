/* File helpers shared by the .npy, raw and text formats: chunked exact reads and
 * writes with the OS's reason on failure, sizes of files over 4 GiB through
 * fstat/off_t, and output files that never lose what was there before. */
#if defined(__linux__)
#define _GNU_SOURCE /* sync_file_range */
#endif
#define _XOPEN_SOURCE 700
#define _FILE_OFFSET_BITS 64
#include "io/file_util.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#if defined(_OPENMP)
#include <omp.h>
#endif

/* threads of gp_io_read_body: up to 8 (the page-cache copy stops scaling at a few),
 * no more than OpenMP would use */
static int io_threads(void) {
#if defined(_OPENMP)
  const int t = omp_get_max_threads();
  return t < 8 ? t : 8;
#else
  return 1;
#endif
}

gp_status gp_io_open_read(gp_context *ctx, const char *path, FILE **f, uint64_t *size) {
  *f = fopen(path, "rb");
  if (!*f) return gp_fail(ctx, GP_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
  struct stat st;
  if (fstat(fileno(*f), &st) != 0) {
    int e = errno;
    fclose(*f);
    *f = NULL;
    return gp_fail(ctx, GP_ERR_IO, "%s: cannot stat: %s", path, strerror(e));
  }
  if (S_ISDIR(st.st_mode)) {
    fclose(*f);
    *f = NULL;
    return gp_fail(ctx, GP_ERR_IO, "%s: is a directory, not a file", path);
  }
  *size = S_ISREG(st.st_mode) ? (uint64_t)st.st_size : UINT64_MAX;
  return GP_OK;
}

gp_status gp_io_read_exact(gp_context *ctx, FILE *f, const char *path, void *dst,
                           size_t bytes, const char *what) {
  unsigned char *p = (unsigned char *)dst;
  size_t done = 0;
  while (done < bytes) {
    size_t want = bytes - done < GP_IO_CHUNK ? bytes - done : GP_IO_CHUNK;
    size_t got = fread(p + done, 1, want, f);
    done += got;
    if (got < want) {
      if (ferror(f))
        return gp_fail(ctx, GP_ERR_IO, "%s: read error in %s after %zu bytes: %s", path,
                       what, done, strerror(errno));
      return gp_fail(ctx, GP_ERR_FORMAT,
                     "%s: %s is truncated: expected %zu bytes, the file ends after %zu",
                     path, what, bytes, done);
    }
  }
  return GP_OK;
}

/* pread of exactly len bytes at off (short reads continued); 0, or the errno, or -1
 * when the file ends first (*got: bytes read before that). */
static int pread_all(int fd, unsigned char *dst, size_t len, off_t off, size_t *got) {
  size_t done = 0;
  while (done < len) {
    size_t want = len - done < GP_IO_CHUNK ? len - done : GP_IO_CHUNK;
    ssize_t r = pread(fd, dst + done, want, off + (off_t)done);
    if (r < 0) {
      if (errno == EINTR) continue;
      *got = done;
      return errno ? errno : EIO;
    }
    if (r == 0) {
      *got = done;
      return -1;
    }
    done += (size_t)r;
  }
  *got = done;
  return 0;
}

gp_status gp_io_read_body(gp_context *ctx, FILE *f, const char *path, void *dst,
                          size_t bytes, int regular, const char *what) {
  const off_t start = regular && bytes >= GP_IO_PAR_MIN ? ftello(f) : (off_t)-1;
  if (start < 0) return gp_io_read_exact(ctx, f, path, dst, bytes, what);
  const int fd = fileno(f);
  const long pieces = (long)((bytes + GP_IO_PAR_PIECE - 1) / GP_IO_PAR_PIECE);
  int err = 0;           /* the first failing piece's errno (-1: the file ended) */
  long bad = pieces;     /* its index */
  size_t bad_got = 0;    /* bytes it read */
#if defined(_OPENMP)
#pragma omp parallel for schedule(dynamic, 1) num_threads(io_threads())
#endif
  for (long i = 0; i < pieces; i++) {
    const size_t off = (size_t)i * GP_IO_PAR_PIECE;
    const size_t len = bytes - off < GP_IO_PAR_PIECE ? bytes - off : GP_IO_PAR_PIECE;
    size_t got = 0;
    const int e = pread_all(fd, (unsigned char *)dst + off, len, start + (off_t)off, &got);
    if (e) {
#if defined(_OPENMP)
#pragma omp critical(gp_io_read_body)
#endif
      if (i < bad) { bad = i; err = e; bad_got = got; }
    }
  }
  if (err) {
    const size_t done = (size_t)bad * GP_IO_PAR_PIECE + bad_got;
    if (err > 0)
      return gp_fail(ctx, GP_ERR_IO, "%s: read error in %s after %zu bytes: %s", path, what,
                     done, strerror(err));
    return gp_fail(ctx, GP_ERR_FORMAT,
                   "%s: %s is truncated: expected %zu bytes, the file ends after %zu", path,
                   what, bytes, done);
  }
  if (fseeko(f, start + (off_t)bytes, SEEK_SET) != 0)
    return gp_fail(ctx, GP_ERR_IO, "%s: cannot seek past %s: %s", path, what, strerror(errno));
  return GP_OK;
}

gp_status gp_io_expect_eof(gp_context *ctx, FILE *f, const char *path, const char *what) {
  if (fgetc(f) == EOF) {
    if (ferror(f))
      return gp_fail(ctx, GP_ERR_IO, "%s: read error: %s", path, strerror(errno));
    return GP_OK;
  }
  return gp_fail(ctx, GP_ERR_FORMAT, "%s: %s", path, what);
}

gp_status gp_io_write_all(gp_context *ctx, FILE *f, const char *path, const void *src,
                          size_t bytes) {
  const unsigned char *p = (const unsigned char *)src;
  size_t done = 0;
#if defined(__linux__) && GP_IO_EARLY_WRITEBACK
  struct stat st;
  const int fd = fileno(f);
  const off_t base = bytes >= GP_IO_PAR_MIN && fd >= 0 && fstat(fd, &st) == 0 &&
                             S_ISREG(st.st_mode) && fflush(f) == 0 ? ftello(f) : -1;
#endif
  while (done < bytes) {
    size_t want = bytes - done < GP_IO_CHUNK ? bytes - done : GP_IO_CHUNK;
    size_t put = fwrite(p + done, 1, want, f);
#if defined(__linux__) && GP_IO_EARLY_WRITEBACK
    /* a regular file is fsync'd at commit: start each chunk's writeback as soon as it is
       written, so the disk works while the next chunks are copied (best effort: the
       fsync reports errors) */
    if (base >= 0 && put == want && fflush(f) == 0)
      (void)sync_file_range(fd, base + (off_t)done, (off_t)put, SYNC_FILE_RANGE_WRITE);
#endif
    done += put;
    if (put < want)
      return gp_fail(ctx, GP_ERR_IO, "%s: write failed after %zu of %zu bytes: %s", path,
                     done, bytes, strerror(errno));
  }
  return GP_OK;
}

gp_status gp_io_bytes(gp_context *ctx, const char *path, uint64_t n, size_t elem_size,
                      size_t *bytes) {
  if (elem_size && n > (uint64_t)(SIZE_MAX / elem_size))
    return gp_fail(ctx, GP_ERR_FORMAT, "%s: %llu elements of %zu bytes do not fit in memory",
                   path, (unsigned long long)n, elem_size);
  *bytes = (size_t)n * elem_size;
  return GP_OK;
}

/* ---- safe output files --------------------------------------------------------- */

/* name in the folder of path (path's text up to and including its last '/'), as a
 * new malloc'd string. */
static char *beside(const char *path, const char *name) {
  const char *slash = strrchr(path, '/');
  size_t dl = slash ? (size_t)(slash - path) + 1 : 0, nl = strlen(name);
  char *s = (char *)malloc(dl + nl + 1);
  if (!s) return NULL;
  memcpy(s, path, dl);
  memcpy(s + dl, name, nl + 1);
  return s;
}

/* Where a write to `path` lands: symlinks followed (a relative link against its own
 * folder), at most 40 hops, as the kernel would. The last path need not exist.
 * Returns a malloc'd path, or NULL with errno set. */
static char *resolve_links(const char *path) {
  char *p = strdup(path);
  for (int hop = 0; p && hop <= 40; hop++) {
    struct stat st;
    if (lstat(p, &st) != 0 || !S_ISLNK(st.st_mode)) return p;
    char link[PATH_MAX];
    ssize_t n = readlink(p, link, sizeof link - 1);
    if (n < 0) {
      int e = errno;
      free(p);
      errno = e;
      return NULL;
    }
    link[n] = '\0';
    char *next = link[0] == '/' ? strdup(link) : beside(p, link);
    free(p);
    p = next;
  }
  if (p) {
    free(p);
    errno = ELOOP;
  }
  return NULL;
}

/* /dev/stdout, /dev/fd/N, /proc/self/fd/N, devices: the file behind the name is not
 * ours to replace. */
static int special_path(const char *p) {
  return strncmp(p, "/dev/", 5) == 0 || strncmp(p, "/proc/", 6) == 0;
}

/* A temporary file beside target, created with the mode a new file would get (0666
 * less the umask) or the target's own mode and owner when it exists. */
static gp_status create_tmp(gp_context *ctx, const char *path, const char *target,
                            const struct stat *old, char **tmp_out, int *fd_out) {
  static unsigned counter; /* names only; atomics keep threads from sharing one */
  const char *slash = strrchr(target, '/');
  const char *base = slash ? slash + 1 : target;
  for (int attempt = 0; attempt < 100; attempt++) {
    char name[NAME_MAX + 1];
    unsigned k = __atomic_fetch_add(&counter, 1u, __ATOMIC_RELAXED);
    snprintf(name, sizeof name, ".%.200s.gp-tmp-%ld-%u", base, (long)getpid(), k);
    char *tmp = beside(target, name);
    if (!tmp) return gp_fail(ctx, GP_ERR_OUT_OF_MEMORY, "%s: out of host memory", path);
    int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd >= 0) {
      if (old) {
        (void)fchmod(fd, old->st_mode & 07777);
        if (fchown(fd, old->st_uid, old->st_gid) != 0) { /* not ours to give: keep ours */ }
      }
      *tmp_out = tmp;
      *fd_out = fd;
      return GP_OK;
    }
    int e = errno;
    free(tmp);
    if (e != EEXIST)
      return gp_fail(ctx, GP_ERR_IO, "%s: cannot create a temporary file in its folder "
                     "(the file is replaced only once its new contents are complete): %s", path,
                     strerror(e));
  }
  return gp_fail(ctx, GP_ERR_IO, "%s: cannot create a unique temporary file beside it", path);
}

gp_status gp_io_out_open(gp_context *ctx, const char *path, gp_io_out *o) {
  memset(o, 0, sizeof *o);
  o->path = path;
  char *target = special_path(path) ? NULL : resolve_links(path);
  if (!special_path(path) && !target)
    return gp_fail(ctx, GP_ERR_IO, "%s: cannot follow the link: %s", path, strerror(errno));
  struct stat st;
  int exists = target && stat(target, &st) == 0;
  if (!target || special_path(target) || (exists && !S_ISREG(st.st_mode))) {
    free(target);
    if (exists && S_ISDIR(st.st_mode))
      return gp_fail(ctx, GP_ERR_IO, "%s: is a directory, not a file", path);
    o->f = fopen(path, "wb");
    if (!o->f) return gp_fail(ctx, GP_ERR_IO, "%s: cannot open for writing: %s", path, strerror(errno));
    return GP_OK;
  }
  if (exists && access(target, W_OK) != 0) {
    int e = errno;
    free(target);
    return gp_fail(ctx, GP_ERR_IO, "%s: cannot write: %s", path, strerror(e));
  }
  int fd = -1;
  gp_status s = create_tmp(ctx, path, target, exists ? &st : NULL, &o->tmp, &fd);
  if (s) {
    free(target);
    return s;
  }
  o->target = target;
  o->f = fdopen(fd, "wb");
  if (!o->f) {
    int e = errno;
    close(fd);
    gp_io_out_abort(o);
    return gp_fail(ctx, GP_ERR_IO, "%s: cannot open for writing: %s", path, strerror(e));
  }
  return GP_OK;
}

/* Makes a rename durable: fsync of the folder that holds it (best effort: some file
 * systems refuse to sync a folder, and the data itself is already on disk). */
static void sync_folder(const char *target) {
  const char *slash = strrchr(target, '/');
  char *dir = slash ? strndup(target, slash == target ? 1 : (size_t)(slash - target)) : strdup(".");
  if (!dir) return;
  int fd = open(dir, O_RDONLY | O_CLOEXEC);
  free(dir);
  if (fd < 0) return;
  (void)fsync(fd);
  close(fd);
}

gp_status gp_io_out_commit(gp_context *ctx, gp_io_out *o) {
  gp_status s = GP_OK;
  if (fflush(o->f) != 0)
    s = gp_fail(ctx, GP_ERR_IO, "%s: write failed: %s", o->path, strerror(errno));
  if (s == GP_OK && o->tmp && fsync(fileno(o->f)) != 0)
    s = gp_fail(ctx, GP_ERR_IO, "%s: write failed (fsync): %s", o->path, strerror(errno));
  if (fclose(o->f) != 0 && s == GP_OK)
    s = gp_fail(ctx, GP_ERR_IO, "%s: write failed on close: %s", o->path, strerror(errno));
  o->f = NULL;
  if (s == GP_OK && o->tmp) {
    if (rename(o->tmp, o->target) != 0)
      s = gp_fail(ctx, GP_ERR_IO, "%s: cannot replace it with the new contents: %s",
                  o->path, strerror(errno));
    else
      sync_folder(o->target);
  }
  if (s != GP_OK) {
    gp_io_out_abort(o);
    return s;
  }
  free(o->tmp);
  free(o->target);
  o->tmp = o->target = NULL;
  return GP_OK;
}

void gp_io_out_abort(gp_io_out *o) {
  if (o->f) fclose(o->f);
  o->f = NULL;
  if (o->tmp) unlink(o->tmp);
  free(o->tmp);
  free(o->target);
  o->tmp = o->target = NULL;
}
