/* Names and sizes of dtypes, ops and algorithms, both ways. */
#include "core/context.h"

#include <string.h>

size_t gp_dtype_size(gp_dtype t) {
  switch (t) {
  case GP_F32: case GP_I32: case GP_U32: return 4;
  case GP_F64: case GP_I64: case GP_U64: return 8;
  }
  return 0;
}

const char *gp_dtype_name(gp_dtype t) {
  static const char *names[] = {"f32", "f64", "i32", "i64", "u32", "u64"};
  return ((unsigned)t < GP_DTYPE_COUNT) ? names[t] : "?";
}

gp_status gp_dtype_from_name(const char *name, gp_dtype *t) {
  static const struct { const char *name; gp_dtype t; } table[] = {
    {"f32", GP_F32}, {"float32", GP_F32}, {"float", GP_F32},
    {"f64", GP_F64}, {"float64", GP_F64}, {"double", GP_F64},
    {"i32", GP_I32}, {"int32", GP_I32}, {"int", GP_I32},
    {"i64", GP_I64}, {"int64", GP_I64},
    {"u32", GP_U32}, {"uint32", GP_U32},
    {"u64", GP_U64}, {"uint64", GP_U64},
  };
  if (!name || !t) return GP_ERR_INVALID_ARGUMENT;
  for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
    if (strcmp(name, table[i].name) == 0) { *t = table[i].t; return GP_OK; }
  return GP_ERR_PARSE;
}

const char *gp_op_name(gp_op op) {
  switch (op) {
  case GP_SUM: return "sum";
  case GP_MIN: return "min";
  case GP_MAX: return "max";
  }
  return "?";
}

gp_status gp_op_from_name(const char *name, gp_op *op) {
  if (!name || !op) return GP_ERR_INVALID_ARGUMENT;
  for (int i = GP_SUM; i <= GP_MAX; i++)
    if (strcmp(name, gp_op_name((gp_op)i)) == 0) { *op = (gp_op)i; return GP_OK; }
  return GP_ERR_PARSE;
}

const char *gp_reduce_algo_name(gp_reduce_algo a) {
  switch (a) {
  case GP_REDUCE_AUTO: return "auto";
  case GP_REDUCE_INTERLEAVED: return "interleaved";
  case GP_REDUCE_SEQUENTIAL: return "sequential";
  case GP_REDUCE_TWO_PHASE: return "two-phase";
  case GP_REDUCE_WARP_ATOMIC: return "warp-atomic";
  }
  return "?";
}

gp_status gp_reduce_algo_from_name(const char *name, gp_reduce_algo *a) {
  if (!name || !a) return GP_ERR_INVALID_ARGUMENT;
  for (int i = GP_REDUCE_AUTO; i <= GP_REDUCE_WARP_ATOMIC; i++)
    if (strcmp(name, gp_reduce_algo_name((gp_reduce_algo)i)) == 0) {
      *a = (gp_reduce_algo)i;
      return GP_OK;
    }
  return GP_ERR_PARSE;
}

gp_dtype gp_reduce_out_type(gp_op op, gp_dtype type) {
  if (op == GP_SUM && type == GP_I32) return GP_I64;
  if (op == GP_SUM && type == GP_U32) return GP_U64;
  return type;
}

const char *gp_sort_algo_name(gp_sort_algo a) {
  switch (a) {
  case GP_SORT_AUTO: return "auto";
  case GP_SORT_BITONIC: return "bitonic";
  case GP_SORT_BITONIC_SEED: return "bitonic-seed";
  case GP_SORT_RADIX: return "radix";
  }
  return "?";
}

gp_status gp_sort_algo_from_name(const char *name, gp_sort_algo *a) {
  if (!name || !a) return GP_ERR_INVALID_ARGUMENT;
  for (int i = GP_SORT_AUTO; i <= GP_SORT_RADIX; i++)
    if (strcmp(name, gp_sort_algo_name((gp_sort_algo)i)) == 0) {
      *a = (gp_sort_algo)i;
      return GP_OK;
    }
  return GP_ERR_PARSE;
}

const char *gp_backend_name(gp_backend b) {
  switch (b) {
  case GP_BACKEND_AUTO: return "auto";
  case GP_BACKEND_CUDA: return "cuda";
  case GP_BACKEND_CPU: return "cpu";
  }
  return "?";
}
