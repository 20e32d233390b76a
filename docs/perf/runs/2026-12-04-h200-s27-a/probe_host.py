"""Where the time of a Python call goes on the H200 host: wall clock per call, back to
back (no flush, no events), median of 15 rounds of 200 calls, every form in turn.
Async forms are timed twice: the call alone (what the host spends to submit) and the
call followed by torch.cuda.synchronize() (host + GPU, as the bench's events see it)."""
import statistics
import sys
import time

import cupy
import numpy as np
import torch

import gpuprims
from gpuprims import _lib as L
from gpuprims._arrays import adapter_of
from gpuprims.context import context_for

sync = torch.cuda.synchronize


def per_call(fn, calls=200):
    t0 = time.perf_counter_ns()
    for _ in range(calls):
        fn()
    return (time.perf_counter_ns() - t0) / calls * 1e-3


def table(title, forms, rounds=15):
    for f in forms.values():
        for _ in range(20):
            f()
    sync()
    xs = {k: [] for k in forms}
    for r in range(rounds):
        for k, f in forms.items():
            xs[k].append(per_call(f))
            sync()
    print("##", title)
    for k, v in xs.items():
        print("  %-44s median %8.2f us  min %8.2f" % (k, statistics.median(v), min(v)))
    sys.stdout.flush()


for n in (1 << 11, 1 << 20):
    t = torch.from_numpy(np.random.default_rng(n).standard_normal(n).astype(np.float32)).cuda()
    c = cupy.asarray(t)
    gpuprims.sum(t)
    ptr, _, code, dev, stream = adapter_of(t).describe(t, False)
    ctx = context_for(None, dev)
    ctx._prepare(dev, stream)
    hp, out = ctx._hp, ctx._out
    p, nn = L.c_void_p(ptr), L.c_size_t(n)
    table("sum to a host scalar, f32 n=%d" % n, {
        "gpuprims.sum(t)": lambda: gpuprims.sum(t),
        "ctypes gp_reduce (host out), args ready": lambda: L.reduce_bare(hp, L.SUM, code, p, nn, out, 0),
        "ctypes gp_reduce MIN (host out)": lambda: L.reduce_bare(hp, L.MIN, code, p, nn, out, 0),
        "t.sum().item()": lambda: t.sum().item(),
        "float(c.sum())": lambda: float(c.sum()),
        "t.sum() (submit only)": lambda: t.sum(),
        "torch.cuda.synchronize() alone": sync,
        "t[0].item()": lambda: t[0].item(),
    })

for n in (1 << 11, 1 << 13, 1 << 16):
    k = torch.from_numpy(np.random.default_rng(n).integers(-2**31, 2**31 - 1, n).astype(np.int32)).cuda()
    table("sort / argsort i32 n=%d" % n, {
        "gpuprims.sort(k) submit": lambda: gpuprims.sort(k),
        "gpuprims.sort(k) + sync": lambda: (gpuprims.sort(k), sync()),
        "torch.sort(k) submit": lambda: torch.sort(k),
        "torch.sort(k) + sync": lambda: (torch.sort(k), sync()),
        "gpuprims.argsort(k) submit": lambda: gpuprims.argsort(k),
        "gpuprims.argsort(k) + sync": lambda: (gpuprims.argsort(k), sync()),
        "torch.argsort(k, stable) submit": lambda: torch.argsort(k, stable=True),
        "torch.argsort(k, stable) + sync": lambda: (torch.argsort(k, stable=True), sync()),
        "torch.empty_like(k)": lambda: torch.empty_like(k),
    })
