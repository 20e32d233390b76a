/* The ticket of the "last block (or warp) finishes" pattern: atomicAdd(t, 1) with
 * release + acquire semantics at GPU scope. On sm_90 this is still MEMBAR.ALL.GPU + ATOM
 * + CCTL.IVALL (the release must wait for the caller's stores to reach L2), i.e. the same
 * cost as __threadfence() + atomicAdd; it is kept for the acquire half, which makes a
 * second fence in the one that takes the last ticket unnecessary. */
#ifndef GP_CUDA_COMMON_TICKET_CUH
#define GP_CUDA_COMMON_TICKET_CUH

__device__ __forceinline__ unsigned gp_ticket_acq_rel(unsigned *t) {
  unsigned old;
  asm volatile("atom.add.acq_rel.gpu.u32 %0, [%1], 1;" : "=r"(old) : "l"(t) : "memory");
  return old;
}

#endif
