/* The distributed handle (gp_dist) and the steps every distributed call shares: failing
 * with a message, agreeing on the outcome across ranks, all-gathering small records and
 * waiting for the ranks' streams while watching NCCL for errors. Internal. The struct
 * needs no NCCL types, so src/api/dist.c compiles in builds without NCCL; every function
 * below except gp_dist_fail exists only with GP_HAVE_NCCL. */
#ifndef GP_DIST_DIST_H
#define GP_DIST_DIST_H

#include "core/context.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct gp_nccl_lib;

struct gp_dist {
  int nlocal;           /* local entries: GPUs this process drives through the handle */
  int nranks;           /* ranks in the communicator */
  int rank0;            /* rank of local entry 0 (local entry i is rank rank0 + i) */
  int owns;             /* 1: the local form; comms, contexts and streams are ours */
  int broken;           /* a communicator was aborted: every call fails */
  const struct gp_nccl_lib *nccl;
  gp_context **ctx;     /* [nlocal] */
  gp_context **aux;     /* [nlocal] helper contexts (own low-priority streams), made on
                           first need by the sort's partition path; always ours */
  void **comm;          /* [nlocal] ncclComm_t */
  void **small;         /* [nlocal] device buffers: this rank's record, then ... */
  void **gathered;      /* [nlocal] ... every rank's record (small[i] + one record) */
  size_t small_bytes;
  uint64_t *host;       /* small_bytes of host memory for gathered records */
  char error[GP_ERROR_LEN];
};

/* Records a printf-style message on the handle and returns status. */
gp_status gp_dist_fail(gp_dist *d, gp_status status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* Fails with local entry i's context message, prefixed with its rank. */
gp_status gp_dist_fail_ctx(gp_dist *d, int i, gp_status status);

/* Handle set-up (src/dist/dist.c): load NCCL, build the communicators, allocate the
 * small buffers. d is zeroed with its error empty; on failure d->error says why and
 * whatever was built is freed by gp_dist_release. */
gp_status gp_dist_init_local(gp_dist *d, int ngpus);
gp_status gp_dist_init_comm(gp_dist *d, void *nccl_comm, gp_context *ctx);
gp_status gp_dist_init_file(gp_dist *d, const char *id_path, int rank, int nranks, int device);
void gp_dist_release(gp_dist *d);

/* What a call is, so ranks that disagree are caught: kind | op/order << 8 | types << 16. */
uint64_t gp_dist_signature(unsigned kind, unsigned a, unsigned b, unsigned c);

/* The agreement: each local entry i's record is `words` words already enqueued at
 * small[i] on its stream (0 for none), then a trailer written here: status[i] (its checks'
 * outcome), n[i] and the call's signature. The records are all-gathered and copied to
 * d->host (rank r's at r * (words + 3)); all_n[r] gets rank r's n. GP_OK only when every
 * rank is GP_OK and the signatures match; otherwise every rank fails with a message naming
 * the first rank that failed (with that entry's own message when it is local). */
gp_status gp_dist_agree(gp_dist *d, const gp_status *status, const size_t *n, uint64_t sig,
                        size_t words, uint64_t *all_n);

/* All-gather of `bytes` (a multiple of 8) per rank: src[i] (device, on entry i's GPU) to
 * dst[i] (device, nranks * bytes), grouped over the local entries, on their streams. */
gp_status gp_dist_allgather(gp_dist *d, void *const *src, void *const *dst, size_t bytes);
/* Sum all-reduce of `count` uint64 in place at buf[i], grouped over the local entries. */
gp_status gp_dist_allreduce_u64(gp_dist *d, void *const *buf, size_t count);

/* Waits for every local entry's stream, polling ncclCommGetAsyncError; on an NCCL error or
 * $GPUPRIMS_DIST_TIMEOUT seconds without completion, aborts the communicators, marks the
 * handle broken and fails with GP_ERR_CUDA. */
gp_status gp_dist_wait(gp_dist *d);

/* Bytes of one record slot in small/gathered (the F64 superaccumulator and a trailer fit). */
#define GP_DIST_REC_BYTES 640

/* Makes local entry i's device current (cudaSetDevice). */
gp_status gp_dist_device(gp_dist *d, int i);

/* ncclResult_t (as int) to a status with a message naming the call. */
gp_status gp_dist_nccl_status(gp_dist *d, int result, const char *what);

#ifdef __cplusplus
}
#endif
#endif
