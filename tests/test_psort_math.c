/* The partition path of gp_dist_sort, simulated on the CPU with the arithmetic the host
 * code and the kernels share (core/psort_math.h): for 2 .. 8 ranks, skewed shardings
 * (even, all on one rank, one key on one rank, cubic, random with empty ranks) and key
 * patterns (random, few distinct, all equal, sorted, reversed, random in a narrow
 * range), every sample lies in its shard, the buckets follow the global order, no rank
 * receives more than its capacity (so the path never falls back on these), and the
 * rebalance moves every key once, to its own rank. The GPU test (test_dist_gpu) runs
 * the real path; this one needs no GPU and runs everywhere. */
#include "check.h"
#include "core/psort_math.h"

enum { K_RANDOM, K_FEW, K_EQUAL, K_SORTED, K_REVERSED, K_NARROW, K_COUNT };
static const char *k_name[] = {"random", "few", "equal", "sorted", "reversed", "narrow"};
enum { S_EVEN, S_FIRST, S_LAST, S_ONE, S_CUBIC, S_RANDOM, S_COUNT };
static const char *s_name[] = {"even", "all-on-first", "all-on-last", "one-on-first", "cubic",
                               "random-with-empty"};

typedef struct tuple { uint64_t k, g; } tuple;
static int cmp_tuple(const void *a, const void *b) {
  const tuple *x = a, *y = b;
  return x->k != y->k ? (x->k > y->k) - (x->k < y->k) : (x->g > y->g) - (x->g < y->g);
}

static void shard(int how, int p, uint64_t n, uint64_t *cnt) {
  uint64_t left = n;
  for (int r = 0; r < p; r++) cnt[r] = 0;
  if (how == S_FIRST) cnt[0] = n;
  else if (how == S_LAST) cnt[p - 1] = n;
  else if (how == S_ONE) {
    cnt[0] = n ? 1 : 0;
    cnt[p - 1] += n - cnt[0];
  } else {
    for (int r = 0; r < p; r++) {
      uint64_t w = how == S_EVEN ? n / (uint64_t)p
                   : how == S_CUBIC ? n * (uint64_t)((r + 1) * (r + 1) * (r + 1)) / 2000
                                    : (check_rand64() % 3 == 0 ? 0 : check_rand64() % (2 * n / (uint64_t)p + 1));
      if (w > left || r == p - 1) w = left;
      cnt[r] = w;
      left -= w;
    }
  }
}

static void run(int p, uint64_t n, int kp, int how) {
  uint64_t cnt[8], start[9], m[8] = {0}, held[9];
  shard(how, p, n, cnt);
  start[0] = 0;
  for (int r = 0; r < p; r++) start[r + 1] = start[r] + cnt[r];
  uint64_t *e = malloc((n ? n : 1) * sizeof *e); /* encoded keys, in global order */
  for (uint64_t i = 0; i < n; i++)
    e[i] = kp == K_RANDOM ? check_rand64() : kp == K_FEW ? check_rand64() % 5
           : kp == K_EQUAL ? 42 : kp == K_SORTED ? i : kp == K_REVERSED ? n - i
           : (1ull << 40) + check_rand64() % 1000;
  gp_ps_plan pl;
  gp_ps_make_plan(&pl, p, cnt);
  CHECK_EQ_U64(pl.total, n);
  /* samples, gathered in rank order with the padding slots, sorted stably by key */
  const uint64_t all = (uint64_t)p * pl.slots;
  tuple *smp = malloc((all ? all : 1) * sizeof *smp);
  uint64_t taken = 0;
  for (int r = 0; r < p; r++) {
    const uint64_t s = gp_ps_rank_samples(&pl, cnt[r]);
    CHECK(s <= cnt[r] && s <= pl.slots && (cnt[r] == 0) == (s == 0));
    taken += s;
    for (uint64_t j = 0; j < pl.slots; j++) {
      tuple *t = &smp[(uint64_t)r * pl.slots + j];
      if (j < s) {
        const uint64_t pos = gp_ps_sample_pos(j, cnt[r], s, start[r]);
        CHECK_MSG(pos >= j * cnt[r] / s && pos < (j + 1) * cnt[r] / s,
                  "sample %llu of rank %d outside its stratum", (unsigned long long)j, r);
        t->k = e[start[r] + pos];
        t->g = start[r] + pos;
      } else {
        t->k = t->g = ~0ull;
      }
    }
  }
  CHECK_EQ_U64(taken, pl.ssum);
  qsort(smp, all, sizeof *smp, cmp_tuple);
  uint64_t sk[8], sp[8];
  for (int b = 0; b + 1 < p; b++) {
    CHECK(pl.pick[b] <= pl.ssum && (b == 0 || pl.pick[b] >= pl.pick[b - 1]));
    sk[b] = pl.pick[b] < all ? smp[pl.pick[b]].k : ~0ull;
    sp[b] = pl.pick[b] < all ? smp[pl.pick[b]].g : ~0ull;
  }
  /* the buckets, and the global order across them */
  unsigned *bk = malloc((n ? n : 1) * sizeof *bk);
  for (uint64_t i = 0; i < n; i++) {
    bk[i] = gp_ps_bucket(e[i], i, sk, sp, (unsigned)(p - 1));
    m[bk[i]]++;
  }
  uint64_t hi[8], lo[8];
  for (int b = 0; b < p; b++) hi[b] = 0, lo[b] = ~0ull;
  for (uint64_t i = 0; i < n; i++) {
    if (e[i] > hi[bk[i]]) hi[bk[i]] = e[i];
    if (e[i] < lo[bk[i]]) lo[bk[i]] = e[i];
  }
  for (int b = 0; b + 1 < p; b++)
    for (int c = b + 1; c < p; c++)
      CHECK_MSG(!m[b] || !m[c] || hi[b] <= lo[c], "%s %s p=%d: bucket %d above bucket %d",
                k_name[kp], s_name[how], p, b, c);
  /* capacity: this data never sends the path back to the exact one */
  held[0] = 0;
  for (int r = 0; r < p; r++) {
    CHECK_MSG(m[r] <= gp_ps_cap(cnt[r], n, p),
              "%s %s p=%d n=%llu: rank %d receives %llu keys, capacity %llu (count %llu)",
              k_name[kp], s_name[how], p, (unsigned long long)n, r, (unsigned long long)m[r],
              (unsigned long long)gp_ps_cap(cnt[r], n, p), (unsigned long long)cnt[r]);
    held[r + 1] = held[r] + m[r];
  }
  /* rebalance: each rank's run goes out whole, each rank's slice comes in whole */
  for (int r = 0; r < p; r++) {
    uint64_t out = 0, in = 0, at;
    for (int j = 0; j < p; j++) {
      out += gp_ps_overlap(held[r], m[r], start[j], cnt[j], &at);
      in += gp_ps_overlap(held[j], m[j], start[r], cnt[r], &at);
    }
    CHECK(out == m[r] && in == cnt[r]);
  }
  free(bk);
  free(smp);
  free(e);
}

int main(void) {
  check_seed(2026);
  const uint64_t sizes[] = {0, 1, 7, 1000, 65536 + 3, (1u << 20) + 5};
  const int ps[] = {2, 3, 4, 8};
  for (int pi = 0; pi < 4; pi++)
    for (int si = 0; si < 6; si++)
      for (int kp = 0; kp < K_COUNT; kp++)
        for (int how = 0; how < S_COUNT; how++) {
          if (sizes[si] > 100000 && (how == S_CUBIC || kp == K_REVERSED)) continue;
          run(ps[pi], sizes[si], kp, how);
        }
  uint64_t o;
  CHECK(gp_ps_overlap(0, 10, 5, 10, &o) == 5 && o == 5);
  CHECK(gp_ps_overlap(0, 5, 5, 10, &o) == 0);
  CHECK(gp_ps_bucket(5, 0, (const uint64_t[]){5}, (const uint64_t[]){3}, 1) == 0); /* (5,0) < (5,3) */
  CHECK(gp_ps_bucket(5, 3, (const uint64_t[]){5}, (const uint64_t[]){3}, 1) == 1);
  return check_summary("test_psort_math");
}
