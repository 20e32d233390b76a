/* CPU backend of gp_reduce: one instance of src/cpu/reduce_kind.h per (input type,
 * accumulator, operator), and the dispatch from (op, dtype, algo) to it. OpenMP runs
 * independent blocks in parallel; results never depend on the thread count. */
#include "cpu/reduce_cpu.h"
#include "core/reduce_tree.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define GP_SUM_OP(a, b) ((a) + (b))
#define GP_LT_MIN(a, b) ((b) < (a) ? (b) : (a))
#define GP_GT_MAX(a, b) ((b) > (a) ? (b) : (a))

/* ---- SUM ---- */
#define RK_NAME f32sum32
#define RK_IN float
#define RK_ACC float
#define RK_LOAD(x) (x)
#define RK_OP GP_SUM_OP
#define RK_IDENT GP_RT_F32_SUM_ID
#include "cpu/reduce_kind.h"

#define RK_NAME f32sum64
#define RK_IN float
#define RK_ACC double
#define RK_LOAD(x) ((double)(x))
#define RK_OP GP_SUM_OP
#define RK_IDENT GP_RT_F64_SUM_ID
#include "cpu/reduce_kind.h"

#define RK_NAME f64sum
#define RK_IN double
#define RK_ACC double
#define RK_LOAD(x) (x)
#define RK_OP GP_SUM_OP
#define RK_IDENT GP_RT_F64_SUM_ID
#include "cpu/reduce_kind.h"

/* integer sums wrap modulo 2^64: accumulate in uint64_t (I32 sign-extends first) */
#define RK_NAME i32sum
#define RK_IN int32_t
#define RK_ACC uint64_t
#define RK_LOAD(x) ((uint64_t)(int64_t)(x))
#define RK_OP GP_SUM_OP
#define RK_IDENT 0u
#include "cpu/reduce_kind.h"

#define RK_NAME i64sum
#define RK_IN int64_t
#define RK_ACC uint64_t
#define RK_LOAD(x) ((uint64_t)(x))
#define RK_OP GP_SUM_OP
#define RK_IDENT 0u
#include "cpu/reduce_kind.h"

#define RK_NAME u32sum
#define RK_IN uint32_t
#define RK_ACC uint64_t
#define RK_LOAD(x) ((uint64_t)(x))
#define RK_OP GP_SUM_OP
#define RK_IDENT 0u
#include "cpu/reduce_kind.h"

#define RK_NAME u64sum
#define RK_IN uint64_t
#define RK_ACC uint64_t
#define RK_LOAD(x) (x)
#define RK_OP GP_SUM_OP
#define RK_IDENT 0u
#include "cpu/reduce_kind.h"

/* ---- MIN / MAX (order-independent: every algorithm gives the same bits) ---- */
#define RK_NAME f32min
#define RK_IN float
#define RK_ACC float
#define RK_LOAD(x) (x)
#define RK_OP gp_rt_min_f32
#define RK_IDENT gp_rt_f32_from(0x7f800000u)
#include "cpu/reduce_kind.h"
#define RK_NAME f32max
#define RK_IN float
#define RK_ACC float
#define RK_LOAD(x) (x)
#define RK_OP gp_rt_max_f32
#define RK_IDENT gp_rt_f32_from(0xff800000u)
#include "cpu/reduce_kind.h"
#define RK_NAME f64min
#define RK_IN double
#define RK_ACC double
#define RK_LOAD(x) (x)
#define RK_OP gp_rt_min_f64
#define RK_IDENT gp_rt_f64_from(0x7ff0000000000000ull)
#include "cpu/reduce_kind.h"
#define RK_NAME f64max
#define RK_IN double
#define RK_ACC double
#define RK_LOAD(x) (x)
#define RK_OP gp_rt_max_f64
#define RK_IDENT gp_rt_f64_from(0xfff0000000000000ull)
#include "cpu/reduce_kind.h"
#define RK_NAME i32min
#define RK_IN int32_t
#define RK_ACC int32_t
#define RK_LOAD(x) (x)
#define RK_OP GP_LT_MIN
#define RK_IDENT INT32_MAX
#include "cpu/reduce_kind.h"
#define RK_NAME i32max
#define RK_IN int32_t
#define RK_ACC int32_t
#define RK_LOAD(x) (x)
#define RK_OP GP_GT_MAX
#define RK_IDENT INT32_MIN
#include "cpu/reduce_kind.h"
#define RK_NAME i64min
#define RK_IN int64_t
#define RK_ACC int64_t
#define RK_LOAD(x) (x)
#define RK_OP GP_LT_MIN
#define RK_IDENT INT64_MAX
#include "cpu/reduce_kind.h"
#define RK_NAME i64max
#define RK_IN int64_t
#define RK_ACC int64_t
#define RK_LOAD(x) (x)
#define RK_OP GP_GT_MAX
#define RK_IDENT INT64_MIN
#include "cpu/reduce_kind.h"
#define RK_NAME u32min
#define RK_IN uint32_t
#define RK_ACC uint32_t
#define RK_LOAD(x) (x)
#define RK_OP GP_LT_MIN
#define RK_IDENT UINT32_MAX
#include "cpu/reduce_kind.h"
#define RK_NAME u32max
#define RK_IN uint32_t
#define RK_ACC uint32_t
#define RK_LOAD(x) (x)
#define RK_OP GP_GT_MAX
#define RK_IDENT 0u
#include "cpu/reduce_kind.h"
#define RK_NAME u64min
#define RK_IN uint64_t
#define RK_ACC uint64_t
#define RK_LOAD(x) (x)
#define RK_OP GP_LT_MIN
#define RK_IDENT UINT64_MAX
#include "cpu/reduce_kind.h"
#define RK_NAME u64max
#define RK_IN uint64_t
#define RK_ACC uint64_t
#define RK_LOAD(x) (x)
#define RK_OP GP_GT_MAX
#define RK_IDENT 0u
#include "cpu/reduce_kind.h"

/* Runs kind K and stores its accumulator (of C type ACC) through the out pointer as
 * OUT_T, passing it through FIN (NaN canonicalization for floats). */
#define GP_RUN_KIND(K, ACC, OUT_T, FIN)                                                \
  do {                                                                                 \
    ACC r_;                                                                            \
    if (K##_run(algo, in, n, two_phase_blocks, &r_) != 0) goto oom;                    \
    OUT_T o_ = (OUT_T)FIN(r_);                                                         \
    memcpy(out, &o_, sizeof o_);                                                       \
    return GP_OK;                                                                      \
  } while (0)
#define GP_NOFIN(x) (x)

gp_status gp_cpu_reduce(gp_context *ctx, gp_op op, gp_dtype type, const void *in, size_t n,
                        void *out, gp_reduce_algo algo, unsigned two_phase_blocks) {
  switch (type) {
  case GP_F32:
    if (op == GP_SUM) {
      if (algo == GP_REDUCE_AUTO) {
        double r;
        if (f32sum64_run(algo, in, n, two_phase_blocks, &r) != 0) goto oom;
        float o = gp_rt_canon_f32((float)r);
        memcpy(out, &o, sizeof o);
        return GP_OK;
      }
      GP_RUN_KIND(f32sum32, float, float, gp_rt_canon_f32);
    }
    if (op == GP_MIN) GP_RUN_KIND(f32min, float, float, gp_rt_canon_f32);
    GP_RUN_KIND(f32max, float, float, gp_rt_canon_f32);
  case GP_F64:
    if (op == GP_SUM) GP_RUN_KIND(f64sum, double, double, gp_rt_canon_f64);
    if (op == GP_MIN) GP_RUN_KIND(f64min, double, double, gp_rt_canon_f64);
    GP_RUN_KIND(f64max, double, double, gp_rt_canon_f64);
  case GP_I32:
    if (op == GP_SUM) GP_RUN_KIND(i32sum, uint64_t, uint64_t, GP_NOFIN);
    if (op == GP_MIN) GP_RUN_KIND(i32min, int32_t, int32_t, GP_NOFIN);
    GP_RUN_KIND(i32max, int32_t, int32_t, GP_NOFIN);
  case GP_I64:
    if (op == GP_SUM) GP_RUN_KIND(i64sum, uint64_t, uint64_t, GP_NOFIN);
    if (op == GP_MIN) GP_RUN_KIND(i64min, int64_t, int64_t, GP_NOFIN);
    GP_RUN_KIND(i64max, int64_t, int64_t, GP_NOFIN);
  case GP_U32:
    if (op == GP_SUM) GP_RUN_KIND(u32sum, uint64_t, uint64_t, GP_NOFIN);
    if (op == GP_MIN) GP_RUN_KIND(u32min, uint32_t, uint32_t, GP_NOFIN);
    GP_RUN_KIND(u32max, uint32_t, uint32_t, GP_NOFIN);
  case GP_U64:
    if (op == GP_SUM) GP_RUN_KIND(u64sum, uint64_t, uint64_t, GP_NOFIN);
    if (op == GP_MIN) GP_RUN_KIND(u64min, uint64_t, uint64_t, GP_NOFIN);
    GP_RUN_KIND(u64max, uint64_t, uint64_t, GP_NOFIN);
  }
  return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT, "unknown dtype %d", (int)type);
oom:
  return gp_fail(ctx, GP_ERR_OUT_OF_MEMORY,
                 "out of host memory for the CPU reduction's partial results (n = %zu)", n);
}
