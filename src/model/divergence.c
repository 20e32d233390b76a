/* Warp divergence as issue passes (seed 000, 4.1-4.2): per statement of the algorithm's
 * description, per warp, 0 passes with no active lane, 1 with all, 2 with a mix. */
#include "model/desc.h"

#include "core/context.h"

#include <string.h>

gp_status gp_model_divergence(gp_context *ctx, const gp_model_config *cfg,
                              gp_div_step *steps, size_t cap, size_t *nsteps,
                              gp_div_total *total) {
  gp_status s = gp_check_ctx(ctx);
  if (s) return s;
  if (!nsteps && !total)
    return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT, "nsteps and total are both NULL: nothing to return");
  md_desc d;
  s = md_build(ctx, cfg, &d);
  if (s) return s;
  if (steps && cap < d.nsteps)
    return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT,
                   "steps holds %zu entries but %s has %zu statements (GP_MODEL_MAX_STEPS "
                   "is always enough)", cap, gp_model_algo_name(d.cfg.algo), d.nsteps);
  gp_div_total t;
  memset(&t, 0, sizeof t);
  for (size_t k = 0; k < d.nsteps; k++) {
    gp_div_step st;
    md_divergence_step(&d, k, &st);
    if (st.in_table) md_sum_add(&t.table, &st);
    md_sum_add(&t.kernel, &st);
    if (steps) steps[k] = st;
  }
  md_sum_finish(&t.table);
  md_sum_finish(&t.kernel);
  if (nsteps) *nsteps = d.nsteps;
  if (total) *total = t;
  return GP_OK;
}
