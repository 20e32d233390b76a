/* CPU backend of gp_reduce: one stamp of src/cpu/reduce_cpu_stamp.h per (input type,
 * accumulator, operator), each function named in full, and the dispatch from
 * (op, dtype, algo) to a stamp's run function. OpenMP runs
 * independent blocks in parallel; results never depend on the thread count. */
#include "cpu/reduce_cpu.h"
#include "cpu/minmax_cpu.h"
#include "core/reduce_tree.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define GP_SUM_OP(a, b) ((a) + (b))
#define GP_LT_MIN(a, b) ((b) < (a) ? (b) : (a))
#define GP_GT_MAX(a, b) ((b) > (a) ? (b) : (a))

/* ---- SUM ---- */
#define RS_IN float
#define RS_ACC float
#define RS_LOAD(x) (x)
#define RS_OP GP_SUM_OP
#define RS_IDENT GP_RT_F32_SUM_ID
#define RS_TREE_INTERLEAVED f32sum32_tree_interleaved
#define RS_TREE_SEQUENTIAL f32sum32_tree_sequential
#define RS_WARP_TREE f32sum32_warp_tree
#define RS_BLOCK_REDUCE f32sum32_block_reduce
#define RS_TILE_IN f32sum32_tile_in
#define RS_TILE_ACC f32sum32_tile_acc
#define RS_SEED_TREE f32sum32_seed_tree
#define RS_GRID_STRIDE f32sum32_grid_stride
#define RS_TWO_PHASE f32sum32_two_phase
#define RS_WARP_ATOMIC f32sum32_warp_atomic
#define RS_AUTO f32sum32_auto
#define RS_RUN f32sum32_run
#include "cpu/reduce_cpu_stamp.h"

#define RS_IN double
#define RS_ACC double
#define RS_LOAD(x) (x)
#define RS_OP GP_SUM_OP
#define RS_IDENT GP_RT_F64_SUM_ID
#define RS_TREE_INTERLEAVED f64sum_tree_interleaved
#define RS_TREE_SEQUENTIAL f64sum_tree_sequential
#define RS_WARP_TREE f64sum_warp_tree
#define RS_BLOCK_REDUCE f64sum_block_reduce
#define RS_TILE_IN f64sum_tile_in
#define RS_TILE_ACC f64sum_tile_acc
#define RS_SEED_TREE f64sum_seed_tree
#define RS_GRID_STRIDE f64sum_grid_stride
#define RS_TWO_PHASE f64sum_two_phase
#define RS_WARP_ATOMIC f64sum_warp_atomic
#define RS_AUTO f64sum_auto
#define RS_RUN f64sum_run
#include "cpu/reduce_cpu_stamp.h"

/* integer sums wrap modulo 2^64: accumulate in uint64_t (I32 sign-extends first) */
#define RS_IN int32_t
#define RS_ACC uint64_t
#define RS_LOAD(x) ((uint64_t)(int64_t)(x))
#define RS_OP GP_SUM_OP
#define RS_IDENT 0u
#define RS_TREE_INTERLEAVED i32sum_tree_interleaved
#define RS_TREE_SEQUENTIAL i32sum_tree_sequential
#define RS_WARP_TREE i32sum_warp_tree
#define RS_BLOCK_REDUCE i32sum_block_reduce
#define RS_TILE_IN i32sum_tile_in
#define RS_TILE_ACC i32sum_tile_acc
#define RS_SEED_TREE i32sum_seed_tree
#define RS_GRID_STRIDE i32sum_grid_stride
#define RS_TWO_PHASE i32sum_two_phase
#define RS_WARP_ATOMIC i32sum_warp_atomic
#define RS_AUTO i32sum_auto
#define RS_RUN i32sum_run
#include "cpu/reduce_cpu_stamp.h"

#define RS_IN int64_t
#define RS_ACC uint64_t
#define RS_LOAD(x) ((uint64_t)(x))
#define RS_OP GP_SUM_OP
#define RS_IDENT 0u
#define RS_TREE_INTERLEAVED i64sum_tree_interleaved
#define RS_TREE_SEQUENTIAL i64sum_tree_sequential
#define RS_WARP_TREE i64sum_warp_tree
#define RS_BLOCK_REDUCE i64sum_block_reduce
#define RS_TILE_IN i64sum_tile_in
#define RS_TILE_ACC i64sum_tile_acc
#define RS_SEED_TREE i64sum_seed_tree
#define RS_GRID_STRIDE i64sum_grid_stride
#define RS_TWO_PHASE i64sum_two_phase
#define RS_WARP_ATOMIC i64sum_warp_atomic
#define RS_AUTO i64sum_auto
#define RS_RUN i64sum_run
#include "cpu/reduce_cpu_stamp.h"

#define RS_IN uint32_t
#define RS_ACC uint64_t
#define RS_LOAD(x) ((uint64_t)(x))
#define RS_OP GP_SUM_OP
#define RS_IDENT 0u
#define RS_TREE_INTERLEAVED u32sum_tree_interleaved
#define RS_TREE_SEQUENTIAL u32sum_tree_sequential
#define RS_WARP_TREE u32sum_warp_tree
#define RS_BLOCK_REDUCE u32sum_block_reduce
#define RS_TILE_IN u32sum_tile_in
#define RS_TILE_ACC u32sum_tile_acc
#define RS_SEED_TREE u32sum_seed_tree
#define RS_GRID_STRIDE u32sum_grid_stride
#define RS_TWO_PHASE u32sum_two_phase
#define RS_WARP_ATOMIC u32sum_warp_atomic
#define RS_AUTO u32sum_auto
#define RS_RUN u32sum_run
#include "cpu/reduce_cpu_stamp.h"

#define RS_IN uint64_t
#define RS_ACC uint64_t
#define RS_LOAD(x) (x)
#define RS_OP GP_SUM_OP
#define RS_IDENT 0u
#define RS_TREE_INTERLEAVED u64sum_tree_interleaved
#define RS_TREE_SEQUENTIAL u64sum_tree_sequential
#define RS_WARP_TREE u64sum_warp_tree
#define RS_BLOCK_REDUCE u64sum_block_reduce
#define RS_TILE_IN u64sum_tile_in
#define RS_TILE_ACC u64sum_tile_acc
#define RS_SEED_TREE u64sum_seed_tree
#define RS_GRID_STRIDE u64sum_grid_stride
#define RS_TWO_PHASE u64sum_two_phase
#define RS_WARP_ATOMIC u64sum_warp_atomic
#define RS_AUTO u64sum_auto
#define RS_RUN u64sum_run
#include "cpu/reduce_cpu_stamp.h"

/* ---- MIN / MAX (order-independent: every algorithm gives the same bits); these stamps
 * serve the seed algorithms, AUTO takes cpu/minmax_cpu.c ---- */
#define RS_IN float
#define RS_ACC float
#define RS_LOAD(x) (x)
#define RS_OP gp_rt_min_f32
#define RS_IDENT gp_rt_f32_from(0x7f800000u)
#define RS_TREE_INTERLEAVED f32min_tree_interleaved
#define RS_TREE_SEQUENTIAL f32min_tree_sequential
#define RS_WARP_TREE f32min_warp_tree
#define RS_BLOCK_REDUCE f32min_block_reduce
#define RS_TILE_IN f32min_tile_in
#define RS_TILE_ACC f32min_tile_acc
#define RS_SEED_TREE f32min_seed_tree
#define RS_GRID_STRIDE f32min_grid_stride
#define RS_TWO_PHASE f32min_two_phase
#define RS_WARP_ATOMIC f32min_warp_atomic
#define RS_AUTO f32min_auto
#define RS_RUN f32min_run
#include "cpu/reduce_cpu_stamp.h"
#define RS_IN float
#define RS_ACC float
#define RS_LOAD(x) (x)
#define RS_OP gp_rt_max_f32
#define RS_IDENT gp_rt_f32_from(0xff800000u)
#define RS_TREE_INTERLEAVED f32max_tree_interleaved
#define RS_TREE_SEQUENTIAL f32max_tree_sequential
#define RS_WARP_TREE f32max_warp_tree
#define RS_BLOCK_REDUCE f32max_block_reduce
#define RS_TILE_IN f32max_tile_in
#define RS_TILE_ACC f32max_tile_acc
#define RS_SEED_TREE f32max_seed_tree
#define RS_GRID_STRIDE f32max_grid_stride
#define RS_TWO_PHASE f32max_two_phase
#define RS_WARP_ATOMIC f32max_warp_atomic
#define RS_AUTO f32max_auto
#define RS_RUN f32max_run
#include "cpu/reduce_cpu_stamp.h"
#define RS_IN double
#define RS_ACC double
#define RS_LOAD(x) (x)
#define RS_OP gp_rt_min_f64
#define RS_IDENT gp_rt_f64_from(0x7ff0000000000000ull)
#define RS_TREE_INTERLEAVED f64min_tree_interleaved
#define RS_TREE_SEQUENTIAL f64min_tree_sequential
#define RS_WARP_TREE f64min_warp_tree
#define RS_BLOCK_REDUCE f64min_block_reduce
#define RS_TILE_IN f64min_tile_in
#define RS_TILE_ACC f64min_tile_acc
#define RS_SEED_TREE f64min_seed_tree
#define RS_GRID_STRIDE f64min_grid_stride
#define RS_TWO_PHASE f64min_two_phase
#define RS_WARP_ATOMIC f64min_warp_atomic
#define RS_AUTO f64min_auto
#define RS_RUN f64min_run
#include "cpu/reduce_cpu_stamp.h"
#define RS_IN double
#define RS_ACC double
#define RS_LOAD(x) (x)
#define RS_OP gp_rt_max_f64
#define RS_IDENT gp_rt_f64_from(0xfff0000000000000ull)
#define RS_TREE_INTERLEAVED f64max_tree_interleaved
#define RS_TREE_SEQUENTIAL f64max_tree_sequential
#define RS_WARP_TREE f64max_warp_tree
#define RS_BLOCK_REDUCE f64max_block_reduce
#define RS_TILE_IN f64max_tile_in
#define RS_TILE_ACC f64max_tile_acc
#define RS_SEED_TREE f64max_seed_tree
#define RS_GRID_STRIDE f64max_grid_stride
#define RS_TWO_PHASE f64max_two_phase
#define RS_WARP_ATOMIC f64max_warp_atomic
#define RS_AUTO f64max_auto
#define RS_RUN f64max_run
#include "cpu/reduce_cpu_stamp.h"
#define RS_IN int32_t
#define RS_ACC int32_t
#define RS_LOAD(x) (x)
#define RS_OP GP_LT_MIN
#define RS_IDENT INT32_MAX
#define RS_TREE_INTERLEAVED i32min_tree_interleaved
#define RS_TREE_SEQUENTIAL i32min_tree_sequential
#define RS_WARP_TREE i32min_warp_tree
#define RS_BLOCK_REDUCE i32min_block_reduce
#define RS_TILE_IN i32min_tile_in
#define RS_TILE_ACC i32min_tile_acc
#define RS_SEED_TREE i32min_seed_tree
#define RS_GRID_STRIDE i32min_grid_stride
#define RS_TWO_PHASE i32min_two_phase
#define RS_WARP_ATOMIC i32min_warp_atomic
#define RS_AUTO i32min_auto
#define RS_RUN i32min_run
#include "cpu/reduce_cpu_stamp.h"
#define RS_IN int32_t
#define RS_ACC int32_t
#define RS_LOAD(x) (x)
#define RS_OP GP_GT_MAX
#define RS_IDENT INT32_MIN
#define RS_TREE_INTERLEAVED i32max_tree_interleaved
#define RS_TREE_SEQUENTIAL i32max_tree_sequential
#define RS_WARP_TREE i32max_warp_tree
#define RS_BLOCK_REDUCE i32max_block_reduce
#define RS_TILE_IN i32max_tile_in
#define RS_TILE_ACC i32max_tile_acc
#define RS_SEED_TREE i32max_seed_tree
#define RS_GRID_STRIDE i32max_grid_stride
#define RS_TWO_PHASE i32max_two_phase
#define RS_WARP_ATOMIC i32max_warp_atomic
#define RS_AUTO i32max_auto
#define RS_RUN i32max_run
#include "cpu/reduce_cpu_stamp.h"
#define RS_IN int64_t
#define RS_ACC int64_t
#define RS_LOAD(x) (x)
#define RS_OP GP_LT_MIN
#define RS_IDENT INT64_MAX
#define RS_TREE_INTERLEAVED i64min_tree_interleaved
#define RS_TREE_SEQUENTIAL i64min_tree_sequential
#define RS_WARP_TREE i64min_warp_tree
#define RS_BLOCK_REDUCE i64min_block_reduce
#define RS_TILE_IN i64min_tile_in
#define RS_TILE_ACC i64min_tile_acc
#define RS_SEED_TREE i64min_seed_tree
#define RS_GRID_STRIDE i64min_grid_stride
#define RS_TWO_PHASE i64min_two_phase
#define RS_WARP_ATOMIC i64min_warp_atomic
#define RS_AUTO i64min_auto
#define RS_RUN i64min_run
#include "cpu/reduce_cpu_stamp.h"
#define RS_IN int64_t
#define RS_ACC int64_t
#define RS_LOAD(x) (x)
#define RS_OP GP_GT_MAX
#define RS_IDENT INT64_MIN
#define RS_TREE_INTERLEAVED i64max_tree_interleaved
#define RS_TREE_SEQUENTIAL i64max_tree_sequential
#define RS_WARP_TREE i64max_warp_tree
#define RS_BLOCK_REDUCE i64max_block_reduce
#define RS_TILE_IN i64max_tile_in
#define RS_TILE_ACC i64max_tile_acc
#define RS_SEED_TREE i64max_seed_tree
#define RS_GRID_STRIDE i64max_grid_stride
#define RS_TWO_PHASE i64max_two_phase
#define RS_WARP_ATOMIC i64max_warp_atomic
#define RS_AUTO i64max_auto
#define RS_RUN i64max_run
#include "cpu/reduce_cpu_stamp.h"
#define RS_IN uint32_t
#define RS_ACC uint32_t
#define RS_LOAD(x) (x)
#define RS_OP GP_LT_MIN
#define RS_IDENT UINT32_MAX
#define RS_TREE_INTERLEAVED u32min_tree_interleaved
#define RS_TREE_SEQUENTIAL u32min_tree_sequential
#define RS_WARP_TREE u32min_warp_tree
#define RS_BLOCK_REDUCE u32min_block_reduce
#define RS_TILE_IN u32min_tile_in
#define RS_TILE_ACC u32min_tile_acc
#define RS_SEED_TREE u32min_seed_tree
#define RS_GRID_STRIDE u32min_grid_stride
#define RS_TWO_PHASE u32min_two_phase
#define RS_WARP_ATOMIC u32min_warp_atomic
#define RS_AUTO u32min_auto
#define RS_RUN u32min_run
#include "cpu/reduce_cpu_stamp.h"
#define RS_IN uint32_t
#define RS_ACC uint32_t
#define RS_LOAD(x) (x)
#define RS_OP GP_GT_MAX
#define RS_IDENT 0u
#define RS_TREE_INTERLEAVED u32max_tree_interleaved
#define RS_TREE_SEQUENTIAL u32max_tree_sequential
#define RS_WARP_TREE u32max_warp_tree
#define RS_BLOCK_REDUCE u32max_block_reduce
#define RS_TILE_IN u32max_tile_in
#define RS_TILE_ACC u32max_tile_acc
#define RS_SEED_TREE u32max_seed_tree
#define RS_GRID_STRIDE u32max_grid_stride
#define RS_TWO_PHASE u32max_two_phase
#define RS_WARP_ATOMIC u32max_warp_atomic
#define RS_AUTO u32max_auto
#define RS_RUN u32max_run
#include "cpu/reduce_cpu_stamp.h"
#define RS_IN uint64_t
#define RS_ACC uint64_t
#define RS_LOAD(x) (x)
#define RS_OP GP_LT_MIN
#define RS_IDENT UINT64_MAX
#define RS_TREE_INTERLEAVED u64min_tree_interleaved
#define RS_TREE_SEQUENTIAL u64min_tree_sequential
#define RS_WARP_TREE u64min_warp_tree
#define RS_BLOCK_REDUCE u64min_block_reduce
#define RS_TILE_IN u64min_tile_in
#define RS_TILE_ACC u64min_tile_acc
#define RS_SEED_TREE u64min_seed_tree
#define RS_GRID_STRIDE u64min_grid_stride
#define RS_TWO_PHASE u64min_two_phase
#define RS_WARP_ATOMIC u64min_warp_atomic
#define RS_AUTO u64min_auto
#define RS_RUN u64min_run
#include "cpu/reduce_cpu_stamp.h"
#define RS_IN uint64_t
#define RS_ACC uint64_t
#define RS_LOAD(x) (x)
#define RS_OP GP_GT_MAX
#define RS_IDENT 0u
#define RS_TREE_INTERLEAVED u64max_tree_interleaved
#define RS_TREE_SEQUENTIAL u64max_tree_sequential
#define RS_WARP_TREE u64max_warp_tree
#define RS_BLOCK_REDUCE u64max_block_reduce
#define RS_TILE_IN u64max_tile_in
#define RS_TILE_ACC u64max_tile_acc
#define RS_SEED_TREE u64max_seed_tree
#define RS_GRID_STRIDE u64max_grid_stride
#define RS_TWO_PHASE u64max_two_phase
#define RS_WARP_ATOMIC u64max_warp_atomic
#define RS_AUTO u64max_auto
#define RS_RUN u64max_run
#include "cpu/reduce_cpu_stamp.h"

/* Runs a stamp's RUN function and stores its accumulator (of C type ACC) through the
 * out pointer as OUT_T, passing it through FIN (NaN canonicalization for floats). */
#define GP_RUN_STAMP(RUN, ACC, OUT_T, FIN)                                             \
  do {                                                                                 \
    ACC r_;                                                                            \
    if (RUN(algo, in, n, two_phase_blocks, &r_) != 0) goto oom;                        \
    OUT_T o_ = (OUT_T)FIN(r_);                                                         \
    memcpy(out, &o_, sizeof o_);                                                       \
    return GP_OK;                                                                      \
  } while (0)
#define GP_NOFIN(x) (x)

gp_status gp_cpu_reduce(gp_context *ctx, gp_op op, gp_dtype type, const void *in, size_t n,
                        void *out, gp_reduce_algo algo, unsigned two_phase_blocks) {
  /* AUTO MIN/MAX: order-independent, so no tree to emulate (cpu/minmax_cpu.c) */
  if ((op == GP_MIN || op == GP_MAX) && algo == GP_REDUCE_AUTO && (unsigned)type <= GP_U64) {
    gp_cpu_minmax(op, type, in, n, out);
    return GP_OK;
  }
  /* AUTO integer SUM: wrapping addition has no order to emulate (cpu/sum_int_cpu.c) */
  if (op == GP_SUM && algo == GP_REDUCE_AUTO && type != GP_F32 && type != GP_F64 &&
      (unsigned)type <= GP_U64) {
    gp_cpu_sum_int(type, in, n, out);
    return GP_OK;
  }
  switch (type) {
  case GP_F32:
    if (op == GP_SUM) {
      if (algo == GP_REDUCE_AUTO) return gp_cpu_sum_exact(GP_F32, in, n, out);
      GP_RUN_STAMP(f32sum32_run, float, float, gp_rt_canon_f32);
    }
    if (op == GP_MIN) GP_RUN_STAMP(f32min_run, float, float, gp_rt_canon_f32);
    GP_RUN_STAMP(f32max_run, float, float, gp_rt_canon_f32);
  case GP_F64:
    if (op == GP_SUM && algo == GP_REDUCE_AUTO) return gp_cpu_sum_exact(GP_F64, in, n, out);
    if (op == GP_SUM) GP_RUN_STAMP(f64sum_run, double, double, gp_rt_canon_f64);
    if (op == GP_MIN) GP_RUN_STAMP(f64min_run, double, double, gp_rt_canon_f64);
    GP_RUN_STAMP(f64max_run, double, double, gp_rt_canon_f64);
  case GP_I32:
    if (op == GP_SUM) GP_RUN_STAMP(i32sum_run, uint64_t, uint64_t, GP_NOFIN);
    if (op == GP_MIN) GP_RUN_STAMP(i32min_run, int32_t, int32_t, GP_NOFIN);
    GP_RUN_STAMP(i32max_run, int32_t, int32_t, GP_NOFIN);
  case GP_I64:
    if (op == GP_SUM) GP_RUN_STAMP(i64sum_run, uint64_t, uint64_t, GP_NOFIN);
    if (op == GP_MIN) GP_RUN_STAMP(i64min_run, int64_t, int64_t, GP_NOFIN);
    GP_RUN_STAMP(i64max_run, int64_t, int64_t, GP_NOFIN);
  case GP_U32:
    if (op == GP_SUM) GP_RUN_STAMP(u32sum_run, uint64_t, uint64_t, GP_NOFIN);
    if (op == GP_MIN) GP_RUN_STAMP(u32min_run, uint32_t, uint32_t, GP_NOFIN);
    GP_RUN_STAMP(u32max_run, uint32_t, uint32_t, GP_NOFIN);
  case GP_U64:
    if (op == GP_SUM) GP_RUN_STAMP(u64sum_run, uint64_t, uint64_t, GP_NOFIN);
    if (op == GP_MIN) GP_RUN_STAMP(u64min_run, uint64_t, uint64_t, GP_NOFIN);
    GP_RUN_STAMP(u64max_run, uint64_t, uint64_t, GP_NOFIN);
  }
  return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT, "unknown dtype %d", (int)type);
oom:
  return gp_fail(ctx, GP_ERR_OUT_OF_MEMORY,
                 "out of host memory for the CPU reduction's partial results (n = %zu)", n);
}
