"""Where gpuprims.sum of a 2^28 f32 torch tensor loses 100 us against the C bench's
kernel time (docs/perf/python.md: 358 us from Python, 256 us in `gpuprims bench
reduce`). Times, with CUDA events on torch's current stream and an L2 flush before
each sample as python -m gpuprims.bench does: gpuprims.sum (host result and
keep_on_device), torch.sum().item(), on normal, uniform and hashed data, on a torch
tensor and on a CuPy array (cudaMalloc through CuPy's pool), with and without the flush.
Usage: python3 probe_sum.py [N_LOG2] [--ncu]  (--ncu: three calls only, for ncu)"""
import statistics
import sys

import numpy as np
import torch

import gpuprims

lg = int(sys.argv[1]) if len(sys.argv) > 1 and sys.argv[1].isdigit() else 28
n = 1 << lg
ncu = "--ncu" in sys.argv
print("torch", torch.__version__, "allocator", torch.cuda.get_allocator_backend())
rng = np.random.default_rng(5)
data = {
    "normal": rng.standard_normal(n, dtype=np.float32),
    "uniform": rng.random(n, dtype=np.float32),
    "hash": ((np.arange(n, dtype=np.uint64) * 2654435761 % (1 << 24)).astype(np.float32) / (1 << 24)),
}
l2 = torch.cuda.get_device_properties(0).L2_cache_size
scratch = torch.empty(2 * l2 // 4 + 1, dtype=torch.int32, device="cuda")


def ev(fn, reps=40, flush=True):
    for _ in range(3):
        fn()
    torch.cuda.synchronize()
    xs = []
    for _ in range(reps):
        if flush:
            scratch.fill_(0)
        a = torch.cuda.Event(enable_timing=True)
        b = torch.cuda.Event(enable_timing=True)
        a.record()
        fn()
        b.record()
        b.synchronize()
        xs.append(a.elapsed_time(b) * 1e3)
    return statistics.median(xs)


if ncu:
    t = torch.from_numpy(data["normal"]).cuda()
    for _ in range(3):
        gpuprims.sum(t)
    torch.cuda.synchronize()
    sys.exit(0)

for name, h in data.items():
    t = torch.from_numpy(h).cuda()
    want = gpuprims.sum(h)  # the CPU backend's correctly rounded sum
    got = gpuprims.sum(t)
    print(f"{name:8s} n=2^{lg} check: gpu {got!r} cpu {want!r} {'equal' if got == want else 'DIFFER'}")
    print(f"{name:8s} gpuprims.sum            {ev(lambda: gpuprims.sum(t)):9.2f} us")
    print(f"{name:8s} gpuprims.sum keep+sync  {ev(lambda: (gpuprims.sum(t, keep_on_device=True), torch.cuda.synchronize())):9.2f} us")
    print(f"{name:8s} torch .sum().item()     {ev(lambda: t.sum().item()):9.2f} us")
    print(f"{name:8s} gpuprims.sum no flush   {ev(lambda: gpuprims.sum(t), flush=False):9.2f} us")
    try:
        import cupy
        c = cupy.asarray(h)
        print(f"{name:8s} gpuprims.sum of cupy    {ev(lambda: gpuprims.sum(c)):9.2f} us")
        del c
    except Exception as e:  # noqa: BLE001
        print("cupy:", e)
    del t
    torch.cuda.empty_cache()
