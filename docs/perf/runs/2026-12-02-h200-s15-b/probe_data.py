"""gpuprims.sum of 2^28 f32 torch tensors on several data sets, timed alternately in one
process with torch's t.sum() (CUDA events, L2 flushed, medians), and each result's bits
(the sum is correctly rounded: every build must print the same ones). s15-a found the
bench's normal sample 30% slower than another normal sample with the same instruction
count; the data sets here separate why. Usage: python3 probe_data.py ROUNDS"""
import statistics
import sys

import numpy as np
import torch

import gpuprims

n = 1 << 28
rounds = int(sys.argv[1])
bench = np.random.default_rng(n).standard_normal(n).astype("float32")
rng = np.random.default_rng(9)
data = {
    "bench": bench,
    "f32normal": np.random.default_rng(5).standard_normal(n, dtype=np.float32),
    "bench_sorted": np.sort(bench),
    "bench_trunc": (bench.view(np.uint32) & np.uint32(0xFFFFFF00)).view(np.float32),
    "lognormal3": rng.lognormal(0.0, 3.0, n).astype(np.float32),
    "wide2^+-30": (rng.standard_normal(n) * np.exp2(rng.integers(-30, 31, n))).astype(np.float32),
}
ts = {k: torch.from_numpy(v).cuda() for k, v in data.items()}
del data, bench
torch.cuda.synchronize()
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


for k, t in ts.items():
    print(f"value {k:12s} {float(gpuprims.sum(t)).hex()}", flush=True)
    t.sum()
torch.cuda.synchronize()
res = {k: ([], []) for k in ts}
for r in range(rounds):
    for k, t in ts.items():
        res[k][0].append(timed(lambda: gpuprims.sum(t, keep_on_device=True)))
        res[k][1].append(timed(lambda: t.sum()))
for k, (g, c) in res.items():
    gm, cm = statistics.median(g), statistics.median(c)
    print(f"median {k:12s}: gpuprims {gm:8.2f} us, torch {cm:8.2f} us, torch/gpuprims {cm / gm:.3f}"
          f"  (rounds: {' '.join(f'{x:.1f}' for x in g)})", flush=True)
