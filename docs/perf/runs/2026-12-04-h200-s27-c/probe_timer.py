"""How the way a Python call is timed changes what it shows (issue 14's small sorts).
Modes, each sample a pair of CUDA events around one call unless named:
  old      L2 flush, events around the call (the flush kernel may still run while the
           call's host work does: the bench before the 27th session)
  flush+sync  L2 flush, synchronize, events around the call (the GPU idle at the first)
  sync     synchronize, events around the call (no flush)
  wall     wall clock of call + torch.cuda.synchronize(), back to back (no flush)
  batch    events around 20 calls back to back, per call (no flush, no waits between)
Every implementation of a case takes turns with the others, 150 samples each; medians.
`empty` is a Python call that does nothing: the timer's own floor in that mode."""
import statistics
import sys
import time

import numpy as np
import torch

import gpuprims

sync = torch.cuda.synchronize
scratch = torch.empty(2 * torch.cuda.get_device_properties(0).L2_cache_size // 4 + 1,
                      dtype=torch.int32, device="cuda")
E = lambda: torch.cuda.Event(enable_timing=True)


def s_events(fn, flush, wait):
    if flush:
        scratch.fill_(0)
    a, b = E(), E()
    if wait:
        sync()
    a.record(); fn(); b.record(); b.synchronize()
    return a.elapsed_time(b) * 1e3


def s_wall(fn):
    t0 = time.perf_counter_ns(); fn(); sync()
    return (time.perf_counter_ns() - t0) * 1e-3


def s_batch(fn, reps=20):
    a, b = E(), E()
    sync()
    a.record()
    for _ in range(reps):
        fn()
    b.record(); b.synchronize()
    return a.elapsed_time(b) * 1e3 / reps


MODES = {"old": lambda f: s_events(f, True, False),
         "flush+sync": lambda f: s_events(f, True, True),
         "sync": lambda f: s_events(f, False, True),
         "wall": s_wall, "batch": s_batch}


def case(title, fns, samples=150):
    for f in fns.values():
        for _ in range(5):
            f()
    sync()
    print("## " + title)
    for mode, sm in MODES.items():
        xs = {k: [] for k in fns}
        for i in range(samples):
            for k in fns:
                xs[k].append(sm(fns[k]))
        med = {k: statistics.median(v) for k, v in xs.items()}
        line = "  %-11s" % mode + "".join("  %s %7.1f" % (k, m) for k, m in med.items())
        if "gpuprims" in med and "torch" in med:
            line += "   torch/ours %.2fx" % (med["torch"] / med["gpuprims"])
        print(line)
        sys.stdout.flush()


case("empty call", {"empty": lambda: None})
for n in (1 << 11, 1 << 13, 1 << 16):
    k = torch.from_numpy(np.random.default_rng(n).integers(-2**31, 2**31 - 1, n).astype(np.int32)).cuda()
    case("sort i32 n=%d" % n, {"gpuprims": lambda: gpuprims.sort(k), "torch": lambda: torch.sort(k)})
    case("argsort i32 n=%d" % n, {"gpuprims": lambda: gpuprims.argsort(k),
                                  "torch": lambda: torch.argsort(k, stable=True)})
for n in (1 << 11, 1 << 20):
    x = torch.from_numpy(np.random.default_rng(n).standard_normal(n).astype(np.float32)).cuda()
    case("sum .item() f32 n=%d" % n, {"gpuprims": lambda: gpuprims.sum(x),
                                      "torch": lambda: x.sum().item()})
