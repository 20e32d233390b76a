/* Shared-memory bank conflicts (seed 003, 6.23): consecutive bank words map to
 * successive banks; per warp access, each bank serves its distinct words one per
 * wavefront (the same word for many lanes is one broadcast), so the degree is the
 * largest count of distinct words in one bank. Computed by enumerating lanes. */
#include "model/desc.h"

#include "core/context.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The lanes' bank words of one warp access; at most 64 lanes x 2 words. */
typedef struct warp_words {
  unsigned n;
  unsigned long w[128];
} warp_words;

static void add_elem(warp_words *ww, const gp_model_config *c, unsigned long index) {
  /* arrays start bank-aligned: byte address = index * elem_bytes */
  unsigned long first = index * c->elem_bytes / c->bank_bytes;
  unsigned long last = (index * c->elem_bytes + c->elem_bytes - 1) / c->bank_bytes;
  for (unsigned long w = first; w <= last; w++) {
    unsigned i;
    for (i = 0; i < ww->n; i++)
      if (ww->w[i] == w) break;
    if (i == ww->n && ww->n < 128) ww->w[ww->n++] = w;
  }
}

/* degree = max over banks of distinct words; ideal = ceil(words / banks) */
static void degree_of(const warp_words *ww, unsigned banks, unsigned *degree, unsigned *ideal) {
  unsigned per[64];
  memset(per, 0, sizeof per);
  unsigned dmax = 0;
  for (unsigned i = 0; i < ww->n; i++) {
    unsigned b = (unsigned)(ww->w[i] % banks);
    if (++per[b] > dmax) dmax = per[b];
  }
  *degree = dmax;
  *ideal = ww->n ? (ww->n + banks - 1) / banks : 0;
}

static void finish_row(gp_bank_access *row, unsigned degree, unsigned ideal) {
  if (!degree) return;
  row->warps++;
  row->wavefronts += degree;
  row->ideal += ideal;
  row->conflicts += degree - ideal;
  if (degree > row->max_degree) row->max_degree = degree;
}

gp_status gp_model_banks(gp_context *ctx, const gp_model_config *cfg, gp_bank_access *accs,
                         size_t cap, size_t *nacc, gp_bank_total *total) {
  gp_status s = gp_check_ctx(ctx);
  if (s) return s;
  if (!nacc && !total)
    return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT, "nacc and total are both NULL: nothing to return");
  md_desc d;
  s = md_build(ctx, cfg, &d);
  if (s) return s;
  const unsigned T = d.cfg.block, W = d.cfg.warp;
  /* One row per (statement, access slot) that some lane makes. */
  size_t nrows = 0;
  gp_bank_total t;
  memset(&t, 0, sizeof t);
  gp_bank_access *rows = calloc(d.nsteps * MD_MAX_ACCESS, sizeof *rows);
  md_lane *lanes = calloc(W, sizeof *lanes);
  if (!rows || !lanes) {
    free(rows); free(lanes);
    return gp_fail(ctx, GP_ERR_OUT_OF_MEMORY, "no host memory for the bank model");
  }
  for (size_t k = 0; k < d.nsteps; k++) {
    const md_step *st = &d.step[k];
    gp_bank_access row[MD_MAX_ACCESS];
    memset(row, 0, sizeof row);
    int used[MD_MAX_ACCESS] = {0};
    for (unsigned w = 0; w * W < T; w++) {
      unsigned nl = 0;
      for (unsigned tid = w * W; tid < (w + 1) * W && tid < T; tid++, nl++) {
        memset(&lanes[nl], 0, sizeof lanes[nl]);
        d.lane(&d, k, tid, &lanes[nl]);
      }
      for (unsigned a = 0; a < MD_MAX_ACCESS; a++) {
        warp_words ww;
        ww.n = 0;
        for (unsigned l = 0; l < nl; l++) {
          if (!lanes[l].active || lanes[l].nacc <= a) continue;
          const md_access *x = &lanes[l].acc[a];
          if (!used[a]) {
            used[a] = 1;
            snprintf(row[a].access, sizeof row[a].access, "%s", x->text);
            row[a].is_store = x->store;
          }
          add_elem(&ww, &d.cfg, x->index);
        }
        unsigned deg, ideal;
        degree_of(&ww, d.cfg.banks, &deg, &ideal);
        finish_row(&row[a], deg, ideal);
      }
    }
    for (unsigned a = 0; a < MD_MAX_ACCESS; a++) {
      if (!used[a]) continue;
      gp_bank_access *r = &row[a];
      r->kernel = st->kernel;
      r->part = st->part;
      r->step_s = st->s > 0 ? st->s : -1;
      snprintf(r->what, sizeof r->what, "%s", st->what);
      if (r->is_store) {
        t.st_requests += r->warps, t.st_wavefronts += r->wavefronts, t.st_conflicts += r->conflicts;
      } else {
        t.ld_requests += r->warps, t.ld_wavefronts += r->wavefronts, t.ld_conflicts += r->conflicts;
      }
      if (r->max_degree > t.max_degree) t.max_degree = r->max_degree;
      rows[nrows++] = *r;
    }
  }
  free(lanes);
  if (accs && cap < nrows) {
    free(rows);
    return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT,
                   "acc holds %zu entries but %s makes %zu shared-memory accesses "
                   "(3 * GP_MODEL_MAX_STEPS is always enough)", cap,
                   gp_model_algo_name(d.cfg.algo), nrows);
  }
  if (accs) memcpy(accs, rows, nrows * sizeof *rows);
  free(rows);
  if (nacc) *nacc = nrows;
  if (total) *total = t;
  return GP_OK;
}

gp_status gp_model_bank_stride(gp_context *ctx, const gp_model_config *cfg,
                               unsigned long stride, gp_bank_access *out,
                               unsigned *degree_warp0) {
  gp_status s = gp_check_ctx(ctx);
  if (s) return s;
  if (!out) return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT, "out is NULL");
  if (stride > (1ul << 20))
    return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT, "stride must be 0 .. 2^20 (stride = %lu)", stride);
  gp_model_config c = *cfg;
  c.algo = GP_MODEL_SEQUENTIAL; /* any valid one: only the sizes are used */
  md_desc d;
  s = md_build(ctx, &c, &d);
  if (s) return s;
  memset(out, 0, sizeof *out);
  out->step_s = -1;
  out->part = GP_PART_LOAD;
  snprintf(out->what, sizeof out->what, "v = a[tid * %lu]", stride);
  snprintf(out->access, sizeof out->access, "load a[tid * %lu]", stride);
  const unsigned T = d.cfg.block, W = d.cfg.warp;
  for (unsigned w = 0; w * W < T; w++) {
    warp_words ww;
    ww.n = 0;
    for (unsigned tid = w * W; tid < (w + 1) * W && tid < T; tid++)
      add_elem(&ww, &d.cfg, (unsigned long)tid * stride);
    unsigned deg, ideal;
    degree_of(&ww, d.cfg.banks, &deg, &ideal);
    if (w == 0 && degree_warp0) *degree_warp0 = deg;
    finish_row(out, deg, ideal);
  }
  return GP_OK;
}
