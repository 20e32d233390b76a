/* dlopen of libnccl.so.2 and the lookup of the functions gp_dist uses (nccl_lib.h). */
#include "dist/nccl_lib.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static gp_nccl_lib g_lib;      /* written once under g_once, read-only afterwards */
static int g_ok;
static char g_why[512];
static pthread_once_t g_once = PTHREAD_ONCE_INIT;

/* Looks up `name`; records the first missing one. */
static void *sym(void *h, const char *name, int *missing) {
  void *p = dlsym(h, name);
  if (!p && !*missing) {
    *missing = 1;
    snprintf(g_why, sizeof g_why,
             "the loaded NCCL has no %s: install NCCL 2.19 or newer, or point "
             "GPUPRIMS_NCCL_LIB at one", name);
  }
  return p;
}

static void load_once(void) {
  const char *path = getenv("GPUPRIMS_NCCL_LIB");
  if (!path || !*path) path = "libnccl.so.2";
  void *h = dlopen(path, RTLD_NOW | RTLD_GLOBAL);
  if (!h) {
    const char *e = dlerror();
    snprintf(g_why, sizeof g_why,
             "NCCL could not be loaded (%s): install NCCL (libnccl.so.2 on the loader's "
             "path) or set GPUPRIMS_NCCL_LIB to its file", e ? e : path);
    return;
  }
  int missing = 0;
  ncclResult_t (*get_version)(int *) = (ncclResult_t (*)(int *))sym(h, "ncclGetVersion", &missing);
  /* function pointers through a void * (POSIX dlsym guarantees the conversion) */
#define GP_NCCL_SYM(field, name) *(void **)(&g_lib.field) = sym(h, name, &missing)
  GP_NCCL_SYM(get_error_string, "ncclGetErrorString");
  GP_NCCL_SYM(get_last_error, "ncclGetLastError");
  GP_NCCL_SYM(comm_init_all, "ncclCommInitAll");
  GP_NCCL_SYM(get_unique_id, "ncclGetUniqueId");
  GP_NCCL_SYM(comm_init_rank, "ncclCommInitRank");
  GP_NCCL_SYM(comm_destroy, "ncclCommDestroy");
  GP_NCCL_SYM(comm_abort, "ncclCommAbort");
  GP_NCCL_SYM(comm_count, "ncclCommCount");
  GP_NCCL_SYM(comm_user_rank, "ncclCommUserRank");
  GP_NCCL_SYM(comm_cu_device, "ncclCommCuDevice");
  GP_NCCL_SYM(comm_get_async_error, "ncclCommGetAsyncError");
  GP_NCCL_SYM(all_gather, "ncclAllGather");
  GP_NCCL_SYM(all_reduce, "ncclAllReduce");
  GP_NCCL_SYM(send, "ncclSend");
  GP_NCCL_SYM(recv, "ncclRecv");
  GP_NCCL_SYM(group_start, "ncclGroupStart");
  GP_NCCL_SYM(group_end, "ncclGroupEnd");
#undef GP_NCCL_SYM
  if (missing) return; /* the handle stays open: other users in the process may share it */
  if (get_version(&g_lib.version) != ncclSuccess || g_lib.version < 21900) {
    snprintf(g_why, sizeof g_why,
             "the loaded NCCL is version %d, older than 2.19 (21900) that gpuprims needs: "
             "install a newer NCCL or set GPUPRIMS_NCCL_LIB", g_lib.version);
    return;
  }
  g_ok = 1;
}

const gp_nccl_lib *gp_nccl_load(char *why, size_t why_len) {
  pthread_once(&g_once, load_once);
  if (g_ok) return &g_lib;
  snprintf(why, why_len, "%s", g_why);
  return NULL;
}
