"""The Python steps of gpuprims.argsort / sort / sum on a torch CUDA tensor, each timed
alone: wall clock per call, median of 9 rounds of 2000 calls (async work not waited
for; a synchronize between rounds)."""
import ctypes
import statistics

import numpy as np
import torch

import gpuprims
from gpuprims import _lib as L
from gpuprims._arrays import adapter_of
from gpuprims.context import context_for

sync = torch.cuda.synchronize


def t(fn, rounds=9, calls=2000):
    fn(); sync()
    xs = []
    for _ in range(rounds):
        t0 = time_ns()
        for _ in range(calls):
            fn()
        xs.append((time_ns() - t0) / calls * 1e-3)
        sync()
    return statistics.median(xs)


from time import perf_counter_ns as time_ns

n = 2048
k = torch.from_numpy(np.random.default_rng(1).integers(-2**31, 2**31 - 1, n).astype(np.int32)).cuda()
x = torch.randn(1 << 20, device="cuda")
ad = adapter_of(k)
ptr, nn, code, dev, stream = ad.describe(k, False)
c = context_for(None, dev)
idx = torch.empty(n, dtype=torch.int64, device="cuda")
steps = {
    "adapter_of(k)": lambda: adapter_of(k),
    "ad.describe(k)": lambda: ad.describe(k, False),
    "ad.shape(k)": lambda: ad.shape(k),
    "k.dtype": lambda: k.dtype,
    "k.is_contiguous()": lambda: k.is_contiguous(),
    "k.is_cuda": lambda: k.is_cuda,
    "k.get_device()": lambda: k.get_device(),
    "k.data_ptr()": lambda: k.data_ptr(),
    "k.numel()": lambda: k.numel(),
    "k.device": lambda: k.device,
    "k.dim()": lambda: k.dim(),
    "_cuda_getCurrentRawStream(0)": lambda: torch._C._cuda_getCurrentRawStream(0),
    "ad.empty(k, (n,), I64)": lambda: ad.empty(k, (n,), L.I64),
    "torch.empty(n, int64, device=k.device)": lambda: torch.empty(n, dtype=torch.int64, device=k.device),
    "torch.empty_like(k, dtype=int64)": lambda: torch.empty_like(k, dtype=torch.int64),
    "torch.empty_like(k)": lambda: torch.empty_like(k),
    "ad.copy(k) (detach().clone())": lambda: ad.copy(k),
    "k.clone()": lambda: k.clone(),
    "torch.empty_like(k).copy_(k)": lambda: torch.empty_like(k).copy_(k),
    "context_for(None, 0)": lambda: context_for(None, 0),
    "c._prepare(0, stream)": lambda: c._prepare(0, stream),
    "ctypes argsort_bare (C call)": lambda: L.argsort_bare(c._hp, L.I32, ctypes.c_void_p(ptr), L.U64, ctypes.c_void_p(idx.data_ptr()), ctypes.c_size_t(n), 0),
    "ctypes sort_bare (C call)": lambda: L.sort_bare(c._hp, L.I32, ctypes.c_void_p(idx.data_ptr()), ctypes.c_size_t(n), 0, 0),
    "gpuprims.argsort(k)": lambda: gpuprims.argsort(k),
    "gpuprims.sort(k)": lambda: gpuprims.sort(k),
    "gpuprims.sum(x) (waits)": lambda: gpuprims.sum(x),
    "gpuprims.sum(x, keep_on_device=True)": lambda: gpuprims.sum(x, keep_on_device=True),
}
for name, fn in steps.items():
    print("  %-42s %7.2f us" % (name, t(fn, calls=300 if "sum(x)" in name else 2000)), flush=True)
