/* The CPU backend's radix sort: stable, parallel (OpenMP), on keys encoded by
 * core/key_codec.h, for keys, pairs, equal and offset segments and argsort. A large
 * array gets one parallel MSD pass with write-combined scatter into cache-sized buckets,
 * each then finished in one thread (LSD in cache, after further MSD splits when many
 * bits are left); small arrays and segments are such serial sorts run side by side
 * (short runs of keys alone: a vector network, cpu/vsort.h; longer ones, and one array
 * of keys alone that one or two threads sort, on AVX-512: the vector quicksort,
 * cpu/vqsort.h). The one stable order makes the result independent of the thread
 * count and equal to the GPU radix sort's, bit for bit. The per-width code is
 * radix_cpu_impl.h. */
#define _DEFAULT_SOURCE /* madvise's MADV_HUGEPAGE (Linux) */
#include "cpu/radix_cpu.h"
#include "cpu/argsort_packed.h"
#include "cpu/sort_cpu.h"
#include "cpu/vqsort.h"
#include "cpu/vsort.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__linux__)
#include <sys/mman.h>
#endif
#ifdef _OPENMP
#include <omp.h>
#endif

/* Tuning knobs, first for a Xeon with 2 MiB of L2 per core (docs/perf/cpu.md,
 * 2026-11-30: the bucket size chosen by A/B among 4096, 8192, 16384 keys; the others
 * first choices); 2026-12-02: buckets by bytes, 16384 4-byte keys (A/B on a 2-core EPYC
 * and that Xeon: faster on the EPYC, within the noise on the Xeon). */
#define RX_INSERTION_MAX 32   /* insertion sort below this many keys */
#define RX_SPLIT_MIN_N 2048   /* in cache, fewer keys are sorted LSD, never split MSD */
#define RX_LSD_MIN_N 256      /* ... fewer than this split MSD (a histogram a digit costs more) */
#define RX_SMALL_DIGIT_N 2048 /* serial LSD uses 8-bit digits up to here, else 11 */
#define RX_LSD_BITS 11        /* widest serial digit */
#define RX_MAX_DIGITS 8       /* 64 bits in 8-bit digits */
#define RX_TOP_MAX 11         /* widest MSD digit (buckets of a write-combined pass) */
#define RX_NB ((size_t)1 << RX_TOP_MAX)
#define RX_LEVELS 24          /* deepest MSD nesting (see rec in radix_cpu_impl.h) */
#define RX_BUCKET_BYTES 65536 /* the MSD pass aims at buckets of this many bytes of keys */
#define RX_GRAB_KEYS 16384    /* keys of short segments a thread takes at a time */
/* the most keys one thread sorts alone (serial LSD in its cache); larger arrays and
   buckets get parallel passes */
#define RX_CACHE_KEYS ((size_t)1 << 16)
/* The mapped first pass (par_mapped in radix_cpu_impl.h): from this many keys, on a
 * window of this many bits */
#define RX_MAP_MIN_N ((size_t)1 << 20)
#define RX_MAP_BITS 16
/* The key:index words' sorts (rx_words_ok) up to these many keys: above them the radix
 * sort was faster on the 2-core Xeon (the pairs' gather of values leaves the cache: 2^24
 * pairs u32/u32 8.5 -> 16.2 ns a key; argsort 2^24 9.0 -> 10.7) */
#define RX_WORDS_PAIRS_MAX ((size_t)1 << 20)
#define RX_WORDS_ARGSORT_MAX ((size_t)1 << 22)
/* varying's window counts sum to the top digit's counts (radix_cpu_impl.h) */
_Static_assert(RX_TOP_MAX <= RX_MAP_BITS, "the top digit must lie within the window");

/* Digits of an LSD sort on bits [lo, hi): as few as the width limit allows, of near
 * equal widths (lowest first). */
typedef struct rx_plan {
  int m;
  int shift[RX_MAX_DIGITS];
  int width[RX_MAX_DIGITS];
} rx_plan;

/* Writing a full write-combining line: streaming stores where the ISA has them, so
 * the line goes to memory without first being read in (there is nothing in it to
 * keep); rx_put_done orders them before the threads meet. */
static inline void rx_put_line(void *dst, const void *line) {
#if defined(__SSE2__)
  const __m128i *s = (const __m128i *)line;
  __m128i *d = (__m128i *)dst;
  _mm_stream_si128(d, _mm_load_si128(s));
  _mm_stream_si128(d + 1, _mm_load_si128(s + 1));
  _mm_stream_si128(d + 2, _mm_load_si128(s + 2));
  _mm_stream_si128(d + 3, _mm_load_si128(s + 3));
#else
  memcpy(dst, line, 64);
#endif
}
/* bytes (a multiple of 16) from a 16-byte aligned line buffer to dst, streamed when
 * dst is aligned too */
static inline void rx_put(void *dst, const void *line, size_t bytes) {
#if defined(__SSE2__)
  if (((uintptr_t)dst & 15) == 0) {
    for (size_t o = 0; o < bytes; o += 16)
      _mm_stream_si128((__m128i *)((char *)dst + o),
                       _mm_load_si128((const __m128i *)((const char *)line + o)));
    return;
  }
#endif
  memcpy(dst, line, bytes);
}
static inline void rx_put_done(void) {
#if defined(__SSE2__)
  _mm_sfence();
#endif
}

static rx_plan rx_plan_digits(int lo, int hi, int wmax) {
  rx_plan p;
  int bits = hi - lo;
  p.m = bits <= 0 ? 0 : (bits + wmax - 1) / wmax;
  for (int j = 0, s = lo; j < p.m; j++) {
    p.width[j] = bits / p.m + (j < bits % p.m);
    p.shift[j] = s;
    s += p.width[j];
  }
  return p;
}

/* Width of the MSD digit for n keys of key_bytes each, differing over `span` bits:
 * buckets of about RX_BUCKET_BYTES. */
static int rx_top_width(size_t n, int span, size_t key_bytes) {
  int w = 1;
  while (w < RX_TOP_MAX && (n >> w) > RX_BUCKET_BYTES / key_bytes) w++;
  return w < span ? w : span;
}

/* Width of an MSD split of n keys in cache: about one key per bucket, at least 3 bits
 * (the nesting bound of rec), at most RX_LSD_BITS. */
static int rx_split_width(size_t n, int span) {
  int w = 3;
  while (w < RX_LSD_BITS && ((size_t)1 << w) < n) w++;
  return w < span ? w : span;
}

/* One thread's scratch: LSD histograms and ping-pong buffers and the other side of an
 * in-cache split (capacity keys and values each); counts and the bucket boundaries of
 * each nesting level for MSD passes, write-combining lines and flush marks for those
 * out of cache. */
typedef struct rx_thread {
  uint32_t *hist;
  void *ak, *av, *bk, *bv, *ck, *cv;
  void *wck, *wcv;
  size_t *flushed, *cnt, *starts;
} rx_thread;

typedef struct rx_work {
  int nthreads;
  size_t *cnt;    /* nthreads * RX_NB per-thread bucket counts, then offsets */
  size_t *starts; /* RX_LEVELS * (RX_NB + 1) bucket boundaries of the parallel passes */
  rx_thread *threads;
  int counted;    /* cnt already holds the next par_pass's counts, for this many threads */
  uint32_t *win;  /* nthreads << RX_MAP_BITS per-thread window counts (par_mapped) */
  int win_top;    /* win holds the counts of the top window (varying's), for counted threads */
} rx_work;

typedef struct rx_ops {
  void (*serial)(void *k, void *v, size_t n, gp_key_class c, int desc, rx_thread *w);
  void (*argsort)(const void *k, void *tk, void *ix, size_t n, gp_key_class c, int desc,
                  rx_thread *w);
  void (*par)(const void *sk, const void *sv, int gen, void *dk, void *dv, void *tk,
              void *tv, void *uk, size_t n, gp_key_class c, int desc, rx_work *wk);
} rx_ops;

#define RX_KT uint32_t
#define RX_ENC gp_key32_enc
#define RX_DEC gp_key32_dec
#define RX_VT uint32_t
#define RX_HASV 0
#define RX_SUFFIX k32
#include "cpu/radix_cpu_impl.h"
#undef RX_HASV
#undef RX_SUFFIX
#define RX_HASV 1
#define RX_SUFFIX k32_v32
#include "cpu/radix_cpu_impl.h"
#undef RX_VT
#undef RX_SUFFIX
#define RX_VT uint64_t
#define RX_SUFFIX k32_v64
#include "cpu/radix_cpu_impl.h"
#undef RX_KT
#undef RX_ENC
#undef RX_DEC
#undef RX_VT
#undef RX_HASV
#undef RX_SUFFIX

#define RX_KT uint64_t
#define RX_ENC gp_key64_enc
#define RX_DEC gp_key64_dec
#define RX_VT uint32_t
#define RX_HASV 0
#define RX_SUFFIX k64
#include "cpu/radix_cpu_impl.h"
#undef RX_HASV
#undef RX_SUFFIX
#define RX_HASV 1
#define RX_SUFFIX k64_v32
#include "cpu/radix_cpu_impl.h"
#undef RX_VT
#undef RX_SUFFIX
#define RX_VT uint64_t
#define RX_SUFFIX k64_v64
#include "cpu/radix_cpu_impl.h"
#undef RX_KT
#undef RX_ENC
#undef RX_DEC
#undef RX_VT
#undef RX_HASV
#undef RX_SUFFIX

static const rx_ops *rx_ops_for(size_t kb, int vb) {
  if (kb == 4) return vb == 0 ? &ops_k32 : vb == 4 ? &ops_k32_v32 : &ops_k32_v64;
  return vb == 0 ? &ops_k64 : vb == 4 ? &ops_k64_v32 : &ops_k64_v64;
}

static size_t round64(size_t b) { return (b + 63) & ~(size_t)63; }

static int rx_threads(void) {
#ifdef _OPENMP
  return omp_get_max_threads();
#else
  return 1;
#endif
}

/* Host scratch of a sort: the per-thread part (LSD buffers of `cap` keys, and the
 * parallel pass's write-combining lines when par) and, for a parallel sort of up to n
 * keys, arrays of n keys (tk, and uk when need_u) and values (tv). One block, from the
 * context: kept between calls up to GP_CPU_SCRATCH_KEEP bytes (the pages of a fresh
 * block cost a kernel page clear on first touch: 13-16% of a 2^24 sort's time on the
 * 2-core development machine, perf, 2026-12-01), else freed when the call ends. */
#define GP_CPU_SCRATCH_KEEP ((size_t)1 << 30)
typedef struct rx_big {
  void *tk, *tv, *uk;
} rx_big;

static size_t round4k(size_t b) { return (b + 4095) & ~(size_t)4095; }

/* n elements of `size` bytes, on huge pages where the system lends them on request
 * (Linux THP "madvise"): a first touch then faults 2 MiB at a time, not 4 KiB. */
static void *rx_big_array(size_t bytes) {
  const size_t huge = (size_t)2 << 20;
  if (bytes < huge) return malloc(bytes ? bytes : 1);
  void *p = aligned_alloc(huge, (bytes + huge - 1) & ~(huge - 1));
#if defined(MADV_HUGEPAGE)
  if (p) (void)madvise(p, (bytes + huge - 1) & ~(huge - 1), MADV_HUGEPAGE);
#endif
  return p;
}

/* A block of `total` bytes of host scratch: the context's kept block when it is large
 * enough, else a new one, kept by the context when total <= GP_CPU_SCRATCH_KEEP (the
 * previous one freed) or returned in *owned for the caller to free. NULL: no memory. */
static void *rx_host_block(gp_context *ctx, size_t total, void **owned) {
  *owned = NULL;
  if (ctx->cpu_scratch && ctx->cpu_scratch_bytes >= total) return ctx->cpu_scratch;
  void *m = rx_big_array(total);
  if (!m) return NULL;
  if (total <= GP_CPU_SCRATCH_KEEP) {
    free(ctx->cpu_scratch);
    ctx->cpu_scratch = m;
    ctx->cpu_scratch_bytes = total;
  } else {
    *owned = m;
  }
  return m;
}

/* Plans and takes the scratch: wk's pointers, and *big's when par_n (else NULL). *owned
 * is the block to free after the call (NULL when the context keeps it). */
static gp_status rx_scratch(gp_context *ctx, rx_work *wk, rx_big *big, size_t kb, int vb,
                            size_t cap, int par, size_t par_n, int need_u, void **owned) {
  int nt = rx_threads();
  size_t nb = RX_NB, line = 64 / kb, lv = RX_LEVELS * (nb + 1) * sizeof(size_t);
  size_t hist = round64(sizeof(uint32_t) * ((size_t)RX_MAX_DIGITS << RX_LSD_BITS));
  size_t bk = round64(cap * kb), bv = round64(cap * (size_t)vb);
  size_t wck = par ? nb * 64 : 0, wcv = par ? round64(nb * line * (size_t)vb) : 0;
  size_t fl = par ? round64(nb * sizeof(size_t)) : 0, cn = round64(nb * sizeof(size_t));
  size_t per = hist + 3 * (bk + bv) + wck + wcv + fl + cn + round64(lv);
  /* varying's and par_mapped's window counts, for sorts that may take the mapped pass */
  size_t win =
      par && par_n >= RX_MAP_MIN_N ? round64((size_t)nt * sizeof(uint32_t) << RX_MAP_BITS) : 0;
  size_t shared = round64((size_t)nt * nb * sizeof(size_t)) + round64(lv) +
                  round64((size_t)nt * sizeof(rx_thread)) + win;
  const size_t small = round4k(shared + (size_t)nt * per);
  const size_t btk = par_n ? round4k(par_n * kb) : 0, btv = par_n && vb ? round4k(par_n * (size_t)vb) : 0,
               buk = par_n && need_u ? round4k(par_n * kb) : 0;
  const size_t total = small + btk + btv + buk;
  char *m = (char *)rx_host_block(ctx, total, owned);
  if (!m)
    return gp_fail(ctx, GP_ERR_OUT_OF_MEMORY,
                   "cannot allocate %zu bytes of host scratch for the radix sort", total);
  big->tk = btk ? m + small : NULL;
  big->tv = btv ? m + small + btk : NULL;
  big->uk = buk ? m + small + btk + btv : NULL;
  wk->nthreads = nt;
  wk->counted = 0;
  wk->cnt = (size_t *)m;
  m += round64((size_t)nt * nb * sizeof(size_t));
  wk->starts = (size_t *)m;
  m += round64(lv);
  wk->threads = (rx_thread *)m;
  m += round64((size_t)nt * sizeof(rx_thread));
  wk->win = win ? (uint32_t *)m : NULL;
  wk->win_top = 0;
  m += win;
  for (int t = 0; t < nt; t++) {
    rx_thread *w = &wk->threads[t];
    w->hist = (uint32_t *)m, m += hist;
    w->ak = m, m += bk;
    w->bk = m, m += bk;
    w->ck = m, m += bk;
    w->av = m, m += bv;
    w->bv = m, m += bv;
    w->cv = m, m += bv;
    w->wck = m, m += wck;
    w->wcv = m, m += wcv;
    w->flushed = (size_t *)m, m += fl;
    w->cnt = (size_t *)m, m += cn;
    w->starts = (size_t *)m, m += round64(lv);
  }
  return GP_OK;
}

/* Argsort and stable pairs of 4-byte keys by one 64-bit word a key, the encoded key
 * above its index, sorted as keys alone by the vector quicksort (cpu/vqsort.h): the
 * words are distinct, so equal keys keep their input order, the stable radix sort's
 * result. Where the quicksort sorts words (AVX-512), one thread sorts them (up to
 * RX_CACHE_KEYS) or at most two share them, and the indices fit the low half. */
static int rx_words_ok(size_t kb, size_t n, size_t most) {
  return kb == 4 && n <= most && gp_cpu_vqsort_ok(8) && (n <= RX_CACHE_KEYS || rx_threads() <= 2);
}
static void rx_words_sort(const uint32_t *k, size_t n, gp_key_class c, int desc, uint64_t *w) {
  const gp_key_code q = gp_key_code_of(c, desc, 0);
  for (size_t i = 0; i < n; i++) w[i] = (uint64_t)gp_key32_coded(k[i], q) << 32 | i;
  gp_cpu_vqsort(w, 8, n, GP_KEY_UNSIGNED, 0, rx_threads());
}
/* gp_sort_pairs of n 4-byte keys with values of vb bytes, in place */
static gp_status rx_pairs_words(gp_context *ctx, uint32_t *k, int vb, void *v, size_t n,
                                gp_key_class c, int desc) {
  void *owned;
  uint64_t *w = (uint64_t *)rx_host_block(ctx, n * (8 + (size_t)vb), &owned);
  if (!w)
    return gp_fail(ctx, GP_ERR_OUT_OF_MEMORY,
                   "cannot allocate %zu bytes of host scratch for the sort", n * (8 + (size_t)vb));
  char *vc = (char *)(w + n);
  memcpy(vc, v, n * (size_t)vb);
  rx_words_sort(k, n, c, desc, w);
  for (size_t i = 0; i < n; i++) {
    const size_t j = (uint32_t)w[i];
    k[i] = gp_key32_dec((uint32_t)(w[i] >> 32), c, desc);
    if (vb == 4) ((uint32_t *)v)[i] = ((const uint32_t *)(const void *)vc)[j];
    else ((uint64_t *)v)[i] = ((const uint64_t *)(const void *)vc)[j];
  }
  free(owned);
  return GP_OK;
}
/* gp_argsort of n 4-byte keys into indices of ib bytes (the words in indices itself when
 * they are 8 bytes) */
static gp_status rx_argsort_words(gp_context *ctx, const uint32_t *k, int ib, void *indices,
                                  size_t n, gp_key_class c, int desc) {
  void *owned = NULL;
  uint64_t *w = ib == 8 ? (uint64_t *)indices : (uint64_t *)rx_host_block(ctx, n * 8, &owned);
  if (!w)
    return gp_fail(ctx, GP_ERR_OUT_OF_MEMORY,
                   "cannot allocate %zu bytes of host scratch for the argsort", n * 8);
  rx_words_sort(k, n, c, desc, w);
  if (ib == 8)
    for (size_t i = 0; i < n; i++) w[i] &= 0xffffffffu;
  else
    for (size_t i = 0; i < n; i++) ((uint32_t *)indices)[i] = (uint32_t)w[i];
  free(owned);
  return GP_OK;
}

/* One short range (2 .. RX_CACHE_KEYS keys) in one thread: keys alone of up to vmax by
 * the vector networks (cpu/vsort.h, same bits), else the serial radix sort in w. */
static void rx_short(const rx_ops *ops, size_t kb, int vb, size_t vmax, char *k, char *v,
                     size_t len, gp_key_class c, int desc, rx_thread *w) {
  if (len <= vmax) {
    if (kb == 4) gp_cpu_vsort32((uint32_t *)k, len, c, desc);
    else gp_cpu_vsort64((uint64_t *)k, len, c, desc);
    return;
  }
  if (!vb && gp_cpu_vqsort_ok(kb)) { /* longer keys alone: the vector quicksort */
    gp_cpu_vqsort(k, kb, len, c, desc, 1);
    return;
  }
  ops->serial(k, vb ? v : NULL, len, c, desc, w);
}

/* Sorts the ranges [offs[i], offs[i+1]) (or equal ones of seg when offs is NULL): short
 * ones side by side, one per thread, long ones one after the other with all threads. */
static gp_status rx_segments(gp_context *ctx, gp_dtype kt, void *keys, int vb, void *values,
                             const uint64_t *offs, size_t nseg, size_t seg, gp_order order) {
  const size_t kb = gp_dtype_size(kt);
  const gp_key_class c = gp_key_class_of(kt);
  const int desc = order == GP_DESCENDING;
  size_t longest = seg, longest_short = seg <= RX_CACHE_KEYS ? seg : 0;
  if (offs) {
    longest = longest_short = 0;
    for (size_t i = 0; i < nseg; i++) {
      size_t len = (size_t)(offs[i + 1] - offs[i]);
      if (len > longest) longest = len;
      if (len <= RX_CACHE_KEYS && len > longest_short) longest_short = len;
    }
  }
  if (longest <= 1) return GP_OK;
  const rx_ops *ops = rx_ops_for(kb, vb);
  /* short runs of keys alone: the vector networks (cpu/vsort.h), same bits */
  const size_t vmax = vb ? 0 : kb == 4 ? gp_cpu_vsort32_max() : gp_cpu_vsort64_max();
  if (nseg == 1 && longest <= vmax) { /* no scratch to plan, no OpenMP region */
    rx_short(ops, kb, vb, vmax, (char *)keys + (offs ? (size_t)offs[0] : 0) * kb, NULL,
             longest, c, desc, NULL);
    return GP_OK;
  }
  if (nseg == 1 && vb && rx_words_ok(kb, longest, RX_WORDS_PAIRS_MAX)) { /* one array of pairs */
    const size_t off = offs ? (size_t)offs[0] : 0;
    return rx_pairs_words(ctx, (uint32_t *)keys + off, vb, (char *)values + off * (size_t)vb,
                          longest, c, desc);
  }
  /* one array of keys alone: the vector quicksort, where one thread sorts it or two
     share it (its first partitions run in one thread; with more threads the parallel
     radix passes, measured on a 16-core host, are kept) */
  const int nt = rx_threads();
  if (nseg == 1 && !vb && gp_cpu_vqsort_ok(kb) && (longest <= RX_CACHE_KEYS || nt <= 2)) {
    gp_cpu_vqsort((char *)keys + (offs ? (size_t)offs[0] : 0) * kb, kb, longest, c, desc, nt);
    return GP_OK;
  }
  const int par = longest > RX_CACHE_KEYS;
  rx_work wk;
  rx_big big;
  void *owned;
  gp_status s = rx_scratch(ctx, &wk, &big, kb, vb, par ? RX_CACHE_KEYS : longest_short, par,
                           par ? longest : 0, 0, &owned);
  if (s) return s;
  long long ns = (long long)nseg;
  /* an OpenMP region, even one an if clause keeps to one thread, costs a team and a
     wake-up (~0.3 us on the 2-core box): one range, or one thread, sorts without it */
  const int team = wk.nthreads > 1 && nseg > 1;
  if (longest_short > 1 && !team) {
    for (long long i = 0; i < ns; i++) {
      size_t off = offs ? (size_t)offs[i] : (size_t)i * seg;
      size_t len = offs ? (size_t)(offs[i + 1] - offs[i]) : seg;
      if (len > 1 && len <= RX_CACHE_KEYS)
        rx_short(ops, kb, vb, vmax, (char *)keys + off * kb,
                 vb ? (char *)values + off * (size_t)vb : NULL, len, c, desc, &wk.threads[0]);
    }
  } else if (longest_short > 1) {
    /* a thread takes about RX_GRAB_KEYS keys of segments at a time: one segment at a
       time, the grabs of a million rows of 16 cost more than their sorts (two threads
       took 1.8x one thread's time on the 2-core box) */
    const size_t avg = offs ? (size_t)(offs[nseg] - offs[0]) / nseg : seg;
    const int grab = avg >= RX_GRAB_KEYS ? 1 : (int)(RX_GRAB_KEYS / (avg ? avg : 1));
    (void)grab; /* without OpenMP */
#ifdef _OPENMP
#pragma omp parallel for num_threads(wk.nthreads) schedule(dynamic, grab)
#endif
    for (long long i = 0; i < ns; i++) {
      size_t off = offs ? (size_t)offs[i] : (size_t)i * seg;
      size_t len = offs ? (size_t)(offs[i + 1] - offs[i]) : seg;
      if (len <= 1 || len > RX_CACHE_KEYS) continue;
      int t = 0;
#ifdef _OPENMP
      t = omp_get_thread_num();
#endif
      rx_short(ops, kb, vb, vmax, (char *)keys + off * kb,
               vb ? (char *)values + off * (size_t)vb : NULL, len, c, desc, &wk.threads[t]);
    }
  }
  for (long long i = 0; par && i < ns; i++) {
    size_t off = offs ? (size_t)offs[i] : (size_t)i * seg;
    size_t len = offs ? (size_t)(offs[i + 1] - offs[i]) : seg;
    if (len <= RX_CACHE_KEYS) continue;
    char *k = (char *)keys + off * kb, *v = vb ? (char *)values + off * (size_t)vb : NULL;
    ops->par(k, v, 0, k, v, big.tk, big.tv, NULL, len, c, desc, &wk);
  }
  free(owned);
  return GP_OK;
}

gp_status gp_cpu_radix_sort(gp_context *ctx, gp_dtype kt, void *keys, int vb, void *values,
                            size_t nseg, size_t seg, gp_order order) {
  return rx_segments(ctx, kt, keys, vb, values, NULL, nseg, seg, order);
}

gp_status gp_cpu_sort_offsets(gp_context *ctx, gp_dtype kt, void *keys, int vb,
                              void *values, const uint64_t *offsets, size_t nseg,
                              gp_order order) {
  return rx_segments(ctx, kt, keys, vb, values, offsets, nseg, 0, order);
}

/* Argsort of n <= gp_cpu_vsort64_max() 4-byte keys by their key:index words
 * (gp_cpu_vsort_key_index32), in indices itself for 8-byte indices. */
static void argsort_composite(const uint32_t *k, int ib, void *indices, size_t n,
                              gp_key_class c, int desc) {
  uint64_t local[GP_VSORT64_MAX];
  uint64_t *w = ib == 8 ? (uint64_t *)indices : local;
  gp_cpu_vsort_key_index32(k, n, c, desc, w);
  if (ib == 8)
    for (size_t i = 0; i < n; i++) w[i] &= 0xffffffffu;
  else
    for (size_t i = 0; i < n; i++) ((uint32_t *)indices)[i] = (uint32_t)w[i];
}

gp_status gp_cpu_argsort(gp_context *ctx, gp_dtype kt, const void *keys, gp_dtype it,
                         void *indices, size_t n, gp_order order) {
  if (n == 0) return GP_OK;
  const size_t kb = gp_dtype_size(kt);
  const int ib = (int)gp_dtype_size(it), par = n > RX_CACHE_KEYS;
  const gp_key_class c = gp_key_class_of(kt);
  const int desc = order == GP_DESCENDING;
  if (kb == 4 && n <= gp_cpu_vsort64_max()) {
    argsort_composite((const uint32_t *)keys, ib, indices, n, c, desc);
    return GP_OK;
  }
  if (kb == 8 && n <= GP_PACKED_MAX)
    return gp_cpu_argsort_packed64(ctx, kt, keys, ib, indices, n, order);
  if (rx_words_ok(kb, n, RX_WORDS_ARGSORT_MAX))
    return rx_argsort_words(ctx, (const uint32_t *)keys, ib, indices, n, c, desc);
  rx_work wk;
  rx_big big;
  void *owned;
  gp_status s = rx_scratch(ctx, &wk, &big, kb, ib, par ? RX_CACHE_KEYS : n, par, n, par, &owned);
  if (s) return s;
  const rx_ops *ops = rx_ops_for(kb, ib);
  if (par) ops->par(keys, NULL, 1, NULL, indices, big.tk, big.tv, big.uk, n, c, desc, &wk);
  else ops->argsort(keys, big.tk, indices, n, c, desc, &wk.threads[0]);
  free(owned);
  return GP_OK;
}
