/* CPU backend of gp_integrate: the trapezoid sum in exactly the order the generated
 * CUDA kernel uses (tiles, per-thread runs, the shuffle-down block tree, the last
 * block's combine), so the bits depend on n alone, never on the OpenMP thread count,
 * nor on the caller's flush modes (every thread works with DAZ and FTZ clear, as the
 * GPU's IEEE arithmetic does: cpu/cpu_features.h). */
#include "cpu/integrate_cpu.h"
#include "cpu/cpu_features.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

/* gp_block_reduce of src/cuda/common/warp_reduce.cuh for a 256-thread block: each warp
 * folds with shuffle-down offsets 16, 8, 4, 2, 1 (lane l takes l + offset), lane 0 of
 * each warp stores, then warp 0 folds the 8 warp sums padded with 0.0 the same way. */
static double warp_tree(double *v /* 32 values, clobbered */) {
  for (int off = 16; off > 0; off /= 2)
    for (int l = 0; l < off; l++) v[l] = v[l] + v[l + off];
  return v[0];
}
static double block_tree(const double *acc /* GP_TRAP_THREADS */) {
  double w[32], sums[32];
  const int nwarps = GP_TRAP_THREADS / 32;
  for (int k = 0; k < nwarps; k++) {
    memcpy(w, acc + 32 * k, sizeof w);
    sums[k] = warp_tree(w);
  }
  for (int k = nwarps; k < 32; k++) sums[k] = 0.0;
  return warp_tree(sums);
}

/* One block's sum: its tiles g, g + G, ... in order, each thread's run accumulated in
 * F64, then the block tree. Buffers hold GP_TRAP_TILE points (stack: max_stack tiles). */
static double cpu_block(const gp_expr *e, const gp_trap_plan *p, uint64_t g, void *xbuf,
                        void *vbuf, void *stack) {
  double acc[GP_TRAP_THREADS];
  for (int t = 0; t < GP_TRAP_THREADS; t++) acc[t] = 0.0;
  const int K = GP_TRAP_ITEMS;
  for (uint64_t tile = g; tile < p->tiles; tile += p->grid) {
    const uint64_t first = tile * GP_TRAP_TILE; /* interior index k; point i = k + 1 */
    if (p->precision == GP_F64) {
      double *x = (double *)xbuf, *v = (double *)vbuf;
      for (int t = 0; t < GP_TRAP_THREADS; t++) {
        const double xb = fma((double)(first + 1 + (uint64_t)t * K), p->h, p->a);
        for (int j = 0; j < K; j++) x[t * K + j] = fma((double)j, p->h, xb);
      }
      gp_expr_eval_many(e, x, v, GP_TRAP_TILE, (double *)stack);
      for (int t = 0; t < GP_TRAP_THREADS; t++)
        for (int j = 0; j < K; j++) {
          const uint64_t k = first + (uint64_t)t * K + (uint64_t)j;
          acc[t] += k < p->m ? v[t * K + j] : 0.0;
        }
    } else {
      float *x = (float *)xbuf, *v = (float *)vbuf;
      const float hf = (float)p->h;
      for (int t = 0; t < GP_TRAP_THREADS; t++) {
        const float xb = (float)fma((double)(first + 1 + (uint64_t)t * K), p->h, p->a);
        for (int j = 0; j < K; j++) x[t * K + j] = fmaf((float)j, hf, xb);
      }
      gp_expr_eval_many_f(e, x, v, GP_TRAP_TILE, (float *)stack);
      for (int t = 0; t < GP_TRAP_THREADS; t++) {
        float *r = v + t * K;
        for (int j = 0; j < K; j++)
          if (first + (uint64_t)t * K + (uint64_t)j >= p->m) r[j] = 0.0f;
        /* the kernel's fold: a pairwise tree over each run of `fold` values */
        for (int w = 1; w < p->fold; w *= 2)
          for (int j = 0; j < K; j += 2 * w) r[j] = r[j] + r[j + w];
        for (int j0 = 0; j0 < K; j0 += p->fold) acc[t] += (double)r[j0];
      }
    }
  }
  return block_tree(acc);
}

gp_status gp_cpu_integrate(gp_context *ctx, const gp_expr *e, const gp_trap_plan *p,
                           double *result) {
  const size_t G = p->grid;
  double *partial = (double *)malloc(sizeof(double) * G);
  if (!partial) return gp_fail(ctx, GP_ERR_OUT_OF_MEMORY, "out of host memory (%zu partial sums)", G);
  const size_t esz = p->precision == GP_F64 ? sizeof(double) : sizeof(float);
  const size_t stack_slots = (size_t)(e->max_stack > 0 ? e->max_stack : 1);
  int oom = 0;
#pragma omp parallel reduction(| : oom)
  {
    const unsigned csr = gp_cpu_ieee_begin();
    void *x = malloc(esz * GP_TRAP_TILE), *v = malloc(esz * GP_TRAP_TILE);
    void *stack = malloc(esz * GP_TRAP_TILE * stack_slots);
    if (!x || !v || !stack) oom = 1;
    /* Blocks are independent; each one's partial lands in its own slot, so the
     * schedule cannot change the result. */
#pragma omp for schedule(dynamic, 1)
    for (long long g = 0; g < (long long)G; g++)
      partial[g] = oom ? 0.0 : cpu_block(e, p, (uint64_t)g, x, v, stack);
    free(x);
    free(v);
    free(stack);
    gp_cpu_ieee_end(csr);
  }
  if (oom) {
    free(partial);
    return gp_fail(ctx, GP_ERR_OUT_OF_MEMORY, "out of host memory for the evaluation buffers");
  }
  /* The last block's combine, by its warp 0: lane l adds partials l, l + 32, ...
     then the warp tree. */
  const unsigned csr = gp_cpu_ieee_begin();
  double acc[32];
  for (size_t l = 0; l < 32; l++) {
    acc[l] = 0.0;
    for (size_t k = l; k < G; k += 32) acc[l] += partial[k];
  }
  free(partial);
  const double S = warp_tree(acc);
  double fa, fb;
  if (p->precision == GP_F64) {
    fa = gp_expr_eval(e, p->a);
    fb = gp_expr_eval(e, p->b);
  } else {
    fa = (double)gp_expr_eval_f(e, (float)p->a);
    fb = (double)gp_expr_eval_f(e, (float)p->b);
  }
  *result = (S + 0.5 * (fa + fb)) * p->h;
  gp_cpu_ieee_end(csr);
  return GP_OK;
}
