/* Divergence model: the chapter's 256-thread tables exactly, other block and warp sizes
 * against closed forms derived here by hand, and the properties the chapter states
 * (sequential addressing: at most one divergent warp per step; a warp-uniform test
 * never diverges). Host only. */
#include "check.h"
#include "model/desc.h"

static gp_model_config cfg_of(gp_model_algo a, unsigned block, unsigned warp) {
  gp_model_config c;
  memset(&c, 0, sizeof c);
  c.algo = a;
  c.block = block;
  c.warp = warp;
  return c;
}

/* Table rows of one kernel, in order. */
static size_t table(gp_context *ctx, gp_model_algo a, unsigned block, unsigned warp,
                    unsigned kernel, gp_div_step *rows, gp_div_total *tot) {
  gp_div_step st[GP_MODEL_MAX_STEPS];
  size_t n = 0, m = 0;
  gp_model_config c = cfg_of(a, block, warp);
  CHECK_OK(ctx, gp_model_divergence(ctx, &c, st, GP_MODEL_MAX_STEPS, &n, tot));
  for (size_t k = 0; k < n; k++)
    if (st[k].in_table && st[k].kernel == kernel) rows[m++] = st[k];
  return m;
}

/* seed 000 4.1 and 4.2, their printed tables */
static void chapter_tables(gp_context *ctx) {
  gp_div_step r[GP_MODEL_MAX_STEPS];
  gp_div_total ti, ts;
  static const long si[8] = {1, 2, 4, 8, 16, 32, 64, 128};
  static const unsigned ai[8] = {128, 64, 32, 16, 8, 4, 2, 1};
  static const unsigned pi[8] = {16, 16, 16, 16, 16, 8, 4, 2};
  size_t n = table(ctx, GP_MODEL_INTERLEAVED, 256, 32, 0, r, &ti);
  CHECK_EQ_U64(n, 8);
  for (size_t k = 0; k < 8 && k < n; k++) {
    CHECK_EQ_I64(r[k].step_s, si[k]);
    CHECK_EQ_U64(r[k].active_threads, ai[k]);
    CHECK_EQ_U64(r[k].issue_passes, pi[k]);
  }
  CHECK_EQ_U64(ti.table.issue_passes, 94);
  static const long ss[8] = {128, 64, 32, 16, 8, 4, 2, 1};
  static const unsigned ps[8] = {4, 2, 1, 2, 2, 2, 2, 2};
  n = table(ctx, GP_MODEL_SEQUENTIAL, 256, 32, 0, r, &ts);
  CHECK_EQ_U64(n, 8);
  for (size_t k = 0; k < 8 && k < n; k++) {
    CHECK_EQ_I64(r[k].step_s, ss[k]);
    CHECK_EQ_U64(r[k].active_threads, (unsigned)ss[k]);
    CHECK_EQ_U64(r[k].issue_passes, ps[k]);
  }
  /* the sequential table's mixed warps row: 0 0 0 1 1 1 1 1 */
  for (size_t k = 0; k < 8 && k < n; k++) CHECK_EQ_U64(r[k].mixed_warps, k < 3 ? 0 : 1);
  CHECK_EQ_U64(ts.table.issue_passes, 17);
  char buf[16];
  snprintf(buf, sizeof buf, "%.2f", (double)ti.table.issue_passes / (double)ts.table.issue_passes);
  CHECK_MSG(strcmp(buf, "5.53") == 0, "ratio %s", buf);
}

/* Self-check 1: 128 threads (4 warps), derived by hand.
 * interleaved: s = 1..16 leave an active lane in all 4 warps (8 passes each); s = 32
 * in warps 0 and 2 (4); s = 64 in warp 0 (2): 5*8 + 4 + 2 = 46 over 7 steps, and s = 16
 * is the first step with exactly one active lane per warp (tid % 32 == 0).
 * sequential: s = 64 two whole warps (2), s = 32 one (1), s = 16..1 mixed warp 0 (2 each):
 * 2 + 1 + 5*2 = 13. */
static void block128(gp_context *ctx) {
  gp_div_step r[GP_MODEL_MAX_STEPS];
  gp_div_total t;
  size_t n = table(ctx, GP_MODEL_INTERLEAVED, 128, 32, 0, r, &t);
  CHECK_EQ_U64(n, 7);
  CHECK_EQ_U64(t.table.issue_passes, 46);
  static const unsigned p[7] = {8, 8, 8, 8, 8, 4, 2};
  for (size_t k = 0; k < 7 && k < n; k++) CHECK_EQ_U64(r[k].issue_passes, p[k]);
  size_t first_one_per_warp = 99;
  for (size_t k = 0; k < n; k++)
    if (r[k].active_threads == r[k].active_warps && r[k].active_warps == 4) {
      first_one_per_warp = k;
      break;
    }
  CHECK(first_one_per_warp < n && r[first_one_per_warp].step_s == 16);
  n = table(ctx, GP_MODEL_SEQUENTIAL, 128, 32, 0, r, &t);
  CHECK_EQ_U64(n, 7);
  CHECK_EQ_U64(t.table.issue_passes, 13);
}

/* Closed forms for every power-of-two block and warp (derived by hand):
 * interleaved step s: lanes tid % 2s == 0. With 2s <= W every warp holds one, else only
 * T / 2s warps do; each active warp is mixed when W > 1 (odd lanes never work), so it
 * costs 2 passes (1 when W = 1). sequential step s: s >= W -> s / W whole warps, one pass
 * each; s < W -> warp 0 alone, mixed (2 passes). */
static void closed_forms(gp_context *ctx) {
  for (unsigned W = 1; W <= 64; W *= 2)
    for (unsigned T = 1; T <= 1024; T *= 2) {
      gp_div_step r[GP_MODEL_MAX_STEPS];
      gp_div_total t;
      unsigned nw = (T + W - 1) / W;
      size_t n = table(ctx, GP_MODEL_INTERLEAVED, T, W, 0, r, &t);
      unsigned steps = 0;
      unsigned long sum = 0;
      for (unsigned s = 1; s < T; s *= 2, steps++) {
        unsigned aw = 2 * s <= W ? nw : T / (2 * s);
        unsigned passes = W > 1 ? 2 * aw : aw;
        sum += passes;
        if (steps < n) {
          CHECK_MSG(r[steps].issue_passes == passes && r[steps].active_threads == T / (2 * s),
                    "interleaved T=%u W=%u s=%u: %u passes %u active, expected %u %u", T, W, s,
                    r[steps].issue_passes, r[steps].active_threads, passes, T / (2 * s));
        }
      }
      CHECK_EQ_U64(n, steps);
      CHECK_EQ_U64(t.table.issue_passes, sum);
      n = table(ctx, GP_MODEL_SEQUENTIAL, T, W, 0, r, &t);
      steps = 0;
      sum = 0;
      for (unsigned s = T / 2; s > 0; s /= 2, steps++) {
        unsigned passes = s >= W ? s / W : 2;
        sum += passes;
        if (steps < n)
          CHECK_MSG(r[steps].issue_passes == passes, "sequential T=%u W=%u s=%u: %u != %u", T, W,
                    s, r[steps].issue_passes, passes);
      }
      CHECK_EQ_U64(t.table.issue_passes, sum);
      /* the strided-index interleaved variant selects tid < T/2s: contiguous, so its
       * steps cost what sequential addressing's do (in reverse order) */
      gp_div_total ts;
      table(ctx, GP_MODEL_INTERLEAVED_STRIDED, T, W, 0, r, &ts);
      CHECK_EQ_U64(ts.table.issue_passes, t.table.issue_passes);
      CHECK(ts.table.max_mixed_per_step <= 1);
      /* two-phase: both trees are sequential-addressing trees of the block */
      if (T >= 2) {
        gp_div_total tp;
        size_t n1 = table(ctx, GP_MODEL_TWO_PHASE, T, W, 0, r, &tp);
        CHECK_EQ_U64(n1, steps);
        CHECK_EQ_U64(tp.table.issue_passes, 2 * sum);
      }
    }
}

/* Property: sequential addressing never has more than one divergent warp in a step. */
static void sequential_property(gp_context *ctx) {
  for (unsigned W = 1; W <= 64; W *= 2)
    for (unsigned T = 1; T <= 1024; T *= 2) {
      gp_div_step st[GP_MODEL_MAX_STEPS];
      size_t n;
      gp_model_config c = cfg_of(GP_MODEL_SEQUENTIAL, T, W);
      CHECK_OK(ctx, gp_model_divergence(ctx, &c, st, GP_MODEL_MAX_STEPS, &n, NULL));
      for (size_t k = 0; k < n; k++)
        if (st[k].part == GP_PART_TREE)
          CHECK_MSG(st[k].mixed_warps <= 1, "T=%u W=%u s=%ld: %u mixed", T, W, st[k].step_s,
                    st[k].mixed_warps);
    }
}

/* Property: a test that depends on the warp alone never diverges. A description
 * whose statements pick warps by several warp-level predicates. */
static void lane_warp_uniform(const md_desc *d, size_t k, unsigned tid, md_lane *o) {
  unsigned w = tid / d->cfg.warp;
  switch (k % 4) {
  case 0: o->active = w % 3 == 0; break;
  case 1: o->active = (w * 2654435761u >> 7) & 1; break;
  case 2: o->active = w < (unsigned)k; break;
  default: o->active = 1; break;
  }
}
static void uniform_property(gp_context *ctx) {
  for (unsigned W = 1; W <= 64; W *= 2)
    for (unsigned T = W; T <= 1024; T *= 2) {
      md_desc d;
      gp_model_config c = cfg_of(GP_MODEL_SEQUENTIAL, T, W);
      CHECK_OK(ctx, md_build(ctx, &c, &d));
      d.nsteps = 16;
      d.lane = lane_warp_uniform;
      for (size_t k = 0; k < d.nsteps; k++) {
        d.step[k].part = GP_PART_TREE;
        gp_div_step st;
        md_divergence_step(&d, k, &st);
        CHECK_MSG(st.mixed_warps == 0, "T=%u W=%u k=%zu", T, W, k);
        CHECK_EQ_U64(st.issue_passes, st.active_warps); /* one pass per active warp */
      }
    }
  /* the warp-atomic shuffle steps are warp-uniform: every lane shuffles */
  gp_div_step st[GP_MODEL_MAX_STEPS];
  size_t n;
  gp_model_config c = cfg_of(GP_MODEL_WARP_ATOMIC, 1024, 32);
  CHECK_OK(ctx, gp_model_divergence(ctx, &c, st, GP_MODEL_MAX_STEPS, &n, NULL));
  unsigned shuffles = 0;
  for (size_t k = 0; k < n; k++)
    if (st[k].part == GP_PART_WARP_TREE) {
      shuffles++;
      CHECK_EQ_U64(st[k].mixed_warps, 0);
    }
  CHECK_EQ_U64(shuffles, 10); /* 5 offsets, twice */
  /* only the lane-0 store and the tid == 0 atomic diverge: 32 warps + 1 */
  gp_div_total t;
  CHECK_OK(ctx, gp_model_divergence(ctx, &c, NULL, 0, &n, &t));
  CHECK_EQ_U64(t.kernel.mixed_warps, 32 + 1);
}

static void errors(gp_context *ctx) {
  gp_model_config c = cfg_of(GP_MODEL_SEQUENTIAL, 256, 32);
  gp_div_step st[4];
  size_t n;
  gp_div_total t;
  unsigned bad_blocks[] = {0, 3, 100, 2048};
  for (unsigned i = 0; i < 4; i++) {
    c.block = bad_blocks[i];
    CHECK_STATUS(gp_model_divergence(ctx, &c, NULL, 0, &n, &t), GP_ERR_INVALID_ARGUMENT);
    CHECK_ERROR_MENTIONS(ctx, "block must be a power of two");
  }
  c.block = 256;
  c.warp = 3;
  CHECK_STATUS(gp_model_divergence(ctx, &c, NULL, 0, &n, &t), GP_ERR_INVALID_ARGUMENT);
  CHECK_ERROR_MENTIONS(ctx, "warp = 3");
  c.warp = 128;
  CHECK_STATUS(gp_model_divergence(ctx, &c, NULL, 0, &n, &t), GP_ERR_INVALID_ARGUMENT);
  c.warp = 32;
  c.algo = (gp_model_algo)99;
  CHECK_STATUS(gp_model_divergence(ctx, &c, NULL, 0, &n, &t), GP_ERR_INVALID_ARGUMENT);
  CHECK_ERROR_MENTIONS(ctx, "unknown model algorithm");
  c.algo = GP_MODEL_SEQUENTIAL;
  n = 777;
  CHECK_STATUS(gp_model_divergence(ctx, &c, st, 4, &n, &t), GP_ERR_INVALID_ARGUMENT);
  CHECK_ERROR_MENTIONS(ctx, "statements");
  CHECK_EQ_U64(n, 777); /* untouched on failure */
  CHECK_STATUS(gp_model_divergence(ctx, NULL, NULL, 0, &n, &t), GP_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(gp_model_divergence(ctx, &c, NULL, 0, NULL, NULL), GP_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(gp_model_divergence(NULL, &c, NULL, 0, &n, &t), GP_ERR_INVALID_ARGUMENT);
  c = cfg_of(GP_MODEL_WARP_ATOMIC, 16, 32); /* smaller than a warp */
  CHECK_STATUS(gp_model_divergence(ctx, &c, NULL, 0, &n, &t), GP_ERR_INVALID_ARGUMENT);
  c = cfg_of(GP_MODEL_WARP_SHARED, 128, 8); /* 16 warps > 8 lanes of warp 0 */
  CHECK_STATUS(gp_model_divergence(ctx, &c, NULL, 0, &n, &t), GP_ERR_INVALID_ARGUMENT);
  c = cfg_of(GP_MODEL_TWO_PHASE, 32, 32);
  c.partials = 33;
  CHECK_STATUS(gp_model_divergence(ctx, &c, NULL, 0, &n, &t), GP_ERR_INVALID_ARGUMENT);
  /* names round-trip */
  for (unsigned a = 0; a < GP_MODEL_ALGO_COUNT; a++) {
    gp_model_algo back;
    CHECK_OK(ctx, gp_model_algo_from_name(gp_model_algo_name((gp_model_algo)a), &back));
    CHECK(back == (gp_model_algo)a);
  }
  gp_model_algo x;
  CHECK_STATUS(gp_model_algo_from_name("bogus", &x), GP_ERR_PARSE);
}

int main(void) {
  gp_context *ctx = check_cpu_context();
  chapter_tables(ctx);
  block128(ctx);
  closed_forms(ctx);
  sequential_property(ctx);
  uniform_property(ctx);
  errors(ctx);
  gp_destroy(ctx);
  return check_summary("test_model_divergence");
}
