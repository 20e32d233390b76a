/* gp_dist_reduce's combine (src/dist/combine.c), on the CPU: the array cut into shards
 * (1 to 5 ranks, skewed, some empty), each shard's record made as the GPU path makes it
 * (the exact superaccumulator for F32/F64 SUM, which is the same integer on every
 * backend; gp_reduce's result otherwise), the records combined: the bits must equal the
 * exact sum rounded once (tests/exact_ref.h, through every case of exact_cases.h) and
 * gp_reduce over the whole array for every op and dtype. Needs no GPU and no NCCL. */
#include "exact_cases.h"
#include "sort_check.h"
#include "dist/combine.h"
#include "core/exact_sum.h"
#include "cpu/reduce_cpu.h"

#include <stdlib.h>

static gp_context *ctx;
static unsigned cut_next; /* rotates the ranks and the sharding from call to call */

/* Cuts n into p shard counts: 0 even, 1 all on the last, 2 one on the first and the rest
 * spread, 3 quadratic weights with the first empty. */
static void cut(size_t n, int p, int how, size_t *cnt) {
  size_t left = n;
  for (int r = 0; r < p; r++) {
    size_t c = 0;
    if (how == 0) c = n / (size_t)p;
    else if (how == 2) c = r == 0 ? (n > 0) : (n - (n > 0)) / (size_t)(p > 1 ? p - 1 : 1);
    else if (how == 3) c = r == 0 ? 0 : n * (size_t)(r * r) / (size_t)(p * p);
    cnt[r] = c < left ? c : left;
    left -= cnt[r];
  }
  cnt[p - 1] += left;
}

/* The combine of p shards of x, records laid out as gp_dist_reduce lays them: the largest
 * record size for every op, then a 3-word trailer (status, n, signature). */
static void combined(gp_op op, gp_dtype t, const void *x, size_t n, int p, int how, void *out) {
  const size_t words = gp_dist_rec_words(op, t), es = gp_dtype_size(t);
  const size_t stride = gp_dist_rec_words(GP_SUM, GP_F64) + 3;
  uint64_t *recs = calloc((size_t)p * stride, 8), all_n[5];
  size_t cnt[5], off = 0;
  cut(n, p, how, cnt);
  for (int r = 0; r < p; r++) {
    uint64_t *rec = recs + (size_t)r * stride;
    const char *shard = x ? (const char *)x + off * es : NULL; /* n = 0: x may be NULL */
    all_n[r] = cnt[r];
    if (cnt[r] > 0 && words > 1)
      gp_cpu_sum_exact_acc(t, shard, cnt[r], (int64_t *)rec);
    else if (cnt[r] > 0)
      CHECK_OK(ctx, gp_reduce(ctx, op, t, shard, cnt[r], rec, GP_REDUCE_AUTO));
    off += cnt[r];
  }
  gp_dist_combine(op, t, recs, stride, all_n, p, out);
  free(recs);
}

/* exact_cases.h's sum, through 1..5 shards */
static gp_status xc_sum(gp_dtype t, const void *x, size_t n, void *out) {
  const unsigned k = cut_next++;
  combined(GP_SUM, t, x, n, 1 + (int)(k % 5), (int)((k / 5) % 4), out);
  return GP_OK;
}

/* every op and dtype against gp_reduce over the whole array */
static void test_all_ops(void) {
  const size_t sizes[] = {1, 2, 7, 1000, 70001};
  for (int si = 0; si < 5; si++)
    for (int t = 0; t < GP_DTYPE_COUNT; t++)
      for (int pat = 0; pat < SC_PATTERNS; pat++) {
        const size_t n = sizes[si], es = gp_dtype_size((gp_dtype)t);
        char *x = malloc(n * es);
        check_seed(99 + n + (size_t)pat * 31 + (size_t)t);
        sc_fill((gp_dtype)t, pat, x, n);
        for (int op = 0; op < 3; op++)
          for (int p = 1; p <= 5; p++)
            for (int how = 0; how < 4; how++) {
              uint64_t got = 0, want = 0;
              combined((gp_op)op, (gp_dtype)t, x, n, p, how, &got);
              CHECK_OK(ctx, gp_reduce(ctx, (gp_op)op, (gp_dtype)t, x, n, &want, GP_REDUCE_AUTO));
              CHECK_MSG(got == want, "%s %s %s n=%zu p=%d cut %d: %#llx, whole %#llx",
                        gp_op_name((gp_op)op), gp_dtype_name((gp_dtype)t), sc_pattern_name[pat],
                        n, p, how, (unsigned long long)got, (unsigned long long)want);
            }
        free(x);
      }
  /* an empty whole array sums to +0 (not the -0 of an accumulator that saw no input) */
  for (int t = 0; t < GP_DTYPE_COUNT; t++) {
    uint64_t got = 1;
    combined(GP_SUM, (gp_dtype)t, NULL, 0, 3, 0, &got);
    CHECK_MSG(got == 0, "%s SUM of nothing: %#llx", gp_dtype_name((gp_dtype)t), (unsigned long long)got);
  }
  /* shards of -0 only: -0, as one gp_reduce gives */
  double z[4] = {-0.0, -0.0, -0.0, -0.0};
  uint64_t got = 0, want = 1;
  combined(GP_SUM, GP_F64, z, 4, 3, 0, &got);
  CHECK_OK(ctx, gp_reduce(ctx, GP_SUM, GP_F64, z, 4, &want, GP_REDUCE_AUTO));
  CHECK_MSG(got == want && want == 0x8000000000000000ull, "-0 sum %#llx vs %#llx",
            (unsigned long long)got, (unsigned long long)want);
}

int main(void) {
  ctx = check_cpu_context();
  test_known();
  test_ties();
  test_random();
  test_dense();
  test_all_ops();
  gp_destroy(ctx);
  return check_summary("test_dist_combine");
}
