/* The split integrate JIT (jit_split.h): the embedded prebuilt kernel and the link. */
#define _GNU_SOURCE /* dladdr */
#include "cuda/integrate/jit_split.h"

#include <cuda_runtime_api.h> /* CUDART_VERSION: the toolkit's major names nvJitLink's */
#include <dlfcn.h>
#include <nvJitLink.h>
#include <nvrtc.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if GP_HAVE_TRAP_SKELETON
#include "gp_trap_skeleton_fatbin.h" /* gp_trap_skeleton_fatbin[]: cmake/trap_skeleton.cmake */
#define SKELETON_ARCHS GP_TRAP_SKELETON_ARCHS
#else
#define SKELETON_ARCHS ""
#endif

/* nvJitLink's calls, looked up once with dlopen: a library without nvJitLink at run time
 * still works (whole compiles), and nothing is linked at build time. */
typedef struct {
  nvJitLinkResult (*create)(nvJitLinkHandle *, uint32_t, const char **);
  nvJitLinkResult (*destroy)(nvJitLinkHandle *);
  nvJitLinkResult (*add_data)(nvJitLinkHandle, nvJitLinkInputType, const void *, size_t,
                              const char *);
  nvJitLinkResult (*complete)(nvJitLinkHandle);
  nvJitLinkResult (*cubin_size)(nvJitLinkHandle, size_t *);
  nvJitLinkResult (*cubin)(nvJitLinkHandle, void *);
  nvJitLinkResult (*error_log_size)(nvJitLinkHandle, size_t *);
  nvJitLinkResult (*error_log)(nvJitLinkHandle, char *);
} jitlink_api;

static jitlink_api g_api;
static int g_ok;
static char g_why[256];
static pthread_once_t g_once = PTHREAD_ONCE_INIT;

#define STR2(x) #x
#define STR(x) STR2(x)

/* libnvJitLink.so.<CUDA major> from the loader's path, else from NVRTC's folder (the
 * toolkit keeps the two side by side) */
static void *open_jitlink(void) {
  char name[64];
  snprintf(name, sizeof name, "libnvJitLink.so.%d", CUDART_VERSION / 1000);
  void *h = dlopen(name, RTLD_NOW | RTLD_LOCAL);
  Dl_info info;
  if (!h && dladdr((void *)nvrtcVersion, &info) && info.dli_fname) {
    char path[4096];
    const char *slash = strrchr(info.dli_fname, '/');
    if (slash && (size_t)(slash - info.dli_fname) + sizeof name + 1 < sizeof path) {
      snprintf(path, sizeof path, "%.*s/%s", (int)(slash - info.dli_fname), info.dli_fname,
               name);
      h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    }
  }
  if (!h) snprintf(g_why, sizeof g_why, "%s could not be loaded", name);
  return h;
}

static void load_once(void) {
  void *h = open_jitlink();
  if (!h) return;
  int missing = 0;
#define SYM(field, name)                                              \
  do {                                                                \
    *(void **)(&g_api.field) = dlsym(h, name);                        \
    if (!g_api.field && !missing) {                                   \
      missing = 1;                                                    \
      snprintf(g_why, sizeof g_why, "nvJitLink has no %s", name);     \
    }                                                                 \
  } while (0)
  SYM(create, "nvJitLinkCreate");
  SYM(destroy, "nvJitLinkDestroy");
  SYM(add_data, "nvJitLinkAddData");
  SYM(complete, "nvJitLinkComplete");
  SYM(cubin_size, "nvJitLinkGetLinkedCubinSize");
  SYM(cubin, "nvJitLinkGetLinkedCubin");
  SYM(error_log_size, "nvJitLinkGetErrorLogSize");
  SYM(error_log, "nvJitLinkGetErrorLog");
#undef SYM
  g_ok = !missing; /* the handle stays open either way: the process may share it */
}

/* arch is one of SKELETON_ARCHS's space-separated words */
static int prebuilt_for(const char *arch) {
  static const char *const list = SKELETON_ARCHS;
  const size_t n = strlen(arch);
  for (const char *p = list; n && (p = strstr(p, arch)); p += n)
    if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0')) return 1;
  return 0;
}

int gp_jit_split_usable(const char *arch, char *why, size_t why_len) {
  const char *e = getenv("GPUPRIMS_JIT_SPLIT");
  const char *no = NULL;
  if (e && strcmp(e, "0") == 0) no = "GPUPRIMS_JIT_SPLIT=0";
  else if (!prebuilt_for(arch)) no = "no prebuilt kernel for this GPU's architecture";
  if (!no) {
    pthread_once(&g_once, load_once);
    if (!g_ok) no = g_why;
  }
  if (no && why && why_len) snprintf(why, why_len, "%s", no);
  return no == NULL;
}

void gp_jit_split_archs(char *buf, size_t len) { snprintf(buf, len, "%s", SKELETON_ARCHS); }

int gp_jit_split_link(const void *part, size_t part_size, const char *arch, char **image,
                      size_t *size, char *log, size_t log_len) {
  *image = NULL;
  *size = 0;
  if (log_len) log[0] = '\0';
#if GP_HAVE_TRAP_SKELETON
  if (!gp_jit_split_usable(arch, log, log_len)) return -1;
  char archopt[64];
  snprintf(archopt, sizeof archopt, "-arch=%s", arch);
  const char *opts[] = {archopt};
  nvJitLinkHandle h = NULL;
  nvJitLinkResult r = g_api.create(&h, 1, opts);
  if (r == NVJITLINK_SUCCESS)
    r = g_api.add_data(h, NVJITLINK_INPUT_FATBIN, gp_trap_skeleton_fatbin,
                       gp_trap_skeleton_fatbin_size, "gp_trap_skeleton");
  if (r == NVJITLINK_SUCCESS)
    r = g_api.add_data(h, NVJITLINK_INPUT_CUBIN, part, part_size, "gp_integrate_part");
  if (r == NVJITLINK_SUCCESS) r = g_api.complete(h);
  size_t n = 0;
  if (r == NVJITLINK_SUCCESS) r = g_api.cubin_size(h, &n);
  char *img = r == NVJITLINK_SUCCESS ? (char *)malloc(n ? n : 1) : NULL;
  if (img) r = g_api.cubin(h, img);
  if (r != NVJITLINK_SUCCESS || !img) {
    int w = snprintf(log, log_len, "nvJitLink (%s) failed: error %d%s", arch, (int)r,
                     r == NVJITLINK_SUCCESS ? " (out of host memory)" : "");
    size_t ln = 0;
    if (h && w > 0 && (size_t)w + 2 < log_len && g_api.error_log_size(h, &ln) == 0 && ln > 1) {
      char *full = (char *)malloc(ln);
      if (full && g_api.error_log(h, full) == NVJITLINK_SUCCESS)
        snprintf(log + w, log_len - (size_t)w, ": %s", full);
      free(full);
    }
    free(img);
    if (h) g_api.destroy(&h);
    return -1;
  }
  g_api.destroy(&h);
  *image = img;
  *size = n;
  return 0;
#else
  (void)part;
  (void)part_size;
  snprintf(log, log_len, "no prebuilt kernel for %s in this build", arch);
  return -1;
#endif
}
