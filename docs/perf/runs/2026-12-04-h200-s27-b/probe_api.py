"""What a gpuprims call does on the host: (1) wall clock per call of the C calls alone
(ctypes, arguments ready, async calls not waited for; every 50 calls a synchronize
outside the clock), (2) the CUDA runtime/driver API calls each makes, from a
torch.profiler (CUPTI) trace of the fifth of five calls."""
import ctypes
import statistics
import sys
import time

import numpy as np
import torch
from torch.profiler import ProfilerActivity, profile

import gpuprims
from gpuprims import _lib as L
from gpuprims.context import context_for

sync = torch.cuda.synchronize


def submit_time(fn, rounds=15, calls=50):
    fn(); sync()
    xs = []
    for _ in range(rounds):
        t = 0
        for _ in range(calls):
            t0 = time.perf_counter_ns(); fn(); t += time.perf_counter_ns() - t0
        sync()
        xs.append(t / calls * 1e-3)
    return statistics.median(xs), min(xs)


def trace(name, fn):
    for _ in range(3):
        fn()
    sync()
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
        for _ in range(5):
            fn()
            sync()
    ev = [e for e in prof.events() if e.device_type == torch.autograd.DeviceType.CPU]
    ev.sort(key=lambda e: e.time_range.start)
    syncs = [e for e in ev if "Synchronize" in e.name]
    lo = syncs[-2].time_range.end if len(syncs) >= 2 else ev[0].time_range.start
    print("## trace:", name, "(the fifth call; us from the previous synchronize's end)")
    for e in ev:
        if e.time_range.start >= lo:
            print("  %9.2f %8.2f  %s" % (e.time_range.start - lo,
                                        e.time_range.end - e.time_range.start, e.name))
    sys.stdout.flush()


ctx = gpuprims.Context("cuda")  # for the C-only timings, on torch's current stream
ctx._prepare(0, torch.cuda.current_stream().cuda_stream)
print("## C calls alone (ctypes, args ready): host us per call, median / min of 15 x 50")
for n in (1 << 10, 1 << 11, 3000, 1 << 12, 1 << 13, 1 << 16, 1 << 20):
    k = torch.from_numpy(np.random.default_rng(n).integers(-2**31, 2**31 - 1, n).astype(np.int32)).cuda()
    idx = torch.empty(n, dtype=torch.int64, device="cuda")
    kp, ip, nn = ctypes.c_void_p(k.data_ptr()), ctypes.c_void_p(idx.data_ptr()), ctypes.c_size_t(n)
    rows = {
        "gp_sort i32": lambda: L.sort_bare(ctx._hp, L.I32, kp, nn, 0, 0),
        "gp_argsort i32 -> u64": lambda: L.argsort_bare(ctx._hp, L.I32, kp, L.U64, ip, nn, 0),
        "gp_reduce_device f32 sum": lambda: L.reduce_device_bare(ctx._hp, L.SUM, L.F32, kp, nn, ip, 0),
        "torch.empty_like(k)": lambda: torch.empty_like(k),
        "k.clone()": lambda: k.clone(),
    }
    for name, fn in rows.items():
        m, lo = submit_time(fn)
        print("  n=%-8d %-26s %7.2f / %7.2f" % (n, name, m, lo))
    sys.stdout.flush()

for n in (1 << 11, 1 << 13, 1 << 16):
    k = torch.from_numpy(np.random.default_rng(n).integers(-2**31, 2**31 - 1, n).astype(np.int32)).cuda()
    trace("gpuprims.sort n=%d" % n, lambda: gpuprims.sort(k))
    trace("gpuprims.argsort n=%d" % n, lambda: gpuprims.argsort(k))
    trace("torch.sort n=%d" % n, lambda: torch.sort(k))
x = torch.randn(1 << 20, device="cuda")
trace("gpuprims.sum 2^20", lambda: gpuprims.sum(x))
trace("x.sum().item() 2^20", lambda: x.sum().item())
