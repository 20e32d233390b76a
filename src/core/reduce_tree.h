/* The one definition of every reduction tree and of the MIN/MAX/SUM semantics, shared
 * by the CUDA kernels (src/cuda/reduce/) and the CPU backend (src/cpu/reduce*.c) so the
 * two cannot drift: block sizes, the AUTO tile/lane mapping, grid-size rules, and the
 * float MIN/MAX rules (NaN -> canonical quiet NaN, -0 orders below +0). Plain C11 that
 * nvcc also compiles (functions are __host__ __device__ there). */
#ifndef GP_CORE_REDUCE_TREE_H
#define GP_CORE_REDUCE_TREE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "core/key_codec.h"

#ifdef __CUDACC__
#define GP_RT_FN static inline __host__ __device__
#else
#define GP_RT_FN static inline
#endif

/* ---- seed 000 (4.1, 4.2, 4.3) --------------------------------------------------
 * INTERLEAVED and SEQUENTIAL: one 256-element tile per block -> one partial per
 * block; relaunched on the partials until one value remains.
 * TWO_PHASE: phase 1 = `blocks` blocks of 256 threads, grid-stride then the
 * sequential tree; phase 2 = one block of 256 that grid-strides over the partials. */
#define GP_SEED_BLOCK 256u
#define GP_TWO_PHASE_DEFAULT_BLOCKS 64u

/* ---- seed 003 (6.24, Program 6.15) ------------------------------------------------
 * WARP_ATOMIC: 1024-thread blocks, grid = min(ceil(n / 1024), GP_WA_MAX_BLOCKS);
 * each thread grid-strides (i = gtid, gtid + grid*1024, ...), then the warp
 * shuffle-down tree, per-warp sums in warp_sum_arr[32], warp 0 reduces those, and
 * thread 0 does one atomic per block. The grid depends on n alone, so the per-block
 * values are the same on both backends; only the atomic order varies. */
#define GP_WA_BLOCK 1024u
#define GP_WA_MAX_BLOCKS 1024u

GP_RT_FN size_t gp_rt_div_up(size_t a, size_t b) { return a / b + (a % b != 0); }

GP_RT_FN unsigned gp_rt_wa_blocks(size_t n) {
  size_t b = gp_rt_div_up(n, GP_WA_BLOCK);
  if (b < 1) b = 1;
  return (unsigned)(b < GP_WA_MAX_BLOCKS ? b : GP_WA_MAX_BLOCKS);
}

/* ---- AUTO: the deterministic fast path ----------------------------------------------
 * The summation tree is a function of n (and the element size) alone:
 *  - A tile is GP_AUTO_THREADS x GP_AUTO_UNROLL 16-byte vectors: TE = 256*4*VEC
 *    elements (VEC = 16 / element size: 4 for 4-byte, 2 for 8-byte types).
 *    Within a tile, vector q = u*256 + t (u < UNROLL) holds elements
 *    [q*VEC, q*VEC + VEC); it belongs to thread t, and its component c goes into
 *    that thread's accumulator acc[c]. Per tile a thread adds u = 0..UNROLL-1, and
 *    within each u, c = 0..VEC-1 (acc[c] = op(acc[c], x)).
 *  - There are V = min(ceil(n / TE), GP_AUTO_MAX_VBLOCKS) virtual blocks. Virtual
 *    block v owns tiles v, v+V, v+2V, ... and processes them in increasing order
 *    (the one partial tile, if any, is the last tile and so comes last; elements
 *    past n are skipped). Its 256 threads keep their accumulators across tiles.
 *  - At the end of a virtual block each thread folds acc[] by halving
 *    (acc[j] = op(acc[j], acc[j + h]) for h = VEC/2, ..., 1), then the block reduces
 *    its 256 values: each warp's shuffle-down tree (offsets 16, 8, 4, 2, 1: lane l
 *    gets op(v[l], v[l + o])), lane 0 of each warp writes warp_sums[w], and warp 0
 *    runs the same tree over warp_sums[0..7] padded with the identity. The result is
 *    partial[v].
 *  - Final combine (one block of 256): thread t folds partial[t], partial[t+256], ...
 *    in order starting from the identity, then the same block reduction.
 * A physical grid of any size G <= V runs virtual blocks b, b+G, ...: G decides only
 * who does which virtual block, never the order of operations.
 * This tree serves integer SUM and MIN/MAX; F32/F64 SUM take the correctly rounded
 * path of core/exact_sum.h instead, whose bits do not depend on any tree. */
#define GP_AUTO_THREADS 256u
#define GP_AUTO_UNROLL 4u
#define GP_AUTO_VEC_BYTES 16u
#define GP_AUTO_MAX_VBLOCKS 1056u /* 132 SMs x 8: even waves on an H200 */
#define GP_AUTO_FINAL_THREADS 256u

GP_RT_FN unsigned gp_rt_auto_vec(size_t elem_size) { return (unsigned)(GP_AUTO_VEC_BYTES / elem_size); }
GP_RT_FN size_t gp_rt_auto_tile(size_t elem_size) {
  return (size_t)GP_AUTO_THREADS * GP_AUTO_UNROLL * gp_rt_auto_vec(elem_size);
}
GP_RT_FN unsigned gp_rt_auto_vblocks(size_t n, size_t elem_size) {
  size_t t = gp_rt_div_up(n, gp_rt_auto_tile(elem_size));
  if (t < 1) t = 1;
  return (unsigned)(t < GP_AUTO_MAX_VBLOCKS ? t : GP_AUTO_MAX_VBLOCKS);
}

/* ---- scalar semantics ------------------------------------------------------------ */
#define GP_RT_F32_QNAN 0x7fc00000u
#define GP_RT_F64_QNAN 0x7ff8000000000000ull

GP_RT_FN uint32_t gp_rt_f32_bits(float x) {
#ifdef __CUDA_ARCH__
  return __float_as_uint(x);
#else
  uint32_t u; memcpy(&u, &x, 4); return u;
#endif
}
GP_RT_FN float gp_rt_f32_from(uint32_t u) {
#ifdef __CUDA_ARCH__
  return __uint_as_float(u);
#else
  float x; memcpy(&x, &u, 4); return x;
#endif
}
GP_RT_FN uint64_t gp_rt_f64_bits(double x) {
#ifdef __CUDA_ARCH__
  return (uint64_t)__double_as_longlong(x);
#else
  uint64_t u; memcpy(&u, &x, 8); return u;
#endif
}
GP_RT_FN double gp_rt_f64_from(uint64_t u) {
#ifdef __CUDA_ARCH__
  return __longlong_as_double((long long)u);
#else
  double x; memcpy(&x, &u, 8); return x;
#endif
}
GP_RT_FN int gp_rt_f32_isnan(uint32_t u) { return (u & 0x7fffffffu) > 0x7f800000u; }
GP_RT_FN int gp_rt_f64_isnan(uint64_t u) { return (u & 0x7fffffffffffffffull) > 0x7ff0000000000000ull; }

/* MIN/MAX of floats: any NaN gives the canonical quiet NaN; otherwise the total order
 * above, so min(-0, +0) = -0 and max(-0, +0) = +0 whatever the argument order.
 * Commutative and associative bit for bit, so every tree gives the same bits. */
GP_RT_FN float gp_rt_min_f32(float a, float b) {
  uint32_t ua = gp_rt_f32_bits(a), ub = gp_rt_f32_bits(b);
  if (gp_rt_f32_isnan(ua) || gp_rt_f32_isnan(ub)) return gp_rt_f32_from(GP_RT_F32_QNAN);
  return gp_key_f32(ua) <= gp_key_f32(ub) ? a : b;
}
GP_RT_FN float gp_rt_max_f32(float a, float b) {
  uint32_t ua = gp_rt_f32_bits(a), ub = gp_rt_f32_bits(b);
  if (gp_rt_f32_isnan(ua) || gp_rt_f32_isnan(ub)) return gp_rt_f32_from(GP_RT_F32_QNAN);
  return gp_key_f32(ua) >= gp_key_f32(ub) ? a : b;
}
GP_RT_FN double gp_rt_min_f64(double a, double b) {
  uint64_t ua = gp_rt_f64_bits(a), ub = gp_rt_f64_bits(b);
  if (gp_rt_f64_isnan(ua) || gp_rt_f64_isnan(ub)) return gp_rt_f64_from(GP_RT_F64_QNAN);
  return gp_key_f64(ua) <= gp_key_f64(ub) ? a : b;
}
GP_RT_FN double gp_rt_max_f64(double a, double b) {
  uint64_t ua = gp_rt_f64_bits(a), ub = gp_rt_f64_bits(b);
  if (gp_rt_f64_isnan(ua) || gp_rt_f64_isnan(ub)) return gp_rt_f64_from(GP_RT_F64_QNAN);
  return gp_key_f64(ua) >= gp_key_f64(ub) ? a : b;
}
/* MIN/MAX keys, for the GPU's hot loops: float bits -> unsigned integers whose plain
 * unsigned min (max) is exactly the MIN (MAX) above, NaN included. gp_key_f32/f64 (core/key_codec.h) puts
 * the non-NaN floats in order between key(-inf) and key(+inf) and the NaNs at both
 * ends; adding (MIN) or subtracting (MAX) OFF rotates the range (mod 2^bits) so that
 * every NaN lands below key(-inf) (MIN) or above key(+inf) (MAX) while the non-NaN
 * order is kept (key(-inf) - OFF = 0 and key(+inf) + OFF = all ones: no wrap).
 * So a reduction over keys needs one integer min/max per element and no NaN branch;
 * the identity is all ones (MIN) or 0 (MAX), i.e. +inf / -inf, and the decoded
 * result is a canonical NaN iff any element was a NaN. */
#define GP_RT_F32_KEY_OFF 0x007fffffu
#define GP_RT_F64_KEY_OFF 0x000fffffffffffffull
GP_RT_FN uint32_t gp_rt_f32_minkey(uint32_t u) { return gp_key_f32(u) + GP_RT_F32_KEY_OFF; }
GP_RT_FN uint32_t gp_rt_f32_maxkey(uint32_t u) { return gp_key_f32(u) - GP_RT_F32_KEY_OFF; }
GP_RT_FN uint64_t gp_rt_f64_minkey(uint64_t u) { return gp_key_f64(u) + GP_RT_F64_KEY_OFF; }
GP_RT_FN uint64_t gp_rt_f64_maxkey(uint64_t u) { return gp_key_f64(u) - GP_RT_F64_KEY_OFF; }
GP_RT_FN float gp_rt_f32_from_minkey(uint32_t k) {
  return k < gp_rt_f32_minkey(0xff800000u) ? gp_rt_f32_from(GP_RT_F32_QNAN)
                                           : gp_rt_f32_from(gp_unkey_f32(k - GP_RT_F32_KEY_OFF));
}
GP_RT_FN float gp_rt_f32_from_maxkey(uint32_t k) {
  return k > gp_rt_f32_maxkey(0x7f800000u) ? gp_rt_f32_from(GP_RT_F32_QNAN)
                                           : gp_rt_f32_from(gp_unkey_f32(k + GP_RT_F32_KEY_OFF));
}
GP_RT_FN double gp_rt_f64_from_minkey(uint64_t k) {
  return k < gp_rt_f64_minkey(0xfff0000000000000ull)
             ? gp_rt_f64_from(GP_RT_F64_QNAN)
             : gp_rt_f64_from(gp_unkey_f64(k - GP_RT_F64_KEY_OFF));
}
GP_RT_FN double gp_rt_f64_from_maxkey(uint64_t k) {
  return k > gp_rt_f64_maxkey(0x7ff0000000000000ull)
             ? gp_rt_f64_from(GP_RT_F64_QNAN)
             : gp_rt_f64_from(gp_unkey_f64(k + GP_RT_F64_KEY_OFF));
}

/* A float result leaves the library with NaN canonical (the GPU and the CPU produce
 * different NaN payloads for inf - inf, so SUM results are canonicalized too). */
GP_RT_FN float gp_rt_canon_f32(float x) {
  return gp_rt_f32_isnan(gp_rt_f32_bits(x)) ? gp_rt_f32_from(GP_RT_F32_QNAN) : x;
}
GP_RT_FN double gp_rt_canon_f64(double x) {
  return gp_rt_f64_isnan(gp_rt_f64_bits(x)) ? gp_rt_f64_from(GP_RT_F64_QNAN) : x;
}
/* The additive identity of floats is -0 (x + -0 == x for every x, +0 included), so
 * padding with it never changes a bit; SUM of n = 0 still returns +0. */
#define GP_RT_F32_SUM_ID (-0.0f)
#define GP_RT_F64_SUM_ID (-0.0)

#endif
