/* The arithmetic of gp_dist_sort's partition path, written once for the host code
 * (src/dist/dist_psort.c), the kernels (src/cuda/sort/dist_part.cu) and a CPU test
 * (tests/test_psort_math.c): where the samples of a shard are taken, how many a rank
 * takes, which sample each splitter is, a key's bucket, a rank's receive capacity, and
 * the overlap of two index ranges (the rebalance). Plain C11 that nvcc also compiles. */
#ifndef GP_CORE_PSORT_MATH_H
#define GP_CORE_PSORT_MATH_H

#include <stdint.h>

#ifdef __CUDACC__
#define GP_PS_FN static inline __host__ __device__
#else
#define GP_PS_FN static inline
#endif

#define GP_PS_SAMPLES_PER_RANK 32768 /* samples over all ranks: this x ranks (or all keys) */
#define GP_PS_MAX_RANKS 65           /* the partition kernels keep 64 splitters */

/* a stateless 64-bit mix (splitmix64's finalizer) */
GP_PS_FN uint64_t gp_ps_mix(uint64_t x) {
  x ^= x >> 30;
  x *= 0xBF58476D1CE4E5B9ull;
  x ^= x >> 27;
  x *= 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

/* Sample j < s of a shard of n >= s keys whose first global position is gbase: a
 * pseudo-random place in the j-th of s equal strata (never empty since n >= s). */
GP_PS_FN uint64_t gp_ps_sample_pos(uint64_t j, uint64_t n, uint64_t s, uint64_t gbase) {
  const uint64_t lo = j * n / s, hi = (j + 1) * n / s;
  return lo + gp_ps_mix(gbase + j) % (hi - lo);
}

/* Samples a rank of n of total keys takes when ssum are taken over all: in proportion,
 * at least one where it has keys, never more than n. */
GP_PS_FN uint64_t gp_ps_samples(uint64_t n, uint64_t total, uint64_t ssum) {
  if (n == 0) return 0;
  const uint64_t s = (ssum * n + total - 1) / total; /* ssum <= 2^21, n <= 2^40 */
  return s < n ? s : n;
}

/* Receive capacity of a rank with n of total keys among p: its count plus 1/16 of the
   larger of it and an average share (a rank given nothing may still receive a little). */
GP_PS_FN uint64_t gp_ps_cap(uint64_t n, uint64_t total, int p) {
  const uint64_t avg = total / (uint64_t)p, big = n > avg ? n : avg;
  return n + big / 16 + 1024;
}

/* The bucket of (encoded key e, global position g): how many of the nb splitters (sk,
 * sp), sorted, are <= it. */
GP_PS_FN unsigned gp_ps_bucket(uint64_t e, uint64_t g, const uint64_t *sk, const uint64_t *sp,
                               unsigned nb) {
  unsigned b = 0;
  for (unsigned i = 0; i < nb; i++) b += sk[i] < e || (sk[i] == e && sp[i] <= g);
  return b;
}

/* Length of the overlap of [a, a + an) and [b, b + bn); *lo its start when not empty. */
GP_PS_FN uint64_t gp_ps_overlap(uint64_t a, uint64_t an, uint64_t b, uint64_t bn, uint64_t *lo) {
  const uint64_t s = a > b ? a : b, e = a + an < b + bn ? a + an : b + bn;
  *lo = s;
  return e > s ? e - s : 0;
}

/* What every rank computes alike from the counts: keys, the samples asked for over all
 * ranks (want) and taken (ssum: each rank's gp_ps_rank_samples, rounded up), sample slots
 * per rank (the largest rank's share; the others pad with (~0, ~0), which sorts last),
 * and the sorted sample each of the p - 1 splitters is (at the ranks' cumulative counts;
 * index >= the slots in all: +infinity). */
typedef struct gp_ps_plan {
  uint64_t total, want, ssum, slots;
  uint64_t pick[GP_PS_MAX_RANKS];
} gp_ps_plan;

/* The samples a rank of n keys takes under the plan. */
GP_PS_FN uint64_t gp_ps_rank_samples(const gp_ps_plan *pl, uint64_t n) {
  return gp_ps_samples(n, pl->total, pl->want);
}

GP_PS_FN void gp_ps_make_plan(gp_ps_plan *pl, int p, const uint64_t *all_n) {
  pl->total = pl->ssum = pl->slots = 0;
  for (int r = 0; r < p; r++) pl->total += all_n[r];
  const uint64_t want = (uint64_t)GP_PS_SAMPLES_PER_RANK * (uint64_t)p;
  pl->want = pl->total < want ? pl->total : want;
  for (int r = 0; r < p; r++) {
    const uint64_t s = gp_ps_rank_samples(pl, all_n[r]);
    pl->ssum += s;
    if (s > pl->slots) pl->slots = s;
  }
  uint64_t t = 0;
  for (int b = 0; b + 1 < p; b++) { /* boundary b: where rank b + 1's slice starts */
    t += all_n[b];
    pl->pick[b] = pl->total ? t * pl->ssum / pl->total : 0;
  }
}

#endif
