"""Context: one libgpuprims context (backend, device, stream). The C contract is one
host thread per context, so the default contexts are per thread and per device; a
Context you make yourself belongs to the thread that uses it."""
from __future__ import annotations

import ctypes
import threading
from dataclasses import dataclass
from typing import Optional

from . import _cuda
from . import _lib as L
from .errors import error_for

_BACKENDS = {"auto": L.BACKEND_AUTO, "cuda": L.BACKEND_CUDA, "cpu": L.BACKEND_CPU}


_tls = threading.local()


class _ThreadState:
    """One thread's ``with Context(...)`` stack and default contexts (by device), in
    one thread-local attribute: each thread-local read costs about as much as a
    Python call, and a getattr default that misses raises inside (0.7 us)."""
    __slots__ = ("stack", "ctxs")

    def __init__(self):
        self.stack = []
        self.ctxs = {}


def _state() -> _ThreadState:
    try:
        return _tls.state
    except AttributeError:
        s = _tls.state = _ThreadState()
        return s


@dataclass(frozen=True)
class DeviceInfo:
    """What a context runs on (gp_get_device_info)."""
    backend: str
    name: str
    compute_capability: tuple
    sm_count: int
    threads: int
    global_mem_bytes: int
    l2_bytes: int
    mem_clock_khz: float
    mem_bus_bits: int


def _stream_ptr(stream) -> int:
    """A cudaStream_t from an int, a torch.cuda.Stream or a cupy Stream."""
    if isinstance(stream, int):
        return stream
    for attr in ("cuda_stream", "ptr"):
        v = getattr(stream, attr, None)
        if isinstance(v, int):
            return v
    raise TypeError("stream must be a cudaStream_t as an int, a torch.cuda.Stream or a "
                    "cupy.cuda.Stream; got %s" % type(stream).__name__)


class Context:
    """A gpuprims context.

    backend: "auto" (CUDA when a GPU is usable, else the CPU), "cuda" or "cpu".
    device: the CUDA device ordinal (default: the current device).
    stream: a stream every call of this context launches on (an int cudaStream_t, a
        torch.cuda.Stream or a cupy.cuda.Stream). Default None: each call uses the
        current stream of the array's framework (torch.cuda.current_stream(),
        cupy.cuda.get_current_stream()), so work orders with the caller's.

    Every function takes ctx=...; ``with Context("cpu"):`` makes it this thread's
    context for the calls inside the block.

    >>> import numpy as np, gpuprims
    >>> with gpuprims.Context("cpu") as c:
    ...     gpuprims.sum(np.arange(10, dtype=np.int32))
    45
    """

    def __init__(self, backend: str = "auto", device: Optional[int] = None, stream=None):
        code = _BACKENDS.get(backend)
        if code is None:
            raise ValueError("backend must be 'auto', 'cuda' or 'cpu'; got %r" % (backend,))
        self._h = None
        self._hp = None       # _h as a pointer argument, made once (c_void_p.from_param)
        self._cu = 0          # primary context to make current around calls (multi-GPU)
        self.device = None    # CUDA ordinal, None on the CPU backend
        h = ctypes.c_void_p()
        cu = 0
        if code != L.BACKEND_CPU and _cuda.device_count() > 0:
            dev = _cuda.current_device() if device is None else int(device)
            cu = _cuda.primary_context(dev)
            prev = _cuda.current_context()
            if prev != cu:
                _cuda.set_current(cu)
            try:
                st = L.create(ctypes.byref(h), code)
            finally:
                if prev not in (0, cu):
                    _cuda.set_current(prev)
        else:
            if device is not None and code != L.BACKEND_CPU:
                raise ValueError("device=%d asked for, but no CUDA GPU is usable here"
                                 % device)
            st = L.create(ctypes.byref(h), code)
        self._h = h.value
        if st:
            msg = L.last_error(self._h).decode() if self._h else ""
            L.destroy(self._h)
            self._h = None
            raise error_for(st, msg)
        self._hp = ctypes.c_void_p.from_param(self._h)
        self.backend = "cuda" if L.backend_of(self._h) == L.BACKEND_CUDA else "cpu"
        if self.backend == "cuda":
            self.device = dev
            self._cu = cu if _cuda.device_count() > 1 else 0
        self._stream = 0      # the stream the C context has now
        self._fixed = None if stream is None else _stream_ptr(stream)
        self._host_stream = self._fixed or 0  # the stream for host data
        if self._fixed:
            self._set_stream(self._fixed)
        # one 8-byte result slot, seen as each dtype (indexed by gp_dtype)
        self._buf = (ctypes.c_char * 8)()
        self._addr = ctypes.addressof(self._buf)
        self._out = ctypes.byref(self._buf)   # the slot as a pointer argument
        self._views = tuple(t.from_buffer(self._buf) for t in (
            ctypes.c_float, ctypes.c_double, ctypes.c_int32, ctypes.c_int64,
            ctypes.c_uint32, ctypes.c_uint64))

    # -- life cycle --
    def close(self) -> None:
        """Frees the C context (waits for its stream). Further calls raise."""
        if self._h:
            L.destroy(self._h)
            self._h = self._hp = None

    def __del__(self):
        if getattr(self, "_h", None) and L is not None and L.destroy is not None:
            L.destroy(self._h)
            self._h = None

    def __enter__(self) -> "Context":
        _state().stack.append(self)
        return self

    def __exit__(self, *exc) -> None:
        _tls.state.stack.pop()

    def __repr__(self) -> str:
        where = "cuda:%d" % self.device if self.device is not None else "cpu"
        return "gpuprims.Context(%s)" % where

    # -- what it runs on --
    def info(self) -> DeviceInfo:
        i = L.DeviceInfo()
        self._check(L.get_device_info(self._h, ctypes.byref(i)))
        return DeviceInfo(self.backend, i.name.decode(errors="replace"),
                          (i.cc_major, i.cc_minor), i.sm_count, i.threads,
                          i.global_mem_bytes, i.l2_bytes, i.mem_clock_khz, i.mem_bus_bits)

    def synchronize(self) -> None:
        """Waits for everything this context has launched."""
        self._check(L.synchronize(self._h))

    # -- used by every call --
    def _error(self, status: int):
        return error_for(status, L.last_error(self._h).decode(errors="replace"))

    def _check(self, status: int) -> None:
        if status:
            raise self._error(status)

    def _set_stream(self, s: int) -> None:
        self._check(L.set_stream(self._h, s))
        self._stream = s

    def _prepare(self, device, stream) -> None:
        """Before a call on arrays that live on `device` (None: host memory) whose
        framework works on `stream`: check the device, take the stream."""
        if self._h is None:
            raise ValueError("the context is closed")
        if device is None:
            s = self._host_stream
        else:
            if device != self.device:
                raise ValueError(
                    "the array is on cuda:%d but the context is %s: use the array's "
                    "device (the default context does), or move the array" % (
                        device, "the CPU backend" if self.device is None
                        else "on cuda:%d" % self.device))
            s = self._fixed if self._fixed is not None else stream
        if s != self._stream:
            self._set_stream(s)

    def _call(self, fn, *args) -> None:
        """fn(ctx, *args) on this context's GPU; raises the status as an exception.
        The context goes as _hp, which argtypes P and the L.*_bare functions both
        take."""
        if self._cu:
            prev = _cuda.current_context()
            if prev != self._cu:
                _cuda.set_current(self._cu)
                try:
                    st = fn(self._hp, *args)
                finally:
                    if prev:
                        _cuda.set_current(prev)
                if st:
                    raise self._error(st)
                return
        st = fn(self._hp, *args)
        if st:
            raise self._error(st)


def default_context(device: Optional[int] = None) -> Context:
    """This thread's context for arrays on `device` (None: host arrays, backend
    "auto"), made on first use."""
    ctxs = _state().ctxs
    c = ctxs.get(device)
    if c is None:
        c = ctxs[device] = Context("auto" if device is None else "cuda", device=device)
    return c


def context_for(ctx: Optional[Context], device) -> Context:
    """ctx if given, else the innermost ``with Context(...)``, else the default."""
    if ctx is not None:
        return ctx
    try:
        t = _tls.state
    except AttributeError:
        t = _state()
    if t.stack:
        return t.stack[-1]
    c = t.ctxs.get(device)
    return c if c is not None else default_context(device)
