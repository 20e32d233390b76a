"""A/B of CPU-backend gp_sort builds: python3 sort_ab.py LIB.so ... (one process per lib).
Times gp_sort of 2^24 keys (u32 uniform, f32 standard normal, u64 uniform), in place on a
fresh copy each rep, wall clock; prints median and min of REPS reps per case."""
import ctypes, os, subprocess, sys, time
import numpy as np

REPS = int(os.environ.get("REPS", "9"))
DT = {np.float32: 0, np.uint32: 4, np.uint64: 5}


def one(path):
    lib = ctypes.CDLL(path)
    vp = ctypes.c_void_p
    lib.gp_create.argtypes = [ctypes.POINTER(vp), ctypes.c_int]
    lib.gp_sort.argtypes = [vp, ctypes.c_int, vp, ctypes.c_size_t, ctypes.c_int, ctypes.c_int]
    ctx = vp()
    assert lib.gp_create(ctypes.byref(ctx), 2) == 0
    rng = np.random.default_rng(2026)
    n = 1 << 24
    cases = {"u32": rng.integers(0, 2**32, n, dtype=np.uint32),
             "f32": rng.standard_normal(n, dtype=np.float32),
             "u64": rng.integers(0, 2**64, n, dtype=np.uint64)}
    for name, a in cases.items():
        ts, cs = [], []
        for _ in range(REPS):
            b = a.copy()
            c, t = time.process_time(), time.perf_counter()
            s = lib.gp_sort(ctx, DT[a.dtype.type], b.ctypes.data, n, 0, 0)
            ts.append(time.perf_counter() - t)
            cs.append(time.process_time() - c)
            assert s == 0
        assert np.array_equal(b.view(np.uint8), np.sort(a).view(np.uint8)), name
        ts.sort()
        cs.sort()
        print(f"{os.path.basename(path):24s} {name} median {ts[len(ts)//2]*1e3:7.2f} ms  "
              f"min {ts[0]*1e3:7.2f} ms  cpu median {cs[len(cs)//2]*1e3:7.1f} ms", flush=True)


if __name__ == "__main__":
    if len(sys.argv) == 2 and os.environ.get("AB_CHILD"):
        one(sys.argv[1])
    else:
        for rnd in range(2):
            for p in sys.argv[1:]:
                subprocess.run([sys.executable, __file__, p], env=dict(os.environ, AB_CHILD="1"))
