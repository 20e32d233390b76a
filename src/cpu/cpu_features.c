/* What the CPU running the library can do: cpu/cpu_features.h. */
#include "cpu/cpu_features.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* bit 0: AVX2, bit 1: AVX-512F, each only if the CPU has it and GPUPRIMS_CPU_ISA allows */
static int features(void) {
#ifdef GP_CPU_X86
  static atomic_int have = -1; /* -1: not asked yet (every asker finds the same) */
  int h = atomic_load_explicit(&have, memory_order_relaxed);
  if (h < 0) {
    __builtin_cpu_init();
    h = (__builtin_cpu_supports("avx2") ? 1 : 0) | (__builtin_cpu_supports("avx512f") ? 2 : 0);
    const char *cap = getenv("GPUPRIMS_CPU_ISA");
    if (cap && strcmp(cap, "avx2") == 0) h &= 1;
    else if (cap && strcmp(cap, "scalar") == 0) h = 0;
    atomic_store_explicit(&have, h, memory_order_relaxed);
  }
  return h;
#else
  return 0;
#endif
}

int gp_cpu_avx512(void) { return (features() >> 1) & 1; }
int gp_cpu_avx2(void) { return features() & 1; }
