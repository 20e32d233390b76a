"""The few CUDA driver calls the package needs to run a call on the right GPU: which
device's context is current on this thread, and making another one current (the
primary context, the one the CUDA runtime, PyTorch and CuPy all share). Loaded lazily
from libcuda.so.1; absent on machines without an NVIDIA driver."""
from __future__ import annotations

import ctypes
from ctypes import POINTER, byref, c_int, c_void_p

_drv = None  # the CDLL, False when there is no driver
_primary: dict = {}


def driver():
    """The driver library with cuInit done, or None without a usable driver."""
    global _drv
    if _drv is None:
        try:
            d = ctypes.CDLL("libcuda.so.1")
            d.cuInit.argtypes = [ctypes.c_uint]
            d.cuCtxGetCurrent.argtypes = [POINTER(c_void_p)]
            d.cuCtxSetCurrent.argtypes = [c_void_p]
            d.cuCtxGetDevice.argtypes = [POINTER(c_int)]
            d.cuDeviceGet.argtypes = [POINTER(c_int), c_int]
            d.cuDeviceGetCount.argtypes = [POINTER(c_int)]
            d.cuDevicePrimaryCtxRetain.argtypes = [POINTER(c_void_p), c_int]
            d.cuPointerGetAttribute.argtypes = [c_void_p, c_int, c_void_p]
            _drv = d if d.cuInit(0) == 0 else False
        except OSError:
            _drv = False
    return _drv or None


def device_count() -> int:
    d = driver()
    n = c_int(0)
    if d is None or d.cuDeviceGetCount(byref(n)) != 0:
        return 0
    return n.value


def current_device() -> int:
    """The device of the context current on this thread; 0 when none is (the runtime
    then initializes device 0, as PyTorch and CuPy do)."""
    d = driver()
    dev = c_int(0)
    if d is None or d.cuCtxGetDevice(byref(dev)) != 0:
        return 0
    return dev.value


def primary_context(device: int) -> int:
    """The primary context of `device` (retained once for the life of the process)."""
    h = _primary.get(device)
    if h is None:
        d = driver()
        dev, ctx = c_int(0), c_void_p()
        if d is None or d.cuDeviceGet(byref(dev), device) != 0:
            raise ValueError("CUDA device %d does not exist (%d devices here)"
                             % (device, device_count()))
        if d.cuDevicePrimaryCtxRetain(byref(ctx), dev) != 0:
            raise RuntimeError("cannot open the primary context of CUDA device %d" % device)
        h = _primary[device] = ctx.value
    return h


def current_context() -> int:
    cur = c_void_p()
    _drv.cuCtxGetCurrent(byref(cur))
    return cur.value or 0


def set_current(h: int) -> None:
    _drv.cuCtxSetCurrent(h)


def pointer_device(ptr: int) -> int:
    """The device that owns device pointer ptr (the current device for 0)."""
    dev = c_int(0)
    # 9: CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL
    if ptr and driver() is not None and _drv.cuPointerGetAttribute(byref(dev), 9, ptr) == 0:
        return dev.value
    return current_device()
