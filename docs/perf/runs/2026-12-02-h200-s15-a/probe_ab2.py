"""s14 found gpuprims.sum of 2^28 f32 at 278 us on one normal sample and 356-391 us on
another (the bench's), in separate processes. Here both data sets live in one process
and are timed alternately, round after round, with torch's t.sum() on each; the host
prints wall-clock marks so that nvidia-smi's clock/power samples can be lined up.
Usage: python3 probe_ab2.py [rounds]     (mode ncu: one keep call per data set)"""
import statistics
import sys
import time

import numpy as np
import torch

import gpuprims

n = 1 << 28
mode = sys.argv[1] if len(sys.argv) > 1 else "6"
data = {
    "bench": np.random.default_rng(n).standard_normal(n).astype("float32"),
    "f32normal": np.random.default_rng(5).standard_normal(n, dtype=np.float32),
}
# the same values in another order, and the bench's values with their low 8 mantissa
# bits cleared (fewer toggling bits on the bus), to tell data-dependent power apart
data["bench_sorted"] = np.sort(data["bench"])
data["bench_trunc"] = (data["bench"].view(np.uint32) & np.uint32(0xFFFFFF00)).view(np.float32)
ts = {k: torch.from_numpy(v).cuda() for k, v in data.items()}
del data
torch.cuda.synchronize()
if mode == "ncu":
    for k, t in ts.items():
        print(k, gpuprims.sum(t), flush=True)
    sys.exit(0)
rounds = int(mode)
l2 = torch.cuda.get_device_properties(0).L2_cache_size
scratch = torch.empty(2 * l2 // 4 + 1, dtype=torch.int32, device="cuda")


def timed(fn, reps=30):
    xs = []
    for _ in range(reps):
        scratch.fill_(0)
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record()
        fn()
        b.record()
        b.synchronize()
        xs.append(a.elapsed_time(b) * 1e3)
    return statistics.median(xs)


for t in ts.values():
    gpuprims.sum(t, keep_on_device=True)
    t.sum()
torch.cuda.synchronize()
res = {k: ([], []) for k in ts}
for r in range(rounds):
    for k, t in ts.items():
        t0 = time.time()
        g = timed(lambda: gpuprims.sum(t, keep_on_device=True))
        c = timed(lambda: t.sum())
        res[k][0].append(g)
        res[k][1].append(c)
        print(f"round {r} {k:12s} t={t0:.3f}: gpuprims {g:8.2f} us, torch {c:8.2f} us", flush=True)
for k, (g, c) in res.items():
    print(f"median {k:12s}: gpuprims {statistics.median(g):8.2f} us, torch {statistics.median(c):8.2f} us,"
          f" ratio {statistics.median(c) / statistics.median(g):.3f}", flush=True)
