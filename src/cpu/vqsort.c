/* The vectorized quicksort of keys alone (cpu/vqsort.h): AVX-512F, one instance per key
 * width from vqsort_impl.h. */
#include "cpu/vqsort.h"
#include "cpu/cpu_features.h"
#include "cpu/vsort.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* parts at least this long become OpenMP tasks of their own */
#define QS_TASK_MIN ((size_t)1 << 13)

#ifdef GP_CPU_X86
#include <immintrin.h>

int gp_cpu_vqsort_ok(size_t kb) {
  static atomic_int have = -1; /* -1: not asked yet (every asker finds the same) */
  int h = atomic_load_explicit(&have, memory_order_relaxed);
  if (h < 0) {
    const char *e = getenv("GPUPRIMS_CPU_VQSORT");
    h = !(e && strcmp(e, "0") == 0) && gp_cpu_avx512() && gp_cpu_vsort32_max() >= 512 &&
        gp_cpu_vsort64_max() >= 256;
    atomic_store_explicit(&have, h, memory_order_relaxed);
  }
  return h && (kb == 4 || kb == 8);
}

static void vq_net32(uint32_t *k, size_t n) { gp_cpu_vsort32(k, n, GP_KEY_UNSIGNED, 0); }
static void vq_net64(uint64_t *k, size_t n) { gp_cpu_vsort64(k, n, GP_KEY_UNSIGNED, 0); }

#define QW(name) name##_k32
#define QW_KT uint32_t
#define QW_L 16
#define QW_MASK __mmask16
#define QW_CMPLT(m, x, y) _mm512_mask_cmplt_epu32_mask((m), (x), (y))
#define QW_COMPRESS(m, x) _mm512_maskz_compress_epi32((m), (x))
#define QW_MSTORE(p, m, x) _mm512_mask_storeu_epi32((void *)(p), (m), (x))
#define QW_MLOADZ(m, p) _mm512_maskz_loadu_epi32((m), (const void *)(p))
#define QW_SET1(x) _mm512_set1_epi32((int)(x))
#define QW_VSORT vq_net32
#define QW_BASE 512
#include "cpu/vqsort_impl.h"

#define QW(name) name##_k64
#define QW_KT uint64_t
#define QW_L 8
#define QW_MASK __mmask8
#define QW_CMPLT(m, x, y) _mm512_mask_cmplt_epu64_mask((m), (x), (y))
#define QW_COMPRESS(m, x) _mm512_maskz_compress_epi64((m), (x))
#define QW_MSTORE(p, m, x) _mm512_mask_storeu_epi64((void *)(p), (m), (x))
#define QW_MLOADZ(m, p) _mm512_maskz_loadu_epi64((m), (const void *)(p))
#define QW_SET1(x) _mm512_set1_epi64((long long)(x))
#define QW_VSORT vq_net64
#define QW_BASE 256
#include "cpu/vqsort_impl.h"

void gp_cpu_vqsort_depth(void *keys, size_t kb, size_t n, gp_key_class c, int desc,
                         int nthreads, int depth) {
  if (kb == 4) sort_k32((uint32_t *)keys, n, c, desc, nthreads, depth);
  else sort_k64((uint64_t *)keys, n, c, desc, nthreads, depth);
}
void gp_cpu_vqsort(void *keys, size_t kb, size_t n, gp_key_class c, int desc, int nthreads) {
  gp_cpu_vqsort_depth(keys, kb, n, c, desc, nthreads, -1);
}
#else
int gp_cpu_vqsort_ok(size_t kb) {
  (void)kb;
  return 0;
}
void gp_cpu_vqsort_depth(void *keys, size_t kb, size_t n, gp_key_class c, int desc,
                         int nthreads, int depth) {
  (void)keys, (void)kb, (void)n, (void)c, (void)desc, (void)nthreads, (void)depth;
}
void gp_cpu_vqsort(void *keys, size_t kb, size_t n, gp_key_class c, int desc, int nthreads) {
  gp_cpu_vqsort_depth(keys, kb, n, c, desc, nthreads, -1);
}
#endif
