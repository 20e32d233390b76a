"""A/B of CPU-backend builds on the 2-core dev box: python3 ab.py ROUNDS LIB.so ...
Each (round, lib) runs in a fresh process, libs alternated each round, np.sort timed in
the same processes. Per case: median of REPS wall times of gp_sort (in place on a fresh
copy) of 2^24 keys: u32 uniform, f32 standard normal, u64 uniform, pairs u32/u32 (keys,
0..n-1); np.sort (np) of the same keys. Wall ms (process CPU ms). Output is checked against NumPy."""
import ctypes, os, subprocess, sys, time
import numpy as np

REPS = int(os.environ.get("REPS", "7"))
DT = {np.float32: 0, np.uint32: 4, np.uint64: 5}


def med(f, setup):
    ts, cs = [], []
    for _ in range(REPS):
        a = setup()
        c, t = time.process_time(), time.perf_counter()
        f(a)
        ts.append(time.perf_counter() - t)
        cs.append(time.process_time() - c)
    ts.sort()
    cs.sort()
    return "%7.2f (%6.1f)" % (ts[len(ts) // 2] * 1e3, cs[len(cs) // 2] * 1e3)


def one(path, do_np):
    lib = ctypes.CDLL(path)
    vp, sz = ctypes.c_void_p, ctypes.c_size_t
    lib.gp_create.argtypes = [ctypes.POINTER(vp), ctypes.c_int]
    lib.gp_sort.argtypes = [vp, ctypes.c_int, vp, sz, ctypes.c_int, ctypes.c_int]
    lib.gp_sort_pairs.argtypes = [vp, ctypes.c_int, vp, ctypes.c_int, vp, sz, ctypes.c_int, ctypes.c_int]
    ctx = vp()
    assert lib.gp_create(ctypes.byref(ctx), 2) == 0
    rng = np.random.default_rng(2026)
    n = 1 << 24
    cases = {"u32": rng.integers(0, 2**32, n, dtype=np.uint32),
             "f32": rng.standard_normal(n, dtype=np.float32),
             "u64": rng.integers(0, 2**64, n, dtype=np.uint64)}
    out = [os.path.basename(path), "load %.2f" % os.getloadavg()[0]]
    for name, a in cases.items():
        res = {}
        def gp(b):
            assert lib.gp_sort(ctx, DT[a.dtype.type], b.ctypes.data, n, 0, 0) == 0
            res["b"] = b
        t = med(gp, a.copy)
        assert np.array_equal(res["b"].view(np.uint8), np.sort(a).view(np.uint8)), name
        out.append(f"{name} {t}")
        if do_np and name != "u64":
            out.append(f"np_{name} {med(lambda _: np.sort(a), lambda: None)}")
    k = cases["u32"]
    res = {}
    def gpp(kv):
        kk, vv = kv
        assert lib.gp_sort_pairs(ctx, 4, kk.ctypes.data, 4, vv.ctypes.data, n, 0, 0) == 0
        res["v"] = vv
    t = med(gpp, lambda: (k.copy(), np.arange(n, dtype=np.uint32)))
    assert np.array_equal(res["v"], np.argsort(k, kind="stable")), "pairs"
    out.append(f"pairs {t}")
    print("  ".join(out), flush=True)


if __name__ == "__main__":
    if os.environ.get("AB_CHILD"):
        one(sys.argv[1], os.environ.get("AB_NP") == "1")
    else:
        for rnd in range(int(sys.argv[1])):
            for i, p in enumerate(sys.argv[2:]):
                subprocess.run([sys.executable, __file__, p],
                               env=dict(os.environ, AB_CHILD="1", AB_NP="1"))
