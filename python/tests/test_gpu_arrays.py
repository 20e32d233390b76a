"""PyTorch, CuPy and JAX arrays on the GPU: zero-copy calls, results of the caller's
type on the caller's device, the caller's stream honoured, the same bits as the CPU
backend, and clear errors. Each framework's tests skip where it or a GPU is missing."""
import math

import numpy as np
import pytest
from conftest import CUDA_CTX, bits, ref_argsort

import gpuprims

needs_gpu = pytest.mark.skipif(CUDA_CTX is None, reason="no usable CUDA GPU")


def _torch():
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("torch sees no CUDA GPU")
    return torch


def _cupy():
    cupy = pytest.importorskip("cupy")
    try:
        cupy.cuda.runtime.getDeviceCount()
    except Exception:
        pytest.skip("cupy sees no CUDA GPU")
    return cupy


def _jax():
    jax = pytest.importorskip("jax")
    try:
        jax.devices("gpu")
    except RuntimeError:
        pytest.skip("jax sees no GPU")
    return jax


CPU = None


def cpu_ctx():
    global CPU
    if CPU is None:
        CPU = gpuprims.Context("cpu")
    return CPU


TORCH_DTYPES = ["float32", "float64", "int32", "int64"]
SIZES = [0, 1, 31, 600, 1025, 3000, 65537, 1 << 20]


def host_data(dtype, n, seed=0, specials=False):
    """Random values of dtype; specials puts inf, -0.0 and NaN in float data."""
    rng = np.random.default_rng(seed)
    if np.dtype(dtype).kind == "f":
        a = (rng.standard_normal(n) * 100).astype(dtype)
        if specials and n > 8:
            a[[1, 3, 5, 7]] = [np.inf, -0.0, 0.0, -np.nan]
        return a
    return rng.integers(-1000, 1000, n).astype(dtype) if np.dtype(dtype).kind == "i" \
        else rng.integers(0, 2000, n).astype(dtype)


# ---- PyTorch -------------------------------------------------------------------------
@needs_gpu
@pytest.mark.parametrize("dtype", TORCH_DTYPES)
@pytest.mark.parametrize("n", SIZES)
def test_torch_reduce_same_bits_as_cpu(dtype, n):
    torch = _torch()
    h = host_data(dtype, n, n)
    t = torch.from_numpy(h).cuda()
    for op in ("sum", "min", "max"):
        if op != "sum" and n == 0:
            continue
        if op == "max":  # NaN and infinities for the extremes
            h = host_data(dtype, n, n, specials=True)
            t = torch.from_numpy(h).cuda()
        got = getattr(gpuprims, op)(t)
        want = getattr(gpuprims, op)(h, ctx=cpu_ctx())
        assert type(got) is type(want)
        same = np.float64(got).tobytes() == np.float64(want).tobytes()
        assert same or (math.isnan(got) and math.isnan(want)), (op, dtype, n)
        dev = getattr(gpuprims, op)(t, keep_on_device=True)
        assert isinstance(dev, torch.Tensor) and dev.is_cuda and dev.shape == ()
        assert np.float64(dev.item()).tobytes() == np.float64(got).tobytes()


@needs_gpu
@pytest.mark.parametrize("dtype", TORCH_DTYPES)
@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("descending", [False, True])
def test_torch_sort_argsort(dtype, n, descending):
    torch = _torch()
    h = host_data(dtype, n, n + 1, specials=True)
    t = torch.from_numpy(h).cuda()
    s = gpuprims.sort(t, descending=descending)
    assert isinstance(s, torch.Tensor) and s.device == t.device and s.dtype == t.dtype
    p = ref_argsort(h, descending)
    assert np.array_equal(bits(s.cpu().numpy()), bits(h[p]))
    assert np.array_equal(bits(t.cpu().numpy()), bits(h)), "sort() must not touch its input"
    i = gpuprims.argsort(t, descending=descending)
    assert i.dtype == torch.int64 and i.is_cuda
    assert np.array_equal(i.cpu().numpy(), p)


@needs_gpu
def test_torch_rows_pairs_inplace():
    torch = _torch()
    h = host_data("float32", 64 * 1000, 7, specials=True).reshape(64, 1000)
    t = torch.from_numpy(h).cuda()
    r = gpuprims.sort(t)
    assert np.array_equal(bits(r.cpu().numpy()),
                          bits(np.take_along_axis(h, ref_argsort(h), -1)))
    gpuprims.sort(t, descending=True, out=t)
    assert np.array_equal(bits(t.cpu().numpy()),
                          bits(np.take_along_axis(h, ref_argsort(h, True), -1)))
    k = torch.randint(0, 50, (5000,), device="cuda", dtype=torch.int32)
    v = torch.arange(5000, device="cuda", dtype=torch.int64)
    sk, sv = gpuprims.sort_pairs(k, v)
    p = ref_argsort(k.cpu().numpy())
    assert np.array_equal(sv.cpu().numpy(), p)
    assert np.array_equal(sk.cpu().numpy(), k.cpu().numpy()[p])


@needs_gpu
def test_torch_side_stream_ordering():
    """Data produced on a side stream after a long sleep kernel: gpuprims must launch
    on that stream (the current one), or it would read the data before it is there."""
    torch = _torch()
    n = 1 << 22
    src = torch.arange(n, device="cuda", dtype=torch.float32)
    x = torch.zeros(n, device="cuda", dtype=torch.float32)
    torch.cuda.synchronize()
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        torch.cuda._sleep(200_000_000)  # ~0.1 s of GPU time before x is written
        x.copy_(src.flip(0))
        dev_sum = gpuprims.sum(x, keep_on_device=True)
        srt = gpuprims.sort(x)
        small = gpuprims.sort(x[:2048])  # one launch of the whole-GPU rank sort
        small_i = gpuprims.argsort(x[:2048])
        host_max = gpuprims.max(x)  # a host result waits for its stream
    assert host_max == n - 1
    s.synchronize()
    assert dev_sum.item() == float(sum(range(n)))
    assert torch.equal(srt, src)
    assert torch.equal(small, src[n - 2048:])
    assert torch.equal(small_i, torch.arange(2047, -1, -1, device="cuda"))


@needs_gpu
def test_torch_errors_never_copy():
    torch = _torch()
    t = torch.arange(100, device="cuda", dtype=torch.float32)
    with pytest.raises(ValueError, match="C-contiguous"):
        gpuprims.sort(t[::2])
    with pytest.raises(TypeError, match="float16"):
        gpuprims.sum(t.half())
    with pytest.raises(ValueError, match="context is the CPU backend"):
        gpuprims.sum(t, ctx=cpu_ctx())
    with pytest.raises(ValueError, match="requires grad"):
        w = t.clone().requires_grad_()
        gpuprims.sort(w, out=w)
    if torch.cuda.device_count() > 1:
        t1 = t.to("cuda:1")
        assert gpuprims.sum(t1) == 4950.0
        with pytest.raises(ValueError, match="cuda:1"):
            gpuprims.sum(t1, ctx=gpuprims.Context("cuda", device=0))


@needs_gpu
def test_torch_cpu_tensor_is_host_memory():
    torch = _torch()
    t = torch.tensor([3, 1, 2], dtype=torch.int64)
    r = gpuprims.sort(t)
    assert isinstance(r, torch.Tensor) and r.device.type == "cpu" and r.tolist() == [1, 2, 3]


@needs_gpu
@pytest.mark.parametrize("dtype", TORCH_DTYPES)
def test_torch_rows_offsets_argminmax(dtype):
    torch = _torch()
    h = host_data(dtype, 37 * 1001, 4, specials=True).reshape(37, 1001)
    t = torch.from_numpy(h).cuda()
    off = [0, 0, 5, 5000, h.size - 1, h.size]
    for op in ("sum", "min", "max"):
        f = getattr(gpuprims, op)
        for got, want in (
                (f(t, axis=-1), f(h, axis=-1, ctx=cpu_ctx())),
                (f(t.view(-1), offsets=torch.tensor(off, device="cuda")),
                 f(h.ravel(), offsets=np.array(off), ctx=cpu_ctx())),
                (f(t.view(-1), offsets=np.array(off, np.uint64)),  # host offsets
                 f(h.ravel(), offsets=np.array(off), ctx=cpu_ctx())),
                (f(t[:0], axis=-1), f(h[:0], axis=-1, ctx=cpu_ctx())),
                (f(t[:36].view(4, 9, 1001), axis=-1),  # n-d: along the last axis
                 f(h[:36].reshape(4, 9, 1001), axis=-1, ctx=cpu_ctx()))):
            assert isinstance(got, torch.Tensor) and got.device == t.device
            assert got.shape == want.shape
            assert np.array_equal(bits(got.cpu().numpy()), bits(want)), (op, dtype)
    v, i = gpuprims.topk(t[:36].view(4, 9, 1001), 5)  # n-d top-k: rows of the last axis
    wv, wi = gpuprims.topk(h[:36].reshape(4, 9, 1001), 5, ctx=cpu_ctx())
    assert v.shape == (4, 9, 5) and v.device == t.device
    assert np.array_equal(bits(v.cpu().numpy()), bits(wv)) and np.array_equal(i.cpu().numpy(), wi)
    for f, nf in ((gpuprims.argmax, np.argmax), (gpuprims.argmin, np.argmin)):
        i = f(t, axis=-1)  # each row's first extreme, NumPy's rules, on the GPU
        assert isinstance(i, torch.Tensor) and i.device == t.device and i.dtype == torch.int64
        assert np.array_equal(i.cpu().numpy(), nf(h, axis=-1)), (nf.__name__, dtype)
        i3 = f(t[:36].view(4, 9, 1001), axis=-1)
        assert i3.shape == (4, 9)
        assert np.array_equal(i3.cpu().numpy(), nf(h[:36].reshape(4, 9, 1001), axis=-1))
        seg = [0, 5, 5000, h.size - 1, h.size]
        want = [nf(h.ravel()[a:b]) for a, b in zip(seg, seg[1:])]
        for o in (np.array(seg, np.int64), torch.tensor(seg, device="cuda")):
            got = f(t.view(-1), offsets=o)  # host offsets, or device ones (copied over)
            assert got.device == t.device and got.cpu().tolist() == want, (nf.__name__, dtype)
    assert gpuprims.argmax(t) == int(np.argmax(h))  # floats: the first NaN
    assert gpuprims.argmin(t.view(-1)) == int(np.argmin(h))
    with pytest.raises(gpuprims.InvalidArgumentError, match="outside the array"):
        gpuprims.sum(t.view(-1), offsets=np.array([0, h.size + 1]))
    with pytest.raises(gpuprims.InvalidArgumentError, match="argmax of n = 0"):
        gpuprims.argmax(t[:0])


@needs_gpu
def test_torch_side_stream_rows_offsets_argmin():
    """As test_torch_side_stream_ordering: the results of rows, offsets and argmin must
    be of the data the side stream writes after its sleep."""
    torch = _torch()
    n = 1 << 22
    src = torch.arange(n, device="cuda", dtype=torch.float32)
    x = torch.zeros(n, device="cuda", dtype=torch.float32)
    off = torch.tensor([0, n // 2, n], device="cuda")
    torch.cuda.synchronize()
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        torch.cuda._sleep(200_000_000)  # ~0.1 s of GPU time before x is written
        x.copy_(src.flip(0))
        rows = gpuprims.max(x.view(4, -1), axis=-1)
        segs = gpuprims.min(x, offsets=off)
        ri = gpuprims.argmax(x.view(4, -1), axis=-1)
        si = gpuprims.argmin(x, offsets=off)  # device offsets: copied on the stream
        i = gpuprims.argmin(x)  # a host result waits for its stream
    assert i == n - 1
    s.synchronize()
    q = n // 4
    assert ri.tolist() == [0, 0, 0, 0] and si.tolist() == [n // 2 - 1, n // 2 - 1]
    assert rows.tolist() == [n - 1, n - 1 - q, n - 1 - 2 * q, n - 1 - 3 * q]
    assert segs.tolist() == [n // 2, 0]


# ---- CuPy ----------------------------------------------------------------------------
@needs_gpu
@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "int64", "uint32",
                                   "uint64"])
def test_cupy_functions(dtype):
    cp = _cupy()
    h = host_data(dtype, 70001, 3)
    c = cp.asarray(h)
    assert np.float64(gpuprims.sum(c)).tobytes() == \
        np.float64(gpuprims.sum(h, ctx=cpu_ctx())).tobytes()
    s = gpuprims.sort(c, descending=True)
    assert isinstance(s, cp.ndarray) and s.dtype == c.dtype
    assert np.array_equal(bits(cp.asnumpy(s)), bits(h[ref_argsort(h, True)]))
    assert np.array_equal(cp.asnumpy(gpuprims.argsort(c)), ref_argsort(h))
    for k in (700, 2048):  # the whole-GPU rank sort's copy and argsort
        s = gpuprims.sort(c[:k])
        assert isinstance(s, cp.ndarray) and s.dtype == c.dtype
        assert np.array_equal(bits(cp.asnumpy(s)), bits(h[:k][ref_argsort(h[:k])]))
        assert np.array_equal(cp.asnumpy(gpuprims.argsort(c[:k], descending=True)),
                              ref_argsort(h[:k], True))
    m = gpuprims.min(c, keep_on_device=True)
    assert isinstance(m, cp.ndarray) and m.shape == ()
    assert np.float64(m.get()).tobytes() == \
        np.float64(gpuprims.min(h, ctx=cpu_ctx())).tobytes()


def _slow_arange(cp, n):
    """0 .. n-1 as float64 on CuPy's current stream, made slowly: enough work that a
    launch on another stream would race with it."""
    x = cp.arange(n, dtype=cp.float64)
    for _ in range(20):
        x = cp.sqrt(x * x)
    return x


@needs_gpu
def test_cupy_stream_ordering():
    cp = _cupy()
    n = 1 << 24
    with cp.cuda.Stream(non_blocking=True) as s:
        x = _slow_arange(cp, n)
        r = gpuprims.sum(x, keep_on_device=True)
        srt = gpuprims.sort(x[::-1].copy())
    s.synchronize()
    assert float(r.get()) == float(n) * (n - 1) / 2
    assert bool((srt == cp.arange(n, dtype=cp.float64)).all())


@needs_gpu
@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "int64", "uint32",
                                   "uint64"])
def test_cupy_rows_offsets_argminmax(dtype):
    cp = _cupy()
    h = host_data(dtype, 64 * 777, 6, specials=True).reshape(64, 777)
    c = cp.asarray(h)
    off = np.array([3, 3, 700, 20000, h.size], np.uint64)
    for op in ("sum", "min", "max"):
        f = getattr(gpuprims, op)
        for got, want in ((f(c, axis=-1), f(h, axis=-1, ctx=cpu_ctx())),
                          (f(c.ravel(), offsets=cp.asarray(off)),
                           f(h.ravel(), offsets=off, ctx=cpu_ctx()))):
            assert isinstance(got, cp.ndarray) and got.device.id == c.device.id
            assert got.dtype == want.dtype and got.shape == want.shape
            assert np.array_equal(bits(cp.asnumpy(got)), bits(want)), (op, dtype)
    assert gpuprims.argmax(c) == int(np.argmax(h))
    assert gpuprims.argmin(c) == int(np.argmin(h))
    for f, nf in ((gpuprims.argmax, np.argmax), (gpuprims.argmin, np.argmin)):
        i = f(c, axis=-1)
        assert isinstance(i, cp.ndarray) and i.device.id == c.device.id
        assert np.array_equal(cp.asnumpy(i), nf(h, axis=-1)), (nf.__name__, dtype)
        seg = [3, 700, 20000, h.size]
        want = [nf(h.ravel()[a:b]) for a, b in zip(seg, seg[1:])]
        got = f(c.ravel(), offsets=cp.asarray(np.array(seg, np.uint64)))
        assert cp.asnumpy(got).tolist() == want, (nf.__name__, dtype)


@needs_gpu
def test_cupy_stream_ordering_rows_argmax():
    cp = _cupy()
    n = 1 << 24
    with cp.cuda.Stream(non_blocking=True) as s:
        x = _slow_arange(cp, n)
        rows = gpuprims.max(x.reshape(4, -1), axis=-1)
        segs = gpuprims.min(x, offsets=cp.asarray([1, n // 2, n], dtype=cp.uint64))
        ri = gpuprims.argmin(x.reshape(4, -1), axis=-1)
        i = gpuprims.argmax(x)  # a host result waits for its stream
    assert i == n - 1
    s.synchronize()
    q = n // 4
    assert cp.asnumpy(ri).tolist() == [0, 0, 0, 0]
    assert cp.asnumpy(rows).tolist() == [q - 1, 2 * q - 1, 3 * q - 1, n - 1]
    assert cp.asnumpy(segs).tolist() == [1, n // 2]


# ---- JAX -----------------------------------------------------------------------------
@needs_gpu
def test_jax_functions():
    jax = _jax()
    import jax.numpy as jnp
    h = host_data("float32", 10000, 5)
    x = jax.device_put(jnp.asarray(h), jax.devices("gpu")[0])
    assert np.float64(gpuprims.sum(x)).tobytes() == \
        np.float64(gpuprims.sum(h, ctx=cpu_ctx())).tobytes()
    s = gpuprims.sort(x)
    assert isinstance(s, jax.Array) and s.dtype == x.dtype
    assert np.array_equal(bits(np.asarray(s)), bits(h[ref_argsort(h)]))
    assert np.array_equal(np.asarray(gpuprims.argsort(x)), ref_argsort(h))
    assert np.array_equal(bits(np.asarray(x)), bits(h)), "sort() must not touch its input"
    with pytest.raises(TypeError, match="immutable"):
        gpuprims.sort(x, out=x)
