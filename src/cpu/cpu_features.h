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

/* IEEE arithmetic for the duration of a piece of float work on this thread. A caller's
 * process may run with x86's MXCSR flags DAZ (subnormal inputs read as zero) and FTZ
 * (subnormal results written as zero) set (e.g. torch.set_flush_denormal(True), code
 * built with -ffast-math); the correctly rounded sum and the float compares of
 * arg-min/max would then lose subnormals. gp_cpu_ieee_begin clears both where set and
 * returns the caller's MXCSR for gp_cpu_ieee_end; one read of MXCSR where they are
 * clear. Every thread that does the work calls them (OpenMP workers have their own). */
#ifdef GP_CPU_X86
#include <xmmintrin.h>
#define GP_CPU_MXCSR_FLUSH 0x8040u /* FTZ | DAZ */
static inline unsigned gp_cpu_ieee_begin(void) {
  const unsigned c = _mm_getcsr();
  if (c & GP_CPU_MXCSR_FLUSH) _mm_setcsr(c & ~GP_CPU_MXCSR_FLUSH);
  return c;
}
static inline void gp_cpu_ieee_end(unsigned c) {
  if (c & GP_CPU_MXCSR_FLUSH) _mm_setcsr(c);
}
#else
static inline unsigned gp_cpu_ieee_begin(void) { return 0; }
static inline void gp_cpu_ieee_end(unsigned c) { (void)c; }
#endif

/* 1 where the CPU has AVX-512F (x86 built with GCC or Clang) and it is not capped, else 0. */
int gp_cpu_avx512(void);
/* 1 where the CPU has AVX2 and it is not capped, else 0. */
int gp_cpu_avx2(void);

#endif
