/* The trapezoid sum's fixed shape, shared by the CPU backend and the generated CUDA
 * kernel so both add the same numbers in the same order: it depends on n alone.
 * Internal to src/ (and tests of internals). */
#ifndef GP_CORE_INTEGRATE_H
#define GP_CORE_INTEGRATE_H

#include "core/context.h"
#include "core/expr.h"

#include <stdint.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Tuning knobs of the summation tree (changing one changes the result's last bits).
 * The interior points i = 1 .. n-1 are cut into tiles of GP_TRAP_TILE consecutive
 * points; thread t of a block takes GP_TRAP_ITEMS consecutive points of a tile; block
 * g takes tiles g, g + G, g + 2G, ... with G = min(tiles, GP_TRAP_MAX_BLOCKS) (at least
 * 1), so the grid, not the GPU, follows n. */
#define GP_TRAP_THREADS 256
#define GP_TRAP_ITEMS 32
#define GP_TRAP_TILE (GP_TRAP_THREADS * GP_TRAP_ITEMS)
#define GP_TRAP_MAX_BLOCKS 1024
#define GP_TRAP_MAX_N (1ull << 40)
/* F32 evaluation: a thread's run of GP_TRAP_FOLD_F32 consecutive values is added in
 * float, as a pairwise tree (short chains, error ~log2(32) ulp), before one F64 add: a
 * power of two dividing GP_TRAP_ITEMS; 1 = every value added in F64. Measured on the
 * H200: F32 x^2 at n = 2^28 takes 40 us this way; one F64 add per value is F64-add and
 * conversion bound. */
#define GP_TRAP_FOLD_F32 GP_TRAP_ITEMS
static inline int gp_trap_fold(gp_dtype precision) {
  return precision == GP_F32 ? GP_TRAP_FOLD_F32 : 1;
}

typedef struct gp_trap_plan {
  double a, b, h;     /* h = (b - a) / n: negative when b < a */
  uint64_t n;         /* trapezoids */
  uint64_t m;         /* interior points: n - 1 */
  uint64_t tiles;     /* ceil(m / GP_TRAP_TILE) */
  unsigned grid;      /* G */
  gp_dtype precision; /* GP_F32 or GP_F64: how f and x are evaluated */
  int fold;           /* F32: points of one thread summed in F32 before the F64 add */
} gp_trap_plan;

/* Fills the plan (the arguments are already validated). Both backends take the x of
 * point j of a thread's run that starts at interior point k0 as fma(j, h, xb) with
 * xb = fma(k0 + 1, h, a) (in float for F32: fmaf(j, (float)h, (float)xb)). */
static inline void gp_trap_plan_make(gp_trap_plan *p, double a, double b, uint64_t n, gp_dtype precision) {
  memset(p, 0, sizeof *p);
  p->a = a;
  p->b = b;
  p->n = n;
  p->h = (b - a) / (double)n;
  p->m = n - 1;
  p->tiles = (p->m + GP_TRAP_TILE - 1) / GP_TRAP_TILE;
  p->grid = p->tiles < GP_TRAP_MAX_BLOCKS ? (unsigned)(p->tiles ? p->tiles : 1)
                                          : GP_TRAP_MAX_BLOCKS;
  p->precision = precision;
  p->fold = gp_trap_fold(precision);
}

#ifdef __cplusplus
}
#endif
#endif
