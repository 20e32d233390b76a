"""Loads libgpuprims and declares its C functions for ctypes (argtypes set once, so a
call converts its arguments without guessing). The library comes from
$GPUPRIMS_LIBRARY when set (a build tree's libgpuprims.so), else from the copy
installed inside this package."""
from __future__ import annotations

import ctypes
import os
from ctypes import (POINTER, Structure, c_char, c_char_p, c_double, c_int, c_long,
                    c_size_t, c_uint, c_uint64, c_ulong, c_void_p)

_here = os.path.dirname(os.path.abspath(__file__))


def _library_path() -> str:
    env = os.environ.get("GPUPRIMS_LIBRARY")
    if env:
        return env
    for name in ("libgpuprims.so.0", "libgpuprims.so", "libgpuprims.dylib"):
        p = os.path.join(_here, name)
        if os.path.exists(p):
            return p
    raise ImportError(
        "gpuprims: libgpuprims.so was not found inside the package (" + _here + "): "
        "install with `pip install .` from the repository, or set GPUPRIMS_LIBRARY to "
        "a built libgpuprims.so")


path = _library_path()
lib = ctypes.CDLL(path)

# enums, as include/gpuprims.h numbers them
F32, F64, I32, I64, U32, U64 = range(6)
SUM, MIN, MAX = range(3)
ASCENDING, DESCENDING = 0, 1
BACKEND_AUTO, BACKEND_CUDA, BACKEND_CPU = range(3)
STATUS_NAMES = ("GP_OK", "GP_ERR_INVALID_ARGUMENT", "GP_ERR_UNSUPPORTED",
                "GP_ERR_NO_DEVICE", "GP_ERR_OUT_OF_MEMORY", "GP_ERR_CUDA", "GP_ERR_IO",
                "GP_ERR_FORMAT", "GP_ERR_PARSE")
REDUCE_ALGOS = {"auto": 0, "interleaved": 1, "sequential": 2, "two-phase": 3,
                "warp-atomic": 4}
SORT_ALGOS = {"auto": 0, "bitonic": 1, "bitonic-seed": 2, "radix": 3}
MODEL_MAX_STEPS = 64
SPAN_MAX_STAGES = 24


class DeviceInfo(Structure):
    _fields_ = [("name", c_char * 256), ("cc_major", c_int), ("cc_minor", c_int),
                ("sm_count", c_int), ("threads", c_int), ("global_mem_bytes", c_size_t),
                ("l2_bytes", c_size_t), ("mem_clock_khz", c_double),
                ("mem_bus_bits", c_int), ("arch", c_int)]


class ModelConfig(Structure):
    _fields_ = [("algo", c_int), ("block", c_uint), ("warp", c_uint), ("banks", c_uint),
                ("bank_bytes", c_uint), ("elem_bytes", c_uint), ("partials", c_uint)]


class DivStep(Structure):
    _fields_ = [("kernel", c_uint), ("part", c_int), ("step_s", c_long),
                ("in_table", c_int), ("what", c_char * 64), ("active_threads", c_uint),
                ("active_warps", c_uint), ("mixed_warps", c_uint),
                ("issue_passes", c_uint)]


class DivSum(Structure):
    _fields_ = [("steps", c_uint), ("issue_passes", c_ulong), ("active_threads", c_ulong),
                ("active_warps", c_ulong), ("mixed_warps", c_ulong),
                ("max_mixed_per_step", c_uint), ("lanes_per_issue", c_double)]


class DivTotal(Structure):
    _fields_ = [("table", DivSum), ("kernel", DivSum)]


class BankAccess(Structure):
    _fields_ = [("kernel", c_uint), ("part", c_int), ("step_s", c_long),
                ("what", c_char * 64), ("access", c_char * 32), ("is_store", c_int),
                ("warps", c_uint), ("max_degree", c_uint), ("wavefronts", c_ulong),
                ("ideal", c_ulong), ("conflicts", c_ulong)]


class BankTotal(Structure):
    _fields_ = [("ld_requests", c_ulong), ("st_requests", c_ulong),
                ("ld_wavefronts", c_ulong), ("st_wavefronts", c_ulong),
                ("ld_conflicts", c_ulong), ("st_conflicts", c_ulong),
                ("max_degree", c_uint)]


class SpanConfig(Structure):
    _fields_ = [("n", c_uint64), ("blocks", c_uint64), ("block", c_uint),
                ("phase2_block", c_uint)]


class SpanStage(Structure):
    _fields_ = [("inputs", c_uint64), ("blocks", c_uint64), ("threads", c_uint),
                ("grid_stride", c_int), ("loop_len", c_uint64), ("loop_levels", c_uint64),
                ("tree_steps", c_uint), ("tree_levels", c_uint), ("adds", c_uint64),
                ("combines", c_uint64), ("outputs", c_uint64), ("unread", c_uint64)]


class SpanResult(Structure):
    _fields_ = [("design", c_int), ("nstages", c_uint),
                ("stage", SpanStage * SPAN_MAX_STAGES), ("launch_boundaries", c_uint),
                ("span_levels", c_uint64), ("span_levels_loops", c_uint64),
                ("span_steps", c_uint64), ("work_adds", c_uint64),
                ("work_combines", c_uint64)]


def _fn(name, restype, *argtypes):
    """The C function `name` with its prototype set."""
    f = getattr(lib, name)
    f.restype = restype
    f.argtypes = argtypes
    return f


P, S, I = c_void_p, c_size_t, c_int  # context/array pointers, sizes, enums
version = _fn("gp_version", c_char_p)
status_string = _fn("gp_status_string", c_char_p, I)
create = _fn("gp_create", I, POINTER(c_void_p), I)
destroy = _fn("gp_destroy", None, P)
backend_of = _fn("gp_backend_of", I, P)
last_error = _fn("gp_last_error", c_char_p, P)
set_stream = _fn("gp_set_stream", I, P, P)
synchronize = _fn("gp_synchronize", I, P)
get_device_info = _fn("gp_get_device_info", I, P, POINTER(DeviceInfo))
reduce = _fn("gp_reduce", I, P, I, I, P, S, P, I)
sort = _fn("gp_sort", I, P, I, P, S, I, I)
sort_pairs = _fn("gp_sort_pairs", I, P, I, P, I, P, S, I, I)
sort_segments = _fn("gp_sort_segments", I, P, I, P, S, S, I)
integrate_ex = _fn("gp_integrate_ex", I, P, c_char_p, c_double, c_double, c_uint64, I,
                   POINTER(c_double))
expr_value = _fn("gp_expr_value", I, P, c_char_p, c_double, POINTER(c_double))
model_algo_from_name = _fn("gp_model_algo_from_name", I, c_char_p, POINTER(c_int))
model_part_name = _fn("gp_model_part_name", c_char_p, I)
span_design_name = _fn("gp_span_design_name", c_char_p, I)
model_divergence = _fn("gp_model_divergence", I, P, POINTER(ModelConfig), POINTER(DivStep),
                       S, POINTER(c_size_t), POINTER(DivTotal))
model_banks = _fn("gp_model_banks", I, P, POINTER(ModelConfig), POINTER(BankAccess), S,
                  POINTER(c_size_t), POINTER(BankTotal))
model_bank_stride = _fn("gp_model_bank_stride", I, P, POINTER(ModelConfig), c_ulong,
                        POINTER(BankAccess), POINTER(c_uint))
model_span = _fn("gp_model_span", I, P, POINTER(SpanConfig), I, POINTER(SpanResult))
argsort = _fn("gp_argsort", I, P, I, P, I, P, S, I)
sort_segments_offsets = _fn("gp_sort_segments_offsets", I, P, I, P, P, S, I)
sort_pairs_segments_offsets = _fn("gp_sort_pairs_segments_offsets", I, P, I, P, I, P, P,
                                  S, I)


def _bare(name):
    """A second handle on the C function `name`, restype int and no argtypes, for the
    calls made most often. ctypes then converts nothing by itself, so the caller must
    pass each argument as its C type: Python ints for int and enum parameters,
    c_void_p.from_param(p) for pointers (Context._hp for the context) and
    c_size_t.from_param(n) for sizes. A 7-argument call costs 0.4-0.5 us less than
    through argtypes (2-core x86-64 box, CPython 3.11). A wrong argument is not caught
    here: only the few call sites in _api use these."""
    f = lib[name]  # a new function object; `lib.name` would be the one _fn declared
    f.restype = c_int
    return f


reduce_bare = _bare("gp_reduce")      # (ctx, op, dtype, in, n, out, algo)
reduce_device_bare = _bare("gp_reduce_device")  # the same, both arrays on the GPU
sort_bare = _bare("gp_sort")          # (ctx, dtype, keys, n, order, algo)
argsort_bare = _bare("gp_argsort")    # (ctx, dtype, keys, idx dtype, idx, n, order)
sort_copy_bare = _bare("gp_sort_copy")  # (ctx, dtype, in, out, n, order, algo)
argreduce_bare = _bare("gp_argreduce")  # (ctx, op, dtype, in, n, value out, index out)
# (ctx, op, dtype, in, rows, cols, values out, indices out)
argreduce_rows_bare = _bare("gp_argreduce_rows")
# (ctx, op, dtype, in, offsets, nseg, values out, indices out)
argreduce_segments_offsets_bare = _bare("gp_argreduce_segments_offsets")
reduce_rows_bare = _bare("gp_reduce_rows")  # (ctx, op, dtype, in, rows, cols, out)
# (ctx, op, dtype, in, offsets, nseg, out)
reduce_segments_offsets_bare = _bare("gp_reduce_segments_offsets")
topk_bare = _bare("gp_topk")            # (ctx, dtype, in, n, k, order, values, indices)
topk_rows_bare = _bare("gp_topk_rows")  # (ctx, dtype, in, rows, cols, k, order, v, i)
