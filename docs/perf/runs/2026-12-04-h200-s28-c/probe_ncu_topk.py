"""One gp_topk_rows call each (16384 x 1024 f32, k = 8: random rows, then falling rows)
through the library named in argv[1], for ncu to profile the select kernel."""
import ctypes
import sys

import torch

lib = ctypes.CDLL(sys.argv[1])
lib.gp_create.argtypes = [ctypes.POINTER(ctypes.c_void_p), ctypes.c_int]
lib.gp_topk_rows.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p, ctypes.c_size_t,
                             ctypes.c_size_t, ctypes.c_size_t, ctypes.c_int, ctypes.c_void_p,
                             ctypes.c_void_p]
ctx = ctypes.c_void_p()
assert lib.gp_create(ctypes.byref(ctx), 1) == 0
g = torch.Generator(device="cuda").manual_seed(7)
rand = torch.randn(16384, 1024, generator=g, device="cuda")
fall = torch.arange(1024, 0, -1, device="cuda", dtype=torch.float32).repeat(16384, 1)
v = torch.empty(16384, 8, device="cuda")
i = torch.empty(16384, 8, dtype=torch.int64, device="cuda")
for t in (rand, fall):
    assert lib.gp_topk_rows(ctx, 0, t.data_ptr(), 16384, 1024, 8, 1, v.data_ptr(), i.data_ptr()) == 0
torch.cuda.synchronize()
