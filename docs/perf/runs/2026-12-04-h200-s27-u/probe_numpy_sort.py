"""gpuprims.sort of a NumPy array on a CUDA context (host memory in and out), wall clock,
median of 7 calls each, in turns: the new path (gp_sort_copy stages the input in once)
against the old one's work (NumPy copy, then the staged in-place sort), i32 normal-ish
random keys; the results checked equal to np.sort."""
import statistics
import time

import numpy as np

import gpuprims

for n in (1 << 20, 1 << 24, 1 << 26):
    a = np.random.default_rng(n).integers(-2**31, 2**31 - 1, n).astype(np.int32)
    ref = np.sort(a)
    new, old = [], []
    for r in range(8):
        t0 = time.perf_counter(); s = gpuprims.sort(a); t1 = time.perf_counter()
        x = a.copy(); gpuprims.sort(x, out=x); t2 = time.perf_counter()
        if r:
            new.append(t1 - t0); old.append(t2 - t1)
        assert np.array_equal(s, ref) and np.array_equal(x, ref)
    print("n=%-9d gpuprims.sort(a) %8.2f ms   a.copy() + sort(out=) %8.2f ms   (%.2fx)" % (
        n, statistics.median(new) * 1e3, statistics.median(old) * 1e3,
        statistics.median(old) / statistics.median(new)), flush=True)
