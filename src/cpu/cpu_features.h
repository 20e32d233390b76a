/* What the CPU running the library can do, asked once (x86: AVX2 and AVX-512F).
 * GPUPRIMS_CPU_ISA=avx2 or =scalar caps what the library uses below what the CPU has
 * (the tests run the lower paths that way). */
#ifndef GP_CPU_FEATURES_H
#define GP_CPU_FEATURES_H

#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
#define GP_CPU_X86 1
/* functions that use AVX-512F (AVX2) intrinsics, called only where gp_cpu_avx512()
   (gp_cpu_avx2()) */
#define GP_CPU_AVX512 __attribute__((target("avx512f")))
#define GP_CPU_AVX2 __attribute__((target("avx2")))
#endif

/* 1 where the CPU has AVX-512F (x86 built with GCC or Clang) and it is not capped, else 0. */
int gp_cpu_avx512(void);
/* 1 where the CPU has AVX2 and it is not capped, else 0. */
int gp_cpu_avx2(void);

#endif
