/* The description of each reduction variant the cost models read: its statements in
 * order, and per thread which statements it executes, which shared-memory elements
 * it touches and how values flow. Divergence, banks and span are all computed from
 * this one place (divergence.c, banks.c, span.c), never from the chapters' numbers. */
#include "model/desc.h"

#include "core/context.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int md_is_pow2(unsigned long x) { return x && !(x & (x - 1)); }
unsigned md_log2(unsigned long x) {
  unsigned r = 0;
  while (x > 1) x >>= 1, r++;
  return r;
}

static const char *const algo_names[GP_MODEL_ALGO_COUNT] = {
    "interleaved", "interleaved-strided", "sequential", "two-phase", "warp-atomic",
    "warp-shared"};

const char *gp_model_algo_name(gp_model_algo a) {
  return ((unsigned)a < GP_MODEL_ALGO_COUNT) ? algo_names[a] : "?";
}

gp_status gp_model_algo_from_name(const char *name, gp_model_algo *a) {
  if (!name || !a) return GP_ERR_INVALID_ARGUMENT;
  for (unsigned i = 0; i < GP_MODEL_ALGO_COUNT; i++)
    if (strcmp(name, algo_names[i]) == 0) {
      *a = (gp_model_algo)i;
      return GP_OK;
    }
  if (strcmp(name, "two_phase") == 0) { *a = GP_MODEL_TWO_PHASE; return GP_OK; }
  if (strcmp(name, "warp_atomic") == 0) { *a = GP_MODEL_WARP_ATOMIC; return GP_OK; }
  return GP_ERR_PARSE;
}

const char *gp_model_part_name(gp_model_part p) {
  switch (p) {
  case GP_PART_LOAD: return "load";
  case GP_PART_TREE: return "tree";
  case GP_PART_WARP_TREE: return "warp-tree";
  case GP_PART_HANDOFF: return "handoff";
  case GP_PART_EPILOGUE: return "epilogue";
  }
  return "?";
}

/* ---- helpers to fill a lane ---------------------------------------------------- */
static void acc(md_lane *o, unsigned array, unsigned long index, int store, const char *text) {
  if (!o->active || o->nacc >= MD_MAX_ACCESS) return;
  md_access *a = &o->acc[o->nacc++];
  a->array = array;
  a->index = index;
  a->store = store;
  a->text = text;
}
static void flow(md_lane *o, md_flow f, unsigned long dst, unsigned long src) {
  o->flow = f;
  o->dst = dst;
  o->src = src;
}

/* sdata[i] += sdata[i + s]: two loads and a store, one addition. */
static void tree_add(const md_desc *d, md_lane *o, unsigned long i, unsigned long s,
                     const char *l0, const char *l1, const char *st) {
  (void)d;
  acc(o, 0, i, 0, l0);
  acc(o, 0, i + s, 0, l1);
  acc(o, 0, i, 1, st);
  if (o->active) {
    flow(o, MD_FLOW_COMBINE, MD_SLOT_SDATA(d, i), MD_SLOT_SDATA(d, i + s));
    o->adds = 1;
  }
}

/* ---- seed 000 4.1, 4.2, cuda-samples reduce1, and the two-phase kernels ---------- */
/* Kernel 0 of every shared-memory tree variant: load, tree, tid 0 writes. Two-phase
 * adds kernel 1: the partials load (tid < num_partials), the same tree, tid 0 writes. */
static void lane_tree(const md_desc *d, size_t k, unsigned tid, md_lane *o) {
  const md_step *st = &d->step[k];
  const unsigned long s = (unsigned long)st->s;
  switch (st->part) {
  case GP_PART_LOAD:
    if (st->kernel == 1 && st->s == -2) { /* tid < num_partials ? partials[tid] : 0 */
      o->active = tid < d->cfg.partials;
      if (o->active) flow(o, MD_FLOW_INPUT, MD_SLOT_SDATA(d, tid), 0);
      else flow(o, MD_FLOW_CLEAR, MD_SLOT_SDATA(d, tid), 0);
      return;
    }
    o->active = 1; /* sdata[tid] = value */
    acc(o, 0, tid, 1, "store sdata[tid]");
    if (st->kernel == 0) flow(o, MD_FLOW_INPUT, MD_SLOT_SDATA(d, tid), 0);
    return;
  case GP_PART_TREE:
    switch (d->cfg.algo) {
    case GP_MODEL_INTERLEAVED:
      o->active = tid % (2 * s) == 0;
      tree_add(d, o, tid, s, "load sdata[tid]", "load sdata[tid + s]", "store sdata[tid]");
      return;
    case GP_MODEL_INTERLEAVED_STRIDED: {
      unsigned long i = 2 * s * tid;
      o->active = i < d->cfg.block;
      tree_add(d, o, i, s, "load sdata[i]", "load sdata[i + s]", "store sdata[i]");
      return;
    }
    default: /* sequential, two-phase */
      o->active = tid < s;
      tree_add(d, o, tid, s, "load sdata[tid]", "load sdata[tid + s]", "store sdata[tid]");
      return;
    }
  case GP_PART_EPILOGUE:
    o->active = tid == 0;
    acc(o, 0, 0, 0, "load sdata[0]");
    return;
  default:
    return;
  }
}

/* ---- seed 003 6.24: warp trees ---------------------------------------------------
 * warp-atomic (shuffles, the library's gp_block_reduce + atomicAdd):
 *   v = in[i]; for off: v += shfl_down(v, off); if (lane == 0) warp_sums[warp] = v;
 *   sync; if (warp == 0) { v = lane < nwarps ? warp_sums[lane] : 0; shuffle tree }
 *   if (tid == 0) atomicAdd(out, v)
 * warp-shared (Program 6.15 as printed, Shared_mem_sum):
 *   thread_calcs[tid] = f(x); for diff: vals[lane] += vals[(lane + diff) % W];
 *   if (lane == 0) warp_sum_arr[warp] = result; sync;
 *   if (warp == 0) { if (tid >= nwarps) warp_sum_arr[tid] = 0; Shared_mem_sum(warp_sum_arr) }
 *   if (tid == 0) atomicAdd */
static void lane_warp(const md_desc *d, size_t k, unsigned tid, md_lane *o) {
  const md_step *st = &d->step[k];
  const unsigned W = d->cfg.warp, lane = tid % W, warp = tid / W;
  const int shared = d->cfg.algo == GP_MODEL_WARP_SHARED;
  const unsigned long off = st->s > 0 ? (unsigned long)st->s : 0;
  switch (st->part) {
  case GP_PART_LOAD:
    o->active = 1;
    if (shared) {
      acc(o, 0, tid, 1, "store thread_calcs[tid]");
      flow(o, MD_FLOW_INPUT, MD_SLOT_SDATA(d, tid), 0);
    } else {
      flow(o, MD_FLOW_INPUT, MD_SLOT_REG(d, tid), 0);
    }
    return;
  case GP_PART_WARP_TREE: {
    /* kernel-level step index tells which tree: first (every warp) or second (warp 0) */
    const int second = st->in_table == 2;
    o->active = second ? warp == 0 : 1;
    if (!o->active) return;
    o->adds = 1;
    /* Lanes whose partner is past the warp add garbage (a shuffle returns their own
     * value; Shared_mem_sum wraps around): executed, but no lane 0 result uses it. */
    const int feeds = lane + off < W;
    if (shared) {
      unsigned long base = second ? 0 : (unsigned long)warp * W;
      unsigned array = second ? 1 : 0;
      acc(o, array, base + lane, 0, second ? "load warp_sum_arr[lane]" : "load vals[lane]");
      acc(o, array, base + (lane + off) % W, 0,
          second ? "load warp_sum_arr[(lane+diff)%W]" : "load vals[(lane+diff)%W]");
      acc(o, array, base + lane, 1, second ? "store warp_sum_arr[lane]" : "store vals[lane]");
      if (feeds) {
        unsigned long dst = second ? MD_SLOT_WSUM(d, lane) : MD_SLOT_SDATA(d, base + lane);
        unsigned long src = second ? MD_SLOT_WSUM(d, lane + off)
                                   : MD_SLOT_SDATA(d, base + lane + off);
        flow(o, MD_FLOW_COMBINE, dst, src);
      }
    } else if (feeds) {
      flow(o, MD_FLOW_COMBINE, MD_SLOT_REG(d, tid), MD_SLOT_REG(d, tid + off));
    }
    return;
  }
  case GP_PART_HANDOFF:
    if (st->s == -3) { /* lane 0 stores its warp's sum */
      o->active = lane == 0;
      acc(o, 1, warp, 1, shared ? "store warp_sum_arr[warp]" : "store warp_sums[warp]");
      if (o->active)
        flow(o, MD_FLOW_COPY, MD_SLOT_WSUM(d, warp),
             shared ? MD_SLOT_SDATA(d, tid) : MD_SLOT_REG(d, tid));
    } else if (shared) { /* warp 0: if (tid >= nwarps) warp_sum_arr[tid] = 0 */
      o->active = warp == 0 && lane >= d->nwarps;
      acc(o, 1, lane, 1, "store warp_sum_arr[tid] = 0");
      if (o->active) flow(o, MD_FLOW_CLEAR, MD_SLOT_WSUM(d, lane), 0);
    } else { /* warp 0: v = lane < nwarps ? warp_sums[lane] : identity */
      o->active = warp == 0 && lane < d->nwarps;
      acc(o, 1, lane, 0, "load warp_sums[lane]");
      if (o->active) flow(o, MD_FLOW_COPY, MD_SLOT_REG(d, tid), MD_SLOT_WSUM(d, lane));
      else if (warp == 0) flow(o, MD_FLOW_CLEAR, MD_SLOT_REG(d, tid), 0);
    }
    return;
  case GP_PART_EPILOGUE:
    o->active = tid == 0;
    if (shared) acc(o, 1, 0, 0, "load warp_sum_arr[0]");
    return;
  default:
    return;
  }
}

/* ---- building the statement lists ------------------------------------------------ */
static void add_step(md_desc *d, unsigned kernel, gp_model_part part, long s, int in_table,
                     const char *what) {
  md_step *st = &d->step[d->nsteps++];
  st->kernel = kernel;
  st->part = part;
  st->s = s;
  st->in_table = in_table;
  st->what = what;
}

static void add_block_tree(md_desc *d, unsigned kernel) {
  const unsigned T = d->cfg.block;
  const char *what = "sdata[tid] += sdata[tid + s]";
  if (d->cfg.algo == GP_MODEL_INTERLEAVED_STRIDED) what = "i = 2*s*tid: sdata[i] += sdata[i + s]";
  if (d->cfg.algo == GP_MODEL_INTERLEAVED || d->cfg.algo == GP_MODEL_INTERLEAVED_STRIDED) {
    for (unsigned long s = 1; s < T; s *= 2) add_step(d, kernel, GP_PART_TREE, (long)s, 1, what);
  } else {
    for (unsigned long s = T / 2; s > 0; s /= 2) add_step(d, kernel, GP_PART_TREE, (long)s, 1, what);
  }
}

gp_status md_build(gp_context *ctx, const gp_model_config *cfg, md_desc *d) {
  return md_build_limit(ctx, cfg, d, 1024);
}

/* Fills the defaults of c (warp 32, 32 banks of 4 bytes, 4-byte elements, 64 partials)
 * and checks it: GP_OK or the failure, in words, through ctx. */
static gp_status check_config(gp_context *ctx, gp_model_config *c, unsigned max_block) {
  if ((unsigned)c->algo >= GP_MODEL_ALGO_COUNT)
    return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT,
                   "unknown model algorithm %d: use one of interleaved, interleaved-strided, "
                   "sequential, two-phase, warp-atomic, warp-shared", (int)c->algo);
  if (!c->warp) c->warp = 32;
  if (!c->banks) c->banks = 32;
  if (!c->bank_bytes) c->bank_bytes = 4;
  if (!c->elem_bytes) c->elem_bytes = 4;
  if (!md_is_pow2(c->block) || c->block > max_block)
    return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT,
                   "block must be a power of two from 1 to %u (block = %u)", max_block, c->block);
  if (!md_is_pow2(c->warp) || c->warp > 64)
    return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT,
                   "warp must be a power of two from 1 to 64 (warp = %u)", c->warp);
  if (!md_is_pow2(c->banks) || c->banks > 64)
    return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT,
                   "banks must be a power of two from 1 to 64 (banks = %u)", c->banks);
  if (c->bank_bytes != 4 && c->bank_bytes != 8)
    return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT, "bank_bytes must be 4 or 8 (bank_bytes = %u)",
                   c->bank_bytes);
  if (c->elem_bytes != 4 && c->elem_bytes != 8)
    return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT,
                   "elem_bytes must be 4 or 8 (the dtype's size; elem_bytes = %u)", c->elem_bytes);
  if (c->algo == GP_MODEL_TWO_PHASE) {
    if (!c->partials) c->partials = c->block < 64 ? c->block : 64;
    if (c->partials > c->block)
      return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT,
                     "two-phase: the phase-2 block of %u threads reads at most %u partials "
                     "(partials = %u); see gpuprims model span for more", c->block, c->block,
                     c->partials);
  }
  return GP_OK;
}

/* The statements of the warp-shuffle kernels (seed 003, 6.24) and of Shared_mem_sum,
 * their shared-memory twin. */
static void add_warp_steps(md_desc *d) {
  const gp_model_config *c = &d->cfg;
  const int sh = c->algo == GP_MODEL_WARP_SHARED;
  d->lane = lane_warp;
  add_step(d, 0, GP_PART_LOAD, -1, 0, sh ? "thread_calcs[tid] = f(x)" : "v = in[i]");
  for (long off = (long)c->warp / 2; off > 0; off /= 2)
    add_step(d, 0, GP_PART_WARP_TREE, off, 1,
             sh ? "vals[lane] += vals[(lane+diff)%W]" : "v += shfl_down(v, off)");
  add_step(d, 0, GP_PART_HANDOFF, -3, 1,
           sh ? "if (lane == 0) warp_sum_arr[warp] = r" : "if (lane == 0) warp_sums[warp] = v");
  add_step(d, 0, GP_PART_HANDOFF, -4, 1,
           sh ? "if (tid >= nwarps) warp_sum_arr[tid] = 0"
              : "if (lane < nwarps) v = warp_sums[lane]");
  /* in_table = 2 marks the second (warp 0) tree; it is a table row all the same */
  for (long off = (long)c->warp / 2; off > 0; off /= 2)
    add_step(d, 0, GP_PART_WARP_TREE, off, 2,
             sh ? "warp 0: warp_sum_arr[lane] += [(lane+diff)%W]"
                : "warp 0: v += shfl_down(v, off)");
  add_step(d, 0, GP_PART_EPILOGUE, -1, 0, "if (tid == 0) atomicAdd(out, v)");
}

gp_status md_build_limit(gp_context *ctx, const gp_model_config *cfg, md_desc *d,
                         unsigned max_block) {
  if (!cfg) return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT, "the model config is NULL");
  memset(d, 0, sizeof *d);
  d->cfg = *cfg;
  gp_model_config *c = &d->cfg;
  gp_status s = check_config(ctx, c, max_block);
  if (s != GP_OK) return s;
  d->log2_block = md_log2(c->block);
  d->log2_warp = md_log2(c->warp);
  d->nwarps = (c->block + c->warp - 1) / c->warp;
  const int warp_algo = c->algo == GP_MODEL_WARP_ATOMIC || c->algo == GP_MODEL_WARP_SHARED;
  if (warp_algo && (c->block < c->warp || d->nwarps > c->warp))
    return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT,
                   "%s needs warp <= block <= warp*warp so warp 0 can hold every warp's sum "
                   "(block = %u, warp = %u)", gp_model_algo_name(c->algo), c->block, c->warp);

  switch (c->algo) {
  case GP_MODEL_INTERLEAVED:
  case GP_MODEL_INTERLEAVED_STRIDED:
  case GP_MODEL_SEQUENTIAL:
    d->lane = lane_tree;
    add_step(d, 0, GP_PART_LOAD, -1, 0, "sdata[tid] = i < n ? in[i] : 0");
    add_block_tree(d, 0);
    add_step(d, 0, GP_PART_EPILOGUE, -1, 0, "if (tid == 0) out[block] = sdata[0]");
    break;
  case GP_MODEL_TWO_PHASE:
    d->lane = lane_tree;
    add_step(d, 0, GP_PART_LOAD, -1, 0, "sdata[tid] = grid-stride sum");
    add_block_tree(d, 0);
    add_step(d, 0, GP_PART_EPILOGUE, -1, 0, "if (tid == 0) partials[block] = sdata[0]");
    add_step(d, 1, GP_PART_LOAD, -2, 0, "if (tid < num_partials) v = partials[tid]");
    add_step(d, 1, GP_PART_LOAD, -1, 0, "sdata[tid] = v (or 0)");
    add_block_tree(d, 1);
    add_step(d, 1, GP_PART_EPILOGUE, -1, 0, "if (tid == 0) out[0] = sdata[0]");
    break;
  case GP_MODEL_WARP_ATOMIC:
  case GP_MODEL_WARP_SHARED:
    add_warp_steps(d);
    break;
  }
  return GP_OK;
}

/* ---- divergence of one statement ----------------------------------------------------
 * Seed 000's rule per warp: no active lane costs 0 issue passes, every lane active 1,
 * a mix 2. A warp's lanes are the threads of the block it holds (the last warp of a
 * block smaller than a warp has fewer). */
void md_divergence_step(const md_desc *d, size_t k, gp_div_step *out) {
  const md_step *st = &d->step[k];
  memset(out, 0, sizeof *out);
  out->kernel = st->kernel;
  out->part = st->part;
  out->step_s = st->s > 0 ? st->s : -1;
  out->in_table = st->in_table != 0;
  snprintf(out->what, sizeof out->what, "%s", st->what);
  const unsigned T = d->cfg.block, W = d->cfg.warp;
  for (unsigned w = 0; w * W < T; w++) {
    unsigned act = 0, lanes = 0;
    for (unsigned tid = w * W; tid < (w + 1) * W && tid < T; tid++) {
      md_lane l;
      memset(&l, 0, sizeof l);
      d->lane(d, k, tid, &l);
      lanes++;
      act += l.active != 0;
    }
    out->active_threads += act;
    if (act) out->active_warps++;
    if (act && act < lanes) out->mixed_warps++, out->issue_passes += 2;
    else if (act) out->issue_passes += 1;
  }
}

void md_sum_add(gp_div_sum *sum, const gp_div_step *st) {
  sum->steps++;
  sum->issue_passes += st->issue_passes;
  sum->active_threads += st->active_threads;
  sum->active_warps += st->active_warps;
  sum->mixed_warps += st->mixed_warps;
  if (st->mixed_warps > sum->max_mixed_per_step) sum->max_mixed_per_step = st->mixed_warps;
}

void md_sum_finish(gp_div_sum *sum) {
  sum->lanes_per_issue =
      sum->active_warps ? (double)sum->active_threads / (double)sum->active_warps : 0.0;
}

/* ---- value flow: the levels a tree combines real values in ------------------------- */
unsigned md_tree_levels(const md_desc *d, unsigned kernel, unsigned live,
                        unsigned long *combines, unsigned long *adds) {
  const unsigned long ns = MD_NSLOTS(d);
  unsigned *depth = calloc(ns, sizeof *depth);
  unsigned char *lv = calloc(ns, 1);
  unsigned *nd = calloc(ns, sizeof *nd);
  unsigned char *nl = calloc(ns, 1);
  unsigned long c = 0, a = 0;
  unsigned maxd = 0;
  if (!depth || !lv || !nd || !nl) goto done; /* tiny; callers treat 0 as "none" */
  for (unsigned i = 0; i < live && i < d->cfg.block; i++) lv[MD_SLOT_SDATA(d, i)] = 1;
  for (size_t k = 0; k < d->nsteps; k++) {
    const md_step *st = &d->step[k];
    if (st->kernel != kernel || st->part != GP_PART_TREE) continue;
    /* every lane reads before any writes (a barrier ends each step) */
    memcpy(nd, depth, ns * sizeof *nd);
    memcpy(nl, lv, ns);
    for (unsigned tid = 0; tid < d->cfg.block; tid++) {
      md_lane l;
      memset(&l, 0, sizeof l);
      d->lane(d, k, tid, &l);
      a += l.active && l.adds;
      if (l.flow == MD_FLOW_COMBINE) {
        if (lv[l.dst] && lv[l.src]) {
          c++;
          unsigned dd = (depth[l.dst] > depth[l.src] ? depth[l.dst] : depth[l.src]) + 1;
          nd[l.dst] = dd;
        } else if (lv[l.src]) {
          nd[l.dst] = depth[l.src];
          nl[l.dst] = 1;
        }
      }
    }
    memcpy(depth, nd, ns * sizeof *nd);
    memcpy(lv, nl, ns);
  }
  for (unsigned long i = 0; i < ns; i++)
    if (lv[i] && depth[i] > maxd) maxd = depth[i];
done:
  free(depth); free(lv); free(nd); free(nl);
  if (combines) *combines = c;
  if (adds) *adds = a;
  return maxd;
}
