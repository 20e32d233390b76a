/* Span model: the chapter's 15 (64 blocks) and self-check 6's 19 (1024 blocks), the
 * multi-level and library designs, work = n - 1 real additions for every correct design,
 * and closed forms derived here for all-real inputs. Host only. */
#include "check.h"

static unsigned lg(uint64_t x) { unsigned r = 0; while (x > 1) x >>= 1, r++; return r; }
static unsigned clg(uint64_t x) { unsigned r = lg(x); return ((uint64_t)1 << r) < x ? r + 1 : r; }

static gp_span_result span(gp_context *ctx, uint64_t n, uint64_t B, unsigned T, unsigned T2,
                           gp_span_design d) {
  gp_span_config c = {n, B, T, T2};
  gp_span_result r;
  memset(&r, 0, sizeof r);
  CHECK_OK(ctx, gp_model_span(ctx, &c, d, &r));
  return r;
}

static void chapter(gp_context *ctx) {
  /* 4.3: N = 100000, 64 blocks of 256: 8 + 1 + 6 = 15, ~6.1 elements per thread (7 at most) */
  gp_span_result r = span(ctx, 100000, 64, 256, 0, GP_SPAN_CHAPTER);
  CHECK_EQ_U64(r.span_levels, 15);
  CHECK_EQ_U64(r.nstages, 2);
  CHECK_EQ_U64(r.stage[0].tree_levels, 8);
  CHECK_EQ_U64(r.stage[1].tree_levels, 6);
  CHECK_EQ_U64(r.stage[0].loop_len, 7);
  CHECK_EQ_U64(r.work_combines, 100000 - 1);
  /* the seed's phase 2 (256 threads) reads all 64 partials: same 15, right sum */
  r = span(ctx, 100000, 64, 256, 0, GP_SPAN_SEED);
  CHECK_EQ_U64(r.span_levels, 15);
  CHECK_EQ_U64(r.stage[1].unread, 0);
  CHECK_EQ_U64(r.stage[1].tree_steps, 8); /* it executes 8 steps, 6 of them on real data */
  /* self-check 6: 1024 blocks (every partial real: n >= 1024*256): 8 + 1 + 10 = 19 */
  r = span(ctx, 1u << 20, 1024, 256, 0, GP_SPAN_CHAPTER);
  CHECK_EQ_U64(r.span_levels, 19);
  /* ... and reduce_phase2 as written drops 768 partials: a wrong sum */
  r = span(ctx, 1u << 20, 1024, 256, 0, GP_SPAN_SEED);
  CHECK_EQ_U64(r.stage[1].unread, 768);
  CHECK(r.work_combines < (1u << 20) - 1);
  /* multi-level: 1024 -> 4 -> 1: 8 + 1 + 8 + 1 + 2 = 20 over 3 launches */
  r = span(ctx, 1u << 20, 1024, 256, 0, GP_SPAN_MULTI_LEVEL);
  CHECK_EQ_U64(r.nstages, 3);
  CHECK_EQ_U64(r.launch_boundaries, 2);
  CHECK_EQ_U64(r.span_levels, 20);
  CHECK_EQ_U64(r.work_combines, (1u << 20) - 1);
  /* library: one 256-thread block, 4 partials per thread: levels 8 + 1 + 8 = 17; with the
   * loops 3 + 8 + 1 + 3 + 8 = 23; executed 4 + 8 + 1 + 4 + 8 = 25 */
  r = span(ctx, 1u << 20, 1024, 256, 0, GP_SPAN_LIBRARY);
  CHECK_EQ_U64(r.span_levels, 17);
  CHECK_EQ_U64(r.span_levels_loops, 23);
  CHECK_EQ_U64(r.span_steps, 25);
  CHECK_EQ_U64(r.stage[1].loop_len, 4);
  CHECK_EQ_U64(r.work_combines, (1u << 20) - 1);
  /* n = 1: nothing to combine; one boundary */
  r = span(ctx, 1, 64, 256, 0, GP_SPAN_CHAPTER);
  CHECK_EQ_U64(r.span_levels, 1);
  CHECK_EQ_U64(r.work_combines, 0);
}

/* Closed forms with every partial real (n a multiple of B*T, n >= B*T):
 *   chapter      log2 T + 1 + ceil(log2 B)
 *   library      log2 T + 1 + log2 min(B, T2); loops add (n/(B*T) - 1) + (ceil(B/T2) - 1)
 *   multi-level  launches after phase 1 = max(1, ceil(log_T2 B))
 *   executed adds of phase 1 = n + B*(T-1) */
static void closed_forms(gp_context *ctx) {
  for (unsigned T = 1; T <= 1024; T *= 4)
    for (unsigned T2 = 2; T2 <= 1024; T2 *= 8)
      for (uint64_t B = 1; B <= 5000; B = B * 3 + 1)
        for (uint64_t k = 1; k <= 3; k++) {
          uint64_t n = k * B * T;
          gp_span_result r = span(ctx, n, B, T, T2, GP_SPAN_CHAPTER);
          CHECK_MSG(r.span_levels == lg(T) + 1 + clg(B), "chapter n=%llu B=%llu T=%u: %llu",
                    (unsigned long long)n, (unsigned long long)B, T, (unsigned long long)r.span_levels);
          CHECK_EQ_U64(r.stage[0].adds, n + B * (T - 1));
          r = span(ctx, n, B, T, T2, GP_SPAN_LIBRARY);
          uint64_t m = B < T2 ? B : T2;
          CHECK_EQ_U64(r.span_levels, lg(T) + 1 + clg(m));
          CHECK_EQ_U64(r.span_levels_loops, lg(T) + 1 + clg(m) + (k - 1) + ((B + T2 - 1) / T2 - 1));
          CHECK_EQ_U64(r.work_combines, n - 1);
          r = span(ctx, n, B, T, T2, GP_SPAN_MULTI_LEVEL);
          unsigned launches = 0;
          for (uint64_t x = B; launches == 0 || x > 1; x = (x + T2 - 1) / T2) launches++;
          CHECK_EQ_U64(r.nstages, 1 + launches);
          CHECK_EQ_U64(r.work_combines, n - 1);
        }
}

/* Property: every correct design combines n - 1 pairs of real values, whatever n (also
 * n smaller than the grid, where blocks and threads hold padding). */
static void work_property(gp_context *ctx) {
  check_seed(42);
  for (int i = 0; i < 300; i++) {
    uint64_t n = 1 + check_rand64() % 3000000;
    uint64_t B = 1 + check_rand64() % 3000;
    unsigned T = 1u << (check_rand64() % 11), T2 = 1u << (check_rand64() % 11);
    for (int d = 0; d < GP_SPAN_DESIGN_COUNT; d++) {
      if (d == GP_SPAN_MULTI_LEVEL && T2 < 2) T2 = 2;
      gp_span_result r = span(ctx, n, B, T, T2, (gp_span_design)d);
      int unread = 0;
      for (unsigned s = 0; s < r.nstages; s++) unread |= r.stage[s].unread != 0;
      CHECK_MSG((r.work_combines == n - 1) == !unread, "design %d n=%llu B=%llu T=%u T2=%u", d,
                (unsigned long long)n, (unsigned long long)B, T, T2);
      if (d != GP_SPAN_SEED) CHECK(!unread);
      CHECK(r.span_levels <= r.span_levels_loops);
      CHECK(r.work_combines <= r.work_adds);
    }
  }
}

static void errors(gp_context *ctx) {
  gp_span_config c = {100, 64, 256, 0};
  gp_span_result r;
  CHECK_STATUS(gp_model_span(ctx, &c, (gp_span_design)9, &r), GP_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(gp_model_span(ctx, NULL, GP_SPAN_CHAPTER, &r), GP_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(gp_model_span(ctx, &c, GP_SPAN_CHAPTER, NULL), GP_ERR_INVALID_ARGUMENT);
  c.n = 0;
  CHECK_STATUS(gp_model_span(ctx, &c, GP_SPAN_CHAPTER, &r), GP_ERR_INVALID_ARGUMENT);
  CHECK_ERROR_MENTIONS(ctx, "n must be");
  c.n = 100;
  c.block = 200;
  CHECK_STATUS(gp_model_span(ctx, &c, GP_SPAN_CHAPTER, &r), GP_ERR_INVALID_ARGUMENT);
  CHECK_ERROR_MENTIONS(ctx, "block = 200");
  c.block = 256;
  c.blocks = 0;
  CHECK_STATUS(gp_model_span(ctx, &c, GP_SPAN_CHAPTER, &r), GP_ERR_INVALID_ARGUMENT);
  c.blocks = (1u << 20) + 1;
  CHECK_STATUS(gp_model_span(ctx, &c, GP_SPAN_CHAPTER, &r), GP_ERR_INVALID_ARGUMENT);
  c.blocks = 64;
  c.phase2_block = 1;
  CHECK_STATUS(gp_model_span(ctx, &c, GP_SPAN_MULTI_LEVEL, &r), GP_ERR_INVALID_ARGUMENT);
  CHECK_OK(ctx, gp_model_span(ctx, &c, GP_SPAN_LIBRARY, &r)); /* one thread loops over all */
  for (int d = 0; d < GP_SPAN_DESIGN_COUNT; d++)
    CHECK(strcmp(gp_span_design_name((gp_span_design)d), "?") != 0);
}

int main(void) {
  gp_context *ctx = check_cpu_context();
  chapter(ctx);
  closed_forms(ctx);
  work_property(ctx);
  errors(ctx);
  gp_destroy(ctx);
  return check_summary("test_model_span");
}
