#!/usr/bin/env python3
"""The CPU backend beside NumPy, on the same data in the same run.

Loads the shared library (libgpuprims.so, CMake target gpuprims_shared) through ctypes,
opens a CPU context (gp_create(&ctx, GP_BACKEND_CPU)) and times each gpuprims call next
to its NumPy counterpart: sorts of 2^24 keys, pairs against a stable argsort, row sorts,
f32 sum, min, max and argmax of 2^28 elements, row sums, top-k (k = 16, 1024 of 2^24
keys) and a trapezoid integral. Medians of --reps timings; every output is also checked
against NumPy's. Writes a Markdown table and JSON.

  python3 bench/numpy_cpu.py --lib build/libgpuprims.so --json out.json --md out.md
"""
import argparse
import ctypes
import json
import os
import platform
import statistics
import sys
import time

import numpy as np

GP_BACKEND_CPU = 2
GP_F32, GP_F64, GP_I32, GP_I64, GP_U32, GP_U64 = range(6)
GP_SUM, GP_MIN, GP_MAX = 0, 1, 2
GP_ASCENDING, GP_DESCENDING = 0, 1
GP_SORT_AUTO = 0
DTYPE = {np.float32: GP_F32, np.float64: GP_F64, np.int32: GP_I32, np.int64: GP_I64,
         np.uint32: GP_U32, np.uint64: GP_U64}


def load(path):
    lib = ctypes.CDLL(path)
    vp, sz = ctypes.c_void_p, ctypes.c_size_t
    lib.gp_create.argtypes = [ctypes.POINTER(vp), ctypes.c_int]
    lib.gp_destroy.argtypes = [vp]
    lib.gp_last_error.argtypes = [vp]
    lib.gp_last_error.restype = ctypes.c_char_p
    lib.gp_sort.argtypes = [vp, ctypes.c_int, vp, sz, ctypes.c_int, ctypes.c_int]
    lib.gp_sort_pairs.argtypes = [vp, ctypes.c_int, vp, ctypes.c_int, vp, sz, ctypes.c_int,
                                  ctypes.c_int]
    lib.gp_sort_segments.argtypes = [vp, ctypes.c_int, vp, sz, sz, ctypes.c_int]
    if hasattr(lib, "gp_argsort"):  # absent from libraries before the radix sort
        lib.gp_argsort.argtypes = [vp, ctypes.c_int, vp, ctypes.c_int, vp, sz, ctypes.c_int]
    lib.gp_reduce.argtypes = [vp, ctypes.c_int, ctypes.c_int, vp, sz, vp, ctypes.c_int]
    # absent from libraries before them
    if hasattr(lib, "gp_argreduce"):
        lib.gp_argreduce.argtypes = [vp, ctypes.c_int, ctypes.c_int, vp, sz, vp, vp]
    if hasattr(lib, "gp_reduce_rows"):
        lib.gp_reduce_rows.argtypes = [vp, ctypes.c_int, ctypes.c_int, vp, sz, sz, vp]
    if hasattr(lib, "gp_topk"):
        lib.gp_topk.argtypes = [vp, ctypes.c_int, vp, sz, sz, ctypes.c_int, vp, vp]
    lib.gp_integrate.argtypes = [vp, ctypes.c_char_p, ctypes.c_double, ctypes.c_double,
                                 ctypes.c_uint64, ctypes.POINTER(ctypes.c_double)]
    return lib


class Bench:
    def __init__(self, lib, reps):
        self.lib, self.reps, self.rows = lib, reps, []
        self.ctx = ctypes.c_void_p()
        self.check(lib.gp_create(ctypes.byref(self.ctx), GP_BACKEND_CPU), "gp_create")

    def check(self, status, what):
        if status != 0:
            msg = self.lib.gp_last_error(self.ctx).decode() if self.ctx else ""
            sys.exit(f"{what} failed (status {status}): {msg}")

    def time(self, fn, setup=None):
        """Median wall and process-CPU seconds of fn() over reps runs; setup() (untimed)
        runs before each. CPU time (all threads) shows the work where other processes
        share the cores and stretch the wall time."""
        ts, cs = [], []
        for _ in range(self.reps):
            arg = setup() if setup else None
            c0, t0 = time.process_time(), time.perf_counter()
            fn(arg)
            ts.append(time.perf_counter() - t0)
            cs.append(time.process_time() - c0)
        return statistics.median(ts), statistics.median(cs)

    def row(self, name, n, nbytes, t_gp, t_np, np_name):
        (w_gp, c_gp), (w_np, c_np) = t_gp, t_np
        self.rows.append({"case": name, "n": n, "bytes": nbytes, "gpuprims_ms": w_gp * 1e3,
                          "gpuprims_cpu_ms": c_gp * 1e3, "numpy_ms": w_np * 1e3,
                          "numpy_cpu_ms": c_np * 1e3, "numpy_call": np_name,
                          "speedup": w_np / w_gp})
        print(f"{name:30s} gpuprims {w_gp*1e3:8.2f} ms (cpu {c_gp*1e3:8.2f})   "
              f"{np_name:26s} {w_np*1e3:8.2f} ms (cpu {c_np*1e3:8.2f})   x{w_np/w_gp:5.2f}",
              flush=True)

    def sort(self, data, label):
        n, t = data.size, DTYPE[data.dtype.type]
        out = {}

        def gp(buf):
            self.check(self.lib.gp_sort(self.ctx, t, buf.ctypes.data, n, GP_ASCENDING,
                                        GP_SORT_AUTO), "gp_sort")
            out["r"] = buf
        t_gp = self.time(gp, lambda: data.copy())
        t_np = self.time(lambda _: np.sort(data))
        ref = np.sort(data)
        if not np.array_equal(out["r"].view(np.uint8), ref.view(np.uint8)):
            sys.exit(f"gp_sort {label} differs from np.sort")
        self.row(f"sort {label} n={n}", n, data.nbytes, t_gp, t_np, "np.sort")

    def pairs(self, keys, label):
        """Pairs (keys, 0..n-1) and argsort, both against np.argsort(kind="stable")."""
        n, t = keys.size, DTYPE[keys.dtype.type]
        out = {}

        def gp(kv):
            k, v = kv
            self.check(self.lib.gp_sort_pairs(self.ctx, t, k.ctypes.data, GP_U32, v.ctypes.data,
                                              n, GP_ASCENDING, GP_SORT_AUTO), "gp_sort_pairs")
            out["v"] = v
        t_gp = self.time(gp, lambda: (keys.copy(), np.arange(n, dtype=np.uint32)))
        t_np = self.time(lambda _: np.argsort(keys, kind="stable"))
        if not np.array_equal(out["v"], np.argsort(keys, kind="stable")):
            sys.exit(f"gp_sort_pairs {label} values differ from np.argsort(kind='stable')")
        self.row(f"pairs {label}/u32 n={n}", n, n * (keys.itemsize + 4), t_gp, t_np,
                 'np.argsort(kind="stable")')
        if not hasattr(self.lib, "gp_argsort"):
            return

        def gp_arg(ix):
            self.check(self.lib.gp_argsort(self.ctx, t, keys.ctypes.data, GP_U64,
                                           ix.ctypes.data, n, GP_ASCENDING), "gp_argsort")
            out["ix"] = ix
        t_arg = self.time(gp_arg, lambda: np.empty(n, dtype=np.uint64))
        if not np.array_equal(out["ix"], np.argsort(keys, kind="stable")):
            sys.exit(f"gp_argsort {label} differs from np.argsort(kind='stable')")
        self.row(f"argsort {label} (u64 indices) n={n}", n, n * (keys.itemsize + 8), t_arg,
                 t_np, 'np.argsort(kind="stable")')

    def rows_sort(self, data):
        rows, cols = data.shape
        t = DTYPE[data.dtype.type]
        out = {}

        def gp(buf):
            self.check(self.lib.gp_sort_segments(self.ctx, t, buf.ctypes.data, buf.size, cols,
                                                 GP_ASCENDING), "gp_sort_segments")
            out["r"] = buf
        t_gp = self.time(gp, lambda: data.copy())
        t_np = self.time(lambda _: np.sort(data, axis=-1))
        if not np.array_equal(out["r"], np.sort(data, axis=-1)):
            sys.exit("gp_sort_segments differs from np.sort(axis=-1)")
        self.row(f"row sorts f32 {rows}x{cols}", data.size, data.nbytes, t_gp, t_np,
                 "np.sort(axis=-1)")

    def reduce_sum(self, data):
        res = np.zeros(1, dtype=data.dtype)
        t_gp = self.time(lambda _: self.check(self.lib.gp_reduce(
            self.ctx, GP_SUM, DTYPE[data.dtype.type], data.ctypes.data, data.size,
            res.ctypes.data, 0), "gp_reduce"))
        t_np = self.time(lambda _: np.sum(data))
        self.row(f"reduce sum f32 n={data.size}", data.size, data.nbytes, t_gp, t_np, "np.sum")
        return float(res[0])

    def reduce_minmax(self, data):
        """gp_reduce MIN and MAX against np.min / np.max (same bits: no NaN in data)."""
        res = np.zeros(1, dtype=data.dtype)
        for op, name, fn in ((GP_MIN, "min", np.min), (GP_MAX, "max", np.max)):
            t_gp = self.time(lambda _: self.check(self.lib.gp_reduce(
                self.ctx, op, DTYPE[data.dtype.type], data.ctypes.data, data.size,
                res.ctypes.data, 0), "gp_reduce"))
            t_np = self.time(lambda _: fn(data))
            if res[0] != fn(data):
                sys.exit(f"gp_reduce {name} {res[0]} differs from np.{name} {fn(data)}")
            self.row(f"reduce {name} f32 n={data.size}", data.size, data.nbytes, t_gp, t_np,
                     f"np.{name}")

    def argmax(self, data):
        if not hasattr(self.lib, "gp_argreduce"):
            return
        val, idx = np.zeros(1, dtype=data.dtype), np.zeros(1, dtype=np.uint64)
        t_gp = self.time(lambda _: self.check(self.lib.gp_argreduce(
            self.ctx, GP_MAX, DTYPE[data.dtype.type], data.ctypes.data, data.size,
            val.ctypes.data, idx.ctypes.data), "gp_argreduce"))
        t_np = self.time(lambda _: np.argmax(data))
        if int(idx[0]) != int(np.argmax(data)):
            sys.exit(f"gp_argreduce max {idx[0]} differs from np.argmax {np.argmax(data)}")
        self.row(f"argmax f32 n={data.size}", data.size, data.nbytes, t_gp, t_np, "np.argmax")

    def rows_sum(self, data):
        """gp_reduce_rows SUM (each row correctly rounded) against np.sum(axis=1)
        (pairwise, not correctly rounded: compared to a float64 sum within 1 ulp)."""
        if not hasattr(self.lib, "gp_reduce_rows"):
            return
        rows, cols = data.shape
        out = np.zeros(rows, dtype=data.dtype)
        t_gp = self.time(lambda _: self.check(self.lib.gp_reduce_rows(
            self.ctx, GP_SUM, DTYPE[data.dtype.type], data.ctypes.data, rows, cols,
            out.ctypes.data), "gp_reduce_rows"))
        t_np = self.time(lambda _: np.sum(data, axis=1))
        ref = np.sum(data, axis=1, dtype=np.float64).astype(data.dtype)
        if np.max(np.abs(out - ref) / np.maximum(np.spacing(np.abs(ref)), 1e-30)) > 1:
            sys.exit("gp_reduce_rows differs from np.sum(axis=1) by more than 1 ulp")
        self.row(f"row sums f32 {rows}x{cols}", data.size, data.nbytes, t_gp, t_np,
                 "np.sum(axis=1)")

    def topk(self, data, k):
        """gp_topk (the k largest, sorted) against NumPy's usual idiom: argpartition,
        then a sort of the k (values compared)."""
        if not hasattr(self.lib, "gp_topk"):
            return
        vals, idx = np.zeros(k, dtype=data.dtype), np.zeros(k, dtype=np.uint64)
        t_gp = self.time(lambda _: self.check(self.lib.gp_topk(
            self.ctx, DTYPE[data.dtype.type], data.ctypes.data, data.size, k, GP_DESCENDING,
            vals.ctypes.data, idx.ctypes.data), "gp_topk"))

        def np_topk(_):
            part = np.argpartition(data, data.size - k)[data.size - k:]
            return part[np.argsort(-data[part], kind="stable")]
        t_np = self.time(np_topk)
        if not np.array_equal(vals, data[np_topk(None)]):
            sys.exit("gp_topk values differ from NumPy's argpartition top-k")
        self.row(f"topk k={k} f32 n={data.size}", data.size, data.nbytes, t_gp, t_np,
                 "np.argpartition + sort")

    def integrate(self, n):
        a, b, res = 0.0, np.pi, ctypes.c_double()
        t_gp = self.time(lambda _: self.check(self.lib.gp_integrate(
            self.ctx, b"sin(x)^2", a, b, n, ctypes.byref(res)), "gp_integrate"))

        def numpy_trap(_):
            x = np.linspace(a, b, n + 1)
            return np.trapezoid(np.sin(x) ** 2, x)
        t_np = self.time(numpy_trap)
        if abs(res.value - numpy_trap(None)) > 1e-9:
            sys.exit(f"gp_integrate {res.value} differs from np.trapezoid {numpy_trap(None)}")
        self.row(f"integrate sin(x)^2 n={n}", n, 0, t_gp, t_np, "np.trapezoid")


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lib", default="build/libgpuprims.so", help="path to libgpuprims.so")
    ap.add_argument("--reps", type=int, default=5, help="timed runs per case (median)")
    ap.add_argument("--log2n", type=int, default=24, help="sort size 2^N")
    ap.add_argument("--reduce-log2n", type=int, default=28, help="reduction size 2^N")
    ap.add_argument("--rows", type=int, default=16384)
    ap.add_argument("--cols", type=int, default=1024)
    ap.add_argument("--json", help="write the results here")
    ap.add_argument("--md", help="write the Markdown table here")
    args = ap.parse_args()

    load_before = os.getloadavg()[0]
    b = Bench(load(args.lib), args.reps)
    rng = np.random.default_rng(2026)
    n = 1 << args.log2n
    u32 = rng.integers(0, 1 << 32, n, dtype=np.uint32)
    b.sort(u32, "u32")
    b.sort(rng.standard_normal(n, dtype=np.float32), "f32")
    b.sort(rng.integers(0, 1 << 64, n, dtype=np.uint64), "u64")
    b.pairs(u32, "u32")
    b.rows_sort(rng.standard_normal((args.rows, args.cols), dtype=np.float32))
    big = rng.random(1 << args.reduce_log2n, dtype=np.float32)
    b.reduce_sum(big)
    b.reduce_minmax(big)
    b.argmax(big)
    big = None
    b.rows_sum(rng.random((args.rows, args.cols), dtype=np.float32))
    normal = rng.standard_normal(n, dtype=np.float32)
    b.topk(normal, 16)
    b.topk(normal, 1024)
    b.integrate(n)

    meta = {"date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
            "cpu": cpu_model(), "nproc": os.cpu_count(),
            "omp_num_threads": os.environ.get("OMP_NUM_THREADS", ""),
            "numpy": np.__version__, "python": platform.python_version(),
            "command": " ".join([os.path.basename(sys.executable)] + sys.argv),
            "reps": args.reps, "loadavg_1min_before": load_before,
            "loadavg_1min_after": os.getloadavg()[0]}
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"meta": meta, "rows": b.rows}, f, indent=2)
    # CPU / wall: how many cores the call actually had (2 threads on a shared machine
    # may get one)
    table = ["| case | gpuprims CPU backend: wall ms (CPU ms) | cores used (CPU / wall) | "
             "NumPy call | NumPy: wall ms (CPU ms) | speed-up (wall) |",
             "| --- | ---: | ---: | --- | ---: | ---: |"]
    for r in b.rows:
        table.append(f"| {r['case']} | {r['gpuprims_ms']:.1f} ({r['gpuprims_cpu_ms']:.1f}) | "
                     f"{r['gpuprims_cpu_ms'] / r['gpuprims_ms']:.2f} | "
                     f"`{r['numpy_call']}` | {r['numpy_ms']:.1f} ({r['numpy_cpu_ms']:.1f}) | "
                     f"{r['speedup']:.2f}x |")
    md = "\n".join(table) + "\n"
    if args.md:
        with open(args.md, "w") as f:
            f.write(md)
    print(f"\n{meta['cpu']}, {meta['nproc']} CPUs, NumPy {meta['numpy']}, {meta['date']}, "
          f"load average {meta['loadavg_1min_before']:.1f} -> {meta['loadavg_1min_after']:.1f}")
    print(md)
    b.lib.gp_destroy(b.ctx)


if __name__ == "__main__":
    main()
