/* The one description every cost model reads: per algorithm, the kernel's statements
 * in order and, per statement and thread, whether the thread executes it, which
 * shared-memory elements it touches, and how values flow (for the span's levels).
 * Internal to src/model and its tests. */
#ifndef GP_MODEL_DESC_H
#define GP_MODEL_DESC_H

#include "gpuprims.h"

#define MD_MAX_ACCESS 3

typedef enum md_flow {
  MD_FLOW_NONE,    /* no value moves (or garbage nobody reads) */
  MD_FLOW_INPUT,   /* slot dst gets a fresh input value (live, depth 0) */
  MD_FLOW_COMBINE, /* slot dst = slot dst (+) slot src */
  MD_FLOW_COPY,    /* slot dst = slot src */
  MD_FLOW_CLEAR    /* slot dst = the identity (padding) */
} md_flow;

/* Value slots: shared arrays and registers share one index space. */
#define MD_SLOT_SDATA(d, i) ((unsigned long)(i))
#define MD_SLOT_REG(d, tid) ((unsigned long)(d)->cfg.block + (tid))
#define MD_SLOT_WSUM(d, w) (2ul * (d)->cfg.block + (w))
#define MD_NSLOTS(d) (2ul * (d)->cfg.block + (d)->cfg.warp)

typedef struct md_access {
  unsigned array;      /* 0: sdata / thread_calcs; 1: warp_sums (each bank-aligned) */
  unsigned long index; /* element index in that array */
  int store;
  const char *text;    /* "load sdata[tid + s]" */
} md_access;

typedef struct md_lane {
  int active;          /* executes the statement */
  unsigned nacc;       /* shared-memory accesses it makes (active lanes only) */
  md_access acc[MD_MAX_ACCESS];
  md_flow flow;        /* applies whether or not the lane is `active` (CLEAR pads) */
  unsigned long dst, src;
  int adds;            /* executes one addition */
} md_lane;

typedef struct md_step {
  unsigned kernel;
  gp_model_part part;
  long s;
  int in_table;
  const char *what;
} md_step;

typedef struct md_desc {
  gp_model_config cfg;  /* defaults resolved */
  unsigned log2_block, log2_warp, nwarps;
  size_t nsteps;
  md_step step[GP_MODEL_MAX_STEPS];
  /* what thread tid does at statement k */
  void (*lane)(const struct md_desc *d, size_t k, unsigned tid, md_lane *out);
} md_desc;

/* Validates cfg (messages through ctx) and fills d. */
gp_status md_build(gp_context *ctx, const gp_model_config *cfg, md_desc *d);
/* The same with blocks up to max_block (the span model's idealized phase-2 block). */
gp_status md_build_limit(gp_context *ctx, const gp_model_config *cfg, md_desc *d,
                         unsigned max_block);

/* Divergence of statement k of d (all warps of the block). */
void md_divergence_step(const md_desc *d, size_t k, gp_div_step *out);
/* Adds a step into a sum. */
void md_sum_add(gp_div_sum *sum, const gp_div_step *st);
void md_sum_finish(gp_div_sum *sum);

/* Runs the value flow of kernel `kernel`'s TREE steps with sdata slots [0, live) live
 * at depth 0. Returns the deepest live slot's depth (0 when its MD_NSLOTS(d) scratch
 * cannot be allocated). When not NULL, *combines gets the additions of two live values
 * and *adds the additions executed by active lanes, live or not. */
unsigned md_tree_levels(const md_desc *d, unsigned kernel, unsigned live,
                        unsigned long *combines, unsigned long *adds);

int md_is_pow2(unsigned long x);
unsigned md_log2(unsigned long x); /* floor */

#endif
