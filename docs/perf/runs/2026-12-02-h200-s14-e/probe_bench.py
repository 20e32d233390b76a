"""s14-d found gpuprims.sum of a fresh 2^28 f32 torch tensor at 278 us (torch 280),
where `python -m gpuprims.bench --suites sum` gives ~356 us. This times the bench's own
Timer and make() on the bench's data (standard normal in float64 cast to float32, seed
n), in a fresh process, for 2^24 and 2^28, then with the bench's history before it
(its smaller sizes, each tensor freed and torch.cuda.empty_cache() after), and with a
CuPy view of the tensor alive (as the bench keeps one)."""
import statistics
import sys
import types

import torch

import gpuprims
from gpuprims import bench

try:
    import cupy
except ImportError:
    cupy = None
args = types.SimpleNamespace(warmup=3, min_samples=10, max_samples=200, noise=0.005, max_time=2.0)
timer = bench.Timer(torch, cupy, True)


def one(tag, n, with_cupy=False):
    x = bench.make("torch", torch, cupy, "float32", (n,), n)
    xc = cupy.asarray(x) if with_cupy and cupy is not None else None
    g = statistics.median(timer.measure(lambda: gpuprims.sum(x), args)) * 1e6
    t = statistics.median(timer.measure(lambda: x.sum().item(), args)) * 1e6
    print(f"{tag:28s} n=2^{n.bit_length() - 1}: gpuprims.sum {g:8.2f} us  torch {t:8.2f} us  ({t / g:.2f}x)", flush=True)
    del x, xc
    torch.cuda.empty_cache()


mode = sys.argv[1] if len(sys.argv) > 1 else "fresh"
if mode == "fresh":
    one("fresh", 1 << 28)
    one("fresh again", 1 << 28)
    one("with a cupy view", 1 << 28, True)
else:
    for n in bench.SIZES:
        one("after the bench's sizes", n, True)
    one("again", 1 << 28, True)
