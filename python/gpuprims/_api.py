"""The NumPy-like functions: reductions (whole, by rows or by offsets), argmin/argmax,
sorts, argsort, pairs, segments, topk, integrate. Each one reads its arrays through an
adapter (no copies of inputs), picks the context for the arrays' device, sets the
caller's stream and makes one C call."""
from __future__ import annotations

import ctypes
import operator
from ctypes import c_int64, c_size_t, c_uint64, c_void_p
from typing import Optional, Tuple, Union

from . import _lib as L
from ._arrays import _bad_dtype, _by_type, _void_at, adapter_of
from .context import Context, context_for, default_context
from .errors import InvalidArgumentError

# gp_reduce_out_type: integer SUM widens (I32 -> I64, U32 -> U64)
_SUM_OUT = (L.F32, L.F64, L.I64, L.I64, L.U64, L.U64)
_REDUCE_ALGOS, _SORT_ALGOS = L.REDUCE_ALGOS, L.SORT_ALGOS
_SUM, _MIN, _MAX = L.SUM, L.MIN, L.MAX
# argument makers for the L.*_bare calls: from_param gives the object ctypes passes
# as is, 0.1 us less per call than c_void_p(p) and c_size_t(n), which it would convert
_ptr, _size = c_void_p.from_param, c_size_t.from_param
_PRECISIONS = {"f64": L.F64, "float64": L.F64, "f32": L.F32, "float32": L.F32}


def _prod(xs):
    p = 1
    for x in xs:
        p *= x
    return p


def _algo(table, algo):
    a = table.get(algo)
    if a is None:
        raise ValueError("algo must be one of %s; got %r" % (", ".join(table), algo))
    return a


def _host_numpy(ad, a):
    """The data pointer of a, as a bare call's argument, when a is a NumPy array that
    _Numpy.describe would take as it is (C-contiguous, aligned, writeable; not empty);
    else None. The checks and the read inline: each Python call saved is ~0.1 us."""
    off = ad.data_offset
    if off is not None and a.flags.carray and a.size:
        return _void_at(id(a) + off)
    return None


def _bare_call(c, fn, *args):
    """fn(c, *args) for an L.*_bare fn on host data: straight, or through c._call where
    the context is a CUDA one (which makes its GPU current first)."""
    if c._cu:
        c._call(fn, *args)
        return
    st = fn(c._hp, *args)
    if st:
        raise c._error(st)


def _reduce(op, a, algo, keep_on_device, ctx):
    # the per-call path of sum/min/max, kept flat: every call and lookup here costs
    # 30-100 ns against a C call of about 1 us (docs/perf/python.md)
    ad = _by_type.get(type(a)) or adapter_of(a)
    off = ad.data_offset
    if off is not None and a.flags.carray:
        # a NumPy array, C-contiguous, aligned and writeable: _Numpy.describe's checks
        # inline, and the pointer argument a c_void_p over the array's data pointer
        code = ad.codes.get(a.dtype)
        if code is None:
            raise _bad_dtype(a.dtype)
        p, n, dev, stream = _void_at(id(a) + off), a.size, None, None
    else:
        ptr, n, code, dev, stream = ad.describe(a, False)
        p = _ptr(ptr)
    c = ctx if ctx is not None else context_for(None, dev)
    # host data on an open context already on its host stream: nothing to prepare
    if dev is not None or c._stream != c._host_stream or c._h is None:
        c._prepare(dev, stream)
    alg = _REDUCE_ALGOS.get(algo)
    if alg is None:
        alg = _algo(_REDUCE_ALGOS, algo)
    out_code = _SUM_OUT[code] if op == _SUM else code
    if keep_on_device:
        out = ad.empty(a, (), out_code)
        optr, _, _, odev, _ = ad.describe(out, False)
        # both on the GPU: no pointer queries in the library (~1 us)
        fn = L.reduce_device_bare if dev is not None and odev is not None else L.reduce_bare
        c._call(fn, op, code, p, _size(n), _ptr(optr), alg)
        if ad.sync_after:
            c.synchronize()
        return out
    if c._cu:
        c._call(L.reduce_bare, op, code, p, _size(n), c._out, alg)
    else:
        st = L.reduce_bare(c._hp, op, code, p, _size(n), c._out, alg)
        if st:
            raise c._error(st)
    return c._views[out_code].value


def _reduce_along(op, a, algo, keep_on_device, ctx, axis, offsets):
    """sum/min/max with axis or offsets: one result per row or segment, a new array of
    a's type on a's device (asynchronous on the caller's stream when every array is on
    the GPU). A 1-d array with axis=0 or -1 is the whole-array reduction, as in NumPy;
    an n-d array (n >= 2) reduces along its last axis into shape a.shape[:-1]."""
    ad = adapter_of(a)
    ptr, n, code, dev, stream = ad.describe(a, False)
    shape = ad.shape(a)
    nd = len(shape)
    if offsets is None:
        if nd == 0 or axis not in (-1, nd - 1):
            raise ValueError("axis=%r with shape %s: gpuprims reduces the whole array "
                             "(axis=None) or along the last axis (axis=-1)" % (axis, shape))
        if nd == 1:
            return _reduce(op, a, algo, keep_on_device, ctx)
    elif axis is not None:
        raise ValueError("pass axis or offsets, not both")
    elif nd != 1:
        raise ValueError("offsets take a 1-d array (got shape %s)" % (shape,))
    if algo != "auto":
        raise ValueError("algo=%r: reductions by rows or offsets pick their own "
                         "algorithm (float sums correctly rounded); pass algo='auto'"
                         % (algo,))
    if offsets is None:
        nseg = _prod(shape[:-1])
        out_shape = tuple(shape[:-1])
    else:
        optr, nseg = _offsets_arg(offsets, dev, n)
        out_shape = (nseg,)
    out = ad.empty(a, out_shape, _SUM_OUT[code] if op == _SUM else code)
    c = context_for(ctx, dev)
    c._prepare(dev, stream)
    # out is new and contiguous: its pointer without describe's checks (JAX's arrays
    # have no ptr: describe it)
    out_ptr = _ptr(ad.describe(out, False)[0] if ad.sync_after else ad.ptr(out))
    if offsets is None:
        c._call(L.reduce_rows_bare, op, code, _ptr(ptr), _size(nseg), _size(shape[-1]),
                out_ptr)
    else:
        try:
            c._call(L.reduce_segments_offsets_bare, op, code, _ptr(ptr), _ptr(optr),
                    _size(nseg), out_ptr)
        except InvalidArgumentError:
            _negative_offsets(offsets)
            raise
    _finish(ad, c)
    return out


def sum(a, algo: str = "auto", keep_on_device: bool = False,
        ctx: Optional[Context] = None, *, axis: Optional[int] = None, offsets=None):
    """Sum of every element of `a` (any shape, C-contiguous).

    Returns a Python float or int; with keep_on_device=True a 0-d array of a's type on
    a's device, written asynchronously on the caller's stream. Integer sums widen to
    64 bits (int32 -> int64, uint32 -> uint64) and wrap modulo 2^64. Float sums with
    algo="auto" are correctly rounded (the exact sum of the elements, rounded once), so
    their bits never depend on the run, GPU or backend. algo: "auto", "interleaved", "sequential",
    "two-phase", "warp-atomic" (the seed kernels; "warp-atomic" floats vary by run).

    axis=-1 (an array of 2 or more dimensions): one result per row along the last axis;
    offsets (a 1-d array of nseg + 1 int64 or uint64 offsets, host memory or a's
    device): one per segment offsets[i]:offsets[i+1], as in sort(). Either returns a
    new array of shape a.shape[:-1] or (nseg,), of a's type on a's device and the dtype
    above, asynchronous on the caller's stream for GPU arrays; each element has the bits
    the whole-array call on its row or segment gives. An empty row or segment gives 0
    for sum and the identity for min and max (+inf / -inf, the dtype's max / min) where
    NumPy raises. algo must be "auto" there, and keep_on_device changes nothing (the
    result is on a's device).
    Host offsets are checked (not decreasing, within a); device offsets with device
    data are read by the GPU alone, unchecked. A 1-d array with axis=0 or -1 is the
    whole-array call, as in NumPy; any other axis, or both axis and offsets, raises
    ValueError.

    >>> import numpy as np, gpuprims
    >>> gpuprims.sum(np.arange(1, 101, dtype=np.int32))
    5050
    >>> gpuprims.sum(np.arange(6, dtype=np.int32).reshape(2, 3), axis=-1)
    array([ 3, 12])
    >>> gpuprims.sum(np.array([0.5, 1.0, 2.0, 4.0]), offsets=np.array([0, 1, 1, 4]))
    array([0.5, 0. , 7. ])
    """
    if axis is None and offsets is None:
        return _reduce(_SUM, a, algo, keep_on_device, ctx)
    return _reduce_along(_SUM, a, algo, keep_on_device, ctx, axis, offsets)


def min(a, algo: str = "auto", keep_on_device: bool = False,
        ctx: Optional[Context] = None, *, axis: Optional[int] = None, offsets=None):
    """Smallest element of `a` (NaN if any element is NaN; -0.0 below +0.0). An empty
    array raises InvalidArgumentError. axis and offsets as in sum().

    >>> import numpy as np, gpuprims
    >>> gpuprims.min(np.array([3.0, -1.5, 2.0]))
    -1.5
    >>> gpuprims.min(np.array([[3, 1], [-2, 5]], dtype=np.int32), axis=-1)
    array([ 1, -2], dtype=int32)
    """
    if axis is None and offsets is None:
        return _reduce(_MIN, a, algo, keep_on_device, ctx)
    return _reduce_along(_MIN, a, algo, keep_on_device, ctx, axis, offsets)


def max(a, algo: str = "auto", keep_on_device: bool = False,
        ctx: Optional[Context] = None, *, axis: Optional[int] = None, offsets=None):
    """Largest element of `a` (NaN if any element is NaN). axis and offsets as in
    sum().

    >>> import numpy as np, gpuprims
    >>> gpuprims.max(np.array([3, 9, 2], dtype=np.uint64))
    9
    >>> gpuprims.max(np.array([3.0, 1.0, 5.0]), offsets=np.array([0, 2, 2, 3]))
    array([  3., -inf,   5.])
    """
    if axis is None and offsets is None:
        return _reduce(_MAX, a, algo, keep_on_device, ctx)
    return _reduce_along(_MAX, a, algo, keep_on_device, ctx, axis, offsets)


def _argreduce(op, a, ctx) -> int:
    # kept flat as _reduce is: _host_numpy's checks and _bare_call's call inline (argmax
    # of 16 floats 1.5 -> 1.3 us; the same for sort and argsort measured within the noise)
    ad = _by_type.get(type(a)) or adapter_of(a)
    off = ad.data_offset
    if off is not None and a.flags.carray and a.size:
        # a NumPy array: the checks of describe, inline
        code = ad.codes.get(a.dtype)
        if code is None:
            raise _bad_dtype(a.dtype)
        p, n, dev, stream = _void_at(id(a) + off), a.size, None, None
    else:
        ptr, n, code, dev, stream = ad.describe(a, False)
        p = _ptr(ptr)
    c = ctx if ctx is not None else context_for(None, dev)
    if dev is not None or c._stream != c._host_stream or c._h is None:
        c._prepare(dev, stream)
    # the index only, into the context's 8-byte result slot; the call waits for it
    if c._cu:
        c._call(L.argreduce_bare, op, code, p, _size(n), None, c._out)
    else:
        st = L.argreduce_bare(c._hp, op, code, p, _size(n), None, c._out)
        if st:
            raise c._error(st)
    return c._views[L.U64].value


def _argreduce_along(op, a, ctx, axis, offsets):
    """argmin/argmax along the last axis (an int64 array of shape a.shape[:-1]) or by
    offsets (shape (nseg,)), on a's device: gp_argreduce_rows and
    gp_argreduce_segments_offsets (which copies device offsets to the host first)."""
    ad = adapter_of(a)
    ptr, n, code, dev, stream = ad.describe(a, False)
    shape = tuple(ad.shape(a))
    nd = len(shape)
    name = "argmin" if op == _MIN else "argmax"
    if offsets is not None:
        if axis is not None:
            raise ValueError("pass axis or offsets, not both")
        if nd != 1:
            raise ValueError("offsets take a 1-d array (got shape %s)" % (shape,))
    elif nd == 0 or axis not in (-1, nd - 1):
        raise ValueError("axis=%r with shape %s: %s takes axis=None (the flattened "
                         "array) or the last axis (axis=-1)" % (axis, shape, name))
    elif nd == 1:
        return _argreduce(op, a, ctx)
    c = context_for(ctx, dev)
    if offsets is None:
        rows = _prod(shape[:-1])
        idx = ad.empty(a, shape[:-1], L.I64)
    else:
        optr, rows = _offsets_arg(offsets, dev, n)
        idx = ad.empty(a, (rows,), L.I64)
    c._prepare(dev, stream)
    ip = _ptr(ad.describe(idx, False)[0] if ad.sync_after else ad.ptr(idx))
    if offsets is None and rows:
        c._call(L.argreduce_rows_bare, op, code, _ptr(ptr), _size(rows), _size(shape[-1]),
                None, ip)
    elif offsets is not None:
        try:
            c._call(L.argreduce_segments_offsets_bare, op, code, _ptr(ptr), _ptr(optr),
                    _size(rows), None, ip)
        except InvalidArgumentError:
            _negative_offsets(offsets)
            raise
    _finish(ad, c)
    return idx


def argmax(a, axis: Optional[int] = None, *, offsets=None, ctx: Optional[Context] = None):
    """Index of the first largest element of `a` (flattened, C-contiguous), like
    numpy.argmax(a): ties go to the lowest index, the first NaN wins, and -0.0 equals
    +0.0. A Python int; the call waits for it (on the caller's stream for GPU arrays).
    An empty array raises InvalidArgumentError (a ValueError, as NumPy raises).

    axis=-1 (an array of 2 or more dimensions): the index in each row along the last
    axis, an int64 array of shape a.shape[:-1], like numpy.argmax(a, axis=-1); offsets
    (a 1-d a, nseg + 1 int64 or uint64 offsets, as in sum()): the index within each
    segment offsets[i]:offsets[i+1], shape (nseg,); both on a's device (JAX needs
    jax_enable_x64 for the int64 result). Rows or segments of 0 elements raise
    InvalidArgumentError. Device offsets of a GPU array are copied to the host first
    (the library reads them there; the call waits for them). Other axes raise
    ValueError.

    >>> import numpy as np, gpuprims
    >>> gpuprims.argmax(np.array([1.0, 7.0, 3.0, 7.0]))
    1
    >>> gpuprims.argmax(np.array([1.0, np.nan, 9.0, np.nan]))
    1
    >>> gpuprims.argmax(np.array([[1, 7, 3], [9, 2, 9]], dtype=np.int32), axis=-1)
    array([1, 0])
    >>> gpuprims.argmax(np.array([1.0, 7.0, 3.0, 9.0, 2.0]), offsets=np.array([0, 3, 5]))
    array([1, 0])
    """
    if axis is None and offsets is None:
        return _argreduce(_MAX, a, ctx)
    return _argreduce_along(_MAX, a, ctx, axis, offsets)


def argmin(a, axis: Optional[int] = None, *, offsets=None, ctx: Optional[Context] = None):
    """Index of the first smallest element of `a` (flattened, C-contiguous), like
    numpy.argmin(a); the rules of argmax, axis=-1 and offsets included.

    >>> import numpy as np, gpuprims
    >>> gpuprims.argmin(np.array([[4, 2], [2, 8]], dtype=np.uint32))
    1
    >>> gpuprims.argmin(np.array([[4, 2], [2, 8]], dtype=np.uint32), axis=-1)
    array([1, 0])
    """
    if axis is None and offsets is None:
        return _argreduce(_MIN, a, ctx)
    return _argreduce_along(_MIN, a, ctx, axis, offsets)


def _same_kind(ad, ref, x, what, ad_x=None):
    """x must be the same framework, shape and device as ref."""
    if (ad_x or adapter_of(x)) is not ad:
        raise TypeError("%s must be a %s array like the keys" % (what, ad.name))
    if ad.shape(x) != ad.shape(ref):
        raise ValueError("%s has shape %s but the keys have %s"
                         % (what, ad.shape(x), ad.shape(ref)))


def _copy_into(ad, src, out, what):
    """out, holding a copy of src (nothing to copy when out is src)."""
    _same_kind(ad, src, out, what)
    if ad.describe(out, True)[2] != ad.describe(src, False)[2]:
        raise TypeError("%s must have the dtype of the array it receives" % what)
    if out is not src:
        out[...] = src
    return out


def _offsets_arg(offsets, dev, size):
    """(pointer, nseg) of offsets into an array of `size` elements on device dev."""
    ad = adapter_of(offsets)
    ptr, n, code, odev, _ = ad.describe(offsets, False)
    if code not in (L.I64, L.U64):
        raise TypeError("offsets must be int64 or uint64 (nseg + 1 of them, from 0 to n)")
    if odev is not None and odev != dev:
        raise ValueError("offsets are on cuda:%d but the array is not" % odev)
    if n < 1:
        raise ValueError("offsets needs nseg + 1 >= 1 entries (0, ..., n)")
    if odev is None:
        # the library checks host offsets for decreases but cannot know the array's
        # size: the last one must not pass it. It reads them as uint64: with the first
        # and the last in [0, size], offsets it finds not decreasing are all there too;
        # a negative int64 between them reaches it as a huge number, which it reports
        # as a decrease, and the caller names it then (_negative_offsets). Device
        # offsets are not read here (that would wait for the GPU): the caller vouches
        # for them.
        word = c_int64 if code == L.I64 else c_uint64
        first = word.from_address(ptr).value
        end = word.from_address(ptr + 8 * (n - 1)).value
        if first < 0 or end < 0:
            i, v = (0, first) if first < 0 else (n - 1, end)
            raise InvalidArgumentError("offsets[%d] = %d is negative" % (i, v))
        if end > size:
            raise InvalidArgumentError("offsets[%d] = %d is outside the array of %d "
                                       "elements" % (n - 1, end, size))
    return ptr, n - 1


def _negative_offsets(offsets):
    """After the library refused host offsets: raises InvalidArgumentError naming the
    first negative one, if any (the library read it as a huge uint64)."""
    ad = adapter_of(offsets)
    ptr, n, code, odev, _ = ad.describe(offsets, False)
    if odev is not None or code != L.I64:
        return
    import numpy
    o = numpy.ctypeslib.as_array((c_int64 * n).from_address(ptr))
    if o.min() < 0:
        i = int(numpy.argmax(o < 0))
        raise InvalidArgumentError("offsets[%d] = %d is negative" % (i, o[i]))


def _sort_in_place(ad, x, descending, algo, offsets, ctx, values=None, mine=False):
    """Sorts x (and values with it) in place along the last axis, or by offsets.
    mine: x and values are new arrays of this call (JAX's too), not the caller's."""
    ptr, n, code, dev, stream = ad.describe(x, not mine)
    vptr = vcode = None
    if values is not None:
        vptr, _, vcode, _, _ = ad.describe(values, not mine)
    c = context_for(ctx, dev)
    c._prepare(dev, stream)
    order = L.DESCENDING if descending else L.ASCENDING
    alg = _algo(L.SORT_ALGOS, algo)
    shape = ad.shape(x)
    if not shape:
        raise ValueError("a 0-d array has no axis to sort along")
    if offsets is not None and len(shape) != 1:
        raise ValueError("offsets take a 1-d array of keys (got shape %s)" % (shape,))
    if offsets is None and len(shape) > 1 and shape[-1] != n and n > 0:
        if alg != 0:
            raise ValueError("algo=%r applies to one sort; rows sort with the segmented "
                             "sort, which picks its own algorithm" % algo)
        if values is None:
            c._call(L.sort_segments, code, ptr, n, shape[-1], order)
            _finish(ad, c)
            return
        offsets = ad.offsets(x, n // shape[-1], shape[-1])
    if offsets is not None:
        optr, nseg = _offsets_arg(offsets, dev, n)
        fn = L.sort_segments_offsets if values is None else L.sort_pairs_segments_offsets
        try:
            if values is None:
                c._call(fn, code, ptr, optr, nseg, order)
            else:
                c._call(fn, code, ptr, vcode, vptr, optr, nseg, order)
        except InvalidArgumentError:
            _negative_offsets(offsets)
            raise
    elif values is None:
        c._call(L.sort_bare, code, _ptr(ptr), _size(n), order, alg)
    else:
        c._call(L.sort_pairs, code, ptr, vcode, vptr, n, order, alg)
    _finish(ad, c)


def _finish(ad, c):
    if ad.sync_after:
        c.synchronize()


def sort(a, descending: bool = False, algo: str = "auto", *, offsets=None, out=None,
         ctx: Optional[Context] = None):
    """A sorted copy of `a`, like np.sort: along the last axis (each row of a 2-d array
    sorts on its own), or each segment offsets[i]:offsets[i+1] of a 1-d array.

    out: an array of a's type, shape and dtype to write into; out=a sorts in place
    (the NumPy-like in-place form; JAX arrays are immutable and take no out).
    Floats sort in a total order: -NaN < -inf < ... < -0.0 < +0.0 < ... < +inf < +NaN.
    algo: "auto", "bitonic", "bitonic-seed" or "radix".

    >>> import numpy as np, gpuprims
    >>> gpuprims.sort(np.array([3, 1, 2], dtype=np.int32), descending=True)
    array([3, 2, 1], dtype=int32)
    >>> gpuprims.sort(np.array([[2.0, 1.0], [0.5, -1.0]]))
    array([[ 1. ,  2. ],
           [-1. ,  0.5]])
    """
    ad = _by_type.get(type(a)) or adapter_of(a)
    if out is None and offsets is None:
        p = _host_numpy(ad, a)
        if p is not None and a.ndim == 1:  # a NumPy vector: the path below, inline
            code = ad.codes.get(a.dtype)
            if code is None:
                raise _bad_dtype(a.dtype)
            alg = _SORT_ALGOS.get(algo)
            if alg is None:
                alg = _algo(_SORT_ALGOS, algo)
            x = ad.np.empty(a.shape, a.dtype)
            c = ctx if ctx is not None else context_for(None, None)
            if c._stream != c._host_stream or c._h is None:
                c._prepare(None, None)
            _bare_call(c, L.sort_copy_bare, code, p, _void_at(id(x) + ad.data_offset),
                       _size(a.size), L.DESCENDING if descending else L.ASCENDING, alg)
            return x
    ptr, n, code, dev, stream = ad.describe(a, False)
    if out is None and offsets is None and not ad.sync_after:
        shape = ad.shape(a)
        if shape and shape[-1] == n:
            # one sort into a new array: gp_sort_copy reads a and writes it (no copy of
            # a first, one launch on the GPU where the whole-GPU rank sort takes n)
            alg = _SORT_ALGOS.get(algo)
            if alg is None:
                alg = _algo(_SORT_ALGOS, algo)
            x = ad.empty_like(a)
            c = context_for(ctx, dev)
            c._prepare(dev, stream)
            c._call(L.sort_copy_bare, code, _ptr(ptr), _ptr(ad.ptr(x)), _size(n),
                    L.DESCENDING if descending else L.ASCENDING, alg)
            return x
    if out is None:
        x = ad.copy(a)
    else:
        x = _copy_into(ad, a, out, "out")
    _sort_in_place(ad, x, descending, algo, offsets, ctx, mine=out is None)
    return x


def sort_pairs(keys, values, descending: bool = False, algo: str = "auto", *,
               offsets=None, out: Optional[Tuple] = None, ctx: Optional[Context] = None):
    """(sorted keys, values in the keys' order): a stable sort, so equal keys keep
    their values' input order. Along the last axis, or by offsets, as sort().
    out=(k, v) writes there; out=(keys, values) sorts both in place.

    >>> import numpy as np, gpuprims
    >>> gpuprims.sort_pairs(np.array([2, 1, 2, 0], dtype=np.int32),
    ...                     np.array([10., 20., 30., 40.]))
    (array([0, 1, 2, 2], dtype=int32), array([40., 20., 10., 30.]))
    """
    ad = adapter_of(keys)
    ad.describe(keys, False)
    vad = adapter_of(values)
    _same_kind(ad, keys, values, "values", vad)
    vad.describe(values, False)
    if out is None:
        k, v = ad.copy(keys), ad.copy(values)
    else:
        k = _copy_into(ad, keys, out[0], "out[0]")
        v = _copy_into(ad, values, out[1], "out[1]")
    _sort_in_place(ad, k, descending, algo, offsets, ctx, values=v, mine=out is None)
    return k, v


def argsort(a, descending: bool = False, stable: bool = True, *,
            ctx: Optional[Context] = None):
    """Indices that sort `a` along the last axis (int64; int32 for JAX without x64).
    Always stable: equal keys keep their input order, ascending or descending (the
    argument is accepted for NumPy/PyTorch compatibility).

    >>> import numpy as np, gpuprims
    >>> gpuprims.argsort(np.array([3.0, 1.0, 2.0, 1.0]))
    array([1, 3, 2, 0])
    """
    ad = _by_type.get(type(a)) or adapter_of(a)
    p = _host_numpy(ad, a)
    if p is not None and a.ndim == 1:  # a NumPy vector: the one-sort path below, inline
        code = ad.codes.get(a.dtype)
        if code is None:
            raise _bad_dtype(a.dtype)
        idx = ad.np.empty(a.shape, ad.np.int64)
        c = ctx if ctx is not None else context_for(None, None)
        if c._stream != c._host_stream or c._h is None:
            c._prepare(None, None)
        _bare_call(c, L.argsort_bare, code, p, L.U64, _void_at(id(idx) + ad.data_offset),
                   _size(a.size), L.DESCENDING if descending else L.ASCENDING)
        return idx
    ptr, n, code, dev, stream = ad.describe(a, False)
    shape = ad.shape(a)
    if not shape:
        raise ValueError("a 0-d array has no axis to sort along")
    icode = ad.index_code
    one_sort = len(shape) == 1 or shape[-1] == n
    if one_sort:
        if ad.sync_after:  # JAX: its own way to a new device array
            idx = ad.empty(a, shape, icode)
            iptr = ad.describe(idx, False)[0]
        else:
            idx = ad.empty_like(a, icode)
            iptr = ad.ptr(idx)
        c = context_for(ctx, dev)
        c._prepare(dev, stream)
        c._call(L.argsort_bare, code, _ptr(ptr), L.U64 if icode == L.I64 else L.U32,
                _ptr(iptr), _size(n), L.DESCENDING if descending else L.ASCENDING)
        _finish(ad, c)
        return idx
    # the stable pair sort of (a copy of the keys, 0 1 2 ...) moves the indices along
    keys, idx = ad.copy(a), ad.iota(a, shape, icode)
    _sort_in_place(ad, keys, descending, "auto", None, ctx, values=idx, mine=True)
    return idx


def topk(a, k: int, largest: bool = True, *, ctx: Optional[Context] = None):
    """(values, indices) of the k largest elements of `a` (largest=False: the k
    smallest), in that order, like torch.topk(a, k, largest=largest): of the whole array
    when `a` is 1-d, of each row (along the last axis) when it has more dimensions. Ties
    go to the lower index, so the result is deterministic (torch leaves ties
    unspecified). Floats follow the sort's total order: -NaN < -inf < ... < -0.0 < +0.0
    < ... < +inf < +NaN. values: a's type and dtype on a's device, shape a.shape[:-1] +
    (k,); indices: int64 positions in a or in the row (JAX needs jax_enable_x64).
    1 <= k <= a.shape[-1]. Rows of GPU arrays with k <= 128 are written asynchronously
    on the caller's stream; other calls wait for their result.

    >>> import numpy as np, gpuprims
    >>> gpuprims.topk(np.array([3, 1, 4, 1, 5], dtype=np.int32), 2)
    (array([5, 4], dtype=int32), array([4, 2]))
    >>> gpuprims.topk(np.array([2.0, 1.0, 2.0, 0.5]), 3, largest=False)
    (array([0.5, 1. , 2. ]), array([3, 1, 0]))
    >>> gpuprims.topk(np.array([[3, 9, 1], [9, -1, -1]], dtype=np.int32), 2)
    (array([[ 9,  3],
           [ 9, -1]], dtype=int32), array([[1, 0],
           [0, 1]]))
    """
    ad = _by_type.get(type(a)) or adapter_of(a)
    p = _host_numpy(ad, a)
    if p is not None and a.ndim == 1 and type(k) is int and 1 <= k <= a.size:
        # a NumPy vector: the path below, inline (1 us less a call of 64 elements)
        code = ad.codes.get(a.dtype)
        if code is None:
            raise _bad_dtype(a.dtype)
        np_, off = ad.np, ad.data_offset
        values, idx = np_.empty(k, a.dtype), np_.empty(k, np_.int64)
        c = ctx if ctx is not None else context_for(None, None)
        if c._stream != c._host_stream or c._h is None:
            c._prepare(None, None)
        _bare_call(c, L.topk_bare, code, p, _size(a.size), _size(k),
                   L.DESCENDING if largest else L.ASCENDING, _void_at(id(values) + off),
                   _void_at(id(idx) + off))
        return values, idx
    ptr, n, code, dev, stream = ad.describe(a, False)
    shape = tuple(ad.shape(a))
    if not shape:
        raise ValueError("topk takes an array of at least one dimension (got a scalar)")
    k = operator.index(k)
    cols = shape[-1]
    if not 1 <= k <= cols:
        raise InvalidArgumentError("k = %d with %s = %d: pass 1 <= k <= %s"
                                   % (k, "n" if len(shape) == 1 else "cols", cols,
                                      "n" if len(shape) == 1 else "cols"))
    rows = n // cols  # cols >= k >= 1
    values, idx = ad.empty(a, shape[:-1] + (k,), code), ad.empty(a, shape[:-1] + (k,), L.I64)
    c = context_for(ctx, dev)
    c._prepare(dev, stream)
    order = L.DESCENDING if largest else L.ASCENDING
    # new contiguous arrays: their pointers without describe's checks (JAX's have none)
    if ad.sync_after:
        vp, ip = ad.describe(values, False)[0], ad.describe(idx, False)[0]
    else:
        vp, ip = ad.ptr(values), ad.ptr(idx)
    if len(shape) == 1:
        c._call(L.topk_bare, code, _ptr(ptr), _size(n), _size(k), order, _ptr(vp), _ptr(ip))
    elif rows:
        c._call(L.topk_rows_bare, code, _ptr(ptr), _size(rows), _size(cols), _size(k),
                order, _ptr(vp), _ptr(ip))
    _finish(ad, c)
    return values, idx


def integrate(expr: str, a: Union[float, str], b: Union[float, str], n: int = 2 ** 24,
              precision: str = "f64", ctx: Optional[Context] = None) -> float:
    """Integral of expr(x) over [a, b] by the trapezoidal rule with n trapezoids.

    expr uses x, numbers, + - * / ^, pi, e and sin cos tan exp log sqrt abs floor ceil
    pow min max. a and b may be numbers or constant expressions ("pi/2"). precision:
    "f64", or "f32" (x and f in float, sums in double). Deterministic; on CUDA a new
    expression runs at once in an interpreted kernel and is compiled (NVRTC) once the
    points evaluated make that pay, with the same bits either way (GPUPRIMS_JIT).

    >>> import gpuprims
    >>> round(gpuprims.integrate("sin(x)^2", 0, "pi", n=1000), 12)
    1.570796326795
    """
    c = context_for(ctx, None)
    p = _PRECISIONS.get(precision)
    if p is None:
        raise ValueError("precision must be 'f64' or 'f32'; got %r" % (precision,))
    c._prepare(None, None)
    lo, hi = _bound(c, a), _bound(c, b)
    r = ctypes.c_double()
    c._call(L.integrate_ex, expr.encode(), lo, hi, int(n), p, ctypes.byref(r))
    return r.value


def _bound(c, v) -> float:
    if isinstance(v, str):
        r = ctypes.c_double()
        c._call(L.expr_value, v.encode(), 0.0, ctypes.byref(r))
        return r.value
    return float(v)


def version() -> str:
    """The library's version and the backends compiled in, e.g. "0.1.0 (cuda + cpu)"."""
    return L.version().decode()


def device_info(ctx: Optional[Context] = None):
    """What the default (or given) context runs on."""
    return (ctx or default_context(None)).info()
