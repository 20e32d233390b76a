/* radix_digits_bench: issue 12's digit-width trial. Can wider digits (11 bits: three
 * passes of 11, 11 and 10 bits over u32 keys, against four of 8) make the radix sort
 * faster? One LSD one-sweep radix sort written once with the digit width as a
 * parameter -- the library's design (src/cuda/sort/radix.cu): an upfront histogram,
 * tiles taken by ticket, per-warp digit rows in shared memory, ranking by one ballot a
 * digit bit, decoupled look-back over earlier tiles, each digit's run written from
 * shared memory -- run at 8 and at 11 bits beside the library's GP_SORT_RADIX and
 * cub::DeviceRadixSort::SortKeys on the same random u32 keys in one process, each
 * result checked against CUB's bit for bit.
 *
 * What differs with the width: 2^BITS per-warp counters a tile (two 16-bit counters a
 * word, so 2048 of them fit 4 KiB a warp), 2^BITS look-back words a tile (32-bit: flag,
 * pass tag and the count mod 2^28, four digits a vector load), and runs of TILE / 2^BITS
 * keys on average in the scatter (5 at 11 bits and 8192-key tiles, 42 at 8 bits).
 *
 *   radix_digits_bench [--log2 20,24,26,28] [--rounds 15]
 *
 * Prints, per n, the median of each stage over the rounds (CUDA events, L2 flushed
 * before each run): prep (zeroing the look-back words, histogram, scans), each pass,
 * and the total, for every shape; CUB's and the library's totals. Keys are sorted out
 * of place (input, output and one buffer), so three passes end in the output without
 * a copy; the library sorts in place. u32 keys ascending only, n <= 2^28. */
#include "gpuprims.h"
#include "cuda/sort/radix_match.cuh"
#include "peers/cub_sort.h"

#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef unsigned long long u64;

#define XD_FLAG_AGG 1u
#define XD_FLAG_PREFIX 2u
#define XD_VAL ((1u << 28) - 1) /* counts mod 2^28: exact while n <= 2^28 */
#define XD_MAX_LOG2 28

__device__ __forceinline__ unsigned xd_word(unsigned flag, int pass, unsigned v) {
  return (flag << 30) | ((unsigned)(pass & 3) << 28) | (v & XD_VAL);
}

__device__ __forceinline__ uint4 xd_ld4(const unsigned *p) {
  uint4 r;
  asm volatile("ld.volatile.global.v4.u32 {%0,%1,%2,%3}, [%4];"
               : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w)
               : "l"(p));
  return r;
}
__device__ __forceinline__ void xd_st4(unsigned *p, uint4 v) {
  asm volatile("st.volatile.global.v4.u32 [%0], {%1,%2,%3,%4};" ::"l"(p), "r"(v.x), "r"(v.y),
               "r"(v.z), "r"(v.w)
               : "memory");
}
__device__ __forceinline__ void xd_st2(unsigned *p, unsigned a, unsigned b) {
  asm volatile("st.volatile.global.v2.u32 [%0], {%1,%2};" ::"l"(p), "r"(a), "r"(b) : "memory");
}

/* the lanes whose digit equals this lane's: a ballot a digit bit (as radix.cu) */
template <int BITS> __device__ __forceinline__ unsigned xd_match(unsigned d) {
  unsigned peers = 0xFFFFFFFFu;
#pragma unroll
  for (int b = 0; b < BITS; b++) peers = rx_match_bit(peers, d, 1u << b);
  return peers;
}

/* ---- histogram of every pass's digits, and their exclusive scans -------------------- */
template <int BITS> __host__ __device__ constexpr int xd_npass() { return (32 + BITS - 1) / BITS; }

template <int BITS> __device__ __forceinline__ void xd_hist_add(unsigned *sh, unsigned k) {
  constexpr int R = 1 << BITS;
#pragma unroll
  for (int p = 0; p < xd_npass<BITS>(); p++) atomicAdd(&sh[p * R + ((k >> (p * BITS)) & (R - 1))], 1u);
}

template <int BITS> __global__ void __launch_bounds__(512) xd_hist(const unsigned *keys, unsigned n, unsigned *hist) {
  constexpr int R = 1 << BITS, NP = xd_npass<BITS>();
  __shared__ unsigned sh[NP * R];
  for (unsigned j = threadIdx.x; j < NP * R; j += 512) sh[j] = 0;
  __syncthreads();
  const unsigned stride = gridDim.x * 512, first = blockIdx.x * 512 + threadIdx.x;
  const uint4 *kv = (const uint4 *)keys;
  for (unsigned i = first; i < n / 4; i += stride) {
    const uint4 v = kv[i];
    xd_hist_add<BITS>(sh, v.x);
    xd_hist_add<BITS>(sh, v.y);
    xd_hist_add<BITS>(sh, v.z);
    xd_hist_add<BITS>(sh, v.w);
  }
  for (unsigned i = n / 4 * 4 + first; i < n; i += stride) xd_hist_add<BITS>(sh, keys[i]);
  __syncthreads();
  for (unsigned j = threadIdx.x; j < NP * R; j += 512)
    if (sh[j]) atomicAdd(&hist[j], sh[j]);
}

/* one block a pass: gbase[p][d] = the number of keys whose digit p is below d */
template <int BITS> __global__ void __launch_bounds__(1024) xd_scan(const unsigned *hist, unsigned *gbase) {
  constexpr int R = 1 << BITS, PER = R >= 1024 ? R / 1024 : 1;
  __shared__ unsigned wsum[32];
  const unsigned t = threadIdx.x, lane = t & 31, w = t >> 5;
  const unsigned *h = hist + blockIdx.x * R;
  unsigned c[PER], sum = 0;
#pragma unroll
  for (int j = 0; j < PER; j++) {
    c[j] = t * PER + j < (unsigned)R ? h[t * PER + j] : 0;
    sum += c[j];
  }
  unsigned incl = sum;
  for (int o = 1; o < 32; o <<= 1) {
    const unsigned y = __shfl_up_sync(0xFFFFFFFFu, incl, o);
    if ((int)lane >= o) incl += y;
  }
  if (lane == 31) wsum[w] = incl;
  __syncthreads();
  unsigned run = incl - sum;
  for (unsigned ww = 0; ww < w; ww++) run += wsum[ww];
#pragma unroll
  for (int j = 0; j < PER; j++) {
    if (t * PER + j < (unsigned)R) gbase[blockIdx.x * R + t * PER + j] = run;
    run += c[j];
  }
}

/* ---- one pass ------------------------------------------------------------------------- */
template <int BITS, int THREADS, int ITEMS> struct xd_smem {
  unsigned whist[(THREADS / 32) * (1 << BITS) / 2]; /* per warp: two 16-bit counters a word */
  unsigned cnt[1 << BITS];                          /* the tile's count of each digit */
  unsigned dstart[1 << BITS];                       /* exclusive scan of cnt */
  u64 goff[1 << BITS];                              /* output address of the digit's tile place 0 */
  unsigned wsum[32];
  unsigned tile;
  unsigned k[THREADS * ITEMS];
};

template <int BITS, int THREADS, int ITEMS, int MINB>
__global__ void __launch_bounds__(THREADS, MINB)
xd_onesweep(const unsigned *kin, unsigned *kout, unsigned n, int pass, const unsigned *gbase,
            unsigned *status, unsigned *tickets) {
  constexpr int R = 1 << BITS, H = R / 2, W = THREADS / 32, TILE = THREADS * ITEMS, NCH = R / 8;
  static_assert(TILE < 65536, "tile places must fit 16-bit counters");
  static_assert(NCH <= THREADS && R / 4 <= 32 * THREADS, "scan chunks: one a thread");
  extern __shared__ __align__(16) unsigned char xd_raw[];
  xd_smem<BITS, THREADS, ITEMS> &s = *(xd_smem<BITS, THREADS, ITEMS> *)xd_raw;
  const unsigned tid = threadIdx.x, lane = tid & 31, w = tid >> 5;
  if (tid == 0) s.tile = atomicAdd(&tickets[pass], 1u);
  __syncthreads();
  const unsigned tile = s.tile;
  const unsigned base = tile * TILE;
  const unsigned count = n - base < (unsigned)TILE ? n - base : (unsigned)TILE;
  const unsigned shift = (unsigned)pass * BITS;
  unsigned ek[ITEMS];
  if (count == (unsigned)TILE) {
#pragma unroll
    for (int i = 0; i < ITEMS; i++) ek[i] = kin[base + (w * ITEMS + i) * 32 + lane];
  } else {
#pragma unroll
    for (int i = 0; i < ITEMS; i++) {
      const unsigned local = (w * ITEMS + i) * 32 + lane;
      ek[i] = local < count ? kin[base + local] : ~0u; /* pads: the top digit, ranked last */
    }
  }
  /* each warp counts its digits in its own row */
  unsigned *wh = s.whist + w * H;
  for (unsigned j = lane; j < (unsigned)H; j += 32) wh[j] = 0;
  __syncwarp();
#pragma unroll
  for (int i = 0; i < ITEMS; i++) {
    const unsigned d = (ek[i] >> shift) & (R - 1);
    atomicAdd(&wh[d >> 1], 1u << ((d & 1) * 16));
  }
  __syncthreads();
  /* rows -> each warp's exclusive prefix; the tile's counts, published at once */
  for (unsigned q = tid; q < (unsigned)H; q += THREADS) {
    unsigned run = 0;
#pragma unroll
    for (int ww = 0; ww < W; ww++) {
      const unsigned t = s.whist[ww * H + q];
      s.whist[ww * H + q] = run;
      run += t;
    }
    const unsigned c0 = run & 0xFFFFu, c1 = run >> 16;
    s.cnt[2 * q] = c0;
    s.cnt[2 * q + 1] = c1;
    const unsigned f = tile == 0 ? XD_FLAG_PREFIX : XD_FLAG_AGG;
    xd_st2(&status[(u64)tile * R + 2 * q], xd_word(f, pass, c0), xd_word(f, pass, c1));
  }
  __syncthreads();
  /* exclusive scan of the counts: eight digits a thread */
  {
    unsigned c8[8], sum = 0;
    if (tid < (unsigned)NCH) {
#pragma unroll
      for (int j = 0; j < 8; j++) {
        c8[j] = s.cnt[tid * 8 + j];
        sum += c8[j];
      }
    }
    unsigned incl = sum;
    for (int o = 1; o < 32; o <<= 1) {
      const unsigned y = __shfl_up_sync(0xFFFFFFFFu, incl, o);
      if ((int)lane >= o) incl += y;
    }
    if (lane == 31) s.wsum[w] = incl;
    __syncthreads();
    if (tid < (unsigned)NCH) {
      unsigned run = incl - sum;
      for (unsigned ww = 0; ww < w; ww++) run += s.wsum[ww];
#pragma unroll
      for (int j = 0; j < 8; j++) {
        s.dstart[tid * 8 + j] = run;
        run += c8[j];
      }
    }
  }
  __syncthreads();
  for (unsigned q = tid; q < (unsigned)H; q += THREADS) {
    const unsigned st = s.dstart[2 * q] | (s.dstart[2 * q + 1] << 16);
#pragma unroll
    for (int ww = 0; ww < W; ww++) s.whist[ww * H + q] += st;
  }
  __syncthreads();
  /* each key's tile place: equal digits in position order */
  const unsigned lt = (1u << lane) - 1;
#pragma unroll
  for (int i = 0; i < ITEMS; i++) {
    const unsigned d = (ek[i] >> shift) & (R - 1);
    const unsigned peers = xd_match<BITS>(d);
    const int leader = 31 - __clz(peers);
    const unsigned half = (d & 1) * 16;
    unsigned b = 0;
    if ((int)lane == leader) b = atomicAdd(&wh[d >> 1], (unsigned)__popc(peers) << half);
    b = (__shfl_sync(0xFFFFFFFFu, b, leader) >> half) & 0xFFFFu;
    s.k[b + __popc(peers & lt)] = ek[i];
    __syncwarp();
  }
  /* decoupled look-back, four digits a thread (one 16-byte load a tile) */
  for (unsigned g = tid; g < (unsigned)(R / 4); g += THREADS) {
    const unsigned c[4] = {s.cnt[4 * g], s.cnt[4 * g + 1], s.cnt[4 * g + 2], s.cnt[4 * g + 3]};
    unsigned ex[4] = {0, 0, 0, 0};
    if (tile > 0) {
      unsigned done = 0, j = tile - 1;
      for (;;) {
        const uint4 v = xd_ld4(&status[(u64)j * R + 4 * g]);
        const unsigned wv[4] = {v.x, v.y, v.z, v.w};
        bool ready = true;
#pragma unroll
        for (int e = 0; e < 4; e++)
          if (!((done >> e) & 1) && ((wv[e] >> 30) == 0 || ((wv[e] >> 28) & 3) != (unsigned)(pass & 3)))
            ready = false;
        if (!ready) continue; /* that tile has not published yet */
#pragma unroll
        for (int e = 0; e < 4; e++)
          if (!((done >> e) & 1)) {
            ex[e] += wv[e] & XD_VAL;
            if ((wv[e] >> 30) == XD_FLAG_PREFIX) done |= 1u << e;
          }
        if (done == 15) break;
        j--;
      }
      xd_st4(&status[(u64)tile * R + 4 * g],
             make_uint4(xd_word(XD_FLAG_PREFIX, pass, ex[0] + c[0]), xd_word(XD_FLAG_PREFIX, pass, ex[1] + c[1]),
                        xd_word(XD_FLAG_PREFIX, pass, ex[2] + c[2]), xd_word(XD_FLAG_PREFIX, pass, ex[3] + c[3])));
    }
#pragma unroll
    for (int e = 0; e < 4; e++) {
      const unsigned d = 4 * g + e;
      const u64 idx = (u64)gbase[pass * R + d] + (ex[e] & XD_VAL) - s.dstart[d]; /* mod 2^64 */
      s.goff[d] = (u64)(uintptr_t)kout + idx * sizeof(unsigned);
    }
  }
  __syncthreads();
  /* each digit's run written by consecutive threads */
  if (count == (unsigned)TILE) {
#pragma unroll
    for (int i = 0; i < ITEMS; i++) {
      const unsigned j = tid + i * THREADS, e = s.k[j];
      ((unsigned *)(uintptr_t)s.goff[(e >> shift) & (R - 1)])[j] = e;
    }
  } else {
    for (unsigned j = tid; j < count; j += THREADS) {
      const unsigned e = s.k[j];
      ((unsigned *)(uintptr_t)s.goff[(e >> shift) & (R - 1)])[j] = e;
    }
  }
}

__global__ void xd_fill(unsigned *k, unsigned n, unsigned seed) {
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    unsigned x = i * 0x9E3779B9u + seed; /* a murmur3 finalizer of the index */
    x ^= x >> 16;
    x *= 0x85EBCA6Bu;
    x ^= x >> 13;
    x *= 0xC2B2AE35u;
    x ^= x >> 16;
    k[i] = x;
  }
}

/* ---- host ------------------------------------------------------------------------------ */
#define XD_MAXSTAGE 6 /* prep, up to 4 passes, total */

typedef struct xd_shape {
  const char *name;
  int bits, threads, items;
  size_t smem;
  /* enqueues one sort of n keys in -> out (tmp: the other buffer), recording ev[0] before
     the prep, ev[1] after it and ev[2 + p] after pass p */
  cudaError_t (*run)(const struct xd_shape *sh, const unsigned *in, unsigned *out, unsigned *tmp,
                     unsigned n, void *scratch, cudaStream_t st, cudaEvent_t *ev);
  cudaError_t (*prepare)(const struct xd_shape *sh);
} xd_shape;

/* scratch: [hist NP*R][gbase NP*R][tickets 4][status tiles*R], all zeroed but gbase */
template <int BITS, int THREADS, int ITEMS> static size_t xd_scratch_bytes(unsigned n) {
  constexpr int R = 1 << BITS, NP = xd_npass<BITS>();
  const size_t tiles = (n + THREADS * ITEMS - 1) / (THREADS * ITEMS);
  return (2 * (size_t)NP * R + 4 + tiles * R) * sizeof(unsigned);
}

template <int BITS, int THREADS, int ITEMS, int MINB> static cudaError_t xd_prepare(const xd_shape *sh) {
  return cudaFuncSetAttribute(xd_onesweep<BITS, THREADS, ITEMS, MINB>,
                              cudaFuncAttributeMaxDynamicSharedMemorySize, (int)sh->smem);
}

template <int BITS, int THREADS, int ITEMS, int MINB>
static cudaError_t xd_run(const xd_shape *sh, const unsigned *in, unsigned *out, unsigned *tmp, unsigned n,
                          void *scratch, cudaStream_t st, cudaEvent_t *ev) {
  constexpr int R = 1 << BITS, NP = xd_npass<BITS>(), TILE = THREADS * ITEMS;
  unsigned *hist = (unsigned *)scratch, *gbase = hist + NP * R, *tickets = gbase + NP * R;
  unsigned *status = tickets + 4;
  const unsigned tiles = (n + TILE - 1) / TILE;
  int sms = 0, dev = 0;
  cudaGetDevice(&dev);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
  cudaEventRecord(ev[0], st);
  cudaMemsetAsync(hist, 0, (size_t)NP * R * sizeof(unsigned), st);
  cudaMemsetAsync(tickets, 0, (4 + (size_t)tiles * R) * sizeof(unsigned), st);
  xd_hist<BITS><<<sms * 4, 512, 0, st>>>(in, n, hist);
  xd_scan<BITS><<<NP, 1024, 0, st>>>(hist, gbase);
  cudaEventRecord(ev[1], st);
  /* out of place: the last pass writes `out` */
  const unsigned *src = in;
  for (int p = 0; p < NP; p++) {
    unsigned *dst = ((NP - 1 - p) & 1) ? tmp : out;
    xd_onesweep<BITS, THREADS, ITEMS, MINB><<<tiles, THREADS, sh->smem, st>>>(src, dst, n, p, gbase, status, tickets);
    cudaEventRecord(ev[2 + p], st);
    src = dst;
  }
  return cudaGetLastError();
}

#define XD_SHAPE(B, T, I, M)                                                                      \
  {"x" #B "/" #T "x" #I "/" #M, B, T, I, sizeof(xd_smem<B, T, I>), xd_run<B, T, I, M>, xd_prepare<B, T, I, M>}

static xd_shape xd_shapes[] = {
    XD_SHAPE(8, 384, 28, 3), /* the library's shape for u32 keys (spills here at 56 registers) */
    XD_SHAPE(8, 384, 28, 2), /* ... at 80 registers, two blocks an SM */
    XD_SHAPE(11, 256, 24, 2), XD_SHAPE(11, 256, 32, 2), XD_SHAPE(11, 256, 40, 2),
    XD_SHAPE(11, 384, 20, 2), XD_SHAPE(11, 512, 16, 1),
};
#define XD_NSHAPES ((int)(sizeof(xd_shapes) / sizeof(xd_shapes[0])))

static size_t xd_scratch_for(const xd_shape *s, unsigned n) {
  const int R = 1 << s->bits, NP = (32 + s->bits - 1) / s->bits, tile = s->threads * s->items;
  return (2 * (size_t)NP * R + 4 + ((size_t)n + tile - 1) / tile * R) * sizeof(unsigned);
}

static int cmp_f(const void *a, const void *b) {
  const float x = *(const float *)a, y = *(const float *)b;
  return (x > y) - (x < y);
}
static float median(float *v, int m) {
  qsort(v, (size_t)m, sizeof(float), cmp_f);
  return m % 2 ? v[m / 2] : 0.5f * (v[m / 2 - 1] + v[m / 2]);
}

#define CK(call)                                                                   \
  do {                                                                             \
    cudaError_t e_ = (call);                                                       \
    if (e_ != cudaSuccess) {                                                       \
      fprintf(stderr, "radix_digits_bench: %s: %s\n", #call, cudaGetErrorString(e_)); \
      return 1;                                                                    \
    }                                                                              \
  } while (0)

static void usage(FILE *f) {
  fprintf(f,
          "usage: radix_digits_bench [--log2 A,B,...] [--rounds R]\n"
          "  Sorts random u32 keys with one one-sweep radix sort at 8- and 11-bit digits,\n"
          "  the library's GP_SORT_RADIX and cub::DeviceRadixSort::SortKeys; prints the\n"
          "  median time of each stage (ms, CUDA events, L2 flushed). n = 2^A, A <= %d.\n"
          "  defaults: --log2 20,24,26,28 --rounds 15\n",
          XD_MAX_LOG2);
}

int main(int argc, char **argv) {
  int logs[16], nlog = 0, rounds = 15;
  const char *list = "20,24,26,28";
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      usage(stdout);
      return 0;
    } else if (!strcmp(argv[i], "--log2") && i + 1 < argc) {
      list = argv[++i];
    } else if (!strcmp(argv[i], "--rounds") && i + 1 < argc) {
      rounds = atoi(argv[++i]);
    } else {
      usage(stderr);
      return 2;
    }
  }
  for (const char *p = list; *p && nlog < 16;) {
    char *end;
    const long v = strtol(p, &end, 10);
    if (end == p || v < 10 || v > XD_MAX_LOG2) {
      fprintf(stderr, "radix_digits_bench: --log2 takes integers from 10 to %d, got '%s'\n", XD_MAX_LOG2, list);
      return 2;
    }
    logs[nlog++] = (int)v;
    p = *end == ',' ? end + 1 : end;
  }
  if (rounds < 1 || rounds > 1000) {
    fprintf(stderr, "radix_digits_bench: --rounds takes 1..1000\n");
    return 2;
  }
  int dev_count = 0;
  if (cudaGetDeviceCount(&dev_count) != cudaSuccess || dev_count == 0) {
    fprintf(stderr, "radix_digits_bench: no CUDA GPU\n");
    return 77;
  }
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, 0));
  printf("GPU: %s, %d SMs, L2 %d bytes; rounds %d; median ms\n", prop.name, prop.multiProcessorCount,
         prop.l2CacheSize, rounds);
  for (int s = 0; s < XD_NSHAPES; s++) {
    const cudaError_t e = xd_shapes[s].prepare(&xd_shapes[s]);
    if (e != cudaSuccess) {
      printf("%s: needs %zu bytes of shared memory a block, not here: %s (skipped)\n", xd_shapes[s].name,
             xd_shapes[s].smem, cudaGetErrorString(e));
      xd_shapes[s].run = NULL;
      (void)cudaGetLastError();
    }
  }
  size_t nmax = 0, scratch_max = 0;
  for (int i = 0; i < nlog; i++) {
    const size_t n = (size_t)1 << logs[i];
    if (n > nmax) nmax = n;
    for (int s = 0; s < XD_NSHAPES; s++) {
      const size_t b = xd_scratch_for(&xd_shapes[s], (unsigned)n);
      if (b > scratch_max) scratch_max = b;
    }
  }
  unsigned *d_in, *d_out, *d_tmp, *d_ref, *d_work, *h_ref, *h_out;
  void *d_scratch, *d_flush;
  const size_t flush_bytes = 2 * (size_t)prop.l2CacheSize;
  CK(cudaMalloc((void **)&d_in, nmax * 4));
  CK(cudaMalloc((void **)&d_out, nmax * 4));
  CK(cudaMalloc((void **)&d_tmp, nmax * 4));
  CK(cudaMalloc((void **)&d_ref, nmax * 4));
  CK(cudaMalloc((void **)&d_work, nmax * 4));
  CK(cudaMalloc(&d_scratch, scratch_max));
  CK(cudaMalloc(&d_flush, flush_bytes));
  h_ref = (unsigned *)malloc(nmax * 4);
  h_out = (unsigned *)malloc(nmax * 4);
  if (!h_ref || !h_out) {
    fprintf(stderr, "radix_digits_bench: cannot allocate %zu bytes of host memory\n", 2 * nmax * 4);
    return 1;
  }
  cudaStream_t st;
  CK(cudaStreamCreate(&st));
  cudaEvent_t ev[XD_MAXSTAGE + 1];
  for (int i = 0; i <= XD_MAXSTAGE; i++) CK(cudaEventCreate(&ev[i]));
  gp_context *ctx = NULL;
  if (gp_create(&ctx, GP_BACKEND_CUDA) != GP_OK || gp_set_stream(ctx, st) != GP_OK) {
    fprintf(stderr, "radix_digits_bench: gp_create: %s\n", ctx ? gp_last_error(ctx) : "out of memory");
    return 1;
  }
  float *samp = (float *)malloc(sizeof(float) * (size_t)rounds * (XD_MAXSTAGE + 1));
  int bad = 0;
  for (int li = 0; li < nlog; li++) {
    const unsigned n = 1u << logs[li];
    xd_fill<<<prop.multiProcessorCount * 8, 256, 0, st>>>(d_in, n, 12345u + (unsigned)li);
    gpb_cub_sort *cub = NULL;
    if (gpb_cub_sort_create(&cub, GP_U32, d_in, d_ref, n, 0, 0) != 0) {
      fprintf(stderr, "radix_digits_bench: CUB setup failed\n");
      return 1;
    }
    CK((cudaError_t)gpb_cub_sort_run(cub, st));
    CK(cudaStreamSynchronize(st));
    CK(cudaMemcpy(h_ref, d_ref, (size_t)n * 4, cudaMemcpyDeviceToHost));
    printf("n = 2^%d\n", logs[li]);
    /* CUB */
    for (int r = 0; r < rounds; r++) {
      CK(cudaMemsetAsync(d_flush, r & 0xFF, flush_bytes, st));
      cudaEventRecord(ev[0], st);
      gpb_cub_sort_run(cub, st);
      cudaEventRecord(ev[1], st);
      CK(cudaEventSynchronize(ev[1]));
      cudaEventElapsedTime(&samp[r], ev[0], ev[1]);
    }
    const float t_cub = median(samp, rounds);
    printf("  cub SortKeys            total %8.4f\n", t_cub);
    gpb_cub_sort_destroy(cub);
    /* the library, in place */
    for (int r = 0; r <= rounds; r++) {
      CK(cudaMemcpyAsync(d_work, d_in, (size_t)n * 4, cudaMemcpyDeviceToDevice, st));
      CK(cudaMemsetAsync(d_flush, r & 0xFF, flush_bytes, st));
      cudaEventRecord(ev[0], st);
      if (gp_sort(ctx, GP_U32, d_work, n, GP_ASCENDING, GP_SORT_RADIX) != GP_OK) {
        fprintf(stderr, "radix_digits_bench: gp_sort: %s\n", gp_last_error(ctx));
        return 1;
      }
      cudaEventRecord(ev[1], st);
      CK(cudaEventSynchronize(ev[1]));
      if (r == 0) { /* the first run is checked, not timed */
        CK(cudaMemcpy(h_out, d_work, (size_t)n * 4, cudaMemcpyDeviceToHost));
        if (memcmp(h_out, h_ref, (size_t)n * 4)) {
          printf("  gpuprims radix: WRONG (differs from CUB)\n");
          bad = 1;
        }
        continue;
      }
      cudaEventElapsedTime(&samp[r - 1], ev[0], ev[1]);
    }
    const float t_lib = median(samp, rounds);
    printf("  gpuprims GP_SORT_RADIX  total %8.4f  (CUB / this %.3fx)\n", t_lib, t_cub / t_lib);
    for (int s = 0; s < XD_NSHAPES; s++) {
      const xd_shape *sh = &xd_shapes[s];
      if (!sh->run) continue;
      const int np = (32 + sh->bits - 1) / sh->bits;
      float *stage = samp; /* [stage][round] */
      for (int r = 0; r <= rounds; r++) {
        CK(cudaMemsetAsync(d_out, 0, (size_t)n * 4, st));
        CK(cudaMemsetAsync(d_flush, r & 0xFF, flush_bytes, st));
        CK(sh->run(sh, d_in, d_out, d_tmp, n, d_scratch, st, ev));
        CK(cudaEventSynchronize(ev[1 + np]));
        if (r == 0) {
          CK(cudaMemcpy(h_out, d_out, (size_t)n * 4, cudaMemcpyDeviceToHost));
          if (memcmp(h_out, h_ref, (size_t)n * 4)) {
            printf("  %s: WRONG (differs from CUB)\n", sh->name);
            bad = 1;
          }
          continue;
        }
        for (int k = 0; k <= np; k++) cudaEventElapsedTime(&stage[k * rounds + r - 1], ev[k], ev[k + 1]);
        cudaEventElapsedTime(&stage[(np + 1) * rounds + r - 1], ev[0], ev[1 + np]);
      }
      printf("  %-13s %d passes  total %8.4f  (CUB / this %.3fx)  prep %7.4f  passes", sh->name, np,
             median(stage + (np + 1) * rounds, rounds), t_cub / median(stage + (np + 1) * rounds, rounds),
             median(stage, rounds));
      for (int k = 1; k <= np; k++) printf(" %7.4f", median(stage + k * rounds, rounds));
      printf("\n");
    }
    fflush(stdout);
  }
  gp_destroy(ctx);
  free(samp);
  free(h_ref);
  free(h_out);
  cudaFree(d_in);
  cudaFree(d_out);
  cudaFree(d_tmp);
  cudaFree(d_ref);
  cudaFree(d_work);
  cudaFree(d_scratch);
  cudaFree(d_flush);
  return bad;
}
