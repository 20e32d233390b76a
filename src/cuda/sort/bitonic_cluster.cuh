/* One sort (or one segment) of P <= CL * 2^LOGF keys in a single launch: a thread-block
 * cluster of CL blocks (up to 8, the portable maximum, or 16 where the GPU can
 * co-schedule that many: the non-portable size, checked before use), each holding one
 * tile of F = 2^LOGF keys in shared memory, the cluster's tiles together the whole
 * segment. Included by bitonic.cu only (uses its network pieces).
 *
 * Each block sorts its tile (bs_smem_sort, levels 1 .. LOGF). A level L > LOGF then
 * runs its stages on bits >= LOGF as cluster rounds: every thread of the cluster loads
 * its window of ITEMS keys from the tiles of whichever blocks hold them (distributed
 * shared memory), runs the stages in registers and stores them back, between two
 * cluster barriers; the stages below that window are ordinary rounds in the block's
 * own tile. Compared with bs_global + bs_finish per level, nothing goes through global
 * memory between the first load and the last store, and there is one launch instead
 * of 1 + 2 (logP - LOGF).
 * Clusters need sm_90: device code for older GPUs gets an empty kernel that traps (the
 * host never launches it there: bs_run asks the context's arch first). */
#include "cuda/common/cluster_launch.cuh"

#include <cooperative_groups.h>

#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900

/* The cluster-wide window of cluster thread tc, as bs_window_io but over CL tiles:
 * index i lives in block i >> LOGF, slot bs_slot(i mod F). */
template <int LOGI, int LOGF, typename K, typename V, bool PV>
__device__ __forceinline__ void bs_cluster_io(cooperative_groups::cluster_group &cl, K *sk,
                                              V *sv, unsigned tc, int wl, int mbit, K *k,
                                              V *v, bool store) {
  constexpr int I = 1 << LOGI;
  constexpr unsigned F = 1u << LOGF;
#pragma unroll
  for (int c = 0; c < I; c++) {
    const unsigned i = (unsigned)bs_widx<LOGI>(tc, (unsigned)wl, c, mbit);
    const unsigned s = bs_slot<LOGI>(i & (F - 1));
    K *rk = cl.map_shared_rank(sk, i >> LOGF);
    if (store) {
      rk[s] = k[c];
      if (PV) cl.map_shared_rank(sv, i >> LOGF)[s] = v[c];
    } else {
      k[c] = rk[s];
      if (PV) v[c] = cl.map_shared_rank(sv, i >> LOGF)[s];
    }
  }
}

/* One cluster round of level L: the window [top - LOGI + 1, top] (top >= LOGF, so it
 * holds a block bit and starts above bit 0), the mirror first when top = L - 1, between
 * two cluster barriers. */
template <int LOGI, int LOGF, typename K, typename V, bool PV>
__device__ __forceinline__ void bs_cluster_round(cooperative_groups::cluster_group &cl, K *sk,
                                                 V *sv, unsigned tc, int L, int top) {
  constexpr int I = 1 << LOGI;
  const int wl = top - LOGI + 1;
  const int mbit = top == L - 1 ? LOGI - 1 : -1;
  K k[I];
  V v[I];
  cl.sync();
  bs_cluster_io<LOGI, LOGF, K, V, PV>(cl, sk, sv, tc, wl, mbit, k, v, false);
#pragma unroll
  for (int b = top; b >= wl; b--) bs_reg_stage_rt<LOGI, K, V, PV>(b - wl, k, v, b == L - 1);
  bs_cluster_io<LOGI, LOGF, K, V, PV>(cl, sk, sv, tc, wl, mbit, k, v, true);
  cl.sync();
}

#endif

/* Grid: nseg clusters of CL = 2^(logP - LOGF) blocks; cluster q sorts segment q. */
template <int LOGI, int THREADS, typename K, typename V, bool PV>
__global__ void __launch_bounds__(THREADS)
bs_cluster_sort(K *keys, V *vals, bs_args a) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
  __trap();
#else
  constexpr int I = 1 << LOGI, F = THREADS * I;
  constexpr int LOGF = bs_tile_log2<LOGI, THREADS>();
  extern __shared__ __align__(16) unsigned char bs_smem[];
  K *sk = (K *)bs_smem;
  V *sv = (V *)(sk + bs_tile_slots<LOGI, THREADS>());
  cooperative_groups::cluster_group cl = cooperative_groups::this_cluster();
  const unsigned CL = cl.num_blocks(), rank = cl.block_rank();
  const unsigned t = threadIdx.x, tc = rank * THREADS + t;
  const u64 seg = blockIdx.x / CL;
  K *gk = keys + seg * a.S;
  V *gv = PV ? vals + seg * a.S : vals;
  const K *gin = a.kin ? (const K *)a.kin + seg * a.S : gk; /* gp_sort_copy reads elsewhere */

  for (unsigned q = t; q < (unsigned)F; q += THREADS) {
    const u64 i = ((u64)rank << LOGF) | q;
    const bool ok = i < a.S;
    const unsigned s = bs_slot<LOGI>(q);
    sk[s] = ok ? gp_key_enc(gin[i], a.kind, a.desc) : bs_maxkey<K>();
    if (PV) sv[s] = ok ? gv[i] : (V)0;
  }
  __syncthreads();
  if constexpr (sizeof(K) == 8 && LOGI >= 4 && !GP_BS_UNROLL8) {
    /* rolled (bs_smem_sort_rolled): the unrolled code of 8-byte keys in tiles of 16 a
       thread thrashes the instruction cache (rolled: u64 2^13 .. 2^16 1.7x faster; the
       tiles of 4 a thread, to 2^12, stay unrolled: 20% faster so) */
    bs_smem_sort_rolled<LOGI, LOGF, K, V, PV>(sk, sv, a.logP < (unsigned)LOGF ? a.logP : (unsigned)LOGF);
#pragma unroll 1
    for (int L = LOGF + 1; L <= (int)a.logP; L++) {
      int top = L - 1;
#pragma unroll 1
      for (; top >= LOGF; top -= LOGI) bs_cluster_round<LOGI, LOGF, K, V, PV>(cl, sk, sv, tc, L, top);
#pragma unroll 1
      for (; top >= 0; top -= LOGI) bs_round<LOGI, K, V, PV>(sk, sv, t, LOGF + 1, top);
    }
  } else if constexpr (!PV) {
    bs_smem_sort_tile<LOGI, LOGF, K, V, PV>(sk, sv, a.logP);
    /* the levels above the tile (at most 4: 16 blocks), unrolled so that every window is
       a constant; logP only cuts them short. Windows holding a block bit (top >= LOGF)
       are cluster rounds, the ones below rounds in the block's own tile. */
#pragma unroll
    for (int L = LOGF + 1; L <= LOGF + 4; L++) {
      if (L > (int)a.logP) break;
#pragma unroll
      for (int top = L - 1; top >= LOGF; top -= LOGI)
        bs_cluster_round<LOGI, LOGF, K, V, PV>(cl, sk, sv, tc, L, top);
#pragma unroll
      for (int top = L - 1 - LOGI * ((L - 1 - LOGF) / LOGI + 1); top >= 0; top -= LOGI)
        bs_round<LOGI, K, V, PV>(sk, sv, t, LOGF + 1, top);
    }
  } else {
    bs_smem_sort_tile<LOGI, LOGF, K, V, PV>(sk, sv, a.logP);
    /* with values the unrolled form spills (8-byte types): the same rounds, rolled */
    for (int L = LOGF + 1; L <= (int)a.logP; L++) {
      int top = L - 1;
      for (; top >= LOGF; top -= LOGI) bs_cluster_round<LOGI, LOGF, K, V, PV>(cl, sk, sv, tc, L, top);
      for (; top >= 0; top -= LOGI) bs_round<LOGI, K, V, PV>(sk, sv, t, LOGF + 1, top);
    }
  }

  for (unsigned q = t; q < (unsigned)F; q += THREADS) {
    const u64 i = ((u64)rank << LOGF) | q;
    if (i >= a.S) continue;
    const unsigned s = bs_slot<LOGI>(q);
    gk[i] = gp_key_dec(sk[s], a.kind, a.desc);
    if (PV) gv[i] = sv[s];
  }
#endif
}

/* Launches bs_cluster_sort for a.nseg segments of P = 2^a.logP <= 16 F; *done = 0 (and
 * GP_OK) where P needs 16 blocks and this GPU cannot run clusters that large. */
template <int LOGI, int THREADS, typename K, typename V, bool PV>
static gp_status bs_launch_cluster(gp_context *ctx, K *keys, V *vals, const bs_args &a, int *done) {
  constexpr int LOGF = bs_tile_log2<LOGI, THREADS>();
  constexpr size_t smem = bs_tile_smem<LOGI, THREADS, K, V, PV>();
  static unsigned long long attr_set; /* per device: common/per_device.h */
  if (!gp_dev_flag(&attr_set, ctx->device)) {
    GP_CUDA_TRY(ctx, cudaFuncSetAttribute(bs_cluster_sort<LOGI, THREADS, K, V, PV>,
                                          cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
    GP_CUDA_TRY(ctx, cudaFuncSetAttribute(bs_cluster_sort<LOGI, THREADS, K, V, PV>,
                                          cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
    gp_dev_flag_set(&attr_set, ctx->device);
  }
  const unsigned CL = a.logP > LOGF ? 1u << (a.logP - LOGF) : 1u;
  cudaLaunchAttribute attr;
  const cudaLaunchConfig_t cfg = gp_cluster_config(&attr, (unsigned)a.nseg, CL, THREADS, smem,
                                                   (cudaStream_t)ctx->stream);
  *done = 0;
  if (CL > 8) {
    /* per kernel and device: asked yet, and can 16-block clusters be resident? */
    static unsigned long long big_asked, big_ok;
    if (!gp_dev_flag(&big_asked, ctx->device)) {
      int nc = 0;
      if (cudaOccupancyMaxActiveClusters(&nc, bs_cluster_sort<LOGI, THREADS, K, V, PV>, &cfg) == cudaSuccess && nc > 0)
        gp_dev_flag_set(&big_ok, ctx->device);
      (void)cudaGetLastError(); /* a refusal is an answer, not an error to report later */
      gp_dev_flag_set(&big_asked, ctx->device);
    }
    if (!gp_dev_flag(&big_ok, ctx->device)) return GP_OK;
  }
  GP_CUDA_TRY(ctx, cudaLaunchKernelEx(&cfg, bs_cluster_sort<LOGI, THREADS, K, V, PV>, keys, vals, a));
  GP_LAUNCH_CHECK(ctx, "bs_cluster_sort", cfg.gridDim.x, cfg.blockDim.x, cfg.dynamicSmemBytes);
  *done = 1;
  return GP_OK;
}
