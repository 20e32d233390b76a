"""python -m gpuprims.bench: gpuprims beside PyTorch and CuPy on the same tensors in
the same process. Each sample is CUDA events around the Python call on an idle GPU
(after an L2 flush and a synchronize, so the Python overhead is inside the events on
every side); the implementations of a case take turns sample by sample, so a host
that slows down slows them alike; samples run until the noise is below 0.5% or a cap;
the median counts. Writes the CLI harness's JSON (--json FILE), which
`python -m gpuprims.plot` draws. Also measures the binding's own cost per call
(suite "overhead", wall clock: gpuprims vs the bare ctypes call it makes).

  python -m gpuprims.bench --json py_bench.json            # every suite
  python -m gpuprims.bench --suites sum,overhead --quick   # a fast look
  python -m gpuprims.bench --suites topk                   # k = 16, 1024 vs torch.topk
  python -m gpuprims.bench --suites argmax_rows            # vs torch.argmax(dim=1)
"""
from __future__ import annotations

import argparse
import datetime
import json
import math
import statistics
import sys
import time

import gpuprims
from gpuprims import _lib as L

SIZES = [1 << 11, 1 << 16, 1 << 20, 1 << 21, 1 << 24, 1 << 28]
ROWS = [(16384, 1024)]
SEG_TOTAL, SEG_SIZES = 1 << 24, [32, 128, 512, 1024, 2048, 4096]
TOPK_SIZES, TOPK_KS = [1 << 20, 1 << 24, 1 << 28], [16, 1024]
TOPK_ROWS = [(16384, 1024), (1024, 16384)]
ARGMAX_ROWS = [(1 << 20, 16), (16384, 1024), (1024, 16384), (64, 1 << 18)]


class Timer:
    """CUDA events on the current (legacy default) stream, where torch and CuPy both
    launch unless told otherwise; an L2 flush before each sample, then a synchronize:
    the first event is stamped on an idle GPU as the Python call starts, so the call's
    host work is timed on every side. (Without the synchronize the flush kernel, ~30 us
    of GPU work, would still be running while the call's host work ran, hiding a part
    of that work that depends on how fast the host was at that moment: the earlier
    runs of this bench, docs/perf/python.md.)"""

    def __init__(self, torch, cupy, flush):
        self.torch, self.cupy = torch, cupy
        if torch is not None:
            self.events = lambda: (torch.cuda.Event(enable_timing=True),
                                   torch.cuda.Event(enable_timing=True))
            self.sync = torch.cuda.synchronize
            l2 = getattr(torch.cuda.get_device_properties(0), "L2_cache_size", 64 << 20)
            self.scratch = torch.empty(2 * l2 // 4 + 1, dtype=torch.int32, device="cuda")
        else:
            self.events = lambda: (cupy.cuda.Event(), cupy.cuda.Event())
            self.sync = cupy.cuda.runtime.deviceSynchronize
            l2 = cupy.cuda.runtime.getDeviceProperties(0)["l2CacheSize"]
            self.scratch = cupy.empty(2 * l2 // 4 + 1, dtype=cupy.int32)
        self.flush = flush

    def sample(self, fn):
        if self.flush:
            self.scratch.fill_(0) if self.torch is not None else self.scratch.fill(0)
        a, b = self.events()
        self.sync()
        a.record()
        fn()
        b.record()
        b.synchronize()
        if self.torch is not None:
            return a.elapsed_time(b) * 1e-3
        return self.cupy.cuda.get_elapsed_time(a, b) * 1e-3

    def measure(self, fns, args):
        """{name: samples} for {name: fn}: the functions take turns (the first of a
        turn moves round), each until its noise is below args.noise after
        args.min_samples, or every one's time is up (args.max_time each)."""
        for fn in fns.values():
            for _ in range(args.warmup):
                fn()
        self.sync()
        names = list(fns)
        xs = {k: [] for k in names}
        todo = set(names)
        t0, turn = time.perf_counter(), 0
        cap = args.max_time * len(names)
        while todo:
            for k in names[turn % len(names):] + names[:turn % len(names)]:
                if k in todo:
                    xs[k].append(self.sample(fns[k]))
            turn += 1
            for k in list(todo):
                x = xs[k]
                if len(x) >= args.max_samples:
                    todo.discard(k)
                elif len(x) >= args.min_samples:
                    m = statistics.fmean(x)
                    if statistics.pstdev(x) / m < args.noise:
                        todo.discard(k)
            if time.perf_counter() - t0 > cap and all(
                    len(xs[k]) >= args.min_samples for k in todo):
                break
        return xs


def row(impl, case, dtype, n, nbytes, xs, capped=False):
    med = statistics.median(xs)
    mean = statistics.fmean(xs)
    return {"impl": impl, "case": case, "dtype": dtype, "n": n, "bytes": nbytes,
            "elements": n, "ok": True, "samples": len(xs), "median_s": med,
            "mean_s": mean, "min_s": min(xs), "max_s": max(xs),
            "noise": statistics.pstdev(xs) / mean if mean > 0 else 0.0,
            "elem_per_s": n / med if med > 0 else 0.0,
            "gbs": nbytes / med * 1e-9 if med > 0 else 0.0, "time_capped": capped,
            "l2_flushed": True}


def failed(impl, case, dtype, n, err):
    return {"impl": impl, "case": case, "dtype": dtype, "n": n, "bytes": 0, "elements": n,
            "ok": False, "error": "%s: %s" % (type(err).__name__, err)}


def cases(suite, torch, cupy, args):
    """(case, dtype, n, bytes, {impl: (make_inputs, call)}) for one suite."""
    if suite == "sum":
        for n in args.sizes:
            impls = {"gpuprims": lambda t: gpuprims.sum(t)}
            if torch:
                impls["torch"] = lambda t: t.sum().item()
            if cupy:
                impls["cupy"] = lambda c: float(c.sum())
            yield "sum .item()", args.sum_dtype, n, n * 4, impls
    elif suite in ("sort", "argsort"):
        for n in args.sizes:
            if suite == "sort":
                impls = {"gpuprims": lambda t: gpuprims.sort(t)}
                if torch:
                    impls["torch"] = lambda t: torch.sort(t)
                if cupy:
                    impls["cupy"] = lambda c: cupy.sort(c)
            else:
                impls = {"gpuprims": lambda t: gpuprims.argsort(t)}
                if torch:
                    impls["torch"] = lambda t: torch.argsort(t, stable=True)
                if cupy:
                    impls["cupy"] = lambda c: cupy.argsort(c)
            yield suite, args.sort_dtype, n, n * 4, impls
    elif suite == "topk":
        # f32 normal and uniform [0,1) (torch.rand: the select's largest first bucket)
        sizes = [s for s in TOPK_SIZES if not args.quick or s <= 1 << 24]
        for dist in ("normal", "uniform"):
            for n in sizes:
                for k in TOPK_KS:
                    impls = {"gpuprims": lambda t, k=k: gpuprims.topk(t, k)}
                    if torch:
                        impls["torch"] = lambda t, k=k: torch.topk(t, k)
                    yield "topk k=%d %s" % (k, dist), "f32", n, n * 4, impls, (n,), dist
    elif suite == "topk_rows":
        # f32 normal, the top k of each row; rows sorted ascending (every element is a
        # new best: the select's worst case) on the first shape
        for i, (r, c) in enumerate(TOPK_ROWS):
            for dist in ("normal", "ascending") if i == 0 else ("normal",):
                for k in (8, 64, 128):
                    impls = {"gpuprims": lambda t, k=k: gpuprims.topk(t, k)}
                    if torch:
                        impls["torch"] = lambda t, k=k: torch.topk(t, k, dim=1)
                    name = "topk rows %dx%d k=%d" % (r, c, k)
                    if dist != "normal":
                        name += " " + dist
                    yield name, "f32", r * c, r * c * 4, impls, (r, c), dist
    elif suite == "argmax_rows":
        # the index of each row's largest element (f32 normal)
        for r, c in ARGMAX_ROWS:
            impls = {"gpuprims": lambda t: gpuprims.argmax(t, axis=-1)}
            if torch:
                impls["torch"] = lambda t: torch.argmax(t, dim=1)
            if cupy:
                impls["cupy"] = lambda x: cupy.argmax(x, axis=1)
            yield "argmax rows %dx%d" % (r, c), "f32", r * c, r * c * 4, impls, (r, c)
    elif suite in ("rows", "segments"):
        shapes = ROWS if suite == "rows" else [(SEG_TOTAL // s, s) for s in SEG_SIZES]
        for r, c in shapes:
            impls = {"gpuprims": lambda t: gpuprims.sort(t)}
            if torch:
                impls["torch"] = lambda t: torch.sort(t, dim=1)
            if cupy:
                impls["cupy"] = lambda x: cupy.sort(x, axis=1)
            name = "rows %dx%d" % (r, c) if suite == "rows" else "segments of %d" % c
            yield name, args.rows_dtype, r * c, r * c * 4, impls, (r, c)


def make(fw, torch, cupy, dtype, shape, seed, dist="normal"):
    import numpy as np
    rng = np.random.default_rng(seed)
    n = int(np.prod(shape))
    if dist == "uniform" and dtype.startswith("float"):
        h = rng.random(n, dtype=np.float32 if dtype == "float32" else np.float64)
    else:
        h = (rng.standard_normal(n).astype(dtype) if dtype.startswith("float")
             else rng.integers(-2 ** 31, 2 ** 31 - 1, n).astype(dtype))
    h = h.reshape(shape)
    if dist == "ascending":
        h = np.sort(h, axis=-1)
    if fw == "cupy":
        return cupy.asarray(h)
    return torch.from_numpy(h).cuda()


def run_suite(suite, timer, torch, cupy, args, rows_out):
    names = {"f32": "float32", "i32": "int32", "f64": "float64", "i64": "int64"}
    for item in cases(suite, torch, cupy, args):
        case, dt, n, nbytes, impls = item[:5]
        shape = item[5] if len(item) > 5 else (n,)
        dist = item[6] if len(item) > 6 else "normal"
        try:  # one tensor for every implementation; CuPy sees torch's memory
            x = make("torch" if torch is not None else "cupy", torch, cupy, names[dt],
                     shape, n, dist)
            xc = cupy.asarray(x) if cupy is not None and torch is not None else x
        except Exception as e:
            x = xc = e
        calls, got = {}, {}
        for impl, fn in impls.items():
            arg = xc if impl == "cupy" else x
            if isinstance(arg, Exception):
                got[impl] = failed(impl, case, dt, n, arg)
                continue
            try:  # a peer or size that fails is a row, not the end
                fn(arg)
                calls[impl] = lambda fn=fn, arg=arg: fn(arg)
            except Exception as e:
                got[impl] = failed(impl, case, dt, n, e)
        if calls:
            try:
                for impl, xs in timer.measure(calls, args).items():
                    got[impl] = row(impl, case, dt, n, nbytes, xs)
            except Exception as e:
                for impl in calls:
                    got[impl] = failed(impl, case, dt, n, e)
        rows_out.extend(got[k] for k in impls)
        x = xc = arg = None
        if torch is not None:
            torch.cuda.empty_cache()
        ours = got.get("gpuprims")
        if ours and ours["ok"]:
            for peer in ("torch", "cupy"):
                p = got.get(peer)
                if p and p["ok"]:
                    ours.setdefault("ratios", {})[peer] = p["median_s"] / ours["median_s"]
            if "ratios" in ours:
                first = next(iter(ours["ratios"]))
                ours["ratio"], ours["ratio_to"] = ours["ratios"][first], first
        print_rows([got[k] for k in impls])


def overhead(torch, cupy, args, rows_out):
    """Wall-clock cost per call of the binding. "binding overhead" is gpuprims.sum(x)
    with its C call swapped for a C function that returns at once (gp_reduce's
    argument-less prototype L.reduce_bare bound to gp_set_two_phase_blocks, which with
    these arguments sets the default and returns GP_OK): all the package adds over a C
    program calling gp_reduce, the ctypes call included. For scale: gpuprims.sum(x) and
    the bare ctypes gp_reduce call, real, with the same context, pointers and stream
    (ctypes arguments made once), and the ctypes floor (gp_backend_of)."""
    import ctypes
    import numpy as np
    from gpuprims._arrays import adapter_of
    from gpuprims.context import context_for
    iters = 2000 if args.quick else 20000
    n = 1024
    targets = [("numpy cpu", np.ones(n, np.float32), gpuprims.Context("cpu"))]
    if torch is not None:
        targets.append(("torch cuda", torch.ones(n, device="cuda"), None))
    if cupy is not None:
        targets.append(("cupy cuda", cupy.ones(n, dtype=cupy.float32), None))

    def per_call(fn):
        best = math.inf
        for _ in range(5):
            t0 = time.perf_counter_ns()
            for _ in range(iters):
                fn()
            best = min(best, (time.perf_counter_ns() - t0) / iters * 1e-9)
        return best

    real = L.reduce_bare
    assert real.argtypes is None  # the stub must convert its arguments as real does
    stub = ctypes.CFUNCTYPE(real.restype)(("gp_set_two_phase_blocks", L.lib))
    for name, x, ctx in targets:
        gpuprims.sum(x, ctx=ctx)
        ptr, _, code, dev, stream = adapter_of(x).describe(x, False)
        c = context_for(ctx, dev)
        h, hp, out = c._h, c._hp, c._out
        p, nn = ctypes.c_void_p(ptr), ctypes.c_size_t(n)
        t_api = per_call(lambda: gpuprims.sum(x, ctx=ctx))
        t_raw = per_call(lambda: real(hp, L.SUM, code, p, nn, out, 0))
        t_floor = per_call(lambda: L.backend_of(h))
        L.reduce_bare = stub
        try:
            t_bind = per_call(lambda: gpuprims.sum(x, ctx=ctx))
        finally:
            L.reduce_bare = real
        for impl, t in (("gpuprims.sum", t_api), ("ctypes gp_reduce", t_raw),
                        ("ctypes floor (gp_backend_of)", t_floor),
                        ("binding overhead", t_bind)):
            rows_out.append({"impl": impl, "case": "overhead " + name, "dtype": "f32",
                             "n": n, "bytes": n * 4, "elements": n, "ok": True,
                             "samples": 5, "median_s": t, "mean_s": t, "min_s": t,
                             "max_s": t, "noise": 0.0, "elem_per_s": n / t if t > 0 else 0,
                             "gbs": 0.0, "time_capped": False, "l2_flushed": False,
                             "note": "wall clock per call, best of 5 x %d calls" % iters})
        print_rows(rows_out[-4:])


def print_rows(rs):
    for r in rs:
        if r["ok"]:
            extra = "".join("  %.2fx vs %s" % (v, k) for k, v in r.get("ratios", {}).items())
            print("%-26s %-28s %-4s n=%-11d %10.2f us%s" % (
                r["impl"], r["case"], r["dtype"], r["n"], r["median_s"] * 1e6, extra))
        else:
            print("%-26s %-28s %-4s n=%-11d FAILED %s" % (r["impl"], r["case"], r["dtype"],
                                                          r["n"], r["error"]))
    sys.stdout.flush()


def device_block(torch, cupy):
    info = gpuprims.device_info()
    return {"backend": info.backend, "backend_note": "python bench", "name": info.name,
            "sm_count": info.sm_count,
            "compute_capability": "%d.%d" % info.compute_capability,
            "cpu_threads": info.threads, "global_mem_bytes": info.global_mem_bytes,
            "l2_bytes": info.l2_bytes,
            "torch": getattr(torch, "__version__", None),
            "cupy": getattr(cupy, "__version__", None)}


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m gpuprims.bench", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--suites", default="sum,sort,argsort,rows,segments,topk,topk_rows,"
                   "argmax_rows,overhead")
    p.add_argument("--sizes", default=",".join(str(s) for s in SIZES),
                   help="element counts for sum, sort, argsort")
    p.add_argument("--sum-dtype", default="f32", choices=["f32", "f64", "i32", "i64"])
    p.add_argument("--sort-dtype", default="i32", choices=["f32", "f64", "i32", "i64"])
    p.add_argument("--rows-dtype", default="f32", choices=["f32", "f64", "i32", "i64"])
    p.add_argument("--json", help="write the rows here (the CLI harness's format)")
    p.add_argument("--quick", action="store_true", help="fewer samples, smaller sizes")
    p.add_argument("--no-flush", action="store_true", help="skip the L2 flush per sample")
    p.add_argument("--peers", default="torch,cupy", help="which peers to import")
    args = p.parse_args(argv)
    args.sizes = [int(s) for s in args.sizes.split(",")]
    args.warmup, args.min_samples, args.max_samples = 3, 10, 200
    args.noise, args.max_time = 0.005, 2.0
    if args.quick:
        args.sizes = [s for s in args.sizes if s <= 1 << 24]
        args.min_samples, args.max_samples, args.max_time = 5, 30, 0.5
    torch = cupy = None
    peers = args.peers.split(",")
    if "torch" in peers:
        try:
            import torch
            if not torch.cuda.is_available():
                torch = None
        except ImportError:
            torch = None
    if "cupy" in peers:
        try:
            import cupy
            cupy.cuda.runtime.getDeviceCount()
        except Exception:
            cupy = None
    rows = []
    suites = args.suites.split(",")
    gpu_suites = [s for s in suites if s != "overhead"]
    if gpu_suites and torch is None and cupy is None:
        print("gpuprims.bench: the GPU suites need torch or cupy with a CUDA GPU; "
              "running only 'overhead'", file=sys.stderr)
        gpu_suites = []
    if gpu_suites:
        timer = Timer(torch, cupy, not args.no_flush)
        for s in gpu_suites:
            run_suite(s, timer, torch, cupy, args, rows)
    if "overhead" in suites:
        overhead(torch, cupy, args, rows)
    if args.json:
        doc = {"suite": "python", "command": "python -m gpuprims.bench " + " ".join(
                   argv if argv is not None else sys.argv[1:]),
               "date": datetime.datetime.now(datetime.timezone.utc).strftime(
                   "%Y-%m-%dT%H:%M:%SZ"),
               "gpuprims_version": gpuprims.version(),
               "device": device_block(torch, cupy),
               "method": {"l2_flush": not args.no_flush, "warmup": args.warmup,
                          "target_noise": args.noise, "min_samples": args.min_samples,
                          "max_samples": args.max_samples, "max_time_s": args.max_time,
                          "timer": "cuda events around the Python call, GPU idle at the first; implementations in turns"},
               "rows": rows}
        with open(args.json, "w") as f:
            json.dump(doc, f, indent=1)
        print("wrote", args.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())
