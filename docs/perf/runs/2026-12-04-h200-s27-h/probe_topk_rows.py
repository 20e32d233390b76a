"""Top-k of rows (16384 x 1024 f32, k = 8) from Python: the timer's modes (as
s27-c/probe_timer.py) and a CUPTI timeline of one call after the bench's flush and
synchronize (as s27-d/probe_timeline.py), for gpuprims.topk(t, 8) and torch.topk(t, 8,
dim=1)."""
import importlib.util
import os
import sys

import numpy as np
import torch

import gpuprims

here = os.path.dirname(os.path.abspath(__file__))


def load(rel, name):
    spec = importlib.util.spec_from_file_location(name, os.path.join(here, rel))
    m = importlib.util.module_from_spec(spec)
    src = open(os.path.join(here, rel)).read()
    # the probes run their own cases at import; keep only their definitions
    cut = src.index("\ncase(") if "\ncase(" in src else src.index("\nfor n in")
    exec(compile(src[:cut], rel, "exec"), m.__dict__)
    return m


pt = load("../2026-12-04-h200-s27-c/probe_timer.py", "probe_timer")
tl = load("../2026-12-04-h200-s27-d/probe_timeline.py", "probe_timeline")
h = np.random.default_rng(1).standard_normal(16384 * 1024).astype(np.float32).reshape(16384, 1024)
t = torch.from_numpy(h).cuda()
pt.case("empty call", {"empty": lambda: None}, samples=60)
pt.case("topk rows 16384x1024 k=8", {"gpuprims": lambda: gpuprims.topk(t, 8),
                                     "torch": lambda: torch.topk(t, 8, dim=1)}, samples=60)
tl.timeline("gpuprims.topk rows k=8", lambda: gpuprims.topk(t, 8))
tl.timeline("torch.topk rows k=8", lambda: torch.topk(t, 8, dim=1))
