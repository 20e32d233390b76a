"""GPU timeline of one Python call, as the bench times it (L2 flush, synchronize, then
the call): the kernels and copies CUPTI saw (torch.profiler), in us from the first
event after the flush, for the 5th of 5 calls; also the call's host time."""
import sys
import time

import numpy as np
import torch
from torch.profiler import ProfilerActivity, profile

import gpuprims

sync = torch.cuda.synchronize
scratch = torch.empty(2 * torch.cuda.get_device_properties(0).L2_cache_size // 4 + 1,
                      dtype=torch.int32, device="cuda")


def timeline(name, fn):
    for _ in range(5):
        fn()
    sync()
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
        for _ in range(5):
            scratch.fill_(0)
            sync()
            t0 = time.perf_counter_ns()
            fn()
            t1 = time.perf_counter_ns()
            sync()
    evs = sorted(prof.events(), key=lambda e: e.time_range.start)
    gpu = [e for e in evs if e.device_type == torch.autograd.DeviceType.CUDA]
    fills = [i for i, e in enumerate(gpu) if "fill" in e.name.lower() or "FillFunctor" in e.name]
    last = gpu[fills[-1] + 1:] if fills else gpu
    print("## %s  (host time of the last call %.1f us)" % (name, (t1 - t0) * 1e-3))
    if fills:
        f = gpu[fills[-1]]
        base = f.time_range.end
        print("  flush kernel ends at 0 (it ran %.1f us)" % (f.time_range.end - f.time_range.start))
    else:
        base = last[0].time_range.start
    for e in last:
        print("  %8.1f .. %8.1f  (%6.1f us)  %s" % (e.time_range.start - base, e.time_range.end - base,
                                                 e.time_range.end - e.time_range.start, e.name[:90]))
    cpu = [e for e in evs if e.device_type == torch.autograd.DeviceType.CPU and
           e.name.startswith(("cuda", "cu")) and e.time_range.start >= (gpu[fills[-1]].time_range.start if fills else 0)]
    for e in cpu[-12:]:
        print("  host %8.1f  (%6.1f us)  %s" % (e.time_range.start - base, e.time_range.end - e.time_range.start, e.name))
    sys.stdout.flush()


for n in (1 << 11, 1 << 13, 1 << 16):
    k = torch.from_numpy(np.random.default_rng(n).integers(-2**31, 2**31 - 1, n).astype(np.int32)).cuda()
    timeline("gpuprims.sort i32 n=%d" % n, lambda: gpuprims.sort(k))
    timeline("gpuprims.argsort i32 n=%d" % n, lambda: gpuprims.argsort(k))
    timeline("torch.sort i32 n=%d" % n, lambda: torch.sort(k))
x = torch.randn(1 << 20, device="cuda")
timeline("gpuprims.sum f32 2^20", lambda: gpuprims.sum(x))
timeline("x.sum().item() 2^20", lambda: x.sum().item())
