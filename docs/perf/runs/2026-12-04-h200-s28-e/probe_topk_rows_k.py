"""gp_topk_rows A/B (s28-a's probe, the cases of k = 33 .. 128): several builds of libgpuprims (argv: NAME=PATH ...) loaded side by
side with ctypes, called on the same torch tensors in turn (sample by sample), each call
between CUDA events (the call synchronizes), medians; torch.topk(dim=1) timed the same
way. Every build's values and indices are checked against the first build's, and the
values against torch's."""
import ctypes
import statistics
import sys

import numpy as np
import torch

GP_F32, GP_F64 = 0, 1
GP_ASCENDING, GP_DESCENDING = 0, 1

libs = {}
for a in sys.argv[1:]:
    name, path = a.split("=", 1)
    lib = ctypes.CDLL(path)
    lib.gp_create.argtypes = [ctypes.POINTER(ctypes.c_void_p), ctypes.c_int]
    lib.gp_last_error.restype = ctypes.c_char_p
    lib.gp_last_error.argtypes = [ctypes.c_void_p]
    lib.gp_topk_rows.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p, ctypes.c_size_t,
                                 ctypes.c_size_t, ctypes.c_size_t, ctypes.c_int, ctypes.c_void_p,
                                 ctypes.c_void_p]
    ctx = ctypes.c_void_p()
    assert lib.gp_create(ctypes.byref(ctx), 1) == 0, name
    libs[name] = (lib, ctx)


def run(name, t, k, largest, vals, idx):
    lib, ctx = libs[name]
    dt = GP_F32 if t.dtype == torch.float32 else GP_F64
    s = lib.gp_topk_rows(ctx, dt, t.data_ptr(), t.shape[0], t.shape[1], k,
                         GP_DESCENDING if largest else GP_ASCENDING, vals.data_ptr(), idx.data_ptr())
    if s != 0:
        raise RuntimeError("%s: %s" % (name, lib.gp_last_error(ctx).decode()))


def case(label, t, k, largest=True, samples=25):
    rows = t.shape[0]
    outs = {n: (torch.empty(rows, k, dtype=t.dtype, device="cuda"),
                torch.empty(rows, k, dtype=torch.int64, device="cuda")) for n in libs}
    for n in libs:
        run(n, t, k, largest, *outs[n])
    first = next(iter(libs))
    ok = all(torch.equal(outs[n][0], outs[first][0]) and torch.equal(outs[n][1], outs[first][1])
             for n in libs)
    tv = torch.topk(t, k, dim=1, largest=largest).values
    ok = ok and torch.equal(tv, outs[first][0])
    fns = {n: (lambda n=n: run(n, t, k, largest, *outs[n])) for n in libs}
    fns["torch"] = lambda: torch.topk(t, k, dim=1, largest=largest)
    times = {n: [] for n in fns}
    e0, e1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    names = list(fns)
    for s in range(samples):
        for j in range(len(names)):
            n = names[(s + j) % len(names)]
            torch.cuda.synchronize()
            e0.record()
            fns[n]()
            e1.record()
            e1.synchronize()
            times[n].append(e0.elapsed_time(e1) * 1000)
    med = {n: statistics.median(v) for n, v in times.items()}
    base = med[first]
    cols = "  ".join("%s %8.1f (%.2fx)" % (n, med[n], base / med[n]) for n in libs)
    print("%-40s %s  torch %8.1f  torch/%s %.2fx  %s" % (
        label, cols, med["torch"], first, med["torch"] / base, "ok" if ok else "MISMATCH"),
        flush=True)


g = torch.Generator(device="cuda").manual_seed(7)
def randn(r, c, dt=torch.float32):
    return torch.randn(r, c, generator=g, device="cuda", dtype=dt)

for k in (8, 33, 64, 100, 128):
    case("16384x1024 f32 k=%d" % k, randn(16384, 1024), k)
for k in (64, 128):
    case("16384x1024 f32 k=%d smallest" % k, randn(16384, 1024), k, largest=False)
    case("16384x1024 f64 k=%d" % k, randn(16384, 1024, torch.float64), k)
    case("65536x256 f32 k=%d" % k, randn(65536, 256), k)
    case("4096x4096 f32 k=%d" % k, randn(4096, 4096), k)
    case("1024x16384 f32 k=%d" % k, randn(1024, 16384), k)
up = torch.arange(1024, device="cuda", dtype=torch.float32).repeat(16384, 1)
case("16384x1024 rising k=128", up, 128)
case("16384x1024 falling k=128", up.flip(1).contiguous(), 128)
case("16384x1024 ints 0..9 k=128", torch.randint(0, 10, (16384, 1024), device="cuda", generator=g).float(), 128)
