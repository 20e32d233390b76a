"""perf helper: python3 one.py LIB.so f32|u32 REPS: gp_sort of 2^24 keys REPS times, prints ms."""
import ctypes, sys, numpy as np, time
lib = ctypes.CDLL(sys.argv[1]); vp, sz = ctypes.c_void_p, ctypes.c_size_t
lib.gp_create.argtypes = [ctypes.POINTER(vp), ctypes.c_int]
lib.gp_sort.argtypes = [vp, ctypes.c_int, vp, sz, ctypes.c_int, ctypes.c_int]
ctx = vp(); assert lib.gp_create(ctypes.byref(ctx), 2) == 0
rng = np.random.default_rng(2026); n = 1 << 24
kind = sys.argv[2]
a = rng.standard_normal(n, dtype=np.float32) if kind == "f32" else rng.integers(0, 2**32, n, dtype=np.uint32)
t = 0 if kind == "f32" else 4
for i in range(int(sys.argv[3])):
    b = a.copy(); t0 = time.perf_counter(); lib.gp_sort(ctx, t, b.ctypes.data, n, 0, 0); print("%.1f" % ((time.perf_counter()-t0)*1e3), end=" ")
print()
