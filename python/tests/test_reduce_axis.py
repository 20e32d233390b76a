"""sum/min/max by rows (axis=-1) and by offsets, and argmin/argmax, on NumPy arrays on
every backend here: exact bits against a NumPy reference (float sums against the exact
sum rounded once) over every dtype, by hypothesis and on fixed edge cases; the errors.
GPU arrays are in test_gpu_arrays.py."""
from fractions import Fraction

import numpy as np
import pytest
from conftest import CONTEXTS, DTYPES, bits, each_backend, order_key

import gpuprims

hyp = pytest.importorskip("hypothesis")
from hypothesis import given, strategies as st  # noqa: E402
from hypothesis.extra import numpy as hnp  # noqa: E402
from test_numpy import arrays, elements  # noqa: E402

OPS = ["sum", "min", "max"]
OUT = {np.int32: np.int64, np.uint32: np.uint64}  # integer sums widen


def round_to(q, dt):
    """The rational q rounded to the nearest dt, ties to even."""
    r = dt(float(q))  # float(q) is correctly rounded to float64: dt() may round twice
    near = (np.nextafter(r, dt(-np.inf)), r, np.nextafter(r, dt(np.inf)))
    return min(near, key=lambda c: (abs(Fraction(float(c)) - q), int(bits(c)[0]) & 1))


def ref_reduce(x, op):
    """What the library promises for one segment x (finite data for float sums): a
    NumPy scalar of the output dtype."""
    dt = x.dtype.type
    if op == "sum":
        if x.dtype.kind in "iu":  # modulo 2^64, as the library
            return x.sum(dtype=np.int64 if x.dtype.kind == "i" else np.uint64)
        q = sum(map(Fraction, x.tolist()), Fraction(0))
        if q == 0:  # IEEE: -0 only when every element is -0
            return dt(-0.0) if x.size and np.signbit(x).all() else dt(0.0)
        return round_to(q, dt)
    if x.size == 0:  # the identity
        if x.dtype.kind == "f":
            return dt(np.inf if op == "min" else -np.inf)
        return dt(np.iinfo(dt).max if op == "min" else np.iinfo(dt).min)
    if x.dtype.kind == "f" and np.isnan(x).any():
        return dt(np.nan)  # the canonical quiet NaN
    k = order_key(x)  # -0.0 below +0.0
    return x[np.argmin(k) if op == "min" else np.argmax(k)]


def check(got, a, segments, op):
    """got: the library's results for a's segments (slices) under op."""
    want_dt = OUT.get(a.dtype.type, a.dtype.type) if op == "sum" else a.dtype.type
    want = np.array([ref_reduce(a[s], op) for s in segments], want_dt)
    assert isinstance(got, np.ndarray) and got.dtype == want_dt
    assert got.shape == (len(segments),)
    assert np.array_equal(bits(got), bits(want)), (op, a.dtype)


def sample(dtype, shape, seed):
    """Floats over 60 binades of both signs (sums round, cancel); integers over the
    whole range (sums wrap)."""
    rng = np.random.default_rng(seed)
    dt = np.dtype(dtype)
    if dt.kind == "f":
        scale = 2.0 ** rng.integers(-30, 30, shape)
        return (rng.standard_normal(shape) * scale).astype(dt)
    i = np.iinfo(dt)
    return rng.integers(i.min, i.max, shape, dtype=dt, endpoint=True)


def by_offsets(off):
    return [slice(int(lo), int(hi)) for lo, hi in zip(off[:-1], off[1:])]


# ---- rows ----------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(0, 5), (1, 7), (9, 1), (4, 0), (33, 257), (3, 5000)])
def test_rows_match_reference(ctx, dtype, shape):
    a = sample(dtype, shape, shape[0] * 7919 + shape[1])
    for op in OPS:
        got = getattr(gpuprims, op)(a, axis=-1, ctx=ctx)
        check(got, a, list(range(shape[0])), op)
        assert np.array_equal(bits(getattr(gpuprims, op)(a, axis=1, ctx=ctx)), bits(got))


@each_backend
@given(st.data(), st.sampled_from(OPS))
def test_rows_property(backend, data, op):
    dt = data.draw(st.sampled_from(DTYPES))
    shape = (data.draw(st.integers(0, 8)), data.draw(st.integers(0, 80)))
    a = data.draw(hnp.arrays(dt, shape, elements=elements(dt, specials=op != "sum")))
    got = getattr(gpuprims, op)(a, axis=-1, ctx=CONTEXTS[backend])
    check(got, a, list(range(shape[0])), op)


def test_one_d_axis_is_the_whole_array(ctx):
    a = sample(np.int32, 1000, 1)
    for axis in (0, -1):
        r = gpuprims.sum(a, axis=axis, ctx=ctx)
        assert type(r) is int and r == gpuprims.sum(a, ctx=ctx)
        assert gpuprims.min(a, axis=axis, ctx=ctx) == int(a.min())
    d = gpuprims.max(a, axis=0, keep_on_device=True, ctx=ctx)
    assert isinstance(d, np.ndarray) and d.shape == () and d == a.max()


def test_float_specials_per_row(ctx):
    inf, nan = np.inf, np.nan
    rows = [[nan, 1], [inf, 1], [inf, -inf], [-0.0, -0.0], [-0.0, 0.0], [-inf, -1]]
    want = {"sum": [nan, inf, nan, -0.0, 0.0, -inf],
            "min": [nan, 1, -inf, -0.0, -0.0, -inf],
            "max": [nan, inf, inf, -0.0, 0.0, -1]}
    for dt in (np.float32, np.float64):
        a = np.array(rows, dt)
        off = np.arange(0, a.size + 1, 2, dtype=np.uint64)
        for op in OPS:
            w = bits(np.array(want[op], dt))  # NaN: the canonical quiet NaN
            assert np.array_equal(bits(getattr(gpuprims, op)(a, axis=-1, ctx=ctx)), w)
            got = getattr(gpuprims, op)(a.ravel(), offsets=off, ctx=ctx)
            assert np.array_equal(bits(got), w)


def test_float32_sum_rounds_once(ctx):
    # through float64 the exact 1 + 2^-24 + 2^-60 becomes a float32 tie, then 1.0
    a = np.array([[1.0, 2.0 ** -24, 2.0 ** -60]], np.float32)
    assert gpuprims.sum(a, axis=-1, ctx=ctx)[0] == np.float32(1 + 2.0 ** -23)


def test_keep_on_device_changes_nothing(ctx):
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    r = gpuprims.sum(a, axis=-1, keep_on_device=True, ctx=ctx)
    assert isinstance(r, np.ndarray) and r.tolist() == [3.0, 12.0]


# ---- offsets -------------------------------------------------------------------------
OFFSETS = [
    [0, 1000],                                # one segment of everything
    [0, 0, 0, 10, 10, 500, 999, 1000, 1000],  # empty segments first, inside, last
    [7, 7, 300, 998],                         # not from 0, not to the end
    [1000, 1000],                             # one empty segment at the end
    [5],                                      # no segments
]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("odt", [np.int64, np.uint64])
def test_offsets_match_reference(ctx, dtype, odt):
    a = sample(dtype, 1000, 3)
    for off in OFFSETS:
        o = np.array(off, odt)
        for op in OPS:
            check(getattr(gpuprims, op)(a, offsets=o, ctx=ctx), a, by_offsets(off), op)


@each_backend
@given(st.data(), st.sampled_from(OPS))
def test_offsets_property(backend, data, op):
    dt = data.draw(st.sampled_from(DTYPES))
    a = data.draw(arrays(dt, max_n=300, specials=op != "sum"))
    off = sorted(data.draw(st.lists(st.integers(0, len(a)), min_size=1, max_size=8)))
    o = np.array(off, data.draw(st.sampled_from([np.int64, np.uint64])))
    got = getattr(gpuprims, op)(a, offsets=o, ctx=CONTEXTS[backend])
    check(got, a, by_offsets(off), op)


def test_rows_and_offsets_agree(ctx):
    a = sample(np.float32, (40, 301), 5)
    off = np.arange(0, a.size + 1, 301, dtype=np.uint64)
    for op in OPS:
        f = getattr(gpuprims, op)
        assert np.array_equal(bits(f(a, axis=-1, ctx=ctx)),
                              bits(f(a.ravel(), offsets=off, ctx=ctx)))


# ---- argmin / argmax -----------------------------------------------------------------
@each_backend
@given(st.data(), st.booleans())
def test_argminmax_match_numpy(backend, data, ties):
    dt = data.draw(st.sampled_from(DTYPES))
    a = data.draw(arrays(dt, min_n=1))
    if ties:  # a few distinct values: the first of equals must win
        a = a[np.random.default_rng(len(a)).integers(0, len(a) // 8 + 1, len(a))]
    for f, ref in ((gpuprims.argmax, np.argmax), (gpuprims.argmin, np.argmin)):
        got = f(a, ctx=CONTEXTS[backend])
        assert type(got) is int and got == ref(a), (f.__name__, a)


@pytest.mark.parametrize("shape", [(3, 7), (2, 3, 5), (4, 1, 2, 2049), (0, 5), (1, 1)])
def test_argminmax_along_last_axis(ctx, shape):
    """axis=-1: the index in each row, shape a.shape[:-1], NumPy's own answer (ties, the
    first NaN, -0 == +0) on every dtype (host arrays: the CPU backend's answer whatever
    the context; GPU arrays are test_gpu_arrays.py's)."""
    rng = np.random.default_rng(sum(shape))
    for dt in DTYPES:
        a = rng.integers(0, 4, shape).astype(dt)  # many ties
        if np.dtype(dt).kind == "f" and a.size:
            a.reshape(-1)[rng.integers(0, a.size, 3)] = np.nan
            a.reshape(-1)[rng.integers(0, a.size, 3)] = -0.0
        for f, ref in ((gpuprims.argmax, np.argmax), (gpuprims.argmin, np.argmin)):
            got = f(a, axis=-1, ctx=ctx)
            want = ref(a, axis=-1)
            assert got.shape == want.shape and got.dtype == np.int64
            assert np.array_equal(got, want), (f.__name__, dt)
            assert np.array_equal(f(a, axis=len(shape) - 1, ctx=ctx), want)
    v = np.arange(5.0)
    assert gpuprims.argmax(v, axis=-1, ctx=ctx) == 4 == gpuprims.argmax(v, axis=0, ctx=ctx)
    with pytest.raises(ValueError, match="last axis"):
        gpuprims.argmax(np.zeros((2, 3)), axis=0, ctx=ctx)
    with pytest.raises(ValueError, match="rows of 0 elements"):
        gpuprims.argmin(np.zeros((3, 0)), axis=-1, ctx=ctx)


def test_argminmax_by_offsets(ctx):
    """offsets: the index within each segment, each segment's NumPy answer; the errors
    (an empty segment, a decrease, a negative offset, both axis and offsets)."""
    rng = np.random.default_rng(9)
    off = np.cumsum(np.r_[2, rng.integers(1, 40, 300), 70001, rng.integers(1, 5, 20)])
    for dt in DTYPES:
        a = rng.integers(0, 5, int(off[-1]) + 3).astype(dt)
        if np.dtype(dt).kind == "f":
            a[rng.integers(0, a.size, 50)] = np.nan
        for f, ref in ((gpuprims.argmax, np.argmax), (gpuprims.argmin, np.argmin)):
            got = f(a, offsets=off, ctx=ctx)
            want = [ref(a[b:e]) for b, e in zip(off[:-1], off[1:])]
            assert got.dtype == np.int64 and np.array_equal(got, want), (f.__name__, dt)
            assert np.array_equal(f(a, offsets=off.astype(np.uint64), ctx=ctx), want)
    x = np.arange(6.0)
    with pytest.raises(ValueError, match="segment 1 .* is empty"):
        gpuprims.argmax(x, offsets=np.array([0, 2, 2, 6]), ctx=ctx)
    with pytest.raises(ValueError, match="must not decrease"):
        gpuprims.argmin(x, offsets=np.array([0, 4, 3, 6]), ctx=ctx)
    with pytest.raises(ValueError, match="negative"):
        gpuprims.argmin(x, offsets=np.array([0, -1, 6]), ctx=ctx)
    with pytest.raises(ValueError, match="not both"):
        gpuprims.argmax(x, axis=-1, offsets=np.array([0, 6]), ctx=ctx)
    with pytest.raises(ValueError, match="1-d"):
        gpuprims.argmax(x.reshape(2, 3), offsets=np.array([0, 6]), ctx=ctx)


def test_argminmax_edge_cases(ctx):
    nan = np.nan
    for dt in (np.float32, np.float64):
        assert gpuprims.argmax(np.array([1, nan, 9, -nan], dt), ctx=ctx) == 1
        assert gpuprims.argmin(np.array([1, -9, -nan, nan], dt), ctx=ctx) == 2
        assert gpuprims.argmax(np.array([-0.0, 0.0], dt), ctx=ctx) == 0  # -0 == +0
        assert gpuprims.argmin(np.array([0.0, -0.0], dt), ctx=ctx) == 0
        assert gpuprims.argmin(np.array([np.inf, -np.inf, -np.inf], dt), ctx=ctx) == 1
    for dt in DTYPES:
        i = np.iinfo(dt) if np.dtype(dt).kind in "iu" else np.finfo(dt)
        a = np.array([3, i.max, 1, i.max, i.min, i.min], dt)
        assert (gpuprims.argmax(a, ctx=ctx), gpuprims.argmin(a, ctx=ctx)) == (1, 4)
        assert gpuprims.argmax(np.array([7], dt), ctx=ctx) == 0
    m = np.array([[4, 2], [2, 8]], np.uint32)  # flattened, as NumPy
    assert (gpuprims.argmin(m, ctx=ctx), gpuprims.argmax(m, ctx=ctx)) == (1, 3)
    big = np.zeros(100_003, np.int64)
    big[[70_001, 99_999]] = 5
    assert gpuprims.argmax(big, ctx=ctx) == 70_001
    assert gpuprims.argmin(-big, ctx=ctx) == 70_001


# ---- n-d arrays along the last axis ----------------------------------------------------
@pytest.mark.parametrize("shape", [(2, 3, 5), (4, 1, 2, 7), (3, 0, 4), (2, 3, 0), (1, 1, 1)])
def test_nd_along_last_axis(ctx, shape):
    """An n-d array reduces along its last axis into shape a.shape[:-1], each result the
    bits of its row alone, as the 2-d call of the same rows gives."""
    rng = np.random.default_rng(len(shape))
    for dt in (np.float32, np.float64, np.int32, np.uint64):
        a = (rng.standard_normal(shape) * 100).astype(dt)
        rows = a.reshape(int(np.prod(shape[:-1])), shape[-1])
        for op in OPS:
            f = getattr(gpuprims, op)
            got = f(a, axis=-1, ctx=ctx)
            assert got.shape == shape[:-1]
            want = f(rows, axis=-1, ctx=ctx).reshape(shape[:-1])
            assert got.dtype == want.dtype and np.array_equal(bits(got), bits(want)), (op, dt)
            if shape[-1] and op != "sum":  # NumPy's own along the last axis
                assert np.array_equal(bits(got), bits(getattr(np, op)(a, axis=-1)))
            assert np.array_equal(bits(f(a, axis=len(shape) - 1, ctx=ctx)), bits(got))


# ---- errors --------------------------------------------------------------------------
def test_errors(ctx):
    a = np.zeros((3, 4), np.float32)
    for bad in (0, 2, -2, (0, 1)):
        with pytest.raises(ValueError, match="along the last axis"):
            gpuprims.sum(a, axis=bad, ctx=ctx)
    with pytest.raises(ValueError, match="along the last axis"):
        gpuprims.max(np.zeros((2, 3, 4)), axis=1, ctx=ctx)
    with pytest.raises(ValueError, match="along the last axis"):
        gpuprims.max(np.zeros(()), axis=-1, ctx=ctx)
    with pytest.raises(ValueError, match="not both"):
        gpuprims.sum(a.ravel(), axis=-1, offsets=np.array([0, 12]), ctx=ctx)
    with pytest.raises(ValueError, match="algo='auto'"):
        gpuprims.sum(a, axis=-1, algo="two-phase", ctx=ctx)
    with pytest.raises(ValueError, match="algo='auto'"):
        gpuprims.min(a.ravel(), offsets=np.array([0, 12]), algo="sequential", ctx=ctx)
    with pytest.raises(ValueError, match="1-d"):
        gpuprims.sum(a, offsets=np.array([0, 12]), ctx=ctx)
    with pytest.raises(ValueError, match="C-contiguous"):
        gpuprims.sum(np.zeros((4, 6))[:, ::2], axis=-1, ctx=ctx)
    with pytest.raises(TypeError, match="float16"):
        gpuprims.max(a.astype(np.float16), axis=-1, ctx=ctx)

    x = np.arange(10.0)
    with pytest.raises(gpuprims.InvalidArgumentError, match="must not decrease"):
        gpuprims.sum(x, offsets=np.array([0, 5, 3, 10]), ctx=ctx)
    with pytest.raises(gpuprims.InvalidArgumentError, match="outside the array of 10"):
        gpuprims.sum(x, offsets=np.array([0, 5, 11], np.uint64), ctx=ctx)
    with pytest.raises(gpuprims.InvalidArgumentError, match=r"offsets\[1\] = -1 is negative"):
        gpuprims.min(x, offsets=np.array([0, -1]), ctx=ctx)
    with pytest.raises(gpuprims.InvalidArgumentError, match=r"offsets\[0\] = -3 is negative"):
        gpuprims.max(x, offsets=np.array([-3, 2, 10]), ctx=ctx)
    with pytest.raises(gpuprims.InvalidArgumentError, match=r"offsets\[2\] = -7 is negative"):
        gpuprims.sort(x.copy(), offsets=np.array([0, 2, -7, 10]), ctx=ctx)
    with pytest.raises(TypeError, match="int64 or uint64"):
        gpuprims.sum(x, offsets=np.array([0, 10], np.int32), ctx=ctx)
    with pytest.raises(ValueError, match="nseg \\+ 1 >= 1"):
        gpuprims.sum(x, offsets=np.zeros(0, np.uint64), ctx=ctx)
    with pytest.raises(ValueError, match="C-contiguous"):
        gpuprims.sum(x, offsets=np.arange(0, 12, dtype=np.int64)[::3], ctx=ctx)
    with pytest.raises(ValueError, match="C-contiguous"):
        gpuprims.sum(x[::2], offsets=np.array([0, 5]), ctx=ctx)

    with pytest.raises(gpuprims.InvalidArgumentError, match="argmax of n = 0"):
        gpuprims.argmax(np.zeros(0), ctx=ctx)
    with pytest.raises(ValueError, match="argmin of n = 0"):  # NumPy's error class too
        gpuprims.argmin(np.zeros((3, 0), np.int32), ctx=ctx)
    with pytest.raises(ValueError, match="C-contiguous"):
        gpuprims.argmax(x[::2], ctx=ctx)
    with pytest.raises(TypeError, match="list"):
        gpuprims.argmin([1, 2], ctx=ctx)


def test_cuda_array_interface_new_arrays_worded_for_every_call():
    # an object known only by __cuda_array_interface__: gpuprims cannot make its type,
    # and the error names the calls that need one (reductions along rows or offsets too)
    from gpuprims._arrays import _CudaArrayInterface
    with pytest.raises(TypeError, match="reductions along rows or offsets.*cupy.asarray"):
        _CudaArrayInterface().empty(None, (3,), 0)
    # sort() and argsort() make their result with empty_like: the same words
    from test_numpy import _FakeCAI
    for f in (gpuprims.sort, gpuprims.argsort):
        with pytest.raises(TypeError, match="cannot make a new array.*out=a"):
            f(_FakeCAI((5,), "<f4"))


def test_sort_offsets_past_the_end_raise(ctx):
    # the offsets check _api shares with sort: the library cannot see a's size
    a = np.arange(4, dtype=np.int32)
    with pytest.raises(gpuprims.InvalidArgumentError, match="outside the array of 4"):
        gpuprims.sort(a, offsets=np.array([0, 1_000_000], np.uint64), ctx=ctx)
