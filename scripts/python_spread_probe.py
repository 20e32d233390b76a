"""Where a Python call on a torch tensor spends the time that its C call does not
(docs/perf/python.md: gpuprims.topk of rows 16384 x 1024 from Python ranged 88-152 us
over processes, and gpuprims.argmax(t, axis=-1) cost 25-40 us over its C call's GPU
time in s31-c). Run it in a process or two on the GPU machine:
  GPUPRIMS_LIBRARY=build/libgpuprims.so PYTHONPATH=python python3 scripts/python_spread_probe.py
For top-8 and argmax of 16384 x 1024 f32 rows: 200 samples of the bench's timer (flush,
synchronize, events) around the Python call, the bare C call through ctypes (outputs
made once), torch.empty and Tensor.new_empty for the outputs and the torch peer; medians and 90th
percentiles of the event time and of the call's host time (perf_counter). Then
torch.profiler (CUPTI sees every CUDA runtime call in the process, the library's too)
over 50 Python calls of each: the runtime calls a call makes and their host time."""
import ctypes
import os
import statistics
import sys
import time

import torch

import gpuprims

pc = time.perf_counter
lib = ctypes.CDLL(os.environ["GPUPRIMS_LIBRARY"])
lib.gp_create.argtypes = [ctypes.POINTER(ctypes.c_void_p), ctypes.c_int]
lib.gp_topk_rows.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p, ctypes.c_size_t,
                             ctypes.c_size_t, ctypes.c_size_t, ctypes.c_int, ctypes.c_void_p,
                             ctypes.c_void_p]
lib.gp_argreduce_rows.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_int, ctypes.c_void_p,
                                  ctypes.c_size_t, ctypes.c_size_t, ctypes.c_void_p,
                                  ctypes.c_void_p]
GP_MAX, GP_F32 = 2, 0
ctx = ctypes.c_void_p()
assert lib.gp_create(ctypes.byref(ctx), 1) == 0
R, C = 16384, 1024
t = torch.randn(R, C, device="cuda")
v = torch.empty(R, 8, device="cuda")
ix = torch.empty(R, 8, dtype=torch.int64, device="cuda")
am = torch.empty(R, dtype=torch.int64, device="cuda")
flush = torch.empty(64 << 20, dtype=torch.int32, device="cuda")
e0, e1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
fns = {"gpuprims.topk": lambda: gpuprims.topk(t, 8),
       "C gp_topk_rows": lambda: lib.gp_topk_rows(ctx, 0, t.data_ptr(), R, C, 8, 1,
                                                  v.data_ptr(), ix.data_ptr()),
       "torch.topk": lambda: torch.topk(t, 8, dim=1),
       "gpuprims.argmax": lambda: gpuprims.argmax(t, axis=-1),
       "C gp_argreduce_rows": lambda: lib.gp_argreduce_rows(ctx, GP_MAX, GP_F32, t.data_ptr(),
                                                            R, C, None, am.data_ptr()),
       "torch.argmax": lambda: torch.argmax(t, dim=1),
       "torch.empty x2": lambda: (torch.empty((R, 8), dtype=torch.float32, device=t.device),
                                  torch.empty((R, 8), dtype=torch.int64, device=t.device)),
       "t.new_empty x2": lambda: (t.new_empty((R, 8), dtype=torch.float32),
                                  t.new_empty((R, 8), dtype=torch.int64))}
ref = torch.argmax(t, dim=1)
assert torch.equal(gpuprims.argmax(t, axis=-1), ref), "gpuprims.argmax differs from torch"
lib.gp_argreduce_rows(ctx, GP_MAX, GP_F32, t.data_ptr(), R, C, None, am.data_ptr())
torch.cuda.synchronize()
assert torch.equal(am, ref), "the bare C call differs from torch"
for f in fns.values():
    for _ in range(5):
        f()
torch.cuda.synchronize()
ev = {k: [] for k in fns}
host = {k: [] for k in fns}
names = list(fns)
for s in range(200):
    for j in range(len(names)):
        k = names[(s + j) % len(names)]
        flush.fill_(s)
        torch.cuda.synchronize()
        e0.record()
        h0 = pc()
        fns[k]()
        h1 = pc()
        e1.record()
        e1.synchronize()
        ev[k].append(e0.elapsed_time(e1) * 1000)
        host[k].append((h1 - h0) * 1e6)
cpu = int(open("/proc/self/stat").read().split()[38])
print("pid %d cpu %d affinity %d cpus, load %s" % (os.getpid(), cpu, len(os.sched_getaffinity(0)),
      open("/proc/loadavg").read().split()[:3]))
for k in names:
    e, h = sorted(ev[k]), sorted(host[k])
    print("  %-20s events med %7.1f p90 %7.1f min %7.1f | host med %7.1f p90 %7.1f min %7.1f" % (
        k, statistics.median(e), e[179], e[0], statistics.median(h), h[179], h[0]))
sys.stdout.flush()

from torch.profiler import ProfilerActivity, profile  # noqa: E402

for k in ("gpuprims.argmax", "C gp_argreduce_rows", "gpuprims.topk", "C gp_topk_rows"):
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
        for _ in range(50):
            fns[k]()
        torch.cuda.synchronize()
    print("\n== %s: 50 calls, torch.profiler (CUPTI) ==" % k)
    print(prof.key_averages().table(sort_by="self_cpu_time_total", row_limit=18))
    sys.stdout.flush()
