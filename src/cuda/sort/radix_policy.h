/* GP_SORT_RADIX tuning knobs, all in one place (read by radix.cu and by the API's
 * AUTO choice). Compile-time defines: rebuild with e.g. -DGP_RX_ITEMS4=20 to try
 * another shape. Not yet tuned: the first values follow CUB's sm_90 onesweep policy
 * (tuning_radix_sort.cuh: 8-bit digits, 384 threads, ~20 keys per thread) scaled
 * down to keep registers for the ranking; to be measured on the H200. */
#ifndef GP_CUDA_SORT_RADIX_POLICY_H
#define GP_CUDA_SORT_RADIX_POLICY_H

/* digit width: 8 bits (the look-back gives one thread per digit, so THREADS >= 256) */
#define GP_RX_BITS 8
#define GP_RX_RADIX (1 << GP_RX_BITS)

/* one-sweep pass: threads per block and keys per thread, for 4- and 8-byte keys */
#ifndef GP_RX_THREADS
#define GP_RX_THREADS 384
#endif
#ifndef GP_RX_ITEMS4
#define GP_RX_ITEMS4 16
#endif
#ifndef GP_RX_ITEMS8
#define GP_RX_ITEMS8 12
#endif

/* resident blocks per SM the one-sweep kernel is compiled for (caps its registers:
   2 x 384 threads leave 85 per thread; 1 block of 384 gives only 12 warps per SM) */
#ifndef GP_RX_MIN_BLOCKS
#define GP_RX_MIN_BLOCKS 2
#endif

/* upfront histogram: threads per block, blocks per SM */
#ifndef GP_RX_HIST_THREADS
#define GP_RX_HIST_THREADS 512
#endif
#ifndef GP_RX_HIST_BLOCKS_PER_SM
#define GP_RX_HIST_BLOCKS_PER_SM 4
#endif

/* segments (and single sorts) of up to 32 keys take one warp each (blocks of
   GP_RX_WARP_THREADS); up to GP_RX_SMALL_THREADS x GP_RX_SMALL_ITEMS keys a small block
   each, up to the one-sweep tile a full block each (in shared memory); larger ones the
   device-wide sort, one segment after another */
#ifndef GP_RX_WARP_THREADS
#define GP_RX_WARP_THREADS 256
#endif
#ifndef GP_RX_SMALL_THREADS
#define GP_RX_SMALL_THREADS 64
#endif
#ifndef GP_RX_SMALL_ITEMS
#define GP_RX_SMALL_ITEMS 4
#endif

/* AUTO (src/api/sort.c): keys alone go to bitonic up to 2^GP_RX_AUTO_LOG2_KEYS keys
   (bitonic's cluster sort measured 2.3x CUB at 2^16, docs/perf/sort.md), radix
   above. To be measured: `gpuprims bench sort --algo radix` against `--algo bitonic`
   at 2^14 .. 2^20 for u32 and u64 keys. Pairs always take radix (bitonic pairs are
   not stable). */
#ifndef GP_RX_AUTO_LOG2_KEYS
#define GP_RX_AUTO_LOG2_KEYS 16
#endif

#endif
