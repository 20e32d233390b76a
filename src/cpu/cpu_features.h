/* What the CPU running the library can do, asked once (x86: AVX-512F). */
#ifndef GP_CPU_FEATURES_H
#define GP_CPU_FEATURES_H

#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
#define GP_CPU_X86 1
/* functions that use AVX-512F intrinsics, called only where gp_cpu_avx512() */
#define GP_CPU_AVX512 __attribute__((target("avx512f")))
#endif

/* 1 where the CPU has AVX-512F (x86 built with GCC or Clang), else 0. */
int gp_cpu_avx512(void);

#endif
