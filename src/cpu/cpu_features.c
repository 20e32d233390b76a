/* What the CPU running the library can do: cpu/cpu_features.h. */
#include "cpu/cpu_features.h"

#include <stdatomic.h>

int gp_cpu_avx512(void) {
#ifdef GP_CPU_X86
  static atomic_int have = -1; /* -1: not asked yet (every asker finds the same) */
  int h = atomic_load_explicit(&have, memory_order_relaxed);
  if (h < 0) {
    __builtin_cpu_init();
    h = __builtin_cpu_supports("avx512f") ? 1 : 0;
    atomic_store_explicit(&have, h, memory_order_relaxed);
  }
  return h;
#else
  return 0;
#endif
}
