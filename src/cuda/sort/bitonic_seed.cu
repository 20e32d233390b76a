/* GP_SORT_BITONIC_SEED: the seed's grid bitonic sort (seed 003, 6.26, Program 6.19)
 * as written: Pbitonic_start sorts each 2 * th_per_blk sublist in shared memory with
 * alternating directions, then for every butterfly size above it the host launches
 * Pbutterfly_one_stage once per stage that spans blocks (the kernel boundary is the
 * grid barrier) and Pbutterfly_finish for the stages inside a block. th_per_blk = 1024.
 * Keys are compared as order-preserving unsigned integers (encoded on the first load,
 * decoded on the last store); a non-power-of-two n is padded with the largest key in
 * scratch memory. Costs what the seed's design costs: one global read + write per
 * cross-block stage, which is what GP_SORT_BITONIC removes. */
#include "cuda/sort/sort_cuda.h"
#include "core/key_codec.h"

#include <cuda_runtime.h>
#include <stdint.h>

typedef unsigned long long u64;
#define SEED_TH_PER_BLK 1024


/* Compare_swap(list, e1, e2, dec): strict compare, so equal keys never move. */
template <typename K, typename V, bool PV>
__device__ __forceinline__ void Compare_swap(K *list, V *vals, u64 e1, u64 e2, bool dec) {
  K a = list[e1], b = list[e2];
  if (dec ? (a < b) : (a > b)) {
    list[e1] = b;
    list[e2] = a;
    if (PV) { V t = vals[e1]; vals[e1] = vals[e2]; vals[e2] = t; }
  }
}

struct sd_args { u64 n_real; gp_key_class kind;
  int desc; };

/* Each block sorts its 2 * blockDim.x sublist in shared memory; directions follow the
 * global index (elt & bf_sz), so neighbouring sublists come out in opposite orders. */
template <typename K, typename V, bool PV>
__global__ void __launch_bounds__(SEED_TH_PER_BLK)
Pbitonic_start(K *list, V *vals, sd_args a, int last) {
  __shared__ K sk[2 * SEED_TH_PER_BLK];
  __shared__ V sv[PV ? 2 * SEED_TH_PER_BLK : 1];
  const unsigned th = blockDim.x;
  const u64 base = (u64)blockIdx.x * 2 * th;
  for (unsigned i = threadIdx.x; i < 2 * th; i += th) {
    u64 g = base + i;
    K x = list[g];
    sk[i] = g < a.n_real ? gp_key_enc(x, a.kind, a.desc) : x; /* padding is already max */
    if (PV) sv[i] = vals[g];
  }
  __syncthreads();
  for (unsigned bf_sz = 2; bf_sz <= 2 * th; bf_sz *= 2) {
    for (unsigned stage = bf_sz / 2; stage > 0; stage /= 2) {
      unsigned which_bit = gp_which_bit(stage);
      u64 my_elt1 = gp_insert_zero(threadIdx.x, which_bit);
      u64 my_elt2 = my_elt1 ^ stage;
      Compare_swap<K, V, PV>(sk, sv, my_elt1, my_elt2, ((base + my_elt1) & bf_sz) != 0);
      __syncthreads();
    }
  }
  for (unsigned i = threadIdx.x; i < 2 * th; i += th) {
    u64 g = base + i;
    list[g] = (last && g < a.n_real) ? gp_key_dec(sk[i], a.kind, a.desc) : sk[i];
    if (PV) vals[g] = sv[i];
  }
}

/* One butterfly stage across blocks: one comparator per thread, straight in global
 * memory. Cost: a full read + write of the list per stage. */
template <typename K, typename V, bool PV>
__global__ void __launch_bounds__(SEED_TH_PER_BLK)
Pbutterfly_one_stage(K *list, V *vals, u64 bf_sz, u64 stage) {
  u64 th = (u64)blockIdx.x * blockDim.x + threadIdx.x;
  u64 my_elt1 = gp_insert_zero(th, gp_which_bit(stage));
  u64 my_elt2 = my_elt1 ^ stage;
  Compare_swap<K, V, PV>(list, vals, my_elt1, my_elt2, (my_elt1 & bf_sz) != 0);
}

/* The stages blockDim.x .. 1 of butterfly size bf_sz inside each block's sublist. */
template <typename K, typename V, bool PV>
__global__ void __launch_bounds__(SEED_TH_PER_BLK)
Pbutterfly_finish(K *list, V *vals, u64 bf_sz, sd_args a, int last) {
  __shared__ K sk[2 * SEED_TH_PER_BLK];
  __shared__ V sv[PV ? 2 * SEED_TH_PER_BLK : 1];
  const unsigned th = blockDim.x;
  const u64 base = (u64)blockIdx.x * 2 * th;
  for (unsigned i = threadIdx.x; i < 2 * th; i += th) {
    sk[i] = list[base + i];
    if (PV) sv[i] = vals[base + i];
  }
  __syncthreads();
  for (unsigned stage = th; stage > 0; stage /= 2) {
    u64 my_elt1 = gp_insert_zero(threadIdx.x, gp_which_bit(stage));
    u64 my_elt2 = my_elt1 ^ stage;
    Compare_swap<K, V, PV>(sk, sv, my_elt1, my_elt2, ((base + my_elt1) & bf_sz) != 0);
    __syncthreads();
  }
  for (unsigned i = threadIdx.x; i < 2 * th; i += th) {
    u64 g = base + i;
    list[g] = (last && g < a.n_real) ? gp_key_dec(sk[i], a.kind, a.desc) : sk[i];
    if (PV) vals[g] = sv[i];
  }
}

static u64 sd_pow2(u64 n) {
  u64 p = 1;
  while (p < n) p *= 2;
  return p;
}

/* Program 6.19's host driver. */
template <typename K, typename V, bool PV>
static gp_status Parallel_bitonic_sort(gp_context *ctx, K *list, V *vals, u64 n, sd_args a) {
  cudaStream_t st = (cudaStream_t)ctx->stream;
  u64 th_per_blk = n / 2 < SEED_TH_PER_BLK ? n / 2 : SEED_TH_PER_BLK;
  u64 blk_ct = n / (2 * th_per_blk);
  if (blk_ct > 0x7FFFFFFFull)
    return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT, "n = %llu is too large for the seed's grid", n);
  Pbitonic_start<K, V, PV><<<(unsigned)blk_ct, (unsigned)th_per_blk, 0, st>>>(list, vals, a, n == 2 * th_per_blk);
  GP_LAUNCH_CHECK(ctx, "Pbitonic_start", blk_ct, th_per_blk, 0);
  for (u64 bf_sz = 4 * th_per_blk; bf_sz <= n; bf_sz *= 2) {
    for (u64 stage = bf_sz / 2; stage >= 2 * th_per_blk; stage /= 2) {
      Pbutterfly_one_stage<K, V, PV><<<(unsigned)blk_ct, (unsigned)th_per_blk, 0, st>>>(list, vals, bf_sz, stage);
      GP_LAUNCH_CHECK(ctx, "Pbutterfly_one_stage", blk_ct, th_per_blk, 0);
    }
    Pbutterfly_finish<K, V, PV><<<(unsigned)blk_ct, (unsigned)th_per_blk, 0, st>>>(list, vals, bf_sz, a, bf_sz == n);
    GP_LAUNCH_CHECK(ctx, "Pbutterfly_finish", blk_ct, th_per_blk, 0);
  }
  return GP_OK;
}

extern "C" size_t gp_cuda_bitonic_seed_scratch(gp_dtype kt, size_t n) {
  u64 p = sd_pow2(n);
  return p == n ? 0 : (size_t)p * gp_dtype_size(kt);
}

extern "C" gp_status gp_cuda_bitonic_seed_sort(gp_context *ctx, gp_dtype kt, void *keys,
                                               int vb, void *values, size_t n, int desc,
                                               void *scratch) {
  if (n <= 1) return GP_OK;
  sd_args a;
  a.n_real = n;
  a.kind = gp_key_class_of(kt);
  a.desc = desc;
  size_t kb = gp_dtype_size(kt);
  u64 p = sd_pow2(n);
  void *list = keys;
  cudaStream_t st = (cudaStream_t)ctx->stream;
  if (p != n) {
    if (vb) return gp_fail(ctx, GP_ERR_UNSUPPORTED, "GP_SORT_BITONIC_SEED pairs need a power-of-two n");
    list = scratch;
    GP_CUDA_TRY(ctx, cudaMemcpyAsync(list, keys, n * kb, cudaMemcpyDeviceToDevice, st));
    GP_CUDA_TRY(ctx, cudaMemsetAsync((char *)list + n * kb, 0xFF, (p - n) * kb, st));
  }
  gp_status s;
  if (kb == 4) {
    if (vb == 0) s = Parallel_bitonic_sort<uint32_t, uint32_t, false>(ctx, (uint32_t *)list, (uint32_t *)NULL, p, a);
    else if (vb == 4) s = Parallel_bitonic_sort<uint32_t, uint32_t, true>(ctx, (uint32_t *)list, (uint32_t *)values, p, a);
    else s = Parallel_bitonic_sort<uint32_t, u64, true>(ctx, (uint32_t *)list, (u64 *)values, p, a);
  } else {
    if (vb == 0) s = Parallel_bitonic_sort<u64, uint32_t, false>(ctx, (u64 *)list, (uint32_t *)NULL, p, a);
    else if (vb == 4) s = Parallel_bitonic_sort<u64, uint32_t, true>(ctx, (u64 *)list, (uint32_t *)values, p, a);
    else s = Parallel_bitonic_sort<u64, u64, true>(ctx, (u64 *)list, (u64 *)values, p, a);
  }
  if (s) return s;
  if (p != n) GP_CUDA_TRY(ctx, cudaMemcpyAsync(keys, list, n * kb, cudaMemcpyDeviceToDevice, st));
  return GP_OK;
}
