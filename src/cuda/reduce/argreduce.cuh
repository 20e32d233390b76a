/* What gp_argreduce (argreduce.cu) and the per-segment arg-reductions
 * (argreduce_segments.cu) share on CUDA: an element's key (core/argreduce.h), the
 * canonical value, the (key, index) pair and its lexicographic take, and a thread's batch
 * scan. */
#ifndef GP_CUDA_ARGREDUCE_CUH
#define GP_CUDA_ARGREDUCE_CUH

#include "core/argreduce.h"

#include <stdint.h>

typedef unsigned long long gp_arg_u64;

template <typename T> __device__ __forceinline__ gp_arg_u64 gp_arg_key(T x, int mx);
template <> __device__ __forceinline__ gp_arg_u64 gp_arg_key(float x, int mx) { return gp_arg_key_f32(__float_as_uint(x), mx); }
template <> __device__ __forceinline__ gp_arg_u64 gp_arg_key(double x, int mx) { return gp_arg_key_f64((uint64_t)__double_as_longlong(x), mx); }
template <> __device__ __forceinline__ gp_arg_u64 gp_arg_key(int x, int mx) { return gp_arg_key_i32(x, mx); }
template <> __device__ __forceinline__ gp_arg_u64 gp_arg_key(long long x, int mx) { return gp_arg_key_i64(x, mx); }
template <> __device__ __forceinline__ gp_arg_u64 gp_arg_key(unsigned x, int mx) { return gp_arg_key_u32(x, mx); }
template <> __device__ __forceinline__ gp_arg_u64 gp_arg_key(unsigned long long x, int mx) { return gp_arg_key_u64(x, mx); }

__device__ __forceinline__ float gp_arg_canon(float x) { return gp_rt_canon_f32(x); }
__device__ __forceinline__ double gp_arg_canon(double x) { return gp_rt_canon_f64(x); }
template <typename T> __device__ __forceinline__ T gp_arg_canon(T x) { return x; }

struct gp_arg_pair {
  gp_arg_u64 k, i;
};

__device__ __forceinline__ void gp_arg_take(gp_arg_u64 &bk, gp_arg_u64 &bi, gp_arg_u64 k, gp_arg_u64 i) {
  if (gp_arg_better(k, i, bk, bi)) { bk = k; bi = i; }
}

/* A thread's keys are as wide as its elements: the scan compares 32-bit keys for 4-byte types. */
template <int SIZE> struct gp_arg_kt { typedef unsigned type; };
template <> struct gp_arg_kt<8> { typedef gp_arg_u64 type; };

#define GP_ARG_NONE (~0ull) /* no index yet */

/* A thread sees its indices in increasing order, so a strictly smaller key is the only
 * thing that can replace its best (the first occurrence stays). A batch of m keys is
 * first reduced to its minimum; only when that beats the best (rare once a thread has
 * seen a few batches) is the batch searched for the minimum's first position. */
template <typename KT, unsigned M>
__device__ __forceinline__ void gp_arg_batch(KT &tk, gp_arg_u64 &bi, const KT (&k)[M],
                                             const gp_arg_u64 (&ix)[M]) {
  KT m = k[0];
#pragma unroll
  for (unsigned j = 1; j < M; j++) m = k[j] < m ? k[j] : m;
  if (m < tk || bi == GP_ARG_NONE) {
    gp_arg_u64 at = ix[M - 1];
#pragma unroll
    for (int j = (int)M - 2; j >= 0; j--) at = k[j] == m ? ix[j] : at;
    tk = m;
    bi = at;
  }
}

#endif
