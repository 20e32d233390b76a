/* One radix sort of up to CL tiles of keys in a single launch: a thread-block cluster of
 * CL <= 16 blocks (more than 8 where the GPU can co-schedule them, checked before use),
 * each holding one tile of TILE = GP_RX_CL_THREADS x ITEMS keys (and values), the tiles
 * together the whole sort. Included by radix.cu only (uses its block ranking).
 *
 * Every digit pass: each block counts its tile's digits (rx_rank_count) and publishes
 * the counts in its shared memory; after a cluster barrier each block reads all CL
 * blocks' counts (distributed shared memory) and knows where its first key of each digit
 * goes in the cluster's order: the keys of smaller digits, then those of its digit in
 * lower blocks. It ranks its tile stably in its own shared memory (rx_rank_finish) and
 * writes each key into the tile of the block that holds its place, a second buffer of
 * that block's shared memory; a second barrier, and each block reads its new tile back
 * into registers. The last pass writes to global memory instead. Blocks keep the input's
 * order (block b holds keys b * TILE ..), so the sort is stable, as the device-wide one.
 * A pass whose digit is the same for every key is skipped (every block sees the same
 * counts). Pads (~0) fill the tiles past n: they rank last in every block, and only the
 * last block with keys has any before the all-pad blocks, so they never take a key's
 * place and are not moved.
 *
 * Against the device-wide sort (histogram, plan, a launch per digit, each reading and
 * writing every key in global memory) nothing between the first load and the last store
 * leaves the cluster's shared memory.
 * Clusters need sm_90: device code for older GPUs gets an empty kernel that traps (the
 * host asks the context's arch first). */
#include "cuda/common/cluster_launch.cuh"

#include <cooperative_groups.h>

template <int ITEMS, typename K> __host__ __device__ constexpr unsigned rx_cl_tile() {
  return (unsigned)GP_RX_CL_THREADS * ITEMS;
}

template <int ITEMS, typename K, typename V, bool PV> struct rx_cl_smem {
  rx_rank_smem<GP_RX_CL_THREADS> r;
  unsigned pub[2][GP_RX_RADIX]; /* this block's digit counts by pass parity, read by all */
  unsigned total[GP_RX_RADIX];  /* the cluster's count of each digit */
  unsigned gstart[GP_RX_RADIX]; /* cluster place of this block's first key of each digit */
  K k[2][rx_cl_tile<ITEMS, K>()]; /* 0: the tile ranked here; 1: written by the cluster */
  V v[PV ? 2 : 1][PV ? rx_cl_tile<ITEMS, K>() : 1];
};

/* Grid: one cluster per segment (a.spans, else a.offsets; both NULL: the one segment
 * [0, a.n)) whose size is within a.min_size .. a.max_size (<= CL * TILE); other segments
 * are skipped. Values are carried as V and written as VO: an argsort (a.vin NULL) with
 * 8-byte indices carries each key's place in its segment as 4 bytes (V = unsigned, VO =
 * u64: a third less to move between the blocks every pass) and writes begin + place. */
template <int ITEMS, typename K, typename V, bool PV, typename VO = V>
__global__ void __launch_bounds__(GP_RX_CL_THREADS)
rx_clustersort(rx_seg_args a) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
  __trap();
#else
  constexpr int T = GP_RX_CL_THREADS, NP = rx_npass<K>();
  constexpr unsigned TILE = rx_cl_tile<ITEMS, K>();
  constexpr bool NARROW = sizeof(VO) > sizeof(V); /* an argsort's places, widened on the way out */
  extern __shared__ __align__(16) unsigned char rx_smem_raw[];
  rx_cl_smem<ITEMS, K, V, PV> &s = *(rx_cl_smem<ITEMS, K, V, PV> *)rx_smem_raw;
  cooperative_groups::cluster_group cl = cooperative_groups::this_cluster();
  const unsigned CL = cl.num_blocks(), rank = cl.block_rank();
  const unsigned tid = threadIdx.x, lane = tid & 31, w = tid >> 5;
  const u64 seg = blockIdx.x / CL;
  const u64 begin = a.spans ? a.spans[2 * seg] : a.offsets ? a.offsets[seg] : 0;
  const u64 end = a.spans ? a.spans[2 * seg + 1] : a.offsets ? a.offsets[seg + 1] : a.n;
  if (end - begin < a.min_size || end - begin > a.max_size || end - begin < 2) return; /* cluster-uniform */
  const unsigned n = (unsigned)(end - begin), first = rank * TILE;
  const unsigned count = n > first ? (n - first < TILE ? n - first : TILE) : 0;
  K ek[ITEMS];
  V v[ITEMS];
#pragma unroll
  for (int i = 0; i < ITEMS; i++) {
    const unsigned local = (w * ITEMS + i) * 32 + lane;
    const bool ok = local < count;
    const u64 g = begin + first + local;
    ek[i] = ok ? gp_key_enc(((const K *)a.kin)[g], a.kind, a.desc) : ~(K)0; /* pad */
    if (PV) v[i] = !ok ? (V)0 : NARROW ? (V)(first + local) : a.vin ? ((const V *)a.vin)[g] : (V)g;
  }
  bool stored = false;
  for (int p = 0; p < NP; p++) {
    const unsigned shift = (unsigned)p * GP_RX_BITS;
    rx_rank_count<T, ITEMS, K>(ek, count, shift, s.r);
    unsigned *pub = s.pub[p & 1];
    for (unsigned d = tid; d < GP_RX_RADIX; d += T) pub[d] = s.r.cnt[d];
    cl.sync();
    int one = 0; /* one digit for every key: the pass is skipped */
    for (unsigned d = tid; d < GP_RX_RADIX; d += T) {
      unsigned tot = 0, before = 0;
#pragma unroll 1
      for (unsigned b0 = 0; b0 < CL; b0 += 4) { /* four remote loads in flight */
        unsigned c[4];
#pragma unroll
        for (unsigned b = 0; b < 4; b++) c[b] = b0 + b < CL ? cl.map_shared_rank(pub, b0 + b)[d] : 0;
#pragma unroll
        for (unsigned b = 0; b < 4; b++) {
          before += b0 + b < rank ? c[b] : 0;
          tot += c[b];
        }
      }
      s.total[d] = tot;
      s.gstart[d] = before;
      one |= tot - (d == GP_RX_RADIX - 1 ? CL * TILE - n : 0) == n;
    }
    if (__syncthreads_or(one)) continue;
    if (w == 0) rx_warp_scan256<true>(s.total, s.gstart);
    unsigned pos[ITEMS];
    rx_rank_finish<T, ITEMS, K>(ek, shift, s.r, s.k[0], pos); /* its first barrier orders gstart */
    if (PV)
#pragma unroll
      for (int i = 0; i < ITEMS; i++)
        if ((w * ITEMS + i) * 32 + lane < count) s.v[0][pos[i]] = v[i];
    __syncthreads();
    /* the tile in digit order: place j holds the key that goes to gstart - dstart + j */
    const bool last = p == NP - 1;
    for (unsigned j = tid; j < count; j += T) {
      const K k = s.k[0][j];
      const unsigned d = rx_digit(k, shift);
      const unsigned to = s.gstart[d] - s.r.dstart[d] + j;
      if (last) {
        if (a.kout) ((K *)a.kout)[begin + to] = gp_key_dec(k, a.kind, a.desc);
        if (PV) ((VO *)a.vout)[begin + to] = NARROW ? (VO)(begin + s.v[0][j]) : (VO)s.v[0][j];
      } else {
        cl.map_shared_rank(s.k[1], to / TILE)[to % TILE] = k;
        if (PV) cl.map_shared_rank(s.v[1], to / TILE)[to % TILE] = s.v[0][j];
      }
    }
    if (last) {
      stored = true;
      break;
    }
    cl.sync();
#pragma unroll
    for (int i = 0; i < ITEMS; i++) {
      const unsigned local = (w * ITEMS + i) * 32 + lane;
      if (local < count) {
        ek[i] = s.k[1][local];
        if (PV) v[i] = s.v[1][local];
      }
    }
  }
  if (!stored)
#pragma unroll
    for (int i = 0; i < ITEMS; i++) {
      const unsigned local = (w * ITEMS + i) * 32 + lane;
      if (local < count) {
        const u64 g = begin + first + local;
        if (a.kout) ((K *)a.kout)[g] = gp_key_dec(ek[i], a.kind, a.desc);
        if (PV) ((VO *)a.vout)[g] = NARROW ? (VO)(begin + v[i]) : (VO)v[i];
      }
    }
  cl.sync(); /* no block leaves while another may still read its counts */
#endif
}

/* *cap = the most keys one cluster of blocks of ITEMS keys a thread sorts on this GPU:
 * 16 blocks' worth where clusters that large can be resident (asked once per device),
 * else 8 (the portable maximum); 0 where clusters are not used (before sm_90,
 * GP_RX_CLUSTER=0, or a block needing more shared memory than the GPU gives). */
template <int ITEMS, typename K, typename V, bool PV, typename VO = V>
static gp_status rx_cl_capacity(gp_context *ctx, u64 *cap) {
  constexpr size_t smem = sizeof(rx_cl_smem<ITEMS, K, V, PV>);
  const size_t most = ctx->smem_block ? ctx->smem_block : (size_t)-1;
  *cap = 0;
  if (!GP_RX_CLUSTER || ctx->info.arch < 90 || smem > most) return GP_OK;
  static unsigned long long ready, big; /* per device: common/per_device.h */
  if (!gp_dev_flag(&ready, ctx->device)) {
    GP_CUDA_TRY(ctx, cudaFuncSetAttribute(rx_clustersort<ITEMS, K, V, PV, VO>,
                                          cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
    GP_CUDA_TRY(ctx, cudaFuncSetAttribute(rx_clustersort<ITEMS, K, V, PV, VO>,
                                          cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
    cudaLaunchAttribute qa;
    const cudaLaunchConfig_t q =
        gp_cluster_config(&qa, 1, GP_RX_CL_MAX_BLOCKS, GP_RX_CL_THREADS, smem, 0);
    int nc = 0;
    if (cudaOccupancyMaxActiveClusters(&nc, rx_clustersort<ITEMS, K, V, PV, VO>, &q) == cudaSuccess && nc > 0)
      gp_dev_flag_set(&big, ctx->device);
    (void)cudaGetLastError(); /* a refusal is an answer, not an error to report later */
    gp_dev_flag_set(&ready, ctx->device);
  }
  const unsigned blocks = gp_dev_flag(&big, ctx->device) || GP_RX_CL_MAX_BLOCKS <= 8 ? GP_RX_CL_MAX_BLOCKS : 8;
  *cap = (u64)blocks * rx_cl_tile<ITEMS, K>();
  return GP_OK;
}

/* Launches rx_clustersort for a.nseg segments of up to a.max_size keys, at most the
 * capacity rx_cl_capacity gave (which readied the kernel on this device). */
template <int ITEMS, typename K, typename V, bool PV, typename VO = V>
static gp_status rx_launch_cluster(gp_context *ctx, const rx_seg_args &a) {
  constexpr unsigned TILE = rx_cl_tile<ITEMS, K>();
  constexpr size_t smem = sizeof(rx_cl_smem<ITEMS, K, V, PV>);
  const unsigned CL = (unsigned)((a.max_size + TILE - 1) / TILE);
  cudaLaunchAttribute attr;
  const cudaLaunchConfig_t cfg = gp_cluster_config(&attr, (unsigned)a.nseg, CL, GP_RX_CL_THREADS,
                                                   smem, (cudaStream_t)ctx->stream);
  GP_CUDA_TRY(ctx, cudaLaunchKernelEx(&cfg, rx_clustersort<ITEMS, K, V, PV, VO>, a));
  GP_LAUNCH_CHECK(ctx, "rx_clustersort", cfg.gridDim.x, cfg.blockDim.x, cfg.dynamicSmemBytes);
  return GP_OK;
}
