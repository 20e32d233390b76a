#!/usr/bin/env python3
"""gpuprims from Python on NumPy arrays (the CPU backend) beside NumPy, across sizes.

Where bench/numpy_cpu.py times the C library at one large size, this times the Python
package as a NumPy user calls it (gpuprims.sum(a), gpuprims.sort(a), ...; the binding's
cost included) at every power of four from 2^4 up, and reductions, sorts and top-k
along rows of every length at a fixed total. Each call returns a host result, so it is
timed as the caller sees it: wall clock around a batch of back-to-back calls, the
batch sized to ~2 ms; gpuprims and NumPy take turns batch by batch (--rounds each) and
the median per-call time counts. Every output is checked against NumPy's first (sorts
and indices exactly, sums against math.fsum), and a mismatch stops the script.

  GPUPRIMS_LIBRARY=build/libgpuprims.so PYTHONPATH=python \\
      python3 bench/numpy_sizes.py --json sizes.json
  python3 -m gpuprims.plot sizes.json -o sizes.png --y time,ratio

Writes the CLI harness's JSON (rows of impl, case, dtype, n, median_s; the gpuprims
rows carry ratio = NumPy time / gpuprims time), which gpuprims.plot draws.
"""
import argparse
import datetime
import json
import math
import platform
import statistics
import sys
import time

import numpy as np

import gpuprims

BATCH_S = 0.002


def per_call(fn, number):
    t0 = time.perf_counter()
    for _ in range(number):
        fn()
    return (time.perf_counter() - t0) / number


def measure(fns, rounds):
    """{name: median seconds a call}: each fn's batch size is set once so a batch takes
    ~BATCH_S, then the fns take turns, a batch each, `rounds` times."""
    sizes = {}
    for name, fn in fns.items():
        fn()
        number = 1
        while per_call(fn, number) * number < BATCH_S and number < 1 << 16:
            number *= 4
        sizes[name] = number
    xs = {name: [] for name in fns}
    for _ in range(rounds):
        for name, fn in fns.items():
            xs[name].append(per_call(fn, sizes[name]))
    return {name: statistics.median(v) for name, v in xs.items()}


def fail(what):
    sys.exit("numpy_sizes: %s" % what)


def check_sum(got, a, what):
    want = math.fsum(a.astype(np.float64).ravel().tolist())
    if a.dtype == np.float64:
        ok = got == want
    else:  # fsum rounds to double, float32 rounds again: within one float32 step
        ok = abs(got - want) <= np.spacing(np.float32(abs(want))) * 1.0
    if not ok:
        fail("%s: gpuprims %r, exact %r" % (what, got, want))


def check_equal(got, want, what):
    if not np.array_equal(got, want):
        fail("%s: gpuprims and NumPy differ" % what)


def one_d_cases(rng, n):
    """(case, dtype, gpuprims fn, numpy fn) for arrays of n elements, outputs checked."""
    f32 = rng.standard_normal(n).astype(np.float32)
    f64 = rng.standard_normal(n)
    i32 = rng.integers(-2 ** 31, 2 ** 31, n, dtype=np.int32)
    i64 = rng.integers(-2 ** 63, 2 ** 63, n, dtype=np.int64, endpoint=False)
    check_sum(gpuprims.sum(f32), f32, "sum f32 n=%d" % n)
    for x, name in ((i32, "i32"), (i64, "i64")):  # both wrap modulo 2^64 as int64
        if gpuprims.sum(x) != np.sum(x):
            fail("sum %s n=%d" % (name, n))
    if gpuprims.max(i64) != np.max(i64):
        fail("max i64 n=%d" % n)
    if gpuprims.argmax(f64) != np.argmax(f64) or gpuprims.argmax(i64) != np.argmax(i64):
        fail("argmax f64/i64 n=%d" % n)
    check_equal(gpuprims.argsort(f64), np.argsort(f64, kind="stable"), "argsort f64 n=%d" % n)
    check_sum(gpuprims.sum(f64), f64, "sum f64 n=%d" % n)
    if gpuprims.max(f32) != np.max(f32):
        fail("max f32 n=%d" % n)
    if gpuprims.argmax(f32) != np.argmax(f32):
        fail("argmax f32 n=%d" % n)
    check_equal(gpuprims.sort(f32), np.sort(f32), "sort f32 n=%d" % n)
    check_equal(gpuprims.sort(i32), np.sort(i32), "sort i32 n=%d" % n)
    check_equal(gpuprims.sort(f64), np.sort(f64), "sort f64 n=%d" % n)
    check_equal(gpuprims.sort(i64), np.sort(i64), "sort i64 n=%d" % n)
    check_equal(gpuprims.argsort(i32), np.argsort(i32, kind="stable"), "argsort i32 n=%d" % n)
    cases = [
        ("sum", "f32", lambda: gpuprims.sum(f32), lambda: np.sum(f32)),
        ("sum", "f64", lambda: gpuprims.sum(f64), lambda: np.sum(f64)),
        ("max", "f32", lambda: gpuprims.max(f32), lambda: np.max(f32)),
        ("argmax", "f32", lambda: gpuprims.argmax(f32), lambda: np.argmax(f32)),
        ("sort", "f32", lambda: gpuprims.sort(f32), lambda: np.sort(f32)),
        ("sort", "i32", lambda: gpuprims.sort(i32), lambda: np.sort(i32)),
        ("argsort", "i32", lambda: gpuprims.argsort(i32),
         lambda: np.argsort(i32, kind="stable")),
        ("sum", "i32", lambda: gpuprims.sum(i32), lambda: np.sum(i32)),
        ("sum", "i64", lambda: gpuprims.sum(i64), lambda: np.sum(i64)),
        ("max", "i64", lambda: gpuprims.max(i64), lambda: np.max(i64)),
        ("argmax", "f64", lambda: gpuprims.argmax(f64), lambda: np.argmax(f64)),
        ("argmax", "i64", lambda: gpuprims.argmax(i64), lambda: np.argmax(i64)),
        ("argsort", "f64", lambda: gpuprims.argsort(f64),
         lambda: np.argsort(f64, kind="stable")),
        ("sort", "f64", lambda: gpuprims.sort(f64), lambda: np.sort(f64)),
        ("sort", "i64", lambda: gpuprims.sort(i64), lambda: np.sort(i64)),
    ]
    if n >= 64:
        k = 16
        v, _ = gpuprims.topk(f32, k)
        check_equal(v, np.sort(f32)[::-1][:k], "topk f32 n=%d" % n)
        cases.append(("topk 16", "f32", lambda: gpuprims.topk(f32, k),
                      lambda: np.sort(f32[np.argpartition(f32, -k)[-k:]])[::-1]))
    return cases


def rows_cases(rng, rows, cols, dtype):
    a = rng.standard_normal((rows, cols)).astype(dtype)
    flat = a.reshape(-1)
    offs = np.arange(0, rows * cols + 1, cols, dtype=np.int64)
    got = gpuprims.sum(a, axis=-1)
    want = np.array([math.fsum(r) for r in a.astype(np.float64).tolist()])
    ok = (np.array_equal(got, want) if dtype == np.float64 else
          np.all(np.abs(got - want) <= np.spacing(np.abs(want).astype(np.float32))))
    if not ok:
        fail("rows sum %dx%d" % (rows, cols))
    check_equal(gpuprims.sum(flat, offsets=offs), got, "offsets sum %dx%d" % (rows, cols))
    check_equal(gpuprims.max(a, axis=-1), np.max(a, axis=1), "rows max %dx%d" % (rows, cols))
    check_equal(gpuprims.sort(a), np.sort(a, axis=1), "rows sort %dx%d" % (rows, cols))
    check_equal(gpuprims.argmax(a, axis=-1), np.argmax(a, axis=1), "rows argmax %dx%d"
                % (rows, cols))
    cases = [
        ("rows sum len %d" % cols, lambda: gpuprims.sum(a, axis=-1),
         lambda: np.sum(a, axis=1)),
        ("offsets sum len %d" % cols, lambda: gpuprims.sum(flat, offsets=offs),
         lambda: np.add.reduceat(flat, offs[:-1])),
        ("rows max len %d" % cols, lambda: gpuprims.max(a, axis=-1),
         lambda: np.max(a, axis=1)),
        ("rows sort len %d" % cols, lambda: gpuprims.sort(a), lambda: np.sort(a, axis=1)),
        ("rows argmax len %d" % cols, lambda: gpuprims.argmax(a, axis=-1),
         lambda: np.argmax(a, axis=1)),
    ]
    if cols >= 16:
        k = 8
        v, _ = gpuprims.topk(a, k)
        check_equal(v, -np.sort(-a, axis=1)[:, :k], "rows topk %dx%d" % (rows, cols))
        cases.append(("rows topk 8 len %d" % cols, lambda: gpuprims.topk(a, k),
                      lambda: np.take_along_axis(a, np.argpartition(a, -k, axis=1)[:, -k:], 1)))
    return cases


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--log2n", default="4,6,8,10,12,14,16,18,20",
                    help="sizes of the 1-d cases, as powers of two")
    ap.add_argument("--rows-total", type=int, default=1 << 20,
                    help="elements of the 2-d cases (rows x length)")
    ap.add_argument("--lens", default="16,64,256,1024,4096,16384",
                    help="row lengths of the 2-d cases")
    ap.add_argument("--rounds", type=int, default=7, help="batches per implementation")
    ap.add_argument("--rows-dtypes", default="f32",
                    help="element types of the 2-d cases: f32, f64 or both (f32,f64)")
    ap.add_argument("--no-rows", action="store_true", help="skip the 2-d cases")
    ap.add_argument("--json", help="write the rows here")
    args = ap.parse_args()
    info = gpuprims.device_info()
    if info.backend != "cpu":
        print("note: the default context is %s; NumPy arrays there are staged to the GPU"
              % info.backend, file=sys.stderr)
    rng = np.random.default_rng(2026)
    rows = []

    def record(case, dtype, n, t):
        tg, tn = t["gpuprims"], t["NumPy"]
        rows.append({"impl": "gpuprims", "case": case, "dtype": dtype, "n": n, "ok": True,
                     "median_s": tg, "ratio": tn / tg, "ratio_to": "NumPy"})
        rows.append({"impl": "NumPy", "case": case, "dtype": dtype, "n": n, "ok": True,
                     "median_s": tn})
        print("%-22s %-4s n=%-9d gpuprims %10.2f us  NumPy %10.2f us  %6.2fx"
              % (case, dtype, n, tg * 1e6, tn * 1e6, tn / tg), flush=True)

    for e in (int(x) for x in args.log2n.split(",")):
        n = 1 << e
        for case, dtype, g, p in one_d_cases(rng, n):
            record(case, dtype, n, measure({"gpuprims": g, "NumPy": p}, args.rounds))
    types = {"f32": np.float32, "f64": np.float64}
    for name in ([] if args.no_rows else args.rows_dtypes.split(",")):
        if name not in types:
            sys.exit("numpy_sizes: --rows-dtypes takes f32 and f64, not %r" % name)
        for cols in (int(x) for x in args.lens.split(",")):
            for case, g, p in rows_cases(rng, args.rows_total // cols, cols, types[name]):
                record(case, name, args.rows_total, measure({"gpuprims": g, "NumPy": p},
                                                            args.rounds))
    if args.json:
        doc = {"suite": "numpy_sizes",
               "command": "python3 bench/numpy_sizes.py " + " ".join(sys.argv[1:]),
               "date": datetime.datetime.now(datetime.timezone.utc).strftime(
                   "%Y-%m-%dT%H:%M:%SZ"),
               "gpuprims_version": gpuprims.version(), "numpy_version": np.__version__,
               "machine": {"cpu": platform.processor() or platform.machine(),
                           "threads": info.threads, "name": info.name},
               "method": {"timer": "wall clock around batches of back-to-back calls "
                                   "(~%g ms), implementations in turns, median" % (BATCH_S * 1e3),
                          "rounds": args.rounds},
               "rows": rows}
        with open(args.json, "w") as f:
            json.dump(doc, f, indent=1)
        print("wrote", args.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())
