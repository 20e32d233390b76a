"""gp_argsort A/B with 8-byte (GP_U64) indices: builds of libgpuprims (argv NAME=PATH ...)
loaded side by side with ctypes, called on the same torch tensors in turn, each call
between CUDA events (the L2 flushed and the GPU idle first), medians; torch.argsort
(stable=True) timed the same way. Every build's indices are checked against torch's
(a stable argsort has one answer)."""
import ctypes
import statistics
import sys

import torch

GP_I32, GP_U64, GP_F32 = 2, 5, 0
libs = {}
for a in sys.argv[1:]:
    name, path = a.split("=", 1)
    lib = ctypes.CDLL(path)
    lib.gp_create.argtypes = [ctypes.POINTER(ctypes.c_void_p), ctypes.c_int]
    lib.gp_last_error.restype = ctypes.c_char_p
    lib.gp_last_error.argtypes = [ctypes.c_void_p]
    lib.gp_argsort.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p, ctypes.c_int,
                               ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
    ctx = ctypes.c_void_p()
    assert lib.gp_create(ctypes.byref(ctx), 1) == 0, name
    libs[name] = (lib, ctx)
flush = torch.empty(64 << 20, dtype=torch.int32, device="cuda")


def run(name, t, idx):
    lib, ctx = libs[name]
    dt = GP_I32 if t.dtype == torch.int32 else GP_F32
    s = lib.gp_argsort(ctx, dt, t.data_ptr(), GP_U64, idx.data_ptr(), t.numel(), 0)
    if s != 0:
        raise RuntimeError("%s: %s" % (name, lib.gp_last_error(ctx).decode()))


def case(label, t, samples=41):
    outs = {n: torch.empty(t.numel(), dtype=torch.int64, device="cuda") for n in libs}
    ref = torch.argsort(t, stable=True)
    for n in libs:
        run(n, t, outs[n])
    torch.cuda.synchronize()
    ok = all(torch.equal(outs[n], ref) for n in libs)
    fns = {n: (lambda n=n: run(n, t, outs[n])) for n in libs}
    fns["torch"] = lambda: torch.argsort(t, stable=True)
    names = list(fns)
    times = {n: [] for n in names}
    e0, e1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    for s in range(samples):
        for j in range(len(names)):
            n = names[(s + j) % len(names)]
            flush.fill_(s)
            torch.cuda.synchronize()
            e0.record()
            fns[n]()
            e1.record()
            e1.synchronize()
            times[n].append(e0.elapsed_time(e1) * 1000)
    med = {n: statistics.median(v) for n, v in times.items()}
    first = names[0]
    cols = "  ".join("%s %7.1f (%.3fx)" % (n, med[n], med[first] / med[n]) for n in libs)
    print("%-22s %s  torch %7.1f  torch/%s %.2fx  %s" % (label, cols, med["torch"], first,
          med["torch"] / med[first], "ok" if ok else "MISMATCH"), flush=True)


g = torch.Generator(device="cuda").manual_seed(3)
for lg in (13, 14, 15, 16, 17):
    n = 1 << lg
    case("i32 2^%d" % lg, torch.randint(-2**31, 2**31 - 1, (n,), dtype=torch.int32, device="cuda", generator=g))
case("i32 50000 0..99", torch.randint(0, 100, (50000,), dtype=torch.int32, device="cuda", generator=g))
case("f32 2^16", torch.randn(1 << 16, device="cuda", generator=g))
case("f32 100000", torch.randn(100000, device="cuda", generator=g))
