"""Array adapters: how gpuprims reads the pointer, size, dtype, device and stream of a
NumPy, PyTorch, CuPy or JAX array (or any object with __cuda_array_interface__ v3),
and how it makes a new array of the caller's type on the caller's device. Nothing here
copies an input: a layout the library cannot take is an error."""
from __future__ import annotations

import sys
from ctypes import addressof, c_char, c_void_p

from . import _cuda
from . import _lib as L

DTYPE_NAMES = ("float32", "float64", "int32", "int64", "uint32", "uint64")
_char_from_buffer = c_char.from_buffer
_void_at = c_void_p.from_address
_TYPESTRS = {"<f4": L.F32, "<f8": L.F64, "<i4": L.I32, "<i8": L.I64, "<u4": L.U32,
             "<u8": L.U64}


def _bad_dtype(dt) -> TypeError:
    return TypeError("gpuprims takes float32, float64, int32, int64, uint32 and uint64 "
                     "arrays (native byte order); got dtype %s: convert it first, e.g. "
                     "a.astype('float32')" % (dt,))


def _ndarray_data_offset(np):
    """Where an ndarray's data pointer sits in its C struct (PyArrayObject_fields:
    PyObject_HEAD, then `char *data`, the field NumPy's PyArray_DATA reads in every
    compiled extension), checked against NumPy's own answer on two arrays; None where
    it cannot be (not CPython, whose id() is the object's address) or does not match."""
    if sys.implementation.name != "cpython":
        return None
    off = object.__basicsize__
    for probe in (np.arange(3.0), np.ones((4, 2), np.int32)[1:]):
        if _void_at(id(probe) + off).value != probe.ctypes.data:
            return None
    return off


def _not_contiguous(kind: str) -> ValueError:
    return ValueError("the %s array is not C-contiguous; gpuprims never copies its "
                      "inputs behind your back: pass a contiguous array (e.g. "
                      "a.copy() / a.contiguous())" % kind)


class _Adapter:
    """What every adapter has: name (for messages), sync_after (wait for the context
    after a call), index_code (argsort's index dtype), data_offset (see _Numpy), and
    describe(a, write) -> (data pointer, elements, gp_dtype code, CUDA device or None,
    stream or None), which checks the layout; shape/copy/empty/empty_like/iota/offsets
    make arrays of the adapter's type, and ptr(x) is the data pointer of one it made
    (contiguous by construction: no checks)."""
    sync_after = False
    index_code = L.I64
    data_offset = None


class _Numpy(_Adapter):
    name = "numpy"

    def __init__(self):
        import numpy as np
        self.np = np
        self.dtypes = (np.float32, np.float64, np.int32, np.int64, np.uint32, np.uint64)
        self.codes = {np.dtype(t): i for i, t in enumerate(self.dtypes)}
        # where the data pointer sits in an ndarray (None: use the buffer protocol);
        # _api reads it inline for the common case, one Python call less
        self.data_offset = _ndarray_data_offset(np)

    def describe(self, a, write):
        code = self.codes.get(a.dtype)
        if code is None:
            raise _bad_dtype(a.dtype)
        n = a.size
        if n and a.flags.carray:  # C-contiguous, aligned and writeable: one flag
            # the data pointer read from the array's struct: 0.15 us, where the
            # buffer protocol (c_char.from_buffer) takes 0.45 us and a.ctypes.data or
            # a.__array_interface__ 1.8 us (NumPy 2.4, CPython 3.11, 2-core x86-64)
            off = self.data_offset
            if off is not None:
                return _void_at(id(a) + off).value, n, code, None, None
            return addressof(_char_from_buffer(a)), n, code, None, None
        flags = a.flags
        if not flags.c_contiguous:
            raise _not_contiguous("NumPy")
        if flags.writeable and n:  # C-contiguous and writeable, but not aligned
            return addressof(_char_from_buffer(a)), n, code, None, None
        if write and not flags.writeable:
            raise ValueError("the NumPy array is read-only; it cannot be sorted in place")
        return a.ctypes.data, n, code, None, None

    def shape(self, a):
        return a.shape

    def copy(self, a):
        return a.copy()

    def empty(self, like, shape, code):
        return self.np.empty(shape, self.dtypes[code])

    def empty_like(self, like, code=None):
        """A new C-contiguous array of like's shape (and dtype, or gp_dtype code's)."""
        return self.np.empty(like.shape, like.dtype if code is None else self.dtypes[code])

    def ptr(self, x):
        off = self.data_offset
        return _void_at(id(x) + off).value if off is not None else x.ctypes.data

    def iota(self, like, shape, code):
        """0, 1, ..., shape[-1]-1 along the last axis of a new array."""
        r = self.np.arange(shape[-1], dtype=self.dtypes[code])
        return self.np.broadcast_to(r, shape).copy()

    def offsets(self, like, rows, cols):
        return self.np.arange(0, rows * cols + 1, cols, dtype=self.np.uint64)


class _Torch(_Adapter):
    name = "torch"

    def __init__(self):
        import torch
        self.torch = torch
        u32, u64 = getattr(torch, "uint32", None), getattr(torch, "uint64", None)
        self.dtypes = (torch.float32, torch.float64, torch.int32, torch.int64, u32, u64)
        self.codes = {t: i for i, t in enumerate(self.dtypes) if t is not None}
        raw = getattr(torch._C, "_cuda_getCurrentRawStream", None)
        self.stream = raw if raw is not None else (
            lambda dev: torch.cuda.current_stream(dev).cuda_stream)

    def describe(self, t, write):
        code = self.codes.get(t.dtype)
        if code is None:
            raise _bad_dtype(t.dtype)
        if not t.is_contiguous():
            raise _not_contiguous("PyTorch")
        if write and t.requires_grad:
            raise ValueError("the tensor requires grad; autograd cannot follow an "
                             "in-place sort: use gpuprims.sort(t), or t.detach()")
        if t.is_cuda:
            dev = t.get_device()
            return t.data_ptr(), t.numel(), code, dev, self.stream(dev)
        if t.device.type != "cpu":
            raise ValueError("the tensor is on %s; gpuprims takes CUDA and CPU tensors"
                             % t.device)
        return t.data_ptr(), t.numel(), code, None, None

    def shape(self, t):
        return tuple(t.shape)

    def copy(self, t):
        return t.detach().clone()

    def _dtype(self, code):
        dt = self.dtypes[code]
        if dt is None:
            raise TypeError("this PyTorch has no %s dtype (it came in torch 2.3)"
                            % DTYPE_NAMES[code])
        return dt

    def empty(self, like, shape, code):
        # new_empty takes like's device without a torch.device made for the call
        return like.new_empty(shape, dtype=self._dtype(code))

    def empty_like(self, like, code=None):
        # like is contiguous (describe checked it), so empty_like's layout is too;
        # 2-3 us less than empty(shape, device=like.device) on the H200 host (s27-c)
        if code is None:
            return self.torch.empty_like(like)
        return self.torch.empty_like(like, dtype=self._dtype(code))

    def ptr(self, x):
        return x.data_ptr()

    def iota(self, like, shape, code):
        r = self.torch.arange(shape[-1], dtype=self._dtype(code), device=like.device)
        return r.expand(shape).contiguous()

    def offsets(self, like, rows, cols):
        # int64 holds the same bits as the uint64 offsets the library reads
        return self.torch.arange(0, rows * cols + 1, cols, dtype=self.torch.int64,
                                 device=like.device)


class _Cupy(_Adapter):
    name = "cupy"

    def __init__(self):
        import cupy
        import numpy as np
        self.cp = cupy
        self.dtypes = (np.float32, np.float64, np.int32, np.int64, np.uint32, np.uint64)
        self.codes = {np.dtype(t): i for i, t in enumerate(self.dtypes)}

    def describe(self, c, write):
        code = self.codes.get(c.dtype)
        if code is None:
            raise _bad_dtype(c.dtype)
        if not c.flags.c_contiguous:
            raise _not_contiguous("CuPy")
        dev = c.device.id
        return c.data.ptr, c.size, code, dev, self.cp.cuda.get_current_stream(dev).ptr

    def shape(self, c):
        return c.shape

    def copy(self, c):
        with c.device:
            return c.copy()

    def empty(self, like, shape, code):
        with like.device:
            return self.cp.empty(shape, self.dtypes[code])

    def empty_like(self, like, code=None):
        with like.device:
            return self.cp.empty(like.shape, like.dtype if code is None else self.dtypes[code])

    def ptr(self, x):
        return x.data.ptr

    def iota(self, like, shape, code):
        with like.device:
            r = self.cp.arange(shape[-1], dtype=self.dtypes[code])
            return self.cp.broadcast_to(r, shape).copy()

    def offsets(self, like, rows, cols):
        with like.device:
            return self.cp.arange(0, rows * cols + 1, cols, dtype=self.cp.uint64)


def _cai(obj, kind):
    """(ptr, n, code, readonly) from a __cuda_array_interface__ (v2 or v3)."""
    cai = obj.__cuda_array_interface__
    code = _TYPESTRS.get(cai["typestr"])
    if code is None:
        raise _bad_dtype(cai["typestr"])
    shape = cai["shape"]
    n = 1
    for d in shape:
        n *= d
    strides = cai.get("strides")
    if strides is not None and n > 1:
        want, expect = [], 4 if code in (L.F32, L.I32, L.U32) else 8
        for d in reversed(shape):
            want.append(expect)
            expect *= d
        if tuple(s for s, d in zip(strides, shape) if d > 1) != tuple(
                w for w, d in zip(reversed(want), shape) if d > 1):
            raise _not_contiguous(kind)
    return cai["data"][0], n, code, cai["data"][1], cai.get("stream")


class _Jax(_Adapter):
    """JAX arrays on one GPU. Their buffers are immutable to JAX, so results are new
    arrays: gpuprims fills a fresh buffer through __cuda_array_interface__ and waits
    for it (JAX's streams do not order with the library's), so JAX calls are
    synchronous."""
    name = "jax"
    sync_after = True

    def __init__(self):
        import jax
        import jax.numpy as jnp
        import numpy as np
        self.jax, self.jnp, self.np = jax, jnp, np
        self.dtypes = (np.float32, np.float64, np.int32, np.int64, np.uint32, np.uint64)

    @property
    def index_code(self):
        return L.I64 if getattr(self.jax.config, "jax_enable_x64", False) else L.I32

    def _device(self, a):
        devs = a.devices()
        if len(devs) != 1:
            raise ValueError("the JAX array is sharded over %d devices; pass a "
                             "single-device array" % len(devs))
        d = next(iter(devs))
        if d.platform != "gpu":
            raise TypeError("the JAX array is on %s; gpuprims takes JAX arrays on a CUDA "
                            "GPU (for host data pass np.asarray(x))" % d.platform)
        return d

    def describe(self, a, write):
        if write:
            raise TypeError("JAX arrays are immutable: use gpuprims.sort(x), which "
                            "returns a new array")
        d = self._device(a)
        a.block_until_ready()
        if hasattr(a, "__cuda_array_interface__"):
            ptr, n, code, _, _ = _cai(a, "JAX")
        else:  # JAX versions without it: the buffer's address through DLPack
            ptr, n, code = self._dlpack(a)
        return ptr, n, code, getattr(d, "local_hardware_id", d.id), 0

    def _dlpack(self, a):
        """(ptr, n, code) of a's buffer, read by CuPy or PyTorch from a's DLPack
        capsule (zero-copy; the buffer stays a's)."""
        for name in ("cupy", "torch"):
            try:
                mod = __import__(name)
            except ImportError:
                continue
            view = mod.from_dlpack(a)
            ptr, n, code, _, _ = adapter_of(view).describe(view, False)
            return ptr, n, code
        raise TypeError("this JAX array has no __cuda_array_interface__; gpuprims then "
                        "reads it through DLPack, which needs CuPy or PyTorch installed")

    def shape(self, a):
        return tuple(a.shape)

    def copy(self, a):
        return self.jnp.array(a, copy=True)

    def _put(self, like, x):
        out = self.jax.device_put(x, self._device(like))
        if out.dtype != x.dtype:
            raise TypeError("JAX made %s of %s (enable jax_enable_x64 for 64-bit results)"
                            % (out.dtype, x.dtype))
        return out

    def empty(self, like, shape, code):
        return self._put(like, self.np.zeros(shape, self.dtypes[code]))

    def iota(self, like, shape, code):
        r = self.np.arange(shape[-1], dtype=self.dtypes[code])
        return self._put(like, self.np.broadcast_to(r, shape).copy())

    def offsets(self, like, rows, cols):
        # host memory: the library reads it there (JAX without x64 has no uint64)
        return self.np.arange(0, rows * cols + 1, cols, dtype=self.np.uint64)


class _CudaArrayInterface(_Adapter):
    """Any other object with __cuda_array_interface__ (Numba, ...): reductions and
    in-place sorts; gpuprims cannot make new arrays of its type."""
    name = "__cuda_array_interface__"

    def describe(self, a, write):
        ptr, n, code, readonly, stream = _cai(a, type(a).__name__)
        if write and readonly:
            raise ValueError("the array is read-only; it cannot be sorted in place")
        dev = _cuda.pointer_device(ptr)
        # v3: the producer's stream (1 and 2 name the legacy and per-thread defaults)
        return ptr, n, code, dev, 0 if stream in (None, 1) else stream

    def shape(self, a):
        return tuple(a.__cuda_array_interface__["shape"])

    def _cannot(self, *args):
        raise TypeError("gpuprims cannot make a new array of a type it knows only by "
                        "__cuda_array_interface__, and this call returns one (sort without "
                        "out=, argsort, reductions along rows or offsets): pass a CuPy or "
                        "PyTorch array (cupy.asarray(a) wraps it without a copy), or sort "
                        "in place with gpuprims.sort(a, out=a)")

    copy = empty = empty_like = iota = offsets = _cannot


_FACTORIES = {"numpy": _Numpy, "torch": _Torch, "cupy": _Cupy, "jax": _Jax}
_instances: dict = {}
_by_type: dict = {}


def adapter_of(a):
    """The adapter for a's type (resolved once per type)."""
    ad = _by_type.get(type(a))
    if ad is None:
        ad = _by_type[type(a)] = _resolve(a)
    return ad


def _resolve(a):
    mod = type(a).__module__.split(".")[0]
    key = "jax" if mod == "jaxlib" else mod if mod in _FACTORIES else None
    if key == "numpy":
        import numpy
        if not isinstance(a, numpy.ndarray):
            key = None  # a NumPy scalar
    if key is None and hasattr(a, "__cuda_array_interface__"):
        key = "cai"
    if key is None:
        raise TypeError("gpuprims takes NumPy, PyTorch, CuPy or JAX arrays (or an object "
                        "with __cuda_array_interface__); got %s: convert it first, e.g. "
                        "np.asarray(x)" % type(a).__name__)
    ad = _instances.get(key)
    if ad is None:
        ad = _instances[key] = (_CudaArrayInterface() if key == "cai"
                                else _FACTORIES[key]())
    return ad
