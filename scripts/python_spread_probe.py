"""Why one Python process times gpuprims.topk of rows ~60 us slower than the next
(docs/perf/python.md, s28-final; not yet run: the twenty-eighth session had no device
time left). Run it in several processes one after the other on the GPU machine:
  GPUPRIMS_LIBRARY=build/libgpuprims.so PYTHONPATH=python python3 scripts/python_spread_probe.py
In this process, 200 samples of the bench's timer (flush, synchronize, events) around
gpuprims.topk(t, 8) of 16384 x 1024 f32, with the host time of the call (perf_counter),
of the bare C call through ctypes (outputs made once), of torch.empty for the outputs,
and of torch.topk beside them; medians and 90th percentiles, the CPU the thread ran on
and its affinity."""
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
ctx = ctypes.c_void_p()
assert lib.gp_create(ctypes.byref(ctx), 1) == 0
t = torch.randn(16384, 1024, device="cuda")
v = torch.empty(16384, 8, device="cuda")
ix = torch.empty(16384, 8, dtype=torch.int64, device="cuda")
flush = torch.empty(64 << 20, dtype=torch.int32, device="cuda")
e0, e1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
fns = {"gpuprims.topk": lambda: gpuprims.topk(t, 8),
       "bare C call": lambda: lib.gp_topk_rows(ctx, 0, t.data_ptr(), 16384, 1024, 8, 1,
                                                v.data_ptr(), ix.data_ptr()),
       "torch.empty x2": lambda: (torch.empty((16384, 8), dtype=torch.float32, device=t.device),
                                  torch.empty((16384, 8), dtype=torch.int64, device=t.device)),
       "torch.topk": lambda: torch.topk(t, 8, dim=1)}
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
    print("  %-16s events med %7.1f p90 %7.1f min %7.1f | host med %7.1f p90 %7.1f min %7.1f" % (
        k, statistics.median(e), e[179], e[0], statistics.median(h), h[179], h[0]))
sys.stdout.flush()
