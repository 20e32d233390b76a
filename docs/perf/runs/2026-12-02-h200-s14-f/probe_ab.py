"""s14-d timed gpuprims.sum of 2^28 f32 at 278 us, s14-e at 360 us (both fresh
processes, CUDA events around the call, L2 flushed). They differed in the data (s14-d:
float32 normal from NumPy's generator; s14-e: the bench's float64 normal cast to
float32) and in what ran first (s14-d: a gpuprims.sum of a NumPy array, making the host
data's context). One line per setting, each changing one of them.
Usage: python3 probe_ab.py DATA PRE MODE   DATA: bench | f32normal | bench_copy
       PRE: none | numpy   MODE: host | keep"""
import statistics
import sys

import numpy as np
import torch

import gpuprims

data, pre, mode = sys.argv[1:4]
n = 1 << 28
if pre == "numpy":
    gpuprims.sum(np.ones(1000, dtype=np.float32))
if data == "f32normal":
    h = np.random.default_rng(5).standard_normal(n, dtype=np.float32)
else:
    h = np.random.default_rng(n).standard_normal(n).astype("float32")
t = torch.from_numpy(h).cuda()
if data == "bench_copy":  # the same values in a second allocation
    t = t.clone()
l2 = torch.cuda.get_device_properties(0).L2_cache_size
scratch = torch.empty(2 * l2 // 4 + 1, dtype=torch.int32, device="cuda")
if mode == "keep":
    fn = lambda: gpuprims.sum(t, keep_on_device=True)  # noqa: E731
else:
    fn = lambda: gpuprims.sum(t)  # noqa: E731
for _ in range(3):
    fn()
torch.cuda.synchronize()
xs = []
for _ in range(60):
    scratch.fill_(0)
    a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    a.record()
    fn()
    b.record()
    b.synchronize()
    xs.append(a.elapsed_time(b) * 1e3)
ys = []
for _ in range(60):
    scratch.fill_(0)
    a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    a.record()
    t.sum()
    b.record()
    b.synchronize()
    ys.append(a.elapsed_time(b) * 1e3)
print(f"data={data:10s} pre={pre:5s} mode={mode:4s}: gpuprims.sum {statistics.median(xs):8.2f} us"
      f" (min {min(xs):.2f}), torch t.sum() {statistics.median(ys):8.2f} us", flush=True)
