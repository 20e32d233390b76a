/* Device-side reduction operators for every (dtype, op): functors for SUM/MIN/MAX with
 * the float rules of src/core/reduce_tree.h, identities, the final conversion to the
 * output type, one-atomic-per-block helpers (native where CUDA has them, atomicCAS
 * loops for float MIN/MAX), and the (op, dtype) -> template dispatch. */
#ifndef GP_CUDA_COMMON_REDUCE_OPS_CUH
#define GP_CUDA_COMMON_REDUCE_OPS_CUH

#include "core/reduce_tree.h"
#include "cuda/common/warp_reduce.cuh"

#include <cuda_runtime.h>

typedef unsigned long long gp_u64;
typedef long long gp_i64;

struct gp_rop_sum {
  template <typename T> __device__ __forceinline__ T operator()(T a, T b) const { return a + b; }
};
struct gp_rop_min {
  __device__ __forceinline__ float operator()(float a, float b) const { return gp_rt_min_f32(a, b); }
  __device__ __forceinline__ double operator()(double a, double b) const { return gp_rt_min_f64(a, b); }
  template <typename T> __device__ __forceinline__ T operator()(T a, T b) const { return b < a ? b : a; }
};
struct gp_rop_max {
  __device__ __forceinline__ float operator()(float a, float b) const { return gp_rt_max_f32(a, b); }
  __device__ __forceinline__ double operator()(double a, double b) const { return gp_rt_max_f64(a, b); }
  template <typename T> __device__ __forceinline__ T operator()(T a, T b) const { return b > a ? b : a; }
};

/* identity of op over accumulator type A */
template <typename Op, typename A> struct gp_rident;
template <> struct gp_rident<gp_rop_sum, float> { static __device__ __forceinline__ float v() { return GP_RT_F32_SUM_ID; } };
template <> struct gp_rident<gp_rop_sum, double> { static __device__ __forceinline__ double v() { return GP_RT_F64_SUM_ID; } };
template <> struct gp_rident<gp_rop_sum, gp_u64> { static __device__ __forceinline__ gp_u64 v() { return 0ull; } };
template <> struct gp_rident<gp_rop_min, float> { static __device__ __forceinline__ float v() { return __uint_as_float(0x7f800000u); } };
template <> struct gp_rident<gp_rop_max, float> { static __device__ __forceinline__ float v() { return __uint_as_float(0xff800000u); } };
template <> struct gp_rident<gp_rop_min, double> { static __device__ __forceinline__ double v() { return __longlong_as_double(0x7ff0000000000000ll); } };
template <> struct gp_rident<gp_rop_max, double> { static __device__ __forceinline__ double v() { return __longlong_as_double((long long)0xfff0000000000000ull); } };
template <> struct gp_rident<gp_rop_min, int> { static __device__ __forceinline__ int v() { return 0x7fffffff; } };
template <> struct gp_rident<gp_rop_max, int> { static __device__ __forceinline__ int v() { return (int)0x80000000u; } };
template <> struct gp_rident<gp_rop_min, unsigned> { static __device__ __forceinline__ unsigned v() { return 0xffffffffu; } };
template <> struct gp_rident<gp_rop_max, unsigned> { static __device__ __forceinline__ unsigned v() { return 0u; } };
template <> struct gp_rident<gp_rop_min, gp_i64> { static __device__ __forceinline__ gp_i64 v() { return 0x7fffffffffffffffll; } };
template <> struct gp_rident<gp_rop_max, gp_i64> { static __device__ __forceinline__ gp_i64 v() { return (gp_i64)0x8000000000000000ull; } };
template <> struct gp_rident<gp_rop_min, gp_u64> { static __device__ __forceinline__ gp_u64 v() { return ~0ull; } };
template <> struct gp_rident<gp_rop_max, gp_u64> { static __device__ __forceinline__ gp_u64 v() { return 0ull; } };

/* the output element type: the accumulator's, except F32 accumulated in F64 */
template <typename T, typename A> struct gp_rout { typedef A type; };
template <> struct gp_rout<float, double> { typedef float type; };

/* accumulator -> output: round once, and make any NaN the canonical quiet NaN */
__device__ __forceinline__ float gp_rcanon(float x) { return gp_rt_canon_f32(x); }
__device__ __forceinline__ double gp_rcanon(double x) { return gp_rt_canon_f64(x); }
template <typename T> __device__ __forceinline__ T gp_rcanon(T x) { return x; }
template <typename Out, typename A> __device__ __forceinline__ Out gp_rfinal(A a) {
  return gp_rcanon(static_cast<Out>(a));
}

/* ---- one atomic per block into *p ---- */
__device__ __forceinline__ void gp_ratomic(gp_rop_sum, float *p, float v) { atomicAdd(p, v); }
__device__ __forceinline__ void gp_ratomic(gp_rop_sum, double *p, double v) { atomicAdd(p, v); }
/* signed 64-bit and widened 32-bit sums are unsigned adds: wrap modulo 2^64 */
__device__ __forceinline__ void gp_ratomic(gp_rop_sum, gp_u64 *p, gp_u64 v) { atomicAdd(p, v); }
template <typename T> __device__ __forceinline__ void gp_ratomic(gp_rop_min, T *p, T v) { atomicMin(p, v); }
template <typename T> __device__ __forceinline__ void gp_ratomic(gp_rop_max, T *p, T v) { atomicMax(p, v); }
/* float MIN/MAX: compare-and-swap loops with the NaN/-0 rules of gp_rt_min/max */
template <typename Op> __device__ __forceinline__ void gp_ratomic_f32(Op op, float *p, float v) {
  unsigned *u = reinterpret_cast<unsigned *>(p);
  unsigned old = *(volatile unsigned *)u;
  for (;;) {
    unsigned want = __float_as_uint(op(__uint_as_float(old), v));
    if (want == old) return;
    unsigned seen = atomicCAS(u, old, want);
    if (seen == old) return;
    old = seen;
  }
}
template <typename Op> __device__ __forceinline__ void gp_ratomic_f64(Op op, double *p, double v) {
  gp_u64 *u = reinterpret_cast<gp_u64 *>(p);
  gp_u64 old = *(volatile gp_u64 *)u;
  for (;;) {
    gp_u64 want = (gp_u64)__double_as_longlong(op(__longlong_as_double((long long)old), v));
    if (want == old) return;
    gp_u64 seen = atomicCAS(u, old, want);
    if (seen == old) return;
    old = seen;
  }
}
__device__ __forceinline__ void gp_ratomic(gp_rop_min op, float *p, float v) { gp_ratomic_f32(op, p, v); }
__device__ __forceinline__ void gp_ratomic(gp_rop_max op, float *p, float v) { gp_ratomic_f32(op, p, v); }
__device__ __forceinline__ void gp_ratomic(gp_rop_min op, double *p, double v) { gp_ratomic_f64(op, p, v); }
__device__ __forceinline__ void gp_ratomic(gp_rop_max op, double *p, double v) { gp_ratomic_f64(op, p, v); }

/* (op, dtype) -> RUN<T, A, Op>(args...): T the element type, A the accumulator
 * (integer SUM: unsigned 64-bit; F32 SUM: F32SUM_ACC). Expands to return statements. */
#define GP_REDUCE_DISPATCH(RUN, F32SUM_ACC, op, type, ...)                                    \
  switch (type) {                                                                           \
  case GP_F32:                                                                              \
    if ((op) == GP_SUM) return RUN<float, F32SUM_ACC, gp_rop_sum>(__VA_ARGS__);             \
    if ((op) == GP_MIN) return RUN<float, float, gp_rop_min>(__VA_ARGS__);                  \
    return RUN<float, float, gp_rop_max>(__VA_ARGS__);                                      \
  case GP_F64:                                                                              \
    if ((op) == GP_SUM) return RUN<double, double, gp_rop_sum>(__VA_ARGS__);                \
    if ((op) == GP_MIN) return RUN<double, double, gp_rop_min>(__VA_ARGS__);                \
    return RUN<double, double, gp_rop_max>(__VA_ARGS__);                                    \
  case GP_I32:                                                                              \
    if ((op) == GP_SUM) return RUN<int, gp_u64, gp_rop_sum>(__VA_ARGS__);                   \
    if ((op) == GP_MIN) return RUN<int, int, gp_rop_min>(__VA_ARGS__);                      \
    return RUN<int, int, gp_rop_max>(__VA_ARGS__);                                          \
  case GP_I64:                                                                              \
    if ((op) == GP_SUM) return RUN<gp_i64, gp_u64, gp_rop_sum>(__VA_ARGS__);                \
    if ((op) == GP_MIN) return RUN<gp_i64, gp_i64, gp_rop_min>(__VA_ARGS__);                \
    return RUN<gp_i64, gp_i64, gp_rop_max>(__VA_ARGS__);                                    \
  case GP_U32:                                                                              \
    if ((op) == GP_SUM) return RUN<unsigned, gp_u64, gp_rop_sum>(__VA_ARGS__);              \
    if ((op) == GP_MIN) return RUN<unsigned, unsigned, gp_rop_min>(__VA_ARGS__);            \
    return RUN<unsigned, unsigned, gp_rop_max>(__VA_ARGS__);                                \
  case GP_U64:                                                                              \
    if ((op) == GP_SUM) return RUN<gp_u64, gp_u64, gp_rop_sum>(__VA_ARGS__);                \
    if ((op) == GP_MIN) return RUN<gp_u64, gp_u64, gp_rop_min>(__VA_ARGS__);                \
    return RUN<gp_u64, gp_u64, gp_rop_max>(__VA_ARGS__);                                    \
  }

#endif
