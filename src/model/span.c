/* Work and span of the two-phase reduction (seed 000, 4.3), stage by stage: each
 * launch's grid-stride loop and block tree. Tree levels come from running the value
 * flow of the sequential-addressing description (desc.c) with the real values live,
 * so padding (blocks or threads with no data) adds no level, as in the chapter. */
#include "model/desc.h"

#include "core/context.h"

#include <string.h>

const char *gp_span_design_name(gp_span_design d) {
  switch (d) {
  case GP_SPAN_CHAPTER: return "chapter";
  case GP_SPAN_MULTI_LEVEL: return "multi-level";
  case GP_SPAN_LIBRARY: return "library";
  case GP_SPAN_SEED: return "seed";
  }
  return "?";
}

static uint64_t ceil_div(uint64_t a, uint64_t b) { return a / b + (a % b != 0); }
static uint64_t next_pow2(uint64_t x) {
  uint64_t p = 1;
  while (p < x) p <<= 1;
  return p;
}

/* A launch of `blocks` blocks of `threads` over `inputs` values of which the first
 * `real` are data (the rest identity). Each block's thread tid reads value
 * b*threads + tid directly, or with grid_stride every value i with i % (blocks*threads)
 * == its global index. */
static gp_status stage_run(gp_context *ctx, gp_span_stage *st, uint64_t inputs, uint64_t real,
                           uint64_t blocks, unsigned threads, int grid_stride,
                           uint64_t *real_out) {
  memset(st, 0, sizeof *st);
  st->inputs = inputs;
  st->blocks = blocks;
  st->threads = threads;
  st->grid_stride = grid_stride;
  st->outputs = blocks;
  gp_model_config c;
  memset(&c, 0, sizeof c);
  c.algo = GP_MODEL_SEQUENTIAL;
  c.block = threads;
  md_desc d;
  gp_status s = md_build_limit(ctx, &c, &d, 1u << 20);
  if (s) return s;
  st->tree_steps = d.log2_block;
  const uint64_t grid = blocks * threads;
  uint64_t read = grid_stride ? inputs : (inputs < grid ? inputs : grid);
  uint64_t real_read = real < read ? real : read;
  st->unread = real - real_read; /* real values no thread reads: the sum is wrong */
  /* threads holding a real value: global index < real_read (a contiguous prefix) */
  uint64_t live_threads = real_read < grid ? real_read : grid;
  st->loop_len = grid_stride ? ceil_div(inputs, grid) : (inputs ? 1 : 0);
  uint64_t real_len = grid_stride ? ceil_div(real_read, grid) : (real_read ? 1 : 0);
  st->loop_levels = real_len ? real_len - 1 : 0;
  st->adds = grid_stride ? read : 0;              /* acc += in[i], acc starting at 0 */
  st->combines = real_read - live_threads;        /* the loop's adds of two real values */
  /* Blocks fall in three kinds by their live threads: all, some (one block), none. */
  uint64_t full = live_threads / threads, part = live_threads % threads;
  unsigned long cmb, adds;
  unsigned lv_full = 0, lv_part = 0;
  if (full) {
    lv_full = md_tree_levels(&d, 0, threads, &cmb, &adds);
    st->combines += full * cmb;
  }
  if (part) {
    lv_part = md_tree_levels(&d, 0, (unsigned)part, &cmb, &adds);
    st->combines += cmb;
  }
  md_tree_levels(&d, 0, 0, NULL, &adds); /* every block executes the same adds */
  st->adds += blocks * adds;
  st->tree_levels = lv_full > lv_part ? lv_full : lv_part;
  *real_out = full + (part != 0); /* blocks whose output is real */
  return GP_OK;
}

gp_status gp_model_span(gp_context *ctx, const gp_span_config *cfg, gp_span_design design,
                        gp_span_result *out) {
  gp_status s = gp_check_ctx(ctx);
  if (s) return s;
  if (!cfg || !out) return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT, "cfg or out is NULL");
  if ((unsigned)design >= GP_SPAN_DESIGN_COUNT)
    return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT,
                   "unknown span design %d: use chapter, multi-level, library or seed", (int)design);
  const unsigned T = cfg->block, T2 = cfg->phase2_block ? cfg->phase2_block : cfg->block;
  if (cfg->n < 1) return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT, "n must be at least 1 (n = 0)");
  if (cfg->blocks < 1 || cfg->blocks > (1u << 20))
    return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT, "blocks must be 1 .. 2^20 (blocks = %llu)",
                   (unsigned long long)cfg->blocks);
  if (!md_is_pow2(T) || T > 1024 || !md_is_pow2(T2) || T2 > 1024)
    return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT,
                   "block and phase2_block must be powers of two from 1 to 1024 "
                   "(block = %u, phase2_block = %u)", T, T2);
  if (design == GP_SPAN_MULTI_LEVEL && T2 < 2)
    return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT,
                   "multi-level: phase-2 blocks of 1 thread never shrink the partials; use "
                   "phase2_block >= 2");
  gp_span_result r;
  memset(&r, 0, sizeof r);
  r.design = design;
  uint64_t real;
  s = stage_run(ctx, &r.stage[0], cfg->n, cfg->n, cfg->blocks, T, 1, &real);
  if (s) return s;
  r.nstages = 1;
  uint64_t m = cfg->blocks;
  switch (design) {
  case GP_SPAN_CHAPTER: /* one idealized block with a thread per partial */
    s = stage_run(ctx, &r.stage[1], m, real, 1, (unsigned)next_pow2(m), 0, &real);
    r.nstages = 2;
    break;
  case GP_SPAN_SEED:
    s = stage_run(ctx, &r.stage[1], m, real, 1, T2, 0, &real);
    r.nstages = 2;
    break;
  case GP_SPAN_LIBRARY:
    s = stage_run(ctx, &r.stage[1], m, real, 1, T2, 1, &real);
    r.nstages = 2;
    break;
  case GP_SPAN_MULTI_LEVEL:
    do {
      uint64_t blocks = ceil_div(m, T2);
      s = stage_run(ctx, &r.stage[r.nstages], m, real, blocks, T2, 0, &real);
      r.nstages++;
      m = blocks;
    } while (!s && m > 1 && r.nstages < GP_SPAN_MAX_STAGES);
    break;
  }
  if (s) return s;
  r.launch_boundaries = r.nstages - 1;
  r.span_levels = r.span_levels_loops = r.span_steps = r.launch_boundaries;
  for (unsigned i = 0; i < r.nstages; i++) {
    const gp_span_stage *st = &r.stage[i];
    r.span_levels += st->tree_levels;
    r.span_levels_loops += st->tree_levels + st->loop_levels;
    r.span_steps += st->tree_steps + (st->grid_stride ? st->loop_len : 0);
    r.work_adds += st->adds;
    r.work_combines += st->combines;
  }
  *out = r;
  return GP_OK;
}
