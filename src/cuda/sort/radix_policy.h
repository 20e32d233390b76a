/* GP_SORT_RADIX tuning knobs, all in one place (read by radix.cu and by the API's
 * AUTO choice). Compile-time defines: rebuild with e.g. -DGP_RX_ITEMS4=20 to try
 * another shape. The start was CUB's onesweep policy (8-bit digits, 384 threads, ~20
 * keys per thread); the numbers below were chosen by measurement on the H200. */
#ifndef GP_CUDA_SORT_RADIX_POLICY_H
#define GP_CUDA_SORT_RADIX_POLICY_H

/* digit width: 8 bits (the look-back gives one thread per digit, so THREADS >= 256).
   11-bit digits (3 passes over 32-bit keys) were tried with one sort written for both
   widths (bench/tools/radix_digits.cu): an 11-bit pass cost 1.73-1.76x an 8-bit one on
   the H200, 2026-12-04 (s26-a, docs/perf/sort.md), so 3 passes lose to 4. */
#define GP_RX_BITS 8
#define GP_RX_RADIX (1 << GP_RX_BITS)

/* one-sweep pass: threads per block and keys per thread, for 4- and 8-byte keys alone
   (also the one-block sort's shape) and with values (whose tile shares the shared
   memory, so fewer keys keep 3 blocks per SM for 4-byte pairs). Measured on the H200,
   2026-12-01 (docs/perf/sort.md): u32 keys 2^28 at 16/18/20/22/24 items 0.69/0.72/0.72/
   0.73/0.75x CUB, u64 0.85-1.01x rising with items; u32 pairs 2^24 0.93x at 18, 0.82x at
   24 (2 blocks per SM). 4-byte pairs again on 2026-12-02 (s13-a, s13-g), u32/u32 CUB /
   ours at 2^24 and 2^28: 16 items 0.963x / 0.972x, 17 0.977-0.978x / 1.000x, 18
   0.981-0.988x / 1.007-1.013x, 19 0.997-0.998x / 1.035x, 20 0.926x / 0.909x, 22 0.956x /
   0.951x: at 19 three blocks' shared memory (~74 KiB each) still fit an H200 SM, at 20
   two. With 8-byte values (argsorts with 64-bit indices) 18: at 19 the block would need
   101.5 KiB, more than sm_86 / sm_89 / sm_120 give one (99 KiB). */
#ifndef GP_RX_THREADS
#define GP_RX_THREADS 384
#endif
#ifndef GP_RX_ITEMS4
#define GP_RX_ITEMS4 28
#endif
#ifndef GP_RX_ITEMS8
#define GP_RX_ITEMS8 16
#endif
#ifndef GP_RX_PAIR_ITEMS4
#define GP_RX_PAIR_ITEMS4 19
#endif
#ifndef GP_RX_PAIR_ITEMS4_V8
#define GP_RX_PAIR_ITEMS4_V8 18
#endif
#ifndef GP_RX_PAIR_ITEMS8
#define GP_RX_PAIR_ITEMS8 12
#endif
/* 8-byte keys with 8-byte values (H200, 2026-12-01, CUB / ours at 2^24 and 2^28: 12
   items 0.906x / 0.895x, 16 items 0.973x / 0.986x; docs/perf/sort.md). 12: at 16 the
   one-sweep block needs 112 KiB of shared memory, more than sm_86 / sm_89 / sm_120 give
   a block (99 KiB), where every such sort above 2^19 keys would fail; at 12, 88 KiB. */
#ifndef GP_RX_PAIR_ITEMS8_V8
#define GP_RX_PAIR_ITEMS8_V8 12
#endif
/* ... and where the GPU gives a block 112 KiB (rx_wide_ok in radix.cu): 16 keys a thread
   (H200, 2026-12-02, s13-a, CUB / ours at 2^24 and 2^28: 12 items 0.907x / 0.895x, 14
   0.954x / 0.952x, 16 0.973x / 0.986x; docs/perf/sort.md). Equal to the above: one
   shape everywhere. */
#ifndef GP_RX_PAIR_ITEMS8_V8_WIDE
#define GP_RX_PAIR_ITEMS8_V8_WIDE 16
#endif

/* sorts of up to 2^GP_RX_SMALL_SWEEP_LOG2 keys take one-sweep tiles of this many keys
   per thread (any value type): more blocks for the SMs, each ranking fewer items.
   Measured on the H200, 2026-12-01, u32 keys against CUB: without small tiles 0.90/
   0.95/0.98/1.09x at 2^17/18/19/20; 8 items 1.16/1.12/1.08/1.04x; 12 items 1.11/1.11/
   1.11/1.11x; u64 at 2^20: 1.10x without, 1.04x with 12 items: so 12 (8) up to 2^19. */
#ifndef GP_RX_SMALL_SWEEP_LOG2
#define GP_RX_SMALL_SWEEP_LOG2 19
#endif
#ifndef GP_RX_SMALL_SWEEP_ITEMS4
#define GP_RX_SMALL_SWEEP_ITEMS4 12
#endif
#ifndef GP_RX_SMALL_SWEEP_ITEMS8
#define GP_RX_SMALL_SWEEP_ITEMS8 8
#endif

/* 1: the wide one-sweep shape (8-byte keys and values) loads its values right after
   ranking, before the look-back, and writes keys and values in one loop (0: after the
   keys' writes). Other shapes would spill at 56 registers. With GP_RX_WIDE_MIN_BLOCKS
   2 (80 registers, no spill), H200, 2026-12-03 (s20-a, docs/perf/sort.md), u64/u64
   pairs 2^20 / 2^24 / 2^28: 181.8-184.1 us / 1.727-1.728 ms / 25.17-25.18 ms against
   185.5 / 1.745 / 25.35-25.36 (0 and 3), 187.5-187.7 / 1.735-1.738 / 25.29 (0 and 2). */
#ifndef GP_RX_VAL_EARLY
#define GP_RX_VAL_EARLY 1
#endif
/* 1: the wide shape keeps each digit's output address (not its index) in shared memory,
   the value stored at a fixed distance from its key, as 4-byte keys alone do (s25-b);
   0: indices, scaled for each array. H200, 2026-12-04 (s26-d, docs/perf/sort.md), u64/u64
   pairs 2^20 / 2^24 / 2^28, 1 against 0: 173.4-173.5 / 1655 / 24029-24040 us against
   170.2-170.3 / 1688-1691 / 24482-24487 (CUB 195.8 / 1700 / 24931); f64/u64 2^24 1604-1605
   against 1631. The kernel's code 55.5 -> 45.7 KB, 80 registers, no spills. */
#ifndef GP_RX_WIDE_ADDR
#define GP_RX_WIDE_ADDR 1
#endif
/* 1: the one-sweep pass of pairs advances each warp's digit counter by a predicated PTX
   atomic (rx_leader_add); 0: `if (leader) atomicAdd(...)`. ptxas emits a branch for
   both, scheduled differently: H200, 2026-12-04 (s25-c, s25-final2, docs/perf/sort.md),
   pairs 0.4-0.8% faster with 1 (u64/u64 2^24 1697-1700 -> 1690 us); keys alone were not
   faster with it and take the C form. */
#ifndef GP_RX_PAIRS_PRED
#define GP_RX_PAIRS_PRED 1
#endif

/* resident blocks per SM the wide one-sweep shape is compiled for (its shared memory
   lets two run) */
#ifndef GP_RX_WIDE_MIN_BLOCKS
#define GP_RX_WIDE_MIN_BLOCKS 2
#endif

/* resident blocks per SM the one-sweep kernel is compiled for (caps its registers at
   56: no spills at these shapes; 2 blocks per SM with 80 registers ran 0.59x CUB at u32
   2^28 where 3 run 0.69x) */
#ifndef GP_RX_MIN_BLOCKS
#define GP_RX_MIN_BLOCKS 3
#endif

/* 1: on sm_90+ the device-wide sort's plan, passes and fixup are programmatic dependent
   launches (src/cuda/common/pdl.cuh): each kernel's blocks start on the SMs its
   predecessor leaves and wait for it there; 0: ordinary launches. H200, 2026-12-04
   (s24-b, docs/perf/sort.md), AUTO, against 0: u32 keys 2^18 54.9 -> 47.7 us, 2^20 75.4
   -> 67.4, 2^24 392 -> 372; pairs u32/u32 2^24 610 -> 590; u64/u64 2^21 339 -> 300. */
#ifndef GP_RX_PDL
#define GP_RX_PDL 1
#endif
/* where a pass lets the next one launch: 0 at its start, 1 after its look-back (s24-b:
   1 faster everywhere measured but u64 keys at 2^20, 140 against 135 us; at its start,
   u64/u64 pairs at 2^20 were slower than with ordinary launches) */
#ifndef GP_RX_PDL_TRIGGER
#define GP_RX_PDL_TRIGGER 1
#endif

/* upfront histogram (rx_histogram), narrow shape: threads per block, blocks per SM, 32
   KiB of counts a block (8 copies of each for 4-byte keys, 4 for 8-byte) */
#ifndef GP_RX_HIST_THREADS
#define GP_RX_HIST_THREADS 512
#endif
#ifndef GP_RX_HIST_BLOCKS_PER_SM
#define GP_RX_HIST_BLOCKS_PER_SM 4
#endif
/* wide shape, for sorts of at least 2^GP_RX_HIST_WIDE_LOG2 keys where a block may take
   128 KiB of shared memory (64: never): one block an SM of this many threads, this many
   copies of each count (32: a bank per lane), this many 16-byte loads in flight a
   thread. ncu on the H200 (2026-12-04, s24-c), narrow -> wide: u32 keys at 2^28 428.8 ->
   255.6 us (DRAM throughput 52% -> 88%), u64 at 2^24 63.6 -> 44.6 us; whole sorts at 2^20
   0.5-2 us slower, at 2^21 even, from 2^22 faster. Tried: 2 loads in flight (u32 2^28
   0.5% slower); 16-bit counts, two digits a word, so 8-byte keys get 32 copies too
   (s24-final: u64/u64 pairs 0.5% slower at 2^24 and 2^28). */
#ifndef GP_RX_HIST_WIDE_LOG2
#define GP_RX_HIST_WIDE_LOG2 22
#endif
#ifndef GP_RX_HIST_WIDE_THREADS
#define GP_RX_HIST_WIDE_THREADS 1024
#endif
#ifndef GP_RX_HIST_WIDE_COPIES4
#define GP_RX_HIST_WIDE_COPIES4 32
#endif
#ifndef GP_RX_HIST_WIDE_COPIES8
#define GP_RX_HIST_WIDE_COPIES8 16
#endif
#ifndef GP_RX_HIST_WIDE_LOADS
#define GP_RX_HIST_WIDE_LOADS 4
#endif

/* segments (and single sorts) of up to 32 keys take four lanes each (blocks of
   GP_RX_WARP_THREADS); up to GP_RX_SMALL_THREADS x GP_RX_SMALL_ITEMS keys a small block
   each, up to GP_RX_MID_THREADS x GP_RX_MID_ITEMS a middle block each, up to the
   one-sweep tile a full block each (in shared memory); larger ones the device-wide
   sort, one segment after another. The middle class exists because segments of a few
   hundred keys in the full 384 x 28 block left 90% of its ranking work on pads:
   uniform sizes 1..2048 at n = 2^24 ran 0.58x CUB's DeviceSegmentedSort (H200,
   2026-12-01). */
#ifndef GP_RX_WARP_THREADS
#define GP_RX_WARP_THREADS 256
#endif
#ifndef GP_RX_SMALL_THREADS
#define GP_RX_SMALL_THREADS 64
#endif
#ifndef GP_RX_SMALL_ITEMS
#define GP_RX_SMALL_ITEMS 4
#endif
/* the big block: 1024 threads with few keys each, so sorts of 2^12 .. 2^13 keys do not
   take the full tile's 28 keys a thread (one block of 384 x 28 sorted 2^12 keys in 43 us,
   of 256 x 8 2^11 in 11 us: H200, 2026-12-02, docs/perf/sort.md) */
#ifndef GP_RX_BIG_THREADS
#define GP_RX_BIG_THREADS 1024
#endif
#ifndef GP_RX_BIG_ITEMS4
#define GP_RX_BIG_ITEMS4 8
#endif
#ifndef GP_RX_BIG_ITEMS8
#define GP_RX_BIG_ITEMS8 4
#endif
#ifndef GP_RX_MID_THREADS
#define GP_RX_MID_THREADS 256
#endif
#ifndef GP_RX_MID_ITEMS
#define GP_RX_MID_ITEMS 8
#endif

/* One cluster of up to GP_RX_CL_MAX_BLOCKS blocks of GP_RX_CL_THREADS x GP_RX_CL_ITEMS
   keys sorts the keys of above the big block (GP_RX_CL_OVER_TILE=1: above the one-block
   tile) up to its capacity (radix_cluster.cuh) on sm_90+, and 4-byte keys alone up to
   twice that in blocks of GP_RX_CL_WIDE_ITEMS keys a thread (0: not). GP_RX_CLUSTER=0
   turns it off. H200, 2026-12-02 (docs/perf/sort.md), argsort of u32 keys at 2^14 / 2^15
   / 2^16 / 2^17: 8 keys a thread 36.5 / 40.7 / 47.7 / 57.8 us, 4 a thread 27.7 / 31.2 /
   38.1 / -, the device-wide sort 47.5 / 49.5 / 52.5 / 56.3; u32 keys alone at 2^17: 8
   keys a thread 38.7 us, the device-wide sort 49.7; above the tile only (OVER_TILE)
   changed nothing but the sizes of the big block to the tile (10000 keys: 44.5 against
   35.7 us). */
#ifndef GP_RX_CLUSTER
#define GP_RX_CLUSTER 1
#endif
#ifndef GP_RX_CL_OVER_TILE
#define GP_RX_CL_OVER_TILE 0
#endif
#ifndef GP_RX_CL_THREADS
#define GP_RX_CL_THREADS 1024
#endif
#ifndef GP_RX_CL_ITEMS
#define GP_RX_CL_ITEMS 4
#endif
#ifndef GP_RX_CL_WIDE_ITEMS
#define GP_RX_CL_WIDE_ITEMS 8
#endif
#ifndef GP_RX_CL_MAX_BLOCKS
#define GP_RX_CL_MAX_BLOCKS 16
#endif
/* An argsort with 8-byte indices by one cluster carries each key's place as 4 bytes and
   widens it on the way out (0: carries the 8-byte index) */
#ifndef GP_RX_CL_NARROW_IDX
#define GP_RX_CL_NARROW_IDX 1
#endif

/* AUTO (src/api/sort.c): 4-byte keys alone go to bitonic up to 2^GP_RX_AUTO_LOG2_KEYS
   keys (bitonic's cluster sort measured 2.3x CUB at 2^16, docs/perf/sort.md), radix
   above; 8-byte keys alone up to 2^GP_RX_AUTO_LOG2_KEYS8 (H200, 2026-12-02, u64 / i64 /
   f64 bitonic against radix: 2^17 79.7 / 79.6 / 79.7 against 86.1 / 86.1 / 87.1 us, 2^18
   92.7 / 92.6 / 92.9 against 97.4 / 97.4 / 97.9, 2^19 111.4 / 112.1 / 112.8 against
   118.4 / 118.4 / 117.7, 2^20 167.4 / 167.1 / 167.4 against 145.6 / 145.7 / 144.9;
   docs/perf/sort.md; the one-cluster radix sort ends at 2^16 there). Pairs (stable)
   take radix, except 4-byte keys from above the middle block up
   to 2^GP_RX_PAIRS_BITONIC_LOG2: the bitonic sort of (key << 32 | index) composites,
   which are distinct, so their order is the stable one; values are gathered after.
   gp_argsort of 4-byte keys the same up to 2^GP_RX_ARGSORT_BITONIC_LOG2 (radix.cu).
   0 turns either off. H200, 2026-12-02, argsort of u32 keys, composites / radix:
   2^12 15.4 / 22.3 us, 2^13 37.3 / 22.0 (the big block), 2^14 43.8 / 48.5, 2^15 50.9 /
   50.6, 2^16 58.8 / 53.5 (docs/perf/sort.md): composites at 2^12 only. */
#ifndef GP_RX_AUTO_LOG2_KEYS
#define GP_RX_AUTO_LOG2_KEYS 16
#endif
#ifndef GP_RX_AUTO_LOG2_KEYS8
#define GP_RX_AUTO_LOG2_KEYS8 19
#endif
#ifndef GP_RX_PAIRS_BITONIC_LOG2
#define GP_RX_PAIRS_BITONIC_LOG2 12
#endif
#ifndef GP_RX_ARGSORT_BITONIC_LOG2
#define GP_RX_ARGSORT_BITONIC_LOG2 12
#endif

/* AUTO sorts of up to 2^GP_RK_KEYS_LOG2 keys alone, and pairs and argsorts of up to
   2^GP_RK_PAIRS_LOG2 keys, take the one-cluster rank sort (rank_sort.cu) on sm_90+,
   ahead of every path above; 0 turns it off. It takes at most 2^12. H200, 2026-12-03
   (s20-a, docs/perf/sort.md), its first form (bank conflicts in the chunk's ranking)
   against the paths before it: u32 keys 2^10 / 2^11 / 2^12 6.46-6.69 / 9.09-9.12 /
   15.36-15.42 us against 7.30-7.33 / 8.22-8.35 / 9.82-9.92 (bitonic); pairs u32/u32
   6.59 / 9.15-9.31 / 15.68-15.81 against 12.70 / 11.23-11.33 / 18.18-18.21; argsort f32
   6.69-6.75 / 8.96-8.99 / 15.23-15.30 against 12.42-12.51 / 11.04-11.20 / 15.26-15.46.
   The kept form (16-byte reads, s20-final): u32 keys 2^11 / 2^12 8.48 / 12.93-12.99
   against 8.26-8.35 / 9.89-9.95, u64 keys 2^10 / 2^11 7.78-7.81 / 10.94 against
   8.54-8.61 / 9.92-10.05; pairs u32/u32 2^11 / 2^12 8.64-8.70 / 13.34-13.38 against
   11.20-11.33 / 18.18-18.21. */
/* AUTO sorts of more than GP_GRS_*_MIN and up to GP_GRS_*_MAX keys take the whole-GPU
   rank sort (grid_rank.cu: every block holds all the keys, each key counted against all
   of them) on sm_90+, ahead of the cluster rank sort below; MAX 0 turns it off, and it
   takes at most 4096 (its shared memory). H200, 2026-12-04 (s26-c, docs/perf/sort.md),
   us, it / the paths before it (CUB): u32 keys 2^9 6.27 / 5.34, 2^10 6.62 / 6.69, 2^11
   7.14 / 8.29 (11.65), 3000 8.64 / 9.92, 2^12 10.40 / 10.02; u64 keys the same
   crossovers (2^10 8.38 / 7.78, 3000 10.62 / 12.13, 2^12 14.11 / 12.13); pairs u32/u32
   2^10 6.91 / 6.88, 2^11 7.26 / 8.83, 2^12 10.59 / 13.41, u64/u64 2^10 8.58 / 7.84, 2^12
   14.56 / 18.82; argsort f32 2^9 5.34 / 5.47, 2^10 5.70 / 6.82, 2^12 9.06 / 12.96. Keys
   alone stop at 3072: the bitonic sort, padded to 4096, takes the same time from 2049
   to 4096 while the rank sort's n^2 comparisons cross it near 3900. */
#ifndef GP_GRS_KEYS_MIN
#define GP_GRS_KEYS_MIN 1024
#endif
#ifndef GP_GRS_KEYS_MAX
#define GP_GRS_KEYS_MAX 3072
#endif
#ifndef GP_GRS_PAIRS_MIN
#define GP_GRS_PAIRS_MIN 1024
#endif
#ifndef GP_GRS_PAIRS_MAX
#define GP_GRS_PAIRS_MAX 4096
#endif
#ifndef GP_GRS_ARGSORT_MIN
#define GP_GRS_ARGSORT_MIN 512
#endif
#ifndef GP_GRS_ARGSORT_MAX
#define GP_GRS_ARGSORT_MAX 4096
#endif
/* gp_sort_copy (keys from one array into another): the same kernel as the argsort, each
   block writing the keys instead of their positions, one ordinary launch (no grid sync:
   nothing is overwritten that another block still reads). H200, s27-e (docs/perf/sort.md),
   u32 keys, us, copy by it / gp_sort in place (CUB's SortKeys): 513 5.12-5.25 / 5.41-5.50
   (11.1), 2^11 6.18-6.34 / 7.20-7.26 (11.8), 2^12 9.34-9.41 / 9.89-10.05 (12.6). Below
   513 a copy then the in-place cluster rank sort took 7.5-8.2 us (s27-e); this kernel
   (s27-f) 3.52-3.74 at 2 and 16 keys, 4.80-4.83 at 100, 5.25 at 256, 5.50-5.66 at 512
   (the in-place sort alone: 4.35-4.42 / 4.51-4.61 / 4.80-4.86 / 5.28-5.34), so the copy
   takes it from 2 keys */
#ifndef GP_GRS_COPY_MIN
#define GP_GRS_COPY_MIN 0
#endif
#ifndef GP_GRS_COPY_MAX
#define GP_GRS_COPY_MAX 4096
#endif
#if GP_GRS_KEYS_MAX > 4096 || GP_GRS_PAIRS_MAX > 4096 || GP_GRS_ARGSORT_MAX > 4096 || \
    GP_GRS_COPY_MAX > 4096
#error "the whole-GPU rank sort takes at most 4096 keys (32 KiB of 8-byte keys a block)"
#endif
/* 1: its keys and pairs sort in place in one cooperative launch (a grid sync between
   the loads and the writes) where the GPU holds the whole grid; 0: always through
   scratch and a copy kernel (the fallback; H200, s26-b/c, docs/perf/sort.md) */
#ifndef GP_GRS_COOP
#define GP_GRS_COOP 1
#endif
/* (Since s26-c the whole-GPU rank sort above takes what it covers first: pairs of 1025
   and more keys, argsorts of 513 and more.) */
#ifndef GP_RK_KEYS_LOG2
#define GP_RK_KEYS_LOG2 10
#endif
#ifndef GP_RK_PAIRS_LOG2
#define GP_RK_PAIRS_LOG2 12
#endif

#endif
