"""NumPy arrays on every backend here: each function against a NumPy reference, by
hypothesis over every dtype and order, plus the edge cases and errors."""
import math

import numpy as np
import pytest
from conftest import CONTEXTS, DTYPES, bits, each_backend, order_key, ref_argsort

import gpuprims
from gpuprims import _lib

hyp = pytest.importorskip("hypothesis")
from hypothesis import given, strategies as st  # noqa: E402
from hypothesis.extra import numpy as hnp  # noqa: E402


def elements(dtype, specials=True):
    """Values of dtype; floats include NaN (both signs), infinities and -0."""
    dt = np.dtype(dtype)
    if dt.kind == "f":
        if not specials:  # finite, with sums of a few thousand still finite
            big = float(np.float32(1e30)) if dt.itemsize == 4 else 1e300
            return st.floats(-big, big, width=8 * dt.itemsize, allow_subnormal=True)
        return st.floats(width=8 * dt.itemsize, allow_nan=True, allow_infinity=True,
                         allow_subnormal=True)
    return st.integers(np.iinfo(dt).min, np.iinfo(dt).max)


def arrays(dtype, max_n=600, specials=True, min_n=0):
    a = hnp.arrays(dtype, st.integers(min_n, max_n), elements=elements(dtype, specials))
    if np.dtype(dtype).kind == "f" and specials:
        # flip signs of some entries so -NaN shows up too
        return st.tuples(a, st.integers(0, 2 ** 31)).map(_negate_some)
    return a


def _negate_some(t):
    a, seed = t
    m = np.random.default_rng(seed).random(a.shape) < 0.3
    out = a.copy()
    out[m] = -out[m]
    return out


dtypes = st.sampled_from(DTYPES)


# ---- reductions ----------------------------------------------------------------------
def ref_sum(a):
    if a.dtype.kind in "iu":
        return int(np.sum(a, dtype=np.int64 if a.dtype.kind == "i" else np.uint64))
    return math.fsum(a.astype(np.float64).tolist())


@each_backend
@given(st.data())
def test_sum_matches_reference(backend, data):
    dt = data.draw(dtypes)
    a = data.draw(arrays(dt, specials=False))
    got = gpuprims.sum(a, ctx=CONTEXTS[backend])
    want = ref_sum(a)
    if a.dtype.kind in "iu":
        assert isinstance(got, int) and got == want
    else:
        assert isinstance(got, float)
        scale = math.fsum(abs(x) for x in a.astype(np.float64).tolist())
        ulp = 2.0 ** -24 if a.dtype == np.float32 else 2.0 ** -53
        assert abs(got - want) <= ulp * abs(want) + len(a) * 2.0 ** -53 * scale


def test_sum_of_infinities_and_nan(ctx):
    inf, nan = float("inf"), float("nan")
    for dt in (np.float32, np.float64):
        assert gpuprims.sum(np.array([1.0, inf, 2.0], dt), ctx=ctx) == inf
        assert math.isnan(gpuprims.sum(np.array([inf, -inf], dt), ctx=ctx))
        assert math.isnan(gpuprims.sum(np.array([0.0, nan], dt), ctx=ctx))
        assert gpuprims.sum(np.zeros(0, dt), ctx=ctx) == 0.0


def ref_extreme(a, op):
    if a.dtype.kind == "f" and np.isnan(a).any():
        return float("nan")
    k = order_key(a)
    return a[np.argmin(k) if op == "min" else np.argmax(k)]


@each_backend
@given(st.data(), st.sampled_from(["min", "max"]))
def test_min_max_match_reference(backend, data, op):
    dt = data.draw(dtypes)
    a = data.draw(arrays(dt, min_n=1))
    got = getattr(gpuprims, op)(a, ctx=CONTEXTS[backend])
    want = ref_extreme(a, op)
    if a.dtype.kind == "f":
        if math.isnan(want):
            assert math.isnan(got)
        else:  # same bits, so -0.0 and +0.0 are told apart
            assert np.float64(got).tobytes() == np.float64(want).tobytes()
    else:
        assert got == int(want)


def test_backends_agree_bit_for_bit(ctx):
    rng = np.random.default_rng(1)
    for dt in (np.float32, np.float64):
        for n in (0, 1, 33, 1025, 65537, 1 << 20):
            a = (rng.standard_normal(n) * 1e3).astype(dt)
            want = gpuprims.sum(a, ctx=CONTEXTS["cpu"])
            got = gpuprims.sum(a, ctx=ctx)
            assert np.float64(got).tobytes() == np.float64(want).tobytes(), (dt, n)


@pytest.mark.parametrize("algo", list(_lib.REDUCE_ALGOS))
def test_reduce_algos_int_exact(ctx, algo):
    a = np.random.default_rng(2).integers(-2 ** 31, 2 ** 31, 100_003).astype(np.int32)
    assert gpuprims.sum(a, algo=algo, ctx=ctx) == int(a.astype(np.int64).sum())
    assert gpuprims.max(a, algo=algo, ctx=ctx) == int(a.max())


def test_sum_widens_and_wraps(ctx):
    a = np.full(4, 2 ** 31 - 1, dtype=np.int32)
    assert gpuprims.sum(a, ctx=ctx) == 4 * (2 ** 31 - 1)
    u = np.full(3, 2 ** 63, dtype=np.uint64)
    assert gpuprims.sum(u, ctx=ctx) == (3 * 2 ** 63) % 2 ** 64


def test_keep_on_device_gives_0d_array(ctx):
    a = np.arange(10, dtype=np.int32)
    r = gpuprims.sum(a, keep_on_device=True, ctx=ctx)
    assert isinstance(r, np.ndarray) and r.shape == () and r.dtype == np.int64 and r == 45
    m = gpuprims.min(a.astype(np.float32), keep_on_device=True, ctx=ctx)
    assert m.dtype == np.float32 and m == 0.0


def test_reduce_2d_reduces_everything(ctx):
    a = np.arange(12, dtype=np.float64).reshape(3, 4)
    assert gpuprims.sum(a, ctx=ctx) == 66.0


# ---- sorts ---------------------------------------------------------------------------
@each_backend
@given(st.data(), st.booleans())
def test_sort_matches_reference(backend, data, descending):
    dt = data.draw(dtypes)
    a = data.draw(arrays(dt))
    got = gpuprims.sort(a, descending=descending, ctx=CONTEXTS[backend])
    want = a[ref_argsort(a, descending)]
    assert got.dtype == a.dtype and got.shape == a.shape
    assert np.array_equal(bits(got), bits(want))


@each_backend
@given(st.data(), st.booleans())
def test_argsort_is_stable_reference(backend, data, descending):
    dt = data.draw(dtypes)
    a = data.draw(arrays(dt))
    # few distinct values: stability decides most of the order
    a = a[np.random.default_rng(len(a)).integers(0, max(1, len(a) // 8 + 1), len(a))] \
        if len(a) else a
    a = np.ascontiguousarray(a)
    got = gpuprims.argsort(a, descending=descending, ctx=CONTEXTS[backend])
    assert got.dtype == np.int64
    assert np.array_equal(got, ref_argsort(a, descending))


@each_backend
@given(st.data(), st.booleans())
def test_sort_pairs_matches_stable_reference(backend, data, descending):
    kt, vt = data.draw(dtypes), data.draw(dtypes)
    k = data.draw(arrays(kt, max_n=300))
    v = data.draw(hnp.arrays(vt, len(k), elements=elements(vt)))
    sk, sv = gpuprims.sort_pairs(k, v, descending=descending, ctx=CONTEXTS[backend])
    p = ref_argsort(k, descending)
    assert np.array_equal(bits(sk), bits(k[p]))
    assert np.array_equal(bits(sv), bits(v[p]))


@each_backend
@given(st.data(), st.booleans())
def test_rows_sort_along_last_axis(backend, data, descending):
    dt = data.draw(dtypes)
    rows, cols = data.draw(st.integers(1, 12)), data.draw(st.integers(1, 70))
    a = data.draw(hnp.arrays(dt, (rows, cols), elements=elements(dt)))
    got = gpuprims.sort(a, descending=descending, ctx=CONTEXTS[backend])
    p = ref_argsort(a, descending)
    assert np.array_equal(bits(got), bits(np.take_along_axis(a, p, axis=-1)))
    if _lib.sort_pairs_segments_offsets is not None or rows == 1:
        idx = gpuprims.argsort(a, descending=descending, ctx=CONTEXTS[backend])
        assert np.array_equal(idx, p)


@pytest.mark.parametrize("algo", ["auto", "bitonic", "bitonic-seed"])
@pytest.mark.parametrize("n", [0, 1, 2, 31, 1023, 1025, 4096, 70001])
def test_sort_sizes_and_algos(ctx, algo, n):
    a = np.random.default_rng(n).standard_normal(n).astype(np.float32)
    got = gpuprims.sort(a, algo=algo, ctx=ctx)
    assert np.array_equal(got, np.sort(a))


def test_sort_in_place_with_out(ctx):
    a = np.array([5, -1, 3], dtype=np.int64)
    r = gpuprims.sort(a, out=a, ctx=ctx)
    assert r is a and a.tolist() == [-1, 3, 5]
    b = np.empty_like(a)
    src = np.array([2, 9, 1], dtype=np.int64)
    gpuprims.sort(src, descending=True, out=b, ctx=ctx)
    assert b.tolist() == [9, 2, 1] and src.tolist() == [2, 9, 1]


def test_sort_leaves_input_alone(ctx):
    a = np.array([3.0, 1.0, 2.0])
    gpuprims.sort(a, ctx=ctx)
    assert a.tolist() == [3.0, 1.0, 2.0]


def test_float_total_order(ctx):
    nan = np.float64("nan")
    a = np.array([1.0, -nan, 0.0, np.inf, -0.0, nan, -np.inf, -1.0])
    got = gpuprims.sort(a, ctx=ctx)
    assert np.signbit(got[0]) and np.isnan(got[0])
    assert got[1:7].tolist() == [-np.inf, -1.0, -0.0, 0.0, 1.0, np.inf]
    assert np.signbit(got[3]) and not np.signbit(got[4])
    assert np.isnan(got[7]) and not np.signbit(got[7])


def test_rows_argsort_and_pairs(ctx):
    a = np.array([[3, 1, 2], [0, 0, -1]], dtype=np.int32)
    if _lib.sort_pairs_segments_offsets is None:
        with pytest.raises(NotImplementedError, match="gp_sort_pairs_segments_offsets"):
            gpuprims.argsort(a, ctx=ctx)
        return
    assert gpuprims.argsort(a, ctx=ctx).tolist() == [[1, 2, 0], [2, 0, 1]]
    k, v = gpuprims.sort_pairs(a, a.astype(np.float64) * 10, ctx=ctx)
    assert k.tolist() == [[1, 2, 3], [-1, 0, 0]] and v.tolist() == [[10, 20, 30], [-10, 0, 0]]


@each_backend
@given(st.data(), st.booleans())
def test_segments_by_offsets(backend, data, descending):
    if _lib.sort_segments_offsets is None:
        with pytest.raises(NotImplementedError, match="gp_sort_segments_offsets"):
            gpuprims.sort(np.zeros(4, np.int32), offsets=np.array([0, 2, 4], np.uint64))
        return
    dt = data.draw(dtypes)
    a = data.draw(arrays(dt, max_n=300))
    cuts = sorted(data.draw(st.lists(st.integers(0, len(a)), max_size=6)))
    off = np.array([0] + cuts + [len(a)], dtype=np.uint64)
    got = gpuprims.sort(a, descending=descending, offsets=off, ctx=CONTEXTS[backend])
    want = a.copy()
    for lo, hi in zip(off[:-1], off[1:]):
        seg = a[int(lo):int(hi)]
        want[int(lo):int(hi)] = seg[ref_argsort(seg, descending)]
    assert np.array_equal(bits(got), bits(want))


# ---- integrate, models, context ----------------------------------------------------
def test_integrate_constant_bounds(ctx):
    r = gpuprims.integrate("sin(x)^2", 0, "pi", n=1 << 16, ctx=ctx)
    assert abs(r - math.pi / 2) < 1e-12
    r32 = gpuprims.integrate("x^2", "-1", 2.0, n=3000, precision="f32", ctx=ctx)
    assert abs(r32 - 3.0) < 1e-4


def test_integrate_matches_trapezoid_formula():
    n = 999
    x = np.linspace(0.5, 2.0, n + 1)
    f = np.exp(-x) * x
    want = (2.0 - 0.5) / n * (f[0] / 2 + f[1:-1].sum() + f[-1] / 2)
    got = gpuprims.integrate("exp(-x)*x", 0.5, 2, n=n, ctx=gpuprims.Context("cpu"))
    assert abs(got - want) <= 1e-13 * abs(want)


def test_models_return_dataclasses():
    from dataclasses import is_dataclass
    d_int = gpuprims.model.divergence("interleaved", block=256)
    d_seq = gpuprims.model.divergence("sequential", block=256)
    assert is_dataclass(d_int) and d_int.steps and d_int.steps[0].what
    # the chapter's point: interleaved addressing diverges, sequential does not until
    # fewer than 32 threads are active
    assert d_int.total.table.mixed_warps > d_seq.total.table.mixed_warps
    assert sum(s.issue_passes for s in d_int.steps if s.in_table) == \
        d_int.total.table.issue_passes
    b = gpuprims.model.banks("interleaved-strided", block=256)
    assert b.total.ld_conflicts > 0
    assert sum(x.conflicts for x in b.accesses if not x.is_store) == b.total.ld_conflicts
    assert gpuprims.model.bank_stride(1).degree_warp0 == 1
    assert gpuprims.model.bank_stride(32).degree_warp0 == 32
    s = gpuprims.model.span(1 << 20, 64, 256)
    assert s.work_combines == (1 << 20) - 1
    assert s.launch_boundaries == len(s.stages) - 1
    with pytest.raises(ValueError, match="algo must be one of"):
        gpuprims.model.divergence("nope")
    with pytest.raises(gpuprims.InvalidArgumentError, match="block"):
        gpuprims.model.divergence("sequential", block=3)


def test_context_and_defaults():
    c = gpuprims.Context("cpu")
    assert c.backend == "cpu" and c.device is None and c.info().threads >= 1
    with c:
        assert gpuprims.sum(np.ones(3, np.float32)) == 3.0
    assert "cpu" in gpuprims.version() or "cuda" in gpuprims.version()
    with pytest.raises(ValueError, match="backend"):
        gpuprims.Context("tpu")
    c.close()
    with pytest.raises(ValueError, match="closed"):
        gpuprims.sum(np.ones(3), ctx=c)


def test_default_context_is_per_thread():
    import threading
    seen = []
    t = threading.Thread(target=lambda: seen.append(gpuprims.default_context()))
    t.start()
    t.join()
    assert seen[0] is not gpuprims.default_context()


def test_threads_sum_with_their_own_contexts():
    # the per-call path keeps no state outside a thread's contexts: 4 threads summing
    # their own arrays at once each get their own sums, also inside a `with`
    import threading
    errors = []

    def work(k):
        a = np.full(1000 + k, k, np.int64)
        try:
            with gpuprims.Context("cpu"):
                for _ in range(300):
                    assert gpuprims.sum(a) == k * a.size
            for _ in range(300):
                assert gpuprims.max(a) == k and gpuprims.sum(a) == k * a.size
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)

    ts = [threading.Thread(target=work, args=(k,)) for k in range(1, 5)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert not errors


def test_numpy_data_pointer_is_numpys():
    # the data pointer read from the ndarray struct (or the buffer protocol) is the
    # one NumPy reports, for offset views and read-only arrays too
    from gpuprims._arrays import adapter_of
    ro = np.arange(6.0)
    ro.flags.writeable = False
    for a in (np.arange(7, dtype=np.int32), np.ones((3, 4))[1:], np.arange(9.0)[3:],
              ro, ro[2:], np.empty(0, np.uint64)):
        assert adapter_of(a).describe(a, False)[0] == a.ctypes.data
    assert gpuprims.sum(np.arange(10, dtype=np.int32)[4:]) == 39


# ---- errors ------------------------------------------------------------------------
def test_errors_are_typed_and_worded(ctx):
    with pytest.raises(gpuprims.InvalidArgumentError, match="n = 0"):
        gpuprims.min(np.array([], np.float32), ctx=ctx)
    with pytest.raises(gpuprims.ParseError, match="column"):
        gpuprims.integrate("sin(x", 0, 1, ctx=ctx)
    with pytest.raises(gpuprims.GpuprimsError):
        gpuprims.integrate("x", 0, 1, n=0, ctx=ctx)
    with pytest.raises(TypeError, match="int16"):
        gpuprims.sum(np.zeros(3, np.int16), ctx=ctx)
    with pytest.raises(TypeError, match=">f8"):
        gpuprims.sort(np.zeros(3, ">f8"), ctx=ctx)
    with pytest.raises(ValueError, match="C-contiguous"):
        gpuprims.sort(np.arange(10.0)[::2], ctx=ctx)
    with pytest.raises(ValueError, match="C-contiguous"):
        gpuprims.sort(np.zeros((3, 4), order="F"), ctx=ctx)
    ro = np.arange(4.0)
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        gpuprims.sort(ro, out=ro, ctx=ctx)
    ro0 = np.zeros(0)
    ro0.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):  # as NumPy's ro0.sort()
        gpuprims.sort(ro0, out=ro0, ctx=ctx)
    e = np.zeros(0)  # an empty writable array sorts in place (nothing to do)
    assert gpuprims.sort(e, out=e, ctx=ctx) is e
    with pytest.raises(TypeError, match="list"):
        gpuprims.sum([1, 2, 3], ctx=ctx)
    with pytest.raises(ValueError, match="algo"):
        gpuprims.sort(np.zeros(3), algo="quick", ctx=ctx)
    with pytest.raises(ValueError, match="0-d"):
        gpuprims.sort(np.ones(()), ctx=ctx)
    with pytest.raises(gpuprims.UnsupportedError, match="power-of-two"):
        gpuprims.sort_pairs(np.zeros(3), np.zeros(3), algo="bitonic-seed", ctx=ctx)


def test_failed_call_leaves_data(ctx):
    k, v = np.array([3.0, 1.0, 2.0]), np.array([1, 2, 3], np.int32)
    with pytest.raises(gpuprims.UnsupportedError):
        gpuprims.sort_pairs(k, v, algo="bitonic-seed", out=(k, v), ctx=ctx)
    assert k.tolist() == [3.0, 1.0, 2.0] and v.tolist() == [1, 2, 3]


@each_backend
@given(st.lists(st.integers(-9, 9), min_size=1, max_size=4),
       st.floats(-4, 4), st.floats(0.01, 4), st.integers(1, 3000),
       st.sampled_from(["f64", "f32"]))
def test_integrate_polynomials_match_trapezoid(backend, coefs, lo, width, n, precision):
    expr = "+".join("(%d)*x^%d" % (c, i) for i, c in enumerate(coefs))
    hi = lo + width
    x = np.linspace(lo, hi, n + 1)
    f = sum(c * x ** i for i, c in enumerate(coefs))
    want = (hi - lo) / n * (f[0] / 2 + f[1:-1].sum() + f[-1] / 2)
    got = gpuprims.integrate(expr, lo, hi, n=n, precision=precision,
                             ctx=CONTEXTS[backend])
    scale = (hi - lo) * max(1.0, float(np.abs(f).max()))
    tol = 1e-12 if precision == "f64" else 1e-5
    assert abs(got - want) <= tol * scale


@given(st.sampled_from(gpuprims.model.ALGOS), st.integers(5, 10))
def test_model_totals_are_the_sums_of_their_steps(algo, log_block):
    block = 1 << log_block
    d = gpuprims.model.divergence(algo, block=block)
    assert d.total.kernel.issue_passes == sum(s.issue_passes for s in d.steps)
    assert d.total.table.issue_passes == sum(s.issue_passes for s in d.steps if s.in_table)
    assert d.total.kernel.mixed_warps == sum(s.mixed_warps for s in d.steps)
    b = gpuprims.model.banks(algo, block=block)
    assert b.total.ld_conflicts == sum(a.conflicts for a in b.accesses if not a.is_store)
    assert b.total.st_conflicts == sum(a.conflicts for a in b.accesses if a.is_store)
    assert all(a.wavefronts == a.ideal + a.conflicts for a in b.accesses)


def test_sort_pairs_out_and_checks(ctx):
    k, v = np.array([3, 1, 2], np.uint32), np.array([30.0, 10.0, 20.0], np.float32)
    rk, rv = gpuprims.sort_pairs(k, v, out=(k, v), ctx=ctx)
    assert rk is k and rv is v and k.tolist() == [1, 2, 3] and v.tolist() == [10, 20, 30]
    with pytest.raises(TypeError, match="dtype"):
        gpuprims.sort_pairs(k, v, out=(k, np.empty(3, np.float64)), ctx=ctx)
    with pytest.raises(ValueError, match="shape"):
        gpuprims.sort_pairs(k, np.zeros(4, np.float32), ctx=ctx)
    with pytest.raises(TypeError, match="got list"):
        gpuprims.sort_pairs(k, [1.0, 2.0, 3.0], ctx=ctx)


class _FakeCAI:
    """An object that only advertises __cuda_array_interface__ (never dereferenced)."""

    def __init__(self, shape, typestr, strides=None):
        self.__cuda_array_interface__ = {"shape": shape, "typestr": typestr,
                                         "data": (0x1000, False), "strides": strides,
                                         "version": 3}


def test_cuda_array_interface_layouts():
    from gpuprims._arrays import _cai
    assert _cai(_FakeCAI((3, 4), "<f4"), "x")[:3] == (0x1000, 12, _lib.F32)
    assert _cai(_FakeCAI((3, 4), "<u8", (32, 8)), "x")[:3] == (0x1000, 12, _lib.U64)
    assert _cai(_FakeCAI((3, 1), "<i4", (4, 999)), "x")[1] == 3  # size-1 axis: any stride
    with pytest.raises(ValueError, match="C-contiguous"):
        _cai(_FakeCAI((3, 4), "<f4", (4, 12)), "x")  # Fortran order
    with pytest.raises(ValueError, match="C-contiguous"):
        _cai(_FakeCAI((6,), "<f8", (16,)), "x")  # every other element
    with pytest.raises(TypeError, match="<f2"):
        _cai(_FakeCAI((2,), "<f2"), "x")
    with pytest.raises(ValueError, match="the CPU backend"):
        gpuprims.sum(_FakeCAI((2,), "<f4"), ctx=CONTEXTS["cpu"])
