#!/usr/bin/env python3
"""The CLI on files against NumPy, and the integrator's compile times (issue 13).

Times, wall clock, medians of --reps runs alternated so both sides see the same page
cache and clocks:
  * `gpuprims reduce F` of a 1 GiB f32 .npy against `np.load(F).sum()`, with
    --backend auto (the CPU for a file, the file mapped: cli/cli_util.h) and cuda;
  * `gpuprims sort IN OUT` of a 2^27 u32 .npy against np.load + np.sort + np.save;
  * `gpuprims integrate EXPR 0 pi -v` in f32 and f64, each in an empty
    GPUPRIMS_CACHE_DIR: the default run (a new expression runs interpreted: call_ms, the
    run's wall time), then with --compile twice (compile_ms: a fresh NVRTC compile, then
    the on-disk cache), and the process's wall time for each.
The .npy files are written first (so they are in the page cache, as the issue's figures
were taken). Results are checked: the CLI's sum against NumPy's float64 sum of the same
array (relative 1e-6), its sorted file against np.sort bit for bit.

  python3 bench/cli_files.py --gpuprims build/gpuprims [--dir D] [--reps 5] [--json F]
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np


def wall(fn):
    t0 = time.perf_counter()
    r = fn()
    return time.perf_counter() - t0, r


def run_cli(args, env=None):
    p = subprocess.run(args, capture_output=True, text=True, env=env)
    if p.returncode != 0:
        sys.exit("failed: %s\n%s%s" % (" ".join(args), p.stdout, p.stderr))
    return p.stdout


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--gpuprims", default="build/gpuprims")
    ap.add_argument("--dir", default=None, help="where the .npy files go (default: a temp dir)")
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--json", default=None)
    a = ap.parse_args()
    g = a.gpuprims
    d = a.dir or tempfile.mkdtemp(prefix="gp_cli_files_")
    os.makedirs(d, exist_ok=True)
    rows = []

    def row(case, ours, peer, note=""):
        r = {"case": case, "gpuprims_s": ours, "numpy_s": peer,
             "speedup": (peer / ours) if (ours and peer) else None, "note": note}
        rows.append(r)
        sp = "%.2fx" % r["speedup"] if r["speedup"] else "-"
        print("%-44s %10.4f s %10.4f s %8s %s" % (case, ours, peer or 0, sp, note), flush=True)

    print("%-44s %12s %12s %8s" % ("case", "gpuprims", "numpy", "ratio"))
    rng = np.random.default_rng(13)

    # reduce: 1 GiB of f32
    f = os.path.join(d, "f32_1gib.npy")
    x = rng.random(1 << 28, dtype=np.float32)
    np.save(f, x)
    ref = float(x.astype(np.float64).sum())
    del x
    # --backend auto (the CPU for a file: cli_file_job_backend), then the GPU
    for backend, label in (("auto", ""), ("cuda", ", --backend cuda")):
        ours, peer = [], []
        for _ in range(a.reps):
            t, out = wall(lambda: run_cli([g, "reduce", f, "--backend", backend]))
            ours.append(t)
            got = float(out.split()[0])
            if abs(got - ref) > 1e-6 * abs(ref):
                sys.exit("gpuprims reduce gave %r, the float64 sum is %r" % (got, ref))
            t, _ = wall(lambda: np.load(f).sum())
            peer.append(t)
        row("reduce 1 GiB f32 .npy (load + sum)" + label, statistics.median(ours),
            statistics.median(peer))
    os.remove(f)

    # sort: 2^27 u32
    f = os.path.join(d, "u32_2p27.npy")
    o1, o2 = os.path.join(d, "out_gp.npy"), os.path.join(d, "out_np.npy")
    np.save(f, rng.integers(0, 1 << 32, size=1 << 27, dtype=np.uint32))
    ours, peer = [], []
    for _ in range(a.reps):
        t, _ = wall(lambda: run_cli([g, "sort", f, o1]))
        ours.append(t)
        t, _ = wall(lambda: np.save(o2, np.sort(np.load(f))))
        peer.append(t)
    if not np.array_equal(np.load(o1), np.load(o2)):
        sys.exit("gpuprims sort's output differs from np.sort's")
    row("sort 2^27 u32 .npy (load + sort + save)", statistics.median(ours), statistics.median(peer))
    for p in (f, o1, o2):
        os.remove(p)

    # integrate: compile times, fresh cache then cached
    for prec in ("f32", "f64"):
        for expr in ("sin(x)^2", "exp(-x^2) * cos(3*x) + sqrt(x + 1)"):
            cache = tempfile.mkdtemp(prefix="gp_cache_", dir=d)
            env = dict(os.environ, GPUPRIMS_CACHE_DIR=cache)
            for label, extra in (("first run, default", []), ("first compile", ["--compile"]),
                                 ("cached compile", ["--compile"])):
                t, out = wall(lambda: run_cli([g, "integrate", expr, "0", "pi", "-v",
                                               "--precision", prec] + extra, env))
                got = dict(line.split()[:2] for line in out.splitlines()
                           if line.startswith(("compile_ms", "call_ms")))
                row("integrate %s %s, %s" % (prec, expr, label), t, None,
                    " ".join("%s %s" % kv for kv in sorted(got.items())))
                for k, v in got.items():
                    rows[-1][k] = float(v)
            shutil.rmtree(cache, ignore_errors=True)

    if a.json:
        with open(a.json, "w") as fh:
            json.dump({"suite": "cli_files", "rows": rows}, fh, indent=1)
    if not a.dir:
        shutil.rmtree(d, ignore_errors=True)


if __name__ == "__main__":
    main()
