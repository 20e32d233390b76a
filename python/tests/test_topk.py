"""gpuprims.topk on every backend here against a NumPy reference (the stable argsort in
the library's order: the k largest or smallest in order, ties to the lower index), over
every dtype, ties at the k-th value, constant data and NaN/-0/inf, k from 1 to n; the
errors; and PyTorch/CuPy arrays on the GPU where one is usable."""
import numpy as np
import pytest
from conftest import CUDA_CTX, DTYPES, bits, ref_argsort

import gpuprims

needs_gpu = pytest.mark.skipif(CUDA_CTX is None, reason="no usable CUDA GPU")
N = 20011  # odd, prime: no tile or vector divides it
PATTERNS = ["random", "ties", "constant", "specials", "uniform"]


def ref_topk(a, k, largest):
    p = ref_argsort(a, descending=largest)[:k]
    return a[p], p


def data(dtype, n, pattern, seed=0):
    rng = np.random.default_rng(seed)
    dt = np.dtype(dtype)
    if pattern == "random":  # every bit pattern: NaNs, infinities, subnormals for floats
        return np.frombuffer(rng.bytes(n * dt.itemsize), dt).copy()
    if pattern == "ties":  # 100 values: the k-th repeats ~200 times
        return (rng.integers(0, 100, n) - (0 if dt.kind == "u" else 50)).astype(dt)
    if pattern == "constant":
        return np.full(n, 7, dt)
    if pattern == "specials":
        if dt.kind == "f":
            sp = [np.nan, -np.nan, np.inf, -np.inf, -0.0, 0.0, 1.0, -1.0]
        else:
            i = np.iinfo(dt)
            sp = [i.min, i.max, 0, 1, i.max - 1, i.min + 1, 2, 3]
        sp = np.array(sp, dt)
        return sp[rng.integers(0, len(sp), n)]
    if dt.kind == "f":  # uniform [0, 1)
        return rng.random(n).astype(dt)
    return rng.integers(0, 1 << 20, n).astype(dt)


def check(got, a, k, largest):
    v, i = got
    wv, wi = ref_topk(a, k, largest)
    assert v.dtype == a.dtype and v.shape == (k,)
    assert i.dtype == np.int64 and i.shape == (k,)
    assert np.array_equal(i, wi), (k, largest)
    assert np.array_equal(bits(v), bits(wv)), (k, largest)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("pattern", PATTERNS)
@pytest.mark.parametrize("largest", [True, False])
def test_topk_matches_numpy(ctx, dtype, pattern, largest):
    a = data(dtype, N, pattern, seed=DTYPES.index(dtype))
    for k in (1, 16, 1024, N // 16, N // 16 + 1, N):
        check(gpuprims.topk(a, k, largest=largest, ctx=ctx), a, k, largest)


@pytest.mark.parametrize("n", [1, 2, 15, 16, 17, 33, 1000])
def test_topk_small_sizes(ctx, n):
    a = data(np.float32, n, "ties", seed=n)
    for k in sorted({1, min(2, n), n // 2 or 1, n}):
        for largest in (True, False):
            check(gpuprims.topk(a, k, largest=largest, ctx=ctx), a, k, largest)


def test_topk_ties_go_to_lower_indices(ctx):
    a = np.zeros(5000, np.int32)
    a[::7] = 1
    v, i = gpuprims.topk(a, 1000, ctx=ctx)
    assert np.array_equal(v[:715], np.ones(715, np.int32)) and not v[715:].any()
    assert np.array_equal(i[:715], np.arange(0, 5000, 7))
    rest = np.setdiff1d(np.arange(5000), np.arange(0, 5000, 7))
    assert np.array_equal(i[715:], rest[:285])


@pytest.mark.parametrize("shape", [(2, 3, 17), (3, 1, 2, 9), (0, 2, 5), (2, 0, 4)])
def test_topk_nd_rows(ctx, shape):
    """An n-d array: the top k of each row along the last axis, shape a.shape[:-1] +
    (k,), each row as the 2-d call of the same rows gives it."""
    a = data(np.float64, int(np.prod(shape)), "ties", seed=len(shape)).reshape(shape)
    for k in sorted({1, 3, shape[-1]}):
        for largest in (True, False):
            v, i = gpuprims.topk(a, k, largest=largest, ctx=ctx)
            assert v.shape == i.shape == shape[:-1] + (k,)
            wv, wi = gpuprims.topk(a.reshape(-1, shape[-1]), k, largest=largest, ctx=ctx)
            assert np.array_equal(i.reshape(-1, k), wi)
            assert np.array_equal(bits(v.reshape(-1, k)), bits(wv))
            for r, row in enumerate(a.reshape(-1, shape[-1])):
                check((v.reshape(-1, k)[r], i.reshape(-1, k)[r]), row, k, largest)


def test_topk_errors(ctx):
    a = np.arange(10, dtype=np.float32)
    for k in (0, 11, -1):
        with pytest.raises(gpuprims.InvalidArgumentError, match="1 <= k <= n"):
            gpuprims.topk(a, k, ctx=ctx)
    with pytest.raises(ValueError, match="at least one dimension"):
        gpuprims.topk(np.array(1.0, np.float32), 1, ctx=ctx)
    with pytest.raises(gpuprims.InvalidArgumentError, match="1 <= k <= cols"):
        gpuprims.topk(a.reshape(2, 5), 6, ctx=ctx)
    with pytest.raises(TypeError):
        gpuprims.topk(a.astype(np.float16), 1, ctx=ctx)
    with pytest.raises(TypeError):
        gpuprims.topk(a, 1.5, ctx=ctx)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("pattern", ["random", "ties", "specials"])
def test_topk_rows(ctx, dtype, pattern):
    a = data(dtype, 37 * 301, pattern, seed=5).reshape(37, 301)
    for k in (1, 16, 301):
        for largest in (True, False):
            v, i = gpuprims.topk(a, k, largest=largest, ctx=ctx)
            assert v.shape == (37, k) and i.shape == (37, k) and i.dtype == np.int64
            for r in range(37):
                check((v[r], i[r]), a[r], k, largest)
    v, i = gpuprims.topk(a[:0], 3, ctx=ctx)  # no rows
    assert v.shape == (0, 3) and i.shape == (0, 3)


# ---- GPU arrays -----------------------------------------------------------------------
@needs_gpu
@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "int64"])
@pytest.mark.parametrize("k", [1, 16, 1024, 70000])
def test_torch_topk(dtype, k):
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("torch sees no CUDA GPU")
    h = data(dtype, 1 << 20, "ties" if k == 1024 else "random", seed=k)
    t = torch.from_numpy(h).cuda()
    v, i = gpuprims.topk(t, k)
    assert isinstance(v, torch.Tensor) and v.is_cuda and v.dtype == t.dtype
    assert i.dtype == torch.int64 and i.is_cuda
    check((v.cpu().numpy(), i.cpu().numpy()), h, k, True)
    if h.dtype.kind != "f" or not np.isnan(h).any():  # torch ranks NaN otherwise
        tv, _ = torch.topk(t, k)
        assert torch.equal(v, tv)
    vs, js = gpuprims.topk(t, k, largest=False)
    check((vs.cpu().numpy(), js.cpu().numpy()), h, k, False)


@needs_gpu
def test_torch_topk_rows():
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("torch sees no CUDA GPU")
    h = data("float32", 512 * 1000, "ties", seed=9).reshape(512, 1000)
    t = torch.from_numpy(h).cuda()
    v, i = gpuprims.topk(t, 8)
    assert isinstance(v, torch.Tensor) and v.is_cuda and v.shape == (512, 8)
    vh, ih = v.cpu().numpy(), i.cpu().numpy()
    for r in range(512):
        check((vh[r], ih[r]), h[r], 8, True)
    tv, _ = torch.topk(t, 8, dim=1)
    assert torch.equal(v, tv)


@needs_gpu
def test_cupy_topk():
    cupy = pytest.importorskip("cupy")
    try:
        cupy.cuda.runtime.getDeviceCount()
    except Exception:
        pytest.skip("cupy sees no CUDA GPU")
    h = data(np.float32, 300007, "uniform", seed=3)
    c = cupy.asarray(h)
    v, i = gpuprims.topk(c, 4096)
    assert isinstance(v, cupy.ndarray) and i.dtype == np.int64
    check((cupy.asnumpy(v), cupy.asnumpy(i)), h, 4096, True)
