/* NCCL loaded at run time: the library is never linked against libnccl, so a machine
 * without it runs every non-distributed call. The first gp_dist_create_* calls
 * gp_nccl_load, which dlopens libnccl.so.2 (or $GPUPRIMS_NCCL_LIB) once per process and
 * looks up the functions below. Built only with GP_HAVE_NCCL (nccl.h for the types). */
#ifndef GP_DIST_NCCL_LIB_H
#define GP_DIST_NCCL_LIB_H

#include <nccl.h>
#include <stddef.h>

typedef struct gp_nccl_lib {
  int version; /* ncclGetVersion: 22803 for 2.28.3 */
  const char *(*get_error_string)(ncclResult_t);
  const char *(*get_last_error)(ncclComm_t);
  ncclResult_t (*comm_init_all)(ncclComm_t *, int, const int *);
  ncclResult_t (*get_unique_id)(ncclUniqueId *);
  ncclResult_t (*comm_init_rank)(ncclComm_t *, int, ncclUniqueId, int);
  ncclResult_t (*comm_destroy)(ncclComm_t);
  ncclResult_t (*comm_abort)(ncclComm_t);
  ncclResult_t (*comm_count)(const ncclComm_t, int *);
  ncclResult_t (*comm_user_rank)(const ncclComm_t, int *);
  ncclResult_t (*comm_cu_device)(const ncclComm_t, int *);
  ncclResult_t (*comm_get_async_error)(ncclComm_t, ncclResult_t *);
  ncclResult_t (*all_gather)(const void *, void *, size_t, ncclDataType_t, ncclComm_t,
                             cudaStream_t);
  ncclResult_t (*all_reduce)(const void *, void *, size_t, ncclDataType_t, ncclRedOp_t,
                             ncclComm_t, cudaStream_t);
  ncclResult_t (*send)(const void *, size_t, ncclDataType_t, int, ncclComm_t, cudaStream_t);
  ncclResult_t (*recv)(void *, size_t, ncclDataType_t, int, ncclComm_t, cudaStream_t);
  ncclResult_t (*group_start)(void);
  ncclResult_t (*group_end)(void);
} gp_nccl_lib;

/* The loaded library, or NULL with the reason (dlerror, a missing symbol, a version
 * below 2.19) in why. Thread-safe; tried once per process. */
const gp_nccl_lib *gp_nccl_load(char *why, size_t why_len);

#endif
