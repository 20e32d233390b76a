/* Once per kernel and device: a kernel's attributes (cudaFuncSetAttribute) belong to
 * the device current when they are set, so a process driving several GPUs sets them
 * on each. A flag word per kernel holds one bit per device ordinal (0..63; higher
 * ordinals redo the idempotent work every call). Threads racing on a first use may
 * both do the work, never skip it. */
#ifndef GP_CUDA_COMMON_PER_DEVICE_H
#define GP_CUDA_COMMON_PER_DEVICE_H

static inline int gp_dev_flag(const unsigned long long *word, int device) {
  return device >= 0 && device < 64 && ((__atomic_load_n(word, __ATOMIC_ACQUIRE) >> device) & 1ull);
}

static inline void gp_dev_flag_set(unsigned long long *word, int device) {
  if (device >= 0 && device < 64) __atomic_fetch_or(word, 1ull << device, __ATOMIC_RELEASE);
}

#endif
