/* CPU backend of gp_argreduce: OpenMP threads over fixed chunks, each keeping the best
 * (key, index) of core/argreduce.h, folded lexicographically; the answer (first index
 * of the winner) does not depend on the thread count.
 * As on the GPU (src/cuda/reduce/argreduce.cu): keys as wide as the elements, and a
 * thread scans its indices in increasing order, so only a strictly smaller key can
 * replace its best. A batch of keys is first reduced to its minimum with vector min
 * ops; only when that beats the best (rare after the first few batches) is the batch
 * searched for the minimum's first position. The scalar loop before this (a 64-bit key
 * and a lexicographic compare per element) ran at 0.19x np.argmax. With AVX2 every
 * type goes first by value blocks (arg_blocks_body: one max or min per vector in the
 * element's own domain, no key), 1.7-2.2x faster than the keyed loop at 2^12 .. 2^16. */
#include "cpu/argreduce_cpu.h"
#include "cpu/cpu_features.h"
#include "core/argreduce.h"

#include <string.h>
#ifdef GP_CPU_X86
#include <immintrin.h>
#endif
#include "cpu/vec_extreme.h"

#define GP_ARG_CHUNK 65536u /* elements per OpenMP work item */
#define GP_ARG_BATCH 16u    /* keys per batch in the portable loop */
#define GP_ARG_NONE UINT64_MAX
#define GP_ARG_TOP64 0x8000000000000000ull

/* Element bits u -> key: (u ^ (sign(u) & A)) ^ B, then for floats NaN -> 0 and -0 -> +0
 * first (core/argreduce.h's gp_arg_key_*):
 *  F32/F64: A = all but the top bit, B = top bit (MIN) or all but it (MAX) (= ~key)
 *  I32/I64: A = 0, B as for floats; U32/U64: A = 0, B = 0 (MIN) or all ones (MAX). */
typedef struct arg_key {
  uint64_t a, b;
  int isf;
  int kind, mx; /* the value blocks' domain (GP_VX_*) and op */
} arg_key;

static arg_key key_of(gp_op op, gp_dtype t) {
  const int mx = op == GP_MAX;
  arg_key k = {0, 0, t == GP_F32 || t == GP_F64, 0, mx};
  k.kind = t == GP_F32 ? GP_VX_F32 : t == GP_I32 ? GP_VX_I32 : t == GP_U32 ? GP_VX_U32
           : t == GP_F64 ? GP_VX_F64 : t == GP_I64 ? GP_VX_I64 : GP_VX_U64;
  switch (t) {
  case GP_F32: k.a = 0x7fffffffu; /* fall through */
  case GP_I32: k.b = mx ? 0x7fffffffu : 0x80000000u; break;
  case GP_U32: k.b = mx ? 0xffffffffu : 0u; break;
  case GP_F64: k.a = ~GP_ARG_TOP64; /* fall through */
  case GP_I64: k.b = mx ? ~GP_ARG_TOP64 : GP_ARG_TOP64; break;
  default: k.b = mx ? ~0ull : 0ull; break;
  }
  return k;
}

static inline uint32_t key32(uint32_t u, uint32_t a, uint32_t b, int isf) {
  if (isf) {
    if (gp_rt_f32_isnan(u)) return 0;
    if ((u & 0x7fffffffu) == 0) u = 0;
  }
  return (u ^ ((0u - (u >> 31)) & a)) ^ b;
}
static inline uint64_t key64(uint64_t u, uint64_t a, uint64_t b, int isf) {
  if (isf) {
    if (gp_rt_f64_isnan(u)) return 0;
    if ((u & ~GP_ARG_TOP64) == 0) u = 0;
  }
  return (u ^ ((0ull - (u >> 63)) & a)) ^ b;
}

/* ---- portable: batches of GP_ARG_BATCH keys (the batch min vectorizes) ----
 * (*tk, *bi): the thread's best so far, *bi == GP_ARG_NONE before the first. */
#define GP_ARG_SCALAR(NAME, UT, KEY)                                                   \
  static void NAME(const char *p, size_t lo, size_t hi, UT a, UT b, int isf, UT *tk,     \
                   uint64_t *bi) {                                                     \
    UT best = *tk;                                                                     \
    uint64_t at = *bi;                                                                 \
    size_t i = lo;                                                                     \
    for (; i + GP_ARG_BATCH <= hi; i += GP_ARG_BATCH) {                                \
      UT k[GP_ARG_BATCH], m;                                                           \
      for (unsigned j = 0; j < GP_ARG_BATCH; j++) {                                    \
        UT u;                                                                          \
        memcpy(&u, p + (i + j) * sizeof(UT), sizeof(UT));                              \
        k[j] = KEY(u, a, b, isf);                                                      \
      }                                                                                \
      m = k[0];                                                                        \
      for (unsigned j = 1; j < GP_ARG_BATCH; j++) m = k[j] < m ? k[j] : m;             \
      if (m < best || at == GP_ARG_NONE) {                                             \
        unsigned j = 0;                                                                \
        while (k[j] != m) j++;                                                         \
        best = m;                                                                      \
        at = i + j;                                                                    \
      }                                                                                \
    }                                                                                  \
    for (; i < hi; i++) {                                                              \
      UT u;                                                                            \
      memcpy(&u, p + i * sizeof(UT), sizeof(UT));                                      \
      const UT k = KEY(u, a, b, isf);                                                  \
      if (k < best || at == GP_ARG_NONE) { best = k; at = i; }                         \
    }                                                                                  \
    *tk = best;                                                                        \
    *bi = at;                                                                          \
  }
GP_ARG_SCALAR(arg32_scalar, uint32_t, key32)
GP_ARG_SCALAR(arg64_scalar, uint64_t, key64)

#ifdef GP_CPU_X86
/* AVX2: batches of 8 vectors (64 keys of 32 bits, 32 of 64 bits). The batch minimum is
 * compared with the best in every lane (no horizontal step) and reduced to one lane
 * only when some lane is below it. 64-bit keys are held with the top bit flipped, so
 * the signed compare AVX2 has orders them as unsigned. */
#define GP_ARG_NV 8

GP_CPU_AVX2 __attribute__((always_inline)) static inline void
arg32_avx2_body(const char *p, size_t lo, size_t hi, uint32_t a, uint32_t b, const int isf,
                uint32_t *tk, uint64_t *bi) {
  const __m256i va = _mm256_set1_epi32((int)a), vb = _mm256_set1_epi32((int)b);
  const __m256i vabs = _mm256_set1_epi32(0x7fffffff), vinf = _mm256_set1_epi32(0x7f800000);
  uint32_t best = *tk;
  uint64_t at = *bi;
  __m256i vbest = _mm256_set1_epi32((int)best);
  size_t i = lo;
  for (; i + 8 * GP_ARG_NV <= hi; i += 8 * GP_ARG_NV) {
    __m256i k[GP_ARG_NV];
    for (int j = 0; j < GP_ARG_NV; j++) {
      __m256i x = _mm256_loadu_si256((const __m256i *)(const void *)(p + 4 * (i + 8 * (size_t)j)));
      __m256i nan = _mm256_setzero_si256();
      if (isf) {
        const __m256i ab = _mm256_and_si256(x, vabs);
        nan = _mm256_cmpgt_epi32(ab, vinf); /* both sides >= 0 as int32 */
        x = _mm256_andnot_si256(_mm256_cmpeq_epi32(ab, _mm256_setzero_si256()), x);
      }
      const __m256i s = _mm256_and_si256(_mm256_srai_epi32(x, 31), va);
      k[j] = _mm256_xor_si256(_mm256_xor_si256(x, s), vb);
      if (isf) k[j] = _mm256_andnot_si256(nan, k[j]);
    }
    __m256i m = _mm256_min_epu32(_mm256_min_epu32(_mm256_min_epu32(k[0], k[1]),
                                                  _mm256_min_epu32(k[2], k[3])),
                                 _mm256_min_epu32(_mm256_min_epu32(k[4], k[5]),
                                                  _mm256_min_epu32(k[6], k[7])));
    /* some lane of m < best  <=>  min(m, best) != best in that lane */
    const __m256i le = _mm256_cmpeq_epi32(_mm256_min_epu32(m, vbest), vbest);
    if (_mm256_movemask_epi8(le) == -1 && at != GP_ARG_NONE) continue;
    __m128i h = _mm_min_epu32(_mm256_castsi256_si128(m), _mm256_extracti128_si256(m, 1));
    h = _mm_min_epu32(h, _mm_shuffle_epi32(h, 0x4e));
    h = _mm_min_epu32(h, _mm_shuffle_epi32(h, 0xb1));
    const uint32_t mv = (uint32_t)_mm_cvtsi128_si32(h);
    if (!(mv < best || at == GP_ARG_NONE)) continue;
    const __m256i vm = _mm256_set1_epi32((int)mv);
    for (int j = 0; j < GP_ARG_NV; j++) {
      const unsigned bits = (unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(k[j], vm)));
      if (bits) {
        at = i + 8 * (size_t)j + (size_t)__builtin_ctz(bits);
        break;
      }
    }
    best = mv;
    vbest = vm;
  }
  *tk = best;
  *bi = at;
  /* GCC 12 makes this a sibling call without the VZEROUPPER it puts before other calls:
     the SSE code of the scalar tail then ran with the upper halves dirty (0.25 us a
     call of 16 floats from Python on a Xeon) */
  _mm256_zeroupper();
  arg32_scalar(p, i, hi, a, b, isf, tk, bi);
}
GP_CPU_AVX2 static void arg32_avx2(const char *p, size_t lo, size_t hi, uint32_t a, uint32_t b,
                                   int isf, uint32_t *tk, uint64_t *bi) {
  if (isf) arg32_avx2_body(p, lo, hi, a, b, 1, tk, bi);
  else arg32_avx2_body(p, lo, hi, a, b, 0, tk, bi);
}

GP_CPU_AVX2 __attribute__((always_inline)) static inline void
arg64_avx2_body(const char *p, size_t lo, size_t hi, uint64_t a, uint64_t b, const int isf,
                uint64_t *tk, uint64_t *bi) {
  const __m256i va = _mm256_set1_epi64x((long long)a);
  const __m256i vbs = _mm256_set1_epi64x((long long)(b ^ GP_ARG_TOP64)); /* B, then the flip */
  const __m256i vabs = _mm256_set1_epi64x((long long)~GP_ARG_TOP64);
  const __m256i vinf = _mm256_set1_epi64x(0x7ff0000000000000ll);
  const __m256i vtop = _mm256_set1_epi64x((long long)GP_ARG_TOP64); /* key 0, flipped */
  const __m256i z = _mm256_setzero_si256();
  uint64_t best = *tk, at = *bi;
  __m256i vbest = _mm256_set1_epi64x((long long)(best ^ GP_ARG_TOP64));
  size_t i = lo;
  for (; i + 4 * GP_ARG_NV <= hi; i += 4 * GP_ARG_NV) {
    __m256i k[GP_ARG_NV];
    for (int j = 0; j < GP_ARG_NV; j++) {
      __m256i x = _mm256_loadu_si256((const __m256i *)(const void *)(p + 8 * (i + 4 * (size_t)j)));
      __m256i nan = z;
      if (isf) {
        const __m256i ab = _mm256_and_si256(x, vabs);
        nan = _mm256_cmpgt_epi64(ab, vinf);
        x = _mm256_andnot_si256(_mm256_cmpeq_epi64(ab, z), x);
      }
      const __m256i s = _mm256_and_si256(_mm256_cmpgt_epi64(z, x), va);
      k[j] = _mm256_xor_si256(_mm256_xor_si256(x, s), vbs);
      if (isf) k[j] = _mm256_blendv_epi8(k[j], vtop, nan);
    }
#define GP_ARG_SMIN(x, y) _mm256_blendv_epi8((x), (y), _mm256_cmpgt_epi64((x), (y)))
    const __m256i m = GP_ARG_SMIN(GP_ARG_SMIN(GP_ARG_SMIN(k[0], k[1]), GP_ARG_SMIN(k[2], k[3])),
                                  GP_ARG_SMIN(GP_ARG_SMIN(k[4], k[5]), GP_ARG_SMIN(k[6], k[7])));
#undef GP_ARG_SMIN
    if (_mm256_movemask_epi8(_mm256_cmpgt_epi64(vbest, m)) == 0 && at != GP_ARG_NONE) continue;
    int64_t l[4];
    _mm256_storeu_si256((__m256i *)(void *)l, m);
    int64_t ms = l[0];
    for (int j = 1; j < 4; j++) ms = l[j] < ms ? l[j] : ms;
    const uint64_t mv = (uint64_t)ms ^ GP_ARG_TOP64;
    if (!(mv < best || at == GP_ARG_NONE)) continue;
    const __m256i vm = _mm256_set1_epi64x((long long)ms);
    for (int j = 0; j < GP_ARG_NV; j++) {
      const unsigned bits = (unsigned)_mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpeq_epi64(k[j], vm)));
      if (bits) {
        at = i + 4 * (size_t)j + (size_t)__builtin_ctz(bits);
        break;
      }
    }
    best = mv;
    vbest = vm;
  }
  *tk = best;
  *bi = at;
  /* as in arg32_avx2_body */
  _mm256_zeroupper();
  arg64_scalar(p, i, hi, a, b, isf, tk, bi);
}
GP_CPU_AVX2 static void arg64_avx2(const char *p, size_t lo, size_t hi, uint64_t a, uint64_t b,
                                   int isf, uint64_t *tk, uint64_t *bi) {
  if (isf) arg64_avx2_body(p, lo, hi, a, b, 1, tk, bi);
  else arg64_avx2_body(p, lo, hi, a, b, 0, tk, bi);
}

/* Value blocks (AVX2): elements in blocks of GP_ARG_BLOCK, each first reduced to its
 * largest (smallest) value with one max (min) per vector in the element's own domain
 * (float, signed or unsigned: no key to compute; 64-bit integers by a compare and a
 * blend), floats also OR-ing a NaN test; only a block whose extreme's key beats the
 * thread's best is searched for that value's first position (floats by ordered ==, so
 * -0 finds +0 too, as their keys tie). A float block with a NaN goes to the keyed loops
 * above, whose NaN key wins. kind: GP_VX_* (vec_extreme.h); the thread's best key is
 * *k32 for 4-byte kinds, *k64 for 8-byte ones. */
#define GP_ARG_BLOCK 2048u
/* the next block's length: up to GP_ARG_BLOCK, a multiple of `unit` (four vectors), 0
   when fewer than unit elements are left (the keyed loop takes them); short rows are one
   block (rows of 256 floats: 93 ns a row by keys) */
static inline size_t arg_block_len(size_t left, size_t unit) {
  const size_t len = left < GP_ARG_BLOCK ? left : GP_ARG_BLOCK;
  return len - len % unit;
}
GP_CPU_AVX2 __attribute__((always_inline)) static inline void
arg_blocks_body(const char *p, size_t lo, size_t hi, uint64_t a, uint64_t b, const int kind,
                const int mx, uint32_t *k32, uint64_t *k64, uint64_t *bi) {
  const int isf = kind == GP_VX_F32 || kind == GP_VX_F64, w8 = kind >= GP_VX_F64;
  const unsigned per = w8 ? 4 : 8, es = w8 ? 8 : 4; /* elements a vector, bytes each */
  size_t i = lo;
  for (size_t len; (len = arg_block_len(hi - i, 4 * per)) != 0; i += len) {
    const __m256i *q = (const __m256i *)(const void *)(p + es * i);
    int nan;
    const __m256i m = gp_vx_run(q, len / per, kind, mx, &nan);
    if (nan) { /* a NaN: the keyed loop finds the first */
      if (w8) arg64_avx2_body(p, i, i + len, a, b, 1, k64, bi);
      else arg32_avx2_body(p, i, i + len, (uint32_t)a, (uint32_t)b, 1, k32, bi);
      continue;
    }
    const uint64_t k = w8 ? key64((uint64_t)_mm256_extract_epi64(m, 0), a, b, isf)
                          : key32((uint32_t)_mm256_cvtsi256_si32(m), (uint32_t)a, (uint32_t)b, isf);
    if (!(k < (w8 ? *k64 : *k32) || *bi == GP_ARG_NONE)) continue;
    for (unsigned j = 0;; j++) {
      const __m256i x = _mm256_loadu_si256(q + j);
      unsigned bits;
      if (kind == GP_VX_F32)
        bits = (unsigned)_mm256_movemask_ps(_mm256_cmp_ps(_mm256_castsi256_ps(x),
                                                          _mm256_castsi256_ps(m), _CMP_EQ_OQ));
      else if (kind == GP_VX_F64)
        bits = (unsigned)_mm256_movemask_pd(_mm256_cmp_pd(_mm256_castsi256_pd(x),
                                                          _mm256_castsi256_pd(m), _CMP_EQ_OQ));
      else if (w8)
        bits = (unsigned)_mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpeq_epi64(x, m)));
      else
        bits = (unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(x, m)));
      if (bits) {
        if (w8) *k64 = k;
        else *k32 = (uint32_t)k;
        *bi = i + per * (size_t)j + (size_t)__builtin_ctz(bits);
        break;
      }
    }
  }
  if (w8) arg64_avx2(p, i, hi, a, b, isf, k64, bi);
  else arg32_avx2(p, i, hi, (uint32_t)a, (uint32_t)b, isf, k32, bi);
}
/* one stamp of a blocks body per (kind, op) */
#define GP_ARG_BLOCKS_STAMPS(BODY)                                                     \
  switch (kind * 2 + mx) {                                                             \
  case 0: BODY(p, lo, hi, a, b, GP_VX_F32, 0, k32, k64, bi); return;                  \
  case 1: BODY(p, lo, hi, a, b, GP_VX_F32, 1, k32, k64, bi); return;                  \
  case 2: BODY(p, lo, hi, a, b, GP_VX_I32, 0, k32, k64, bi); return;                  \
  case 3: BODY(p, lo, hi, a, b, GP_VX_I32, 1, k32, k64, bi); return;                  \
  case 4: BODY(p, lo, hi, a, b, GP_VX_U32, 0, k32, k64, bi); return;                  \
  case 5: BODY(p, lo, hi, a, b, GP_VX_U32, 1, k32, k64, bi); return;                  \
  case 6: BODY(p, lo, hi, a, b, GP_VX_F64, 0, k32, k64, bi); return;                  \
  case 7: BODY(p, lo, hi, a, b, GP_VX_F64, 1, k32, k64, bi); return;                  \
  case 8: BODY(p, lo, hi, a, b, GP_VX_I64, 0, k32, k64, bi); return;                  \
  case 9: BODY(p, lo, hi, a, b, GP_VX_I64, 1, k32, k64, bi); return;                  \
  case 10: BODY(p, lo, hi, a, b, GP_VX_U64, 0, k32, k64, bi); return;                 \
  default: BODY(p, lo, hi, a, b, GP_VX_U64, 1, k32, k64, bi); return;                 \
  }
GP_CPU_AVX2 static void arg_blocks_avx2(const char *p, size_t lo, size_t hi, uint64_t a,
                                        uint64_t b, int kind, int mx, uint32_t *k32,
                                        uint64_t *k64, uint64_t *bi) {
  GP_ARG_BLOCKS_STAMPS(arg_blocks_body)
}

/* AVX-512 value blocks, 64-bit integers (GP_VX_I64, GP_VX_U64): as arg_blocks_body
 * with 64-byte vectors, one max (min) instruction a vector, the search by compare
 * masks */
GP_CPU_AVX512 __attribute__((always_inline)) static inline void
arg_blocks512_body(const char *p, size_t lo, size_t hi, uint64_t a, uint64_t b, const int kind,
                   const int mx, uint64_t *k64, uint64_t *bi) {
  size_t i = lo;
  for (size_t len; (len = arg_block_len(hi - i, 32)) != 0; i += len) {
    const char *q = p + 8 * i;
    const __m512i m = gp_vx512_run(q, len / 8, kind, mx);
    const uint64_t v = gp_vx512_fold(m, kind, mx), k = key64(v, a, b, 0);
    if (!(k < *k64 || *bi == GP_ARG_NONE)) continue;
    const __m512i vv = _mm512_set1_epi64((long long)v);
    for (unsigned j = 0;; j++) {
      const unsigned bits = _mm512_cmpeq_epi64_mask(_mm512_loadu_si512(q + 64 * (size_t)j), vv);
      if (bits) {
        *k64 = k;
        *bi = i + 8 * (size_t)j + (size_t)__builtin_ctz(bits);
        break;
      }
    }
  }
  arg64_avx2(p, i, hi, a, b, 0, k64, bi);
}
GP_CPU_AVX512 static void arg_blocks_avx512(const char *p, size_t lo, size_t hi, uint64_t a,
                                            uint64_t b, int kind, int mx, uint64_t *k64,
                                            uint64_t *bi) {
  if (kind == GP_VX_I64) {
    if (mx) arg_blocks512_body(p, lo, hi, a, b, GP_VX_I64, 1, k64, bi);
    else arg_blocks512_body(p, lo, hi, a, b, GP_VX_I64, 0, k64, bi);
  } else {
    if (mx) arg_blocks512_body(p, lo, hi, a, b, GP_VX_U64, 1, k64, bi);
    else arg_blocks512_body(p, lo, hi, a, b, GP_VX_U64, 0, k64, bi);
  }
}
#endif

/* Whether this thread may take the value blocks: AVX2, and for floats no DAZ in force
 * (float compares read subnormals as zero under the caller's DAZ: keys then). Read
 * once per call and thread (MXCSR is per thread; STMXCSR a row was a tenth of a row of
 * 64 floats). */
static int arg_values_ok(int avx2, const arg_key *ak) {
  (void)ak;
#ifdef GP_CPU_X86
  return avx2 && !(ak->isf && (_mm_getcsr() & GP_CPU_MXCSR_FLUSH));
#else
  return avx2 && 0;
#endif
}

/* elements [lo, hi) into the thread's best (*k32 or *k64 by width, *i1); avx2: 2 where
 * AVX-512 may be used too (64-bit integers); values: arg_values_ok's answer */
static void arg_range(const char *p, size_t lo, size_t hi, int w8, int avx2, int values,
                      const arg_key *ak, uint32_t *k32, uint64_t *k64, uint64_t *i1) {
  (void)avx2;
  (void)values;
#ifdef GP_CPU_X86
  if (values) {
    /* the head before the first 64-byte boundary (gp_vx_head) by keys, the blocks after */
    const size_t es = w8 ? 8 : 4, head = gp_vx_head(p + lo * es, es, hi - lo);
    if (head) {
      const size_t h = lo + head;
      if (w8) arg64_avx2(p, lo, h, ak->a, ak->b, ak->isf, k64, i1);
      else arg32_avx2(p, lo, h, (uint32_t)ak->a, (uint32_t)ak->b, ak->isf, k32, i1);
      lo = h;
    }
    if (avx2 == 2 && (ak->kind == GP_VX_I64 || ak->kind == GP_VX_U64))
      arg_blocks_avx512(p, lo, hi, ak->a, ak->b, ak->kind, ak->mx, k64, i1);
    else arg_blocks_avx2(p, lo, hi, ak->a, ak->b, ak->kind, ak->mx, k32, k64, i1);
    return;
  }
  if (avx2) {
    if (w8) arg64_avx2(p, lo, hi, ak->a, ak->b, ak->isf, k64, i1);
    else arg32_avx2(p, lo, hi, (uint32_t)ak->a, (uint32_t)ak->b, ak->isf, k32, i1);
    return;
  }
#endif
  if (w8) arg64_scalar(p, lo, hi, ak->a, ak->b, ak->isf, k64, i1);
  else arg32_scalar(p, lo, hi, (uint32_t)ak->a, (uint32_t)ak->b, ak->isf, k32, i1);
}

/* the value at index bi of in, into value_out (floats: a NaN as the canonical one) */
static void arg_value(gp_dtype type, const void *in, uint64_t bi, void *value_out) {
  const size_t es = gp_dtype_size(type);
  memcpy(value_out, (const char *)in + bi * es, es);
  if (type == GP_F32) {
    float f;
    memcpy(&f, value_out, 4);
    f = gp_rt_canon_f32(f);
    memcpy(value_out, &f, 4);
  } else if (type == GP_F64) {
    double d;
    memcpy(&d, value_out, 8);
    d = gp_rt_canon_f64(d);
    memcpy(value_out, &d, 8);
  }
}

void gp_cpu_argreduce(gp_op op, gp_dtype type, const void *in, size_t n, void *value_out,
                      uint64_t *index_out) {
  const arg_key ak = key_of(op, type);
  const int w8 = gp_dtype_size(type) == 8;
  const int avx2 = gp_cpu_avx512() ? 2 : gp_cpu_avx2();
  const size_t nchunks = (n + GP_ARG_CHUNK - 1) / GP_ARG_CHUNK;
  uint64_t bk = UINT64_MAX, bi = GP_ARG_NONE;
  if (nchunks <= 1) { /* no OpenMP region and lock for one chunk */
    uint32_t k32 = UINT32_MAX;
    uint64_t k64 = UINT64_MAX;
    arg_range((const char *)in, 0, n, w8, avx2, arg_values_ok(avx2, &ak), &ak, &k32, &k64, &bi);
  } else {
    const ptrdiff_t nc = (ptrdiff_t)nchunks;
#ifdef _OPENMP
#pragma omp parallel
#endif
    {
      /* static schedule: this thread's chunks come in increasing order */
      const int values = arg_values_ok(avx2, &ak);
      uint32_t k32 = UINT32_MAX;
      uint64_t k64 = UINT64_MAX, i1 = GP_ARG_NONE;
#ifdef _OPENMP
#pragma omp for schedule(static)
#endif
      for (ptrdiff_t ci = 0; ci < nc; ci++) {
        const size_t lo = (size_t)ci * GP_ARG_CHUNK;
        const size_t hi = n - lo < GP_ARG_CHUNK ? n : lo + GP_ARG_CHUNK;
        arg_range((const char *)in, lo, hi, w8, avx2, values, &ak, &k32, &k64, &i1);
      }
      /* (UINT64_MAX, NONE) loses to every real pair, a 64-bit all-ones key included */
      const uint64_t k1 = i1 == GP_ARG_NONE ? UINT64_MAX : w8 ? k64 : (uint64_t)k32;
#ifdef _OPENMP
#pragma omp critical(gp_arg_fold)
#endif
      if (gp_arg_better(k1, i1, bk, bi)) { bk = k1; bi = i1; }
    }
  }
  arg_value(type, in, bi, value_out);
  *index_out = bi;
}

/* a thread takes segments of about this many elements at a time (as the reductions') */
#define GP_ARG_SEG_GRAB 16384

/* segment s: offsets[s] .. offsets[s+1], or rows of row_len when offsets is NULL; each
 * as one range in one thread (the answer, the first index of the best, is the same
 * however a segment is cut), a lone segment by gp_cpu_argreduce's threads. Per call and
 * thread, not per segment: the key, the ISA and MXCSR (rows of 64 floats: 40 -> 30 ns
 * a row). */
static void arg_segments(gp_op op, gp_dtype type, const void *in, const uint64_t *offsets,
                         size_t row_len, size_t nseg, void *value_out, uint64_t *index_out) {
  const size_t es = gp_dtype_size(type);
  if (nseg == 1) {
    unsigned char v[8];
    uint64_t i;
    const size_t b = offsets ? (size_t)offsets[0] : 0;
    gp_cpu_argreduce(op, type, (const char *)in + b * es,
                     offsets ? (size_t)(offsets[1] - offsets[0]) : row_len, v, &i);
    if (value_out) memcpy(value_out, v, es);
    if (index_out) index_out[0] = i;
    return;
  }
  const arg_key ak = key_of(op, type);
  const int w8 = es == 8, avx2 = gp_cpu_avx512() ? 2 : gp_cpu_avx2();
  const ptrdiff_t ns = (ptrdiff_t)nseg;
  const size_t avg = offsets ? (size_t)(offsets[nseg] - offsets[0]) / nseg : row_len;
  const int grab = avg * 16 >= GP_ARG_SEG_GRAB ? 16 : (int)(GP_ARG_SEG_GRAB / (avg ? avg : 1));
  (void)grab; /* without OpenMP */
#ifdef _OPENMP
#pragma omp parallel
#endif
  {
    const int values = arg_values_ok(avx2, &ak);
#ifdef _OPENMP
#pragma omp for schedule(dynamic, grab)
#endif
    for (ptrdiff_t r = 0; r < ns; r++) {
      const size_t b = offsets ? (size_t)offsets[r] : (size_t)r * row_len;
      const size_t len = offsets ? (size_t)(offsets[r + 1] - offsets[r]) : row_len;
      const char *p = (const char *)in + b * es;
      uint32_t k32 = UINT32_MAX;
      uint64_t k64 = UINT64_MAX, i = GP_ARG_NONE;
      arg_range(p, 0, len, w8, avx2, values, &ak, &k32, &k64, &i);
      if (value_out) arg_value(type, p, i, (char *)value_out + (size_t)r * es);
      if (index_out) index_out[r] = i;
    }
  }
}

void gp_cpu_argreduce_rows(gp_op op, gp_dtype type, const void *in, size_t nrows,
                           size_t row_len, void *value_out, uint64_t *index_out) {
  arg_segments(op, type, in, NULL, row_len, nrows, value_out, index_out);
}

void gp_cpu_argreduce_offsets(gp_op op, gp_dtype type, const void *in, const uint64_t *offsets,
                              size_t nseg, void *value_out, uint64_t *index_out) {
  arg_segments(op, type, in, offsets, 0, nseg, value_out, index_out);
}
