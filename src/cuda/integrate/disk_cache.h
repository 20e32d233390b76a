/* The on-disk cache of compiled integrate kernels: one file per key (the generated
 * source, GPU architecture, library and NVRTC versions), so a second process that
 * integrates the same expression loads a CUBIN instead of running NVRTC. Plain C and
 * POSIX files: no CUDA call, so tests exercise it on any machine. */
#ifndef GP_CUDA_INTEGRATE_DISK_CACHE_H
#define GP_CUDA_INTEGRATE_DISK_CACHE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The cache folder: $GPUPRIMS_CACHE_DIR (set to "" or "off": no cache), else
 * $XDG_CACHE_HOME/gpuprims, else $HOME/.cache/gpuprims. Returns 0 with the path in
 * dir, or -1 when the cache is off or no location is known (or it does not fit). */
int gp_disk_cache_dir(char *dir, size_t len);

/* Looks up `key` (any bytes, key_len of them) in folder dir. Returns 0 with a malloc'd
 * copy of the stored image (*image, *size; free() it), or -1 on a miss: no file, or a
 * file that is truncated, corrupt (magic, lengths or checksum wrong) or holds another
 * key. A miss is never an error: the caller compiles. */
int gp_disk_cache_load(const char *dir, const void *key, size_t key_len, void **image,
                       size_t *size);

/* Stores image under key: creates dir (and its parents) when missing, writes a
 * temporary file and renames it over the entry, so readers and other writers see the
 * old entry or the new one, never a mix. Returns 0, or -1 when it could not (the
 * caller goes on without the cache). */
int gp_disk_cache_store(const char *dir, const void *key, size_t key_len, const void *image,
                        size_t size);

/* The entry's file name for key: "<16 hex digits of the key's hash>.gpk". */
void gp_disk_cache_name(const void *key, size_t key_len, char *name, size_t len);

#ifdef __cplusplus
}
#endif
#endif
